"""The bot over real sockets: the unmodified DarwinBot in its own process, connected to the
fake Discord (``fakediscord``) on 127.0.0.1, plays a few Cubosaurs games for a few seconds
with fake players while a share of its REST calls is answered 429 and its gateway socket is
dropped once (it resumes)."""

from __future__ import annotations

import asyncio
import json
import zlib

from fakediscord import FakeDiscord
from fakediscord.driver import LoadConfig, run_load


async def test_a_small_load_over_sockets(tmp_path):
    cfg = LoadConfig(guilds=2, games=4, shards=1, processes=1, db="sqlite", rate=25.0,
                     seconds=7.0, seed=3, rate_limit_share=0.1, rate_limit_first=2,
                     workdir=tmp_path,
                     reconnect_after=3.0, settle_seconds=10.0)
    lines: list[str] = []
    report = await run_load(cfg, out=lines.append)
    assert any(x.startswith("load.interaction_p99_ms ") for x in lines)
    # REST calls by Discord's bucket: the interaction endpoints carry the table's posts and
    # edits (presses answered by editing the table, later posts their followups: issue 25;
    # a channel call only for a table nobody pressed for 14 minutes), GC pauses measured
    assert report["load.exempt_calls_per_move"] > 0
    assert report["load.global_calls_per_move"] == 0
    assert report["load.gc_max_pause_ms"] >= 0
    assert report["load.bot_exit_codes"] == [0]  # SIGTERM closed it cleanly
    assert report["load.games_started"] == 4
    # every interaction was answered by the bot (its callback reached the fake)
    assert report["load.interactions"] > 20
    assert report["load.unanswered"] == 0
    # 429s (channel messages, webhooks) were answered, retried by discord.py and succeeded in
    # the end; an interaction whose followup was rate limited still got it (quick moves are
    # answered in the interaction's callback, which is not rate limited, so there may be none)
    assert report["load.rate_limited"] >= 4
    assert report["load.not_retried"] == 0
    assert report["load.rate_limited_delivered"] == report["load.rate_limited_interactions"]
    # moves were made, and every acknowledged move is stored (each person's stored moves are
    # exactly the acknowledged ones); each stored state is the replay of its log
    assert report["load.moves_acked"] >= 8
    assert report["details"]["moves_stored"] == report["load.moves_acked"]
    assert report["load.lost"] == 0 and report["load.not_exact"] == 0
    # the gateway: one IDENTIFY, one RESUME after the dropped socket; images as multipart
    assert report["load.identifies"] == 1 and report["load.resumes"] == 1
    assert report["load.files_received"] > 0
    assert report["load.unhandled_routes"] == 0


async def test_the_gateway_speaks_zlib_stream_and_routes_guilds_by_shard():
    """READY and GUILD_CREATE per shard ((guild_id >> 22) % count), compressed as asked."""
    import aiohttp

    async with FakeDiscord(shard_count=2) as fake:
        guilds = [fake.create_guild(f"g{i}") for i in range(4)]
        async with aiohttp.ClientSession() as http:
            async with http.get(fake.api_base + "/gateway/bot") as r:
                assert r.headers["Content-Type"] == "application/json"
                info = await r.json()
            assert info["shards"] == 2 and info["url"].startswith("ws://127.0.0.1:")
            async with http.ws_connect(info["url"] + "/?v=10&encoding=json"
                                       "&compress=zlib-stream") as ws:
                inflate = zlib.decompressobj()

                async def receive() -> dict:
                    msg = await asyncio.wait_for(ws.receive(), 5)
                    return json.loads(inflate.decompress(msg.data))

                assert (await receive())["op"] == 10
                await ws.send_json({"op": 2, "d": {"token": "fake", "shard": [1, 2],
                                                   "intents": 0, "properties": {}}})
                ready = await receive()
                assert ready["t"] == "READY" and ready["d"]["shard"] == [1, 2]
                mine = {str(g.id) for g in guilds if (g.id >> 22) % 2 == 1}
                assert {g["id"] for g in ready["d"]["guilds"]} == mine and len(mine) == 2
                created = {(await receive())["d"]["id"] for _ in mine}
                assert created == mine
                await ws.send_json({"op": 1, "d": 2})
                assert (await receive())["op"] == 11
