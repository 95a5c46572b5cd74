"""Darwin benchmarks: one line per figure, ``NAME VALUE UNIT``, medians over repeated runs.

    python bench/run.py            all figures
    python bench/run.py evo.apply  only figures whose name starts with a prefix
    python bench/run.py cubosaurs  one game's engine figures (any registered kind: each
                                   game's description, ``bench``, says which it has)
    python bench/run.py engine     every game's engine costs for a searcher: view+determinize,
                                   clone, legal, apply (CPU µs), random game / 1M-step loop
                                   (bench/engine_speed.py)
    python bench/run.py ratings    one finished game's rating update (host/ratings.py)
    python bench/run.py table      what a whole game writes to its channel (bench/table_bench.py)
    python bench/run.py replay     a whole 4-player game replayed to its GIF (host/replay.py)
    python bench/run.py ops        SIGTERM to exit with 50 live games, the metrics' cost
                                   (bench/ops_bench.py; only when asked: it runs bot.py)
    python bench/run.py web        the web page: a page, a board (cached or not), state.json;
                                   200 watchers of one game and the players' interaction
                                   p99 with and without them (bench/web_bench.py; only when
                                   asked: it runs the bot against the fake Discord)
    python bench/run.py gc         the collector's hourly work at 2,000 live games: a thaw's
                                   full pass against the pause of counting the frozen
                                   garbage in a forked copy (bench/gc_bench.py)
    python bench/run.py ai         the AI seats' quick figures (bench/ai_matchup.py, few games):
                                   win shares, strategic kinds unused, silly plays, decision time

Machines here are shared and noisy: every figure is a median, and the render figure that
matters is a ratio (drawing + encoding over encoding alone) measured in the same run.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Seat  # noqa: E402
from engine.core import descriptions  # noqa: E402

SEATS = {n: [Seat(f"s{i}", f"P{i}") for i in range(n)] for n in range(2, 9)}


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def play(rules, seed: int, players: int = 4, options: dict | None = None, level: str = "",
         until=None):
    """A game from ``seed`` played in place by uniformly random players (or AI seats of
    ``level``), to the end or until ``until(state)``; returns the state and the action count."""
    state = rules.new_game(SEATS[players], seed, options or {})
    rnd = random.Random(seed)
    count = 0
    while not rules.is_over(state) and not (until and until(state)):
        p = rules.to_act(state)[0]
        action = (rules.ai_action(state, p, level) if level
                  else rnd.choice(rules.legal_actions(state, p)))
        rules.apply_in_place(state, p, action)
        count += 1
    return state, count


def apply_us(rules, options: dict | None = None, games: int = 20) -> float:
    """Median time of one action through the public API (copy + check + apply), over the
    positions of random 4-player games."""
    samples = []
    for seed in range(games):
        state = rules.new_game(SEATS[4], seed, options or {})
        rnd = random.Random(seed)
        while not rules.is_over(state):
            p = rules.to_act(state)[0]
            action = rnd.choice(rules.legal_actions(state, p))
            t0 = time.perf_counter()
            state, _ = rules.apply_action(state, p, action)
            samples.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(samples)


def bench_game(out, d) -> None:
    """A game's engine figures (``d``: its description; ``d.bench`` says which): whole
    4-player games of random players (plain and with its ``option`` on), of fast AI seats
    (and of strong ones), one action's median time, and a mid-game save's load and size."""
    name, rules, b = d.kind, d.rules, d.bench

    def games(runs: int, **kwargs) -> float:
        seeds = iter(range(10_000))
        return median_ms(lambda: play(rules, next(seeds), **kwargs), runs)

    out(f"{name}.game.random_ms", games(41), "ms")
    if b.option:
        out(f"{name}.game.random_{b.option}_ms", games(41, options={b.option: True}), "ms")
    out(f"{name}.game.{b.ai_figure}_ms", games(11, options=dict(b.ai_options), level="fast"),
        "ms")
    if b.strong_runs:
        out(f"{name}.game.ai_strong_ms", games(b.strong_runs, level="strong"), "ms")
    out(f"{name}.apply_us", apply_us(rules, dict(b.ai_options), games=b.apply_games), "us")
    if b.save_load:
        steps = iter(range(121))
        state, _ = play(rules, 3, until=lambda _s: next(steps) == 120)  # part-way through
        data = rules.to_json(state)

        def save_load():
            rules.from_json(json.loads(json.dumps(rules.to_json(state))))

        out(f"{name}.save_load_us", median_ms(save_load, 301) * 1000, "us")
        out(f"{name}.state_json_bytes", len(json.dumps(data)), "bytes")


def bench_render(out) -> None:
    """Per game with a renderer that has ``bench_render``: draw + encode against encode alone
    at the position its description's ``bench.render_at`` gives (seed 1), or the renderer's
    own position."""
    import importlib

    for d in descriptions():
        if not d.renderer:
            continue
        run = getattr(importlib.import_module(d.renderer.partition(":")[0]), "bench_render",
                      None)
        if run is None:
            continue
        if d.bench.render_at is None:
            figures = run()
        else:
            players, options, level, until = d.bench.render_at()
            state, _ = play(d.rules, 1, players=players, options=options, level=level,
                            until=until)
            figures = run(d.rules.view(state, None), 21)
        out(f"render.{d.kind}.ms", figures["render_ms"], "ms")
        out(f"render.{d.kind}.encode_ms", figures["encode_ms"], "ms")
        out(f"render.{d.kind}.ratio_to_encode", figures["ratio"], "x")


def bench_ratings(out) -> None:
    """One finished game's rating update (host/ratings.py: 3 people and an AI seat, openskill
    Plackett-Luce), the pure part of what the store does when a game ends."""
    from host.ratings import match_of

    match = match_of([("u1", 2, None), ("u2", 1, None), ("ai:1", 3, "strong"), ("u3", 3, None)])
    current = {"u1": (27.0, 6.0), "u2": (24.0, 7.5), "ai:strong": (30.0, 3.0)}
    runs = 200
    out("ratings.update_us", median_ms(lambda: [match.rate(current) for _ in range(runs)], 15)
        * 1000 / runs, "us")


def bench_replay(out) -> None:
    """A whole 4-player game of fast AI seats replayed from its seed and action log to the
    animated GIF (host.replay.build_replay: the engine again with every phase's view, each
    image drawn, the GIF encoded under 8 MB, the final state checked), for the games whose
    description asks (``bench.replay``)."""
    from host.replay import build_replay
    from store import ActionRow

    for d in descriptions():
        if not d.bench.replay:
            continue
        rules, seats = d.rules, SEATS[4]
        state = rules.new_game(seats, 1, {})
        rows = []
        while not rules.is_over(state):
            p = rules.to_act(state)[0]
            action = rules.ai_action(state, p, "fast")
            rules.apply_in_place(state, p, action)
            rows.append(ActionRow(0, len(rows) + 1, seats[p].id, action, 0.0))
        stored = json.loads(json.dumps(rules.to_json(state)))
        made = []
        ms = median_ms(partial(_replay_into, made, build_replay, d.kind, seats, rows, stored), 3)
        assert made[-1].exact, made[-1].error
        out(f"replay.{d.kind}.ms", ms, "ms")
        out(f"replay.{d.kind}.gif_kb", made[-1].size / 1024, "KB")
        out(f"replay.{d.kind}.frames", made[-1].frames, "frames")


def _replay_into(made: list, build_replay, kind, seats, rows, stored) -> None:
    made.append(build_replay(0, kind, seats, 1, {}, rows, stored))


def bench_host(out) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import host_bench

    host_bench.run(out)


def bench_table(out) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import table_bench

    table_bench.run(out)


def bench_ai(out) -> None:
    """The AI seats' quick figures, on few seeded games (one worker; ``bench/ai_matchup.py
    --coverage`` for the full ones): for every game whose description asks (``ai_games``),
    the win share of strong against fast seats and of fast against random seats (and the
    fair share), per level the strategic action kinds legal but never chosen (engine/ai.py),
    the silly plays counted and the mean and worst time per decision."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import ai_matchup as M

    for d in descriptions():
        game, games = d.kind, d.bench.ai_games
        if not games:
            continue
        all_jobs = []
        for key in "bc":
            hero, other = M.MATCHUPS[key]
            all_jobs += [(key, (*j, True)) for j in M.jobs(game, hero, other, games, 1000,
                                                           "mixed")]
        per_key, times, _ = M.run_jobs(all_jobs, partial(M.play_job, game), 1)
        for key, name in (("b", "strong_vs_fast"), ("c", "fast_vs_random")):
            sm = M.summarize(key, M.MATCHUPS[key][0], per_key[key])
            out(f"ai.{game}.{name}.win", sm["win"], f"share ({sm['games']} games)")
            out(f"ai.{game}.{name}.fair", sm["fair"], "share")
        for lv in ("fast", "strong"):
            if times["count"].get(lv):
                out(f"ai.{game}.{lv}.decision_mean_ms",
                    1000 * times["spent"][lv] / times["count"][lv], "ms")
                out(f"ai.{game}.{lv}.decision_max_ms", 1000 * times["worst"][lv], "ms")

        def say(line: str) -> None:
            name, value = line.split()[:2]
            out(name, float(value), "count")

        M.print_coverage(game, per_key, say, table=False)


def bench_engine_speed(out) -> None:
    """Every game's engine costs for a searcher (bench/engine_speed.py, issue 22): per-call
    CPU µs of view+determinize, clone, legal_actions and apply_in_place, and a random game's
    CPU time over a 1M-step reference loop's (str(i); issue 22's figures) and an empty one's."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import engine_speed

    engine_speed.run(out)


def bench_ops(out) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import ops_bench

    ops_bench.run(out)


def bench_gc(out) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import gc_bench

    gc_bench.run(out)


def bench_web(out) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import web_bench

    web_bench.run(out)


def main(argv: list[str]) -> int:
    prefix = argv[0] if argv else ""

    def out(name: str, value: float, unit: str) -> None:
        if name.startswith(prefix):
            print(f"{name} {value:.3f} {unit}", flush=True)

    for d in descriptions():  # each game's engine figures, under its kind
        if not prefix or d.kind.startswith(prefix[:len(d.kind)]):
            bench_game(out, d)
    if "engine".startswith(prefix[:6]) or not prefix:
        bench_engine_speed(out)
    if "render".startswith(prefix[:6]) or not prefix:
        bench_render(out)
    if "replay".startswith(prefix[:6]) or not prefix:
        bench_replay(out)
    if "ratings".startswith(prefix[:7]) or not prefix:
        bench_ratings(out)
    if "host".startswith(prefix[:4]) or not prefix:
        bench_host(out)
    if "table".startswith(prefix[:5]) or not prefix:
        bench_table(out)
    if prefix and "ops".startswith(prefix[:3]):  # processes and sockets: only when asked
        bench_ops(out)
    if prefix and "web".startswith(prefix[:3]):  # processes and sockets: only when asked
        bench_web(out)
    if "gc".startswith(prefix[:2]) or not prefix:
        bench_gc(out)
    if "ai".startswith(prefix[:2]) or not prefix:
        bench_ai(out)
    return 0


if __name__ == "__main__":
    try:
        code = main(sys.argv[1:])
    except Exception as exc:  # noqa: BLE001 - a benchmark fails loudly and exits, never hangs
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from host_bench import fail

        fail(exc)
    sys.exit(code)
