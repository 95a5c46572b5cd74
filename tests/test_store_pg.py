"""The PostgreSQL store's own parts: the SQL translation, its migrations, writers in two
processes (two stores on one database), the sentences at start. The rest of the store's
behaviour is tests/test_store.py, run on both backends."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

import store.migrate as migrate
from store import (
    ChannelBusy,
    Migration,
    MigrationError,
    SchemaTooNew,
    StaleWrite,
    Store,
    StoreError,
    StoreNotWritable,
    load_migrations,
)
from store.pg import redact, translate
from tests.conftest import Statements

LATEST = load_migrations()[-1].version


def test_the_sql_is_translated():
    assert translate("SELECT a FROM t WHERE b = ? AND c IN (?, ?)") == (
        "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)")
    assert translate("BEGIN IMMEDIATE") == "BEGIN"
    assert translate("INSERT OR REPLACE INTO ratings (guild_id, kind, player_id, mu) "
                     "VALUES (?, ?, ?, ?)") == (
        "INSERT INTO ratings (guild_id, kind, player_id, mu) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (guild_id, kind, player_id) DO UPDATE SET mu = EXCLUDED.mu")
    assert translate("INSERT OR IGNORE INTO t (a) VALUES (?)") == (
        "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING")
    assert redact("postgresql://darwin:s3cret@db:5432/darwin") == (
        "postgresql://darwin:***@db:5432/darwin")


def test_both_stores_have_the_same_schema_versions():
    assert [m.version for m in load_migrations("migrations_pg")] == [
        m.version for m in load_migrations()]


async def raw(url: str, sql: str, *args):
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


async def active_game(s: Store, channel: str = "c1") -> int:
    gid = await s.create_game("g1", channel, "evo", {}, {"seats": []}, 1.0)
    await s.start_game(gid, {"turn": 0}, 2.0)
    return gid


async def test_migrations_are_applied_once_and_a_newer_database_is_refused(pg_url, monkeypatch):
    async with Store.open(pg_url) as s:
        assert (s.schema_version, s.backend) == (LATEST, "postgresql")
        await s.create_game(None, "c1", "evo", None, None, 1.0)
    before = await raw(pg_url, "SELECT version, applied_at FROM schema_version ORDER BY 1")
    assert [v for v, _ in before] == list(range(1, LATEST + 1))
    broken = [Migration(m.version, m.name, "THIS IS NOT SQL;")
              for m in load_migrations("migrations_pg")]
    monkeypatch.setattr(migrate, "load_migrations", lambda folder="migrations": broken)
    async with Store.open(pg_url) as s:  # nothing to apply: the broken SQL never runs
        assert len(await s.live_games()) == 1
    monkeypatch.undo()
    assert await raw(pg_url, "SELECT version, applied_at FROM schema_version ORDER BY 1") == before
    await raw(pg_url, "INSERT INTO schema_version VALUES ($1, 0)", LATEST + 1)
    with pytest.raises(SchemaTooNew, match="upgrade"):
        await Store.open(pg_url)


async def test_a_failed_migration_is_rolled_back(pg_url, monkeypatch):
    async with Store.open(pg_url):
        pass
    bad = Migration(LATEST + 1, f"{LATEST + 1:04d}_bad.sql",
                    "ALTER TABLE games ADD COLUMN half TEXT;\nINSERT INTO no_such_table VALUES (1);")
    shipped = load_migrations("migrations_pg")
    monkeypatch.setattr(migrate, "load_migrations", lambda folder="migrations": [*shipped, bad])
    with pytest.raises(MigrationError, match="rolled back"):
        await Store.open(pg_url)
    columns = await raw(pg_url, "SELECT column_name FROM information_schema.columns "
                                "WHERE table_name = 'games' AND column_name = 'half'")
    assert columns == []
    assert await raw(pg_url, "SELECT MAX(version) FROM schema_version") == [(LATEST,)]


async def test_two_processes_one_database_one_writer_wins(pg_url):
    """Two stores (as two bot processes) on one database: the seq guard, one live game per
    channel and the ratings hold across them."""
    from host.ratings import match_of

    async with Store.open(pg_url) as a, Store.open(pg_url) as b:
        gid = await active_game(a)
        for _ in range(5):
            seq = (await a.get_game(gid)).seq
            outcomes = await asyncio.gather(
                a.record_action(gid, seq, "u1", {"by": "a"}, {"by": "a"}, 3.0),
                b.record_action(gid, seq, "u2", {"by": "b"}, {"by": "b"}, 3.0),
                return_exceptions=True)
            assert sorted(map(type, outcomes), key=str) == sorted([int, StaleWrite], key=str)
        assert len(await b.actions(gid)) == (await b.get_game(gid)).seq == 5

        made = await asyncio.gather(
            *(s.create_game("g1", "c2", "evo", None, None, 4.0) for s in (a, b, a, b)),
            return_exceptions=True)
        assert sum(isinstance(m, int) for m in made) == 1
        assert sum(isinstance(m, ChannelBusy) for m in made) == 3

        people = [("ann", 1, None), ("bob", 2, None)]
        games = [await active_game(s, f"r{i}") for i, s in enumerate((a, b, a, b))]
        rows = [{"seat": k, "user_id": u, "rank": r} for k, (u, r, _) in enumerate(people)]
        await asyncio.gather(*(s.record_action(g, 0, "ann", {}, {"over": 1}, 5.0, results=rows,
                                               rating=match_of(people))
                               for s, g in zip((a, b, a, b), games, strict=True)))
        # every finishing transaction started from the ratings the one before left
        assert {r.player_id: r.games for r in await a.player_ratings("g1", "ann")} == {"ann": 4}


async def test_a_move_is_one_statement(pg_url):
    """A move alone in its batch is one round trip: the guarded UPDATE and the action's row
    in one statement, its own transaction (issue 25: each statement waits for the event
    loop to come round); a stale one still changes nothing."""
    async with Store.open(pg_url) as s:
        gid = await active_game(s)
        with Statements(s) as calls:
            assert await s.record_action(gid, 0, "u1", {"n": 1}, {"turn": 1}, 3.0) == 1
        assert len(calls) == 1 and calls[0].startswith("WITH moved AS (UPDATE games")
        with pytest.raises(StaleWrite):
            await s.record_action(gid, 0, "u2", {"n": 2}, {"turn": 2}, 4.0)
        assert [(a.seq, a.actor, a.action, a.at) for a in await s.actions(gid)] == [
            (1, "u1", {"n": 1}, 3.0)]
        game = await s.get_game(gid)
        assert (game.seq, game.state, game.updated_at) == (1, '{"turn":1}', 3.0)


async def test_a_batch_of_moves_is_one_statement(pg_url):
    """The AI seats' moves that queue while a write is committed go together: on PostgreSQL
    one statement for all of them (issue 25: BEGIN, a statement per move and COMMIT were
    each a round trip through a busy event loop). A stale move in the batch fails alone,
    and two moves of one game are not put in one statement."""
    async with Store.open(pg_url) as s:
        games = [await active_game(s, f"m{i}") for i in range(6)]
        await s.record_action(games[2], 0, "u1", {"n": 0}, {"turn": 1}, 2.0)
        with Statements(s) as calls:
            results = await asyncio.gather(
                *(s.record_action(g, 0, "ai:1", {"n": i}, {"turn": i}, 3.0 + i,
                                  wake_at=9.0 if i == 4 else None)
                  for i, g in enumerate(games[:5])), return_exceptions=True)
        assert [r if isinstance(r, int) else type(r) for r in results] == [
            1, 1, StaleWrite, 1, 1]
        assert results[2].seq == 1
        # the batch, then the stale move alone: its guard refuses it again and the head read
        # back gives its StaleWrite
        assert [c.split(" AS", 1)[0] for c in calls] == [
            "WITH v", "WITH moved", "SELECT status, seq, kind FROM games WHERE id = ?"]
        for i, g in enumerate(games[:5]):
            game, actions = await s.get_game(g), await s.actions(g)
            if i == 2:
                assert (game.seq, game.state, [a.actor for a in actions]) == (
                    1, '{"turn":1}', ["u1"])
                continue
            assert (game.seq, game.state, game.updated_at) == (1, f'{{"turn":{i}}}', 3.0 + i)
            assert [(a.seq, a.actor, a.action, a.at) for a in actions] == [
                (1, "ai:1", {"n": i}, 3.0 + i)]
        assert await raw(pg_url, "SELECT id FROM games WHERE wake_at = 9.0") == [(games[4],)]
        with Statements(s) as calls:  # one game twice: the usual transaction
            results = await asyncio.gather(
                s.record_action(games[0], 1, "ai:1", {}, {"turn": 7}, 10.0),
                s.record_action(games[0], 2, "ai:1", {}, {"turn": 8}, 11.0),
                s.record_action(games[5], 0, "ai:1", {}, {"turn": 9}, 12.0))
        assert results == [2, 3, 1] and calls[0] == "BEGIN IMMEDIATE"
        assert (await s.get_game(games[0])).seq == 3


async def test_a_lost_connection_is_opened_again(pg_url):
    async with Store.open(pg_url) as s:
        gid = await active_game(s)
        await raw(pg_url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        with contextlib.suppress(StoreError):  # the first use may find out the hard way
            await s.get_game(gid)
        assert await s.record_action(gid, 0, "u1", {}, {"turn": 1}, 3.0) == 1
        assert (await s.get_game(gid)).seq == 1


async def test_start_sentences(pg_cluster):
    from tests.pg import _free_port

    with pytest.raises(StoreError, match="cannot be reached"):
        await Store.open(f"postgresql://darwin:pw@127.0.0.1:{_free_port()}/darwin")
    with pytest.raises(StoreError, match="does not exist") as err:
        await Store.open(pg_cluster.url("no_such_database"))
    assert "createdb" in str(err.value)
    with pytest.raises(StoreError, match="refused the login") as err:
        await Store.open(pg_cluster.url().replace("postgres@", "nobody:s3cret@"))
    assert "s3cret" not in str(err.value)  # the password is never shown
    # a database that cannot be written stops the start with a sentence
    pg_url = await pg_cluster.create_database()
    async with Store.open(pg_url) as s:
        await s.check()  # migrated, and fine
    name = pg_url.rsplit("/", 1)[1]
    await raw(pg_cluster.url(), f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    async with Store.open(pg_url) as s:
        with pytest.raises(StoreNotWritable, match="cannot be written") as err:
            await s.check()
    assert "read-only" in str(err.value) and name in str(err.value)


async def test_database_url_selects_postgresql_and_the_environment_wins(monkeypatch, pg_url,
                                                                       tmp_path):
    import bot
    from store import configured_target

    monkeypatch.chdir(tmp_path)  # no config.toml here: the example's defaults
    monkeypatch.delenv("DATABASE_URL", raising=False)
    config = bot.load_config(None)
    assert config["storage"]["database_url"] == ""
    assert configured_target(config) == config["storage"]["database"]  # SQLite, as before
    monkeypatch.setenv("DATABASE_URL", pg_url)
    config = bot.load_config(None)
    assert configured_target(config) == pg_url
    await bot.check_storage(config)  # migrated, answers, takes a write
    from tests.pg import _free_port

    config["storage"]["database_url"] = f"postgresql://u:pw@127.0.0.1:{_free_port()}/d"
    with pytest.raises(StoreError, match="cannot be reached.*Darwin did not start"):
        await bot.check_storage(config)
