"""The web page in a real browser (issue 26): headless Chromium (tests/browser.py) opens a live
Cubosaurs game's page, served by the bot's own web server inside a SimCord bot, while two people
play through SimCord; the page follows the moves without reloading (``data-seq`` grows, the
board image's ``src`` changes, the no-reload marker survives). The same game is then played to
its end: the open page turns into the final table with its replay, and the finished game's page,
opened anew, is stepped through with the keyboard (ArrowRight / ArrowLeft) and the previous /
next buttons. Screenshots at phone (390x844) and desktop (1280x900) sizes are saved for the live
page and the replay (their paths are printed and listed at the end of the run).

Every selenium call runs in a worker thread (``browser.aio``) so the bot's event loop keeps
serving the page meanwhile; nothing sleeps on time: every wait is on a condition."""

from __future__ import annotations

import asyncio
import random
import struct
import time

import pytest

from messages import t
from tests.conftest import flush, make_config

SEED = 11  # the game's seed (the Start button draws it from os.urandom)
LIVE_MOVES = 3  # moves the open page must follow one by one


@pytest.fixture
def darwin_config(tmp_path):
    config = make_config(tmp_path)
    config["web"].update(enabled=True, host="127.0.0.1", port=0, base_url="https://darwin.test",
                         rate=1000, burst=1000)
    return config


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def link_url(message) -> str:
    """The table's "Web view" link button's URL."""
    urls = [child.url for row in message.components for child in getattr(row, "children", [row])
            if getattr(child, "url", None)]
    assert len(urls) == 1, urls
    return urls[0]


async def until(predicate, what: str, timeout: float = 10.0) -> None:
    """Wait (yielding to the loop, never on a fixed delay) until ``predicate()`` holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"waited {timeout:g} s for {what}"
        await asyncio.sleep(0.01)


async def serve_outside_simcord(bot) -> None:
    """Start the bot's web server again, from the test rather than from the bot's setup.
    SimCord counts every task the bot's own work starts as work to settle after each event;
    an open event stream (the page's live updates) never ends, so a request served by a
    server the bot started would keep SimCord from settling. Started from here, the same
    server (``DarwinBot.start_web``: the bot's store, settings and ``host.on_change`` hook)
    answers on tasks SimCord does not wait for."""
    old = bot.web
    assert old is not None and old.port
    bot.host.on_change.remove(old.notify)
    bot.web = None
    await old.stop()
    await bot.start_web()
    assert bot.web is not None and bot.web.port


class Players:
    """Two people playing Cubosaurs through SimCord's slash commands, seeded moves."""

    def __init__(self, env, channel, users, game) -> None:
        self.env, self.channel, self.game = env, channel, game
        self.by_seat = {game.seat_of(u.id): u for u in users}
        self.rnd = random.Random(SEED)

    async def move(self) -> None:
        game = self.game
        seat = game.awaiting()[0]
        legal = game.rules.legal_actions(game.state, seat)
        keeps = [a for a in legal if a["type"] == "keep"]
        passes = [a for a in legal if a["type"] == "pass"]
        user = self.by_seat[seat]
        before = game.seq
        if keeps and (not passes or self.rnd.random() < 0.4):
            await user.slash(self.channel, "cubosaurs keep")
        else:
            await user.slash(self.channel, "cubosaurs pass", card=self.rnd.choice(passes)["card"])
        assert game.seq == before + 1, "the move was refused"


async def test_live_page_follows_the_game_and_the_replay_steps_by_keyboard(
        simcord_env, monkeypatch, browser):
    import host.host

    env = simcord_env
    bot = env.bot
    await serve_outside_simcord(bot)
    monkeypatch.setattr(host.host.os, "urandom", lambda n: SEED.to_bytes(n, "big"))
    guild = env.create_guild()
    channel = guild.create_text_channel("cubo")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    await ann.slash(channel, "cubosaurs new")
    await bob.click(channel.last_message, label="Join")
    await ann.click(channel.last_message, label="Start")
    await flush(env)
    game = bot.host.game_in(channel.id)
    assert game is not None and game.status == "active"
    players = Players(env, channel, [ann, bob], game)
    link = link_url(channel.last_message)
    url = f"http://127.0.0.1:{bot.web.port}" + link.removeprefix(bot.web.settings.base_url)
    b = browser.aio
    started = time.monotonic()

    # --- the live page: each move shows without a reload ----------------------------------
    await b.open(url)
    assert await b.attribute("body", "data-status") == "active"
    assert await b.attribute("body", "data-seq") == str(game.seq)
    await b.wait_js("document.getElementById('board-img').complete"
                    " && document.getElementById('board-img').naturalWidth > 0",
                    message="the board image to load")
    await until(lambda: bot.web.web.streams >= 1, "the page's event stream")
    await b.mark()
    for _ in range(LIVE_MOVES):
        seq, src = await b.attribute("body", "data-seq"), await b.attribute("#board-img", "src")
        turn = await b.text("#turn")
        await players.move()
        await b.wait_attribute("body", "data-seq", equals=str(game.seq))
        assert int(await b.attribute("body", "data-seq")) > int(seq)
        new_src = await b.wait_attribute("#board-img", "src", changed_from=src)
        assert f"seq={game.seq}&" in new_src
        await b.wait_text("#turn", changed_from=turn)  # the other player's turn now
        await b.assert_not_reloaded()
    await b.wait_js("document.getElementById('board-img').complete"
                    " && document.getElementById('board-img').naturalWidth > 0",
                    message="the new board image to load")
    names = await b.text("#players")
    assert "ann" in names and "bob" in names
    shots = {}
    await b.phone()
    shots["live-phone"] = await b.screenshot("web-live-phone")
    await b.desktop()
    shots["live-desktop"] = await b.screenshot("web-live-desktop")
    await b.assert_not_reloaded()
    live_seconds = time.monotonic() - started

    # --- to the end: the open page becomes the final table with its replay ------------------
    moves = 0
    while game.status == "active":
        moves += 1
        assert moves < 400, "the game does not end"
        await players.move()
    await flush(env)
    await b.wait_attribute("body", "data-status", equals="finished")
    await b.wait_js("!document.getElementById('replay').hidden"
                    " && Number(document.body.dataset.frames) > 1",
                    message="the replay to appear on the open page")
    await b.assert_not_reloaded()
    assert await b.text("#turn") == t("web.nobody", "en")

    # --- the finished game's page, opened anew: the replay by keyboard and buttons --------
    await b.open(url)
    await b.mark()
    frames = int(await b.attribute("body", "data-frames"))
    assert frames >= 2 and await b.attribute("body", "data-status") == "finished"
    assert await b.value("document.getElementById('replay').hidden") is False
    template = await b.attribute("#replay-pos", "data-template")

    def pos(n: int) -> str:
        return template.replace("{n}", str(n)).replace("{total}", str(frames))

    async def at(n: int) -> None:
        """The replay shows frame n (1-based): its counter, its image's URL, loaded."""
        await b.wait_text("#replay-pos", equals=pos(n))
        assert f"/replay/{n - 1}.png" in await b.attribute("#replay-img", "src")
        await b.wait_js("document.getElementById('replay-img').complete"
                        " && document.getElementById('replay-img').naturalWidth > 0",
                        message=f"replay image {n} to load")

    await at(1)
    await b.press("ArrowRight")
    await at(2)
    await b.press("ArrowLeft")
    await at(1)
    await b.press("ArrowLeft")  # the first frame stays the first
    await at(1)
    for n in range(2, frames + 1):
        await b.press("ArrowRight")
        await at(n)
    await b.press("ArrowRight")  # the last stays the last
    await at(frames)
    await b.click("#replay-prev")
    await at(frames - 1)
    await b.click("#replay-next")
    await at(frames)
    await b.press("ArrowLeft")
    await at(frames - 1)
    await b.assert_not_reloaded()
    final = await b.text("#players")
    assert "ann" in final and "bob" in final
    show_replay = "document.getElementById('replay').scrollIntoView({block: 'end'})"
    await b.phone()
    await b.js(show_replay)
    shots["replay-phone"] = await b.screenshot("web-replay-phone")
    await b.desktop()
    await b.js(show_replay)
    shots["replay-desktop"] = await b.screenshot("web-replay-desktop")
    await b.assert_not_reloaded()

    for name, path in shots.items():
        assert png_size(path) == ((390, 844) if name.endswith("phone") else (1280, 900)), name
    # no error at all: the page names its icon (../static/icon.svg, allowed by img-src 'self'),
    # so the browser asks for no /favicon.ico
    assert await b.console_errors() == []
    print(f"live page: {live_seconds:.1f} s for {LIVE_MOVES} moves; then {moves} moves to the "
          f"end; replay of {frames} images; total {time.monotonic() - started:.1f} s")
