"""EVO rules, checked against the rulebooks (Italian 000_*, French 003_* in shared/rules/seeds).

Every test builds a position with ``engine.evo.scenario`` and plays real actions through
``EVO.apply_action``. Regions are chosen from the board by terrain and adjacency (never by
name), so the tests survive a change of the island maps. Dice are forced by setting the
state's random generator to a value whose next rolls give the faces the test needs.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Seat
from engine.evo import EVO, check_invariants, rules, scenario
from engine.evo.data import GENE_KINDS, board_for
from engine.evo.state import BIRTHS, EVOLUTION, MOVEMENT, OVER, SURVIVAL
from tests.evo_helpers import (
    BEACH,
    DATA,
    HILL,
    MOUNTAIN,
    PRAIRIE,
    TERRAINS,
    TRACK,
    act,
    assert_illegal,
    drive,
    events_of,
    forced,
    rng_for_dice,
    square_of,
)

METEOR_LAST = DATA["meteorite"]["last"]
METEOR_FACES = {int(k): set(v) for k, v in DATA["meteorite"]["faces"].items()}


# --- helpers ---------------------------------------------------------------------------------



def rng_for_die(face: int) -> int:
    return rng_for_dice(face)






def squares_of(terrain: int) -> list[int]:
    return [i for i, t in enumerate(TRACK) if t == terrain]


def of_terrain(b, terrain: int) -> list[int]:
    return [r for r in range(len(b)) if b.terrain[r] == terrain]


def distances(b, src: int) -> dict[int, int]:
    return b.distances(src)


def far_region(b, taken, min_dist: int = 3, need_free_neighbour: bool = True) -> int:
    """A region at least ``min_dist`` steps from every region in ``taken``."""
    dists = [distances(b, t) for t in taken]
    for r in range(len(b)):
        if all(d.get(r, 99) >= min_dist for d in dists) and (
                not need_free_neighbour or any(n not in taken for n in b.neighbours[r])):
            return r
    raise AssertionError("board too small for this test")


def adjacent_pair(b, pred=lambda a, c: True) -> tuple[int, int]:
    """Two adjacent regions (a, c) with a well connected ``a`` and ``c``."""
    for a in range(len(b)):
        if len(b.neighbours[a]) < 4:
            continue
        for c in b.neighbours[a]:
            if len(b.neighbours[c]) >= 4 and pred(a, c):
                return a, c
    raise AssertionError("no such pair")


def nm(b, regions) -> list[str]:
    return [b.names[r] for r in regions]












def make(players: int = 3, **kw):
    """A scenario without event cards unless ``hands`` is given."""
    kw.setdefault("hands", {})
    return scenario(players, **kw)


# --- the data matches the rulebook's setup -------------------------------------------------

def test_setup_matches_rulebook():
    s = EVO.new_game([Seat(str(i), f"P{i}") for i in range(4)], seed=3)
    # the climate marker starts on the yellow square (turn 1's roll moves it from there),
    # each player has 10 MP, 3 cards, one dino on a start beach, and the portrait genes
    assert s.turn == 1 and s.history["climate"]["from"] == DATA["climate"]["start"]
    assert TRACK[DATA["climate"]["start"]] == BEACH
    assert s.mp == [10] * 4
    assert [len(h) for h in s.hands] == [3] * 4
    b = board_for(4)
    for p in range(4):
        (r,) = [r for r, o in enumerate(s.occ) if o == p]
        assert r in b.starts and b.terrain[r] == BEACH
        g = dict(zip(GENE_KINDS, s.genes[p], strict=True))
        assert g == {"tail": 1, "fur": 1, "legs": 1, "parasol": 1, "horns": 0, "mutant": 0,
                     "egg": 1}
    assert len(b.starts) == 4
    assert Counter(s.bag) == Counter({"card": 6, "tail": 6, "mutant": 6, "parasol": 8,
                                      "egg": 8, "fur": 8, "horns": 8, "legs": 12})
    assert len(s.deck) + sum(len(h) for h in s.hands) == 26


# --- 1. climate ----------------------------------------------------------------------------

def test_climate_track_is_the_documented_loop():
    assert TRACK == [BEACH, PRAIRIE, HILL, MOUNTAIN, HILL, PRAIRIE]
    # one yellow, two green, two brown, one grey square
    assert Counter(TRACK) == {BEACH: 1, PRAIRIE: 2, HILL: 2, MOUNTAIN: 1}


@pytest.mark.parametrize("square", squares_of(PRAIRIE))
def test_climate_example_1_green_square(square):
    s = make(climate=square, phase="movement")
    zones = {t: rules.zone_of(s, t) for t in range(4)}
    assert zones == {PRAIRIE: "temperate", HILL: "cold", BEACH: "hot", MOUNTAIN: "deadly"}
    v = EVO.view(s, None)
    assert v["climate"]["zones"] == {"beach": "hot", "prairie": "temperate", "hill": "cold",
                                     "mountain": "deadly"}


def test_climate_example_2_grey_square():
    s = make(climate=square_of(MOUNTAIN), phase="movement")
    zones = {t: rules.zone_of(s, t) for t in range(4)}
    assert zones == {MOUNTAIN: "temperate", HILL: "hot", BEACH: "deadly", PRAIRIE: "deadly"}
    assert "cold" not in zones.values()


def test_climate_yellow_and_brown_squares():
    s = make(climate=square_of(BEACH), phase="movement")
    assert [rules.zone_of(s, t) for t in range(4)] == ["temperate", "cold", "deadly", "deadly"]
    for sq in squares_of(HILL):
        s = make(climate=sq, phase="movement")
        assert [rules.zone_of(s, t) for t in range(4)] == ["deadly", "hot", "temperate", "cold"]


def _paused_before_roll(square: int):
    """Phase 2 paused at its card window (player 0 holds ÉON CALME), before the die."""
    s = scenario(3, phase="climate", turn=3, climate=square, hands={0: ["eon_calme"]})
    assert s.window is not None and s.window["at"] == "phase2"
    return s


@pytest.mark.parametrize("square", range(6))
@pytest.mark.parametrize("face", range(1, 7))
def test_climate_die_moves_round_the_loop(square, face):
    s = forced(_paused_before_roll(square), face)
    s2, ev = act(s, 0, {"type": "pass"})
    expected = {1: (square - 1) % 6, 2: square}.get(face, (square + 1) % 6)
    assert s2.climate == expected
    (c,) = events_of(ev, "climate")
    assert c["die"] == face and c["square"] == expected
    assert c["temperate"] == TERRAINS[TRACK[expected]]
    # the end-of-phase-2 card window (DÉLUGE, ACCIDENT...; with the start of movement's
    # cards: nothing happens between), then movement: one roll per turn
    assert s2.window["at"] == "phase2_end+phase3"
    s3, ev = act(s2, 0, {"type": "pass"})
    assert s3.phase == MOVEMENT and s3.climate == expected and not events_of(ev, "climate")


def test_climate_roll_from_the_track_ends_wraps():
    # beach (square 0) backwards goes to the last prairie; the last prairie forwards to beach
    s, _ = act(forced(_paused_before_roll(0), 1), 0, {"type": "pass"})
    assert s.climate == len(TRACK) - 1 and TRACK[s.climate] == PRAIRIE
    s, _ = act(forced(_paused_before_roll(len(TRACK) - 1), 5), 0, {"type": "pass"})
    assert s.climate == 0 and TRACK[s.climate] == BEACH


# --- 2. survival and mutation points --------------------------------------------------------

def _survival_board():
    for n in (3, 4, 5):
        b = board_for(n)
        if all(len(of_terrain(b, t)) >= k for t, k in ((BEACH, 1), (PRAIRIE, 2), (HILL, 5),
                                                       (MOUNTAIN, 2))):
            return n, b
    raise AssertionError("no island holds the rulebook example")


def _survival_example(climate: int):
    n, b = _survival_board()
    beach = of_terrain(b, BEACH)[:1]
    prairies = of_terrain(b, PRAIRIE)[:2]
    hills = of_terrain(b, HILL)[:5]
    mountains = of_terrain(b, MOUNTAIN)[:2]
    dinos = {0: nm(b, beach + prairies + hills + mountains)}
    dinos.update({p: [] for p in range(1, n)})
    s = make(n, phase="survival", climate=climate, dinos=dinos,
             genes={0: {"fur": 2, "parasol": 1}}, mp=[10] * n)
    return s, b, beach, prairies, hills, mountains


def test_survival_example_brown_climate():
    s, b, beach, prairies, hills, mountains = _survival_example(square_of(HILL))
    # the beach dino (deadly) is gone at once; one prairie dino (hot, 1 parasol) must go
    assert s.phase == SURVIVAL and s.stage == "choose"
    assert EVO.to_act(s) == [0]
    assert s.occ[beach[0]] == -1
    assert s.pending[0] == [0, 1]  # no cold loss, one hot loss
    choices = EVO.legal_actions(s, 0)
    assert sorted(tuple(a["regions"]) for a in choices) == sorted((b.names[r],) for r in prairies)
    assert all(a["type"] == "lose" for a in choices)
    # a hill dino is temperate, a mountain dino is covered by the furs: not choosable
    assert_illegal(s, 0, {"type": "lose", "regions": [b.names[hills[0]]]}, "not_at_risk")
    assert_illegal(s, 0, {"type": "lose", "regions": nm(b, prairies)}, "wrong_loss_count")
    s2, ev = act(s, 0, {"type": "lose", "regions": [b.names[prairies[1]]]})
    assert s2.occ[prairies[0]] == 0 and s2.occ[prairies[1]] == -1
    assert all(s2.occ[r] == 0 for r in hills + mountains)
    assert s2.occ.count(0) == 8
    (pts,) = events_of(ev, "points")
    assert pts["gains"][0] == 8
    assert s2.mp[0] == 18


def test_survival_example_yellow_climate():
    s, b, beach, prairies, hills, mountains = _survival_example(square_of(BEACH))
    # hills and mountains are deadly; prairies are cold (2 furs keep both); the parasol is
    # useless; nobody has a choice to make
    assert s.phase == EVOLUTION
    assert s.occ[beach[0]] == 0
    assert all(s.occ[r] == 0 for r in prairies)
    assert all(s.occ[r] == -1 for r in hills + mountains)
    assert s.occ.count(0) == 3
    assert s.mp[0] == 13


def test_survival_yellow_parasol_count_does_not_matter():
    n, b = _survival_board()
    # same position with 5 parasols instead of 1: the same 7 dinos die
    a, *_ = _survival_example(square_of(BEACH))
    beach = of_terrain(b, BEACH)[:1]
    rest = of_terrain(b, PRAIRIE)[:2] + of_terrain(b, HILL)[:5] + of_terrain(b, MOUNTAIN)[:2]
    dinos = {0: nm(b, beach + rest)}
    dinos.update({p: [] for p in range(1, n)})
    c = make(n, phase="survival", climate=square_of(BEACH), dinos=dinos,
             genes={0: {"fur": 2, "parasol": 5}}, mp=[10] * n)
    assert a.occ == c.occ and a.mp == c.mp


def test_survival_cold_zone_keeps_as_many_dinos_as_furs():
    b = board_for(3)
    cold = of_terrain(b, PRAIRIE)[:3]
    temperate = of_terrain(b, BEACH)[:2]
    s = make(phase="survival", climate=square_of(BEACH),
             dinos={0: nm(b, cold + temperate), 1: nm(b, of_terrain(b, BEACH)[2:3]), 2: []},
             mp=[10, 10, 10])
    # one fur (the portrait's): two of the three cold dinos must be chosen
    assert s.pending[0] == [2, 0]
    assert len(EVO.legal_actions(s, 0)) == 3  # C(3, 2)
    s2, ev = act(s, 0, EVO.legal_actions(s, 0)[0])
    assert s2.mp == [10 + 3, 10 + 1, 10]
    assert [e["player"] for e in events_of(ev, "death")] == [0, 0]


def test_survival_players_choose_independently():
    b = board_for(3)
    hot = of_terrain(b, BEACH)
    # climate prairie: beaches are hot; players 0 and 1 each have 2 dinos there, 1 parasol
    s = make(phase="survival", climate=square_of(PRAIRIE),
             dinos={0: nm(b, hot[0:2]), 1: nm(b, hot[2:4]), 2: nm(b, hot[4:5])})
    assert sorted(EVO.to_act(s)) == [0, 1]
    s1, _ = act(s, 1, EVO.legal_actions(s, 1)[0])
    assert EVO.to_act(s1) == [0]
    s2, ev = act(s1, 0, EVO.legal_actions(s1, 0)[1])
    assert s2.mp == [11, 11, 11]


# --- 3. paying for genes ---------------------------------------------------------------------

def set_auction(state, genes):
    """Put ``genes`` on the auction table (before any bid), keeping the genes conserved."""
    a = state.auction
    assert all(x is None for x in a["bids"])
    state.bag.extend(a["genes"])
    for g in genes:
        state.bag.remove(g)
    a["genes"] = list(genes)
    a["bids"] = [None] * len(genes)
    check_invariants(state)
    return state


def _auction(players=3, table=("legs", "mutant", "tail"), **kw):
    s = make(players, phase="evolution", **kw)
    s, _ = drive(s, lambda x: x.window is None)  # the phase-6 window, when cards are held
    assert s.stage == "bid"
    return set_auction(s, list(table))


def bid(state, p, slot, amount):
    return act(state, p, {"type": "bid", "gene": slot, "amount": amount})


def test_mutant_example_bid_5_with_two_mutants_pays_3_and_bid_1_pays_0():
    s = _auction(table=("legs", "tail", "fur"), genes={0: {"mutant": 2}, 1: {"mutant": 2}},
                 mp=[10, 10, 10])
    s, _ = bid(s, 0, 0, 5)
    s, _ = bid(s, 1, 1, 1)
    s, ev = bid(s, 2, 2, 0)
    bought = {e["player"]: e for e in events_of(ev, "bought")}
    assert bought[0]["gene"] == "legs" and bought[0]["paid"] == 3
    assert bought[1]["paid"] == 0
    assert bought[2]["paid"] == 0
    assert s.mp == [7, 10, 10]
    assert s.genes[0][GENE_KINDS.index("legs")] == 2
    assert s.genes[1][GENE_KINDS.index("tail")] == 2
    assert s.genes[2][GENE_KINDS.index("fur")] == 2


def test_mutant_bought_this_auction_gives_no_discount_now():
    s = _auction(table=("mutant", "mutant", "tail"), genes={1: {"mutant": 1}}, mp=[10, 10, 10])
    s, _ = bid(s, 0, 0, 3)
    s, _ = bid(s, 1, 1, 3)
    s, ev = bid(s, 2, 2, 0)
    paid = {e["player"]: e["paid"] for e in events_of(ev, "bought")}
    assert paid == {0: 3, 1: 2, 2: 0}  # the new mutant is not counted, the old one is
    assert s.mp == [7, 8, 10]
    assert s.genes[0][GENE_KINDS.index("mutant")] == 1
    assert s.genes[1][GENE_KINDS.index("mutant")] == 2
    check_invariants(s)


def test_mutant_discount_counts_from_the_next_auction():
    s = _auction(table=("mutant", "tail", "fur"), mp=[10, 10, 10])
    s, _ = bid(s, 0, 0, 0)
    s, _ = bid(s, 1, 1, 0)
    s, _ = bid(s, 2, 2, 0)
    # next turn's auction: the mutant bought last turn now takes 1 off
    s, _ = drive(s, lambda x: x.phase == EVOLUTION and x.stage == "bid" and x.window is None)
    assert s.turn == 4
    s = set_auction(s, ["legs", "egg", "horns"])
    mp0 = s.mp[0]
    first = EVO.to_act(s)[0]
    order = s.auction["queue"]
    assert first == order[0]
    for i, p in enumerate(order):
        s, ev = bid(s, p, i, 4 if p == 0 else 0)
    paid = {e["player"]: e["paid"] for e in events_of(ev, "bought")}
    assert paid[0] == 3
    assert s.mp[0] == mp0 - 3


# --- 4. combat -------------------------------------------------------------------------------

RULEBOOK_WINS = {0: {1, 2}, 1: {1, 2, 3, 4}, 2: {1, 2, 3, 4, 5}, 3: {1, 2, 3, 4, 5}, -1: {1}}
HORNS = {0: (1, 1), 1: (1, 0), 2: (2, 0), 3: (4, 1), -1: (0, 1)}


def _combat(att_horns, def_horns, legs=2, extra=True):
    b = board_for(3)
    a, c = adjacent_pair(b)
    taken = [a, c]
    spare = far_region(b, taken) if extra else None
    dinos0 = [a] + ([spare] if extra else [])
    s = make(phase="movement", dinos={0: nm(b, dinos0), 1: [b.names[c]], 2: []},
             genes={0: {"horns": att_horns, "legs": legs}, 1: {"horns": def_horns}})
    assert EVO.to_act(s) == [0] and s.stage == "move" and s.steps == legs
    return s, b, a, c, spare


@pytest.mark.parametrize("diff", sorted(RULEBOOK_WINS))
@pytest.mark.parametrize("face", range(1, 7))
def test_horns_table(diff, face):
    s, b, a, c, spare = _combat(*HORNS[diff])
    move = {"type": "move", "from": b.names[a], "to": b.names[c]}
    assert move in EVO.legal_actions(s, 0)
    s2, ev = act(forced(s, face), 0, move)
    (f,) = events_of(ev, "fight")
    won = face in RULEBOOK_WINS[diff]
    assert f["die"] == face and f["won"] is won and f["attacker"] == 0 and f["defender"] == 1
    assert s2.steps == 1  # one step spent win or lose
    assert s2.occ[a] == -1
    if won:
        assert s2.occ[c] == 0  # the winner moves in
        assert s2.occ.count(1) == 0 and rules.reserve(s2, 1) == 10
        # ... and may go on moving with the victorious dino
        onward = [m for m in EVO.legal_actions(s2, 0)
                  if m["type"] == "move" and m["from"] == b.names[c]]
        assert onward
        s3, ev3 = act(s2, 0, onward[0])
        assert s3.occ[b.region(onward[0]["to"])] == 0 and s3.steps == 0
    else:
        assert s2.occ[c] == 1  # the defender stays, the attacker goes back to the reserve
        assert s2.occ.count(0) == 1 and rules.reserve(s2, 0) == 9
        assert EVO.to_act(s2) == [0] and s2.stage == "move"  # one step left for the other dino


@pytest.mark.parametrize("horns", [(0, 2), (1, 3), (0, 4)])
def test_two_horns_fewer_cannot_attack(horns):
    s, b, a, c, _ = _combat(*horns)
    move = {"type": "move", "from": b.names[a], "to": b.names[c]}
    assert move not in EVO.legal_actions(s, 0)
    err = assert_illegal(s, 0, move, "too_few_horns")
    assert err.params["region"] == b.names[c]


def test_only_the_attacker_rolls_and_the_defender_is_not_asked():
    s, b, a, c, _ = _combat(0, 0, legs=1, extra=False)
    s2, ev = act(forced(s, 1), 0, {"type": "move", "from": b.names[a], "to": b.names[c]})
    assert len(events_of(ev, "fight")) == 1
    assert s2.occ[c] == 0 and s2.steps == 0
    assert s2.phase != MOVEMENT  # nobody else had anything to move; nobody was asked


# --- 5. movement ----------------------------------------------------------------------------

def _path(b, length, pred=lambda r: True):
    """A simple path of ``length`` + 1 regions, every region satisfying ``pred``."""
    def extend(path):
        if len(path) == length + 1:
            return path
        for n in b.neighbours[path[-1]]:
            if n not in path and pred(n):
                got = extend(path + [n])
                if got:
                    return got
        return None
    for r in range(len(b)):
        if pred(r):
            got = extend([r])
            if got:
                return got
    raise AssertionError("no path")


def test_legs_are_steps_shared_among_dinos():
    b = board_for(3)
    p = _path(b, 2)
    q0 = far_region(b, p)
    q = [q0, next(n for n in b.neighbours[q0] if n not in p)]
    s = make(phase="movement", dinos={0: nm(b, [p[0], q[0]]), 1: [], 2: []},
             genes={0: {"legs": 3}})
    assert s.steps == 3
    s, _ = act(s, 0, {"type": "move", "from": b.names[p[0]], "to": b.names[p[1]]})
    s, _ = act(s, 0, {"type": "move", "from": b.names[p[1]], "to": b.names[p[2]]})
    assert s.steps == 1 and EVO.to_act(s) == [0]
    s, ev = act(s, 0, {"type": "move", "from": b.names[q[0]], "to": b.names[q[1]]})
    assert s.occ[p[2]] == 0 and s.occ[q[1]] == 0 and s.occ.count(0) == 2
    assert s.phase != MOVEMENT  # all steps used: movement is over for everyone
    assert events_of(ev, "movement_end")[0]["steps_left"] == 0


def test_one_leg_moves_one_dino_one_region():
    b = board_for(3)
    p = _path(b, 2)
    s = make(phase="movement", dinos={0: nm(b, p[:1]), 1: [], 2: []})
    s, _ = act(s, 0, {"type": "move", "from": b.names[p[0]], "to": b.names[p[1]]})
    assert s.phase != MOVEMENT


def test_no_step_left_and_not_adjacent_and_not_your_dino():
    b = board_for(3)
    p = _path(b, 2)
    far = far_region(b, p)
    s = make(phase="movement", dinos={0: nm(b, p[:1]), 1: [b.names[far]], 2: []})
    assert_illegal(s, 0, {"type": "move", "from": b.names[p[0]], "to": b.names[p[2]]},
                   "not_adjacent")
    assert_illegal(s, 0, {"type": "move", "from": b.names[far],
                          "to": b.names[b.neighbours[far][0]]}, "not_your_dino")
    assert_illegal(s, 0, {"type": "move", "from": "ZZ99", "to": b.names[p[1]]},
                   "unknown_region")
    # not player 1's turn yet
    assert_illegal(s, 1, {"type": "end"}, "not_your_turn")


def test_cannot_enter_own_species_region():
    b = board_for(3)
    a, c = adjacent_pair(b)
    s = make(phase="movement", dinos={0: nm(b, [a, c]), 1: [], 2: []}, genes={0: {"legs": 2}})
    move = {"type": "move", "from": b.names[a], "to": b.names[c]}
    assert move not in EVO.legal_actions(s, 0)
    assert_illegal(s, 0, move, "own_species")


def test_one_dino_per_region_after_moves():
    b = board_for(3)
    a, c = adjacent_pair(b)
    s = make(phase="movement", dinos={0: [b.names[a]], 1: [b.names[c]], 2: []},
             genes={0: {"legs": 1}})
    # entering an occupied region is always a fight, never sharing
    s2, ev = act(forced(s, 6), 0, {"type": "move", "from": b.names[a], "to": b.names[c]})
    assert len(events_of(ev, "fight")) == 1
    assert s2.occ[c] == 1 and s2.occ[a] == -1


def test_moving_through_a_deadly_region_is_allowed_but_staying_kills():
    b = board_for(3)
    # yellow climate: hills are deadly
    for cand in range(len(b)):
        if b.terrain[cand] != HILL:
            continue
        ends = [n for n in b.neighbours[cand] if b.terrain[n] in (BEACH, PRAIRIE)]
        if len(ends) >= 2:
            p = [ends[0], cand, ends[1]]
            break
    else:
        raise AssertionError("no hill between two safe regions")
    s = make(phase="movement", climate=square_of(BEACH), dinos={0: [b.names[p[0]]], 1: [], 2: []},
             genes={0: {"legs": 2}})
    assert rules.zone_of(s, b.terrain[p[1]]) == "deadly"
    s1, _ = act(s, 0, {"type": "move", "from": b.names[p[0]], "to": b.names[p[1]]})
    s2, _ = act(s1, 0, {"type": "move", "from": b.names[p[1]], "to": b.names[p[2]]})
    assert s2.occ[p[2]] == 0
    # staying on the hill: the dino dies in the survival phase
    s3, _ = act(s1, 0, {"type": "end"})
    s3, ev = drive(s3, lambda x: x.phase == EVOLUTION)
    deaths = [e for e in events_of(ev, "death") if e["region"] == b.names[p[1]]]
    assert deaths and deaths[0]["cause"] == "deadly"
    assert s3.occ[p[1]] == -1


def test_movement_is_optional():
    b = board_for(3)
    a = of_terrain(b, BEACH)[0]
    far = far_region(b, [a])
    s = make(phase="movement", dinos={0: [b.names[a]], 1: [b.names[far]], 2: []},
             genes={0: {"legs": 4}})
    assert {"type": "end"} in EVO.legal_actions(s, 0)
    s2, ev = act(s, 0, {"type": "end"})
    assert s2.occ == s.occ
    assert EVO.to_act(s2) == [1] and s2.stage == "move"
    assert events_of(ev, "movement_end")[0]["steps_left"] == 4


def test_movement_follows_turn_order():
    b = board_for(3)
    regs = [of_terrain(b, BEACH)[0]]
    regs.append(far_region(b, regs))
    regs.append(far_region(b, regs))
    s = make(phase="movement", dinos={p: [b.names[regs[p]]] for p in range(3)}, order=[2, 0, 1])
    seen = []
    while s.phase == MOVEMENT:
        (p,) = EVO.to_act(s)
        seen.append(p)
        s, _ = act(s, p, {"type": "end"})
    assert seen == [2, 0, 1]


# --- 6. births ------------------------------------------------------------------------------

def _birth_layout(b):
    """An adult region x, y adjacent to x, z adjacent to y but not to x."""
    for x in range(len(b)):
        for y in b.neighbours[x]:
            for z in b.neighbours[y]:
                if z != x and z not in b.neighbours[x]:
                    return x, y, z
    raise AssertionError


def test_births_one_per_egg_next_to_an_adult_only():
    b = board_for(3)
    x, y, z = _birth_layout(b)
    s = make(phase="births", dinos={0: [b.names[x]], 1: [], 2: []}, genes={0: {"egg": 2}})
    assert s.stage == "hatch" and EVO.to_act(s) == [0] and s.births == 2
    acts = EVO.legal_actions(s, 0)
    assert {a["region"] for a in acts} == set(nm(b, b.neighbours[x]))
    assert all(a["type"] == "hatch" for a in acts)  # mandatory: no pass, no end
    assert_illegal(s, 0, {"type": "end"}, "wrong_action")
    assert_illegal(s, 0, {"type": "pass"}, "wrong_action")
    assert_illegal(s, 0, {"type": "hatch", "region": b.names[z]}, "not_near_adult")
    s, ev = act(s, 0, {"type": "hatch", "region": b.names[y]})
    assert events_of(ev, "birth")[0]["births_left"] == 1
    # the newborn on y is not an adult: z is still not allowed
    acts = EVO.legal_actions(s, 0)
    assert b.names[z] not in {a["region"] for a in acts}
    assert b.names[y] not in {a["region"] for a in acts}
    assert_illegal(s, 0, {"type": "hatch", "region": b.names[z]}, "not_near_adult")
    assert_illegal(s, 0, {"type": "hatch", "region": b.names[y]}, "region_taken")
    s, _ = act(s, 0, acts[0])
    assert s.occ.count(0) == 3
    assert s.phase != BIRTHS


def test_births_only_on_empty_regions():
    b = board_for(3)
    x = max(range(len(b)), key=lambda r: len(b.neighbours[r]))
    nbs = list(b.neighbours[x])
    s = make(phase="births", dinos={0: [b.names[x]], 1: [b.names[nbs[0]]], 2: []})
    assert EVO.to_act(s) == [0]
    acts = {a["region"] for a in EVO.legal_actions(s, 0)}
    assert acts == set(nm(b, nbs[1:]))
    assert_illegal(s, 0, {"type": "hatch", "region": b.names[nbs[0]]}, "region_taken")


def _end_movement(s):
    return drive(s, lambda x: x.phase != MOVEMENT)


def test_births_blocked_when_no_free_region():
    b = board_for(3)
    x = max(range(len(b)), key=lambda r: len(b.neighbours[r]))
    ring = list(b.neighbours[x])
    s = make(phase="movement", dinos={0: [b.names[x]], 1: nm(b, ring), 2: []},
             genes={0: {"horns": 0}, 1: {"horns": 2}})
    s, ev = _end_movement(s)
    blocked = events_of(ev, "births_blocked")
    assert blocked == [{"type": "births_blocked", "player": 0, "missed": 1}]
    assert s.occ.count(0) == 1
    # player 1 still hatches normally
    assert EVO.to_act(s) == [1] and s.stage == "hatch"


def test_no_births_with_all_ten_dinos_on_board():
    b = board_for(3)
    ten = of_terrain(b, BEACH)[:10]
    other = next(r for r in range(len(b)) if r not in ten and b.terrain[r] == PRAIRIE)
    s = make(phase="movement", dinos={0: nm(b, ten), 1: [b.names[other]], 2: []},
             genes={0: {"egg": 3}})
    s, ev = _end_movement(s)
    assert not [e for e in events_of(ev, "births_blocked") if e["player"] == 0]
    assert EVO.to_act(s) == [1] and s.stage == "hatch"
    assert s.occ.count(0) == 10


def test_births_limited_by_the_reserve():
    b = board_for(3)
    nine = of_terrain(b, BEACH)[:9]
    s = make(phase="births", dinos={0: nm(b, nine), 1: [], 2: []}, genes={0: {"egg": 3}})
    assert s.births == 1
    s, _ = act(s, 0, EVO.legal_actions(s, 0)[0])
    assert s.occ.count(0) == 10 and s.phase != BIRTHS


def test_births_follow_turn_order():
    b = board_for(3)
    regs = [of_terrain(b, BEACH)[0]]
    regs.append(far_region(b, regs))
    regs.append(far_region(b, regs))
    s = make(phase="births", dinos={p: [b.names[regs[p]]] for p in range(3)}, order=[1, 2, 0])
    seen = []
    while s.phase == BIRTHS:
        (p,) = EVO.to_act(s)
        seen.append(p)
        s, _ = act(s, p, EVO.legal_actions(s, p)[0])
    assert seen == [1, 2, 0]


# --- 7. initiative --------------------------------------------------------------------------

def test_initiative_longest_tail_first():
    s = make(phase="initiative", genes={1: {"tail": 3}, 2: {"tail": 2}})
    assert s.order == [1, 2, 0]


def test_initiative_tie_fewer_dinos_first():
    b = board_for(3)
    beaches = of_terrain(b, BEACH)
    s = make(phase="initiative", dinos={0: nm(b, beaches[0:3]), 1: nm(b, beaches[3:4]),
                                        2: nm(b, beaches[4:6])})
    assert s.order == [1, 2, 0]
    # tail beats the number of dinos
    s = make(phase="initiative", dinos={0: nm(b, beaches[0:3]), 1: nm(b, beaches[3:4]),
                                        2: nm(b, beaches[4:6])}, genes={0: {"tail": 2}})
    assert s.order == [0, 1, 2]


def test_initiative_last_tie_is_random_but_seeded():
    orders = set()
    for seed in range(40):
        a = make(phase="initiative", seed=seed)
        c = make(phase="initiative", seed=seed)
        assert a.order == c.order
        orders.add(tuple(a.order))
    assert len(orders) >= 4  # every player can come first
    assert {o[0] for o in orders} == {0, 1, 2}
    # a longer tail is first whatever the seed
    for seed in range(15):
        s = make(phase="initiative", seed=seed, genes={2: {"tail": 2}})
        assert s.order[0] == 2


def test_initiative_is_recomputed_each_turn():
    s = _auction(table=("tail", "fur", "legs"))
    order = list(s.auction["queue"])
    # the last player in the order buys a tail and plays first next turn
    for p, slot in zip(order, [1, 2, 0], strict=True):
        s, _ = bid(s, p, slot, 0)
    assert s.genes[order[2]][GENE_KINDS.index("tail")] == 2
    assert s.turn == 4 and s.order[0] == order[2]


# --- 8. auction -----------------------------------------------------------------------------

def test_bid_is_mandatory_zero_allowed_and_above_six_allowed():
    s = _auction(mp=[20, 10, 10])
    acts = EVO.legal_actions(s, 0)
    assert {a["type"] for a in acts} == {"bid"}
    assert {"type": "bid", "gene": 0, "amount": 0} in acts
    assert {"type": "bid", "gene": 0, "amount": 9} in acts
    assert max(a["amount"] for a in acts) == 20
    assert_illegal(s, 0, {"type": "pass"}, "bid_required")
    assert_illegal(s, 0, {"type": "bid", "gene": 0, "amount": 21}, "bid_too_high")
    assert_illegal(s, 0, {"type": "bid", "gene": 0, "amount": -1}, "bad_amount")
    assert_illegal(s, 0, {"type": "bid", "gene": 7, "amount": 1}, "unknown_gene")
    s2, _ = bid(s, 0, 0, 9)
    assert s2.auction["bids"][0] == [0, 9]


def test_auction_draws_one_gene_per_player():
    for n in (3, 4, 5):
        s = make(n, phase="evolution")
        assert len(s.auction["genes"]) == n
        assert len(s.bag) == 62 - n


def test_outbid_player_rebids_at_once_chain():
    s = _auction(table=("legs", "fur", "tail"), mp=[10, 10, 10])
    s, _ = bid(s, 0, 0, 1)          # A on gene 0
    assert EVO.to_act(s) == [1]
    assert_illegal(s, 1, {"type": "bid", "gene": 0, "amount": 1}, "bid_too_low")
    s, ev = bid(s, 1, 0, 2)         # B outbids A
    assert events_of(ev, "bid")[0]["outbid"] == 0
    assert EVO.to_act(s) == [0]     # A again, before C
    assert {a["type"] for a in EVO.legal_actions(s, 0)} == {"bid"}
    assert_illegal(s, 0, {"type": "pass"}, "bid_required")
    s, _ = bid(s, 0, 1, 0)          # A re-bids on gene 1
    assert EVO.to_act(s) == [2]
    s, _ = bid(s, 2, 1, 3)          # C outbids A again
    assert EVO.to_act(s) == [0]
    s, _ = bid(s, 0, 0, 3)          # A re-bids on gene 0, outbidding B
    assert EVO.to_act(s) == [1]
    assert_illegal(s, 1, {"type": "bid", "gene": 1, "amount": 3}, "bid_too_low")
    s, ev = bid(s, 1, 2, 0)         # B takes the last free gene: every player has one
    bought = {e["player"]: (e["gene"], e["paid"]) for e in events_of(ev, "bought")}
    assert bought == {0: ("legs", 3), 1: ("tail", 0), 2: ("fur", 3)}
    assert s.mp == [7, 10, 7]
    assert s.auction is None and s.turn == 4


def test_outbid_player_may_raise_the_same_gene():
    s = _auction(table=("legs", "fur", "tail"))
    s, _ = bid(s, 0, 0, 1)
    s, _ = bid(s, 1, 0, 2)
    s, _ = bid(s, 0, 0, 3)
    assert EVO.to_act(s) == [1]
    s, _ = bid(s, 1, 1, 0)
    assert EVO.to_act(s) == [2]
    assert_illegal(s, 0, {"type": "bid", "gene": 0, "amount": 5}, "not_your_turn")


def test_card_gene_draws_an_event_card_and_leaves_the_game():
    s = _auction(table=("card", "fur", "tail"), hands={0: ["encore"]})
    deck = len(s.deck)
    genes_before = [list(g) for g in s.genes]
    s, _ = bid(s, 0, 0, 2)
    s, _ = bid(s, 1, 1, 0)
    s, ev = drive(s, lambda x: x.auction is None)
    assert len(s.hands[0]) == 2 and "encore" in s.hands[0]
    assert len(s.deck) == deck - 1
    assert s.gene_discard == ["card"]
    assert s.bag.count("card") == 5
    assert s.genes[0] == genes_before[0]  # not put on the portrait
    assert s.mp[0] == 8
    assert events_of(ev, "card_drawn")[0]["player"] == 0
    check_invariants(s)


def test_variant_one_gene_fewer_and_outbid_player_may_drop_out():
    s = make(phase="evolution", variant=True, mp=[10, 10, 10])
    assert len(s.auction["genes"]) == 2
    s = set_auction(s, ["legs", "fur"])
    bag_before = Counter(s.bag) + Counter(["legs", "fur"])
    # the first bidder may not pass
    assert {a["type"] for a in EVO.legal_actions(s, 0)} == {"bid"}
    assert_illegal(s, 0, {"type": "pass"}, "bid_required")
    s, _ = bid(s, 0, 0, 1)
    s, _ = bid(s, 1, 0, 2)
    assert EVO.to_act(s) == [0]
    assert {"type": "pass"} in EVO.legal_actions(s, 0)  # outbid: may drop out
    s, ev = act(s, 0, {"type": "pass"})
    assert events_of(ev, "auction_pass")[0]["player"] == 0
    assert EVO.to_act(s) == [2]
    # player 2 was not outbid: no pass
    assert {a["type"] for a in EVO.legal_actions(s, 2)} == {"bid"}
    s, _ = bid(s, 2, 0, 3)
    assert EVO.to_act(s) == [1]
    s, ev = act(s, 1, {"type": "pass"})
    # the unbid gene goes back to the bag
    assert [e["gene"] for e in events_of(ev, "gene_returned")] == ["fur"]
    bought = events_of(ev, "bought")
    assert [(e["player"], e["gene"], e["paid"]) for e in bought] == [(2, "legs", 3)]
    assert Counter(s.bag) == bag_before - Counter(["legs"])
    assert s.mp == [10, 10, 7]
    check_invariants(s)


def test_variant_outbid_player_may_also_rebid():
    s = make(phase="evolution", variant=True)
    s = set_auction(s, ["legs", "fur"])
    s, _ = bid(s, 0, 0, 1)
    s, _ = bid(s, 1, 0, 2)
    s, _ = bid(s, 0, 1, 0)
    assert EVO.to_act(s) == [2]


# --- 9. end of the game ---------------------------------------------------------------------

def test_meteorite_on_last_square_ends_game_at_phase_6_without_auction():
    b = board_for(3)
    beaches = of_terrain(b, BEACH)
    s = make(phase="survival", climate=square_of(BEACH), meteor=METEOR_LAST - 1,
             dinos={0: nm(b, beaches[0:2]), 1: nm(b, beaches[2:3]), 2: nm(b, beaches[3:6])},
             mp=[10, 10, 10])
    assert EVO.is_over(s) and s.phase == OVER
    assert s.meteor == METEOR_LAST
    assert s.auction is None and len(s.bag) == 62  # no genes drawn
    assert s.mp == [12, 11, 13]  # survival points were given first
    assert EVO.to_act(s) == []
    assert_illegal(s, 0, {"type": "end"}, "game_over")
    res = EVO.returns(s)
    assert [r["player"] for r in res] == [2, 0, 1] and res[0]["rank"] == 1


def test_meteorite_not_yet_on_a_die_square_goes_on():
    first_face_square = min(METEOR_FACES)
    s = make(phase="survival", meteor=first_face_square - 2)
    assert not EVO.is_over(s) and s.stage == "bid"
    assert s.meteor == first_face_square - 1


def _before_meteorite(square: int):
    """Survival waiting for player 0's choice; the meteorite will move to ``square``."""
    b = board_for(3)
    hot = of_terrain(b, BEACH)[:2]
    s = make(phase="survival", climate=square_of(PRAIRIE), meteor=square - 1,
             dinos={0: nm(b, hot), 1: [], 2: []})
    assert EVO.to_act(s) == [0] and s.stage == "choose"
    return s


@pytest.mark.parametrize("square", sorted(METEOR_FACES))
@pytest.mark.parametrize("face", range(1, 7))
def test_meteorite_die_square(square, face):
    s = forced(_before_meteorite(square), face)
    s2, ev = act(s, 0, EVO.legal_actions(s, 0)[0])
    (m,) = events_of(ev, "meteorite")
    assert m["square"] == square and m["die"] == face
    if face in METEOR_FACES[square]:
        assert m["impact"] and EVO.is_over(s2)
        assert events_of(ev, "game_over")[0]["reason"] == "meteorite"
        assert not events_of(ev, "auction")
    else:
        assert not m["impact"] and not EVO.is_over(s2)
        assert s2.stage == "bid" and events_of(ev, "auction")


def test_meteorite_die_faces_grow_towards_the_end():
    squares = sorted(METEOR_FACES)
    assert squares[-1] == METEOR_LAST - 1
    for a, c in zip(squares, squares[1:], strict=False):
        assert METEOR_FACES[a] <= METEOR_FACES[c]


def test_meteorite_rolled_squares_show_several_faces():
    # "S'il arrive sur une case illustrée de plusieurs faces de dé" / "diverse facce di dado"
    assert METEOR_FACES and all(len(faces) >= 2 for faces in METEOR_FACES.values())
    assert all(faces <= set(range(1, 7)) for faces in METEOR_FACES.values())
    assert max(METEOR_FACES) < METEOR_LAST


def test_meteorite_plain_square_rolls_no_die():
    s = _before_meteorite(1)
    s2, ev = act(s, 0, EVO.legal_actions(s, 0)[0])
    (m,) = events_of(ev, "meteorite")
    assert m["die"] is None and not m["impact"]


def _final(mp, dinos_per_player, hands=None):
    b = board_for(3)
    beaches = of_terrain(b, BEACH)
    dinos, i = {}, 0
    for p, k in enumerate(dinos_per_player):
        dinos[p] = nm(b, beaches[i:i + k])
        i += k
    s = make(phase="survival", climate=square_of(BEACH), meteor=METEOR_LAST - 1,
             dinos=dinos, mp=mp, hands=hands or {})
    return drive(s, EVO.is_over)[0]  # through the card windows, if any


def test_winner_most_points_then_most_dinos():
    # points after survival: 10+2=12, 9+3=12, 5+1=6 -> tie broken by dinos: player 1
    s = _final([10, 9, 5], [2, 3, 1])
    res = EVO.returns(s)
    assert [(r["player"], r["score"], r["dinos"], r["rank"]) for r in res] == [
        (1, 12, 3, 1), (0, 12, 2, 2), (2, 6, 1, 3)]


def test_complete_tie_shares_the_rank():
    s = _final([10, 10, 4], [2, 2, 1])
    ranks = {r["player"]: r["rank"] for r in EVO.returns(s)}
    assert ranks == {0: 1, 1: 1, 2: 3}


def test_gene_inattendu_adds_two_points_at_the_end():
    s = _final([10, 9, 9], [2, 2, 2], hands={1: ["gene_inattendu"], 2: ["encore"]})
    assert s.mp == [12, 13, 11]
    assert EVO.returns(s)[0]["player"] == 1
    assert "gene_inattendu" in s.discard and not s.hands[1]
