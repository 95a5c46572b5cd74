"""The garbage collector's settings for a bot process: the one place they are chosen.

A full collection walks every tracked object that is not frozen, while the event loop (and
every answer) waits. These things make those passes long in a bot with many live games
(issue 25), and each has its lever here:

* **What lives as long as the process** (modules, catalogues, the engine's data, the
  resumed games; then the gateway's guilds, channels and members): frozen, so full passes
  skip it. ``DarwinBot.setup_hook`` freezes what start-up built (``freeze_after_start``);
  :func:`install` freezes once more when the gateway is ready (the guild cache arrives after
  ``setup_hook``), after one collection so that no garbage is frozen with it.
* **Short-lived cyclic garbage promoted into the old generation**: an interaction (with its
  response object, parsed message, member, task and context), the view discord.py draws of a
  pressed message (emptied by ``cogs.components.Component.callback``), a commit's coroutines
  live for the tens of milliseconds a store commit or a REST call takes; a young collection
  that catches them alive promotes them, and they are then freed by the next collection of
  an older generation, all at once: freeing cyclic garbage costs some microseconds an
  object, far more than walking a live one. The middle generation is collected every second
  young collection (:data:`THRESHOLDS`), so each collection frees a few thousand objects at
  most, and few reach the old generation (full passes rarer and shorter).

Measured (``bench/load.py --games 200 --guilds 100 --seconds 40 --kinds all``, SQLite, one
process, 2 cores shared at load 5-6; ``load.gc_max_pause_cpu_ms``, the collecting thread's
CPU, from the gateway's ready on): CPython's default ``700,10,10``: 155 ms (full passes of
11,000 garbage objects; 4.6 s of GC in all); ``50000,20,20``: 116 ms (a young collection
freeing 23,000); ``20000,2,20``: 99 ms; ``5000,20,20``: 106 ms (a middle one freeing 31,000);
``5000,2,20``: **31 ms** (no full pass in the run; 2.1 s in all). ``DARWIN_GC_THRESHOLDS=
"a,b,c"`` overrides them (measurements).

* **What a game keeps while it lives** (its new state after every move, its lobby, its
  table's lines, view and editors): every :data:`TICK_SECONDS` the young and middle
  generations are collected and what survives is frozen (:func:`collect_and_freeze`), so the
  old generation stays empty and no automatic full pass walks it. A collection's pause is
  then that of the objects allocated since the last tick. Counting is not enough here:
  CPython starts a young collection when allocations minus deallocations pass the threshold,
  and a move allocates a new state while it frees the old one, so the young generation grew
  by a whole state a move without the count moving (at 2,000 live games young collections
  of 36-96 ms CPU, middle ones 84-122 ms). Measured at 2,000 live games of the four games
  (``bench/load.py --guilds 1000 --games 2000 --rate 50 --seconds 300 --kinds all``,
  SQLite, one process): collecting and freezing the old generation once it held 12,000
  objects (checked every second) left passes of 109-126 ms CPU (the old generation grew by
  up to 90,000 objects between two checks, nearly all alive); with the tick the longest
  pause is **10 ms** CPU and no full pass runs. What is frozen is what was alive at a tick;
  the part of it that later dies in a cycle is never freed by a collection (see below), so
  such cycles are broken where they are made. ``DARWIN_GC_TICK_SECONDS=0`` turns it off
  (measurements).
* **What was frozen and then died in a cycle** is never freed by a full pass. Interactions
  were most of it (each with its message, member, data and handler task, kept alive for
  seconds by the tasks its handler started): a thaw after 240 s of 2,000 Cubosaurs games
  freed 149,896 objects. Their cycles are now broken once handled (``cogs/common.py``
  ``let_go``, ``ops/interactions.py``), and a thaw after 100 s of 1,000 games frees 1,815
  objects instead of 54,019. With the tick (above) more is frozen young, and a thaw after
  100 s of 1,000 games of the four games freed 1,882: each image sent (its buffer, with the
  PNG, in a cycle made by discord.py's ``File.close``: ``cogs.common.Picture`` breaks it;
  RSS per 1,000 games 128 -> 44 MB) and the command models a sync returns at start-up
  (collected before start-up's freeze now). After both: **none**. Every
  :data:`THAW_SECONDS` (an hour; ``DARWIN_GC_THAW_SECONDS``, 0: never) a forked copy of the
  process counts that garbage (:func:`frozen_garbage`: a full pass in the copy; the bot
  pauses only for the fork, a few ms, not for the pass, 343 ms CPU over 342,293 objects at
  2,000 live games of the four games), and only if it is at least :data:`THAW_GARBAGE` of
  the frozen objects (a leak) does :func:`thaw` unfreeze everything, collect and freeze again
  in the bot itself. A bot that merely grows never pauses for it (it did: the thaw ran
  whenever the frozen objects had grown by a quarter, freeing nothing). Where there is no
  fork (Windows), that older rule stands (:func:`grown_since`). The copy's pass writes to
  every object's header, so for the fraction of a second it lasts the copy's memory grows
  towards the bot's resident size (copy on write), and it is gone when the copy exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import time

log = logging.getLogger("darwin.ops")

# (young, middle, old): allocations before a young collection; young collections before a
# middle one; middle collections before a full one is considered (CPython also waits until
# the objects promoted since the last full pass are a quarter of the old generation)
THRESHOLDS = (5_000, 2, 20)


def thresholds() -> tuple[int, int, int]:
    raw = os.environ.get("DARWIN_GC_THRESHOLDS", "")
    if raw:
        try:
            a, b, c = (int(x) for x in raw.split(","))
            return a, b, c
        except ValueError:
            log.warning("DARWIN_GC_THRESHOLDS=%r is not three integers: ignored", raw)
    return THRESHOLDS


def tune() -> None:
    """The collector's thresholds for a bot process (not for tests: they make many bots)."""
    gc.set_threshold(*thresholds())


def freeze() -> None:
    """Collect, then freeze every object alive now: full passes skip them from now on."""
    gc.collect()
    gc.freeze()


# every this many seconds the young and middle generations are collected and what survives
# is frozen (:func:`collect_and_freeze`, :func:`keep_frozen`)
TICK_SECONDS = float(os.environ.get("DARWIN_GC_TICK_SECONDS", "0.1"))  # 0: never
# every this many seconds the frozen garbage is counted in a forked copy (frozen_garbage);
# if it is THAW_GARBAGE of the frozen objects, everything frozen is unfrozen, collected and
# frozen again (thaw). Without fork: if the frozen objects grew by THAW_GROWTH (grown_since)
THAW_SECONDS = float(os.environ.get("DARWIN_GC_THAW_SECONDS", "3600"))
THAW_GARBAGE = 0.05
THAW_GROWTH = 0.25
# how long the copy may count before it is killed (and nothing is thawed)
PROBE_TIMEOUT = 60.0


def old_generation() -> int:
    """How many objects the old generation holds now (frozen ones are not in it)."""
    return len(gc.get_objects(2))


def collect_and_freeze() -> None:
    """Collect the young and middle generations, then freeze what survived (and whatever the
    old generation holds): a pass over what was allocated since the last call, and nothing
    is left for a full pass to walk."""
    gc.collect(1)
    gc.freeze()


# the thaws of this process and the objects they freed (darwin_gc_thaws_total...); the
# counts of frozen garbage and what the last one found (darwin_gc_frozen_garbage...)
THAWED = {"thaws": 0, "freed": 0, "probes": 0, "garbage": 0}
# the last count's fork and answer, in ms (bench/gc_bench.py)
LAST_COUNT = {"fork_ms": 0.0, "ms": 0.0}


def thaw() -> int:
    """Unfreeze everything, collect, freeze what is still alive: the frozen objects that
    died in a cycle since are freed (a full pass over every object). How many were freed."""
    gc.unfreeze()
    freed = gc.collect()
    gc.freeze()
    THAWED["thaws"] += 1
    THAWED["freed"] += freed
    return freed


def grown_since(frozen: int) -> bool:
    """The frozen objects have grown by :data:`THAW_GROWTH` since there were ``frozen``: more
    live games, or frozen objects that died in a cycle (only a thaw frees those)."""
    return gc.get_freeze_count() > frozen * (1 + THAW_GROWTH)


async def frozen_garbage(timeout: float = PROBE_TIMEOUT) -> int | None:
    """How many frozen objects are garbage (they died in a cycle after they were frozen),
    counted by a full pass in a forked copy of this process, which then exits: this process
    pauses for the fork only (copying its page tables), and its own objects are untouched.
    None where there is no fork, or if the copy did not answer within ``timeout`` seconds
    (it is killed)."""
    if not hasattr(os, "fork"):
        return None
    loop = asyncio.get_running_loop()
    read, write = os.pipe()
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the copy: count, answer and exit, running nothing else of the bot's
        try:
            os.close(read)
            with contextlib.suppress(ValueError):  # (only the main thread may)
                signal.set_wakeup_fd(-1)  # a signal here must not reach the bot's loop
                signal.signal(signal.SIGINT, signal.SIG_IGN)
            os.write(write, str(_count_garbage()).encode())
        finally:
            os._exit(0)
    forked = time.perf_counter() - started
    os.close(write)
    answer = loop.create_future()

    def readable() -> None:
        if not answer.done():
            answer.set_result(os.read(read, 32))

    loop.add_reader(read, readable)
    try:
        data = await asyncio.wait_for(answer, timeout)
        LAST_COUNT.update(fork_ms=forked * 1000, ms=(time.perf_counter() - started) * 1000)
        log.info("gc: %s frozen objects of %d dead in cycles (counted in a copy: the fork "
                 "took %.1f ms, the count %.0f ms)", data.decode() or "?",
                 gc.get_freeze_count(), LAST_COUNT["fork_ms"], LAST_COUNT["ms"])
        return int(data) if data else None
    except TimeoutError:
        log.warning("gc: the copy counting frozen garbage did not answer in %.0f s", timeout)
        return None
    finally:
        loop.remove_reader(read)
        os.close(read)
        if not (answer.done() and not answer.cancelled() and answer.result()):
            _kill(pid)  # no answer (timed out, cancelled): the copy is stopped
        _reap(loop, pid)


def _count_garbage() -> int:
    gc.unfreeze()
    return gc.collect()


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _reap(loop: asyncio.AbstractEventLoop, pid: int, tries: int = 200) -> None:
    """Collect the copy's exit status once it has exited, looking every 50 ms without
    blocking the loop; after ``tries`` looks it is killed."""
    try:
        if os.waitpid(pid, os.WNOHANG)[0]:
            return
        if tries <= 0:
            _kill(pid)
            os.waitpid(pid, 0)
            return
    except ChildProcessError:
        return
    loop.call_later(0.05, _reap, loop, pid, tries - 1)


def worth_thawing(garbage: int | None, frozen: int) -> bool:
    """A thaw is worth its full pass: the copy found :data:`THAW_GARBAGE` of the frozen
    objects dead (a leak), or, without a count, the frozen objects grew (grown_since)."""
    if garbage is None:
        return grown_since(frozen)
    return garbage > 0 and garbage >= THAW_GARBAGE * gc.get_freeze_count()


async def keep_frozen(period: float = TICK_SECONDS, thaw_every: float = THAW_SECONDS) -> None:
    """Every ``period`` seconds: :func:`collect_and_freeze`; every ``thaw_every`` seconds
    worth of ticks (0: never), the frozen garbage counted in a copy (:func:`frozen_garbage`),
    and, if a thaw is worth it (:func:`worth_thawing`), :func:`thaw` at the next tick instead
    (counted in ticks: a busy loop only makes it later). A bot without a leak never pauses
    for a thaw."""
    ticks_per_thaw = max(1, round(thaw_every / period)) if thaw_every else 0
    ticks = 0
    frozen = gc.get_freeze_count()
    counting: asyncio.Task | None = None
    while True:
        await asyncio.sleep(period)
        ticks += 1
        due = False
        if counting is not None and counting.done():
            garbage = None if counting.cancelled() or counting.exception() else counting.result()
            counting = None
            THAWED["probes"] += 1
            THAWED["garbage"] = garbage or 0
            due = worth_thawing(garbage, frozen)
        if ticks_per_thaw and ticks % ticks_per_thaw == 0 and counting is None:
            counting = asyncio.get_running_loop().create_task(frozen_garbage())
        if due:
            started = time.perf_counter()
            freed = thaw()
            frozen = gc.get_freeze_count()
            log.info("gc: thawed, %d objects freed, %d frozen, %.0f ms", freed, frozen,
                     (time.perf_counter() - started) * 1000)
        else:
            collect_and_freeze()


def install(bot) -> None:
    """A real bot process (bot.py, the load run's launcher): the thresholds now, and one
    freeze once the gateway is ready (its guild cache is built by then). A stand-in bot
    without listeners (tests of bot.py) changes nothing."""
    if not hasattr(bot, "add_listener"):
        return
    tune()
    frozen = False
    tasks: set = set()

    async def on_ready() -> None:
        nonlocal frozen
        if not frozen:
            frozen = True
            freeze()
            log.info("gc: %d objects frozen once ready", gc.get_freeze_count())
            if TICK_SECONDS:
                task = asyncio.get_running_loop().create_task(keep_frozen())
                tasks.add(task)  # kept: a task nobody refers to may be collected

    bot.add_listener(on_ready, "on_ready")
