"""Run the unmodified Darwin bot against a fake Discord (one OS process).

    python -m fakediscord.launcher --api http://127.0.0.1:PORT/api/v10 \\
        --gateway ws://127.0.0.1:PORT/gateway/ --config CONFIG.json

The configuration is Darwin's (the dict ``bot.load_config`` makes); the launcher only points
discord.py's REST base (``discord.http.Route.BASE``) and gateway
(``DiscordWebSocket.DEFAULT_GATEWAY``) at the fake and runs ``cogs.bot.DarwinBot`` with the
token ``fake``. Shards: ``[discord] shard_count`` and ``shard_ids`` are in the configuration
and in ``DARWIN_SHARD_COUNT``/``DARWIN_SHARD_IDS``; a bot that is not an
``AutoShardedClient`` yet is given its one shard here (two attributes), and refuses several.
The database: ``[storage] database_url`` / ``DATABASE_URL`` when it is PostgreSQL. SIGTERM
closes the bot cleanly (timers stopped, the table's writes drained, the store closed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def apply_environment(config: dict) -> None:
    """The interfaces being built elsewhere read these variables: set them from the config."""
    discord_cfg = config.get("discord", {})
    if discord_cfg.get("shard_count") is not None:
        os.environ["DARWIN_SHARD_COUNT"] = str(discord_cfg["shard_count"])
    if discord_cfg.get("shard_ids") is not None:
        os.environ["DARWIN_SHARD_IDS"] = ",".join(str(i) for i in discord_cfg["shard_ids"])
    url = config.get("storage", {}).get("database_url")
    if url:
        os.environ["DATABASE_URL"] = url


def point_at(api: str, gateway: str) -> None:
    import discord.http
    import yarl
    from discord.gateway import DiscordWebSocket

    discord.http.Route.BASE = api.rstrip("/")
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def adapt_shards(bot, config: dict) -> None:
    """A bot that is not auto-sharded yet runs one given shard (or all, when unsharded)."""
    import discord

    count = config.get("discord", {}).get("shard_count")
    ids = config.get("discord", {}).get("shard_ids")
    if count is None or isinstance(bot, discord.AutoShardedClient):
        return
    ids = list(ids if ids is not None else range(int(count)))
    if len(ids) != 1:
        raise SystemExit(f"DarwinBot is not an AutoShardedBot here: one shard per process, "
                         f"not {ids} (use --processes equal to --shards)")
    bot.shard_id, bot.shard_count = ids[0], int(count)
    bot._connection.shard_count = int(count)


def watch_gc() -> None:
    """Log every garbage collection of 20 ms or more (generation, time, objects collected)."""
    import gc
    import time

    log = logging.getLogger("fakediscord.diagnose")
    started: dict[int, float] = {}

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            started[info["generation"]] = time.perf_counter()
            return
        ms = (time.perf_counter() - started.pop(info["generation"], time.perf_counter())) * 1000
        if ms >= 20:
            log.warning("gc generation %d: %.0f ms (%d collected)", info["generation"], ms,
                        info["collected"])

    gc.callbacks.append(callback)


class GcPauses:
    """Every garbage collection's pause, timed with ``gc.callbacks`` (the longest, by
    generation, and how many), written as JSON at exit: ``bench/load.py``'s
    ``load.gc_max_pause_ms``. Counted from the gateway's ready on (:meth:`mark_ready`: no
    interaction arrives before); start-up's longest pause is reported apart."""

    def __init__(self) -> None:
        import gc
        import time

        self.clock = time.perf_counter
        self.cpu = time.thread_time  # the collecting thread's CPU: what a busy machine adds
        self.started = self.cpu_started = 0.0  # to the wall-clock pause is not the GC's
        self.max_ms = [0.0, 0.0, 0.0]
        self.max_cpu_ms = [0.0, 0.0, 0.0]
        self.count = [0, 0, 0]
        self.total_ms = 0.0
        self.startup_max_ms = self.startup_max_cpu_ms = float("nan")
        self.ready_at: float | None = None
        self.worst: dict = {}  # the longest CPU pause since ready: its generation and moment
        gc.callbacks.append(self.callback)

    def mark_ready(self) -> None:
        if self.ready_at is not None:
            return
        self.ready_at = self.clock()
        self.startup_max_ms, self.startup_max_cpu_ms = max(self.max_ms), max(self.max_cpu_ms)
        self.max_ms, self.max_cpu_ms, self.count = [0.0] * 3, [0.0] * 3, [0, 0, 0]
        self.total_ms = 0.0

    def callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.started = self.clock()
            self.cpu_started = self.cpu()
            return
        ms = (self.clock() - self.started) * 1000
        gen = info["generation"]
        cpu_ms = (self.cpu() - self.cpu_started) * 1000
        if cpu_ms > max(self.max_cpu_ms) and self.ready_at is not None:
            import gc
            import threading

            self.worst = {"generation": gen, "cpu_ms": cpu_ms, "ms": ms,
                          "collected": info["collected"],
                          "after_ready_s": round(self.clock() - self.ready_at, 1),
                          # what that pass walked and kept: the objects of its generation
                          # alive after it (none frozen), and what stays frozen
                          "survivors": len(gc.get_objects(gen)),
                          "frozen": gc.get_freeze_count(),
                          "thread": threading.current_thread().name}
        self.max_cpu_ms[gen] = max(self.max_cpu_ms[gen], cpu_ms)
        self.count[gen] += 1
        self.total_ms += ms
        self.max_ms[gen] = max(self.max_ms[gen], ms)

    def write(self, path: Path) -> None:
        from ops import memory  # the thaws and the last count of frozen garbage

        path.write_text(json.dumps({"max_ms": max(self.max_ms), "max_ms_by_gen": self.max_ms,
                                    "max_cpu_ms": max(self.max_cpu_ms),
                                    "max_cpu_ms_by_gen": self.max_cpu_ms,
                                    "count_by_gen": self.count, "total_ms": self.total_ms,
                                    "startup_max_ms": self.startup_max_ms,
                                    "startup_max_cpu_ms": self.startup_max_cpu_ms,
                                    "worst": self.worst, "thaws": memory.THAWED,
                                    "last_count": memory.LAST_COUNT}))


def heap_report(log) -> None:
    """What a full garbage collection walks (the tracked objects not frozen): how many, of
    which types, the largest containers, and a full pass's CPU time now."""
    import collections
    import gc
    import time

    objects = gc.get_objects()
    kinds = collections.Counter(type(o).__name__ for o in objects).most_common(12)
    sizes = sorted(((len(o), type(o).__name__,
                     type(next(iter(o), None)).__name__ if o else "-")
                    for o in objects if isinstance(o, (list, dict, set, tuple))),
                   reverse=True)[:8]
    count = len(objects)
    del objects
    cpu = time.thread_time()
    gc.collect()
    log.warning("heap: %d tracked (%d frozen), a full pass %.1f ms CPU; most: %s; largest: %s",
                count, gc.get_freeze_count(), (time.thread_time() - cpu) * 1000, kinds, sizes)
    if gc.get_debug() & gc.DEBUG_SAVEALL:  # the cyclic garbage since the last report
        garbage = collections.Counter(type(o).__qualname__ for o in gc.garbage)
        log.warning("cyclic garbage: %d objects; most: %s", len(gc.garbage),
                    garbage.most_common(25))
        names = collections.Counter(o.cr_code.co_qualname for o in gc.garbage
                                    if type(o).__name__ == "coroutine")
        log.warning("garbage coroutines: %s", names.most_common(12))
        gc.garbage.clear()


async def watch_loop(period: float = 0.05, threshold: float = 0.1) -> None:
    """Log every moment the event loop was late by ``threshold`` seconds or more (and every
    15 s, what a full garbage collection walks: :func:`heap_report`)."""
    import gc
    import os

    log = logging.getLogger("fakediscord.diagnose")
    loop = asyncio.get_running_loop()
    report_at = loop.time() + 15.0
    if os.environ.get("DARWIN_GC_SAVEALL"):  # keep the cyclic garbage to count it (memory!)
        gc.set_debug(gc.DEBUG_SAVEALL)
    while True:
        if loop.time() >= report_at:
            report_at = loop.time() + 15.0
            heap_report(log)
        before = loop.time()
        await asyncio.sleep(period)
        late = loop.time() - before - period
        if late >= threshold:
            log.warning("event loop stalled %.0f ms", late * 1000)


async def run(config: dict, diagnose: bool = False, pauses: GcPauses | None = None) -> None:
    from cogs.bot import DarwinBot
    from cogs.common import draw_in_process

    watcher = asyncio.create_task(watch_loop()) if diagnose else None

    from ops import memory

    bot = DarwinBot(config)
    bot.freeze_after_start = True  # as bot.py runs it
    memory.install(bot)
    draw_in_process(bot)
    if pauses is not None:
        async def ready() -> None:
            pauses.mark_ready()

        bot.add_listener(ready, "on_ready")
    adapt_shards(bot, config)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    async with bot:
        runner = asyncio.create_task(bot.start("fake"))
        stopper = asyncio.create_task(stopping.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            runner.result()  # a failure to start is the process's failure
        await bot.close()
        runner.cancel()
        if watcher is not None:
            watcher.cancel()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api", required=True, help="the fake's REST base (…/api/v10)")
    parser.add_argument("--gateway", required=True, help="the fake's gateway (ws://…)")
    parser.add_argument("--config", required=True, type=Path, help="the bot's config (JSON)")
    parser.add_argument("--log-level", default="WARNING")
    parser.add_argument("--diagnose", action="store_true",
                        help="log garbage collections of 20 ms or more and event-loop stalls")
    parser.add_argument("--gc-report", type=Path,
                        help="write every GC pause's figures (JSON) there at exit")
    args = parser.parse_args(argv)
    for url in (args.api, args.gateway):
        host = url.split("//", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
        if host not in ("127.0.0.1", "localhost", "[::1]"):
            print(f"refusing a non-loopback address: {url}", file=sys.stderr)
            return 2
    sys.path.insert(0, str(ROOT))
    config = json.loads(args.config.read_text())
    apply_environment(config)
    logging.basicConfig(level=args.log_level, stream=sys.stderr,
                        format="%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.http").setLevel(logging.ERROR)  # 429s: the fake counts them
    logging.getLogger("discord.webhook.async_").setLevel(logging.ERROR)
    point_at(args.api, args.gateway)
    if args.diagnose:
        watch_gc()
    pauses = GcPauses() if args.gc_report else None
    try:
        asyncio.run(run(config, args.diagnose, pauses))
    finally:
        if pauses is not None:
            pauses.write(args.gc_report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
