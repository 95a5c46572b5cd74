"""Load-time checks of a stored game's lobby: everything the host and the table index by.

A game row whose lobby fails here is set aside at start (with the reason) instead of
failing later, on every press, or stopping the other games from loading.
"""

from __future__ import annotations

import math
from typing import Any

from engine.ai import LEVELS


class CorruptLobby(ValueError):
    """A stored lobby the host cannot run a game with."""


def _fail(reason: str) -> None:
    raise CorruptLobby(reason)


def _is_int(x: Any) -> bool:
    return type(x) is int


def _is_number(x: Any) -> bool:
    return type(x) in (int, float) and math.isfinite(x)


def check_lobby(lobby: Any, status: str, state: Any, rules) -> None:
    """Raise :class:`CorruptLobby` unless ``lobby`` is one the host can run.

    ``state`` is the loaded game state of an active game (None in a lobby): its seats must
    be the lobby's seats, in the same order."""
    if not isinstance(lobby, dict):
        _fail("the lobby is not an object")
    seats = lobby.get("seats")
    if not isinstance(seats, list) or not seats:
        _fail("the lobby has no seats")
    ids = set()
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict):
            _fail(f"seat {i + 1} is not an object")
        if not isinstance(seat.get("id"), str) or not seat["id"]:
            _fail(f"seat {i + 1} has no player id")
        if not isinstance(seat.get("name"), str):
            _fail(f"seat {i + 1} has no name")
        if type(seat.get("ai", False)) is not bool:
            _fail(f"seat {i + 1}: 'ai' is not true or false")
        if seat.get("ai") and seat.get("level", LEVELS[1]) not in LEVELS:
            _fail(f"seat {i + 1}: unknown AI level {seat.get('level')!r}")
        if "autopass" in seat and not isinstance(seat["autopass"], str):
            _fail(f"seat {i + 1}: bad auto-pass setting")
        if "hints" in seat and not (_is_int(seat["hints"]) and seat["hints"] >= 0):
            _fail(f"seat {i + 1}: the hints used are not a count")
        ids.add(seat["id"])
    if len(ids) != len(seats):
        _fail("two seats have the same player")
    if not isinstance(lobby.get("creator"), str):
        _fail("the lobby has no creator")
    low, high = lobby.get("min"), lobby.get("max")
    if not (_is_int(low) and _is_int(high) and 1 <= low <= high):
        _fail("the lobby's player limits are not numbers")
    if "timer" in lobby and lobby["timer"] is not None and not (
            _is_number(lobby["timer"]) and lobby["timer"] >= 0):
        _fail("the turn timer is not a number of seconds")
    if "ai_delay" in lobby and not (_is_number(lobby["ai_delay"]) and lobby["ai_delay"] >= 0):
        _fail("the AI delay is not a number of seconds")
    if "ai_level" in lobby and lobby["ai_level"] not in LEVELS:
        _fail(f"unknown AI level {lobby['ai_level']!r}")
    if "lang" in lobby and not isinstance(lobby["lang"], str):
        _fail("the table language is not a text")
    if not isinstance(lobby.get("messages", {}), dict):
        _fail("the lobby's message ids are not an object")
    if not isinstance(lobby.get("log", []), list):
        _fail("the lobby's event log is not a list")
    deadline = lobby.get("deadline")
    if deadline is not None and not (
            isinstance(deadline, dict) and _is_int(deadline.get("seq"))
            and _is_number(deadline.get("at"))):
        _fail("the turn deadline is not a position and a time")
    if status == "lobby":
        if len(seats) > high:
            _fail("the lobby has more seats than the game allows")
        return
    if not low <= len(seats) <= high or len(seats) < rules.min_players \
            or len(seats) > rules.max_players:
        _fail(f"{len(seats)} seats is not a player count of this game")
    stated = [s.get("id") if isinstance(s, dict) else None
              for s in getattr(state, "seats", None) or []]
    if stated != [s["id"] for s in seats]:
        _fail(f"the lobby's {len(seats)} seats are not the game's {len(stated)} players")
