"""The Store: Darwin's games in one SQLite file, through aiosqlite (or in PostgreSQL).

One connection, one operation at a time (an asyncio.Lock), so a transaction's statements never
interleave with another coroutine's. Every write is one ``BEGIN IMMEDIATE`` ... ``COMMIT``: when a
write method returns, all of it is durable (synchronous=FULL); when it raises, none of it was
written. A write whose caller is cancelled still runs to its end (commit or rollback) in the
background, so the database never holds half of one; the caller no longer knows which, and
should reload the game (get_game) before acting on it again.

``Store.open("postgresql://...")`` gives the same store on PostgreSQL (store/pg.py): the same
SQL, translated, on one asyncpg connection, and the same transactions.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import os
import secrets
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from . import migrate, pg
from .errors import (
    BackendError,
    ChannelBusy,
    GameNotFound,
    RematchTaken,
    SchemaTooNew,
    StaleWrite,
    StoreDamaged,
    StoreError,
    StoreNotWritable,
    WrongStatus,
)
from .rows import (
    GAME_COLUMNS,
    LIVE,
    RESULT_COLUMNS,
    ActionRow,
    GameRow,
    RatingChangeRow,
    RatingRow,
    ResultRow,
    decode,
    encode,
    result_params,
)

log = logging.getLogger("darwin.store")

MIN_SQLITE = (3, 37, 0)  # STRICT tables
# writes committed together at most (one transaction, one fsync); measured at 2,000 live
# games of the four games (SQLite, one process): 8 instead of 64 doubled the steady median
# (36 -> 70 ms) and made the p99 2 s (more commits than the disk's fsyncs could keep up with)
MAX_BATCH = 64
WEB_TOKEN_BYTES = 18  # a web link's random part: 144 bits (24 URL-safe characters)
KEEP = object()  # update_lobby: leave wake_at as it is
T = TypeVar("T")

_LIVE_SQL = "status IN ('lobby', 'active')"  # word for word the partial index's WHERE
DB_ERRORS = (sqlite3.Error, BackendError)  # what a database (or its driver) raises


async def _serialize(db: Any, key: str) -> None:
    """Before a check-then-insert: hold the lock named ``key`` until the transaction ends.
    SQLite's BEGIN IMMEDIATE already serializes every write; PostgreSQL takes an advisory
    lock, so that other processes' writes on the same key wait."""
    serialize = getattr(db, "serialize", None)
    if serialize is not None:
        await serialize(key)


def _text(raw: bytes) -> str:
    """Text factory: bytes that are not UTF-8 are kept (as surrogates) instead of failing the
    whole query, so one damaged row cannot hide the others; decoding that row reports it."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "surrogateescape")


def _snowflake(value: Any, what: str, *, nullable: bool = False) -> str | None:
    """Discord ids are stored as text: accept an int or a non-empty str."""
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)) or value == "":
        raise TypeError(f"{what} must be an int or a non-empty str, not {value!r}")
    return str(value)


def _time(now: Any) -> float:
    if isinstance(now, bool) or not isinstance(now, (int, float)):
        raise TypeError(f"now must be a number (seconds), not {now!r}")
    return float(now)


def _seq(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(f"expected_seq must be an int >= 0, not {value!r}")
    return value


@functools.lru_cache(maxsize=8)
def expected_schema(version: int) -> dict[str, tuple[str, ...]]:
    """The tables, with their columns, that a database at schema ``version`` has: the
    shipped SQLite migrations up to it, applied to an empty in-memory database.
    (PostgreSQL's migrations, the same versions, make the same tables and columns.)"""
    con = sqlite3.connect(":memory:")
    try:
        con.execute(migrate.VERSION_TABLE)
        for m in migrate.load_migrations():
            if m.version > version:
                break
            for statement in migrate.split_sql(m.sql):
                con.execute(statement)
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: tuple(r[1] for r in con.execute(f"PRAGMA table_info({t})")) for t in tables}
    finally:
        con.close()


class _Opening:
    """What Store.open returns: await it, or use it as ``async with Store.open(p) as store``."""

    __slots__ = ("_path", "_busy_timeout_ms", "_store")

    def __init__(self, path: str | os.PathLike[str], busy_timeout_ms: int) -> None:
        self._path = path
        self._busy_timeout_ms = busy_timeout_ms
        self._store: Store | None = None

    def __await__(self):
        return Store._open(self._path, self._busy_timeout_ms).__await__()

    async def __aenter__(self) -> Store:
        self._store = await Store._open(self._path, self._busy_timeout_ms)
        return self._store

    async def __aexit__(self, *exc_info: object) -> None:
        if self._store is not None:
            await self._store.close()



def _cannot_open(name: str, exc: BaseException) -> StoreError:
    """The sentence for a SQLite file that cannot be opened: a permission problem (the
    folder or the file cannot be written by this user) is told as one, not as damage."""
    path = Path(name).absolute()
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the nearest folder that exists: where creating failed
    who = f"this user (uid {os.getuid()})" if hasattr(os, "getuid") else "this user"
    fix = ("give the user running Darwin write permission on {what}, or set [storage] "
           "database (or DARWIN_DATABASE) to a path it may write; Darwin did not start.")
    if path.is_dir():
        return StoreError(f"The database {name} is a folder, not a file: set [storage] database "
                          f"(or DARWIN_DATABASE) to a file's path; Darwin did not start.")
    if not os.access(folder, os.W_OK | os.X_OK) or (
            isinstance(exc, OSError) and not path.exists()):
        return StoreError(f"The database {name} cannot be created or written: {who} may not "
                          f"write in the folder {folder} ({exc}); "
                          + fix.format(what="that folder (SQLite writes its -wal and -shm "
                                            "files there too)"))
    if (path.exists() and not os.access(path, os.R_OK | os.W_OK)) or "readonly" in str(exc):
        return StoreError(f"The database {name} cannot be written: {who} may not write the "
                          f"file ({exc}), or its file system is read-only: "
                          + fix.format(what="the file and its folder"))
    return StoreError(f"The database {name} cannot be opened ({exc}): if the file is damaged, "
                      f"keep a copy and restore a backup.")


class Store:
    """Games, their actions and results. Create with ``await Store.open(path)``."""

    def __init__(self, db: aiosqlite.Connection | pg.PgConnection, path: str,
                 version: int) -> None:
        self._db: aiosqlite.Connection | pg.PgConnection | None = db
        self._path = path
        self._version = version
        self._lock = asyncio.Lock()
        self._closing = False
        self._urgent: collections.deque = collections.deque()  # (body, future)
        self._queued: collections.deque = collections.deque()
        self._writer: asyncio.Future | None = None

    # ------------------------------------------------------------------ open / close

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, busy_timeout_ms: int = 5000) -> _Opening:
        """Open (creating its folder and file if missing) and migrate the database at path.

        ``":memory:"`` gives a private in-memory database (tests). A ``postgresql://`` URL
        opens that PostgreSQL database instead (store/pg.py; it must exist, its tables are
        made at open). Raises SchemaTooNew if the database was written by a newer Darwin,
        MigrationError if a migration fails (rolled back), StoreError if the file cannot be
        opened as a database (for PostgreSQL: a sentence for an unreachable server or a
        refused login).
        """
        return _Opening(path, busy_timeout_ms)

    @classmethod
    async def _open(cls, path: str | os.PathLike[str], busy_timeout_ms: int) -> Store:
        if pg.is_url(path):
            conn, found, version = await pg.open_connection(path)
            name = pg.redact(path)
            if version != found:
                log.info("database %s migrated from schema version %d to %d", name, found,
                         version)
            return cls(conn, name, version)
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old: Darwin needs "
                             f"{'.'.join(map(str, MIN_SQLITE))} or newer")
        name = os.fspath(path)
        memory = name == ":memory:"
        connection = None
        try:
            if not memory:
                Path(name).parent.mkdir(parents=True, exist_ok=True)
            connection = aiosqlite.connect(name, isolation_level=None,
                                           timeout=busy_timeout_ms / 1000)
            db = await connection
        except (OSError, sqlite3.Error) as exc:
            # aiosqlite's thread still has to stop: wait for it, or it calls back into an
            # event loop that asyncio.run has closed ("Event loop is closed")
            thread = getattr(connection, "_thread", None)
            if thread is not None and thread.is_alive():
                await asyncio.to_thread(thread.join, 5)
            raise _cannot_open(name, exc) from exc
        try:
            db.text_factory = _text
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            migrations = migrate.load_migrations()
            latest = migrations[-1].version if migrations else 0
            found = await migrate.current_version(db)
            if found > latest:
                raise SchemaTooNew(name, found, latest)
            if not memory:
                mode = (await db.execute_fetchall("PRAGMA journal_mode = WAL"))[0][0]
                if str(mode).lower() != "wal":
                    log.warning("database %s: journal_mode is %s, not WAL", name, mode)
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
            version = await migrate.migrate(db, migrations)
        except BaseException as exc:
            await db.close()
            if isinstance(exc, sqlite3.Error):
                raise _cannot_open(name, exc) from exc
            raise
        if version != found:
            log.info("database %s migrated from schema version %d to %d", name, found, version)
        return cls(db, name, version)

    async def close(self) -> None:
        """Finish the writes under way, then close. Closing twice is harmless."""
        if self._closing:
            return
        self._closing = True
        while self._writer is not None and not self._writer.done():
            await asyncio.wait({self._writer})
        async with self._lock:
            db, self._db = self._db, None
            if db is not None:
                await db.close()

    async def check(self) -> None:
        """At start, before any game is loaded: the file passes SQLite's quick integrity
        check (StoreDamaged, naming the games whose rows cannot be read), has every table
        and column of its schema version (a StoreError naming the missing ones) and can be
        written (StoreNotWritable): a bot must not look healthy and then fail every action.
        PostgreSQL: the server answers (unreachable or refusing the login already failed at
        open, in one sentence), has the tables and columns, and takes one committed write."""
        postgres = self.backend == "postgresql"
        try:
            rows = await self._read("SELECT 'ok'" if postgres else "PRAGMA quick_check")
            problems = [str(r[0]) for r in rows if r[0] != "ok"]
        except StoreError as exc:
            if postgres:
                raise StoreError(f"The PostgreSQL database {self._path} does not answer "
                                 f"({exc}); Darwin did not start.") from exc
            problems = [str(exc)]
        if problems:
            raise StoreDamaged(self._path, problems[0], await self._unreadable_games())
        await self._check_schema()

        try:
            await self.probe()
        except StoreError as exc:
            cause = exc.__cause__ or exc
            advice = ("Check that the PostgreSQL user may write its tables, that the server is "
                      "not a read-only standby and has free disk space") if postgres else None
            raise StoreNotWritable(self._path, str(cause), advice) from exc

    async def probe(self) -> None:
        """One committed write that changes nothing (the start check, the health check): a
        StoreError when the database cannot be written now."""
        async def touch(db: aiosqlite.Connection) -> None:
            # a real write (same value), committed: a read-only file refuses it here
            await db.execute("UPDATE schema_version SET applied_at = applied_at "
                             "WHERE version = (SELECT MAX(version) FROM schema_version)")

        await self._write(touch)

    async def _check_schema(self) -> None:
        """Every table and column that the database's schema version must have is there
        (a table or column dropped by hand would fail every channel later): a StoreError with
        one sentence naming what is missing. Tables or columns of its own are allowed."""
        postgres = self.backend == "postgresql"
        sql = ("SELECT table_name, column_name FROM information_schema.columns "
               "WHERE table_schema = current_schema()" if postgres else
               "SELECT m.name, c.name FROM sqlite_master AS m, pragma_table_info(m.name) AS c "
               "WHERE m.type = 'table'")
        try:
            rows = await self._read(sql)
        except StoreError as exc:
            raise StoreError(f"The tables of the database {self._path} cannot be listed "
                             f"({exc}); Darwin did not start.") from exc
        found: dict[str, set[str]] = {}
        for table, column in rows:
            found.setdefault(str(table), set()).add(str(column))
        missing = []
        for table, columns in expected_schema(self._version).items():
            if table not in found:
                missing.append(f"the table {table}")
            else:
                missing.extend(f"the column {table}.{c}" for c in columns if c not in found[table])
        if missing:
            what = ", ".join(missing[:-1]) + " and " + missing[-1] if len(missing) > 1 \
                else missing[0]
            raise StoreError(
                f"The database {self._path} lacks {what} that its schema version "
                f"{self._version} needs (dropped by hand?); Darwin will not run on an "
                f"incomplete database: keep a copy and restore a backup; Darwin did not start.")

    async def _unreadable_games(self) -> list[int] | None:
        """The ids of games whose rows (game, actions, results) cannot be read."""
        try:
            top = (await self._read("SELECT MAX(id) FROM games"))[0][0] or 0
        except StoreError:
            return None
        bad = []
        for game_id in range(1, top + 1):
            try:
                for table, key in (("games", "id"), ("actions", "game_id"),
                                   ("results", "game_id")):
                    await self._read(f"SELECT * FROM {table} WHERE {key} = ?", (game_id,))
            except StoreError:
                bad.append(game_id)
        return bad

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def schema_version(self) -> int:
        return self._version

    @property
    def path(self) -> str:
        """The SQLite file, or the PostgreSQL URL without its password."""
        return self._path

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return "postgresql" if pg.is_url(self._path) else "sqlite"

    @property
    def closed(self) -> bool:
        return self._closing

    def __repr__(self) -> str:
        return f"<Store {self._path!r} v{self._version}{' closed' if self._closing else ''}>"

    # ------------------------------------------------------------------ plumbing

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is closed")
        return self._db

    async def _read(self, sql: str, params: tuple = ()) -> list:
        if self._closing:
            raise StoreError("the store is closed")
        async with self._lock:
            db = self._conn()
            try:
                return list(await db.execute_fetchall(sql, params))
            except DB_ERRORS as exc:
                raise StoreError(f"read failed: {exc}") from exc

    async def _write(self, body: Callable[[aiosqlite.Connection], Awaitable[T]], *,
                     urgent: bool = False) -> T:
        """Run body in a transaction and return once it is committed (durable).

        Writes that arrive while another batch is being committed wait in a queue and are
        then committed together: one transaction, one fsync, each write in its own savepoint
        so that one refused write (a stale seq, a busy channel) leaves the others whole
        (group commit). ``urgent`` writes (a person's action) go before queued ones (AI
        steps). A write whose caller is cancelled still runs to its end."""
        if self._closing:
            raise StoreError("the store is closed")
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        (self._urgent if urgent else self._queued).append((body, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write_batches())
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            if not future.done():
                future.add_done_callback(_report_orphan)
            raise

    async def _write_batches(self) -> None:
        while self._urgent or self._queued:
            # people's writes go in a batch of their own: a short transaction, not one filled
            # up with queued AI steps
            queue = self._urgent or self._queued
            batch = []
            while len(batch) < MAX_BATCH and queue:
                batch.append(queue.popleft())
            await self._commit_batch(batch)

    async def _commit_batch(self, batch: list) -> None:
        """One transaction for the batch; every future gets its own result or error, and only
        after the COMMIT (or the rollback) has returned. The batch first runs straight
        through; if one write in it fails, all of it is rolled back and run again with each
        write in a savepoint, so that the failure is that write's alone."""
        async with self._lock:
            db = self._conn()
            if isinstance(db, aiosqlite.Connection):
                # SQLite: the whole batch in one call to the connection's thread, not a round
                # trip through the event loop per statement (issue 25: in a burst of Starts
                # each of a batch's ~130 statements waited for the busy loop to come round,
                # and a batch of 64 writes took 1-3 s; its thread's own time was 20-90 ms)
                outcomes = await db._execute(_in_thread, self._run_batch, db._conn, batch)
            elif len(batch) == 1 and getattr(batch[0][0], "one_statement", False):
                # PostgreSQL, one write of one statement: that statement is its own
                # transaction (one round trip through the event loop, not three more for
                # BEGIN and COMMIT; a person's move is usually alone in its batch)
                outcomes = await self._run_alone(db, *batch[0])
            elif (moves := _moves_of(batch)) is not None:
                # PostgreSQL, a batch of moves of different games (the AI seats'): one
                # statement for all of them, not BEGIN, one per move and COMMIT, each a round
                # trip through the event loop
                outcomes = await self._run_moves(db, batch, moves)
            else:
                outcomes = await self._run_batch(db, batch, isolated=len(batch) == 1)
                if outcomes is None:
                    outcomes = await self._run_batch(db, batch, isolated=True)
        for future, result, error in outcomes:
            if future.done():
                continue
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)

    @staticmethod
    async def _run_alone(db: Any, body: Callable, future: asyncio.Future) -> list:
        """A write whose body is one statement, in no explicit transaction (PostgreSQL runs
        it as one): [(future, result, error)], the errors as :meth:`_run_batch` gives them."""
        try:
            return [(future, await body(db), None)]
        except DB_ERRORS as exc:
            failure = StoreError(f"write failed and was rolled back: {exc}")
            failure.__cause__ = exc
            return [(future, None, failure)]
        except Exception as exc:
            return [(future, None, exc)]

    async def _run_moves(self, db: Any, batch: list, moves: list[tuple]) -> list:
        """PostgreSQL: a batch of moves (record_action without results, each of another
        game) in one statement, atomic as any statement: every guarded UPDATE and its action
        row. A move refused by its guard (stale) is run again alone, which raises its
        StaleWrite; if the statement fails, the batch runs the usual way (each write in a
        savepoint, so the failure is that write's alone)."""
        try:
            rows = await db.execute_fetchall(_MOVES_SQL, [list(c) for c in zip(*moves, strict=True)])
        except DB_ERRORS:
            return await self._run_batch(db, batch, isolated=True)
        done = {row[0] for row in rows}
        outcomes = []
        for (body, future), move in zip(batch, moves, strict=True):
            if move[0] in done:
                outcomes.append((future, move[1] + 1, None))
            else:
                outcomes.extend(await self._run_alone(db, body, future))
        return outcomes

    async def _run_batch(self, db: aiosqlite.Connection, batch: list,
                         isolated: bool) -> list | None:
        """Run and commit the batch: (future, result, error) per write. Not isolated: None
        when a write failed (all rolled back, to be run again isolated)."""
        try:
            await db.execute("BEGIN IMMEDIATE")
        except DB_ERRORS as exc:
            failure = StoreError(f"cannot start a write: {exc}")
            return [(future, None, failure) for _, future in batch]
        single = len(batch) == 1
        outcomes = []
        try:
            for body, future in batch:
                if isolated and not single:
                    await db.execute("SAVEPOINT one_write")
                try:
                    result = await body(db)
                except Exception as exc:
                    if single:
                        raise
                    if not isolated:
                        await db.execute("ROLLBACK")
                        return None
                    await db.execute("ROLLBACK TO one_write")  # raises if SQLite rolled back all
                    await db.execute("RELEASE one_write")
                    outcomes.append((future, None, _store_error(exc)))
                    continue
                if isolated and not single:
                    await db.execute("RELEASE one_write")
                outcomes.append((future, result, None))
            await db.execute("COMMIT")
            return outcomes
        except BaseException as exc:
            # the whole batch is rolled back (already, by SQLite itself, after a full disk)
            with contextlib.suppress(*DB_ERRORS):
                await db.execute("ROLLBACK")
            if single and not isinstance(exc, DB_ERRORS):
                return [(batch[0][1], None, exc)]
            failure = StoreError(f"write failed and was rolled back: {exc}")
            failure.__cause__ = exc
            return [(future, None, failure) for _, future in batch]

    @staticmethod
    async def _game_head(db: aiosqlite.Connection, game_id: int) -> tuple[str, int, str]:
        """(status, seq, kind) of a game, inside the current transaction."""
        rows = await db.execute_fetchall(
            "SELECT status, seq, kind FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return rows[0]

    async def _require(self, db: aiosqlite.Connection, game_id: int,
                       allowed: tuple[str, ...]) -> tuple[str, int, str]:
        head = await self._game_head(db, game_id)
        if head[0] not in allowed:
            raise WrongStatus(game_id, head[0], allowed)
        return head

    # The three steps of record_action, separate so that tests can break one of them.

    @staticmethod
    async def _insert_action(db: aiosqlite.Connection, game_id: int, seq: int,
                             actor: str | None, action: str, now: float) -> None:
        await db.execute("INSERT INTO actions (game_id, seq, actor, action, at) "
                         "VALUES (?, ?, ?, ?, ?)", (game_id, seq, actor, action, now))

    @staticmethod
    async def _advance_game(db: aiosqlite.Connection, game_id: int, expected_seq: int,
                            state: str, lobby: str | None, status: str, now: float,
                            wake_at: float | None = None,
                            action: tuple[str | None, str] | None = None) -> bool:
        """The guarded UPDATE of the game's head (StaleWrite unless active at expected_seq).
        With ``action`` (actor, action JSON) on PostgreSQL, the same statement inserts the
        action's row (one round trip through the event loop instead of two): True; the
        caller inserts it otherwise (False)."""
        params = (state, expected_seq + 1, status, lobby, now, wake_at, game_id, expected_seq)
        update = ("UPDATE games SET state = ?, seq = ?, status = ?, lobby = COALESCE(?, lobby), "
                  "updated_at = ?, wake_at = ? WHERE id = ? AND seq = ? AND status = 'active'")
        together = action is not None and isinstance(db, pg.PgConnection)
        if together:
            cursor = await db.execute(
                f"WITH moved AS ({update} RETURNING id, seq, updated_at) "
                "INSERT INTO actions (game_id, seq, actor, action, at) "
                "SELECT id, seq, ?::text, ?::text, updated_at FROM moved", params + action)
        else:
            cursor = await db.execute(update, params)
        if cursor.rowcount != 1:
            status_now, seq_now, _ = await Store._game_head(db, game_id)
            raise StaleWrite(game_id, expected_seq, seq_now, status_now)
        return together

    @staticmethod
    async def _insert_results(db: aiosqlite.Connection, game_id: int, kind: str,
                              rows: list[tuple], now: float) -> None:
        await db.executemany(
            "INSERT INTO results (game_id, user_id, seat, name, rank, score, kind, finished_at, "
            "ai_level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, *row[:5], kind, now, row[5]) for row in rows])

    @staticmethod
    async def _rate(db: aiosqlite.Connection, game_id: int, match: Any, now: float) -> bool:
        """Apply a finished game's rated match (``host.ratings.Match``: ``players()`` and
        ``rate(current) -> changes``) to its server's ratings of its game, inside the
        current transaction: the current ratings are read here, so two games finishing
        together never both start from the same numbers. A game without a server is not
        rated, nor one whose rating fails (logged: the game still finishes). Whether it was
        rated."""
        rows = await db.execute_fetchall("SELECT guild_id, kind FROM games WHERE id = ?",
                                         (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        guild, kind = rows[0]
        players = match.players()
        if guild is None or not players:
            return False
        await _serialize(db, f"ratings:{guild}:{kind}")  # read, then write: one at a time
        marks = ", ".join("?" for _ in players)
        known = {p: (mu, sigma, n) for p, mu, sigma, n in await db.execute_fetchall(
            f"SELECT player_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND kind = ? "
            f"AND player_id IN ({marks})", (guild, kind, *players))}
        try:
            changes = match.rate({p: v[:2] for p, v in known.items()})
        except Exception:  # the rating math must never keep a game from finishing
            log.exception("game %s was not rated (python bot.py ratings --rebuild retries)",
                          game_id)
            return False
        await db.executemany(
            "INSERT OR REPLACE INTO ratings (guild_id, kind, player_id, mu, sigma, games, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(guild, kind, c.player, float(c.mu_after), float(c.sigma_after),
              known.get(c.player, (0, 0, 0))[2] + 1, now) for c in changes])
        await db.executemany(
            "INSERT INTO rating_changes (game_id, player_id, guild_id, kind, rank, mu_before, "
            "sigma_before, mu_after, sigma_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, c.player, guild, kind, int(c.rank), float(c.mu_before),
              float(c.sigma_before), float(c.mu_after), float(c.sigma_after), now)
             for c in changes])
        return True

    # ------------------------------------------------------------------ writes

    async def create_game(self, guild_id: int | str | None, channel_id: int | str, kind: str,
                          options: Mapping[str, Any] | None, lobby: Mapping[str, Any] | None,
                          now: float, *, rematch_of: int | None = None) -> int:
        """A new game in 'lobby' status; its id. Raises ChannelBusy if the channel already has
        a lobby or active game. ``rematch_of``: the finished game whose Rematch opened it
        (RematchTaken if that game already opened one: once only)."""
        guild = _snowflake(guild_id, "guild_id", nullable=True)
        channel = _snowflake(channel_id, "channel_id")
        if not isinstance(kind, str) or not kind:
            raise TypeError(f"kind must be a non-empty str, not {kind!r}")
        options_json = encode(options, "options", nullable=True)
        lobby_json = encode(lobby, "lobby", nullable=True)
        at = _time(now)

        async def body(db: aiosqlite.Connection) -> int:
            if rematch_of is not None:  # first: two presses at once, the second is told this
                await _serialize(db, f"rematch:{rematch_of}")
                taken = await db.execute_fetchall(
                    "SELECT id FROM games WHERE rematch_of = ?", (rematch_of,))
                if taken:
                    raise RematchTaken(rematch_of, taken[0][0])
            await _serialize(db, f"channel:{channel}")
            busy = await db.execute_fetchall(
                f"SELECT id FROM games WHERE channel_id = ? AND {_LIVE_SQL}", (channel,))
            if busy:
                raise ChannelBusy(channel, busy[0][0])
            rows = await db.execute_fetchall(
                "INSERT INTO games (guild_id, channel_id, kind, status, options, lobby, seq, "
                "created_at, updated_at, rematch_of) VALUES (?, ?, ?, 'lobby', ?, ?, 0, ?, ?, ?) "
                "RETURNING id",
                (guild, channel, kind, options_json, lobby_json, at, at, rematch_of))
            return rows[0][0]

        return await self._write(body)

    async def update_lobby(self, game_id: int, lobby: Mapping[str, Any], now: float, *,
                           wake_at: float | None | object = KEEP) -> None:
        """Replace a live game's lobby JSON (seats, timer, messages): WrongStatus once the
        game is over. During play this records seats handed to an AI (and, with
        ``wake_at``, when the game next needs the bot; by default it is left as it is)."""
        lobby_json = encode(lobby, "lobby")
        at = _time(now)
        keep = wake_at is KEEP
        wake = None if keep or wake_at is None else _time(wake_at)

        async def body(db: aiosqlite.Connection) -> None:
            await self._require(db, game_id, ("lobby", "active"))
            if keep:
                await db.execute("UPDATE games SET lobby = ?, updated_at = ? WHERE id = ?",
                                 (lobby_json, at, game_id))
            else:
                await db.execute("UPDATE games SET lobby = ?, updated_at = ?, wake_at = ? "
                                 "WHERE id = ?", (lobby_json, at, wake, game_id))

        await self._write(body)

    async def start_game(self, game_id: int, state: Mapping[str, Any], now: float, *,
                         lobby: Mapping[str, Any] | None = None,
                         wake_at: float | None = None) -> None:
        """lobby -> active with its first state, seq 0 (and a final lobby JSON if given)."""
        state_json = encode(state, "state")
        lobby_json = encode(lobby, "lobby", nullable=True)
        at = _time(now)
        wake = None if wake_at is None else _time(wake_at)

        async def body(db: aiosqlite.Connection) -> None:
            await self._require(db, game_id, ("lobby",))
            await db.execute(
                "UPDATE games SET status = 'active', state = ?, seq = 0, "
                "lobby = COALESCE(?, lobby), updated_at = ?, wake_at = ? WHERE id = ?",
                (state_json, lobby_json, at, wake, game_id))

        await self._write(body)

    async def cancel_game(self, game_id: int, now: float) -> None:
        """lobby/active -> cancelled (the channel is free again)."""
        at = _time(now)

        async def body(db: aiosqlite.Connection) -> None:
            await self._require(db, game_id, LIVE)
            await db.execute("UPDATE games SET status = 'cancelled', updated_at = ?, wake_at = NULL WHERE id = ?",
                             (at, game_id))

        await self._write(body)

    async def record_action(self, game_id: int, expected_seq: int, actor: int | str | None,
                            action: Mapping[str, Any], new_state: Mapping[str, Any],
                            now: float, status: str | None = None,
                            results: list[Mapping[str, Any]] | None = None, *,
                            lobby: Mapping[str, Any] | None = None,
                            urgent: bool = False, wake_at: float | None = None,
                            rating: Any = None) -> int:
        """Save one applied action and the state it produced, atomically; the new seq.

        In one transaction: the action row gets seq = expected_seq + 1 and the game's state,
        seq, status and updated_at are replaced, provided the game is still active at
        expected_seq; otherwise StaleWrite and nothing is written. With ``results`` the game
        also ends here (status 'finished' and its result rows, as finish_game). status None
        means 'finished' with results, 'active' without. ``lobby``, if given, replaces the
        lobby JSON in the same transaction (None leaves it as it is). ``urgent``: a person is
        waiting for this one; it goes before queued writes (AI steps). ``wake_at``: when the
        game next needs the bot by itself (see due_games); None when it waits for people.
        ``rating``: the finished game's rated match (``host.ratings.Match``), applied to its
        server's ratings in the same transaction (None: not rated).
        """
        if rating is not None and results is None:
            raise ValueError("only a finished game (with results) is rated")
        if status is None:
            status = "finished" if results is not None else "active"
        if status == "active" and results is not None:
            raise ValueError("results end the game: status must be 'finished'")
        if status == "finished" and results is None:
            raise ValueError("finishing a game needs its results (results=[] for none)")
        if status not in ("active", "finished"):
            raise ValueError(f"record_action cannot set status {status!r}")
        expected = _seq(expected_seq)
        result_rows = None if results is None else result_params(results)
        actor_text = None if actor is None else str(actor)
        action_json = encode(action, "action")
        state_json = encode(new_state, "new_state")
        lobby_json = encode(lobby, "lobby", nullable=True)
        at = _time(now)
        wake = None if wake_at is None or status != "active" else _time(wake_at)

        async def body(db: aiosqlite.Connection) -> int:
            # the guarded UPDATE first: StaleWrite (read back the head) unless active at seq
            if not await self._advance_game(db, game_id, expected, state_json, lobby_json,
                                            status, at, wake, action=(actor_text, action_json)):
                await self._insert_action(db, game_id, expected + 1, actor_text, action_json,
                                          at)
            if result_rows is not None:
                _, _, kind = await self._game_head(db, game_id)
                await self._insert_results(db, game_id, kind, result_rows, at)
                if rating is not None:
                    await self._rate(db, game_id, rating, at)
            return expected + 1

        # a move (not a game's end) is one statement on PostgreSQL: alone in its batch, it
        # needs no BEGIN and COMMIT around it, and a batch of them is one statement too
        # (see _commit_batch)
        body.one_statement = result_rows is None  # type: ignore[attr-defined]
        if result_rows is None:
            body.move = (game_id, expected, state_json, status, lobby_json, at,  # type: ignore[attr-defined]
                         wake, actor_text, action_json)
        return await self._write(body, urgent=urgent)

    async def finish_game(self, game_id: int, results: list[Mapping[str, Any]],
                          now: float) -> None:
        """active -> finished, with one result row per seat, in one transaction.

        Each result: seat (int), rank (int, 1 = winner), and optionally user_id, name, score.
        """
        rows = result_params(results)
        at = _time(now)

        async def body(db: aiosqlite.Connection) -> None:
            _, _, kind = await self._require(db, game_id, ("active",))
            await db.execute("UPDATE games SET status = 'finished', updated_at = ?, wake_at = NULL WHERE id = ?",
                             (at, game_id))
            await self._insert_results(db, game_id, kind, rows, at)

        await self._write(body)

    async def set_aside(self, game_id: int, error: str, now: float) -> None:
        """A live game that cannot go on -> 'broken', keeping its rows for a post-mortem."""
        at = _time(now)
        text = str(error)

        async def body(db: aiosqlite.Connection) -> None:
            await self._require(db, game_id, (*LIVE, "broken"))
            await db.execute(
                "UPDATE games SET status = 'broken', error = ?, updated_at = ?, wake_at = NULL WHERE id = ?",
                (text, at, game_id))

        await self._write(body)

    async def save_guild_settings(self, guild_id: int | str, settings: Mapping[str, Any],
                                  now: float) -> None:
        """Replace a server's settings (see SETTINGS; a missing or None one is the default)."""
        guild = _snowflake(guild_id, "guild_id")
        unknown = set(settings) - set(SETTINGS)
        if unknown:
            raise ValueError(f"unknown settings: {sorted(unknown)}")
        values = [_setting(name, settings.get(name)) for name in SETTINGS]
        at = _time(now)
        columns = ", ".join(SETTINGS)
        marks = ", ".join("?" for _ in SETTINGS)

        async def body(db: aiosqlite.Connection) -> None:
            await db.execute(
                f"INSERT OR REPLACE INTO guild_settings (guild_id, {columns}, updated_at) "
                f"VALUES (?, {marks}, ?)", (guild, *values, at))

        await self._write(body)

    async def rebuild_ratings(self, match_of: Callable[[list[tuple]], Any]) -> tuple[int, int]:
        """Recompute every rating from the stored results, in one transaction: each finished
        game in the order it finished (then by id), ``match_of([(user_id, rank, ai_level)
        per seat])`` giving its rated match or None (``host.ratings.match_of``). Returns
        (games rated, ratings written)."""

        async def body(db: aiosqlite.Connection) -> tuple[int, int]:
            await db.execute("DELETE FROM rating_changes")
            await db.execute("DELETE FROM ratings")
            rows = await db.execute_fetchall(
                "SELECT r.game_id, r.user_id, r.rank, r.ai_level, r.finished_at FROM results r "
                "JOIN games g ON g.id = r.game_id WHERE g.status = 'finished' "
                "AND g.guild_id IS NOT NULL ORDER BY r.finished_at, r.game_id, r.seat")
            rated = 0
            games: dict[int, tuple[float, list[tuple]]] = {}
            for game_id, user_id, rank, level, at in rows:
                games.setdefault(game_id, (at, []))[1].append((user_id, rank, level))
            for game_id, (at, results) in games.items():
                match = match_of(results)
                if match is not None and await self._rate(db, game_id, match, at):
                    rated += 1
            count = (await db.execute_fetchall("SELECT COUNT(*) FROM ratings"))[0][0]
            return rated, count

        return await self._write(body)

    # ------------------------------------------------------------------ reads

    async def live_games(self) -> list[GameRow]:
        """Every lobby and active game, oldest first, undecoded (see GameRow.decoded)."""
        rows = await self._read(
            f"SELECT {GAME_COLUMNS} FROM games WHERE {_LIVE_SQL} ORDER BY id")
        return [GameRow(*r) for r in rows]

    async def live_counts(self) -> dict[tuple[str, str], int]:
        """(kind, status) -> how many lobbies and active games there are (the metrics)."""
        rows = await self._read(
            f"SELECT kind, status, COUNT(*) FROM games WHERE {_LIVE_SQL} GROUP BY kind, status")
        return {(str(kind), str(status)): int(n) for kind, status, n in rows}

    async def due_games(self, until: float, limit: int = 500) -> list[GameRow]:
        """Active games that need the bot by themselves by ``until`` (an AI seat's move, an
        auto-pass, a turn timer), soonest first, at most ``limit``."""
        rows = await self._read(
            f"SELECT {GAME_COLUMNS} FROM games WHERE wake_at <= ? AND status = 'active' "
            "ORDER BY wake_at LIMIT ?", (_time(until), int(limit)))
        return [GameRow(*r) for r in rows]

    async def log_head(self, game_id: int) -> int:
        """The seq of the game's last action (0 without any): it must equal the game's seq."""
        rows = await self._read("SELECT MAX(seq) FROM actions WHERE game_id = ?", (game_id,))
        return rows[0][0] or 0

    async def log_heads(self) -> dict[int, int]:
        """The last action's seq of every live game that has actions: at load it must equal
        the game's ``seq`` (one below, every later write would fail; one above, a gap)."""
        rows = await self._read(
            "SELECT a.game_id, MAX(a.seq) FROM games g JOIN actions a ON a.game_id = g.id "
            f"WHERE g.{_LIVE_SQL} GROUP BY a.game_id")
        return {game_id: seq for game_id, seq in rows}

    async def get_game(self, game_id: int) -> GameRow | None:
        rows = await self._read(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return GameRow(*rows[0]) if rows else None

    async def game_in_channel(self, channel_id: int | str) -> GameRow | None:
        """The channel's live (lobby or active) game, if any."""
        channel = _snowflake(channel_id, "channel_id")
        rows = await self._read(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND {_LIVE_SQL}", (channel,))
        return GameRow(*rows[0]) if rows else None

    async def guild_settings(self, guild_id: int | str) -> dict[str, Any]:
        """A server's settings that are set ({} when none is): name -> value."""
        guild = _snowflake(guild_id, "guild_id")
        rows = await self._read(
            f"SELECT {', '.join(SETTINGS)} FROM guild_settings WHERE guild_id = ?", (guild,))
        if not rows:
            return {}
        return {name: bool(value) if _SETTING_TYPES[name] is bool else value
                for name, value in zip(SETTINGS, rows[0], strict=True) if value is not None}

    async def actions(self, game_id: int, since_seq: int = 0) -> list[ActionRow]:
        """The game's actions with seq > since_seq, in order (CorruptRow if one is damaged)."""
        rows = await self._read(
            "SELECT game_id, seq, actor, action, at FROM actions "
            "WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, since_seq))
        return [ActionRow(g, s, actor, decode(g, f"action {s}", a, nullable=False), at)
                for g, s, actor, a, at in rows]

    async def game_results(self, game_id: int) -> list[ResultRow]:
        """A finished game's result rows, by rank then seat."""
        rows = await self._read(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY rank, seat",
            (game_id,))
        return [ResultRow(*r) for r in rows]

    async def results_for(self, user_id: int | str) -> list[ResultRow]:
        """A player's results over all games, newest first."""
        user = _snowflake(user_id, "user_id")
        rows = await self._read(
            f"SELECT {RESULT_COLUMNS} FROM results "
            "WHERE user_id = ? ORDER BY finished_at DESC, game_id DESC", (user,))
        return [ResultRow(*r) for r in rows]

    # ------------------------------------------------------------------ ratings and history

    async def player_results(self, guild_id: int | str, user_id: int | str,
                             kind: str | None = None) -> list[ResultRow]:
        """The games a person finished in one server (of one game if ``kind``), newest
        first: their own result rows (not the seats they left to an AI)."""
        guild = _snowflake(guild_id, "guild_id")
        user = _snowflake(user_id, "user_id")
        cols = ", ".join(f"r.{c.strip()}" for c in RESULT_COLUMNS.split(","))
        rows = await self._read(
            f"SELECT {cols} FROM results r JOIN games g ON g.id = r.game_id "
            "WHERE r.user_id = ? AND g.guild_id = ? AND g.status = 'finished' "
            "AND r.ai_level IS NULL AND (CAST(? AS TEXT) IS NULL OR r.kind = ?) "
            "ORDER BY r.finished_at DESC, r.game_id DESC", (user, guild, kind, kind))
        return [ResultRow(*r) for r in rows]

    async def player_ratings(self, guild_id: int | str, player_id: int | str) -> list[RatingRow]:
        """A player's ratings in one server, one per game they were rated in."""
        guild = _snowflake(guild_id, "guild_id")
        player = _snowflake(player_id, "player_id")
        rows = await self._read(
            "SELECT player_id, kind, mu, sigma, games FROM ratings "
            "WHERE guild_id = ? AND player_id = ? ORDER BY kind", (guild, player))
        return [RatingRow(*r) for r in rows]

    async def rating_history(self, guild_id: int | str, kind: str, player_id: int | str,
                             limit: int = 10) -> list[RatingChangeRow]:
        """A player's latest rated games in one server and game, newest first."""
        guild = _snowflake(guild_id, "guild_id")
        player = _snowflake(player_id, "player_id")
        rows = await self._read(
            "SELECT game_id, player_id, rank, mu_before, sigma_before, mu_after, sigma_after, "
            "at FROM rating_changes WHERE guild_id = ? AND kind = ? AND player_id = ? "
            "ORDER BY at DESC, game_id DESC LIMIT ?", (guild, kind, player, int(limit)))
        return [RatingChangeRow(*r) for r in rows]

    async def rating_changes(self, game_id: int) -> list[RatingChangeRow]:
        """What a rated game changed, one row per rated player ([] if it was not rated)."""
        rows = await self._read(
            "SELECT game_id, player_id, rank, mu_before, sigma_before, mu_after, sigma_after, "
            "at FROM rating_changes WHERE game_id = ? ORDER BY rank, player_id", (game_id,))
        return [RatingChangeRow(*r) for r in rows]

    async def leaderboard(self, guild_id: int | str, kind: str, *, min_games: int = 3,
                          limit: int = 10, z: float = 3.0) -> list[RatingRow]:
        """A server's best ratings in one game (by mu - z sigma), of players with at least
        ``min_games`` rated games, each with the name of their latest result there."""
        guild = _snowflake(guild_id, "guild_id")
        rows = await self._read(
            "SELECT t.player_id, t.kind, t.mu, t.sigma, t.games, "
            "(SELECT r.name FROM results r JOIN games g ON g.id = r.game_id "
            " WHERE r.user_id = t.player_id AND r.kind = t.kind AND g.guild_id = t.guild_id "
            " ORDER BY r.finished_at DESC LIMIT 1) "
            "FROM ratings t WHERE t.guild_id = ? AND t.kind = ? AND t.games >= ? "
            "ORDER BY t.mu - ? * t.sigma DESC, t.player_id LIMIT ?",
            (guild, kind, int(min_games), float(z), int(limit)))
        return [RatingRow(*r) for r in rows]

    async def channel_games(self, channel_id: int | str, limit: int = 10,
                            statuses: tuple[str, ...] = ("finished",)) -> list[GameRow]:
        """A channel's latest games of those statuses, newest first."""
        channel = _snowflake(channel_id, "channel_id")
        marks = ", ".join("?" for _ in statuses)
        rows = await self._read(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ({marks}) "
            "ORDER BY id DESC LIMIT ?", (channel, *statuses, int(limit)))
        return [GameRow(*r) for r in rows]

    async def rematch_id(self, game_id: int) -> int | None:
        """The game a finished game's Rematch opened, None if it opened none."""
        rows = await self._read("SELECT id FROM games WHERE rematch_of = ?", (game_id,))
        return rows[0][0] if rows else None

    async def latest_game_id(self, channel_id: int | str) -> int | None:
        """The id of the newest game opened in a channel (any status), None if none."""
        channel = _snowflake(channel_id, "channel_id")
        rows = await self._read("SELECT MAX(id) FROM games WHERE channel_id = ?", (channel,))
        return rows[0][0]

    # ------------------------------------------------------------------ web links (web/)

    async def web_token(self, now: float, *, game_id: int | None = None,
                        guild_id: int | str | None = None, create: bool = True) -> str | None:
        """The live (not revoked) link token of a game (``game_id``) or of a server's page
        (``guild_id``); a new random one is made when there is none and ``create`` (else
        None). GameNotFound for an unknown game."""
        if (game_id is None) == (guild_id is None):
            raise TypeError("web_token takes a game_id or a guild_id")
        guild = None if guild_id is None else _snowflake(guild_id, "guild_id")
        scope, column, key = (("game", "game_id", game_id) if game_id is not None
                              else ("guild", "guild_id", guild))
        at = _time(now)
        find = (f"SELECT token FROM web_links WHERE scope = ? AND {column} = ? "
                "AND revoked_at IS NULL")
        if not create:
            rows = await self._read(find, (scope, key))
            return rows[0][0] if rows else None

        async def body(db: aiosqlite.Connection) -> str:
            await _serialize(db, f"web:{scope}:{key}")
            rows = await db.execute_fetchall(find, (scope, key))
            if rows:
                return rows[0][0]
            if game_id is not None:
                await self._game_head(db, game_id)
            token = secrets.token_urlsafe(WEB_TOKEN_BYTES)
            await db.execute(
                "INSERT INTO web_links (token, scope, game_id, guild_id, created_at) "
                "VALUES (?, ?, ?, ?, ?)", (token, scope, game_id, guild, at))
            return token

        return await self._write(body)

    async def revoke_web_token(self, now: float, *, game_id: int | None = None,
                               guild_id: int | str | None = None) -> bool:
        """Revoke the live link of a game or of a server's page: True if there was one."""
        if (game_id is None) == (guild_id is None):
            raise TypeError("revoke_web_token takes a game_id or a guild_id")
        scope, column, key = (("game", "game_id", game_id) if game_id is not None
                              else ("guild", "guild_id", _snowflake(guild_id, "guild_id")))
        at = _time(now)

        async def body(db: aiosqlite.Connection) -> bool:
            cursor = await db.execute(
                f"UPDATE web_links SET revoked_at = ? WHERE scope = ? AND {column} = ? "
                "AND revoked_at IS NULL", (at, scope, key))
            return cursor.rowcount > 0

        return await self._write(body)

    async def web_link(self, token: str) -> tuple[str, int | None, str | None] | None:
        """What a live link token opens: (scope, game_id, guild_id); None when the token is
        unknown or revoked (the web page answers both the same way)."""
        if not isinstance(token, str) or not token:
            return None
        rows = await self._read(
            "SELECT scope, game_id, guild_id FROM web_links WHERE token = ? "
            "AND revoked_at IS NULL", (token,))
        return tuple(rows[0]) if rows else None

    async def guild_games(self, guild_id: int | str, limit: int = 10) -> list[GameRow]:
        """A server's latest finished games, newest first (the web page's server page)."""
        guild = _snowflake(guild_id, "guild_id")
        rows = await self._read(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'finished' "
            "ORDER BY id DESC LIMIT ?", (guild, int(limit)))
        return [GameRow(*r) for r in rows]


SETTINGS = ("language", "turn_timer", "ai_delay", "ai_level", "thread", "manager_role",
            "web_page")
_SETTING_TYPES = {"language": str, "turn_timer": float, "ai_delay": float, "ai_level": str,
                  "thread": bool, "manager_role": str, "web_page": bool}


# A batch of moves on PostgreSQL (Store._run_moves): one array per column of Store's
# record_action ``move`` tuples; the ids of the games moved come back.
_MOVES_SQL = (
    "WITH v AS (SELECT * FROM unnest(?::bigint[], ?::integer[], ?::text[], ?::text[], "
    "?::text[], ?::float8[], ?::float8[], ?::text[], ?::text[]) "
    "AS v(id, seq, state, status, lobby, at, wake, actor, action)), "
    "moved AS (UPDATE games g SET state = v.state, seq = v.seq + 1, status = v.status, "
    "lobby = COALESCE(v.lobby, g.lobby), updated_at = v.at, wake_at = v.wake FROM v "
    "WHERE g.id = v.id AND g.seq = v.seq AND g.status = 'active' "
    "RETURNING g.id, g.seq, g.updated_at), "
    "logged AS (INSERT INTO actions (game_id, seq, actor, action, at) "
    "SELECT m.id, m.seq, v.actor, v.action, m.updated_at FROM moved m JOIN v ON v.id = m.id "
    "RETURNING game_id) "
    "SELECT game_id FROM logged")


def _moves_of(batch: list) -> list[tuple] | None:
    """The batch's moves (see record_action's ``move``) if it is two or more moves of as
    many games and nothing else; None otherwise."""
    if len(batch) < 2:
        return None
    moves = [getattr(body, "move", None) for body, _ in batch]
    if None in moves or len({m[0] for m in moves}) < len(moves):
        return None
    return moves


def _setting(name: str, value: Any) -> Any:
    """A server setting as its column holds it (None: the default)."""
    if value is None:
        return None
    kind = _SETTING_TYPES[name]
    if kind is float and not isinstance(value, bool) and isinstance(value, (int, float)):
        return float(value)
    if kind is bool and isinstance(value, bool):
        return int(value)
    if kind is str and isinstance(value, str) and value:
        return value
    raise TypeError(f"setting {name} cannot be {value!r}")


class _Direct:
    """The SQLite connection as a write's body sees it (``execute``, ``execute_fetchall``,
    ``executemany``), called directly: only ever inside the connection's own thread
    (:func:`_in_thread`)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self._conn.execute(sql, params)

    async def execute_fetchall(self, sql: str, params: Any = ()) -> list:
        return self._conn.execute(sql, params).fetchall()

    async def executemany(self, sql: str, params: Any) -> sqlite3.Cursor:
        return self._conn.executemany(sql, params)


def _drive(coro) -> Any:
    """Run a coroutine that awaits only :class:`_Direct` calls (they never suspend) to its
    end, in the calling thread. One that waits for anything else is told so (an error
    raised at that await: its transaction is rolled back like any failure)."""
    value, error = None, None
    while True:
        try:
            if error is not None:
                yielded = coro.throw(error)
            else:
                yielded = coro.send(value)
        except StopIteration as stop:
            return stop.value
        error = RuntimeError(f"a store write waited for {yielded!r}, not for its database")


def _in_thread(run_batch, conn: sqlite3.Connection, batch: list) -> list:
    """A SQLite batch (``Store._run_batch``) run in the connection's thread, with a second
    pass in savepoints if one write failed (see ``_commit_batch``)."""
    db = _Direct(conn)
    outcomes = _drive(run_batch(db, batch, isolated=len(batch) == 1))
    if outcomes is None:
        outcomes = _drive(run_batch(db, batch, isolated=True))
    return outcomes


def _store_error(exc: Exception) -> Exception:
    """A write's own failure as the caller sees it: database errors become StoreError."""
    if isinstance(exc, DB_ERRORS):
        error = StoreError(f"write failed and was rolled back: {exc}")
        error.__cause__ = exc
        return error
    return exc


def _report_orphan(task: asyncio.Future) -> None:
    """The outcome of a write whose caller was cancelled (nobody else will see it)."""
    if task.cancelled():
        log.warning("a write was cancelled with its caller (rolled back)")
    elif task.exception() is not None:
        log.warning("a write whose caller was cancelled failed (rolled back): %r",
                    task.exception())
    else:
        log.info("a write whose caller was cancelled was committed")
