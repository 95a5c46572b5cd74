"""ops/memory.py: the old generation is collected and frozen once it has grown (issue 25:
full passes over every long-lived object of 2,000 live games took 180-420 ms)."""

from __future__ import annotations

import asyncio
import gc

import pytest

from ops import memory


@pytest.fixture
def unfrozen():
    yield
    gc.unfreeze()  # the other tests' collector as it was


def test_the_old_generation_is_frozen_once_it_has_grown(unfrozen):
    gc.collect()
    kept = [[i] for i in range(3000)]  # long-lived: promoted to the old generation
    gc.collect(1)
    gc.collect(1)
    assert memory.old_generation() >= 3000
    assert not memory.freeze_if_grown(limit=10 ** 9)  # not grown that far: nothing done
    frozen = gc.get_freeze_count()
    assert memory.freeze_if_grown(limit=1000)
    assert gc.get_freeze_count() >= frozen + 3000
    assert memory.old_generation() == 0  # a full pass now walks none of them
    assert len(kept) == 3000


def test_cyclic_garbage_is_collected_before_the_freeze(unfrozen):
    gc.collect()

    class Node:
        pass

    for _ in range(2000):
        a, b = Node(), Node()
        a.b, b.a = b, a  # a cycle, garbage at once
    gc.collect(1)
    gc.collect(1)
    assert memory.freeze_if_grown(limit=1)
    assert not any(type(o) is Node for o in gc.get_objects())  # freed, not frozen


async def test_keep_frozen_checks_periodically(unfrozen, monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "freeze_if_grown", lambda limit: calls.append(limit))
    task = asyncio.create_task(memory.keep_frozen(period=0.01, limit=5))
    await asyncio.sleep(0.1)
    task.cancel()
    assert calls and set(calls) == {5}


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
    monkeypatch.setattr(memory, "freeze_if_grown", lambda limit: calls.append("freeze"))
    monkeypatch.setattr(memory, "thaw", lambda: calls.append("thaw") or 0)
    task = asyncio.create_task(memory.keep_frozen(period=0.001, limit=5, thaw_every=0.005))
    for _ in range(1000):  # at most 10 s
        if len(calls) >= 10 or task.done():
            break
        await asyncio.sleep(0.01)
    task.cancel()
    assert calls[:10] == (["freeze"] * 4 + ["thaw"]) * 2  # every fifth check
