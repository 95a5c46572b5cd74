"""The collector's hourly work at 2,000 live games (issue 25: ``ops/memory.py``).

    python bench/run.py gc          (or python bench/gc_bench.py [--games N] [--runs N])

A process holds ``--games`` live games of the four kinds (each a real state, 2 to 40 random
moves in, kept as a JSON document too, as the host keeps them), frozen as the bot freezes
what lives. Then, in that process, with an event loop that notes how late each 1 ms tick
comes (its longest lateness is the pause every answer would have waited):

* ``gc.thaw_ms``: :func:`ops.memory.thaw` (unfreeze, a full pass, freeze again): the pause
  the bot took every hour whenever its frozen objects had grown by a quarter;
* ``gc.count_pause_ms``: the loop's longest lateness while :func:`ops.memory.frozen_garbage`
  counts the frozen garbage in a forked copy (what the bot does every hour now), and
  ``gc.fork_ms``, the fork itself; ``gc.count_ms``: until the copy's answer;
  ``gc.idle_lateness_ms``: the same ticker's longest lateness over as long doing nothing
  (what the machine's other work costs it: on a busy machine most of the count's figure);
* ``gc.frozen_objects``: what was frozen.

Medians over ``--runs``; the thaw is timed on its own (no loop) after the counts.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Seat, game_kinds, get_game  # noqa: E402
from ops import memory  # noqa: E402

GAMES = 2000
RUNS = 3


def live_games(n: int) -> dict:
    """``n`` games of the four kinds, each a few random moves in: channel -> (state, JSON)."""
    kinds = sorted(game_kinds())
    games = {}
    for i in range(n):
        rules = get_game(kinds[i % len(kinds)])
        seats = [Seat(f"u{i}-{k}", f"P{k}") for k in range(3)]
        state = rules.new_game(seats, i, {})
        rnd = random.Random(i)
        for _ in range(rnd.randint(2, 40)):
            if rules.is_over(state):
                break
            p = rules.to_act(state)[0]
            rules.apply_in_place(state, p, rnd.choice(rules.legal_actions(state, p)))
        games[i] = (state, json.dumps(rules.to_json(state)))
    return games


async def longest_lateness(work) -> tuple[float, object]:
    """Run ``work`` (a coroutine) while a 1 ms ticker notes its lateness: (max ms, result)."""
    worst = 0.0
    done = False

    async def ticker() -> None:
        nonlocal worst
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            worst = max(worst, (time.perf_counter() - before - 0.001) * 1000)

    task = asyncio.get_running_loop().create_task(ticker())
    await asyncio.sleep(0.05)
    worst = 0.0  # the ticker's own start
    result = await work
    done = True
    await task
    return worst, result


def run(out, games: int = GAMES, runs: int = RUNS) -> None:
    held = live_games(games)
    memory.freeze()
    out("gc.frozen_objects", gc.get_freeze_count(), "objects")
    pauses, forks, counts, idle = [], [], [], []
    for _ in range(runs):
        started = time.perf_counter()
        pause, garbage = asyncio.run(longest_lateness(memory.frozen_garbage()))
        counts.append((time.perf_counter() - started) * 1000)
        pauses.append(pause)
        idle.append(asyncio.run(longest_lateness(asyncio.sleep(counts[-1] / 1000)))[0])
        forks.append(memory.LAST_COUNT["fork_ms"])
        out("gc.count_garbage", garbage if garbage is not None else -1, "objects")
    out("gc.count_pause_ms", statistics.median(pauses), "ms")
    out("gc.fork_ms", statistics.median(forks), "ms")
    out("gc.count_ms", statistics.median(counts), "ms")
    out("gc.idle_lateness_ms", statistics.median(idle), "ms")
    thaws = []
    for _ in range(runs):
        started = time.perf_counter()
        memory.thaw()
        thaws.append((time.perf_counter() - started) * 1000)
    out("gc.thaw_ms", statistics.median(thaws), "ms")
    out("gc.thaw_over_count_pause", statistics.median(thaws) / max(statistics.median(pauses),
                                                                      0.001), "x")
    assert held


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args(argv)

    def out(name: str, value: float, unit: str) -> None:
        print(f"{name} {value:.3f} {unit}", flush=True)

    run(out, args.games, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
