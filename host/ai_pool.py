"""Where AI seats think, away from the event loop.

A thread (``asyncio.to_thread``) running pure Python holds the interpreter's lock in turns
with the event loop, so every answer of the bot waits while an AI thinks there (issue 25: the
four games under load, a thread per decision, as boards drawn in threads once did). So when
the pool has workers (``[games] ai_workers``, one per spare core), every decision and hint
goes to a worker process while one is free: the event loop only sends the position and waits
for an action. The pool hardly queues: a quick decision (random, fast, strong: milliseconds)
may wait behind a few others (:data:`QUICK_DEPTH` per worker) but never behind a search, else
it thinks in a thread as before; a searching level (``expert``: IS-MCTS, about a
second of CPU per decision) plays the quick level (:data:`FALLBACK`) this time, so a crowded
bot answers as fast as an idle one and only its AI seats play a little weaker for a moment
(counted in :attr:`AiPool.fallbacks`). A quick decision whose worker died is made in a thread
at once. ``ai_workers = 0`` turns the pool off (threads only; searching levels then play the
quick level); tests keep it off unless they test the pool.

The worker gets the game's kind, the state and the seat; the policy builds that seat's view
itself, as in a thread (the searcher never reads what the seat cannot see). Where a decision
is made changes when it is ready, never what it is (the same seed, the same policy).
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine.ai import ai_action, level_of
from host.workers import Pool

log = logging.getLogger("darwin.ai")

SEARCHING = frozenset({"expert"})  # the levels that think in a worker process
FALLBACK = "fast"  # what a searching seat plays when no worker is free
QUICK_DEPTH = 3  # quick decisions that may be sent per worker while no search is under way


def _think(kind: str, state: Any, seat: int, level: str, seconds: float) -> dict:
    """In a worker process: the action of ``level`` for ``seat``, within ``seconds``."""
    from engine.ai import search_budget
    from engine.core import get_game

    with search_budget(seconds):
        return ai_action(get_game(kind), state, seat, level)


def _quick(kind: str, state: Any, seat: int, level: str) -> dict:
    """In a worker process: the action of a quick ``level`` (no search budget)."""
    from engine.core import get_game

    return ai_action(get_game(kind), state, seat, level)


def _hint(kind: str, state: Any, seat: int, iterations: int | None = None) -> dict:
    """In a worker process: a hint for ``seat`` (engine/hint.py; ``iterations`` None: its
    default playouts)."""
    from engine.core import get_game
    from engine.hint import ITERATIONS, hint

    return hint(get_game(kind), state, seat, ITERATIONS if iterations is None else iterations)


def hint_iterations() -> int | None:
    """The playouts of a hint thought in a worker: ``DARWIN_HINT_PLAYOUTS`` when set (0: the
    strong level's choice, without figures: the load run's persons, whose many hints would
    otherwise fill the worker), else engine/hint.py's default."""
    value = os.environ.get("DARWIN_HINT_PLAYOUTS", "").strip()
    return max(0, int(value)) if value else None


def _warm() -> None:
    """A worker's first task: import every game (so a first decision pays no imports)."""
    from engine.core import game_kinds

    game_kinds()


class AiPool:
    def __init__(self, workers: int = 1, seconds: float = 1.0) -> None:
        self.workers = max(0, int(workers))
        self.seconds = float(seconds)
        self.busy = 0  # decisions in a worker now
        self.searching = 0  # of which searches (expert, hints)
        self.searched = 0  # decisions a worker made (metrics)
        self.fallbacks = 0  # searching decisions played at the quick level (metrics)
        self.quick_in_worker = 0  # quick decisions a worker made (metrics)
        self.quick_in_thread = 0  # quick decisions made in a thread: no free worker, or none
        self.hint_iterations = hint_iterations()
        self._pool: Pool | None = None

    def _workers(self) -> Pool:
        """The workers (host/workers.py: fresh interpreters that the event loop speaks to
        through their pipes), started at the first decision sent to them (a bot without AI
        seats or hints never starts a process)."""
        if self._pool is None:
            self._pool = Pool(self.workers, warm=_warm)
        return self._pool

    async def decide(self, rules: Any, state: Any, seat: int, level: str) -> dict:
        """The action of an AI seat of ``level`` (see the module text for where it runs); a
        game without that level plays its best below it (``level_of``: Cubosaurs' expert
        seats play strong, as a quick level)."""
        level = level_of(rules, level)
        if level in SEARCHING:
            if self.busy < self.workers:
                return await self._in_worker(rules, state, seat, level)
            self.fallbacks += 1
            level = FALLBACK
        elif self.busy < self.workers or (not self.searching
                                           and self.busy < self.workers * QUICK_DEPTH):
            try:
                action = await self._in_worker(rules, state, seat, level, quick=True)
            except BrokenProcessPool:  # its worker died: this decision in a thread now
                pass
            else:
                self.quick_in_worker += 1
                return action
        self.quick_in_thread += 1
        return await asyncio.to_thread(ai_action, rules, state, seat, level)

    async def hint(self, rules: Any, state: Any, seat: int) -> dict:
        """A hint for ``seat`` (engine/hint.py): the search in a worker; when none is free,
        the strong level's choice, without figures, in a thread."""
        from engine.hint import hint

        if self.busy < self.workers:
            return await self._in_worker(rules, state, seat, None)
        self.fallbacks += 1
        return await asyncio.to_thread(hint, rules, state, seat, 0)

    async def _in_worker(self, rules: Any, state: Any, seat: int, level: str | None,
                         quick: bool = False) -> dict:
        """``level``'s action in a worker (None: a hint; ``quick``: a quick level, not
        counted in :attr:`searched`)."""
        self.busy += 1
        self.searching += not quick
        try:
            if level is None:
                job = (_hint, rules.kind, state, seat, self.hint_iterations)
            elif quick:
                job = (_quick, rules.kind, state, seat, level)
            else:
                job = (_think, rules.kind, state, seat, level, self.seconds)
            action = await self._workers().call(*job)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): a new one at the next call; a searching
            # decision fails and the host tries again after its back-off
            log.error("an AI worker process died; a new one starts at the next decision")
            raise
        finally:
            self.busy -= 1
            self.searching -= not quick
        if not quick:
            self.searched += 1
        return action

    def _drop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    def close(self) -> None:
        """Stop the workers (a decision under way is abandoned: its seat is asked again at
        the next start)."""
        self._drop_pool()
