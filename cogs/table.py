"""The table message: what the channel sees after every committed action.

The host calls :meth:`TableListener.on_outcome` after each commit. Posting runs in a
background task (one at a time per channel, in commit order), so a player's interaction is
answered as soon as the action is safely stored; the board images are drawn in a thread.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from cogs.common import USER_MENTIONS, encode_action, lang_of, refusal, render_file, send_ephemeral
from host import HostError, LiveGame, Outcome
from messages import describe, t

log = logging.getLogger("darwin.table")

MAX_CONTENT = 1900
MAX_SELECT = 25


async def game_cog(interaction: discord.Interaction, game_id: int):
    """The command group of the pressed message's game, or None when that game is no longer
    played in this channel (the presser is told so)."""
    game = interaction.client.host.game_in(interaction.channel_id)
    if game is None or game.id != game_id:
        await send_ephemeral(interaction, refusal(HostError("stale_game"),
                                                  lang_of(interaction.client)))
        return None
    return interaction.client.game_cog(game.kind)


class ActButton(discord.ui.DynamicItem[discord.ui.Button],
                template=r"dw:a:(?P<game>\d+):(?P<action>\{.*\})"):
    """A button that applies one concrete action (checked against the state when pressed)."""

    def __init__(self, game_id: int, action: dict, label: str,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], style=style, custom_id=f"dw:a:{game_id}:{encode_action(action)}",
            row=row))
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        from cogs.common import decode_action

        return cls(int(match["game"]), decode_action(match["action"]), item.label or "?",
                   item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        if cog := await game_cog(interaction, self.game_id):
            await cog.press(interaction, self.game_id, self.action)


class ActSelect(discord.ui.DynamicItem[discord.ui.Select],
                template=r"dw:s:(?P<game>\d+):(?P<seat>\d+)(?::(?P<tag>[a-z_]+))?"):
    """A menu of concrete actions for one seat (hatch here, pass adding this card...).

    ``tag`` tells apart two menus of the same seat in one message (custom ids are unique)."""

    def __init__(self, game_id: int, seat: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, tag: str = "") -> None:
        suffix = f":{tag}" if tag else ""
        super().__init__(discord.ui.Select(
            custom_id=f"dw:s:{game_id}:{seat}{suffix}", placeholder=placeholder,
            options=options or [discord.SelectOption(label="-", value="{}")]))
        self.game_id = game_id
        self.seat = seat
        self.tag = tag

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["seat"]), list(item.options), item.placeholder,
                   match["tag"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.common import decode_action

        action = decode_action(self.item.values[0])
        if cog := await game_cog(interaction, self.game_id):
            await cog.press(interaction, self.game_id, action, seat=self.seat)


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dw:h:(?P<game>\d+)"):
    """Shows the presser's event cards privately."""

    def __init__(self, game_id: int, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(label=t("bot.btn_hand", lang), emoji="🃏",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"dw:h:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), lang_of(interaction.client))

    async def callback(self, interaction: discord.Interaction) -> None:
        if cog := await game_cog(interaction, self.game_id):
            await cog.show_hand(interaction, self.game_id)


def table_view(bot, game: LiveGame, lang: str) -> discord.ui.View | None:
    """The buttons and menus valid now (every press is checked again when it arrives)."""
    if game.status != "active":
        return None
    view = discord.ui.View(timeout=None)
    for item in bot.game_cog(game.kind).table_items(game, lang):
        view.add_item(item)
    return view


def awaiting_line(game: LiveGame, lang: str, actor: int = -1) -> str:
    """Whose input is awaited; humans are mentioned unless they just acted (no ping spam)."""
    who = []
    for seat in game.awaiting():
        s = game.seats[seat]
        who.append(s["name"] if s.get("ai") or seat == actor else f"<@{s['id']}>")
    if not who:
        return ""
    return t("bot.turn_prompt", lang, players=", ".join(who))


def summary(outcome: Outcome, lang: str) -> str:
    game = outcome.game
    names = game.names()
    lines = []
    if outcome.timed_out:
        lines.append(t("bot.timed_out", lang, player=names[outcome.seat]))
    for ev in outcome.events:
        line = describe(game.kind, ev, names, lang)
        if line:
            lines.append(line)
    text = "\n".join(lines)
    if len(text) > MAX_CONTENT:
        text = "…\n" + text[-MAX_CONTENT:].split("\n", 1)[-1]
    return text


class TableListener:
    """Posts the table message after every committed action."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task] = set()

    async def on_outcome(self, outcome: Outcome) -> None:
        lock = self._locks.setdefault(outcome.game.channel_id, asyncio.Lock())
        # build what depends on the game *now* before anything else can change it
        lang = lang_of(self.bot)
        text = summary(outcome, lang)
        prompt = awaiting_line(outcome.game, lang, outcome.seat)
        view = table_view(self.bot, outcome.game, lang)
        snapshots = [(f"{outcome.game.kind}-{outcome.game.seq:04d}-{i}-{phase}.png", v)
                     for i, (phase, v) in enumerate(list(outcome.snapshots)[-10:])]
        task = asyncio.get_running_loop().create_task(
            self._post(lock, outcome.game, text, prompt, view, snapshots, lang))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _post(self, lock, game, text, prompt, view, snapshots, lang) -> None:
        async with lock:
            try:
                channel = self.bot.get_channel(int(game.channel_id)) or await self.bot.fetch_channel(
                    int(game.channel_id))
                files = []
                for filename, v in snapshots:
                    files.append(await render_file(game.kind, v, lang, filename))
                content = "\n".join(x for x in (text, prompt) if x) or "…"
                kwargs = {"allowed_mentions": USER_MENTIONS}
                if files:
                    kwargs["files"] = files
                if view is not None:
                    kwargs["view"] = view
                await channel.send(content[:2000], **kwargs)
            except Exception:
                log.exception("could not post the table message for game %s", game.id)

    async def on_game_broken(self, game_id: int, channel_id: str, error: str) -> None:
        lang = lang_of(self.bot)
        try:
            channel = self.bot.get_channel(int(channel_id))
            if channel is not None:
                await channel.send(t("bot.game_broken", lang, error=error[:200]))
        except Exception:
            log.exception("could not report broken game %s", game_id)

    async def drain(self) -> None:
        """Wait for every pending post (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
