"""AI steps that fail (issue 24): an AI seat whose move raised is logged with its game and
traceback, tried again with a back-off, and the table told once if it keeps failing (the
Discord side: tests/test_ops.py)."""

from __future__ import annotations

import asyncio
import logging

from host import GameHost
from tests.test_host import FakeClock, Recorder, settle

# --- AI steps that fail ------------------------------------------------------------------------


async def _ai_game(host: GameHost, channel: str = "c1"):
    """A human and two AI seats; the human plays until an AI seat is awaited."""
    await host.open_lobby("g", channel, "evo", "u1", "Ann")
    await host.add_ai(channel, "u1")
    await host.add_ai(channel, "u1")
    await host.start_game(channel, "u1", False, seed=3)
    game = host.game_in(channel)
    while 0 in game.awaiting():
        await host.act(channel, "u1", game.rules.legal_actions(game.state, 0)[0])
    return game


async def test_an_ai_step_that_raises_is_logged_retried_and_told_once(tmp_path, monkeypatch,
                                                                      caplog):
    """Today the exception is lost in "Task exception was never retrieved" and the game waits
    for ever. Now: logged with the game and the traceback, tried again after 1, 2, 4... s (at
    most a minute), the table told once, and the game goes on once the AI works again."""
    import host.ai_pool as ai_pool_module
    from engine.ai import ai_action
    from store import Store

    unretrieved = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: unretrieved.append(context))
    broken = {"on": True}
    calls = []

    def flaky(rules, state, seat, level):
        calls.append(seat)
        if broken["on"]:
            raise RuntimeError("the AI fell over")
        return ai_action(rules, state, seat, level)

    monkeypatch.setattr(ai_pool_module, "ai_action", flaky)
    store = await Store.open(str(tmp_path / "ai.sqlite3"))
    clock = FakeClock()
    told = []
    rec = Recorder()

    async def on_ai_failing(game, seat):
        told.append((game.id, seat))

    rec.on_ai_failing = on_ai_failing
    host = GameHost(store, clock=clock, listener=rec, ai_delay=1.0)
    try:
        game = await _ai_game(host)
        seq = game.seq
        seat = game.awaiting()[0]
        caplog.set_level(logging.ERROR, logger="darwin.host")
        await clock.advance(1.0, host)  # the AI's delay: its first try
        assert len(calls) == 1 and game.seq == seq
        assert game.ai_failures == 1
        record = next(r for r in caplog.records if "AI of seat" in r.getMessage())
        assert f"game {game.id}" in record.getMessage() and record.exc_info is not None
        assert "the AI fell over" in caplog.text and "Traceback" in caplog.text
        await clock.advance(120.0, host)
        tries = len(calls)
        assert 5 <= tries <= 9  # 1 + 1, 2, 4, 8, 16, 32, 60 s: backing off, not spinning
        assert told == [(game.id, seat)]  # once, when it kept failing (3 in a row)
        assert host.ai_step_failures == {"evo": tries}
        assert clock.armed() >= 1  # the next try is armed: the game is not forgotten
        broken["on"] = False
        await clock.advance(61.0, host)
        assert game.seq > seq and game.ai_failures == 0
        row = await store.get_game(game.id)
        assert row.seq == game.seq
        await settle(host)
        assert not unretrieved, unretrieved
        assert told == [(game.id, seat)]
    finally:
        loop.set_exception_handler(None)
        await host.close()
        await store.close()


async def test_an_illegal_ai_move_is_a_failure_too(tmp_path, monkeypatch):
    import host.ai_pool as ai_pool_module
    from store import Store

    monkeypatch.setattr(ai_pool_module, "ai_action", lambda *a: {"type": "nonsense"})
    store = await Store.open(str(tmp_path / "ai.sqlite3"))
    clock = FakeClock()
    host = GameHost(store, clock=clock, listener=Recorder(), ai_delay=1.0)
    try:
        game = await _ai_game(host)
        await clock.advance(4.0, host)
        assert game.ai_failures >= 2 and clock.armed() >= 1
    finally:
        await host.close()
        await store.close()
