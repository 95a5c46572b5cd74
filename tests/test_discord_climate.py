"""Evolution: Climate on Discord, offline through discord.py itself (SimCord fakes only
Discord's side): seeded games of three humans and an AI seat through buttons, menus, private
panels and slash commands, with a leak scan of everything the bot shows in public.

The secret steps (every food card; the Quick game's play phase) are played the way a table
would: every awaited human opens their private panel from the table's one button first, then
they choose one after another, each from the menu drawn before the others chose.
"""

from __future__ import annotations

import json
import re

import pytest

from engine import IllegalAction
from engine.ai import ai_action
from engine.climate.data import CARDS, TRAIT_OF, TRAITS
from messages import t
from messages.climate import explain
from tests.conftest import ChannelWrites, flush
from tests.locales import locales  # noqa: F401 (a fixture)
from tests.test_discord import reply_text

TRAIT_NAMES = {t(f"climate.trait.{x}.name") for x in TRAITS}
CARD_ID = re.compile(r"\b(?:" + "|".join(sorted(TRAITS, key=len, reverse=True)) + r")-\d+\b")


def fix_seed(monkeypatch, seed: int) -> None:
    """Games started by the Start button draw their seed from os.urandom: make it ``seed``."""
    import host.host

    monkeypatch.setattr(host.host.os, "urandom", lambda n: seed.to_bytes(n, "big"))


def encode(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def pack(action: dict) -> str:
    from cogs.climate import pack as packed

    return packed(action)


async def open_table(env, channel, humans, ais=0, **options):
    """/climate new, everyone joins, AIs added, Start pressed; returns the live game."""
    creator = humans[0]
    result = await creator.slash(channel, "climate new", **options)
    assert not result.ephemeral  # issue 25: answered with the lobby itself
    lobby = channel.last_message
    for user in humans[1:]:
        await user.click(lobby, label="Join")
    for _ in range(ais):
        await creator.click(lobby, label="Add AI")
    await creator.click(lobby, label="Start")
    game = env.bot.host.game_in(channel.id)
    assert game is not None and game.status == "active" and game.kind == "climate"
    return game


def parts(message) -> list[dict]:
    """Every component of a channel message or of an ephemeral reply, as dicts."""
    out = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else getattr(row, "children", [row])
        for c in children:
            if isinstance(c, dict):
                out.append(c)
            else:
                out.append({"custom_id": getattr(c, "custom_id", None),
                            "label": getattr(c, "label", None),
                            "options": [{"value": o.value, "label": o.label}
                                        for o in getattr(c, "options", [])]})
    return out


def menu(message, tag: str) -> dict | None:
    """The menu of a message whose custom id ends with ``tag`` (``food``, ``use``...)."""
    for c in parts(message):
        cid = c.get("custom_id") or ""
        if cid.endswith(f":{tag}") or (tag == "card" and cid.startswith("dw:ck:")):
            return c
    return None


def values(message, tag: str) -> list[str]:
    found = menu(message, tag)
    return [o["value"] for o in found.get("options", [])] if found else []


def confirmed(result) -> bool:
    """A command's private reply says the move was made (with an Undo offer or not)."""
    text = reply_text(result)
    return t("bot.ok") in text or t("community.undo.offer") in text


def is_secret(state) -> bool:
    return state.phase == "food" or (state.phase == "play" and state.options["quick"])


class LeakScan:
    """Everything public the bot writes, checked against what is hidden at that moment.

    * No public write (content, embeds, components' labels, custom ids and values,
      attachments' file names) ever holds a trait card's id.
    * A secret move (one that leaves its simultaneous step unfinished) changes the table only
      by who is awaited: the same header, the same components, and its lines (who has
      chosen) name no trait.
    """

    def __init__(self, env) -> None:
        self.env = env
        self.writes = ChannelWrites(env)
        self.secret_moves = 0
        self.before: dict[int, tuple] = {}
        listener = env.bot.listener
        original = listener.on_outcome

        async def on_outcome(outcome):
            await original(outcome)
            self.check_outcome(outcome)

        listener.on_outcome = on_outcome

    def check_outcome(self, outcome) -> None:
        from cogs.table import summary_lines

        game = outcome.game
        table = self.env.bot.listener.tables.get(game.id)
        if table is None or game.status != "active":
            self.before.pop(game.id, None)
            return
        comps = [(getattr(i, "custom_id", None), getattr(getattr(i, "item", i), "label", None))
                 for i in (table.view.children if table.view else [])]
        now = (game.step, is_secret(game.state), table.header, comps)
        was = self.before.get(game.id)
        self.before[game.id] = now
        if was is None or not now[1] or was[0] != now[0] or outcome.seat < 0:
            return
        # a secret move: the step goes on
        self.secret_moves += 1
        assert now[2] == was[2], "a secret move changed the table's header"
        assert now[3] == was[3], "a secret move changed the table's buttons"
        assert [c for c, _ in comps] == [f"dw:h:{game.id}"], comps
        for line in summary_lines(outcome, table.lang):
            assert not CARD_ID.search(line), line
            assert not any(name in line for name in TRAIT_NAMES), line
        assert t("bot.waiting_prompt", count=len(game.awaiting()),
                 players="")[:12] in table.footer or len(game.awaiting()) == 1

    def check_writes(self, channel) -> None:
        for _, _, _, payload in self.writes.writes:
            text = json.dumps(payload, ensure_ascii=False)
            assert not CARD_ID.search(text), CARD_ID.search(text)
        for message in channel.history():
            text = message.content + json.dumps([e.to_dict() for e in message.embeds])
            text += json.dumps(parts(message)) + " ".join(a.filename for a in message.attachments)
            assert not CARD_ID.search(text), CARD_ID.search(text)


class Players:
    """The humans of a game and how they send each action (the way a player may)."""

    def __init__(self, env, channel, game, users) -> None:
        self.env = env
        self.channel = channel
        self.game = game
        self.by_seat = {game.seat_of(u.id): u for u in users}
        self.used: set[str] = set()
        self.plays: dict[tuple, int] = {}
        self.k = 0
        self.drawn_early = 0  # food menus used after another player chose since they were drawn

    # --- choosing -------------------------------------------------------------------------------

    def choose(self, seat: int) -> dict:
        game = self.game
        state = game.state
        legal = game.rules.legal_actions(state, seat)
        action = ai_action(game.rules, state, seat, "fast")
        if state.phase == "play":
            key = (state.round, seat)
            n = self.plays.get(key, 0)
            self.plays[key] = n + 1
            extra = self._extra(state, seat, legal)
            if extra is not None:
                return extra
            if n >= 2:
                return {"type": "done"}
        return action

    def _extra(self, state, seat: int, legal: list[dict]) -> dict | None:
        """The moves the fast AI never makes, made once each by someone."""
        if state.back[seat]:
            return {"type": "done"}
        if "species left" not in self.used:
            left = [a for a in legal if a["type"] == "species" and a["side"] == "left"]
            if left and state.round >= 2:
                self.used.add("species left")
                return left[0]
        if "remove" not in self.used:
            removes = [a for a in legal if a["type"] == "remove"]
            if removes and state.round >= 2:
                self.used.add("remove")
                return removes[0]
        if not {"grow panel", "grow command"} & self.used:
            grow = [a for a in legal if a["type"] == "grow"]
            if grow:  # the fast AI grows only what the plants will feed: maybe never here
                return grow[0]
        if "exchange" not in self.used and state.round >= 3:
            ex = [a for a in legal if a["type"] == "exchange"]
            if ex:
                self.used.add("exchange")
                return ex[0]
        return None

    # --- sending ----------------------------------------------------------------------------

    async def panel(self, seat: int, by_button: bool):
        """The seat's private panel, opened from the table's button or /climate hand."""
        await flush(self.env)
        user = self.by_seat[seat]
        if by_button:
            r = await user.click(self.channel.last_message, custom_id=f"dw:h:{self.game.id}")
            self.used.add("panel button")
        else:
            r = await user.slash(self.channel, "climate hand")
            self.used.add("panel command")
        assert r.ephemeral and r.response is not None
        return r

    async def in_panel(self, seat: int, r, action: dict) -> bool:
        """Send ``action`` from the private panel ``r`` (False: the panel cannot show it)."""
        user = self.by_seat[seat]
        panel = r.response
        card = None
        kind = action["type"]
        if kind in ("trait", "species", "grow", "exchange") and not self.game.state.back[seat] \
                or kind in ("intelligence", "negate") or (kind == "attack" and "discard" in action):
            card = action.get("card", action.get("discard"))
        if card is not None:
            if card not in values(panel, "card"):
                return False
            pick = menu(panel, "card")
            await user.select(panel, [card], custom_id=pick["custom_id"])
            panel = r.response
            self.used.add("card pick")
            tag = "use"
        elif kind == "done":
            done = next((c for c in parts(panel) if '"done"' in (c.get("custom_id") or "")), None)
            if done is None:
                return False
            await user.click(panel, custom_id=done["custom_id"])
            self.used.add("done panel")
            return True
        elif kind == "pass":
            return False
        else:
            tag = {"remove": "remove", "exchange": "exchange"}.get(kind, kind)
        if encode(action) not in values(panel, tag):
            return False
        await user.select(panel, [encode(action)], custom_id=menu(panel, tag)["custom_id"])
        self.used.add(f"{kind} panel")
        return True

    async def send(self, seat: int, action: dict) -> None:
        """One action of a sequential step, by menu, panel or command in turn."""
        self.k += 1
        k = self.k
        kind = action["type"]
        # a form of this kind not used yet goes first (the AI's choices decide how often
        # each kind comes up), then menu/button, panel and command in turn
        forms = ((["menu"] if kind in ("feed", "attack", "green") else [])
                 + (["button"] if kind in ("pass", "done") else [])
                 + (["panel"] if kind != "pass" else []) + ["command"])
        fresh = [f for f in forms if f"{kind} {f}" not in self.used]
        if fresh:
            k = {"menu": 0, "button": 0, "panel": 1, "command": 2}[fresh[0]] + 3 * self.k
        game = self.game
        user = self.by_seat[seat]
        kind = action["type"]
        before = game.seq
        await flush(self.env)
        table = self.channel.last_message
        done = False
        if kind in ("feed", "attack", "green") and k % 3 == 0 and "discard" not in action:
            tag = kind
            if encode(action) in values(table, tag):
                await user.select(table, [encode(action)], custom_id=menu(table, tag)["custom_id"])
                self.used.add(f"{kind} menu")
                done = True
        elif kind in ("pass", "done") and k % 3 == 0:
            label = t(f"climate.bot.btn_{kind}")
            if any(c.get("label") == label for c in parts(table)):
                await user.click(table, label=label)
                self.used.add(f"{kind} button")
                done = True
        elif k % 3 == 1 and kind != "pass":
            r = await self.panel(seat, by_button=k % 2 == 0)
            done = await self.in_panel(seat, r, action)
        if not done:
            await self.command(seat, action)
        assert game.seq == before + 1 or game.status != "active", action

    async def command(self, seat: int, action: dict) -> None:
        user = self.by_seat[seat]
        kind = action["type"]
        self.used.add(f"{kind} command")
        if kind in ("done", "pass"):
            r = await user.slash(self.channel, f"climate {kind}")
        elif kind == "food" or kind == "exchange":
            # typed by its trait's name half the time (the first such card of the hand)
            hand = self.game.state.hands[seat]
            same = next(c for c in hand if TRAIT_OF[c] == TRAIT_OF[action["card"]])
            typed = same == action["card"] and self.k % 2
            r = await user.slash(self.channel, f"climate {kind}", card=t(
                f"climate.trait.{TRAIT_OF[action['card']]}.name") if typed else pack(action))
        elif kind == "feed":
            r = await user.slash(self.channel, "climate feed", species=str(action["species"])
                                 if self.k % 2 else pack(action))
        elif kind == "remove":
            r = await user.slash(self.channel, "climate discard", trait=pack(action))
        elif kind == "green":
            r = await user.slash(self.channel, "climate order", choice=pack(action))
        elif kind in ("intelligence", "negate"):
            r = await user.slash(self.channel, "climate intelligence", play=pack(action))
        else:
            r = await user.slash(self.channel, f"climate {kind}", play=pack(action))
        assert r.ephemeral, reply_text(r)
        assert confirmed(r), (action, reply_text(r))

    # --- the secret steps -----------------------------------------------------------------------

    async def food_step(self) -> None:
        """Every awaited human opens their panel, then they choose one after another."""
        game = self.game
        humans = [p for p in game.awaiting() if p in self.by_seat]
        panels = {}
        for i, seat in enumerate(humans):
            panels[seat] = (await self.panel(seat, by_button=i != 1), game.state.food[:])
        for i, seat in enumerate(reversed(humans)):
            if seat not in game.awaiting():
                continue
            r, chosen_then = panels[seat]
            action = self.choose(seat)
            assert action["type"] == "food"
            if any(c is None for c in chosen_then) and any(
                    a is not None and b is None for a, b in zip(game.state.food, chosen_then,
                                                                strict=True)):
                self.drawn_early += 1  # someone chose since this menu was drawn
            before = game.seq
            if i == 1:
                await self.command(seat, action)
            else:
                panel = r.response
                assert encode(action) in values(panel, "food")
                await self.by_seat[seat].select(panel, [encode(action)],
                                                custom_id=menu(panel, "food")["custom_id"])
                self.used.add("food panel")
                # the panel now says which card went down (or the step went on)
                assert t("climate.bot.played", action="")[:2] in r.response.content
            assert game.seq == before + 1

    async def quick_play(self) -> None:
        """The Quick game's play phase: every awaited human opens a panel, then they play in
        turns of one move each until all are done."""
        game = self.game
        humans = [p for p in game.awaiting() if p in self.by_seat]
        panels = {seat: await self.panel(seat, by_button=True) for seat in humans}
        while any(seat in game.awaiting() for seat in humans):
            for seat in humans:
                if seat not in game.awaiting() or game.state.phase != "play":
                    continue
                action = self.choose(seat)
                before = game.seq
                if not await self.in_panel(seat, panels[seat], action):
                    await self.command(seat, action)
                assert game.seq == before + 1, action

    async def ai_moves(self) -> None:
        before = self.game.seq
        await self.env.advance_time(2)
        await self.env.settle()
        assert self.game.seq > before or self.game.status != "active"


async def play_round_or_game(players: Players, until_round: int | None = None,
                             owed: list | None = None) -> None:
    game = players.game
    steps = 0
    while game.status == "active":
        steps += 1
        assert steps < 800, "the game does not end"
        state = game.state
        if until_round is not None and state.round >= until_round:
            return
        awaiting = game.awaiting()
        humans = [p for p in awaiting if p in players.by_seat]
        if not humans:
            await players.ai_moves()
            continue
        if state.phase == "food":
            await players.food_step()
            continue
        if state.phase == "play" and state.options["quick"]:
            await players.quick_play()
            continue
        seat = humans[0]
        if state.phase == "green" and owed is not None and (state.round, seat) not in owed:
            await flush(players.env)  # asked at once, with a mention
            owed.append((state.round, seat))
            assert f"<@{players.by_seat[seat].id}>" in players.channel.last_message.content
        await players.send(seat, players.choose(seat))


async def test_three_humans_and_an_ai_play_a_whole_game(simcord_env, monkeypatch):
    env = simcord_env
    fix_seed(monkeypatch, 3)  # a game where two green traits are ordered twice
    guild = env.create_guild()
    channel = guild.create_text_channel("climate")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    scan = LeakScan(env)
    game = await open_table(env, channel, users, ais=1)
    assert game.options == {"events": True, "quick": False} and game.seats[3].get("ai")
    players = Players(env, channel, game, users)
    owed: list[int] = []
    await play_round_or_game(players, owed=owed)
    await flush(env)
    used = players.used
    assert {"food panel", "food command", "panel button", "panel command", "card pick",
            "trait panel", "trait command", "done panel", "done command", "done button",
            "feed menu", "feed command", "feed panel", "green menu", "green command"} <= used, used
    for kind in ("species", "grow", "remove", "exchange"):
        assert {f"{kind} panel", f"{kind} command"} & used, kind
    assert "species left" in used and "remove" in used and "exchange" in used
    assert owed, "no green traits to order in this game"
    assert players.drawn_early > 0, "no menu was used after another player chose"
    assert scan.secret_moves > 10
    scan.check_writes(channel)
    messages = list(channel.history())
    texts = [m.content for m in messages]
    assert t("climate.event.game_over") in texts[-1]
    assert all(name in texts[-1] for name in ("ann", "bob", "cy", "AI 1"))
    results = await env.bot.store.game_results(game.id)
    assert sorted(r.seat for r in results) == [0, 1, 2, 3] and min(r.rank for r in results) == 1
    assert env.bot.host.game_in(channel.id) is None


async def test_a_quick_round_with_a_late_player_a_stale_menu_and_a_stranger(
        simcord_env, monkeypatch, locales):  # noqa: F811 - the fixture
    """Quick game with a turn timer: the food cards and then the whole play phase secret and
    simultaneous; a second panel's menu goes stale once its owner has chosen elsewhere; a
    stranger is refused; the AI plays for a late player when the timer runs out; a reader
    whose Discord speaks Italian gets the private panel in Italian."""
    env = simcord_env
    fix_seed(monkeypatch, 11)
    guild = env.create_guild()
    channel = guild.create_text_channel("climate")
    ann, bob, cy = users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    eve = guild.add_member(env.create_user("eve"))
    locales[bob.id] = "it"
    scan = LeakScan(env)
    game = await open_table(env, channel, users, ais=1, quick=True, events=False, timer=120)
    assert game.options == {"events": False, "quick": True}
    players = Players(env, channel, game, users)
    seat = {u.id: game.seat_of(u.id) for u in users}
    await flush(env)
    table = channel.last_message
    assert [c["label"] for c in parts(table)] == [t("climate.bot.btn_food")]
    assert t("bot.waiting_prompt", count=4, players="")[:12] in table.content
    # a stranger: no panel, no food card
    r = await eve.click(table, custom_id=f"dw:h:{game.id}")
    assert t("bot.error.not_a_player") in reply_text(r)
    r = await eve.slash(channel, "climate food", card="Carnivore")
    assert t("bot.error.not_a_player") in reply_text(r)
    # everyone opens a panel first; Ann opens two
    first = await players.panel(seat[ann.id], by_button=True)
    second = await players.panel(seat[ann.id], by_button=False)
    bobs = await players.panel(seat[bob.id], by_button=True)
    assert t("climate.bot.hand_title", "it", round=1, phase=t("climate.phase.food", "it")) \
        in bobs.response.content
    cys = await players.panel(seat[cy.id], by_button=True)
    assert [a.filename for a in cys.response.attachments] == ["hand.png"]
    chosen = {}
    for user, r in ((ann, first), (cy, cys), (bob, bobs)):
        p = seat[user.id]
        card = values(r.response, "food")[-1]
        chosen[p] = json.loads(card)["card"]
        before = game.seq
        await user.select(r.response, [card], custom_id=menu(r.response, "food")["custom_id"])
        assert game.seq == before + 1
        if user is ann:  # her other panel's menu is stale now: nothing happens
            stale = values(second.response, "food")[0]
            await ann.select(second.response, [stale],
                             custom_id=menu(second.response, "food")["custom_id"])
            assert game.seq == before + 1 and game.state.hands[p] and \
                json.loads(stale)["card"] in game.state.hands[p]
            assert t("climate.bot.stale_panel") in second.response.content
            # and she takes her secret choice back from her panel, then chooses again
            undo = next(c for c in parts(first.response)
                        if (c.get("custom_id") or "").startswith("dw:u:"))
            await ann.click(first.response, custom_id=undo["custom_id"])
            assert game.state.food[p] is None and p in game.awaiting()
            # the table no longer says she has chosen, and lists her among the awaited
            await flush(env)
            live = channel.last_message.content
            assert t("climate.event.chosen_food", player="ann") not in live
            assert "ann" in live.split("\n")[-1] and t("bot.undo.done", player="ann") not in live
            await players.command(p, {"type": "food", "card": chosen[p]})
            assert game.state.food[p] == chosen[p]
    await players.ai_moves()
    assert game.state.phase == "play" and game.state.options["quick"]
    await flush(env)
    table = channel.last_message
    assert [c["label"] for c in parts(table)] == [t("climate.bot.btn_play")]
    assert t("climate.event.food_cards", count=4) in table.content
    # the play phase: Ann plays a card and is done, Bob is done at once, Cy is late
    r = await players.panel(seat[ann.id], by_button=True)
    use = json.loads(values(r.response, "use")[0])
    await ann.select(r.response, [encode(use)], custom_id=menu(r.response, "use")["custom_id"])
    assert t("climate.bot.played", action="")[:2] in r.response.content
    assert await players.in_panel(seat[ann.id], r, {"type": "done"})
    r = await bob.slash(channel, "climate done")
    assert t("bot.ok", "it") in reply_text(r)
    while any(game.seats[p].get("ai") for p in game.awaiting()):
        await players.ai_moves()
    assert game.awaiting() == [seat[cy.id]]
    await flush(env)
    assert t("bot.waiting_prompt", count=1, players="")[:12] not in channel.last_message.content
    await env.advance_time(121)  # Cy's turn timer runs out: an AI plays for Cy
    await env.settle()
    await flush(env)
    assert game.state.phase != "play" or game.state.round > 1
    texts = "\n".join(m.content for m in channel.history())
    assert texts.count(t("bot.timed_out", player="cy")) == 1
    reveal = next(x for x in texts.split("\n") if x.startswith(t("climate.event.food_reveal")[:12]))
    for card in chosen.values():  # the food cards are turned together in Modify environment
        assert t(f"climate.trait.{TRAIT_OF[card]}.name") in reveal
    assert t("climate.event.play_start_quick") in texts
    assert scan.secret_moves >= 6
    scan.check_writes(channel)
    r = await ann.slash(channel, "climate cancel")
    assert env.bot.host.game_in(channel.id) is None


def feeding_position(state):
    """Ann (seat 0) feeds first: her Carnivore with Intelligence (body 4) and a Foraging plant
    eater; Bob has a Mud Wallowing species, a Climbing one and a bare one; Ann holds two
    cards, Bob one; 3 plants on the Watering Hole. Every card of the box stays accounted for."""
    from engine.climate import check_invariants

    s = state.clone()
    free = list(CARDS)

    def take(trait: str) -> str:
        card = next(c for c in free if TRAIT_OF[c] == trait)
        free.remove(card)
        return card

    def species(sid: int, body: int, pop: int, traits=()) -> dict:
        return {"id": sid, "body": body, "pop": pop, "food": 0, "fat": 0,
                "traits": [take(x) for x in traits], "down": []}

    s.rows = [[species(1001, 4, 3, ("carnivore", "intelligence")), species(1002, 1, 2, ("foraging",))],
              [species(2001, 2, 2, ("mud_wallowing",)), species(2002, 1, 1, ("climbing",)),
               species(2003, 1, 1)]]
    s.next_sid = [3, 4]
    s.hands = [[take("long_neck"), take("fertile")], [take("horns")]]
    s.food = [None, None]
    s.deck, s.set_aside, s.discard = free, [], []
    s.phase, s.current, s.first, s.wh, s.revealed = "feeding", 0, 0, 3, True
    s.done, s.passed, s.back, s.held = [True, True], [False, False], [[], []], [[], []]
    s.night, s.negated, s.green, s.shown = [], [], [], None
    s.step += 1
    s.keys = [k + 1 for k in s.keys]
    check_invariants(s)
    return s


async def test_feeding_menus_attacks_and_intelligence(simcord_env, monkeypatch):
    """The table's Feed and Attack menus (the attacks that cost no card), the private panel's
    card menus (Intelligence, an attack on a Mud Wallowing species), the autocomplete of
    /climate attack, refusals in the rules' words, status, log and rules."""
    from host import Outcome

    env = simcord_env
    fix_seed(monkeypatch, 5)
    guild = env.create_guild()
    channel = guild.create_text_channel("climate")
    ann, bob = users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob")]
    game = await open_table(env, channel, users, events=False)
    assert game.seat_of(ann.id) == 0
    game.state = feeding_position(game.state)
    await env.bot.listener.on_outcome(Outcome(game, -1, {"type": "start"}, [], []))
    await flush(env)
    table = channel.last_message
    key = game.key_for(0)
    assert [json.loads(v) for v in values(table, "feed")] == [{"type": "feed", "species": 1002}]
    attacks = [json.loads(v) for v in values(table, "attack")]
    assert {a["target"] for a in attacks} == {1002, 2003}  # Climbing blocks, Mud costs a card
    assert menu(table, "attack")["custom_id"] == f"dw:s:{game.id}:{key}:0:attack"
    assert t("climate.bot.btn_pass") not in [c["label"] for c in parts(table)]  # she must eat
    # the autocomplete offers Ann every legal attack, Bob none
    offered = await ann.autocomplete(channel, "climate attack", "play", "")
    legal = [a for a in game.rules.legal_actions(game.state, 0) if a["type"] == "attack"]
    assert sorted(c["value"] for c in offered) == sorted(pack(a) for a in legal)
    assert await bob.autocomplete(channel, "climate attack", "play", "") == []
    r = await bob.slash(channel, "climate attack", play=pack(legal[0]))
    assert "not your turn" in reply_text(r)
    r = await ann.slash(channel, "climate attack", play="bite")
    assert t("climate.bot.choose_from_list") in reply_text(r)
    r = await ann.slash(channel, "climate attack", play=pack(
        {"type": "attack", "species": 1001, "target": 2002}))
    assert explain(IllegalAction("not_attackable", target=2002, blockers=["climbing"])) \
        in reply_text(r)
    assert game.key_for(0) == key
    # the private panel: a card, then what it may pay for; Intelligence cancels Climbing
    r = await ann.slash(channel, "climate hand")
    panel = r.response
    fertile = next(c for c in game.state.hands[0] if TRAIT_OF[c] == "fertile")
    await ann.select(panel, [fertile], custom_id=menu(panel, "card")["custom_id"])
    uses = [json.loads(v) for v in values(r.response, "use")]
    assert {"type": "attack", "species": 1001, "target": 2001, "discard": fertile} in uses
    negate = {"type": "negate", "species": 1001, "card": fertile, "trait": "climbing"}
    assert negate in uses
    await ann.select(r.response, [encode(negate)], custom_id=menu(r.response, "use")["custom_id"])
    assert game.state.negated == [[1001, "climbing"]] and game.state.current == 0
    assert t("climate.bot.played", action="")[:2] in r.response.content
    await flush(env)
    table = channel.last_message
    attack = {"type": "attack", "species": 1001, "target": 2002}
    assert encode(attack) in values(table, "attack")
    await ann.select(table, [encode(attack)], custom_id=menu(table, "attack")["custom_id"])
    assert game.state.current == 1 and [sp["id"] for sp in game.state.rows[1]] == [2001, 2003]
    # her panel, drawn before the attack, is out of date now: redrawn, nothing done
    seq = game.seq
    await ann.select(r.response, [values(r.response, "feed")[0]],
                     custom_id=menu(r.response, "feed")["custom_id"])
    assert game.seq == seq and t("climate.bot.stale_panel") in r.response.content
    assert menu(r.response, "feed") is None  # not her turn: no menu
    r = await bob.slash(channel, "climate feed", species="2003")
    assert confirmed(r)
    await flush(env)
    log = "\n".join(m.content for m in channel.history())
    assert t("climate.event.attack", species=t("climate.species_of", player="ann", id=1001),
             target=t("climate.species_of", player="bob", id=2002)) in log
    assert t("climate.event.negate", player="ann", species=t("climate.species_ref", id=1001),
             trait=t("climate.trait.climbing.name")) in log
    assert "long_neck" not in log and "fertile-" not in log
    r = await bob.slash(channel, "climate status")
    assert r.ephemeral and "round 1" in reply_text(r) and "ann:" in reply_text(r)
    r = await bob.slash(channel, "climate log")
    assert r.ephemeral and "bob's species #2003" in reply_text(r)
    for topic, title in (("rule:feeding", "Feeding"), ("Carnivoro", "Carnivore"),
                         ("trait:fat_tissue", "Fat Tissue"), ("Thaw", "Thaw"),
                         ("rule:climate", "The climate zones")):
        r = await ann.slash(channel, "climate rules", topic=topic)
        assert r.response.embeds and r.response.embeds[0].title.startswith(title), (topic, reply_text(r))
    r = await ann.slash(channel, "climate rules", topic="rule:climate")
    assert t("climate.zone.ice_age") in r.response.embeds[0].description
    r = await ann.slash(channel, "climate rules", topic="unicorns")
    assert t("climate.bot.no_rules_topic", topic="unicorns") in reply_text(r)


def test_every_refusal_code_reads_as_a_sentence():
    """Every code the package docstring lists has its own sentence in every language."""
    import engine.climate as pkg

    doc = pkg.__doc__.split("Refusal codes")[1]
    codes = set(re.findall(r"``([a-z_]+)``", doc)) - {"engine", "check_shape"}
    assert len(codes) > 30
    for lang in ("en", "it", "fr"):
        for code in codes:
            text = explain(IllegalAction(code, species=1001, target=2001, trait="horns",
                                         card="horns-2", action="feed", phase="feeding",
                                         waiting=[0], player=0, count=2, max=4, min=2, deck=3,
                                         option="x", side="up", what="body",
                                         blockers=["body", "climbing"]), ["ann"], lang)
            assert "{" not in text and not text.startswith("climate."), (lang, code, text)
            assert "horns-2" not in text
            if code != "bad_action":
                assert text != t("climate.error.bad_action", lang), (lang, code)


@pytest.mark.parametrize("players, options", [
    (2, {"events": True, "quick": False}), (3, {"events": True, "quick": True}),
    (5, {"events": True, "quick": False}), (6, {"events": False, "quick": True})])
def test_every_event_of_random_games_reads_as_a_line(players, options):
    """Uniformly random legal play (Intelligence, attacks, discards, exchanges...): every
    event reads as a line in every language, without a raw key, a hole or a card id."""
    import random

    from engine import Seat, get_game
    from messages.climate import describe

    rules = get_game("climate")
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:players]
    seen = set()
    for seed in range(3):
        state, events = rules.new_game_with_events([Seat(n, n) for n in names], seed, options)
        rnd = random.Random(seed)
        every = list(events)
        while not rules.is_over(state):
            p = rnd.choice(rules.to_act(state))
            state, events = rules.apply_action(state, p, rnd.choice(rules.legal_actions(state, p)))
            every += events
        for ev in every:
            seen.add(ev["type"])
            for lang in ("en", "it", "fr"):
                line = describe(ev, names, lang)
                assert line is None or ("climate." not in line and "{" not in line
                                        and not CARD_ID.search(line)), (ev, line)
    assert {"setup", "round_start", "deal", "chosen", "food_reveal", "climate", "plants",
            "take", "bags", "game_over"} <= seen


def test_no_card_id_pattern_misses_a_card():
    assert all(CARD_ID.fullmatch(c) for c in CARDS)
