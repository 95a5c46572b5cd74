"""The table in a secret simultaneous step: nothing in the channel, not even the number of
edits, tells how often a player acted (tests/secret_game.py's sealed picks, on the real
TableListener with a recording channel)."""

from __future__ import annotations

import asyncio

import discord
import pytest

from cogs.table import Pacer, TableListener
from host import GameHost
from store import Store
from tests.test_host import FakeClock, settle


class Channel:
    def __init__(self) -> None:
        self.writes: list[tuple[str, str]] = []  # (post | edit, content)

    async def send(self, content, **kwargs):
        self.writes.append(("post", content))
        return discord.Object(len(self.writes))

    def get_partial_message(self, message_id):
        channel = self

        class Message:
            async def edit(self, content=None, **kwargs):
                channel.writes.append(("edit", content))

        return Message()


class SealedCog:
    def table_items(self, game, lang):
        # one public button for the whole step, bound to the public step
        return [discord.ui.Button(label="Pick", custom_id=f"sealed:{game.id}:{game.step}")]

    def status_lines(self, game, view, lang):
        return [f"Sealed, round {view['round']}"]


class Bot:
    config = {"games": {"language": "en"}}

    def __init__(self) -> None:
        self.channel = Channel()

    def game_cog(self, kind):
        return SealedCog()

    def get_channel(self, channel_id):
        return self.channel

    def is_ready(self):
        return True


def describe(kind, event, names, lang):
    """The sealed game's events as the table reads them (who picked; never the number)."""
    if event["type"] == "picked":
        return f"{names[event['player']]} has picked."
    if event["type"] == "reveal":
        return "Picks: " + ", ".join(map(str, event["picks"]))
    return ""


@pytest.fixture
async def table(tmp_path, sealed, monkeypatch):
    monkeypatch.setattr("cogs.table.describe", describe)
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    bot = Bot()
    listener = TableListener(bot, pacer=Pacer(limit=1000), nudge_delay=1e9)
    host = GameHost(store, clock=FakeClock(), listener=listener)
    yield host, listener, bot.channel
    await host.close()
    await store.close()


async def drain(host, listener) -> None:
    for _ in range(50):
        await settle(host)
        await asyncio.sleep(0)
        if listener.idle():
            return


async def play_round(host, listener, channel, moves_before: dict) -> list:
    """Start a 3-seat game and make the picks of ``moves_before`` (users in order); return
    what was written to the channel meanwhile."""
    await host.open_lobby("g", "71", "sealed", "u0", "Ann")
    await host.join("71", "u1", "Bob")
    await host.join("71", "u2", "Cy")
    await host.start_game("71", "u0", False, seed=1)
    await drain(host, listener)
    start = len(channel.writes)
    for user in moves_before["order"]:
        await host.act("71", user, {"type": "pick", "n": moves_before["pick"][user]})
        await drain(host, listener)
    return channel.writes[start:]


async def test_picks_change_the_channel_only_by_who_is_still_awaited(table):
    host, listener, channel = table
    writes = await play_round(host, listener, channel, {
        "order": ["u1", "u0"], "pick": {"u1": 3, "u0": 1}})
    # each pick edited the live message once: who picked and who is still awaited, no number
    assert [w[0] for w in writes] == ["edit", "edit"]
    assert "Bob has picked." in writes[0][1] and "Waiting for 2 players: Ann, Cy" in writes[0][1]
    assert "Ann has picked." in writes[1][1] and "Your turn: Cy" in writes[1][1]
    assert "Picks" not in writes[1][1]


async def test_a_move_that_changes_nothing_public_is_not_written(table):
    host, listener, channel = table
    await play_round(host, listener, channel, {"order": [], "pick": {}})
    game = host.game_in("71")
    before = len(channel.writes)
    # a secret move that leaves everything public as it was (in a Quick game's play phase, a
    # player's move before "done": no event, the same players awaited)
    from host.host import Outcome

    await listener.on_outcome(Outcome(game, 1, {"type": "pick", "n": 2}, [], []))
    await drain(host, listener)
    assert channel.writes[before:] == []
