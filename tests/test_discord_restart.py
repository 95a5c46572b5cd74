"""Every kind of button and menu the bot draws still works after a restart (SimCord).

Components are ``DynamicItem``s found again by their custom id, and the host loads a game
only when its channel is next used: a component that does not load the channel's game before
it looks for it answers "That button belongs to a game that is over" for a live game (issue
21: the Cubosaurs **Pass…** button). Each case below brings a channel to a position where one
kind of component is live and draws it, the bot is restarted over the same SQLite file (a new
bot and host: the game is *not* in memory), the component drawn before the restart is
pressed, and the answer is the live behaviour (the action is stored, the right private
answer), never a refusal for a game that is over nor an error.

The table is checked against the bot: every DynamicItem class registered on it (the classes
of ``cogs/components.py``'s prefix table, on its one base), every persistent view and every
component class a game's cog draws must have a case here (a new kind of component without
one fails); no custom id is written outside that table's module.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from simcord import SetupError

from cogs.bot import DarwinBot
from engine.ai import ai_action
from messages import t
from tests.conftest import VirtualClock, flush, virtual_pacing
from tests.test_discord import custom_ids, reply_text

ROOT = Path(__file__).resolve().parent.parent


def encode(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def fix_seed(monkeypatch, seed: int) -> None:
    """Games started by the Start button draw their seed from os.urandom: make it ``seed``."""
    import host.host

    monkeypatch.setattr(host.host.os, "urandom", lambda n: seed.to_bytes(n, "big"))


# --- the world a case builds --------------------------------------------------------------------


@dataclass
class World:
    env: Any
    config: dict
    monkeypatch: Any
    guild: Any = None
    channel: Any = None
    users: list = field(default_factory=list)
    game: Any = None  # the live game before the restart
    by_seat: dict = field(default_factory=dict)
    seq_before: int | None = None  # its position when the component was drawn
    presser: Any = None

    @property
    def host(self):
        return self.env.bot.host

    def live(self):
        """The channel's game in the (restarted) bot's memory."""
        return self.host.game_in(self.channel.id)

    async def last_action(self):
        rows = await self.env.bot.store.actions(self.game.id)
        return rows[-1] if rows else None


@dataclass
class Press:
    """A component drawn before the restart, who presses it and what the answer must be."""

    user: Any
    message: Any
    custom_id: str
    expect: Callable[[World, Any], Awaitable[None]]
    values: list[str] | None = None  # a menu's choice (None: a button)


def setup_world(world: World, names=("ann", "bob", "cy")) -> None:
    env = world.env
    pacer = env.bot.listener.pacer
    virtual = pacer.sleep

    async def sleep(seconds):
        """A table write caused by a move the test makes through the host (to reach a
        position quickly) is not the bot's own work: it is made without waiting."""
        try:
            return await virtual(seconds)
        except SetupError:
            return None

    pacer.sleep = sleep
    world.guild = env.create_guild()
    world.channel = world.guild.create_text_channel("table")
    world.users = [world.guild.add_member(env.create_user(n)) for n in names]


async def open_game(world: World, kind: str, humans: int = 3, seed: int = 7, **options):
    """/<kind> new, the others join, Start; the live game."""
    fix_seed(world.monkeypatch, seed)
    users = world.users[:humans]
    r = await users[0].slash(world.channel, f"{kind} new", **options)
    assert not r.ephemeral, reply_text(r)  # issue 25: answered with the lobby itself
    lobby = world.channel.last_message
    for user in users[1:]:
        await user.click(lobby, label=t("bot.btn_join"))
    await users[0].click(lobby, label=t("bot.btn_start"))
    game = world.host.game_in(world.channel.id)
    assert game is not None and game.status == "active" and game.kind == kind
    world.game = game
    world.by_seat = {game.seat_of(u.id): u for u in users}
    return game


def legal(game, seat) -> list[dict]:
    return game.rules.legal_actions(game.state, seat)


async def drive(world: World, until, limit: int = 3000):
    """People play the fast AI's moves (through the host) until ``until(game, seat)`` holds for
    an awaited person (the bot's own steps, auto-passes and AI seats, run in virtual time);
    then the table is brought up to date. Returns that seat."""
    game, host = world.game, world.host
    for _ in range(limit):
        assert game.status == "active", "the game ended before the position was reached"
        asked = [p for p in game.awaiting() if p in world.by_seat and not host._auto_passes(game, p)]
        found = next((p for p in asked if until(game, p)), None)
        if found is not None:
            await written(world)
            return found
        if not asked:
            await world.env.advance_time(1.0)
            continue
        seat = asked[0]
        action = ai_action(game.rules, game.state, seat, "fast")
        await host.act(world.channel.id, world.by_seat[seat].id, action)
    raise AssertionError("the position was never reached")


async def written(world: World) -> None:
    """The table writes of the moves the test made through the host are made (they run
    outside the bot's own work: SimCord's settling does not wait for them)."""
    listener = world.env.bot.listener
    while listener._tasks:
        await asyncio.gather(*list(listener._tasks))
    await flush(world.env)


def find(channel, predicate):
    """The newest message of the channel with a component whose custom id satisfies
    ``predicate``: (message, custom id)."""
    for message in reversed(channel.history()):
        for cid in custom_ids(message):
            if predicate(cid):
                return message, cid
    raise AssertionError("no such component in the channel")


def components(message):
    """(custom id, component) of a message's components (buttons and menus)."""
    out = []
    for row in message.components:
        for child in getattr(row, "children", [row]):
            cid = getattr(child, "custom_id", None)
            if cid:
                out.append((cid, child))
    return out


def options_of(message, custom_id) -> list:
    return next((c.options for cid, c in components(message) if cid == custom_id), [])


def private(result):
    """The private message a press answered with (its first answer or a followup)."""
    for message in [result.response, *result.followups]:
        if message is not None:
            return getattr(message, "message", message)
    raise AssertionError("no private answer")


# --- what a live answer is -------------------------------------------------------------------------


def applies(action: dict | None = None, kinds: tuple[str, ...] = ()):
    """The press is stored as the presser's move, at the next position."""

    async def expect(world: World, result) -> None:
        row = await world.last_action()
        assert row is not None and row.seq == world.seq_before + 1, reply_text(result)
        assert row.actor == str(world.presser.id), row
        if action is not None:
            assert row.action == action, row
        if kinds:
            assert row.action["type"] in kinds, row
        live = world.live()
        assert live is not None and live.seq == row.seq

    return expect


def answers_privately(check: Callable[[World, Any], None]):
    """The press answers the presser privately (nothing is played)."""

    async def expect(world: World, result) -> None:
        assert result.ephemeral or any(f.flags.ephemeral for f in result.followups), \
            reply_text(result)
        check(world, result)
        if world.game.status == "active":  # nothing was played
            assert world.live() is not None and world.live().seq == world.seq_before

    return expect


# --- the lobby ---------------------------------------------------------------------------------


def lobby_case(kind: str, verb: str, presser: int, expected: Callable[[Any], bool]):
    async def prepare(world: World) -> Press:
        users = world.users
        r = await users[0].slash(world.channel, f"{kind} new")
        assert not r.ephemeral, reply_text(r)  # issue 25: answered with the lobby itself
        lobby = world.channel.last_message
        if verb in ("leave", "start"):
            await users[1].click(lobby, label=t("bot.btn_join"))
        world.game = world.host.game_in(world.channel.id)
        gid = world.game.id

        async def expect(world: World, result) -> None:
            row = await world.env.bot.store.get_game(gid)
            assert expected(row), (row.status, row.lobby)
            # no private reply (issue 25: the first table may be Start's public followup)
            assert result.acknowledged and not [m for m in result.followups if m.ephemeral], \
                reply_text(result)

        return Press(users[presser], lobby, f"dw:l:{gid}:{verb}", expect)

    return prepare


def seats(row) -> list[str]:
    return [s["name"] for s in json.loads(row.lobby)["seats"]]


# --- EVO ---------------------------------------------------------------------------------------


async def evo_table(world: World):
    game = await open_game(world, "evo")
    for user in world.users:  # card windows wait for the people (their Pass button)
        await world.host.set_autopass(world.channel.id, user.id, "off")
    return game


def evo_table_button(kind: str):
    """A table button of EVO for an action of this type (End, a bid, Pass...)."""

    async def prepare(world: World) -> Press:
        game = await evo_table(world)
        seat = await drive(world, lambda g, p: any(a["type"] == kind for a in legal(g, p)))
        mine = legal(game, seat)

        # bound to the seat's decision key; a card window's one Pass, to the public step
        bound = game.step if game.state.window is not None else game.key_for(seat)

        def drawn(cid):
            if not cid.startswith(f"dw:a:{game.id}:{bound}:"):
                return False
            action = json.loads(cid.split(":", 4)[4])
            return action["type"] == kind and action in mine

        message, cid = find(world.channel, drawn)
        action = json.loads(cid.split(":", 4)[4])
        return Press(world.by_seat[seat], message, cid, applies(action))

    return prepare


def evo_menu(tag: str, kind: str):
    async def prepare(world: World) -> Press:
        game = await evo_table(world)
        seat = await drive(world, lambda g, p: 0 < sum(a["type"] == kind for a in legal(g, p)) <= 25)
        action = next(a for a in legal(game, seat) if a["type"] == kind)
        cid = f"dw:s:{game.id}:{game.key_for(seat)}:{seat}{tag}"
        message, _ = find(world.channel, lambda c: c == cid)
        assert encode(action) in [o.value for o in options_of(message, cid)]
        return Press(world.by_seat[seat], message, cid, applies(action), [encode(action)])

    return prepare


async def evo_hand(world: World) -> Press:
    game = await evo_table(world)
    await written(world)
    user = world.users[0]

    def check(world, result):
        assert private(result).embeds[0].title == t("bot.hand_title"), reply_text(result)

    return Press(user, world.channel.last_message, f"dw:h:{game.id}", answers_privately(check))


async def evo_hand_play(world: World) -> Press:
    """A **My cards** answer's play button, drawn before the restart."""
    game = await evo_table(world)
    seat = await drive(world, lambda g, p: any(a["type"] == "play" for a in legal(g, p)))
    user = world.by_seat[seat]
    r = await user.click(world.channel.last_message, custom_id=f"dw:h:{game.id}")
    hand = private(r)
    key = game.key_for(seat)  # the presser's decision key
    cid = next(c for c in custom_ids(hand) if c.startswith(f"dw:a:{game.id}:{key}:"))
    action = json.loads(cid.split(":", 4)[4])
    return Press(user, hand, cid, applies(action))


async def evo_undo(world: World) -> Press:
    """The private Undo button under a move's confirmation (a slash command's)."""
    game = await evo_table(world)
    seat = await drive(world, lambda g, p: any(a["type"] == "move" for a in legal(g, p)))
    user = world.by_seat[seat]
    action = next(a for a in legal(game, seat) if a["type"] == "move")  # reveals nothing
    r = await user.slash(world.channel, "evo move", **{"from": action["from"],
                                                        "to": action["to"]})
    offer = [c for c in custom_ids(private(r)) if c.startswith("dw:u:")]
    assert offer, reply_text(r)

    async def expect(world: World, result) -> None:
        assert t("community.undo.done") in reply_text(result), reply_text(result)
        row = await world.last_action()
        assert row.action == {"type": "undo"} and row.seq == world.seq_before + 1

    await written(world)
    return Press(user, private(r), offer[0], expect)


# --- Cubosaurs ---------------------------------------------------------------------------------


async def cubo_keep(world: World) -> Press:
    game = await open_game(world, "cubosaurs")
    seat = await drive(world, lambda g, p: {"type": "keep"} in legal(g, p))
    cid = f"dw:a:{game.id}:{game.seq}:{encode({'type': 'keep'})}"
    message, _ = find(world.channel, lambda c: c == cid)
    return Press(world.by_seat[seat], message, cid, applies({"type": "keep"}))


async def cubo_take_token(world: World) -> Press:
    """The advanced game's **Take 1 DNA from …** buttons: the reserve is empty and a player
    keeps DNA cards (a position built directly, then stored by a move)."""
    from engine.cubosaurs import scenario

    game = await open_game(world, "cubosaurs", advanced=True)
    state = scenario(3, advanced=True, tokens={0: 0, 1: 20, 2: 20}, current=0,
                     hand=["ptero-1", "ptero-2"], hand_from=2, collections={0: []})
    state.seats = game.state.seats
    game.state = state
    ann = world.by_seat[0]
    await world.host.act(world.channel.id, ann.id, {"type": "keep"})
    await written(world)
    action = {"type": "take_token", "from": 1}
    assert action in legal(game, 0)
    cid = f"dw:a:{game.id}:{game.seq}:{encode(action)}"
    message, _ = find(world.channel, lambda c: c == cid)
    return Press(ann, message, cid, applies(action))


async def cubo_pass_button(world: World) -> Press:
    """Issue 21: **Pass…** answers with the presser's private menu of additions."""
    game = await open_game(world, "cubosaurs")
    seat = await drive(world, lambda g, p: any(a["type"] == "pass" for a in legal(g, p)))
    cid = f"dw:c:{game.id}:{game.seq}:{seat}:pass"
    message, _ = find(world.channel, lambda c: c == cid)
    menu = f"dw:s:{game.id}:{game.seq}:{seat}:pass"
    wanted = {encode(a) for a in legal(game, seat) if a["type"] == "pass"}

    def check(world, result):
        offered = {o.value for o in options_of(private(result), menu)}
        assert offered and offered <= wanted, reply_text(result)

    return Press(world.by_seat[seat], message, cid, answers_privately(check))


def cubo_buys(game, seat) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for a in legal(game, seat):
        if a["type"] == "buy":
            out.setdefault(a["tile"], []).append(a)
    return out


async def cubo_buy_button(world: World) -> Press:
    """**Buy: a tile** with one way to use it: bought at once."""
    from cogs.cubosaurs import distinct_buys

    def single(g, p):
        return next((tile for tile in cubo_buys(g, p)
                     if len(distinct_buys(legal(g, p), tile, g.names(), "en")) == 1), None)

    game = await open_game(world, "cubosaurs", advanced=True)
    seat = await drive(world, lambda g, p: single(g, p) is not None)
    tile = single(game, seat)
    cid = f"dw:c:{game.id}:{game.seq}:{seat}:{tile}"
    message, _ = find(world.channel, lambda c: c == cid)
    return Press(world.by_seat[seat], message, cid, applies(kinds=("buy",)))


async def cubo_pass_menu(world: World) -> Press:
    """The private menu **Pass…** answered with before the restart."""
    game = await open_game(world, "cubosaurs")
    seat = await drive(world, lambda g, p: any(a["type"] == "pass" for a in legal(g, p)))
    user = world.by_seat[seat]
    r = await user.click(world.channel.last_message,
                         custom_id=f"dw:c:{game.id}:{game.seq}:{seat}:pass")
    menu = private(r)
    cid = f"dw:s:{game.id}:{game.seq}:{seat}:pass"
    value = options_of(menu, cid)[0].value
    return Press(user, menu, cid, applies(json.loads(value)), [value])


# --- Random Mutations ----------------------------------------------------------------------------


def mutations_button(action_of: Callable[[Any, int], dict | None]):
    async def prepare(world: World) -> Press:
        game = await open_game(world, "mutations")
        seat = await drive(world, lambda g, p: action_of(g, p) is not None)
        action = action_of(game, seat)
        cid = f"dw:a:{game.id}:{game.seq}:{encode(action)}"
        message, _ = find(world.channel, lambda c: c == cid)
        return Press(world.by_seat[seat], message, cid, applies(action))

    return prepare


def mutations_menu(tag: str, pick: Callable[[dict], bool]):
    async def prepare(world: World) -> Press:
        game = await open_game(world, "mutations")

        def fits(g, p):
            acts = [a for a in legal(g, p) if pick(a)]
            return 0 < len(acts) <= 25

        seat = await drive(world, fits)
        action = next(a for a in legal(game, seat) if pick(a))
        cid = f"dw:s:{game.id}:{game.seq}:{seat}:{tag}"
        message, _ = find(world.channel, lambda c: c == cid)
        assert encode(action) in [o.value for o in options_of(message, cid)]
        return Press(world.by_seat[seat], message, cid, applies(action), [encode(action)])

    return prepare


def develop(use: str):
    def action_of(game, seat):
        return next((a for a in legal(game, seat)
                     if a["type"] == "develop" and a["use"] == use), None)

    return action_of


def plain(kind: str):
    def action_of(game, seat):
        return {"type": kind} if {"type": kind} in legal(game, seat) else None

    return action_of


# --- Climate -----------------------------------------------------------------------------------


async def climate_table(world: World, until=None):
    game = await open_game(world, "climate", seed=5)
    if until is not None:
        return game, await drive(world, until)
    await written(world)
    return game, None


async def open_panel(world: World, seat: int):
    """The seat's private panel, from the table's one hand button (before the restart)."""
    game = world.game
    user = world.by_seat[seat]
    r = await user.click(world.channel.last_message, custom_id=f"dw:h:{game.id}")
    return user, private(r)


def is_panel(world: World, result) -> None:
    text = reply_text(result)
    assert t("climate.bot.hand_title", round=1, phase="").split(" — ")[0] in text, text


async def climate_hand(world: World) -> Press:
    game, _ = await climate_table(world)
    return Press(world.users[1], world.channel.last_message, f"dw:h:{game.id}",
                 answers_privately(is_panel))


async def climate_panel_food(world: World) -> Press:
    """The panel's food-card menu (a secret simultaneous step), drawn before the restart."""
    game, _ = await climate_table(world)
    seat = 1
    user, panel = await open_panel(world, seat)
    cid = next(c for c in custom_ids(panel) if c.startswith(f"dw:s:{game.id}:")
               and c.endswith(":food"))
    value = options_of(panel, cid)[0].value
    return Press(user, panel, cid, applies(kinds=("food",)), [value])


async def climate_card_pick(world: World) -> Press:
    """The panel's **Choose a card…** (acts on nothing: the panel is drawn for that card)."""
    def can_pick(g, p):
        return g.state.phase == "play" and not g.state.back[p] and any(
            "card" in a for a in legal(g, p) if a["type"] not in ("remove", "exchange"))

    game, seat = await climate_table(world, can_pick)
    user, panel = await open_panel(world, seat)
    cid = f"dw:ck:{game.id}:{seat}"
    options = options_of(panel, cid)
    assert options, reply_text(panel)
    value = options[-1].value

    async def expect(world: World, result) -> None:
        assert world.live() is not None and world.live().seq == world.seq_before
        drawn = [o for _, c in components(private(result)) for o in getattr(c, "options", [])
                 if o.value == value and o.default]
        assert drawn, reply_text(result)

    return Press(user, panel, cid, expect, [value])


async def climate_panel_done(world: World) -> Press:
    """The panel's **Done** (its own position, the seat's decision key)."""
    game, seat = await climate_table(
        world, lambda g, p: g.state.phase == "play" and {"type": "done"} in legal(g, p))
    user, panel = await open_panel(world, seat)
    cid = next(c for c in custom_ids(panel) if c.startswith("dw:a:") and '"done"' in c)
    return Press(user, panel, cid, applies({"type": "done"}))


async def climate_table_done(world: World) -> Press:
    """The public table's **Done** in the (not Quick) play phase."""
    game, seat = await climate_table(
        world, lambda g, p: g.state.phase == "play" and {"type": "done"} in legal(g, p))
    cid = f"dw:a:{game.id}:{game.key_for(seat)}:{encode({'type': 'done'})}"
    message, _ = find(world.channel, lambda c: c == cid)
    return Press(world.by_seat[seat], message, cid, applies({"type": "done"}))


async def climate_table_menu(world: World) -> Press:
    """A public table menu (Feed… or the green traits' order)."""
    def menu_kind(g, p):
        if g.state.phase == "feeding":
            return "feed" if 0 < sum(a["type"] == "feed" for a in legal(g, p)) <= 25 else None
        if g.state.phase == "green":
            return "green"
        return None

    game, seat = await climate_table(world, lambda g, p: menu_kind(g, p) is not None)
    kind = menu_kind(game, seat)
    cid = f"dw:s:{game.id}:{game.key_for(seat)}:{seat}:{kind}"
    message, _ = find(world.channel, lambda c: c == cid)
    value = options_of(message, cid)[0].value
    return Press(world.by_seat[seat], message, cid, applies(kinds=(kind,)), [value])


async def climate_panel_undo(world: World) -> Press:
    """The Undo button a panel is redrawn with after a move (a food card: not the last)."""
    game, _ = await climate_table(world)
    user, panel = await open_panel(world, 1)
    cid = next(c for c in custom_ids(panel) if c.endswith(":food"))
    r = await user.select(panel, [options_of(panel, cid)[0].value], custom_id=cid)
    redrawn = private(r) if r.response is not None else panel
    await written(world)
    undo = [c for c in custom_ids(redrawn) if c.startswith("dw:u:")]
    assert undo, reply_text(r)

    async def expect(world: World, result) -> None:
        assert t("community.undo.done") in reply_text(result), reply_text(result)
        row = await world.last_action()
        assert row.action == {"type": "undo"} and row.seq == world.seq_before + 1

    return Press(user, redrawn, undo[0], expect)


# --- a finished game: Rematch, Replay, history ---------------------------------------------------


async def finished_cubosaurs(world: World):
    game = await open_game(world, "cubosaurs", humans=2, seed=3)
    while game.status == "active":
        seat = game.awaiting()[0]
        await world.host.act(world.channel.id, world.by_seat[seat].id,
                             ai_action(game.rules, game.state, seat, "fast"))
    await written(world)
    return game


async def rematch_button(world: World) -> Press:
    game = await finished_cubosaurs(world)
    message, cid = find(world.channel, lambda c: c == f"dw:rm:{game.id}")

    async def expect(world: World, result) -> None:
        said = result.followups[-1].content if result.followups else reply_text(result)
        assert said == t("community.rematch.opened"), said
        lobby = world.live()
        assert lobby is not None and lobby.status == "lobby" and lobby.id != game.id

    return Press(world.users[1], message, cid, expect)


async def replay_button(world: World) -> Press:
    """The Replay button under a finished game: its GIF, privately."""
    game = await finished_cubosaurs(world)
    message, cid = find(world.channel, lambda c: c == f"dw:rp:{game.id}")

    def check(world, result):
        files = [a.filename for m in [result.response, *result.followups] if m
                 for a in m.attachments]
        assert files == [f"darwin-{game.id}.gif"], reply_text(result)

    return Press(world.users[2], message, cid, answers_privately(check))


async def history_replay_button(world: World) -> Press:
    """A Replay button of /darwin history's public answer."""
    press = await replay_button(world)
    await world.users[0].slash(world.channel, "darwin history")
    await written(world)
    message = world.channel.last_message
    assert press.custom_id in custom_ids(message) and message.id != press.message.id
    return Press(press.user, message, press.custom_id, press.expect)


# --- the table ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    kind: str            # the game whose component it is ("any": every game's)
    component: str       # the DynamicItem class
    prepare: Callable[[World], Awaitable[Press]]


CASES = [
    # the lobby (cogs/lobby.py), one verb per game so that every game's lobby is pressed
    Case("lobby-join-evo", "evo", "LobbyButton",
         lobby_case("evo", "join", 1, lambda row: seats(row) == ["ann", "bob"])),
    Case("lobby-leave-cubosaurs", "cubosaurs", "LobbyButton",
         lobby_case("cubosaurs", "leave", 1, lambda row: seats(row) == ["ann"])),
    Case("lobby-ai-mutations", "mutations", "LobbyButton",
         lobby_case("mutations", "ai", 0, lambda row: seats(row)[1:] == ["AI 1"])),
    Case("lobby-start-climate", "climate", "LobbyButton",
         lobby_case("climate", "start", 0, lambda row: row.status == "active")),
    Case("lobby-cancel-evo", "evo", "LobbyButton",
         lobby_case("evo", "cancel", 0, lambda row: row.status == "cancelled")),
    # EVO
    Case("evo-end-button", "evo", "ActButton", evo_table_button("end")),
    Case("evo-bid-button", "evo", "ActButton", evo_table_button("bid")),
    Case("evo-pass-button", "evo", "ActButton", evo_table_button("pass")),
    Case("evo-hatch-menu", "evo", "ActSelect", evo_menu("", "hatch")),
    Case("evo-lose-menu", "evo", "ActSelect", evo_menu(":lose", "lose")),
    Case("evo-my-cards", "evo", "HandButton", evo_hand),
    Case("evo-hand-play-button", "evo", "ActButton", evo_hand_play),
    Case("evo-undo-button", "evo", "UndoButton", evo_undo),
    # Cubosaurs
    Case("cubosaurs-keep-button", "cubosaurs", "ActButton", cubo_keep),
    Case("cubosaurs-take-token-button", "cubosaurs", "ActButton", cubo_take_token),
    Case("cubosaurs-pass-choice", "cubosaurs", "ChoiceButton", cubo_pass_button),
    Case("cubosaurs-buy-choice", "cubosaurs", "ChoiceButton", cubo_buy_button),
    Case("cubosaurs-pass-private-menu", "cubosaurs", "ActSelect", cubo_pass_menu),
    # Random Mutations
    Case("mutations-species-button", "mutations", "ActButton",
         mutations_button(develop("species"))),
    Case("mutations-pass-button", "mutations", "ActButton", mutations_button(plain("pass"))),
    Case("mutations-trait-menu", "mutations", "ActSelect",
         mutations_menu("trait", lambda a: a["type"] == "develop" and a["use"] == "trait")),
    Case("mutations-token-menu", "mutations", "ActSelect",
         mutations_menu("token", lambda a: a["type"] in ("food", "burrow", "parasite"))),
    # Climate
    Case("climate-hand-button", "climate", "HandButton", climate_hand),
    Case("climate-table-done-button", "climate", "ActButton", climate_table_done),
    Case("climate-table-menu", "climate", "ActSelect", climate_table_menu),
    Case("climate-panel-food-menu", "climate", "ActSelect", climate_panel_food),
    Case("climate-panel-card-pick", "climate", "CardPick", climate_card_pick),
    Case("climate-panel-done-button", "climate", "ActButton", climate_panel_done),
    Case("climate-panel-undo-button", "climate", "UndoButton", climate_panel_undo),
    # every game's end (cogs/community.py)
    Case("rematch-button", "any", "RematchButton", rematch_button),
    Case("replay-button", "any", "ReplayButton", replay_button),
    Case("history-replay-button", "any", "ReplayButton", history_replay_button),
]

def registered(bot) -> dict[str, type]:
    """The DynamicItem classes registered on the bot, by name."""
    store = bot._connection._view_store
    return {cls.__name__: cls for cls in store._dynamic_items.values()}


def component_class(bot, custom_id: str) -> str | None:
    store = bot._connection._view_store
    return next((cls.__name__ for pattern, cls in store._dynamic_items.items()
                 if pattern.fullmatch(custom_id)), None)


async def restart(world: World) -> DarwinBot:
    """The old process is gone (no timers, no connection); a new bot over the same file."""
    env = world.env
    await written(world)
    await env.bot.stop_services()
    bot = DarwinBot(world.config, clock=VirtualClock(env))
    await env.restart_bot(bot)
    virtual_pacing(env, bot)
    return bot


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
async def test_a_component_drawn_before_a_restart_works(simcord_env, darwin_config, monkeypatch,
                                                        case):
    env = simcord_env
    world = World(env, darwin_config, monkeypatch)
    setup_world(world)
    press = await case.prepare(world)
    assert press.custom_id in custom_ids(press.message), (press.custom_id, case.name)
    assert component_class(env.bot, press.custom_id) == case.component, press.custom_id
    world.seq_before = world.game.seq if world.game is not None else None
    world.presser = press.user
    bot = await restart(world)
    try:
        # loaded lazily: nothing armed for this channel, the press itself must load its game
        assert world.live() is None
        if press.values is None:
            result = await press.user.click(press.message, custom_id=press.custom_id)
        else:
            result = await press.user.select(press.message, press.values,
                                             custom_id=press.custom_id)
        said = reply_text(result)
        assert result.acknowledged, case.name
        assert t("bot.error.stale_game") not in said, said
        assert t("bot.error_generic") not in said, said
        assert t("climate.bot.stale_panel") not in said, said
        await press.expect(world, result)
        await flush(env)
    finally:
        await bot.stop_services()  # SimCord detaches bots without closing them


# --- the table covers every kind of component --------------------------------------------------


async def test_every_kind_of_component_has_a_restart_case(simcord_env):
    bot = simcord_env.bot
    covered = {c.component for c in CASES}
    kinds = registered(bot)
    assert set(kinds) == covered, (
        "a DynamicItem class registered on the bot has no restart case in CASES (or a case "
        f"names a class the bot does not register): {set(kinds) ^ covered}")
    assert not bot.persistent_views, "a persistent view needs restart cases in CASES"
    # every class is the one of its prefix in cogs/components.py's table (each prefix once),
    # on the one base that loads the channel's game first and answers failures as sentences
    from cogs.components import NOT_PRESSABLE, PREFIXES, Component

    assert set(kinds) == {path.split(":")[1] for path in PREFIXES.values()}
    assert len(kinds) == len(PREFIXES)
    for name, cls in kinds.items():
        assert issubclass(cls, Component), f"{name} is not a cogs.components.Component"
        assert PREFIXES[cls.prefix].endswith(f":{name}"), (name, cls.prefix)
        assert cls.__discord_ui_compiled_template__.pattern.startswith(f"dw:{cls.prefix}:")
        below = cls.__mro__[:cls.__mro__.index(Component)]
        for method in ("interaction_check", "callback", "from_custom_id"):
            assert not any(method in vars(k) for k in below), f"{name} overrides {method}"
    assert not set(PREFIXES) & set(NOT_PRESSABLE)
    # no custom id is written outside the table's module: every "dw:" is made there
    for path in (ROOT / "cogs").glob("*.py"):
        if path.name != "components.py":
            assert '"dw:' not in path.read_text(), f"{path.name} writes a custom id of its own"
    # every game's cog: each component class its module draws has a case of that game
    for kind in ("evo", "cubosaurs", "mutations", "climate"):
        source = Path(__import__(type(bot.game_cog(kind)).__module__, fromlist=["x"]).__file__)
        drawn = {name for name in kinds if re.search(rf"\b{name}\(", source.read_text())}
        cases = {c.component for c in CASES if c.kind == kind}
        assert drawn <= cases | {"LobbyButton"}, (kind, drawn - cases)
        assert any(c.kind == kind and c.component == "LobbyButton" for c in CASES), kind
