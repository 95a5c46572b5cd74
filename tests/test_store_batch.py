"""SQLite's group commit runs a whole batch in one call to the connection's thread (issue 25:
one round trip through the event loop per statement made a burst of Starts wait seconds)."""

from __future__ import annotations

import asyncio

import aiosqlite
import pytest

from store import Store, StoreError


async def started(s: Store, n: int) -> list[int]:
    ids = []
    for i in range(n):
        gid = await s.create_game("g1", f"c{i}", "evo", {}, {"seats": ["u1"]}, 1000.0 + i)
        ids.append(gid)
    return ids


async def test_a_batch_of_writes_is_one_call_to_the_connections_thread(monkeypatch):
    async with Store.open(":memory:") as s:
        ids = await started(s, 40)
        calls = []
        execute = aiosqlite.Connection._execute

        async def counted(self, fn, *args, **kwargs):
            calls.append(getattr(fn, "__name__", repr(fn)))
            return await execute(self, fn, *args, **kwargs)

        monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
        await asyncio.gather(*(s.start_game(gid, {"turn": 0}, 2000.0, lobby={"seats": ["u1"]})
                               for gid in ids))
        # the first write alone, then the 39 that queued meanwhile together: 2 calls, not
        # one per statement (BEGIN, a SELECT and an UPDATE each, COMMIT: 160 and more)
        assert len(calls) <= 3
        monkeypatch.undo()
        assert [(await s.get_game(gid)).status for gid in ids] == ["active"] * 40


async def test_a_failing_write_in_a_threaded_batch_leaves_the_others_whole():
    async with Store.open(":memory:") as s:
        ids = await started(s, 6)
        await s.start_game(ids[2], {"turn": 0}, 2000.0)  # started already: refused
        results = await asyncio.gather(*(s.start_game(gid, {"turn": 1}, 2001.0) for gid in ids),
                                       return_exceptions=True)
        assert [isinstance(r, Exception) for r in results] == [False, False, True, False,
                                                               False, False]
        assert (await s.get_game(ids[2])).decoded().state == {"turn": 0}
        assert [(await s.get_game(g)).decoded().state for g in ids if g != ids[2]] \
            == [{"turn": 1}] * 5


async def test_a_write_that_waits_for_something_else_is_refused_and_rolled_back():
    async with Store.open(":memory:") as s:
        ids = await started(s, 1)

        async def body(db):
            await db.execute("UPDATE games SET kind = 'climate' WHERE id = ?", (ids[0],))
            await asyncio.sleep(0)  # not the database: no other coroutine runs in its thread

        with pytest.raises((RuntimeError, StoreError), match="waited for"):
            await s._write(body)
        assert (await s.get_game(ids[0])).kind == "evo"
        await s.start_game(ids[0], {"turn": 0}, 2000.0)  # the connection is usable again
        assert (await s.get_game(ids[0])).status == "active"
