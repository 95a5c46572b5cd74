"""A throwaway PostgreSQL cluster for the tests: started once per session from the system
binaries (initdb, pg_ctl), in a temporary folder, on a free port of 127.0.0.1 only; stopped
and deleted at the end. As root (CI), initdb and postgres refuse to run: they run as the
``postgres`` system user (runuser), which owns the folder (``nobody`` on a machine without
one)."""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = "PostgreSQL binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin"


# Stops the server when the test process is gone without its teardown (killed, SIGTERM):
# polls the process, then stops the server and deletes the folder.
WATCHDOG = """
import os, shutil, subprocess, sys, time
pid, root, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
while True:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        break
    time.sleep(0.5)
subprocess.run(command, capture_output=True, timeout=60)
shutil.rmtree(root, ignore_errors=True)
"""


def binaries() -> Path | None:
    """The folder holding initdb and pg_ctl, None without them."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl", path=str(Path(found).parent)):
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """``start()`` then ``url(dbname)``; ``stop()`` removes everything."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        root = os.geteuid() == 0
        # as root, in /tmp: the postgres user must be able to reach the folder (TMPDIR may not)
        self.root = Path(tempfile.mkdtemp(prefix="darwin-pg-",
                                          dir="/tmp" if root and os.path.isdir("/tmp") else None))
        self.data = self.root / "data"
        self.port = _free_port()
        self.prefix: list[str] = []
        if root:  # initdb and postgres refuse root
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                user = pwd.getpwnam("nobody")
            runuser = shutil.which("runuser")
            self.prefix = [runuser, "-u", user.pw_name, "--"] if runuser else [
                shutil.which("setpriv") or "setpriv", f"--reuid={user.pw_uid}",
                f"--regid={user.pw_gid}", "--clear-groups"]
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self.started = False
        self._watchdog: subprocess.Popen | None = None
        self._names = itertools.count(1)
        self._shared: str | None = None

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self.prefix, *args], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed ({done.returncode}): "
                               f"{done.stderr or done.stdout}")

    def start(self) -> None:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync")
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} "
                   f"-c unix_socket_directories='{self.root}' -c fsync=off "
                   f"-c synchronous_commit=off -c full_page_writes=off -c max_connections=50")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                  str(self.root / "server.log"), "-o", options, "-w", "-t", "30", "start")
        self.started = True
        atexit.register(self.stop)  # should the session end without its teardown
        stop = [*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                "-w", "stop"]
        self._watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG, str(os.getpid()), str(self.root), *stop],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)  # a Ctrl-C in the terminal is for pytest, not for it

    async def create_database(self) -> str:
        """A new, empty database: its URL."""
        import asyncpg

        name = f"darwin_test_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        finally:
            await conn.close()
        return self.url(name)

    async def new_database(self) -> str:
        """What a test's store opens: a new, empty schema of the tests' database, first on
        the connection's search_path (as good as a new database for the store, and some
        ten times cheaper to make than CREATE DATABASE)."""
        import asyncpg

        if self._shared is None:
            self._shared = await self.create_database()
        name = f"t{next(self._names)}"
        conn = await asyncpg.connect(self._shared)
        try:
            await conn.execute(f"CREATE SCHEMA {name}")
        finally:
            await conn.close()
        return f"{self._shared}?search_path={name}"

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def stop(self) -> None:
        """Stop the server (immediately: nothing here is worth a checkpoint) and delete its
        folder. Harmless twice."""
        if self._watchdog is not None:
            self._watchdog.kill()
            self._watchdog.wait()
            self._watchdog = None
        try:
            if self.started:
                self.started = False
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                          "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
