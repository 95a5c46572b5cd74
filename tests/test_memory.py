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

    class Node:
        pass

    kept = []
    for _ in range(500):
        a, b = Node(), Node()
        a.b, b.a = b, a
        kept.append(a)
    del a, b
    memory.freeze()  # alive now: frozen (an interaction kept as a table's editor)
    kept.clear()  # then let go: cyclic garbage that a full pass no longer sees
    gc.collect()
    assert sum(type(o) is Node for o in gc.get_objects()) == 0  # frozen ones are not listed
    frozen = gc.get_freeze_count()
    assert memory.thaw() >= 1000
    assert gc.get_freeze_count() <= frozen - 1000  # freed, and what lives is frozen again
    assert memory.old_generation() == 0


async def test_keep_frozen_thaws_now_and_then(unfrozen, monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "collect_and_freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(memory, "thaw", lambda: calls.append("thaw") or 0)
    monkeypatch.setattr(memory, "grown_since", lambda frozen: True)
    task = asyncio.create_task(memory.keep_frozen(period=0.001, thaw_every=0.005))
    for _ in range(1000):  # at most 10 s
        if len(calls) >= 10 or task.done():
            break
        await asyncio.sleep(0.01)
    task.cancel()
    assert calls[:10] == (["freeze"] * 4 + ["thaw"]) * 2  # every fifth check


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


async def test_no_thaw_while_the_frozen_objects_do_not_grow(unfrozen, monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "collect_and_freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(memory, "thaw", lambda: calls.append("thaw") or 0)
    task = asyncio.create_task(memory.keep_frozen(period=0.001, thaw_every=0.002))
    for _ in range(1000):
        if len(calls) >= 10 or task.done():
            break
        await asyncio.sleep(0.01)
    task.cancel()
    assert calls[:10] == ["freeze"] * 10  # a thaw was due every second tick: not grown


def test_grown_since_counts_the_frozen_objects(unfrozen):
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    assert not memory.grown_since(frozen)
    kept = [[i] for i in range(frozen // 4 + 1000)]
    memory.collect_and_freeze()
    assert memory.grown_since(frozen)
    assert kept
