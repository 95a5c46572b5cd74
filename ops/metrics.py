"""Darwin's metrics in the Prometheus text format (``prometheus-client``), and the event-loop
lag monitor. No discord import: ``ops.instrument`` feeds it from discord.py, the host keeps
plain counters that are read when ``/metrics`` is scraped.

Each bot has its own registry (tests run several bots in one process). Names:

* ``darwin_interactions_total{kind,outcome}`` — kind: command, component, autocomplete,
  modal; outcome: ok, refused, failed, rejected (the bot was stopping), unanswered
* ``darwin_interaction_first_answer_seconds{kind}`` — arrival to the first answer's request
* ``darwin_interaction_seconds{kind}`` — arrival to the end of its handler
* ``darwin_commits_total{outcome}`` (ok, stale, failed), ``darwin_commit_seconds`` — one
  action and its state written (``Store.record_action``, group commit included)
* ``darwin_games{kind,status}`` — lobbies and active games in the store (read at most every
  15 s); ``darwin_games_loaded{kind}`` — those in memory
* ``darwin_rest_requests_total{method,route,status}`` — every REST call to Discord, the
  route with its ids and tokens replaced (``/channels/:id/messages``), status ``2xx``,
  ``429``, ``4xx``, ``5xx`` or ``failed`` (no answer)
* ``darwin_rest_budget_requests_total{bucket}`` — the same calls by Discord's budget:
  ``exempt`` (the interaction endpoints: an interaction's callback, followups and the edits
  through its token) or ``global`` (everything else: 50 a second for the whole bot)
* ``darwin_event_loop_lag_seconds`` (histogram), ``darwin_event_loop_lag_max_seconds`` (the
  worst in the last 10 s)
* ``darwin_ai_step_failures_total{kind}`` — AI moves that raised (``GameHost``)
* ``darwin_gc_frozen_objects`` — objects frozen for the garbage collector (``ops/memory.py``:
  it grows with the live games; growing without them is a leak, which a thaw frees),
  ``darwin_gc_frozen_garbage`` — how many of them had died in a cycle at the last hourly count
  (in a forked copy; ``darwin_gc_garbage_counts_total`` counts the counts),
  ``darwin_gc_thaws_total``, ``darwin_gc_thawed_objects_total`` — the thaws and what they freed
* ``darwin_gateway_connected{shard}``, ``darwin_gateway_latency_seconds{shard}``
* ``process_*`` — CPU, memory, open files of the bot process
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Awaitable, Callable, Iterable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

log = logging.getLogger("darwin.ops")

ANSWER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_TOKENED = {"interactions", "webhooks"}  # /interactions/:id/:token/..., /webhooks/:id/:token


def route_of(path: str) -> str:
    """A REST path as a route label: the API prefix dropped, snowflakes as ``:id``, an
    interaction's or webhook's token as ``:token`` (a bounded set of labels)."""
    parts = path.strip("/").split("/")
    if len(parts) >= 2 and parts[0] == "api" and parts[1].startswith("v"):
        parts = parts[2:]
    out = []
    for i, part in enumerate(parts):
        if part.isdigit():
            out.append(":id")
        elif i >= 2 and parts[i - 2] in _TOKENED and parts[i - 1].isdigit():
            out.append(":token")
        else:
            out.append(part)
    return "/" + "/".join(out)


def bucket_of(route: str) -> str:
    """``exempt`` for Discord's interaction endpoints, ``global`` for every other route."""
    return "exempt" if route.startswith(("/interactions/", "/webhooks/")) else "global"


def status_class(status: int) -> str:
    return "429" if status == 429 else f"{status // 100}xx"


class Metrics:
    """The registry and the bot's metrics; ``sources`` add what is read at scrape time
    (callables returning metric families) and ``refreshers`` what must be read
    asynchronously first (the store's counts)."""

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry()
        self._interactions = Counter(
            "darwin_interactions", "Interactions handled, by kind and outcome",
            ["kind", "outcome"], registry=r)
        self._first_answer = Histogram(
            "darwin_interaction_first_answer_seconds",
            "From an interaction's arrival to its first answer being sent",
            ["kind"], buckets=ANSWER_BUCKETS, registry=r)
        self._handled = Histogram(
            "darwin_interaction_seconds", "From an interaction's arrival to the end of its "
            "handler", ["kind"], buckets=ANSWER_BUCKETS, registry=r)
        self._commits = Counter(
            "darwin_commits", "Actions written with their new state, by outcome",
            ["outcome"], registry=r)
        self._commit_seconds = Histogram(
            "darwin_commit_seconds", "Time to write one action and its state (group commit "
            "included)", buckets=COMMIT_BUCKETS, registry=r)
        self._rest = Counter(
            "darwin_rest_requests", "REST calls to Discord by route and status class "
            "(429: rate limited)", ["method", "route", "status"], registry=r)
        self._budget = Counter(
            "darwin_rest_budget_requests", "REST calls to Discord by budget: exempt (the "
            "interaction endpoints) or global (50/s for the whole bot)", ["bucket"],
            registry=r)
        self._lag = Histogram(
            "darwin_event_loop_lag_seconds", "How late the event loop woke a 0.25 s sleep",
            buckets=LAG_BUCKETS, registry=r)
        self._lag_max = Gauge(
            "darwin_event_loop_lag_max_seconds", "The worst event-loop lag in the last 10 s",
            registry=r)
        ProcessCollector(registry=r)
        self._children: dict[tuple, object] = {}  # labelled series, looked up once
        self.sources: list[Callable[[], Iterable[Metric]]] = []
        self.refreshers: list[Callable[[], Awaitable[None]]] = []
        r.register(_Sources(self))

    # --- fed by ops.interactions, ops.instrument and the lag monitor --------------------------

    def _series(self, metric, *labels):
        key = (id(metric), *labels)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    def first_answer(self, kind: str, seconds: float) -> None:
        self._series(self._first_answer, kind).observe(seconds)

    def interaction_done(self, kind: str, outcome: str, seconds: float) -> None:
        self._series(self._interactions, kind, outcome).inc()
        self._series(self._handled, kind).observe(seconds)

    def commit(self, outcome: str, seconds: float) -> None:
        self._series(self._commits, outcome).inc()
        if outcome == "ok":
            self._commit_seconds.observe(seconds)

    def rest(self, method: str, route: str, status: str) -> None:
        self._series(self._rest, method, route, status).inc()
        self._series(self._budget, bucket_of(route)).inc()

    def loop_lag(self, seconds: float, worst: float) -> None:
        self._lag.observe(seconds)
        self._lag_max.set(worst)

    # --- exposition ----------------------------------------------------------------------------

    async def render(self) -> tuple[bytes, str]:
        """The text exposition (and its content type), after the asynchronous sources."""
        for refresh in self.refreshers:
            try:
                await refresh()
            except Exception:  # a failing source leaves its last value, never the page
                log.exception("a metrics source failed")
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class _Sources:
    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        for source in self.metrics.sources:
            try:
                yield from source()
            except Exception:
                log.exception("a metrics source failed")

    def describe(self) -> Iterable[Metric]:
        return []


def counter_family(name: str, documentation: str, labels: list[str],
                   values: dict[tuple, float]) -> CounterMetricFamily:
    family = CounterMetricFamily(name, documentation, labels=labels)
    for key, value in values.items():
        family.add_metric(list(key), value)
    return family


def gauge_family(name: str, documentation: str, labels: list[str],
                 values: dict[tuple, float]) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, documentation, labels=labels)
    for key, value in values.items():
        family.add_metric(list(key), value)
    return family


class LagMonitor:
    """How late the event loop wakes a short sleep: a loop blocked by a long computation or
    a long garbage collection answers every player late. ``worst()`` is the largest lag of
    the last ``window`` seconds; ``last_tick`` tells that the monitor itself still runs."""

    def __init__(self, metrics: Metrics | None = None, period: float = 0.25,
                 window: float = 10.0) -> None:
        self.metrics = metrics
        self.period = period
        self.samples: collections.deque[tuple[float, float]] = collections.deque()
        self.window = window
        self.last_tick = time.monotonic()
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(self.period)
            now = time.monotonic()
            self.record(max(0.0, now - before - self.period), now)

    def record(self, lag: float, now: float) -> None:
        self.last_tick = now
        self.samples.append((now, lag))
        while self.samples and self.samples[0][0] < now - self.window:
            self.samples.popleft()
        if self.metrics is not None:
            self.metrics.loop_lag(lag, self.worst())

    def worst(self) -> float:
        return max((lag for _, lag in self.samples), default=0.0)
