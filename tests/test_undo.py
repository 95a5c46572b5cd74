"""Undo at the host: a player takes back their own last move while nothing was revealed.

For every game an allowed undo (the state equals the one before the move, in memory, in the
store and after a restart) and refused ones (a die rolled, a card drawn or turned, another
player acted, an AI's or a timer's step, nothing to take back); the undo is an entry of the
action log, and replaying a log with undos gives the stored state.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from engine import Seat
from engine.ai import ai_action
from host import GameHost, HostError
from host.replay import replay_state, replay_states, seat_actions
from messages import describe
from store import Store
from tests.test_host import FakeClock, Recorder, settle


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(str(tmp_path / "undo.sqlite3"))
    yield s
    await s.close()


def make_host(store, clock=None, **kw) -> tuple[GameHost, Recorder]:
    rec = Recorder()
    host = GameHost(store, clock=clock or FakeClock(), listener=rec, ai_delay=1.0, **kw)
    return host, rec


NAMES = ["Ann", "Bob", "Cy", "Dee"]


async def humans(host, kind, players=3, seed=5, channel="c1", ai=0, timer=None, **options):
    """A started game of ``players`` people (and ``ai`` AI seats after them)."""
    await host.open_lobby("g", channel, kind, "u0", NAMES[0], options=options, timer=timer)
    for i in range(1, players):
        await host.join(channel, f"u{i}", NAMES[i])
    for _ in range(ai):
        await host.add_ai(channel, "u0")
    await host.start_game(channel, "u0", False, seed=seed)
    return host.game_in(channel)


def user(game, seat: int) -> str:
    return game.seats[seat]["id"]


def dump(game) -> dict:
    return json.loads(json.dumps(game.rules.to_json(game.state)))


async def drive(host, game, stop, limit: int = 3000):
    """The people play (the fast AI's choices, each through ``host.act``) until ``stop(outcome)``;
    that outcome and the state's JSON just before it."""
    rules = game.rules
    for _ in range(limit):
        assert game.status == "active", "the game ended first"
        seat = next(p for p in game.awaiting() if not game.seats[p].get("ai"))
        before = dump(game)
        action = ai_action(rules, game.state, seat, "fast")
        outcome = await host.act(game.channel_id, user(game, seat), action)
        if stop(outcome):
            return outcome, before
    raise AssertionError("not reached")


async def refused(host, game, seat: int, **kw) -> str:
    seq, state = game.seq, dump(game)
    with pytest.raises(HostError) as err:
        await host.undo(game.channel_id, user(game, seat), **kw)
    assert err.value.code == "cannot_undo"
    assert game.seq == seq and dump(game) == state  # nothing changed
    return err.value.params["reason"]


async def stored_state(store, game) -> dict:
    return json.loads((await store.get_game(game.id)).state)


async def replayed(store, game) -> dict:
    """The state that the stored seed and action log (undo entries included) lead to."""
    seats = [Seat(s["id"], s["name"]) for s in game.seats]
    rows = await store.actions(game.id)
    state = replay_state(game.rules, seats, game.lobby["seed"], game.options,
                         seat_actions(rows, seats))
    return json.loads(json.dumps(game.rules.to_json(state)))


async def taken_back(host, store, rec, game, outcome, before) -> None:
    """``outcome``'s player takes it back: the state before it everywhere, and one log entry."""
    seat = outcome.seat
    assert outcome.undoable and host.can_undo(game, seat)
    assert all(not host.can_undo(game, p) for p in range(len(game.seats)) if p != seat)
    seq = game.seq
    undo = await host.undo(game.channel_id, user(game, seat), expected_seq=outcome.seq)
    assert undo.action == {"type": "undo"} and len(undo.events) == 1
    assert undo.events[0]["type"] == "undo" and undo.events[0]["player"] == seat
    assert undo.snapshots == [] and rec.outcomes[-1] is undo and undo.seq == game.seq == seq + 1
    assert dump(game) == before
    assert await stored_state(store, game) == before
    last = (await store.actions(game.id))[-1]
    assert (last.seq, last.actor, last.action) == (seq + 1, user(game, seat), {"type": "undo"})
    assert await replayed(store, game) == before
    assert not host.can_undo(game, seat)
    assert host.undo_refusal(game, seat) == "nothing"  # one move back, not two


# --- EVO ----------------------------------------------------------------------------------------


async def test_evo_a_move_taken_back_everywhere_and_after_a_restart(store):
    host, rec = make_host(store)
    game = await humans(host, "evo")
    outcome, before = await drive(host, game, lambda o: o.action["type"] == "move")
    assert outcome.undoable
    await taken_back(host, store, rec, game, outcome, before)
    assert rec.outcomes[-1].events == [{"type": "undo", "player": outcome.seat}]
    names = game.names()
    assert describe("evo", rec.outcomes[-1].events[0], names) == \
        f"{names[outcome.seat]} took back their last move."
    assert describe("evo", {"type": "undo", "player": 0}, names, "fr").startswith("Ann a repris")
    # a restart loads the restored state, and the log is exact
    await host.close()
    host2, _ = make_host(store)
    again = await host2.ensure_loaded(game.channel_id)
    assert dump(again) == before and again.seq == game.seq
    assert host2.undo_refusal(again, outcome.seat) == "nothing"
    # the same player plays on from there
    seat = again.awaiting()[0]
    await host2.act(again.channel_id, user(again, seat),
                    ai_action(again.rules, again.state, seat, "fast"))
    assert await replayed(store, again) == await stored_state(store, again)
    await host2.close()


@pytest.mark.parametrize("what", ["die", "card_drawn", "card_played"])
async def test_evo_a_die_roll_or_a_card_drawn_or_played_cannot_be_taken_back(store, what):
    host, _ = make_host(store)
    game = await humans(host, "evo", seed=7)

    def revealing(outcome) -> bool:
        if what == "die":
            return any("die" in ev and ev["die"] is not None for ev in outcome.events)
        return any(ev["type"] == what for ev in outcome.events)

    outcome, _ = await drive(host, game, revealing)
    assert not outcome.undoable and not host.can_undo(game, outcome.seat)
    assert await refused(host, game, outcome.seat) == "revealed"
    await host.close()


async def test_someone_acted_since_and_not_your_move(store):
    host, _ = make_host(store)
    game = await humans(host, "evo")
    first, _ = await drive(host, game, lambda o: True)
    a = first.seat
    second, _ = await drive(host, game, lambda o: o.seat != a)
    b = second.seat
    c = next(p for p in range(3) if p not in (a, b))
    assert await refused(host, game, a) == "acted_since"
    assert await refused(host, game, c) == "not_yours"
    with pytest.raises(HostError) as err:
        await host.undo(game.channel_id, "stranger")
    assert err.value.code == "not_a_player"
    await host.close()


async def test_nothing_to_take_back_and_a_stale_undo_button(store):
    host, rec = make_host(store)
    game = await humans(host, "evo")
    assert [host.undo_refusal(game, p) for p in range(3)] == ["nothing"] * 3
    moves = []

    def twice_in_a_row(outcome) -> bool:  # a player's second move in a row, undoable
        moves.append(outcome)
        return len(moves) > 1 and moves[-2].seat == outcome.seat and outcome.undoable

    second, before = await drive(host, game, twice_in_a_row)
    first = moves[-2]
    # the Undo button drawn after the first move does not take back the second
    assert await refused(host, game, first.seat, expected_seq=first.seq) == "stale"
    await taken_back(host, store, rec, game, second, before)
    assert await refused(host, game, first.seat) == "nothing"  # an undo is not taken back
    with pytest.raises(HostError) as err:
        await host.undo(game.channel_id, user(game, 0), game_id=game.id + 1)
    assert err.value.code == "stale_game"
    await host.close()


async def test_an_ai_seats_step_cannot_be_taken_back(store):
    clock = FakeClock()
    host, _ = make_host(store, clock)
    game = await humans(host, "evo", players=2, ai=1)
    ai = 2
    while game.awaiting() != [ai]:  # the people play until the AI seat is awaited
        await drive(host, game, lambda o: True)
        await settle(host)
    await clock.advance(1.0, host)
    last = (await store.actions(game.id))[-1]
    assert last.actor == user(game, ai)
    assert {host.undo_refusal(game, p) for p in (0, 1)} <= {"not_yours", "acted_since"}
    assert not any(host.can_undo(game, p) for p in range(3))
    await host.close()


async def test_a_timers_step_and_a_seat_left_to_the_ai_cannot_be_taken_back(store):
    clock = FakeClock()
    host, _ = make_host(store, clock)
    game = await humans(host, "cubosaurs", timer=60)
    late = game.awaiting()[0]
    await clock.advance(60, host)  # the timer runs out: the AI plays the late player's step
    last = (await store.actions(game.id))[-1]
    assert last.actor == user(game, late)
    assert await refused(host, game, late) == "automatic"
    await host.leave_game(game.channel_id, user(game, late))
    with pytest.raises(HostError) as err:
        await host.undo(game.channel_id, user(game, late))
    assert err.value.code == "seat_is_ai"
    await host.close()


async def test_an_undo_keeps_the_turn_deadline_of_the_move(store):
    clock = FakeClock()
    host, rec = make_host(store, clock)
    game = await humans(host, "evo", timer=60)
    await clock.advance(10, host)
    while True:  # a taken-back move: its deadline was the one before it
        deadline = game.deadline
        outcome, before = await drive(host, game, lambda o: True)
        if outcome.undoable:
            break
    assert game.deadline != deadline
    await clock.advance(5, host)
    await taken_back(host, store, rec, game, outcome, before)
    assert game.deadline == deadline
    stored = json.loads((await store.get_game(game.id)).lobby)
    assert stored["deadline"]["at"] == deadline
    await host.close()


async def test_a_log_that_no_longer_replays_refuses_the_undo(store, tmp_path):
    host, _ = make_host(store)
    game = await humans(host, "evo")
    outcome, _ = await drive(host, game, lambda o: o.seq > 1 and o.undoable)
    rules = game.rules
    first = (await store.actions(game.id))[0]
    start = rules.new_game([Seat(s["id"], s["name"]) for s in game.seats],
                           game.lobby["seed"], game.options)
    other = next(a for a in rules.legal_actions(start, game.seat_of(first.actor))
                 if a != first.action)
    with sqlite3.connect(tmp_path / "undo.sqlite3") as db:  # someone edits the first entry
        db.execute("UPDATE actions SET action = ? WHERE game_id = ? AND seq = 1",
                   (json.dumps(other), game.id))
    assert await refused(host, game, outcome.seat) == "mismatch"
    await host.close()


async def test_a_replay_of_a_log_with_undos_gives_the_stored_state(store):
    host, rec = make_host(store)
    game = await humans(host, "evo", seed=11)
    undos = 0
    while undos < 5:
        outcome, before = await drive(host, game, lambda o: o.undoable)
        await taken_back(host, store, rec, game, outcome, before)
        undos += 1
        await drive(host, game, lambda o: True)  # a move that is not taken back
    rows = await store.actions(game.id)
    assert sum(r.action == {"type": "undo"} for r in rows) == 5
    seats = [Seat(s["id"], s["name"]) for s in game.seats]
    final, snapshots = replay_states(game.rules, seats, game.lobby["seed"], game.options,
                                     seat_actions(rows, seats))
    assert json.loads(json.dumps(game.rules.to_json(final))) == await stored_state(store, game)
    assert snapshots
    await host.close()


# --- Cubosaurs ----------------------------------------------------------------------------------


async def test_cubosaurs_passing_the_hand_on_is_taken_back_a_keep_is_not(store):
    host, rec = make_host(store)
    game = await humans(host, "cubosaurs", advanced=True)
    outcome, before = await drive(host, game, lambda o: o.action["type"] == "pass")
    assert outcome.undoable
    await taken_back(host, store, rec, game, outcome, before)
    # a keep: the next player draws the deck's top card
    outcome, _ = await drive(host, game, lambda o: o.action["type"] == "keep"
                             and any(ev["type"] == "draw" for ev in o.events))
    assert await refused(host, game, outcome.seat) == "revealed"
    await host.close()


# --- Random Mutations ---------------------------------------------------------------------------


async def test_mutations_a_token_is_taken_back_a_development_is_not(store):
    host, rec = make_host(store)
    game = await humans(host, "mutations")
    outcome, _ = await drive(host, game, lambda o: o.action["type"] == "develop")
    assert await refused(host, game, outcome.seat) == "revealed"  # a card was turned
    outcome, before = await drive(host, game, lambda o: o.action["type"] in ("food", "graze")
                                  and o.undoable)
    await taken_back(host, store, rec, game, outcome, before)
    # the climate dice: the last pass of a development phase rolls them
    outcome, _ = await drive(host, game, lambda o: any(ev["type"] == "climate"
                                                       for ev in o.events))
    assert await refused(host, game, outcome.seat) == "revealed"
    await host.close()


# --- Evolution: Climate -------------------------------------------------------------------------


def needs_climate() -> None:
    from engine import game_kinds

    if "climate" not in game_kinds():
        pytest.skip("Evolution: Climate is not in engine.core.GAME_PACKAGES yet")


async def test_climate_a_secret_food_card_is_taken_back_the_one_that_ends_the_step_is_not(store):
    needs_climate()
    host, rec = make_host(store)
    game = await humans(host, "climate")
    assert len(game.awaiting()) == 3  # everyone chooses a food card at once, unseen
    keys = [game.key_for(p) for p in range(3)]
    outcome, before = await drive(host, game, lambda o: True)
    seat = outcome.seat
    assert outcome.action["type"] == "food" and outcome.undoable
    moved = game.key_for(seat)
    await taken_back(host, store, rec, game, outcome, before)
    assert rec.outcomes[-1].events == [{"type": "undo", "player": seat, "secret": True}]
    assert describe("climate", rec.outcomes[-1].events[0], game.names()) is None  # unseen
    # the seat's menus drawn before or after the move are stale; the others' stay valid
    assert game.key_for(seat) not in (keys[seat], moved)
    assert [game.key_for(p) for p in range(3) if p != seat] == \
        [keys[p] for p in range(3) if p != seat]
    # the last food card completes the step: the phase moves on for everyone
    outcome, _ = await drive(host, game, lambda o: any(ev["type"] == "food_cards"
                                                       for ev in o.events))
    assert await refused(host, game, outcome.seat) == "revealed"
    await host.close()


async def test_climate_quick_plays_are_taken_back_until_the_reveal(store):
    needs_climate()
    host, rec = make_host(store)
    game = await humans(host, "climate", quick=True)
    outcome, before = await drive(host, game, lambda o: game.state.phase == "play"
                                  and o.action["type"] in ("trait", "species", "grow"))
    assert outcome.undoable
    await taken_back(host, store, rec, game, outcome, before)
    assert rec.outcomes[-1].events[0]["secret"]  # the table shows nothing of a secret move
    outcome, _ = await drive(host, game, lambda o: any(ev["type"] == "reveal"
                                                       for ev in o.events))
    assert await refused(host, game, outcome.seat) == "revealed"
    await host.close()
