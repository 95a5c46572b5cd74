"""python bot.py migrate: a SQLite store copied into PostgreSQL (and back), every row equal, the
copy serving the same reads; a non-empty target refused."""

from __future__ import annotations

import asyncio

import bot
from host.ratings import match_of
from store import Store
from store.copy import TABLES, table_rows

PEOPLE = [("ann", 1, None), ("bob", 2, None), ("ai:1", 3, "strong")]


async def fill(s: Store) -> dict:
    """Finished (rated), active, lobby, cancelled and broken games, a rematch, settings."""
    ids = {}
    for i in range(3):
        gid = await s.create_game("g1", "c1", "evo", {"seed": i}, {"seats": ["ann", "bob"]},
                                  100.0 + i)
        await s.start_game(gid, {"turn": 0, "é": "ü"}, 100.5 + i)
        await s.record_action(gid, 0, "ann", {"type": "bid", "n": i}, {"turn": 1}, 101.0 + i)
        results = [{"seat": k, "user_id": u, "name": u, "rank": r, "score": 10 - r,
                    "ai_level": lvl} for k, (u, r, lvl) in enumerate(PEOPLE)]
        await s.record_action(gid, 1, "bob", {"type": "last"}, {"over": True}, 102.0 + i,
                              results=results, rating=match_of(PEOPLE))
        ids.setdefault("finished", []).append(gid)
    ids["rematch"] = await s.create_game("g1", "c1", "evo", None, {"seats": []}, 200.0,
                                         rematch_of=ids["finished"][-1])
    ids["active"] = await s.create_game("g1", "c2", "cubosaurs", {}, {"seats": []}, 201.0)
    await s.start_game(ids["active"], {"turn": 0}, 202.0, wake_at=260.0)
    for n in range(4):
        await s.record_action(ids["active"], n, "ai:1", {"n": n}, {"turn": n + 1}, 203.0 + n,
                              wake_at=300.0 + n)
    ids["cancelled"] = await s.create_game(None, "c3", "evo", None, None, 210.0)
    await s.cancel_game(ids["cancelled"], 211.0)
    ids["broken"] = await s.create_game("g2", "c4", "evo", None, {"seats": []}, 212.0)
    await s.set_aside(ids["broken"], "boom", 213.0)
    await s.save_guild_settings("g1", {"language": "it", "turn_timer": 90, "thread": True}, 5.0)
    return ids


async def reads(s: Store, ids: dict) -> list:
    """What the bot reads, everywhere it reads."""
    out = [await s.live_games(), await s.due_games(1e9), await s.log_heads(),
           await s.guild_settings("g1"), await s.results_for("ann"),
           await s.player_results("g1", "ann"), await s.player_ratings("g1", "ann"),
           await s.rating_history("g1", "evo", "ann"), await s.leaderboard("g1", "evo"),
           await s.channel_games("c1"), await s.rematch_id(ids["finished"][-1]),
           await s.latest_game_id("c1")]
    for gid in range(1, ids["broken"] + 1):
        out += [await s.get_game(gid), await s.actions(gid), await s.game_results(gid),
                await s.rating_changes(gid), await s.log_head(gid)]
    return out


async def rows(s: Store) -> dict:
    return {table: await table_rows(s, table) for table, _, _ in TABLES}


def test_a_sqlite_store_is_copied_to_postgresql_and_back(tmp_path, pg_url, capsys):
    path = tmp_path / "darwin.sqlite3"

    async def setup():
        async with Store.open(path) as s:
            return await fill(s), await rows(s)

    ids, before = asyncio.run(setup())
    assert bot.main(["migrate", "--from", f"sqlite:{path}", "--to", pg_url]) == 0
    out = capsys.readouterr().out
    assert out.strip() == ("games 7, actions 10, results 9, guild_settings 1, ratings 3, "
                           "rating_changes 9, web_links 0")

    async def compare():
        async with Store.open(path) as lite, Store.open(pg_url) as post:
            assert post.backend == "postgresql"
            assert await rows(post) == before  # every row equal
            assert await reads(post, ids) == await reads(lite, ids)
            # the copy goes on: the active game at its seq, new ids after the copied ones
            seq = await post.record_action(ids["active"], 4, "ann", {"n": 4}, {"turn": 5}, 400.0)
            assert seq == 5
            assert await post.create_game("g1", "c9", "evo", None, None, 401.0) == ids["broken"] + 1

    asyncio.run(compare())
    # a target that is not empty is refused, with a sentence, and left as it was
    assert bot.main(["migrate", "--from", f"sqlite:{path}", "--to", pg_url]) == 2
    err = capsys.readouterr().err
    assert "not empty" in err and "nothing was written" in err
    # and back, into a new SQLite file
    back = tmp_path / "back.sqlite3"
    assert bot.main(["migrate", "--from", pg_url, "--to", f"sqlite:{back}"]) == 0
    assert capsys.readouterr().out.startswith("games 8, actions 11")

    async def compare_back():
        async with Store.open(back) as s, Store.open(pg_url) as post:
            assert await rows(s) == await rows(post)

    asyncio.run(compare_back())


def test_a_missing_source_is_refused(tmp_path, capsys):
    assert bot.main(["migrate", "--from", f"sqlite:{tmp_path / 'none.sqlite3'}",
                     "--to", f"sqlite:{tmp_path / 'new.sqlite3'}"]) == 2
    assert "No database at" in capsys.readouterr().err
    assert not (tmp_path / "new.sqlite3").exists()
