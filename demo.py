"""The offline demo: AI seats play a whole game; one board image per phase and a game log.

    python bot.py demo evo --players 4 --seed 1 --out demo-out

Writes ``OUT/NNN-<phase>.png`` (the public board at the end of every phase), ``OUT/log.txt``
(the game as the table would read it) and prints the final scores. The same seed gives the
same files.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine import Seat, get_game
from messages import t
from messages.evo import describe

AI_NAMES = ["Ada", "Bruno", "Chiara", "Denis", "Elodie"]


def run_demo(kind: str, players: int, seed: int, out: Path, level: str = "fast",
             lang: str = "en", variant: bool = False, images: bool = True) -> list[dict]:
    if kind != "evo":
        raise SystemExit(f"demo: unknown game {kind!r} (available: evo)")
    from engine.evo.ai import choose_action
    from images.evo import render_evo

    rules = get_game(kind)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    seats = [Seat(f"ai:{i + 1}", AI_NAMES[i]) for i in range(players)]
    names = [s.name for s in seats]
    lines: list[str] = []
    counter = 0

    def snapshot(state, phase: str) -> None:
        nonlocal counter
        counter += 1
        if images:
            png = render_evo(rules.view(state, None), lang)
            (out / f"{counter:03d}-{phase}.png").write_bytes(png)

    def log(events) -> None:
        for ev in events:
            line = describe(ev, names, lang)
            if line:
                lines.append(line)

    state, events = rules.new_game_with_events(seats, seed, {"variant": variant}, snapshot)
    log(events)
    while not rules.is_over(state):
        player = rules.to_act(state)[0]
        action = choose_action(rules, state, player, level)
        state, events = rules.apply_action(state, player, action, snapshot)
        log(events)
    (out / "log.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = rules.returns(state)
    print(t("evo.event.game_over", lang, reason=t("evo.reason.meteorite", lang)))
    for row in result:
        print(t("evo.event.ranking_line", lang, rank=row["rank"], player=row["name"],
                score=row["score"], dinos=row["dinos"]))
    if images:
        print(f"{counter} images and log.txt written to {out}")
    else:
        print(f"log.txt written to {out}")
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=["evo"], help="which game to play")
    parser.add_argument("--players", type=int, default=4, choices=[3, 4, 5])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("demo-out"))
    parser.add_argument("--level", choices=["random", "fast", "strong"], default="fast",
                        help="AI level of every seat")
    parser.add_argument("--variant", action="store_true", help="variant auction")
    parser.add_argument("--lang", default="en")


def main(args: argparse.Namespace) -> int:
    run_demo(args.game, args.players, args.seed, args.out, args.level, args.lang, args.variant)
    return 0
