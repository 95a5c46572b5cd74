"""What brings players back, on Discord: ratings and stats, leaderboards, the Rematch button,
a channel's game history and replays (the ``/darwin`` commands themselves are in
``cogs/admin.py``; the reads in ``host/records.py``, the rating math in ``host/ratings.py``).

Stats, leaderboards and history are public and short (a phone shows them without
scrolling): one line per game or per player. The end-of-game table message gets each
person's rating change and a **Rematch** button (:func:`ending_lines`, :func:`final_view`).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from cogs.common import (
    NO_MENTIONS,
    Picture,
    reader_lang,
    refusal,
    safe_name,
    send_ephemeral,
    table_lang,
    unkept,
)
from cogs.components import Component
from cogs.translator import lookup
from engine import game_kinds
from host import HostError, LiveGame, records
from host.ratings import is_ai
from messages import fold, t
from store import StoreError

log = logging.getLogger("darwin.community")

MAX_CHOICES = 25


# --- numbers and names ----------------------------------------------------------------------


def number(value: float, lang: str, signed: bool = False) -> str:
    """A rating or a change, one decimal, as the reader writes numbers ("+3.1", "14,2")."""
    text = f"{value:+.1f}" if signed else f"{value:.1f}"
    if text in ("-0.0", "+0.0", "0.0"):
        text = "+0.0" if signed else "0.0"
    return text.replace(".", ",") if lang in ("it", "fr") else text


def game_name(kind: str, lang: str) -> str:
    return t(f"{kind}.name", lang)


def ai_name(player_id: str, lang: str) -> str:
    """An AI level as a rated player: "🤖 AI (strong)"."""
    level = player_id.split(":", 1)[1]
    return t("community.ai_player", lang,
             level=lookup(f"game.cmd.ai.opt.level.choice.{level}", lang) or level)


def kind_named(text: str | None) -> str | None:
    """The game kind a /darwin option names: the kind itself (what autocomplete sends) or a
    game's name in any language. HostError ``unknown_game_kind`` otherwise."""
    if text is None or text == "":
        return None
    kinds = game_kinds()
    if text in kinds:
        return text
    want = fold(text)
    for kind in kinds:
        if want in (fold(kind), *(fold(game_name(kind, lang)) for lang in ("en", "it", "fr"))):
            return kind
    raise HostError("unknown_game_kind", game=text)


def game_choices(current: str, lang: str) -> list[app_commands.Choice[str]]:
    """Autocomplete of a game option: every game, by its name in the reader's language."""
    want = fold(current)
    return [app_commands.Choice(name=game_name(kind, lang), value=kind) for kind in game_kinds()
            if want in fold(game_name(kind, lang)) or want in fold(kind)][:MAX_CHOICES]


# --- stats, leaderboard, history --------------------------------------------------------------


def stats_text(stats: list[records.GameStats], player: str, kind: str | None, lang: str) -> str:
    """/darwin stats: a line of figures per game, and the rating under it."""
    name = safe_name(player)
    if not stats:
        if kind is None:
            return t("community.stats.none", lang, player=name)
        return t("community.stats.none_game", lang, player=name, game=game_name(kind, lang))
    scope = game_name(kind, lang) if kind is not None else t("community.all_games", lang)
    lines = [t("community.stats.title", lang, player=name, scope=scope)]
    for s in stats:
        lines.append(t("community.stats.game", lang, game=game_name(s.kind, lang),
                       games=s.games, wins=s.wins,
                       rank="–" if s.average_rank is None else number(s.average_rank, lang),
                       best="–" if s.best_score is None else s.best_score))
        if s.rating is None:
            lines.append(t("community.stats.unrated", lang))
        else:
            key = "community.stats.rating_one" if s.change_games == 1 else "community.stats.rating"
            lines.append(t(key, lang, rating=number(s.rating, lang),
                           change=number(s.change or 0.0, lang, signed=True),
                           count=s.change_games))
    return "\n".join(lines)


def leaderboard_text(board: list[records.Standing], kind: str, lang: str) -> str:
    game = game_name(kind, lang)
    if not board:
        return t("community.board.empty", lang, min=records.BOARD_MIN_GAMES, game=game)
    lines = [t("community.board.title", lang, game=game, min=records.BOARD_MIN_GAMES)]
    for n, s in enumerate(board, 1):
        who = ai_name(s.player_id, lang) if s.ai else safe_name(s.name or "?")
        lines.append(t("community.board.line", lang, n=n, player=who,
                       rating=number(s.rating, lang), games=s.games))
    return "\n".join(lines)


def history_text(games: list[records.PastGame], lang: str) -> str:
    if not games:
        return t("community.history.empty", lang)
    lines = [t("community.history.title", lang)]
    for g in games:
        lines.append(t("community.history.line", lang, game=g.id,
                       date=f"<t:{int(g.finished_at)}:d>", kind=game_name(g.kind, lang),
                       players=", ".join(safe_name(n) for n in g.players),
                       winners=", ".join(safe_name(n) for n in g.winners) or "–"))
    return "\n".join(lines)[:2000]


def history_view(games: list[records.PastGame], lang: str) -> discord.ui.View | None:
    """A Replay button per game of the history (10 at most: two rows of five)."""
    if not games:
        return None
    view = discord.ui.View(timeout=None)
    for g in games[:10]:
        view.add_item(ReplayButton(g.id, lang))
    return unkept(view)


# --- the end of a game ------------------------------------------------------------------------


async def ending_lines(bot, game: LiveGame, lang: str) -> list[str]:
    """Under the final standings: the hints each person used (/<game> hint), then each
    person's new rating and its change in this game, best placed first, or why the game was
    not rated."""
    hinted = [t("community.table.hint_count", lang, player=safe_name(s["name"]), count=s["hints"])
              for s in game.seats if s.get("hints")]
    lines = [t("community.table.hints", lang, players=", ".join(hinted))] if hinted else []
    host = getattr(bot, "host", None)
    if game.guild_id is None or host is None:
        return lines  # not rated (a game without a server), or a table without a host (tests)
    try:
        changes = await records.rating_changes(host.store, game.id)
    except HostError:
        return lines  # the standings stand without them (the failure is in the log)
    if not changes:
        return lines + [t("community.table.not_rated", lang)]
    lines.append(t("community.table.ratings", lang))
    seats = [(i, s) for i, s in enumerate(game.seats) if not is_ai(s["id"])]
    rated = sorted((changes[s["id"]].rank, i, s) for i, s in seats if s["id"] in changes)
    for _, _, seat in rated:
        c = changes[seat["id"]]
        lines.append(t("community.table.rating_line", lang, player=safe_name(seat["name"]),
                       rating=number(c.after, lang), change=number(c.delta, lang, signed=True)))
    return lines


def final_view(game: LiveGame, lang: str, rematch: bool = True) -> discord.ui.View:
    """The buttons under a finished game: Rematch (once) and its Replay."""
    view = discord.ui.View(timeout=None)
    if rematch:
        view.add_item(RematchButton(game.id, lang))
    view.add_item(ReplayButton(game.id, lang))
    return unkept(view)


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    """The Rematch button: a lobby with the same seats and options, posted in the channel;
    the finished game's message loses its Rematch button. A refusal is raised (HostError)."""
    from cogs.lobby import lobby_embed, lobby_view

    bot = interaction.client
    lang = reader_lang(interaction)
    game = await bot.host.rematch(interaction.channel_id, game_id, interaction.user.id)
    public = table_lang(bot, game)
    old = LiveGame(game_id, game.guild_id, game.channel_id, game.kind, "finished", {}, {})
    await interaction.response.edit_message(view=final_view(old, public, rematch=False))
    others = [s["id"] for s in game.seats if not s.get("ai") and s["id"] != str(interaction.user.id)]
    text = t("community.rematch.lobby", public, player=safe_name(interaction.user.display_name),
             players=" ".join(f"<@{u}>" for u in others)) if others else None
    channel = interaction.channel
    message = await channel.send(
        text, embed=lobby_embed(game, public), view=lobby_view(game, public),
        allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(int(u)) for u in others], roles=False, everyone=False))
    await bot.host.note_message(game, "lobby", message.id)
    await send_ephemeral(interaction, t("community.rematch.opened", lang))


async def send_replay(interaction: discord.Interaction, game_id: int, *,
                      ephemeral: bool) -> None:
    """Draw a finished game of this channel as an animated GIF and send it (saying so when
    the replay did not reproduce the stored final position exactly). A game that is not
    this channel's or not over is refused privately before anything is drawn."""
    bot = interaction.client
    lang = reader_lang(interaction)
    error: HostError | None = None
    try:
        row = await bot.host.store.get_game(int(game_id))
    except StoreError as exc:
        log.error("could not read game %s: %s", game_id, exc)
        error = HostError("storage_failed")
    else:
        if row is None or row.channel_id != str(interaction.channel_id):
            error = HostError("replay_not_here", game=game_id)
        elif row.status in ("lobby", "active"):
            error = HostError("replay_unfinished", game=game_id)
        elif row.status != "finished":
            error = HostError("replay_cancelled", game=game_id)
    if error is not None:
        await send_ephemeral(interaction, refusal(error, lang))
        return
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    try:
        replay = await bot.host.replay(int(game_id), lang)
    except HostError as exc:
        await interaction.followup.send(refusal(exc, lang), ephemeral=True)
        return
    except ValueError:  # the GIF cannot be made small enough (images.replay.GifTooLarge)
        await interaction.followup.send(
            refusal(HostError("replay_too_large", game=game_id), lang), ephemeral=True)
        return
    text = t("community.replay.caption", lang, game=game_id, kind=game_name(replay.kind, lang),
             frames=replay.frames)
    if not replay.exact:
        text += "\n" + t("community.replay.not_exact", lang)
    await interaction.followup.send(
        text, file=Picture(replay.gif, f"darwin-{game_id}.gif"),
        ephemeral=ephemeral, allowed_mentions=NO_MENTIONS)


async def replay_choices(interaction: discord.Interaction, current: str):
    """Autocomplete of /darwin replay: the channel's recent finished games."""
    lang = reader_lang(interaction)
    games = await records.channel_history(interaction.client.host.store, interaction.channel_id,
                                          MAX_CHOICES)
    want = fold(current)
    out = []
    for g in games:
        label = t("community.replay.choice", lang, game=g.id, kind=game_name(g.kind, lang),
                  players=", ".join(g.players), date=_day(g.finished_at))
        if want in fold(label):
            out.append(app_commands.Choice(name=label[:100], value=str(g.id)))
    return out


def _day(at: float) -> str:
    import datetime

    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d")


# --- buttons ----------------------------------------------------------------------------------


class RematchButton(Component, prefix="rm", fields=r"(?P<game>\d+)"):
    """Under a finished game: open a lobby with the same seats and options (once)."""

    def __init__(self, game_id: int, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(label=t("community.btn.rematch", lang), emoji="🔁",
                                           style=discord.ButtonStyle.success,
                                           custom_id=self.make_id(game_id)))
        self.game_id = game_id

    @classmethod
    def rebuild(cls, fields, item):
        return cls(fields["game"])

    async def run(self, interaction: discord.Interaction) -> None:
        await rematch(interaction, self.game_id)


class ReplayButton(Component, prefix="rp", fields=r"(?P<game>\d+)"):
    """A finished game's replay, sent privately to whoever presses."""

    def __init__(self, game_id: int, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(label=t("community.btn.replay", lang, game=game_id),
                                           emoji="🎞️", style=discord.ButtonStyle.secondary,
                                           custom_id=self.make_id(game_id)))
        self.game_id = game_id

    @classmethod
    def rebuild(cls, fields, item):
        return cls(fields["game"])

    async def run(self, interaction: discord.Interaction) -> None:
        await send_replay(interaction, self.game_id, ephemeral=True)


# --- undo -------------------------------------------------------------------------------------


def undo_refusal(exc: Exception, lang: str, game=None) -> str:
    """Why a move cannot be taken back, in one sentence (the host's reason when it gives
    one: someone played since, the bot made it, it revealed something...)."""
    if isinstance(exc, HostError) and exc.code == "cannot_undo":
        key = f"bot.undo.refused.{exc.params.get('reason')}"
        if t(key, lang) != key:
            return t(key, lang, **exc.params)
    return refusal(exc, lang, game)


def undo_offer(bot, game: LiveGame | None, user_id, seq: int | None,
               lang: str) -> discord.ui.View | None:
    """The private Undo button for the move that brought the game to position ``seq``, if
    its player may still take it back (None otherwise)."""
    if game is None or seq is None or game.status != "active" or game.seq != seq:
        return None
    if not bot.host.can_undo(game, game.seat_of(user_id)):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(game.id, seq, lang))
    return unkept(view)


async def undo_command(interaction: discord.Interaction) -> None:
    """/darwin undo: take back your last move in this channel's game."""
    lang = reader_lang(interaction)
    host = interaction.client.host
    try:
        await host.undo(interaction.channel_id, interaction.user.id)
    except HostError as exc:
        await send_ephemeral(interaction, undo_refusal(exc, lang,
                                                       host.game_in(interaction.channel_id)))
        return
    await send_ephemeral(interaction, t("community.undo.done", lang))


class UndoButton(Component, prefix="u", fields=r"(?P<game>\d+):(?P<seq>\d+)"):
    """Private, under the confirmation of a move: take that move back (only that one, only
    while nobody has played since). Its answer, done or refused, replaces that confirmation."""

    def __init__(self, game_id: int, seq: int, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(label=t("bot.undo.button", lang), emoji="↩️",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=self.make_id(game_id, seq)))
        self.game_id = game_id
        self.seq = seq

    @classmethod
    def rebuild(cls, fields, item):
        return cls(fields["game"], fields["seq"])

    async def run(self, interaction: discord.Interaction) -> None:
        await interaction.client.host.undo(interaction.channel_id, interaction.user.id,
                                           game_id=self.game_id, expected_seq=self.seq)
        await self.answer(interaction, t("community.undo.done", reader_lang(interaction)))

    async def refuse(self, interaction: discord.Interaction, exc: Exception) -> None:
        game = interaction.client.host.game_in(interaction.channel_id)
        await self.answer(interaction, undo_refusal(exc, reader_lang(interaction), game))

    async def answer(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.edit_message(content=text, view=None)
