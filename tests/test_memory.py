"""ops/memory.py: what survives the young collections is frozen on a tick (issue 25: full
passes over every long-lived object of 2,000 live games took 180-420 ms, and collections
triggered by the allocation count 84-126 ms)."""

from __future__ import annotations

import asyncio
import gc
import io

import pytest

from ops import memory


@pytest.fixture
def unfrozen():
    yield
    gc.unfreeze()  # the other tests' collector as it was


class Node:
    pass


def frozen_cycles(pairs: int = 500) -> None:
    """``pairs`` cycles of two Nodes, frozen while alive, then let go: cyclic garbage that a
    full pass no longer sees (an interaction kept as a table's editor, then dropped)."""
    kept = []
    for _ in range(pairs):
        a, b = Node(), Node()
        a.b, b.a = b, a
        kept.append(a)
    del a, b
    memory.freeze()
    kept.clear()


def test_what_survives_the_young_collections_is_frozen(unfrozen):
    gc.collect()
    gc.freeze()
    kept = [[i] for i in range(3000)]  # alive: frozen, so no full pass walks them
    memory.collect_and_freeze()
    assert gc.get_freeze_count() >= 3000
    assert memory.old_generation() == 0
    assert gc.get_count()[0] < 100  # the young generation is empty after it
    assert len(kept) == 3000


def test_cyclic_garbage_is_collected_before_the_freeze(unfrozen):
    gc.collect()

    class Node:
        pass

    for _ in range(2000):
        a, b = Node(), Node()
        a.b, b.a = b, a  # a cycle, garbage at once
    del a, b
    memory.collect_and_freeze()
    assert not any(type(o) is Node for o in gc.get_objects())  # freed, not frozen
    gc.unfreeze()
    assert not any(type(o) is Node for o in gc.get_objects())


def test_a_state_replaced_by_a_move_is_frozen_without_the_count_moving(unfrozen):
    """A move frees the old state as it allocates the new one: the young count stays low
    while the young generation grows (CPython counts allocations minus deallocations); the
    tick collects and freezes it anyway."""
    gc.collect()
    gc.freeze()
    state = [[i] for i in range(4000)]
    memory.collect_and_freeze()
    gc.disable()  # no automatic collection in between: what the tick alone does
    try:
        state = [[i, 1] for i in range(4000)]  # the move: a new state, the old one freed
        young = sum(1 for o in gc.get_objects(0) if type(o) is list)
        assert young >= 4000 and gc.get_count()[0] < 1000  # grown, the count did not move
        memory.collect_and_freeze()
        assert len(gc.get_objects(0)) + memory.old_generation() < 100
    finally:
        gc.enable()
    assert len(state) == 4000


async def test_keep_frozen_ticks_periodically(unfrozen, monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "collect_and_freeze", lambda: calls.append("tick"))
    task = asyncio.create_task(memory.keep_frozen(period=0.001, thaw_every=0))
    for _ in range(1000):  # at most 10 s: counted in ticks, not by the clock
        if len(calls) >= 2 or task.done():
            break
        await asyncio.sleep(0.01)
    task.cancel()
    assert calls == ["tick"] * len(calls) and len(calls) >= 2


def test_a_thaw_frees_what_died_in_a_cycle_after_it_was_frozen(unfrozen):
    gc.collect()
    frozen_cycles(500)
    gc.collect()
    assert sum(type(o) is Node for o in gc.get_objects()) == 0  # frozen ones are not listed
    frozen = gc.get_freeze_count()
    assert memory.thaw() >= 1000
    assert gc.get_freeze_count() <= frozen - 1000  # freed, and what lives is frozen again
    assert memory.old_generation() == 0


async def _ticks(memory, calls, thaw_every, want=10):
    task = asyncio.create_task(memory.keep_frozen(period=0.001, thaw_every=thaw_every))
    for _ in range(1000):  # at most 10 s
        if len(calls) >= want or task.done():
            break
        await asyncio.sleep(0.01)
    task.cancel()
    return task


async def test_keep_frozen_thaws_when_a_count_finds_a_leak(unfrozen, monkeypatch):
    calls = []

    async def garbage():
        calls.append("count")
        return 10**9  # every frozen object dead: a leak

    monkeypatch.setattr(memory, "collect_and_freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(memory, "thaw", lambda: calls.append("thaw") or 0)
    monkeypatch.setattr(memory, "frozen_garbage", garbage)
    await _ticks(memory, calls, thaw_every=0.005, want=13)
    # every fifth tick a count starts; the thaw comes at the tick after it answered
    period = ["freeze"] * 4 + ["freeze", "count", "thaw"]
    assert calls[:13] == period + period[1:]
    assert memory.THAWED["garbage"] == 10**9


async def test_no_thaw_when_the_count_finds_little(unfrozen, monkeypatch):
    """The frozen objects grew (more live games), but nothing of them is dead: no full pass
    (it ran whenever they had grown by a quarter: 343 ms at 2,000 live games)."""
    calls = []

    async def garbage():
        calls.append("count")
        return 10  # under THAW_GARBAGE of the frozen objects

    gc.freeze()  # this process's objects: tens of thousands
    monkeypatch.setattr(memory, "collect_and_freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(memory, "thaw", lambda: calls.append("thaw") or 0)
    monkeypatch.setattr(memory, "grown_since", lambda frozen: True)
    monkeypatch.setattr(memory, "frozen_garbage", garbage)
    await _ticks(memory, calls, thaw_every=0.002, want=20)
    assert "count" in calls and "thaw" not in calls


async def test_without_a_count_a_thaw_follows_growth(unfrozen, monkeypatch):
    calls = []

    async def garbage():
        return None  # no fork here, or the copy did not answer

    monkeypatch.setattr(memory, "collect_and_freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(memory, "thaw", lambda: calls.append("thaw") or 0)
    monkeypatch.setattr(memory, "frozen_garbage", garbage)
    grown = [False]
    monkeypatch.setattr(memory, "grown_since", lambda frozen: grown[0])
    await _ticks(memory, calls, thaw_every=0.002, want=10)
    assert calls[:10] == ["freeze"] * 10  # counts were due every second tick: not grown
    calls.clear()
    grown[0] = True
    await _ticks(memory, calls, thaw_every=0.002, want=10)
    assert "thaw" in calls


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork here")
async def test_frozen_garbage_is_counted_in_a_copy_without_touching_the_process(unfrozen):
    gc.collect()
    memory.freeze()
    before = await memory.frozen_garbage()
    frozen_cycles(500)  # 1,000 frozen objects dead in cycles (and their 500 dicts)
    frozen = gc.get_freeze_count()
    after = await memory.frozen_garbage()
    assert after - before >= 1000
    assert gc.get_freeze_count() > frozen - 100  # this process collected none of them
    assert memory.thaw() >= 1000  # they were still here: a thaw frees them
    assert await memory.frozen_garbage() <= before  # and the count says so


async def test_a_copy_that_does_not_answer_is_killed(unfrozen, monkeypatch):
    """A copy that hangs (a lock another thread held at the fork) is killed at the timeout."""
    import os

    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    monkeypatch.setattr(memory, "_count_garbage", lambda: __import__("time").sleep(60))
    started = asyncio.get_running_loop().time()
    assert await memory.frozen_garbage(timeout=0.3) is None
    assert asyncio.get_running_loop().time() - started < 5


def test_a_sent_picture_leaves_no_cycle_behind():
    """discord.py closes a sent file by putting the buffer's own close back on it (a cycle a
    frozen buffer never leaves): a Picture's buffer goes with its last reference."""
    import weakref

    import discord

    from cogs.common import Picture

    def buffer_freed(make) -> bool:
        file = make(b"\x89PNG")
        buffer = weakref.ref(file.fp)
        file.close()  # what discord.py does after the request
        del file
        return buffer() is None

    gc.disable()  # reference counting alone
    try:
        assert buffer_freed(lambda data: Picture(data, "board.png"))
        assert not buffer_freed(lambda data: discord.File(io.BytesIO(data), "board.png"))
    finally:
        gc.enable()
    gc.collect()


def test_grown_since_counts_the_frozen_objects(unfrozen):
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    assert not memory.grown_since(frozen)
    kept = [[i] for i in range(frozen // 4 + 1000)]
    memory.collect_and_freeze()
    assert memory.grown_since(frozen)
    assert kept
