"""Discord's global budget (issue 25): a press on the live table is answered by editing that
message in the interaction's own answer (UPDATE_MESSAGE, an interaction endpoint), later
edits of it go through the press's token, and only what nothing else can do is a channel call.
Offline through discord.py (SimCord); ChannelWrites(channel_only=True) sees the channel calls
only."""

from __future__ import annotations

import copy

from simcord.results import to_discord_message

from tests.conftest import ChannelWrites, flush
from tests.test_discord_cubosaurs import fix_seed, open_table


def custom_ids(message) -> list[str]:
    """The custom ids of a stored message's components (SimCord's backend: plain dicts)."""
    out, rows = [], list(message.components or [])
    while rows:
        c = rows.pop(0)
        if c.get("custom_id"):
            out.append(c["custom_id"])
        rows.extend(c.get("components") or [])
    return out


def live_message(env, channel, game):
    table = env.bot.listener.tables[game.id]
    return env.backend.get_message(channel.id, table.live_id), table


async def awaited_human(env, game, seat, limit=60):
    for _ in range(limit):
        if game.status != "active" or seat in game.awaiting():
            return
        await env.advance_time(0.5)
    raise AssertionError("the person is never awaited")


def act_button(message, game):
    return next(c for c in custom_ids(message) if c.startswith(f"dw:a:{game.id}:{game.seq}:"))


SEED = 3


async def start(env, monkeypatch, ais=1):
    fix_seed(monkeypatch, SEED)  # the same game every run
    guild = env.create_guild()
    channel = guild.create_text_channel("cubes")
    ann = guild.add_member(env.create_user("ann"))
    game = await open_table(env, channel, [ann], ais=ais)
    seat = game.seat_of(ann.id)
    await awaited_human(env, game, seat)
    await flush(env)
    return channel, ann, game, seat


async def press_live(env, channel, user, game):
    stored, _ = live_message(env, channel, game)
    message = to_discord_message(env, stored)
    return await user.click(message, custom_id=act_button(stored, game))


def kind_of(result) -> str:
    return str(result._interaction.response_kind)


async def test_a_press_on_the_live_table_is_one_update_and_no_channel_call(simcord_env, monkeypatch):
    env = simcord_env
    channel, ann, game, seat = await start(env, monkeypatch)
    writes = ChannelWrites(env, channel_only=True)
    before = game.seq
    stored, table = live_message(env, channel, game)
    live = stored.id
    r = await press_live(env, channel, ann, game)
    assert kind_of(r) == "update", r  # type 7: the move and its table in one exempt call
    assert game.seq > before
    await flush(env)
    # the AI's reply came later: the press's token edited the same message again
    assert table.live_id == live or writes.posts(), "a post only when a new message is due"
    assert not [w for w in writes.writes if w[1] == "PATCH"], writes.writes
    stored = env.backend.get_message(channel.id, live)
    if table.live_id == live and game.status == "active":
        # what the message shows is the game now (its buttons bound to the latest position)
        assert all(f":{game.seq}:" in c for c in custom_ids(stored) if c.startswith("dw:a:"))


async def test_the_writer_edits_through_the_last_press(simcord_env, monkeypatch):
    env = simcord_env
    channel, ann, game, seat = await start(env, monkeypatch)
    listener = env.bot.listener
    writes = ChannelWrites(env, channel_only=True)
    for _ in range(6):
        await awaited_human(env, game, seat)
        if game.status != "active":
            break
        await flush(env)
        stored, table = live_message(env, channel, game)
        if not any(c.startswith(f"dw:a:{game.id}:{game.seq}:") for c in custom_ids(stored)):
            break
        await press_live(env, channel, ann, game)
        await flush(env)
        # the live message, when pressed, has its editor: a later edit is no channel call
        if table.live_id == stored.id:
            assert stored.id in table.editors
            # kept slim: the token and what an edit needs, not the pressed message's objects
            assert not hasattr(table.editors[stored.id][0], "message")
    patches = [w for w in writes.writes if w[1] == "PATCH"]
    # channel edits only for messages nobody pressed (a retired one's last text, at most)
    assert len(patches) <= len(writes.posts()), (patches, writes.posts())
    assert listener.idle()


async def test_a_move_and_the_ai_reply_within_the_pacers_delay_make_one_edit(simcord_env, monkeypatch):
    env = simcord_env
    channel, ann, game, seat = await start(env, monkeypatch)
    listener = env.bot.listener
    stored, table = live_message(env, channel, game)
    table.editors.clear()  # nobody pressed: edits are channel calls, counted below
    writes = ChannelWrites(env, channel_only=True)
    for _ in range(5):  # the channel's five writes of the window are taken
        listener.pacer.note(channel.id)
    before = game.seq
    r = await ann.slash(channel, "cubosaurs keep")
    assert r.acknowledged
    await env.advance_time(1.5)  # the AI seat answers (AI delay 1 s) while the writer waits
    assert game.seq >= before + 1
    moved = game.seq
    await flush(env)
    patches = [w for w in writes.writes if w[1] == "PATCH"]
    posts = writes.posts()
    assert moved > before + 1 and not posts, (moved, before, posts)  # the AI replied
    assert len(patches) == 1, patches  # and its reply rode in the same edit


async def test_a_press_on_an_old_message_does_not_edit_the_live_one(simcord_env, monkeypatch):
    env = simcord_env
    channel, ann, game, seat = await start(env, monkeypatch)
    stored, table = live_message(env, channel, game)
    first = stored.id
    for _ in range(40):  # play until the table has moved to a new message
        await awaited_human(env, game, seat)
        await flush(env)
        stored, table = live_message(env, channel, game)
        if stored.id != first or game.status != "active":
            break
        old, old_button = copy.deepcopy(stored.components), act_button(stored, game)
        await press_live(env, channel, ann, game)
        await flush(env)
    assert game.status == "active" and table.live_id != first, "no new message"
    live = env.backend.get_message(channel.id, table.live_id)
    live_content, live_components = live.content, copy.deepcopy(live.components)
    # a client still showing the first message's buttons presses one of them
    env.backend.get_message(channel.id, first).components = old
    r = await ann.click(to_discord_message(env, env.backend.get_message(channel.id, first)),
                        custom_id=old_button)
    assert kind_of(r) != "update"
    assert r.response is not None and r.response.ephemeral  # "drawn for an earlier moment"
    await flush(env)
    live = env.backend.get_message(channel.id, table.live_id)
    assert (live.content, live.components) == (live_content, live_components)
    assert env.backend.get_message(channel.id, first).components == old  # untouched too


async def test_a_press_that_starts_a_new_message_retires_the_old_one_in_its_answer(simcord_env, monkeypatch):
    env = simcord_env
    channel, ann, game, seat = await start(env, monkeypatch)
    listener = env.bot.listener
    for _ in range(40):
        await awaited_human(env, game, seat)
        if game.status != "active":
            break
        await flush(env)
        stored, table = live_message(env, channel, game)
        if not any(c.startswith(f"dw:a:{game.id}:{game.seq}:") for c in custom_ids(stored)):
            break
        writes = ChannelWrites(env, channel_only=True)
        r = await press_live(env, channel, ann, game)
        await flush(env)
        if table.live_id != stored.id:
            # a new live message was posted: the pressed one lost its buttons in the
            # press's own answer, not by a channel edit, and the new one is the press's
            # followup (an interaction endpoint), not a channel post
            assert kind_of(r) == "update"
            assert not env.backend.get_message(channel.id, stored.id).components
            assert not writes.writes, writes.writes
            assert table.live_id in env.backend.interaction_by_token(
                r._interaction.token).followup_ids
            assert table.editors[table.live_id][2] is False  # edited as that followup
            assert listener.idle()
            return
    raise AssertionError("no press started a new message")


async def test_a_press_whose_edit_fails_leaves_the_table_to_the_writer(simcord_env, monkeypatch):
    import discord

    env = simcord_env
    channel, ann, game, seat = await start(env, monkeypatch)
    stored, table = live_message(env, channel, game)

    async def refused(self, **kwargs):
        raise discord.HTTPException(type("R", (), {"status": 500, "reason": "x"})(), "down")

    monkeypatch.setattr(discord.InteractionResponse, "edit_message", refused)
    stored = copy.deepcopy(stored)
    writes = ChannelWrites(env, channel_only=True)
    before = game.seq
    r = await press_live(env, channel, ann, game)
    assert game.seq > before and r.acknowledged  # the move stands, silently acknowledged
    await flush(env)
    # the writer showed the move instead (through the press's token: it was deferred)
    after = env.backend.get_message(channel.id, stored.id)
    assert after.content != stored.content or writes.posts()
    assert not table.holds and env.bot.listener.idle()


async def test_the_opening_is_no_channel_call(simcord_env, monkeypatch):
    """/new is answered with the lobby itself, a slash command's change edits the lobby
    through that interaction, and the first table is the Start press's followup (mentioning
    the humans awaited); not one channel call from the lobby to the first table."""
    env = simcord_env
    fix_seed(monkeypatch, SEED)
    guild = env.create_guild()
    channel = guild.create_text_channel("cubes")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    channel_calls = ChannelWrites(env, channel_only=True)
    every = ChannelWrites(env)
    r = await ann.slash(channel, "cubosaurs new")
    assert kind_of(r) == "message" and not r.ephemeral
    lobby = channel.last_message
    game = env.bot.host.game_in(channel.id)
    assert game.lobby["messages"]["lobby"] == lobby.id
    r = await bob.slash(channel, "cubosaurs join")  # the lobby is edited through /new's token
    assert r.ephemeral
    await flush(env)
    assert "bob" in str(env.backend.get_message(channel.id, lobby.id).embeds)
    await ann.click(lobby, label="Add AI")
    start = await ann.click(lobby, label="Start")
    assert kind_of(start) == "update"
    await flush(env)
    table = env.bot.listener.tables[game.id]
    assert table.live_id in env.backend.interaction_by_token(
        start._interaction.token).followup_ids
    assert not channel_calls.writes, channel_calls.writes
    mentioned = {u for u, _ in every.mentions()}
    assert str(bob.id) in mentioned or game.seat_of(bob.id) not in game.awaiting()


async def test_a_post_whose_followup_fails_is_a_channel_post(simcord_env, monkeypatch):
    """The press's token expired (or Discord refused the followup): the table's new message
    is a channel post, and the game goes on."""
    import discord

    env = simcord_env
    fix_seed(monkeypatch, SEED)
    real_send = discord.Webhook.send

    async def refused(self, *args, **kwargs):
        if kwargs.get("ephemeral"):
            return await real_send(self, *args, **kwargs)
        raise discord.HTTPException(type("R", (), {"status": 401, "reason": "x"})(),
                                    "Invalid Webhook Token")

    monkeypatch.setattr(discord.Webhook, "send", refused)
    guild = env.create_guild()
    channel = guild.create_text_channel("cubes")
    ann = guild.add_member(env.create_user("ann"))
    writes = ChannelWrites(env, channel_only=True)
    game = await open_table(env, channel, [ann], ais=1)
    await flush(env)
    table = env.bot.listener.tables[game.id]
    assert table.live_id is not None and len(writes.posts()) == 1  # the first table
    assert table.poster is None and env.bot.listener.idle()


async def test_a_poster_past_its_time_is_not_used(simcord_env, monkeypatch):
    """A press older than EDITOR_SECONDS posts nothing: Discord's 15 minutes would be over."""
    env = simcord_env
    channel, ann, game, seat = await start(env, monkeypatch)
    listener = env.bot.listener
    table = listener.tables[game.id]
    assert table.poster is not None
    table.poster = (table.poster[0], listener.pacer.now() - 1.0)
    writes = ChannelWrites(env, channel_only=True)
    listener._new_message(table)
    table.dirty = True
    listener._wake(table)
    await flush(env)
    assert len(writes.posts()) == 1 and table.poster is None
