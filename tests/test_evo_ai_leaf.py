"""EVO's strong level values the futures it plays out with :func:`engine.evo.ai.player_value`
corrected by a fit on games of the fast rules (:data:`engine.evo.ai.LEAF_FIT`, by player
count): a dino within reach of a neighbour with more horns, or boxed in with no safe empty
place for the births, is worth less than the plain model says."""

from __future__ import annotations

from types import SimpleNamespace

from engine.evo import ai
from engine.evo.ai import LEAF_FIT, StrongPolicy
from tests.evo_helpers import first_choice


def _board(n: int, me_at: int, them_at: list[int], my_horns: int, their_horns: int):
    bi = ai._info(n)
    occ = [-1] * bi.n_regions
    occ[me_at] = 0
    for r in them_at:
        occ[r] = 1
    genes = [[1, 1, 1, 1, my_horns, 0, 1], [1, 1, 1, 1, their_horns, 0, 1]] + \
        [[1, 1, 1, 1, 0, 0, 1]] * (n - 2)
    return SimpleNamespace(occ=occ, genes=genes, n=n), bi


def _only(i: int) -> tuple[float, ...]:
    return tuple(1.0 if k == i else 0.0 for k in range(11))


def test_a_stronger_horned_neighbour_and_no_room_lower_the_value():
    bi = ai._info(5)
    r = next(x for x in range(bi.n_regions) if len(bi.nb[x]) == 6)
    fv = [1.0] * bi.n_regions
    # a rival with one horn more next to our dino: its odds of winning an attack (4 in 6)
    s, _ = _board(5, r, [bi.nb[r][0]], 0, 1)
    assert ai._leaf_fit(s, 0, fv, bi, _only(3)) == ai._win_chance(1)
    # as many horns as ours: no threat
    s, _ = _board(5, r, [bi.nb[r][0]], 1, 1)
    assert ai._leaf_fit(s, 0, fv, bi, _only(3)) == 0.0
    # the safe empty places next to our dinos: five left of six, none once surrounded
    s, _ = _board(5, r, [bi.nb[r][0]], 0, 0)
    assert ai._leaf_fit(s, 0, fv, bi, _only(2)) == 5
    s, _ = _board(5, r, list(bi.nb[r]), 0, 0)
    assert ai._leaf_fit(s, 0, fv, bi, _only(2)) == 0
    # the fitted weights (5 players): both count against us
    assert LEAF_FIT[5][2] > 0 > LEAF_FIT[5][3]


def test_the_correction_by_player_count():
    strong = StrongPolicy()
    assert strong._leaf_params(5).leaf_fit == LEAF_FIT[5]
    # 3 and 4 players: the plain model (the fit came out even there)
    assert strong._leaf_params(4).leaf_fit is None
    assert strong._leaf_params(3).leaf_fit is None
    assert StrongPolicy(leaf_fit=False)._leaf_params(5).leaf_fit is None


def test_a_dino_escapes_the_cold_away_from_the_horned_rival():
    # 5 players, seed 744, turn 5, one step left: three of our dinos stand in the cold with
    # one fur, and G4 can step out either to the temperate H3, next to player 2's H4 (one
    # horn to our none), or to the hot G3, which our two parasols cover, next to our own F4
    # and G4's old place and out of player 2's reach. With the correction it takes G3;
    # without it, H3.
    state, legal, view, seed = first_choice(5, 744, 5, 0, "move")
    assert state.steps == 1
    assert state.genes[0][ai.FUR] == 1 and state.genes[0][ai.PARASOL] == 2
    assert [g[ai.HORNS] for g in state.genes] == [0, 0, 1, 0, 0]
    bi = ai._info(5)
    assert state.occ[bi.index["H4"]] == 2
    assert StrongPolicy().choose(view, legal, seed) == {"type": "move", "from": "G4",
                                                        "to": "G3"}
    assert StrongPolicy(leaf_fit=False).choose(view, legal, seed) == {
        "type": "move", "from": "G4", "to": "H3"}
