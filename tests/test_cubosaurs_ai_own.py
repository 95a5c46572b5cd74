"""The Cubosaurs strong level at 3 players: the card drawn once the hand is kept is averaged
(StrongPolicy.after_draw), and where that card's journey reaches us, our own answer is the
best of our few best options by value (StrongPolicy.own_answer), not the fast answer."""

from __future__ import annotations

import pytest

from engine.core import Seat
from engine.cubosaurs import CUBOSAURS, ai, scenario
from engine.cubosaurs.ai import StrongPolicy, view_seed
from engine.cubosaurs.view import determinize

G = CUBOSAURS
KEEP = {"type": "keep"}
PASS_EGG = {"type": "pass", "card": "egg-penta"}

# a 3-player position (seed 744's game, 5 cards still to draw): we (player 0) drew a grey 1;
# our egg of the Pentaceratops loses its 3 points (player 2 has two of them, we have one)
THREE = dict(players=3, seed=744, current=0, hand=["grey-1"], direction=1,
             collections={0: ["bronto-4", "grey-2", "penta-5", "egg-penta", "trex-3", "ptero-3",
                              "stego-3", "bronto-5"],
                          1: ["black-6", "trex-4", "grey-7", "black-5", "ptero-1"],
                          2: ["trex-7", "grey-5", "bronto-2", "trex-5", "egg-trex", "penta-1",
                              "trex-2", "ptero-5", "egg-raptor", "black-3", "penta-4"]},
             deck=["bronto-3", "trex-6", "grey-4", "trex-1", "egg-ptero"])


@pytest.mark.parametrize("offset", [0, 1, 2])
def test_our_own_answers_to_the_next_draw(offset):
    # passing the egg on: player 1 keeps it with the grey, player 2 draws next and the card's
    # journey reaches us. Answered by the fast rules there, the averaged next draw makes
    # keeping the grey look better; answered by our own best option, the pass is chosen (as
    # when the position is valued at the keep, draw_top 0)
    state = scenario(**THREE)
    v = G.view(state, 0)
    legal = G.legal_actions(state, 0)
    seed = view_seed(v) + offset
    assert StrongPolicy(own_width=0).choose(v, legal, seed) == KEEP
    assert StrongPolicy(draw_top=0).choose(v, legal, seed) == PASS_EGG
    strong = StrongPolicy()
    assert strong.choose(v, legal, seed) == PASS_EGG
    sim = determinize(v, seed)
    strong.follow(sim, 0, PASS_EGG)
    assert "egg-penta" in sim.collections[1] and sim.current == 2
    own = strong.after_draw(sim, 0, 1)
    assert own > StrongPolicy(own_width=0).after_draw(sim, 0, 1) + 0.5
    kept = determinize(v, seed)
    strong.follow(kept, 0, KEEP)
    assert kept.current == 1
    assert own > strong.after_draw(kept, 0, 1)


@pytest.mark.parametrize("card", ["grey-1", "trex-6", "bronto-3", "egg-ptero", "grey-4"])
def test_our_own_answer_is_worth_at_least_the_fast_one(card):
    state = scenario(**{**THREE, "hand": [card]})
    v = G.view(state, 0)
    strong = StrongPolicy()
    s = determinize(v, view_seed(v))
    before = ([list(c) for c in s.collections], list(s.hand), list(s.deck))
    best = strong.own_answer(s, 0, 1)
    assert ([list(c) for c in s.collections], list(s.hand), list(s.deck)) == before
    fast = ai.fast_decide(ai.pos_from_state(s, ai.DEFAULT), 0)
    shortlist = [a for _, a in ai.options(ai.pos_from_state(s, strong.short_params), 0)]
    assert fast in shortlist[: strong.own_width]
    sim = s.clone()
    strong.follow(sim, 0, fast)
    assert strong.value(best, 0, 1) + 1e-6 >= strong.value(sim, 0, 1)


def test_own_answers_only_at_three_players(monkeypatch):
    # 4 and 5 players keep the fast answers in the averaged next draw (not measured there);
    # 2 players do not average the next draw at all
    strong = StrongPolicy()
    assert strong.own_counts == (3,) and strong.draw_from == 3
    calls = []
    monkeypatch.setattr(StrongPolicy, "own_answer",
                        lambda self, s, me, rnd: calls.append(s.n) or s.clone())
    for n in (2, 4, 5):
        state = G.new_game([Seat(f"ai:{i}", f"AI {i}") for i in range(n)], 31,
                           {"advanced": False})
        v = G.view(state, G.to_act(state)[0])
        strong.choose(v, G.legal_actions(state, v["viewer"]), view_seed(v))
    assert calls == []
    state = scenario(**THREE)
    v = G.view(state, 0)
    strong.choose(v, G.legal_actions(state, 0), view_seed(v))
    assert calls and set(calls) == {3}
