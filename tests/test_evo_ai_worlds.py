"""EVO's strong level judges a move, a birth or a loss in several imagined worlds at the player
counts that have the time for it (engine.evo.ai.WORLDS): one imagined world is one set of
hidden cards and dice, and a choice that only looks better because of that world's dice is
not a better choice."""

from __future__ import annotations

import pytest

import engine.evo.ai as A
from engine.evo.ai import WORLDS, StrongPolicy
from tests.evo_helpers import first_choice


def _count_worlds(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = A.determinize

    def counting(view, seed):
        calls.append(seed)
        return real(view, seed)

    monkeypatch.setattr(A, "determinize", counting)
    return calls


@pytest.mark.parametrize("n", sorted(WORLDS))
def test_several_worlds_by_player_count(monkeypatch, n):
    assert WORLDS[3] >= 3
    state, legal, view, seed = first_choice(n, 700, 5, 0, "move")
    calls = _count_worlds(monkeypatch)
    StrongPolicy().choose(view, legal, seed)
    assert len(calls) == WORLDS[n]
    assert len(set(calls)) == len(calls)  # each world its own hidden cards and dice


def test_one_world_where_the_table_has_none(monkeypatch):
    n = next(n for n in (4, 5, 2) if n not in WORLDS)
    state, legal, view, seed = first_choice(n, 700, 5, 0, "move")
    calls = _count_worlds(monkeypatch)
    StrongPolicy().choose(view, legal, seed)
    assert len(calls) <= 1
    # an explicit count overrides the table, for every player count
    calls.clear()
    StrongPolicy(worlds=2).choose(view, legal, seed)
    assert len(calls) in (0, 2)


def test_the_dino_in_the_heat_steps_into_the_temperate_region():
    # 3 players, turn 5's movement: our dino on D6 (hot now, covered by our parasols) may
    # step into E5, temperate: the fast rules' first choice. In the first imagined world
    # stopping comes out a hair ahead of the step (the same dinos either way, 6.04 against
    # 5.98); in the third, the turn played after the step ends with one more dino of ours
    # and one less of a rival's. One world's dice alone made the strong level stop; judged
    # in three, five or nine worlds it steps, like the fast rule.
    state, legal, view, seed = first_choice(3, 700, 5, 0, "move")
    assert state.mp == [19, 22, 19]
    step = {"type": "move", "from": "D6", "to": "E5"}
    assert StrongPolicy(worlds=1).choose(view, legal, seed) == {"type": "end"}
    for worlds in (3, 5, 9):
        assert StrongPolicy(worlds=worlds).choose(view, legal, seed) == step
    assert StrongPolicy().choose(view, legal, seed) == step
