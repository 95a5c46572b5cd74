"""EVO's 26 event cards (French rulebook 003_*, "DÉTAIL DES CARTES ÉVÉNEMENT") and the card
rules of both rulebooks: no cards in turns 1-2, one climate card per turn, cards played in
turn order, effects that last until the end of the turn (or of the phase).

Positions come from ``engine.evo.scenario``; regions are picked by terrain and adjacency, never
by name; dice are forced through the state's random generator.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine import IllegalAction, Seat
from engine.evo import EVO, check_invariants, scenario
from engine.evo.cards import TIMING
from engine.evo.data import board_for
from engine.evo.rules import turn_order
from engine.evo.state import BIRTHS, EVOLUTION, INITIATIVE, MOVEMENT, SURVIVAL
from tests import properties
from tests.evo_helpers import (
    BEACH,
    DATA,
    HILL,
    MOUNTAIN,
    PRAIRIE,
    TRACK,
    act,
    assert_illegal,
    default_action,
    drive,
    events_of,
    forced,
    square_of,
)

B = board_for(3)


# --- helpers (more in tests/evo_helpers.py) ------------------------------------------------







def of_terrain(terrain: int, b=B) -> list[int]:
    return [r for r in range(len(b)) if b.terrain[r] == terrain]


def distances(src: int, b=B) -> dict[int, int]:
    return b.distances(src)


def far_region(taken, min_dist: int = 3, pred=lambda r: True, b=B) -> int:
    dists = [distances(t, b) for t in taken]
    for r in range(len(b)):
        if pred(r) and all(d.get(r, 99) >= min_dist for d in dists):
            return r
    raise AssertionError("board too small for this test")


def hub(min_neighbours: int = 5) -> int:
    """A region with many neighbours."""
    return next(r for r in range(len(B)) if len(B.neighbours[r]) >= min_neighbours)


def nm(regions) -> list[str]:
    return [B.names[r] for r in regions]




def play(state, player, card, **params):
    return act(state, player, {"type": "play", "card": card, **params})






def card_plays(state, p, card) -> list[dict]:
    return [a for a in EVO.legal_actions(state, p) if a["type"] == "play" and a["card"] == card]






def cards_scenario(hands, **kw):
    """A turn-3 position (cards allowed) where only ``hands`` are held."""
    kw.setdefault("turn", 3)
    return scenario(kw.pop("players", 3), hands=hands, **kw)


PASS = {"type": "pass"}


def at_window(state, at: str, *asked: int):
    """A card window is open at ``at`` and waits for the answers of ``asked`` (in turn
    order): everyone holding a card is asked at once."""
    assert state.window is not None and state.window["at"] == at, state.window
    assert EVO.to_act(state) == list(asked)


def answer_round(state, plays: dict | None = None):
    """Every player still to answer in the window's round answers: ``plays[p]`` (a card
    name, or a play action with its target), a pass for the others. The answers are secret
    until the last one settles the round; returns the state and the events."""
    plays = plays or {}
    events: list[dict] = []
    for p in EVO.to_act(state):
        chosen = plays.get(p, PASS)
        if isinstance(chosen, str):
            chosen = {"type": "play", "card": chosen}
        state, ev = act(state, p, chosen)
        events += ev
    return state, events


def three_apart(pred=lambda r: True) -> list[int]:
    regs = [next(r for r in range(len(B)) if pred(r))]
    regs.append(far_region(regs, pred=pred))
    regs.append(far_region(regs, pred=pred))
    return regs


# --- general card rules -------------------------------------------------------------------------

def test_every_card_has_a_timing_and_the_deck_has_26_cards():
    assert len(DATA["cards"]["deck"]) == 26 == len(set(DATA["cards"]["deck"]))
    assert set(TIMING) == set(DATA["cards"]["deck"])


@pytest.mark.parametrize("turn", [1, 2])
def test_no_cards_in_the_first_two_turns(turn):
    s = cards_scenario({0: ["cata", "motivation", "eon_calme"]}, turn=turn, phase="climate")
    # no phase-2 window: the die was rolled at once
    assert s.window is None and s.phase == MOVEMENT and s.history["climate"]["die"] is not None
    assert EVO.to_act(s) == [0]
    assert not card_plays(s, 0, "motivation") and not card_plays(s, 0, "eon_calme")
    assert_illegal(s, 0, {"type": "play", "card": "motivation"}, "cards_too_early")


def test_cards_allowed_from_turn_three():
    s = cards_scenario({0: ["cata"]}, phase="climate")
    at_window(s, "phase2", 0)
    assert {"type": "play", "card": "cata"} in EVO.legal_actions(s, 0)


def test_card_not_in_hand_unknown_and_wrong_time():
    s = cards_scenario({0: ["cata", "motivation"]}, phase="climate")
    assert_illegal(s, 0, {"type": "play", "card": "encore"}, "card_not_in_hand")
    assert_illegal(s, 0, {"type": "play", "card": "nope"}, "unknown_card")
    assert_illegal(s, 0, {"type": "play", "card": "motivation"}, "card_wrong_time")
    assert_illegal(s, 0, {"type": "end"}, "card_window_open")


def test_window_opens_whatever_the_card_held():
    # ON CRAME is a phase-5 card: the climate window still asks its holder (who can only
    # pass), so that the pause reveals nothing about the hand
    s = cards_scenario({0: ["on_crame"]}, phase="climate")
    at_window(s, "phase2", 0)
    assert EVO.legal_actions(s, 0) == [{"type": "pass"}]
    s, _ = act(s, 0, {"type": "pass"})
    # the end of phase 2 and the start of movement: one moment, one window
    at_window(s, "phase2_end+phase3", 0)
    assert EVO.legal_actions(s, 0) == [{"type": "pass"}]
    s, _ = act(s, 0, {"type": "pass"})
    assert s.phase == MOVEMENT and s.window is None and s.stage == "move"


def test_no_window_when_nobody_holds_a_card():
    s = cards_scenario({}, phase="climate")
    assert s.window is None and s.phase == MOVEMENT


def test_several_players_at_one_window_play_in_turn_order_and_may_pass():
    a, c, _ = three_apart()
    s = cards_scenario({0: ["maousse_kosto"], 1: ["grand_frere"]}, phase="movement",
                       order=[1, 0, 2], dinos={0: [B.names[a]], 1: [B.names[c]], 2: []})
    at_window(s, "phase3", 1, 0)  # both at once, player 1 first in turn order
    assert card_plays(s, 1, "grand_frere")
    # both want to play: player 0's card stays in his hand, unseen, until the round ends
    s, ev = play(s, 0, "maousse_kosto")
    assert ev == [{"type": "window_answer", "player": 0}] and "maousse_kosto" in s.hands[0]
    at_window(s, "phase3", 1)
    s, ev = play(s, 1, "grand_frere")
    # the cards are played in turn order: player 1's first; player 0's is not played (nor
    # shown), and seeing player 1's card he is asked again
    assert [(e["player"], e["card"]) for e in events_of(ev, "card_played")] == [
        (1, "grand_frere")]
    assert "maousse_kosto" not in str(ev)
    at_window(s, "phase3", 0)
    s, _ = act(s, 0, {"type": "pass"})  # he changes his mind
    assert s.window is None and "maousse_kosto" in s.hands[0]
    assert s.effects.get("grand_frere") == [1] and "maousse" not in s.effects


def test_after_a_card_everyone_holding_cards_is_asked_again():
    s = cards_scenario({0: ["maousse_kosto", "grand_frere"], 1: ["gaz_de_combat"]},
                       phase="movement")
    at_window(s, "phase3", 0, 1)
    s, ev = answer_round(s, {0: "maousse_kosto"})
    assert [e["card"] for e in events_of(ev, "card_played")] == ["maousse_kosto"]
    at_window(s, "phase3", 0, 1)  # both again: player 0 may play another card
    assert s.window["round"] == 2
    s, _ = answer_round(s, {1: {"type": "play", "card": "gaz_de_combat", "target": 2}})
    # after player 1's card, player 0 is asked again and may now play his second card
    at_window(s, "phase3", 0)
    s, _ = play(s, 0, "grand_frere")
    assert s.window is None  # nobody holds a card any more
    assert s.effects["maousse"] == [0] and s.effects["grand_frere"] == [0]
    assert s.effects["peace"] == [[1, 2]]


def test_a_window_closes_after_a_round_of_passes():
    s = cards_scenario({0: ["maousse_kosto"], 1: ["gaz_de_combat"], 2: ["grand_frere"]},
                       phase="movement")
    at_window(s, "phase3", 0, 1, 2)
    s, _ = act(s, 2, {"type": "pass"})  # in any order
    s, _ = act(s, 0, {"type": "pass"})
    at_window(s, "phase3", 1)
    s, ev = act(s, 1, {"type": "pass"})
    assert s.window is None and s.stage == "move" and not events_of(ev, "card_played")


def test_only_one_climate_card_per_turn_first_in_order_plays_it():
    s = cards_scenario({0: ["gene_meteo", "eon_calme"], 1: ["cata"]}, phase="climate",
                       order=[1, 0, 2], climate=0)
    at_window(s, "phase2", 1, 0)
    # both want a climate card at the same moment: the first in turn order plays it
    s, ev = answer_round(s, {0: {"type": "play", "card": "gene_meteo", "die": 3}, 1: "cata"})
    assert [(e["player"], e["card"]) for e in events_of(ev, "card_played")] == [(1, "cata")]
    at_window(s, "phase2", 0)
    assert not card_plays(s, 0, "gene_meteo")
    err = assert_illegal(s, 0, {"type": "play", "card": "gene_meteo", "die": 3},
                         "climate_card_played")
    assert err.params["card"] == "gene_meteo"
    s, _ = act(s, 0, {"type": "pass"})
    assert s.climate == 2 and "gene_meteo" in s.hands[0]


def test_climate_card_limit_resets_next_turn():
    s = cards_scenario({0: ["cata"], 1: ["gene_meteo"]}, phase="climate", climate=0)
    s, _ = answer_round(s, {0: "cata"})
    at_window(s, "phase2", 1)  # player 0 has no card left; player 1 may only pass now
    assert EVO.legal_actions(s, 1) == [{"type": "pass"}]
    s, _ = drive(s, lambda x: x.turn == 4 and x.window is not None and x.window["at"] == "phase2")
    assert card_plays(s, 1, "gene_meteo")


def test_effects_end_with_the_turn():
    a, c, _ = three_apart()
    nb = B.neighbours[a][0]
    s = cards_scenario({0: ["gaz_de_combat"]}, phase="movement",
                       dinos={0: [B.names[a]], 1: [B.names[nb]], 2: []})
    s, _ = play(s, 0, "gaz_de_combat", target=1)
    assert_illegal(s, 0, {"type": "move", "from": B.names[a], "to": B.names[nb]}, "peace")
    s, _ = drive(s, lambda x: x.turn == 4 and x.phase == MOVEMENT and x.stage == "move"
                 and x.window is None)
    assert s.effects == {}
    # put the two species side by side again (the turn may have moved or killed them)
    mover = EVO.to_act(s)[0]
    other = 1 if mover == 0 else 0
    s.occ = [-1] * len(B)
    s.occ[a], s.occ[nb] = mover, other
    assert {"type": "move", "from": B.names[a], "to": B.names[nb]} in EVO.legal_actions(s, mover)


def test_phase_effect_maousse_kosto_does_not_reach_births():
    # MAOUSSE KOSTO (+2 when attacking, this phase) and Y A PLUS DE JEUNESSE (+1 for the
    # newborns, phase 4): the newborn fights with +1 only
    x = hub(4)
    y = B.neighbours[x][0]
    s = cards_scenario({0: ["maousse_kosto", "plus_de_jeunesse"]}, phase="movement",
                       dinos={0: [B.names[x]], 1: [B.names[y]], 2: []})
    s, _ = play(s, 0, "maousse_kosto")
    s, _ = drive(s, lambda z: z.phase == BIRTHS and z.window is not None)
    s, _ = play(s, 0, "plus_de_jeunesse")
    s, _ = drive(s, lambda z: z.stage == "hatch" and EVO.to_act(z) == [0] and z.window is None)
    s2, ev = act(forced(s, 5), 0, {"type": "hatch", "region": B.names[y]})
    (f,) = events_of(ev, "fight")
    assert f["difference"] == 1 and not f["won"]


# --- phase 2: climate -----------------------------------------------------------------------------

def test_deluge():
    coast = [r for r in range(len(B)) if B.coastal[r]]
    inland = [r for r in range(len(B)) if not B.coastal[r]]
    a = coast[0]
    c = far_region([a], pred=lambda r: B.coastal[r])
    d = far_region([a, c], pred=lambda r: B.coastal[r])
    e = inland[0]
    s = cards_scenario({0: ["deluge"]}, phase="climate",
                       dinos={0: nm([a, e]), 1: [B.names[c]], 2: [B.names[d]]},
                       genes={1: {"parasol": 4}})
    at_window(s, "phase2", 0)
    wanted = {a: 3, c: 1, d: 4}  # 3+1=4 drowns; 1+4=5 and 4+1=5 survive
    faces = [wanted[r] for r in sorted(wanted)] + [2]  # then the climate die: no move
    s2, ev = play(forced(s, *faces), 0, "deluge")
    rolls = events_of(ev, "deluge_roll")
    assert [(r["region"], r["die"], r["drowned"]) for r in rolls] == [
        (B.names[r], wanted[r], r == a) for r in sorted(wanted)]
    assert s2.occ[a] == -1 and s2.occ[c] == 1 and s2.occ[d] == 2 and s2.occ[e] == 0
    assert events_of(ev, "death")[0]["cause"] == "deluge"
    assert s2.climate == s.climate  # the climate die is still rolled after the card


def test_accident_only_against_a_player_with_five_dinos():
    beaches = of_terrain(BEACH)
    s = cards_scenario({0: ["accident"]}, phase="climate",
                       dinos={0: nm(beaches[0:1]), 1: nm(beaches[1:6]), 2: nm(beaches[6:10])})
    plays = card_plays(s, 0, "accident")
    assert {p["target"] for p in plays} == {1}
    assert {p["region"] for p in plays} == set(nm(beaches[1:6]))
    assert_illegal(s, 0, {"type": "play", "card": "accident", "target": 2,
                          "region": B.names[beaches[6]]}, "card_bad_target")
    assert_illegal(s, 0, {"type": "play", "card": "accident", "target": 1,
                          "region": B.names[beaches[0]]}, "card_bad_target")
    s2, ev = play(s, 0, "accident", target=1, region=B.names[beaches[3]])
    assert s2.occ[beaches[3]] == -1 and s2.occ.count(1) == 4
    assert events_of(ev, "death")[0]["cause"] == "accident"


def test_accident_not_playable_without_a_big_target():
    beaches = of_terrain(BEACH)
    s = cards_scenario({0: ["accident", "eon_calme"]}, phase="climate",
                       dinos={0: nm(beaches[0:1]), 1: nm(beaches[1:5]), 2: []})
    assert not card_plays(s, 0, "accident")
    assert_illegal(s, 0, {"type": "play", "card": "accident", "target": 1,
                          "region": B.names[beaches[1]]}, "card_not_playable")


@pytest.mark.parametrize("square", range(6))
def test_cata_moves_two_squares_forward_without_a_die(square):
    s = cards_scenario({0: ["cata"]}, phase="climate", climate=square)
    s2, ev = play(s, 0, "cata")
    assert s2.climate == (square + 2) % 6
    assert s2.rng == s.rng  # no die rolled
    (c,) = events_of(ev, "climate")
    assert c["die"] is None and s2.phase == MOVEMENT


@pytest.mark.parametrize("die", range(1, 7))
def test_gene_meteo_chooses_the_die(die):
    s = cards_scenario({0: ["gene_meteo"]}, phase="climate", climate=2)
    assert sorted(p["die"] for p in card_plays(s, 0, "gene_meteo")) == [1, 2, 3, 4, 5, 6]
    s2, ev = play(s, 0, "gene_meteo", die=die)
    assert s2.climate == {1: 1, 2: 2}.get(die, 3)
    assert s2.rng == s.rng
    assert events_of(ev, "climate")[0]["die"] == die


def test_gene_meteo_needs_a_die_face():
    s = cards_scenario({0: ["gene_meteo"]}, phase="climate")
    assert_illegal(s, 0, {"type": "play", "card": "gene_meteo", "die": 7}, "card_bad_target")


@pytest.mark.parametrize("square", range(6))
def test_plus_de_saison_swaps_green_or_brown_then_rolls(square):
    s = cards_scenario({0: ["plus_de_saison", "eon_calme"]}, phase="climate", climate=square)
    plays = card_plays(s, 0, "plus_de_saison")
    colour = TRACK[square]
    if colour not in (PRAIRIE, HILL):
        assert not plays
        assert_illegal(s, 0, {"type": "play", "card": "plus_de_saison"}, "card_not_playable")
        return
    (twin,) = [i for i, t in enumerate(TRACK) if t == colour and i != square]
    s2, ev = play(forced(s, 3), 0, "plus_de_saison")
    assert s2.climate == twin  # swapped; the window is still open, the die not yet rolled
    assert events_of(ev, "climate_swap")[0]["to"] == twin
    s3, ev = act(s2, 0, {"type": "pass"})
    assert s3.climate == (twin + 1) % 6
    assert events_of(ev, "climate")[0]["die"] == 3


# --- phase 3: movement and combat -------------------------------------------------------------

def test_motivation_at_the_start_of_phase_3():
    beaches = of_terrain(BEACH)
    s = cards_scenario({0: ["motivation"]}, phase="movement",
                       dinos={0: nm(beaches[:4]), 1: [], 2: []})
    at_window(s, "phase3", 0)
    s, _ = play(s, 0, "motivation")
    assert s.stage == "move" and EVO.to_act(s) == [0]
    assert s.steps == 4  # four dinos on the board, whatever the single leg


def test_motivation_during_own_movement():
    beaches = of_terrain(BEACH)
    s = cards_scenario({0: ["motivation"]}, phase="movement",
                       dinos={0: nm(beaches[:5]), 1: [], 2: []}, genes={0: {"legs": 2}})
    s, _ = act(s, 0, {"type": "pass"})
    assert s.steps == 2
    m = next(a for a in EVO.legal_actions(s, 0) if a["type"] == "move")
    s, _ = act(s, 0, m)
    assert card_plays(s, 0, "motivation")
    s, _ = play(s, 0, "motivation")
    assert s.steps == 4  # five steps in all, one already used


def test_maousse_kosto_two_more_horns_when_attacking():
    x = hub(4)
    y = B.neighbours[x][0]
    base = cards_scenario({0: ["maousse_kosto"]}, phase="movement",
                          dinos={0: [B.names[x]], 1: [B.names[y]], 2: []})
    move = {"type": "move", "from": B.names[x], "to": B.names[y]}
    # without the card, a 5 loses (same horns: 1-2 win)
    no_card, _ = act(base, 0, {"type": "pass"})
    _, ev = act(forced(no_card, 5), 0, move)
    assert not events_of(ev, "fight")[0]["won"]
    s, _ = play(base, 0, "maousse_kosto")
    s2, ev = act(forced(s, 5), 0, move)
    (f,) = events_of(ev, "fight")
    assert f["difference"] == 2 and f["won"] and s2.occ[y] == 0
    _, ev = act(forced(s, 6), 0, move)
    assert not events_of(ev, "fight")[0]["won"]


def test_maousse_kosto_lets_a_weaker_species_attack_but_not_defend():
    x = hub(4)
    y = B.neighbours[x][0]
    s = cards_scenario({0: ["maousse_kosto"]}, phase="movement", order=[0, 1, 2],
                       dinos={0: [B.names[x]], 1: [B.names[y]], 2: []},
                       genes={1: {"horns": 2}, 0: {"legs": 1}})
    no_card, _ = act(s, 0, {"type": "pass"})
    move = {"type": "move", "from": B.names[x], "to": B.names[y]}
    assert_illegal(no_card, 0, move, "too_few_horns")
    s, _ = play(s, 0, "maousse_kosto")
    assert move in EVO.legal_actions(s, 0)
    s, _ = act(s, 0, {"type": "end"})
    # player 1 attacks player 0: MAOUSSE KOSTO does not help a defender
    back = {"type": "move", "from": B.names[y], "to": B.names[x]}
    _, ev = act(forced(s, 5), 1, back)
    assert events_of(ev, "fight")[0]["difference"] == 2


def test_grand_frere_two_more_horns_when_attacked():
    x = hub(4)
    y = B.neighbours[x][0]
    s = cards_scenario({1: ["grand_frere"]}, phase="movement",
                       dinos={0: [B.names[x]], 1: [B.names[y]], 2: []})
    at_window(s, "phase3", 1)
    s, _ = play(s, 1, "grand_frere")
    move = {"type": "move", "from": B.names[x], "to": B.names[y]}
    assert move not in EVO.legal_actions(s, 0)
    assert_illegal(s, 0, move, "too_few_horns")
    # with one horn the attacker is one short: wins on a 1 only
    s1 = cards_scenario({1: ["grand_frere"]}, phase="movement", genes={0: {"horns": 1}},
                        dinos={0: [B.names[x]], 1: [B.names[y]], 2: []})
    s1, _ = play(s1, 1, "grand_frere")
    _, ev = act(forced(s1, 2), 0, move)
    assert events_of(ev, "fight")[0]["difference"] == -1 and not events_of(ev, "fight")[0]["won"]
    _, ev = act(forced(s1, 1), 0, move)
    assert events_of(ev, "fight")[0]["won"]


def test_gaz_de_combat_peace_between_two_players():
    x = hub(5)
    y, z = B.neighbours[x][0], B.neighbours[x][1]
    s = cards_scenario({0: ["gaz_de_combat"]}, phase="movement",
                       dinos={0: [B.names[x]], 1: [B.names[y]], 2: [B.names[z]]})
    assert {p["target"] for p in card_plays(s, 0, "gaz_de_combat")} == {1, 2}
    s, _ = play(s, 0, "gaz_de_combat", target=1)
    assert_illegal(s, 0, {"type": "move", "from": B.names[x], "to": B.names[y]}, "peace")
    assert {"type": "move", "from": B.names[x], "to": B.names[z]} in EVO.legal_actions(s, 0)
    s, _ = act(s, 0, {"type": "end"})
    assert_illegal(s, 1, {"type": "move", "from": B.names[y], "to": B.names[x]}, "peace")
    s, _ = act(s, 1, {"type": "end"})
    assert {"type": "move", "from": B.names[z], "to": B.names[x]} in EVO.legal_actions(s, 2)


def test_regime_vegetarien_no_combat():
    x = hub(5)
    y, z = B.neighbours[x][0], B.neighbours[x][1]
    s = cards_scenario({2: ["regime_vegetarien"]}, phase="movement",
                       dinos={0: [B.names[x]], 1: [B.names[y]], 2: [B.names[z]]})
    s, _ = play(s, 2, "regime_vegetarien")
    assert_illegal(s, 0, {"type": "move", "from": B.names[x], "to": B.names[y]}, "no_combat")
    assert_illegal(s, 0, {"type": "move", "from": B.names[x], "to": B.names[z]}, "no_combat")
    moves = [m for m in EVO.legal_actions(s, 0) if m["type"] == "move"]
    assert moves and all(s.occ[B.region(m["to"])] == -1 for m in moves)


def test_regime_vegetarien_lasts_the_whole_turn():
    # played in phase 3, it also forbids Y A PLUS DE JEUNESSE's fights in phase 4
    x = hub(4)
    y = B.neighbours[x][0]
    s = cards_scenario({0: ["plus_de_jeunesse"], 1: ["regime_vegetarien"]}, phase="movement",
                       dinos={0: [B.names[x]], 1: [B.names[y]], 2: []})
    s, _ = act(s, 0, {"type": "pass"})
    s, _ = play(s, 1, "regime_vegetarien")
    s, _ = drive(s, lambda z: z.phase == BIRTHS and z.window is not None)
    s, _ = play(s, 0, "plus_de_jeunesse")
    s, _ = drive(s, lambda z: z.stage == "hatch" and EVO.to_act(z) == [0] and z.window is None)
    assert B.names[y] not in {a.get("region") for a in EVO.legal_actions(s, 0)}
    assert_illegal(s, 0, {"type": "hatch", "region": B.names[y]}, "no_combat")


# --- phase 4: births ----------------------------------------------------------------------------

def test_plus_de_jeunesse_births_on_occupied_regions_with_one_more_horn():
    x = hub(4)
    y = B.neighbours[x][0]
    s = cards_scenario({0: ["plus_de_jeunesse"]}, phase="births",
                       dinos={0: [B.names[x]], 1: [B.names[y]], 2: []})
    at_window(s, "phase4", 0)
    assert B.names[y] not in {a.get("region") for a in EVO.legal_actions(
        act(s, 0, {"type": "pass"})[0], 0)}
    s, _ = play(s, 0, "plus_de_jeunesse")
    assert {"type": "hatch", "region": B.names[y]} in EVO.legal_actions(s, 0)
    won, ev = act(forced(s, 4), 0, {"type": "hatch", "region": B.names[y]})
    (f,) = events_of(ev, "fight")
    assert f["difference"] == 1 and f["won"] and f["newborn"]
    assert won.occ[y] == 0 and won.occ.count(1) == 0 and y in won.newborn
    lost, ev = act(forced(s, 5), 0, {"type": "hatch", "region": B.names[y]})
    assert not events_of(ev, "fight")[0]["won"]
    assert lost.occ[y] == 1 and lost.occ.count(0) == 1  # the newborn is lost, birth used
    assert lost.phase != BIRTHS or EVO.to_act(lost) != [0]


def test_plus_de_jeunesse_cannot_hatch_on_own_dino():
    x = hub(4)
    y = B.neighbours[x][0]
    s = cards_scenario({0: ["plus_de_jeunesse"]}, phase="births",
                       dinos={0: nm([x, y]), 1: [], 2: []})
    s, _ = play(s, 0, "plus_de_jeunesse")
    assert_illegal(s, 0, {"type": "hatch", "region": B.names[y]}, "region_taken")


def test_pondeuse_musclee_births_two_or_three_regions_away():
    x = hub(5)
    s = cards_scenario({0: ["pondeuse_musclee"]}, phase="births",
                       dinos={0: [B.names[x]], 1: [], 2: []})
    dist = distances(x)
    before = {a["region"] for a in EVO.legal_actions(act(s, 0, {"type": "pass"})[0], 0)
              if a["type"] == "hatch"}
    assert before == {B.names[r] for r, d in dist.items() if d == 1}
    s, _ = play(s, 0, "pondeuse_musclee")
    after = {a["region"] for a in EVO.legal_actions(s, 0) if a["type"] == "hatch"}
    assert after == {B.names[r] for r, d in dist.items() if 1 <= d <= 3}
    four = [r for r, d in dist.items() if d == 4]
    assert four
    assert_illegal(s, 0, {"type": "hatch", "region": B.names[four[0]]}, "not_near_adult")
    three = next(r for r, d in dist.items() if d == 3)
    s2, _ = act(s, 0, {"type": "hatch", "region": B.names[three]})
    assert s2.occ[three] == 0


def test_pondeuse_musclee_playable_on_own_birth_turn():
    x = hub(5)
    s = cards_scenario({0: ["pondeuse_musclee"]}, phase="births",
                       dinos={0: [B.names[x]], 1: [], 2: []}, genes={0: {"egg": 2}})
    s, _ = act(s, 0, {"type": "pass"})
    assert s.stage == "hatch" and card_plays(s, 0, "pondeuse_musclee")
    s, _ = act(s, 0, {"type": "hatch", "region": B.names[B.neighbours[x][0]]})
    s, _ = play(s, 0, "pondeuse_musclee")
    far = next(r for r, d in distances(x).items() if d == 3)
    s, _ = act(s, 0, {"type": "hatch", "region": B.names[far]})
    assert s.occ[far] == 0 and s.occ.count(0) == 3


def test_evolution_capote_no_birth_phase():
    a, c, d = three_apart()
    s = cards_scenario({2: ["evolution_capote"]}, phase="births",
                       dinos={0: [B.names[a]], 1: [B.names[c]], 2: [B.names[d]]})
    at_window(s, "phase4", 2)
    s2, ev = play(s, 2, "evolution_capote")
    assert events_of(ev, "no_births") and not events_of(ev, "birth")
    assert [s2.occ.count(p) for p in range(3)] == [1, 1, 1]
    assert s2.phase in (SURVIVAL, EVOLUTION)


def _ciel_setup(p1_adults=5):
    row = of_terrain(BEACH)
    mine = row[0]
    others = [r for r in row if distances(mine).get(r, 99) >= 3][:p1_adults]
    p2 = far_region([mine] + others, min_dist=3)
    s = cards_scenario({0: ["ciel_mon_mari"]}, phase="births",
                       dinos={0: [B.names[mine]], 1: nm(others), 2: [B.names[p2]]})
    # everybody hatches (defaults), then the end-of-births window opens for player 0
    s, _ = drive(s, lambda z: z.window is not None and z.window["at"] == "phase4_end+phase5")
    return s


def test_ciel_mon_mari_replaces_an_enemy_newborn():
    s = _ciel_setup(5)
    at_window(s, "phase4_end+phase5", 0)
    plays = card_plays(s, 0, "ciel_mon_mari")
    p1_newborn = [r for r in s.newborn if s.occ[r] == 1]
    assert [p["region"] for p in plays] == nm(p1_newborn)  # not player 2 (2 dinos), not own
    r = p1_newborn[0]
    s2, ev = play(s, 0, "ciel_mon_mari", region=B.names[r])
    assert s2.occ[r] == 0
    assert s2.occ.count(0) == 3 and s2.occ.count(1) == 5
    assert events_of(ev, "newborn_replaced")[0]["victim"] == 1
    check_invariants(s2)


def test_ciel_mon_mari_needs_a_victim_with_five_dinos():
    s = _ciel_setup(3)  # player 1: 3 adults + 1 newborn
    at_window(s, "phase4_end+phase5", 0)
    assert not card_plays(s, 0, "ciel_mon_mari")
    assert_illegal(s, 0, {"type": "play", "card": "ciel_mon_mari",
                          "region": B.names[s.newborn[-1]]}, "card_not_playable")


# --- phase 5: survival --------------------------------------------------------------------------

def test_pthermolactyl_all_own_dinos_survive_cold_zones():
    hills = of_terrain(HILL)
    mountain = of_terrain(MOUNTAIN)[0]
    s = cards_scenario({0: ["pthermolactyl"]}, phase="survival", climate=square_of(PRAIRIE),
                       dinos={0: nm(hills[:3] + [mountain]), 1: nm(hills[3:5]), 2: []})
    at_window(s, "phase5", 0)
    s, ev = play(s, 0, "pthermolactyl")
    assert all(s.occ[r] == 0 for r in hills[:3])
    assert s.occ[mountain] == -1  # very cold: still deadly
    assert EVO.to_act(s) == [1] and s.pending[1] == [1, 0]  # only the player's own dinos


def test_peau_adaptable_all_own_dinos_survive_hot_zones():
    beaches = of_terrain(BEACH)
    s = cards_scenario({0: ["peau_adaptable"]}, phase="survival", climate=square_of(HILL),
                       dinos={0: nm(of_terrain(PRAIRIE)[:3] + beaches[:1]), 1: [], 2: []},
                       mp=[10, 10, 10])
    s, _ = play(s, 0, "peau_adaptable")
    assert s.occ.count(0) == 3 and s.occ[beaches[0]] == -1
    assert s.mp[0] == 13


def test_on_crame_one_parasol_less_for_every_species():
    beaches = of_terrain(BEACH)
    s = cards_scenario({2: ["on_crame"]}, phase="survival", climate=square_of(PRAIRIE),
                       dinos={0: nm(beaches[0:1]), 1: nm(beaches[1:3]), 2: nm(beaches[3:4])},
                       genes={1: {"parasol": 2}, 2: {"parasol": 3}})
    at_window(s, "phase5", 2)
    s, ev = play(s, 2, "on_crame")
    assert s.occ[beaches[0]] == -1  # 1 parasol - 1 = 0
    assert s.pending[1] == [0, 1]  # 2 - 1 = 1 for two dinos
    assert s.occ[beaches[3]] == 2  # 3 - 1 = 2 covers one dino
    assert EVO.to_act(s) == [1]


def test_ca_caille_one_fur_less_for_every_species():
    hills = of_terrain(HILL)
    s = cards_scenario({0: ["ca_caille"]}, phase="survival", climate=square_of(PRAIRIE),
                       dinos={0: nm(hills[0:1]), 1: nm(hills[1:3]), 2: []},
                       genes={1: {"fur": 2}})
    s, _ = play(s, 0, "ca_caille")
    assert s.occ[hills[0]] == -1
    assert s.pending[1] == [1, 0] and EVO.to_act(s) == [1]


def test_gene_survivaliste_one_point_lost_per_dino_lost():
    mountains = of_terrain(MOUNTAIN)
    beaches = of_terrain(BEACH)
    # yellow climate: mountains and hills are deadly
    s = cards_scenario({2: ["gene_survivaliste"]}, phase="survival", climate=square_of(BEACH),
                       dinos={0: nm(mountains[:2] + beaches[:1]),
                              1: nm(of_terrain(HILL)[:1] + beaches[1:2]),
                              2: nm(beaches[2:3])}, mp=[10, 10, 10])
    at_window(s, "phase5", 2)
    assert not card_plays(s, 2, "gene_survivaliste")  # the end of the phase only
    s, _ = act(s, 2, {"type": "pass"})
    at_window(s, "phase5_end+phase6", 2)
    assert s.mp == [11, 11, 11] and s.lost == [2, 1, 0]
    s2, ev = play(s, 2, "gene_survivaliste")
    assert s2.mp == [9, 10, 11]
    assert {e["player"]: e["lost"] for e in events_of(ev, "points_lost")} == {0: 2, 1: 1}


def test_gene_survivaliste_not_below_zero():
    mountains = of_terrain(MOUNTAIN)
    s = cards_scenario({2: ["gene_survivaliste"]}, phase="survival", climate=square_of(BEACH),
                       dinos={0: nm(mountains[:3]), 1: [], 2: []}, mp=[1, 10, 10])
    s, _ = act(s, 2, {"type": "pass"})
    s2, _ = play(s, 2, "gene_survivaliste")
    assert s2.mp[0] == 0


# --- phase 6: meteorite and auction ---------------------------------------------------------------

def test_rate_evolutionniste_one_gene_fewer_and_anyone_may_pass():
    s = cards_scenario({0: ["rate_evolutionniste"]}, phase="evolution")
    at_window(s, "phase6", 0)
    assert s.auction is None  # played before the genes are drawn
    s, _ = play(s, 0, "rate_evolutionniste")
    assert len(s.auction["genes"]) == 2
    assert {"type": "pass"} in EVO.legal_actions(s, 0)
    genes0 = list(s.genes[0])
    s, ev = act(s, 0, {"type": "pass"})
    assert events_of(ev, "auction_pass")[0]["player"] == 0
    s, _ = act(s, 1, {"type": "bid", "gene": 0, "amount": 0})
    s, ev = act(s, 2, {"type": "bid", "gene": 1, "amount": 0})
    assert s.genes[0] == genes0
    assert sorted(e["player"] for e in events_of(ev, "bought")) == [1, 2]


def test_evolution_separee_raises_must_be_three_points():
    s = cards_scenario({0: ["evolution_separee"]}, phase="evolution", mp=[10, 10, 10])
    s, _ = play(s, 0, "evolution_separee")
    s, _ = act(s, 0, {"type": "bid", "gene": 0, "amount": 2})
    assert min(a["amount"] for a in EVO.legal_actions(s, 1)
               if a["type"] == "bid" and a["gene"] == 0) == 5
    err = assert_illegal(s, 1, {"type": "bid", "gene": 0, "amount": 4}, "bid_too_low")
    assert err.params["minimum"] == 5
    s, _ = act(s, 1, {"type": "bid", "gene": 0, "amount": 5})
    # player 1 did not play the card: player 0 may raise him by one
    s, _ = act(s, 0, {"type": "bid", "gene": 0, "amount": 6})
    assert s.auction["bids"][0] == [0, 6]


def test_evolution_separee_on_own_bid_turn():
    s = cards_scenario({1: ["evolution_separee"]}, phase="evolution")
    s, _ = act(s, 1, {"type": "pass"})
    s, _ = act(s, 0, {"type": "bid", "gene": 0, "amount": 0})
    assert card_plays(s, 1, "evolution_separee")
    s, _ = play(s, 1, "evolution_separee")
    s, _ = act(s, 1, {"type": "bid", "gene": 1, "amount": 1})
    assert_illegal(s, 2, {"type": "bid", "gene": 1, "amount": 3}, "bid_too_low")
    s, _ = act(s, 2, {"type": "bid", "gene": 0, "amount": 1})  # player 0 is not protected


def test_sursaut_genetique_counts_three_towards_payment():
    s = cards_scenario({0: ["sursaut_genetique"]}, phase="evolution", mp=[1, 10, 10])
    assert max(a["amount"] for a in EVO.legal_actions(act(s, 0, {"type": "pass"})[0], 0)
               if a["type"] == "bid") == 1
    s, _ = play(s, 0, "sursaut_genetique")
    assert max(a["amount"] for a in EVO.legal_actions(s, 0) if a["type"] == "bid") == 4
    s, _ = act(s, 0, {"type": "bid", "gene": 0, "amount": 4})
    s, _ = act(s, 1, {"type": "bid", "gene": 1, "amount": 0})
    s, ev = act(s, 2, {"type": "bid", "gene": 2, "amount": 0})
    bought = {e["player"]: e for e in events_of(ev, "bought")}
    assert bought[0]["paid"] == 1 and s.mp[0] == 0


def test_sursaut_genetique_with_mutants_while_paying():
    s = cards_scenario({0: ["sursaut_genetique"]}, phase="evolution", mp=[10, 10, 10],
                       genes={0: {"mutant": 1}})
    s, _ = act(s, 0, {"type": "pass"})
    assert card_plays(s, 0, "sursaut_genetique")  # on the player's own bid turn too
    s, _ = play(s, 0, "sursaut_genetique")
    s, _ = act(s, 0, {"type": "bid", "gene": 0, "amount": 5})
    s, _ = act(s, 1, {"type": "bid", "gene": 1, "amount": 0})
    s, ev = act(s, 2, {"type": "bid", "gene": 2, "amount": 0})
    assert {e["player"]: e["paid"] for e in events_of(ev, "bought")}[0] == 1
    assert s.mp[0] == 9


# --- any time ----------------------------------------------------------------------------------------

def test_encore_takes_back_the_last_card_locked_until_next_turn():
    s = cards_scenario({0: ["moi_dabord"], 1: ["encore"]}, phase="movement")
    at_window(s, "phase3", 0, 1)
    assert not card_plays(s, 1, "encore")  # nothing to take back yet
    s, _ = play(s, 0, "moi_dabord")
    assert not card_plays(s, 1, "encore")  # nor while the round's answers are secret
    s, _ = act(s, 1, {"type": "pass"})
    at_window(s, "phase3", 1)  # MOI D'ABORD is played: asked again
    s, ev = play(s, 1, "encore")
    assert events_of(ev, "card_retrieved")[0]["card"] == "moi_dabord"
    assert s.hands[1] == ["moi_dabord"] and s.locked[1] == ["moi_dabord"]
    assert "moi_dabord" not in s.discard and "encore" in s.discard
    assert s.effects["first"] == 0  # the card's effect is not undone
    # locked this turn
    s_hatch_1, _ = drive(s, lambda z: z.stage == "hatch" and EVO.to_act(z) == [1])
    assert_illegal(s_hatch_1, 1, {"type": "play", "card": "moi_dabord"}, "card_locked")
    # next turn it is free again (a phase-1 window opens for it)
    s, _ = drive(s, lambda z: z.turn == 4 and z.window is not None)
    assert s.locked == [[], [], []]
    assert s.window["at"] == "phase1" and 1 in EVO.to_act(s)
    assert card_plays(s, 1, "moi_dabord")


def test_encore_reacts_to_a_card_played_on_own_turn():
    beaches = of_terrain(BEACH)
    s = cards_scenario({0: ["motivation"], 1: ["encore"]}, phase="movement",
                       dinos={0: nm(beaches[:3]), 1: [], 2: []})
    s, _ = act(s, 0, {"type": "pass"})
    s, _ = act(s, 1, {"type": "pass"})
    assert s.stage == "move" and EVO.to_act(s) == [0]
    s, ev = play(s, 0, "motivation")
    assert events_of(ev, "window")[0]["at"] == "reaction"
    at_window(s, "reaction", 1)
    s, _ = play(s, 1, "encore")
    assert s.hands[1] == ["motivation"] and s.locked[1] == ["motivation"]
    at_window(s, "reaction", 1)  # still holding a card: asked until they pass
    assert EVO.legal_actions(s, 1) == [{"type": "pass"}]  # the retrieved card is locked
    s, _ = act(s, 1, {"type": "pass"})
    assert s.window is None and EVO.to_act(s) == [0] and s.steps == 3


def test_encore_only_right_after_a_card():
    s = cards_scenario({0: ["maousse_kosto"], 1: ["encore", "grand_frere"]}, phase="movement")
    s, _ = answer_round(s, {0: "maousse_kosto"})
    at_window(s, "phase3", 1)
    assert card_plays(s, 1, "encore")
    s, _ = play(s, 1, "grand_frere")
    s, _ = play(s, 1, "encore")  # the last card played is now player 1's own GRAND FRÈRE
    assert s.hands[1] == ["grand_frere"]


GO = {"type": "first", "go": True}
STAY = {"type": "first", "go": False}


def turn_of_phase(s, phase, action=lambda z, p: {"type": "end"}):
    """Who acts, in order, until ``phase`` is over (each acting as ``action`` says)."""
    seen = []
    while s.phase == phase:
        (p,) = EVO.to_act(s)
        seen.append(p)
        s, _ = act(s, p, action(s, p))
    return s, seen


def test_moi_dabord_its_player_chooses_to_go_first_in_each_phase():
    a, c, d = three_apart()
    s = cards_scenario({2: ["moi_dabord"]}, phase="movement", order=[0, 1, 2],
                       dinos={0: [B.names[a]], 1: [B.names[c]], 2: [B.names[d]]})
    at_window(s, "phase3", 2)
    s, _ = play(s, 2, "moi_dabord")
    # the window is over (no card left); the card's player chooses for this phase
    assert s.window is None and EVO.to_act(s) == [2]
    assert EVO.legal_actions(s, 2) == [GO, STAY]
    assert not EVO.card_window(s, 2)
    s, ev = act(s, 2, GO)
    assert events_of(ev, "goes_first") == [{"type": "goes_first", "player": 2,
                                            "phase": "movement"}]
    s, seen = turn_of_phase(s, MOVEMENT)
    assert seen == [2, 0, 1]
    # asked again at the start of births: this time they keep their place
    assert s.phase == BIRTHS and EVO.to_act(s) == [2] and EVO.legal_actions(s, 2) == [GO, STAY]
    s, ev = act(s, 2, STAY)
    assert events_of(ev, "keeps_place")[0]["player"] == 2
    s, seen = turn_of_phase(s, BIRTHS, lambda z, p: EVO.legal_actions(z, p)[0])
    assert seen == [0, 1, 2]
    s, _ = act(s, 2, GO)  # survival
    # phase 6: asked before the meteorite, which the first player rolls; bidding first is
    # a choice too
    assert s.phase == EVOLUTION and s.stage == "start" and EVO.to_act(s) == [2]
    s, ev = act(s, 2, STAY)
    assert events_of(ev, "meteorite")[0]["by"] == 0
    assert s.stage == "bid" and s.auction["queue"] == [0, 1, 2]
    s, _ = drive(s, lambda z: z.turn == 4 and z.phase == MOVEMENT)
    assert "first" not in s.effects


def test_moi_dabord_bidding_first_when_chosen():
    s = cards_scenario({1: ["moi_dabord"]}, phase="evolution", order=[0, 1, 2], meteor=3)
    at_window(s, "phase6", 1)
    assert s.meteor == 3 and s.auction is None  # the window comes before the meteorite
    s, _ = play(s, 1, "moi_dabord")
    assert s.meteor == 3 and EVO.to_act(s) == [1]
    s, ev = act(s, 1, GO)
    assert events_of(ev, "meteorite")[0]["by"] == 1 and s.meteor == 4
    assert s.auction["queue"] == [1, 0, 2] and EVO.to_act(s) == [1]


def test_moi_dabord_in_phase_1_makes_its_player_first_in_the_climate_window():
    # the card is played at the start of phase 1 (whose order is already set): the choice
    # comes at the start of phase 2, before its window, which then asks the player first
    s = cards_scenario({0: ["gene_meteo"], 2: ["moi_dabord", "cata"]}, phase="initiative",
                       genes={0: {"tail": 3}, 1: {"tail": 2}}, climate=0)
    assert s.order == [0, 1, 2]
    at_window(s, "phase1", 0, 2)
    s, _ = answer_round(s, {2: "moi_dabord"})
    s, _ = answer_round(s)
    assert s.phase == 2 and s.window is None and EVO.to_act(s) == [2]
    s, ev = act(s, 2, GO)
    assert events_of(ev, "window")[0]["asked"] == [2, 0]
    at_window(s, "phase2", 2, 0)
    # the only climate card of the turn goes to the first player
    s, _ = answer_round(s, {2: "cata", 0: {"type": "play", "card": "gene_meteo", "die": 3}})
    assert s.climate == 2 and "gene_meteo" in s.hands[0]


def test_moi_dabord_asks_nothing_of_a_player_already_first():
    s = cards_scenario({0: ["moi_dabord"]}, phase="movement", order=[0, 1, 2])
    s, ev = play(s, 0, "moi_dabord")
    assert s.effects["first_go"] is True
    assert not events_of(ev, "goes_first") and s.stage == "move" and EVO.to_act(s) == [0]


@pytest.mark.parametrize("action,code", [
    ({"type": "first", "go": 1}, "bad_action"),
    ({"type": "first", "go": "true"}, "bad_action"),
    ({"type": "first"}, "bad_action"),
    ({"type": "first", "go": True, "phase": 3}, "bad_action"),
    ({"type": "end"}, "first_choice"),
    ({"type": "pass"}, "first_choice"),
    ({"type": "play", "card": "eon_calme"}, "first_choice"),
])
def test_moi_dabord_choice_is_checked_strictly(action, code):
    s = cards_scenario({1: ["moi_dabord"], 2: ["eon_calme"]}, phase="movement",
                       order=[0, 1, 2])
    s, _ = answer_round(s, {1: "moi_dabord"})
    s, _ = answer_round(s)  # player 2 is asked again after the card, and passes
    assert EVO.to_act(s) == [1] and EVO.legal_actions(s, 1) == [GO, STAY]
    assert_illegal(s, 1, action, code)
    assert_illegal(s, 0, GO, "not_your_turn")


def test_first_choice_refused_when_nobody_is_choosing():
    s = cards_scenario({0: ["eon_calme"]}, phase="movement")
    assert_illegal(s, 0, GO, "card_window_open")
    s, _ = act(s, 0, {"type": "pass"})
    assert_illegal(s, 0, GO, "wrong_action")


def test_moi_dabord_only_at_the_start_of_a_phase():
    s = cards_scenario({0: ["moi_dabord"]}, phase="movement")
    s, _ = act(s, 0, {"type": "pass"})
    assert s.stage == "move"
    assert not card_plays(s, 0, "moi_dabord")
    assert_illegal(s, 0, {"type": "play", "card": "moi_dabord"}, "card_wrong_time")


def test_eon_calme_stops_every_card_for_the_rest_of_the_turn():
    s = cards_scenario({0: ["cata"], 1: ["eon_calme"], 2: ["motivation", "encore"]},
                       phase="climate", climate=0)
    s, ev = answer_round(s, {0: "cata", 1: "eon_calme"})
    assert [e["card"] for e in events_of(ev, "card_played")] == ["cata"]  # first in order
    at_window(s, "phase2", 1, 2)
    s, ev = answer_round(s, {1: "eon_calme"})
    assert s.window is None  # closed at once, ENCORE is no longer possible
    assert s.climate == 2  # CATA still counts
    assert s.phase == MOVEMENT and s.stage == "move"
    s, _ = drive(s, lambda z: EVO.to_act(z) == [2])
    assert not card_plays(s, 2, "motivation")
    assert_illegal(s, 2, {"type": "play", "card": "motivation"}, "cards_calm")
    # no window for the rest of the turn, cards are back next turn
    s, ev = drive(s, lambda z: z.turn == 4)
    this_turn = ev[:ev.index({"type": "turn", "turn": 4, "meteor": s.meteor})]
    assert events_of(ev, "points") and not events_of(this_turn, "window")
    s, _ = drive(s, lambda z: z.phase == MOVEMENT)
    assert "calm" not in s.effects


def test_eon_calme_can_be_played_any_time():
    s = cards_scenario({0: ["eon_calme"]}, phase="survival")
    at_window(s, "phase5", 0)
    s = cards_scenario({0: ["eon_calme"]}, phase="evolution")
    at_window(s, "phase6", 0)
    s, _ = act(s, 0, {"type": "pass"})
    assert s.stage == "bid" and card_plays(s, 0, "eon_calme")


def test_gene_inattendu_is_never_played_during_the_game_and_scores_two():
    beaches = of_terrain(BEACH)
    s = cards_scenario({0: ["gene_inattendu"]}, phase="climate")
    at_window(s, "phase2", 0)
    assert EVO.legal_actions(s, 0) == [{"type": "pass"}]
    assert_illegal(s, 0, {"type": "play", "card": "gene_inattendu"}, "card_wrong_time")
    end = cards_scenario({0: ["gene_inattendu"]}, phase="survival", climate=square_of(BEACH),
                         meteor=DATA["meteorite"]["last"] - 1, mp=[10, 11, 11],
                         dinos={0: nm(beaches[:1]), 1: nm(beaches[1:2]), 2: nm(beaches[2:3])})
    end, _ = drive(end, EVO.is_over)  # player 0 passes every window
    assert EVO.is_over(end)
    assert end.mp == [13, 12, 12]
    assert EVO.returns(end)[0]["player"] == 0


# --- a bug found while writing these tests ------------------------------------------------------------

def test_blocked_births_do_not_force_a_card_to_be_played():
    x = hub(5)
    ring = list(B.neighbours[x])
    s = cards_scenario({0: ["eon_calme"]}, phase="births",
                       dinos={0: [B.names[x]], 1: nm(ring), 2: []}, genes={1: {"horns": 3}})
    s, events = act(s, 0, {"type": "pass"})  # the phase-4 window
    # player 0 cannot hatch anywhere: he is either skipped or may decline, never forced to
    # play ÉON CALME
    if EVO.to_act(s) == [0] and s.stage == "hatch":
        acts = EVO.legal_actions(s, 0)
        assert any(a["type"] != "play" for a in acts), acts
        s, ev = act(s, 0, next(a for a in acts if a["type"] != "play"))
        events += ev
    assert [e["player"] for e in events_of(events, "births_blocked")] == [0]
    assert "eon_calme" in s.hands[0] and EVO.to_act(s) == [1]
    assert s.occ.count(0) == 1


def test_all_cards_played_conserve_the_deck():
    s = cards_scenario({0: ["cata", "encore"], 1: ["gene_meteo"]}, phase="climate")
    s, _ = answer_round(s, {0: "cata"})
    s, _ = answer_round(s, {0: "encore"})
    check_invariants(s)
    assert s.hands[0] == ["cata"] and s.discard.count("encore") == 1


def test_window_order_follows_the_initiative():
    s = cards_scenario({0: ["eon_calme"], 1: ["encore"], 2: ["moi_dabord"]}, phase="initiative",
                       genes={2: {"tail": 3}, 1: {"tail": 2}})
    assert s.phase == INITIATIVE and s.order == [2, 1, 0]
    at_window(s, "phase1", 2, 1, 0)
    assert s.window["asked"] == [2, 1, 0]



# --- every card at every phase-start window ------------------------------------------------------

# When each card may be played, read from the cards' text (not from the engine's table):
# "A jouer pendant / au début de la phase N" -> the start of phase N; MOI D'ABORD at the start of
# any phase; ÉON CALME at any time; ENCORE right after a card; CIEL MON MARI and GÈNE SURVIVALISTE
# at the end of phases 4 and 5; GÈNE INATTENDU only after the last turn.
RULEBOOK_PHASE_STARTS = {
    "deluge": {2}, "accident": {2}, "cata": {2}, "gene_meteo": {2}, "plus_de_saison": {2},
    "motivation": {3}, "maousse_kosto": {3}, "grand_frere": {3}, "gaz_de_combat": {3},
    "regime_vegetarien": {3},
    "plus_de_jeunesse": {4}, "pondeuse_musclee": {4}, "evolution_capote": {4},
    "ciel_mon_mari": set(),
    "pthermolactyl": {5}, "on_crame": {5}, "peau_adaptable": {5}, "ca_caille": {5},
    "gene_survivaliste": set(),
    "rate_evolutionniste": {6}, "evolution_separee": {6}, "sursaut_genetique": {6},
    "moi_dabord": {1, 2, 3, 4, 5, 6}, "eon_calme": {1, 2, 3, 4, 5, 6},
    "encore": set(), "gene_inattendu": set(),
}
PHASE_BY_NUMBER = {1: "initiative", 2: "climate", 3: "movement", 4: "births", 5: "survival",
                   6: "evolution"}


def test_rulebook_timing_table_covers_the_deck():
    assert set(RULEBOOK_PHASE_STARTS) == set(DATA["cards"]["deck"])


@pytest.mark.parametrize("card", sorted(RULEBOOK_PHASE_STARTS))
@pytest.mark.parametrize("number", range(1, 7))
def test_card_timing_at_phase_starts(card, number):
    beaches = of_terrain(BEACH)
    hand = [card] if card == "eon_calme" else [card, "eon_calme"]  # ÉON CALME opens every window
    s = cards_scenario({0: hand}, phase=PHASE_BY_NUMBER[number], climate=1,
                       dinos={0: nm(beaches[0:1]), 1: nm(beaches[1:6]), 2: nm(beaches[6:7])})
    at_window(s, f"phase{number}", 0)
    offered = bool(card_plays(s, 0, card))
    assert offered == (number in RULEBOOK_PHASE_STARTS[card])
    if not offered:
        with pytest.raises(IllegalAction):
            EVO.apply_action(s, 0, {"type": "play", "card": card})


# --- the other timing points: after the climate die, after the meteorite roll, at payment ------

# Which cards each of these windows offers, read from the cards' text: DÉLUGE and ACCIDENT
# "pendant la phase 2" (also after the die); RATÉ ÉVOLUTIONNISTE, ÉVOLUTION SÉPARÉE and SURSAUT
# GÉNÉTIQUE "pendant la phase 6" (before the genes are drawn); SURSAUT "en payant son enchère";
# ÉON CALME at any moment.
RULEBOOK_OTHER_WINDOWS = {
    "phase2_end": {"deluge", "accident", "eon_calme"},
    "auction": {"rate_evolutionniste", "evolution_separee", "sursaut_genetique", "eon_calme"},
    "pay": {"sursaut_genetique", "eon_calme"},
}
# The end of phase 2 and the start of movement are one moment (nothing happens between them):
# one window offers the cards of both, unless MOI D'ABORD's player must first choose whether to
# move first (then each has its own window, that choice between them).
RULEBOOK_OTHER_WINDOWS["phase2_end+phase3"] = RULEBOOK_OTHER_WINDOWS["phase2_end"] | {
    card for card, phases in RULEBOOK_PHASE_STARTS.items() if 3 in phases}


def _at_other_window(at: str, card: str):
    """Player 0 holds ``card`` (and ÉON CALME) at window ``at``, with something to pay."""
    beaches = of_terrain(BEACH)
    hand = [card] if card == "eon_calme" else [card, "eon_calme"]
    if at.startswith("phase2_end"):
        # MOI D'ABORD in force (player 1's, first in no phase) keeps the end of phase 2 apart
        first = {} if at == "phase2_end+phase3" else {"first": 1, "first_go": False}
        s = cards_scenario({0: hand}, phase="climate", climate=1, effects=first,
                           dinos={0: nm(beaches[0:1]), 1: nm(beaches[1:6]), 2: nm(beaches[6:7])})
        s, _ = act(s, 0, {"type": "pass"})
    else:
        s = cards_scenario({0: hand}, phase="evolution", meteor=9, mp=[10, 10, 10])
        s, _ = act(forced(s, 6), 0, {"type": "pass"})  # the meteorite misses
        if at == "pay":
            s, _ = act(s, 0, {"type": "pass"})
            s = _bid_round(s, {0: 3, 1: 0, 2: 0})
    at_window(s, at, 0)
    return s


@pytest.mark.parametrize("card", sorted(RULEBOOK_PHASE_STARTS))
@pytest.mark.parametrize("at", sorted(RULEBOOK_OTHER_WINDOWS))
def test_card_timing_at_the_other_windows(card, at):
    s = _at_other_window(at, card)
    offered = bool(card_plays(s, 0, card))
    assert offered == (card in RULEBOOK_OTHER_WINDOWS[at])
    if not offered:
        with pytest.raises(IllegalAction):
            EVO.apply_action(s, 0, {"type": "play", "card": card})


def test_deluge_and_accident_after_the_climate_die():
    coast = [r for r in range(len(B)) if B.coastal[r]]
    beaches = of_terrain(BEACH)
    s = cards_scenario({0: ["deluge"], 1: ["accident", "cata"]}, phase="climate",
                       dinos={0: nm(coast[:1]), 1: [], 2: nm(beaches[1:6])})
    at_window(s, "phase2", 0, 1)
    s, _ = answer_round(s)
    assert s.history["climate"]["die"] is not None  # rolled: now the end-of-phase window
    at_window(s, "phase2_end+phase3", 0, 1)
    assert not card_plays(s, 1, "cata")  # climate cards only before the die
    victim = B.names[beaches[3]]
    s, ev = answer_round(s, {1: {"type": "play", "card": "accident", "target": 2,
                                 "region": victim}})
    assert events_of(ev, "death")[0]["region"] == victim
    at_window(s, "phase2_end+phase3", 0, 1)  # both still hold a card: asked again
    climate = s.climate
    s, ev = answer_round(forced(s, 1), {0: "deluge"})
    assert events_of(ev, "deluge_roll")[0]["drowned"]
    at_window(s, "phase2_end+phase3", 1)
    s, _ = act(s, 1, {"type": "pass"})
    assert s.phase == MOVEMENT and s.climate == climate  # no second roll


def test_auction_window_only_after_a_meteorite_roll_that_missed():
    s = cards_scenario({0: ["rate_evolutionniste"]}, phase="evolution", meteor=3)
    s, ev = act(s, 0, {"type": "pass"})  # a plain square: straight to the auction
    assert not events_of(ev, "window") and s.stage == "bid" and len(s.auction["genes"]) == 3
    s = cards_scenario({0: ["rate_evolutionniste"]}, phase="evolution", meteor=9)
    s, ev = act(forced(s, 5), 0, {"type": "pass"})
    assert events_of(ev, "meteorite")[0]["die"] == 5 and not EVO.is_over(s)
    at_window(s, "auction", 0)
    assert s.auction is None
    s, _ = play(s, 0, "rate_evolutionniste")
    assert len(s.auction["genes"]) == 2


def _bid_round(s, amounts):
    """Every bidder in turn takes the next free gene for ``amounts[player]``."""
    while s.stage == "bid" and s.window is None and not EVO.is_over(s):
        (p,) = EVO.to_act(s)
        slot = s.auction["bids"].index(None)
        s, _ = act(s, p, {"type": "bid", "gene": slot, "amount": amounts[p]})
    return s


def test_sursaut_genetique_when_paying_the_bid():
    s = cards_scenario({0: ["sursaut_genetique"], 2: ["ca_caille"]}, phase="evolution",
                       mp=[4, 10, 10])
    s, _ = act(s, 0, {"type": "pass"})
    s, _ = act(s, 2, {"type": "pass"})
    assert max(a["amount"] for a in EVO.legal_actions(s, 0) if a["type"] == "bid") == 4
    s = _bid_round(s, {0: 4, 1: 0, 2: 2})
    # the auction is decided: every card holder is asked before anyone pays
    at_window(s, "pay", 0, 2)
    assert s.window["asked"] == [0, 2] and s.mp == [4, 10, 10]
    assert card_plays(s, 0, "sursaut_genetique") == [
        {"type": "play", "card": "sursaut_genetique"}]
    s, ev = play(s, 0, "sursaut_genetique")
    at_window(s, "pay", 2)
    assert EVO.legal_actions(s, 2) == [{"type": "pass"}]
    s, ev = act(s, 2, {"type": "pass"})
    at_window(s, "pay", 2)  # asked again after the card
    s, ev = act(s, 2, {"type": "pass"})
    paid = {e["player"]: (e["paid"], e["discount"]) for e in events_of(ev, "bought")}
    assert paid == {0: (1, 3), 1: (0, 0), 2: (2, 0)}
    assert s.mp[0] == 3


def test_sursaut_genetique_not_when_there_is_nothing_to_pay():
    s = cards_scenario({0: ["sursaut_genetique"]}, phase="evolution",
                       genes={0: {"mutant": 2}})
    s, _ = act(s, 0, {"type": "pass"})
    s = _bid_round(s, {0: 2, 1: 0, 2: 0})
    at_window(s, "pay", 0)  # asked all the same (it holds a card)
    assert not card_plays(s, 0, "sursaut_genetique")
    assert_illegal(s, 0, {"type": "play", "card": "sursaut_genetique"}, "card_not_playable")


# --- windows reveal nothing: who is asked depends on public facts only --------------------------

def twin_states(card_a: str, card_b: str, **kw):
    """Two positions alike in everything public; player 1 holds ``card_a`` in one and
    ``card_b`` in the other (besides the cards in ``hands``)."""
    hands = kw.pop("hands", {})
    a = cards_scenario({**hands, 1: [card_a] + hands.get(1, [])}, **kw)
    b = cards_scenario({**hands, 1: [card_b] + hands.get(1, [])}, **kw)
    assert a.hands != b.hands and EVO.view(a, None) == EVO.view(b, None)
    return a, b


def check_alike(a, b) -> None:
    """Twins show the same table: same players asked, same windows, same public view (until
    the final count, which shows who held GÈNE INATTENDU)."""
    assert EVO.to_act(a) == EVO.to_act(b)
    assert EVO.is_over(a) or EVO.view(a, None) == EVO.view(b, None)  # windows included
    assert [EVO.card_window(a, p) for p in range(a.n)] == [EVO.card_window(b, p)
                                                           for p in range(b.n)]


def play_alike(a, b, choose, until, limit: int = 3000):
    """Play the same actions on twins ``a`` and ``b`` (chosen by ``choose(a, p)``) until
    ``until(a)``, checking them alike all along; returns them and, per action, (player,
    action type, windows opened)."""
    moments = []
    for _ in range(limit):
        check_alike(a, b)
        if until(a):
            return a, b, moments
        p = EVO.to_act(a)[0]  # (a card window's round: everyone asked, in turn order)
        action = choose(a, p)
        a, ev_a = act(a, p, action)
        b, ev_b = act(b, p, action)
        opened = [e["at"] for e in events_of(ev_a, "window")]
        assert opened == [e["at"] for e in events_of(ev_b, "window")]
        moments.append((p, action["type"], opened))
    raise AssertionError("the twins did not reach the goal")


def test_deluge_and_ca_caille_holders_are_asked_alike():
    """The issue's example: player 1 holds DÉLUGE at one table, ÇA CAILLE at the other. All
    pass: both tables stop at the same windows, ask the same players in the same order and
    close them at the same moments, turn after turn."""
    a, b = twin_states("deluge", "ca_caille", phase="initiative", hands={0: ["encore"]})
    a, b, moments = play_alike(a, b, lambda s, p: {"type": "pass"} if s.window else
                               next(x for x in EVO.legal_actions(s, p) if x["type"] != "play"),
                               lambda s: s.turn == 5 or EVO.is_over(s))
    windows = [at for _, _, opened in moments for at in opened]
    # every timing point of a turn opened its window, in both games, twice over
    for at in ("phase1", "phase2", "phase2_end+phase3", "phase4", "phase4_end+phase5",
               "phase5_end+phase6", "pay"):
        assert windows.count(at) == 2, (at, windows)
    passes = [p for p, kind, _ in moments if kind == "pass"]
    assert set(passes) == {0, 1} and len(passes) == 2 * len(windows)  # both asked each time


@pytest.mark.parametrize("cards_", [("motivation", "ca_caille"), ("eon_calme", "on_crame")])
def test_a_player_who_cannot_move_is_skipped_whatever_they_hold(cards_):
    x = hub(5)
    ring = list(B.neighbours[x])
    a, b = twin_states(*cards_, phase="movement", order=[1, 0, 2],
                       dinos={1: [B.names[x]], 0: nm(ring), 2: []}, genes={0: {"horns": 3}})
    a, b, moments = play_alike(a, b, lambda s, p: default_action(s, p),
                               lambda s: s.phase != MOVEMENT)
    # player 1 (first in the order, walled in) passed the phase-3 window and was never kept
    # waiting on its turn, whether or not it could have played a card there
    assert [kind for p, kind, _ in moments if p == 1] == ["pass"]
    assert [kind for p, kind, _ in moments if p == 0][-1] == "end"


@pytest.mark.parametrize("cards_", [("pondeuse_musclee", "ca_caille"),
                                    ("plus_de_jeunesse", "gene_inattendu")])
def test_a_player_with_blocked_births_is_asked_whatever_card_they_hold(cards_):
    x = hub(5)
    ring = list(B.neighbours[x])
    a, b = twin_states(*cards_, phase="births", order=[1, 0, 2],
                       dinos={1: [B.names[x]], 0: nm(ring), 2: []}, genes={0: {"horns": 3}})
    a, b, _ = play_alike(a, b, lambda s, p: {"type": "pass"},
                         lambda s: s.window is None)
    # no free region: asked all the same, to give the births up (or play a birth card)
    assert EVO.to_act(a) == EVO.to_act(b) == [1] and a.stage == "hatch"
    assert {"type": "end"} in EVO.legal_actions(a, 1)
    assert [x["type"] for x in EVO.legal_actions(b, 1)] == ["end"]


def redeal_hidden(state, seed: int):
    """The same game with every card nobody else can see redealt among the hands and the deck
    (hand sizes kept; cards taken back with ENCORE stay where everyone saw them go, and a card
    already given as a secret answer in the window's round stays with the player who gave it)."""
    other = state.clone()
    kept = [list(other.locked[q]) for q in range(other.n)]
    for q, a in enumerate(other.answers):
        card = a.get("card") if isinstance(a, dict) else None
        if card is not None and other.hands[q].count(card) > kept[q].count(card):
            kept[q].append(card)
    pool = list(other.deck)
    for q in range(other.n):
        free = list(other.hands[q])
        for c in kept[q]:
            free.remove(c)
        pool += free
    random.Random(seed).shuffle(pool)
    for q in range(other.n):
        k = len(other.hands[q]) - len(kept[q])
        other.hands[q], pool = kept[q] + pool[:k], pool[k:]
    other.deck = pool
    return other


@properties.examples(12)
@given(seed=properties.seeds, n=st.sampled_from([3, 4, 5]), rnd=properties.choices,
       redeal=st.integers(0, 2**32 - 1))
def test_windows_do_not_depend_on_hidden_hands(seed, n, rnd, redeal):
    """A random game, some way into turn 3 or later; its twin has every hidden card redealt
    (same hand sizes). Played alike to the end, every card window passed and the other
    choices random, both ask the same players, open and close the same windows, offer the
    same non-card actions and show the same table."""
    a = EVO.new_game([Seat(f"p{i}", f"P{i}") for i in range(n)], seed)
    while a.turn < 3 or rnd.randrange(100) < 97:
        if EVO.is_over(a):
            return
        p, action = properties.pick(rnd, EVO, a, lambda x: x["type"])
        EVO.apply_in_place(a, p, action)
    b = redeal_hidden(a, redeal)
    assume(a.hands != b.hands)
    check_invariants(b)
    while True:
        check_alike(a, b)
        if EVO.is_over(a):
            break
        p = EVO.to_act(a)[0]  # (survival losses: several at once, any order will do)
        if a.window is not None:
            action = {"type": "pass"}
        else:
            legal = [x for x in EVO.legal_actions(a, p) if x["type"] != "play"]
            assert legal == [x for x in EVO.legal_actions(b, p) if x["type"] != "play"]
            action = legal[rnd.randrange(len(legal))]
        EVO.apply_in_place(a, p, action)
        EVO.apply_in_place(b, p, action)


# --- one round: everyone asked at once, the answers secret until the last ----------------------

def test_answers_are_secret_until_everyone_asked_has_answered():
    s = cards_scenario({0: ["maousse_kosto"], 1: ["grand_frere"], 2: ["gaz_de_combat"]},
                       phase="movement")
    at_window(s, "phase3", 0, 1, 2)
    keys, step = [EVO.decision_key(s, p) for p in range(3)], EVO.step_key(s)
    s2, ev = play(s, 1, "grand_frere")
    # the event says who answered, never what; the card stays in the hand, nothing is played
    assert ev == [{"type": "window_answer", "player": 1}]
    assert s2.hands == s.hands and s2.effects == s.effects and s2.discard == s.discard
    passed, _ = act(s, 1, {"type": "pass"})
    assert EVO.view(s2, None) == EVO.view(passed, None)  # a card and a pass look alike
    for viewer in (0, 2):
        assert EVO.view(s2, viewer) == EVO.view(passed, viewer)
        assert "grand_frere" not in json.dumps(EVO.view(s2, viewer))
    assert EVO.view(s2, 1)["state"]["answers"][1] == {"type": "play", "card": "grand_frere"}
    # the public step stays; only player 1's own key moves (the others' buttons stay valid)
    assert EVO.step_key(s2) == step
    assert [EVO.decision_key(s2, p) for p in range(3)] == [keys[0], keys[1] + 1, keys[2]]
    assert_illegal(s2, 1, {"type": "pass"}, "window_answered")
    at_window(s2, "phase3", 0, 2)
    s3, ev = answer_round(s2)
    assert [e["card"] for e in events_of(ev, "card_played")] == ["grand_frere"]
    assert EVO.step_key(s3) == step + 1 and all(
        EVO.decision_key(s3, p) > EVO.decision_key(s2, p) for p in range(3))
    at_window(s3, "phase3", 0, 2)  # asked again, seeing GRAND FRÈRE
    assert s3.window["round"] == 2


def test_a_secret_answer_may_be_taken_back_until_the_round_is_settled():
    s = cards_scenario({0: ["maousse_kosto"], 1: ["grand_frere"]}, phase="movement")
    a1, ev1 = play(s, 0, "maousse_kosto")
    assert EVO.undoable(s, 0, {"type": "play", "card": "maousse_kosto"}, a1, ev1)
    a2, ev2 = act(a1, 1, {"type": "pass"})  # the last answer: the card is played, public
    assert not EVO.undoable(a1, 1, {"type": "pass"}, a2, ev2)
    b1, ev = act(s, 0, {"type": "pass"})
    assert EVO.undoable(s, 0, {"type": "pass"}, b1, ev)


def test_an_end_window_stands_apart_when_moi_dabord_must_choose_at_the_next_start():
    # MOI D'ABORD is in force (player 1's): they choose whether to move first at the start of
    # movement, between the end of phase 2's window and the start of movement's
    s = cards_scenario({0: ["eon_calme"]}, phase="climate", order=[0, 1, 2],
                       effects={"first": 1, "first_go": False})
    s, _ = act(s, 0, {"type": "pass"})
    at_window(s, "phase2_end", 0)
    s, _ = act(s, 0, {"type": "pass"})
    assert s.phase == MOVEMENT and s.window is None and EVO.to_act(s) == [1]
    s, _ = act(s, 1, GO)
    at_window(s, "phase3", 0)
    assert s.window["asked"] == [0] and turn_order(s) == [1, 0, 2]


def test_moi_dabord_in_a_joint_window_is_for_the_next_phase():
    s = cards_scenario({2: ["moi_dabord"]}, phase="births", order=[0, 1, 2])
    s, _ = act(s, 2, {"type": "pass"})  # the start of births
    s, _ = drive(s, lambda z: z.window is not None)
    at_window(s, "phase4_end+phase5", 2)
    s, _ = play(s, 2, "moi_dabord")
    # no choice about the births just ended: the choice is made at the start of survival
    assert s.phase == SURVIVAL and EVO.to_act(s) == [2]
    assert EVO.legal_actions(s, 2) == [GO, STAY] and s.window is None
    s, ev = act(s, 2, GO)
    assert events_of(ev, "goes_first")[0]["phase"] == "survival"
    assert not events_of(ev, "window")  # survival's start was in the joint window


# --- the contract's card_window ---------------------------------------------------------------

def test_card_window_is_true_only_for_the_players_still_to_answer():
    s = cards_scenario({0: ["cata"], 2: ["eon_calme"]}, phase="climate")
    assert [EVO.card_window(s, p) for p in range(3)] == [True, False, True]
    s, _ = act(s, 0, {"type": "pass"})
    assert [EVO.card_window(s, p) for p in range(3)] == [False, False, True]
    s, _ = drive(s, lambda z: z.window is None)
    assert s.stage == "move" and EVO.to_act(s) and not any(EVO.card_window(s, p) for p in range(3))
    over = cards_scenario({0: ["cata"]}, phase="survival", meteor=DATA["meteorite"]["last"] - 1)
    over, _ = drive(over, EVO.is_over)
    assert not any(EVO.card_window(over, p) for p in range(3))


def test_card_window_always_offers_pass_in_random_games():
    for seed in range(4):
        s = EVO.new_game([Seat(f"p{i}", f"P{i}") for i in range(3)], seed)
        rnd = random.Random(seed)
        while not EVO.is_over(s):
            waiting = EVO.to_act(s)
            for p in range(s.n):
                in_window = EVO.card_window(s, p)
                assert in_window == (s.window is not None and p in waiting)
                if in_window:
                    assert {"type": "pass"} in EVO.legal_actions(s, p)
            p = waiting[0]
            EVO.apply_in_place(s, p, rnd.choice(EVO.legal_actions(s, p)))


def test_cubosaurs_has_no_card_windows():
    from engine import get_game

    cubo = get_game("cubosaurs")
    s = cubo.new_game([Seat(f"p{i}", f"P{i}") for i in range(3)], 5)
    rnd = random.Random(5)
    while not cubo.is_over(s):
        p = cubo.to_act(s)[0]
        assert not any(cubo.card_window(s, q) for q in range(3))
        cubo.apply_in_place(s, p, rnd.choice(cubo.legal_actions(s, p)))
