"""The offline demo: AI seats play a whole game; one board image per phase and a game log.

    python bot.py demo evo --players 4 --seed 1 --out demo-out
    python bot.py demo cubosaurs --players 3 --seed 1 --advanced --out demo-out
    python bot.py demo mutations --players 4 --seed 1 --divergence --out demo-out
    python bot.py demo climate --players 4 --seed 1 --quick --out demo-out

Writes ``OUT/NNN-<phase>.png`` (the public board at the end of every phase), ``OUT/log.txt``
(the game as the table would read it) and prints the final scores. The same seed gives the
same files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine import Seat, game_kinds, get_game
from engine.ai import LEVELS, ai_action
from engine.core import description, descriptions
from images import render
from messages import describe

AI_NAMES = ["Ada", "Bruno", "Chiara", "Denis", "Elodie", "Fabio", "Greta", "Hugo"]



def run_demo(kind: str, players: int, seed: int, out: Path, level: str = "fast",
             lang: str = "en", options: dict | None = None, images: bool = True) -> list[dict]:
    if kind not in game_kinds():
        raise SystemExit(f"demo: unknown game {kind!r} (available: {', '.join(game_kinds())})")
    rules = get_game(kind)
    if not rules.min_players <= players <= rules.max_players:
        raise SystemExit(f"demo: {kind} is for {rules.min_players} to {rules.max_players} players")
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    seats = [Seat(f"ai:{i + 1}", AI_NAMES[i]) for i in range(players)]
    names = [s.name for s in seats]
    lines: list[str] = []
    counter = 0

    def snapshot(state, phase: str) -> None:
        nonlocal counter, images
        counter += 1
        if images:
            try:
                png = render(kind, rules.view(state, None), lang)
            except ValueError as exc:  # a game playable before its table image is drawn
                if not str(exc).startswith("no renderer"):
                    raise
                print(f"(no table image for {kind} yet: writing the log only)")
                images = False
                return
            (out / f"{counter:03d}-{phase}.png").write_bytes(png)

    final = ""

    def log(events) -> None:
        nonlocal final
        for ev in events:
            line = describe(kind, ev, names, lang)
            if line:
                lines.append(line)
                if ev["type"] == "game_over":
                    final = line

    state, events = rules.new_game_with_events(seats, seed, options or {}, snapshot)
    log(events)
    while not rules.is_over(state):
        player = rules.to_act(state)[0]
        action = ai_action(rules, state, player, level)
        state, events = rules.apply_action(state, player, action, snapshot)
        log(events)
    (out / "log.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = rules.returns(state)
    print(final.replace("**", ""))
    if images:
        print(f"{counter} images and log.txt written to {out}")
    else:
        print(f"log.txt written to {out}")
    return result


def _flags() -> dict[str, tuple[str, tuple[str, ...], object]]:
    """The game options as demo flags, from the games' descriptions: dest -> (flag, the games
    that have it, the option). A yes/no option off by default is ``--name``, one on by default
    ``--no-name``; any other takes a value."""
    out: dict[str, tuple[str, tuple[str, ...], object]] = {}
    for d in descriptions():
        for name, opt in d.options.items():
            dest = f"no_{name}" if opt.type is bool and opt.default else name
            flag = "--" + dest.replace("_", "-")
            games = out[dest][1] if dest in out else ()
            out[dest] = (flag, (*games, d.kind), opt)
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    games = descriptions()
    parser.add_argument("game", choices=[d.kind for d in games], help="which game to play")
    low = min(d.min_players for d in games)
    high = max(d.max_players for d in games)
    parser.add_argument("--players", type=int, default=4, choices=range(low, high + 1),
                        metavar=f"{{{low}..{high}}}",
                        help=", ".join(f"{d.title}: {d.min_players}-{d.max_players}"
                                       for d in games))
    parser.add_argument("--seed", type=int, default=1,
                        help="the game's seed: the same seed gives the same game and files "
                             "(default: 1)")
    parser.add_argument("--out", type=Path, default=Path("demo-out"), metavar="DIR",
                        help="the folder for the images and log.txt (default: demo-out; its "
                             "old images are removed)")
    parser.add_argument("--level", choices=list(LEVELS), default="fast",
                        help="AI level of every seat")
    titles = {d.kind: d.title for d in games}
    for dest, (flag, kinds, opt) in _flags().items():
        text = "; ".join(f"{titles[k]}{', off' if dest.startswith('no_') else ''}: "
                         f"{description(k).options[dest.removeprefix('no_')].text}"
                         for k in kinds).replace("%", "%%")
        if opt.type is bool:
            parser.add_argument(flag, action="store_true", help=text)
        else:
            parser.add_argument(flag, type=opt.type, default=None, help=text)
    parser.add_argument("--lang", default="en", choices=["en", "it", "fr"],
                        help="the language of the log and the images (default: en)")


def misplaced_options(args: argparse.Namespace) -> list[str]:
    """A sentence for each option given that belongs to another game than ``args.game``."""
    flags = _flags()
    own = [flag for flag, kinds, _ in flags.values() if args.game in kinds]
    takes = f"{args.game} takes {' and '.join(own)}" if own else \
        f"{args.game} takes none of the game options"
    out = []
    for dest, (flag, kinds, _) in flags.items():
        if getattr(args, dest, None) not in (None, False) and args.game not in kinds:
            out.append(f"demo: {flag} is an option of {' and '.join(kinds)}, not of "
                       f"{args.game} ({takes}).")
    return out


def game_options(args: argparse.Namespace) -> dict:
    """The options of ``args.game`` from the flags (the defaults where none was given)."""
    options = {}
    for name, opt in description(args.game).options.items():
        if opt.type is bool:
            given = getattr(args, f"no_{name}" if opt.default else name, False)
            options[name] = not given if opt.default else given
        else:
            value = getattr(args, name, None)
            options[name] = opt.default if value is None else value
    return options


def main(args: argparse.Namespace) -> int:
    refused = misplaced_options(args)
    if refused:
        print("\n".join(refused), file=sys.stderr)
        return 2
    run_demo(args.game, args.players, args.seed, args.out, args.level, args.lang,
             game_options(args))
    return 0
