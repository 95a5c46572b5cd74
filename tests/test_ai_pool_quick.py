"""host/ai_pool.py: with workers, the quick AI levels think in a worker process while one is
free (the event loop keeps the interpreter's lock), in a thread otherwise; the same choice
either way (issue 25: the four games under load)."""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool

from engine import Seat, get_game
from engine.ai import ai_action
from host.ai_pool import QUICK_DEPTH, AiPool


def _position(kind: str = "mutations", seed: int = 3):
    rules = get_game(kind)
    state = rules.new_game([Seat(str(i), f"p{i}") for i in range(3)], seed, {})
    return rules, state, rules.to_act(state)[0]


async def test_a_quick_level_thinks_in_a_free_worker_and_chooses_as_a_thread():
    rules, state, seat = _position()
    pool = AiPool(workers=1)
    try:
        for level in ("fast", "strong", "random"):
            action = await pool.decide(rules, state, seat, level)
            assert action == ai_action(rules, state, seat, level)
        assert pool.quick_in_worker == 3 and pool.quick_in_thread == 0
        assert pool.searched == 0 and pool.busy == 0  # searched counts the expert and hints
    finally:
        pool.close()


async def test_a_busy_or_absent_pool_leaves_quick_levels_in_a_thread(monkeypatch):
    rules, state, seat = _position()
    assert AiPool(workers=0)._pool is None
    off = AiPool(workers=0)
    assert await off.decide(rules, state, seat, "fast") == ai_action(rules, state, seat, "fast")
    assert off.quick_in_thread == 1 and off._pool is None  # no process started
    busy = AiPool(workers=1)
    busy.busy = busy.searching = 1  # a search under way: never wait behind it
    assert await busy.decide(rules, state, seat, "fast") == ai_action(rules, state, seat,
                                                                       "fast")
    busy.searching, busy.busy = 0, QUICK_DEPTH  # quick decisions queued as deep as allowed
    assert await busy.decide(rules, state, seat, "fast") == ai_action(rules, state, seat,
                                                                       "fast")
    assert busy.quick_in_thread == 2 and busy.quick_in_worker == 0 and busy._pool is None


async def test_an_expert_seat_of_a_game_without_a_searcher_plays_strong_as_a_quick_level():
    """Cubosaurs offers no expert (its search measured weaker than strong): an expert seat
    there (an older lobby's) plays the strong level's move, never the fast fallback of a
    busy pool, and is no search."""
    rules, state, seat = _position("cubosaurs", 5)
    busy = AiPool(workers=1)
    busy.busy = busy.searching = 1  # a search under way elsewhere
    strong = ai_action(rules, state, seat, "strong")
    assert await busy.decide(rules, state, seat, "expert") == strong
    assert busy.fallbacks == 0 and busy.quick_in_thread == 1 and busy._pool is None


async def test_a_dead_worker_costs_a_quick_decision_nothing(monkeypatch):
    rules, state, seat = _position()
    pool = AiPool(workers=1)

    async def broken(*args, **kwargs):
        raise BrokenProcessPool("killed")

    monkeypatch.setattr(pool, "_in_worker", broken)
    assert await pool.decide(rules, state, seat, "strong") == ai_action(rules, state, seat,
                                                                         "strong")
    assert pool.quick_in_thread == 1


def test_the_hint_playouts_in_a_worker_follow_the_environment(monkeypatch):
    monkeypatch.setenv("DARWIN_HINT_PLAYOUTS", "0")
    assert AiPool(workers=1).hint_iterations == 0
    monkeypatch.delenv("DARWIN_HINT_PLAYOUTS")
    assert AiPool(workers=1).hint_iterations is None
