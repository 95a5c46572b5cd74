"""What every game's command group shares: the action paths, the lobby commands, the board.

A game cog subclasses :class:`GameCog` with its ``group_name``, sets ``kind``, adds its own
``new`` command and action commands, and implements the hooks:

* ``table_items(game, lang)`` -> the buttons and menus valid now (below the table message)
* ``status_lines(game, view, lang)`` -> the lines of ``/<game> status``
* ``show_hand(interaction, game_id)`` -> the private hand (games with hidden cards)
* ``action_label(game, seat, view, action, lang)`` -> a move's name (menus, autocomplete, hint)
* ``topics``/``topic_text``/``typed_topic`` -> ``/<game> rules`` (``rules = rules_command(...)``)

An action command whose option lists the caller's legal actions names them in its ``extras``
and takes ``GameCog.action_autocomplete``; ``menu`` draws a table menu of actions.

Rules never live here: every action goes to the host, which asks the engine.
"""

from __future__ import annotations

import asyncio
import dataclasses
from contextlib import asynccontextmanager

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    NO_MENTIONS,
    Picture,
    can_manage,
    draw,
    encode_action,
    quiet_autocomplete,
    reader_lang,
    refusal,
    send_ephemeral,
    table_lang,
    unkept,
)
from cogs.community import undo_offer
from cogs.components import hint_id
from cogs.table import ActButton, ActSelect
from cogs.translator import slash
from engine import IllegalAction
from engine.core import description
from host import HostError, LiveGame
from images import render
from messages import describe, has, resolve, t

MAX_CHOICES = 25
MAX_VALUE = 100  # Discord: a menu option's value, an autocomplete choice's value

# a game's ``new`` command: ``timer: Timer | None = None, thread: bool | None = None``
# (None: the server's setting), described by these
Timer = app_commands.Range[int, 0, 86400]
TIMER = "Turn timer in seconds (0 = off; default: the server's setting)"
THREAD = "Open the table in a new thread (default: the server's setting)"


ANSWER_WITHIN = 2.0  # seconds before a slow move's interaction is deferred (Discord: 3 s)


async def answered_in_time(interaction: discord.Interaction, work, *, thinking: bool = False):
    """Await ``work`` (a host call); if it has not finished within ANSWER_WITHIN seconds, the
    interaction is deferred first (privately "thinking" for a command, silently for a press),
    so that its answer may come later. A quick move is answered in one call to Discord instead
    of an acknowledgement and a followup."""
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
        if not done and not interaction.response.is_done():
            if thinking:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        return await task
    finally:
        # a refusal's traceback holds this frame, and the task holds the refusal: without
        # these, a cycle for the garbage collector's passes (issue 25: GC pauses)
        task = done = None


@app_commands.guild_only()
class GameCog(commands.GroupCog):
    kind: str = ""

    def __init__(self, bot) -> None:
        self.bot = bot
        self._boards: dict[tuple[int, str], tuple[int, bytes]] = {}  # (game, lang) -> (seq, PNG)
        super().__init__()
        self._offer_own_levels()

    def _offer_own_levels(self) -> None:
        """``/<game> ai`` lists the levels this game has (its description's ``ai_levels``):
        the command is declared once for every game, so this cog's copy of it gets its own
        list (Cubosaurs has no expert). discord.py keeps a command's options in ``_params``;
        its ``_copy_with`` shares the option objects between the copies, so the option is
        replaced, not changed."""
        have = description(self.kind).ai_levels
        param = self.ai._params["level"]
        self.ai._params["level"] = dataclasses.replace(
            param, choices=[c for c in param.choices if c.value in have])

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

    def hint_ahead(self, lang: str) -> str:
        """How far a hint's search plays out: the game's own words (``<kind>.hint_ahead``,
        kept beside its expert's horizon), else the end of the round."""
        key = f"{self.kind}.hint_ahead"
        return t(key if has(key, lang) or has(key) else "bot.hint.ahead", lang)

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

    # --- autocomplete -----------------------------------------------------------------------

    @staticmethod
    def matching(choices, current: str) -> list[app_commands.Choice[str]]:
        """Autocomplete: the ``(label, value)`` pairs whose label holds what the user typed
        (case ignored), 25 at most."""
        return [app_commands.Choice(name=label[:100], value=value) for label, value in choices
                if current.lower() in label.lower()][:MAX_CHOICES]

    def action_choices(self, interaction: discord.Interaction, action_type: str, label,
                       current: str) -> list[app_commands.Choice[str]]:
        """Autocomplete: the caller's legal actions of one type, named by ``label(action,
        names, lang)``, each carrying the whole action (JSON) as its value."""
        game, legal = self._legal(interaction)
        if game is None:
            return []
        names, lang = game.names(), reader_lang(interaction)
        return self.matching(((label(a, names, lang), encode_action(a)) for a in legal
                              if a["type"] == action_type), current)

    def choice_value(self, action: dict) -> str:
        """Hook: an action as an autocomplete value (its JSON)."""
        return encode_action(action)

    def legal_choices(self, interaction: discord.Interaction, current: str, types,
                      **fields) -> list[app_commands.Choice[str]]:
        """Autocomplete: the caller's legal actions of these types (and these fields'
        values), named as the game's ``action_label`` names them for the caller."""
        game, legal = self._legal(interaction)
        if game is None or not legal:
            return []
        seat = game.seat_of(interaction.user.id)
        view = game.rules.view(game.state, seat)
        lang = reader_lang(interaction)
        return self.matching(
            ((self.action_label(game, seat, view, a, lang), self.choice_value(a)) for a in legal
             if a["type"] in types and all(a.get(k) == v for k, v in fields.items())), current)

    @quiet_autocomplete
    async def action_autocomplete(self, interaction: discord.Interaction, current: str):
        """An action command's autocomplete, declared with the command's option
        (``@app_commands.autocomplete(play=GameCog.action_autocomplete)``): the caller's legal
        actions that the command's ``extras`` name (``actions``: their types; any other key:
        a field's value)."""
        wanted = dict(interaction.command.extras)
        return self.legal_choices(interaction, current, wanted.pop("actions"), **wanted)

    # --- menus on the table -----------------------------------------------------------------

    @staticmethod
    def people_awaited(game: LiveGame) -> list[int]:
        """The seats awaited now that a person plays: the table's buttons and menus are drawn
        for them only (an AI seat's move is never a person's to press; drawing its menus on
        every press's answer was a large part of the bot's time under load, issue 25)."""
        return [p for p in game.awaiting() if not game.seats[p].get("ai")]

    @staticmethod
    def by_type(actions: list[dict]) -> dict[str, list[dict]]:
        """Actions grouped by their type (each group in their order)."""
        by: dict[str, list[dict]] = {}
        for a in actions:
            by.setdefault(a["type"], []).append(a)
        return by

    def more_button(self, game: LiveGame, command: str, lang: str) -> discord.ui.Button:
        """A greyed button naming the slash command that lists every choice of a full menu
        (``<kind>.bot.btn_more``)."""
        text = t(f"{self.kind}.bot.btn_more", lang, command=slash(f"{self.kind} {command}", lang))
        return discord.ui.Button(label=text[:80], style=discord.ButtonStyle.secondary,
                                 disabled=True, custom_id=hint_id(game.id, game.step, command))

    def menu(self, game: LiveGame, seat: int, acts: list[dict], placeholder: str, tag: str,
             view: dict, command: str, lang: str) -> list[discord.ui.Item]:
        """A menu of ``seat``'s actions ``acts`` named by ``action_label`` and bound to the
        seat's decision key: 25 at most, each carrying its whole action (JSON that fits a
        value); beyond, a greyed button names the ``command`` that lists them all."""
        fit = [a for a in acts if len(encode_action(a)) <= MAX_VALUE]
        if not fit:
            return [self.more_button(game, command, lang)] if acts else []
        options = [discord.SelectOption(label=self.action_label(game, seat, view, a, lang)[:100],
                                        value=encode_action(a)) for a in fit[:MAX_CHOICES]]
        items: list[discord.ui.Item] = [ActSelect(game.id, game.key_for(seat), seat, options,
                                                  placeholder[:150], tag=tag)]
        if len(fit) < len(acts) or len(fit) > MAX_CHOICES:
            items.append(self.more_button(game, command, lang))
        return items

    # --- /<game> rules: a game words the command (``rules = rules_command(...)``, below) and
    # names its topics with these hooks

    no_topic_key = ""  # the catalogue's "no such topic" (default ``<kind>.bot.no_rules_topic``)

    def topics(self, lang: str) -> list[tuple[str, str]]:
        """Hook: ``(value, label)`` of every topic the autocomplete offers (``kind:name``)."""
        return []

    def topic_text(self, kind: str, name: str, lang: str) -> tuple[str, str] | None:
        """Hook: the title and the text of the topic ``kind:name`` (None: no such topic)."""
        return None

    def typed_topic(self, text: str, lang: str) -> tuple[str, str]:
        """Hook: ``(kind, name)`` of a topic typed without the autocomplete (no ``kind:``)."""
        return "", text.lower()

    def topic_of(self, topic: str, lang: str) -> tuple[str, str]:
        """``(kind, name)``: the autocomplete's ``kind:name``, else what ``typed_topic`` makes
        of the text."""
        kind, _, name = topic.strip().lower().partition(":")
        return (kind, name) if name else self.typed_topic(topic.strip(), lang)

    @staticmethod
    def named_topic(text: str, kinds) -> tuple[str, str]:
        """``(kind, id)`` for the first of ``kinds`` (``(kind, ids, catalogue key of an id's
        name)``) whose ids ``text`` names (an id, or its name in any language), else
        ``("rule", text)``."""
        for kind, ids, key in kinds:
            if (name := resolve(text, ids, key)) is not None:
                return kind, name
        return "rule", text.lower()

    async def send_rule(self, interaction: discord.Interaction, topic: str) -> None:
        """``/<game> rules topic:``: the topic's title and text, privately."""
        lang = reader_lang(interaction)
        found = self.topic_text(*self.topic_of(topic, lang), lang)
        if found is None:
            missing = self.no_topic_key or f"{self.kind}.bot.no_rules_topic"
            await send_ephemeral(interaction, t(missing, lang, topic=topic[:50]))
            return
        title, text = found
        await send_ephemeral(interaction, embed=discord.Embed(title=title[:256],
                                                              description=text[:4096]))

    @quiet_autocomplete
    async def topic_autocomplete(self, interaction: discord.Interaction, current: str):
        """``/<game> rules``' autocomplete: the game's ``topics`` in the reader's language."""
        return self.matching(((label, value) for value, label
                              in self.topics(reader_lang(interaction))), current)

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
                png = await draw(render, game.kind, game.rules.view(game.state, None), lang)
                cached = self._boards[game.id, lang] = (game.seq, png)
            await interaction.followup.send(
                file=Picture(cached[1], "board.png"), ephemeral=True)

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
            if found["value"] is None:  # the strong level's choice: no searcher, or none free
                lines.append(t("bot.hint.why_strong" if found["searcher"]
                               else "bot.hint.why_no_searcher", lang))
            elif found["other"] is None:
                lines.append(t("bot.hint.why_alone", lang, playouts=found["playouts"],
                               value=round(100 * found["value"]), ahead=self.hint_ahead(lang)))
            else:
                other = self.move_label(game, seat, view, found["other"], lang)
                lines.append(t("bot.hint.why", lang, playouts=found["playouts"],
                               value=round(100 * found["value"]), other=other,
                               other_value=round(100 * found["other_value"]),
                               ahead=self.hint_ahead(lang)))
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


def rules_command(description: str, topic: str) -> app_commands.Command:
    """A game's ``/<game> rules topic:``, in the game's words (in its class: ``rules =
    rules_command(...)``), answered by ``GameCog.send_rule`` from the game's topic hooks."""
    command = app_commands.command(name="rules", description=description)(GameCog.send_rule)
    # described once made, so a locale_str (as the decorators make of a str): translated
    app_commands.describe(topic=app_commands.locale_str(topic))(command)
    command.autocomplete("topic")(GameCog.topic_autocomplete)
    return command
