"""The graceful stop's bound (``DarwinBot.stop_services`` does the stop itself).

SIGTERM or SIGINT: the bot stops taking interactions, lets the running ones and the host's
running steps finish, flushes the table's writes, stops the timers and closes the store, all
within STOP_WITHIN seconds, and the process exits with status 0: under Docker's 10 s between
SIGTERM and SIGKILL (``docker stop``), systemd's 90 s and Kubernetes' 30 s. Should anything
hang past STOP_WITHIN + 1.5 s, the process ends anyway, with status 1 (everything
acknowledged is already committed: the store commits before a move is acknowledged).
"""

from __future__ import annotations

import logging
import os
import threading

log = logging.getLogger("darwin")

STOP_WITHIN = 8.0  # seconds from SIGTERM to the store closed


def hard_stop_after(seconds: float) -> threading.Timer:
    """End the process after ``seconds`` unless it has ended by itself (a daemon thread: it
    never keeps the process alive, and it fires even if the event loop is stuck)."""
    def stop() -> None:
        log.error("the graceful stop took more than %g s: exiting now", seconds)
        logging.shutdown()
        os._exit(1)

    timer = threading.Timer(seconds, stop)
    timer.daemon = True
    timer.start()
    return timer
