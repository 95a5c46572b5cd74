"""The fifth game's AI seats: ``random`` (engine.ai's) and ``fast`` (the lowest card that
beats every card still unseen, else the lowest card)."""

from __future__ import annotations

from engine.ai import Levels, Policy, RandomPolicy, seed_of


class FastPolicy(Policy):
    name = "fast"

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        from tests.fifth_game.rules import value

        cards = sorted((a["card"] for a in legal), key=value)
        best = cards[-1]
        card = best if value(best) >= 10 else cards[0]
        return next(a for a in legal if a["card"] == card)


POLICIES = {"random": RandomPolicy, "fast": FastPolicy}
AI = Levels(POLICIES, lambda _s, p, v: seed_of([v["round"], v["step"], p]))
LEVELS, policy_for, choose_action = AI.names, AI.policy_for, AI.choose_action
