"""What one more gene is worth in EVO's auction, fitted on games of the fast level.

Produced by ``bench/evo_gene_values.py --games 2000 --seed 30000`` (2,000 games of fast seats
only, 3/4/5 players in turn; 70,832 rows: each player at the end of each auction). Per player
count and stage of the game (the expected scoring turns left after the auction, from the
meteorite square: late < 2.5 <= mid < 5 <= early), a least-squares fit of the points a player
still makes before the end (final points minus points now, what later auctions cost
included) on its holdings once the auction is paid: cards in hand (the ``card`` gene) and the
seven genes, with the turns left, its dinos, dinos x turns left, its points, the best
opponent's horns and the opponents' mean dinos as controls. The numbers are the genes'
coefficients: the final points one more of that gene was worth to a fast player then
(standard errors 0.1-0.45; the egg's are the largest).

The strong level's auction may read them (engine/evo/ai.py ``data_gene_values``, the
StrongPolicy options ``data_values`` and ``bid_cap``, off by default: on seeds 5000.. they paid
less but did not win more; see the class).
"""

from __future__ import annotations

GENE_VALUES: dict[tuple[int, str], dict[str, float]] = {
    (3, "early"): {"card": 0.66, "tail": 1.02, "fur": 2.92, "legs": 2.08, "parasol": 3.01,
                   "horns": 4.32, "mutant": 1.83, "egg": 5.63},
    (3, "mid"): {"card": 0.51, "tail": 0.61, "fur": 1.47, "legs": 1.14, "parasol": 1.33,
                 "horns": 2.81, "mutant": 0.59, "egg": 3.03},
    (3, "late"): {"card": 0.34, "tail": 0.03, "fur": 0.41, "legs": 0.19, "parasol": 0.43,
                  "horns": 1.01, "mutant": 0.08, "egg": 1.36},
    (4, "early"): {"card": 0.97, "tail": 0.82, "fur": 2.04, "legs": 1.95, "parasol": 2.26,
                   "horns": 2.85, "mutant": 2.16, "egg": 5.17},
    (4, "mid"): {"card": 0.59, "tail": 0.44, "fur": 1.04, "legs": 0.92, "parasol": 0.95,
                 "horns": 1.87, "mutant": 0.85, "egg": 2.63},
    (4, "late"): {"card": 0.34, "tail": 0.11, "fur": 0.33, "legs": 0.25, "parasol": 0.27,
                  "horns": 0.71, "mutant": 0.13, "egg": 0.86},
    (5, "early"): {"card": 0.82, "tail": 2.06, "fur": 3.29, "legs": 3.12, "parasol": 3.50,
                   "horns": 2.76, "mutant": 2.35, "egg": 6.66},
    (5, "mid"): {"card": 0.76, "tail": 1.12, "fur": 1.80, "legs": 1.78, "parasol": 1.78,
                 "horns": 2.21, "mutant": 1.11, "egg": 3.45},
    (5, "late"): {"card": 0.35, "tail": 0.20, "fur": 0.44, "legs": 0.43, "parasol": 0.52,
                  "horns": 0.81, "mutant": 0.07, "egg": 1.14},
}


def stage(left: float) -> str:
    """The stage of the game by the expected scoring turns left after the auction."""
    return "late" if left < 2.5 else "mid" if left < 5.0 else "early"


def gene_table(n: int, left: float) -> dict[str, float]:
    """The fitted value of one more of each gene with ``n`` players and ``left`` expected
    scoring turns to come."""
    return GENE_VALUES[(max(3, min(5, n)), stage(left))]
