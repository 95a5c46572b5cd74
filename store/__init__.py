"""Darwin's persistence: games, their action logs and results in SQLite (aiosqlite) or
PostgreSQL (asyncpg).

No discord here: the game host is the only user. See ``Store`` (store/db.py) for the API,
``store/migrations/`` for the schema (numbered SQL files, applied forward at open;
``store/migrations_pg/`` for PostgreSQL), ``store/copy.py`` to copy one store into another.
"""

from collections.abc import Mapping

from .db import SETTINGS, Store
from .errors import (
    ChannelBusy,
    CorruptRow,
    GameNotFound,
    MigrationError,
    RematchTaken,
    SchemaTooNew,
    StaleWrite,
    StoreDamaged,
    StoreError,
    StoreNotWritable,
    WrongStatus,
)
from .migrate import Migration, load_migrations
from .rows import ActionRow, Decoded, GameRow, RatingChangeRow, RatingRow, ResultRow


def configured_target(config: Mapping) -> str:
    """What ``Store.open`` takes for a configuration: ``[storage] database_url`` when set
    (PostgreSQL; bot.py puts DATABASE_URL there), else the SQLite file ``database``."""
    storage = config["storage"]
    return (storage.get("database_url") or "").strip() or str(storage["database"])


__all__ = [
    "ActionRow",
    "ChannelBusy",
    "CorruptRow",
    "Decoded",
    "GameNotFound",
    "GameRow",
    "Migration",
    "MigrationError",
    "RatingChangeRow",
    "RatingRow",
    "RematchTaken",
    "ResultRow",
    "SETTINGS",
    "SchemaTooNew",
    "StaleWrite",
    "Store",
    "StoreDamaged",
    "StoreError",
    "StoreNotWritable",
    "WrongStatus",
    "configured_target",
    "load_migrations",
]
