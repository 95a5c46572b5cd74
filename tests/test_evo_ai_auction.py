"""EVO's strong level in the auction: with two rivals, what one of them gets cheaply counts
against us (engine.evo.ai.AUCTION_REL)."""

from __future__ import annotations

from engine.evo import EVO
from engine.evo.ai import FastPolicy, StrongPolicy, decision_seed


def test_strong_pays_a_point_to_keep_a_rival_from_free_horns():
    # 3 players, fur, legs and horns on offer; player 1 holds legs at 0, player 0 horns at
    # 0, and the strong player 2 bids last. Taking the fur for nothing leaves player 0 a
    # free horn (ahead of everyone in fights); the strong level outbids them on the horns
    # by one point instead (player 0 then takes the fur).
    state = EVO.scenario(3, seed=89, phase="evolution", meteor=4, hands={}, mp=[12, 15, 9])
    fast = FastPolicy()
    while EVO.to_act(state)[0] != 2:
        p = EVO.to_act(state)[0]
        legal = EVO.legal_actions(state, p)
        state, _ = EVO.apply_action(state, p, fast.choose(EVO.view(state, p), legal,
                                                          decision_seed(state, p)))
    a = state.auction
    assert a["genes"] == ["fur", "legs", "horns"] and a["bids"] == [None, [1, 0], [0, 0]]
    legal = EVO.legal_actions(state, 2)
    view, seed = EVO.view(state, 2), decision_seed(state, 2)
    assert StrongPolicy().choose(view, legal, seed) == {"type": "bid", "gene": 2, "amount": 1}
    # counting only a quarter of the opponents' gains (the weight with 4 or 5 players, and
    # before), the free fur won
    assert StrongPolicy(auction_rel=0.25).choose(view, legal, seed) == {
        "type": "bid", "gene": 0, "amount": 0}
