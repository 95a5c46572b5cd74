"""The offline demo of Random Mutations: a whole AI game, one image per phase, a log, final
scores; reproducible."""

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from demo import run_demo

ROOT = Path(__file__).resolve().parent.parent


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_same_seed_same_files(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    result = run_demo("mutations", 3, 5, a, options={"divergence": True})
    run_demo("mutations", 3, 5, b, options={"divergence": True})
    assert digest(a) == digest(b)
    names = sorted(p.name for p in a.glob("*.png"))
    assert names[0] == "001-development.png"
    phases = {n.split("-", 1)[1][:-4] for n in names}
    assert phases == {"development", "climate", "feeding", "extinction"}
    log = (a / "log.txt").read_text(encoding="utf-8")
    assert "Expert rule: Divergence." in log and "**Turn 2**" in log and "Game over" in log
    assert sorted(r["rank"] for r in result)[0] == 1
    assert result[0]["name"] in capsys.readouterr().out


@pytest.mark.parametrize("players, divergence", [(2, False), (5, True), (8, False)])
def test_every_player_count_plays_to_the_end(tmp_path, players, divergence):
    result = run_demo("mutations", players, 1, tmp_path, options={"divergence": divergence},
                      images=False)
    assert len(result) == players
    log = (tmp_path / "log.txt").read_text(encoding="utf-8")
    assert log.count("**Game over.**") == 1 and "last turn" in log


def test_command_line_in_italian(tmp_path):
    done = subprocess.run([sys.executable, "bot.py", "demo", "mutations", "--players", "4",
                           "--seed", "2", "--divergence", "--lang", "it", "--out",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "1. " in done.stdout and "Fine della partita" in done.stdout
    log = (tmp_path / "log.txt").read_text(encoding="utf-8")
    assert "Regola per esperti: Divergenza." in log and "Alimentazione" in log
    assert len(list(tmp_path.glob("*.png"))) >= 8
