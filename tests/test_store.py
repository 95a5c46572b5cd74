"""The store: migrations, the atomic save, one live game per channel, corrupt rows, durability.

Every test that uses ``mem`` or ``store_target`` runs on both backends: SQLite and a
throwaway PostgreSQL database (tests/pg.py; skipped without the binaries). The ones on
``db_path`` look inside the SQLite file itself (pragmas, raw rows, damaged pages)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

import store.db
import store.migrate as migrate
from store import (
    ChannelBusy,
    CorruptRow,
    GameNotFound,
    Migration,
    MigrationError,
    SchemaTooNew,
    StaleWrite,
    Store,
    StoreError,
    WrongStatus,
    load_migrations,
)
from store.migrate import split_sql
from tests.conftest import Statements

LATEST = load_migrations()[-1].version


class Clock:
    """A fake clock: every call is one second later."""

    def __init__(self, start: float = 1_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["sqlite", "postgresql"])
async def mem(request):
    """A new store on each backend: SQLite in memory, a new PostgreSQL database."""
    if request.param == "sqlite":
        target = ":memory:"
    else:  # (an async fixture cannot ask for another one by name)
        target = await request.getfixturevalue("pg_cluster").new_database()
    async with Store.open(target) as s:
        yield s


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "darwin.sqlite3"


def raw(path: Path, sql: str, params: tuple = ()) -> list:
    """Run one statement on the file with plain sqlite3 (outside the store), committed."""
    con = sqlite3.connect(path)
    try:
        with con:
            return con.execute(sql, params).fetchall()
    finally:
        con.close()


async def active_game(s: Store, clock: Clock, channel: str = "c1", state: dict | None = None):
    gid = await s.create_game("g1", channel, "evo", {"variant": False}, {"seats": ["u1"]}, clock())
    await s.start_game(gid, state or {"turn": 0}, clock())
    return gid


async def action_rows(s: Store, gid: int) -> list:
    return [(a.seq, a.actor, a.action) for a in await s.actions(gid)]


# ---------------------------------------------------------------- migrations


def test_shipped_migrations_are_numbered_from_one():
    ms = load_migrations()
    assert [m.version for m in ms] == list(range(1, len(ms) + 1))
    assert ms[0].name == "0001_initial.sql"


def test_split_sql_respects_strings_comments_and_triggers():
    sql = """-- a comment; with a semicolon
    CREATE TABLE t (a TEXT DEFAULT 'x;y'); CREATE TABLE u (b);
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO u VALUES (1); END;
    -- trailing comment
    """
    statements = split_sql(sql)
    assert len(statements) == 3
    assert statements[2].endswith("END;")
    with pytest.raises(MigrationError):
        split_sql("CREATE TABLE t (a); CREATE TABLE u (b)")


async def test_fresh_file_is_migrated_to_latest(db_path: Path):
    async with Store.open(db_path) as s:  # also creates the missing parent folder
        assert s.schema_version == LATEST
        pragmas = {name: (await s._db.execute_fetchall(f"PRAGMA {name}"))[0][0]
                   for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")}
    assert pragmas == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1,
                       "busy_timeout": 5000}
    names = {r[0] for r in raw(db_path, "SELECT name FROM sqlite_master")}
    assert {"games", "actions", "results", "schema_version",
            "games_live_channel", "games_status", "results_user"} <= names
    assert raw(db_path, "SELECT version FROM schema_version") == [(v,) for v in range(1, LATEST + 1)]


async def test_memory_database_is_migrated(mem: Store):
    assert mem.schema_version == LATEST
    assert await mem.live_games() == []


async def test_reopen_applies_nothing_twice(db_path: Path, monkeypatch, clock):
    async with Store.open(db_path) as s:
        await s.create_game(None, "c1", "evo", None, None, clock())
    before = raw(db_path, "SELECT version, applied_at FROM schema_version")
    # If the store tried to run migration 1 again, this SQL would fail.
    broken = [Migration(m.version, m.name, "THIS IS NOT SQL;") for m in load_migrations()]
    monkeypatch.setattr(migrate, "load_migrations", lambda: broken)
    async with Store.open(db_path) as s:
        assert s.schema_version == LATEST
        assert len(await s.live_games()) == 1
    assert raw(db_path, "SELECT version, applied_at FROM schema_version") == before


async def test_database_from_the_future_is_refused(db_path: Path, clock):
    async with Store.open(db_path) as s:
        await s.create_game(None, "c1", "evo", None, None, clock())
    raw(db_path, "INSERT INTO schema_version (version, applied_at) VALUES (?, 0)", (LATEST + 1,))
    with pytest.raises(SchemaTooNew) as info:
        await Store.open(db_path)
    assert isinstance(info.value, StoreError)
    assert str(LATEST + 1) in str(info.value) and "upgrade" in str(info.value)
    assert raw(db_path, "SELECT COUNT(*) FROM games") == [(1,)]  # untouched


async def test_new_migration_is_applied_forward(db_path: Path, monkeypatch, clock):
    async with Store.open(db_path) as s:
        gid = await active_game(s, clock)
    extra = Migration(LATEST + 1, f"{LATEST + 1:04d}_note.sql",
                      "-- a note per game\nALTER TABLE games ADD COLUMN note TEXT DEFAULT 'none';")
    monkeypatch.setattr(migrate, "load_migrations", lambda: [*load_migrations(), extra])
    async with Store.open(db_path) as s:
        assert s.schema_version == LATEST + 1
        game = await s.get_game(gid)  # the store names its columns: an extra one is harmless
        assert game.decoded().state == {"turn": 0}
        assert await s.record_action(gid, 0, "u1", {"type": "pass"}, {"turn": 1}, clock()) == 1
    assert raw(db_path, "SELECT note FROM games") == [("none",)]
    assert raw(db_path, "SELECT MAX(version) FROM schema_version") == [(LATEST + 1,)]
    monkeypatch.undo()  # the old code now meets a newer database
    with pytest.raises(SchemaTooNew):
        await Store.open(db_path)


async def test_failed_migration_is_rolled_back(db_path: Path, monkeypatch, clock):
    async with Store.open(db_path) as s:
        await s.create_game(None, "c1", "evo", None, None, clock())
    bad = Migration(LATEST + 1, f"{LATEST + 1:04d}_bad.sql",
                    "ALTER TABLE games ADD COLUMN half TEXT;\nINSERT INTO no_such_table VALUES (1);")
    monkeypatch.setattr(migrate, "load_migrations", lambda: [*load_migrations(), bad])
    with pytest.raises(MigrationError, match="rolled back"):
        await Store.open(db_path)
    columns = {r[1] for r in raw(db_path, "PRAGMA table_info(games)")}
    assert "half" not in columns
    assert raw(db_path, "SELECT MAX(version) FROM schema_version") == [(LATEST,)]
    monkeypatch.undo()
    async with Store.open(db_path) as s:
        assert s.schema_version == LATEST


async def test_gap_in_migration_numbers_is_refused(monkeypatch):
    gap = [*load_migrations(), Migration(LATEST + 2, "gap.sql", "SELECT 1;")]
    monkeypatch.setattr(migrate, "load_migrations", lambda: gap)
    with pytest.raises(MigrationError, match="without gaps"):
        await Store.open(":memory:")


async def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Path):
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="cannot be opened"):
        await Store.open(path)


# ---------------------------------------------------------------- the atomic save


async def test_record_action_writes_action_and_state(mem: Store, clock):
    gid = await active_game(mem, clock)
    t = clock()
    assert await mem.record_action(gid, 0, "u1", {"type": "bid", "amount": 3}, {"turn": 1}, t) == 1
    assert await mem.record_action(gid, 1, "ai:2", {"type": "pass"}, {"turn": 2}, clock()) == 2
    game = await mem.get_game(gid)
    assert (game.status, game.seq, game.decoded().state) == ("active", 2, {"turn": 2})
    acts = await mem.actions(gid)
    assert [(a.seq, a.actor, a.action) for a in acts] == [
        (1, "u1", {"type": "bid", "amount": 3}), (2, "ai:2", {"type": "pass"})]
    assert acts[0].at == t
    assert [a.seq for a in await mem.actions(gid, since_seq=1)] == [2]
    await mem.record_action(gid, 2, "u1", {"n": 3}, {"turn": 3}, clock(), lobby={"log": ["x"]})
    assert (await mem.get_game(gid)).decoded().lobby == {"log": ["x"]}  # same transaction


async def test_stale_write_changes_nothing(mem: Store, clock):
    gid = await active_game(mem, clock)
    await mem.record_action(gid, 0, "u1", {"n": 1}, {"turn": 1}, clock())
    game_before, actions_before = await mem.get_game(gid), await action_rows(mem, gid)
    with pytest.raises(StaleWrite) as info:
        await mem.record_action(gid, 0, "u2", {"n": 2}, {"turn": 99}, clock())
    assert (info.value.expected_seq, info.value.seq) == (0, 1)
    assert await mem.get_game(gid) == game_before
    assert await action_rows(mem, gid) == actions_before


async def test_concurrent_writers_one_wins(mem: Store, clock):
    gid = await active_game(mem, clock)
    outcomes = await asyncio.gather(
        *(mem.record_action(gid, 0, f"u{i}", {"i": i}, {"by": i}, clock()) for i in range(5)),
        return_exceptions=True)
    assert outcomes.count(1) == 1
    assert sum(isinstance(o, StaleWrite) for o in outcomes) == 4
    winner = outcomes.index(1)
    assert (await mem.get_game(gid)).decoded().state == {"by": winner}
    assert await action_rows(mem, gid) == [(1, f"u{winner}", {"i": winner})]


async def test_failure_inside_the_transaction_leaves_nothing(mem: Store, clock, monkeypatch):
    gid = await active_game(mem, clock)
    await mem.record_action(gid, 0, "u1", {"n": 1}, {"turn": 1}, clock())
    game_before, actions_before = await mem.get_game(gid), await action_rows(mem, gid)

    async def crash(*args, **kwargs):  # runs after the action row was inserted
        raise RuntimeError("power cut")

    monkeypatch.setattr(Store, "_advance_game", staticmethod(crash))
    with pytest.raises(RuntimeError, match="power cut"):
        await mem.record_action(gid, 1, "u1", {"n": 2}, {"turn": 2}, clock())
    assert await mem.get_game(gid) == game_before
    assert await action_rows(mem, gid) == actions_before
    monkeypatch.undo()
    # the connection is not left inside a transaction: the same save now works
    assert await mem.record_action(gid, 1, "u1", {"n": 2}, {"turn": 2}, clock()) == 2


async def test_failure_while_writing_results_leaves_nothing(mem: Store, clock, monkeypatch):
    gid = await active_game(mem, clock)
    game_before = await mem.get_game(gid)

    async def crash(*args, **kwargs):  # after the action row and the game update
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(Store, "_insert_results", staticmethod(crash))
    with pytest.raises(StoreError, match="rolled back"):
        await mem.record_action(gid, 0, "u1", {"type": "end"}, {"over": True}, clock(),
                                results=[{"seat": 0, "rank": 1, "user_id": "u1"}])
    assert await mem.get_game(gid) == game_before
    assert await mem.actions(gid) == []
    assert await mem.game_results(gid) == []


async def test_unserialisable_state_is_refused_before_writing(mem: Store, clock):
    gid = await active_game(mem, clock)
    with pytest.raises(TypeError):
        await mem.record_action(gid, 0, "u1", {"n": 1}, {"bad": object()}, clock())
    with pytest.raises(ValueError):
        await mem.record_action(gid, 0, "u1", {"n": 1}, {"bad": float("nan")}, clock())
    with pytest.raises(TypeError):
        await mem.record_action(gid, 0, "u1", ["not", "an", "object"], {"ok": 1}, clock())
    assert (await mem.get_game(gid)).seq == 0
    assert await mem.actions(gid) == []


async def test_cancelled_caller_never_leaves_half_a_write(mem: Store, clock):
    gid = await active_game(mem, clock)
    task = asyncio.create_task(mem.record_action(gid, 0, "u1", {"n": 1}, {"turn": 1}, clock()))
    await asyncio.sleep(0)  # let it start
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    game = await mem.get_game(gid)  # queued behind the write, which ran to its end
    assert len(await mem.actions(gid)) == game.seq  # both or neither
    assert await mem.record_action(gid, game.seq, "u1", {"n": 2}, {"t": 2}, clock()) == game.seq + 1


async def test_action_that_ends_the_game_saves_results_in_the_same_transaction(mem: Store, clock):
    gid = await active_game(mem, clock)
    t = clock()
    results = [{"seat": 0, "user_id": 111, "name": "Ann", "rank": 1, "score": 20, "dinos": 4},
               {"seat": 1, "user_id": "ai:1", "name": "AI", "rank": 2, "score": 11}]
    assert await mem.record_action(gid, 0, "111", {"type": "last"}, {"over": True}, t,
                                   results=results) == 1
    game = await mem.get_game(gid)
    assert (game.status, game.seq) == ("finished", 1)
    assert await mem.live_games() == []
    mine = await mem.results_for(111)
    assert [(r.game_id, r.seat, r.rank, r.score, r.kind, r.finished_at) for r in mine] == [
        (gid, 0, 1, 20, "evo", t)]
    assert [r.user_id for r in await mem.game_results(gid)] == ["111", "ai:1"]
    assert (await mem.get_game(gid)).decoded().lobby == {"seats": ["u1"]}  # lobby=None: kept
    with pytest.raises(StaleWrite):  # nothing more can be recorded on a finished game
        await mem.record_action(gid, 1, "111", {}, {}, clock())


async def test_finish_game_after_record_action(mem: Store, clock):
    gid = await active_game(mem, clock)
    await mem.record_action(gid, 0, "u1", {"type": "last"}, {"over": True}, clock())
    await mem.finish_game(gid, [{"seat": 0, "user_id": "u1", "rank": 1, "score": 5}], clock())
    assert (await mem.get_game(gid)).status == "finished"
    assert [r.rank for r in await mem.results_for("u1")] == [1]
    with pytest.raises(WrongStatus):
        await mem.finish_game(gid, [], clock())
    with pytest.raises(TypeError):  # EVO.returns' "seat" is the player's id: map it first
        await mem.finish_game(gid, [{"seat": "u1", "rank": 1}], clock())


# ---------------------------------------------------------------- lifecycle and channels


async def test_one_live_game_per_channel(mem: Store, clock):
    first = await mem.create_game("g", 42, "evo", None, {"seats": []}, clock())
    with pytest.raises(ChannelBusy) as info:
        await mem.create_game("g", "42", "evo", None, None, clock())
    assert info.value.game_id == first
    await mem.start_game(first, {"turn": 0}, clock())
    with pytest.raises(ChannelBusy):
        await mem.create_game("g", 42, "evo", None, None, clock())
    other = await mem.create_game("g", 43, "evo", None, None, clock())  # another channel
    assert (await mem.game_in_channel(42)).id == first

    await mem.finish_game(first, [], clock())  # a finished game does not block the channel
    assert await mem.game_in_channel(42) is None
    second = await mem.create_game("g", 42, "evo", None, None, clock())
    await mem.cancel_game(second, clock())
    third = await mem.create_game("g", 42, "evo", None, None, clock())
    await mem.set_aside(third, "boom", clock())
    fourth = await mem.create_game("g", 42, "evo", None, None, clock())
    assert [g.id for g in await mem.live_games()] == [other, fourth]


async def test_the_schema_itself_enforces_one_live_game(db_path: Path, clock):
    async with Store.open(db_path) as s:
        await s.create_game(None, "c1", "evo", None, None, clock())
    with pytest.raises(sqlite3.IntegrityError):
        raw(db_path, "INSERT INTO games (channel_id, kind, status, created_at, updated_at) "
                     "VALUES ('c1', 'evo', 'active', 0, 0)")
    raw(db_path, "INSERT INTO games (channel_id, kind, status, created_at, updated_at) "
                 "VALUES ('c1', 'evo', 'finished', 0, 0)")


async def test_lifecycle_rules(mem: Store, clock):
    gid = await mem.create_game("g", "c", "evo", {"timer": 0}, {"seats": []}, clock())
    await mem.update_lobby(gid, {"seats": ["u1", "ai:1"]}, clock())
    row = await mem.get_game(gid)
    options, lobby, state = row.decoded()
    assert (row.status, options, lobby, state) == (
        "lobby", {"timer": 0}, {"seats": ["u1", "ai:1"]}, None)
    with pytest.raises(StaleWrite):  # not started yet
        await mem.record_action(gid, 0, "u1", {}, {}, clock())
    await mem.start_game(gid, {"turn": 0}, clock(), lobby={"seats": ["u1", "ai:1"], "msg": 9})
    row = await mem.get_game(gid)
    assert (row.status, row.seq, row.decoded().lobby["msg"]) == ("active", 0, 9)
    await mem.update_lobby(gid, {"seats": ["u1", "ai:1"], "msg": 9, "left": 0}, clock())
    assert (await mem.get_game(gid)).decoded().lobby["left"] == 0  # seats change in play
    with pytest.raises(WrongStatus):
        await mem.start_game(gid, {}, clock())
    await mem.set_aside(gid, "engine raised KeyError", clock())
    with pytest.raises(WrongStatus):
        await mem.update_lobby(gid, {}, clock())
    game = await mem.get_game(gid)
    assert (game.status, game.error) == ("broken", "engine raised KeyError")
    with pytest.raises(WrongStatus):
        await mem.cancel_game(gid, clock())
    with pytest.raises(GameNotFound):
        await mem.cancel_game(12345, clock())
    with pytest.raises(GameNotFound):
        await mem.record_action(12345, 0, "u1", {}, {}, clock())
    assert await mem.get_game(12345) is None


# ---------------------------------------------------------------- corrupt rows


async def test_corrupt_rows_do_not_hide_the_others(db_path: Path, clock):
    async with Store.open(db_path) as s:
        ids = [await active_game(s, clock, channel=f"c{i}", state={"i": i}) for i in range(5)]
    raw(db_path, "UPDATE games SET state = 'not json {' WHERE id = ?", (ids[1],))
    raw(db_path, "UPDATE games SET state = '[1, 2]' WHERE id = ?", (ids[2],))
    raw(db_path, "UPDATE games SET state = CAST(X'FF7B7D' AS TEXT) WHERE id = ?", (ids[3],))
    raw(db_path, "UPDATE games SET options = '{\"a\": ' WHERE id = ?", (ids[4],))
    async with Store.open(db_path) as s:
        live = await s.live_games()
        assert [g.id for g in live] == ids
        assert live[1].state == "not json {"  # the raw text is there for the post-mortem
        good, bad = [], {}
        for game in live:
            try:
                good.append(game.decoded().state)
            except ValueError as exc:  # what a loader catches for bad saved data
                assert isinstance(exc, CorruptRow)
                bad[exc.game_id] = exc.reason
        assert good == [{"i": 0}]
        assert set(bad) == set(ids[1:])
        assert "not valid JSON" in bad[ids[1]]
        assert "not an object" in bad[ids[2]]
        assert "UTF-8" in bad[ids[3]]
        assert bad[ids[4]].startswith("options")
        for gid, reason in bad.items():
            await s.set_aside(gid, reason, clock())
        assert [g.id for g in await s.live_games()] == [ids[0]]
        assert (await s.get_game(ids[2])).error == bad[ids[2]]


async def test_active_game_without_state_is_corrupt(db_path: Path, clock):
    async with Store.open(db_path) as s:
        gid = await active_game(s, clock)
    raw(db_path, "UPDATE games SET state = NULL WHERE id = ?", (gid,))
    async with Store.open(db_path) as s:
        with pytest.raises(CorruptRow, match="state is missing"):
            (await s.get_game(gid)).decoded()


# ---------------------------------------------------------------- durability and lifetime


async def test_everything_survives_close_and_reopen(store_target: str, clock):
    async with Store.open(store_target) as s:
        playing = await active_game(s, clock, channel="c1")
        for n in range(3):
            await s.record_action(playing, n, "u1", {"n": n}, {"turn": n + 1}, clock())
        done = await active_game(s, clock, channel="c2")
        await s.record_action(done, 0, "u2", {"type": "last"}, {"over": True}, clock(),
                              results=[{"seat": 0, "user_id": "u2", "rank": 1, "score": 7}])
    async with Store.open(store_target) as s:
        assert [g.id for g in await s.live_games()] == [playing]
        game = await s.get_game(playing)
        assert (game.seq, game.kind, game.decoded().state, game.decoded().options) == (
            3, "evo", {"turn": 3}, {"variant": False})
        assert [a.action for a in await s.actions(playing)] == [{"n": 0}, {"n": 1}, {"n": 2}]
        assert [(r.game_id, r.score) for r in await s.results_for("u2")] == [(done, 7)]
        assert await s.record_action(playing, 3, "u1", {"n": 3}, {"turn": 4}, clock()) == 4


async def test_closed_store_refuses_work(store_target: str, clock):
    s = await Store.open(store_target)
    await s.close()
    await s.close()  # twice is fine
    assert s.closed
    with pytest.raises(StoreError, match="closed"):
        await s.live_games()
    with pytest.raises(StoreError, match="closed"):
        await s.create_game(None, "c", "evo", None, None, clock())


async def test_close_waits_for_writes_under_way(store_target: str, clock):
    s = await Store.open(store_target)
    gid = await active_game(s, clock)
    writes = [asyncio.create_task(s.record_action(gid, n, "u", {"n": n}, {"t": n}, clock()))
              for n in range(3)]
    await asyncio.sleep(0)
    await s.close()
    assert [w.result() for w in writes] == [1, 2, 3]
    async with Store.open(store_target) as s:
        assert len(await s.actions(gid)) == 3


# ---------------------------------------------------------------- checked at start


async def test_a_healthy_file_passes_the_start_check(store_target: str, clock):
    async with Store.open(store_target) as s:
        await active_game(s, clock)
        await s.check()
        await s.check()  # harmless to repeat: the write it makes changes nothing
        assert len(await s.live_games()) == 1


async def test_a_read_only_file_is_refused_at_start(db_path: Path, clock, monkeypatch):
    import aiosqlite

    from store import StoreNotWritable

    async with Store.open(db_path) as s:
        await active_game(s, clock)
    connect = aiosqlite.connect

    def read_only(name, **kwargs):  # as a file the process may not write (root ignores chmod)
        return connect(f"file:{name}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(aiosqlite, "connect", read_only)
    async with Store.open(db_path) as s:
        with pytest.raises(StoreNotWritable) as err:
            await s.check()
    text = str(err.value)
    assert str(db_path) in text and "cannot be written" in text and "readonly" in text


async def test_a_zeroed_page_is_found_at_start_and_names_the_games_it_hits(db_path: Path, clock):
    from store import StoreDamaged

    async with Store.open(db_path) as s:
        ids = [await s.create_game("g", f"c{i}", "evo", {}, {"pad": "x" * 3000}, clock())
               for i in range(60)]
    pages = db_path.stat().st_size // 4096
    with open(db_path, "r+b") as f:  # one page in the middle of the file, all zeros
        f.seek(4096 * (pages // 2))
        f.write(bytes(4096))
    async with Store.open(db_path) as s:
        with pytest.raises(StoreDamaged) as err:
            await s.check()
    damaged = err.value.games
    assert damaged and set(damaged) < set(ids) and len(damaged) <= 3
    assert "damaged" in str(err.value) and str(damaged[0]) in str(err.value)


@pytest.mark.parametrize("damage,named", [
    (["DROP TABLE games"], ["games"]),
    (["DROP TABLE actions"], ["actions"]),
    (["DROP TABLE actions", "DROP TABLE ratings"], ["actions", "ratings"]),
    (["ALTER TABLE results DROP COLUMN ai_level"], ["results.ai_level"]),
])
async def test_a_missing_table_or_column_is_found_at_start(store_target: str, clock, damage,
                                                           named):
    """A table or a column the schema version must have, dropped by hand: the start check
    stops the bot with one sentence naming them, instead of every channel failing later."""
    postgres = store_target.startswith("postgresql")
    async with Store.open(store_target) as s:
        await active_game(s, clock)
        if not postgres:  # as a hand in sqlite3 would (foreign keys are off there)
            await s._db.execute("PRAGMA foreign_keys = OFF")
        for sql in damage:
            await s._db.execute(sql + (" CASCADE" if postgres else ""))
    async with Store.open(store_target) as s:  # opens: the schema version is the latest
        with pytest.raises(StoreError) as err:
            await s.check()
    text = str(err.value)
    assert s.path in text and "did not start" in text and f"version {LATEST}" in text
    for name in named:
        assert name in text
    assert "\n" not in text


# ---------------------------------------------------------------- group commit


async def test_writes_that_arrive_together_commit_together_and_a_stale_one_fails_alone(
        store_target: str, clock):
    async with Store.open(store_target) as s:
        ids = [await active_game(s, clock, channel=f"c{i}") for i in range(30)]
        with Statements(s) as calls:
            results = await asyncio.gather(
                *(s.record_action(gid, 5 if gid == ids[7] else 0, "u", {"n": gid}, {"turn": 1},
                                  clock()) for gid in ids),
                return_exceptions=True)
        assert isinstance(results[7], StaleWrite)
        assert [r for i, r in enumerate(results) if i != 7] == [1] * 29
        assert calls.count("COMMIT") < 10  # not one transaction (and fsync) per write
    async with Store.open(store_target) as s:  # durable, and the stale one left nothing
        assert [len(await s.actions(gid)) for gid in ids] == [0 if i == 7 else 1
                                                            for i in range(30)]


async def test_a_failing_write_in_a_batch_leaves_the_others_whole(store_target: str, clock,
                                                                  monkeypatch):
    async with Store.open(store_target) as s:
        ids = [await active_game(s, clock, channel=f"c{i}") for i in range(10)]
        advance = Store._advance_game  # on PostgreSQL, it inserts the action's row too

        async def full_for_one(db, game_id, *args, **kwargs):
            if game_id == ids[3]:
                raise sqlite3.OperationalError("database or disk is full")
            return await advance(db, game_id, *args, **kwargs)

        monkeypatch.setattr(Store, "_advance_game", staticmethod(full_for_one))
        # on PostgreSQL the batch's moves are first one statement (Store._run_moves): it
        # fails too, and the batch runs again a write at a time
        monkeypatch.setattr(store.db, "_MOVES_SQL", "SELECT no_such_column")
        results = await asyncio.gather(
            *(s.record_action(gid, 0, "u", {"n": gid}, {"turn": 1}, clock()) for gid in ids),
            return_exceptions=True)
        assert isinstance(results[3], StoreError) and "full" in str(results[3])
        assert sum(r == 1 for r in results) == 9
        assert (await s.get_game(ids[3])).seq == 0 and await s.actions(ids[3]) == []


async def test_a_persons_write_goes_before_a_queue_of_ai_steps(mem: Store, clock):
    ids = [await active_game(mem, clock, channel=f"c{i}") for i in range(400)]
    done: list[int] = []

    async def write(gid, urgent=False):
        await mem.record_action(gid, 0, "u", {}, {"turn": 1}, clock(), urgent=urgent)
        done.append(gid)

    ai = [asyncio.ensure_future(write(gid)) for gid in ids[1:]]
    await asyncio.sleep(0)  # the first batch of AI steps is under way
    await write(ids[0], urgent=True)
    await asyncio.gather(*ai)
    assert done.index(ids[0]) < 200  # not behind the 399 queued AI steps
