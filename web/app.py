"""The web page's aiohttp application: routes, headers, rate limit, caches, live events.

Nothing here changes a game: the routes are GET (and HEAD) only and read the store. What a
page shows is public: the public view (``rules.view(state, None)``, the one the table's images
are drawn from), the seats' names, the standings (``rules.returns``) and the log lines the
table printed (``messages.describe``).

Costs, whatever the number of watchers: a game is read from the store at most once a second
(:class:`Snapshots`; a commit in this process invalidates it at once through
:meth:`WebApp.notify`, which the bot calls from the host's ``on_change`` hook), a board image
is drawn once per (game, position, language, size) (:class:`Drawings`: concurrent requests
wait for the one drawing), a finished game's replay is replayed once (its views are kept for
a few games), and a link token is looked up at most every ``LINK_TTL`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
import random
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from web import pages

log = logging.getLogger("darwin.web")

STATIC = Path(__file__).with_name("static")
STATIC_TYPES = {"web.css": "text/css; charset=utf-8",
                "web.js": "text/javascript; charset=utf-8",
                "icon.svg": "image/svg+xml"}
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
SNAPSHOT_TTL = 1.0  # seconds: a game is read from the store at most this often
LINK_TTL = 5.0  # seconds a token's lookup is kept (a revoke in this process clears it at once)
HEARTBEAT = 15.0  # seconds between two comments on an idle event stream
MAX_STREAMS = 2000  # event streams open at once (past it: 503, the page polls instead)
# After a commit each stream tells its page after a random delay of up to SPREAD_PER_STREAM
# seconds per open stream (at most MAX_SPREAD): 200 watchers' state.json and board requests
# come over a second instead of at once, so the players' interactions never queue behind them.
SPREAD_PER_STREAM = 0.005
MAX_SPREAD = 2.0
LARGE = 2  # ?size=large: the board twice as large
# a board's URL with its position and language (?seq=N&lang=L): its content never changes.
# private: the token is in the path (a reverse proxy may still cache it: the README says how)
IMMUTABLE = "private, max-age=31536000, immutable"
LIVE = ("lobby", "active")
SHOWN = ("lobby", "active", "finished", "cancelled")  # a broken game is not shown
NOT_FOUND = "404: Not Found"

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


@dataclass(frozen=True)
class WebSettings:
    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8081
    base_url: str = ""
    rate: float = 20.0
    burst: int = 40
    trusted_proxy: bool = False


def web_settings(config: dict) -> WebSettings:
    """``[web]`` of the configuration (checked by ``configuration.py``)."""
    s = config.get("web") or {}
    return WebSettings(bool(s.get("enabled", False)), str(s.get("host") or "127.0.0.1"),
                       int(s.get("port", 8081)), str(s.get("base_url") or "").rstrip("/"),
                       float(s.get("rate", 20.0)), int(s.get("burst", 40)),
                       bool(s.get("trusted_proxy", False)))


# --- the rate limit ---------------------------------------------------------------------------


class TokenBuckets:
    """A token bucket per client: ``rate`` requests a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic,
                 size: int = 50_000) -> None:
        self.rate, self.burst, self.clock, self.size = float(rate), float(burst), clock, size
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, at)

    def take(self, client: str) -> float:
        """0 when the request may go on (a token taken), else the seconds until one is due."""
        now = self.clock()
        tokens, at = self._buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.rate
        if client not in self._buckets and len(self._buckets) >= self.size:
            self._forget(now)
        self._buckets[client] = (tokens - 1.0, now)
        return 0.0

    def _forget(self, now: float) -> None:
        """Drop the clients whose bucket is full again (they are as if never seen)."""
        full = self.burst / self.rate
        self._buckets = {c: v for c, v in self._buckets.items() if now - v[1] < full}


def client_of(request: web.Request, trusted_proxy: bool) -> str:
    """The client's address: the last X-Forwarded-For entry (the one our proxy added) when
    ``trusted_proxy``, else the connection's peer."""
    if trusted_proxy:
        forwarded = request.headers.get("X-Forwarded-For", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return request.remote or "?"


# --- the caches -------------------------------------------------------------------------------


@dataclass
class Snapshot:
    """One game as read from the store (its public parts are derived on demand)."""

    game_id: int
    kind: str
    status: str
    seq: int
    guild_id: str | None
    lobby: dict
    state_json: dict | None
    updated_at: float
    options: dict = field(default_factory=dict)
    _view: Any = field(default=None, repr=False)
    _state: Any = field(default=None, repr=False)

    @property
    def version(self) -> tuple:
        return (self.seq, self.status, self.updated_at)

    @property
    def rules(self):
        from engine import get_game

        return get_game(self.kind)

    def state(self):
        if self._state is None and self.state_json is not None:
            self._state = self.rules.from_json(self.state_json)
        return self._state

    def view(self) -> dict | None:
        """The public view (no viewer: what the table's images show)."""
        if self._view is None and self.state() is not None:
            self._view = self.rules.view(self.state(), None)
        return self._view


class Snapshots:
    """The games watched, each read from the store at most once per ``ttl`` seconds (one
    read at a time per game: the others wait for it)."""

    def __init__(self, store, ttl: float = SNAPSHOT_TTL,
                 clock: Callable[[], float] = time.monotonic, size: int = 1000) -> None:
        self.store, self.ttl, self.clock, self.size = store, ttl, clock, size
        self.reads = 0
        self._cache: OrderedDict[int, tuple[float, Snapshot | None]] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    def invalidate(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    async def get(self, game_id: int) -> Snapshot | None:
        hit = self._cache.get(game_id)
        if hit is not None and self.clock() - hit[0] < self.ttl:
            return hit[1]
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            hit = self._cache.get(game_id)
            if hit is not None and self.clock() - hit[0] < self.ttl:
                return hit[1]
            snap = await self._read(game_id)
            self._cache[game_id] = (self.clock(), snap)
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.size:
                old, _ = self._cache.popitem(last=False)
                self._locks.pop(old, None)
            return snap

    async def _read(self, game_id: int) -> Snapshot | None:
        self.reads += 1
        row = await self.store.get_game(game_id)
        if row is None or row.status not in SHOWN:
            return None
        try:
            _options, lobby, state = row.decoded()
        except Exception:  # a damaged row is not shown (the bot reports it elsewhere)
            log.warning("web: game %s cannot be read", game_id)
            return None
        return Snapshot(row.id, row.kind, row.status, row.seq, row.guild_id, lobby or {},
                        state, row.updated_at, _options or {})


class Drawings:
    """PNGs by key, at most ``size`` kept; a key asked while it is being drawn waits for
    that one drawing (so 200 viewers of a new position cost one)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.draws = 0
        self._done: OrderedDict[tuple, bytes] = OrderedDict()
        self._pending: dict[tuple, asyncio.Future] = {}

    async def get(self, key: tuple, draw: Callable[[], bytes]) -> bytes:
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            self.draws += 1
            png = await asyncio.to_thread(draw)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self._pending.pop(key, None)
        future.set_result(png)
        self._done[key] = png
        while len(self._done) > self.size:
            self._done.popitem(last=False)
        return png


def draw_board(kind: str, view: dict, lang: str, scale: int = 1) -> bytes:
    """The board as the table draws it (``images.render``), ``scale`` times as large."""
    from images import render

    png = render(kind, view, lang)
    if scale == 1:
        return png
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        image = image.convert("RGB")
        large = image.resize((image.width * scale, image.height * scale), Image.LANCZOS)
        out = io.BytesIO()
        large.save(out, "PNG", optimize=False, compress_level=6)
        return out.getvalue()


# --- languages --------------------------------------------------------------------------------


def choose_lang(request: web.Request, default: str) -> str:
    """``?lang=`` when the catalogue has it, else the best of Accept-Language (q-values
    honoured, ``it-IT`` counts as ``it``), else ``default``."""
    from messages import languages

    known = languages()
    asked = request.query.get("lang", "")
    if asked in known:
        return asked
    best: tuple[float, int, str] | None = None
    for i, part in enumerate(request.headers.get("Accept-Language", "").split(",")[:20]):
        tag, *params = [p.strip() for p in part.split(";")]
        lang = tag.lower().split("-")[0]
        q = 1.0
        for p in params:
            if p.startswith("q="):
                try:
                    q = float(p[2:])
                except ValueError:
                    q = 0.0
        if lang in known and q > 0 and (best is None or (q, -i) > (best[0], best[1])):
            best = (q, -i, lang)
    return best[2] if best else (default if default in known else "en")


# --- the application --------------------------------------------------------------------------


def _static_files() -> dict[str, tuple[bytes, str]]:
    """name -> (bytes, short content hash), read once."""
    out = {}
    for name in STATIC_TYPES:
        data = (STATIC / name).read_bytes()
        out[name] = (data, hashlib.sha256(data).hexdigest()[:12])
    return out


StatusLines = Callable[[str, dict, str], list[str]]


class WebApp:
    """The handlers and their caches (one per web server)."""

    def __init__(self, store, settings: WebSettings, *, default_lang: str = "en",
                 status_lines: StatusLines | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.settings = settings
        self.default_lang = default_lang
        self.status_lines = status_lines
        self.clock = clock
        self.snapshots = Snapshots(store, clock=clock)
        self.drawings = Drawings()
        self.buckets = TokenBuckets(settings.rate, settings.burst, clock)
        self.static = _static_files()
        self.streams = 0
        self.closing = False
        self._links: OrderedDict[str, tuple[float, tuple | None]] = OrderedDict()
        self._changes: dict[int, asyncio.Event] = {}
        self._frames: OrderedDict[int, list[tuple[str, dict]]] = OrderedDict()
        self._frame_locks: dict[int, asyncio.Lock] = {}
        self._pages: dict[tuple, tuple[float, str]] = {}  # server pages, briefly
        # a game's page data and state.json text per (game, version, language, token,
        # frames): made once per position however many watch (the log's sentences cost)
        self._data: OrderedDict[tuple, list] = OrderedDict()

    # --- what the bot calls ---------------------------------------------------------------

    def notify(self, game_id: int) -> None:
        """A game changed (a commit in this process): read it again, wake its watchers."""
        self.snapshots.invalidate(game_id)
        event = self._changes.pop(game_id, None)
        if event is not None:
            event.set()

    def forget(self, token: str | None = None) -> None:
        """A link was revoked in this process: no cached lookup outlives it."""
        if token is None:
            self._links.clear()
        else:
            self._links.pop(token, None)

    def close(self) -> None:
        """Open event streams end (the server is stopping)."""
        self.closing = True
        for event in self._changes.values():
            event.set()
        self._changes.clear()

    # --- the middleware: limits and headers ------------------------------------------------

    @web.middleware
    async def middleware(self, request: web.Request, handler) -> web.StreamResponse:
        wait = self.buckets.take(client_of(request, self.settings.trusted_proxy))
        if wait > 0:
            response = web.Response(status=429, text="429: Too Many Requests")
            response.headers["Retry-After"] = str(max(1, int(wait + 0.999)))
        elif request.method not in ("GET", "HEAD"):
            response = web.Response(status=405, text="405: Method Not Allowed")
            response.headers["Allow"] = "GET, HEAD"
        else:
            try:
                response = await handler(request)
            except web.HTTPNotFound:
                response = self._not_found()
            except web.HTTPMethodNotAllowed:
                response = web.Response(status=405, text="405: Method Not Allowed")
                response.headers["Allow"] = "GET, HEAD"
            except web.HTTPException as exc:
                response = web.Response(status=exc.status, text=f"{exc.status}: {exc.reason}")
        if not response.prepared:  # an event stream set its own before it started
            self._secure(request, response)
        return response

    @staticmethod
    def _secure(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        if "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = "no-store"

    @staticmethod
    def _not_found() -> web.Response:
        """The one answer to a wrong, unknown or revoked link, or a page turned off."""
        response = web.Response(status=404, text=NOT_FOUND)
        response.headers["Cache-Control"] = "no-store"
        return response

    # --- links ---------------------------------------------------------------------------

    async def _link(self, token: str) -> tuple | None:
        if not TOKEN.fullmatch(token):
            return None
        hit = self._links.get(token)
        if hit is not None and self.clock() - hit[0] < LINK_TTL:
            return hit[1]
        link = await self.store.web_link(token)
        self._links[token] = (self.clock(), link)
        self._links.move_to_end(token)
        while len(self._links) > 10_000:
            self._links.popitem(last=False)
        return link

    async def _game(self, request: web.Request) -> Snapshot:
        """The game a /g/ link opens, or 404."""
        link = await self._link(request.match_info["token"])
        if link is None or link[0] != "game":
            raise web.HTTPNotFound()
        snap = await self.snapshots.get(link[1])
        if snap is None:
            raise web.HTTPNotFound()
        return snap

    def _lang(self, request: web.Request, snap: Snapshot | None) -> str:
        table = (snap.lobby.get("lang") if snap is not None else None) or self.default_lang
        return choose_lang(request, table)

    # --- the game --------------------------------------------------------------------------

    def game_data(self, snap: Snapshot, lang: str, token: str) -> dict:
        """What the page and state.json show, in ``lang``: public only."""
        from messages import describe, t

        rules = snap.rules
        seats = snap.lobby.get("seats") or []
        names = [str(s.get("name", "?")) for s in seats]
        state = snap.state()
        awaited = rules.to_act(state) if state is not None and snap.status == "active" else []
        standings = {}
        if state is not None:
            for row in rules.returns(state):
                standings[row["player"]] = (row.get("rank"), row.get("score"))
        players = [{"seat": i, "name": names[i], "ai": bool(s.get("ai")),
                    "awaited": i in awaited,
                    "rank": standings.get(i, (None, None))[0],
                    "score": standings.get(i, (None, None))[1]} for i, s in enumerate(seats)]
        if snap.status == "finished":  # the final standings in their order; seats while playing
            players.sort(key=lambda p: (p["rank"] is None, p["rank"] or 0, p["seat"]))
        lines = []
        for event in snap.lobby.get("log") or []:
            try:
                line = describe(snap.kind, event, names, lang)
            except Exception:  # an old event a newer wording cannot read: left out
                line = None
            if line:
                lines.append(_plain(line))
        title = t(f"{snap.kind}.name", lang)
        heading = [title]
        if state is not None and snap.status == "active" and self.status_lines is not None:
            try:
                heading = [_plain(x) for x in self.status_lines(snap.kind, snap.view(), lang)]
            except Exception:
                log.exception("web: status lines of game %s", snap.game_id)
        base = f"{token}/"
        board = (f"{base}board.png?seq={snap.seq}&lang={lang}" if state is not None else None)
        return {
            "kind": snap.kind, "title": title, "status": snap.status, "seq": snap.seq,
            "status_text": t(f"web.status.{snap.status}", lang),
            "phase": rules.phase_name(state) if state is not None else None,
            "heading": heading, "players": players,
            "turn": [names[p] for p in awaited if 0 <= p < len(names)],
            "turn_text": (t("web.turn", lang, players=", ".join(names[p] for p in awaited))
                          if awaited else t("web.nobody", lang)),
            "log": lines[-50:], "lang": lang,
            "board": board,
            "board_large": board and board + "&size=large",
            "frames": self._frames_count(snap),
        }

    def _cached_data(self, snap: Snapshot, lang: str, token: str) -> list:
        """[game_data, its JSON text or None, its event-stream bytes or None], made once per
        position and language."""
        key = (snap.game_id, snap.version, lang, token, self._frames_count(snap))
        hit = self._data.get(key)
        if hit is None:
            hit = self._data[key] = [self.game_data(snap, lang, token), None, None]
            while len(self._data) > 256:
                self._data.popitem(last=False)
        return hit

    def _state_text(self, snap: Snapshot, lang: str, token: str) -> str:
        """state.json's text, made once per position and language."""
        hit = self._cached_data(snap, lang, token)
        if hit[1] is None:
            hit[1] = json.dumps(hit[0], ensure_ascii=False)
        return hit[1]

    def _state_event(self, snap: Snapshot, lang: str, token: str) -> bytes:
        """The ``event: state`` carrying state.json's text, encoded once per position and
        language: every stream of that page writes the same bytes (JSON has no raw newline,
        so the data is one line)."""
        hit = self._cached_data(snap, lang, token)
        if hit[2] is None:
            hit[2] = f"event: state\ndata: {self._state_text(snap, lang, token)}\n\n".encode()
        return hit[2]

    def _frames_count(self, snap: Snapshot) -> int:
        frames = self._frames.get(snap.game_id)
        return len(frames) if frames is not None and snap.status == "finished" else 0

    async def game_page(self, request: web.Request) -> web.Response:
        snap = await self._game(request)
        lang = self._lang(request, snap)
        token = request.match_info["token"]
        if snap.status == "finished":
            await self._replay_frames(snap)
        data = self._cached_data(snap, lang, token)[0]
        html = pages.game_page(data, self.static_urls(), pages.words(lang))
        return web.Response(text=html, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store", "Vary": "Accept-Language"})

    async def state_json(self, request: web.Request) -> web.Response:
        snap = await self._game(request)
        lang = self._lang(request, snap)
        if snap.status == "finished":
            await self._replay_frames(snap)
        text = self._state_text(snap, lang, request.match_info["token"])
        return web.Response(text=text,
                            content_type="application/json", charset="utf-8",
                            headers={"Cache-Control": "no-store", "Vary": "Accept-Language"})

    async def board(self, request: web.Request) -> web.Response:
        snap = await self._game(request)
        if snap.view() is None:  # a lobby: no board yet
            raise web.HTTPNotFound()
        lang = self._lang(request, snap)
        scale = LARGE if request.query.get("size") == "large" else 1
        view = snap.view()
        key = ("board", snap.game_id, snap.seq, lang, scale)
        # the URL the page uses names the position and the language: what it shows never
        # changes, so a browser never asks again (any other URL: revalidated by its ETag)
        immutable = (request.query.get("seq") == str(snap.seq)
                     and request.query.get("lang") == lang)
        return await self._png(request, key, lambda: draw_board(snap.kind, view, lang, scale),
                               immutable)

    async def replay_image(self, request: web.Request) -> web.Response:
        snap = await self._game(request)
        if snap.status != "finished":
            raise web.HTTPNotFound()
        frames = await self._replay_frames(snap)
        number = request.match_info["n"]
        if not number.isdigit() or int(number) >= len(frames):
            raise web.HTTPNotFound()
        n = int(number)
        lang = self._lang(request, snap)
        view = frames[n][1]
        return await self._png(request, ("replay", snap.game_id, n, lang, 1),
                               lambda: draw_board(snap.kind, view, lang))

    async def _png(self, request: web.Request, key: tuple, draw,
                   immutable: bool = False) -> web.Response:
        etag = '"' + "-".join(str(k) for k in key) + '"'
        headers = {"ETag": etag, "Cache-Control": IMMUTABLE if immutable else "private, no-cache",
                   "Vary": "Accept-Language"}
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers=headers)
        png = await self.drawings.get(key, draw)
        return web.Response(body=png, content_type="image/png", headers=headers)

    async def _replay_frames(self, snap: Snapshot) -> list[tuple[str, dict]]:
        """A finished game's public views at every phase end, and at its end (replayed once
        from its seed and log, off the event loop; kept for the last few games)."""
        if snap.game_id in self._frames:
            self._frames.move_to_end(snap.game_id)
            return self._frames[snap.game_id]
        lock = self._frame_locks.setdefault(snap.game_id, asyncio.Lock())
        async with lock:
            if snap.game_id not in self._frames:
                rows = [r for r in await self.store.actions(snap.game_id) if r.seq <= snap.seq]
                self._frames[snap.game_id] = await asyncio.to_thread(_replayed, snap, rows)
                while len(self._frames) > 16:
                    old, _ = self._frames.popitem(last=False)
                    self._frame_locks.pop(old, None)
        return self._frames[snap.game_id]

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: ``event: state`` whose data is state.json's text (in the
        page's language, ``?lang=``), once at the start and after every change, so a page
        needs no other request to follow the game but the new board; a comment every
        HEARTBEAT seconds; the stream ends when the game is no longer live (or the link is
        revoked). The event's bytes are made once per position and language and every stream
        writes the same ones."""
        snap = await self._game(request)
        if self.streams >= MAX_STREAMS or self.closing:
            return web.Response(status=503, text="503: Busy", headers={"Retry-After": "5"})
        token = request.match_info["token"]
        lang = self._lang(request, snap)
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})
        self._secure(request, response)
        await response.prepare(request)
        self.streams += 1
        try:
            await response.write(b"retry: 3000\n\n")
            last = None
            quiet_since = self.clock()
            while not self.closing:
                if last is not None and await self._link(token) is None:
                    break  # revoked meanwhile
                snap = await self.snapshots.get(snap.game_id)
                if snap is None:
                    break
                if snap.version != last:
                    if snap.status == "finished":
                        await self._replay_frames(snap)  # the event says how many
                    await response.write(self._state_event(snap, lang, token))
                    last = snap.version
                    quiet_since = self.clock()
                elif self.clock() - quiet_since >= HEARTBEAT:
                    await response.write(b": still here\n\n")
                    quiet_since = self.clock()
                if snap.status not in LIVE:
                    break
                event = self._changes.setdefault(snap.game_id, asyncio.Event())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), SNAPSHOT_TTL)
                if event.is_set() and not self.closing:  # a commit: spread the watchers
                    await asyncio.sleep(random.random() * min(
                        MAX_SPREAD, self.streams * SPREAD_PER_STREAM))
        except (ConnectionResetError, ConnectionError):
            pass
        finally:
            self.streams -= 1
        return response

    # --- the server page -------------------------------------------------------------------

    async def server_page(self, request: web.Request) -> web.Response:
        from host import records

        link = await self._link(request.match_info["token"])
        if link is None or link[0] != "guild":
            raise web.HTTPNotFound()
        guild = link[2]
        settings = await self.store.guild_settings(guild)
        if not settings.get("web_page"):
            raise web.HTTPNotFound()
        lang = choose_lang(request, settings.get("language") or self.default_lang)
        key = (guild, lang)
        hit = self._pages.get(key)
        if hit is None or self.clock() - hit[0] >= 10.0:
            games = []
            for row in await self.store.guild_games(guild, 10):
                results = sorted(await self.store.game_results(row.id), key=lambda r: r.seat)
                games.append({"id": row.id, "kind": row.kind,
                              "players": [r.name or "?" for r in results],
                              "winners": [r.name or "?" for r in results if r.rank == 1]})
            boards = {}
            from engine.core import descriptions

            for d in descriptions():
                board = await records.leaderboard(self.store, guild, d.kind)
                if board:
                    boards[d.kind] = [{"name": s.name or f"AI ({s.level})",
                                       "rating": s.rating, "games": s.games} for s in board]
            html = pages.server_page({"games": games, "boards": boards, "lang": lang},
                                     self.static_urls(), pages.words(lang))
            hit = self._pages[key] = (self.clock(), html)
            if len(self._pages) > 500:
                self._pages.clear()
        return web.Response(text=hit[1], content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store", "Vary": "Accept-Language"})

    # --- static files ----------------------------------------------------------------------

    def static_urls(self) -> dict[str, str]:
        """name -> the URL the pages use (relative to /g/TOKEN and /s/TOKEN)."""
        return {name: f"../static/{name}?v={digest}"
                for name, (_, digest) in self.static.items()}

    async def static_file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.static:
            raise web.HTTPNotFound()
        data, digest = self.static[name]
        etag = f'"{digest}"'
        cache = ("public, max-age=31536000, immutable" if request.query.get("v") == digest
                 else "public, max-age=300")
        headers = {"ETag": etag, "Cache-Control": cache}
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers=headers)
        return web.Response(body=data, headers={**headers, "Content-Type": STATIC_TYPES[name]})


def _plain(text: str) -> str:
    """A catalogue line as a page shows it: without Discord's markdown marks."""
    return re.sub(r"\*\*|__|~~|\\(?=[*_~`|>\\])", "", str(text))


def _replayed(snap: Snapshot, rows: list) -> list[tuple[str, dict]]:
    """The public views at every phase end (``host.replay.replay_states``) and the last."""
    from engine import Seat
    from host.replay import ReplayError, replay_states, seat_actions

    rules = snap.rules
    seats = [Seat(s["id"], s["name"]) for s in snap.lobby.get("seats") or []]
    seed = snap.lobby.get("seed")
    frames: list[tuple[str, dict]] = []
    if type(seed) is int:
        try:
            _, frames = replay_states(rules, seats, seed, snap.options,
                                        seat_actions(rows, seats))
        except ReplayError as exc:
            frames = list(exc.snapshots)
        except Exception:
            log.exception("web: game %s does not replay", snap.game_id)
    last = snap.view()
    if last is not None and (not frames or frames[-1][1] != last):
        frames.append(("over", last))
    return frames


WEB_APP = web.AppKey("web", WebApp)


def make_app(store, settings: WebSettings, *, default_lang: str = "en",
             status_lines: StatusLines | None = None,
             clock: Callable[[], float] = time.monotonic) -> web.Application:
    """The web page's application (``app[WEB_APP]``: its :class:`WebApp`)."""
    handlers = WebApp(store, settings, default_lang=default_lang, status_lines=status_lines,
                      clock=clock)
    app = web.Application(middlewares=[handlers.middleware])
    app[WEB_APP] = handlers
    add = app.router.add_get  # GET and HEAD; the middleware answers any other method 405
    add("/g/{token}", handlers.game_page)
    add("/g/{token}/board.png", handlers.board)
    add("/g/{token}/state.json", handlers.state_json)
    add("/g/{token}/events", handlers.events)
    add("/g/{token}/replay/{n}.png", handlers.replay_image)
    add("/s/{token}", handlers.server_page)
    add("/static/{name}", handlers.static_file)
    return app


class WebServer:
    """The web page's own site: ``[web] host``/``port`` (never [health]'s)."""

    def __init__(self, settings: WebSettings, store, *, default_lang: str = "en",
                 status_lines: StatusLines | None = None) -> None:
        self.settings = settings
        self.app = make_app(store, settings, default_lang=default_lang,
                            status_lines=status_lines)
        self.web: WebApp = self.app[WEB_APP]
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    def notify(self, game_id: int) -> None:
        self.web.notify(game_id)

    def link(self, token: str, page: str = "g") -> str:
        return f"{self.settings.base_url}/{page}/{token}"

    async def start(self) -> None:
        from ops.server import serve

        # shutdown_timeout: event streams end at once (close())
        self._runner, self.port = await serve(self.app, self.settings.host, self.settings.port,
                                              shutdown_timeout=2.0)
        log.info("the web page on http://%s:%s (links: %s)", self.settings.host, self.port,
                 self.settings.base_url)

    async def stop(self) -> None:
        self.web.close()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

