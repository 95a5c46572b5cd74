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


def install(bot) -> None:
    """A real bot process (bot.py, the load run's launcher): the thresholds now, and one
    freeze once the gateway is ready (its guild cache is built by then). A stand-in bot
    without listeners (tests of bot.py) changes nothing."""
    if not hasattr(bot, "add_listener"):
        return
    tune()
    frozen = False

    async def on_ready() -> None:
        nonlocal frozen
        if not frozen:
            frozen = True
            freeze()
            log.info("gc: %d objects frozen once ready", gc.get_freeze_count())

    bot.add_listener(on_ready, "on_ready")
