"""Darwin benchmarks: one line per figure, ``NAME VALUE UNIT``, medians over repeated runs.

    python bench/run.py            all figures
    python bench/run.py evo.apply  only figures whose name starts with a prefix
    python bench/run.py cubosaurs  the Cubosaurs engine figures

Machines here are shared and noisy: every figure is a median, and the render figure that
matters is a ratio (drawing + encoding over encoding alone) measured in the same run.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Seat  # noqa: E402
from engine.evo import EVO  # noqa: E402

SEATS = {n: [Seat(f"s{i}", f"P{i}") for i in range(n)] for n in (3, 4, 5)}
CUBO_SEATS = {n: [Seat(f"s{i}", f"P{i}") for i in range(n)] for n in (2, 3, 4, 5)}


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def random_game(seed: int, players: int = 4) -> int:
    """A full game with uniformly random players; returns the number of actions."""
    state = EVO.new_game(SEATS[players], seed)
    rnd = random.Random(seed)
    count = 0
    while not EVO.is_over(state):
        p = EVO.to_act(state)[0]
        EVO.apply_in_place(state, p, rnd.choice(EVO.legal_actions(state, p)))
        count += 1
    return count


def ai_game(seed: int, players: int = 4) -> None:
    from engine.evo.ai import choose_action

    state = EVO.new_game(SEATS[players], seed)
    while not EVO.is_over(state):
        p = EVO.to_act(state)[0]
        EVO.apply_in_place(state, p, choose_action(EVO, state, p, "fast"))


def mid_game(seed: int = 3, players: int = 4, actions: int = 120):
    """A state part-way through a random game, and the legal actions seen on the way."""
    state = EVO.new_game(SEATS[players], seed)
    rnd = random.Random(seed)
    for _ in range(actions):
        if EVO.is_over(state):
            break
        p = EVO.to_act(state)[0]
        EVO.apply_in_place(state, p, rnd.choice(EVO.legal_actions(state, p)))
    return state


def bench_engine(out) -> None:
    seeds = iter(range(10_000))
    out("evo.game.random_ms", median_ms(lambda: random_game(next(seeds)), 41), "ms")
    seeds = iter(range(10_000))
    out("evo.game.ai_ms", median_ms(lambda: ai_game(next(seeds)), 11), "ms")

    # one action through the public API (copy + check + apply), over many positions
    samples = []
    for seed in range(30):
        state = EVO.new_game(SEATS[4], seed)
        rnd = random.Random(seed)
        while not EVO.is_over(state):
            p = EVO.to_act(state)[0]
            action = rnd.choice(EVO.legal_actions(state, p))
            t0 = time.perf_counter()
            state, _ = EVO.apply_action(state, p, action)
            samples.append((time.perf_counter() - t0) * 1e6)
    out("evo.apply_us", statistics.median(samples), "us")

    state = mid_game()
    data = EVO.to_json(state)

    def save_load():
        EVO.from_json(json.loads(json.dumps(EVO.to_json(state))))

    out("evo.save_load_us", median_ms(save_load, 301) * 1000, "us")
    out("evo.state_json_bytes", len(json.dumps(data)), "bytes")


def cubosaurs_game(seed: int, players: int = 4, advanced: bool = False) -> int:
    """A full Cubosaurs game with uniformly random players; returns the number of actions."""
    from engine.cubosaurs import CUBOSAURS as CUBO

    state = CUBO.new_game(CUBO_SEATS[players], seed, {"advanced": advanced})
    rnd = random.Random(seed)
    count = 0
    while not CUBO.is_over(state):
        p = CUBO.to_act(state)[0]
        CUBO.apply_in_place(state, p, rnd.choice(CUBO.legal_actions(state, p)))
        count += 1
    return count


def bench_cubosaurs(out) -> None:
    from engine.cubosaurs import CUBOSAURS as CUBO

    seeds = iter(range(10_000))
    out("cubosaurs.game.random_ms", median_ms(lambda: cubosaurs_game(next(seeds)), 41), "ms")
    seeds = iter(range(10_000))
    out("cubosaurs.game.random_advanced_ms",
        median_ms(lambda: cubosaurs_game(next(seeds), advanced=True), 41), "ms")
    seeds = iter(range(10_000))

    def ai_game() -> None:
        seed = next(seeds)
        state = CUBO.new_game(CUBO_SEATS[4], seed, {"advanced": True})
        while not CUBO.is_over(state):
            p = CUBO.to_act(state)[0]
            CUBO.apply_in_place(state, p, CUBO.ai_action(state, p, "fast"))

    out("cubosaurs.game.ai_fast_ms", median_ms(ai_game, 11), "ms")
    samples = []
    for seed in range(20):
        state = CUBO.new_game(CUBO_SEATS[4], seed, {"advanced": True})
        rnd = random.Random(seed)
        while not CUBO.is_over(state):
            p = CUBO.to_act(state)[0]
            action = rnd.choice(CUBO.legal_actions(state, p))
            t0 = time.perf_counter()
            state, _ = CUBO.apply_action(state, p, action)
            samples.append((time.perf_counter() - t0) * 1e6)
    out("cubosaurs.apply_us", statistics.median(samples), "us")


def bench_render(out) -> None:
    from images.evo import bench_render as run

    figures = run(seed=1)
    out("render.evo.ms", figures["render_ms"], "ms")
    out("render.evo.encode_ms", figures["encode_ms"], "ms")
    out("render.evo.ratio_to_encode", figures["ratio"], "x")
    from engine.cubosaurs import CUBOSAURS as CUBO
    from images.cubosaurs import bench_render as run_cubo

    # a 4-player advanced game part-way through its second round
    state = CUBO.new_game(CUBO_SEATS[4], 1, {"advanced": True})
    rnd = random.Random(1)
    while not CUBO.is_over(state) and CUBO.view(state, None)["round"] < 2:
        p = CUBO.to_act(state)[0]
        CUBO.apply_in_place(state, p, rnd.choice(CUBO.legal_actions(state, p)))
    for _ in range(25):
        p = CUBO.to_act(state)[0]
        CUBO.apply_in_place(state, p, rnd.choice(CUBO.legal_actions(state, p)))
    figures = run_cubo(CUBO.view(state, None), 21)
    out("render.cubosaurs.ms", figures["render_ms"], "ms")
    out("render.cubosaurs.encode_ms", figures["encode_ms"], "ms")
    out("render.cubosaurs.ratio_to_encode", figures["ratio"], "x")


def bench_host(out) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import host_bench

    host_bench.run(out)


def main(argv: list[str]) -> int:
    prefix = argv[0] if argv else ""

    def out(name: str, value: float, unit: str) -> None:
        if name.startswith(prefix):
            print(f"{name} {value:.3f} {unit}", flush=True)

    if "evo".startswith(prefix[:3]) or not prefix:
        bench_engine(out)
    if "cubosaurs".startswith(prefix[:9]) or not prefix:
        bench_cubosaurs(out)
    if "render".startswith(prefix[:6]) or not prefix:
        bench_render(out)
    if "host".startswith(prefix[:4]) or not prefix:
        bench_host(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
