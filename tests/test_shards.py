"""Shards across processes: the shard rule, the shard settings, each process resuming only
its own servers' games, and two processes driving one game (the store refuses the second)."""

from __future__ import annotations

import json

import pytest

from host import GameHost, HostError
from host.shards import ShardConfigError, ShardPlan, Shards, owned, shard_of, shard_plan
from store import Store
from tests.test_host import FakeClock, Recorder, settle

# server ids on shard 0 and on shard 1 of 2 (Discord: shard = (guild_id >> 22) % count)
GUILD_0 = 81_384_788_765_712_384  # (id >> 22) is even
GUILD_1 = GUILD_0 + (1 << 22)


# --- the rule and the settings -----------------------------------------------------------------

def test_shard_of_is_discords_rule():
    assert shard_of(GUILD_0, 2) == 0 and shard_of(GUILD_1, 2) == 1
    assert shard_of(str(GUILD_1), 2) == 1  # rows keep ids as text
    assert shard_of(None, 4) == 0  # direct messages go to shard 0
    assert shard_of(GUILD_1, 1) == 0
    assert [shard_of((n << 22) + 12345, 3) for n in range(6)] == [0, 1, 2, 0, 1, 2]
    with pytest.raises(ValueError):
        shard_of(GUILD_0, 0)


def test_owned_filters_rows_by_their_server():
    class Row:
        def __init__(self, guild_id):
            self.guild_id = guild_id

    rows = [Row(str(GUILD_0)), Row(str(GUILD_1)), Row(None)]
    assert owned(rows, None) == rows
    assert owned(rows, Shards(2, frozenset({0}))) == [rows[0], rows[2]]
    assert owned(rows, Shards(2, frozenset({1}))) == [rows[1]]
    assert owned(rows, Shards(2, frozenset({0, 1}))) == rows


def test_shard_settings_are_read_and_checked():
    assert shard_plan({}) == ShardPlan(None, None)  # Discord decides, one process runs all
    assert shard_plan({"shard_count": 0, "shard_ids": []}).host_shards is None
    assert shard_plan({"shard_count": 4}) == ShardPlan(4, None)
    assert shard_plan({"shard_count": 4}).host_shards is None
    plan = shard_plan({"shard_count": 4, "shard_ids": [3, 1]})
    assert plan == ShardPlan(4, (1, 3))
    assert plan.host_shards == Shards(4, frozenset({1, 3}))
    # as the environment gives them
    assert shard_plan({"shard_count": "2", "shard_ids": "1"}) == ShardPlan(2, (1,))
    assert shard_plan({"shard_count": "2", "shard_ids": " 0, 1 "}).host_shards is None
    assert shard_plan({"shard_count": "", "shard_ids": ""}) == ShardPlan(None, None)


@pytest.mark.parametrize("section, words", [
    ({"shard_ids": [0]}, "need shard_count"),
    ({"shard_count": 2, "shard_ids": [0, 2]}, "numbered 0 to 1"),
    ({"shard_count": 3, "shard_ids": [1, 1]}, "more than once"),
    ({"shard_count": "2", "shard_ids": "0,0"}, "more than once"),
    ({"shard_count": -1}, "whole number"),
    ({"shard_count": "two"}, "whole number"),
    ({"shard_count": True}, "whole number"),
    ({"shard_count": 2, "shard_ids": "0;1"}, "list of whole numbers"),
    ({"shard_count": 2, "shard_ids": [-1]}, "list of whole numbers"),
    ({"shard_count": 2, "shard_ids": ["0"]}, "list of whole numbers"),
])
def test_bad_shard_settings_are_one_sentence(section, words):
    with pytest.raises(ShardConfigError) as err:
        shard_plan(section)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_the_environment_sets_the_shards(monkeypatch, tmp_path):
    import bot

    monkeypatch.chdir(tmp_path)  # no config.toml here: the example's defaults
    monkeypatch.delenv("DARWIN_SHARD_COUNT", raising=False)
    monkeypatch.delenv("DARWIN_SHARD_IDS", raising=False)
    config = bot.load_config(None)
    assert shard_plan(config["discord"]) == ShardPlan(None, None)
    monkeypatch.setenv("DARWIN_SHARD_COUNT", "2")
    monkeypatch.setenv("DARWIN_SHARD_IDS", "1")
    config = bot.load_config(None)
    assert shard_plan(config["discord"]).host_shards == Shards(2, frozenset({1}))


def test_bad_shard_settings_stop_the_bot_with_exit_code_2(monkeypatch, tmp_path, capsys):
    import bot

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DARWIN_DATABASE", str(tmp_path / "darwin.sqlite3"))
    monkeypatch.setenv("DARWIN_SHARD_COUNT", "2")
    monkeypatch.setenv("DARWIN_SHARD_IDS", "0,2")
    assert bot.main([]) == 2
    err = capsys.readouterr().err
    assert "shard_ids [2] are not shards of shard_count 2" in err
    assert not (tmp_path / "darwin.sqlite3").exists()  # stopped before anything else


# --- the host ----------------------------------------------------------------------------------

async def timed_game(host, guild, channel, timer=20.0):
    """A three-person evo game whose turn timer runs (so the store says when it is due)."""
    await host.open_lobby(str(guild), channel, "evo", "u1", "Ann", timer=timer)
    await host.join(channel, "u2", "Bob")
    await host.join(channel, "u3", "Cy")
    await host.start_game(channel, "u1", False, seed=5)
    return host.game_in(channel)


async def test_each_process_resumes_only_its_shards_games(tmp_path):
    path = str(tmp_path / "shared.sqlite3")
    async with Store.open(path) as store:
        clock = FakeClock()
        first = GameHost(store, clock=clock, listener=Recorder())
        ours = await timed_game(first, GUILD_0, "c0")
        theirs = await timed_game(first, GUILD_1, "c1")
        await first.close()

        for shard, mine, other in ((0, ours, theirs), (1, theirs, ours)):
            clock2 = FakeClock()
            clock2.t = clock.t
            host = GameHost(store, clock=clock2, listener=Recorder(),
                            shards=Shards(2, frozenset({shard})))
            others_seq = (await store.get_game(other.id)).seq
            await host.start()  # both games are due within the sweep: only ours is resumed
            assert set(host.games) == {mine.channel_id}
            assert await host.ensure_loaded(other.channel_id) is None  # nor loaded on use
            assert other.channel_id not in host.games
            assert (await host.ensure_loaded(mine.channel_id)).id == mine.id
            await clock2.advance(25, host)  # our timer runs out: the AI plays that step
            assert host.game_in(mine.channel_id).seq == 1
            assert (await store.get_game(other.id)).seq == others_seq  # the other's untouched
            await host.close()

        everything = GameHost(store, clock=FakeClock(), listener=Recorder())  # one process
        everything.clock.t = clock.t + 25  # both new deadlines are due within the sweep
        await everything.start()
        assert set(everything.games) == {"c0", "c1"}
        await everything.close()


async def test_two_processes_on_one_game_the_second_commit_is_refused(tmp_path):
    path = str(tmp_path / "shared.sqlite3")
    async with Store.open(path) as store_a, Store.open(path) as store_b:
        clock_a, clock_b = FakeClock(), FakeClock()
        a = GameHost(store_a, clock=clock_a, listener=Recorder())
        b = GameHost(store_b, clock=clock_b, listener=Recorder())
        game_a = await timed_game(a, GUILD_0, "c1", timer=300.0)
        game_b = await b.ensure_loaded("c1")  # both processes hold the game
        assert game_b is not None and game_b.seq == game_a.seq == 0
        assert game_b.timers and clock_b.armed()  # b's turn timer is armed
        seat = game_a.awaiting()[0]
        user = game_a.seats[seat]["id"]

        outcome = await a.act("c1", user, {"type": "end"})
        assert outcome.seq == 1
        with pytest.raises(HostError) as err:  # b's copy is one move behind
            await b.act("c1", user, {"type": "end"})
        assert err.value.code == "changed_elsewhere"
        assert b.game_in("c1") is None and game_b.dropped  # b let go of its copy
        assert not game_b.timers and clock_b.armed() == 0  # and of its timers
        row = await store_b.get_game(game_a.id)
        assert row.seq == 1 and json.loads(row.state) == game_a.rules.to_json(game_a.state)
        assert [x.actor for x in await store_b.actions(game_a.id)] == [user]

        again = await b.ensure_loaded("c1")  # the channel's next use reads the stored game
        assert again is not game_b and again.seq == 1
        assert again.rules.to_json(again.state) == game_a.rules.to_json(game_a.state)
        nxt = again.seats[again.awaiting()[0]]["id"]
        await b.act("c1", nxt, {"type": "end"})  # b now drives it, from the stored state
        with pytest.raises(HostError) as err:  # and a's copy is the stale one
            await a.act("c1", nxt, {"type": "end"})
        assert err.value.code == "changed_elsewhere" and a.game_in("c1") is None
        assert (await store_a.get_game(game_a.id)).seq == 2
        await a.close()
        await b.close()


async def test_a_stale_copy_refuses_bot_steps_quietly_and_does_not_retry(tmp_path):
    path = str(tmp_path / "shared.sqlite3")
    async with Store.open(path) as store_a, Store.open(path) as store_b:
        clock_a, clock_b = FakeClock(), FakeClock()
        a = GameHost(store_a, clock=clock_a, listener=Recorder())
        rec_b = Recorder()
        b = GameHost(store_b, clock=clock_b, listener=rec_b)
        game_a = await timed_game(a, GUILD_0, "c1", timer=20.0)
        game_b = await b.ensure_loaded("c1")
        await a.act("c1", game_a.seats[game_a.awaiting()[0]]["id"], {"type": "end"})
        await clock_b.advance(25, b)  # b's turn timer for the old position runs out
        await settle(b)
        assert game_b.dropped and b.game_in("c1") is None and rec_b.outcomes == []
        assert clock_b.armed() == 0  # nothing armed again: b no longer drives it
        assert (await store_b.get_game(game_a.id)).seq == 1
        await a.close()
        await b.close()


# --- the bot -----------------------------------------------------------------------------------

async def test_the_bot_runs_the_configured_shards(tmp_path):
    import simcord

    from cogs.bot import DarwinBot
    from tests.conftest import make_config

    config = make_config(tmp_path)
    config["discord"].update(shard_count=2, shard_ids=[1])
    bot = DarwinBot(config)
    assert bot.shard_count == 2 and bot.shard_ids == [1]
    assert not bot.syncs_commands  # shard 0's process syncs the (global) commands
    # unsynced here: SimCord registers the commands as shard 0's process would have
    async with simcord.run(bot, strict_sync=False) as env:
        try:
            assert bot.host.shards == Shards(2, frozenset({1}))
            guild = env.create_guild(shard_id=1)
            channel = guild.create_text_channel("evo")
            ann = guild.add_member(env.create_user("ann"))
            await ann.slash(channel, "evo new")
            game = bot.host.game_in(channel.id)
            assert game is not None and shard_of(game.guild_id, 2) == 1
        finally:
            await bot.stop_services()
    one = DarwinBot(make_config(tmp_path))
    assert one.shard_plan.host_shards is None and one.syncs_commands


async def test_a_player_is_told_when_another_process_moved_the_game_first(simcord_env,
                                                                         darwin_config):
    from messages import t
    from tests.conftest import flush
    from tests.test_discord import open_table, reply_text

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    by_seat = {game.seat_of(u.id): u for u in users}
    user = by_seat[game.awaiting()[0]]
    await flush(env)
    table = channel.last_message
    # another process, on the same database, holds the game too and moves first
    async with Store.open(darwin_config["storage"]["database"]) as other_store:
        other = GameHost(other_store, clock=FakeClock(), listener=Recorder())
        theirs = await other.ensure_loaded(channel.id)
        await other.act(channel.id, user.id, {"type": "end"})
        await other.close()
    r = await user.click(table, label=t("bot.btn_end"))  # this process's copy is behind
    assert t("bot.error.changed_elsewhere") in reply_text(r)
    assert game.dropped and game.seq == 0
    assert (await env.bot.store.get_game(game.id)).seq == 1  # the stored game stands
    again = await env.bot.host.ensure_loaded(channel.id)  # the next use reads it
    assert again is not game and again.seq == 1
    assert again.rules.to_json(again.state) == theirs.rules.to_json(theirs.state)
