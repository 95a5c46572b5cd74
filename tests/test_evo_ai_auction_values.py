"""EVO's strong level in the auction: what a gene is worth to each seat (engine.evo.ai
``StrongPolicy._auction_values``): the population model's price (``gene_values`` times
``gene_scale``), or, where :data:`engine.evo.ai.AUCTION_LEAF` names a correction for the
player count, what the gene adds to the seat's estimated final score (``player_value``, the
same measure that judges every other future)."""

from __future__ import annotations

import copy

import pytest

from engine.evo import ai
from engine.evo.ai import AUCTION_LEAF, DEFAULT, StrongPolicy
from tests.evo_helpers import first_choice

GENES = ("tail", "fur", "legs", "parasol", "horns", "mutant", "egg")


def _auction(n: int = 3, seed: int = 702):
    state, legal, view, seed = first_choice(n, seed, 1, 0, "bid")
    return state, legal, view, seed


def test_without_a_correction_the_auction_prices_genes_by_the_model():
    _, _, view, _ = _auction()
    s = ai._obs(view)
    strong = StrongPolicy(auction_leaf={})
    for q in range(3):
        model = ai.gene_values(s, q, DEFAULT)
        assert strong._auction_values(s, q) == {k: DEFAULT.gene_scale * v
                                                 for k, v in model.items()}


def test_a_gene_is_worth_what_it_adds_to_the_estimated_final_score():
    _, _, view, _ = _auction()
    s = ai._obs(view)
    before = copy.deepcopy(view["state"]["genes"])
    lp = copy.copy(DEFAULT)
    lp.leaf_fit = ai.LEAF_FIT[5]
    got = ai.leaf_gene_values(s, 0, lp)
    assert view["state"]["genes"] == before  # the view is left as it was
    weights = ai.future_turns(s.meteor)
    t = copy.copy(s)
    t.genes = [list(g) for g in s.genes]
    base = ai.player_value(t, 0, weights, lp)
    t.genes[0][ai.EGG] += 1
    assert got["egg"] == ai.player_value(t, 0, weights, lp) - base > 0
    assert set(got) == set(GENES) | {"card"}
    assert got["card"] == DEFAULT.gene_scale * ai.gene_values(s, 0, DEFAULT)["card"]


def test_no_gene_is_worth_less_than_nothing():
    _, _, view, _ = _auction()
    s = ai._obs(view)
    lp = copy.copy(DEFAULT)
    lp.leaf_fit = tuple(-5.0 if i == 9 else 0.0 for i in range(11))  # tails cost 5 a turn
    assert ai.leaf_gene_values(s, 0, lp)["tail"] == 0.0


def test_the_option_by_player_count():
    _, _, view, _ = _auction()
    s = ai._obs(view)
    # True: the leaves' own params (the plain model at 3 players); a tuple: that correction
    plain = StrongPolicy(auction_leaf={3: True})._auction_values(s, 0)
    assert plain == ai.leaf_gene_values(s, 0, DEFAULT)
    fit = StrongPolicy(auction_leaf={"3": list(ai.LEAF_FIT[5])})._auction_values(s, 0)
    lp = copy.copy(DEFAULT)
    lp.leaf_fit = ai.LEAF_FIT[5]
    assert fit == ai.leaf_gene_values(s, 0, lp)
    # the table: the model at 3 players, the final score with 4 (its own fit) and 5 (the
    # leaves' LEAF_FIT)
    assert 3 not in AUCTION_LEAF
    assert len(AUCTION_LEAF[4]) == 11 and AUCTION_LEAF[5] is True


@pytest.mark.parametrize("n, holder, egg_bid, instead", [
    (4, 2, 7, {"type": "bid", "gene": 1, "amount": 1}),   # a mutant held at 0
    (5, 3, 6, {"type": "bid", "gene": 3, "amount": 0}),   # a free parasol
])
def test_strong_no_longer_pays_most_of_its_points_for_a_first_egg(n, holder, egg_bid, instead):
    # seed 711, the first auction: a fast rival holds the egg at 6-7 of its 12 points. The
    # population model prices the egg at about 12 and the strong level outbid it by one;
    # what the egg adds to the estimated final score (corrected by the fit) is nearer 8-9,
    # and a cheap gene is the better buy.
    state, legal, view, seed = first_choice(n, 711, 1, 0, "bid")
    a = state.auction
    slot = a["genes"].index("egg")
    assert a["bids"][slot] == [holder, egg_bid] and state.mp[0] == 12
    raise_egg = {"type": "bid", "gene": slot, "amount": egg_bid + 1}
    assert StrongPolicy(auction_leaf={}).choose(view, legal, seed) == raise_egg
    assert StrongPolicy().choose(view, legal, seed) == instead
