"""``python bot.py`` as a real process against the fake Discord over sockets, stopped with
SIGTERM in the middle of play (issue 24): it exits with status 0 well within its bound,
leaves no SQLite -wal file, every move it acknowledged is stored (and nothing it did not),
its /healthz and /metrics answered while it ran, and the games go on after the next start.
"""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import time
from pathlib import Path

import aiohttp

from fakediscord import FakeDiscord
from fakediscord.botpy import start_bot_py, write_config
from fakediscord.driver import Driver, LoadConfig, check_store
from ops.stop import STOP_WITHIN
from tests.test_ops import sample


class StoppingDriver(Driver):
    """The load driver's players, who shrug when the bot's socket is gone (it is stopping):
    the interaction that could not be sent is simply not made."""

    async def step(self, table):
        saved = (table.stage, table.ais_added, table.seq_done, table.game_id, table.menu)
        try:
            return await super().step(table)
        except RuntimeError:  # "no connected shard": the bot closed its gateway
            (table.stage, table.ais_added, table.seq_done, table.game_id,
             table.menu) = saved
            return None

    def after_restart(self) -> None:
        """What the players do when the bot is back: an interaction that never got an answer
        is made again; every table is looked at."""
        for table in self.tables:
            if table.pending is not None and table.pending.response_type is None:
                table.seq_done = -1
            table.pending = None
            table.queued = False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, \
            http.get(f"http://127.0.0.1:{port}{path}", timeout=aiohttp.ClientTimeout(5)) as r:
        return r.status, await r.text()


async def until_healthy(port: int, proc, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the bot exited"
        try:
            status, body = await get(port, "/healthz")
            if status == 200:
                return json.loads(body)
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.2)
    raise AssertionError("the bot never became healthy")


async def sigterm(proc, timeout: float = 20.0) -> tuple[int, float]:
    """SIGTERM, then the exit status and the seconds it took."""
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    while proc.poll() is None and time.monotonic() - start < timeout:
        await asyncio.sleep(0.02)
    if proc.poll() is None:
        proc.kill()
        proc.wait()
        raise AssertionError(f"the bot did not exit within {timeout} s of SIGTERM")
    return proc.returncode, time.monotonic() - start


async def stored_positions(cfg: LoadConfig, driver: Driver) -> dict[int, tuple[str, int]]:
    from store import Store

    async with Store.open(cfg.workdir / "darwin.sqlite3") as store:
        out = {}
        for table in driver.tables:
            if table.game_id is not None:
                row = await store.get_game(table.game_id)
                if row is not None:
                    out[table.game_id] = (row.status, row.seq)
        return out


async def test_sigterm_in_the_middle_of_play(tmp_path):
    cfg = LoadConfig(guilds=2, games=6, shards=1, processes=1, db="sqlite", rate=30.0,
                     seed=5, rate_limit_share=0.1, rate_limit_first=2, workdir=tmp_path)
    fake = FakeDiscord(shard_count=1, rate_limit_share=cfg.rate_limit_share, retry_after=0.05,
                       seed=cfg.seed, rate_limit_first=cfg.rate_limit_first, lifetime=900.0)
    await fake.start()
    driver = StoppingDriver(fake, cfg)
    driver.build()
    port = free_port()
    database = tmp_path / "darwin.sqlite3"
    config = write_config(tmp_path / "config.toml", database, health_port=port)
    procs = []
    try:
        # --- first run: play, watch it, SIGTERM in the middle of play -------------------------
        procs.append(start_bot_py(fake, config, tmp_path, "bot-1.log"))
        await fake.wait_shards(1, timeout=60.0)
        await asyncio.wait_for(fake.commands_synced.wait(), 60.0)
        assert await until_healthy(port, procs[0]) == {"status": "ok"}
        play = asyncio.create_task(driver.play(120.0))
        await asyncio.sleep(6.0)
        status, text = await get(port, "/metrics")
        assert status == 200
        assert sample(text, "darwin_interactions_total", kind="command", outcome="ok") > 0
        assert sample(text, "darwin_interactions_total", kind="component", outcome="ok") > 0
        assert sample(text, "darwin_interaction_first_answer_seconds_count",
                      kind="component") > 0
        assert sample(text, "darwin_rest_requests_total", method="POST",
                      route="/interactions/:id/:token/callback", status="2xx") > 0
        assert sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                   if line.startswith("darwin_rest_requests_total{")
                   and 'status="429"' in line) >= 2  # the fake's first 429s
        assert sample(text, "darwin_commits_total", outcome="ok") > 0
        assert sample(text, "darwin_games", kind="cubosaurs", status="active") > 0
        assert sample(text, "darwin_gateway_connected", shard="0") == 1
        assert sample(text, "darwin_event_loop_lag_seconds_count") > 0
        moves_before = sum(len(t.moves) for t in driver.tables)
        assert moves_before > 10, "play had not begun"
        code, seconds = await sigterm(procs[0])
        await asyncio.sleep(0.3)  # the players notice
        play.cancel()
        assert code == 0, (tmp_path / "bot-1.log").read_text()[-3000:]
        assert seconds < STOP_WITHIN
        assert not Path(f"{database}-wal").exists()
        log = (tmp_path / "bot-1.log").read_text()
        assert "SIGTERM: stopping" in log and "Traceback" not in log
        await driver.settle(1.0)
        driver.classify()
        checks = await check_store(driver, cfg)
        assert checks["lost"] == [] and checks["not_exact"] == []
        acked_first = sum(len(t.acked) for t in driver.tables)
        assert acked_first >= 10
        before = await stored_positions(cfg, driver)

        # --- second run: the games go on ------------------------------------------------------
        driver.after_restart()
        procs.append(start_bot_py(fake, config, tmp_path, "bot-2.log"))
        await fake.wait_shards(1, timeout=60.0)
        await until_healthy(port, procs[1])
        play = asyncio.create_task(driver.play(8.0))
        await play
        await driver.settle(5.0)
        code, seconds = await sigterm(procs[1])
        assert code == 0 and seconds < STOP_WITHIN
        assert not Path(f"{database}-wal").exists()
        driver.classify()
        checks = await check_store(driver, cfg)
        assert checks["lost"] == [] and checks["not_exact"] == []
        assert sum(len(t.acked) for t in driver.tables) > acked_first
        after = await stored_positions(cfg, driver)
        for game_id, (status, seq) in before.items():
            if status == "active":  # every game that was being played moved on
                assert after[game_id][1] > seq or after[game_id][0] == "finished", game_id
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        await fake.close()
