"""Per-server settings without Discord: the store's table (migration 0003), the checks of each
value, the host's cache, and what a new game takes from them."""

from __future__ import annotations

import math

import aiosqlite
import pytest

from host import GameHost, HostError, ServerSettings
from host.settings import check_setting, format_duration, parse_duration
from store import SETTINGS, Store, StoreError, load_migrations
from store.migrate import migrate
from tests.test_host import FakeClock, make_host

# --- the store ------------------------------------------------------------------------------


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(str(tmp_path / "settings.sqlite3"))
    yield s
    await s.close()


async def test_settings_are_stored_per_server_and_survive_reopening(tmp_path):
    path = str(tmp_path / "s.sqlite3")
    async with Store.open(path) as store:
        assert await store.guild_settings("1") == {}
        await store.save_guild_settings("1", {"language": "it", "turn_timer": 600,
                                              "thread": True, "manager_role": "42"}, 10.0)
        await store.save_guild_settings(2, {"ai_delay": 0.5, "thread": False}, 11.0)
    async with Store.open(path) as store:
        assert await store.guild_settings(1) == {"language": "it", "turn_timer": 600.0,
                                                 "thread": True, "manager_role": "42"}
        assert await store.guild_settings("2") == {"ai_delay": 0.5, "thread": False}
        await store.save_guild_settings("1", {"language": "fr"}, 12.0)  # the row, whole
        assert await store.guild_settings("1") == {"language": "fr"}


async def test_the_store_refuses_what_no_column_can_hold(store):
    with pytest.raises(ValueError):
        await store.save_guild_settings("1", {"colour": "red"}, 1.0)
    with pytest.raises(TypeError):
        await store.save_guild_settings("1", {"turn_timer": "ten"}, 1.0)
    with pytest.raises(TypeError):
        await store.save_guild_settings("1", {"thread": 1}, 1.0)
    with pytest.raises(StoreError):  # the column's own check
        await store.save_guild_settings("1", {"turn_timer": -5}, 1.0)
    assert await store.guild_settings("1") == {}
    assert set(SETTINGS) == set(ServerSettings.names())


async def test_a_database_of_the_previous_version_gains_the_settings_table(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    db = await aiosqlite.connect(path, isolation_level=None)
    assert await migrate(db, load_migrations()[:2]) == 2
    await db.execute("INSERT INTO games (guild_id, channel_id, kind, status, lobby, created_at, "
                     "updated_at) VALUES ('1', 'c', 'evo', 'lobby', '{}', 0, 0)")
    await db.close()
    async with Store.open(path) as store:
        assert store.schema_version == load_migrations()[-1].version  # 3 and the later ones
        assert (await store.game_in_channel("c")).kind == "evo"
        await store.save_guild_settings("1", {"ai_level": "strong"}, 1.0)
        assert await store.guild_settings("1") == {"ai_level": "strong"}


# --- the checks -----------------------------------------------------------------------------


@pytest.mark.parametrize("text, seconds", [
    ("600", 600), ("90s", 90), ("10 min", 600), ("10m", 600), ("1h30", 5400),
    ("1 h 30 min", 5400), ("2 ore", 7200), ("1,5h", 5400), ("24h", 86400), ("1 jour", 86400),
    ("off", 0), ("OFF", 0), ("10 years", 10 * 365 * 86400)])
def test_a_timer_is_typed_as_people_write_lengths_of_time(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["abc", "10 parsecs", "-5", "", "ten minutes", "5:00"])
def test_what_is_not_a_length_of_time_is_refused(text):
    with pytest.raises(HostError) as refused:
        parse_duration(text)
    assert refused.value.code == "bad_duration"


def test_durations_read_back_in_units():
    assert [format_duration(s) for s in (45, 600, 5400, 86400, 90)] == [
        "45 s", "10 min", "1 h 30 min", "1 d", "1 min 30 s"]


@pytest.mark.parametrize("name, value, code", [
    ("turn_timer", "0", "timer_zero"), ("turn_timer", "0 min", "timer_zero"),
    ("turn_timer", "10 years", "timer_range"), ("turn_timer", "5s", "timer_range"),
    ("turn_timer", "soon", "bad_duration"),
    ("language", "de", "bad_language"), ("language", "klingon", "bad_language"),
    ("ai_level", "genius", "bad_ai_level"),
    ("ai_delay", -1, "ai_delay_range"), ("ai_delay", 31, "ai_delay_range"),
    ("ai_delay", math.nan, "ai_delay_range"),
    ("colour", "red", "bad_setting")])
def test_bad_values_are_refused_with_their_own_sentence(name, value, code):
    from messages import has, languages

    with pytest.raises(HostError) as refused:
        check_setting(name, value)
    assert refused.value.code == code
    assert all(has(f"bot.error.{code}", lang) for lang in languages())


def test_good_values_are_kept_as_the_setting_keeps_them():
    assert check_setting("turn_timer", "10m") == 600
    assert check_setting("turn_timer", "off") == 0
    assert check_setting("turn_timer", 0) == 0  # as stored: off
    assert check_setting("turn_timer", 90.0) == 90
    assert check_setting("language", " IT ") == "it"
    assert check_setting("ai_delay", 0) == 0.0
    assert check_setting("ai_level", "strong") == "strong"
    assert check_setting("thread", True) is True
    assert check_setting("manager_role", 42) == "42"
    assert check_setting("language", None) is None  # back to the default


# --- the host -------------------------------------------------------------------------------


async def test_settings_are_cached_and_read_again_after_a_restart(store):
    host, _ = make_host(store)
    assert await host.server_settings("g") == ServerSettings()
    changed = await host.change_settings("g", turn_timer="10m", language="it", thread=True)
    assert changed == ServerSettings(language="it", turn_timer=600.0, thread=True)
    assert host.cached_settings("g") == changed
    assert host.cached_settings("other") == ServerSettings()
    await host.change_settings("g", thread=None)  # reset to the default
    restarted, _ = make_host(store)
    assert restarted.cached_settings("g") == ServerSettings()  # not read yet
    assert await restarted.server_settings("g") == ServerSettings(language="it",
                                                                   turn_timer=600.0)


async def test_a_stored_setting_no_longer_valid_is_ignored(store):
    await store.save_guild_settings("g", {"ai_level": "genius", "language": "de",
                                          "turn_timer": 0.0, "thread": True}, 1.0)
    host, _ = make_host(store)
    assert await host.server_settings("g") == ServerSettings(turn_timer=0.0, thread=True)


async def test_a_refused_value_changes_nothing(store):
    host, _ = make_host(store)
    await host.change_settings("g", ai_level="strong")
    with pytest.raises(HostError):
        await host.change_settings("g", ai_level="random", turn_timer="0")
    assert await host.server_settings("g") == ServerSettings(ai_level="strong")
    assert await store.guild_settings("g") == {"ai_level": "strong"}


async def test_a_failing_store_refuses_the_change_and_keeps_the_old_settings(store, monkeypatch):
    host, _ = make_host(store)
    await host.change_settings("g", ai_delay=2)

    async def broken(*args, **kwargs):
        raise StoreError("disk full")

    monkeypatch.setattr(store, "save_guild_settings", broken)
    with pytest.raises(HostError) as refused:
        await host.change_settings("g", ai_delay=3)
    assert refused.value.code == "storage_failed"
    assert host.cached_settings("g").ai_delay == 2.0


async def test_new_games_take_the_servers_settings_and_older_ones_keep_theirs(store):
    clock = FakeClock()
    host = GameHost(store, clock=clock, ai_delay=1.0, default_timer=0, ai_level="fast")
    await host.open_lobby("g", "before", "evo", "u1", "Ann")
    await host.change_settings("g", turn_timer="2m", ai_delay=5, ai_level="random")
    await host.open_lobby("g", "after", "evo", "u1", "Ann")
    await host.open_lobby("g", "chosen", "evo", "u1", "Ann", timer=30)
    await host.open_lobby("h", "elsewhere", "evo", "u1", "Ann")
    before, after = host.game_in("before"), host.game_in("after")
    assert before.lobby["timer"] == 0 and "ai_delay" not in before.lobby
    assert after.lobby["timer"] == 120 and after.lobby["ai_delay"] == 5
    assert host.game_in("chosen").lobby["timer"] == 30  # the command's own option wins
    assert host.game_in("elsewhere").lobby["timer"] == 0  # another server: the defaults
    for channel in ("before", "after"):
        await host.add_ai(channel, "u1")
        await host.add_ai(channel, "u1")
    assert [s.get("level") for s in after.seats[1:]] == ["random", "random"]
    assert [s.get("level") for s in before.seats[1:]] == ["fast", "fast"]
    # the AI seats of the later game wait the server's 5 seconds, the earlier one's 1 second
    waits = {}
    for channel, game in (("before", before), ("after", after)):
        await host.start_game(channel, "u1", False, seed=3)
        while not any(game.seats[p].get("ai") for p in game.awaiting()):
            await host.act(channel, "u1", game.rules.legal_actions(game.state, 0)[0])
        armed = [e[0] for e in clock.pending if not e[2]]
        waits[channel] = max(armed) - clock.t  # the latest armed: this game's AI move
    assert waits == {"before": 1.0, "after": 5.0}
    await host.close()
