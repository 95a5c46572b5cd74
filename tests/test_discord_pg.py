"""The bot on PostgreSQL: ``[storage] database_url`` set, the bot opens that store and a lobby
is refused in a busy channel through SimCord, as tests/test_discord.py does on SQLite (the same
test function, with the configuration below). Kept short: the store's behaviour on PostgreSQL
is tests/test_store.py's, run on both backends."""

from __future__ import annotations

import pytest

from tests.conftest import make_config
from tests.test_discord import (  # noqa: F401  (collected here with this module's config)
    test_one_game_per_channel,
)


@pytest.fixture
def darwin_config(tmp_path, pg_url):
    config = make_config(tmp_path)
    config["storage"]["database_url"] = pg_url
    return config


async def test_the_bot_opens_the_configured_postgresql_store(simcord_env, pg_url):
    assert simcord_env.bot.store.backend == "postgresql"
    assert simcord_env.bot.store.path == pg_url
