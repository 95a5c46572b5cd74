"""Refit EVO's ``LEAF_FIT`` (engine/evo/ai.py): the correction of a player's value.

    python bench/evo_leaf_fit.py [--players 5] [--games 600] [--seed 20000] [--strong]

Plays ``--games`` games of fast seats at ``--players`` (seeds from ``--seed``; the matchup
benchmark's seeds start at 1000, so the fit never sees them). With ``--strong`` one seat of
each game is the strong level (the seat rotating with the game), and two fits are printed:
the strong seat's (``LEAF_FIT_SELF``: how the strong level's own futures turn out under its
own play) and the fast seats' (``LEAF_FIT``: the rivals it meets). At the end of every turn's
survival (a "points" event) it records, for every seat, what :func:`player_value` says and
the seat's dinos (count, summed safety, safe empty places next to them, summed odds that a
neighbour with more horns wins an attack on them) and genes (egg, legs, fur, parasol, horns,
tail, mutant), each times the scoring turns to come; at the end, the seat's final score.
Prints the least-squares coefficients (no intercept) of (final - value) on those features,
in ``LEAF_FIT``'s order, and the share of the residual they explain.

LEAF_FIT[5] in the code was fitted by a one-off script on 600 games of fast seats (2026-11-27,
seed 20000: the same 27,030 samples as here); this script's fit of them, (-0.19, 0.086,
0.057, -0.289, -0.179, -0.047, 0.074, 0.187, -0.049, -0.152, -0.043), which explains 10.8%
of the squared residual, differs from the code's by at most 0.03 per coefficient. The
``--strong`` fits at 4 and 5 players were measured and not kept (LEAF_FIT_SELF is empty;
the figures are in the comment above LEAF_FIT).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Seat  # noqa: E402
from engine.evo import EVO as RULES  # noqa: E402
from engine.evo import ai  # noqa: E402

FEATURES = ("dinos", "safety", "room", "threat", "egg", "legs", "fur", "parasol", "horns",
            "tail", "mutant")


def samples(players: int, games: int, seed: int, strong: bool = False):
    """(features times the turns to come, final score - value, whether the seat is the
    strong one) for every seat at the end of every turn's survival."""
    policy, prm = ai.policy_for("fast"), ai.DEFAULT
    seats = [Seat(f"ai:{i}", f"AI {i}") for i in range(players)]
    for g in range(games):
        s = RULES.new_game(seats, seed + g, {})
        hero = g % players if strong else -1
        policies = [ai.policy_for("strong") if q == hero else policy for q in range(players)]
        kept = []
        while not RULES.is_over(s):
            p = RULES.to_act(s)[0]
            legal = RULES.legal_actions(s, p)
            action = legal[0] if len(legal) == 1 else policies[p].choose(
                RULES.view(s, p), legal, ai.AI.seed(s, p, None))
            events = RULES.apply_in_place(s, p, action)
            if any(e["type"] == "points" for e in events):
                weights = ai.leaf_weights(s)
                turns = sum(weights)
                info = ai._info(players)
                for q in range(players):
                    g = s.genes[q]
                    fv = info.fv(s.climate, g[ai.FUR] > 0, g[ai.PARASOL] > 0, prm)
                    kept.append((q, [turns * f for f in ai.leaf_features(s, q, fv, info)],
                                 ai.player_value(s, q, weights, prm)))
        for q, x, value in kept:
            yield x, s.mp[q] - value, q == hero


def least_squares(rows: list[tuple]) -> list[float]:
    """Coefficients minimising the squared residual (normal equations, Gauss-Jordan); a row is
    (features, residual, ...)."""
    rows = [(x, y) for x, y, *_ in rows]
    k = len(rows[0][0])
    m = [[sum(x[a] * x[b] for x, _ in rows) for b in range(k)]
         + [sum(x[a] * y for x, y in rows)] for a in range(k)]
    for c in range(k):
        pivot = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(k):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c], strict=True)]
    return [m[i][k] / m[i][i] for i in range(k)]


def report(rows: list[tuple], what: str, name: str, players: int) -> None:
    coef = least_squares(rows)
    before = sum(y * y for _, y, *_ in rows)
    after = sum((y - sum(c * v for c, v in zip(coef, x, strict=True))) ** 2
                for x, y, *_ in rows)
    print(f"{what}: {len(rows)} samples; the fit explains {1 - after / before:.1%} of the "
          f"residual")
    print(dict(zip(FEATURES, (round(c, 3) for c in coef), strict=True)))
    print(f"{name}    {players}: {tuple(round(c, 3) for c in coef)},")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--strong", action="store_true",
                    help="one strong seat a game: fit its rows and the fast seats' apart")
    args = ap.parse_args()
    rows = list(samples(args.players, args.games, args.seed, args.strong))
    print(f"{args.games} games of {args.players} seats from seed {args.seed}"
          + (", one of them strong" if args.strong else ", all fast"))
    if args.strong:
        report([r for r in rows if r[2]], "the strong seat", "LEAF_FIT_SELF", args.players)
        report([r for r in rows if not r[2]], "the fast seats", "LEAF_FIT", args.players)
    else:
        report(rows, "every seat", "LEAF_FIT", args.players)


if __name__ == "__main__":
    main()
