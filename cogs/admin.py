"""``/darwin``: what players share across games, each server's settings, the owner's sync.

Everyone sees ``/darwin``: ``stats``, ``leaderboard`` and ``history`` (public, short),
``replay`` (an animated GIF of a finished game of the channel) and ``undo`` (your own last
move) are for players (their wording and buttons are in ``cogs/community.py``). ``/darwin
settings show`` lists the server's settings with their defaults; ``/darwin settings set``
changes one or more; ``/darwin settings reset`` gives one back its default. They apply to the
games created afterwards (the host checks and stores them; a lobby records what it opened
with). The settings commands check Manage Server when they run (``need_manage_server``).
``/darwin-sync`` (the slash commands synced now) is a command of its own, shown only to
administrators and refused to anyone but the bot's owner.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs import community
from cogs.common import (
    NO_MENTIONS,
    can_manage,
    quiet_autocomplete,
    reader_lang,
    refusal,
    send_ephemeral,
    server_lang,
)
from cogs.translator import lookup, slash
from host import HostError, ServerSettings, format_duration, records
from messages import languages, t

LEVELS = ("fast", "strong", "expert", "random")  # in the order /<game> ai offers them
SETTING_NAMES = {"language": "table language", "turn_timer": "turn timer",
                 "ai_delay": "AI delay", "ai_level": "AI level", "thread": "thread",
                 "manager_role": "managers' role", "web_page": "web page"}


async def _is_owner(interaction: discord.Interaction) -> bool:
    return await interaction.client.is_owner(interaction.user)


def _check_manager(interaction: discord.Interaction) -> None:
    """Settings belong to a server and to those who may manage it."""
    if interaction.guild_id is None:
        raise HostError("settings_need_server")
    perms = interaction.permissions
    if not (perms.manage_guild or perms.administrator):
        raise HostError("need_manage_server")


def language_name(lang: str) -> str:
    return f"{t(f'bot.language.{lang}', lang)} ({lang})"


def _check_server(interaction: discord.Interaction) -> None:
    if interaction.guild_id is None:
        raise HostError("need_server")


class Admin(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    # Visible to everyone: players use stats, leaderboard, history, replay and undo; the
    # settings and sync check who asks when they run.
    darwin = app_commands.Group(
        name="darwin", description="Darwin: stats, leaderboard, history, replays, undo, settings")
    settings = app_commands.Group(name="settings", parent=darwin,
                                  description="This server's settings for new games")

    # The owner's tool, apart from /darwin (whose commands every member sees): a top-level
    # command that Discord shows only to a server's administrators (default permissions;
    # a server may change that in its Integrations settings), and that refuses anyone but
    # the bot's owner when it runs.
    @app_commands.command(name="darwin-sync",
                          description="Sync the slash commands now (bot owner only)")
    @app_commands.default_permissions()
    @app_commands.guild_only()
    async def sync(self, interaction: discord.Interaction) -> None:
        if not await _is_owner(interaction):  # an administrator who is not the owner
            await send_ephemeral(interaction, refusal(HostError("not_owner"),
                                                      reader_lang(interaction)))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        synced = await self.bot.tree.sync()
        await send_ephemeral(interaction, t("bot.synced", reader_lang(interaction),
                                                  count=len(synced)))

    # --- settings -------------------------------------------------------------------------------

    def describe_settings(self, interaction: discord.Interaction, settings: ServerSettings,
                          lang: str) -> str:
        """Each setting with its value and, when the server changed it, its default."""
        host = self.bot.host
        yes_no = {True: t("bot.settings.yes", lang), False: t("bot.settings.no", lang)}

        def timer(seconds: float) -> str:
            return format_duration(seconds) if seconds else t("bot.settings.off", lang)

        def role(role_id: str | None) -> str:
            if role_id is None:
                return t("bot.settings.no_role", lang)
            if interaction.guild is None or interaction.guild.get_role(int(role_id)) is None:
                return t("bot.settings.deleted_role", lang)
            return f"<@&{role_id}>"

        def level(name: str) -> str:
            return lookup(f"game.cmd.ai.opt.level.choice.{name}", lang) or name

        default_lang = server_lang(self.bot, interaction.guild_id, interaction.guild_locale,
                                   setting=False)
        shown = {  # name -> (value shown, default shown)
            "language": (settings.language and language_name(settings.language),
                         language_name(default_lang)),
            "turn_timer": (settings.turn_timer is not None and timer(settings.turn_timer),
                           timer(host.default_timer)),
            "ai_delay": (settings.ai_delay is not None and f"{settings.ai_delay:g} s",
                         f"{host.ai_delay:g} s"),
            "ai_level": (settings.ai_level and level(settings.ai_level), level(host.ai_level)),
            "thread": (settings.thread is not None and yes_no[settings.thread], yes_no[False]),
            "manager_role": (settings.manager_role and role(settings.manager_role), role(None)),
            "web_page": (settings.web_page is not None and yes_no[settings.web_page],
                         yes_no[False]),
        }
        lines = [f"**{t('bot.settings.title', lang)}**"]
        for name, (value, default) in shown.items():
            value = (t("bot.settings.changed", lang, value=value, default=default) if value
                     else t("bot.settings.unchanged", lang, value=default))
            lines.append(t("bot.settings.line", lang, name=t(f"bot.settings.name.{name}", lang),
                           value=value))
        lines.append(t("bot.settings.footer", lang,
                       set=slash("darwin settings set", lang),
                       reset=slash("darwin settings reset", lang)))
        return "\n".join(lines)

    async def _answer(self, interaction: discord.Interaction, changes: dict | None) -> None:
        """Check the asker, apply ``changes`` (None: only show), answer privately."""
        lang = reader_lang(interaction)
        try:
            _check_manager(interaction)
            if changes is None:
                settings = await self.bot.host.server_settings(interaction.guild_id)
                head = ""
            else:
                settings = await self.bot.host.change_settings(interaction.guild_id, **changes)
                head = t("bot.settings.saved", lang) + "\n"
        except HostError as exc:
            await send_ephemeral(interaction, refusal(exc, lang))
            return
        await send_ephemeral(interaction, head + self.describe_settings(interaction, settings, lang),
                             allowed_mentions=NO_MENTIONS)

    @settings.command(name="show", description="Show this server's settings and their defaults")
    async def show(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, None)

    @settings.command(name="set", description="Change settings for the games created from now on")
    @app_commands.describe(
        language="Language of new tables (their messages and images): en, it or fr",
        timer="Default turn timer of new games, e.g. 90s, 10m, 24h, or off",
        ai_delay="Seconds an AI seat waits before it acts (0 to 30)",
        ai_level="How well AI seats play when added without a level",
        thread="Open each new table in a new thread",
        manager_role="A role whose members may start, cancel and remove players in any game",
        web_page="Show this server's web page (recent games, leaderboards) to whoever has its link")
    @app_commands.choices(ai_level=[app_commands.Choice(name=x, value=x) for x in LEVELS])
    async def set_(self, interaction: discord.Interaction, language: str | None = None,
                   timer: str | None = None, ai_delay: float | None = None,
                   ai_level: str | None = None, thread: bool | None = None,
                   manager_role: discord.Role | None = None,
                   web_page: bool | None = None) -> None:
        try:
            _check_manager(interaction)  # first: a member without Manage Server learns only that
        except HostError as exc:
            await send_ephemeral(interaction, refusal(exc, reader_lang(interaction)))
            return
        changes = {name: value for name, value in (
            ("language", language), ("turn_timer", timer), ("ai_delay", ai_delay),
            ("ai_level", ai_level), ("thread", thread), ("web_page", web_page))
            if value is not None}
        if manager_role is not None:
            if interaction.guild is None or interaction.guild.get_role(manager_role.id) is None:
                await send_ephemeral(interaction, refusal(HostError("deleted_role"),
                                                          reader_lang(interaction)))
                return
            changes["manager_role"] = str(manager_role.id)
        if not changes:
            lang = reader_lang(interaction)
            await send_ephemeral(interaction, refusal(HostError(
                "nothing_to_set", command=slash("darwin settings reset", lang)), lang))
            return
        await self._answer(interaction, changes)

    @set_.autocomplete("language")
    @quiet_autocomplete
    async def _language(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=language_name(lang), value=lang) for lang in languages()
                if current.lower() in language_name(lang).lower()]

    @settings.command(name="reset", description="Give a setting back its default")
    @app_commands.describe(setting="The setting to restore")
    @app_commands.choices(setting=[app_commands.Choice(name=name, value=value)
                                   for value, name in SETTING_NAMES.items()])
    async def reset(self, interaction: discord.Interaction, setting: str) -> None:
        await self._answer(interaction, {setting: None})


    # --- the web page (web/) ----------------------------------------------------------------

    @darwin.command(name="web", description="This channel's game on the web: its link, or revoke it")
    @app_commands.describe(action="Give the link (default) or revoke it (the game's creator or "
                                  "a manager)")
    @app_commands.choices(action=[app_commands.Choice(name="link", value="link"),
                                  app_commands.Choice(name="revoke", value="revoke")])
    async def web(self, interaction: discord.Interaction, action: str = "link") -> None:
        """Privately: the link is the asker's to share (the table's Web view button shows it
        to the channel already), and a private answer adds nothing to the channel."""
        lang = reader_lang(interaction)
        try:
            text = await self._web(interaction, action, lang)
        except HostError as exc:
            await send_ephemeral(interaction, refusal(exc, lang))
            return
        await send_ephemeral(interaction, text)

    async def _web(self, interaction: discord.Interaction, action: str, lang: str) -> str:
        bot = self.bot
        if bot.web is None:
            raise HostError("web_off")
        game = bot.host.game_in(interaction.channel_id)
        game_id = game.id if game is not None else \
            await bot.store.latest_game_id(interaction.channel_id)
        if action == "revoke":
            if game_id is None:
                raise HostError("web_no_game")
            creator = game.lobby.get("creator") if game is not None else \
                (((await bot.store.get_game(game_id)).decoded()[1] or {}).get("creator"))
            if not (can_manage(interaction) or str(interaction.user.id) == str(creator)):
                raise HostError("not_creator")
            if not await bot.revoke_web_link(game_id):
                raise HostError("web_nothing_to_revoke")
            return t("web.discord.revoked", lang, command=slash("darwin web", lang))
        lines = []
        if game_id is not None:
            lines.append(t("web.discord.game_link", lang,
                           url=await bot.web_link(game_id, create=True)))
        if interaction.guild_id is not None:
            settings = await bot.host.server_settings(interaction.guild_id)
            if settings.web_page:
                token = await bot.store.web_token(bot.host.clock.now(),
                                                  guild_id=interaction.guild_id)
                lines.append(t("web.discord.server_link", lang, url=bot.web.link(token, "s")))
        if not lines:
            raise HostError("web_no_game")
        return "\n".join(lines)

    # --- for players (cogs/community.py) ----------------------------------------------------

    async def _public(self, interaction: discord.Interaction, make) -> None:
        """Answer in public with ``await make(lang)`` -> (text, view); a refusal privately."""
        lang = reader_lang(interaction)
        try:
            _check_server(interaction)
            text, view = await make(lang)
        except HostError as exc:
            await send_ephemeral(interaction, refusal(exc, lang))
            return
        kwargs = {"view": view} if view is not None else {}
        await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS, **kwargs)

    @darwin.command(name="stats", description="Games, wins, average rank, best score and rating")
    @app_commands.describe(user="Whose stats (yours if empty)",
                           game="Only this game (every game if empty)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    game: str | None = None) -> None:
        who = user or interaction.user

        async def make(lang):
            kind = community.kind_named(game)
            stats = await records.player_stats(self.bot.host.store, interaction.guild_id,
                                               who.id, kind)
            return community.stats_text(stats, who.display_name, kind, lang), None

        await self._public(interaction, make)

    @darwin.command(name="leaderboard", description="This server's top 10 players of a game")
    @app_commands.describe(game="The game")
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        async def make(lang):
            kind = community.kind_named(game)
            board = await records.leaderboard(self.bot.host.store, interaction.guild_id, kind)
            return community.leaderboard_text(board, kind, lang), None

        await self._public(interaction, make)

    @stats.autocomplete("game")
    @leaderboard.autocomplete("game")
    @quiet_autocomplete
    async def _game(self, interaction: discord.Interaction, current: str):
        return community.game_choices(current, reader_lang(interaction))

    @darwin.command(name="history", description="This channel's last 10 games, with their replays")
    async def history(self, interaction: discord.Interaction) -> None:
        async def make(lang):
            games = await records.channel_history(self.bot.host.store, interaction.channel_id)
            return community.history_text(games, lang), community.history_view(games, lang)

        await self._public(interaction, make)

    @darwin.command(name="undo", description="Take back your last move in this channel's game")
    async def undo(self, interaction: discord.Interaction) -> None:
        await community.undo_command(interaction)

    @darwin.command(name="replay", description="Watch a finished game of this channel again (GIF)")
    @app_commands.describe(game="The game (this channel's recent games are offered)")
    async def replay(self, interaction: discord.Interaction, game: str) -> None:
        lang = reader_lang(interaction)
        digits = game.strip().lstrip("#")
        if interaction.guild_id is None or not digits.isdigit():
            error = HostError("need_server") if interaction.guild_id is None \
                else HostError("replay_not_here", game=game[:20])
            await send_ephemeral(interaction, refusal(error, lang))
            return
        await community.send_replay(interaction, int(digits), ephemeral=False)

    @replay.autocomplete("game")
    @quiet_autocomplete
    async def _replay_game(self, interaction: discord.Interaction, current: str):
        return await community.replay_choices(interaction, current)


async def setup(bot) -> None:
    await bot.add_cog(Admin(bot))
