"""The web page on Discord (SimCord): the table's "Web view" link button, /darwin web (the
channel's link; the server page's when the server turned it on), /darwin web revoke (the
game's creator or a manager only), and the page itself served by the bot's web server."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from messages import t
from tests.conftest import flush, make_config
from tests.test_discord import reply_text

MANAGE = discord.Permissions(manage_guild=True, manage_channels=True)


@pytest.fixture
def darwin_config(tmp_path):
    config = make_config(tmp_path)
    config["web"].update(enabled=True, host="127.0.0.1", port=0,
                         base_url="https://darwin.test")
    return config


def link_buttons(message) -> list:
    return [child for row in message.components for child in getattr(row, "children", [row])
            if getattr(child, "url", None)]


async def get(bot, url: str) -> tuple[int, str]:
    """GET a page of the bot's web server (a link's path, on its real port)."""
    path = url.removeprefix(bot.web.settings.base_url)
    async with aiohttp.ClientSession() as session, \
            session.get(f"http://127.0.0.1:{bot.web.port}{path}") as r:
        return r.status, await r.text()


async def open_game(env, channel, ann, bob):
    await ann.slash(channel, "evo new")
    lobby = channel.last_message
    await bob.click(lobby, label=t("bot.btn_join"))
    await ann.click(lobby, label=t("bot.btn_ai"))
    await ann.click(lobby, label=t("bot.btn_start"))
    await flush(env)
    return env.bot.host.game_in(channel.id)


async def test_link_button_web_command_and_revoke(simcord_env):
    env = simcord_env
    bot = env.bot
    assert bot.web is not None and bot.web.port
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    admins = guild.create_role("admins", permissions=MANAGE)
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    boss = guild.add_member(env.create_user("boss"), roles=[admins])

    r = await ann.slash(channel, "darwin web")  # nothing in the channel yet
    assert r.ephemeral and reply_text(r) == t("bot.error.web_no_game")

    game = await open_game(env, channel, ann, bob)
    buttons = link_buttons(channel.last_message)
    assert len(buttons) == 1 and buttons[0].label == t("web.discord.button")
    url = buttons[0].url
    assert url.startswith("https://darwin.test/g/") and len(url) > len("https://darwin.test/g/") + 20

    r = await bob.slash(channel, "darwin web")
    assert r.ephemeral and url in reply_text(r)
    assert t("web.discord.server_link", url="")[:10] not in reply_text(r)  # the page is off

    status, page = await get(bot, url)
    assert status == 200 and 'id="board-img"' in page and f'data-seq="{game.seq}"' in page

    # a commit wakes the page's cache at once (host.on_change -> WebServer.notify)
    seen = bot.web.web.snapshots.reads
    await get(bot, url + "/state.json")
    assert bot.web.web.snapshots.reads == seen  # within the second: the cached read
    bot.host._changed(game.id)
    await get(bot, url + "/state.json")
    assert bot.web.web.snapshots.reads == seen + 1

    r = await bob.slash(channel, "darwin web", action="revoke")  # neither creator nor manager
    assert reply_text(r) == t("bot.error.not_creator")
    assert (await get(bot, url))[0] == 200

    r = await ann.slash(channel, "darwin web", action="revoke")  # the creator
    assert reply_text(r).startswith(t("web.discord.revoked", command="x")[:12])
    assert await get(bot, url) == (404, "404: Not Found")
    r = await boss.slash(channel, "darwin web", action="revoke")  # nothing left to revoke
    assert reply_text(r) == t("bot.error.web_nothing_to_revoke")

    # the table's next edit drops the button; /darwin web makes a new link
    bot.listener.tables[game.id].dirty = True
    await bot.listener.on_outcome(type("O", (), {
        "game": game, "seat": -1, "action": {"type": "noop"}, "events": [], "snapshots": [],
        "by_ai": False, "timed_out": False, "seq": game.seq, "undoable": False})())
    await flush(env)
    assert link_buttons(channel.last_message) == []
    r = await boss.slash(channel, "darwin web")
    fresh = next(w for w in reply_text(r).split() if w.startswith("https://"))
    assert fresh != url and (await get(bot, fresh))[0] == 200


async def test_server_page_link_when_turned_on(simcord_env):
    env = simcord_env
    bot = env.bot
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    admins = guild.create_role("admins", permissions=MANAGE)
    boss = guild.add_member(env.create_user("boss"), roles=[admins])

    r = await boss.slash(channel, "darwin settings set", web_page=True)
    assert t("bot.settings.name.web_page") in reply_text(r)
    assert (await bot.host.server_settings(guild.id)).web_page is True
    r = await boss.slash(channel, "darwin web")
    text = reply_text(r)
    assert r.ephemeral and "https://darwin.test/s/" in text
    url = next(w for w in text.split() if w.startswith("https://darwin.test/s/"))
    status, page = await get(bot, url)
    assert status == 200 and 'id="recent"' in page

    r = await boss.slash(channel, "darwin settings reset", setting="web_page")
    assert (await bot.host.server_settings(guild.id)).web_page is None
    assert (await get(bot, url))[0] == 404
