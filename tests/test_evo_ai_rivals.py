"""EVO's strong level with 4 or 5 players judges a future by its margin over the best rival
(engine.evo.ai.REL_BEST): a first place is what wins, so a point taken from a rival who is
behind anyway is worth little, and one taken from the rival ahead is worth a full point."""

from __future__ import annotations

from engine.evo.ai import REL_BEST, StrongPolicy
from tests.evo_helpers import first_choice


def test_the_margin_over_the_best_rival_with_many_players():
    strong = StrongPolicy()
    # 5 players: we have 10, the best rival 12, the other three 3
    assert strong._score([10.0, 12.0, 3.0, 3.0, 3.0], 0, 1.0) == -2.0
    # a point taken from a rival who is far behind changes nothing ...
    assert strong._score([10.0, 12.0, 2.0, 3.0, 3.0], 0, 1.0) == -2.0
    # ... one taken from the leader counts in full
    assert strong._score([10.0, 11.0, 3.0, 3.0, 3.0], 0, 1.0) == -1.0
    # 4 players alike
    assert strong._score([10.0, 3.0, 12.0, 3.0], 0, 1.0) == -2.0


def test_three_players_mix_the_best_and_the_average_rival():
    # with two rivals both still count (unchanged: half the best, half the average)
    assert REL_BEST[3] == 0.5
    assert StrongPolicy()._score([10.0, 12.0, 4.0], 0, 1.0) == 10.0 - (6.0 + 4.0)
    # an explicit weight overrides the table
    assert StrongPolicy(rel_best=0.5)._score([10.0, 12.0, 4.0, 4.0, 4.0], 0, 1.0) == \
        10.0 - (6.0 + 3.0)


def test_no_point_paid_to_keep_the_last_player_from_an_egg():
    # 5 players, turn 8's auction: egg, horns, card and legs on offer. Player 4, last with
    # 40 points and 4 dinos, holds the egg at 0; we (48 points, tied first) bid first. Taking
    # the egg from them for a point only hurts a player who is not in the race; the strong
    # level takes the horns for nothing (the fast rule's bid too). Judged against the
    # average rival as well (rel_best 0.5), it paid the point.
    state, legal, view, seed = first_choice(5, 700, 8, 0, "bid")
    assert state.auction["genes"] == ["egg", "horns", "card", "legs"]
    assert state.auction["bids"][0] == [4, 0]
    assert state.mp == [48, 48, 45, 44, 40]
    assert StrongPolicy().choose(view, legal, seed) == {"type": "bid", "gene": 1, "amount": 0}
    assert StrongPolicy(rel_best=0.5).choose(view, legal, seed) == {
        "type": "bid", "gene": 0, "amount": 1}
