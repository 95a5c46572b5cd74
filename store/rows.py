"""Rows as the store returns them, and the JSON encoding of the JSON columns."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import CorruptRow

LIVE = ("lobby", "active")
STATUSES = ("lobby", "active", "finished", "cancelled", "broken")


def encode(value: Mapping[str, Any] | None, what: str, *, nullable: bool = False) -> str | None:
    """A JSON object as compact text. Raises TypeError/ValueError (before anything is written)
    for a non-object, a value JSON cannot hold, or NaN/Infinity (not JSON)."""
    if value is None:
        if nullable:
            return None
        raise TypeError(f"{what} must be a JSON object (a dict), not None")
    if not isinstance(value, Mapping):
        raise TypeError(f"{what} must be a JSON object (a dict), not {type(value).__name__}")
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def decode(game_id: int, what: str, raw: Any, *, nullable: bool = True) -> dict | None:
    """Parse one stored JSON column; anything but a JSON object (or NULL) is a CorruptRow."""
    if raw is None:
        if nullable:
            return None
        raise CorruptRow(game_id, f"{what} is missing")
    if isinstance(raw, str):
        try:
            raw.encode("utf-8")
        except UnicodeEncodeError:  # the text factory keeps undecodable bytes as surrogates
            raise CorruptRow(game_id, f"{what} is not valid UTF-8") from None
    try:
        value = json.loads(raw)
    except (ValueError, TypeError, RecursionError) as exc:
        raise CorruptRow(game_id, f"{what} is not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise CorruptRow(game_id, f"{what} is a JSON {type(value).__name__}, not an object")
    return value


class Decoded(NamedTuple):
    """A game row's JSON columns, parsed (GameRow.decoded): unpack or use the names."""

    options: dict | None
    lobby: dict | None
    state: dict | None


@dataclass(frozen=True, slots=True)
class GameRow:
    """One `games` row as stored: options, lobby and state are the raw JSON text."""

    id: int
    guild_id: str | None
    channel_id: str
    kind: str
    status: str
    options: str | None
    lobby: str | None
    state: str | None
    seq: int
    error: str | None
    created_at: float
    updated_at: float

    @property
    def live(self) -> bool:
        return self.status in LIVE

    def decoded(self) -> Decoded:
        """(options, lobby, state) parsed; raises CorruptRow if the row cannot be trusted.

        Checks: each JSON column is NULL or a JSON object; an active or finished game has a
        state; seq is a non-negative integer.
        """
        options = decode(self.id, "options", self.options)
        lobby = decode(self.id, "lobby", self.lobby)
        state = decode(self.id, "state", self.state,
                       nullable=self.status not in ("active", "finished"))
        if not isinstance(self.seq, int) or isinstance(self.seq, bool) or self.seq < 0:
            raise CorruptRow(self.id, f"seq is {self.seq!r}")
        return Decoded(options, lobby, state)


GAME_COLUMNS = ("id, guild_id, channel_id, kind, status, options, lobby, state, seq, error, "
                "created_at, updated_at")


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: int
    seq: int          # the game's seq after this action (the first action is 1)
    actor: str | None
    action: dict
    at: float


@dataclass(frozen=True, slots=True)
class ResultRow:
    game_id: int
    user_id: str | None
    seat: int
    name: str | None
    rank: int
    score: int | None
    kind: str
    finished_at: float
    ai_level: str | None = None  # the AI that played the seat to the end (None: its player)


RESULT_COLUMNS = "game_id, user_id, seat, name, rank, score, kind, finished_at, ai_level"


def result_params(results: Any) -> list[tuple]:
    """Check the caller's result dicts; (user_id, seat, name, rank, score, ai_level) per seat.

    Keys: seat (int, required, unique), rank (int, required), user_id (str/int or None),
    name (str or None), score (int or None), ai_level (str or None: the AI level that played
    the seat to the end, an AI seat's or the one that took over a seat its player left).
    Other keys are ignored.
    """
    if isinstance(results, (str, bytes, Mapping)) or not hasattr(results, "__iter__"):
        raise TypeError("results must be a list of dicts")
    rows = []
    seen = set()
    for r in results:
        if not isinstance(r, Mapping):
            raise TypeError(f"each result must be a dict, not {type(r).__name__}")
        seat, rank, score = r.get("seat"), r.get("rank"), r.get("score")
        for key, v, optional in (("seat", seat, False), ("rank", rank, False),
                                 ("score", score, True)):
            if v is None and optional:
                continue
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"result {key} must be an int, not {v!r}")
        if seat in seen:
            raise ValueError(f"seat {seat} appears twice in the results")
        seen.add(seat)
        user_id = r.get("user_id")
        name = r.get("name")
        level = r.get("ai_level")
        if level is not None and not isinstance(level, str):
            raise TypeError(f"result ai_level must be a str or None, not {level!r}")
        rows.append((None if user_id is None else str(user_id), seat,
                     None if name is None else str(name), rank, score, level))
    return rows


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's current rating in one game of one server (``ratings``)."""

    player_id: str
    kind: str
    mu: float
    sigma: float
    games: int  # rated games
    name: str | None = None  # the name of their latest result in that server and game


@dataclass(frozen=True, slots=True)
class RatingChangeRow:
    """What one rated game changed for one player (``rating_changes``)."""

    game_id: int
    player_id: str
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: float
