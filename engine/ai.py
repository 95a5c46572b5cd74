"""AI seats for every game: one entry point for the host and the demo, and the steps every
game's AI shares (pick the policy of a level, build the seat's view, ask it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import IllegalAction

LEVELS = ("random", "fast", "strong")

_SHARED: dict[tuple, Any] = {}  # policies keep no state between decisions


def ai_action(rules, state: Any, player: int, level: str = "fast") -> dict:
    """The action an AI of ``level`` takes for ``player`` now (it sees only its own view)."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; known: {LEVELS}")
    return rules.ai_action(state, player, level)


def make_policy(level: str, policies: dict[str, type]):
    """A new policy of ``level`` from a game's ``{level: policy class}``."""
    try:
        return policies[level]()
    except KeyError:
        raise ValueError(f"unknown AI level {level!r}; known: {', '.join(LEVELS)}") from None


def choose_with(rules, state: Any, player: int, level: str, policies: dict[str, type],
                seed: Callable[[Any, int, dict], int]) -> dict:
    """What a game's ``choose_action`` does: build ``player``'s view and the decision seed
    (``seed(state, player, view)``, from public facts only), ask the level's policy, and
    return one of the legal actions (the only one at once, without a view: every policy
    returns one of the legal actions)."""
    legal = rules.legal_actions(state, player)
    if not legal:
        raise IllegalAction("not_your_turn", player=player, waiting=rules.to_act(state))
    if len(legal) == 1:  # nothing to decide (e.g. a card window with nothing playable)
        return legal[0]
    key = (policies.get(level), level)
    policy = _SHARED.get(key)
    if policy is None:
        policy = _SHARED[key] = make_policy(level, policies)
    view = rules.view(state, player)
    return policy.choose(view, legal, seed(state, player, view))
