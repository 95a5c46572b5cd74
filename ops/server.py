"""The local HTTP server: ``/healthz`` and ``/metrics`` (aiohttp, already a dependency of
discord.py). Off unless ``[health] enabled``; it listens on ``[health] host``/``port``
(127.0.0.1:8080 by default: reachable from the machine, or the container, only).

* ``GET /healthz`` — 200 ``{"status": "ok"}`` when the gateway is connected, the store takes
  a committed write and the event loop is responsive; else 503
  ``{"status": "unhealthy", "reasons": [...]}`` (one short phrase per failing check).
* ``GET /metrics`` — the Prometheus text format (``ops.metrics``).

The games' web page (``web/``) is a site of its own on ``[web]``'s address, never this one:
turning it on does not make ``/healthz`` and ``/metrics`` public.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web

log = logging.getLogger("darwin.ops")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
LOOP_LAG_LIMIT = 1.0  # seconds: a worse lag in the last 10 s is an unresponsive loop
STORE_PROBE_EVERY = 5.0  # seconds between two probe writes (scrapes in between reuse it)
STORE_PROBE_TIMEOUT = 2.0


@dataclass(frozen=True)
class HealthSettings:
    enabled: bool = False
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT


def health_settings(config: dict) -> HealthSettings:
    """``[health]`` of the configuration: enabled, host, port (``configuration.py`` checks
    them and applies DARWIN_HEALTH_ENABLED, DARWIN_HEALTH_HOST and DARWIN_HEALTH_PORT)."""
    section = config.get("health") or {}
    return HealthSettings(bool(section.get("enabled", False)),
                          str(section.get("host") or DEFAULT_HOST),
                          int(section.get("port", DEFAULT_PORT)))


Check = Callable[[], Awaitable[str | None]]  # None: fine; else a short reason


class Health:
    """The checks of ``/healthz``: each returns None or a short reason."""

    def __init__(self) -> None:
        self.checks: list[Check] = []

    async def reasons(self) -> list[str]:
        found = []
        for check in self.checks:
            try:
                reason = await check()
            except Exception as exc:  # a check that fails is a reason, not a 500
                reason = f"check failed: {type(exc).__name__}"
            if reason:
                found.append(reason)
        return found


class CachedProbe:
    """A store probe (one committed write) at most every STORE_PROBE_EVERY seconds, bounded
    by STORE_PROBE_TIMEOUT: frequent scrapes never queue writes behind the players'."""

    def __init__(self, probe: Callable[[], Awaitable[None]]) -> None:
        self.probe = probe
        self._at = -STORE_PROBE_EVERY
        self._reason: str | None = None
        self._lock = asyncio.Lock()

    async def __call__(self) -> str | None:
        async with self._lock:
            if time.monotonic() - self._at >= STORE_PROBE_EVERY:
                try:
                    await asyncio.wait_for(self.probe(), STORE_PROBE_TIMEOUT)
                    self._reason = None
                except TimeoutError:
                    self._reason = f"store write slower than {STORE_PROBE_TIMEOUT:g} s"
                except Exception as exc:
                    log.warning("health: the store probe failed: %s", exc)
                    self._reason = "store not writable"
                self._at = time.monotonic()
            return self._reason


async def serve(app: web.Application, host: str, port: int,
                **runner_options) -> tuple[web.AppRunner, int]:
    """Start ``app`` on ``host``:``port`` (this server and the web page's): its runner and the
    port listened on (a given 0 picks a free one). A port in use raises OSError, nothing left
    running."""
    runner = web.AppRunner(app, access_log=None, handle_signals=False, **runner_options)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    sockets = getattr(getattr(site, "_server", None), "sockets", None) or []
    return runner, (sockets[0].getsockname()[1] if sockets else port)


class OpsServer:
    def __init__(self, settings: HealthSettings, health: Health, metrics) -> None:
        self.settings = settings
        self.health = health
        self.metrics = metrics
        self.app = web.Application()
        self.app.router.add_get("/healthz", self._healthz)
        self.app.router.add_get("/metrics", self._metrics)
        self._runner: web.AppRunner | None = None
        self.port: int | None = None  # the port listened on (a given 0 picks a free one)

    async def start(self) -> None:
        self._runner, self.port = await serve(self.app, self.settings.host, self.settings.port)
        log.info("health and metrics on http://%s:%s/healthz and /metrics",
                 self.settings.host, self.port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        reasons = await self.health.reasons()
        if reasons:
            return web.json_response({"status": "unhealthy", "reasons": reasons}, status=503)
        return web.json_response({"status": "ok"})

    async def _metrics(self, request: web.Request) -> web.Response:
        body, content_type = await self.metrics.render()
        response = web.Response(body=body)
        response.headers["Content-Type"] = content_type
        return response
