"""Undo on Discord for EVO and Random Mutations (Cubosaurs and Climate have theirs in
test_discord_community.py and test_discord_climate.py): people play by the same commands,
buttons and menus as in those games' Discord tests; a move that reveals nothing is answered
with a private Undo button that takes it back, one that rolled a die, drew or turned a card is
not, and /darwin undo says why."""

from __future__ import annotations

import json

from engine.ai import ai_action
from messages import t
from tests import test_discord as evo
from tests import test_discord_mutations as mutations
from tests.conftest import flush
from tests.test_discord import custom_ids, reply_text


def recording(monkeypatch, host) -> list:
    """Every outcome the host returns, in order (the cogs call ``host.act``)."""
    outcomes: list = []
    act = host.act

    async def recorded(*args, **kwargs):
        outcome = await act(*args, **kwargs)
        outcomes.append(outcome)
        return outcome

    monkeypatch.setattr(host, "act", recorded)
    return outcomes


def undo_button(result):
    """The private Undo button of a reply (None when the reply offers none)."""
    for message in [result.response, *result.followups]:
        if message is None:
            continue
        target = getattr(message, "message", None) or message
        for cid in custom_ids(target):
            if cid.startswith("dw:u:"):
                return target, cid
    return None


def dump(game) -> str:
    return json.dumps(game.rules.to_json(game.state), sort_keys=True)


def revealing(outcome) -> str | None:
    for ev in outcome.events:
        if ev.get("die") is not None or ev["type"] == "climate":
            return "die"
        if ev["type"] == "card_drawn":
            return "card"
    return "card" if outcome.action["type"] == "develop" else None  # a Mutations card turned


async def play_until_both(env, channel, game, users, outcomes, perform):
    """People play (each a human seat) until one move was taken back with its Undo button and
    a die and a card were revealed by a person's move, refused by /darwin undo."""
    seen: set[str] = set()
    k = 0
    while not {"undone", "die", "card"} <= seen:
        assert game.status == "active" and k < 3000, seen
        k += 1
        seat = await evo.next_asked(env, game)
        assert seat is not None, f"the game ended first: {seen}"
        user = users[seat]
        action = ai_action(game.rules, game.state, seat, "fast")
        before, count = dump(game), len(outcomes)
        r = await perform(env, channel, user, game, seat, action, k)
        assert len(outcomes) == count + 1, reply_text(r)
        outcome = outcomes[-1]
        offer = undo_button(r)
        if outcome.undoable and offer and "undone" not in seen:
            message, cid = offer
            seq = game.seq
            r2 = await user.click(message, custom_id=cid)
            assert t("community.undo.done") in reply_text(r2)
            assert game.seq == seq + 1 and dump(game) == before
            seen.add("undone")
            continue
        kind = revealing(outcome)
        if kind and outcome.seat == seat and game.status == "active":
            assert not outcome.undoable and offer is None
            seq = game.seq
            r2 = await user.slash(channel, "darwin undo")
            assert reply_text(r2) == t("bot.undo.refused.revealed")
            assert game.seq == seq
            seen.add(kind)
    await flush(env)
    return seen


async def table_of_three(env, monkeypatch, kind: str, seed: int, open_table):
    """Ann, Bob and Cy at a started table of ``kind`` (seeded); who sits where, and the
    host's outcomes recorded from now on."""
    mutations.fix_seed(monkeypatch, seed)
    guild = env.create_guild()
    channel = guild.create_text_channel(kind)
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")]
    game = await open_table(env, channel, people)
    users = {game.seat_of(u.id): u for u in people}
    return channel, game, users, recording(monkeypatch, env.bot.host)


async def test_evo_undo_a_move_refuse_a_die_and_a_card(simcord_env, monkeypatch):
    env = simcord_env
    channel, game, users, outcomes = await table_of_three(env, monkeypatch, "evo", 7,
                                                          evo.open_table)

    async def perform(env, channel, user, game, seat, action, k):
        return await evo.perform(env, channel, user, game, seat, action, k)

    seen = await play_until_both(env, channel, game, users, outcomes, perform)
    assert seen == {"undone", "die", "card"}
    undo_rows = [a for a in await env.bot.store.actions(game.id) if a.action["type"] == "undo"]
    assert len(undo_rows) == 1  # recorded in the log, so replays stay exact


async def test_mutations_undo_a_token_refuse_a_development_and_the_climate_dice(simcord_env,
                                                                                 monkeypatch):
    env = simcord_env
    channel, game, users, outcomes = await table_of_three(env, monkeypatch, "mutations", 11,
                                                          mutations.open_table)
    used: set[str] = set()

    async def perform(env, channel, user, game, seat, action, k):
        return await mutations.perform(env, channel, user, game, seat, action, k, used)

    seen = await play_until_both(env, channel, game, users, outcomes, perform)
    assert seen == {"undone", "die", "card"}


async def test_undos_in_a_row_are_limited_and_counted_on_one_table_line(simcord_env,
                                                                          monkeypatch):
    """Move, undo, move, undo...: the table shows one line that counts one player's undos in a
    row (the moves taken back leave it), and after UNDO_LIMIT of them the next is refused
    until another seat has moved; then that player may take a move back again."""
    from host.host import UNDO_LIMIT

    env = simcord_env
    channel, game, users, outcomes = await table_of_three(env, monkeypatch, "evo", 7,
                                                          evo.open_table)

    async def play_until_undoable(seat_wanted=None, other_first=False):
        moved = set()
        for k in range(3000):
            seat = await evo.next_asked(env, game)
            action = ai_action(game.rules, game.state, seat, "fast")
            await evo.perform(env, channel, users[seat], game, seat, action, k)
            moved.add(seat)
            done = outcomes[-1].undoable and outcomes[-1].seat == seat
            if done and (seat_wanted is None or seat == seat_wanted) \
                    and (not other_first or moved - {seat}):
                return seat, action
        raise AssertionError("no undoable move")

    seat, action = await play_until_undoable()
    user, name = users[seat], game.names()[seat]
    for count in range(1, UNDO_LIMIT + 1):
        r = await user.slash(channel, "darwin undo")
        assert t("community.undo.done") in reply_text(r)
        await flush(env)
        live = channel.last_message.content
        one = t("bot.undo.done", player=name)
        many = t("bot.undo.done_many", player=name, count=count)
        assert live.count(one if count == 1 else many) == 1, live
        assert count == 1 or one not in live
        await evo.perform(env, channel, user, game, seat, action, count)
        assert outcomes[-1].undoable
    seq = game.seq
    r = await user.slash(channel, "darwin undo")
    assert reply_text(r) == t("bot.undo.refused.limit", limit=UNDO_LIMIT)
    assert game.seq == seq
    # another seat moves; then this player's next undoable move can be taken back again
    await play_until_undoable(seat_wanted=seat, other_first=True)
    r = await user.slash(channel, "darwin undo")
    assert t("community.undo.done") in reply_text(r)
