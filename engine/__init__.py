"""Darwin's game engines: pure Python rules, no I/O. See ``engine.core`` for the contract."""

from engine.core import CorruptState, IllegalAction, Rng, Seat, game_kinds, get_game

__all__ = ["CorruptState", "IllegalAction", "Rng", "Seat", "game_kinds", "get_game"]
