"""Copy every row of one store into another, e.g. a SQLite file into PostgreSQL (or back):
``python bot.py migrate --from sqlite:PATH --to postgresql://...``.

Both stores are opened (and so migrated) by this version of Darwin: their schemas are the same.
The target must be empty; everything is written in one transaction on it, the row counts are
checked in that transaction (a difference rolls it all back), and the game ids are kept (a
PostgreSQL target's id sequence is moved past the last one). Stop the bot before copying: rows
written meanwhile would not be copied.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import pg
from .db import Store
from .errors import StoreError

# (table, columns, order): parents before the rows that refer to them
TABLES = (
    ("games", "id, guild_id, channel_id, kind, status, options, lobby, state, seq, error, "
              "created_at, updated_at, wake_at, rematch_of", "id"),
    ("actions", "game_id, seq, actor, action, at", "game_id, seq"),
    ("results", "game_id, user_id, seat, name, rank, score, kind, finished_at, ai_level",
     "game_id, seat"),
    ("guild_settings", "guild_id, language, turn_timer, ai_delay, ai_level, thread, "
                       "manager_role, web_page, updated_at", "guild_id"),
    ("ratings", "guild_id, kind, player_id, mu, sigma, games, updated_at",
     "guild_id, kind, player_id"),
    ("rating_changes", "game_id, player_id, guild_id, kind, rank, mu_before, sigma_before, "
                       "mu_after, sigma_after, at", "game_id, player_id"),
    ("web_links", "token, scope, game_id, guild_id, created_at, revoked_at", "token"),
)


def parse_target(text: str) -> str:
    """``sqlite:PATH`` (or a plain path) -> the path; ``postgresql://...`` as it is."""
    if pg.is_url(text):
        return text
    if text.startswith("sqlite:"):
        text = text[len("sqlite:"):]
        if text.startswith("//"):  # sqlite:///abs/path
            text = text[2:]
    if not text:
        raise StoreError("no SQLite file named: write sqlite:PATH")
    return text


async def table_rows(store: Store, table: str) -> list[tuple]:
    """Every row of one of TABLES, in its key's order."""
    for name, columns, order in TABLES:
        if name == table:
            return await store._read(f"SELECT {columns} FROM {name} ORDER BY {order}")
    raise KeyError(table)


async def copy_store(source: Store, target: Store) -> dict[str, int]:
    """Copy every row of source into the empty target, in one transaction; the number of
    rows of each table (checked equal in both before the COMMIT). StoreError, with nothing
    written, if the target is not empty or a row cannot be written."""
    data = {table: await table_rows(source, table) for table, _, _ in TABLES}

    async def body(db) -> dict[str, int]:
        for table, _, _ in TABLES:
            count = (await db.execute_fetchall(f"SELECT COUNT(*) FROM {table}"))[0][0]
            if count:
                raise StoreError(f"The target {target.path} is not empty ({table} has {count} "
                                 f"rows): Darwin copies into an empty database only; nothing "
                                 f"was written.")
        for table, columns, _ in TABLES:
            marks = ", ".join("?" for _ in columns.split(","))
            await db.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                                 data[table])
        if target.backend == "postgresql":  # new games get ids after the copied ones
            await db.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), "
                             "COALESCE(MAX(id), 0) + 1, false) FROM games")
        counts = {}
        for table, _, _ in TABLES:
            counts[table] = (await db.execute_fetchall(f"SELECT COUNT(*) FROM {table}"))[0][0]
            if counts[table] != len(data[table]):
                raise StoreError(f"{table}: {len(data[table])} rows read from {source.path} but "
                                 f"{counts[table]} in {target.path}; nothing was written.")
        return counts

    return await target._write(body)


async def copy_between(source: str, target: str) -> dict[str, int]:
    """Open both stores (``sqlite:PATH``, a path or a ``postgresql://`` URL) and copy; the
    counts. A source SQLite file that does not exist is refused (it would be created)."""
    source, target = parse_target(source), parse_target(target)
    if not pg.is_url(source) and not os.path.exists(source):
        raise StoreError(f"No database at {source}: nothing to copy.")
    if not pg.is_url(target) and not pg.is_url(source) and \
            Path(source).resolve() == Path(target).resolve():
        raise StoreError("The source and the target are the same file.")
    async with Store.open(source) as src, Store.open(target) as dst:
        return await copy_store(src, dst)
