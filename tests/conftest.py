"""Shared fixtures: a Darwin bot wired to a temporary database, run under SimCord."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest
import pytest_asyncio

# headless Chromium for the browser tests: the `browser` fixture, and the screenshots' list
from tests.browser import browser, pytest_terminal_summary  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent


def make_config(tmp_path: Path, **games) -> dict:
    with open(ROOT / "config.example.toml", "rb") as f:
        config = tomllib.load(f)
    config = copy.deepcopy(config)
    config["storage"]["database"] = str(tmp_path / "darwin.sqlite3")
    config["discord"]["shard_count"] = 1  # SimCord runs a sharded bot with a known count
    # AI seats think in threads (ai_workers 0): a spawned worker process knows neither a game
    # a test registers nor a rule a test patches; the pool's own tests give it workers
    config["games"].update({"ai_delay": 1.0, "turn_timer": 0, "ai_workers": 0}, **games)
    return config


@pytest.fixture
def darwin_config(tmp_path):
    return make_config(tmp_path)


@pytest.fixture
async def simcord_bot(darwin_config):
    """The bot under test. SimCord detaches bots without closing them, so the fixture stops
    the bot's services (timers, database thread) itself; a test that makes another bot (a
    restart) stops that one too."""
    from cogs.bot import DarwinBot

    bot = DarwinBot(darwin_config)
    yield bot
    await bot.stop_services()


class VirtualClock:
    """The host's clock on SimCord's virtual time (deadlines, records and timers agree)."""

    def __init__(self, env) -> None:
        self.env = env

    def now(self) -> float:
        return self.env.now().timestamp()

    def call_later(self, delay, callback):
        """Run ``callback`` after ``delay`` seconds of virtual time only. A plain
        ``loop.call_later`` would also fire on the wall clock, and SimCord waits for such a
        timer in real time when it is due before its settle deadline (an auto-pass after 2 s
        would cost every test 2 real seconds)."""
        import asyncio

        from simcord import SetupError

        async def later():
            try:
                await self.env.external_wait(asyncio.sleep(delay), reason="host timer")
            except SetupError:  # scheduled from outside the bot's own work: a plain wait
                await asyncio.sleep(delay)
            callback()

        return asyncio.get_running_loop().create_task(later())


def virtual_pacing(env, bot=None) -> None:
    """Table writes wait on SimCord's virtual clock: a wait never blocks settlement and ends
    only when the test advances time (``flush``), as a player's think time would. The host's
    clock reads the same virtual time (a bot made for a restart takes
    ``clock=VirtualClock(env)``)."""
    import asyncio

    bot = bot or env.bot
    bot.host.clock = VirtualClock(env)
    pacer = bot.listener.pacer
    pacer.now = lambda: env.now().timestamp()
    pacer.sleep = lambda seconds: env.external_wait(asyncio.sleep(seconds),
                                                    reason="channel write pacing")


async def flush(env, step: float = 1.0, limit: int = 120) -> None:
    """Advance virtual time until every pending table write is made."""
    for _ in range(limit):
        if env.bot.listener.idle():
            return
        await env.advance_time(step)
    raise AssertionError("the table writer never became idle")


class ChannelWrites:
    """Every post and edit the bot makes to channel messages, with its virtual time: channel
    calls, and (unless ``channel_only``) the public followups and message edits made through
    an interaction's token (issue 25: a table's posts and edits, as its presses' followups;
    their path starts with ``/webhooks/``). Interaction answers themselves are not counted."""

    def __init__(self, env, tag=None, channel_only: bool = False) -> None:
        self.env = env
        self.writes: list[tuple[float, str, str, dict]] = []  # (time, method, path, json)
        self.tags: list = []  # tag() at each write (for example the game's phase)
        http = env.bot.http
        original = http.request

        async def request(route, **kwargs):
            path = route.path
            if path.startswith("/channels/{channel_id}/messages") and route.method in (
                    "POST", "PATCH"):
                payload = kwargs.get("json")
                if payload is None and kwargs.get("form"):
                    import json

                    form = kwargs["form"]
                    payload = next((json.loads(f["value"]) for f in form
                                    if f.get("name") == "payload_json"), {})
                self.writes.append((env.now().timestamp(), route.method, path, payload or {}))
                self.tags.append(tag() if tag else None)
            return await original(route, **kwargs)

        http.request = request
        adapter = getattr(env, "_webhook_adapter", None)
        if channel_only or adapter is None:
            return
        hook_request = adapter.request

        async def webhook_request(route, session, **kwargs):
            data = await hook_request(route, session, **kwargs)
            path = route.url.split("/api/v", 1)[-1].split("?", 1)[0]
            path = path[path.find("/"):]
            if path.startswith("/webhooks/") and route.method in ("POST", "PATCH") \
                    and isinstance(data, dict) and not int(data.get("flags") or 0) & 64:
                payload = kwargs.get("payload")
                if payload is None and kwargs.get("multipart"):
                    import json

                    payload = next((json.loads(f["value"]) for f in kwargs["multipart"]
                                    if f.get("name") == "payload_json"), {})
                self.writes.append((env.now().timestamp(), route.method, path, payload or {}))
                self.tags.append(tag() if tag else None)
            return data

        adapter.request = webhook_request

    def posts(self) -> list[dict]:
        return [w[3] for w in self.writes if w[1] == "POST"]

    def mentions(self) -> list[tuple[str, object]]:
        """(user id, tag) for every user a post was allowed to mention."""
        return [(str(u), tag) for w, tag in zip(self.writes, self.tags, strict=True) if w[1] == "POST"
                for u in (w[3].get("allowed_mentions") or {}).get("users", [])]

    def max_in_window(self, window: float = 5.0) -> int:
        times = sorted(w[0] for w in self.writes)
        best = 0
        j = 0
        for i, at in enumerate(times):
            while times[j] <= at - window:
                j += 1
            best = max(best, i - j + 1)
        return best


@pytest_asyncio.fixture
async def simcord_env(simcord_bot, request):
    """SimCord's environment (as its plugin makes it), with table writes on virtual time."""
    from simcord import Env

    marker = request.node.get_closest_marker("simcord")
    env = Env(simcord_bot, **(marker.kwargs if marker else {}))
    await env.start()
    virtual_pacing(env)
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


@pytest.fixture(scope="session")
def pg_cluster():
    """A throwaway PostgreSQL cluster for the whole session (tests/pg.py), or a skip."""
    from tests.pg import SKIP, Cluster, binaries

    try:
        import asyncpg  # noqa: F401
    except ImportError:
        pytest.skip("asyncpg is not installed (pip install -r requirements.txt)")
    bin_dir = binaries()
    if bin_dir is None:
        pytest.skip(SKIP)
    cluster = Cluster(bin_dir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
async def pg_url(pg_cluster):
    """A new, empty database (a schema of its own) in the session's cluster: its URL."""
    return await pg_cluster.new_database()


class Statements(list):
    """The SQL a store's connection executes while in the ``with`` block (its execute and
    execute_fetchall wrapped, then given back)."""

    METHODS = ("execute", "execute_fetchall")

    def __init__(self, store) -> None:
        super().__init__()
        self.conn = store._conn()

    def __enter__(self) -> Statements:
        self.originals = {name: getattr(self.conn, name) for name in self.METHODS}

        def counted(original):
            async def counting(sql, *args):
                self.append(sql)
                return await original(sql, *args)
            return counting

        for name, original in self.originals.items():
            setattr(self.conn, name, counted(original))
        return self

    def __exit__(self, *exc_info) -> None:
        for name, original in self.originals.items():
            setattr(self.conn, name, original)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request, tmp_path):
    """What Store.open takes, once per backend: a new SQLite file, a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "data" / "darwin.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def sealed():
    """A tiny game with secret simultaneous steps (tests/secret_game.py), registered for the
    test only."""
    from engine.core import _REGISTRY
    from tests.secret_game import install

    game = install()
    yield game
    _REGISTRY.pop(game.kind, None)
