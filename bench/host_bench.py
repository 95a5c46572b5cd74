"""Host figures: interaction handler latency under SimCord, and start time with many games.

    python bench/host_bench.py

* ``host.handler_p50_ms`` / ``host.handler_p99_ms``: from a slash command or button reaching
  the cog to its reply being handed to discord.py (SimCord fakes Discord: no network), for a
  mix of EVO actions, with 200 live games in the store. The table message (board images) is
  posted afterwards in a background task and is not part of the reply. The run waits for
  conditions (the setup's 200 posts made, each table's writes made on the virtual clock),
  never for a fixed time: a failure prints ``bench failed: <sentence>`` and exits with
  status 1, the bot closed, and a run that makes no progress for STALL_S seconds is stopped.
* ``host.start_ms``: opening a database of 10,000 games (200 of them live) and loading the
  live ones into a ready host (median of 5).
* ``host.start_ms_100k_live`` / ``host.start_mb_100k_live``: opening a database of 100,000
  live games that wait for people (a 400 MB file), checking it (quick_check, one write) and
  starting the host (the games load when used), median of 3.
* ``host.commits_per_s``, ``host.player_p50_ms_1000_ai_games``, ``.._p99_..``: 1,000 live
  games, 999 of them AI-only committing as fast as the store takes them, one human acting
  every 50 ms: commits per second, and the human's commit latency (store.bench.bench_load;
  medians of three runs).
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LIVE = 200
VERBOSE = False


def _config(tmp: Path) -> dict:
    from tests.conftest import make_config

    # no reminders: the bench's virtual time runs on across 200 tables, and a reminder post
    # (no buttons) would become a channel's last message where the player looks for the table
    return make_config(tmp, nudge_delay=1e9)


class BenchFailed(Exception):
    """A figure could not be measured; the message is the one sentence to print."""


STALL_S = 300.0  # wall seconds without progress (a sample, a table post) before a hard stop


def _watchdog() -> None:
    """(Re-)arm the hard stop: if the run makes no progress for STALL_S seconds, a sentence
    and the stacks are printed and the process exits with status 1, whatever the event loop
    is doing (a thread of ours; faulthandler's own, a minute later, should even that one
    never get the GIL)."""
    global _stop_at
    _stop_at = time.monotonic() + STALL_S
    faulthandler.dump_traceback_later(STALL_S + 60, exit=True)
    if not _stopper.is_alive():
        with contextlib.suppress(RuntimeError):  # started by another thread meanwhile
            _stopper.start()


def _unwatch() -> None:
    global _stop_at
    _stop_at = None
    faulthandler.cancel_dump_traceback_later()


def _stop_when_stalled() -> None:
    while True:
        time.sleep(1.0)
        at = _stop_at
        if at is not None and time.monotonic() > at:
            print(f"bench failed: no progress for {STALL_S:.0f} s (stacks below); stopped",
                  file=sys.stderr, flush=True)
            faulthandler.dump_traceback(all_threads=True)
            os._exit(1)


_stop_at: float | None = None
_stopper = threading.Thread(target=_stop_when_stalled, name="bench-watchdog", daemon=True)


def _pending(bot) -> int:
    """Tables of the bot with a write still to make."""
    return sum(1 for tb in bot.listener.tables.values() if tb.dirty or tb.retired)


async def _posted(env, bot, what: str) -> None:
    """Wait until the table writer has made every write that host calls made outside
    SimCord's bot work (the setup opens games through the host, not by interactions): their
    boards are drawn in worker threads that SimCord neither waits for nor virtualizes, so
    this waits in real time, for as long as the writes keep going out, and fails when none
    has been made for STALL_S seconds."""
    loop = asyncio.get_running_loop()
    left, since = _pending(bot), loop.time()
    while not bot.listener.idle():
        await asyncio.sleep(0.05)
        await env.settle()
        now_left = _pending(bot)
        if now_left < left:
            left, since = now_left, loop.time()
            _watchdog()
        elif loop.time() - since > STALL_S:
            raise BenchFailed(f"the table writer made no write for {STALL_S:.0f} s while "
                              f"{what} ({left} tables waiting)")


async def _flushed(env, bot, what: str) -> None:
    """The table's pending writes made on SimCord's virtual clock (the tests' flush), as a
    bench failure when they are not."""
    from tests.conftest import flush

    try:
        await flush(env)
    except AssertionError:
        raise BenchFailed(f"the table writer never became idle {what} "
                          f"({_pending(bot)} tables waiting)") from None


def _said(result) -> str:
    """What an interaction's user was told (its first answer and followups)."""
    parts = [result.response.content or ""] if result.response is not None else []
    return " ".join(parts + [f.content or "" for f in result.followups])


async def _close(env, bot, ok: bool) -> None:
    """Stop the bot's services without waiting for virtual time nobody will advance: after a
    good run the pending table writes are made first; after a failure they are dropped."""
    try:
        await bot.host.close()
        if ok:
            await _flushed(env, bot, "at the end of the run")
    finally:
        for task in list(bot.listener._tasks):
            task.cancel()
        await bot.stop_services()


async def handler_latency(samples: int = 200, channels_used: int = 16) -> list[float]:
    """The reply time of ``samples`` EVO actions played by three people in turn in
    ``channels_used`` of the LIVE channels. Everything between two actions (AI-free card
    windows, table writes, reminders: none) runs on SimCord's virtual time; a failure is a
    BenchFailed and the bot is closed; a run that stops making progress is stopped hard
    (``_watchdog``)."""
    _watchdog()
    try:
        return await _handler_latency(samples, channels_used)
    finally:
        _unwatch()


async def _handler_latency(samples: int, channels_used: int) -> list[float]:
    import simcord

    from cogs.bot import DarwinBot
    from engine.evo.ai import choose_action
    from tests.conftest import virtual_pacing
    from tests.test_discord import next_asked, perform

    timings: list[float] = []
    tmp = Path(tempfile.mkdtemp())
    bot = DarwinBot(_config(tmp))
    # a single settle (a board drawn in a thread, a group commit) may take long on a loaded
    # machine: SimCord's 5 s would end the run for that alone
    async with simcord.run(bot, settle_timeout=STALL_S) as env:
        ok = False
        try:
            virtual_pacing(env)
            # discord.py loads extensions as fresh modules: time the live cog instance
            cog = bot.get_cog("Evo")
            original_do, original_press = cog._do, cog.press

            async def timed_do(interaction, action):
                t0 = time.perf_counter()
                await original_do(interaction, action)
                timings.append((time.perf_counter() - t0) * 1000)

            async def timed_press(interaction, game_id, seq, action, seat=None):
                t0 = time.perf_counter()
                await original_press(interaction, game_id, seq, action, seat)
                timings.append((time.perf_counter() - t0) * 1000)

            cog._do, cog.press = timed_do, timed_press
            guild = env.create_guild()
            users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
            channels = [guild.create_text_channel(f"t{i}") for i in range(LIVE)]
            host = bot.host
            seeds = iter(range(10**6))

            async def open_game(ch) -> None:
                await host.open_lobby(guild.id, ch.id, "evo", users[0].id, "ann")
                await host.join(ch.id, users[1].id, "bob")
                await host.join(ch.id, users[2].id, "cy")
                await host.start_game(ch.id, users[0].id, False, seed=next(seeds))

            for ch in channels:
                await open_game(ch)
            await _posted(env, bot, f"posting the first tables of {LIVE} games")
            armed = sum(1 for g in host.games.values() if g.timers)
            if armed:  # armed outside bot work, they would fire on the wall clock
                raise BenchFailed(f"{armed} games armed a timer at their start")
            if VERBOSE:
                print("setup done", flush=True)
            timings.clear()
            k = idle_turns = 0
            while len(timings) < samples:
                ch = channels[k % channels_used]
                k += 1
                # what every interaction does first (a game left in the store is loaded)
                game = await host.ensure_loaded(ch.id)
                if game is None:  # it ended: another one takes its channel, once the
                    # channel's pacer has a free slot for its first post (made outside bot
                    # work, that post could not wait on the virtual clock)
                    await env.advance_time(bot.listener.pacer.window)
                    await open_game(ch)
                    await _posted(env, bot, "posting a new game's table")
                    game = await host.ensure_loaded(ch.id)
                seat = await next_asked(env, game)  # a card window the bot passes for: it does
                if seat is None:
                    continue
                await _flushed(env, bot, f"before action {len(timings) + 1}")
                user = next(u for u in users if game.seat_of(u.id) == seat)
                action = choose_action(game.rules, game.state, seat, "fast")
                before, seq, t0 = len(timings), game.seq, time.perf_counter()
                r = await perform(env, ch, user, game, seat, action, k)
                if game.seq == seq:  # timed, but no move: the figure would not be one
                    raise BenchFailed(f"the bot refused the {action['type']} of sample "
                                      f"{len(timings)}: {_said(r)!r}")
                if len(timings) > before:
                    idle_turns = 0
                    _watchdog()
                else:
                    idle_turns += 1
                    if idle_turns > channels_used:
                        raise BenchFailed(f"{idle_turns} actions in a row reached no handler "
                                          f"(the last: {action['type']})")
                if VERBOSE:
                    print(f"{action['type']} {time.perf_counter() - t0:.3f}s", flush=True)
            ok = True
        finally:
            await _close(env, bot, ok)
    return timings


async def _build_db(path: Path, total: int = 10_000, live: int = LIVE) -> None:
    """A database with ``total`` games, ``live`` of them running, written in bulk."""
    from engine import Seat
    from engine.evo import EVO
    from store import Store

    store = await Store.open(str(path))
    await store.close()
    import sqlite3

    state = EVO.new_game([Seat("1", "a"), Seat("2", "b"), Seat("3", "c")], 1)
    state_json = json.dumps(EVO.to_json(state))
    lobby = json.dumps({"creator": "1", "timer": 0, "lang": "en", "messages": {}, "log": [],
                        "min": 3, "max": 5,
                        "seats": [{"id": str(i), "name": n, "ai": False}
                                  for i, n in ((1, "a"), (2, "b"), (3, "c"))]})
    db = sqlite3.connect(path)
    rows = []
    for i in range(total):
        status = "active" if i < live else "finished"
        rows.append(("g", f"c{i}", "evo", status, "{}", lobby, state_json, 0, 0.0, 0.0))
    db.executemany("INSERT INTO games (guild_id, channel_id, kind, status, options, lobby, state,"
                   " seq, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
    db.commit()
    db.close()


async def start_time(runs: int = 5) -> list[float]:
    """Open + host.start on 10,000 games, LIVE of them running and waiting for people: games
    load lazily (when their channel is used), so none is loaded at start."""
    from host import GameHost
    from store import Store

    tmp = Path(tempfile.mkdtemp()) / "big.sqlite3"
    await _build_db(tmp)

    class Quiet:
        async def on_outcome(self, outcome):
            return None

        async def on_game_broken(self, *args):
            return None

    class NoTimers:
        def now(self):
            return time.time()

        def call_later(self, delay, callback):
            class H:
                def cancel(self):
                    pass
            return H()

    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        store = await Store.open(str(tmp))
        host = GameHost(store, clock=NoTimers(), listener=Quiet())
        await host.start()
        out.append((time.perf_counter() - t0) * 1000)
        assert host.games == {} and not host.broken
        assert await host.ensure_loaded("c0") is not None  # and they do load when used
        await host.close()
        await store.close()
    return out


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


async def start_100k_live() -> tuple[float, float]:
    """Start (open + host.start) on 100,000 live games waiting for people: ms and the
    memory it allocated (MB, tracemalloc peak)."""
    import tracemalloc

    from host import GameHost
    from store import Store

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "live.sqlite3"
        await _build_db(path, total=100_000, live=100_000)
        times, peaks = [], []
        for _ in range(3):
            tracemalloc.start()
            t0 = time.perf_counter()
            store = await Store.open(str(path))
            await store.check()  # as the bot does at start (quick_check of the whole file)
            host = GameHost(store)
            await host.start()
            times.append((time.perf_counter() - t0) * 1000)
            peaks.append(tracemalloc.get_traced_memory()[1] / 1e6)
            tracemalloc.stop()
            await host.close()
            await store.close()
    return statistics.median(times), statistics.median(peaks)


def run(out) -> None:
    timings = asyncio.run(handler_latency())
    out("host.handler_p50_ms", statistics.median(timings), "ms")
    out("host.handler_p99_ms", percentile(timings, 0.99), "ms")
    out("host.start_ms", statistics.median(asyncio.run(start_time())), "ms")
    ms, mb = asyncio.run(start_100k_live())
    out("host.start_ms_100k_live", ms, "ms")
    out("host.start_mb_100k_live", mb, "MB")
    import store.db as db
    from store.bench import bench_load

    runs, single = [], []
    for _ in range(3):  # medians over three runs of 4 s (a shared, noisy machine)
        with tempfile.TemporaryDirectory() as folder:
            runs.append(asyncio.run(bench_load(out, Path(folder) / "load.sqlite3")))
        # the same load with one write per transaction (no group commit), in the same run
        batch, db.MAX_BATCH = db.MAX_BATCH, 1
        try:
            with tempfile.TemporaryDirectory() as folder:
                single.append(asyncio.run(bench_load(out, Path(folder) / "load.sqlite3")))
        finally:
            db.MAX_BATCH = batch
    out("host.commits_per_s", statistics.median(r["commits_per_s"] for r in runs), "commits/s")
    out("host.commits_per_s_one_per_fsync",
        statistics.median(r["commits_per_s"] for r in single), "commits/s")
    out("host.group_commit_speedup", statistics.median(
        r["commits_per_s"] / o["commits_per_s"] for r, o in zip(runs, single, strict=True)), "x")
    out("host.player_p50_ms_1000_ai_games",
        statistics.median(r["player_p50_ms"] for r in runs), "ms")
    out("host.player_p99_ms_1000_ai_games",
        statistics.median(r["player_p99_ms"] for r in runs), "ms")


def fail(exc: BaseException) -> None:
    """A benchmark fails loudly and exits, status 1: the sentence (and the traceback of an
    unexpected error); threads a failed run may leave (a database connection) cannot keep
    the process alive."""
    if not isinstance(exc, BenchFailed):
        import traceback

        traceback.print_exception(exc)
    print(f"bench failed: {exc}", file=sys.stderr, flush=True)
    sys.stdout.flush()
    os._exit(1)


if __name__ == "__main__":
    try:
        run(lambda name, value, unit: print(f"{name} {value:.3f} {unit}", flush=True))
    except Exception as exc:  # noqa: BLE001 - any failure ends the run, loudly
        fail(exc)
