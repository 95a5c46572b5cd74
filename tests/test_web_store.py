"""The web page's links in the store (migration 0005): one live token per game and per
server, revoked by /darwin web revoke, a new one made afterwards; the server page setting;
a server's finished games. On both backends (PostgreSQL skipped without its binaries)."""

from __future__ import annotations

import pytest

from store import GameNotFound, Store
from store.copy import copy_store


@pytest.fixture(params=["sqlite", "postgresql"])
async def mem(request):
    if request.param == "sqlite":
        target = ":memory:"
    else:
        target = await request.getfixturevalue("pg_cluster").new_database()
    async with Store.open(target) as s:
        yield s


async def finished_game(store, guild="10", channel="20") -> int:
    game = await store.create_game(guild, channel, "evo", {}, {"seats": []}, 1.0)
    await store.start_game(game, {"s": 1}, 2.0)
    await store.finish_game(game, [], 3.0)
    return game


async def test_one_live_token_per_game_revoked_then_new(mem):
    game = await mem.create_game("10", "20", "evo", {}, {"seats": []}, 1.0)
    assert await mem.web_token(5.0, game_id=game, create=False) is None
    token = await mem.web_token(5.0, game_id=game)
    assert len(token) >= 22 and token.replace("-", "").replace("_", "").isalnum()
    assert await mem.web_token(6.0, game_id=game) == token  # the same link while live
    assert await mem.web_link(token) == ("game", game, None)
    assert await mem.revoke_web_token(7.0, game_id=game) is True
    assert await mem.revoke_web_token(8.0, game_id=game) is False  # nothing left to revoke
    assert await mem.web_link(token) is None  # revoked: as unknown
    fresh = await mem.web_token(9.0, game_id=game)
    assert fresh != token and await mem.web_link(fresh) == ("game", game, None)
    assert await mem.web_link("nope") is None and await mem.web_link("") is None


async def test_tokens_differ_between_games_and_unknown_game_refused(mem):
    a = await mem.create_game("10", "20", "evo", {}, {"seats": []}, 1.0)
    b = await mem.create_game("10", "21", "evo", {}, {"seats": []}, 1.0)
    assert await mem.web_token(2.0, game_id=a) != await mem.web_token(2.0, game_id=b)
    with pytest.raises(GameNotFound):
        await mem.web_token(2.0, game_id=999)
    with pytest.raises(TypeError):
        await mem.web_token(2.0)


async def test_server_page_token_and_setting(mem):
    token = await mem.web_token(1.0, guild_id=10)
    assert await mem.web_token(2.0, guild_id="10") == token
    assert await mem.web_link(token) == ("guild", None, "10")
    assert await mem.guild_settings(10) == {}
    await mem.save_guild_settings(10, {"web_page": True}, 3.0)
    assert await mem.guild_settings(10) == {"web_page": True}
    await mem.save_guild_settings(10, {"web_page": False, "thread": True}, 4.0)
    assert await mem.guild_settings(10) == {"web_page": False, "thread": True}
    assert await mem.revoke_web_token(5.0, guild_id=10)
    assert await mem.web_link(token) is None


async def test_guild_games_newest_first_finished_only(mem):
    first = await finished_game(mem, channel="20")
    second = await finished_game(mem, channel="21")
    await finished_game(mem, guild="11", channel="22")
    await mem.create_game("10", "23", "evo", {}, {"seats": []}, 1.0)  # a lobby: not listed
    assert [g.id for g in await mem.guild_games(10)] == [second, first]
    assert [g.id for g in await mem.guild_games(10, limit=1)] == [second]


async def test_copy_keeps_links_and_the_setting():
    async with Store.open(":memory:") as src, Store.open(":memory:") as dst:
        game = await finished_game(src)
        token = await src.web_token(4.0, game_id=game)
        await src.revoke_web_token(5.0, game_id=game)
        live = await src.web_token(6.0, game_id=game)
        await src.save_guild_settings(10, {"web_page": True}, 7.0)
        counts = await copy_store(src, dst)
        assert counts["web_links"] == 2
        assert await dst.web_link(token) is None and await dst.web_link(live) == ("game", game, None)
        assert await dst.guild_settings(10) == {"web_page": True}
