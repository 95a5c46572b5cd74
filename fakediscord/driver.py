"""A load run: the fake Discord, the bot in OS processes, seeded fake players, the figures
and the end checks (``bench/load.py`` is its command line; ``tests/test_load_sockets.py``
runs a small one).

Games are Cubosaurs by default (the cheapest full game to drive by commands), or any mix of
the four games (``kinds``): one fake person per game and AI seats (AI delay 0; as many as the
game needs at least). A Cubosaurs person plays from the table's latest message, as a person
would: the **Keep** button or ``/cubosaurs keep``, or **Pass…** (a private menu) and then
the menu or ``/cubosaurs pass card:…``. In the other games (EVO's card windows and
Climate's secret steps included) the person presses a button or chooses in a menu of the
live table drawn for them, and when the table awaits them with nothing to press (EVO's bids
and moves, Climate's private panel) asks ``/<game> hint`` and presses its **Play** button.
The first ``to_end`` games are served first, so that they are played to their end. Every interaction is paced at ``rate`` per second
over all games. An interaction's latency is from its INTERACTION_CREATE leaving the fake to
the bot's first REST call about it arriving.

An action is *acknowledged* when the bot said it was taken: a slash command's reply is
``bot.ok`` or the Undo offer; a press was deferred (type 6) and not followed by a private
refusal. At the end every acknowledged action must be in the store (each person's stored
moves are exactly their acknowledged ones, in order) and every game's stored state must
equal the replay of its seed and action log (``host.replay.replay_state``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from fakediscord.server import EPHEMERAL, FakeDiscord, Interaction

ROOT = Path(__file__).resolve().parent.parent
ACT = re.compile(r"dw:a:(\d+):(\d+):(\{.*\})")
CHOICE = re.compile(r"dw:c:(\d+):(\d+):(\d+):pass")
LOBBY = re.compile(r"dw:l:(\d+):(\w+)")
SELECT = re.compile(r"dw:s:(\d+):(\d+):(\d+)")


@dataclass
class LoadConfig:
    guilds: int = 4
    games: int = 8
    shards: int = 1
    processes: int = 1
    db: str = "sqlite"  # or "postgresql"
    database_url: str = ""  # postgresql://… when db is postgresql
    rate: float = 50.0
    seconds: float = 60.0
    seed: int = 1
    ais: int = 1
    rate_limit_share: float = 0.05
    rate_limit_first: int = 0  # the first calls of each kind answered 429 (tests)
    retry_after: float = 0.05
    workdir: Path = Path("load-run")
    log_level: str = "WARNING"
    settle_seconds: float = 20.0
    reconnect_after: float | None = None  # drop shard 0's socket then: the bot resumes
    diagnose: bool = False  # the bots log long garbage collections and event-loop stalls
    kinds: tuple[str, ...] = ("cubosaurs",)  # the games, in turn over the tables
    to_end: int = 0  # the first tables are served first: played to their end


def components(message: dict | None) -> list[dict]:
    out = []
    for row in (message or {}).get("components") or []:
        out.extend(row.get("components") or [row])
    return out


def custom_ids(message: dict | None) -> list[str]:
    return [c.get("custom_id") or "" for c in components(message)]


@dataclass
class Table:
    """One game as its fake person sees it."""

    index: int
    guild_id: int
    channel_id: int
    user_id: int
    rnd: random.Random
    stage: str = "new"  # new, ai, start, play, over
    game_id: int | None = None
    seq_done: int = -1  # the last position the person acted at
    pending: Interaction | None = None
    pending_kind: str = ""
    pending_action: dict | None = None
    menu: Interaction | None = None  # the private Pass… menu, when one is open
    queued: bool = False
    ais_added: int = 0
    live: bool = False  # its table has been posted
    kind: str = "cubosaurs"
    name: str = ""  # the person's name (the table names whom it awaits)
    ais: int = 1
    hinted: str = ""  # the table's text when the person last asked for a hint
    first: bool = False  # served first (played to its end)
    sent_at: float = 0.0
    moves: list[tuple[Interaction, str, dict]] = field(default_factory=list)
    acked: list[dict] = field(default_factory=list)


class Driver:
    def __init__(self, fake: FakeDiscord, cfg: LoadConfig) -> None:
        from messages import t

        self.fake = fake
        self.cfg = cfg
        self.ok_texts = {t("bot.ok", "en"), t("community.undo.offer", "en")}
        self.tables: list[Table] = []
        self.by_channel: dict[int, Table] = {}
        self.ready: deque[Table] = deque()
        self.sent: list[Interaction] = []
        self.fake.on_message = self._on_message
        self.fake.on_response = self._on_response
        self.acked_ids: set[int] = set()
        self.all_started_at: float | None = None  # when the last game's Start was answered
        self.started = 0
        self.kind_of: dict[int, tuple[Table, str]] = {}
        self.lobby_done: set[int] = set()
        self.refusals: dict[int, str] = {}

    # --- the world -----------------------------------------------------------------------------

    def build(self) -> None:
        rnd = random.Random(self.cfg.seed)
        guilds = [self.fake.create_guild(f"guild-{i}") for i in range(self.cfg.guilds)]
        for i in range(self.cfg.games):
            guild = guilds[i % len(guilds)]
            channel = guild.create_text_channel(f"game-{i}")
            user = self.fake.create_user(f"player-{i}")
            guild.add_member(user)
            table = Table(i, guild.id, channel, user, random.Random(rnd.getrandbits(64)))
            table.kind = self.cfg.kinds[i % len(self.cfg.kinds)]
            table.name = f"player-{i}"
            table.ais = max(self.cfg.ais, min_players(table.kind) - 1)
            table.first = i < self.cfg.to_end
            self.tables.append(table)
            self.by_channel[channel] = table

    # --- readiness (called by the fake as the bot answers) -------------------------------------

    def _enqueue(self, table: Table) -> None:
        if not table.queued and table.stage != "over":
            table.queued = True
            if table.first:
                self.ready.appendleft(table)
            else:
                self.ready.append(table)

    def _on_message(self, message: dict, created: bool) -> None:
        table = self.by_channel.get(int(message["channel_id"]))
        if table is None or message.get("flags", 0) & EPHEMERAL or table.stage != "play":
            return
        ids = custom_ids(message)
        seq = self._table_seq(table, message)
        if seq is not None or (table.kind != "cubosaurs" and message.get("content")):
            table.live = True
        if seq is not None and seq > table.seq_done:
            self._clear(table)  # a new position: the person may act
        elif table.game_id is not None and f"dw:rm:{table.game_id}" in ids:
            table.stage = "over"
            table.pending = None
        elif table.kind != "cubosaurs" and table.pending is None:
            self._enqueue(table)  # the table changed: maybe it awaits the person

    def _on_response(self, record: Interaction) -> None:
        table, kind = self.kind_of.get(record.id, (None, ""))
        if table is None:
            return
        refused = bool(record.ephemeral_texts) and not self._acked_text(record)
        if kind in ("new", "ai", "start") and record.response_type is not None \
                and record.id not in self.lobby_done:
            self.lobby_done.add(record.id)
            if kind == "new":  # answered privately; the lobby message is the sign it opened
                refused = not any(LOBBY.match(c) for c in custom_ids(
                    self.fake.last_message(table.channel_id, with_components=True)))
            ok = record.response_type == 7 or (kind == "new" and not refused)
            if not ok:
                self.refusals[record.id] = (record.ephemeral_texts or ["?"])[-1]  # refused (the store failed...): the person tries that step again
                table.stage = kind if kind != "new" else "new"
                table.ais_added -= kind == "ai"
            elif kind == "start":
                self.started += 1
                if self.started == len(self.tables):
                    self.all_started_at = time.monotonic()
            if table.pending is record:
                self._clear(table)
            return
        if table.pending is not record:
            return
        if kind == "play" and record.response_type in (6, 7):
            self._clear(table)  # taken (answered by the table itself): look again
            return
        if kind == "menu" and any(c.get("type") == 3 for c in components(record.original)):
            table.menu = record
            self._clear(table)
        elif kind == "hint":
            if any(ACT.match(c) for m in [record.original, *record.followups]
                   for c in custom_ids(m)):
                table.menu = record  # the hint's Play button: pressed next
                self._clear(table)
            elif refused:
                table.pending = None  # not awaited after all: the next change of the table
        elif refused:
            self.refusals[record.id] = record.ephemeral_texts[-1]
            table.pending = None  # refused (a stale position...): the sweep looks again
            table.seq_done -= 1
        elif self._acked_text(record):
            table.pending = None  # taken: the table's next edit enqueues the table

    def _clear(self, table: Table) -> None:
        table.pending = None
        self._enqueue(table)

    def _acked_text(self, record: Interaction) -> bool:
        return any(t in self.ok_texts for t in record.ephemeral_texts)

    def _table_seq(self, table: Table, message: dict | None) -> int | None:
        for cid in custom_ids(message):
            m = ACT.match(cid) or CHOICE.match(cid)
            if m and (table.game_id is None or int(m.group(1)) == table.game_id):
                table.game_id = int(m.group(1))
                return int(m.group(2))
        return None

    # --- one step of one table -----------------------------------------------------------------

    async def step(self, table: Table) -> Interaction | None:
        fake, uid, cid = self.fake, table.user_id, table.channel_id
        table.queued = False
        if table.pending is not None:
            return None
        if table.stage == "new":
            table.stage = "ai"
            return await self._send(table, "new", fake.slash(uid, cid, f"{table.kind} new"))
        lobby = fake.last_message(cid, with_components=True)
        if table.stage in ("ai", "start"):
            ids = custom_ids(lobby)
            verb = "ai" if table.stage == "ai" else "start"
            target = next((c for c in ids if LOBBY.match(c) and c.endswith(":" + verb)), None)
            if target is None:
                return None  # the lobby is not posted yet
            table.game_id = int(LOBBY.match(target).group(1))
            table.ais_added += verb == "ai"
            if verb == "ai" and table.ais_added >= table.ais:
                table.stage = "start"
            elif verb == "start":
                table.stage = "play"
            return await self._send(table, verb, fake.click(uid, lobby, target))
        if table.stage != "play":
            return None
        if table.kind != "cubosaurs":
            return await self.step_any(table)
        if table.menu is not None:  # the Pass… menu is open: choose in it or by command
            menu, table.menu = table.menu.original, None
            select = next((c for c in components(menu) if c.get("type") == 3), None)
            if select is None:
                return await self.step(table)
            value = table.rnd.choice(select["options"])["value"]
            action = json.loads(value)
            if table.rnd.random() < 0.5:
                return await self._send(table, "pass", fake.select(
                    uid, menu, select["custom_id"], [value]), action, press=True)
            return await self._send(table, "pass", fake.slash(
                uid, cid, "cubosaurs pass", card=action["card"]), action)
        message = fake.last_message(cid, with_components=True)
        seq = self._table_seq(table, message)
        if seq is None or seq <= table.seq_done:
            if message is not None and any(c.startswith("dw:rm:") for c in custom_ids(message)):
                table.stage = "over"
            return None
        keep = next((c for c in custom_ids(message) if ACT.match(c)
                     and json.loads(ACT.match(c).group(3)).get("type") == "keep"), None)
        passing = next((c for c in custom_ids(message) if CHOICE.match(c)), None)
        roll = table.rnd.random()
        table.seq_done = seq
        if keep and (roll < 0.6 or not passing):
            if roll < 0.4:
                return await self._send(table, "keep", fake.click(uid, message, keep),
                                        {"type": "keep"}, press=True)
            return await self._send(table, "keep", fake.slash(uid, cid, "cubosaurs keep"),
                                    {"type": "keep"})
        if passing:
            return await self._send(table, "menu", fake.click(uid, message, passing))
        return None

    async def step_any(self, table: Table) -> Interaction | None:
        """Any game: a button or menu of the live table drawn for the person's seat (0: the
        creator sits first), else, when the table names them among the awaited, the hint's
        Play button."""
        fake, uid, cid = self.fake, table.user_id, table.channel_id
        if table.menu is not None:  # a private reply: the hint's Play button
            record, table.menu = table.menu, None
            for message in [record.original, *record.followups]:
                for c in custom_ids(message):
                    m = ACT.match(c)
                    if m and int(m.group(1)) == table.game_id:
                        return await self._send(table, "play", fake.click(uid, message, c),
                                                json.loads(m.group(3)), press=True)
            return None
        message = next((m for m in reversed(fake.channel_messages(cid))
                        if not m.get("flags", 0) & EPHEMERAL), None)
        if message is None:
            return None
        ids = custom_ids(message)
        if table.game_id is not None and f"dw:rm:{table.game_id}" in ids:
            table.stage = "over"
            return None
        choices = []
        for c in components(message):
            cid_ = c.get("custom_id") or ""
            m = ACT.match(cid_)
            if m and int(m.group(1)) == table.game_id and int(m.group(2)) > table.seq_done:
                choices.append((int(m.group(2)), c, None))
            m = SELECT.match(cid_)
            if m and int(m.group(1)) == table.game_id and int(m.group(3)) == 0 \
                    and int(m.group(2)) > table.seq_done and c.get("options"):
                choices.append((int(m.group(2)), c, table.rnd.choice(c["options"])["value"]))
        if choices:
            seq, c, value = table.rnd.choice(choices)
            table.seq_done = seq
            if value is None:
                action = json.loads(ACT.match(c["custom_id"]).group(3))
                return await self._send(table, "play", fake.click(uid, message, c["custom_id"]),
                                        action, press=True)
            return await self._send(table, "play", fake.select(
                uid, message, c["custom_id"], [value]), json.loads(value), press=True)
        content = message.get("content") or ""
        footer = content.splitlines()[-1] if content else ""
        if table.name in footer and content != table.hinted:
            table.hinted = content  # awaited with nothing to press: ask for a hint, once
            return await self._send(table, "hint", fake.slash(uid, cid, f"{table.kind} hint"))
        return None

    async def _send(self, table: Table, kind: str, coro, action: dict | None = None,
                    press: bool = False) -> Interaction:
        record = await coro
        table.pending, table.pending_kind, table.sent_at = record, kind, time.monotonic()
        self.sent.append(record)
        self.kind_of[record.id] = (table, kind)
        if action is not None:
            table.moves.append((record, "press" if press else "slash", action))
        return record

    # --- the run -------------------------------------------------------------------------------

    async def play(self, seconds: float) -> float:
        """Send interactions at the configured rate until ``seconds`` pass or every game is
        over; returns the seconds it ran."""
        for table in self.tables:
            self._enqueue(table)
        start = time.monotonic()
        interval = 1.0 / self.cfg.rate
        next_at = start
        sweep_at = start + 2.0
        while time.monotonic() - start < seconds:
            now = time.monotonic()
            if now >= sweep_at:  # a table whose answer never re-enqueued it: look again
                sweep_at = now + 2.0
                for table in self.tables:
                    if table.stage != "over" and not table.queued and (
                            table.pending is None or now - table.sent_at > 10.0):
                        table.pending = None if now - table.sent_at > 10.0 else table.pending
                        self._enqueue(table)
            if all(t.stage == "over" for t in self.tables):
                break
            if not self.ready:
                await asyncio.sleep(min(0.01, interval))
                continue
            if now < next_at:
                await asyncio.sleep(next_at - now)
            next_at = max(next_at + interval, time.monotonic() - 1.0)  # no burst after a stall
            table = self.ready.popleft()
            await self.step(table)
        return time.monotonic() - start

    async def settle(self, timeout: float) -> None:
        """Until every interaction is answered and the bot has been quiet for a second."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            last = self.fake.calls[-1].at if self.fake.calls else 0.0
            unanswered = [r for r in self.sent if r.responded_at is None]
            if not unanswered and time.monotonic() - last > 1.5:
                return
            await asyncio.sleep(0.25)

    def classify(self) -> None:
        """Which moves the bot acknowledged (after the run has settled)."""
        self.acked_ids = set()
        for table in self.tables:
            table.acked = []
            for record, how, action in table.moves:
                if how == "press":  # answered by the table, or privately with Undo only
                    # (its public followups are the table's next messages: issue 25)
                    ok = (record.response_type in (6, 7) or (
                        record.response_type == 4 and self._undo_offer(record.original or {}))
                    ) and all(self._undo_offer(m) for m in record.followups
                              if m.get("flags", 0) & EPHEMERAL)
                else:
                    ok = self._acked_text(record)
                if ok:
                    table.acked.append(action)
                    self.acked_ids.add(record.id)

    @staticmethod
    def _undo_offer(message: dict) -> bool:
        return any(c.startswith("dw:u:") for c in custom_ids(message))


# --- the bot's processes -----------------------------------------------------------------------


def min_players(kind: str) -> int:
    from engine.core import get_game

    return get_game(kind).min_players


def bot_is_sharded() -> bool:
    """DarwinBot runs several shards in a process (and the host only its shards' games, so
    processes may share one database)."""
    import discord

    from cogs.bot import DarwinBot

    return issubclass(DarwinBot, discord.AutoShardedClient)


def sqlite_name(cfg: LoadConfig, process: int) -> str:
    """One shared SQLite file, or one per process when the bot is not sharded yet (each
    process would otherwise resume the other's games)."""
    if cfg.processes > 1 and not bot_is_sharded():
        return f"darwin-{process}.sqlite3"
    return "darwin.sqlite3"


def bot_config(cfg: LoadConfig, process: int, shard_ids: list[int]) -> dict:
    import copy
    import tomllib

    with open(ROOT / "config.example.toml", "rb") as f:
        config = copy.deepcopy(tomllib.load(f))
    config["discord"].update(token="fake", shard_count=cfg.shards, shard_ids=shard_ids)
    config["storage"]["database"] = str(cfg.workdir / sqlite_name(cfg, process))
    if cfg.db == "postgresql":
        config["storage"]["database_url"] = cfg.database_url
    # ai_workers 1: AI seats and hints think in a worker process while it is free (a thread
    # else); a hint is the strong level's choice there (DARWIN_HINT_PLAYOUTS=0, start_bots)
    config["games"].update(ai_delay=0, turn_timer=0, ai_workers=1)
    config["logging"]["level"] = cfg.log_level
    return config


def shard_split(shards: int, processes: int) -> list[list[int]]:
    return [list(range(p, shards, processes)) for p in range(processes)]


def start_bots(fake: FakeDiscord, cfg: LoadConfig) -> list[subprocess.Popen]:
    cfg.workdir.mkdir(parents=True, exist_ok=True)
    procs = []
    for p, ids in enumerate(shard_split(cfg.shards, cfg.processes)):
        path = cfg.workdir / f"bot-{p}.json"
        path.write_text(json.dumps(bot_config(cfg, p, ids)))
        env = dict(os.environ, PYTHONPATH=str(ROOT), DARWIN_HINT_PLAYOUTS="0")
        env.pop("DISCORD_TOKEN", None)
        log = open(cfg.workdir / f"bot-{p}.log", "w")  # noqa: SIM115 - closed with the process
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "fakediscord.launcher", "--api", fake.api_base,
             "--gateway", fake.gateway_url, "--config", str(path), "--log-level",
             cfg.log_level, "--gc-report", str(cfg.workdir / f"gc-{p}.json")]
            + (["--diagnose"] if cfg.diagnose else []), cwd=ROOT, env=env, stdout=log,
            stderr=subprocess.STDOUT))
    return procs


async def stop_bots(procs: list[subprocess.Popen], timeout: float = 30.0) -> list[int]:
    """SIGTERM, then wait without blocking the loop: the bots' last writes reach the fake."""
    for p in procs:
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + timeout
    while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()
    return [p.returncode for p in procs]


def gc_pauses(cfg: LoadConfig) -> dict:
    """The bots' garbage-collection pauses (their ``--gc-report`` files, written at exit)."""
    reports = []
    for path in sorted(cfg.workdir.glob("gc-*.json")):
        with contextlib.suppress(OSError, ValueError):
            reports.append(json.loads(path.read_text()))
    return {"max_ms": max((r["max_ms"] for r in reports), default=float("nan")),
            "max_cpu_ms": max((r.get("max_cpu_ms", float("nan")) for r in reports),
                              default=float("nan")),
            "gen2": sum(r["count_by_gen"][2] for r in reports),
            "worst": [r.get("worst") for r in reports],
            "startup_max_cpu_ms": [r.get("startup_max_cpu_ms") for r in reports],
            "thaws": [r.get("thaws") for r in reports],
            "last_count": [r.get("last_count") for r in reports],
            "by_gen": [max((r["max_ms_by_gen"][g] for r in reports), default=0.0)
                       for g in range(3)]}


def exempt(path: str) -> bool:
    """Discord's interaction endpoints (an interaction's callback, its followups and the
    edits of its messages through its token): not bound to the bot's global rate limit."""
    return path.startswith("/interactions/") or path.startswith("/webhooks/")


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


# --- the checks --------------------------------------------------------------------------------


async def open_store(cfg: LoadConfig, process: int):
    from store import Store

    if cfg.db == "postgresql":
        return await Store.open(cfg.database_url)  # the PostgreSQL store, where it has landed
    return await Store.open(cfg.workdir / sqlite_name(cfg, process))


def person_moves(stored: list[dict], acked: list[dict], windows: bool) -> list[dict]:
    """The person's own moves among those stored under their seat: in a game with card
    windows the bot passes for them there (auto-pass), so a stored ``pass`` that no
    acknowledged move matches (in order) is the bot's; anything else stays and is a fault."""
    if not windows:
        return stored
    out, k = [], 0
    for action in stored:
        if k < len(acked) and action == acked[k]:
            out.append(action)
            k += 1
        elif action.get("type") != "pass":
            out.append(action)
    return out


async def check_store(driver: Driver, cfg: LoadConfig) -> dict:
    """Every acknowledged move stored (each person's stored moves are exactly the
    acknowledged ones, in order) and every game's stored state equal to its replay."""
    from engine import Seat, get_game
    from host.replay import _normal, replay_state, seat_actions

    result = {"games": 0, "moves_acked": 0, "moves_stored": 0, "lost": [], "not_exact": []}
    shard_to_process = {s: p for p, ids in enumerate(shard_split(cfg.shards, cfg.processes))
                        for s in ids}
    stores = {}
    try:
        for table in driver.tables:
            if table.game_id is None:
                continue
            process = shard_to_process[(table.guild_id >> 22) % cfg.shards] \
                if cfg.db == "sqlite" and sqlite_name(cfg, 1) != sqlite_name(cfg, 0) else 0
            if process not in stores:
                stores[process] = await open_store(cfg, process)
            store = stores[process]
            row = await store.get_game(table.game_id)
            result["games"] += 1
            if row is None or row.status == "lobby":
                if table.acked:
                    result["lost"].append((table.index, "no started game stored"))
                continue
            options, lobby, stored = row.decoded()
            rows = [r for r in await store.actions(table.game_id) if r.seq <= row.seq]
            mine = [r.action for r in rows if r.actor == str(table.user_id)]
            # the bot's auto-passes in a card window (EVO) are stored under the person's seat
            mine = person_moves(mine, table.acked, hasattr(get_game(row.kind), "card_window"))
            result["moves_acked"] += len(table.acked)
            result["moves_stored"] += len(mine)
            if mine != table.acked:
                result["lost"].append((table.index, f"stored {len(mine)} moves, "
                                                    f"acknowledged {len(table.acked)}"))
            seats = [Seat(s["id"], s["name"]) for s in lobby["seats"]]
            rules = get_game(row.kind)
            try:
                state = replay_state(rules, seats, lobby["seed"], options or {},
                                     seat_actions(rows, seats))
                exact = _normal(rules.to_json(state)) == stored
            except Exception as exc:  # noqa: BLE001 - reported, not raised
                exact = False
                result["not_exact"].append((table.index, str(exc)))
            if not exact and all(i != table.index for i, _ in result["not_exact"]):
                result["not_exact"].append((table.index, "replay differs from stored state"))
    finally:
        for store in stores.values():
            await store.close()
    return result


def rate_limit_check(fake: FakeDiscord) -> dict:
    """Every route answered 429 was retried until it succeeded."""
    last: dict[tuple[str, str], int] = {}
    limited: set[tuple[str, str]] = set()
    for call in fake.calls:
        key = (call.method, call.path)
        last[key] = call.status
        if call.status == 429:
            limited.add(key)
    failed = sorted(k for k in limited if not 200 <= last[k] < 300)
    return {"rate_limited": fake.rate_limited, "routes_limited": len(limited),
            "not_retried": failed}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = max(0, min(len(values) - 1, int(round(q / 100 * len(values) + 0.5)) - 1))
    return values[k]


async def run_load(cfg: LoadConfig, out=print) -> dict:
    """The whole run; returns the figures and the checks (and prints them with ``out``)."""
    fake = FakeDiscord(shard_count=cfg.shards, rate_limit_share=cfg.rate_limit_share,
                       retry_after=cfg.retry_after, seed=cfg.seed,
                       rate_limit_first=cfg.rate_limit_first,
                       lifetime=cfg.seconds + 600.0)
    await fake.start()
    driver = Driver(fake, cfg)
    driver.build()
    procs = start_bots(fake, cfg)
    background: list[asyncio.Task] = []
    try:
        try:
            await fake.wait_shards(cfg.shards, timeout=120.0)
            await asyncio.wait_for(fake.commands_synced.wait(), 60.0)
        except TimeoutError:
            for p in procs:
                if p.poll() is not None:
                    raise RuntimeError(f"a bot process exited ({p.returncode}): see "
                                       f"{cfg.workdir}/bot-*.log") from None
            raise
        await asyncio.sleep(0.5)
        pids = [p.pid for p in procs]
        rss_before = rss_mb(pids)
        calls_before = fake.call_count
        calls_index = len(fake.calls)
        if cfg.reconnect_after is not None:
            async def drop() -> None:
                await asyncio.sleep(cfg.reconnect_after)
                await fake.drop_connection(0)
            background.append(asyncio.create_task(drop()))
        elapsed = await driver.play(cfg.seconds)
        live = sum(1 for t in driver.tables if t.live)
        rss_after = rss_mb(pids)
        cpu = cpu_seconds(pids)
        await driver.settle(cfg.settle_seconds)
        calls = fake.call_count - calls_before
    finally:
        codes = await stop_bots(procs)
        await fake.close()
    driver.classify()
    from messages import t as catalogue

    storage_failed = catalogue("bot.error.storage_failed", "en")
    t0 = driver.sent[0].sent_at if driver.sent else 0.0
    with open(cfg.workdir / "interactions.jsonl", "w") as f:  # one line each, for analysis
        for r in driver.sent:
            data = r.payload["data"]
            label = data.get("custom_id") or " ".join(
                [data.get("name", "")] + [o["name"] for o in data.get("options", [])])
            f.write(json.dumps({
                "t": round(r.sent_at - t0, 3), "label": label[:40],
                "ms": None if r.first_call_at is None else round(
                    (r.first_call_at - r.sent_at) * 1000, 1),
                "response": r.response_type, "calls": r.calls,
                "acked": r.id in driver.acked_ids}) + "\n")
    answered = [r for r in driver.sent if r.first_call_at is not None]
    latencies = [(r.first_call_at - r.sent_at) * 1000 for r in answered]
    # steady state: what is sent once every game has started (the openings are behind)
    steady = [(r.first_call_at - r.sent_at) * 1000 for r in answered
              if driver.all_started_at is not None and r.sent_at >= driver.all_started_at]
    acked = sum(len(t.acked) for t in driver.tables)
    run_calls = fake.calls[calls_index:]
    exempt_calls = sum(1 for c in run_calls if exempt(c.path))
    global_calls = len(run_calls) - exempt_calls  # 429s included: Discord counts them too
    global_per_move = global_calls / acked if acked else float("nan")
    pauses = gc_pauses(cfg)
    checks = await check_store(driver, cfg)
    limits = rate_limit_check(fake)
    report = {
        "load.interactions": len(driver.sent),
        "load.interactions_per_s": len(driver.sent) / elapsed if elapsed else 0.0,
        "load.interaction_p50_ms": percentile(latencies, 50),
        "load.interaction_p99_ms": percentile(latencies, 99),
        "load.steady_interaction_p50_ms": percentile(steady, 50),
        "load.steady_interaction_p99_ms": percentile(steady, 99),
        "load.steady_interactions": len(steady),
        "load.actions_per_s": acked / elapsed if elapsed else 0.0,
        "load.rest_calls_per_action": calls / len(driver.sent) if driver.sent else 0.0,
        "load.rest_calls_per_move": calls / acked if acked else 0.0,
        "load.global_calls_per_move": global_per_move,
        "load.exempt_calls_per_move": exempt_calls / acked if acked else float("nan"),
        "load.moves_per_s_at_global_limit": 50 / global_per_move if global_per_move
        else float("inf"),
        "load.gc_max_pause_ms": pauses["max_ms"],
        "load.gc_max_pause_cpu_ms": pauses["max_cpu_ms"],
        "load.gc_full_collections": pauses["gen2"],
        "load.rss_mb": rss_after,
        "load.bot_cpu_s": cpu,
        "load.driver_cpu_s": time.process_time(),
        "load.rss_mb_per_1000_games": (rss_after - rss_before) / live * 1000 if live else 0.0,
        "load.games_started": live,
        "load.games_over": sum(1 for t in driver.tables if t.stage == "over"),
        **{f"load.games_over.{k}": sum(1 for t in driver.tables
                                       if t.kind == k and t.stage == "over")
           for k in (cfg.kinds if len(cfg.kinds) > 1 else ())},
        **{f"load.moves_acked.{k}": sum(len(t.acked) for t in driver.tables if t.kind == k)
           for k in (cfg.kinds if len(cfg.kinds) > 1 else ())},
        "load.moves_acked": acked,
        "load.unanswered": len(driver.sent) - len(answered),
        "load.refused": len(driver.refusals),
        "load.storage_failed": sum(1 for x in driver.refusals.values() if storage_failed in x),
        "load.rate_limited": limits["rate_limited"],
        "load.not_retried": len(limits["not_retried"]),
        "load.lost": len(checks["lost"]),
        "load.not_exact": len(checks["not_exact"]),
        "load.unhandled_routes": len(set(fake.unhandled)),
        "load.rate_limited_interactions": sum(1 for r in driver.sent if r.rate_limited),
        "load.rate_limited_delivered": sum(1 for r in driver.sent
                                           if r.rate_limited and r.ok_after_limit),
        "load.rate_limited_acked": sum(1 for r in driver.sent
                                       if r.rate_limited and r.id in driver.acked_ids),
        "load.files_received": fake.files_received,
        "load.identifies": fake.identifies,
        "load.resumes": fake.resumes,
        "load.seconds": elapsed,
        "load.bot_exit_codes": codes,
    }
    units = {"_ms": "ms", "_per_s": "/s", "_mb": "MB", "_games": "MB", "seconds": "s",
             "_cpu_s": "s"}
    for name, value in report.items():
        unit = next((u for k, u in units.items() if name.endswith(k)), "")
        shown = f"{value:.2f}" if isinstance(value, float) else str(value)
        out(f"{name} {shown} {unit}".rstrip())
    kinds: dict[str, int] = {}
    for call in fake.calls[calls_index:]:
        parts = [p if not p.isdigit() else "{id}" for p in call.path.strip("/").split("/")]
        if parts[0] in ("interactions", "webhooks"):
            parts[2] = "{token}"
        key = f"{call.method} /{'/'.join(parts)}" + (" 429" if call.status == 429 else "")
        kinds[key] = kinds.get(key, 0) + 1
    report["details"] = {
        "refusals": collections.Counter(x[:70] for x in driver.refusals.values()).most_common(5),
        "calls_by_route": dict(sorted(kinds.items(), key=lambda kv: -kv[1])),"lost": checks["lost"][:10], "not_exact": checks["not_exact"][:10],
                         "not_retried": limits["not_retried"][:10],
                         "unhandled": sorted(set(fake.unhandled))[:10],
                         "moves_stored": checks["moves_stored"],
                         "gc_worst_since_ready": pauses["worst"],
                         "gc_startup_max_cpu_ms": pauses["startup_max_cpu_ms"],
                         "gc_thaws_and_counts": pauses["thaws"],
                         "gc_last_count": pauses["last_count"]}
    return report
