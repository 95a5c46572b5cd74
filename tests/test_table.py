"""The table in the channel, offline through discord.py (SimCord): how much it writes and whom
it mentions, buttons bound to the position they were drawn for, card windows that reveal
nothing, refusals that read as sentences, lobby presses at the same moment, seats, timers."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from cogs.bot import DarwinBot
from engine.ai import ai_action
from messages import t
from tests.conftest import ChannelWrites, VirtualClock, flush, make_config, virtual_pacing
from tests.test_discord import (
    custom_ids,
    labels,
    open_table,
    perform,
    public_messages,
    reply_text,
)


def phase_tag(game):
    """A phase of the game as players see it (EVO's phases come back every turn)."""
    def tag():
        if game.get("game") is None or game["game"].state is None:
            return ""
        g = game["game"]
        return f"{getattr(g.state, 'turn', '')}:{g.rules.phase_name(g.state)}"
    return tag


async def play_like_people(env, channel, game, by_seat, stop, think=3.0, perform_=None):
    """Humans think, then act; AI seats and the bot's auto-passes answer by themselves."""
    host = env.bot.host
    perform_ = perform_ or perform
    k = 0
    while game.status == "active" and not stop(game):
        k += 1
        assert k < 4000, "the game does not move on"
        humans = [p for p in game.awaiting() if p in by_seat and not host._auto_passes(game, p)]
        if not humans:
            await env.advance_time(0.5)
            continue
        seat = humans[0]
        await env.advance_time(think)
        if game.status != "active" or seat not in game.awaiting():
            continue
        action = ai_action(game.rules, game.state, seat, "fast")
        seq = game.seq
        r = await perform_(env, channel, by_seat[seat], game, seat, action, k)
        assert game.seq > seq, (action, reply_text(r))
    await flush(env)


def stored(env, channel, message):
    return env.backend.get_message(channel.id, message.id)


async def press_old(env, user, channel, message, components, **which):
    """Press a button of a message as it was drawn earlier (a client still showing it, or a
    retiring edit that never arrived): the bot must judge the press by its own contents."""
    stored(env, channel, message).components = copy.deepcopy(components)
    return await user.click(message, **which)


# --- noise ------------------------------------------------------------------------------------


async def test_a_game_lives_in_few_messages_and_mentions_once_per_phase(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    holder: dict = {}
    writes = ChannelWrites(env, phase_tag(holder))
    game = holder["game"] = await open_table(env, channel, users)
    by_seat = {game.seat_of(u.id): u for u in users}
    await play_like_people(env, channel, game, by_seat, lambda g: g.state.turn > 4)
    posts = writes.posts()
    # four whole turns, two of them with card windows: a few posts per turn, not one per action
    actions = len(await env.bot.store.actions(game.id))
    assert len(posts) <= 4 * 5 + 2, (len(posts), actions)
    assert actions > 3 * len(posts)
    mentions = Counter(writes.mentions())
    assert mentions and max(mentions.values()) == 1, mentions  # once per player per phase
    for post in posts:  # a post may mention only the users it names, and only players
        allowed = {str(u) for u in post["allowed_mentions"].get("users", [])}
        assert allowed <= {str(u.id) for u in users}
        assert post["allowed_mentions"].get("parse", []) == []
    assert writes.max_in_window(5.0) <= 5
    # only the live message has buttons
    history = public_messages(channel)
    with_buttons = [m for m in history if custom_ids(m)]
    assert [m.id for m in with_buttons] == [history[-1].id]


@pytest.mark.simcord()
async def test_ai_seats_never_write_more_than_five_times_in_five_seconds(tmp_path):
    import simcord

    config = make_config(tmp_path, ai_delay=1.5)
    async with simcord.run(DarwinBot(config)) as env:
        virtual_pacing(env)
        writes = ChannelWrites(env)
        guild = env.create_guild()
        channel = guild.create_text_channel("evo")
        ann = guild.add_member(env.create_user("ann"))
        game = await open_table(env, channel, [ann], ais=4)
        await play_like_people(env, channel, game, {game.seat_of(ann.id): ann},
                               lambda g: g.state.turn > 4, think=1.0)
        await env.bot.stop_services()
    assert len(writes.writes) > 20
    assert writes.max_in_window(5.0) <= 5


async def test_ai_seats_that_answer_at_once_ride_in_one_edit(simcord_env, monkeypatch):
    """With no AI delay, the AI seats' moves that follow one another make one write of the
    table, not one each (issue 25: an edit per AI move, each building the table's buttons
    again, was most of the bot's calls and a large part of its time under load); the write
    shows the position they ended at."""
    from cogs.table import TableListener

    env = simcord_env
    env.bot.host.ai_delay = 0.0

    async def at_once(rules, state, seat, level):
        # decided in the loop, not a thread: SimCord's virtual clock may run on while a
        # thread thinks, which would space the AI moves by chance, not by their delay
        return ai_action(rules, state, seat, level)

    monkeypatch.setattr(env.bot.host.ai, "decide", at_once)
    # and the settle long in virtual time: flush() moves the clock on by whole seconds while
    # a commit runs in the store's thread, so "at once" is a stretch with no person's turn
    import cogs.table
    monkeypatch.setattr(cogs.table, "AI_SETTLE", 10.0)
    monkeypatch.setattr(cogs.table, "MAX_SETTLE", 10.0)
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    ann = guild.add_member(env.create_user("ann"))
    # at each write of the table's live message: the game's seq, and whether only AI seats
    # were awaited then
    writes: list[tuple[int, bool]] = []
    write_one = TableListener._write_one

    async def counted(self, table):
        if table.dirty:
            g = table.game
            writes.append((g.seq, g.status == "active" and seat not in g.awaiting()))
        return await write_one(self, table)

    monkeypatch.setattr(TableListener, "_write_one", counted)
    game = await open_table(env, channel, [ann], ais=3)
    seat = game.seat_of(ann.id)
    stretches = 0
    for k in range(40):
        await flush(env)
        if game.status != "active" or game.state.turn > 3:
            break
        if seat not in game.awaiting():
            await env.advance_time(0.5)
            continue
        writes.clear()
        mine = game.seq + 1
        action = ai_action(game.rules, game.state, seat, "fast")
        await perform(env, channel, ann, game, seat, action, k)
        await flush(env)
        after = [a.actor for a in await env.bot.store.actions(game.id, since_seq=mine)]
        if len(after) >= 2 and seat in game.awaiting() and str(ann.id) not in after:
            stretches += 1  # the AI seats moved several times in a row after ann
            # no write while only they were awaited; the table then shows where they ended
            during = [q for q, only_ai in writes if q > mine and only_ai]
            later = [q for q, only_ai in writes if q > mine and not only_ai]
            assert not during and later[-1:] in ([], [game.seq]), (after, writes, mine)
    assert stretches >= 2


async def test_the_table_draws_buttons_for_the_persons_awaited_only(simcord_env):
    """An AI seat's moves are never a person's to press: while only AI seats are awaited the
    table shows no move of theirs (issue 25: drawing them in every press's answer was a
    large part of the bot's time under load), and a person awaited gets theirs."""
    from cogs.table import HandButton

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    ann = guild.add_member(env.create_user("ann"))
    game = await open_table(env, channel, [ann], ais=3)
    seat = game.seat_of(ann.id)
    cog = env.bot.game_cog("evo")
    seen = {"ai": 0, "person": 0}
    for k in range(60):
        await flush(env)
        if game.status != "active" or game.state.turn > 2:
            break
        awaiting = game.awaiting()
        items = cog.table_items(game, "en")
        moves = [i for i in items if not isinstance(i, HandButton)]
        if game.state.window is not None:
            pass  # a card window: one Pass for every hand, whoever is asked
        elif seat not in awaiting:
            seen["ai"] += 1
            assert not moves, (awaiting, [getattr(i, "custom_id", None) for i in moves])
        else:
            seen["person"] += 1
            assert moves and all(f":{game.id}:" in i.custom_id for i in moves)
            action = ai_action(game.rules, game.state, seat, "fast")
            await perform(env, channel, ann, game, seat, action, k)
            continue
        await env.advance_time(0.5)
    assert seen["ai"] and seen["person"], seen


# --- components bound to their position ------------------------------------------------------


async def test_an_old_end_movement_button_does_not_end_a_later_move(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    by_seat = {game.seat_of(u.id): u for u in users}
    end = t("bot.btn_end")

    def moving(turn):
        def stop(g):
            seat = g.awaiting()[0] if g.awaiting() else None
            return (g.state.turn == turn and seat == mover
                    and any(a["type"] == "end" for a in g.rules.legal_actions(g.state, seat)))
        return stop

    mover = game.state.order[0]
    await play_like_people(env, channel, game, by_seat, moving(1))
    old = channel.last_message
    old_buttons = copy.deepcopy(stored(env, channel, old).components)
    assert end in [c.label for row in old.components for c in row.children]
    await play_like_people(env, channel, game, by_seat, moving(2))
    before, seq = json.dumps(game.rules.to_json(game.state)), game.seq
    assert old.id != channel.last_message.id
    r = await press_old(env, by_seat[mover], channel, old, old_buttons, label=end)
    text = reply_text(r)
    assert r.ephemeral and t("bot.stale_position") in text
    assert f"/{channel.last_message.id}" in text  # a link to the live table
    assert game.seq == seq and json.dumps(game.rules.to_json(game.state)) == before
    # the live button still works
    r = await by_seat[mover].click(channel.last_message, label=end)
    assert game.seq == seq + 1


async def test_an_old_quick_bid_button_does_not_bid_on_another_gene(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    by_seat = {game.seat_of(u.id): u for u in users}

    def bidding(turn):
        def stop(g):
            return (g.state.turn == turn and g.state.stage == "bid" and g.awaiting()
                    and g.awaiting()[0] in by_seat and g.state.auction["bids"][0] is None
                    and any(a["type"] == "bid" for a in
                            g.rules.legal_actions(g.state, g.awaiting()[0])))
        return stop

    await play_like_people(env, channel, game, by_seat, bidding(1))
    old = channel.last_message
    bidder = game.awaiting()[0]
    old_buttons = copy.deepcopy(stored(env, channel, old).components)
    free = t("bot.btn_bid_free", gene="").strip()
    bid_id = next(c.custom_id for row in old.components for c in row.children
                  if (c.label or "").endswith(free))
    assert json.loads(bid_id.split(":", 4)[4]) == {"type": "bid", "gene": 0, "amount": 0}
    await play_like_people(env, channel, game, by_seat, bidding(2))
    before, seq = json.dumps(game.rules.to_json(game.state)), game.seq
    r = await press_old(env, by_seat[game.awaiting()[0]], channel, old, old_buttons,
                        custom_id=bid_id)
    assert r.ephemeral and t("bot.stale_position") in reply_text(r)
    assert game.seq == seq and json.dumps(game.rules.to_json(game.state)) == before
    r = await press_old(env, by_seat[bidder], channel, old, old_buttons, custom_id=bid_id)
    assert game.seq == seq


async def test_an_old_keep_button_does_not_keep_the_hand_now_in_play(simcord_env, monkeypatch):
    from tests.test_discord_cubosaurs import fix_seed
    from tests.test_discord_cubosaurs import open_table as open_cubo
    from tests.test_discord_cubosaurs import perform as cubo_perform

    env = simcord_env
    fix_seed(monkeypatch, 3)
    guild = env.create_guild()
    channel = guild.create_text_channel("cubo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob")]
    game = await open_cubo(env, channel, users)
    by_seat = {game.seat_of(u.id): u for u in users}

    async def act(env, channel, user, game, seat, action, k):
        return await cubo_perform(env, channel, user, game, seat, action, k, set())

    await flush(env)
    old = channel.last_message
    keep = t("cubosaurs.bot.btn_keep")
    old_buttons = copy.deepcopy(stored(env, channel, old).components)
    assert keep in [c.label for row in old.components for c in row.children]
    first_hand = list(game.state.hand)
    start = game.seq
    await play_like_people(env, channel, game, by_seat,
                           lambda g: g.seq >= start + 2 and "keep" in {
                               a["type"] for a in g.rules.legal_actions(g.state, g.awaiting()[0])},
                           perform_=act)
    assert game.state.hand != first_hand
    before, seq = json.dumps(game.rules.to_json(game.state)), game.seq
    r = await press_old(env, by_seat[game.awaiting()[0]], channel, old, old_buttons, label=keep)
    assert r.ephemeral and t("bot.stale_position") in reply_text(r)
    assert game.seq == seq and json.dumps(game.rules.to_json(game.state)) == before


async def test_everyone_asked_in_a_card_window_may_answer_from_the_same_drawing(simcord_env):
    """A card window asks every card holder at once (issue 21): the table shows one Pass,
    and each of them pressing it on the table as it was drawn when the window opened is
    accepted, whoever presses first; the table names who is still asked, never what anyone
    answered."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    for user in users:  # the windows wait for the people
        await env.bot.host.set_autopass(channel.id, user.id, "off")
    by_seat = {game.seat_of(u.id): u for u in users}
    await play_like_people(env, channel, game, by_seat,
                           lambda g: g.state.window is not None and len(g.awaiting()) >= 2)
    message = channel.last_message
    drawn = copy.deepcopy(stored(env, channel, message).components)
    asked, seq = game.awaiting(), game.seq
    assert labels(message).count(t("bot.btn_pass")) == 1
    for k, seat in enumerate(reversed(asked)):
        r = await press_old(env, by_seat[seat], channel, message, drawn, label=t("bot.btn_pass"))
        assert t("bot.stale_position") not in reply_text(r), reply_text(r)
        assert game.seq == seq + k + 1
        await flush(env)
        if k + 1 < len(asked):  # who is still asked; nothing of what was answered
            footer = stored(env, channel, channel.last_message).content.splitlines()[-1]
            names = [u.name for s, u in by_seat.items() if s in game.awaiting()]
            assert all(n in footer for n in names) and by_seat[seat].name not in footer


# --- card windows reveal nothing -------------------------------------------------------------


def _public_view(channel, users, game):
    """The channel as anyone sees it, with each player's id replaced by their name (and the
    game's number left out of image names)."""
    out = []
    for m in public_messages(channel):
        text = m.content
        for u in users:
            text = text.replace(str(u.id), u.name)
        labels = [c.label for row in m.components for c in row.children]
        files = [a.filename.replace(f"-{game.id}-", "-#-") for a in m.attachments]
        out.append((text, labels, files))
    return out


async def test_a_held_card_changes_neither_who_is_asked_nor_when(simcord_env, monkeypatch):
    """Two tables that look the same to everyone (one card in seat 1's hand: DÉLUGE at one
    table, ÇA CAILLE at the other) stop for the same players at the same moments and show the
    same messages, while people play the same moves and let the bot pass for them."""
    from tests.test_discord_cubosaurs import fix_seed

    env = simcord_env
    fix_seed(monkeypatch, 21)
    tables = []
    for card in ("deluge", "ca_caille"):
        guild = env.create_guild()
        channel = guild.create_text_channel("evo")
        users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
        game = await open_table(env, channel, users)
        game.state.hands = [[] for _ in game.state.hands]
        game.state.hands[1] = [card]
        tables.append((channel, users, game, {game.seat_of(u.id): u for u in users}))
    host = env.bot.host
    samples: list[list] = [[], []]
    (ca, _, ga, _), (cb, _, gb, _) = tables
    k = 0
    while ga.status == "active" and ga.state.turn <= 4:  # cards are played from turn 3
        k += 1
        assert k < 4000
        asked = [[p for p in g.awaiting() if not host._auto_passes(g, p)]
                 for _, _, g, _ in tables]
        assert asked[0] == asked[1], k
        if not asked[0]:
            await env.advance_time(0.5)
        else:
            seat = asked[0][0]
            action = ai_action(ga.rules, ga.state, seat, "fast")
            if action["type"] == "play":
                action = {"type": "pass"}
            await env.advance_time(3.0)
            for channel, _, game, by_seat in tables:
                await perform(env, channel, by_seat[seat], game, seat, action, k)
        for i, (_, _, game, _) in enumerate(tables):
            samples[i].append((env.now(), game.seq, tuple(game.awaiting()),
                               game.rules.phase_name(game.state)))
        assert samples[0][-1] == samples[1][-1], k
    await flush(env)
    assert "deluge" in ga.state.hands[1] and "ca_caille" in gb.state.hands[1]
    windows = sum(1 for a in await env.bot.store.actions(ga.id) if a.action["type"] == "pass")
    assert windows > 5  # the bot did stop at card windows, at both tables alike
    assert _public_view(ca, tables[0][1], ga) == _public_view(cb, tables[1][1], gb)


# --- refusals ----------------------------------------------------------------------------------


async def test_refusals_read_as_sentences(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    evo_channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, evo_channel, users)
    ann = users[0]
    r = await ann.slash(evo_channel, "evo play", card="unicorn")
    text = reply_text(r)
    assert t("evo.error.unknown_card", card="unicorn") in text and "evo.card." not in text
    r = await ann.slash(evo_channel, "cubosaurs keep")
    text = reply_text(r)
    assert "EVO" in text and "/evo" in text, text
    long = "x" * 6000
    r = await ann.slash(evo_channel, "evo play", card=long)
    text = reply_text(r)
    assert r.acknowledged and 0 < len(text) <= 2000 and "went wrong" not in text
    r = await ann.slash(evo_channel, "evo move", **{"from": long, "to": "A1"})
    assert 0 < len(reply_text(r)) <= 2000
    # the Cubosaurs gene autocomplete of /evo bid in a Cubosaurs channel offers nothing
    cubo = guild.create_text_channel("cubo")
    await ann.slash(cubo, "cubosaurs new")
    assert await ann.autocomplete(cubo, "evo bid", "gene", "") == []
    assert await ann.autocomplete(cubo, "evo play", "card", "") == []
    assert game.seq == 0


async def test_a_card_name_is_accepted_as_any_catalogue_shows_it(simcord_env):
    from engine.evo import cards

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    cog = env.bot.get_cog("Evo")

    class Who:
        def __init__(self, user):
            self.user = type("U", (), {"id": user.id})()

    for text in ("PONDEUSE MUSCLÉE", "pondeuse musclee", "Pondeuse Musclée"):
        action = cog._play_action(Who(users[0]), game, text)
        assert action["card"] == "pondeuse_musclee", text
    for lang in ("it", "fr", "en"):
        name = t("evo.card.ca_caille.name", lang)
        assert cog._play_action(Who(users[0]), game, name.lower())["card"] == "ca_caille"
    assert "pondeuse_musclee" in cards.TIMING


# --- lobby, seats, names ---------------------------------------------------------------------


async def test_lobby_presses_after_start_or_cancel_are_each_answered(simcord_env):
    # (pressed at the same moment, the host serializes them: tests/test_host.py; SimCord
    # delivers one interaction at a time, so here the late press comes from the lobby as the
    # presser's client still showed it)
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy", "dee")]
    await users[0].slash(channel, "evo new")
    lobby = channel.last_message
    await users[1].click(lobby, label="Join")
    await users[2].click(lobby, label="Join")
    drawn = copy.deepcopy(stored(env, channel, lobby).components)
    await users[0].click(lobby, label="Start")
    game = env.bot.host.game_in(channel.id)
    join = await press_old(env, users[3], channel, lobby, drawn, label="Join")
    assert t("bot.error.already_started") in reply_text(join)
    again = await press_old(env, users[0], channel, lobby, drawn, label="Start")
    assert t("bot.error.already_started") in reply_text(again)
    again = await users[0].slash(channel, "evo start")
    assert t("bot.error.already_started") in reply_text(again)
    assert game.status == "active" and len(game.seats) == 3 and game.state.n == 3
    # Cancel, then Start from the same lobby as drawn: answered, nothing started
    await users[0].slash(channel, "evo cancel")
    await users[0].slash(channel, "evo new")
    lobby = channel.last_message
    await users[0].click(lobby, label="Add AI")
    await users[0].click(lobby, label="Add AI")
    drawn = copy.deepcopy(stored(env, channel, lobby).components)
    await users[0].click(lobby, label="Cancel")
    start = await press_old(env, users[0], channel, lobby, drawn, label="Start")
    assert start.acknowledged and reply_text(start)
    assert env.bot.host.game_in(channel.id) is None


async def test_an_ai_seat_can_be_removed_to_make_room(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    await ann.slash(channel, "evo new")
    lobby = channel.last_message
    for _ in range(4):
        await ann.click(lobby, label="Add AI")
    r = await bob.click(lobby, label="Join")
    assert t("bot.error.lobby_full", max=5) in reply_text(r)
    choices = await ann.autocomplete(channel, "evo remove", "player", "AI")
    assert [c["name"] for c in choices][:1] == ["2. AI 1 (AI)"]
    r = await ann.slash(channel, "evo remove", player=choices[0]["value"])
    assert r.ephemeral
    game = env.bot.host.game_in(channel.id)
    assert [s["name"] for s in game.seats] == ["ann", "AI 2", "AI 3", "AI 4"]
    await bob.click(lobby, label="Join")
    assert game.seat_of(bob.id) == 4


async def test_remove_names_a_seat_by_who_sits_there_not_by_its_place(simcord_env):
    """The value the autocomplete offered for "AI 1" still names AI 1 after someone seated
    before it left; a seat that is gone is refused (nobody removed), and an AI seat's id is
    never given to a later AI seat."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    ann, bob, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy"))
    await ann.slash(channel, "evo new")
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Add AI")
    await cy.click(lobby, label="Join")
    game = env.bot.host.game_in(channel.id)
    choices = await ann.autocomplete(channel, "evo remove", "player", "AI")
    ai_value = [c["value"] for c in choices if "AI 1" in c["name"]][0]
    await bob.click(lobby, label="Leave")  # the AI seat moves up one place
    assert [s["name"] for s in game.seats] == ["ann", "AI 1", "cy"]
    r = await ann.slash(channel, "evo remove", player=ai_value)
    assert reply_text(r) == t("bot.ok")
    assert [s["name"] for s in game.seats] == ["ann", "cy"]
    r = await ann.slash(channel, "evo remove", player=ai_value)  # already gone
    assert reply_text(r) == t("bot.error.no_such_seat")
    assert [s["name"] for s in game.seats] == ["ann", "cy"]
    await ann.click(lobby, label="Add AI")
    assert game.seats[-1]["id"] != ai_value  # a new AI seat gets an id of its own
    r = await ann.slash(channel, "evo remove", player=ai_value)
    assert reply_text(r) == t("bot.error.no_such_seat") and len(game.seats) == 3


async def test_a_nickname_that_looks_like_a_mention_mentions_nobody(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    outsider = guild.add_member(env.create_user("outsider"))
    users = [guild.add_member(env.create_user(n))
             for n in ("ann", f"<@{outsider.id}>", "**cy**")]
    writes = ChannelWrites(env)
    game = await open_table(env, channel, users)
    by_seat = {game.seat_of(u.id): u for u in users}
    await play_like_people(env, channel, game, by_seat, lambda g: g.state.turn > 2)
    players = {str(u.id) for u in users}
    for *_, payload in writes.writes:
        mentions = payload.get("allowed_mentions") or {}
        assert {str(u) for u in mentions.get("users", [])} <= players
        assert mentions.get("parse", []) == []
    for message in public_messages(channel):
        assert f"<@{outsider.id}>" not in message.content
        assert outsider.id not in [m.id for m in message.mentions]


# --- timers and DMs --------------------------------------------------------------------------


async def test_a_turn_timer_keeps_its_deadline_across_a_restart(simcord_env, darwin_config):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    await users[0].slash(channel, "evo new", timer=30)
    lobby = channel.last_message
    for user in users[1:]:
        await user.click(lobby, label="Join")
    await users[0].click(lobby, label="Start")
    game = env.bot.host.game_in(channel.id)
    deadline = game.deadline
    assert deadline == pytest.approx(env.now().timestamp() + 30, abs=1)
    await flush(env)
    assert f"<t:{int(deadline)}:R>" in channel.last_message.content
    await env.advance_time(deadline - 10 - env.now().timestamp())  # 20 s in
    await env.bot.stop_services()
    new_bot = DarwinBot(darwin_config, clock=VirtualClock(env))
    try:
        await env.restart_bot(new_bot)
        virtual_pacing(env, new_bot)
        resumed = new_bot.host.game_in(channel.id)
        assert resumed.deadline == deadline
        await env.advance_time(deadline - env.now().timestamp() - 1)
        assert resumed.seq == 0, "the timer does not start again from zero"
        await env.advance_time(2)
        assert resumed.seq >= 1
    finally:
        await new_bot.stop_services()


async def test_games_are_not_offered_in_direct_messages(simcord_env):
    env = simcord_env
    env.create_guild()
    zed = env.create_user("zed")
    offered = zed.available_commands()
    assert not [c for c in offered if c.split()[0] in ("evo", "cubosaurs")], offered



# --- restarts ---------------------------------------------------------------------------------


async def test_a_game_set_aside_after_a_restart_is_announced_in_its_channel(simcord_env,
                                                                           darwin_config):
    """The notice is a sentence (the technical reason stays in the log), sent once the bot is
    ready: a game due at start is loaded before the gateway is up."""
    import sqlite3

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    await flush(env)
    await env.bot.stop_services()
    con = sqlite3.connect(darwin_config["storage"]["database"])
    with con:
        con.execute("UPDATE games SET lobby = '{}' WHERE id = ?", (game.id,))
    con.close()
    new_bot = DarwinBot(darwin_config)
    try:
        await env.restart_bot(new_bot)
        # the game loads when its channel is next used: it is set aside then, and the
        # channel is told; the command goes on in a free channel
        r = await users[0].slash(channel, "evo new")
        await flush(env)
        notices = [m.content for m in public_messages(channel)
                   if m.content == t("bot.game_broken", game=game.id)]
        assert len(notices) == 1 and "KeyError" not in notices[0]
        # issue 25: answered with the new lobby itself
        assert not r.ephemeral and new_bot.host.game_in(channel.id).id != game.id
    finally:
        await new_bot.stop_services()


def test_a_refusal_echoing_a_number_too_long_to_print_is_still_a_sentence():
    """A typed value of any size is echoed safely: an int past str()'s 4,300 digits would
    make the catalogue's formatting raise."""
    from cogs.common import refusal
    from engine import IllegalAction
    from host import HostError

    text = refusal(IllegalAction("bad_count", count=10 ** 5000), "en")
    assert text and len(text) < 2000
    assert refusal(HostError("no_such_seat", seat=10 ** 5000), "en") == t("bot.error.no_such_seat")
