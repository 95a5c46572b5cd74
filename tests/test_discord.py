"""The Discord layer, offline, through discord.py itself (SimCord fakes only Discord's side).

The real CommandTree, option transformers, autocomplete and persistent DynamicItems run here.
"""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from cogs.bot import DarwinBot
from engine.evo.ai import choose_action
from engine.evo.data import rules_data
from host import GameHost
from messages import t
from tests.conftest import flush, make_config, virtual_pacing

CARD_NAMES = {c: t(f"evo.card.{c}.name") for c in rules_data()["cards"]["deck"]}

# Every game here is dealt from one seed, so a run plays the same games every time (a game's
# seed is otherwise os.urandom's, and a test could pass or fail with it: the restart test
# failed for about 1 seed in 25). With the rules of this writing 43 was such a seed: a long
# auction fills the channel's pacer, so the movement phase's message is still waiting when
# the restart test stops playing. DARWIN_TEST_SEED=N plays other games.
SEED = int(os.environ.get("DARWIN_TEST_SEED", "43"))


@pytest.fixture(autouse=True)
def one_seed(monkeypatch):
    start_game = GameHost.start_game

    async def seeded(self, *args, seed=None, **kwargs):
        return await start_game(self, *args, seed=SEED if seed is None else seed, **kwargs)

    monkeypatch.setattr(GameHost, "start_game", seeded)


def host_of(env):
    return env.bot.host


async def open_table(env, channel, humans, ais=0, **options):
    """/evo new, everyone joins, AIs added, Start pressed; returns the live game."""
    creator = humans[0]
    result = await creator.slash(channel, "evo new", **options)
    assert not result.ephemeral  # issue 25: answered with the lobby itself
    lobby = channel.last_message
    assert lobby.components, "the lobby has buttons"
    for user in humans[1:]:
        await user.click(lobby, label="Join")
    for _ in range(ais):
        await creator.click(lobby, label="Add AI")
    await creator.click(lobby, label="Start")
    game = host_of(env).game_in(channel.id)
    assert game is not None and game.status == "active"
    return game


def reply_text(result) -> str:
    """What the user was told privately (a deferred reply's first followup edits it)."""
    parts = []
    if result.response is not None:
        parts.append(result.response.content or "")
    parts += [f.content or "" for f in result.followups]
    return "\n".join(parts)


def last_table(channel):
    return channel.last_message


def labels(message) -> list[str]:
    return [getattr(child, "label", None) or "" for row in message.components
            for child in getattr(row, "children", [row])]


def custom_ids(message):
    out = []
    for row in message.components:
        for child in getattr(row, "children", [row]):
            cid = getattr(child, "custom_id", None)
            if cid:
                out.append(cid)
    return out


async def perform(env, channel, user, game, seat, action, turn):
    """Send one action the way a player would: slash commands, buttons or menus."""
    kind = action["type"]
    await flush(env)
    msg = last_table(channel)
    if kind == "move":
        r = await user.slash(channel, "evo move", **{"from": action["from"], "to": action["to"]})
    elif kind == "end":
        if turn % 2:
            r = await user.click(msg, label=t("bot.btn_end"))
        else:
            r = await user.slash(channel, "evo end")
    elif kind == "hatch":
        r = await user.slash(channel, "evo hatch", region=action["region"])
    elif kind == "lose":
        select = f"dw:s:{game.id}:{game.seq}:{seat}:lose"
        value = json.dumps(action, separators=(",", ":"), sort_keys=True)
        if select in custom_ids(msg) and turn % 2:
            r = await user.select(msg, [value], custom_id=select)
        else:
            r = await user.slash(channel, "evo lose", regions=" ".join(action["regions"]))
    elif kind == "bid":
        r = await user.slash(channel, "evo bid", gene=str(action["gene"]), amount=action["amount"])
    elif kind == "pass":
        r = await user.click(msg, label=t("bot.btn_pass"))
    elif kind == "play":
        value = json.dumps(action, separators=(",", ":"), sort_keys=True)
        r = await user.slash(channel, "evo play", card=value)
    elif kind == "first":
        label = t("bot.btn_first_go") if action["go"] else t("bot.btn_first_keep")
        r = await user.click(msg, label=label)
    else:  # pragma: no cover
        raise AssertionError(action)
    return r


async def next_asked(env, game):
    """The first awaited seat the bot does not pass for: a seat the bot passes for in a card
    window is left to the bot, and time runs until it has (None when the game ended)."""
    host = host_of(env)
    for _ in range(500):
        if game.status != "active":
            return None
        asked = [p for p in game.awaiting() if not host._auto_passes(game, p)]
        if asked:
            return asked[0]
        await env.advance_time(1.0)
    raise AssertionError("the bot never stops passing")


async def drive_to_end(env, channel, game, users_by_seat, max_actions=2000):
    host = host_of(env)
    count = 0
    while game.status == "active":
        count += 1
        assert count < max_actions, "the game does not end"
        seat = await next_asked(env, game)
        if seat is None:
            break
        action = choose_action(game.rules, game.state, seat, "fast")
        before = game.seq
        r = await perform(env, channel, users_by_seat[seat], game, seat, action, game.state.turn)
        assert r.acknowledged
        assert game.seq > before, (action, reply_text(r))
    await flush(env)
    return host, count


def public_messages(channel):
    return list(channel.history())


async def test_three_players_play_a_whole_game_by_commands_and_buttons(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    by_seat = {game.seat_of(u.id): u for u in users}
    # turn 1 and 2: nobody has played a card; no hand card name may show publicly
    host, actions = await drive_to_end(env, channel, game, by_seat)
    assert game.status == "finished"
    messages = public_messages(channel)
    final = messages[-1].content
    assert t("evo.event.game_over", reason=t("evo.reason.meteorite")) in final
    for name in ("ann", "bob", "cy"):
        assert name in final
    images = [a for m in messages for a in m.attachments]
    assert len(images) >= 6 * 3, "a board image for every phase"
    assert all(a.filename.endswith(".png") for a in images)
    results = await env.bot.store.game_results(game.id)
    assert sorted(r.seat for r in results) == [0, 1, 2]
    assert results and min(r.rank for r in results) == 1
    assert host.game_in(channel.id) is None  # the channel is free again


async def test_no_public_message_shows_a_card_in_hand(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    by_seat = {game.seat_of(u.id): u for u in users}
    while game.status == "active" and game.state.turn < 5:
        seat = await next_asked(env, game)
        if seat is None:
            break
        action = choose_action(game.rules, game.state, seat, "fast")
        await perform(env, channel, by_seat[seat], game, seat, action, game.state.turn)
        # a card played once is public (ENCORE may bring it back to a hand)
        played = {a.action["card"] for a in await env.bot.store.actions(game.id)
                  if a.action["type"] == "play"}
        in_hands = {c for h in game.state.hands for c in h} - played
        for message in public_messages(channel):
            text = message.content + " ".join(
                (e.title or "") + (e.description or "") for e in message.embeds)
            for card in in_hands:
                assert CARD_NAMES[card] not in text, (card, text)
    # a player's own /evo hand is private and lists exactly their cards
    seat = 0
    r = await by_seat[seat].slash(channel, "evo hand")
    assert r.ephemeral
    shown = " ".join(f.name for f in r.response.embeds[0].fields)
    for card in game.state.hands[seat]:
        assert CARD_NAMES[card] in shown


async def test_strangers_and_spectators_are_refused(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    stranger = guild.add_member(env.create_user("eve"))
    game = await open_table(env, channel, users)
    before = json.dumps(game.rules.to_json(game.state))
    seq = game.seq
    r = await stranger.slash(channel, "evo end")
    assert r.ephemeral and t("bot.error.not_a_player") in reply_text(r)
    table = last_table(channel)
    r = await stranger.click(table, label=t("bot.btn_end"))
    assert t("bot.error.not_a_player") in reply_text(r)
    assert all(f.ephemeral for f in r.followups)
    r = await stranger.slash(channel, "evo hand")
    assert r.ephemeral and t("bot.error.not_a_player") in r.response.content
    # a seated player who is not awaited is refused too
    waiting = game.awaiting()[0]
    other = next(u for u in users if game.seat_of(u.id) != waiting)
    r = await other.slash(channel, "evo end")
    assert "not your turn" in reply_text(r)
    # a bad region name is a clear refusal
    mover = next(u for u in users if game.seat_of(u.id) == waiting)
    r = await mover.slash(channel, "evo move", **{"from": "ZZ9", "to": "A1"})
    assert "ZZ9" in reply_text(r)
    assert json.dumps(game.rules.to_json(game.state)) == before and game.seq == seq
    # a stranger cannot start, cancel or join a full table's lobby in another channel
    other_channel = guild.create_text_channel("other")
    await stranger.slash(other_channel, "evo new")
    lobby = other_channel.last_message
    r = await users[0].click(lobby, label="Start")
    assert t("bot.error.not_creator") in reply_text(r)
    r = await users[0].click(lobby, label="Cancel")
    assert host_of(env).game_in(other_channel.id) is not None


async def test_one_game_per_channel(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(channel, "evo new")
    r = await ann.slash(channel, "evo new")
    assert r.ephemeral and t("bot.error.channel_busy") in r.response.content


async def test_restart_mid_game_resumes_and_old_buttons_work(simcord_env, darwin_config):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    by_seat = {game.seat_of(u.id): u for u in users}
    # play into a movement phase with an "End movement" button on the table
    while True:
        seat = await next_asked(env, game)
        legal = game.rules.legal_actions(game.state, seat)
        if any(a["type"] == "end" for a in legal) and game.state.turn >= 2:
            break
        action = choose_action(game.rules, game.state, seat, "fast")
        await perform(env, channel, by_seat[seat], game, seat, action, 0)
    # The movement phase's new message may still wait for a pacer slot on the virtual clock
    # (a long auction took the channel's 5 writes in 5 s): the table is read once every
    # pending write is made, or it would be the auction's message, about to lose its buttons.
    await flush(env)
    old_table = last_table(channel)
    assert t("bot.btn_end") in labels(old_table), labels(old_table)
    state_before = game.rules.to_json(game.state)
    await env.bot.stop_services()  # the old process is gone: no timers, no connection
    new_bot = DarwinBot(darwin_config)
    try:
        await env.restart_bot(new_bot)
        virtual_pacing(env, new_bot)  # its table writes and timers on virtual time too
        # it waits for a person: it stays in the store until its channel is used
        assert host_of(env).game_in(channel.id) is None
        assert await host_of(env).ensure_loaded(channel.id) is not None
        resumed = host_of(env).game_in(channel.id)
        assert resumed is not game and resumed.rules.to_json(resumed.state) == state_before
        r = await by_seat[seat].click(old_table, label=t("bot.btn_end"))
        # nothing refused (the only private word may be the offer to take the move back)
        assert all(f.content == t("community.undo.offer") for f in r.followups), reply_text(r)
        assert resumed.seq == game.seq + 1
        await flush(env)
    finally:
        await new_bot.stop_services()  # SimCord detaches bots without closing them


async def test_concurrent_presses_apply_once(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    by_seat = {game.seat_of(u.id): u for u in users}
    seat = game.awaiting()[0]
    host = host_of(env)
    seq = game.seq
    results = await asyncio.gather(
        host.act(channel.id, by_seat[seat].id, {"type": "end"}),
        host.act(channel.id, by_seat[seat].id, {"type": "end"}),
        return_exceptions=True)
    ok = [r for r in results if not isinstance(r, Exception)]
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(ok) == 1 and len(errors) == 1
    assert getattr(errors[0], "code", None) == "not_your_turn"
    assert game.seq == seq + 1
    assert len(await env.bot.store.actions(game.id)) == 1


@pytest.mark.simcord()
async def test_ai_seats_and_turn_timer_finish_an_untouched_game(tmp_path):
    import simcord

    config = make_config(tmp_path, turn_timer=30, ai_delay=2.0)
    async with simcord.run(DarwinBot(config)) as env:
        virtual_pacing(env)  # AI delays, auto-passes and the timer on virtual time
        guild = env.create_guild()
        channel = guild.create_text_channel("evo")
        ann = guild.add_member(env.create_user("ann"))
        await ann.slash(channel, "evo new", timer=30)
        lobby = channel.last_message
        await ann.click(lobby, label="Add AI")
        await ann.click(lobby, label="Add AI")
        await ann.click(lobby, label="Start")
        game = env.bot.host.game_in(channel.id)
        steps = 0
        while game.status == "active":
            steps += 1
            assert steps < 3000
            await env.advance_time(31)
        texts = [m.content for m in channel.history()]
        await env.bot.stop_services()
        assert any(t("bot.timed_out", player="ann") in x for x in texts)
        assert t("evo.event.game_over", reason=t("evo.reason.meteorite")) in texts[-1]


async def test_board_is_private_and_drawn_once_per_position(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, users)
    cog = env.bot.get_cog("Evo")
    first = await users[0].slash(channel, "evo board")
    second = await users[1].slash(channel, "evo board")
    for r in (first, second):
        assert r.ephemeral
        files = [a for m in ([r.response] if r.response else []) + r.followups
                 for a in m.attachments]
        assert [a.filename for a in files] == ["board.png"]
    assert cog._boards[game.id, "en"][0] == game.seq  # one drawing served both


async def test_interactions_are_freed_without_the_collector(simcord_env):
    """Issue 25: a real bot freezes what lives (ops/memory.py), and a frozen cycle is never
    freed. Once its handler has ended an interaction is in no cycle (cogs/common.py let_go,
    ops/interactions.py), so reference counting alone frees it with its message, member
    and data: here with the collector off. (The tables and lobbies keep slim copies, without
    their data, to edit through their tokens.) The views sent privately are emptied once
    sent (cogs/common.py spent): no cycle of a view and its buttons either, nor of an image
    sent and its buffer (cogs/common.py Picture)."""
    import gc
    import io

    import discord

    def originals() -> int:
        return sum(type(o) is discord.Interaction and hasattr(o, "data")
                   for o in gc.get_objects())

    def views() -> int:
        return sum(isinstance(o, discord.ui.View) for o in gc.get_objects())

    def buffers() -> int:  # the images sent (cogs/common.py Picture)
        return sum(type(o) is io.BytesIO for o in gc.get_objects())

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("evo")
    users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    gc.collect()
    before, views_before, buffers_before = originals(), views(), buffers()
    gc.disable()
    try:
        game = await open_table(env, channel, users)
        for _ in range(3):
            seat = game.awaiting()[0]
            user = next(u for u in users if game.seat_of(u.id) == seat)
            await user.slash(channel, "evo hand")
            await user.click(last_table(channel), custom_id=custom_ids(last_table(channel))[0])
        await flush(env)
        await asyncio.sleep(0)
        assert game.seq >= 3 and originals() == before
        assert views() <= views_before + 1  # the live table's; the private answers' emptied
        assert buffers() == buffers_before  # every board and hand sent, freed
    finally:
        gc.enable()
