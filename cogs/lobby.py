"""The lobby shared by every game: a message with Join, Leave, Add AI, Start and Cancel.

Discord's global budget (50 REST calls a second for the whole bot; the interaction endpoints
are exempt): ``/<game> new`` is answered with the lobby itself (the interaction's original
response), its buttons are answered by editing it (UPDATE_MESSAGE), and the latest of those
interactions stays the lobby's *editor* (``EDITOR_SECONDS``, within its token's 15 minutes):
a slash command's change (``/<game> join``...) edits the lobby through it. Start edits the
lobby in its answer, and the first table is that press's followup (``cogs/table.py``). A
lobby opened in a new thread is a channel post (the interaction answers in the parent)."""

from __future__ import annotations

import contextlib

import discord
from discord.ext import commands

from cogs.common import (
    NO_MENTIONS,
    can_manage,
    reader_lang,
    safe_name,
    send_ephemeral,
    server_lang,
    spent,
    table_lang,
    unkept,
)
from cogs.components import Component
from cogs.table import EDITOR_SECONDS, slim
from host import LiveGame
from messages import has, t


def lobby_embed(game: LiveGame, lang: str) -> discord.Embed:
    name = t(f"{game.kind}.name", lang)
    lobby = game.lobby
    lines = [t("bot.lobby_body", lang, count=len(game.seats), max=lobby["max"], min=lobby["min"])]
    for i, seat in enumerate(game.seats):
        key = "bot.lobby_seat_ai" if seat.get("ai") else "bot.lobby_seat"
        lines.append(t(key, lang, n=i + 1, name=safe_name(seat["name"])))
    options = []
    for key, value in game.options.items():
        # "evo.option.variant" when on, "cubosaurs.option.no_interactive" when off...
        text_key = f"{game.kind}.option.{key}" if value else f"{game.kind}.option.no_{key}"
        if isinstance(value, bool) and has(text_key, lang):
            options.append(t(text_key, lang))
    timer = int(lobby.get("timer") or 0)
    options.append(t("bot.lobby_timer", lang, seconds=timer) if timer else t("bot.lobby_no_timer", lang))
    lines.append(t("bot.lobby_options", lang, options=", ".join(options)))
    return discord.Embed(title=t("bot.lobby_title", lang, game=name), description="\n".join(lines),
                         colour=discord.Colour.dark_green())


class LobbyButton(Component, prefix="l",
                  fields=r"(?P<game>\d+):(?P<verb>join|leave|ai|start|cancel)"):
    STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
              "ai": discord.ButtonStyle.primary, "start": discord.ButtonStyle.success,
              "cancel": discord.ButtonStyle.danger}

    def __init__(self, game_id: int, verb: str, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(
            label=t(f"bot.btn_{verb}", lang), style=self.STYLES[verb],
            custom_id=self.make_id(game_id, verb)))
        self.game_id = game_id
        self.verb = verb

    @classmethod
    def rebuild(cls, fields, item):
        return cls(fields["game"], fields["verb"])  # the label is not drawn again

    async def run(self, interaction: discord.Interaction) -> None:
        game = self.live_game(interaction)
        await interaction.client.get_cog("Lobby").press(interaction, game, self.verb)


def lobby_view(game: LiveGame, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("join", "leave", "ai", "start", "cancel"):
        view.add_item(LobbyButton(game.id, verb, lang))
    return unkept(view)


class Lobby(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot
        # game id -> (an interaction whose original response is the lobby message, until)
        self._editors: dict[int, tuple[discord.Interaction, float]] = {}

    def _now(self) -> float:
        return self.bot.listener.pacer.now()

    def _keep_editor(self, game_id: int, interaction: discord.Interaction) -> None:
        now = self._now()
        if len(self._editors) > 1000:  # lobbies left open: their tokens are long gone
            self._editors = {g: e for g, e in self._editors.items() if e[1] > now}
        self._editors[game_id] = (slim(interaction), now + EDITOR_SECONDS)

    def _editor(self, game_id: int) -> discord.Interaction | None:
        found = self._editors.get(game_id)
        if found is not None and found[1] <= self._now():
            del self._editors[game_id]
            found = None
        return None if found is None else found[0]

    @property
    def host(self):
        return self.bot.host

    async def open(self, interaction: discord.Interaction, kind: str, options: dict,
                   timer: float | None, in_thread: bool | None) -> None:
        """A new lobby; ``timer`` and ``in_thread`` None take the server's settings."""
        settings = await self.host.server_settings(interaction.guild_id)
        if in_thread is None:
            in_thread = bool(settings.thread)
        lang = server_lang(self.bot, interaction.guild_id, interaction.guild_locale)  # public
        channel = interaction.channel
        if in_thread and isinstance(channel, discord.TextChannel):
            channel = await channel.create_thread(
                name=t("bot.lobby_thread", lang, game=t(f"{kind}.name", lang)),
                type=discord.ChannelType.public_thread)
        game = await self.host.open_lobby(
            interaction.guild_id, channel.id, kind, interaction.user.id,
            interaction.user.display_name, options, timer, lang)
        if channel != interaction.channel:  # a new thread: the lobby is posted there
            message = await channel.send(embed=lobby_embed(game, lang),
                                         view=lobby_view(game, lang),
                                         allowed_mentions=NO_MENTIONS)
            await self.host.note_message(game, "lobby", message.id)
            await send_ephemeral(interaction, t("bot.lobby_opened", reader_lang(interaction))
                                 + f" {channel.mention}")
            return
        # the command is answered with the lobby itself (no channel call)
        view = lobby_view(game, lang)
        response = await interaction.response.send_message(
            embed=lobby_embed(game, lang), view=view, allowed_mentions=NO_MENTIONS)
        spent(view)
        message_id = getattr(response, "message_id", None)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        self._keep_editor(game.id, interaction)
        await self.host.note_message(game, "lobby", message_id)

    async def refresh(self, game: LiveGame, *, started: bool = False) -> None:
        """Bring the lobby message up to date after a slash command changed the lobby."""
        lang = table_lang(self.bot, game)
        message_id = game.lobby.get("messages", {}).get("lobby")
        channel = self.bot.get_channel(int(game.channel_id))
        if not message_id or channel is None:
            return
        if started or game.status != "lobby":
            kwargs = {"content": t("bot.lobby_started", lang), "embed": lobby_embed(game, lang),
                      "view": None}
            editor = self._editors.pop(game.id, (None,))[0]
        else:
            kwargs = {"embed": lobby_embed(game, lang), "view": lobby_view(game, lang)}
            editor = self._editor(game.id)
        try:
            if editor is not None:  # through the lobby's interaction: no global budget
                try:
                    await self.bot.listener.write(
                        channel.id, lambda: editor.edit_original_response(**kwargs))
                    return
                except discord.HTTPException:
                    self._editors.pop(game.id, None)  # its token expired...: the channel's way
            message = channel.get_partial_message(int(message_id))
            # the lobby message was deleted: the slash command's reply is enough
            with contextlib.suppress(discord.HTTPException):
                await self.bot.listener.write(channel.id, lambda: message.edit(**kwargs))
        finally:
            spent(kwargs["view"])

    async def press(self, interaction: discord.Interaction, game: LiveGame, verb: str) -> None:
        """A lobby button (LobbyButton): the lobby message is edited in the interaction's
        answer; a refusal is raised for the button to answer."""
        user = interaction.user
        lang = table_lang(self.bot, game)  # the lobby message is public
        if verb == "join":
            await self.host.join(interaction.channel_id, user.id, user.display_name)
        elif verb == "leave":
            await self.host.leave_lobby(interaction.channel_id, user.id)
        elif verb == "ai":
            await self.host.add_ai(interaction.channel_id, user.id)
        elif verb == "cancel":
            await self.host.cancel(interaction.channel_id, user.id, can_manage(interaction))
            self._editors.pop(game.id, None)
            await interaction.response.edit_message(content=t("bot.lobby_cancelled", lang),
                                                    view=None)
            return
        elif verb == "start":
            # the first table is posted once this press is answered, as its followup (an
            # interaction endpoint, not the bot's global budget: cogs/table.py)
            listener = self.bot.listener
            with listener.pressing(interaction, game.id, poster=True) as pressed:
                try:
                    await self.host.start_game(interaction.channel_id, user.id,
                                               can_manage(interaction))
                except BaseException:
                    listener.release(pressed)
                    raise
            self._editors.pop(game.id, None)
            try:
                await interaction.response.edit_message(
                    content=t("bot.lobby_started", lang), embed=lobby_embed(game, lang),
                    view=None)
            finally:
                listener.post_through(pressed)
            return
        view = lobby_view(game, lang)
        await interaction.response.edit_message(embed=lobby_embed(game, lang), view=view)
        spent(view)
        self._keep_editor(game.id, interaction)  # its original response is the lobby


async def setup(bot) -> None:
    await bot.add_cog(Lobby(bot))
