"""Darwin: a Discord bot that hosts evolution-themed board games.

    python bot.py                      run the bot (needs a token: see config.example.toml)
    python bot.py --config FILE        run with another configuration file
    python bot.py demo evo --players 4 --seed 1 --out demo-out
                                       play a whole game offline with AI seats
    python bot.py replay GAME_ID --db PATH --out FILE.gif
                                       a stored game as an animated GIF, rebuilt from its
                                       seed and action log (offline; says if it is exact)
    python bot.py ratings --rebuild [--db PATH]
                                       recompute every rating from the stored results
    python bot.py migrate --from sqlite:PATH --to postgresql://USER:PASSWORD@HOST/DB
                                       copy every game, action, result, setting and
                                       rating into an empty store (either direction)
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tomllib
from pathlib import Path

DEFAULT_CONFIG = Path("config.toml")
NO_TOKEN = (
    "No Discord token: set DISCORD_TOKEN or [discord] token in config.toml "
    "(see config.example.toml). Without a token, try the offline demo: python bot.py demo evo"
)


def load_config(path: Path | None) -> dict:
    """The configuration file merged over the example's defaults; DISCORD_TOKEN,
    DARWIN_DATABASE, DARWIN_SHARD_COUNT and DARWIN_SHARD_IDS win (shards are checked by
    ``host.shards.shard_plan``)."""
    here = Path(__file__).resolve().parent
    with open(here / "config.example.toml", "rb") as f:
        config = tomllib.load(f)
    chosen = path or (DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None)
    if chosen is not None:
        with open(chosen, "rb") as f:
            for section, values in tomllib.load(f).items():
                config.setdefault(section, {}).update(values)
    token = os.environ.get("DISCORD_TOKEN")
    if token:
        config["discord"]["token"] = token
    database = os.environ.get("DARWIN_DATABASE")
    if database:
        config["storage"]["database"] = database
    for variable, key in (("DARWIN_SHARD_COUNT", "shard_count"), ("DARWIN_SHARD_IDS", "shard_ids")):
        value = os.environ.get(variable)
        if value is not None and value.strip():
            config["discord"][key] = value
    url = os.environ.get("DATABASE_URL")  # a PostgreSQL server instead of the SQLite file
    if url:
        config["storage"]["database_url"] = url
    return config


async def check_storage(config: dict) -> None:
    """Open the configured database (migrating it), check that it is undamaged and writable,
    and close it; raises StoreError with a sentence for the server admin."""
    from store import Store, configured_target

    async with Store.open(configured_target(config)) as store:
        await store.check()


def run_bot(config: dict) -> int:
    token = config["discord"].get("token", "").strip()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from host.shards import ShardConfigError, shard_plan

    try:  # the shards this process runs: checked before anything else is opened
        shard_plan(config["discord"])
    except ShardConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    logging.basicConfig(level=config["logging"]["level"],
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from store import StoreError

    try:  # before logging in: a database that cannot be used stops here, in one sentence
        asyncio.run(check_storage(config))
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 2
    from cogs.bot import DarwinBot  # imported late: the demo must not need discord.py

    bot = DarwinBot(config)
    bot.freeze_after_start = True
    try:
        bot.run(token, log_handler=None)
    except StoreError as exc:  # the database cannot be used: say so in one sentence
        print(exc, file=sys.stderr)
        return 2
    return 0


def chosen_database(args: argparse.Namespace) -> str | None:
    """``--db`` (a SQLite file or a postgresql:// URL) or the configured store; None (and a
    sentence) when it names a SQLite file that does not exist."""
    from store import configured_target
    from store.pg import is_url

    database = args.db or configured_target(load_config(args.config))
    if not is_url(database) and not Path(database).exists():
        print(f"No database at {database}", file=sys.stderr)
        return None
    return database


def run_replay(args: argparse.Namespace) -> int:
    """``bot.py replay``: the game's GIF written to ``--out``; prints its frames, size and
    whether the replay reproduced the stored state exactly. Exit status 0 when exact, 1 when
    the GIF was written but the replay is not exact, 2 when there is nothing to replay."""
    from host import HostError
    from host.replay import replay_gif
    from messages import t
    from store import Store, StoreError

    database = chosen_database(args)
    if database is None:
        return 2

    async def replay():
        async with Store.open(database) as store:
            return await replay_gif(store, args.game_id, args.lang)

    try:
        result = asyncio.run(replay())
    except HostError as exc:
        print(t(f"bot.error.{exc.code}", args.lang, **exc.params), file=sys.stderr)
        return 2
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 2
    out = args.out or Path(f"replay-{args.game_id}.gif")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(result.gif)
    print(f"game {result.game_id} ({result.kind}, {result.status}, {result.actions} log entries): "
          f"{result.frames} frames of {result.phases} phase images, {result.size} bytes, "
          f"{result.width}x{result.height}, written to {out}")
    if result.exact:
        print("exact: the replay reproduces the stored state")
        return 0
    print(f"NOT exact: {result.error}")
    return 1


async def rebuild_ratings(database) -> tuple[int, int]:
    """Every rating recomputed from the stored results, in the order the games finished:
    (games rated, ratings written)."""
    from host.ratings import match_of
    from store import Store

    async with Store.open(database) as store:
        return await store.rebuild_ratings(match_of)


def run_ratings(args: argparse.Namespace) -> int:
    """``bot.py ratings --rebuild``: the ratings table rebuilt from the results table."""
    if not args.rebuild:
        print("Nothing to do: python bot.py ratings --rebuild [--db PATH]", file=sys.stderr)
        return 2
    database = chosen_database(args)
    if database is None:
        return 2
    from store import StoreError

    try:
        games, ratings = asyncio.run(rebuild_ratings(database))
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"{games} rated games, {ratings} ratings rebuilt in {database}")
    return 0


def run_migrate(args: argparse.Namespace) -> int:
    """``bot.py migrate``: every row of one store copied into an empty one (store/copy.py);
    prints the counts. Exit status 0, or 2 with a sentence (nothing written)."""
    from store import StoreError
    from store.copy import copy_between

    try:
        counts = asyncio.run(copy_between(args.source, args.target))
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(", ".join(f"{table} {count}" for table, count in counts.items()))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bot.py", description="Darwin board-game bot")
    parser.add_argument("--config", type=Path, help="configuration file (default: config.toml)")
    sub = parser.add_subparsers(dest="command")
    demo_parser = sub.add_parser("demo", help="play a whole game offline with AI seats")
    import demo

    demo.add_arguments(demo_parser)
    replay_parser = sub.add_parser(
        "replay", help="a stored game as an animated GIF, rebuilt from its seed and action log")
    replay_parser.add_argument("game_id", type=int, metavar="GAME_ID")
    replay_parser.add_argument("--db", help="a SQLite file or a postgresql:// URL (default: "
                                            "the configured database)")
    replay_parser.add_argument("--out", type=Path, help="the GIF (default: replay-GAME_ID.gif)")
    replay_parser.add_argument("--lang", default="en", choices=["en", "it", "fr"])
    ratings_parser = sub.add_parser("ratings", help="the players' ratings (openskill)")
    ratings_parser.add_argument("--rebuild", action="store_true",
                                help="recompute every rating from the stored results")
    ratings_parser.add_argument("--db", help="a SQLite file or a postgresql:// URL (default: "
                                             "the configured database)")
    migrate_parser = sub.add_parser(
        "migrate", help="copy every row of one store into an empty one (SQLite <-> PostgreSQL)")
    migrate_parser.add_argument("--from", dest="source", required=True, metavar="SOURCE",
                                help="sqlite:PATH or postgresql://USER:PASSWORD@HOST/DB")
    migrate_parser.add_argument("--to", dest="target", required=True, metavar="TARGET",
                                help="an empty store: postgresql://... or sqlite:PATH")
    args = parser.parse_args(argv)
    if args.command == "migrate":
        return run_migrate(args)
    if args.command == "ratings":
        return run_ratings(args)
    if args.command == "demo":
        return demo.main(args)
    if args.command == "replay":
        return run_replay(args)
    if args.config is not None and not args.config.exists():
        print(f"Configuration file not found: {args.config}", file=sys.stderr)
        return 2
    return run_bot(load_config(args.config))


if __name__ == "__main__":
    sys.exit(main())
