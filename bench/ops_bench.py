"""Operations figures (issue 24): the graceful stop and the cost of the metrics.

    python bench/run.py ops          (or python bench/ops_bench.py [--runs N])

* ``ops.stop_s`` (median, and ``ops.stop_max_s``): ``python bot.py`` itself against the fake
  Discord over sockets (fakediscord/botpy.py), 50 live Cubosaurs games (a fake person and an
  AI seat each, AI delay 0) played at 60 interactions per second, SIGTERM once every game has
  started and play is under way (moves committing, table edits queued behind the pacer):
  the seconds from SIGTERM to the process's exit. Each run checks exit status 0, no -wal
  file, every acknowledged move stored. ``ops.stop_writers`` is the median number of
  channels whose table writer was still busy when the stop began (the bot's log).
* ``ops.metrics_us_per_interaction``: what the metrics add to one handled interaction, on
  its event loop: its record (begin, attach, first answer, end: a counter and two
  histograms), one commit timed and two REST calls counted (the answer and a table edit),
  measured as the difference between handler tasks that do it and handler tasks that do not
  (median of 9 rounds of 5,000).
* ``ops.interaction_ms``: a handled interaction's time in the same runs, from its arrival to
  the end of its handler (the bot's own ``darwin_interaction_seconds``: sum / count, commands
  and presses, the commit's fsync and the answer's request included), and
  ``ops.cpu_ms_per_interaction``: the bot's CPU time per interaction over the run (table
  edits, images and AI moves included).
* ``ops.metrics_share_of_interaction_pct`` = metrics / interaction time, and
  ``ops.metrics_share_of_cpu_pct`` = metrics / CPU per interaction (the bound is 2 %).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = 50


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _scrape(port: int) -> str:
    import aiohttp

    async with aiohttp.ClientSession() as http, \
            http.get(f"http://127.0.0.1:{port}/metrics") as r:
        return await r.text()


def _sum_samples(text: str, name: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            total += float(line.rsplit(" ", 1)[1])
    return total


async def stop_run(seed: int, workdir: Path) -> dict:
    """One run: 50 games under way, SIGTERM, the figures."""
    from fakediscord import FakeDiscord
    from fakediscord.botpy import start_bot_py, write_config
    from fakediscord.driver import Driver, LoadConfig, check_store, cpu_seconds

    class Players(Driver):
        async def step(self, table):
            saved = (table.stage, table.ais_added, table.seq_done, table.game_id, table.menu)
            try:
                return await super().step(table)
            except RuntimeError:  # the bot's socket is gone: it is stopping
                (table.stage, table.ais_added, table.seq_done, table.game_id,
                 table.menu) = saved
                return None

    cfg = LoadConfig(guilds=10, games=GAMES, shards=1, processes=1, db="sqlite", rate=60.0,
                     seed=seed, rate_limit_share=0.02, workdir=workdir)
    fake = FakeDiscord(shard_count=1, rate_limit_share=cfg.rate_limit_share, retry_after=0.05,
                       seed=seed, lifetime=600.0)
    await fake.start()
    driver = Players(fake, cfg)
    driver.build()
    port = free_port()
    database = workdir / "darwin.sqlite3"
    config = write_config(workdir / "config.toml", database, health_port=port)
    proc = start_bot_py(fake, config, workdir)
    try:
        await fake.wait_shards(1, timeout=120.0)
        await asyncio.wait_for(fake.commands_synced.wait(), 60.0)
        play = asyncio.create_task(driver.play(300.0))
        deadline = time.monotonic() + 120.0
        while driver.started < GAMES and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        moves = sum(len(t.moves) for t in driver.tables)
        while sum(len(t.moves) for t in driver.tables) < moves + 60:  # a second of play
            await asyncio.sleep(0.05)
        text = await _scrape(port)
        cpu = cpu_seconds([proc.pid])
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        while proc.poll() is None and time.monotonic() - start < 30.0:
            await asyncio.sleep(0.01)
        seconds = time.monotonic() - start
        await asyncio.sleep(0.2)
        play.cancel()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        await fake.close()
    log = (workdir / "bot.log").read_text()
    assert proc.returncode == 0, log[-2000:]
    assert not Path(f"{database}-wal").exists()
    driver.classify()
    checks = await check_store(driver, cfg)
    assert not checks["lost"] and not checks["not_exact"], checks
    writers = re.search(r"and (\d+) table writers were running", log)
    count = _sum_samples(text, "darwin_interaction_seconds_count")
    return {"stop_s": seconds, "writers": int(writers.group(1)) if writers else -1,
            "started": driver.started,
            "interaction_ms": _sum_samples(text, "darwin_interaction_seconds_sum") / count * 1000,
            "cpu_ms": cpu / count * 1000}


def metrics_cost_us(rounds: int = 9, n: int = 5000) -> float:
    """Metrics work per handled interaction, in microseconds: handler tasks that begin, attach,
    answer and end an interaction's record, time a commit and count two REST calls, minus
    handler tasks that do nothing of it."""
    from ops.interactions import Interactions, attach
    from ops.metrics import Metrics, route_of, status_class

    metrics = Metrics()
    book = Interactions(metrics)
    paths = ("/api/v10/interactions/1456074464952320007/aW50ZXJhY3Rpb24tdG9rZW4/callback",
             "/api/v10/channels/1456074464952320003/messages/1456074464952320011")

    async def handled(i: int) -> None:
        attach(lambda: True)
        start = time.perf_counter()
        metrics.commit("ok", time.perf_counter() - start)
        for path in paths:
            metrics.rest("POST", route_of(path), status_class(200))
        book.answered(i)

    async def bare(i: int) -> None:
        return None

    async def one_round(with_metrics: bool) -> float:
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        for i in range(n):
            if with_metrics:
                token = book.begin(i, 3)
                task = loop.create_task(handled(i))
                book.end(token)
            else:
                task = loop.create_task(bare(i))
            await task
        return (time.perf_counter() - t0) / n * 1e6

    async def run() -> float:
        diffs = []
        for _ in range(rounds):
            diffs.append(await one_round(True) - await one_round(False))
        return statistics.median(diffs)

    return asyncio.run(run())


def run(out, runs: int = 5) -> None:
    results = []
    for seed in range(1, runs + 1):
        with tempfile.TemporaryDirectory() as tmp:
            results.append(asyncio.run(stop_run(seed, Path(tmp))))
    stops = [r["stop_s"] for r in results]
    out("ops.stop_s", statistics.median(stops), "s")
    out("ops.stop_max_s", max(stops), "s")
    out("ops.stop_writers", statistics.median(r["writers"] for r in results), "channels")
    cost = metrics_cost_us()
    interaction = statistics.median(r["interaction_ms"] for r in results)
    cpu = statistics.median(r["cpu_ms"] for r in results)
    out("ops.metrics_us_per_interaction", cost, "us")
    out("ops.interaction_ms", interaction, "ms")
    out("ops.cpu_ms_per_interaction", cpu, "ms")
    out("ops.metrics_share_of_interaction_pct", cost / 1000 / interaction * 100, "%")
    out("ops.metrics_share_of_cpu_pct", cost / 1000 / cpu * 100, "%")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="stop runs (default 5)")
    args = parser.parse_args()
    run(lambda name, value, unit: print(f"{name} {value:.3f} {unit}", flush=True), args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
