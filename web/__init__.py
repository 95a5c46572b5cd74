"""The read-only web page of the games (issue 26): aiohttp, no framework, off unless ``[web]
enabled``.

* ``web.app`` — the routes (GET and HEAD only; anything else 405), the security headers, the
  rate limit per client, the per-game snapshot cache (at most one store read per game per
  second however many watch), the board cache (one drawing per game, position, language and
  size), the server-sent events, and :class:`WebServer` (its own site: never the address of
  ``/healthz`` and ``/metrics``).
* ``web.pages`` — the HTML, built from string templates with every value escaped.
* ``web/static/`` — one CSS file, one small script (live updates, the replay player) and the
  page's icon.

Routes (``TOKEN``: a link's random token, see ``Store.web_token``; an unknown or revoked one
is a plain 404, the same body for both):

=================================  ==========================================================
``/g/TOKEN``                       the game page
``/g/TOKEN/board.png``             the public board as the table draws it (``?size=large``:
                                   twice as large)
``/g/TOKEN/state.json``            seq, status, phase, players, scores, awaited, log lines
``/g/TOKEN/events``                server-sent events: ``event: state`` per change, its data
                                   state.json's text (``?lang=``)
``/g/TOKEN/replay/N.png``          a finished game's phase image N (0-based)
``/s/TOKEN``                       a server's page (only while its ``web_page`` setting is on)
``/static/NAME``                   ``web.css``, ``web.js``, ``icon.svg`` (``?v=HASH``: cached
                                   for a year)
=================================  ==========================================================

Stable element ids (the browser test and the bench rely on them): ``#board img``
(``#board-img``, inside ``#board-zoom``), ``#players``, ``#log``, ``#status``, ``#turn``,
``#replay`` with ``#replay-img``, ``#replay-prev``, ``#replay-next``, ``#replay-play`` and
``#replay-pos``; ``<body data-seq="N">`` is the position shown (``data-status`` the game's
status, ``data-frames`` a finished game's number of replay images).
"""

from web.app import WebServer, WebSettings, make_app, web_settings

__all__ = ["WebServer", "WebSettings", "make_app", "web_settings"]
