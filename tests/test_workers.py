"""host/workers.py: worker processes that the event loop speaks to through their pipes (issue
25: the executor's threads took the interpreter's lock from the loop on every call)."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from host.workers import Pool, Worker, WorkerDied


async def test_a_call_runs_in_the_worker_and_its_errors_come_back():
    worker = Worker()
    try:
        pid = await worker.call(os.getpid)
        assert pid == worker.pid and pid != os.getpid()
        assert await worker.call(divmod, 17, 5) == (3, 2)
        with pytest.raises(ValueError, match="invalid literal"):
            await worker.call(int, "seven")
        # what the called code prints goes to stderr, not into the answers' pipe
        assert await worker.call(print, "a line from the worker") is None
        assert await worker.call(sorted, [3, 1, 2]) == [1, 2, 3]
        assert await worker.call(os.getpid) == pid  # the same process all along
    finally:
        worker.close()


async def test_a_dead_worker_fails_its_calls_and_the_next_call_starts_a_new_one():
    worker = Worker()
    try:
        pid = await worker.call(os.getpid)
        slow = asyncio.ensure_future(worker.call(time.sleep, 30))
        await asyncio.sleep(0.2)
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(WorkerDied):
            await asyncio.wait_for(slow, 10)
        assert await worker.call(os.getpid) not in (pid, os.getpid())
    finally:
        worker.close()
    with pytest.raises(WorkerDied):  # closed: no new process
        await worker.call(os.getpid)


async def test_a_pool_sends_a_call_to_its_least_busy_worker():
    pool = Pool(2)
    try:
        await pool.start()
        first, second = pool.workers
        busy = asyncio.ensure_future(first.call(time.sleep, 1.0))
        await asyncio.sleep(0.05)
        assert await pool.call(os.getpid) == second.pid  # not behind the sleeping one
        await busy
        assert set(pool.pids()) == {first.pid, second.pid} and None not in pool.pids()
    finally:
        pool.close()


def test_a_worker_starting_as_the_loop_ends_lets_it_end():
    """A bot that stops as it starts (Discord unreachable) while its render worker is being
    started: asyncio.run returns (asyncio's create_subprocess_exec, cancelled there, waited
    for the child's end forever)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import asyncio\nfrom host.workers import Pool\n"
            "async def main():\n"
            "    asyncio.get_running_loop().create_task(Pool(1).start())\n"
            "    await asyncio.sleep(0)\n"
            "asyncio.run(main())\n")
    subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent,
                   timeout=60, check=True)
