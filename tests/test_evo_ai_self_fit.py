"""EVO's strong level corrects its own futures' values by a fit on its own play
(:data:`engine.evo.ai.LEAF_FIT_SELF`) and its rivals' by a fit on the fast seats it meets
(:data:`engine.evo.ai.LEAF_FIT`), at 4 and 5 players: with more dinos than legs to move them,
its unsafe dinos are worth less to it than the plain model says."""

from __future__ import annotations

from engine.evo import ai
from engine.evo.ai import LEAF_FIT, LEAF_FIT_SELF, StrongPolicy
from tests.evo_helpers import first_choice


def test_own_value_and_the_rivals_each_have_their_fit():
    strong = StrongPolicy()
    for n in (4, 5):
        assert strong._leaf_params(n, own=True).leaf_fit == LEAF_FIT_SELF[n]
        assert strong._leaf_params(n).leaf_fit == LEAF_FIT[n]
        # safety next turn counts for more in our own value than in the rivals'
        assert LEAF_FIT_SELF[n][1] > LEAF_FIT[n][1] > 0
    # 3 players: the plain model for everyone
    assert strong._leaf_params(3, own=True).leaf_fit is None
    # off: the plain model for everyone
    off = StrongPolicy(leaf_fit=False)
    assert off._leaf_params(5, own=True).leaf_fit is None
    assert off._leaf_params(5).leaf_fit is None


def test_an_unsafe_dino_is_worth_less_to_us_than_a_rival_thinks():
    # one dino on a place that is safe next turn, one on a place that is not: the gap
    # between them is wider in our own value
    state, _, _, _ = first_choice(5, 700, 6, 0, "move")
    bi = ai._info(5)
    weights = ai.leaf_weights(state)
    strong = StrongPolicy()

    def value(own: bool) -> float:
        return ai.player_value(state, 0, weights, strong._leaf_params(5, own=own))

    base_own, base_rival = value(True), value(False)
    g = state.genes[0]
    fv = bi.fv(state.climate, g[ai.FUR] > 0, g[ai.PARASOL] > 0, ai.DEFAULT)
    unsafe = min((r for r, o in enumerate(state.occ) if o == 0), key=lambda r: fv[r])
    assert fv[unsafe] < 0.5
    state.occ[unsafe] = -1
    # losing it costs us less than it would cost a fast seat
    assert base_own - value(True) < base_rival - value(False)


def test_the_cold_dino_steps_to_the_temperate_place():
    # 5 players, seed 700, turn 6, two steps: four of our dinos stand in the cold (E4, F4,
    # G4, I5) with one fur, G5 in a deadly place it cannot leave. With its own fit the
    # strong level first steps I5 to the temperate I4; with the rivals' fit for itself too,
    # F4 to the hot G3 (three parasols)
    state, legal, view, seed = first_choice(5, 700, 6, 0, "move")
    assert state.steps == 2 and state.genes[0][ai.FUR] == 1
    assert state.genes[0][ai.PARASOL] == 3
    assert StrongPolicy().choose(view, legal, seed) == {"type": "move", "from": "I5",
                                                        "to": "I4"}
    saved = dict(LEAF_FIT_SELF)
    try:
        LEAF_FIT_SELF.clear()
        assert StrongPolicy().choose(view, legal, seed) == {"type": "move", "from": "F4",
                                                            "to": "G3"}
    finally:
        LEAF_FIT_SELF.update(saved)
