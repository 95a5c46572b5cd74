"""The offline demo of Evolution: Climate: a whole AI game, one image per phase, a log, final
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
    result = run_demo("climate", 3, 5, a, options={"events": True, "quick": False})
    run_demo("climate", 3, 5, b, options={"events": True, "quick": False})
    assert digest(a) == digest(b)
    names = sorted(p.name for p in a.glob("*.png"))
    assert names[0] == "001-play.png"
    phases = {n.split("-", 1)[1][:-4] for n in names}
    assert phases == {"play", "environment", "feeding"}
    log = (a / "log.txt").read_text(encoding="utf-8")
    assert "Climate events:" in log and "**Round 2**" in log and "Game over" in log
    assert "Food cards revealed" in log and "carnivore-" not in log
    assert sorted(r["rank"] for r in result)[0] == 1
    assert result[0]["name"] in capsys.readouterr().out


@pytest.mark.parametrize("players, events, quick", [(2, False, False), (4, True, True),
                                                    (6, True, False)])
def test_every_player_count_plays_to_the_end(tmp_path, players, events, quick):
    result = run_demo("climate", players, 1, tmp_path, options={"events": events, "quick": quick},
                      images=False)
    assert len(result) == players
    log = (tmp_path / "log.txt").read_text(encoding="utf-8")
    assert log.count("**Game over.**") == 1
    assert "This round is the last." in log or "the last round**" in log
    assert ("Quick game" in log) == (quick or players == 6)  # 6 players always play it
    assert ("No climate events." in log) == (not events)


def test_command_line_in_italian(tmp_path):
    done = subprocess.run([sys.executable, "bot.py", "demo", "climate", "--players", "4",
                           "--seed", "2", "--quick", "--no-events", "--lang", "it", "--out",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "1. " in done.stdout and "Fine della partita" in done.stdout
    log = (tmp_path / "log.txt").read_text(encoding="utf-8")
    assert "Gioco Veloce" in log and "Nessun Evento Climatico." in log and "Stagno" in log
    assert len(list(tmp_path.glob("*.png"))) >= 9
