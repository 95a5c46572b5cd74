"""Ratings without Discord: who is rated and as whom (host/ratings.py), openskill's numbers,
the store's update in the finishing transaction, the rebuild (store and ``python bot.py
ratings --rebuild``), the migration's filling of old results' AI levels, and the records the
community commands read (host/records.py)."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest
from openskill.models import PlackettLuce

import bot
import store.migrate as migrate
from host import records
from host.ratings import MIN_PLAYERS, Match, initial, match_of, ordinal
from store import Store

MODEL = PlackettLuce()


def openskill(current, players, ranks):
    teams = [[MODEL.rating(*current.get(p, (MODEL.mu, MODEL.sigma)))] for p in players]
    return {p: (t[0].mu, t[0].sigma)
            for p, t in zip(players, MODEL.rate(teams, ranks=ranks), strict=True)}


# --------------------------------------------------------------------- who is rated


def test_fewer_than_two_people_who_finished_is_not_rated():
    assert MIN_PLAYERS == 2
    assert match_of([("u1", 1, None), ("ai:1", 2, "fast"), ("ai:2", 3, "strong")]) is None
    # bob left: an AI finished his seat, so only ann finished
    assert match_of([("ann", 2, None), ("bob", 1, "fast"), ("ai:1", 3, "fast")]) is None
    assert match_of([("ann", 1, None), ("bob", 2, None)]) == Match((("ann", 1), ("bob", 2)))


def test_ai_seats_are_rated_per_level_and_a_player_who_left_is_last():
    match = match_of([("ann", 3, None), ("ai:1", 1, "strong"), ("cy", 1, "fast"),
                      ("bob", 2, None), ("ai:2", 4, None)])
    assert match.entrants == (("ann", 3), ("ai:strong", 1), ("cy", 5), ("bob", 2),
                              ("ai:fast", 4))
    assert match.players() == ["ann", "ai:strong", "cy", "bob", "ai:fast"]


def test_a_match_is_openskill_plackett_luce_with_ties():
    current = {"ann": (27.0, 6.0), "ai:strong": (30.0, 3.0)}
    match = match_of([("ann", 2, None), ("bob", 1, None), ("ai:1", 2, "strong")])
    expected = openskill(current, ["ann", "bob", "ai:strong"], [2, 1, 2])
    changes = {c.player: c for c in match.rate(current)}
    assert changes["bob"][2:4] == initial()
    for p, (mu, sigma) in expected.items():
        assert (changes[p].mu_after, changes[p].sigma_after) == pytest.approx((mu, sigma), abs=1e-12)
        assert changes[p].delta == pytest.approx(ordinal(mu, sigma) - changes[p].before)


def test_two_ai_seats_of_one_level_move_by_their_mean_change():
    match = match_of([("ann", 1, None), ("bob", 4, None), ("ai:1", 2, "fast"),
                      ("ai:2", 3, "fast")])
    rated = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[1, 4, 2, 3])
    ai = {c.player: c for c in match.rate({})}["ai:fast"]
    assert ai.rank == 2
    assert ai.mu_after == pytest.approx(MODEL.mu + ((rated[2][0].mu - MODEL.mu)
                                                    + (rated[3][0].mu - MODEL.mu)) / 2)
    assert ai.sigma_after == pytest.approx((rated[2][0].sigma + rated[3][0].sigma) / 2)


# --------------------------------------------------------------------- the store


async def finish(s: Store, now: float, results, guild="g1", channel="c1", lobby=None):
    """A game played to its end in one recorded action, rated as the host rates it."""
    gid = await s.create_game(guild, channel, "cubosaurs", {}, lobby or {"seats": []}, now)
    await s.start_game(gid, {"turn": 0}, now)
    rows = [{"seat": i, "user_id": u, "name": u, "rank": r, "score": 10 - r, "ai_level": lvl}
            for i, (u, r, lvl) in enumerate(results)]
    await s.record_action(gid, 0, results[0][0], {"type": "x"}, {"turn": 1}, now,
                          results=rows, rating=match_of(results))
    return gid


async def ratings_of(s: Store, guild="g1") -> dict:
    rows = await s._read("SELECT player_id, mu, sigma, games FROM ratings WHERE guild_id = ?",
                         (guild,))
    return {p: (mu, sigma, n) for p, mu, sigma, n in rows}


GAMES = [
    [("ann", 1, None), ("bob", 2, None), ("ai:1", 3, "strong")],
    [("ann", 3, None), ("bob", 1, None), ("ai:1", 2, "strong")],
    [("ann", 1, None), ("bob", 1, None), ("ai:1", 3, "strong")],
    [("ann", 1, None), ("ai:1", 2, "strong")],  # one person: not rated
]


async def test_the_finishing_transaction_rates_and_a_rebuild_gives_the_same(store_target):
    path = store_target  # a SQLite file, or a PostgreSQL database (conftest.py)
    async with Store.open(path) as s:
        for i, results in enumerate(GAMES):
            await finish(s, 1000.0 + i, results)
        # a cancelled game and a game of another server change nothing here
        gid = await s.create_game("g1", "c1", "cubosaurs", {}, {"seats": []}, 2000.0)
        await s.cancel_game(gid, 2001.0)
        await finish(s, 3000.0, GAMES[0], guild="g2", channel="c2")
        live = await ratings_of(s)
        expected: dict = {}
        for results in GAMES[:3]:
            players = ["ai:strong" if u.startswith("ai:") else u for u, _, _ in results]
            expected.update(openskill(expected, players, [r for _, r, _ in results]))
        assert set(live) == {"ann", "bob", "ai:strong"}
        for p, (mu, sigma) in expected.items():
            assert live[p] == (pytest.approx(mu, abs=1e-12), pytest.approx(sigma, abs=1e-12), 3)
        changes = await s.rating_changes(1)
        assert [c.player_id for c in changes] == ["ann", "bob", "ai:strong"]
        assert await s.rating_changes(4) == []
        assert await s.rebuild_ratings(match_of) == (4, 6)  # 3 here, 1 in g2; 3 + 3 ratings
        assert await ratings_of(s) == live
    if s.backend != "sqlite":
        return
    # the command line does the same from the file alone
    async with Store.open(path) as s:
        await s._write(lambda db: db.execute("UPDATE ratings SET mu = 0"))
    # (in a thread: the command runs its own event loop)
    assert await asyncio.to_thread(bot.main, ["ratings", "--rebuild", "--db", str(path)]) == 0
    async with Store.open(path) as s:
        assert await ratings_of(s) == live


def test_the_command_line_needs_rebuild_and_a_database(tmp_path, capsys):
    assert bot.main(["ratings", "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert bot.main(["ratings", "--rebuild", "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert "No database" in capsys.readouterr().err


async def test_records_read_back_stats_leaderboard_and_history(store_target):
    async with Store.open(store_target) as s:
        for i, results in enumerate(GAMES):
            await finish(s, 1000.0 + i, results)
        stats = await records.player_stats(s, "g1", "ann")
        assert len(stats) == 1
        st = stats[0]
        assert (st.kind, st.games, st.wins, st.best_score) == ("cubosaurs", 4, 3, 9)
        assert st.average_rank == pytest.approx((1 + 3 + 1 + 1) / 4)
        assert st.rated_games == 3 and st.change_games == 3
        mu, sigma, _ = (await ratings_of(s))["ann"]
        assert st.rating == pytest.approx(ordinal(mu, sigma))
        assert st.change == pytest.approx(st.rating - ordinal(*initial()))
        assert await records.player_stats(s, "g1", "ann", "evo") == []
        assert await records.player_stats(s, "g2", "ann") == []
        board = await records.leaderboard(s, "g1", "cubosaurs")
        rated = await ratings_of(s)
        assert [b.player_id for b in board] == sorted(rated, key=lambda p: -ordinal(*rated[p][:2]))
        assert {b.player_id: b.name for b in board} == {"ann": "ann", "bob": "bob",
                                                        "ai:strong": None}
        assert next(b for b in board if b.ai).level == "strong"
        # three rated games are needed: a fourth player with one is not on the board
        await finish(s, 5000.0, [("dan", 1, None), ("ann", 2, None)])
        assert "dan" not in {b.player_id for b in await records.leaderboard(s, "g1", "cubosaurs")}
        history = await records.channel_history(s, "c1")
        assert [h.id for h in history] == [5, 4, 3, 2, 1]
        assert history[2].winners == ["ann", "bob"] and history[2].players == ["ann", "bob", "ai:1"]


async def test_the_migration_fills_old_results_ai_levels(tmp_path, monkeypatch):
    path = tmp_path / "old.sqlite3"
    old = [m for m in migrate.load_migrations() if m.version <= 3]
    monkeypatch.setattr(migrate, "load_migrations", lambda: old)
    async with Store.open(path) as s:
        assert s.schema_version == 3
    lobby = {"seats": [{"id": "ann", "name": "ann", "ai": False},
                       {"id": "ai:1", "name": "AI 1", "ai": True, "level": "strong"},
                       {"id": "bob", "name": "bob", "ai": True}],
             "ai_level": "random"}
    con = sqlite3.connect(path)
    with con:
        con.execute("INSERT INTO games (id, guild_id, channel_id, kind, status, lobby, state, "
                    "seq, created_at, updated_at) VALUES (1, 'g1', 'c1', 'evo', 'finished', ?, "
                    "'{}', 1, 1.0, 3.0)", (json.dumps(lobby),))
        con.execute("INSERT INTO games (id, guild_id, channel_id, kind, status, lobby, "
                    "created_at, updated_at) VALUES (2, 'g1', 'c2', 'evo', 'broken', 'not json', "
                    "1.0, 3.0)")
        con.executemany("INSERT INTO results (game_id, user_id, seat, name, rank, score, kind, "
                        "finished_at) VALUES (?, ?, ?, ?, ?, 0, 'evo', 3.0)",
                        [(1, "ann", 0, "ann", 1), (1, "ai:1", 1, "AI 1", 2),
                         (1, "bob", 2, "bob", 3), (2, "ann", 0, "ann", 1)])
    con.close()
    monkeypatch.undo()
    async with Store.open(path) as s:
        rows = await s.game_results(1)
        assert [(r.user_id, r.ai_level) for r in rows] == [
            ("ann", None), ("ai:1", "strong"), ("bob", "random")]
        assert [r.ai_level for r in await s.game_results(2)] == [None]  # unreadable lobby
        # bob left that game to an AI: one person finished it, so it is not rated
        assert await s.rebuild_ratings(match_of) == (0, 0)


async def test_a_failing_rating_never_keeps_a_game_from_finishing(store_target, caplog):
    class Broken(Match):
        def rate(self, current):
            raise ZeroDivisionError("a bug in the math")

    async with Store.open(store_target) as s:
        gid = await s.create_game("g1", "c1", "cubosaurs", {}, {"seats": []}, 1.0)
        await s.start_game(gid, {"turn": 0}, 1.0)
        rows = [{"seat": 0, "user_id": "ann", "rank": 1}, {"seat": 1, "user_id": "bob", "rank": 2}]
        await s.record_action(gid, 0, "ann", {"type": "x"}, {"turn": 1}, 2.0, results=rows,
                              rating=Broken((("ann", 1), ("bob", 2))))
        assert (await s.get_game(gid)).status == "finished"
        assert await ratings_of(s) == {} and "was not rated" in caplog.text
        assert await s.rebuild_ratings(match_of) == (1, 2)  # the rebuild rates it
