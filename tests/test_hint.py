"""A hint for learners (issue 22): /<game> hint suggests a move for the asker's own seat from
their view only (engine/hint.py), counted in their seat and shown in the final table; and the
searching level thinks in a worker process, so nobody else's answer waits for it."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace

import pytest

from engine import IllegalAction, Seat, get_game
from engine.hint import hint
from host import GameHost, HostError
from host.ai_pool import AiPool
from messages import t
from tests.test_discord import custom_ids, reply_text
from tests.test_host import FakeClock, Recorder, settle

KINDS = ["evo", "cubosaurs", "mutations", "climate"]


def position(kind: str, seed: int, steps: int = 40):
    """A seeded random game some steps in, at a player with a real choice."""
    rules = get_game(kind)
    rnd = random.Random(seed)
    state = rules.new_game([Seat(f"p{i}", f"P{i}") for i in range(3)], seed)
    k = 0
    while True:
        p = rules.to_act(state)[0]
        legal = rules.legal_actions(state, p)
        if k >= steps and len(legal) > 1:
            return rules, state, p
        rules.apply_in_place(state, p, rnd.choice(legal))
        k += 1
        assert not rules.is_over(state)


@pytest.mark.parametrize("kind", KINDS)
def test_a_hint_depends_only_on_the_askers_view(kind):
    """Two worlds that the asker cannot tell apart (the others' hidden cards dealt anew from
    the asker's view) get the same hint, figures included; it is one of the asker's moves."""
    rules, state, p = position(kind, 7)
    view = rules.view(state, p)
    a, b = rules.determinize(view, 1), rules.determinize(view, 2)
    a.seed = b.seed = state.seed  # one game: its seed (EVO's decisions mix it in) is the same
    assert rules.view(a, p) == rules.view(b, p) == view
    ha, hb = hint(rules, a, p, iterations=24), hint(rules, b, p, iterations=24)
    assert ha == hb
    assert ha["action"] in rules.legal_actions(state, p)
    from engine.core import description

    if "expert" in description(kind).ai_levels:
        # (the search stops once no challenger can beat the strong choice: 24 at most)
        assert ha["level"] == "expert" and 0 < ha["playouts"] <= 24
        assert 0.0 <= ha["value"] <= 1.0 and ha["searcher"]
    else:  # a game whose searcher is not offered (Cubosaurs): its strong level's choice
        assert ha["level"] == "strong" and ha["value"] is None and not ha["searcher"]


def test_a_hint_for_a_player_with_nothing_to_decide_is_refused():
    rules, state, p = position("mutations", 3)
    idle = next(q for q in range(3) if q not in rules.to_act(state))
    with pytest.raises(IllegalAction) as info:
        hint(rules, state, idle)
    assert info.value.code == "not_your_turn"


def test_without_a_search_the_hint_is_the_strong_choice():
    rules, state, p = position("climate", 5)
    found = hint(rules, state, p, iterations=0)
    assert found["level"] == "strong" and found["value"] is None and found["playouts"] == 0
    from engine.ai import ai_action

    assert found["action"] == ai_action(rules, state, p, "strong")


async def _hinted_game(host: GameHost, channel: str = "c1"):
    await host.open_lobby("g", channel, "mutations", "u1", "Ann")
    await host.add_ai(channel, "u1")
    await host.start_game(channel, "u1", False, seed=11)
    game = host.game_in(channel)
    return game


async def test_the_host_counts_hints_and_stores_them(tmp_path):
    from store import Store

    store = await Store.open(str(tmp_path / "hint.sqlite3"))
    host = GameHost(store, clock=FakeClock(), listener=Recorder(), ai_delay=1.0,
                    ai_pool=AiPool(workers=1, seconds=1.0))
    try:
        game = await _hinted_game(host)
        clock = host.clock
        while 0 not in game.awaiting():
            await clock.advance(1.0, host)
        legal = game.rules.legal_actions(game.state, 0)
        _, seat, found = await host.hint("c1", "u1")
        assert seat == 0 and found["action"] in legal
        if len(legal) > 1:  # searched in the worker process: with its figures
            assert found["level"] == "expert" and found["playouts"] > 0
        assert host.ai.searched == 1 and host.ai.busy == 0
        _, _, again = await host.hint("c1", "u1")
        assert again == found  # the same view: the same hint
        assert game.seats[0]["hints"] == 2
        stored = await store.get_game(game.id)
        assert stored.decoded()[1]["seats"][0]["hints"] == 2
        with pytest.raises(HostError) as info:
            await host.hint("c1", "u9")
        assert info.value.code == "not_a_player"
        await host.act("c1", "u1", found["action"])
        while 0 in game.awaiting():
            await host.act("c1", "u1", game.rules.legal_actions(game.state, 0)[0])
        with pytest.raises(HostError) as info:
            await host.hint("c1", "u1")
        assert info.value.code == "hint_not_awaited"
    finally:
        await host.close()
        await store.close()


GATE = "DARWIN_TEST_AI_GATE"  # a file whose existence lets the gated worker decide


def gated_think(kind, state, seat, level, seconds):
    """In the AI worker process: wait until the test opens the gate (the file named by
    ``$DARWIN_TEST_AI_GATE`` exists), then decide as the worker does. The test so controls
    how long the expert "thinks", whatever the machine's speed."""
    import os
    import time

    from host.ai_pool import _think

    for _ in range(6000):
        if os.path.exists(os.environ[GATE]):
            break
        time.sleep(0.01)
    return _think(kind, state, seat, level, seconds)


async def test_an_expert_thinking_in_its_worker_delays_nobody(tmp_path, monkeypatch):
    """While an expert AI seat thinks in its worker process (held there until the test lets
    it go), a person plays in another channel: their move is committed at once, the expert's
    afterwards."""
    import host.ai_pool
    from store import Store

    gate = tmp_path / "gate"
    monkeypatch.setenv(GATE, str(gate))  # before the worker is spawned: it inherits it
    monkeypatch.setattr(host.ai_pool, "_think", gated_think)
    store = await Store.open(str(tmp_path / "busy.sqlite3"))
    pool = AiPool(workers=1, seconds=1.0)
    host_ = GameHost(store, clock=FakeClock(), listener=Recorder(), ai_delay=1.0, ai_pool=pool)
    try:
        await host_.open_lobby("g", "a", "mutations", "u1", "Ann")
        await host_.add_ai("a", "u1", "expert")
        await host_.start_game("a", "u1", False, seed=5)
        thinking = host_.game_in("a")
        await host_.open_lobby("g", "b", "mutations", "u2", "Bob")
        await host_.add_ai("b", "u2", "fast")
        await host_.start_game("b", "u2", False, seed=6)
        other = host_.game_in("b")
        while 0 not in other.awaiting():
            await host_.clock.advance(1.0, host_)
        while 0 in thinking.awaiting():
            await host_.act("a", "u1", thinking.rules.legal_actions(thinking.state, 0)[0])
        seat = thinking.awaiting()[0]
        assert thinking.seats[seat]["level"] == "expert"
        before, searched = thinking.seq, pool.searched
        task = asyncio.create_task(host_._ai_step(thinking, seat, thinking.seq, False))
        for _ in range(500):
            if pool.busy:
                break
            await asyncio.sleep(0.01)
        assert pool.busy == 1
        outcome = await host_.act("b", "u2", other.rules.legal_actions(other.state, 0)[0])
        assert outcome.seq == other.seq
        assert pool.busy == 1 and thinking.seq == before and not task.done()
        gate.touch()
        await task
        assert thinking.seq > before and pool.searched == searched + 1 and pool.busy == 0
    finally:
        gate.touch()
        await settle(host_)
        await host_.close()
        await store.close()


async def test_the_final_table_shows_the_hints_used():
    from cogs.community import ending_lines

    game = SimpleNamespace(guild_id=None, seats=[{"id": "1", "name": "Ann", "hints": 2},
                                                  {"id": "ai:1", "name": "AI 1", "ai": True},
                                                  {"id": "2", "name": "Bob"}])
    lines = await ending_lines(SimpleNamespace(host=None), game, "en")
    assert lines == [t("community.table.hints", "en", players="Ann 2")]
    game.seats[0].pop("hints")
    assert await ending_lines(SimpleNamespace(host=None), game, "en") == []


@pytest.fixture
def darwin_config(tmp_path):
    from tests.conftest import make_config

    return make_config(tmp_path, ai_workers=0)  # the hint in a thread: the strong choice


async def awaited_game(env, kind: str):
    """Ann's game of ``kind`` with one AI seat, in a new channel, once it awaits her: (ann,
    channel, game)."""
    guild = env.create_guild()
    channel = guild.create_text_channel(kind)
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(channel, f"{kind} new")
    lobby = channel.last_message
    await ann.click(lobby, label="Add AI")
    await ann.click(lobby, label="Start")
    game = env.bot.host.game_in(channel.id)
    for _ in range(20):
        if 0 in game.awaiting():
            break
        await env.advance_time(2)
        await env.settle()
    assert game.awaiting() == [0]
    return ann, channel, game


async def test_slash_hint_suggests_a_move_privately_and_its_button_plays_it(simcord_env):
    ann, channel, game = await awaited_game(simcord_env, "mutations")
    result = await ann.slash(channel, "mutations hint")
    text = reply_text(result)
    assert result.ephemeral
    assert t("bot.hint.why_strong") in text
    assert t("bot.hint.counted", count=1) in text
    assert game.seats[0]["hints"] == 1
    message = result.followups[-1] if result.followups else result.response
    [play] = [cid for cid in custom_ids(message.message) if cid.startswith(f"dw:a:{game.id}:")]
    before = game.seq
    await ann.click(message, custom_id=play)
    assert game.seq > before  # the suggested move was played


async def test_slash_hint_in_a_game_without_a_searcher_says_so(simcord_env):
    """Cubosaurs offers no searching level: its hint is the strong level's move, and the
    reason given is that, not busy workers."""
    ann, channel, game = await awaited_game(simcord_env, "cubosaurs")
    text = reply_text(await ann.slash(channel, "cubosaurs hint"))
    assert t("bot.hint.why_no_searcher") in text and t("bot.hint.why_strong") not in text
    assert game.seats[0]["hints"] == 1


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_a_hints_why_says_how_far_its_search_plays_out(lang):
    """EVO's expert looks to the end of the next turn, the others to the end of the round:
    the hint's sentence says which, in the reader's language."""
    from cogs.game import GameCog

    evo = GameCog.hint_ahead(SimpleNamespace(kind="evo"), lang)
    other = GameCog.hint_ahead(SimpleNamespace(kind="mutations"), lang)
    assert evo == t("evo.hint_ahead", lang) and other == t("bot.hint.ahead", lang)
    assert evo != other
    why = t("bot.hint.why_alone", lang, playouts=160, value=55, ahead=evo)
    assert evo in why and "{ahead}" not in why
