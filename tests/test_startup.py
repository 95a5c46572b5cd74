"""Starting ``python bot.py`` (and its other commands) as an operator does: a database that
cannot be written, Discord unreachable, the voice warnings, help on every flag, refused demo
options, the migrate sentence."""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import bot
from configuration import ENVIRONMENT

ROOT = Path(__file__).resolve().parent.parent
CLEAN_ENV = {k: v for k, v in os.environ.items()
             if k not in ENVIRONMENT and not k.startswith("DARWIN_")}


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def python(tmp_path: Path, code: str, env: dict, *, prefix: list[str] | None = None):
    return subprocess.run([*(prefix or []), sys.executable, "-c", code], cwd=tmp_path,
                          env=dict(CLEAN_ENV, PYTHONPATH=str(ROOT), **env),
                          capture_output=True, text=True, timeout=120)


# --- a database in a folder that cannot be written ---------------------------------------------

def unprivileged() -> list[str] | None:
    """A command prefix that runs a process without the right to ignore file permissions
    (root keeps it otherwise); None when there is no way here."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    prefix = [setpriv, "--inh-caps=-dac_override,-dac_read_search",
              "--bounding-set=-dac_override,-dac_read_search"]
    if subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
        return None
    return prefix


@pytest.mark.parametrize("where", ["folder", "new subfolder"])
def test_a_database_folder_that_cannot_be_written_is_one_permission_sentence(tmp_path, where):
    prefix = unprivileged()
    if prefix is None:
        pytest.skip("cannot drop the right to write anywhere here")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    database = locked / "darwin.sqlite3" if where == "folder" else locked / "sub" / "d.sqlite3"
    try:
        for _ in range(3):  # the "Event loop is closed" traceback came one time in two
            result = python(tmp_path, "import sys, bot; sys.exit(bot.main([]))",
                            {"DISCORD_TOKEN": "not-a-token", "DARWIN_DATABASE": str(database)},
                            prefix=prefix)
            assert result.returncode == 2, result.stderr
            assert "Traceback" not in result.stderr and "Event loop is closed" not in result.stderr
            [sentence] = result.stderr.strip().splitlines()
            assert sentence.startswith(f"The database {database} cannot be created or written: ")
            assert f"may not write in the folder {locked} " in sentence
            assert "write permission" in sentence and "DARWIN_DATABASE" in sentence
            assert "backup" not in sentence and "damaged" not in sentence
    finally:
        locked.chmod(0o755)


def test_a_database_that_cannot_be_opened_leaves_no_thread_behind(tmp_path):
    """aiosqlite's thread, left running after a failed open, called back into the closed
    event loop: "Event loop is closed" after the sentence (one time in two)."""
    (tmp_path / "folder.sqlite3").mkdir()
    code = ("import asyncio\nfrom store import Store, StoreError\n"
            "async def main():\n    async with Store.open('folder.sqlite3'):\n        pass\n"
            "for _ in range(20):\n    try:\n        asyncio.run(main())\n"
            "    except StoreError as exc:\n        message = str(exc)\n"
            "print(message)\n")
    result = python(tmp_path, code, {})
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.startswith("The database folder.sqlite3 is a folder, not a file")


# --- Discord unreachable ----------------------------------------------------------------------

def test_discord_unreachable_is_retried_in_sentences_then_exits_1(tmp_path):
    code = (f"import sys, discord.http\n"
            f"discord.http.Route.BASE = 'http://127.0.0.1:{closed_port()}/api/v10'\n"
            f"import bot\nbot.CONNECT_RETRY_DELAYS = (0.1, 0.2)\nsys.exit(bot.main([]))\n")
    result = python(tmp_path, code, {"DISCORD_TOKEN": "not-a-token",
                                     "DARWIN_DATABASE": str(tmp_path / "darwin.sqlite3")})
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    retries = [x for x in lines if "Discord cannot be reached" in x]
    assert len(retries) == 2
    assert "trying again in 0.1 s (attempt 1 of 3)." in retries[0]
    assert "trying again in 0.2 s (attempt 2 of 3)." in retries[1]
    [last] = [x for x in lines if "could not be reached" in x]
    assert last.endswith("Darwin gives up; check the network and DNS, then start it again.")
    # and the two voice-support warnings of discord.py are not logged at every start
    assert "voice will NOT be supported" not in result.stderr


class FakeBot:
    """Stands for DarwinBot in start_bot: its start fails as told, then returns."""

    made: list[FakeBot] = []
    failures: list[BaseException] = []

    def __init__(self, config) -> None:
        self.freeze_after_start = False
        self.closed = False
        FakeBot.made.append(self)

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        self.closed = True

    async def start(self, token: str) -> None:
        if FakeBot.failures:
            raise FakeBot.failures.pop(0)


@pytest.fixture
def fake_bot(monkeypatch):
    import cogs.bot

    FakeBot.made, FakeBot.failures = [], []
    monkeypatch.setattr(cogs.bot, "DarwinBot", FakeBot)
    monkeypatch.setattr(bot, "CONNECT_RETRY_DELAYS", (0, 0, 0, 0))
    return FakeBot


async def test_the_bot_starts_once_discord_answers_again(fake_bot, caplog):
    import aiohttp
    import discord

    fake_bot.failures = [ConnectionRefusedError(111, "Connection refused"),
                         aiohttp.ServerDisconnectedError(), TimeoutError(),
                         discord.GatewayNotFound()]
    assert await bot.start_bot({}, "token") == 0
    assert len(fake_bot.made) == 5 and all(b.closed for b in fake_bot.made)
    assert all(b.freeze_after_start for b in fake_bot.made)
    assert len([r for r in caplog.records if "cannot be reached" in r.getMessage()]) == 4


async def test_a_refused_token_is_one_sentence_and_exit_2(fake_bot, caplog):
    import discord

    fake_bot.failures = [discord.LoginFailure("Improper token has been passed.")]
    assert await bot.start_bot({}, "token") == 2
    assert len(fake_bot.made) == 1  # not retried
    assert "Discord refused the token" in caplog.text


@pytest.mark.parametrize("failure", [KeyError("a bug"), FileNotFoundError(2, "no font")])
async def test_another_failure_is_not_taken_for_the_network(fake_bot, failure):
    fake_bot.failures = [failure]
    with pytest.raises(type(failure)):
        await bot.start_bot({}, "token")
    assert len(fake_bot.made) == 1


# --- the command line -------------------------------------------------------------------------

def parsers_of(main, argv) -> list[argparse.ArgumentParser]:
    """Every parser (subcommands included) that ``main(argv)`` builds."""
    seen = []

    class Built(Exception):
        pass

    def capture(self, *args, **kwargs):
        seen.append(self)
        raise Built

    original = argparse.ArgumentParser.parse_args
    argparse.ArgumentParser.parse_args = capture
    try:
        with pytest.raises(Built):
            main(argv)
    finally:
        argparse.ArgumentParser.parse_args = original
    out, todo = [], list(seen)
    while todo:
        parser = todo.pop()
        out.append(parser)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo.extend(action.choices.values())
    return out


def test_every_flag_has_help():
    sys.path.insert(0, str(ROOT / "bench"))
    import load

    parsers = parsers_of(bot.main, []) + parsers_of(load.main, [])
    names = {p.prog for p in parsers}
    assert {"bot.py", "bot.py demo", "bot.py replay", "bot.py ratings", "bot.py migrate"} <= names
    for parser in parsers:
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            assert action.help, f"{parser.prog} {action.option_strings or action.dest}: no help"


@pytest.mark.parametrize("argv,sentence", [
    (["evo", "--advanced"], "demo: --advanced is an option of cubosaurs, not of evo "
                            "(evo takes --variant)."),
    (["cubosaurs", "--quick"], "demo: --quick is an option of climate, not of cubosaurs "
                               "(cubosaurs takes --advanced and --no-interactive)."),
    (["mutations", "--variant"], "demo: --variant is an option of evo, not of mutations "
                                 "(mutations takes --divergence)."),
])
def test_a_demo_option_of_another_game_is_refused(tmp_path, capsys, argv, sentence):
    out = tmp_path / "out"
    assert bot.main(["demo", *argv, "--out", str(out)]) == 2
    assert capsys.readouterr().err.strip() == sentence
    assert not out.exists()  # nothing played


def test_an_unknown_demo_option_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        bot.main(["demo", "evo", "--expert"])
    assert exit_.value.code == 2
    assert "unrecognized arguments: --expert" in capsys.readouterr().err


def test_migrate_that_cannot_reach_postgresql_does_not_speak_of_starting(tmp_path, capsys):
    from store import Store

    source = tmp_path / "darwin.sqlite3"

    async def make():
        async with Store.open(source):
            pass

    asyncio.run(make())
    target = f"postgresql://darwin:secret@127.0.0.1:{closed_port()}/darwin"
    assert bot.main(["migrate", "--from", f"sqlite:{source}", "--to", target]) == 2
    [sentence] = capsys.readouterr().err.strip().splitlines()
    assert "cannot be reached" in sentence and "the --from or --to URL" in sentence
    assert sentence.endswith("; nothing was copied.")
    assert "Darwin did not start" not in sentence and "secret" not in sentence
