"""Cubosaurs on Discord, offline through discord.py itself (SimCord fakes only Discord's side)."""

from __future__ import annotations

import json
import random

import pytest

from engine import Seat
from engine.cubosaurs import CUBOSAURS, scenario
from messages import t
from messages.cubosaurs import card_label
from tests.conftest import flush
from tests.test_discord import custom_ids, reply_text


def fix_seed(monkeypatch, seed: int) -> None:
    """Games started by the Start button draw their seed from os.urandom: make it ``seed``."""
    import host.host

    monkeypatch.setattr(host.host.os, "urandom", lambda n: seed.to_bytes(n, "big"))


def seed_where(players: int, predicate, options=None) -> int:
    """The first seed whose opening position satisfies ``predicate(state)``."""
    seats = [Seat(str(i), str(i)) for i in range(players)]
    return next(seed for seed in range(1000)
                if predicate(CUBOSAURS.new_game(seats, seed, options or {})))


async def open_table(env, channel, humans, ais=0, **options):
    """/cubosaurs new, everyone joins, AIs added, Start pressed; returns the live game."""
    creator = humans[0]
    result = await creator.slash(channel, "cubosaurs new", **options)
    assert not result.ephemeral  # issue 25: answered with the lobby itself
    lobby = channel.last_message
    for user in humans[1:]:
        await user.click(lobby, label="Join")
    for _ in range(ais):
        await creator.click(lobby, label="Add AI")
    await creator.click(lobby, label="Start")
    game = env.bot.host.game_in(channel.id)
    assert game is not None and game.status == "active" and game.kind == "cubosaurs"
    return game


def encode(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def select_options(message, custom_id):
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id:
                return child.options
    return []


async def choose_privately(user, result, custom_id, label):
    """Pick ``label`` in the private menu that a Pass…/Buy button answered with."""
    menu = result.response
    assert menu is not None and result.ephemeral, reply_text(result)
    value = next(o.value for o in select_options(menu.message, custom_id) if o.label == label)
    return await user.select(menu, [value], custom_id=custom_id)


async def perform(env, channel, user, game, seat, action, k, used):
    """One action the way a player sends it: buttons, menus or slash commands, in turn."""
    from cogs.cubosaurs import buy_label

    kind = action["type"]
    await flush(env)
    msg = channel.last_message
    if kind == "keep":
        if k % 2:
            used.add("keep button")
            return await user.click(msg, label=t("cubosaurs.bot.btn_keep"))
        used.add("keep command")
        return await user.slash(channel, "cubosaurs keep")
    if kind == "pass":
        if k % 2:
            used.add("pass button and menu")
            r = await user.click(msg, custom_id=f"dw:c:{game.id}:{game.seq}:{seat}:pass")
            return await choose_privately(user, r, f"dw:s:{game.id}:{game.seq}:{seat}:pass",
                                          card_label(action["card"]))
        used.add("pass command")
        return await user.slash(channel, "cubosaurs pass", card=action["card"])
    if kind == "buy":
        if k % 2:
            used.add("buy button")
            menu = f"dw:s:{game.id}:{game.seq}:{seat}:{action['tile']}"
            r = await user.click(msg, custom_id=f"dw:c:{game.id}:{game.seq}:{seat}:{action['tile']}")
            if r.response is None or not r.ephemeral \
                    or not select_options(r.response.message, menu):
                return r  # a tile with one way to use it is bought at once
            used.add("buy menu")
            return await choose_privately(user, r, menu, buy_label(action, game.names(), "en"))
        used.add("buy command")
        return await user.slash(channel, "cubosaurs buy", tile=encode(action))
    if kind == "take_token":
        used.add("token button")
        name = game.seats[action["from"]]["name"]
        return await user.click(msg, label=t("cubosaurs.bot.btn_take", player=name))
    raise AssertionError(action)


async def test_three_players_play_a_whole_advanced_game(simcord_env, monkeypatch):
    env = simcord_env
    fix_seed(monkeypatch, 11)
    guild = env.create_guild()
    channel = guild.create_text_channel("cubo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users, advanced=True)
    assert game.options == {"advanced": True, "interactive": True}
    by_seat = {game.seat_of(u.id): u for u in users}
    from cogs.cubosaurs import buy_label

    rnd = random.Random(5)
    used: set[str] = set()
    k = 0
    while game.status == "active":
        k += 1
        assert k < 600, "the game does not end"
        seat = game.awaiting()[0]
        legal = game.rules.legal_actions(game.state, seat)
        buys = [a for a in legal if a["type"] == "buy"]
        # buy now and then, otherwise keep or pass like a player would
        action = rnd.choice(buys if buys and rnd.random() < 0.3 else
                            [a for a in legal if a["type"] != "buy"] or legal)
        if action["type"] == "buy" and k % 2:  # what the private menu can show
            label = buy_label(action, game.names(), "en")
            action = next(a for a in buys if a["tile"] == action["tile"]
                          and buy_label(a, game.names(), "en") == label)
        before = game.seq
        r = await perform(env, channel, by_seat[seat], game, seat, action, k, used)
        assert r.acknowledged
        assert game.seq == before + 1, (action, reply_text(r))
    assert {"keep button", "keep command", "pass button and menu", "pass command",
            "buy button", "buy menu", "buy command"} <= used
    await flush(env)
    messages = list(channel.history())
    texts = [m.content for m in messages]
    # an end-of-round summary with every player's breakdown, and an image of that moment
    summaries = [x for x in texts if t("cubosaurs.event.round_end", round=1) in x]
    assert summaries and all(name in summaries[0] for name in ("ann", "bob", "cy"))
    round_images = [a for m in messages for a in m.attachments if "round_end" in a.filename]
    assert len(round_images) == 2
    assert t("cubosaurs.event.game_over") in texts[-1]
    results = await env.bot.store.game_results(game.id)
    assert sorted(r.seat for r in results) == [0, 1, 2] and min(r.rank for r in results) == 1
    assert env.bot.host.game_in(channel.id) is None


async def test_refusals_are_specific_and_change_nothing(simcord_env, monkeypatch):
    env = simcord_env

    def type_in_hand_possible(state):
        kind = state.hand[0].split("-")[0]
        return any(c.split("-")[0] == kind for c in state.collections[state.current])

    fix_seed(monkeypatch, seed_where(2, type_in_hand_possible))
    guild = env.create_guild()
    channel = guild.create_text_channel("cubo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob")]
    stranger = guild.add_member(env.create_user("eve"))
    game = await open_table(env, channel, users)
    before, seq = json.dumps(game.rules.to_json(game.state)), game.seq
    r = await stranger.slash(channel, "cubosaurs keep")
    assert t("bot.error.not_a_player") in reply_text(r)
    r = await stranger.click(channel.last_message, label=t("cubosaurs.bot.btn_keep"))
    assert t("bot.error.not_a_player") in reply_text(r)
    seat = game.awaiting()[0]
    mover = next(u for u in users if game.seat_of(u.id) == seat)
    other = next(u for u in users if u is not mover)
    r = await other.slash(channel, "cubosaurs keep")
    assert "not your turn" in reply_text(r)
    # passing with a card of a type already in the hand is refused with the reason, whether
    # the card comes from the autocomplete (its id) or is typed by name
    hand_type = game.state.hand[0].split("-")[0]
    same = [c for c in game.state.collections[seat] if c.split("-")[0] == hand_type]
    reason = t("cubosaurs.error.type_in_hand", type=t(f"cubosaurs.type.{hand_type}"))
    r = await mover.slash(channel, "cubosaurs pass", card=same[0])
    assert reason in reply_text(r)
    r = await mover.slash(channel, "cubosaurs pass", card=card_label(same[0]).replace(" 🧬", ""))
    assert reason in reply_text(r)
    r = await other.slash(channel, "cubosaurs pass", card=card_label(same[0]))
    assert "not your turn" in reply_text(r)
    r = await mover.slash(channel, "cubosaurs buy", tile="Swap 1 card")
    assert t("cubosaurs.error.not_advanced") in reply_text(r)
    # the other player's Pass… button is refused too
    r = await other.click(channel.last_message, custom_id=f"dw:c:{game.id}:{game.seq}:{seat}:pass")
    assert "not your turn" in reply_text(r)
    r = await mover.slash(channel, "cubosaurs pass", card="unicorn")
    assert "unicorn" in reply_text(r)
    assert json.dumps(game.rules.to_json(game.state)) == before and game.seq == seq
    # the private menu offers only legal additions, each distinct card once
    legal = {card_label(a["card"]) for a in game.rules.legal_actions(game.state, seat)
             if a["type"] == "pass"}
    assert f"dw:c:{game.id}:{game.seq}:{seat}:pass" in custom_ids(channel.last_message)
    r = await mover.click(channel.last_message, custom_id=f"dw:c:{game.id}:{game.seq}:{seat}:pass")
    offered = [o.label for o in select_options(r.response.message,
                                               f"dw:s:{game.id}:{game.seq}:{seat}:pass")]
    assert r.ephemeral and sorted(offered) == sorted(legal)
    assert game.seq == seq
    # once the game is cancelled, its table keeps no button to press
    table = channel.last_message
    await users[0].slash(channel, "cubosaurs cancel")
    await flush(env)
    assert [custom_ids(m) for m in channel.history() if m.id == table.id] == [[]]


async def test_pass_autocomplete_offers_only_legal_additions(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cubo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    seat = game.awaiting()[0]
    mover = next(u for u in users if game.seat_of(u.id) == seat)
    choices = await mover.autocomplete(channel, "cubosaurs pass", "card", "")
    legal = {a["card"] for a in game.rules.legal_actions(game.state, seat) if a["type"] == "pass"}
    values = [c["value"] for c in choices]
    assert set(values) <= legal and len(values) == len({card_label(c) for c in legal})
    other = next(u for u in users if u is not mover)
    assert await other.autocomplete(channel, "cubosaurs pass", "card", "") == []


async def test_lobby_by_slash_commands_and_an_ai_seat_that_plays(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cubo")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    await ann.slash(channel, "cubosaurs new", advanced=True, interactive=False)
    lobby = channel.last_message
    r = await bob.slash(channel, "cubosaurs join")
    assert r.ephemeral and t("bot.ok") in reply_text(r)
    r = await bob.slash(channel, "cubosaurs join")
    assert t("bot.error.already_joined") in reply_text(r)
    await ann.slash(channel, "cubosaurs ai", level="strong")
    game = env.bot.host.game_in(channel.id)
    assert [s["name"] for s in game.seats] == ["ann", "bob", "AI 1"]
    assert game.seats[2]["level"] == "strong"
    embed = channel.get_message(lobby.id).embeds[0] if hasattr(channel, "get_message") else None
    if embed is not None:
        assert "AI 1" in embed.description
    r = await bob.slash(channel, "cubosaurs start")
    assert t("bot.error.not_creator") in reply_text(r) and game.status == "lobby"
    await ann.slash(channel, "cubosaurs start")
    assert game.status == "active"
    assert game.options == {"advanced": True, "interactive": False}
    assert not {"steal", "give", "swap", "destroy_other"} & set(game.state.offer)
    # the humans keep whatever they get; the AI seat plays its turns by itself
    for _ in range(300):
        if game.status != "active":
            break
        seat = game.awaiting()[0]
        if game.seats[seat].get("ai"):
            before = game.seq
            await env.advance_time(2)
            await env.settle()
            assert game.seq > before
            continue
        user = ann if seat == 0 else bob
        r = await user.slash(channel, "cubosaurs keep")
        assert r.acknowledged and game.seq > 0
    assert game.status == "finished"
    actors = [a.actor for a in await env.bot.store.actions(game.id)]
    assert actors.count("ai:1") > 5


async def test_token_choice_information_commands_and_rules(simcord_env, monkeypatch):
    env = simcord_env
    fix_seed(monkeypatch, 3)
    guild = env.create_guild()
    channel = guild.create_text_channel("cubo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users, advanced=True)
    # a position built directly: the reserve is empty and ann keeps two DNA cards
    state = scenario(3, advanced=True, tokens={0: 0, 1: 20, 2: 20}, current=0,
                     hand=["ptero-1", "ptero-2"], hand_from=2, collections={0: []})
    state.seats = game.state.seats
    game.state = state
    await users[0].slash(channel, "cubosaurs keep")
    assert game.awaiting() == [0] and game.state.debts == [[0, 2]]
    choices = await users[0].autocomplete(channel, "cubosaurs token", "from", "")
    assert [c["name"] for c in choices] == ["bob", "cy"]
    r = await users[0].slash(channel, "cubosaurs token", **{"from": "bob"})
    assert t("bot.ok") in reply_text(r) and game.state.tokens[:2] == [1, 19]
    r = await users[0].click(channel.last_message, label=t("cubosaurs.bot.btn_take", player="cy"))
    assert game.state.tokens == [2, 19, 19] and game.state.debts == []
    # status, board and log are private; the table image is drawn once per position
    r = await users[1].slash(channel, "cubosaurs status")
    assert r.ephemeral and "round 1 of 2" in reply_text(r) and "ann: 2 cards" in reply_text(r)
    r = await users[1].slash(channel, "cubosaurs board")
    files = [a.filename for m in [r.response, *r.followups] if m for a in m.attachments]
    assert r.ephemeral and files == ["board.png"]
    r = await users[2].slash(channel, "cubosaurs log")
    assert r.ephemeral and "ann takes 1 DNA from bob." in reply_text(r)


@pytest.mark.parametrize("topic, title", [
    ("rule:turn", "cubosaurs.rules.turn_title"), ("turn", "cubosaurs.rules.turn_title"),
    ("tile:steal", "cubosaurs.tile.steal"), ("Swap 1 card", "cubosaurs.tile.swap"),
])
async def test_rules_topics(simcord_env, topic, title):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cubo")
    ann = guild.add_member(env.create_user("ann"))
    r = await ann.slash(channel, "cubosaurs rules", topic=topic)
    assert r.ephemeral and r.response.embeds[0].title.startswith(t(title))
    r = await ann.slash(channel, "cubosaurs rules", topic="unicorns")
    assert t("cubosaurs.bot.no_rules_topic", topic="unicorns") in reply_text(r)
