"""Worker processes spoken to by the event loop itself, through their pipes.

The AI seats think and the boards are drawn in worker processes, so that the event loop keeps
the interpreter's lock (host/ai_pool.py, cogs/common.py). ``concurrent.futures``'
ProcessPoolExecutor talks to its workers through two threads of its own (one pickles and
sends the calls, one waits for the results): each call passes the interpreter's lock between
them and the loop several times. Measured (2,000 calls of a trivial function with a Climate
state, on the shared 2-core machine): 440-570 µs of the bot process's CPU per call through
the executor, 150-190 µs through pipes that the event loop reads itself; under load the
executor's threads held the lock for 12% of the bot process's busy time (py-spy, the four
games at 2,000 live games). Here a call is one pickled frame written to the worker's stdin
and its answer one frame read from its stdout, by the loop, with no thread.

A :class:`Worker` is one process (a fresh interpreter, never a fork of the bot), started at
its first call (or by :meth:`Worker.start`); a :class:`Pool` sends each call to the worker
with the fewest calls under way. A worker that dies (killed, out of memory) fails the calls
under way with :class:`WorkerDied` (a ``BrokenProcessPool``, as the executor's), and the next
call starts a new one. What a called function raises is raised to its caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import signal
import struct
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger("darwin.workers")

_HEADER = struct.Struct("!I")  # each frame: its length, then the pickle


class WorkerDied(BrokenProcessPool):
    """The worker process ended while calls were under way (or could not start)."""


def _serve(warm: Callable[[], Any] | None, nice: int) -> None:
    """The worker's loop: read a call, run it, write its answer, until stdin is closed.
    Its stdout is the answers' channel: anything printed goes to stderr instead. Ctrl+C in
    the bot's terminal reaches the worker too: it is ignored, and the worker goes when the
    bot, stopping gracefully, closes its pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    calls = os.fdopen(0, "rb", buffering=0)
    answers = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    if nice:
        os.nice(nice)
    if warm is not None:
        warm()

    def read(n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = calls.read(n - len(data))
            if not chunk:
                raise SystemExit(0)  # the bot closed the pipe: its worker goes
            data += chunk
        return data

    while True:
        (size,) = _HEADER.unpack(read(_HEADER.size))
        call_id, fn, args = pickle.loads(read(size))
        try:
            answer = (call_id, True, fn(*args))
        except Exception as exc:  # noqa: BLE001 - every failure goes back to the caller
            answer = (call_id, False, exc)
        try:
            frame = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an answer that cannot be pickled: said so
            frame = pickle.dumps((call_id, False, RuntimeError(
                f"the worker's answer could not be sent: {exc!r}")))
        answers.write(_HEADER.pack(len(frame)) + frame)


class Worker:
    """One worker process (see the module text). ``warm``: a picklable function it runs
    once at start, before its first call; ``nice``: how much below the bot it runs."""

    def __init__(self, warm: Callable[[], Any] | None = None, nice: int = 0) -> None:
        self.warm = warm
        self.nice = nice
        self.pending: dict[int, asyncio.Future] = {}
        self._proc: subprocess.Popen | None = None
        self._calls: asyncio.WriteTransport | None = None  # its stdin
        self._answers: asyncio.ReadTransport | None = None  # its stdout
        self._starting: asyncio.Task | None = None
        self._reader: asyncio.Task | None = None
        self._ids = 0
        self.closed = False

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    async def start(self) -> None:
        """Start the process now (else at the first call)."""
        if self._proc is not None and self._proc.poll() is None:
            return
        if self._starting is None or self._starting.done():
            self._starting = asyncio.ensure_future(self._spawn())
        await asyncio.shield(self._starting)

    async def _spawn(self) -> None:
        # the bot's import path, what to warm up and the niceness, as an argument
        setup = pickle.dumps((list(sys.path), self.warm, self.nice)).hex()
        code = ("import pickle, sys; path, warm, nice = pickle.loads(bytes.fromhex(sys.argv[1]));"
                " sys.path[:] = path; from host.workers import _serve; _serve(warm, nice)")
        # subprocess.Popen and the loop's pipe transports, not asyncio's
        # create_subprocess_exec: cancelled while starting (a bot that stops as it starts),
        # that one waits for the child's end and asyncio.run never returns (Python 3.11)
        proc = subprocess.Popen([sys.executable, "-c", code, setup], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE)
        loop = asyncio.get_running_loop()
        try:
            out = asyncio.StreamReader(limit=2 ** 26, loop=loop)
            answers, _ = await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(out, loop=loop), proc.stdout)
            calls, _ = await loop.connect_write_pipe(asyncio.Protocol, proc.stdin)
        except BaseException:
            proc.kill()
            raise
        if self.closed:  # closed while it started
            answers.close()
            calls.close()
            proc.kill()
            return
        self._proc, self._calls, self._answers = proc, calls, answers
        self._reader = asyncio.ensure_future(self._read(proc, out))

    async def call(self, fn: Callable, *args: Any) -> Any:
        """``fn(*args)`` in the worker (``fn`` by reference: a module's function)."""
        if self.closed:
            raise WorkerDied("the worker is closed")
        await self.start()
        calls = self._calls
        if self._proc is None or calls is None or calls.is_closing():
            raise WorkerDied("the worker process ended as it started")
        self._ids += 1
        call_id = self._ids
        frame = pickle.dumps((call_id, fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        future = asyncio.get_running_loop().create_future()
        self.pending[call_id] = future
        calls.write(_HEADER.pack(len(frame)) + frame)
        try:
            return await future
        finally:
            self.pending.pop(call_id, None)

    async def _read(self, proc: subprocess.Popen, out: asyncio.StreamReader) -> None:
        try:
            while True:
                (size,) = _HEADER.unpack(await out.readexactly(_HEADER.size))
                call_id, ok, value = pickle.loads(await out.readexactly(size))
                future = self.pending.get(call_id)
                if future is None or future.done():
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the process ended
        except Exception:  # noqa: BLE001 - a damaged answer: the worker cannot be trusted
            log.exception("a worker process sent a damaged answer; it is replaced")
        if self._proc is proc:
            self._drop()
        error = WorkerDied("a worker process ended while thinking or drawing")
        for future in list(self.pending.values()):
            if not future.done():
                future.set_exception(error)

    def _drop(self) -> None:
        """Let go of the process: killed, its pipes closed, reaped once it has ended."""
        proc, self._proc = self._proc, None
        for transport in (self._calls, self._answers):
            if transport is not None:
                with contextlib.suppress(RuntimeError):  # the loop is closed already
                    transport.close()
        self._calls = self._answers = None
        if proc is not None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            for pipe in (proc.stdin, proc.stdout):
                with contextlib.suppress(OSError):
                    pipe.close()
            if proc.poll() is None:  # a zombie for a moment: reaped a little later
                with contextlib.suppress(RuntimeError):
                    asyncio.get_running_loop().call_later(1.0, proc.poll)

    def close(self) -> None:
        """Stop the process (calls under way fail with WorkerDied)."""
        self.closed = True
        if self._reader is not None:
            self._reader.cancel()
        self._drop()
        for future in self.pending.values():
            if not future.done():
                future.set_exception(WorkerDied("the worker was closed"))


class Pool:
    """``size`` workers; a call goes to the one with the fewest calls under way."""

    def __init__(self, size: int = 1, warm: Callable[[], Any] | None = None,
                 nice: int = 0) -> None:
        self.workers = [Worker(warm, nice) for _ in range(max(1, int(size)))]

    async def start(self) -> None:
        await asyncio.gather(*(w.start() for w in self.workers))

    async def call(self, fn: Callable, *args: Any) -> Any:
        worker = min(self.workers, key=lambda w: len(w.pending))
        return await worker.call(fn, *args)

    def pids(self) -> list[int | None]:
        return [w.pid for w in self.workers]

    def close(self) -> None:
        for worker in self.workers:
            worker.close()
