"""Random Mutations on Discord, offline through discord.py itself (SimCord fakes only Discord's
side): a seeded game of three humans and an AI seat played to the final scores through
buttons, menus and slash commands, owed choices answered by a player whose turn it is not."""

from __future__ import annotations

import json

from engine import IllegalAction
from engine.ai import ai_action
from messages import t
from messages.mutations import explain
from tests.conftest import flush
from tests.test_discord import custom_ids, reply_text

OWED = {"redirect": "mimicry", "eat": "eat", "scavenge": "scavenge", "lose": "lose",
        "graze": "graze"}


def fix_seed(monkeypatch, seed: int) -> None:
    """Games started by the Start button draw their seed from os.urandom: make it ``seed``."""
    import host.host

    monkeypatch.setattr(host.host.os, "urandom", lambda n: seed.to_bytes(n, "big"))


def encode(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


async def open_table(env, channel, humans, ais=0, **options):
    """/mutations new, everyone joins, AIs added, Start pressed; returns the live game."""
    creator = humans[0]
    result = await creator.slash(channel, "mutations new", **options)
    assert not result.ephemeral  # issue 25: answered with the lobby itself
    lobby = channel.last_message
    for user in humans[1:]:
        await user.click(lobby, label="Join")
    for _ in range(ais):
        await creator.click(lobby, label="Add AI")
    await creator.click(lobby, label="Start")
    game = env.bot.host.game_in(channel.id)
    assert game is not None and game.status == "active" and game.kind == "mutations"
    return game


def select_values(message, custom_id) -> list[str]:
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id:
                return [o.value for o in child.options]
    return []


def menu_tag(game, action) -> str:
    kind = action["type"]
    if kind == "develop":
        return action["use"]
    if kind in OWED:
        return OWED[kind]
    if kind in ("food", "burrow", "parasite"):
        legal = game.rules.legal_actions(game.state, game.awaiting()[0])
        tokens = [a for a in legal if a["type"] in ("food", "burrow", "parasite")]
        return "token" if len(tokens) <= 25 else kind
    return kind


async def perform(env, channel, user, game, seat, action, k, used):
    """One action the way a player sends it: buttons and menus on odd steps, slash commands
    on even ones (a menu that cannot show the action falls back to the command)."""
    kind = action["type"]
    await flush(env)
    msg = channel.last_message
    by_hand = k % 2 == 1
    if kind == "pass":
        if by_hand:
            used.add("pass button")
            return await user.click(msg, label=t("mutations.bot.btn_pass"))
        used.add("pass command")
        return await user.slash(channel, "mutations pass")
    if kind == "develop" and action["use"] == "species":
        if by_hand or "species button" not in used:  # the button at least once
            used.add("species button")
            return await user.click(msg, label=t("mutations.bot.btn_species"))
        used.add("species command")
        return await user.slash(channel, "mutations species")
    if kind == "dark":
        if by_hand:
            used.add("dark button")
            from messages.mutations import action_label

            label = action_label(action, game.rules.view(game.state, None), game.names())
            return await user.click(msg, label=label)
        used.add("dark command")
        return await user.slash(channel, "mutations dark", play=action["play"])
    name = action["use"] if kind == "develop" else kind
    if by_hand:
        cid = f"dw:s:{game.id}:{game.seq}:{seat}:{menu_tag(game, action)}"
        if encode(action) in select_values(msg, cid):
            used.add(f"{name} menu")
            return await user.select(msg, [encode(action)], custom_id=cid)
    used.add(f"{name} command")
    if kind == "develop":
        return await user.slash(channel, f"mutations {action['use']}", species=encode(action))
    if kind in ("food", "burrow", "parasite"):
        return await user.slash(channel, "mutations token", play=encode(action))
    if kind == "attack":
        return await user.slash(channel, "mutations attack", play=encode(action))
    if kind == "graze":
        return await user.slash(channel, "mutations graze", count=action["count"])
    if kind in ("redirect", "eat", "scavenge", "lose"):
        # typed by number half the time, as a player may
        value = action.get("animal", action.get("target"))
        return await user.slash(channel, "mutations choose",
                                option=str(value) if k % 4 == 0 else encode(action))
    raise AssertionError(action)


async def test_three_humans_and_an_ai_play_a_whole_game(simcord_env, monkeypatch):
    env = simcord_env
    fix_seed(monkeypatch, 4)
    guild = env.create_guild()
    channel = guild.create_text_channel("mutations")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users, ais=1, divergence=True)
    assert game.options == {"divergence": True} and game.seats[3].get("ai")
    by_seat = {game.seat_of(u.id): u for u in users}
    used: set[str] = set()
    owed_elsewhere = []
    checked_autocomplete = False
    k = 0
    while game.status == "active":
        k += 1
        assert k < 600, "the game does not end"
        seat = game.awaiting()[0]
        if seat not in by_seat:  # the AI seat plays by itself
            before = game.seq
            await env.advance_time(2)
            await env.settle()
            assert game.seq > before or game.status != "active"
            continue
        state = game.state
        if state.pending is not None and state.pending["player"] != state.current \
                and state.phase == "feeding":
            owed_elsewhere.append((state.pending["kind"], seat))
            await flush(env)  # asked at once, with a mention, not by a later reminder
            assert f"<@{by_seat[seat].id}>" in channel.last_message.content
        action = ai_action(game.rules, state, seat, "fast")
        if not checked_autocomplete and action["type"] in ("food", "burrow", "parasite"):
            # the autocomplete offers exactly the legal token plays, to the awaited player only
            checked_autocomplete = True
            legal = [encode(a) for a in game.rules.legal_actions(state, seat)
                     if a["type"] in ("food", "burrow", "parasite")]
            offered = [c["value"] for c in await by_seat[seat].autocomplete(
                channel, "mutations token", "play", "")]
            assert sorted(offered) == sorted(legal[:25])
            other = next(u for p, u in by_seat.items() if p != seat)
            assert await other.autocomplete(channel, "mutations token", "play", "") == []
            r = await other.slash(channel, "mutations token", play=encode(action))
            assert "not your turn" in reply_text(r)
        before = game.seq
        r = await perform(env, channel, by_seat[seat], game, seat, action, k, used)
        assert r.acknowledged
        assert game.seq == before + 1, (action, reply_text(r))
    assert checked_autocomplete
    assert {"pass button", "pass command", "species button", "trait menu", "trait command",
            "food menu", "food command"} <= used, used
    # a choice owed by the attacked (or scavenging) player, asked while another player's turn
    assert owed_elsewhere, "no owed choice in this game"
    await flush(env)
    messages = list(channel.history())
    texts = [m.content for m in messages]
    # a table image of each phase that ended, posted with what happened
    images = {a.filename.rsplit("-", 1)[1] for m in messages for a in m.attachments}
    assert {"development.png", "feeding.png", "extinction.png"} <= images, images
    assert t("mutations.event.game_over") in texts[-1]
    assert all(name in texts[-1] for name in ("ann", "bob", "cy", "AI 1"))
    results = await env.bot.store.game_results(game.id)
    assert sorted(r.seat for r in results) == [0, 1, 2, 3] and min(r.rank for r in results) == 1
    assert env.bot.host.game_in(channel.id) is None


async def test_refusals_status_log_and_rules(simcord_env, monkeypatch):
    env = simcord_env
    fix_seed(monkeypatch, 4)
    guild = env.create_guild()
    channel = guild.create_text_channel("mutations")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob")]
    stranger = guild.add_member(env.create_user("eve"))
    game = await open_table(env, channel, users)
    seq = game.seq
    r = await stranger.slash(channel, "mutations pass")
    assert t("bot.error.not_a_player") in reply_text(r)
    seat = game.awaiting()[0]
    mover = next(u for u in users if game.seat_of(u.id) == seat)
    other = next(u for u in users if u is not mover)
    r = await other.slash(channel, "mutations species")
    assert "not your turn" in reply_text(r)
    # an opponent's species is refused with the engine's reason
    theirs = game.state.rows[1 - seat][0]["id"]
    r = await mover.slash(channel, "mutations trait", species=str(theirs))
    assert f"species #{theirs} is not one of your species" in reply_text(r)
    r = await mover.slash(channel, "mutations attack", play="bite")
    assert t("mutations.bot.choose_from_list") in reply_text(r)
    assert game.seq == seq
    # the table offers the development buttons and menus of the awaited player's own species
    await flush(env)
    ids = custom_ids(channel.last_message)
    assert f"dw:s:{game.id}:{game.seq}:{seat}:trait" in ids
    own = {sp["id"] for sp in game.state.rows[seat]}
    offered = [json.loads(v)["species"] for v in select_values(
        channel.last_message, f"dw:s:{game.id}:{game.seq}:{seat}:trait")]
    assert set(offered) == own
    choices = await mover.autocomplete(channel, "mutations trait", "species", "")
    assert {json.loads(c["value"])["species"] for c in choices} == own
    r = await mover.slash(channel, "mutations trait", species=f"#{game.state.rows[seat][0]['id']}")
    assert t("bot.ok") in reply_text(r) and game.seq == seq + 1
    r = await users[1].slash(channel, "mutations status")
    assert r.ephemeral and "turn 1" in reply_text(r) and "ann:" in reply_text(r)
    r = await users[0].slash(channel, "mutations log")
    assert r.ephemeral and "Random Mutations" in reply_text(r)
    for topic, title in (("rule:feeding", "Feeding"), ("carnivore", "Carnivore"),
                         ("Carnivoro obbligato", "Obligate Carnivore"),
                         ("trait:running", "Running")):
        r = await users[0].slash(channel, "mutations rules", topic=topic)
        assert r.response.embeds[0].title.startswith(title), topic
    r = await users[0].slash(channel, "mutations rules", topic="unicorns")
    assert t("mutations.bot.no_rules_topic", topic="unicorns") in reply_text(r)


def test_every_refusal_code_reads_as_a_sentence():
    """Every code the package docstring lists has its own sentence in every language."""
    import re

    import engine.mutations as pkg

    doc = pkg.__doc__.split("Refusal codes")[1]
    codes = set(re.findall(r"``([a-z_]+)``", doc)) - {"engine", "check_shape"}
    assert len(codes) > 35
    for lang in ("en", "it", "fr"):
        for code in codes:
            text = explain(IllegalAction(code, species=3, animal=4, target=5, trait="running",
                                         token="food", choice="eat", action="attack",
                                         phase="feeding", waiting=[0], count=2, max=1, min=2,
                                         cap=2, animals=2, deck=1, option="x", use="x",
                                         play="x", player=0), ["ann"], lang)
            assert "{" not in text and not text.startswith("mutations."), (lang, code, text)
            if code != "bad_action":
                assert text != t("mutations.error.bad_action", lang), (lang, code)
