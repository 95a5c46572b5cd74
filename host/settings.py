"""A server's settings (/darwin settings): what they are, how a value is checked and read.

Every setting is None until a server sets it: the bot's default then applies (config.toml;
for the table language, the server's own Discord language first). Settings apply to the
games created after they change: a lobby records what it was opened with.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields
from typing import Any

from engine.ai import LEVELS
from host.errors import HostError
from messages import languages

MIN_TIMER = 10.0  # seconds: a shorter turn is a typo, not a game
MAX_TIMER = 86400.0  # one day, as /<game> new allows
MAX_AI_DELAY = 30.0

SECOND, MINUTE, HOUR, DAY = 1, 60, 3600, 86400
# Units a timer may be typed with, in every catalogue language ("90s", "10 min", "2 ore"...).
UNITS = {
    "": SECOND, "s": SECOND, "sec": SECOND, "second": SECOND, "seconds": SECOND,
    "secondo": SECOND, "secondi": SECOND, "seconde": SECOND, "secondes": SECOND,
    "m": MINUTE, "min": MINUTE, "mins": MINUTE, "minute": MINUTE, "minutes": MINUTE,
    "minuto": MINUTE, "minuti": MINUTE,
    "h": HOUR, "hr": HOUR, "hour": HOUR, "hours": HOUR, "ora": HOUR, "ore": HOUR,
    "heure": HOUR, "heures": HOUR,
    "d": DAY, "day": DAY, "days": DAY, "g": DAY, "giorno": DAY, "giorni": DAY, "j": DAY,
    "jour": DAY, "jours": DAY,
    "w": 7 * DAY, "week": 7 * DAY, "weeks": 7 * DAY, "settimana": 7 * DAY,
    "settimane": 7 * DAY, "semaine": 7 * DAY, "semaines": 7 * DAY,
    "y": 365 * DAY, "year": 365 * DAY, "years": 365 * DAY, "anno": 365 * DAY,
    "anni": 365 * DAY, "an": 365 * DAY, "ans": 365 * DAY, "année": 365 * DAY,
    "années": 365 * DAY,
}
OFF = ("off", "none", "no", "nessuno", "no timer", "aucun", "désactivé")
_PART = re.compile(r"(\d+(?:[.,]\d+)?)\s*([^\W\d_]*)")


@dataclass(frozen=True)
class ServerSettings:
    """One server's settings; None = the default. ``turn_timer`` 0 = no timer."""

    language: str | None = None  # the table language of new games
    turn_timer: float | None = None  # seconds, the default of /<game> new's timer
    ai_delay: float | None = None  # seconds an AI seat waits before acting
    ai_level: str | None = None  # the level of AI seats added without one
    thread: bool | None = None  # new tables open in a thread
    manager_role: str | None = None  # a role id: may start, cancel, remove in any game
    web_page: bool | None = None  # the server's web page (/darwin web) is shown; default off

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def stored(self) -> dict[str, Any]:
        """The settings that are set, as the store keeps them."""
        return {k: v for k, v in asdict(self).items() if v is not None}


def parse_duration(text: str) -> float:
    """Seconds in a typed length of time: ``600``, ``90s``, ``10 min``, ``1h30``, ``2 ore``,
    ``off`` (0). HostError ``bad_duration`` when it is not one."""
    words = str(text).strip().lower()
    if words in OFF:
        return 0.0
    parts = _PART.findall(words)
    if not parts or _PART.sub("", words).strip() or len(words) > 40:
        raise HostError("bad_duration", value=str(text)[:40])
    total = 0.0
    for i, (number, unit) in enumerate(parts):
        if unit not in UNITS:
            raise HostError("bad_duration", value=str(text)[:40])
        if unit == "" and i > 0:  # "1h30": the bare number after hours is minutes
            unit = "m" if UNITS[parts[i - 1][1]] == HOUR else "s"
        total += float(number.replace(",", ".")) * UNITS[unit]
    return total


def format_duration(seconds: float) -> str:
    """``45 s``, ``10 min``, ``1 h 30 min``, ``1 d``: as every catalogue language writes it."""
    seconds = round(seconds)
    out = []
    for size, unit in ((DAY, "d"), (HOUR, "h"), (MINUTE, "min"), (SECOND, "s")):
        if seconds >= size or (size == SECOND and not out):
            count, seconds = divmod(seconds, size)
            if count:
                out.append(f"{count} {unit}")
    return " ".join(out) or "0 s"


def check_setting(name: str, value: Any) -> Any:
    """The value as the setting keeps it, or HostError with a sentence's code. None resets.
    A timer is typed (``"10m"``, ``"off"``) or given in seconds (0 = off, as stored)."""
    if name not in ServerSettings.names():
        raise HostError("bad_setting", name=str(name)[:40])
    if value is None:
        return None
    if name == "language":
        lang = str(value).strip().lower()
        if lang not in languages():
            raise HostError("bad_language", value=str(value)[:40],
                            languages=", ".join(languages()))
        return lang
    if name == "turn_timer":
        seconds = parse_duration(value) if isinstance(value, str) else float(value)
        if seconds != 0 and not MIN_TIMER <= seconds <= MAX_TIMER:
            said = value.strip()[:40] if isinstance(value, str) else format_duration(seconds)
            raise HostError("timer_range", value=said,
                            min=format_duration(MIN_TIMER), max=format_duration(MAX_TIMER))
        if seconds == 0 and isinstance(value, str) and value.strip().lower() not in OFF:
            # a typed 0 (or 0s) is a slip: off must be meant to be said
            raise HostError("timer_zero", min=format_duration(MIN_TIMER),
                            max=format_duration(MAX_TIMER))
        return seconds
    if name == "ai_delay":
        delay = float(value)
        if not 0 <= delay <= MAX_AI_DELAY:  # NaN fails too
            raise HostError("ai_delay_range", value=str(value)[:20], max=int(MAX_AI_DELAY))
        return delay
    if name == "ai_level":
        if value not in LEVELS:
            raise HostError("bad_ai_level", value=str(value)[:40], levels=", ".join(LEVELS))
        return value
    if name in ("thread", "web_page"):
        return bool(value)
    return str(value)  # manager_role: a role id (the Discord layer checks that it exists)
