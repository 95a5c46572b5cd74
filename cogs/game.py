"""What every game's command group shares: the action paths, the lobby commands, the board.

A game cog subclasses :class:`GameCog` with its ``group_name``, sets ``kind``, adds its own
``new`` command and action commands, and implements the hooks:

* ``table_items(game, lang)`` -> the buttons and menus valid now (below the table message)
* ``status_lines(game, view, lang)`` -> the lines of ``/<game> status``
* ``show_hand(interaction, game_id)`` -> the private hand (games with hidden cards)

Rules never live here: every action goes to the host, which asks the engine.
"""

from __future__ import annotations

import asyncio
import io
from contextlib import asynccontextmanager

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    NO_MENTIONS,
    can_manage,
    encode_action,
    quiet_autocomplete,
    reader_lang,
    refusal,
    send_ephemeral,
    table_lang,
    unkept,
)
from cogs.community import undo_offer
from cogs.table import ActButton, ActSelect
from engine import IllegalAction
from host import HostError, LiveGame
from images import render
from messages import describe, t

MAX_CHOICES = 25


ANSWER_WITHIN = 2.0  # seconds before a slow move's interaction is deferred (Discord: 3 s)


async def answered_in_time(interaction: discord.Interaction, work, *, thinking: bool = False):
    """Await ``work`` (a host call); if it has not finished within ANSWER_WITHIN seconds, the
    interaction is deferred first (privately "thinking" for a command, silently for a press),
    so that its answer may come later. A quick move is answered in one call to Discord instead
    of an acknowledgement and a followup."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
    if not done and not interaction.response.is_done():
        if thinking:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
    return await task


@app_commands.guild_only()
class GameCog(commands.GroupCog):
    kind: str = ""

    def __init__(self, bot) -> None:
        self.bot = bot
        self._boards: dict[tuple[int, str], tuple[int, bytes]] = {}  # (game, lang) -> (seq, PNG)
        super().__init__()

    @property
    def host(self):
        return self.bot.host

    # --- hooks ------------------------------------------------------------------------------

    def table_items(self, game: LiveGame, lang: str) -> list[discord.ui.Item]:
        return []

    def status_lines(self, game: LiveGame, view: dict, lang: str) -> list[str]:
        return []

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        await send_ephemeral(interaction, t("bot.hand_empty", reader_lang(interaction)))

    # --- plumbing ---------------------------------------------------------------------------

    def _game(self, interaction: discord.Interaction) -> LiveGame:
        game = self.host.game_in(interaction.channel_id)
        if game is None:
            raise HostError("no_game")
        if game.kind != self.kind:
            raise HostError("wrong_game", game=t(f"{game.kind}.name", reader_lang(interaction)),
                            command=f"/{game.kind}")
        return game

    def _legal(self, interaction: discord.Interaction) -> tuple[LiveGame | None, list[dict]]:
        """The caller's legal actions now ([] if not their turn): for autocomplete."""
        game = self.host.game_in(interaction.channel_id)
        if game is None or game.kind != self.kind or game.status != "active":
            return None, []
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            return game, []
        return game, game.rules.legal_actions(game.state, seat)

    def action_choices(self, interaction: discord.Interaction, action_type: str, label,
                       current: str) -> list[app_commands.Choice[str]]:
        """Autocomplete: the caller's legal actions of one type, named by ``label(action,
        names, lang)``, each carrying the whole action (JSON) as its value."""
        game, legal = self._legal(interaction)
        if game is None:
            return []
        names = game.names()
        lang = reader_lang(interaction)
        out = []
        for a in legal:
            if a["type"] == action_type:
                text = label(a, names, lang)
                if current.lower() in text.lower():
                    out.append(app_commands.Choice(name=text[:100], value=encode_action(a)))
        return out[:MAX_CHOICES]

    async def _do(self, interaction: discord.Interaction, action: dict) -> None:
        """Slash-command path: apply, then confirm or explain in the interaction's first answer
        (one call to Discord; deferred first only if the move takes long). The confirmation
        carries a private Undo button while the move may be taken back."""
        lang = reader_lang(interaction)
        game = self.host.game_in(interaction.channel_id)
        try:
            game = self._game(interaction)
            outcome = await answered_in_time(
                interaction, self.host.act(interaction.channel_id, interaction.user.id, action),
                thinking=True)
        except (HostError, IllegalAction) as exc:
            await send_ephemeral(interaction, refusal(exc, lang, game))
            return
        undo = undo_offer(self.bot, game, interaction.user.id, outcome.seq, lang)
        if undo is None:
            await send_ephemeral(interaction, t("bot.ok", lang))
        else:
            await send_ephemeral(interaction, t("community.undo.offer", lang), view=undo)

    async def press(self, interaction: discord.Interaction, game_id: int, seq: int | None,
                    action: dict, seat: int | None = None) -> None:
        """Button/menu path (a component's ``run``, cogs/components.py): the action applies only
        at the position ``seq`` it was drawn for and, for a menu drawn for ``seat``, only for
        that seat; the host checks both under the game's lock and a refusal is raised for the
        component to answer. A press on the live table is answered by the table itself: the
        message pressed is edited in the interaction's answer (one call, not bound to
        Discord's global budget: ``TableListener.answer_press``), else acknowledged silently;
        while the move may be taken back, the Undo offer follows privately."""
        lang = reader_lang(interaction)
        game = self.host.game_in(interaction.channel_id)
        listener = self.bot.listener
        with listener.pressing(interaction, game_id) as pressed:
            try:
                outcome = await answered_in_time(
                    interaction, self.host.act(interaction.channel_id, interaction.user.id,
                                               action, game_id=game_id, expected_key=seq,
                                               for_seat=seat))
            except BaseException:
                listener.release(pressed)
                raise
        await listener.answer_press(pressed)
        undo = undo_offer(self.bot, game, interaction.user.id, outcome.seq, lang)
        if undo is not None:
            await send_ephemeral(interaction, t("community.undo.offer", lang), view=undo)
        elif not interaction.response.is_done():
            await interaction.response.defer()
            listener.note_editor(interaction, game_id)

    @asynccontextmanager
    async def refusing(self, interaction: discord.Interaction):
        """Run a command's body; a refusal (host or rules) becomes one private sentence and
        nothing escapes to discord.py's error path."""
        try:
            yield
        except (HostError, IllegalAction) as exc:
            await send_ephemeral(interaction, refusal(
                exc, reader_lang(interaction), self.host.game_in(interaction.channel_id)))

    async def open_lobby(self, interaction: discord.Interaction, options: dict,
                         timer: float | None, thread: bool | None) -> None:
        """A game's ``new``: ``timer`` and ``thread`` None take the server's settings."""
        async with self.refusing(interaction):
            await self.bot.get_cog("Lobby").open(interaction, self.kind, options, timer, thread)

    # --- lobby and seats (every game) -------------------------------------------------------

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            await self.host.join(interaction.channel_id, interaction.user.id,
                                 interaction.user.display_name)
            await send_ephemeral(interaction, t("bot.ok", reader_lang(interaction)))
            await self.bot.get_cog("Lobby").refresh(game)

    @app_commands.command(name="ai", description="Add an AI player to this channel's lobby")
    @app_commands.describe(level="How well the AI plays")
    @app_commands.choices(level=[app_commands.Choice(name=x, value=x)
                                 for x in ("fast", "strong", "expert", "random")])
    async def ai(self, interaction: discord.Interaction, level: str | None = None) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            await self.host.add_ai(interaction.channel_id, interaction.user.id, level)
            await send_ephemeral(interaction, t("bot.ok", reader_lang(interaction)))
            await self.bot.get_cog("Lobby").refresh(game)

    @app_commands.command(name="start", description="Start this channel's game (creator or managers)")
    async def start(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.host.start_game(interaction.channel_id, interaction.user.id,
                                       can_manage(interaction))
            await send_ephemeral(interaction, t("bot.ok", reader_lang(interaction)))
            await self.bot.get_cog("Lobby").refresh(game, started=True)

    @app_commands.command(name="remove", description="Remove a player or an AI seat from the lobby")
    @app_commands.describe(player="The seat to free (a player or an AI)")
    async def remove(self, interaction: discord.Interaction, player: str) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            seat_id = self._seat_named(game, player)
            await self.host.remove_seat(interaction.channel_id, interaction.user.id, seat_id,
                                        can_manage(interaction))
            await send_ephemeral(interaction, t("bot.ok", reader_lang(interaction)))
            await self.bot.get_cog("Lobby").refresh(game)

    @staticmethod
    def _seat_named(game: LiveGame, text: str) -> str:
        """The id of the seat named: the autocomplete's value (the seat's id: a user id, or
        an AI seat's own ``ai:N``), a mention, or a seat's name. Never a place in the list:
        if someone left meanwhile, a place would name the next seat."""
        text = text.strip()
        user = text.removeprefix("<@").removeprefix("!").removesuffix(">")
        for s in game.seats:
            if s["id"] == user:
                return s["id"]
        for s in game.seats:
            if s["name"].casefold() == text.casefold():
                return s["id"]
        if user.isdigit() or user.startswith("ai:"):
            return user  # a seat that is gone: the host says nobody sits there
        raise HostError("no_such_seat")

    @remove.autocomplete("player")
    @quiet_autocomplete
    async def _remove_player(self, interaction: discord.Interaction, current: str):
        game = self.host.game_in(interaction.channel_id)
        if game is None or game.kind != self.kind:
            return []
        lang = reader_lang(interaction)
        out = []
        for i, s in enumerate(game.seats):
            label = t("bot.lobby_seat_ai" if s.get("ai") else "bot.lobby_seat", lang,
                      n=i + 1, name=s["name"])
            if current.casefold() in label.casefold():
                out.append(app_commands.Choice(name=label[:100], value=s["id"]))
        return out[:MAX_CHOICES]

    @app_commands.command(name="cancel", description="Cancel this channel's game")
    async def cancel(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            self._game(interaction)
            game = await self.host.cancel(interaction.channel_id, interaction.user.id,
                                          can_manage(interaction))
            said = t("bot.lobby_cancelled", table_lang(self.bot, game))  # public: the table's
            await self.bot.listener.close_table(game, said)
            await interaction.response.send_message(said)

    @app_commands.command(name="leave", description="Leave the game (an AI takes your seat)")
    async def leave(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            name = interaction.user.display_name
            await self.host.leave_game(interaction.channel_id, interaction.user.id)
            if game.status == "active":
                await interaction.response.send_message(  # public: in the table's language
                    t("bot.ai_took_over", table_lang(self.bot, game), player=name),
                    allowed_mentions=NO_MENTIONS)
            else:
                await send_ephemeral(interaction, t("bot.ok", reader_lang(interaction)))

    # --- information (every game) -----------------------------------------------------------

    @app_commands.command(name="board", description="Show the current table (only you)")
    async def board(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            if game.status != "active":
                raise HostError("not_started")
            await interaction.response.defer(ephemeral=True, thinking=True)
            lang = reader_lang(interaction)  # a private board: in the reader's language
            cached = self._boards.get((game.id, lang))
            if cached is None or cached[0] != game.seq:
                # one drawing per game position and language, however many players ask
                png = await asyncio.to_thread(render, game.kind,
                                              game.rules.view(game.state, None), lang)
                cached = self._boards[game.id, lang] = (game.seq, png)
            await interaction.followup.send(
                file=discord.File(io.BytesIO(cached[1]), "board.png"), ephemeral=True)

    @app_commands.command(name="status", description="Round or turn, whose input is awaited, scores")
    async def status(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            if game.status != "active":
                raise HostError("not_started")
            lang = reader_lang(interaction)
            lines = self.status_lines(game, game.rules.view(game.state, None), lang)
            awaiting = [game.seats[p]["name"] for p in game.awaiting()]
            lines.append(t("bot.status_awaiting", lang,
                           players=", ".join(awaiting) or t("bot.status_nobody", lang)))
            await send_ephemeral(interaction, "\n".join(lines)[:2000])

    # --- a hint for learners (every game) --------------------------------------------------

    @app_commands.command(name="hint", description="Suggest a move for your seat (only you; counted)")
    async def hint(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            self._game(interaction)
            game, seat, found = await answered_in_time(
                interaction, self.host.hint(interaction.channel_id, interaction.user.id),
                thinking=True)
            lang = reader_lang(interaction)
            view = game.rules.view(game.state, seat)
            label = self.move_label(game, seat, view, found["action"], lang)
            lines = [t("bot.hint.suggest", lang, move=label)]
            if found["value"] is None:
                lines.append(t("bot.hint.why_strong", lang))
            elif found["other"] is None:
                lines.append(t("bot.hint.why_alone", lang, playouts=found["playouts"],
                               value=round(100 * found["value"])))
            else:
                other = self.move_label(game, seat, view, found["other"], lang)
                lines.append(t("bot.hint.why", lang, playouts=found["playouts"],
                               value=round(100 * found["value"]), other=other,
                               other_value=round(100 * found["other_value"])))
            lines.append(t("bot.hint.counted", lang, count=game.seats[seat].get("hints", 0)))
            play = discord.ui.View(timeout=None)
            play.add_item(ActButton(game.id, game.key_for(seat), found["action"],
                                    t("bot.hint.play", lang, move=label),
                                    discord.ButtonStyle.primary))
            await send_ephemeral(interaction, "\n".join(lines)[:2000], view=unkept(play))

    def move_label(self, game: LiveGame, seat: int, view: dict, action: dict, lang: str) -> str:
        """A move as the table's buttons and menus name it (the game's ``action_label``
        first, for moves made in a private panel), else a generic name."""
        label = self.action_label(game, seat, view, action, lang)
        if label:
            return label
        wanted = encode_action(action)
        for item in self.table_items(game, lang):
            if isinstance(item, ActButton) and item.action == action:
                return item.item.label
            if isinstance(item, ActSelect):
                for option in item.item.options:
                    if option.value == wanted:
                        return option.label
        return t("bot.hint.move", lang)

    def action_label(self, game: LiveGame, seat: int, view: dict, action: dict,
                     lang: str) -> str | None:
        """Hook: the name of one of ``seat``'s moves (None: as the table's items name it)."""
        return None

    @app_commands.command(name="log", description="Recent events of this game (only you)")
    async def log(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            lang = reader_lang(interaction)
            lines = [x for x in (describe(game.kind, e, game.names(), lang)
                                 for e in game.lobby.get("log", [])) if x]
            text = "\n".join(lines[-25:]) or t("bot.log_empty", lang)
            title = t("bot.log_title", lang)
            await send_ephemeral(interaction, f"**{title}**\n{text}"[:2000])
