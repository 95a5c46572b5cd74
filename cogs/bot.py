"""The discord.py bot: opens the store, starts the host, loads the cogs, syncs commands."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import signal
import time
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import close_render_pool, load_channel_game, reader_lang, refusal, send_ephemeral
from cogs.translator import CatalogueTranslator
from engine import IllegalAction
from host import GameHost, HostError
from host.ai_pool import AiPool
from host.shards import shard_plan
from ops import memory
from ops.instrument import Operations
from ops.stop import STOP_WITHIN, hard_stop_after

log = logging.getLogger("darwin")

def extensions() -> list[str]:
    """The extensions to load: the lobby, each registered game's cog (its description's
    ``cog``), then the admin commands."""
    from engine.core import descriptions

    return ["cogs.lobby", *(d.cog for d in descriptions() if d.cog), "cogs.admin"]


def __getattr__(name: str):
    if name == "EXTENSIONS":  # as registered now (a test may register a game of its own)
        return extensions()
    raise AttributeError(f"module 'cogs.bot' has no attribute {name!r}")


class DarwinBot(commands.AutoShardedBot):
    """``store`` and ``clock`` may be given (tests); otherwise the configured SQLite file.

    Sharded: ``[discord] shard_count`` (None: Discord's recommended count) and ``shard_ids``
    (None: every shard) say which shards this process runs (``host.shards.shard_plan``;
    ShardConfigError when they cannot be used); its host loads only their servers' games."""

    freeze_after_start = False  # bot.py sets it for a real process (tests make many bots)

    def __init__(self, config: dict, *, store=None, clock=None, sync_on_start: bool = True) -> None:
        self.shard_plan = shard_plan(config["discord"])
        self.ops = Operations(self)  # metrics, /healthz and /metrics, the interactions running
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, shard_count=self.shard_plan.count,
                         shard_ids=None if self.shard_plan.ids is None
                         else list(self.shard_plan.ids), http_trace=self.ops.trace)
        self.ops.install()
        self.stopping = False  # a stop began: interactions are turned away (load_channel_game)
        self.config = config
        self.store = store
        self.clock = clock
        self.host: GameHost | None = None
        self.web = None  # the web page's server (web.WebServer) when [web] enabled
        self.web_tokens: dict[int, str | None] = {}  # game id -> its live link token, once read
        self.sync_on_start = sync_on_start
        self.tree.on_error = self.on_app_command_error
        self.tree.interaction_check = load_channel_game  # the channel's game, loaded on use

    async def setup_hook(self) -> None:
        from cogs.components import register
        from cogs.table import TableListener
        from store import Store, configured_target

        if self.freeze_after_start:  # a real process (bot.py): SIGTERM/SIGINT stop it cleanly
            self.stop_on_signals()
        if self.store is None:
            self.store = await Store.open(configured_target(self.config))
        await self.store.check()  # writable and undamaged, or no start (one clear sentence)
        games = self.config["games"]
        self.listener = TableListener(self, nudge_delay=float(games.get("nudge_delay", 20.0)))
        self.host = GameHost(self.store, clock=self.clock, ai_delay=float(games["ai_delay"]),
                             default_timer=float(games["turn_timer"]),
                             ai_level=games.get("ai_level", "fast"), listener=self.listener,
                             window_delay=float(games.get("window_delay", 2.0)),
                             shards=self.shard_plan.host_shards,
                             ai_pool=AiPool(int(games.get("ai_workers", 1)),
                                            float(games.get("ai_seconds", 1.0))))
        register(self)  # every button and menu (cogs/components.py PREFIXES), once
        await self.tree.set_translator(CatalogueTranslator(self.tree))
        for ext in extensions():
            await self.load_extension(ext)
        await self.host.start()
        await self.ops.start()
        await self.start_web()
        if self.sync_on_start and self.syncs_commands:
            await self.sync_commands()
        if self.freeze_after_start:
            # what exists now (modules, catalogues, fonts, engine data, the resumed games)
            # lives as long as the process: the garbage collector's full passes skip it;
            # collected first, or start-up's cyclic garbage (the command models a sync
            # returns) would stay frozen until a thaw
            memory.freeze()

    async def start_web(self) -> None:
        """The read-only web page (web/) when ``[web] enabled``: its own site; every commit
        and lobby change of this process wakes the game's watchers (``host.on_change``)."""
        from web import WebServer, web_settings

        settings = web_settings(self.config)
        if not settings.enabled:
            return

        def status_lines(kind: str, view: dict, lang: str) -> list[str]:
            return self.game_cog(kind).status_lines(None, view, lang)

        server = WebServer(settings, self.store, status_lines=status_lines,
                           default_lang=str(self.config["games"].get("language", "en")))
        try:
            await server.start()
        except OSError as exc:  # the bot still serves the players; the operator is told
            log.error("the web page cannot listen on %s:%s (%s): it is off; check [web] host "
                      "and port", settings.host, settings.port, exc)
            return
        self.web = server
        self.host.on_change.append(server.notify)

    async def web_link(self, game_id: int, *, create: bool = False) -> str | None:
        """The public URL of a game's web page (None when the web is off, or the game has no
        live link and ``create`` is False); the token is read once, then kept."""
        if self.web is None:
            return None
        token = self.web_tokens.get(game_id)
        if token is None and (create or game_id not in self.web_tokens):
            token = await self.store.web_token(time.time(), game_id=game_id, create=create)
            self.web_tokens[game_id] = token
            while len(self.web_tokens) > 10_000:
                self.web_tokens.pop(next(iter(self.web_tokens)))
        return self.web.link(token) if token else None

    async def revoke_web_link(self, game_id: int) -> bool:
        """Revoke a game's link (a later web_link(create=True) makes a new one)."""
        revoked = await self.store.revoke_web_token(time.time(), game_id=game_id)
        token = self.web_tokens.pop(game_id, None)
        self.web_tokens[game_id] = None
        if self.web is not None:
            self.web.web.forget(token)
            self.web.notify(game_id)
        return revoked

    @property
    def syncs_commands(self) -> bool:
        """One process syncs the slash commands: the one that runs shard 0 (or every shard);
        the commands are the bot's, not a shard's, so the others need not send them again."""
        return self.shard_plan.ids is None or 0 in self.shard_plan.ids

    async def command_payload(self) -> list[dict]:
        """The commands as a sync sends them, localizations included."""
        translator = self.tree.translator
        return [await cmd.get_translated_payload(self.tree, translator) if translator
                else cmd.to_dict(self.tree) for cmd in self.tree.get_commands()]

    async def command_hash(self) -> str:
        """Changes whenever a sync would send something else (a reworded translation too)."""
        payload = await self.command_payload()
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    async def sync_commands(self) -> list:
        """Sync to the development guild if configured; globally only when the tree changed."""
        guild_id = int(self.config["discord"].get("dev_guild") or 0)
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to development guild %s", len(synced), guild_id)
            return synced
        marker = Path(self.config["storage"]["database"]).with_suffix(".commands-hash")
        digest = await self.command_hash()
        try:
            if marker.read_text().strip() == digest:
                log.info("command tree unchanged: no global sync")
                return []
        except OSError:
            pass
        synced = await self.tree.sync()
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text(digest)
        except OSError:
            log.warning("could not write %s", marker)
        log.info("synced %d commands globally", len(synced))
        return synced

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        lang = reader_lang(interaction)
        if isinstance(original, (HostError, IllegalAction)):
            game = self.host.game_in(interaction.channel_id) if self.host else None
            await send_ephemeral(interaction, refusal(original, lang, game))
            return
        if isinstance(error, app_commands.CheckFailure):
            await send_ephemeral(interaction, refusal(HostError("not_owner"), lang))
            return
        if isinstance(error, app_commands.TransformerError):
            await send_ephemeral(interaction, refusal(
                HostError("bad_option", detail=str(error.value)[:50]), lang))
            return
        log.error("command %s failed", getattr(interaction.command, "qualified_name", "?"),
                  exc_info=original)
        await send_ephemeral(interaction, refusal(error, lang))

    def game_cog(self, kind: str):
        """The command group of a game kind (it builds that game's buttons and menus)."""
        for cog in self.cogs.values():
            if getattr(cog, "kind", None) == kind:
                return cog
        raise KeyError(f"no cog for game {kind!r}")

    def stop_on_signals(self) -> None:
        """SIGTERM (docker stop, systemd, Kubernetes) and SIGINT (Ctrl-C) close the bot
        gracefully (``close``); past STOP_WITHIN + 1.5 s the process ends anyway."""
        loop = asyncio.get_running_loop()

        def on_signal(sig: signal.Signals) -> None:
            if self.stopping:
                log.info("%s: already stopping", sig.name)
                return
            log.info("%s: stopping (at most %g s)", sig.name, STOP_WITHIN)
            hard_stop_after(STOP_WITHIN + 1.5)
            loop.create_task(self.close())

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, on_signal, sig)
        self._signal_loop = loop

    async def stop_services(self, within: float = STOP_WITHIN) -> None:
        """The graceful stop, within ``within`` seconds (idempotent): interactions are turned
        away from now on (a sentence: Darwin is restarting), the ones running finish (their
        commits and their answers), then the host's timers stop and its running steps (an AI
        move being committed) finish, the table's pending posts and edits are flushed
        (dropped, and logged, past the bound), and the database is closed (SQLite: the WAL
        checkpointed into the file, no -wal file left)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        self.stopping = self.ops.stopping = True
        running = (len(self.ops.interactions.handlers()),
                   len(getattr(getattr(self, "listener", None), "_tasks", ())))
        try:
            if not await self.ops.interactions.wait_idle(within * 0.5):
                log.warning("stopping: %d interactions still running are cut short",
                            len(self.ops.interactions.handlers()))
            if self.host is not None:
                await self.host.close(grace=max(0.0, (deadline - loop.time()) * 0.5))
            if getattr(self, "listener", None) is not None:
                try:
                    await asyncio.wait_for(self.listener.drain(),
                                           max(0.1, deadline - loop.time()))
                except TimeoutError:
                    log.warning("stopping: table posts and edits not made within %g s were "
                                "dropped", within)
        finally:  # whatever failed above, the database connection is closed
            close_render_pool()  # the table's last boards are drawn by now
            if self.web is not None:
                web_server, self.web = self.web, None
                await web_server.stop()
            await self.ops.stop()
            if self.store is not None:
                await self.store.close()
            log.info("stopped in %.2f s (%d interactions and %d table writers were running)",
                     within - (deadline - loop.time()), *running)

    async def close(self) -> None:
        await self.stop_services()
        await super().close()
        loop, self._signal_loop = getattr(self, "_signal_loop", None), None
        if loop is not None:  # a closed bot no longer answers signals (bot.py may wait and
            for sig in (signal.SIGTERM, signal.SIGINT):  # retry: a signal then ends it)
                loop.remove_signal_handler(sig)

    async def on_ready(self) -> None:
        log.info("ready as %s", self.user)
        if getattr(self, "listener", None) is not None:
            await self.listener.send_notices()  # games set aside while starting
