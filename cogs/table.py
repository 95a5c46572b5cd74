"""The table: the few messages a game lives in, kept up to date as actions are committed.

One *live* message at a time: it shows the phase, what happened, who is awaited and the
buttons valid now, and it is edited as actions come in. A new message is posted when a phase
has ended and a human is awaited (it carries the board images of the phases that ended and
mentions the humans awaited then), at the end of the game, and when a human who became
awaited in the middle of a phase has not acted after a short delay (a reminder that mentions
them); the previous live message then keeps its text and loses its buttons. Nobody is
mentioned for a card window. Every write to a channel (post or edit) goes through one
:class:`Pacer`, so no channel ever gets more than 5 writes in 5 seconds: writes that wait are
merged, so a burst of AI steps becomes one edit. While only AI seats are awaited the writer
also waits for them to settle (:data:`AI_SETTLE`, at most :data:`MAX_SETTLE`): AI seats that
answer at once make one edit, and the message's header and buttons are built once, when it is
written, not after every commit.

Every button and menu carries the position it was drawn for (the game's action sequence
number) and the exact action its label names; a press made for another position is refused
with a link to the live table. The hand button is the only one without a position.

The host calls :meth:`TableListener.on_outcome` after each commit; posting runs in one
background writer per channel, so a player is answered as soon as the action is stored.

Discord allows a bot 50 REST calls a second in all, except the interaction endpoints (an
interaction's answer, its followups and the edits of its original response). So the table
spends that global budget only where nothing else can: a press on the live message is
answered by editing that message in the interaction's own answer (UPDATE_MESSAGE: the move
and its table update are one exempt call, :meth:`TableListener.answer_press`), a press on a
message being retired retires it the same way, and the press's interaction, whose original
response *is* the pressed message, stays the message's *editor* for a while
(:data:`EDITOR_SECONDS`, within the 15 minutes of its token): the writer's later edits of
that message (AI replies, timers, a slash command's move) go through it. A new message
(a phase's end, a reminder, the first table after Start) is a *followup* of the latest
press on the table (or of the Start press) while its token is valid, and that press stays
the new message's editor. Only posts and edits of a table nobody pressed for
:data:`EDITOR_SECONDS` are channel calls. The press's answer is made with
what the table shows when it is sent (whatever else committed meanwhile rides along) and the
writer leaves a table alone while a press answers it; what the live message shows, and so
every edit, depends only on public lines, never on hidden cards.

The game's last message adds, under the final standings, each person's rating change and the
**Rematch** and **Replay** buttons (``cogs/community.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import copy
import logging
from collections import deque
from dataclasses import dataclass, field

import discord

from cogs.common import (
    NO_MENTIONS,
    clip,
    decode_action,
    encode_action,
    render_file,
    safe_name,
    server_lang,
    table_lang,
    unkept,
)
from cogs.community import ending_lines, final_view
from cogs.components import Component
from host import LiveGame, Outcome
from messages import describe, t

log = logging.getLogger("darwin.table")

MAX_CONTENT = 2000
MAX_IMAGES = 10
WRITES_PER_WINDOW = 5
WINDOW_SECONDS = 5.0
# an interaction's token edits its original response for 15 minutes: a press stays its
# message's editor a little less
EDITOR_SECONDS = 14 * 60.0
# while only AI seats are awaited, the table is written once no AI move came for AI_SETTLE
# seconds, or MAX_SETTLE seconds after the first of them: AI seats that answer at once
# (no AI delay) make one edit, not one each; with an AI delay of a second or more each of
# their moves is still shown on its own
AI_SETTLE = 0.3
MAX_SETTLE = 1.0


# --- pacing ---------------------------------------------------------------------------------


class Pacer:
    """At most ``limit`` writes (posts or edits) per ``window`` seconds in each channel.

    Discord allows about 5 per 5 s per channel. Each write reserves the earliest moment at
    which it fits and waits until then, so waiting writers never take a slot twice. ``now``
    and ``sleep`` are the event loop's (tests give SimCord's virtual clock).
    """

    def __init__(self, limit: int = WRITES_PER_WINDOW, window: float = WINDOW_SECONDS,
                 now=None, sleep=None) -> None:
        self.limit = limit
        self.window = window
        self.now = now or (lambda: asyncio.get_running_loop().time())
        self.sleep = sleep or asyncio.sleep
        self._stamps: dict[int, deque[float]] = {}

    def reserve(self, channel_id: int) -> float:
        """Book the next write of this channel; the seconds to wait before making it."""
        now = self.now()
        stamps = self._stamps.setdefault(channel_id, deque())
        while stamps and stamps[0] <= now - self.window:
            stamps.popleft()
        at = now
        if len(stamps) >= self.limit:
            at = max(at, stamps[-self.limit] + self.window + 0.01)
        if stamps:
            at = max(at, stamps[-1])
        stamps.append(at)
        return at - now

    def note(self, channel_id: int) -> None:
        """Count a write made now without waiting for a slot (a press answered by editing
        the table in its own interaction answer: it cannot wait)."""
        now = self.now()
        stamps = self._stamps.setdefault(channel_id, deque())
        while stamps and stamps[0] <= now - self.window:
            stamps.popleft()
        stamps.append(max(now, stamps[-1]) if stamps else now)

    async def slot(self, channel_id: int) -> None:
        """Wait until this channel may be written to (the write is counted)."""
        wait = self.reserve(channel_id)
        if wait > 0:
            await self.sleep(wait)


# --- components bound to a position ---------------------------------------------------------


def owes(game: LiveGame, seat: int) -> bool:
    """The seat owes a choice in another player's turn (games that have such choices say so
    through ``rules.owed_choice``): it is mentioned at once, not by a reminder."""
    owed = getattr(game.rules, "owed_choice", None)
    return bool(owed and owed(game.state, seat))


class ActButton(Component, prefix="a",
                fields=r"(?P<game>\d+):(?:(?P<seq>\d+):)?(?P<action>\{.*\})"):
    """A button that applies one concrete action at the position ``seq`` it was drawn for."""

    bound = True

    def __init__(self, game_id: int, seq: int | None, action: dict, label: str,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], style=style,
            custom_id=self.make_id(game_id, seq, encode_action(action)), row=row))
        self.game_id = game_id
        self.seq = seq
        self.action = action

    @classmethod
    def rebuild(cls, fields, item):
        return cls(fields["game"], fields["seq"], decode_action(fields["action"]),
                   item.label or "?", item.style)

    async def run(self, interaction: discord.Interaction) -> None:
        game = self.live_game(interaction)
        await interaction.client.game_cog(game.kind).press(interaction, self.game_id,
                                                           self.seq, self.action)


class ActSelect(Component, prefix="s",
                fields=r"(?P<game>\d+):(?:(?P<seq>\d+):)?(?P<seat>\d+)(?::(?P<tag>[a-z_]+))?"):
    """A menu of concrete actions for one seat at one position (hatch here, pass adding
    this card...). ``tag`` tells apart two menus of the same seat in one message."""

    bound = True

    def __init__(self, game_id: int, seq: int | None, seat: int,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, tag: str = "") -> None:
        super().__init__(discord.ui.Select(
            custom_id=self.make_id(game_id, seq, seat, tag), placeholder=placeholder,
            options=options or [discord.SelectOption(label="-", value="{}")]))
        self.game_id = game_id
        self.seq = seq
        self.seat = seat
        self.tag = tag

    @classmethod
    def rebuild(cls, fields, item):
        return cls(fields["game"], fields["seq"], fields["seat"], list(item.options),
                   item.placeholder, fields["tag"] or "")

    async def run(self, interaction: discord.Interaction) -> None:
        game = self.live_game(interaction)
        action = decode_action(self.item.values[0])
        await interaction.client.game_cog(game.kind).press(interaction, self.game_id, self.seq,
                                                           action, seat=self.seat)


class HandButton(Component, prefix="h", fields=r"(?P<game>\d+)"):
    """Shows the presser's hidden cards privately (the current hand: no position)."""

    def __init__(self, game_id: int, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(label=t("bot.btn_hand", lang), emoji="🃏",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=self.make_id(game_id)))
        self.game_id = game_id

    @classmethod
    def rebuild(cls, fields, item):
        return cls(fields["game"])  # the label is not drawn again

    async def run(self, interaction: discord.Interaction) -> None:
        game = self.live_game(interaction)
        await interaction.client.game_cog(game.kind).show_hand(interaction, self.game_id)


async def web_link(bot, game: LiveGame, outcome: Outcome) -> str | None:
    """The game's web page URL for its table's "Web view" button (None: the web is off, or
    the link was revoked); made when the game starts (the table's first post)."""
    find = getattr(bot, "web_link", None)
    if find is None or getattr(bot, "web", None) is None:
        return None
    try:
        return await find(game.id, create=outcome.action.get("type") == "start")
    except Exception:  # the table goes on without its link
        log.exception("web link of game %s", game.id)
        return None


def with_web_link(view: discord.ui.View | None, url: str | None,
                  lang: str) -> discord.ui.View | None:
    """``view`` with a link button to the game's web page (no interaction, no custom id)."""
    if url is None:
        return view
    view = view or unkept(discord.ui.View(timeout=None))
    with contextlib.suppress(ValueError):  # a full view keeps its game buttons
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url,
                                        label=t("web.discord.button", lang), emoji="🌐"))
    return view


def table_view(bot, game: LiveGame, lang: str) -> discord.ui.View | None:
    """The buttons and menus valid now, bound to the game's position."""
    if game.status != "active":
        return None
    view = discord.ui.View(timeout=None)
    seen: set[str] = set()
    for item in bot.game_cog(game.kind).table_items(game, lang):
        # one button per action: a Pass valid for several awaited players is drawn once
        cid = getattr(item, "custom_id", None)
        if cid in seen or len(view.children) >= 25:
            continue
        seen.add(cid)
        view.add_item(item)
    return unkept(view) if view.children else None


# --- what the table says ------------------------------------------------------------------


def safe_names(game: LiveGame) -> list[str]:
    """The seats' names as shown in public text: no mention, no markdown."""
    return [safe_name(n) for n in game.names()]


def in_card_window(game: LiveGame, seat: int) -> bool:
    check = getattr(game.rules, "card_window", None)
    return bool(check and game.status == "active" and check(game.state, seat))


def status_line(game: LiveGame, lang: str) -> str:
    """Who is awaited (names only: mentions are made once, when a post is made) and until
    when."""
    awaiting = game.awaiting()
    if not awaiting:
        return ""
    names = safe_names(game)
    who = ", ".join(names[p] for p in awaiting)
    if all(in_card_window(game, p) for p in awaiting):
        line = t("bot.window_prompt", lang, players=who)
    elif len(awaiting) > 1:  # several at once (a simultaneous step): who, never what
        line = t("bot.waiting_prompt", lang, count=len(awaiting), players=who)
    else:
        line = t("bot.turn_prompt", lang, players=who)
    deadline = getattr(game, "deadline", None)
    if deadline:
        line += " " + t("bot.deadline", lang, at=f"<t:{int(deadline)}:R>")
    return line


def summary_lines(outcome: Outcome, lang: str) -> list[str]:
    game = outcome.game
    names = safe_names(game)
    lines = []
    if outcome.timed_out and 0 <= outcome.seat < len(names) \
            and outcome.seat not in game.awaiting():
        # once, when the AI has finished the late player's step: in a secret step (a Quick
        # game's play phase) how many moves it made for them is nobody else's business
        lines.append(t("bot.timed_out", lang, player=names[outcome.seat]))
    for ev in outcome.events:
        line = describe(game.kind, ev, names, lang)
        if line:
            lines.append(line)
    return lines


def fits(header: str, lines: list[str], footer: str) -> bool:
    """Whether a message of these parts shows every line (see :func:`compose`)."""
    room = MAX_CONTENT - len(clip(header, 300)) - len(clip(footer, 500)) - 8
    return sum(len(line) + 1 for line in lines) <= room


def compose(header: str, lines: list[str], footer: str) -> str:
    """Header, the latest lines that fit, footer: at most Discord's 2,000 characters."""
    head = clip(header, 300)
    foot = clip(footer, 500)
    room = MAX_CONTENT - len(head) - len(foot) - 8
    body: list[str] = []
    used = 0
    for line in reversed(lines):
        line = clip(line, room)
        if used + len(line) + 1 > room:
            body.append("…")
            break
        body.append(line)
        used += len(line) + 1
    parts = [head] if head else []
    parts += list(reversed(body))
    if foot:
        parts.append(foot)
    return "\n".join(parts)[:MAX_CONTENT] or "…"


def components_of(view: discord.ui.View | None) -> list:
    """The components a message with ``view`` shows (labels, custom ids, options)."""
    return [] if view is None else view.to_components()


@dataclass
class Table:
    """One game's face in its channel: the live message and what the next write carries."""

    game_id: int
    channel_id: int
    kind: str
    lang: str  # the table's language (its text and images)
    live_id: int | None = None
    phase: str | None = None
    header: str = ""
    lines: list[str] = field(default_factory=list)
    footer: str = ""
    view: discord.ui.View | None = None
    mentioned: set[int] = field(default_factory=set)  # seats mentioned in this phase
    nudges: dict[int, int] = field(default_factory=dict)  # seat -> its pending reminder's id
    owing: set[int] = field(default_factory=set)  # seats told of the choice they owe now
    ping: list[str] = field(default_factory=list)  # user ids to mention in the next post
    awaited: set[str] = field(default_factory=set)  # user ids awaited now
    images: list[tuple[str, dict]] = field(default_factory=list)
    repost: bool = False
    dirty: bool = False
    finished: bool = False
    retired: list[tuple[int, str]] = field(default_factory=list)  # (message, final content)
    shown: str | None = None  # what the live message shows (text and components)
    # the last move's lines in ``lines``: (its seq, first index, end), so an undo retracts them
    last_move: tuple[int, int, int] | None = None
    # the undo line ending ``lines``: (seat, moves taken back in a row, its text)
    undo_tail: tuple[int, int, str] | None = None
    holds: set[int] = field(default_factory=set)  # presses answering this table (their ids)
    writing: bool = False  # the writer's call is under way
    # message id -> (an interaction, until when, whether the message is its original
    # response (else one of its followups)): edits of that message go through it (an
    # interaction endpoint: no global budget)
    editors: dict[int, tuple[discord.Interaction, float, bool]] = field(default_factory=dict)
    # the latest press on the table's public messages (or its Start), until when: the
    # table's next post is a followup of it (an interaction endpoint), not a channel post
    poster: tuple[discord.Interaction, float] | None = None
    # views replaced since the last write: emptied once no write may still send them (a
    # view and its items refer to each other: emptied, refcounting frees them at once
    # instead of the garbage collector's full passes)
    spent: list[discord.ui.View] = field(default_factory=list)
    # the game, and its web link, as of the last commit: header, footer and buttons are
    # built from it when the table is written (:meth:`TableListener._refresh`), not after
    # every commit (``stale`` until then)
    game: LiveGame | None = None
    link: str | None = None
    stale: bool = False
    # AI seats moving one after another: the writer waits until ``settle`` (the loop's
    # clock) so that the moves of one stretch ride in one edit; ``settle_from``: when the
    # stretch began (it is held for at most MAX_SETTLE)
    settle: float = 0.0
    settle_from: float | None = None
    step: int | None = None  # the game's public step at the last commit (LiveGame.step)


# what an edit through an interaction's token never reads: a kept editor drops them (the
# pressed message and the raw payload are a hundred objects or so, for every table, that the
# garbage collector's full passes would walk)
_NOT_FOR_EDITS = ("message", "data", "user", "entitlements", "_cs_response", "_cs_followup",
                  "_cs_command", "_cs_namespace", "_original_response")


def slim(interaction: discord.Interaction) -> discord.Interaction:
    """A copy of ``interaction`` that can still edit its original response and holds nothing
    else of the press."""
    copied = copy.copy(interaction)
    for name in _NOT_FOR_EDITS:
        with contextlib.suppress(AttributeError):
            delattr(copied, name)
    return copied


@dataclass
class Press:
    """A press being handled (:meth:`TableListener.pressing`): its own commit claims its
    table (``table``) so that the press's answer shows the move, not the writer."""

    # None once answered: tasks the press started copy its context (and this Press) and
    # may live for seconds, and the interaction is let go (cogs/common.py let_go)
    interaction: discord.Interaction | None
    game_id: int
    table: Table | None = None
    done: bool = False
    # a press answered elsewhere (the lobby's Start): it claims a table only to post its
    # next message as the press's followup, once answered (:meth:`TableListener.post_through`)
    poster: bool = False


_PRESS: contextvars.ContextVar[Press | None] = contextvars.ContextVar("darwin_press",
                                                                     default=None)


class TableListener:
    """Keeps every game's live table message up to date (see the module docstring)."""

    def __init__(self, bot, pacer: Pacer | None = None, nudge_delay: float = 20.0) -> None:
        self.bot = bot
        self.pacer = pacer or Pacer()
        self.nudge_delay = nudge_delay
        self.tables: dict[int, Table] = {}
        # the same tables by channel (a channel's writer reads its own, not all of them:
        # issue 25: scanning every live table per write was 17% of the loop at 2,000 games)
        self.by_channel: dict[int, dict[int, Table]] = {}
        self._writers: dict[int, asyncio.Task] = {}
        self._tasks: set[asyncio.Task] = set()
        self._nudge_tasks: set[asyncio.Task] = set()
        self._unsent_broken: list[tuple[int, str]] = []  # set aside before the bot was ready
        self._nudge_ids = 0

    def _header(self, game: LiveGame, lang: str) -> str:
        if game.status != "active":
            return f"**{t(f'{game.kind}.name', lang)}**"
        cog = self.bot.game_cog(game.kind)
        lines = cog.status_lines(game, game.rules.view(game.state, None), lang)
        return f"**{lines[0]}**" if lines else f"**{t(f'{game.kind}.name', lang)}**"

    async def on_outcome(self, outcome: Outcome) -> None:
        """Record what this committed action changes on the table; the writer shows it.

        A new message is posted when a phase has ended (its image) and the table now waits
        for a human who was not yet told in this phase, or when the game is over, or when
        three phase images are waiting; otherwise the live message is edited. Humans awaited
        when a message is posted are mentioned in it; one who becomes awaited in the middle
        of a phase is mentioned by a short reminder only if they have not acted
        ``nudge_delay`` seconds later. Nobody is mentioned for a card window: being asked
        there must look the same for every hand."""
        game = outcome.game
        lang = table_lang(self.bot, game)
        # under the final standings: each person's rating change (read before the table
        # changes, the one wait of this method)
        ending = await ending_lines(self.bot, game, lang) if game.status != "active" else []
        link = await web_link(self.bot, game, outcome)
        table = self.tables.get(game.id)
        if table is None:
            table = self.tables[game.id] = Table(game.id, int(game.channel_id), game.kind, lang)
            self.by_channel.setdefault(table.channel_id, {})[game.id] = table
        phase = game.rules.phase_name(game.state) if game.state is not None else None
        if phase != table.phase or outcome.snapshots:
            table.phase = phase
            table.mentioned = set()
        new_lines = summary_lines(outcome, lang) + ending
        table.images = (table.images + list(outcome.snapshots))[-MAX_IMAGES:]
        actor_here = outcome.seat >= 0 and not (outcome.by_ai or outcome.timed_out)
        if actor_here:
            table.nudges.pop(outcome.seat, None)  # they are at the keyboard
        fresh = [p for p in game.awaiting() if not game.seats[p].get("ai")
                 and p not in table.mentioned and not in_card_window(game, p)]
        over = game.status != "active"
        if over or (table.images and (fresh or len(table.images) >= 3)):
            self._new_message(table)
            for seat in fresh:
                table.mentioned.add(seat)
                table.nudges.pop(seat, None)
                if not (actor_here and seat == outcome.seat):
                    table.ping.append(game.seats[seat]["id"])
        else:
            for seat in fresh:
                if seat not in table.nudges and not (actor_here and seat == outcome.seat):
                    self._arm_nudge(table, game, seat)
        owing = {p for p in game.awaiting() if not game.seats[p].get("ai") and owes(game, p)}
        if owing - table.owing and not over:
            # a choice owed in someone else's turn (a public attack...): asked at once
            self._new_message(table)
            for seat in sorted(owing - table.owing):
                table.mentioned.add(seat)
                table.nudges.pop(seat, None)
                table.ping.append(game.seats[seat]["id"])
        table.owing = owing
        if outcome.action.get("type") == "undo":
            new_lines = self._retract(table, outcome, new_lines, names=safe_names(game),
                                      lang=lang)
        if table.lines and not fits(table.header, table.lines + new_lines, table.footer):
            self._new_message(table)  # a full message is kept whole; the story goes on below
        if outcome.action.get("type") != "undo" and table.undo_tail is not None \
                and (outcome.seat != table.undo_tail[0] or outcome.by_ai or outcome.timed_out):
            table.undo_tail = None  # someone else moved: the next undo starts a new count
        start = len(table.lines)
        table.lines.extend(new_lines)
        table.last_move = (outcome.seq, start, len(table.lines)) \
            if outcome.action.get("type") != "undo" and outcome.seq is not None else None
        awaiting = game.awaiting()
        table.awaited = {game.seats[p]["id"] for p in awaiting}
        table.game, table.link, table.finished = game, link, over
        table.stale = True  # built when written: a stretch of AI moves builds it once
        if self._claim(table, outcome):
            return  # the press's own answer shows it (answer_press)
        step = None if over else game.step
        # only a public change sets the writer's wait: a secret move inside a simultaneous
        # step leaves it as it was (when the table is written never tells of one)
        if over or step != table.step:
            table.step = step
            if outcome.by_ai and not over and awaiting \
                    and all(game.seats[p].get("ai") for p in awaiting):
                now = self.pacer.now()
                if table.settle_from is None:
                    table.settle_from = now
                table.settle = min(table.settle_from + MAX_SETTLE, now + AI_SETTLE)
            else:
                table.settle, table.settle_from = 0.0, None
        self._wake(table)

    def _refresh(self, table: Table) -> None:
        """Build the live message's header, footer and buttons from the game as it stands,
        if a commit changed it since they were built; the table is ``dirty`` (to be written)
        if what the channel sees changed. Nothing changed (a secret move inside a
        simultaneous step): no edit, so that not even the number of edits tells how often
        anyone acted; this is decided before the writer asks the pacer for a slot, so the
        timing of later writes does not tell it either."""
        if not table.stale:
            return
        table.stale = False
        game, lang = table.game, table.lang
        table.header = self._header(game, lang)
        table.footer = status_line(game, lang)
        replaced = table.view
        table.view = final_view(game, lang) if table.finished \
            else table_view(self.bot, game, lang)
        if replaced is not None and replaced is not table.view:
            table.spent.append(replaced)
        table.view = with_web_link(table.view, table.link, lang)
        # kept as one string: a table's few dozen dicts and lists fewer for every full GC pass
        shown = repr((table.header, table.lines, table.footer, components_of(table.view)))
        if shown != table.shown or table.repost or table.live_id is None or table.finished:
            table.shown = shown
            table.dirty = True

    # --- a press answered by the table itself ---------------------------------------------

    @contextlib.contextmanager
    def pressing(self, interaction: discord.Interaction, game_id: int, *,
                 poster: bool = False):
        """Around a press's host call: the commit it makes (in this context: the host's
        task copies it) leaves the table to the press's answer, :meth:`answer_press`,
        which must follow (or :meth:`release`, if the call raised). ``poster``: a press
        answered elsewhere (the lobby's Start) whose commit posts a new message: the post
        waits for :meth:`post_through` and is the press's followup."""
        press = Press(interaction, game_id, poster=poster)
        token = _PRESS.set(press)
        try:
            yield press
        finally:
            _PRESS.reset(token)

    def _claim(self, table: Table, outcome: Outcome) -> bool:
        """Whether this outcome is a pending press's own move on a message it can edit in
        its answer: the live message (an edit), or one being retired. AI seats' moves and
        timers scheduled from the press's context are never its own."""
        press = _PRESS.get()
        if press is None or press.done or press.table is not None \
                or press.game_id != table.game_id or outcome.by_ai or outcome.timed_out \
                or table.writing:
            return False
        message = getattr(press.interaction, "message", None)
        if message is None:
            return False
        if not self._editable(table, message.id) and not (
                press.poster and (table.repost or table.live_id is None)):
            return False
        press.table = table
        table.holds.add(press.interaction.id)
        return True

    @staticmethod
    def _editable(table: Table, message_id: int) -> bool:
        if message_id == table.live_id and not table.repost:
            return True
        return any(m == message_id for m, _ in table.retired)

    def post_through(self, press: Press) -> None:
        """A press answered elsewhere (:meth:`pressing` with ``poster``): once answered,
        the table's next post is its followup; the writer takes over."""
        table = press.table
        if table is not None and press.interaction.response.is_done():
            self._keep_poster(table, slim(press.interaction))
        self.release(press)

    def release(self, press: Press) -> None:
        """A press that will not answer with the table: the writer takes over."""
        press.done = True
        table = press.table
        if table is not None:
            table.holds.discard(press.interaction.id)
            if (table.dirty or table.retired or table.stale) and not table.holds:
                self._wake(table)
        press.interaction = None

    async def answer_press(self, press: Press) -> bool:
        """Answer a press by editing the message pressed in the interaction's own answer
        (UPDATE_MESSAGE; after a deferral, an edit of its original response): the live
        message as the table stands now, or the retired message's last text without
        buttons. True when it did; False when the table had nothing for it (the caller
        answers). The pressed message keeps the interaction as its editor."""
        press.done = True
        table = press.table
        interaction, press.interaction = press.interaction, None
        if table is None:
            return False
        message_id = interaction.message.id
        try:
            edit, undo = self._press_edit(table, message_id)
            if edit is None:
                return False
            self.pacer.note(table.channel_id)
            try:
                if interaction.response.is_done():
                    await interaction.edit_original_response(**edit)
                else:
                    await interaction.response.edit_message(**edit)
            except Exception as exc:  # an HTTP error, a lost connection...: the table stays
                log.warning("game %s: a press could not edit the table (%r): the writer will",
                            table.game_id, exc)
                undo()
                if isinstance(exc, discord.HTTPException):
                    return False
                raise
            if message_id == table.live_id:
                self._keep_editor(table, message_id, interaction)
            else:  # a retired message: the new one it makes way for may be its followup
                self._keep_poster(table, slim(interaction))
            return True
        finally:
            table.holds.discard(interaction.id)
            self._empty_spent(table)
            if (table.dirty or table.retired or table.stale) and not table.holds:
                self._wake(table)

    @staticmethod
    def _empty_spent(table: Table) -> None:
        """Empty the views replaced meanwhile, unless the writer's call (which may still
        send one) is under way; a press's answer was made when it was sent."""
        if table.writing:
            return
        for view in table.spent:
            if view is not table.view:
                view.clear_items()
        table.spent.clear()

    def _press_edit(self, table: Table, message_id: int):
        """What a press's answer writes to ``message_id`` (taken from what the writer would
        write) and how to give it back to the writer if the answer fails."""
        if message_id == table.live_id and not table.repost:
            self._refresh(table)
            if not table.dirty:
                return None, None
            table.dirty = False

            def undo() -> None:
                table.dirty = True
            return {"content": compose(table.header, table.lines, table.footer),
                    "view": table.view, "allowed_mentions": NO_MENTIONS}, undo
        for i, (m, final) in enumerate(table.retired):
            if m == message_id:
                entry = table.retired.pop(i)
                table.editors.pop(message_id, None)

                def undo(entry=entry) -> None:
                    table.retired.insert(0, entry)
                return {"view": None, "allowed_mentions": NO_MENTIONS,
                        **({"content": final} if final else {})}, undo
        return None, None

    def note_editor(self, interaction: discord.Interaction, game_id: int) -> None:
        """A press on one of the table's messages answered otherwise (acknowledged
        silently): its original response is still that message, so it may edit it later
        (the live one) and post the table's next message as its followup."""
        table = self.tables.get(game_id)
        message = getattr(interaction, "message", None)
        if table is None or message is None:
            return
        if message.id == table.live_id:
            self._keep_editor(table, message.id, interaction)
        elif self._editable(table, message.id) or message.id in table.editors:
            self._keep_poster(table, slim(interaction))

    def _keep_editor(self, table: Table, message_id: int,
                     interaction: discord.Interaction) -> None:
        editor = slim(interaction)
        table.editors[message_id] = (editor, self.pacer.now() + EDITOR_SECONDS, True)
        self._keep_poster(table, editor)

    def _keep_poster(self, table: Table, interaction: discord.Interaction) -> None:
        if getattr(interaction, "channel_id", None) == table.channel_id:
            table.poster = (interaction, self.pacer.now() + EDITOR_SECONDS)

    def _editor(self, table: Table, message_id: int) -> tuple[discord.Interaction, bool] | None:
        found = table.editors.get(message_id)
        if found is None:
            return None
        if found[1] <= self.pacer.now():
            del table.editors[message_id]
            return None
        return found[0], found[2]

    async def _edit(self, table: Table, message_id: int, **kwargs) -> None:
        """Edit one of the table's messages: through its editor (an interaction endpoint)
        when it has one, else a channel call."""
        found = self._editor(table, message_id)
        if found is not None:
            editor, original = found
            try:
                if original:
                    await editor.edit_original_response(**kwargs)
                else:
                    await editor.followup.edit_message(message_id, **kwargs)
                return
            except discord.HTTPException as exc:  # its token expired...: the channel's way
                if isinstance(exc, discord.NotFound) and exc.code == 10008:
                    raise  # the message itself is gone
                log.info("game %s: editing through a press failed (%s)", table.game_id, exc)
                table.editors.pop(message_id, None)
        channel = await self._channel(table.channel_id)
        await channel.get_partial_message(message_id).edit(**kwargs)

    async def _post(self, table: Table, text: str, **kwargs):
        """Post the table's new message: a followup of its poster (the latest press on the
        table, an interaction endpoint) while its token is valid, which then edits it too;
        else a channel call."""
        poster = table.poster
        if poster is not None and poster[1] <= self.pacer.now():
            poster = table.poster = None
        if poster is not None:
            try:
                message = await poster[0].followup.send(text, wait=True, **kwargs)
            except discord.HTTPException as exc:  # its token expired...: the channel's way
                log.info("game %s: posting through a press failed (%s)", table.game_id, exc)
                table.poster = None
                for f in kwargs.get("files", ()):
                    f.reset()
            else:
                table.editors[message.id] = (poster[0], poster[1], False)
                return message
        return await (await self._channel(table.channel_id)).send(text, **kwargs)

    @staticmethod
    def _retract(table: Table, outcome: Outcome, new_lines: list[str], *, names: list[str],
                 lang: str) -> list[str]:
        """An undo: the lines of the move it took back leave the live message (what they
        said no longer happened: "X has chosen a food card" while X is awaited again), and
        one player's undos in a row make one line that counts them, not a line each. The
        lines the undo adds are returned (none when it only counted)."""
        move = table.last_move
        if move is not None and outcome.seq is not None and move[0] == outcome.seq - 1 \
                and move[2] == len(table.lines):
            del table.lines[move[1]:move[2]]
        table.last_move = None
        tail = table.undo_tail
        if not new_lines:  # a secret move taken back: its line (if any) is gone, no other
            return []
        if tail is not None and tail[0] == outcome.seat and table.lines \
                and table.lines[-1] == tail[2]:
            count = tail[1] + 1
            who = names[outcome.seat] if 0 <= outcome.seat < len(names) else "?"
            text = t("bot.undo.done_many", lang, player=who, count=count)
            table.lines[-1] = text
            table.undo_tail = (outcome.seat, count, text)
            return new_lines[1:]
        table.undo_tail = (outcome.seat, 1, new_lines[0])
        return new_lines

    @staticmethod
    def _new_message(table: Table) -> None:
        """The next write posts a new live message; the current one is retired as it stands."""
        if table.repost:
            return  # a post is already on its way: it takes what comes meanwhile
        if table.live_id is not None:
            table.retired.append((table.live_id, compose(table.header, table.lines, "")))
            table.live_id = None
        table.lines = []
        table.last_move = table.undo_tail = None
        table.repost = True

    def _arm_nudge(self, table: Table, game: LiveGame, seat: int) -> None:
        self._nudge_ids += 1
        table.nudges[seat] = nudge = self._nudge_ids
        task = asyncio.get_running_loop().create_task(self._nudge(table, game, seat, nudge))
        self._nudge_tasks.add(task)
        task.add_done_callback(self._nudge_tasks.discard)

    async def _nudge(self, table: Table, game: LiveGame, seat: int, nudge: int) -> None:
        """Mention a human who became awaited mid-phase and has not acted since."""
        await self.pacer.sleep(self.nudge_delay)
        if (table.nudges.get(seat) != nudge or self.tables.get(table.game_id) is not table
                or seat not in game.awaiting() or seat in table.mentioned
                or in_card_window(game, seat)):
            return
        del table.nudges[seat]
        table.mentioned.add(seat)
        table.ping.append(game.seats[seat]["id"])
        self._new_message(table)
        table.dirty = True
        self._wake(table)

    def _wake(self, table: Table) -> None:
        writer = self._writers.get(table.channel_id)
        if writer is None or writer.done():
            task = asyncio.get_running_loop().create_task(self._write_all(table.channel_id))
            self._writers[table.channel_id] = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _channel(self, channel_id: int):
        """The channel, for the writes no interaction can carry (rare: discord.py's lookup
        walks every guild, so the usual writes through a press never ask for it)."""
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)

    async def _write_all(self, channel_id: int) -> None:
        """The channel's writer: one write at a time, each as late as the pacer allows, so
        that whatever piled up meanwhile goes out together."""
        while True:
            pending = [tb for tb in self.by_channel.get(channel_id, {}).values()
                       if (tb.dirty or tb.retired or tb.stale)
                       and not tb.holds]  # a press answering it wakes the writer after
            if not pending:
                return
            table = pending[0]
            wait = table.settle - self.pacer.now()
            if wait > 0:  # AI seats still moving: one write for them (a phase's post too)
                await self.pacer.sleep(wait)
                continue
            table.settle, table.settle_from = 0.0, None
            self._refresh(table)
            if not (table.dirty or table.retired):
                continue  # nothing the channel sees changed: no write, no slot
            await self.pacer.slot(channel_id)
            self._refresh(table)  # a commit may have come while the writer waited
            if table.holds or not (table.dirty or table.retired):
                continue  # a press took it while the writer waited
            table.writing = True
            try:
                await self._write_one(table)
            except Exception:
                log.exception("could not update the table of game %s", table.game_id)
                table.dirty = False
                table.retired.clear()
            finally:
                table.writing = False
                self._empty_spent(table)
            if table.finished and not (table.dirty or table.retired or table.stale):
                self.tables.pop(table.game_id, None)
                in_channel = self.by_channel.get(channel_id, {})
                in_channel.pop(table.game_id, None)
                if not in_channel:
                    self.by_channel.pop(channel_id, None)

    async def _write_one(self, table: Table) -> None:
        if table.dirty:
            table.dirty = False
            content = compose(table.header, table.lines, table.footer)
            if table.repost or table.live_id is None:
                # only those still awaited when the post is made
                images = table.images
                ping = [u for u in dict.fromkeys(table.ping) if u in table.awaited]
                table.images, table.ping, table.repost = [], [], False
                files = [await render_file(table.kind, v, table.lang,
                                           f"{table.kind}-{table.game_id}-{i}-{phase}.png")
                         for i, (phase, v) in enumerate(images)]
                kwargs = {"allowed_mentions": discord.AllowedMentions(
                    users=[discord.Object(int(u)) for u in ping], roles=False, everyone=False)}
                if files:
                    kwargs["files"] = files
                if table.view is not None:
                    kwargs["view"] = table.view
                mentions = " ".join(f"<@{u}>" for u in ping)
                text = f"{mentions}\n{content}" if mentions else content
                if table.live_id is not None:
                    table.retired.append((table.live_id, ""))
                message = await self._post(table, text[:MAX_CONTENT], **kwargs)
                table.live_id = message.id
            else:
                await self._edit(table, table.live_id, content=content,
                                 view=table.view, allowed_mentions=NO_MENTIONS)
            return
        # a message that stopped being the live one loses its buttons
        message_id, final = table.retired.pop(0)
        kwargs = {"content": final} if final else {}
        with contextlib.suppress(discord.NotFound):
            await self._edit(table, message_id, view=None,
                             allowed_mentions=NO_MENTIONS, **kwargs)
        table.editors.pop(message_id, None)

    async def close_table(self, game: LiveGame, final_line: str = "") -> None:
        """The game ended without a final action (cancelled): retire its live message."""
        table = self.tables.get(game.id)
        if table is None:
            return
        if table.live_id is not None:
            table.retired.append((table.live_id, compose(table.header, table.lines, final_line)))
            table.live_id = None
        table.dirty = table.stale = False
        table.finished = True
        self._wake(table)

    async def write(self, channel_id: int, coro_factory) -> None:
        """Any other write to a game channel (lobby edits, notices) shares the pacing."""
        await self.pacer.slot(int(channel_id))
        await coro_factory()

    async def on_game_broken(self, game_id: int, channel_id: str, error: str) -> None:
        """Tell the channel that its game was set aside (the reason stays in the log). At
        start-up this runs before the gateway is up: the notice waits for ``send_notices``."""
        if not self.bot.is_ready():
            self._unsent_broken.append((game_id, channel_id))
            return
        await self._broken_notice(game_id, channel_id)

    async def on_saving_failed(self, game: LiveGame) -> None:
        """Once per failing stretch: the table says that saving fails (the log has why)."""
        channel = self.bot.get_channel(int(game.channel_id))
        if channel is None:
            return
        text = t("bot.saving_failed", table_lang(self.bot, game))
        await self.write(int(game.channel_id), lambda: channel.send(
            text, allowed_mentions=NO_MENTIONS))

    async def on_ai_failing(self, game: LiveGame, seat: int) -> None:
        """Once per failing stretch: an AI seat's move keeps failing (the log has why); the
        bot keeps trying by itself."""
        channel = self.bot.get_channel(int(game.channel_id))
        if channel is None:
            return
        lang = table_lang(self.bot, game)
        text = t("bot.ai_failing", lang, name=safe_name(game.seats[seat]["name"]))
        await self.write(int(game.channel_id), lambda: channel.send(
            text, allowed_mentions=NO_MENTIONS))

    async def send_notices(self) -> None:
        """Once the bot is ready: the notices of games set aside while it started."""
        pending, self._unsent_broken = self._unsent_broken, []
        for game_id, channel_id in pending:
            await self._broken_notice(game_id, channel_id)

    async def _broken_notice(self, game_id: int, channel_id: str) -> None:
        try:
            channel = self.bot.get_channel(int(channel_id))
            if channel is None:
                channel = await self.bot.fetch_channel(int(channel_id))
            guild = getattr(channel, "guild", None)  # the game's own language is in its row
            lang = server_lang(self.bot, guild.id if guild is not None else None)
            await self.write(int(channel_id), lambda: channel.send(
                t("bot.game_broken", lang, game=game_id), allowed_mentions=NO_MENTIONS))
        except Exception:
            log.exception("could not report game %s as set aside", game_id)

    async def drain(self) -> None:
        """Wait for every pending write (tests, shutdown); pending reminders are dropped."""
        for task in list(self._nudge_tasks):
            task.cancel()
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def idle(self) -> bool:
        return not self._tasks
