"""The web page's figures (issue 26): what a page, a board image and state.json cost to serve,
and whether 200 people watching one game slow the people playing.

    python bench/run.py web          (or python bench/web_bench.py [--runs N] [--watchers N])

Serving, over real sockets on 127.0.0.1 (web.make_app on an aiohttp site, a client in the same
process, one request at a time; medians of many requests), a 2-player Cubosaurs game 40 moves
in, stored as the host stores it, the page's status lines from its cog:

* ``web.page_ms``: the game page (HTML); ``web.state_ms``: its state.json; both with the game's
  snapshot in the cache (a watched game: one store read a second at most), and
  ``web.state_after_change_ms``: state.json right after a commit (the cache invalidated, so
  the store is read again: what the first of the watchers pays after every move);
* ``web.board_cached_ms``: the board PNG already drawn for this position and language;
  ``web.board_uncached_ms``: drawn for the request (the drawing cache emptied before each).

Watching, with the bot itself: ``fakediscord.launcher`` (the unmodified ``DarwinBot``, token
"fake", ``[web]`` on with ``trusted_proxy``) against the fake Discord over sockets, the load
driver's fake people (``fakediscord.driver``) playing ``GAMES`` Cubosaurs games (a person and
an AI seat each, AI delay 0) at ``RATE`` interactions a second throughout. A window of
``--seconds`` with nobody watching and one with ``--watchers`` clients on the page of one of
those games (the order alternates between runs). The watchers are a second OS process (this
file with ``--watch``): each one opens the page, then its event stream
(``/g/TOKEN/events?lang=en``), whose ``event: state`` carries state.json's text, and at
every new position fetches the new board image, as the page's script does (a browser never
asks again for a board it has: its URL names the position and it is served immutable); each
sends its own X-Forwarded-For, as clients behind the reverse proxy would (so the per-client
rate limit applies to each, not to all of them).

* ``web.watchers_rps``: the requests the watchers made and were served (HTTP 200) per second
  in the watched window (``web.watched_changes_per_s``: the positions per second they saw
  the game take; ``web.watchers_failed``: requests answered otherwise, or failed);
* ``web.interaction_p99_ms`` (and ``_p50_ms``, ``_p95_ms``) with the watchers, and
  ``web.interaction_p99_alone_ms`` (``_p50_alone_ms``, ``_p95_alone_ms``) without them, in
  the same run (about 150 interactions a window: the p99 is the second slowest): as
  ``bench/load.py`` measures it, from the fake's INTERACTION_CREATE to the bot's first REST
  call about it. The goal: watching does not slow playing (p99 <= 150 ms).
* ``web.bot_cpu_alone`` / ``web.bot_cpu_watched``: the bot process's CPU (cores) in each
  window; ``web.cpu_ms_per_watcher_request``: the difference over the watchers' requests
  (event-stream writes included), which a busy machine inflates less than the latencies, and
  ``web.cpu_ms_per_watcher_change``: the same CPU over the positions seen and the watchers
  (what one watcher costs per move, whatever requests it makes);
  ``web.watchers_process_cpu``: the watcher process's own CPU (on this machine it competes
  with the bot; real watchers are elsewhere).

Every figure is a median over the runs; the load average at the start and at the end is
printed too (``web.load_average``), since this machine's 2 cores are shared.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = 20  # Cubosaurs games played while the windows are measured
RATE = 20.0  # interactions a second over all of them (about one a second per game)
WATCHERS = 200
SECONDS = 8.0  # each window
RUNS = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    from fakediscord.driver import percentile as p

    return p(values, q)


# --- serving: one request at a time -------------------------------------------------------------


def status_lines(kind: str, view: dict, lang: str) -> list[str]:
    """The game cog's status lines, as the bot hands them to the web page (the cog's method
    reads neither the cog nor the bot)."""
    from cogs.game import GameCog
    from engine.core import descriptions

    d = next(d for d in descriptions() if d.kind == kind)
    module = importlib.import_module(d.cog)
    cls = next(c for c in vars(module).values() if isinstance(c, type)
               and issubclass(c, GameCog) and c is not GameCog and c.__module__ == d.cog)
    return cls.status_lines(object.__new__(cls), None, view, lang)


async def stored_game(store, kind: str = "cubosaurs", players: int = 2, moves: int = 40,
                      seed: int = 3) -> int:
    """A seeded game of random moves written as the host writes it (lobby with seats, seed and
    the recent events; one action row per move)."""
    from engine import Seat, get_game

    rules = get_game(kind)
    seats = [Seat(f"u{i}", f"Player {i + 1}") for i in range(players)]
    lobby = {"creator": seats[0].id, "lang": None,
             "seats": [{"id": s.id, "name": s.name, "ai": i > 0} for i, s in enumerate(seats)]}
    game = await store.create_game("100", "200", kind, {}, lobby, 1.0)
    state, events = rules.new_game_with_events(seats, seed, {})
    lobby = dict(lobby, seed=seed, log=list(events)[-30:])
    await store.start_game(game, rules.to_json(state), 2.0, lobby=lobby)
    rnd = random.Random(seed)
    seq = 0
    while not rules.is_over(state) and seq < moves:
        p = rules.to_act(state)[0]
        action = rnd.choice(rules.legal_actions(state, p))
        state, new_events = rules.apply_action(state, p, action)
        lobby = dict(lobby, log=(lobby["log"] + list(new_events))[-30:])
        seq = await store.record_action(game, seq, seats[p].id, action, rules.to_json(state),
                                        3.0 + seq, lobby=lobby)
    return game


async def serving(repeats: int = 200, board_repeats: int = 25) -> dict[str, float]:
    import aiohttp
    from aiohttp import web as aioweb

    from store import Store
    from web import WebSettings, make_app
    from web.app import WEB_APP

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        async with Store.open(str(Path(tmp) / "darwin.sqlite3")) as store:
            game = await stored_game(store)
            token = await store.web_token(time.time(), game_id=game)
            settings = WebSettings(enabled=True, base_url="http://127.0.0.1", rate=1e9,
                                   burst=10**9)
            app = make_app(store, settings, default_lang="en", status_lines=status_lines)
            handlers = app[WEB_APP]
            runner = aioweb.AppRunner(app, access_log=None)
            await runner.setup()
            port = free_port()
            site = aioweb.TCPSite(runner, "127.0.0.1", port)
            await site.start()
            base = f"http://127.0.0.1:{port}/g/{token}"
            try:
                async with aiohttp.ClientSession() as http:
                    async def timed(url: str, before=None, n: int = repeats) -> float:
                        times = []
                        for _ in range(n):
                            if before is not None:
                                before()
                            t0 = time.perf_counter()
                            async with http.get(url) as r:
                                await r.read()
                                assert r.status == 200, (url, r.status)
                            times.append((time.perf_counter() - t0) * 1000)
                        return statistics.median(times)

                    state = await (await http.get(base + "/state.json?lang=en")).json()
                    board = f"http://127.0.0.1:{port}/g/{state['board']}"
                    await timed(base, n=20)  # warm: imports, fonts, the first drawing
                    await timed(board, n=3)
                    figures["web.page_ms"] = await timed(base)
                    figures["web.state_ms"] = await timed(base + "/state.json?lang=en")
                    figures["web.state_after_change_ms"] = await timed(
                        base + "/state.json?lang=en", before=lambda: handlers.notify(game))
                    figures["web.board_cached_ms"] = await timed(board)
                    figures["web.board_uncached_ms"] = await timed(
                        board, before=handlers.drawings._done.clear, n=board_repeats)
            finally:
                await runner.cleanup()
    return figures


# --- watching: the bot over sockets, the watchers in a second process ---------------------------


def link_of(fake, channel_id: int, base_url: str) -> str | None:
    """The "Web view" link button's URL on a channel's messages (the table's)."""
    for message in reversed(fake.channel_messages(channel_id)):
        for row in message.get("components") or []:
            for c in row.get("components") or [row]:
                if str(c.get("url") or "").startswith(base_url + "/g/"):
                    return c["url"]
    return None


def start_bot(fake, cfg, web_port: int) -> subprocess.Popen:
    """The unmodified DarwinBot in its own process (fakediscord.launcher), [web] on."""
    from fakediscord.driver import bot_config

    cfg.workdir.mkdir(parents=True, exist_ok=True)
    config = bot_config(cfg, 0, [0])
    config["web"] = {"enabled": True, "host": "127.0.0.1", "port": web_port,
                     "base_url": f"http://127.0.0.1:{web_port}", "rate": 20.0, "burst": 40,
                     "trusted_proxy": True}
    path = cfg.workdir / "bot.json"
    path.write_text(json.dumps(config))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISCORD_TOKEN", None)
    log = open(cfg.workdir / "bot.log", "w")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        [sys.executable, "-m", "fakediscord.launcher", "--api", fake.api_base, "--gateway",
         fake.gateway_url, "--config", str(path), "--log-level", cfg.log_level],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


class Watchers:
    """The watcher process: ``start`` waits until every client has its event stream;
    ``counts`` asks for its counters."""

    def __init__(self, url: str, clients: int) -> None:
        self.url, self.clients = url, clients
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self, timeout: float = 60.0) -> int:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--watch", self.url, "--clients",
            str(self.clients), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not line.startswith(b"ready"):
            raise RuntimeError(f"the watchers did not start: {line!r}")
        return int(line.split()[1])

    async def counts(self) -> dict:
        self.proc.stdin.write(b"mark\n")
        await self.proc.stdin.drain()
        return json.loads(await asyncio.wait_for(self.proc.stdout.readline(), 30.0))

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        with contextlib.suppress(Exception):
            self.proc.stdin.write(b"quit\n")
            await self.proc.stdin.drain()
        try:
            await asyncio.wait_for(self.proc.wait(), 10.0)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


async def watch_run(seed: int, workdir: Path, watchers: int, seconds: float,
                    watched_first: bool) -> dict:
    from fakediscord import FakeDiscord
    from fakediscord.driver import Driver, LoadConfig, cpu_seconds, stop_bots

    cfg = LoadConfig(guilds=4, games=GAMES, shards=1, processes=1, db="sqlite", rate=RATE,
                     seed=seed, rate_limit_share=0.0, workdir=workdir, log_level="WARNING")
    fake = FakeDiscord(shard_count=1, rate_limit_share=0.0, retry_after=0.05, seed=seed,
                       lifetime=600.0)
    await fake.start()
    driver = Driver(fake, cfg)
    driver.build()
    port = free_port()
    proc = start_bot(fake, cfg, port)
    audience = Watchers("", watchers)
    play = None
    windows: dict[str, tuple[float, float]] = {}
    seen: dict = {}
    try:
        await fake.wait_shards(1, timeout=120.0)
        await asyncio.wait_for(fake.commands_synced.wait(), 60.0)
        play = asyncio.create_task(driver.play(600.0))
        deadline = time.monotonic() + 60.0
        while driver.started < GAMES:
            if time.monotonic() > deadline or play.done():
                raise RuntimeError(f"{driver.started} of {GAMES} games started")
            await asyncio.sleep(0.1)
        watched = driver.tables[0]
        deadline = time.monotonic() + 30.0
        while (url := link_of(fake, watched.channel_id, f"http://127.0.0.1:{port}")) is None:
            if time.monotonic() > deadline:
                raise RuntimeError("the watched game's table has no Web view link")
            await asyncio.sleep(0.1)  # the table is posted after the lobby says it started
        audience.url = url
        await asyncio.sleep(1.0)  # the openings' table posts behind
        for phase in (("watched", "alone") if watched_first else ("alone", "watched")):
            if phase == "alone":
                cpu0 = cpu_seconds([proc.pid])
                start = time.monotonic()
                await asyncio.sleep(seconds)
                windows["alone"] = (start, time.monotonic())
                seen["cpu_alone"] = (cpu_seconds([proc.pid]) - cpu0) / seconds
                continue
            seen["connected"] = await audience.start()
            before = await audience.counts()
            cpu0 = cpu_seconds([proc.pid]), cpu_seconds([audience.proc.pid])
            start = time.monotonic()
            await asyncio.sleep(seconds)
            after = await audience.counts()
            windows["watched"] = (start, time.monotonic())
            cpu1 = cpu_seconds([proc.pid]), cpu_seconds([audience.proc.pid])
            seen["cpu"] = [(b - a) / seconds for a, b in zip(cpu0, cpu1, strict=True)]
            await audience.stop()
            seen["requests"] = after["ok"] - before["ok"]
            seen["failed"] = after["failed"] - before["failed"]
            seen["changes"] = after["changes"] - before["changes"]
            seen["live"] = after["live"]
    finally:
        await audience.stop()
        if play is not None:
            play.cancel()
            with contextlib.suppress(BaseException):
                await play
        await stop_bots([proc])
        await fake.close()

    def latencies(window: tuple[float, float]) -> list[float]:
        return [(r.first_call_at - r.sent_at) * 1000 for r in driver.sent
                if window[0] <= r.sent_at < window[1] and r.first_call_at is not None]

    alone, watching = latencies(windows["alone"]), latencies(windows["watched"])
    span = windows["watched"][1] - windows["watched"][0]
    return {"p99_alone": percentile(alone, 99), "p50_alone": percentile(alone, 50),
            "p95_alone": percentile(alone, 95), "p95": percentile(watching, 95),
            "p99": percentile(watching, 99), "p50": percentile(watching, 50),
            "samples": min(len(alone), len(watching)),
            "rps": seen["requests"] / span, "changes": seen["changes"] / span,
            "failed": seen["failed"], "connected": seen["connected"], "live": seen["live"],
            "bot_cpu_alone": seen["cpu_alone"], "bot_cpu": seen["cpu"][0],
            "watchers_cpu": seen["cpu"][1]}


# --- the watcher process ----------------------------------------------------------------------


async def watch(url: str, clients: int) -> None:
    """``clients`` watchers of one game page (see the module's text); answers ``mark`` on
    stdin with its counters (one JSON line), ends on ``quit`` or end of input."""
    import aiohttp

    counters = {"ok": 0, "failed": 0, "changes": 0, "streams": 0, "live": 0}
    ready = asyncio.Event()
    root = url.split("/g/", 1)[0] + "/g/"

    async def fetch(http, target: str, headers: dict) -> bytes | None:
        try:
            async with http.get(target, headers=headers) as r:
                body = await r.read()
                if r.status == 200:
                    counters["ok"] += 1
                    return body
        except aiohttp.ClientError:
            pass
        counters["failed"] += 1
        return None

    async def client(i: int, http) -> None:
        headers = {"X-Forwarded-For": f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}"}
        await fetch(http, url, headers)  # the page itself (its script and style: cached)
        last_seq = last_board = None
        event = None
        try:
            async with http.get(url + "/events?lang=en", headers=headers,
                                timeout=aiohttp.ClientTimeout(total=None)) as r:
                if r.status != 200:
                    counters["failed"] += 1
                    return
                counters["live"] += 1
                async for raw in r.content:
                    line = raw.decode().rstrip("\r\n")
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:") and event == "state":
                        data = json.loads(line[5:])  # state.json's text: no request for it
                        seq = data["seq"]
                        if last_seq is None:  # the position the page was drawn at
                            last_seq, last_board = seq, data.get("board")
                            counters["streams"] += 1
                            if counters["streams"] >= clients:
                                ready.set()
                            continue
                        if seq == last_seq:
                            continue
                        last_seq = seq
                        if i == 0:
                            counters["changes"] += 1
                        board = data.get("board")
                        if board and board != last_board:
                            last_board = board
                            await fetch(http, root + board, headers)
                    elif not line:
                        event = None
        except (TimeoutError, aiohttp.ClientError):
            counters["failed"] += 1
        finally:
            counters["live"] -= 1

    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    async with aiohttp.ClientSession(connector=connector) as http:
        tasks = [asyncio.create_task(client(i, http)) for i in range(clients)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 45.0)
        print(f"ready {counters['streams']}", flush=True)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while True:
            line = (await reader.readline()).strip()
            if line == b"mark":
                print(json.dumps(counters), flush=True)
            else:  # quit, or the end of input
                break
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


# --- the section ------------------------------------------------------------------------------


def load_average() -> float:
    return os.getloadavg()[0]


def run(out, runs: int = RUNS, watchers: int = WATCHERS, seconds: float = SECONDS) -> None:
    out("web.load_average", load_average(), "(1 min, at the start)")
    for name, value in asyncio.run(serving()).items():
        out(name, value, "ms")
    results = []
    for i in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            results.append(asyncio.run(watch_run(i + 1, Path(tmp), watchers, seconds,
                                                 watched_first=bool(i % 2))))

    def med(key: str) -> float:
        return statistics.median(r[key] for r in results)

    out("web.watchers", min(r["connected"] for r in results), "clients with a live stream")
    out("web.watchers_rps", med("rps"), "requests/s")
    out("web.watched_changes_per_s", med("changes"), "positions/s")
    out("web.watchers_failed", max(r["failed"] for r in results), "requests (worst run)")
    out("web.interaction_p50_alone_ms", med("p50_alone"), "ms")
    out("web.interaction_p95_alone_ms", med("p95_alone"), "ms")
    out("web.interaction_p99_alone_ms", med("p99_alone"), "ms")
    out("web.interaction_p50_ms", med("p50"), "ms")
    out("web.interaction_p95_ms", med("p95"), "ms")
    out("web.interaction_p99_ms", med("p99"), f"ms (with {watchers} watchers; goal <= 150)")
    out("web.interaction_p99_worst_ms", max(r["p99"] for r in results),
        f"ms (the worst of {len(results)} runs; alone: "
        f"{max(r['p99_alone'] for r in results):.1f} ms)")
    out("web.interaction_samples", min(r["samples"] for r in results), "per window (fewest)")
    out("web.bot_cpu_alone", med("bot_cpu_alone"), "cores")
    out("web.bot_cpu_watched", med("bot_cpu"), "cores")
    out("web.cpu_ms_per_watcher_request", statistics.median(
        (r["bot_cpu"] - r["bot_cpu_alone"]) * 1000 / r["rps"] for r in results if r["rps"]),
        "ms (the bot's CPU added by the watchers / their requests)")
    out("web.cpu_ms_per_watcher_change", statistics.median(
        (r["bot_cpu"] - r["bot_cpu_alone"]) * 1000 / (r["changes"] * r["connected"])
        for r in results if r["changes"] and r["connected"]),
        "ms (the bot's CPU added by the watchers / positions seen / watchers)")
    out("web.watchers_process_cpu", med("watchers_cpu"), "cores (the 200 clients)")
    out("web.load_average_end", load_average(), "(1 min)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--watchers", type=int, default=WATCHERS)
    parser.add_argument("--seconds", type=float, default=SECONDS, help="each window")
    parser.add_argument("--watch", metavar="URL", help=argparse.SUPPRESS)  # the watchers
    parser.add_argument("--clients", type=int, default=WATCHERS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.watch:
        asyncio.run(watch(args.watch, args.clients))
        return 0
    run(lambda name, value, unit: print(f"{name} {value:.3f} {unit}", flush=True), args.runs,
        args.watchers, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
