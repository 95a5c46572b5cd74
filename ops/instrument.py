"""The bot's side of the metrics and the health checks (discord.py is imported here, never in
``host/``).

:class:`Operations` belongs to one ``DarwinBot``: it follows every interaction
(``ops.interactions``; the bot's INTERACTION_CREATE parser is wrapped), counts every REST
call by route and status through an aiohttp trace on discord.py's HTTP session (the same
session carries the interaction callbacks and followups, so the first answer of each
interaction is seen there too), times the store's commits, reads the host's counters and the
gateway's state when ``/metrics`` is scraped, runs the event-loop lag monitor, and serves
``/healthz`` and ``/metrics`` when ``[health] enabled``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import Counter

import aiohttp

from ops.interactions import Interactions
from ops.metrics import LagMonitor, Metrics, counter_family, gauge_family, route_of, status_class
from ops.server import CachedProbe, Health, OpsServer, health_settings

log = logging.getLogger("darwin.ops")

GAMES_READ_EVERY = 15.0  # seconds: the store's counts of live games are read at most so often


class Operations:
    def __init__(self, bot) -> None:
        self.bot = bot
        self.metrics = Metrics()
        self.interactions = Interactions(self.metrics)
        self.lag = LagMonitor(self.metrics)
        self.health = Health()
        self.server: OpsServer | None = None
        self.stopping = False
        self._games: dict[tuple[str, str], int] = {}
        self._games_at = -GAMES_READ_EVERY
        self.trace = self._make_trace()

    # --- wiring ------------------------------------------------------------------------------

    def install(self) -> None:
        """Wrap the bot's INTERACTION_CREATE parser (after ``Client.__init__``)."""
        parsers = self.bot._connection.parsers
        original = parsers["INTERACTION_CREATE"]
        book = self.interactions

        def parse_interaction_create(data) -> None:
            try:
                token = book.begin(int(data["id"]), int(data.get("type") or 0))
            except (KeyError, TypeError, ValueError):
                return original(data)
            try:
                original(data)
            finally:
                book.end(token)

        parsers["INTERACTION_CREATE"] = parse_interaction_create

    async def start(self) -> None:
        """Once the store and the host exist (``setup_hook``): commits timed, the scrape-time
        sources, the lag monitor, and the HTTP server when enabled."""
        bot = self.bot
        self._time_commits(bot.store)
        self.metrics.sources += [self._host_families, self._gateway_families,
                                 self._games_families, self._gc_families]
        self.metrics.refreshers.append(self._read_games)
        self.health.checks += [self._check_stopping, self._check_gateway,
                               CachedProbe(lambda: bot.store.probe()), self._check_loop]
        settings = health_settings(bot.config)
        if settings.enabled:  # the lag monitor wakes 4 times a second: only when it is read
            self.lag.start()
            self.server = OpsServer(settings, self.health, self.metrics)
            try:
                await self.server.start()
            except OSError as exc:  # the bot still serves the players; the operator is told
                log.error("the health and metrics endpoint cannot listen on %s:%s (%s): "
                          "it is off; check [health] host and port", settings.host,
                          settings.port, exc)
                self.server = None

    async def stop(self) -> None:
        self.lag.stop()
        if self.server is not None:
            await self.server.stop()
            self.server = None

    def _time_commits(self, store) -> None:
        from store import StaleWrite, StoreError

        original = store.record_action
        metrics = self.metrics

        async def record_action(*args, **kwargs):
            start = time.perf_counter()
            try:
                seq = await original(*args, **kwargs)
            except StaleWrite:
                metrics.commit("stale", time.perf_counter() - start)
                raise
            except StoreError:
                metrics.commit("failed", time.perf_counter() - start)
                raise
            metrics.commit("ok", time.perf_counter() - start)
            return seq

        store.record_action = record_action

    def _make_trace(self) -> aiohttp.TraceConfig:
        """REST calls by route and status; an interaction callback is its first answer."""
        trace = aiohttp.TraceConfig()
        book, metrics = self.interactions, self.metrics

        async def on_request_start(session, ctx, params) -> None:
            ctx.start = book.now()

        async def on_request_end(session, ctx, params) -> None:
            url = params.url
            if url.scheme in ("ws", "wss"):
                return  # the gateway's socket, not a REST call
            route = route_of(url.path)
            status = params.response.status
            metrics.rest(params.method, route, status_class(status))
            if route == "/interactions/:id/:token/callback" and status < 400:
                parts = url.path.rstrip("/").split("/")
                with contextlib.suppress(ValueError):
                    book.answered(int(parts[-3]), getattr(ctx, "start", None))

        async def on_request_exception(session, ctx, params) -> None:
            if params.url.scheme not in ("ws", "wss"):
                metrics.rest(params.method, route_of(params.url.path), "failed")

        trace.on_request_start.append(on_request_start)
        trace.on_request_end.append(on_request_end)
        trace.on_request_exception.append(on_request_exception)
        return trace

    # --- read when /metrics is scraped ---------------------------------------------------------

    def _host_families(self):
        host = self.bot.host
        if host is None:
            return
        loaded = Counter(g.kind for g in host.games.values())
        yield gauge_family("darwin_games_loaded", "Games in memory (lobbies and active)",
                           ["kind"], {(k,): n for k, n in loaded.items()})
        failures = getattr(host, "ai_step_failures", {})
        yield counter_family("darwin_ai_step_failures", "AI moves that raised (each is logged "
                             "with its game and retried)", ["kind"],
                             {(k,): n for k, n in failures.items()})

    @staticmethod
    def _gc_families():
        import gc

        from ops import memory

        yield gauge_family("darwin_gc_frozen_objects", "Objects frozen for the garbage "
                           "collector (they grow with the live games; without them, a leak)",
                           [], {(): gc.get_freeze_count()})
        yield counter_family("darwin_gc_thaws", "Thaws: everything frozen unfrozen, collected "
                             "and frozen again (one full pass)", [],
                             {(): memory.THAWED["thaws"]})
        yield counter_family("darwin_gc_thawed_objects", "Objects the thaws freed (frozen, "
                             "then dead in a cycle)", [], {(): memory.THAWED["freed"]})
        yield counter_family("darwin_gc_garbage_counts", "Counts of the frozen garbage in a "
                             "forked copy (hourly)", [], {(): memory.THAWED["probes"]})
        yield gauge_family("darwin_gc_frozen_garbage", "Frozen objects that died in a cycle, "
                           "at the last count (a thaw frees them when they are 5% of the "
                           "frozen objects)", [], {(): memory.THAWED["garbage"]})

    async def _read_games(self) -> None:
        now = time.monotonic()
        store = self.bot.store
        if store is None or store.closed or now - self._games_at < GAMES_READ_EVERY:
            return
        self._games_at = now
        self._games = await store.live_counts()

    def _games_families(self):
        yield gauge_family("darwin_games", "Lobbies and active games in the store, by game",
                           ["kind", "status"], {k: n for k, n in self._games.items()})

    def _gateway_families(self):
        connected, latency = {}, {}
        for shard_id, shard in (getattr(self.bot, "shards", None) or {}).items():
            connected[(str(shard_id),)] = 0.0 if shard.is_closed() else 1.0
            lat = shard.latency
            if lat == lat and lat != float("inf"):  # NaN/inf before the first heartbeat
                latency[(str(shard_id),)] = lat
        yield gauge_family("darwin_gateway_connected", "1 while the shard's gateway socket is "
                           "open", ["shard"], connected)
        yield gauge_family("darwin_gateway_latency_seconds", "Heartbeat round trip", ["shard"],
                           latency)

    # --- /healthz ------------------------------------------------------------------------------

    async def _check_stopping(self) -> str | None:
        return "stopping" if self.stopping else None

    async def _check_gateway(self) -> str | None:
        return gateway_problem(self.bot)

    async def _check_loop(self) -> str | None:
        from ops.server import LOOP_LAG_LIMIT

        worst = self.lag.worst()
        if worst > LOOP_LAG_LIMIT:
            return f"event loop stalled {worst:.1f} s"
        if time.monotonic() - self.lag.last_tick > 5.0:
            return "event loop monitor not running"
        return None


def gateway_problem(bot) -> str | None:
    """None when the bot is logged in and every shard's gateway socket is open."""
    if bot.is_closed():
        return "gateway closed"
    if not bot.is_ready():
        return "gateway not connected yet"
    shards = getattr(bot, "shards", None) or {}
    down = sorted(str(i) for i, shard in shards.items() if shard.is_closed())
    if down:
        return f"gateway shard {', '.join(down)} disconnected"
    return None
