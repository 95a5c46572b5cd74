"""The engine contract shared by every game.

A game is a module (a package under ``engine/``) that exposes one object implementing
:class:`GameRules`. Everything here is pure Python: no I/O, no clock, no asyncio.

The contract, in the spirit of OpenSpiel's Python games:

* ``new_game(seats, seed, options)`` -> state
* ``to_act(state)`` -> the players whose input is awaited now (possibly several at once)
* ``legal_actions(state, player)`` -> every legal action of that player, as plain dicts
* ``apply_action(state, player, action)`` -> ``(new_state, events)``; the old state is never
  modified; an illegal action raises :class:`IllegalAction` and nothing changes
* ``view(state, viewer)`` -> what that seat (or a spectator, ``viewer=None``) may see
* ``is_over(state)`` / ``returns(state)`` -> final scores and ranking
* ``to_json(state)`` / ``from_json(data)`` -> save/load with a schema version

Actions and events are JSON-serialisable dicts. Events carry a ``type`` and parameters that
the message catalogue turns into sentences.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(Exception):
    """An action that the rules refuse.

    ``code`` is a stable reason code (for example ``"not_your_turn"``), ``params`` the values
    a message catalogue needs to explain it. The state the action was applied to is unchanged.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


class CorruptState(Exception):
    """A saved state that cannot be loaded (bad JSON shape, unknown schema version)."""


@dataclass(frozen=True)
class Seat:
    """One player at the table: a stable id (a Discord user id, ``ai:1``...) and a name."""

    id: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name}


class Rng:
    """A small deterministic generator (splitmix64) whose whole state is one integer.

    It is kept inside game states, so replaying a seed and an action log rebuilds the same
    game on every platform and Python version, and saving it costs one number.
    """

    __slots__ = ("state",)
    _MASK = (1 << 64) - 1

    def __init__(self, state: int) -> None:
        self.state = state & self._MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self._MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self._MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self._MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        return (self.next64() * n) >> 64

    def die(self) -> int:
        """A six-sided die roll, 1..6."""
        return self.below(6) + 1

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class GameRules(Protocol):
    """What every game package provides (see ``engine.evo.EVO`` for the reference one)."""

    kind: str
    min_players: int
    max_players: int

    def new_game(self, seats: list[Seat], seed: int, options: dict | None = None) -> Any: ...

    def to_act(self, state: Any) -> list[int]: ...

    def legal_actions(self, state: Any, player: int) -> list[Action]: ...

    def apply_action(self, state: Any, player: int, action: Action) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, viewer: int | None) -> dict: ...

    def is_over(self, state: Any) -> bool: ...

    def returns(self, state: Any) -> list[dict]: ...

    def to_json(self, state: Any) -> dict: ...

    def from_json(self, data: dict) -> Any: ...


_REGISTRY: dict[str, GameRules] = {}


def register(game: GameRules) -> GameRules:
    _REGISTRY[game.kind] = game
    return game


def get_game(kind: str) -> GameRules:
    """The rules object for a game kind (``"evo"``...)."""
    if not _REGISTRY:
        import engine.evo  # noqa: F401  (registers itself)
    try:
        return _REGISTRY[kind]
    except KeyError:
        raise KeyError(f"unknown game kind {kind!r}; known: {sorted(_REGISTRY)}") from None


def game_kinds() -> list[str]:
    get_game("evo")
    return sorted(_REGISTRY)
