"""How fast every registered game's engine is for a searcher (issue 22): per-call CPU time of
the calls a search makes, and a whole random game against a fixed Python loop.

    python bench/engine_speed.py [--runs N] [kind ...]
    python bench/run.py engine        the same figures, as one section of the benchmarks

For every game of ``engine.core.game_kinds()`` (4 players, default options), the positions
of a few seeded random games (random legal actions of the first awaited player, to the end)
are collected once; then, in each of ``runs`` runs, every call is timed over all of them
(CPU time, ``time.process_time``) and divided by the number of calls:

* ``engine.<kind>.view_determinize_us``: ``view(state, p)`` then ``determinize(view, seed)``
  for the awaited player ``p`` (what a searcher does to sample a world);
* ``engine.<kind>.clone_us``: ``state.clone()``;
* ``engine.<kind>.legal_us``: ``legal_actions(state, p)``;
* ``engine.<kind>.apply_us``: ``apply_in_place(state, p, action)`` on a fresh copy of the
  position (the copies are made outside the timing).

``engine.<kind>.game_ratio``: the CPU time of one seeded random game (``new_game`` to the
end, random legal actions; the mean over ``GAMES`` seeds) divided by the CPU time of the
*reference loop*, timed in the same run: 1M steps of ``str(i)`` (``loop_ref``), a figure that
a faster or slower machine leaves about the same. This is the loop issue 22's figures and
goal (<= 0.05 for every game) are measured against: the code as it was when the issue was
filed (d21fccb), measured here with this loop, gives EVO 0.083, Mutations 0.078, Climate
0.098 (the issue: 0.07-0.09, 0.05-0.08, 0.10-0.15), while an empty loop (about 5.8 times
faster) gives 0.49, 0.46, 0.58; among simple bodies (``x += 1`` x1.9, ``x = x + i * i``
x3.5, ``x = (x + i * i) % 1000003`` x5.0, ``str(i)`` x5.8, ``x = (x * 31 + i * i) %
1000003`` x6.4 the empty loop's time) only a loop of about 5.6-6 times the empty one puts
all three old games in the issue's ranges at once. ``engine.<kind>.game_ratio_empty`` is the
same game over a 1M-step empty loop (``loop_empty``: ``for _ in range(1_000_000): pass``),
the figure this script printed as ``game_ratio`` before. ``engine.<kind>.game_ms`` is that
game's CPU time, ``engine.loop_ms`` the reference loop's and ``engine.empty_loop_ms`` the
empty loop's. Every figure is the median over the runs.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Seat, game_kinds, get_game  # noqa: E402

PLAYERS = 4
SEEDS = range(3)  # the games whose positions the per-call figures are timed over
GAMES = range(5)  # the seeded random games of the ratio, in every run
RUNS = 5
SEATS = [Seat(f"s{i}", f"P{i}") for i in range(PLAYERS)]

cpu = time.process_time


def loop_ref() -> None:
    """The reference loop every game's time is divided by (issue 22's figures): 1M steps of
    one int-to-decimal conversion."""
    for i in range(1_000_000):
        str(i)


def loop_empty() -> None:
    """The trivial loop of ``game_ratio_empty``: 1M steps doing nothing."""
    for _ in range(1_000_000):
        pass


def random_game(rules, seed: int, positions: list | None = None) -> int:
    """A game from ``seed`` played in place by random players (the first awaited player, a
    random legal action); ``positions`` (when given) gets ``(copy, player, action)`` of every
    position. Returns the number of actions."""
    state = rules.new_game(SEATS, seed, {})
    rnd = random.Random(seed)
    count = 0
    while not rules.is_over(state):
        p = rules.to_act(state)[0]
        action = rnd.choice(rules.legal_actions(state, p))
        if positions is not None:
            positions.append((state.clone(), p, action))
        rules.apply_in_place(state, p, action)
        count += 1
    return count


def per_call(rules, positions: list) -> dict[str, float]:
    """One run's CPU µs per call of each timed call, over ``positions``."""
    view, determinize, legal = rules.view, rules.determinize, rules.legal_actions
    apply = rules.apply_in_place
    n = len(positions)
    out = {}
    t0 = cpu()
    for i, (state, p, _) in enumerate(positions):
        determinize(view(state, p), i)
    out["view_determinize_us"] = (cpu() - t0) * 1e6 / n
    t0 = cpu()
    for state, _, _ in positions:
        state.clone()
    out["clone_us"] = (cpu() - t0) * 1e6 / n
    t0 = cpu()
    for state, p, _ in positions:
        legal(state, p)
    out["legal_us"] = (cpu() - t0) * 1e6 / n
    fresh = [(state.clone(), p, action) for state, p, action in positions]
    t0 = cpu()
    for state, p, action in fresh:
        apply(state, p, action)
    out["apply_us"] = (cpu() - t0) * 1e6 / n
    return out


def game_ratio(rules) -> dict[str, float]:
    """One run's mean random game ms, reference and empty loop ms, and the game's ratios to
    both loops."""
    t0 = cpu()
    loop_ref()
    ref = cpu() - t0
    t0 = cpu()
    loop_empty()
    empty = cpu() - t0
    t0 = cpu()
    for seed in GAMES:
        random_game(rules, seed)
    game = (cpu() - t0) / len(GAMES)
    return {"game": game * 1000, "ref": ref * 1000, "empty": empty * 1000,
            "ratio": game / ref, "ratio_empty": game / empty}


def run(out, kinds: list[str] | None = None, runs: int = RUNS) -> None:
    """Print every figure through ``out(name, value, unit)`` (bench/run.py's)."""
    loops: dict[str, list[float]] = {"ref": [], "empty": []}
    for kind in kinds or game_kinds():
        rules = get_game(kind)
        positions: list = []
        for seed in SEEDS:
            random_game(rules, seed, positions)
        calls: dict[str, list[float]] = {}
        games: dict[str, list[float]] = {}
        for _ in range(runs):
            for name, value in per_call(rules, positions).items():
                calls.setdefault(name, []).append(value)
            for name, value in game_ratio(rules).items():
                games.setdefault(name, []).append(value)
        loops["ref"] += games["ref"]
        loops["empty"] += games["empty"]
        for name in ("view_determinize_us", "clone_us", "legal_us", "apply_us"):
            out(f"engine.{kind}.{name}", statistics.median(calls[name]), "us")
        out(f"engine.{kind}.game_ms", statistics.median(games["game"]), "ms")
        for name, loop in (("ratio", "the reference loop, 1M str(i)"),
                           ("ratio_empty", "the 1M empty loop")):
            values = games[name]
            out(f"engine.{kind}.game_{name}", statistics.median(values),
                f"x (of {loop}; {runs} runs, {min(values):.3f}-{max(values):.3f})")
    out("engine.loop_ms", statistics.median(loops["ref"]), "ms")
    out("engine.empty_loop_ms", statistics.median(loops["empty"]), "ms")


def main(argv: list[str]) -> int:
    runs = RUNS
    if argv[:1] == ["--runs"]:
        runs = int(argv[1])
        argv = argv[2:]

    def out(name: str, value: float, unit: str) -> None:
        print(f"{name} {value:.3f} {unit}", flush=True)

    run(out, argv or None, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
