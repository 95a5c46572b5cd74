"""Table figures: what a whole game writes to its channel, played under SimCord.

    python bench/table_bench.py

Players "think" on SimCord's virtual clock, so a game takes seconds of real time while the
channel sees the pacing a real game would. Every post and edit to the channel's messages is
recorded (interaction replies, which Discord does not count against the channel, are not).

* ``table.messages_per_game.evo3`` / ``.cubosaurs3``: posts in the channel in a seeded game
  of three humans (lobby and final table included);
* ``table.mentions_per_player.evo3`` / ``.cubosaurs3``: the most any one player was
  mentioned in that game; ``table.mentions_per_player_phase.*``: the most in one phase;
* ``table.max_posts_5s``: the most posts and edits in any 5 s of the channel, over the games
  above and one of one human with four AI seats at the default AI delay (1.5 s);
* ``table.minutes_per_game.*``: the game's length on the virtual clock, from Start to the
  final table (think times, AI delays and the bot's waits in card windows);
  ``table.window_wait_share.*``: the part of it spent waiting in card windows for the bot to
  pass for the players (every holder asked at once: one ``window_delay`` per round).

These are counts from seeded games, not timings: they are the same on every run.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SEED = 7
THINK = (2.0, 8.0)  # a human's think time, seconds (virtual)


async def play_table(kind: str, humans: int, ais: int = 0, ai_delay: float = 1.0,
                     seed: int = SEED) -> dict:
    """A whole seeded game under SimCord; the channel's writes and mentions."""
    import simcord

    import host.host as host_module
    from cogs.bot import DarwinBot
    from engine.ai import ai_action
    from tests.conftest import ChannelWrites, make_config, virtual_pacing

    tmp = Path(tempfile.mkdtemp())
    bot = DarwinBot(make_config(tmp, ai_delay=ai_delay))
    original_urandom = host_module.os.urandom
    host_module.os.urandom = lambda n: seed.to_bytes(n, "big")
    try:
        async with simcord.run(bot) as env:
            virtual_pacing(env)
            state = {"game": None}

            def phase():
                g = state["game"]
                if g is None or g.state is None:
                    return ""
                # EVO's phases come back every turn: a phase is (turn, phase) there
                turn = g.state.turn if kind == "evo" else ""
                return f"{turn}:{g.rules.phase_name(g.state)}"

            writes = ChannelWrites(env, phase)
            guild = env.create_guild()
            channel = guild.create_text_channel(kind)
            users = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy")[:humans]]
            await users[0].slash(channel, f"{kind} new")
            lobby = channel.last_message
            for user in users[1:]:
                await user.click(lobby, label="Join")
            for _ in range(ais):
                await users[0].click(lobby, label="Add AI")
            await users[0].click(lobby, label="Start")
            game = state["game"] = bot.host.game_in(channel.id)
            by_seat = {game.seat_of(u.id): u for u in users}
            rnd = random.Random(seed)
            started = env.now()
            window_wait = 0.0
            k = 0
            while game.status == "active":
                k += 1
                if k > 5000:
                    raise RuntimeError("the game does not end")
                awaited = game.awaiting()
                human = [p for p in awaited if p in by_seat]
                if not human or all(bot.host._auto_passes(game, p) for p in human):
                    if human:
                        window_wait += 0.5
                    await env.advance_time(0.5)  # AI seats and auto-passes answer by themselves
                    continue
                seat = human[0]
                await env.advance_time(rnd.uniform(*THINK))
                if game.status != "active" or seat not in game.awaiting():
                    continue
                action = ai_action(game.rules, game.state, seat, "fast")
                seq = game.seq
                await perform(kind, env, channel, by_seat[seat], game, seat, action, k)
                if game.seq == seq:
                    raise RuntimeError(f"action not applied: {action}")
            for _ in range(200):
                if bot.listener.idle():
                    break
                await env.advance_time(1.0)
            minutes = (env.now() - started).total_seconds() / 60
            mentions = writes.mentions()
            per_player = Counter(u for u, _ in mentions)
            phases = Counter(mentions)
            await bot.stop_services()
    finally:
        host_module.os.urandom = original_urandom
    return {"posts": len(writes.posts()), "max_5s": writes.max_in_window(5.0),
            "mentions": max(per_player.values(), default=0),
            "mentions_phase": max(phases.values(), default=0), "minutes": minutes,
            "window_share": window_wait / 60 / minutes if minutes else 0.0}


async def perform(kind, env, channel, user, game, seat, action, k):
    if kind == "evo":
        from tests.test_discord import perform as evo_perform

        return await evo_perform(env, channel, user, game, seat, action, k)
    from tests.test_discord_cubosaurs import perform as cubo_perform

    return await cubo_perform(env, channel, user, game, seat, action, k, set())


def run(out) -> None:
    worst = 0
    for kind in ("evo", "cubosaurs"):
        figures = asyncio.run(play_table(kind, 3))
        name = "evo3" if kind == "evo" else "cubosaurs3"
        out(f"table.messages_per_game.{name}", figures["posts"], "posts")
        out(f"table.mentions_per_player.{name}", figures["mentions"], "mentions")
        out(f"table.mentions_per_player_phase.{name}", figures["mentions_phase"], "mentions")
        out(f"table.minutes_per_game.{name}", figures["minutes"], "min")
        out(f"table.window_wait_share.{name}", figures["window_share"], "")
        worst = max(worst, figures["max_5s"])
    figures = asyncio.run(play_table("evo", 1, ais=4, ai_delay=1.5))
    out("table.messages_per_game.evo1_ai4", figures["posts"], "posts")
    out("table.minutes_per_game.evo1_ai4", figures["minutes"], "min")
    worst = max(worst, figures["max_5s"])
    out("table.max_posts_5s", worst, "writes")


if __name__ == "__main__":
    run(lambda name, value, unit: print(f"{name} {value:.3f} {unit}", flush=True))
