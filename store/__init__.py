"""Darwin's persistence: games, their action logs and results in SQLite (aiosqlite).

No discord here: the game host is the only user. See ``Store`` (store/db.py) for the API,
``store/migrations/`` for the schema (numbered SQL files, applied forward at open).
"""

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
    "load_migrations",
]
