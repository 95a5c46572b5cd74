"""A hint for a learner (``/<game> hint``): the move the searching AI would make for the
asking seat, and the figures of why -- from that seat's own view only.

The game's ``expert`` policy (engine/search.py's :class:`~engine.search.SearchPolicy`) plays
the position out in worlds sampled from the seat's view (never the state's hidden cards) and
scores each candidate with the game's evaluator at the end of the round: how the seat then
stands against the best other player, 0..1 (0.5: level). The hint gives the chosen move, how
many playouts it rests on, its value and the best other candidate's. A game without a
searching level (none in its description's ``ai_levels``) gets its strong level's choice,
without figures.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.core import IllegalAction, description

ITERATIONS = 160  # playouts per hint: the same hint for the same view, on every machine


def hint(rules: Any, state: Any, player: int, iterations: int = ITERATIONS) -> dict:
    """``{"action", "level", "playouts", "value", "other", "other_value", "searcher"}`` for
    ``player`` (IllegalAction ``not_your_turn`` when they have nothing to decide);
    ``iterations`` 0: the strong level's choice, without a search. ``value`` and
    ``other_value`` are 0..1 (None without a search); ``other`` is the best other move the
    search weighed (None when it weighed only one); ``searcher``: whether the game has a
    searching level at all (False: its strong level's choice, always)."""
    legal = rules.legal_actions(state, player)
    if not legal:
        raise IllegalAction("not_your_turn", player=player, waiting=rules.to_act(state))
    game = description(rules.kind)
    levels = importlib.import_module(game.ai_module).AI
    expert = levels.policies.get("expert") if "expert" in game.ai_levels else None
    out = {"action": legal[0], "level": "strong", "playouts": 0, "value": None,
           "other": None, "other_value": None, "searcher": expert is not None}
    if len(legal) == 1:
        return out
    view = rules.view(state, player)
    seed = levels.seed(state, player, view)
    if expert is None or not iterations:
        out["action"] = levels.policy_for("strong").choose(view, legal, seed)
        return out
    policy = expert(iterations=iterations)
    action = policy.choose(view, legal, seed)
    stats = policy.search.stats
    weighed = [(a, visits, mean) for a, visits, mean in stats.get("root", ()) if visits]
    out.update(action=action, level="expert", playouts=stats.get("iterations", 0))
    for a, _visits, mean in weighed:
        if a == action:
            out["value"] = _unit(mean)
    others = [(mean, a) for a, _visits, mean in weighed if a != action]
    if others:
        mean, a = max(others, key=lambda x: x[0])
        out.update(other=a, other_value=_unit(mean))
    return out


def _unit(x: float | None) -> float | None:
    return None if x is None else min(1.0, max(0.0, float(x)))
