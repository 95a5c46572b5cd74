"""Replays: a stored game rebuilt from its seed and action log, as an animated GIF.

Frames are the phase images of the game, the replay reproduces the stored final state (and
says so when it does not), the GIF stays under its size bound, undo entries are honoured,
live games replay too, and ``python bot.py replay`` writes the same GIF offline.
"""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3

import pytest
from PIL import Image

import bot
from engine import Seat, get_game
from engine.ai import ai_action
from host import HostError
from host import replay as replay_module
from host.replay import effective_actions, replay_gif, replay_states
from images import replay as replay_images
from images.replay import BAND, MAX_GIF_BYTES, replay_gif_bytes, spread
from store import Store

START = 1_000.0


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(str(tmp_path / "replay.sqlite3"))
    yield s
    await s.close()


def seats_of(players: int) -> list[Seat]:
    return [Seat(f"ai:{i + 1}", f"AI {i + 1}") for i in range(players)]


async def stored_game(store, kind: str, players: int, seed: int, options=None, *,
                      until=None, channel: str = "c1"):
    """A game of fast AI seats written to the store the way the host writes one (the seed in
    the lobby, each action with its actor and the state it led to), to the end or until
    ``until(state)``; its id, the final state and the phase images the engine gave."""
    rules = get_game(kind)
    seats = seats_of(players)
    options = dict(options or {})
    lobby = {"creator": "u0", "seats": [{"id": s.id, "name": s.name, "ai": True,
                                         "level": "fast"} for s in seats],
             "timer": 0.0, "lang": "en", "messages": {}, "log": [],
             "min": rules.min_players, "max": rules.max_players, "seed": seed}
    game_id = await store.create_game("g", channel, kind, options, lobby, START)
    phases: list[str] = []

    def observer(_state, phase):
        phases.append(phase)

    state, _ = rules.new_game_with_events(seats, seed, options, observer)
    await store.start_game(game_id, rules.to_json(state), START, lobby=lobby)
    seq = 0
    while not rules.is_over(state) and not (until and until(state)):
        p = rules.to_act(state)[0]
        action = ai_action(rules, state, p, "fast")
        state, _ = rules.apply_action(state, p, action, observer)
        results = None
        if rules.is_over(state):
            results = [{"user_id": r["seat"], "seat": r["player"], "name": r["name"],
                        "rank": r["rank"], "score": r["score"]} for r in rules.returns(state)]
        seq = await store.record_action(game_id, seq, seats[p].id, action,
                                        rules.to_json(state), START + seq, results=results)
    return game_id, state, phases


def gif_frames(data: bytes) -> tuple[int, tuple[int, int]]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    return image.n_frames, image.size


async def test_frames_are_the_phases_and_the_final_state_is_exact(store):
    game_id, state, phases = await stored_game(store, "evo", 4, seed=3)
    replay = await replay_gif(store, game_id)
    assert replay.exact and replay.error is None
    assert replay.kind == "evo" and replay.status == "finished" and replay.game_id == game_id
    assert replay.phases == len(phases) == replay.frames  # one frame per phase image
    assert replay.size == len(replay.gif) <= MAX_GIF_BYTES
    assert gif_frames(replay.gif) == (replay.frames, (replay.width, replay.height))
    assert (replay.width, replay.height) == (1280, 860 + BAND)  # the table's image and a band
    assert replay.actions == len(await store.actions(game_id))


async def test_a_live_game_replays_to_where_it_stands(store):
    game_id, state, phases = await stored_game(
        store, "mutations", 3, seed=4, until=lambda s: s.turn == 3 and s.phase == "feeding")
    replay = await replay_gif(store, game_id, "it")
    assert replay.exact and replay.status == "active"
    assert replay.phases == len(phases) + 1  # and the position now
    assert replay.frames == gif_frames(replay.gif)[0] == replay.phases


async def test_the_size_bound_is_kept_with_fewer_and_smaller_frames(store):
    game_id, _, phases = await stored_game(store, "mutations", 3, seed=8)
    full = await replay_gif(store, game_id)
    assert full.frames == len(phases) > 12
    bound = full.size // 10
    small = await replay_gif(store, game_id, max_bytes=bound)
    assert small.exact and small.size <= bound
    assert small.frames < full.frames or small.width < full.width
    frames, size = gif_frames(small.gif)
    assert frames == small.frames and size == (small.width, small.height)
    assert spread(10, 4) == [0, 3, 6, 9] and spread(10, 1) == [9] and spread(3, 5) == [0, 1, 2]


async def test_a_tampered_log_is_reported_as_not_exact(store, tmp_path):
    game_id, state, _ = await stored_game(store, "cubosaurs", 3, seed=2)
    rules = get_game("cubosaurs")
    rows = await store.actions(game_id)
    # an action replaced by another legal one at its position: a different game
    seats = seats_of(3)
    replayed = rules.new_game(seats, 2, {})
    index = {s.id: i for i, s in enumerate(seats)}
    target = None
    for row in rows:
        p = index[row.actor]
        others = [a for a in rules.legal_actions(replayed, p) if a != row.action]
        if others:
            target = (row.seq, others[0])
            break
        rules.apply_in_place(replayed, p, row.action)
    assert target is not None
    with sqlite3.connect(tmp_path / "replay.sqlite3") as db:
        db.execute("UPDATE actions SET action = ? WHERE game_id = ? AND seq = ?",
                   (json.dumps(target[1]), game_id, target[0]))
    replay = await replay_gif(store, game_id)
    assert not replay.exact and replay.error
    assert replay.gif and replay.frames >= 1  # as far as it goes
    # a missing entry: a gap in the log
    with sqlite3.connect(tmp_path / "replay.sqlite3") as db:
        db.execute("DELETE FROM actions WHERE game_id = ? AND seq = 5", (game_id,))
    replay = await replay_gif(store, game_id)
    assert not replay.exact and "gaps" in replay.error


async def test_undo_entries_are_replayed(store):
    from tests.test_undo import drive, humans, make_host

    host, _ = make_host(store)
    game = await humans(host, "evo", seed=11)
    outcome, before = await drive(host, game, lambda o: o.undoable)
    await host.undo(game.channel_id, game.seats[outcome.seat]["id"])
    await drive(host, game, lambda o: o.seq > 20)
    replay = await replay_gif(store, game.id)
    assert replay.exact and replay.status == "active"
    await host.close()


def test_undo_entries_drop_the_previous_move_of_their_player():
    log = [(0, {"type": "a"}), (1, {"type": "b"}), (1, {"type": "undo"}), (0, {"type": "c"})]
    assert effective_actions(log) == [(0, {"type": "a"}), (0, {"type": "c"})]
    with pytest.raises(replay_module.ReplayError):
        effective_actions([(0, {"type": "a"}), (1, {"type": "undo"})])
    with pytest.raises(replay_module.ReplayError):
        effective_actions([(0, {"type": "undo"})])


def test_replay_states_gives_the_engines_phase_images():
    rules = get_game("cubosaurs")
    seats = seats_of(2)
    state = rules.new_game(seats, 9, {})
    log = []
    while not rules.is_over(state):
        p = rules.to_act(state)[0]
        action = ai_action(rules, state, p, "fast")
        log.append((p, action))
        rules.apply_in_place(state, p, action)
    final, snapshots = replay_states(rules, seats, 9, {}, log)
    assert rules.to_json(final) == rules.to_json(state)
    assert [phase for phase, _ in snapshots] == ["deal", "round_end"] * 3  # 2 players: 3 rounds


def test_the_title_is_drawn_once_by_the_table_not_again_by_the_band(monkeypatch):
    """A frame's turn and phase are the table image's own caption; the band above it only
    says where the frame is in the game (it used to print the same title a second time)."""
    rules = get_game("mutations")
    seats = seats_of(2)
    state = rules.new_game(seats, 3, {})
    log = []
    while len(log) < 40 and not rules.is_over(state):
        p = rules.to_act(state)[0]
        action = ai_action(rules, state, p, "fast")
        log.append((p, action))
        rules.apply_in_place(state, p, action)
    _, snapshots = replay_states(rules, seats, 3, {}, log)
    snapshots = snapshots[:3]
    band: list[str] = []
    real = replay_images.text

    def spy(img, x, y, s, *args, **kw):
        band.append(s)
        return real(img, x, y, s, *args, **kw)

    monkeypatch.setattr(replay_images, "text", spy)
    drawn = replay_gif_bytes("mutations", snapshots, "en")
    assert drawn.frames == 3
    assert band == ["1/3", "2/3", "3/3"]
    # the bar grows frame after frame
    bars = [replay_images.progress_band(i, 3, 400, BAND) for i in range(3)]
    lit = [sum(1 for x in range(400) if bar.getpixel((x, BAND // 2)) == replay_images.BAND_INK)
           for bar in bars]
    assert 0 < lit[0] < lit[1] < lit[2]


async def test_nothing_to_replay(store):
    with pytest.raises(HostError) as err:
        await replay_gif(store, 404)
    assert err.value.code == "replay_no_game"
    lobby = {"creator": "u0", "seats": [{"id": "u0", "name": "Ann", "ai": False}],
             "min": 3, "max": 5}
    game_id = await store.create_game("g", "c9", "evo", {}, lobby, START)
    with pytest.raises(HostError) as err:
        await replay_gif(store, game_id)
    assert err.value.code == "replay_not_started"


async def test_the_replay_is_drawn_off_the_event_loop(store, monkeypatch):
    game_id, _, _ = await stored_game(store, "cubosaurs", 2, seed=1)
    calls = []
    real = asyncio.to_thread

    async def to_thread(fn, *args, **kwargs):
        calls.append(fn.__name__)
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(replay_module.asyncio, "to_thread", to_thread)
    assert (await replay_gif(store, game_id)).exact
    assert calls == ["build_replay"]


async def test_the_command_line_writes_the_gif(store, tmp_path, capsys):
    game_id, _, phases = await stored_game(store, "cubosaurs", 3, seed=6)
    await store.close()
    out = tmp_path / "out" / "game.gif"
    code = await asyncio.to_thread(bot.main, ["replay", str(game_id), "--db",
                                              str(tmp_path / "replay.sqlite3"), "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    assert gif_frames(out.read_bytes())[0] == len(phases)
    assert f"{len(phases)} frames" in printed and "exact" in printed and "NOT" not in printed
    code = await asyncio.to_thread(bot.main, ["replay", "404", "--db",
                                              str(tmp_path / "replay.sqlite3"), "--out", str(out)])
    assert code == 2


async def test_a_finished_games_replay_is_drawn_once_a_live_ones_each_time(store, monkeypatch):
    import host.replay as replay_module
    from host.replay import ReplayCache

    finished, _, _ = await stored_game(store, "cubosaurs", 2, seed=5)
    live, _, _ = await stored_game(store, "cubosaurs", 2, seed=6,
                                   until=lambda s: getattr(s, "round", 0) >= 2)
    drawn = []
    build = replay_module.build_replay

    def counting(*args, **kwargs):
        drawn.append(args[0])
        return build(*args, **kwargs)

    monkeypatch.setattr(replay_module, "build_replay", counting)
    cache = ReplayCache(size=1)
    first = await cache.get(store, finished)
    assert await cache.get(store, finished) is first and drawn == [finished]
    assert (await cache.get(store, finished, "fr")).gif != first.gif  # per language
    assert drawn == [finished, finished]
    for _ in range(2):
        assert (await cache.get(store, live)).status == "active"
    assert drawn == [finished, finished, live, live]
    await cache.get(store, finished)  # size 1: the French one pushed the English one out
    assert drawn == [finished, finished, live, live, finished]
