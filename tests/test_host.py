"""The game host without Discord: lobby rules, atomic commits, restarts, AI seats, timers."""

from __future__ import annotations

import asyncio
import json

import pytest

from engine import IllegalAction
from host import GameHost, HostError
from store import Store


class FakeClock:
    """Time moves only when the test says so; timers fire in order."""

    def __init__(self) -> None:
        self.t = 1_000.0
        self.pending: list[list] = []  # [when, callback, cancelled]

    def now(self) -> float:
        return self.t

    def call_later(self, delay, callback):
        entry = [self.t + delay, callback, False]
        self.pending.append(entry)

        class Handle:
            def cancel(self_inner):
                entry[2] = True

        return Handle()

    async def advance(self, seconds: float, host: GameHost) -> None:
        target = self.t + seconds
        while True:
            due = sorted((e for e in self.pending if not e[2] and e[0] <= target),
                         key=lambda e: e[0])
            if not due:
                break
            entry = due[0]
            self.pending.remove(entry)
            self.t = entry[0]
            entry[1]()
            await settle(host)
        self.t = target

    def armed(self) -> int:
        return sum(1 for e in self.pending if not e[2])


async def settle(host: GameHost) -> None:
    for _ in range(200):
        if not host._tasks:
            return
        await asyncio.gather(*list(host._tasks), return_exceptions=True)


class Recorder:
    def __init__(self) -> None:
        self.outcomes = []
        self.broken = []

    async def on_outcome(self, outcome) -> None:
        self.outcomes.append(outcome)

    async def on_game_broken(self, game_id, channel_id, error) -> None:
        self.broken.append((game_id, channel_id, error))


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(str(tmp_path / "host.sqlite3"))
    yield s
    await s.close()


def make_host(store, clock=None, **kw):
    rec = Recorder()
    host = GameHost(store, clock=clock or FakeClock(), listener=rec, ai_delay=1.0, **kw)
    return host, rec


async def three_player_game(host, channel="c1"):
    await host.open_lobby("g", channel, "evo", "u1", "Ann")
    await host.join(channel, "u2", "Bob")
    await host.join(channel, "u3", "Cy")
    await host.start_game(channel, "u1", False, seed=5)
    return host.game_in(channel)


async def test_an_ai_seat_takes_the_games_own_level(store):
    """An AI seat's level is one the game has: Cubosaurs offers no expert (its search
    measured weaker than strong), so an expert asked for there is a strong seat; EVO keeps
    its expert; an unknown level is refused and adds no seat."""
    host, _ = make_host(store)
    await host.open_lobby("g", "c1", "cubosaurs", "u1", "Ann")
    await host.add_ai("c1", "u1", "expert")
    await host.add_ai("c1", "u1", "fast")
    assert [s["level"] for s in host.game_in("c1").lobby["seats"][1:]] == ["strong", "fast"]
    with pytest.raises(HostError) as err:
        await host.add_ai("c1", "u1", "hard")
    assert err.value.code == "bad_ai_level" and len(host.game_in("c1").lobby["seats"]) == 3
    await host.open_lobby("g", "c2", "evo", "u2", "Bob")
    await host.add_ai("c2", "u2", "expert")
    assert host.game_in("c2").lobby["seats"][1]["level"] == "expert"


async def test_lobby_rules(store):
    host, _ = make_host(store)
    await host.open_lobby("g", "c1", "evo", "u1", "Ann")
    with pytest.raises(HostError) as err:
        await host.open_lobby("g", "c1", "evo", "u9", "Zed")
    assert err.value.code == "channel_busy"
    await host.join("c1", "u2", "Bob")
    with pytest.raises(HostError) as err:
        await host.join("c1", "u2", "Bob")
    assert err.value.code == "already_joined"
    with pytest.raises(HostError) as err:
        await host.start_game("c1", "u1", False)
    assert err.value.code == "not_enough_players"
    with pytest.raises(HostError) as err:
        await host.leave_lobby("c1", "u1")
    assert err.value.code == "creator_cannot_leave"
    await host.add_ai("c1", "u2")
    await host.add_ai("c1", "u2")
    await host.add_ai("c1", "u1")
    with pytest.raises(HostError) as err:
        await host.add_ai("c1", "u1")
    assert err.value.code == "lobby_full"
    with pytest.raises(HostError) as err:
        await host.start_game("c1", "u2", False)
    assert err.value.code == "not_creator"
    await host.remove_seat("c1", "u2", "ai:3", can_manage=True)  # a moderator may
    assert len(host.game_in("c1").seats) == 4
    await host.start_game("c1", "u1", False, seed=1)
    assert host.game_in("c1").status == "active"
    with pytest.raises(HostError) as err:
        await host.join("c1", "u7", "Late")
    assert err.value.code == "already_started"


async def test_act_commits_action_and_state_together(store):
    host, rec = make_host(store)
    game = await three_player_game(host)
    seat = game.awaiting()[0]
    user = game.seats[seat]["id"]
    outcome = await host.act("c1", user, {"type": "end"})
    assert outcome.events and rec.outcomes[-1] is outcome
    row = await store.get_game(game.id)
    assert row.seq == 1 == game.seq
    assert json.loads(row.state) == game.rules.to_json(game.state)
    actions = await store.actions(game.id)
    assert [(a.seq, a.actor, a.action) for a in actions] == [(1, user, {"type": "end"})]


async def test_refusals_change_nothing(store):
    host, _ = make_host(store)
    game = await three_player_game(host)
    before = game.rules.to_json(game.state)
    waiting = game.awaiting()[0]
    other = next(s["id"] for i, s in enumerate(game.seats) if i != waiting)
    with pytest.raises(IllegalAction) as err:
        await host.act("c1", other, {"type": "end"})
    assert err.value.code == "not_your_turn"
    with pytest.raises(HostError) as err:
        await host.act("c1", "stranger", {"type": "end"})
    assert err.value.code == "not_a_player"
    with pytest.raises(HostError) as err:
        await host.act("c1", game.seats[waiting]["id"], {"type": "end"}, game_id=game.id + 1)
    assert err.value.code == "stale_game"
    assert game.rules.to_json(game.state) == before and game.seq == 0
    assert await store.actions(game.id) == []


async def test_concurrent_actions_are_applied_one_at_a_time(store):
    host, _ = make_host(store)
    game = await three_player_game(host)
    user = game.seats[game.awaiting()[0]]["id"]
    results = await asyncio.gather(*(host.act("c1", user, {"type": "end"}) for _ in range(3)),
                                   return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(getattr(r, "code", None) == "not_your_turn"
               for r in results if isinstance(r, Exception))
    assert len(await store.actions(game.id)) == 1 and game.seq == 1


async def test_restart_loads_games_and_sets_corrupt_ones_aside(store):
    host, _ = make_host(store)
    game = await three_player_game(host, "c1")
    await three_player_game(host, "c2")
    await host.act("c1", game.seats[game.awaiting()[0]]["id"], {"type": "end"})
    saved = game.rules.to_json(game.state)
    bad = host.game_in("c2").id
    await host.close()
    await store._db.execute("UPDATE games SET state = '{not json' WHERE id = ?", (bad,))
    await store._db.commit()

    clock = FakeClock()
    host2, rec2 = make_host(store, clock)
    await host2.start()
    assert host2.games == {}  # nothing due: games load when their channel is used
    assert await host2.ensure_loaded("c2") is None and host2.game_in("c2") is None
    assert [b[0] for b in host2.broken] == [bad] and rec2.broken[0][0] == bad
    assert (await store.get_game(bad)).status == "broken"
    resumed = await host2.ensure_loaded("c1")
    assert resumed.rules.to_json(resumed.state) == saved and resumed.seq == 1
    # and it plays on
    await host2.act("c1", resumed.seats[resumed.awaiting()[0]]["id"], {"type": "end"})
    assert resumed.seq == 2


async def test_ai_seats_play_after_the_delay(store):
    clock = FakeClock()
    host, rec = make_host(store, clock)
    await host.open_lobby("g", "c1", "evo", "u1", "Ann")
    await host.add_ai("c1", "u1")
    await host.add_ai("c1", "u1")
    await host.start_game("c1", "u1", False, seed=3)
    game = host.game_in("c1")
    human = 0
    for _ in range(400):
        if game.status != "active":
            break
        if human in game.awaiting():
            legal = game.rules.legal_actions(game.state, human)
            await host.act("c1", "u1", legal[0])
        else:
            seq = game.seq
            due = min(e[0] for e in clock.pending if not e[2])
            assert 0 < due - clock.t <= 1.0
            await clock.advance(due - clock.t - 0.01, host)
            assert game.seq == seq, "an AI waits for its delay"
            await clock.advance(0.02, host)
            assert game.seq > seq
    assert any(o.by_ai for o in rec.outcomes)


async def test_turn_timer_lets_the_ai_take_one_step(store):
    clock = FakeClock()
    host, rec = make_host(store, clock, default_timer=60)
    game = await three_player_game(host)
    seat = game.awaiting()[0]
    await clock.advance(59, host)
    assert game.seq == 0
    await clock.advance(2, host)
    assert game.seq >= 1
    timed = [o for o in rec.outcomes if o.timed_out]
    assert len(timed) == 1 and timed[0].seat == seat
    assert not game.seats[seat].get("ai"), "the seat stays human"


async def test_leaving_player_hands_the_seat_to_an_ai(store):
    clock = FakeClock()
    host, rec = make_host(store, clock)
    game = await three_player_game(host)
    seat = game.awaiting()[0]
    await host.leave_game("c1", game.seats[seat]["id"])
    assert game.seats[seat]["ai"]
    with pytest.raises(HostError) as err:
        await host.act("c1", game.seats[seat]["id"], {"type": "end"})
    assert err.value.code == "seat_is_ai"
    await clock.advance(1.1, host)
    assert game.seq == 1 and rec.outcomes[-1].by_ai


async def test_cancel_frees_the_channel(store):
    host, _ = make_host(store)
    await three_player_game(host)
    with pytest.raises(HostError):
        await host.cancel("c1", "u2", can_manage=False)
    await host.cancel("c1", "u1", can_manage=False)
    assert host.game_in("c1") is None
    await host.open_lobby("g", "c1", "evo", "u2", "Bob")


async def test_lobby_presses_at_the_same_moment_are_each_answered(store):
    host, _ = make_host(store)
    await host.open_lobby("g", "c1", "evo", "u1", "Ann")
    await host.join("c1", "u2", "Bob")
    await host.join("c1", "u3", "Cy")
    # Start and Join together: the join waits for the start and is refused, not seated
    start, join = await asyncio.gather(host.start_game("c1", "u1", False, seed=5),
                                       host.join("c1", "u4", "Dee"), return_exceptions=True)
    game = host.game_in("c1")
    assert game.status == "active" and len(game.seats) == 3 and game.state.n == 3
    assert isinstance(join, HostError) and join.code == "already_started"
    stored = await store.get_game(game.id)
    assert len(stored.decoded().lobby["seats"]) == 3
    await host.cancel("c1", "u1", can_manage=False)
    # two Starts: one starts, the other is told so
    await host.open_lobby("g", "c1", "evo", "u1", "Ann")
    await host.add_ai("c1", "u1")
    await host.add_ai("c1", "u1")
    results = await asyncio.gather(host.start_game("c1", "u1", False, seed=1),
                                   host.start_game("c1", "u1", False, seed=2),
                                   return_exceptions=True)
    assert [type(r).__name__ for r in results] == ["Outcome", "HostError"]
    assert results[1].code == "already_started" and host.game_in("c1").lobby["seed"] == 1
    await host.cancel("c1", "u1", can_manage=False)
    # Cancel and Start together: the start is refused with a reason, nothing is left behind
    await host.open_lobby("g", "c1", "evo", "u1", "Ann")
    await host.add_ai("c1", "u1")
    await host.add_ai("c1", "u1")
    lobby_id = host.game_in("c1").id
    cancel, start = await asyncio.gather(host.cancel("c1", "u1", can_manage=False),
                                         host.start_game("c1", "u1", False, seed=1),
                                         return_exceptions=True)
    assert cancel.status == "cancelled"
    assert isinstance(start, HostError) and start.code == "lobby_closed"
    assert host.game_in("c1") is None
    assert (await store.get_game(lobby_id)).status == "cancelled"


async def test_turn_timer_keeps_its_absolute_deadline_across_a_restart(store):
    clock = FakeClock()
    host, rec = make_host(store, clock, default_timer=30)
    game = await three_player_game(host)
    seat = game.awaiting()[0]
    assert game.deadline == clock.t + 30
    await clock.advance(20, host)
    await host.close()

    clock2 = FakeClock()
    clock2.t = clock.t  # the process comes back at 20 s
    host2, rec2 = make_host(store, clock2, default_timer=30)
    await host2.start()
    resumed = host2.game_in("c1")
    due = resumed.deadline
    assert due == clock2.t + 10
    await clock2.advance(9.9, host2)
    assert resumed.seq == 0, "the timer does not fire early"
    await clock2.advance(0.2, host2)
    assert resumed.seq == 1 and rec2.outcomes[-1].timed_out and rec2.outcomes[-1].seat == seat
    # the next position gets a fresh deadline, stored with the action
    stored = (await store.get_game(resumed.id)).decoded().lobby["deadline"]
    assert stored == {"seq": 1, "at": due + 30} and resumed.deadline == due + 30


# --- hardening: one bad row never stops the others ---------------------------------------------


async def _damage(store, game_id, **columns):
    for column, value in columns.items():
        await store._db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
    await store._db.commit()


@pytest.mark.parametrize("lobby", [
    "{}",                                                   # no seats at all
    '{"seats": [{"id": "u1", "name": "Ann", "ai": false}], "creator": "u1", "min": 3, '
    '"max": 5}',                                            # fewer seats than the state
    '{"seats": "x", "creator": "u1", "min": 3, "max": 5}',
    '[1, 2]',
])
async def test_a_damaged_lobby_sets_that_game_aside_and_the_others_load(store, lobby):
    host, _ = make_host(store)
    good = await three_player_game(host, "c1")
    bad = await three_player_game(host, "c2")
    await host.open_lobby("g", "c3", "evo", "u9", "Zed")  # a lobby still open loads too
    await host.close()
    await _damage(store, bad.id, lobby=lobby)
    host2, rec2 = make_host(store, FakeClock())
    await host2.start()
    loaded = {c: await host2.ensure_loaded(c) for c in ("c1", "c2", "c3")}
    assert [b[0] for b in host2.broken] == [bad.id] and rec2.broken[0][0] == bad.id
    assert loaded["c2"] is None and (await store.get_game(bad.id)).status == "broken"
    assert loaded["c3"].status == "lobby"
    resumed = loaded["c1"]
    await host2.act("c1", resumed.seats[resumed.awaiting()[0]]["id"], {"type": "end"})
    assert resumed.seq == 1 and good.id == resumed.id


async def test_a_damaged_state_is_set_aside_at_load_not_on_every_action(store):
    host, _ = make_host(store)
    game = await three_player_game(host, "c1")
    other = await three_player_game(host, "c2")
    await host.close()
    state = game.rules.to_json(game.state)
    state["phase"] = 99
    await _damage(store, game.id, state=json.dumps(state))
    state = other.rules.to_json(other.state)
    state["stage"] = "nowhere"
    await _damage(store, other.id, state=json.dumps(state))
    host2, _ = make_host(store, FakeClock())
    await host2.start()
    assert await host2.ensure_loaded("c1") is None and await host2.ensure_loaded("c2") is None
    assert sorted(b[0] for b in host2.broken) == [game.id, other.id]
    assert host2.games == {}


async def test_an_unknown_game_kind_is_set_aside(store):
    host, _ = make_host(store)
    game = await three_player_game(host, "c1")
    await host.close()
    await _damage(store, game.id, kind="chess")
    host2, _ = make_host(store, FakeClock())
    await host2.start()
    assert await host2.ensure_loaded("c1") is None
    assert [b[0] for b in host2.broken] == [game.id]


async def test_malformed_actions_are_refused_before_the_store_sees_them(store):
    host, _ = make_host(store)
    game = await three_player_game(host, "c1")
    user = game.seats[game.awaiting()[0]]["id"]
    before = game.rules.to_json(game.state)
    deep: list = []
    for _ in range(100_000):  # nested past what json.dumps can walk
        deep = [deep]
    for action in ({"type": "end", "card": "egg-raptor"}, {"type": "end", "x": float("nan")},
                   {"type": "end", "x": float("inf")}, {"type": "keep"}, {"type": 3}, [],
                   {"type": "end", "x": deep}):
        with pytest.raises(IllegalAction):
            await host.act("c1", user, action)
    assert game.rules.to_json(game.state) == before and game.seq == 0
    assert await store.actions(game.id) == []


class FailingStore:
    """The real store, whose writes fail (a full disk) while ``failing`` is set."""

    def __init__(self, store) -> None:
        self._store = store
        self.failing = False

    def __getattr__(self, name):
        attr = getattr(self._store, name)
        if name in ("update_lobby", "start_game", "record_action", "cancel_game",
                    "create_game"):
            async def write(*args, **kwargs):
                if self.failing:
                    from store import StoreError

                    raise StoreError("write failed and was rolled back: database or disk is full")
                return await attr(*args, **kwargs)
            return write
        return attr


async def test_a_failed_write_is_a_sentence_and_memory_equals_the_store(store):
    wrapped = FailingStore(store)
    host, _ = make_host(wrapped)
    await host.open_lobby("g", "c1", "evo", "u1", "Ann")
    await host.join("c1", "u2", "Bob")
    wrapped.failing = True
    for press in (host.join("c1", "u3", "Cy"), host.add_ai("c1", "u1"),
                  host.remove_seat("c1", "u1", "u2", can_manage=False)):
        with pytest.raises(HostError) as err:
            await press
        assert err.value.code == "storage_failed"
    game = host.game_in("c1")
    stored = json.loads((await store.get_game(game.id)).lobby)
    assert game.lobby == stored and [s["id"] for s in game.seats] == ["u1", "u2"]
    wrapped.failing = False
    await host.join("c1", "u3", "Cy")
    await host.start_game("c1", "u1", False, seed=3)
    wrapped.failing = True
    user = game.seats[game.awaiting()[0]]["id"]
    before = game.rules.to_json(game.state)
    with pytest.raises(HostError) as err:
        await host.act("c1", user, {"type": "end"})
    assert err.value.code == "storage_failed"
    assert game.rules.to_json(game.state) == before and game.seq == 0
    from messages import t

    assert "storage" in t("bot.error.storage_failed") and "{" not in t("bot.error.storage_failed")


@pytest.mark.parametrize("shift", [-1, 1])
async def test_a_seq_that_disagrees_with_the_action_log_sets_the_game_aside(store, shift):
    host, _ = make_host(store)
    game = await three_player_game(host, "c1")
    await host.act("c1", game.seats[game.awaiting()[0]]["id"], {"type": "end"})
    other = await three_player_game(host, "c2")
    await host.close()
    await _damage(store, game.id, seq=game.seq + shift)
    host2, _ = make_host(store, FakeClock())
    await host2.start()
    assert await host2.ensure_loaded("c1") is None
    assert [b[0] for b in host2.broken] == [game.id] and "action log" in host2.broken[0][1]
    assert (await host2.ensure_loaded("c2")).id == other.id


async def test_ai_steps_refused_by_the_store_are_retried_and_the_table_told_once(store):
    wrapped = FailingStore(store)
    clock = FakeClock()
    host, rec = make_host(wrapped, clock)
    told = []

    async def on_saving_failed(game):
        told.append(game.id)

    rec.on_saving_failed = on_saving_failed
    await host.open_lobby("g", "c1", "evo", "u1", "Ann")
    await host.add_ai("c1", "u1")
    await host.add_ai("c1", "u1")
    await host.start_game("c1", "u1", False, seed=3)
    game = host.game_in("c1")
    while 0 in game.awaiting():  # the human plays until an AI seat is awaited
        await host.act("c1", "u1", game.rules.legal_actions(game.state, 0)[0])
    assert not (set(game.awaiting()) & {0})
    wrapped.failing = True  # the disk is full: every AI step is refused
    seq = game.seq
    await clock.advance(120.0, host)
    assert game.seq == seq and game.save_failures >= 4
    assert told == [game.id]  # one notice for the whole stretch
    delays = game.save_failures
    await clock.advance(30.0, host)
    assert game.save_failures <= delays + 1  # backing off: at most one try in 30 s by now
    wrapped.failing = False  # space again: the AI seats go on by themselves
    await clock.advance(62.0, host)
    assert game.seq > seq and game.save_failures == 0
    row = await store.get_game(game.id)
    assert row.seq == game.seq and json.loads(row.state) == game.rules.to_json(game.state)


# --- games load when they are used or due ------------------------------------------------------


async def test_games_load_when_their_channel_is_used_or_their_timer_is_due(store):
    clock = FakeClock()
    host, _ = make_host(store, clock)
    people = [await three_player_game(host, f"p{i}") for i in range(5)]  # wait for humans
    await host.open_lobby("g", "ai", "evo", "u1", "Ann")
    await host.add_ai("ai", "u1")
    await host.add_ai("ai", "u1")
    await host.start_game("ai", "u1", False, seed=2)
    ai_game = host.game_in("ai")
    while 0 in ai_game.awaiting():  # until an AI seat is awaited: due at once
        await host.act("ai", "u1", ai_game.rules.legal_actions(ai_game.state, 0)[0])
    timed = host.game_in("p0")
    lobby = dict(timed.lobby, timer=120.0)
    await host._write_lobby(timed, lobby)
    await host.act("p0", timed.seats[timed.awaiting()[0]]["id"], {"type": "end"})
    assert timed.deadline == clock.t + 120  # stored with the action: due in two minutes
    await host.close()

    clock2 = FakeClock()
    clock2.t = clock.t
    host2, rec2 = make_host(store, clock2)
    await host2.start()
    assert set(host2.games) == {"ai"}  # only the game that needs the bot now
    seq = host2.game_in("ai").seq
    await clock2.advance(5, host2)
    assert host2.game_in("ai").seq > seq  # its AI seats play on by themselves
    await clock2.advance(100, host2)
    assert "p0" in host2.games  # loaded by the sweep before its timer runs out
    seq0 = host2.game_in("p0").seq
    await clock2.advance(25, host2)
    assert host2.game_in("p0").seq == seq0 + 1 and rec2.outcomes[-1].timed_out
    assert "p3" not in host2.games
    game = await host2.ensure_loaded("p3")  # a person uses the channel: it loads
    assert game.id == people[3].id and game.rules.to_json(game.state) == \
        people[3].rules.to_json(people[3].state)
    await host2.act("p3", game.seats[game.awaiting()[0]]["id"], {"type": "end"})
    assert game.seq == 1
    await clock2.advance(1900, host2)  # unused for over 30 minutes, nothing armed: let go
    assert "p3" not in host2.games
    again = await host2.ensure_loaded("p3")
    assert again is not game and again.seq == 1


# --- secret simultaneous steps (tests/secret_game.py) ------------------------------------------

async def sealed_game(host, players=3, channel="s1"):
    await host.open_lobby("g", channel, "sealed", "u0", "Ann")
    for i in range(1, players):
        await host.join(channel, f"u{i}", f"P{i}")
    await host.start_game(channel, "u0", False, seed=3)
    return host.game_in(channel)


async def test_one_secret_choice_leaves_the_others_buttons_valid(store, sealed):
    host, rec = make_host(store)
    game = await sealed_game(host)
    assert game.awaiting() == [0, 1, 2]
    keys = [game.key_for(p) for p in range(3)]
    await host.act("s1", "u1", {"type": "pick", "n": 3}, expected_key=keys[1])
    # P1's own menu is spent; the others' menus (drawn before P1 chose) still act
    assert game.awaiting() == [0, 2]
    with pytest.raises(HostError) as err:
        await host.act("s1", "u1", {"type": "pick", "n": 1}, expected_key=keys[1])
    assert err.value.code == "stale_game"
    await host.act("s1", "u0", {"type": "pick", "n": 2}, expected_key=keys[0])
    # the events said who chose, never what
    assert all("n" not in e and "pick" not in e for o in rec.outcomes for e in o.events
               if e["type"] == "picked")
    await host.act("s1", "u2", {"type": "pick", "n": 1}, expected_key=keys[2])
    assert game.state.totals == [2, 3, 1] and game.awaiting() == [0]
    # the reveal is a public change: a menu drawn in the secret step is now stale for all
    with pytest.raises(HostError) as err:
        await host.act("s1", "u0", {"type": "go"}, expected_key=keys[0])
    assert err.value.code == "stale_game"
    await host.act("s1", "u0", {"type": "go"}, expected_key=game.key_for(0))
    assert game.state.round == 2 and game.awaiting() == [0, 1, 2]


async def test_the_turn_timer_runs_per_step_not_per_secret_choice(store, sealed):
    clock = FakeClock()
    host, rec = make_host(store, clock, default_timer=60)
    game = await sealed_game(host)
    start = clock.now()
    assert game.deadline == start + 60
    await clock.advance(40, host)
    await host.act("s1", "u1", {"type": "pick", "n": 3})
    assert game.deadline == start + 60, "one player's choice does not restart the clock"
    assert (await store.get_game(game.id)).decoded().lobby["deadline"]["at"] == start + 60
    await clock.advance(19, host)
    assert game.awaiting() == [0, 2]
    await clock.advance(2, host)  # the step's minute is over: an AI picks for both late ones
    assert game.state.stage == "go" and [o.timed_out for o in rec.outcomes[-2:]] == [True, True]
    # a new step (P0 must say go): a fresh minute from the moment it opened
    assert game.deadline == start + 60 + 60


async def test_a_secret_step_survives_a_restart_with_its_keys_and_deadline(store, sealed):
    clock = FakeClock()
    host, _ = make_host(store, clock, default_timer=60)
    game = await sealed_game(host)
    await host.act("s1", "u2", {"type": "pick", "n": 2})
    key0, deadline = game.key_for(0), game.deadline
    await host.close()
    host2, _ = make_host(store, clock, default_timer=60)
    await host2.start()
    resumed = await host2.ensure_loaded("s1")
    assert resumed.awaiting() == [0, 1] and resumed.deadline == deadline
    await host2.act("s1", "u0", {"type": "pick", "n": 1}, expected_key=key0)
    assert resumed.awaiting() == [1]


async def test_the_table_line_names_who_is_awaited_in_a_secret_step_never_what(store, sealed):
    from cogs.table import status_line

    host, _ = make_host(store)
    game = await sealed_game(host)
    assert status_line(game, "en") == "Waiting for 3 players: Ann, P1, P2"
    await host.act("s1", "u1", {"type": "pick", "n": 3})
    assert status_line(game, "en") == "Waiting for 2 players: Ann, P2"
    assert status_line(game, "fr") == "En attente de 2 joueurs : Ann, P2"


async def test_a_rematch_pressed_twice_together_says_it_was_opened_whatever_the_timing(store):
    """Two Rematch presses: one opens the lobby; the other, whichever store reads it made
    before the first press committed, is told the game already had its rematch (never that
    the button is out of date because another game was opened)."""
    host, _ = make_host(store)
    await host.open_lobby("g", "c1", "cubosaurs", "u1", "Ann")
    await host.join("c1", "u2", "Bob")
    await host.start_game("c1", "u1", False, seed=5)
    game = host.game_in("c1")
    users = ["u1", "u2"]
    for _ in range(1000):
        if game.status != "active":
            break
        p = game.awaiting()[0]
        await host.act("c1", users[p], game.rules.legal_actions(game.state, p)[0])
    assert game.status == "finished"

    created = asyncio.Event()
    real_rematch_id, real_create = store.rematch_id, store.create_game
    paused = []

    async def slow_rematch_id(game_id):
        found = await real_rematch_id(game_id)
        if not paused:  # the first press reads, then waits until the other has opened it
            paused.append(True)
            await created.wait()
        return found

    async def create_game(*args, **kwargs):
        try:
            return await real_create(*args, **kwargs)
        finally:
            created.set()

    store.rematch_id, store.create_game = slow_rematch_id, create_game
    first = asyncio.ensure_future(host.rematch("c1", game.id, "u1"))
    await asyncio.sleep(0)
    second = await host.rematch("c1", game.id, "u2")
    with pytest.raises(HostError) as err:
        await first
    assert err.value.code == "rematch_taken"
    assert second.status == "lobby" and host.game_in("c1") is second


# --- card windows: every holder asked at once, one delay a round (EVO) -------------------------

def _window_at_movement(hands: dict):
    """An EVO position of turn 3 paused at the start of movement, every seat holding ``hands``."""
    from engine.evo import scenario

    state = scenario(3, phase="movement", turn=3, hands=hands)
    assert state.window is not None and state.window["asked"] == [0, 1, 2]
    return state


async def test_the_bot_passes_for_every_holder_at_once_whatever_they_hold(store):
    """Two tables alike in all that is public, different hands: the bot passes for the three
    holders at one moment, ``window_delay`` after the round opened, at both; a player who
    answers early (their own choice) neither hastens nor delays the others."""
    clock = FakeClock()
    host, rec = make_host(store, clock)
    games = []
    for channel, hands in (("w1", {0: ["maousse_kosto"], 1: ["deluge"], 2: ["encore"]}),
                           ("w2", {0: ["gaz_de_combat"], 1: ["ca_caille"], 2: ["on_crame"]})):
        game = await three_player_game(host, channel)
        game.state = _window_at_movement(hands)
        host._schedule(game)
        games.append(game)
    early = games[0]
    await clock.advance(1.0, host)
    await host.act("w1", "u2", {"type": "pass"}, expected_key=early.key_for(1))
    assert early.awaiting() == [0, 2] and games[1].awaiting() == [0, 1, 2]
    await clock.advance(0.99, host)
    assert [g.awaiting() for g in games] == [[0, 2], [0, 1, 2]]
    await clock.advance(0.01, host)  # window_delay after the round opened
    for game in games:
        assert game.state.window is None and game.state.stage == "move"
        passes = [o.seat for o in rec.outcomes if o.game is game and o.action["type"] == "pass"]
        assert sorted(passes) == [0, 1, 2]


async def test_ai_seats_answer_a_card_window_together(store):
    clock = FakeClock()
    host, rec = make_host(store, clock)  # AI seats: 1 s; the bot's passes: 2 s
    await host.open_lobby("g", "a1", "evo", "u1", "Ann")
    await host.add_ai("a1", "u1")
    await host.add_ai("a1", "u1")
    await host.start_game("a1", "u1", False, seed=5)
    game = host.game_in("a1")
    await clock.advance(0.5, host)
    game.state = _window_at_movement({0: ["maousse_kosto"], 1: ["deluge"], 2: ["encore"]})
    host._schedule(game)
    await clock.advance(1.0, host)
    assert game.awaiting() == [0]  # both AI seats answered at once, the person is asked
    await clock.advance(1.0, host)
    assert game.state.window is None  # and the bot passed for the person, 2 s after it opened


async def test_a_new_lobby_is_kept_in_memory_until_it_is_idle(store):
    """A lobby just opened is used, not idle since the epoch: the sweep keeps it until nobody
    has used it for IDLE_AFTER seconds."""
    from host.host import IDLE_AFTER

    clock = FakeClock()
    clock.t = 1_700_000_000.0  # an epoch time, as the real clock's
    host, _ = make_host(store, clock)
    game = await host.open_lobby("g", "c1", "evo", "u1", "Ann")
    clock.t += 31
    host._evict_idle()
    assert host.game_in("c1") is game
    clock.t += IDLE_AFTER
    host._evict_idle()
    assert host.game_in("c1") is None
