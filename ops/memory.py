"""The garbage collector's settings for a bot process: the one place they are chosen.

A full collection walks every tracked object that is not frozen, while the event loop (and
every answer) waits. Two things make those passes long in a bot with many live games
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

* **What a game keeps while it lives** (its state's lists, its lobby, its table's lines,
  view and editors: the old generation grows by the thousands of objects a second while
  games open): every :data:`FREEZE_CHECK_SECONDS`, once the old generation holds
  :data:`FREEZE_AT` objects, one collection and a freeze (:func:`keep_frozen`), so a full
  pass walks at most about that many. What is frozen is what was alive after a collection;
  the part of it that later dies in a cycle is never freed (counted in the RSS per game).
  Measured at 2,000 live games (``bench/load.py --guilds 1000 --games 2000 --rate 50
  --seconds 300``, SQLite, one process, load average 8-9 with the run given priority):
  without it one full pass of 178 ms CPU (36,459 objects freed, 143 s after ready; 421 ms
  in an earlier run), with it at most **34 ms** CPU (27 full passes, ours included), RSS per
  1,000 games 54 -> 58 MB. ``DARWIN_GC_FREEZE_AT=0`` turns it off (measurements). Checked
  every second, not every 5 s: with the four games the old generation held up to 47,000
  objects at a 5 s check (600 live games; that pass 45 ms), and at 2,000 live games the
  longest pass took 127 ms CPU.
* **What was frozen and then died in a cycle** is never freed by a full pass. Interactions
  were most of it (each with its message, member, data and handler task, kept alive for
  seconds by the tasks its handler started): a thaw after 240 s of 2,000 Cubosaurs games
  freed 149,896 objects. Their cycles are now broken once handled (``cogs/common.py``
  ``let_go``, ``ops/interactions.py``), and a thaw after 100 s of 1,000 games frees 1,815
  objects instead of 54,019 (what is left: the views of private answers, command models).
  Every :data:`THAW_SECONDS` (an hour; ``DARWIN_GC_THAW_SECONDS``, 0: never) :func:`thaw`
  unfreezes everything, collects and freezes again: one full pass over every object (the
  longest pause, once an hour), and that garbage is freed.
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


# the old generation's objects not frozen: at this many (checked every FREEZE_CHECK_SECONDS)
# they are collected and frozen (:func:`keep_frozen`)
FREEZE_AT = int(os.environ.get("DARWIN_GC_FREEZE_AT", "12000"))  # 0: never (measurements)
FREEZE_CHECK_SECONDS = 1.0
# every this many seconds, everything frozen is unfrozen, collected and frozen again (thaw)
THAW_SECONDS = float(os.environ.get("DARWIN_GC_THAW_SECONDS", "3600"))


def old_generation() -> int:
    """How many objects the old generation holds now (frozen ones are not in it)."""
    return len(gc.get_objects(2))


def freeze_if_grown(limit: int = FREEZE_AT) -> bool:
    """Collect and freeze once the old generation holds ``limit`` objects: the pause is
    that of a full pass over those only (the frozen ones are skipped), and what is frozen
    is what was alive after it. True when it did."""
    if old_generation() < limit:
        return False
    freeze()
    return True


def thaw() -> int:
    """Unfreeze everything, collect, freeze what is still alive: the frozen objects that
    died in a cycle since are freed (a full pass over every object). How many were freed."""
    gc.unfreeze()
    freed = gc.collect()
    gc.freeze()
    return freed


async def keep_frozen(period: float = FREEZE_CHECK_SECONDS, limit: int = FREEZE_AT,
                      thaw_every: float = THAW_SECONDS) -> None:
    """Every ``period`` seconds: :func:`freeze_if_grown`; every ``thaw_every`` seconds
    worth of checks (0: never) :func:`thaw` instead (counted in checks: a busy loop only
    makes the thaw later)."""
    import asyncio
    import time

    checks_per_thaw = max(1, round(thaw_every / period)) if thaw_every else 0
    checks = 0
    while True:
        await asyncio.sleep(period)
        checks += 1
        if checks_per_thaw and checks % checks_per_thaw == 0:
            started = time.perf_counter()
            freed = thaw()
            log.info("gc: thawed, %d objects freed, %d frozen, %.0f ms", freed,
                     gc.get_freeze_count(), (time.perf_counter() - started) * 1000)
        else:
            freeze_if_grown(limit)


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
            if FREEZE_AT:
                import asyncio

                task = asyncio.get_running_loop().create_task(keep_frozen())
                tasks.add(task)  # kept: a task nobody refers to may be collected

    bot.add_listener(on_ready, "on_ready")
