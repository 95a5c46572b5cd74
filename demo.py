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
from engine.ai import ai_action
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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=["evo", "cubosaurs", "mutations", "climate"],
                        help="which game to play")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9),
                        metavar="{2..8}",
                        help="EVO: 3-5, Cubosaurs: 2-5, Random Mutations: 2-8, Climate: 2-6")
    parser.add_argument("--seed", type=int, default=1,
                        help="the game's seed: the same seed gives the same game and files "
                             "(default: 1)")
    parser.add_argument("--out", type=Path, default=Path("demo-out"), metavar="DIR",
                        help="the folder for the images and log.txt (default: demo-out; its "
                             "old images are removed)")
    parser.add_argument("--level", choices=["random", "fast", "strong"], default="fast",
                        help="AI level of every seat")
    parser.add_argument("--variant", action="store_true", help="EVO: variant auction")
    parser.add_argument("--advanced", action="store_true", help="Cubosaurs: DNA rules")
    parser.add_argument("--no-interactive", action="store_true",
                        help="Cubosaurs: leave out the tiles that act on opponents")
    parser.add_argument("--divergence", action="store_true",
                        help="Random Mutations: the Divergence expert rule")
    parser.add_argument("--no-events", action="store_true",
                        help="Evolution: Climate: no climate event cards")
    parser.add_argument("--quick", action="store_true",
                        help="Evolution: Climate: the Quick game (always with 6 players)")
    parser.add_argument("--lang", default="en", choices=["en", "it", "fr"],
                        help="the language of the log and the images (default: en)")


# The options that belong to one game (dest -> (flag, game)); the others take none of them.
GAME_OPTIONS = {"variant": ("--variant", "evo"), "advanced": ("--advanced", "cubosaurs"),
                "no_interactive": ("--no-interactive", "cubosaurs"),
                "divergence": ("--divergence", "mutations"),
                "no_events": ("--no-events", "climate"), "quick": ("--quick", "climate")}


def misplaced_options(args: argparse.Namespace) -> list[str]:
    """A sentence for each option given that belongs to another game than ``args.game``."""
    out = []
    for dest, (flag, game) in GAME_OPTIONS.items():
        if getattr(args, dest, False) and game != args.game:
            own = [f for f, g in GAME_OPTIONS.values() if g == args.game]
            takes = f"{args.game} takes {' and '.join(own)}" if own else \
                f"{args.game} takes none of the game options"
            out.append(f"demo: {flag} is an option of {game}, not of {args.game} ({takes}).")
    return out


def main(args: argparse.Namespace) -> int:
    refused = misplaced_options(args)
    if refused:
        print("\n".join(refused), file=sys.stderr)
        return 2
    if args.game == "evo":
        options = {"variant": args.variant}
    elif args.game == "mutations":
        options = {"divergence": args.divergence}
    elif args.game == "climate":
        options = {"events": not args.no_events, "quick": args.quick}
    else:
        options = {"advanced": args.advanced, "interactive": not args.no_interactive}
    run_demo(args.game, args.players, args.seed, args.out, args.level, args.lang, options)
    return 0
