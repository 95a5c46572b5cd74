"""EVO's strong level with 4 or 5 players judges a future by its margin over the best rival
(engine.evo.ai.REL_BEST): a first place is what wins, so a point taken from a rival who is
behind anyway is worth little, and one taken from the rival ahead is worth a full point."""

from __future__ import annotations

from engine.evo.ai import REL_BEST, StrongPolicy


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
