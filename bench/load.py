"""Darwin under load over real sockets: the fake Discord, the bot in OS processes, fake players.

    python bench/load.py --guilds 1000 --games 2000 --shards 4 --processes 2 --db sqlite \\
        [--rate 50] [--seconds N] [--seed S] [--rate-limit-share 0.05]

Starts the fake Discord (``fakediscord``: REST + gateway on 127.0.0.1), the bot in
``--processes`` OS processes (``python -m fakediscord.launcher``: the unmodified
``cogs.bot.DarwinBot``, token "fake", its share of the ``--shards`` shards, the database),
creates the guilds and channels, opens ``--games`` games (``--kinds``: Cubosaurs by default,
``all`` for the four in turn; a fake person and AI seats each, AI delay 0; ``--to-end N``:
the first N are served first, to be played to their end) and plays them at ``--rate`` interactions per second for at most
``--seconds``. Prints ``NAME VALUE UNIT``:

* ``load.interaction_p50_ms`` / ``_p99_ms``: INTERACTION_CREATE sent -> the bot's first
  REST call about it received by the fake;
* ``load.actions_per_s``: moves the bot acknowledged per second, sustained over the run
  (``load.interactions_per_s``: every interaction sent, lobby steps and menus included);
* ``load.rest_calls_per_action``: the bot's REST calls (after start-up) per interaction
  (``load.rest_calls_per_move``: per acknowledged move);
* ``load.global_calls_per_move``: the REST calls bound to Discord's global limit (50/s for
  the whole bot: everything but the interaction endpoints), 429s included, per acknowledged
  move; ``load.exempt_calls_per_move``: the interaction endpoints' (callbacks, followups,
  edits through an interaction's token); ``load.moves_per_s_at_global_limit``: 50 / the
  first, the moves a second the whole bot could sustain before Discord throttles it;
* ``load.gc_max_pause_ms``: the longest garbage-collection pause in a bot process once its
  gateway is ready (timed with ``gc.callbacks``, wall clock; start-up's and the longest
  pause's generation and moment are in the details; ``load.gc_max_pause_cpu_ms``: the collecting thread's
  CPU time in it, which a machine shared with other work does not inflate;
  ``load.gc_full_collections``: how many full ones);
* ``load.rss_mb_per_1000_games``: the bot processes' RSS grown during the run, per 1000
  games started (``load.rss_mb``: their RSS at the end of the run);

then checks that every interaction was answered, that every route answered 429 succeeded
when retried, that every acknowledged move is stored and that every game's stored state is
the replay of its log (``load.lost``, ``load.not_exact``...; exit status 1 if not).

``--db postgresql`` starts a throwaway PostgreSQL cluster (initdb/pg_ctl from
/usr/lib/postgresql/15/bin, as the ``postgres`` user when run as root; a temporary data
directory, a free port on 127.0.0.1) and passes its URL as ``[storage] database_url`` and
DATABASE_URL; it is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fakediscord.driver import LoadConfig, run_load  # noqa: E402

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def postgres_cluster():
    """A throwaway cluster on 127.0.0.1; yields its URL and stops it at the end."""
    root = os.geteuid() == 0
    tmp = Path(tempfile.mkdtemp(prefix="darwin-pg-"))
    data = tmp / "data"
    port = free_port()
    as_pg = ["runuser", "-u", "postgres", "--"] if root else []
    if root:
        shutil.chown(tmp, "postgres", "postgres")
    subprocess.run(as_pg + [str(PG_BIN / "initdb"), "-D", str(data), "-U", "darwin",
                            "--auth=trust", "-E", "UTF8"], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(as_pg + [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(tmp / "log"),
                            "-o", f"-p {port} -k {tmp} -c listen_addresses=127.0.0.1 "
                                  "-c max_connections=200 -c fsync=on", "-w", "start"],
                   check=True, stdout=subprocess.DEVNULL)
    try:
        subprocess.run(as_pg + [str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(port),
                                "-U", "darwin", "darwin"], check=True)
        yield f"postgresql://darwin@127.0.0.1:{port}/darwin"
    finally:
        subprocess.run(as_pg + [str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "fast", "-w",
                                "stop"], stdout=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Darwin under load over real sockets")
    parser.add_argument("--guilds", type=int, default=1000,
                        help="fake servers created (default: 1000)")
    parser.add_argument("--games", type=int, default=2000,
                        help="Cubosaurs games opened over the servers (default: 2000)")
    parser.add_argument("--shards", type=int, default=1,
                        help="Discord shards in all (default: 1)")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes sharing the shards, 1 to --shards (default: 1)")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite",
                        help="one SQLite file, or a throwaway PostgreSQL cluster (default: "
                             "sqlite)")
    parser.add_argument("--rate", type=float, default=50.0, help="interactions per second")
    parser.add_argument("--seconds", type=float, default=120.0, help="the run's time limit")
    parser.add_argument("--seed", type=int, default=1,
                        help="the seed of the games and of the players' choices (default: 1)")
    parser.add_argument("--ais", type=int, default=1,
                        help="AI seats per game (at least as many as the game needs)")
    parser.add_argument("--kinds", default="cubosaurs",
                        help="the games, in turn over the tables: a comma-separated list, or "
                             "'all' (default: cubosaurs)")
    parser.add_argument("--to-end", type=int, default=0,
                        help="the first N games are served first, to be played to their end")
    parser.add_argument("--rate-limit-share", type=float, default=0.05,
                        help="share of REST calls answered 429 (callbacks excepted)")
    parser.add_argument("--diagnose", action="store_true",
                        help="the bots log garbage collections of 20 ms or more and event-loop "
                             "stalls of 100 ms or more (in WORKDIR/bot-N.log)")
    parser.add_argument("--workdir", type=Path, help="databases, bot configs and logs "
                                                     "(default: a temporary folder)")
    args = parser.parse_args(argv)
    if args.processes < 1 or args.shards < args.processes:
        parser.error("--processes must be between 1 and --shards")
    if args.db == "postgresql":
        import store

        if not hasattr(store, "configured_target"):
            print("This checkout's store has no PostgreSQL backend yet ([storage] database_url "
                  "would be ignored): run with --db sqlite", file=sys.stderr)
            return 2
    from engine.core import game_kinds

    kinds = tuple(game_kinds()) if args.kinds == "all" else tuple(args.kinds.split(","))
    unknown = [k for k in kinds if k not in game_kinds()]
    if unknown:
        parser.error(f"unknown games: {', '.join(unknown)}")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="darwin-load-"))
    cfg = LoadConfig(guilds=args.guilds, games=args.games, shards=args.shards,
                     processes=args.processes, db=args.db, rate=args.rate,
                     seconds=args.seconds, seed=args.seed, ais=args.ais,
                     rate_limit_share=args.rate_limit_share, workdir=workdir,
                     diagnose=args.diagnose, kinds=kinds, to_end=args.to_end)
    print(f"# workdir {workdir}", flush=True)
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        if args.db == "postgresql":
            cfg.database_url = stack.enter_context(postgres_cluster())
        report = asyncio.run(run_load(cfg, out=lambda line: print(line, flush=True)))
    for key, value in report["details"].items():
        if value:
            print(f"# {key}: {value}")
    print(f"# wall {time.monotonic() - started:.1f} s")
    bad = (report["load.unanswered"] or report["load.lost"] or report["load.not_exact"]
           or report["load.not_retried"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
