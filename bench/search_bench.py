"""The expert level (IS-MCTS, engine/search.py) against another level: win share against the
fair share, iterations per second and time per decision (issue 22).

    python bench/search_bench.py --game mutations --games 28 --iterations 60
    python bench/search_bench.py --game climate --games 20 --iterations 60 --workers 2
    python bench/search_bench.py --game cubosaurs --games 20 --hero strong --other fast

One seat of ``--hero`` (default expert) against ``--other`` seats (default strong), seeded
(game g has seed ``--seed + g``); the player count turns over the game's counts (``--players``
to choose them) and the hero's seat moves every round of counts, the game's option (Random
Mutations: Divergence, Climate: the Quick game, Cubosaurs: the advanced rules) in every other
game. A win is a first place (the game's own ranking and tie-breaks; a shared first place
counts as a fraction). "fair" is the mean of 1/n over the games; "ratio" = win / fair.

Budget: ``--iterations`` per decision (deterministic; the default) or ``--seconds``.
Printed per level: decisions, time per decision (median, p99, max, ms) and for the expert
its iterations per second (iterations / time in the search).
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import statistics
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core import Seat, description, game_kinds, get_game  # noqa: E402


def counts_of(kind: str) -> tuple:
    """Every player count of the game (its description's rules)."""
    d = description(kind)
    return tuple(range(d.min_players, d.max_players + 1))


def rules_of(kind: str):
    return get_game(kind)


def jobs_for(kind: str, hero: str, other: str, games: int, base: int,
             counts: tuple) -> list[tuple]:
    jobs = []
    for g in range(games):
        n = counts[g % len(counts)]
        k = g // len(counts)
        seat = k % n
        levels = [other] * n
        levels[seat] = hero
        bench = description(kind).bench
        opts = dict(bench.options)  # the game's fixed benchmark options (Climate's events)
        if bench.mixed is not None:  # its mixed option, on in half of the games
            opts[bench.mixed] = (g // 2) % 2 == 1 if len(counts) % 2 == 0 else k % 2 == 1
        jobs.append((kind, tuple(levels), base + g, opts, seat))
    return jobs


BUDGET: dict = {}


def play(job: tuple) -> dict:
    kind, levels, seed, opts, hero = job
    rules = rules_of(kind)
    ai = importlib.import_module(description(kind).ai_module)
    policies = {}
    for lv in set(levels):
        cls = ai.POLICIES[lv]
        if lv == "expert":
            policies[lv] = cls(**BUDGET)
        else:
            policies[lv] = cls()
    seats = [Seat(f"ai:{i}", f"AI {i}") for i in range(len(levels))]
    state = rules.new_game(seats, seed, opts)
    times: dict[str, list[float]] = {lv: [] for lv in policies}
    cpu: dict[str, list[float]] = {lv: [] for lv in policies}
    its = [0, 0.0, 0, 0]  # iterations, seconds in the search, searches, strong choice left
    while not rules.is_over(state):
        p = rules.to_act(state)[0]
        legal = rules.legal_actions(state, p)
        lv = levels[p]
        if len(legal) == 1:
            action = legal[0]
        else:
            t0, c0 = time.perf_counter(), time.process_time()
            view = rules.view(state, p)
            action = policies[lv].choose(view, legal, ai.AI.seed(state, p, view))
            times[lv].append(time.perf_counter() - t0)
            cpu[lv].append(time.process_time() - c0)
            if lv == "expert":
                st = policies[lv].search.stats
                its[0] += st["iterations"]
                its[1] += st["seconds"]
                if "switched" in st:
                    its[2] += 1
                    its[3] += st["switched"]
        rules.apply_in_place(state, p, action)
    rows = rules.returns(state)
    firsts = [r["player"] for r in rows if r["rank"] == 1]
    scores = {r["player"]: r["score"] for r in rows}
    return {"levels": levels, "seed": seed, "n": len(levels), "hero": hero,
            "win": 1.0 / len(firsts) if hero in firsts else 0.0,
            "margin": scores[hero] - max(s for q, s in scores.items() if q != hero),
            "times": times, "cpu": cpu, "its": its}


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=tuple(game_kinds()), default="mutations")
    ap.add_argument("--games", type=int, default=28)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--hero", default="expert")
    ap.add_argument("--other", default="strong")
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--players", default=None, help="player counts, e.g. 2,3,4")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--paired", action="store_true",
                    help="also play every game with --other in the hero's seat (the baseline)")
    args = ap.parse_args(argv)
    if args.iterations is None and args.seconds is None:
        args.iterations = 60
    if args.iterations is not None:
        BUDGET["iterations"] = args.iterations
    if args.seconds is not None:
        BUDGET["seconds"] = args.seconds
    counts = tuple(int(x) for x in args.players.split(",")) if args.players \
        else counts_of(args.game)
    jobs = jobs_for(args.game, args.hero, args.other, args.games, args.seed, counts)
    if args.paired:  # the same games with the other level in the hero's seat
        jobs += [(kind, tuple(args.other for _ in levels), seed, opts, hero)
                 for kind, levels, seed, opts, hero in jobs]
    t0 = time.perf_counter()
    if args.workers > 1:
        with Pool(args.workers, initializer=BUDGET.update, initargs=(dict(BUDGET),)) as pool:
            results = pool.map(play, jobs, chunksize=1)
    else:
        results = [play(j) for j in jobs]
    wall = time.perf_counter() - t0
    base = None
    if args.paired:
        results, base = results[:len(results) // 2], results[len(results) // 2:]
    g = len(results)
    win = sum(r["win"] for r in results) / g
    fair = sum(1.0 / r["n"] for r in results) / g
    margin = sum(r["margin"] for r in results) / g
    print(f"{args.game}: 1 {args.hero} vs {args.other}, {g} games, seeds {args.seed}.."
          f"{args.seed + g - 1}, players {counts}, budget {BUDGET}")
    print(f"  win {win:.3f}  fair {fair:.3f}  ratio {win / fair:.2f}  margin {margin:+.2f}")
    by_n: dict[int, list[float]] = {}
    for r in results:
        by_n.setdefault(r["n"], []).append(r["win"])
    print("  by players: " + "  ".join(
        f"{n}p {sum(v) / len(v):.2f}x{len(v)} (ratio {n * sum(v) / len(v):.2f})"
        for n, v in sorted(by_n.items())))
    if base is not None:
        # the paired difference: the same seeds, the hero's seat played by --other; the games
        # are the same until the hero first plays another move than --other would
        d = [r["win"] - b["win"] for r, b in zip(results, base, strict=True)]
        bw = sum(b["win"] for b in base) / g
        mean = sum(d) / g
        se = (sum((x - mean) ** 2 for x in d) / max(1, g - 1) / g) ** 0.5
        print(f"  paired: {args.other} in the hero's seat wins {bw:.3f} (ratio {bw / fair:.2f});"
              f" hero - it {mean:+.3f} +- {se:.3f} (se), {sum(1 for x in d if x)} of {g} "
              f"games changed; hero ratio over the baseline {win / bw if bw else math.inf:.2f}")
        for n in sorted(by_n):
            pairs = [(r["win"], b["win"]) for r, b in zip(results, base, strict=True)
                     if r["n"] == n]
            print(f"    {n}p: hero {sum(a for a, _ in pairs):.1f} wins, baseline "
                  f"{sum(b for _, b in pairs):.1f}, of {len(pairs)}")
    for what in ("times", "cpu"):
        times: dict[str, list[float]] = {}
        for r in results:
            for lv, ts in r[what].items():
                times.setdefault(lv, []).extend(ts)
        for lv, ts in sorted(times.items()):
            if ts:
                print(f"  {lv:<7} {'wall' if what == 'times' else 'CPU '} {len(ts):6} decisions"
                      f"  median {1000 * statistics.median(ts):8.2f} ms"
                      f"  p99 {1000 * pct(ts, 0.99):8.2f} ms  max {1000 * max(ts):8.2f} ms")
    n_its = sum(r["its"][0] for r in results)
    t_its = sum(r["its"][1] for r in results)
    if n_its:
        searches = sum(r["its"][2] for r in results)
        switched = sum(r["its"][3] for r in results)
        cpu_s = sum(sum(r["cpu"].get("expert", ())) for r in results)
        print(f"  expert iterations/s {n_its / t_its:.0f} wall, {n_its / cpu_s:.0f} per CPU s"
              f" of its decisions ({n_its} iterations, "
              f"{n_its / max(1, searches):.0f} per search; strong's choice left in "
              f"{switched} of {searches} searches)")
    print(f"  wall {wall:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
