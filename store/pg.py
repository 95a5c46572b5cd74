"""PostgreSQL under the Store: one asyncpg connection that speaks the SQLite store's SQL.

``Store.open("postgresql://user:password@host:5432/darwin")`` opens this backend; every method
of the Store runs unchanged on it. ``PgConnection`` has the few aiosqlite methods the store
uses (``execute``, ``execute_fetchall``, ``executemany``, ``close``) and translates each
statement once (cached): ``?`` placeholders become ``$1..$n``, ``BEGIN IMMEDIATE`` becomes
``BEGIN``, ``INSERT OR REPLACE`` / ``INSERT OR IGNORE`` become ``ON CONFLICT`` upserts. The
schema is store/migrations_pg/ (the same versions as SQLite's), applied forward at open.

Across processes: ``record_action``'s guarded ``UPDATE ... WHERE seq = $n`` re-checks the row
after a concurrent writer commits (PostgreSQL's READ COMMITTED), so one of two racing writers
gets StaleWrite; the check-then-insert writes (one live game per channel, a rematch, a
server's ratings) take a transaction-scoped advisory lock on their key first (``serialize``).
"""

from __future__ import annotations

import contextlib
import functools
import re
import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .errors import BackendError, MigrationError, SchemaTooNew, StoreError

SCHEMES = ("postgresql://", "postgres://")

# INSERT OR REPLACE needs the table's key to become an upsert
_KEYS = {
    "guild_settings": ("guild_id",),
    "ratings": ("guild_id", "kind", "player_id"),
}
_MIGRATION_LOCK = 0x6461727769  # "darwi": one process migrates at a time


def is_url(target: Any) -> bool:
    return isinstance(target, str) and target.startswith(SCHEMES)


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=user + host))


@functools.lru_cache(maxsize=512)
def translate(sql: str) -> str:
    """One statement of the store's (SQLite) SQL in PostgreSQL's dialect."""
    if sql == "BEGIN IMMEDIATE":
        return "BEGIN"
    count = 0

    def number(_match: re.Match) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    out = re.sub(r"\?", number, sql)  # the store's SQL has no '?' inside a string
    upsert = re.match(r"\s*INSERT OR (REPLACE|IGNORE) INTO (\w+) \(([^)]*)\)", out)
    if upsert:
        how, table, columns = upsert.groups()
        out = f"INSERT INTO {table} ({columns})" + out[upsert.end():]
        if how == "IGNORE":
            out += " ON CONFLICT DO NOTHING"
        else:
            keys = _KEYS[table]
            names = [c.strip() for c in columns.split(",")]
            sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in names if c not in keys)
            out += f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {sets}"
    return out


class Cursor:
    """What ``execute`` returns: the rows an UPDATE or DELETE touched."""

    __slots__ = ("rowcount",)

    def __init__(self, rowcount: int) -> None:
        self.rowcount = rowcount


def _rowcount(status: str) -> int:
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgConnection:
    """An asyncpg connection with aiosqlite's surface (only what the store uses).

    A lost connection is opened again before the next transaction or read (never in the
    middle of a transaction: that one fails and is rolled back by the server)."""

    def __init__(self, conn: Any, url: str) -> None:
        self._conn = conn
        self._url = url
        self._in_transaction = False

    async def _ready(self, sql: str) -> Any:
        if self._conn.is_closed() and (sql == "BEGIN" or not self._in_transaction):
            self._conn = await connect(self._url)
            self._in_transaction = False
        return self._conn

    async def execute(self, sql: str, params: tuple | list = ()) -> Cursor:
        text = translate(sql)
        try:
            conn = await self._ready(text)
            if text == "BEGIN":
                self._in_transaction = True
            elif text in ("COMMIT", "ROLLBACK"):
                self._in_transaction = False
            status = await conn.execute(text, *params)
        except Exception as exc:
            raise self._failure(exc) from exc
        return Cursor(_rowcount(status or ""))

    async def execute_fetchall(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        text = translate(sql)
        try:
            conn = await self._ready(text)
            return [tuple(r) for r in await conn.fetch(text, *params)]
        except Exception as exc:
            raise self._failure(exc) from exc

    async def executemany(self, sql: str, rows: list) -> None:
        rows = list(rows)
        if not rows:
            return
        text = translate(sql)
        try:
            conn = await self._ready(text)
            await conn.executemany(text, rows)
        except Exception as exc:
            raise self._failure(exc) from exc

    def _failure(self, exc: Exception) -> Exception:
        """The store's error for exc; a connection that may be broken (the network, the
        server shutting it, the client's protocol state) is dropped, to be opened again
        before the next transaction."""
        import asyncpg

        failure = _failure(exc)
        if failure is not exc and not (isinstance(exc, asyncpg.PostgresError) and not
                                       str(exc.sqlstate or "").startswith(("08", "57P"))):
            self._conn.terminate()
        return failure

    async def serialize(self, key: str) -> None:
        """Wait for, and hold until the transaction ends, the lock named ``key`` (other
        processes' check-then-insert on the same key wait here)."""
        await self.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (key,))

    async def close(self) -> None:
        if not self._conn.is_closed():
            await self._conn.close()

    @property
    def raw(self) -> Any:
        """The asyncpg connection (tests, copying)."""
        return self._conn


def _failure(exc: Exception) -> Exception:
    """asyncpg's and the network's errors as the store's database error; others as they are."""
    import asyncpg

    if isinstance(exc, (asyncpg.PostgresError, asyncpg.InterfaceError,
                        asyncpg.InternalClientError, OSError)):
        return BackendError(f"{type(exc).__name__}: {exc}")
    return exc


async def connect(url: str, timeout: float = 10.0) -> Any:
    """An asyncpg connection, or StoreError with one sentence for the admin."""
    try:
        import asyncpg
    except ImportError as exc:
        raise StoreError("database_url names a PostgreSQL server, but the asyncpg package is "
                         "not installed: pip install -r requirements.txt") from exc
    shown = redact(url)
    try:
        return await asyncpg.connect(url, timeout=timeout)
    except (asyncpg.InvalidPasswordError,
            asyncpg.InvalidAuthorizationSpecificationError) as exc:
        raise StoreError(f"The PostgreSQL server at {shown} refused the login ({exc}): check "
                         f"the user name and password in database_url (or DATABASE_URL); "
                         f"Darwin did not start.") from exc
    except asyncpg.InvalidCatalogNameError as exc:
        raise StoreError(f"The PostgreSQL database named in {shown} does not exist ({exc}): "
                         f"create it (createdb) or fix database_url; Darwin did not start."
                         ) from exc
    except (OSError, TimeoutError, asyncpg.CannotConnectNowError) as exc:
        raise StoreError(f"The PostgreSQL server at {shown} cannot be reached ({exc or 'timed out'}): "
                         f"check that it is running and that database_url (or DATABASE_URL) "
                         f"names the right host and port; Darwin did not start.") from exc
    except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
        raise StoreError(f"The PostgreSQL database {shown} cannot be opened ({exc}); Darwin "
                         f"did not start.") from exc


async def current_version(db: PgConnection) -> int:
    rows = await db.execute_fetchall("SELECT to_regclass('schema_version') IS NOT NULL")
    if not rows[0][0]:
        return 0
    return (await db.execute_fetchall("SELECT MAX(version) FROM schema_version"))[0][0] or 0


async def migrate(db: PgConnection, migrations: list, name: str) -> tuple[int, int]:
    """Apply the migrations the database lacks, one transaction each (with its
    schema_version row); (version found, version reached). SchemaTooNew for a database
    written by a newer Darwin."""
    from .migrate import check_sequence

    check_sequence(migrations)
    latest = migrations[-1].version if migrations else 0
    found = version = await current_version(db)
    if found > latest:
        raise SchemaTooNew(name, found, latest)
    for m in migrations:
        if m.version <= version:
            continue
        await db.execute("BEGIN")
        try:
            await db.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                             "version INTEGER PRIMARY KEY, "
                             "applied_at DOUBLE PRECISION NOT NULL)")
            # re-read under the lock: another process may have migrated meanwhile
            done = (await db.execute_fetchall("SELECT MAX(version) FROM schema_version"))[0][0]
            if (done or 0) >= m.version:
                await db.execute("ROLLBACK")
                version = done
                continue
            await db.execute(m.sql)  # the whole file: no parameters, several statements
            await db.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                             (m.version, time.time()))
            await db.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(BackendError):
                await db.execute("ROLLBACK")
            if isinstance(exc, BackendError):
                raise MigrationError(
                    f"migration {m.name} failed and was rolled back "
                    f"(the database stays at version {version}): {exc}") from exc
            raise
        version = m.version
    return found, version


async def open_connection(url: str) -> tuple[PgConnection, int, int]:
    """Connect and migrate: (connection, version found, version reached)."""
    from .migrate import load_migrations

    db = PgConnection(await connect(url), url)
    try:
        found, version = await migrate(db, load_migrations("migrations_pg"), redact(url))
    except BaseException as exc:
        await db.close()
        if isinstance(exc, BackendError):
            raise StoreError(f"The PostgreSQL database {redact(url)} cannot be used "
                             f"({exc}); Darwin did not start.") from exc
        raise
    return db, found, version
