"""Shared fixtures: a Darwin bot wired to a temporary database, run under SimCord."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def make_config(tmp_path: Path, **games) -> dict:
    with open(ROOT / "config.example.toml", "rb") as f:
        config = tomllib.load(f)
    config = copy.deepcopy(config)
    config["storage"]["database"] = str(tmp_path / "darwin.sqlite3")
    config["games"].update({"ai_delay": 1.0, "turn_timer": 0}, **games)
    return config


@pytest.fixture
def darwin_config(tmp_path):
    return make_config(tmp_path)


@pytest.fixture
async def simcord_bot(darwin_config):
    """The bot under test. SimCord detaches bots without closing them, so the fixture stops
    the bot's services (timers, database thread) itself; a test that makes another bot (a
    restart) stops that one too."""
    from cogs.bot import DarwinBot

    bot = DarwinBot(darwin_config)
    yield bot
    await bot.stop_services()
