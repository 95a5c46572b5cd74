"""EVO: what one more gene is worth, estimated from games of the fast level (issue 22).

Plays seeded games of fast seats only (the AI's own level, seeds far from the benchmarks'
1000.. and the tuning seeds 5000..), and at the end of every auction records, per player,
what it holds once the auction is paid (genes, cards in hand, dinos on the board, mutation
points, the best opponent's horns) and how many points it goes on to score before the end
(final points minus points now). A least-squares fit of those future points on the holdings,
per player count and per stage of the game (expected scoring turns left after the auction:
late < 2.5 <= mid < 5 <= early), with the turns left, the dinos and the dinos times the turns
left, the points, the best opponent's horns and the opponents' mean dinos as controls, gives the marginal points of one more of each gene (and of
one more card, the ``card`` gene) at that moment: the table ``engine/evo/ai_values.py``
holds (``GENE_VALUES``).

    python bench/evo_gene_values.py --games 3000 --seed 20000 --workers 2 > /tmp/values.txt
    python bench/evo_gene_values.py --load /tmp/rows.json     # refit saved rows

``--save`` writes the rows (JSON) so that the fit can be redone without playing again.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core import Seat  # noqa: E402
from engine.evo import EVO  # noqa: E402
from engine.evo.ai import FastPolicy, decision_seed, future_turns  # noqa: E402
from engine.evo.data import GENE_KINDS  # noqa: E402

STAGES = ("early", "mid", "late")
FEATURES = ("card",) + GENE_KINDS + ("dinos", "mp", "opp_horns", "left", "dinos_left",
                                     "opp_dinos")
GENES = ("card",) + GENE_KINDS


def stage_of(meteor: int) -> str:
    """The game's stage after an auction held on meteorite square ``meteor``: the expected
    scoring turns still to come (``engine.evo.ai.future_turns``)."""
    left = sum(future_turns(meteor))
    return "late" if left < 2.5 else "mid" if left < 5.0 else "early"


def play(seed: int) -> list[dict]:
    """One game of fast seats (3, 4 or 5 by the seed); a row per player and auction."""
    n = 3 + seed % 3
    fast = FastPolicy()
    s = EVO.new_game([Seat(f"ai:{i}", f"AI {i}") for i in range(n)], seed, {})
    rows = []
    spent = [0] * n
    while not EVO.is_over(s):
        p = EVO.to_act(s)[0]
        legal = EVO.legal_actions(s, p)
        a = legal[0] if len(legal) == 1 else fast.choose(EVO.view(s, p), legal,
                                                         decision_seed(s, p))
        meteor = s.meteor
        events = EVO.apply_in_place(s, p, a)
        for e in events:
            if e["type"] == "bought":
                spent[e["player"]] += e["paid"]
        if any(e["type"] == "bought" or e["type"] == "gene_returned" for e in events):
            for q in range(n):
                row = {"n": n, "seed": seed, "meteor": meteor, "p": q,
                       "card": len(s.hands[q]), "dinos": s.occ.count(q), "mp": s.mp[q],
                       "spent": spent[q],
                       "opp_horns": max(s.genes[o][4] for o in range(n) if o != q)}
                row.update({k: s.genes[q][i] for i, k in enumerate(GENE_KINDS)})
                rows.append(row)
    final = s.mp
    for row in rows:
        row["future"] = final[row["p"]] - row["mp"]
        # points earned from now on, whatever the player spends on genes later
        row["income"] = row["future"] + spent[row["p"]] - row["spent"]
    return rows


def fit(rows: list[dict]) -> dict:
    """Per (player count, stage): each feature's least-squares coefficient and its standard
    error, and the number of rows."""
    import numpy as np

    by_turn: dict = {}
    for r in rows:
        by_turn.setdefault((r["seed"], r["meteor"]), []).append(r)
    for r in rows:  # the controls: turns left (and with the dinos), the opponents' dinos
        r["left"] = sum(future_turns(r["meteor"]))
        r["dinos_left"] = r["dinos"] * r["left"]
        opp = [o["dinos"] for o in by_turn[(r["seed"], r["meteor"])] if o["p"] != r["p"]]
        r["opp_dinos"] = sum(opp) / len(opp)
    out = {}
    for n in (3, 4, 5):
        for stage in STAGES:
            sel = [r for r in rows if r["n"] == n and stage_of(r["meteor"]) == stage]
            if len(sel) < 50:
                continue
            x = np.array([[1.0] + [float(r[f]) for f in FEATURES] for r in sel])
            y = np.array([float(r["future"]) for r in sel])
            coef, *_ = np.linalg.lstsq(x, y, rcond=None)
            resid = y - x @ coef
            dof = max(1, len(sel) - x.shape[1])
            cov = np.linalg.pinv(x.T @ x) * float(resid @ resid) / dof
            se = np.sqrt(np.diag(cov))
            out[(n, stage)] = {"rows": len(sel),
                               "coef": {f: float(coef[i + 1]) for i, f in enumerate(FEATURES)},
                               "se": {f: float(se[i + 1]) for i, f in enumerate(FEATURES)}}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--save", default=None, help="write the rows here (JSON)")
    ap.add_argument("--load", default=None, help="fit rows saved before instead of playing")
    args = ap.parse_args(argv)
    if args.load:
        with open(args.load) as f:
            rows = json.load(f)
    else:
        seeds = range(args.seed, args.seed + args.games)
        if args.workers > 1:
            with Pool(args.workers) as pool:
                parts = pool.map(play, seeds, chunksize=10)
        else:
            parts = [play(sd) for sd in seeds]
        rows = [r for part in parts for r in part]
        if args.save:
            with open(args.save, "w") as f:
                json.dump(rows, f)
    table = fit(rows)
    print(f"{len(rows)} rows; future points per one more (standard error):")
    print(f"{'n':>2} {'stage':<6}{'rows':>6}  " + "".join(f"{f:>13}" for f in FEATURES))
    for (n, stage), t in sorted(table.items(), key=lambda kv: (kv[0][0], STAGES.index(kv[0][1]))):
        cells = "".join(f"{t['coef'][f]:>7.2f}({t['se'][f]:.2f})" for f in FEATURES)
        print(f"{n:>2} {stage:<6}{t['rows']:>6}  {cells}")
    print("GENE_VALUES = {")
    for (n, stage), t in sorted(table.items(), key=lambda kv: (kv[0][0], STAGES.index(kv[0][1]))):
        vals = ", ".join(f'"{g}": {t["coef"][g]:.2f}' for g in GENES)
        print(f"    ({n}, \"{stage}\"): {{{vals}}},")
    print("}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
