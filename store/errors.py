"""The store's exceptions. Every failure of the database itself surfaces as a StoreError."""

from __future__ import annotations


class StoreError(Exception):
    """The store cannot do what was asked (the database, its schema, or a game's row)."""


class SchemaTooNew(StoreError):
    """The database was written by a newer Darwin: its schema version is unknown to this code."""

    def __init__(self, path: str, version: int, latest: int) -> None:
        super().__init__(
            f"database {path} has schema version {version}, but this version of Darwin only "
            f"knows versions up to {latest}: upgrade Darwin (or restore an older backup); "
            f"the database was left untouched"
        )
        self.path = path
        self.version = version
        self.latest = latest


class BackendError(StoreError):
    """The database server or its driver failed a statement (PostgreSQL: asyncpg's errors and
    a lost connection), as sqlite3.Error does for SQLite. The store turns it into a StoreError
    with a sentence; callers need not catch it apart."""


class MigrationError(StoreError):
    """A migration file is misnamed, missing from the sequence, or failed (and was rolled back)."""


class GameNotFound(StoreError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class ChannelBusy(StoreError):
    """The channel already has a live (lobby or active) game."""

    def __init__(self, channel_id: str, game_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has a live game ({game_id})")
        self.channel_id = channel_id
        self.game_id = game_id


class RematchTaken(StoreError):
    """A finished game already opened its rematch (a game names it once only)."""

    def __init__(self, game_id: int, rematch_id: int | None) -> None:
        super().__init__(f"game {game_id} already had its rematch ({rematch_id})")
        self.game_id = game_id
        self.rematch_id = rematch_id


class WrongStatus(StoreError):
    """The game is not in a status this operation applies to (nothing was written)."""

    def __init__(self, game_id: int, status: str, allowed: tuple[str, ...]) -> None:
        super().__init__(
            f"game {game_id} is {status!r}; this needs {' or '.join(map(repr, allowed))}"
        )
        self.game_id = game_id
        self.status = status
        self.allowed = allowed


class StaleWrite(StoreError):
    """record_action was based on a seq (or status) that is no longer the stored one.

    Nothing was written: reload the game and decide again.
    """

    def __init__(self, game_id: int, expected_seq: int, seq: int, status: str) -> None:
        super().__init__(
            f"stale write to game {game_id}: expected seq {expected_seq} while active, "
            f"stored seq is {seq} with status {status!r}"
        )
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.seq = seq
        self.status = status


class CorruptRow(StoreError, ValueError):
    """A stored row cannot be decoded (bad JSON, not an object, impossible values).

    Also a ValueError, like the other "this saved data is unusable" errors a loader catches.
    """

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} is corrupt: {reason}")
        self.game_id = game_id
        self.reason = reason


class StoreNotWritable(StoreError):
    """At start: the database file opens but cannot be written."""

    def __init__(self, path: str, detail: str, advice: str | None = None) -> None:
        advice = advice or ("Check the permissions of the file and of its folder, the free "
                            "disk space, and that no other program holds it")
        super().__init__(f"The database {path} cannot be written ({detail}). {advice}; "
                         f"Darwin did not start.")
        self.path = path


class StoreDamaged(StoreError):
    """At start: the database file fails SQLite's integrity check (damaged pages)."""

    def __init__(self, path: str, problem: str, games: list[int] | None) -> None:
        if games:
            which = "games affected: " + ", ".join(map(str, games))
        elif games is None:
            which = "which games are affected could not be told"
        else:
            which = "no game's rows are unreadable (the damage is in an index)"
        super().__init__(
            f"The database {path} is damaged ({problem}); {which}. Darwin will not run on a "
            f"damaged file: stop it, keep a copy, and restore a backup or recover the file "
            f"with: sqlite3 {path} .recover | sqlite3 recovered.sqlite3"
        )
        self.path = path
        self.problem = problem
        self.games = games
