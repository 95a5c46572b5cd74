"""The fake Discord's server: REST routes, the gateway, interactions (see the package doc)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import ipaddress
import itertools
import json
import logging
import random
import secrets
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

log = logging.getLogger("fakediscord")

DISCORD_EPOCH_MS = 1420070400000
API_PREFIX = "/api/v10"
EPHEMERAL = 1 << 6
LOADING = 1 << 7
# @everyone may do what a member does, not manage the server or its channels
EVERYONE_PERMISSIONS = ((1 << 41) - 1) & ~(0x8 | 0x10 | 0x20 | 0x4 | 0x2)
BOT_USER_ID = (1_700_000_000_000 - DISCORD_EPOCH_MS) << 22 | 1


def iso(t: float | None = None) -> str:
    return dt.datetime.fromtimestamp(t if t is not None else time.time(),
                                     dt.UTC).isoformat()


def json_response(data: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    """JSON as Discord sends it: discord.py parses a body only when the content type is
    exactly ``application/json`` (no charset)."""
    response = web.Response(body=json.dumps(data, separators=(",", ":")).encode(),
                            status=status, headers=headers)
    response.headers["Content-Type"] = "application/json"
    return response


def is_loopback(host: str | None) -> bool:
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass
class Call:
    """One REST call as the fake received it."""

    at: float  # time.monotonic() when the request arrived
    method: str
    path: str
    status: int = 0
    interaction_id: int | None = None
    done_at: float = 0.0


@dataclass
class Interaction:
    """An interaction sent to the bot and what the bot answered."""

    id: int
    token: str
    type: int  # 2 command, 3 component
    user_id: int
    channel_id: int
    guild_id: int
    payload: dict
    sent_at: float = 0.0  # monotonic, when the INTERACTION_CREATE left
    first_call_at: float | None = None  # the first REST call about it (a 429'd one too)
    responded_at: float | None = None  # the callback that was accepted
    response_type: int | None = None
    original: dict | None = None  # the original response's message (types 4, 5)
    followups: list[dict] = field(default_factory=list)  # message payloads
    calls: int = 0
    rate_limited: int = 0
    ok_after_limit: bool = False  # a call about it succeeded after a 429
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def ephemeral_texts(self) -> list[str]:
        out = []
        for m in ([self.original] if self.original else []) + self.followups:
            if m and m.get("flags", 0) & EPHEMERAL and not m.get("flags", 0) & LOADING:
                out.append(m.get("content") or "")
        return out


class Guild:
    def __init__(self, fake: FakeDiscord, guild_id: int, name: str) -> None:
        self.fake = fake
        self.id = guild_id
        self.name = name
        self.channels: dict[int, dict] = {}
        self.members: dict[int, dict] = {}
        self.owner_id = BOT_USER_ID

    def create_text_channel(self, name: str) -> int:
        cid = self.fake.snowflake()
        channel = {"id": str(cid), "type": 0, "guild_id": str(self.id), "name": name,
                   "position": len(self.channels), "permission_overwrites": [],
                   "parent_id": None, "nsfw": False, "topic": None, "rate_limit_per_user": 0,
                   "last_message_id": None, "flags": 0}
        self.channels[cid] = channel
        self.fake.channels[cid] = channel
        self.fake.history[cid] = deque(maxlen=self.fake.max_messages_per_channel)
        self.fake.dispatch_guild(self.id, "CHANNEL_CREATE", channel)
        return cid

    def add_member(self, user_id: int) -> None:
        self.members[user_id] = {"user": self.fake.users[user_id], "roles": [],
                                 "joined_at": iso(), "deaf": False, "mute": False, "flags": 0,
                                 "nick": None, "avatar": None, "pending": False,
                                 "premium_since": None, "communication_disabled_until": None}

    def payload(self) -> dict:
        channels = [{k: v for k, v in c.items() if k != "guild_id"}
                    for c in self.channels.values()]
        bot_member = {"user": self.fake.bot_user, "roles": [], "joined_at": iso(),
                      "deaf": False, "mute": False, "flags": 0}
        return {
            "id": str(self.id), "name": self.name, "icon": None, "splash": None,
            "discovery_splash": None, "banner": None, "description": None,
            "owner_id": str(self.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0,
            "premium_subscription_count": 0, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "public_updates_channel_id": None,
            "safety_alerts_channel_id": None, "vanity_url_code": None, "features": [],
            "preferred_locale": "en-US", "max_members": 500000, "application_id": None,
            "premium_progress_bar_enabled": False, "widget_enabled": False,
            "roles": [{"id": str(self.id), "name": "@everyone", "color": 0, "hoist": False,
                       "position": 0, "permissions": str(EVERYONE_PERMISSIONS),
                       "managed": False, "mentionable": False, "flags": 0, "icon": None,
                       "unicode_emoji": None}],
            "emojis": [], "stickers": [], "channels": channels, "threads": [],
            "members": [bot_member], "member_count": len(self.members) + 1, "large": False,
            "unavailable": False, "joined_at": iso(), "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }


class Session:
    """One gateway session (a shard): its socket while connected, its sequence and the
    recent events (for RESUME)."""

    def __init__(self, shard: int, count: int) -> None:
        self.id = secrets.token_hex(16)
        self.shard = shard
        self.count = count
        self.ws: web.WebSocketResponse | None = None
        self.compress = None
        self.seq = 0
        self.sent: deque[tuple[int, str]] = deque(maxlen=5000)
        self.identified = asyncio.Event()

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.count == self.shard


class FakeDiscord:
    """The fake server. ``shard_count``: what GET /gateway/bot advises; ``rate_limit_share``:
    the share of REST calls (interaction callbacks excepted: Discord does not limit them)
    answered 429 with ``retry_after`` seconds, and ``rate_limit_first``: the first calls of
    each kind (channels, webhooks...) answered 429 whatever the share (for tests); ``lifetime``: the server stops serving after
    that many seconds; ``max_calls``: REST calls recorded at most (later ones are counted)."""

    def __init__(self, *, shard_count: int = 1, rate_limit_share: float = 0.0,
                 retry_after: float = 0.05, seed: int = 0, lifetime: float = 3600.0,
                 rate_limit_first: int = 0,
                 max_calls: int = 2_000_000, max_messages_per_channel: int = 50,
                 max_interactions: int = 100_000, heartbeat_interval_ms: int = 41250) -> None:
        self.shard_count = shard_count
        self.rate_limit_share = rate_limit_share
        self.rate_limit_first = rate_limit_first
        self._first_limited: dict[str, int] = {}
        self.retry_after = retry_after
        self._dropped_at = float("-inf")  # drop_connection: when the fake last dropped a shard
        self.random = random.Random(seed)
        self.lifetime = lifetime
        self.max_calls = max_calls
        self.max_messages_per_channel = max_messages_per_channel
        self.max_interactions = max_interactions
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self._counter = itertools.count(1)
        self._guild_ms = itertools.count(1_600_000_000_000 - DISCORD_EPOCH_MS)
        self.application_id = BOT_USER_ID
        self.bot_user = {"id": str(BOT_USER_ID), "username": "Darwin", "discriminator": "0",
                         "global_name": None, "avatar": None, "bot": True, "flags": 0,
                         "public_flags": 0, "system": False}
        self.users: dict[int, dict] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, dict] = {}
        self.history: dict[int, deque[int]] = {}  # channel -> its recent public message ids
        self.messages: dict[int, dict] = {}
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.commands: dict[str, dict] = {}  # name -> the synced command (global)
        self.commands_synced = asyncio.Event()
        self.calls: list[Call] = []
        self.call_count = 0
        self.rate_limited = 0
        self.unhandled: list[str] = []
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        self.files_received = 0
        self.resumes = 0
        self.on_message = None  # callback(message payload, created: bool) for drivers
        self.on_response = None  # callback(Interaction) after each answer about it
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._started = 0.0
        self._stopper: asyncio.Task | None = None

    # --- ids, addresses ------------------------------------------------------------------------

    def snowflake(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    # --- lifecycle -----------------------------------------------------------------------------

    async def start(self, port: int = 0) -> None:
        @web.middleware
        async def loopback_only(request, handler):
            peer = request.transport.get_extra_info("peername") if request.transport else None
            if not peer or not is_loopback(peer[0]):
                return web.Response(status=403, text="loopback only")
            if time.monotonic() - self._started > self.lifetime:
                return web.Response(status=503, text="the fake Discord's lifetime is over")
            return await handler(request)

        app = web.Application(middlewares=[loopback_only], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway/", self._gateway)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        self._started = time.monotonic()
        self._stopper = asyncio.get_running_loop().create_task(self._expire())

    async def _expire(self) -> None:
        await asyncio.sleep(self.lifetime)
        log.warning("fake Discord: lifetime of %.0f s over, closing the gateway", self.lifetime)
        await self._close_sockets()

    async def _close_sockets(self) -> None:
        for s in list(self.sessions.values()):
            if s.ws is not None and not s.ws.closed:
                with contextlib.suppress(Exception):
                    await s.ws.close(code=1000)

    async def close(self) -> None:
        if self._stopper is not None:
            self._stopper.cancel()
        await self._close_sockets()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    # --- the world -----------------------------------------------------------------------------

    def create_user(self, name: str) -> int:
        uid = self.snowflake()
        self.users[uid] = {"id": str(uid), "username": name, "discriminator": "0",
                           "global_name": name, "avatar": None, "bot": False, "flags": 0,
                           "public_flags": 0}
        return uid

    def create_guild(self, name: str) -> Guild:
        """A guild whose id spreads evenly over the shards (consecutive timestamps)."""
        gid = next(self._guild_ms) << 22
        guild = self.guilds[gid] = Guild(self, gid, name)
        self.dispatch_guild(gid, "GUILD_CREATE", None)
        return guild

    def shard_of(self, guild_id: int, count: int | None = None) -> int:
        return (guild_id >> 22) % (count or self.shard_count)

    def connected_shards(self) -> set[int]:
        return {s.shard for s in self.sessions.values()
                if s.ws is not None and not s.ws.closed and s.identified.is_set()}

    async def wait_shards(self, shards: int, timeout: float = 60.0) -> None:
        """Until ``shards`` distinct shards have identified and are connected."""
        deadline = time.monotonic() + timeout
        while len(self.connected_shards()) < shards:
            if time.monotonic() > deadline:
                raise TimeoutError(f"only shards {sorted(self.connected_shards())} connected")
            await asyncio.sleep(0.05)

    # --- gateway -------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        compress = request.query.get("compress")
        if compress not in (None, "zlib-stream"):
            await ws.close(code=4000, message=b"unsupported compression")
            return ws
        zctx = zlib.compressobj() if compress == "zlib-stream" else None
        session: Session | None = None

        async def send_raw(payload: dict) -> None:
            text = json.dumps(payload, separators=(",", ":"))
            if zctx is not None:
                await ws.send_bytes(zctx.compress(text.encode()) + zctx.flush(zlib.Z_SYNC_FLUSH))
            else:
                await ws.send_str(text)

        await send_raw({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                        "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                        break
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:  # heartbeat
                    await send_raw({"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:  # identify
                    d = data["d"]
                    shard, count = d.get("shard") or [0, 1]
                    if count < 1 or not 0 <= shard < count:
                        await ws.close(code=4010, message=b"invalid shard")
                        break
                    session = Session(shard, count)
                    session.ws, session.compress = ws, send_raw
                    self.sessions[session.id] = session
                    self.identifies += 1
                    mine = [g for g in self.guilds.values() if session.owns(g.id)]
                    await self._send(session, "READY", {
                        "v": 10, "user": self.bot_user, "session_id": session.id,
                        "resume_gateway_url": self.gateway_url, "shard": [shard, count],
                        "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
                        "application": {"id": str(self.application_id), "flags": 0},
                        "private_channels": [], "relationships": [], "presences": [],
                        "geo_ordered_rtc_regions": [], "user_settings": {}})
                    for g in mine:
                        await self._send(session, "GUILD_CREATE", g.payload())
                    session.identified.set()
                elif op == 6:  # resume
                    d = data["d"]
                    old = self.sessions.get(d.get("session_id"))
                    if old is None:
                        await send_raw({"op": 9, "d": False, "s": None, "t": None})
                        continue
                    session = old
                    session.ws, session.compress = ws, send_raw
                    self.resumes += 1
                    since = int(d.get("seq") or 0)
                    for seq, text in list(session.sent):
                        if seq > since:
                            await send_raw(json.loads(text))
                    await self._send(session, "RESUMED", {})
                # op 3 presence, op 8 request members, others: nothing to answer
        finally:
            if session is not None and session.ws is ws:
                session.ws = None
        return ws

    async def _send(self, session: Session, event: str, data: Any) -> None:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.sent.append((session.seq, json.dumps(payload, separators=(",", ":"))))
        if session.ws is not None and not session.ws.closed:
            await session.compress(payload)

    def _session_for(self, guild_id: int) -> Session | None:
        for s in self.sessions.values():
            if s.identified.is_set() and s.owns(guild_id) and s.ws is not None:
                return s
        return None

    def dispatch_guild(self, guild_id: int, event: str, data: Any) -> None:
        """Send a guild's event to the session that owns it (if any is connected)."""
        session = self._session_for(guild_id)
        if session is None:
            return
        if event == "GUILD_CREATE":
            data = self.guilds[guild_id].payload()
        asyncio.get_running_loop().create_task(self._send(session, event, data))

    async def drop_connection(self, shard: int) -> None:
        """Close a shard's socket without ending its session: the bot resumes."""
        self._dropped_at = time.monotonic()  # interactions wait for the resume (_deliver)
        for s in self.sessions.values():
            if s.shard == shard and s.ws is not None:
                await s.ws.close(code=4000, message=b"fake reconnect")

    # --- interactions --------------------------------------------------------------------------

    def _member(self, guild: Guild, user_id: int, channel_id: int) -> dict:
        if user_id not in guild.members:
            guild.add_member(user_id)
        member = dict(guild.members[user_id])
        member["permissions"] = str(EVERYONE_PERMISSIONS)
        return member

    def _new_interaction(self, itype: int, user_id: int, channel_id: int, data: dict,
                         message: dict | None = None) -> Interaction:
        channel = self.channels[channel_id]
        guild = self.guilds[int(channel["guild_id"])]
        iid = self.snowflake()
        token = "fake_" + secrets.token_urlsafe(24)
        payload = {
            "id": str(iid), "application_id": str(self.application_id), "type": itype,
            "token": token, "version": 1, "data": data, "channel_id": str(channel_id),
            "channel": dict(channel), "guild_id": str(guild.id), "locale": "en-US",
            "guild_locale": "en-US", "member": self._member(guild, user_id, channel_id),
            "app_permissions": str(EVERYONE_PERMISSIONS), "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)}, "context": 0,
            "attachment_size_limit": 26214400,
        }
        if message is not None:
            payload["message"] = message
        record = Interaction(iid, token, itype, user_id, channel_id, guild.id, payload)
        self.interactions[iid] = record
        self._by_token[token] = record
        while len(self.interactions) > self.max_interactions:  # bounded: forget the oldest
            old = self.interactions.pop(next(iter(self.interactions)))
            self._by_token.pop(old.token, None)
            for m in [old.original, *old.followups]:
                if m is not None and m["flags"] & EPHEMERAL:
                    self.messages.pop(int(m["id"]), None)
        return record

    async def _deliver(self, record: Interaction) -> Interaction:
        session = self._session_for(record.guild_id)
        deadline = self._dropped_at + 30.0
        while session is None and time.monotonic() < deadline:
            # a shard the fake dropped is reconnecting: delivered once it has resumed
            await asyncio.sleep(0.05)
            session = self._session_for(record.guild_id)
        if session is None:
            raise RuntimeError(f"no connected shard for guild {record.guild_id}")
        record.sent_at = time.monotonic()
        await self._send(session, "INTERACTION_CREATE", record.payload)
        return record

    def command_data(self, path: str, options: dict[str, Any]) -> dict:
        """A slash command's ``data`` as Discord sends it: ``"cubosaurs pass"`` and the
        options by name, typed from the synced command."""
        names = path.split()
        command = self.commands.get(names[0])
        if command is None:
            raise KeyError(f"command /{names[0]} was not synced")
        node, nested = command, []
        for name in names[1:]:
            node = next(o for o in node.get("options", []) if o["name"] == name
                        and o["type"] in (1, 2))
            nested.append(node)
        leaf_options = []
        for name, value in options.items():
            spec = next((o for o in node.get("options", []) if o["name"] == name), None)
            if spec is None:
                raise KeyError(f"/{path} has no option {name!r}")
            leaf_options.append({"name": name, "type": spec["type"], "value": value})
        inner: list[dict] = leaf_options
        for sub in reversed(nested):
            inner = [{"name": sub["name"], "type": sub["type"], "options": inner}]
        return {"id": command["id"], "name": command["name"], "type": 1, "options": inner,
                "guild_id": None}

    async def slash(self, user_id: int, channel_id: int, path: str, **options) -> Interaction:
        data = self.command_data(path, options)
        data["guild_id"] = self.channels[channel_id]["guild_id"]
        return await self._deliver(self._new_interaction(2, user_id, channel_id, data))

    async def click(self, user_id: int, message: dict, custom_id: str) -> Interaction:
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._deliver(self._new_interaction(
            3, user_id, int(message["channel_id"]), data, message))

    async def select(self, user_id: int, message: dict, custom_id: str,
                     values: list[str]) -> Interaction:
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._deliver(self._new_interaction(
            3, user_id, int(message["channel_id"]), data, message))

    # --- messages ------------------------------------------------------------------------------

    def last_message(self, channel_id: int, with_components: bool = False) -> dict | None:
        for mid in reversed(self.history.get(channel_id, ())):
            m = self.messages.get(mid)
            if m is not None and (not with_components or m.get("components")):
                return m
        return None

    def channel_messages(self, channel_id: int) -> list[dict]:
        return [self.messages[m] for m in self.history.get(channel_id, ()) if m in self.messages]

    def _make_message(self, channel_id: int, body: dict, files: list[tuple[str, int]],
                      interaction: Interaction | None = None, public: bool = True) -> dict:
        mid = self.snowflake()
        channel = self.channels.get(channel_id, {})
        message = {
            "id": str(mid), "channel_id": str(channel_id), "author": self.bot_user,
            "content": body.get("content") or "", "timestamp": iso(), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": self._attachments([], body, files), "embeds": body.get("embeds") or [],
            "pinned": False, "type": 0 if interaction is None else 20,
            "flags": int(body.get("flags") or 0), "components": body.get("components") or [],
            "allowed_mentions": body.get("allowed_mentions"),
        }
        if channel.get("guild_id"):
            message["guild_id"] = channel["guild_id"]
        if interaction is not None:
            message["webhook_id"] = str(self.application_id)
            message["interaction_metadata"] = {
                "id": str(interaction.id), "type": interaction.type,
                "user": self.users.get(interaction.user_id), "authorizing_integration_owners": {}}
        self.messages[mid] = message
        if public and not message["flags"] & EPHEMERAL and channel_id in self.history:
            hist = self.history[channel_id]
            if len(hist) == hist.maxlen:
                self.messages.pop(hist[0], None)
            hist.append(mid)
            channel["last_message_id"] = str(mid)
        if self.on_message is not None:
            self.on_message(message, True)
        return message

    def _attachments(self, kept: list[dict], body: dict, files: list[tuple[str, int]]) -> list:
        out = []
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            out = [a for a in kept if str(a["id"]) in keep]
        else:
            out = list(kept)
        for name, size in files:
            aid = self.snowflake()
            out.append({"id": str(aid), "filename": name, "size": size,
                        "url": f"http://127.0.0.1:{self.port}/attachments/{aid}/{name}",
                        "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{aid}/{name}",
                        "content_type": "image/png" if name.endswith(".png") else None})
        return out

    def _edit_message(self, message: dict, body: dict, files: list[tuple[str, int]]) -> dict:
        for key in ("content", "embeds", "components", "allowed_mentions"):
            if key in body:
                message[key] = body[key] if body[key] is not None else (
                    "" if key == "content" else [])
        if "flags" in body and body["flags"] is not None:
            message["flags"] = (message["flags"] & EPHEMERAL) | int(body["flags"])
        message["flags"] &= ~LOADING
        message["attachments"] = self._attachments(message["attachments"], body, files)
        message["edited_timestamp"] = iso()
        if self.on_message is not None:
            self.on_message(message, False)
        return message

    # --- REST ----------------------------------------------------------------------------------

    async def _body(self, request: web.Request) -> tuple[dict, list[tuple[str, int]]]:
        """The JSON body, or a multipart's ``payload_json`` and its files (name, size)."""
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            body = json.loads(form.get("payload_json") or "{}")
            files = []
            for key, value in form.items():
                if key.startswith("files") and hasattr(value, "file"):
                    files.append((value.filename, len(value.file.read())))
                    self.files_received += 1
            return body, files
        if request.can_read_body:
            raw = await request.read()
            return (json.loads(raw) if raw else {}), []
        return {}, []

    def _rate_limit(self, route_key: str) -> web.Response:
        reset_after = self.retry_after
        headers = {
            "Via": "1.1 google", "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": route_key, "X-RateLimit-Scope": "user",
            "Retry-After": str(max(1, round(reset_after))),
        }
        return json_response({"message": "You are being rate limited.",
                              "retry_after": reset_after, "global": False, "code": 0},
                             status=429, headers=headers)

    @staticmethod
    def _ok_headers(route_key: str) -> dict:
        return {"X-RateLimit-Limit": "50", "X-RateLimit-Remaining": "49",
                "X-RateLimit-Reset": f"{time.time() + 1:.3f}", "X-RateLimit-Reset-After": "1.000",
                "X-RateLimit-Bucket": route_key}

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        call = Call(time.monotonic(), request.method, request.path.removeprefix(API_PREFIX))
        self.call_count += 1
        if len(self.calls) < self.max_calls:
            self.calls.append(call)
        parts = call.path.strip("/").split("/")
        record = None
        if parts[0] == "interactions" and len(parts) >= 3:
            record = self.interactions.get(int(parts[1])) if parts[1].isdigit() else None
        elif parts[0] == "webhooks" and len(parts) >= 3:
            record = self._by_token.get(parts[2])
        if record is not None:
            call.interaction_id = record.id
            record.calls += 1
            if record.first_call_at is None:
                record.first_call_at = call.at
        route_key = "fake-" + "-".join(p if not p.isdigit() else "id" for p in parts[:3])
        limited = False
        if parts[0] in ("channels", "webhooks", "guilds"):  # not the start-up or callbacks
            first = self._first_limited.get(parts[0], 0)
            if first < self.rate_limit_first:
                self._first_limited[parts[0]] = first + 1
                limited = True
            elif self.rate_limit_share > 0:
                limited = self.random.random() < self.rate_limit_share
        try:
            if limited:
                self.rate_limited += 1
                if record is not None:
                    record.rate_limited += 1
                with contextlib.suppress(Exception):
                    await request.read()
                response = self._rate_limit(route_key)
            else:
                status, data = await self._route(request, parts, record)
                if status == 204:
                    response = web.Response(status=204, headers=self._ok_headers(route_key))
                else:
                    response = json_response(data, status=status,
                                             headers=self._ok_headers(route_key))
        except Exception as exc:  # noqa: BLE001 - a fake's bug is the bot's 500, and logged
            log.exception("fake Discord failed on %s %s", request.method, call.path)
            response = json_response({"message": f"fake error: {exc}", "code": 0}, status=500)
        call.status = response.status
        call.done_at = time.monotonic()
        if record is not None and record.rate_limited and 200 <= response.status < 300:
            record.ok_after_limit = True
        return response

    async def _route(self, request: web.Request, parts: list[str],
                     record: Interaction | None) -> tuple[int, Any]:
        method = request.method
        head = parts[0]
        if head == "users" and len(parts) == 2:
            if parts[1] == "@me":
                return 200, self.bot_user
            user = self.users.get(int(parts[1])) if parts[1].isdigit() else None
            return (200, user) if user else self._unknown("user", 10013)
        if head == "oauth2" and parts[1:] == ["applications", "@me"]:
            return 200, {"id": str(self.application_id), "name": "Darwin", "icon": None,
                         "description": "", "bot_public": True, "bot_require_code_grant": False,
                         "owner": self.users.get(0) or {**self.bot_user, "bot": False},
                         "verify_key": "0" * 64, "flags": 0, "team": None, "summary": "",
                         "rpc_origins": [], "bot": self.bot_user}
        if head == "gateway":
            if parts[1:] == ["bot"]:
                return 200, {"url": self.gateway_url.rstrip("/"), "shards": self.shard_count,
                             "session_start_limit": {"total": 1000, "remaining": 1000,
                                                     "reset_after": 0,
                                                     "max_concurrency": 16}}
            return 200, {"url": self.gateway_url.rstrip("/")}
        if head == "applications":
            return await self._commands(request, parts)
        if head == "interactions" and parts[-1] == "callback":
            return await self._callback(request, record)
        if head == "webhooks":
            return await self._webhook(request, parts, record)
        if head == "channels" and len(parts) >= 2 and parts[1].isdigit():
            return await self._channel(request, int(parts[1]), parts[2:])
        if head == "guilds" and len(parts) >= 2 and parts[1].isdigit():
            guild = self.guilds.get(int(parts[1]))
            if guild is None:
                return self._unknown("guild", 10004)
            if len(parts) == 2 and method == "GET":
                return 200, guild.payload()
            if len(parts) == 4 and parts[2] == "members" and parts[3].isdigit():
                member = guild.members.get(int(parts[3]))
                return (200, member) if member else self._unknown("member", 10007)
            if len(parts) == 3 and parts[2] == "channels":
                return 200, list(guild.channels.values())
        self.unhandled.append(f"{method} {request.path}")
        return 404, {"message": "404: Not Found (the fake does not serve this route)", "code": 0}

    @staticmethod
    def _unknown(what: str, code: int) -> tuple[int, dict]:
        return 404, {"message": f"Unknown {what.title()}", "code": code}

    async def _commands(self, request: web.Request, parts: list[str]) -> tuple[int, Any]:
        # /applications/{app}/commands or /applications/{app}/guilds/{guild}/commands
        if parts[-1] != "commands":
            return 404, {"message": "404: Not Found", "code": 0}
        guild_id = parts[3] if len(parts) == 5 else None
        if request.method == "PUT":
            body, _ = await self._body(request)
            out = []
            for cmd in body:
                cmd = dict(cmd)
                cmd.setdefault("type", 1)
                cmd.update(id=str(self.snowflake()), application_id=str(self.application_id),
                           version=str(self.snowflake()), guild_id=guild_id)
                cmd.setdefault("default_member_permissions", None)
                cmd.setdefault("nsfw", False)
                out.append(cmd)
            if guild_id is None:
                self.commands = {c["name"]: c for c in out}
                self.commands_synced.set()
            return 200, out
        if request.method == "GET":
            return 200, list(self.commands.values()) if guild_id is None else []
        return 404, {"message": "404: Not Found", "code": 0}

    async def _callback(self, request: web.Request, record: Interaction | None) -> tuple[int, Any]:
        if record is None:
            return self._unknown("interaction", 10062)
        body, files = await self._body(request)
        if record.responded_at is not None:
            return 400, {"message": "Interaction has already been acknowledged.", "code": 40060}
        rtype = int(body.get("type", 0))
        data = body.get("data") or {}
        record.responded_at = time.monotonic()
        record.response_type = rtype
        message = None
        if rtype == 4:
            message = self._make_message(record.channel_id, data, files, record)
            record.original = message
        elif rtype == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self._make_message(record.channel_id, {"flags": flags}, [], record)
            record.original = message
        elif rtype == 7:
            target = record.payload.get("message")
            stored = self.messages.get(int(target["id"])) if target else None
            if stored is not None:
                message = self._edit_message(stored, data, files)
        record.answered.set()
        if self.on_response is not None:
            self.on_response(record)
        interaction = {"id": str(record.id), "type": record.type,
                       "response_message_loading": rtype == 5,
                       "response_message_ephemeral": bool(
                           message and message["flags"] & EPHEMERAL)}
        if message is not None:
            interaction["response_message_id"] = message["id"]
        resource: dict[str, Any] = {"type": rtype}
        if message is not None and rtype in (4, 7):
            resource["message"] = message
        return 200, {"interaction": interaction, "resource": resource}

    async def _webhook(self, request: web.Request, parts: list[str],
                       record: Interaction | None) -> tuple[int, Any]:
        if record is None:
            return self._unknown("webhook", 10015)
        method = request.method
        if len(parts) == 3 and method == "POST":  # a followup
            body, files = await self._body(request)
            original = record.original
            if original is not None and original["flags"] & LOADING:
                # the first followup after a deferral replaces the "thinking" message
                message = self._edit_message(original, body, files)
            else:
                message = self._make_message(record.channel_id, body, files, record)
            record.followups.append(message)
            if self.on_response is not None:
                self.on_response(record)
            return 200, message
        if len(parts) == 5 and parts[3] == "messages":
            which = parts[4]
            if which == "@original":
                message = record.original
                if message is None and record.response_type in (6, 7):
                    # a component's deferred update or update: @original is its message
                    target = record.payload.get("message")
                    message = self.messages.get(int(target["id"])) if target else None
            else:
                message = self.messages.get(int(which)) if which.isdigit() else None
            if message is None:
                return self._unknown("message", 10008)
            if method == "GET":
                return 200, message
            if method == "PATCH":
                body, files = await self._body(request)
                message = self._edit_message(message, body, files)
                if message is not record.original and which != "@original" \
                        and not any(m is message for m in record.followups):
                    record.followups.append(message)
                return 200, message
            if method == "DELETE":
                self.messages.pop(int(message["id"]), None)
                return 204, None
        return 404, {"message": "404: Not Found", "code": 0}

    async def _channel(self, request: web.Request, channel_id: int,
                       rest: list[str]) -> tuple[int, Any]:
        channel = self.channels.get(channel_id)
        if channel is None:
            return self._unknown("channel", 10003)
        method = request.method
        if not rest and method == "GET":
            return 200, channel
        if rest == ["messages"] and method == "POST":
            body, files = await self._body(request)
            return 200, self._make_message(channel_id, body, files)
        if rest == ["messages"] and method == "GET":
            return 200, list(reversed(self.channel_messages(channel_id)))
        if len(rest) == 2 and rest[0] == "messages" and rest[1].isdigit():
            message = self.messages.get(int(rest[1]))
            if message is None or int(message["channel_id"]) != channel_id:
                return self._unknown("message", 10008)
            if method == "GET":
                return 200, message
            if method == "PATCH":
                body, files = await self._body(request)
                return 200, self._edit_message(message, body, files)
            if method == "DELETE":
                self.messages.pop(int(rest[1]), None)
                return 204, None
        if rest == ["threads"] and method == "POST":
            body, _ = await self._body(request)
            guild = self.guilds[int(channel["guild_id"])]
            tid = guild.create_text_channel(body.get("name") or "thread")
            thread = self.channels[tid]
            thread.update(type=int(body.get("type") or 11), parent_id=str(channel_id),
                          owner_id=str(BOT_USER_ID), member_count=1, message_count=0,
                          thread_metadata={"archived": False, "auto_archive_duration": 1440,
                                           "archive_timestamp": iso(), "locked": False})
            return 200, thread
        if rest == ["typing"]:
            return 204, None
        return 404, {"message": "404: Not Found", "code": 0}

    # --- figures -------------------------------------------------------------------------------

    def calls_between(self, start: float, end: float) -> list[Call]:
        return [c for c in self.calls if start <= c.at < end]
