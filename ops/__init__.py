"""Operating Darwin: metrics, the health and metrics HTTP server, and the graceful stop.

* ``ops.interactions`` — every interaction followed from its arrival to the end of its
  handler (kind, outcome, first answer); the running ones are what a stop waits for.
* ``ops.metrics`` — the Prometheus registry (``prometheus-client``) and the event-loop lag
  monitor; no discord import.
* ``ops.server`` — the local HTTP server: ``/healthz`` and ``/metrics`` (aiohttp); other
  pages can be added to its application before it starts.
* ``ops.instrument`` — the discord.py side: the bot's INTERACTION_CREATE parser, its HTTP
  session (aiohttp trace: REST calls and 429s by route), the store's commits, the gateway.
* ``ops.stop`` — ``python bot.py`` under SIGTERM/SIGINT: a graceful stop within STOP_WITHIN.
* ``ops.probe`` — the Docker HEALTHCHECK client (``python -m ops.probe``).
"""
