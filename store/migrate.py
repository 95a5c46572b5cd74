"""Versioned schema migrations: numbered SQL files in store/migrations/, applied forward.

A migration is ``migrations/NNNN_name.sql`` (NNNN = its version, 0001 first, no gaps). At open,
every migration newer than the database's version is applied in order, each in its own
``BEGIN IMMEDIATE`` transaction together with its row in ``schema_version``: a migration that
fails leaves the database exactly at the previous version.

Inside a transaction SQLite ignores ``PRAGMA foreign_keys``: a future migration that rebuilds a
table (the 12-step ALTER) must not rely on switching foreign keys off.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from .errors import MigrationError

_NAME = re.compile(r"(\d{4})_[A-Za-z0-9_]+\.sql")

VERSION_TABLE = """CREATE TABLE IF NOT EXISTS schema_version (
    version     INTEGER PRIMARY KEY,
    applied_at  REAL NOT NULL
) STRICT"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(folder: str = "migrations") -> list[Migration]:
    """The migrations shipped in store/migrations/ (SQLite; ``migrations_pg``: PostgreSQL's,
    the same versions), in order (checked: 1, 2, ... without gaps)."""
    found = []
    for entry in (resources.files(__package__) / folder).iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _NAME.fullmatch(entry.name)
        if match is None:
            raise MigrationError(f"migration file {entry.name!r} is not named NNNN_name.sql")
        found.append(Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    check_sequence(found)
    return found


def check_sequence(migrations: list[Migration]) -> None:
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise MigrationError(f"migration versions must be 1, 2, 3... without gaps: {versions}")


def split_sql(sql: str) -> list[str]:
    """The statements of a script, split where SQLite itself sees a statement end (so ';'
    inside strings, comments and trigger bodies does not split)."""
    statements = []
    start = 0
    for i, ch in enumerate(sql):
        if ch == ";" and sqlite3.complete_statement(sql[start:i + 1]):
            statements.append(sql[start:i + 1].strip())
            start = i + 1
    rest = "\n".join(line for line in sql[start:].splitlines()
                     if line.strip() and not line.strip().startswith("--"))
    if rest.strip():
        raise MigrationError(f"unterminated SQL statement: {rest.strip()[:80]!r}")
    return statements


async def current_version(db: aiosqlite.Connection) -> int:
    """The database's schema version (0 for a new, empty database). Reads only."""
    rows = await db.execute_fetchall(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
    if not rows:
        return 0
    rows = await db.execute_fetchall("SELECT MAX(version) FROM schema_version")
    return rows[0][0] or 0


async def migrate(db: aiosqlite.Connection, migrations: list[Migration]) -> int:
    """Apply the migrations the database lacks, one transaction each; the version reached.

    The connection must be in autocommit mode (isolation_level=None).
    """
    check_sequence(migrations)
    version = await current_version(db)
    for m in migrations:
        if m.version <= version:
            continue
        statements = split_sql(m.sql)  # a malformed file fails before its transaction starts
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.execute(VERSION_TABLE)
            # re-read under the write lock: another process may have migrated meanwhile
            rows = await db.execute_fetchall("SELECT MAX(version) FROM schema_version")
            if (rows[0][0] or 0) >= m.version:
                await db.execute("ROLLBACK")
                version = rows[0][0]
                continue
            for statement in statements:
                await db.execute(statement)
            await db.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                             (m.version, time.time()))
            await db.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                await db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise MigrationError(
                    f"migration {m.name} failed and was rolled back "
                    f"(the database stays at version {version}): {exc}") from exc
            raise
        version = m.version
    return version
