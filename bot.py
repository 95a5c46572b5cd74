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
import re
import sys
from pathlib import Path

NO_TOKEN = (
    "No Discord token: set DISCORD_TOKEN or [discord] token in config.toml "
    "(see config.example.toml). Without a token, try the offline demo: python bot.py demo evo"
)
# Discord unreachable at start (network down, DNS failing, Discord's servers failing): the
# seconds waited before each new attempt (5 min 15 s in all); then Darwin gives up, exit 1.
CONNECT_RETRY_DELAYS = (5, 10, 20, 40, 80, 160)

log = logging.getLogger("darwin")


def load_config(path: Path | None) -> dict:
    """The configuration, checked (configuration.py): ConfigError lists every fault."""
    from configuration import load_config as load

    return load(path)


async def check_storage(config: dict) -> None:
    """Open the configured database (migrating it), check that it is undamaged and writable,
    and close it; raises StoreError with a sentence for the server admin."""
    from store import Store, configured_target

    async with Store.open(configured_target(config)) as store:
        await store.check()


def run_bot(config: dict) -> int:
    token = config["discord"]["token"].strip()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    logging.basicConfig(level=config["logging"]["level"],
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from store import StoreError

    try:  # before logging in: a database that cannot be used stops here, in one sentence
        asyncio.run(check_storage(config))
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        return asyncio.run(start_bot(config, token))
    except StoreError as exc:  # the database cannot be used: say so in one sentence
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


def unreachable(exc: BaseException) -> bool:
    """Does this failure to start mean that Discord cannot be reached (for now)? (Not any
    OSError: a file that cannot be read is no network problem.)"""
    import socket

    import aiohttp
    import discord

    return isinstance(exc, (aiohttp.ClientConnectionError, ConnectionError, socket.gaierror,
                            TimeoutError, discord.GatewayNotFound, discord.DiscordServerError))


async def start_bot(config: dict, token: str) -> int:
    """Log in and run until the bot is closed (0). Discord unreachable: one sentence, a new
    bot after each of ``CONNECT_RETRY_DELAYS``, then 1; a refused token: one sentence, 2."""
    import discord

    from cogs.bot import DarwinBot  # imported late: the demo must not need discord.py
    from cogs.common import draw_in_process
    from ops import memory

    # a game bot never joins a voice channel: no warning at every start that voice support
    # (PyNaCl, davey) is not installed
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    delays = list(CONNECT_RETRY_DELAYS)
    for attempt in range(1, len(delays) + 2):
        bot = DarwinBot(config)
        bot.freeze_after_start = True
        memory.install(bot)  # the garbage collector's settings (ops/memory.py: measured)
        draw_in_process(bot)  # boards drawn in a worker process (cogs/common.py: measured)
        try:
            async with bot:
                await bot.start(token)
            return 0
        except discord.LoginFailure as exc:
            log.error("Discord refused the token (%s): check DISCORD_TOKEN or [discord] token "
                      "in config.toml; Darwin did not start.", exc)
            return 2
        except Exception as exc:
            if not unreachable(exc):
                raise
            reason = str(exc) or type(exc).__name__
            if attempt > len(delays):
                log.error("Discord could not be reached in %d attempts over %g s (%s): Darwin "
                          "gives up; check the network and DNS, then start it again.",
                          attempt, sum(delays), reason)
                return 1
            log.warning("Discord cannot be reached (%s): check the network and DNS; trying "
                        "again in %g s (attempt %d of %d).", reason, delays[attempt - 1],
                        attempt, len(delays) + 1)
            await asyncio.sleep(delays[attempt - 1])
    return 1


def chosen_database(args: argparse.Namespace) -> str | None:
    """``--db`` (a SQLite file or a postgresql:// URL) or the configured store; None (and a
    sentence) when it names a SQLite file that does not exist."""
    from configuration import ConfigError
    from store import configured_target
    from store.pg import is_url

    try:
        database = args.db or configured_target(load_config(args.config))
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return None
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


def for_migrate(sentence: str) -> str:
    """A store's sentence as ``bot.py migrate`` says it: the store was named by --from or
    --to (not database_url), and what did not happen is the copy (not Darwin's start)."""
    sentence = sentence.replace("database_url (or DATABASE_URL)", "the --from or --to URL")
    sentence = sentence.replace("fix database_url", "fix the URL")
    stripped = re.sub(r"[\s;:.]*Darwin did not start\.?$", "", sentence)
    return sentence if stripped == sentence else stripped + "; nothing was copied."


def run_migrate(args: argparse.Namespace) -> int:
    """``bot.py migrate``: every row of one store copied into an empty one (store/copy.py);
    prints the counts. Exit status 0, or 2 with a sentence (nothing written)."""
    from store import StoreError
    from store.copy import copy_between

    try:
        counts = asyncio.run(copy_between(args.source, args.target))
    except StoreError as exc:
        print(for_migrate(str(exc)), file=sys.stderr)
        return 2
    print(", ".join(f"{table} {count}" for table, count in counts.items()))
    return 0


def main(argv: list[str] | None = None) -> int:
    # no abbreviations: "--advance" is not taken for "--advanced" (a typo is refused)
    parser = argparse.ArgumentParser(prog="bot.py", description="Darwin board-game bot",
                                     allow_abbrev=False)
    parser.add_argument("--config", type=Path, help="configuration file (default: config.toml)")
    sub = parser.add_subparsers(dest="command")
    demo_parser = sub.add_parser("demo", help="play a whole game offline with AI seats",
                                 allow_abbrev=False)
    import demo

    demo.add_arguments(demo_parser)
    replay_parser = sub.add_parser(
        "replay", help="a stored game as an animated GIF, rebuilt from its seed and action log",
        allow_abbrev=False)
    replay_parser.add_argument("game_id", type=int, metavar="GAME_ID",
                               help="the game's number (/darwin history lists them; "
                                    "the games table's id)")
    replay_parser.add_argument("--db", help="a SQLite file or a postgresql:// URL (default: "
                                            "the configured database)")
    replay_parser.add_argument("--out", type=Path, help="the GIF (default: replay-GAME_ID.gif)")
    replay_parser.add_argument("--lang", default="en", choices=["en", "it", "fr"],
                               help="the language of the frames' captions (default: en)")
    ratings_parser = sub.add_parser("ratings", help="the players' ratings (openskill)",
                                    allow_abbrev=False)
    ratings_parser.add_argument("--rebuild", action="store_true",
                                help="recompute every rating from the stored results")
    ratings_parser.add_argument("--db", help="a SQLite file or a postgresql:// URL (default: "
                                             "the configured database)")
    migrate_parser = sub.add_parser(
        "migrate", help="copy every row of one store into an empty one (SQLite <-> PostgreSQL)",
        allow_abbrev=False)
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
    from configuration import ConfigError

    try:  # every key checked before anything starts (exit 2: one sentence per fault)
        config = load_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    return run_bot(config)


if __name__ == "__main__":
    sys.exit(main())
