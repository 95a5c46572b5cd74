"""The Cubosaurs strong level's look-ahead: the hand followed through the fast neighbours'
answers (exactly what they will do, whatever the deck holds), positions valued by the
measured tables (engine/cubosaurs/ai_values.py)."""

from __future__ import annotations

import pytest

from engine.cubosaurs import CUBOSAURS, ai, scenario
from engine.cubosaurs.ai import Col, FastPolicy, StrongPolicy, expected_score, view_seed
from engine.cubosaurs.ai_values import OPP
from engine.cubosaurs.data import CARDS
from engine.cubosaurs.view import determinize

G = CUBOSAURS
KEEP = {"type": "keep"}


def _fast_until_kept(state, me: int, first: dict) -> None:
    """The real game: ``first`` by ``me``, then fast seats until the hand is kept."""
    fast = FastPolicy()
    G.apply_in_place(state, me, first)
    while state.stage == "act" and (state.hand_from is not None or state.debts):
        p = G.to_act(state)[0]
        legal = G.legal_actions(state, p)
        v = G.view(state, p)
        G.apply_in_place(state, p, legal[0] if len(legal) == 1
                         else fast.choose(v, legal, view_seed(v)))


# a 4-player position: player 3 holds three Pentaceratops and their egg; our hand is a fourth
FOUR = dict(players=4, seed=21, current=0, hand=["penta-4"], direction=1,
            collections={0: ["ptero-1", "stego-1", "stego-2", "bronto-1", "grey-2", "black-2"],
                         1: ["trex-2", "trex-3", "bronto-2", "ptero-2"],
                         2: ["trex-4", "trex-5", "stego-3", "ptero-3"],
                         3: ["penta-1", "penta-2", "penta-3", "egg-penta", "grey-4"]})


@pytest.mark.parametrize("card", ["ptero-1", "black-2", "bronto-1"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_hands_journey_is_predicted_whatever_the_deck(card, seed):
    # strong follows a passed hand on an imagined deck; the real game (another deck) with
    # fast seats takes it to the same keeper with the same cards
    state = scenario(**FOUR)
    v = G.view(state, 0)
    sim = determinize(v, seed)
    StrongPolicy().follow(sim, 0, {"type": "pass", "card": card})
    real = state.clone()
    _fast_until_kept(real, 0, {"type": "pass", "card": card})
    assert [sorted(c) for c in sim.collections] == [sorted(c) for c in real.collections]
    assert sim.current == real.current


def test_the_leader_is_not_handed_a_set():
    # passing the Pentaceratops on with a raptor or the Brontosaurus sends it round to
    # player 3 (the fast neighbours pass it on), whose fourth copy is worth +4 and keeps
    # their egg's majority. Fast's values, which look at the next player alone, rank the
    # pass of black-2 above keeping; strong follows the hand and values those passes well
    # below its choice, which leaves the card away from player 3
    state = scenario(**FOUR)
    v = G.view(state, 0)
    legal = G.legal_actions(state, 0)
    seed = view_seed(v)
    fast = dict((ai.action_key(a), x) for x, a in ai.options(ai.pos_from_view(v, ai.DEFAULT), 0))
    assert fast[ai.action_key({"type": "pass", "card": "black-2"})] > fast[ai.action_key(KEEP)]
    strong = StrongPolicy()
    choice = strong.choose(v, legal, seed)
    sim = determinize(v, seed)
    strong.follow(sim, 0, choice)
    assert "penta-4" not in sim.collections[3]
    best = strong.value(sim, 0, 1)
    for card in ("black-2", "grey-2", "bronto-1"):
        sim = determinize(v, seed)
        strong.follow(sim, 0, {"type": "pass", "card": card})
        assert "penta-4" in sim.collections[3], card
        assert strong.value(sim, 0, 1) < best - 2.0, card


# a 4-player position: we (player 3) drew a Pterodactyl (-1 to keep), 16 cards still to draw
DRAWN = dict(players=4, seed=5, current=3, hand=["ptero-3"], direction=1,
             collections={0: ["black-4", "bronto-7", "penta-7", "ptero-5", "stego-1", "trex-1",
                              "trex-7"],
                          1: ["black-5", "bronto-5", "egg-raptor", "egg-trex", "ptero-4",
                              "ptero-7"],
                          2: ["black-3", "egg-bronto", "egg-stego", "grey-1", "trex-2", "trex-5"],
                          3: ["black-1", "black-6", "penta-4", "penta-5"]})
DRAWN["deck"] = [c for c in CARDS if c not in {"ptero-3", *sum(DRAWN["collections"].values(), [])}][:16]


@pytest.mark.parametrize("offset", [0, 1, 2])
def test_the_card_drawn_after_the_keep_is_averaged(offset):
    # keeping the Pterodactyl lets player 0 draw next; passing it on with the lone black 1
    # sends it round to player 2, who keeps it, and the next card is ours to keep or pass.
    # Stopping at the keep (draw_top 0) keeps; averaged over the card drawn next and its
    # journey, the pass is worth more and is chosen
    state = scenario(**DRAWN)
    v = G.view(state, 3)
    legal = G.legal_actions(state, 3)
    seed = view_seed(v) + offset
    strong = StrongPolicy()
    assert StrongPolicy(draw_top=0).choose(v, legal, seed) == KEEP
    black = {"type": "pass", "card": "black-1"}
    assert strong.choose(v, legal, seed) == black
    after = {}
    for a in (KEEP, black):
        sim = determinize(v, seed)
        strong.follow(sim, 3, a)
        after[a["type"]] = (sim.current, strong.value(sim, 3, 1), strong.after_draw(sim, 3, 1))
        if a == black:
            followed = [sorted(c) for c in sim.collections]
    assert after["keep"][0] == 0 and after["pass"][0] == 3
    assert after["keep"][1] > after["pass"][1]   # stopping at the keep
    assert after["pass"][2] > after["keep"][2] + 1.0   # the next draw averaged
    # the real game with fast seats takes the pass to player 2 too
    real = state.clone()
    _fast_until_kept(real, 3, black)
    assert [sorted(c) for c in real.collections] == followed
    assert {"ptero-3", "black-1"} <= set(real.collections[2])
    assert real.current == 3


def test_tables_value_a_late_lone_pentaceratops_below_an_early_one():
    # with few cards left to draw a lone Pentaceratops is close to its -3; early it may
    # still become a set
    n = 4
    cols = [Col(["penta-1"]), Col([]), Col([]), Col([])]
    early = expected_score(cols, 0, 24, [], {}, OPP[n])
    late = expected_score(cols, 0, 1, [], {}, OPP[n])
    assert late < early
    assert late < -1.5
    # nothing left to draw: the score itself
    assert expected_score(cols, 0, 0, [], {}, OPP[n]) == -3


def test_every_player_count_has_tables():
    for n in range(2, 6):
        assert OPP[n], n
        assert all(len(row) == 6 * n for row in OPP[n].values())


def test_strong_decides_quickly_and_legally_in_five_player_games():
    state = G.new_game([ai_seat(i) for i in range(5)], 31, {"advanced": True})
    strong = StrongPolicy()
    fast = FastPolicy()
    while not G.is_over(state):
        p = G.to_act(state)[0]
        legal = G.legal_actions(state, p)
        v = G.view(state, p)
        policy = strong if p == 0 else fast
        a = legal[0] if len(legal) == 1 else policy.choose(v, legal, ai.view_seed(v))
        assert a in legal
        G.apply_in_place(state, p, a)


def ai_seat(i: int):
    from engine.core import Seat

    return Seat(f"ai:{i}", f"AI {i}")
