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
  :data:`THAW_SECONDS` (an hour; ``DARWIN_GC_THAW_SECONDS``, 0: never), if the frozen
  objects have grown by a quarter since the last thaw (a leak, or more live games),
  :func:`thaw` unfreezes everything, collects and freezes again: one full pass over every
  object (about 180 ms at 2,000 live games), and that garbage is freed. A bot that does not
  grow does not pause for it.
"""

from __future__ import annotations

import gc
import logging
import os

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
# every this many seconds, if the frozen objects have grown by THAW_GROWTH since the last
# thaw, everything frozen is unfrozen, collected and frozen again (thaw)
THAW_SECONDS = float(os.environ.get("DARWIN_GC_THAW_SECONDS", "3600"))
THAW_GROWTH = 0.25


def old_generation() -> int:
    """How many objects the old generation holds now (frozen ones are not in it)."""
    return len(gc.get_objects(2))


def collect_and_freeze() -> None:
    """Collect the young and middle generations, then freeze what survived (and whatever the
    old generation holds): a pass over what was allocated since the last call, and nothing
    is left for a full pass to walk."""
    gc.collect(1)
    gc.freeze()


# the thaws of this process and the objects they freed (darwin_gc_thaws_total...)
THAWED = {"thaws": 0, "freed": 0}


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


async def keep_frozen(period: float = TICK_SECONDS, thaw_every: float = THAW_SECONDS) -> None:
    """Every ``period`` seconds: :func:`collect_and_freeze`; every ``thaw_every`` seconds
    worth of ticks (0: never), if the frozen objects have grown since the last thaw
    (:func:`grown_since`), :func:`thaw` instead (counted in ticks: a busy loop only makes
    the thaw later). A bot whose frozen objects do not grow never pauses for a thaw."""
    import asyncio
    import time

    ticks_per_thaw = max(1, round(thaw_every / period)) if thaw_every else 0
    ticks = 0
    frozen = gc.get_freeze_count()
    while True:
        await asyncio.sleep(period)
        ticks += 1
        if ticks_per_thaw and ticks % ticks_per_thaw == 0 and grown_since(frozen):
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
                import asyncio

                task = asyncio.get_running_loop().create_task(keep_frozen())
                tasks.add(task)  # kept: a task nobody refers to may be collected

    bot.add_listener(on_ready, "on_ready")
