"""Operating Darwin (issue 24, part B), in one process: AI steps that fail, the health and
metrics endpoint of a running bot (SimCord), and what a stopping bot does with interactions.
The real process under SIGTERM is tests/test_stop_sockets.py."""

from __future__ import annotations

import asyncio
import gc
import json
import re

import aiohttp
import pytest

from messages import t
from ops import memory
from ops.interactions import Interactions, attach, mark
from ops.metrics import LagMonitor, route_of
from ops.server import CachedProbe
from tests.conftest import flush, make_config, virtual_pacing

# --- pieces ---------------------------------------------------------------------------------


def test_routes_are_labels_without_ids_or_tokens():
    assert route_of("/api/v10/channels/123/messages/456") == "/channels/:id/messages/:id"
    assert route_of("/api/v10/interactions/99/aW50ZXJhY3Rpb24/callback") == \
        "/interactions/:id/:token/callback"
    assert route_of("/api/v10/webhooks/7/tok-en_x/messages/@original") == \
        "/webhooks/:id/:token/messages/@original"
    assert route_of("/api/v10/applications/5/commands") == "/applications/:id/commands"


async def test_an_interaction_is_followed_to_the_end_of_its_handler():
    seen = []

    class Sink:
        def first_answer(self, kind, seconds):
            seen.append(("answer", kind))

        def interaction_done(self, kind, outcome, seconds):
            seen.append(("done", kind, outcome))

    book = Interactions(Sink())

    async def handler(refuse: bool):
        attach()
        await asyncio.sleep(0.01)
        book.answered(1 if refuse else 2)
        if refuse:
            mark("refused")
        await asyncio.sleep(0.01)

    token = book.begin(1, 2)
    first = asyncio.get_running_loop().create_task(handler(True))  # inherits the record
    book.end(token)
    token = book.begin(2, 3)
    second = asyncio.get_running_loop().create_task(handler(False))
    book.end(token)
    mark("failed")  # outside any interaction: nothing
    await asyncio.sleep(0)  # the handlers start (and attach)
    assert not await book.wait_idle(0.005)
    assert await book.wait_idle(2.0)
    await asyncio.gather(first, second)
    await asyncio.sleep(0)
    assert sorted(seen) == [("answer", "command"), ("answer", "component"),
                            ("done", "command", "refused"), ("done", "component", "ok")]
    assert book.running == {}


async def test_the_lag_monitor_and_the_cached_store_probe():
    lag = LagMonitor(period=0.01)
    lag.record(0.2, 100.0)
    lag.record(0.01, 105.0)
    assert lag.worst() == 0.2
    lag.record(0.0, 111.0)  # 10 s window
    assert lag.worst() == 0.01
    writes = []

    async def probe():
        writes.append(1)

    cached = CachedProbe(probe)
    assert await cached() is None and await cached() is None
    assert len(writes) == 1  # at most one write every few seconds, whatever the scrapes


# --- the endpoint of a running bot (SimCord) ---------------------------------------------------


def health_config(tmp_path, enabled: bool = True):
    config = make_config(tmp_path)
    config["health"] = {"enabled": enabled, "host": "127.0.0.1", "port": 0}
    return config


async def _get(bot, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, \
            http.get(f"http://127.0.0.1:{bot.ops.server.port}{path}") as r:
        return r.status, await r.text()


def sample(text: str, name: str, **labels) -> float:
    """The value of one sample of the exposition (0.0 when absent)."""
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        m = re.match(r"([a-zA-Z_:]+)(\{(.*)\})? (\S+)$", line)
        if m is None or m.group(1) != name:
            continue
        got = dict(re.findall(r'(\w+)="([^"]*)"', m.group(3) or ""))
        if all(got.get(k) == v for k, v in labels.items()):
            return float(m.group(4))
    return 0.0


@pytest.fixture
async def health_env(tmp_path):
    from simcord import Env

    from cogs.bot import DarwinBot

    bot = DarwinBot(health_config(tmp_path))
    env = Env(bot)
    await env.start()
    virtual_pacing(env)
    bot.ops.lag.stop()  # a task waking 4 times a second would keep SimCord from settling
    bot.ops.lag.last_tick = float("inf")  # ... so the loop check trusts the samples below
    try:
        yield env
    finally:
        await env.shutdown()
        await bot.stop_services()


async def test_healthz_and_metrics_of_a_running_bot(health_env, monkeypatch):
    from tests.test_discord import open_table

    env = health_env
    bot = env.bot
    assert bot.ops.server is not None and bot.ops.server.port
    status, body = await _get(bot, "/healthz")
    assert (status, json.loads(body)) == (200, {"status": "ok"})

    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    seat = game.awaiting()[0]
    by_id = {str(u.id): u for u in users}
    user = by_id[game.seats[seat]["id"]]
    other = next(u for u in users if u is not user)
    refused = await other.slash(channel, "evo end")  # not their turn: refused
    assert refused.ephemeral
    await flush(env)
    status, text = await _get(bot, "/metrics")
    assert status == 200
    assert sample(text, "darwin_interactions_total", kind="command", outcome="ok") >= 1
    assert sample(text, "darwin_interactions_total", kind="command", outcome="refused") == 1
    assert sample(text, "darwin_interactions_total", kind="component", outcome="ok") >= 2
    assert sample(text, "darwin_interaction_seconds_count", kind="component") >= 2
    assert sample(text, "darwin_games", kind="evo", status="active") == 1
    assert sample(text, "darwin_games_loaded", kind="evo") == 1
    assert sample(text, "darwin_gateway_connected", shard="0") == 1
    frozen, thaws = gc.get_freeze_count(), memory.THAWED["thaws"]
    assert re.search(rf"^darwin_gc_frozen_objects {frozen}\.0$", text, re.M)
    assert re.search(rf"^darwin_gc_thaws_total {thaws}\.0$", text, re.M)
    garbage = memory.THAWED["garbage"]
    assert re.search(rf"^darwin_gc_frozen_garbage {garbage}\.0$", text, re.M)
    assert "darwin_event_loop_lag_seconds_bucket" in text
    assert "process_resident_memory_bytes" in text or "process_cpu_seconds_total" in text
    commits = sample(text, "darwin_commits_total", outcome="ok")
    result = await user.slash(channel, "evo end")
    assert t("bot.ok") in (result.response.content or "") or result.followups
    status, text = await _get(bot, "/metrics")
    assert sample(text, "darwin_commits_total", outcome="ok") == commits + 1
    assert sample(text, "darwin_commit_seconds_count") == commits + 1

    # the store stops taking writes: 503 with the reason (the probe's cache is by-passed)
    from store import StoreError

    async def refuse():
        raise StoreError("disk full")

    monkeypatch.setattr(bot.store, "probe", refuse)
    for check in bot.ops.health.checks:
        if isinstance(check, CachedProbe):
            check._at = float("-inf")
    status, body = await _get(bot, "/healthz")
    assert status == 503 and json.loads(body) == {"status": "unhealthy",
                                                  "reasons": ["store not writable"]}
    monkeypatch.undo()
    for check in bot.ops.health.checks:
        if isinstance(check, CachedProbe):
            check._at = float("-inf")
    # the event loop was blocked for 1.5 s a moment ago
    import time

    bot.ops.lag.record(1.5, time.monotonic())
    status, body = await _get(bot, "/healthz")
    assert status == 503 and json.loads(body)["reasons"] == ["event loop stalled 1.5 s"]
    bot.ops.lag.samples.clear()
    assert (await _get(bot, "/healthz"))[0] == 200
    # the gateway is gone
    monkeypatch.setattr(bot, "is_ready", lambda: False)
    status, body = await _get(bot, "/healthz")
    assert status == 503 and json.loads(body)["reasons"] == ["gateway not connected yet"]


async def test_an_ai_seat_that_keeps_failing_is_announced_once_and_counted(health_env,
                                                                         monkeypatch):
    import host.ai_pool as ai_pool_module
    import host.host as host_module
    from tests.test_discord import open_table

    def broken(*args):
        raise RuntimeError("no move")

    monkeypatch.setattr(ai_pool_module, "ai_action", broken)
    # the AI's move runs in a thread, so SimCord arms its retries on real time: short ones
    monkeypatch.setattr(host_module, "RETRY_FIRST_DELAY", 0.01)
    monkeypatch.setattr(host_module, "RETRY_MAX_DELAY", 0.05)
    env = health_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    ann = guild.add_member(env.create_user("ann"))
    game = await open_table(env, channel, [ann], ais=2)
    while 0 in game.awaiting():
        action = game.rules.legal_actions(game.state, 0)[0]
        await env.bot.host.act(channel.id, ann.id, action)
    notice = t("bot.ai_failing", name=game.seats[game.awaiting()[0]]["name"])

    def notices() -> int:
        return [m.content for m in channel.history()].count(notice)

    live = env.bot.host.game_in(channel.id)
    for _ in range(400):
        await env.advance_time(1.0)
        if notices() and live.ai_failures >= 6:
            break
        await asyncio.sleep(0.02)
    await flush(env)
    assert notices() == 1 and live.ai_failures >= 6  # told once, still trying
    status, text = await _get(env.bot, "/metrics")
    assert sample(text, "darwin_ai_step_failures_total", kind="evo") >= 4


async def test_the_endpoint_is_off_unless_enabled(tmp_path):
    from simcord import Env

    from cogs.bot import DarwinBot

    bot = DarwinBot(health_config(tmp_path, enabled=False))
    env = Env(bot)
    await env.start()
    try:
        assert bot.ops.server is None
    finally:
        await env.shutdown()
        await bot.stop_services()


# --- a stopping bot ---------------------------------------------------------------------------


async def test_a_stopping_bot_turns_interactions_away_and_closes_its_store(simcord_env):
    """Once a stop began, a command is answered "Darwin is restarting" and nothing is done;
    the store ends closed (and the SQLite file has no -wal left)."""
    from pathlib import Path

    from tests.test_discord import open_table

    env = simcord_env
    bot = env.bot
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    seq = game.seq
    user = next(u for u in users if str(u.id) == game.seats[game.awaiting()[0]]["id"])
    bot.stopping = True
    result = await user.slash(channel, "evo end")
    assert result.ephemeral and t("bot.error.restarting") in (result.response.content or "")
    assert game.seq == seq and len(await bot.store.actions(game.id)) == seq
    status = await bot.ops.interactions.wait_idle(1.0)
    assert status
    await bot.stop_services(within=2.0)
    assert bot.store.closed
    database = Path(bot.config["storage"]["database"])
    assert database.exists() and not Path(f"{database}-wal").exists()


# --- the health check's client (Docker HEALTHCHECK, compose) -----------------------------------


async def test_the_probe_exits_0_only_when_healthz_answers_200(health_env, monkeypatch):
    from ops import probe

    bot = health_env.bot
    url = f"http://127.0.0.1:{bot.ops.server.port}/healthz"
    assert await asyncio.to_thread(probe.main, ["--url", url]) == 0
    monkeypatch.setattr(bot, "is_ready", lambda: False)
    assert await asyncio.to_thread(probe.main, ["--url", url]) == 1
    await bot.ops.stop()  # nobody listens any more
    assert await asyncio.to_thread(probe.main, ["--url", url]) == 1


def test_the_probe_reads_the_address_as_the_bot_does(tmp_path, monkeypatch):
    from ops.probe import address

    for name in ("DARWIN_HEALTH_ENABLED", "DARWIN_HEALTH_HOST", "DARWIN_HEALTH_PORT"):
        monkeypatch.delenv(name, raising=False)
    config = tmp_path / "config.toml"
    config.write_text('[health]\nenabled = true\nhost = "0.0.0.0"\nport = 9100\n')
    assert address(config) == (True, "127.0.0.1", 9100)
    config.write_text("[games]\nai_delay = 1\n")
    assert address(config) == (False, "127.0.0.1", 8080)
    monkeypatch.setenv("DARWIN_HEALTH_ENABLED", "1")
    monkeypatch.setenv("DARWIN_HEALTH_PORT", "9200")
    assert address(config) == (True, "127.0.0.1", 9200)


def test_the_image_and_compose_check_health_and_stop_with_sigterm():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    docker = (root / "Dockerfile").read_text()
    assert re.search(r'^HEALTHCHECK .*\\\n\s+CMD \["python", "-m", "ops.probe"\]', docker, re.M)
    assert re.search(r"^ENV DARWIN_HEALTH_ENABLED=1$", docker, re.M)
    assert re.search(r"^STOPSIGNAL SIGTERM$", docker, re.M)
    assert re.search(r'^CMD \["python", "bot.py"\]$', docker, re.M)  # python is process 1
    compose = (root / "docker-compose.yml").read_text()
    anchor = compose[compose.index("x-bot: &bot"):compose.index("services:")]
    assert 'test: ["CMD", "python", "-m", "ops.probe"]' in anchor
    assert len(re.findall(r"<<: \*bot$", compose, re.M)) == 2  # both bot services inherit it


async def test_signals_stop_the_bot_and_a_closed_bot_gives_them_back(simcord_env):
    """SIGTERM/SIGINT close a real process's bot; once closed, the bot no longer holds them
    (bot.py may wait to retry a connection: a signal then ends the process)."""
    import signal

    bot = simcord_env.bot
    loop = asyncio.get_running_loop()
    bot.stop_on_signals()
    try:
        assert {signal.SIGTERM, signal.SIGINT} <= set(loop._signal_handlers)
        await bot.close()
        assert bot.stopping and bot.store.closed
        assert not {signal.SIGTERM, signal.SIGINT} & set(loop._signal_handlers)
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
