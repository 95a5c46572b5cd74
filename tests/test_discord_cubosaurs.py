"""Cubosaurs on Discord, offline through discord.py itself (SimCord fakes only Discord's side)."""

from __future__ import annotations

import json
import random

from messages import t
from messages.cubosaurs import card_label
from tests.test_discord import custom_ids, reply_text


async def open_table(env, channel, humans, ais=0, **options):
    """/cubosaurs new, everyone joins, AIs added, Start pressed; returns the live game."""
    creator = humans[0]
    result = await creator.slash(channel, "cubosaurs new", **options)
    assert result.ephemeral
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


async def perform(channel, user, game, seat, action, k, used):
    """One action the way a player sends it: buttons, menus or slash commands, in turn."""
    kind = action["type"]
    msg = channel.last_message
    if kind == "keep":
        if k % 2:
            used.add("keep button")
            return await user.click(msg, label=t("cubosaurs.bot.btn_keep"))
        used.add("keep command")
        return await user.slash(channel, "cubosaurs keep")
    if kind == "pass":
        menu = f"dw:s:{game.id}:{seat}:pass"
        label = card_label(action["card"])
        options = [o for o in select_options(msg, menu) if o.label == label]
        if options and k % 2:
            used.add("pass menu")
            return await user.select(msg, [options[0].value], custom_id=menu)
        used.add("pass command")
        return await user.slash(channel, "cubosaurs pass", card=action["card"])
    if kind == "buy":
        menu = f"dw:s:{game.id}:{seat}:buy"
        if encode(action) in [o.value for o in select_options(msg, menu)] and k % 2:
            used.add("buy menu")
            return await user.select(msg, [encode(action)], custom_id=menu)
        used.add("buy command")
        return await user.slash(channel, "cubosaurs buy", tile=encode(action))
    if kind == "take_token":
        used.add("token button")
        name = game.seats[action["from"]]["name"]
        return await user.click(msg, label=t("cubosaurs.bot.btn_take", player=name))
    raise AssertionError(action)


async def test_three_players_play_a_whole_advanced_game(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cubo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users, advanced=True)
    assert game.options == {"advanced": True, "interactive": True}
    by_seat = {game.seat_of(u.id): u for u in users}
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
        before = game.seq
        r = await perform(channel, by_seat[seat], game, seat, action, k, used)
        assert r.acknowledged
        assert game.seq == before + 1, (action, reply_text(r))
    assert {"keep button", "keep command", "pass menu", "pass command"} <= used
    assert used & {"buy menu", "buy command"}
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


async def test_refusals_are_specific_and_change_nothing(simcord_env):
    env = simcord_env
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
    # passing with a card of a type already in the hand is refused with the reason
    hand_type = game.state.hand[0].split("-")[0]
    same = [c for c in game.state.collections[seat] if c.split("-")[0] == hand_type]
    if same:
        r = await mover.slash(channel, "cubosaurs pass", card=same[0])
        assert t("cubosaurs.error.type_in_hand", type=t(f"cubosaurs.type.{hand_type}")) \
            in reply_text(r)
    r = await mover.slash(channel, "cubosaurs buy", tile="steal")
    assert t("cubosaurs.error.not_advanced") in reply_text(r)
    r = await mover.slash(channel, "cubosaurs pass", card="unicorn")
    assert "unicorn" in reply_text(r)
    assert json.dumps(game.rules.to_json(game.state)) == before and game.seq == seq
    # the menus offer only legal additions, each distinct card once
    menu = f"dw:s:{game.id}:{seat}:pass"
    legal = {card_label(a["card"]) for a in game.rules.legal_actions(game.state, seat)
             if a["type"] == "pass"}
    offered = [o.label for o in select_options(channel.last_message, menu)]
    assert sorted(offered) == sorted(legal)
    assert (menu in custom_ids(channel.last_message)) == bool(legal)


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
    ai_moves = 0
    for _ in range(300):
        if game.status != "active":
            break
        seat = game.awaiting()[0]
        if game.seats[seat].get("ai"):
            before = game.seq
            await env.advance_time(2)
            await env.settle()
            assert game.seq > before
            ai_moves += 1
            continue
        user = ann if seat == 0 else bob
        legal = game.rules.legal_actions(game.state, seat)
        action = next((a for a in legal if a["type"] == "take_token"), {"type": "keep"})
        if action["type"] == "keep":
            r = await user.slash(channel, "cubosaurs keep")
        else:
            r = await user.slash(channel, "cubosaurs token",
                                 **{"from": guild.get_member(game.seats[action["from"]]["id"])
                                    if hasattr(guild, "get_member") else None})
        assert r.acknowledged
    assert game.status == "finished"
    actors = [a.actor for a in await env.bot.store.actions(game.id)]
    assert actors.count("ai:1") > 5 and actors.count("ai:1") + ai_moves >= 5
