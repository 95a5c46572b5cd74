"""The offline demo: a whole AI game, one image per phase, a log, final scores; reproducible."""

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
    result = run_demo("evo", 3, 7, a)
    run_demo("evo", 3, 7, b)
    assert digest(a) == digest(b)
    names = sorted(p.name for p in a.glob("*.png"))
    assert names[0] == "001-initiative.png"
    phases = {n.split("-", 1)[1][:-4] for n in names}
    assert phases == {"initiative", "climate", "movement", "births", "survival", "evolution",
                      "over"}
    assert names[-1].endswith("-over.png")  # the final board with the ranking
    log = (a / "log.txt").read_text(encoding="utf-8")
    assert "Game over" in log and log.count("— Turn") >= 8
    assert [r["rank"] for r in result][0] == 1
    out = capsys.readouterr().out
    assert result[0]["name"] in out and str(result[0]["score"]) in out


@pytest.mark.parametrize("players", [4, 5])
def test_every_player_count_plays_to_the_end(tmp_path, players):
    result = run_demo("evo", players, 1, tmp_path, images=False)
    assert len(result) == players and (tmp_path / "log.txt").exists()


def test_command_line(tmp_path):
    done = subprocess.run([sys.executable, "bot.py", "demo", "evo", "--players", "3", "--seed",
                           "2", "--out", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "1. " in done.stdout and (tmp_path / "log.txt").exists()


def test_bot_without_token_says_how_to_fix_it(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode != 0
    assert "DISCORD_TOKEN" in done.stderr and "demo evo" in done.stderr


def test_cubosaurs_demo_same_seed_same_files(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    result = run_demo("cubosaurs", 3, 4, a, options={"advanced": True})
    run_demo("cubosaurs", 3, 4, b, options={"advanced": True})
    assert digest(a) == digest(b)
    names = sorted(p.name for p in a.glob("*.png"))
    # a deal image and an end image for each of the two rounds
    assert [n.split("-", 1)[1] for n in names] == ["deal.png", "round_end.png"] * 2
    log = (a / "log.txt").read_text(encoding="utf-8")
    assert "Round 2 of 2" in log and "Game over" in log
    assert sorted(r["rank"] for r in result)[0] == 1
    assert result[0]["name"] in capsys.readouterr().out


@pytest.mark.parametrize("players", [2, 5])
def test_cubosaurs_every_player_count_plays_to_the_end(tmp_path, players):
    result = run_demo("cubosaurs", players, 1, tmp_path, images=False)
    assert len(result) == players
    rounds = (tmp_path / "log.txt").read_text(encoding="utf-8").count("**End of round")
    assert rounds == (3 if players == 2 else 2)


def test_cubosaurs_command_line(tmp_path):
    done = subprocess.run([sys.executable, "bot.py", "demo", "cubosaurs", "--players", "2",
                           "--seed", "3", "--advanced", "--out", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "1. " in done.stdout and len(list(tmp_path.glob("*.png"))) == 6


def test_bot_on_a_damaged_database_says_so_before_logging_in(tmp_path):
    """A damaged database file stops the bot at once, with one sentence (no login tried: the
    token here is fake and no network is reachable)."""
    db = tmp_path / "darwin.sqlite3"
    db.write_bytes(b"SQLite format 3\x00" + bytes(4096 * 3))  # a header and zeroed pages
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DISCORD_TOKEN": "fake",
           "DARWIN_DATABASE": str(db)}
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2, done.stderr
    assert str(db) in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("args", [["demo", "cubosaurs", "--advance"],
                                  ["demo", "evo", "--see", "1"],
                                  ["--conf", "x.toml", "demo", "evo"]])
def test_a_shortened_option_is_refused_not_guessed(tmp_path, args):
    """A typo that is the start of an option ("--advance" for "--advanced") is refused (exit
    2, naming it), not silently taken for that option."""
    done = subprocess.run([sys.executable, "bot.py", *args, "--out", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "unrecognized arguments" in done.stderr or "invalid choice" in done.stderr
    assert not (tmp_path / "log.txt").exists()
