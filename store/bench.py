"""Store benchmarks: ``python -m store.bench`` prints ``NAME VALUE UNIT`` lines (medians).

* store.open_live_10k_ms   Store.open + live_games() on a file with 10,000 games (200 live,
                           the rest finished), each with a ~4 KB state; median of 5 opens.
* store.decode_live_ms     decoding those 200 live rows (GameRow.decoded) once loaded.
* store.record_action_ms   one record_action (~4 KB state) on a 200-game file database,
                           synchronous=FULL (an fsync per commit); median of 300.
* store.record_action_mem_ms  the same on ":memory:": the cost without the disk.
* bench_load (reported by bench/run.py as host.commits_per_s and
  host.player_p99_ms_1000_ai_games): 1,000 live games, 999 of them writing as fast as the
  store lets them (AI seats, no delay) and one human acting every 50 ms.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from store import Store


def fake_state(rnd: random.Random, size: int = 4000) -> dict:
    """A JSON object about `size` bytes long, shaped like a game state (flat int lists)."""
    state = {"phase": 3, "stage": "move", "rng": rnd.getrandbits(63), "players": []}
    while len(json.dumps(state)) < size:
        state["players"].append({"dinos": [rnd.randrange(60) for _ in range(24)],
                                 "genes": [rnd.randrange(5) for _ in range(8)], "mp": 12})
    return state


async def populate(path: Path, games: int, live: int, rnd: random.Random) -> list[int]:
    async with Store.open(path):
        pass  # schema
    con = sqlite3.connect(path)
    now = time.time()
    with con:
        for i in range(games):
            status = ("lobby" if i % 2 else "active") if i >= games - live else "finished"
            state = None if status == "lobby" else json.dumps(fake_state(rnd))
            con.execute(
                "INSERT INTO games (guild_id, channel_id, kind, status, options, lobby, state, "
                "seq, created_at, updated_at) VALUES (?, ?, 'evo', ?, '{}', ?, ?, ?, ?, ?)",
                ("1", str(10**17 + i), status, json.dumps({"seats": ["a", "b", "c"]}), state,
                 0 if state is None else 150, now, now))
            if status == "finished":
                con.executemany(
                    "INSERT INTO results VALUES (last_insert_rowid(), ?, ?, ?, ?, ?, 'evo', ?)",
                    [(str(rnd.randrange(500)), s, f"P{s}", s + 1, 20 - s, now) for s in range(3)])
    ids = [r[0] for r in con.execute(
        "SELECT id FROM games WHERE status IN ('lobby', 'active') ORDER BY id")]
    con.close()
    return ids


async def bench_open(out, folder: Path) -> None:
    path = folder / "big.sqlite3"
    await populate(path, 10_000, 200, random.Random(1))
    times, decode_times = [], []
    for _ in range(5):
        t0 = time.perf_counter()
        store = await Store.open(path)
        rows = await store.live_games()
        times.append((time.perf_counter() - t0) * 1000)
        assert len(rows) == 200
        t0 = time.perf_counter()
        for row in rows:
            row.decoded()
        decode_times.append((time.perf_counter() - t0) * 1000)
        await store.close()
    out("store.open_live_10k_ms", statistics.median(times), "ms")
    out("store.decode_live_ms", statistics.median(decode_times), "ms")
    out("store.file_10k_mb", path.stat().st_size / 1e6, "MB")


async def bench_record(out, name: str, path: Path | str, repeats: int = 300) -> None:
    rnd = random.Random(2)
    async with Store.open(path) as store:
        ids = []
        for i in range(200):
            gid = await store.create_game("1", str(i), "evo", {}, {"seats": []}, 0.0)
            await store.start_game(gid, fake_state(rnd), 0.0)
            ids.append(gid)
        seqs = dict.fromkeys(ids, 0)
        states = [fake_state(rnd) for _ in range(10)]
        times = []
        for n in range(repeats):
            gid = ids[n % len(ids)]
            t0 = time.perf_counter()
            seqs[gid] = await store.record_action(
                gid, seqs[gid], "123456789012345678", {"type": "move", "to": n % 40},
                states[n % 10], float(n))
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    out(name, statistics.median(times), "ms")
    out(name + "_p90", times[int(len(times) * 0.9)], "ms")


async def bench_load(out, path: Path, games: int = 1000, seconds: float = 4.0,
                     human_every: float = 0.05) -> dict:
    """Many live games writing as fast as the store takes them (AI seats with no delay), and
    one human acting every ``human_every`` s: commits per second overall, and the human's
    write latency (median, p99)."""
    rnd = random.Random(3)
    state = fake_state(rnd, 3000)
    async with Store.open(path) as store:
        ids = []
        for i in range(games):
            gid = await store.create_game("1", str(i), "evo", {}, {"seats": []}, 0.0)
            await store.start_game(gid, state, 0.0)
            ids.append(gid)
        seqs = dict.fromkeys(ids, 0)
        stop = time.perf_counter() + seconds
        commits = 0
        human: list[float] = []

        async def ai_game(gid: int) -> None:
            nonlocal commits
            while time.perf_counter() < stop:
                seqs[gid] = await store.record_action(gid, seqs[gid], "ai:1", {"type": "end"},
                                                      state, 1.0)
                commits += 1

        async def player(gid: int) -> None:
            nonlocal commits
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                seqs[gid] = await store.record_action(gid, seqs[gid], "12345", {"type": "end"},
                                                      state, 1.0, urgent=True)
                human.append((time.perf_counter() - t0) * 1000)
                commits += 1
                await asyncio.sleep(human_every)

        t0 = time.perf_counter()
        await asyncio.gather(*(ai_game(g) for g in ids[1:]), player(ids[0]))
        elapsed = time.perf_counter() - t0
    human.sort()
    return {"commits_per_s": commits / elapsed, "player_p50_ms": statistics.median(human),
            "player_p99_ms": human[min(len(human) - 1, int(len(human) * 0.99))]}


async def main(argv: list[str]) -> None:
    def out(name: str, value: float, unit: str) -> None:
        print(f"{name} {value:.3f} {unit}", flush=True)

    base = Path(argv[0]) if argv else None
    with tempfile.TemporaryDirectory(dir=base) as folder:
        await bench_open(out, Path(folder))
        await bench_record(out, "store.record_action_ms", Path(folder) / "small.sqlite3")
    await bench_record(out, "store.record_action_mem_ms", ":memory:")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
