"""cogs/common.py draw: a real bot draws boards and private hands in a worker process (issue
25: a thread drawing holds the interpreter's lock in turns with the event loop); the
picture is the one drawn in the bot's own process."""

from __future__ import annotations

import pytest

from cogs import common
from engine import Seat
from engine.core import get_game
from images import render, render_hand


@pytest.fixture
def in_process(monkeypatch):
    monkeypatch.setenv("DARWIN_RENDER_POOL", "process")
    yield
    common.close_render_pool()


async def test_boards_and_hands_are_drawn_in_the_worker_process(in_process):
    rules = get_game("climate")
    state = rules.new_game([Seat("a", "Ann"), Seat("b", "Bob")], 3, {})
    assert common.render_pool() is not None
    board = await common.draw(render, "climate", rules.view(state, None), "fr")
    hand = await common.draw(render_hand, "climate", rules.view(state, 0), "fr")
    assert board == render("climate", rules.view(state, None), "fr")
    assert hand == render_hand("climate", rules.view(state, 0), "fr")


async def test_a_dead_worker_is_replaced_and_the_picture_drawn_anyway(in_process):
    import os
    import signal

    rules = get_game("climate")
    state = rules.new_game([Seat("a", "Ann"), Seat("b", "Bob")], 3, {})
    pool = common.render_pool()
    pid = await pool.call(os.getpid)
    assert pid != os.getpid()
    os.kill(pid, signal.SIGKILL)
    hand = await common.draw(render_hand, "climate", rules.view(state, 1), "en")
    assert hand == render_hand("climate", rules.view(state, 1), "en")
    assert await pool.call(os.getpid) not in (pid, os.getpid())  # a new worker
