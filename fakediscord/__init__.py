"""A fake Discord over real sockets, for load tests and benchmarks.

:class:`FakeDiscord` is a local HTTP server (Discord's REST API, the routes a bot such as
Darwin uses) and a gateway WebSocket server on 127.0.0.1 that an unmodified discord.py bot
connects to once ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` point
at it (``fakediscord.launcher`` does that, then runs ``cogs.bot.DarwinBot``).

It speaks enough of the real protocol for discord.py: HELLO, IDENTIFY with a shard
``[id, count]`` -> READY and one GUILD_CREATE per guild of that shard (``(guild_id >> 22) %
count``), heartbeats and their ACKs, RESUME (the events missed are sent again), zlib-stream
compression when asked. Interactions are sent as INTERACTION_CREATE events (slash commands
with options, button and select presses carrying the message), and the bot's REST calls are
answered as Discord does (interaction callbacks, followups and the original response,
channel messages with multipart attachments, the command sync). A configurable share of
calls is answered ``429`` with ``retry_after`` and the rate-limit headers discord.py reads.
Every REST call is recorded with its time.

Only loopback: it binds 127.0.0.1 and refuses other peers. Bounded: records, messages kept
per channel and the server's lifetime are capped.
"""

from fakediscord.server import Call, FakeDiscord, Interaction

__all__ = ["Call", "FakeDiscord", "Interaction"]
