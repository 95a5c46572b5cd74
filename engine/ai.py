"""AI seats for every game: one entry point for the host and the demo."""

from __future__ import annotations

from typing import Any

LEVELS = ("random", "fast", "strong")


def ai_action(rules, state: Any, player: int, level: str = "fast") -> dict:
    """The action an AI of ``level`` takes for ``player`` now (it sees only its own view)."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; known: {LEVELS}")
    return rules.ai_action(state, player, level)
