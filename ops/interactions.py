"""Every interaction followed from its arrival to the end of its handler (no discord import).

The bot's INTERACTION_CREATE parser calls :meth:`Interactions.begin` (``ops.instrument``):
the interaction's record becomes the current one in a context variable, which the handler
task that discord.py creates there inherits. The handler's first step, the check that loads
the channel's game (``cogs.common.load_channel_game``), calls :func:`attach`: the record
then ends with that task. On the way the cogs say what became of it with :func:`mark`
(a refusal, a failure, a press turned away because the bot is stopping), and the HTTP layer
reports the interaction's first answer (:meth:`Interactions.answered`).

An interaction's outcome is ``ok`` (handled, answered), ``refused`` (told why not: a rule,
a stale button, the store failing), ``failed`` (an unexpected error, answered with the
generic sentence), ``rejected`` (the bot was stopping) or ``unanswered``. The handlers still
running are what a graceful stop waits for (:meth:`Interactions.wait_idle`).
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Callable
from typing import Any

KINDS = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}
OK, REFUSED, FAILED, REJECTED, UNANSWERED = "ok", "refused", "failed", "rejected", "unanswered"
_RANK = {None: 0, REFUSED: 1, REJECTED: 2, FAILED: 3}  # a stronger mark wins
FORGET_AFTER = 60.0  # seconds: a record no handler took and nobody answered is unanswered

_current: contextvars.ContextVar[Tracked | None] = contextvars.ContextVar(
    "darwin_interaction", default=None)


class Tracked:
    """One interaction on its way through the bot."""

    __slots__ = ("book", "id", "kind", "started", "answered_at", "mark", "task", "finished",
                 "responded", "release")

    def __init__(self, book: Interactions, interaction_id: int, kind: str, now: float) -> None:
        self.book = book
        self.id = interaction_id
        self.kind = kind
        self.started = now
        self.answered_at: float | None = None
        self.mark: str | None = None
        self.task: asyncio.Task | None = None
        self.finished = False
        self.responded: Callable[[], bool] | None = None  # asks discord.py, at the end
        self.release: Callable[[], None] | None = None  # once it ended (see _finish)

    def was_answered(self) -> bool:
        if self.answered_at is not None:
            return True
        try:
            return self.responded is not None and bool(self.responded())
        except Exception:
            return False

    @property
    def outcome(self) -> str:
        if self.mark is not None:
            return self.mark
        return OK if self.was_answered() else UNANSWERED


class Interactions:
    """The interactions of one bot. ``metrics`` (``ops.metrics.Metrics`` or None) hears
    ``first_answer(kind, seconds)`` and ``interaction_done(kind, outcome, seconds)``."""

    def __init__(self, metrics: Any = None, now=time.perf_counter) -> None:
        self.metrics = metrics
        self.now = now
        self.running: dict[int, Tracked] = {}
        self._begun = 0

    def begin(self, interaction_id: int, interaction_type: int) -> contextvars.Token:
        """An INTERACTION_CREATE arrived: its record is the current one until ``end``."""
        tracked = Tracked(self, interaction_id, KINDS.get(interaction_type, "other"), self.now())
        self.running[interaction_id] = tracked
        self._begun += 1
        if self._begun % 64 == 0:
            self.forget_stale()
        return _current.set(tracked)

    @staticmethod
    def end(token: contextvars.Token) -> None:
        """The parser returned: the handler tasks it made keep the record, not the gateway."""
        _current.reset(token)

    def answered(self, interaction_id: int, at: float | None = None) -> None:
        """The interaction's first answer was sent (the callback request): its latency."""
        tracked = self.running.get(interaction_id)
        if tracked is None or tracked.answered_at is not None:
            return
        tracked.answered_at = self.now() if at is None else at
        if self.metrics is not None:
            self.metrics.first_answer(tracked.kind, tracked.answered_at - tracked.started)
        if tracked.task is None and tracked.mark is None:
            self._finish(tracked)  # no handler took it (nothing else will end it)

    def _finish(self, tracked: Tracked) -> None:
        if tracked.finished:
            return
        tracked.finished = True
        self.running.pop(tracked.id, None)
        if self.metrics is not None:
            self.metrics.interaction_done(tracked.kind, tracked.outcome,
                                          self.now() - tracked.started)
        # The record refers no more to the handler's task (whose context refers to the
        # record: a cycle) nor, through ``responded``, to the interaction; ``release`` lets
        # the interaction go. Tasks started by the handler copy its context and keep the
        # record for seconds; frozen by the collector meanwhile (ops/memory.py), a cycle
        # is never freed (2,000 live games: 150,000 objects in 240 s).
        release = tracked.release
        tracked.task = tracked.responded = tracked.release = None
        if release is not None:
            release()

    def forget_stale(self) -> None:
        """Records that no handler took and that were never answered end as unanswered."""
        limit = self.now() - FORGET_AFTER
        for tracked in [t for t in self.running.values() if t.task is None and t.started < limit]:
            self._finish(tracked)

    def handlers(self) -> set[asyncio.Task]:
        return {t.task for t in self.running.values() if t.task is not None and not t.task.done()}

    async def wait_idle(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) until no handler is running; True if none is."""
        deadline = self.now() + timeout
        while True:
            tasks = self.handlers()
            left = deadline - self.now()
            if not tasks:
                return True
            if left <= 0:
                return False
            await asyncio.wait(tasks, timeout=left)


def attach(responded: Callable[[], bool] | None = None,
           release: Callable[[], None] | None = None) -> None:
    """Called by the handler task (the game-loading check): the current interaction ends when
    this task does. ``responded`` tells then whether it was answered (discord.py's
    ``interaction.response.is_done``), should its answer not have been seen on the way out;
    ``release`` is called once it has ended."""
    tracked = _current.get()
    if tracked is None or tracked.task is not None or tracked.finished:
        return
    task = asyncio.current_task()
    if task is None:
        return
    tracked.task = task
    tracked.responded = responded
    tracked.release = release
    task.add_done_callback(lambda _t: tracked.book._finish(tracked))


def mark(outcome: str) -> None:
    """What became of the current interaction (``refused``, ``failed``, ``rejected``); the
    strongest mark wins. Outside an interaction (a timer, a table write) it does nothing."""
    tracked = _current.get()
    if tracked is not None and not tracked.finished and _RANK[outcome] > _RANK[tracked.mark]:
        tracked.mark = outcome
