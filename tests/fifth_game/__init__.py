"""A fifth game, defined inside tests/ (issue 23): the proof that a game joins the bot with a
package per layer and one registration, without a line elsewhere.

It follows docs/architecture.md's "Adding a game: the checklist": the engine package
(``state``, ``rules``, ``view`` with ``determinize``, ``ai``: this folder), the renderer
(``render.py``, on ``images.common``), the message module (``messages.py``), the cog
(``cog.py``) and the catalogue (``catalogue/<lang>/fifth.toml``); ``FIELDS`` is the rest of its
description, and ``tests/test_fifth_game.py`` registers it (``engine.core.registered``) for
its tests only.
"""

from __future__ import annotations

from pathlib import Path

from engine.base import GameRulesBase, SecretSteps, check_loaded_seats
from engine.core import CorruptState
from tests.fifth_game import rules
from tests.fifth_game import view as views
from tests.fifth_game.state import FifthState

__all__ = ["FIELDS", "FIFTH", "FifthGame"]


class FifthGame(SecretSteps, GameRulesBase):
    kind = "fifth"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    options = {"double_last": "The last round's points count double."}
    rules = rules
    views = views
    State = FifthState
    PHASE_NAMES = {"play": "play", "over": "over"}
    ai_module = "tests.fifth_game.ai"

    def invariants(self, s: FifthState) -> None:
        check_loaded_seats(s.seats, rules.MIN_PLAYERS, rules.MAX_PLAYERS)
        held = [c for hand in s.hands for c in hand] + [c for c in s.played if c]
        if len(held) != len(set(held)) or not set(held) <= set(rules.CARDS):
            raise CorruptState("cards are not conserved")
        if any(len(h) + (c is not None) != rules.HAND - s.round + 1
               for h, c in zip(s.hands, s.played, strict=True)) and s.phase == "play":
            raise CorruptState("a hand of the wrong size")

    def undoable(self, before, player, action, after, events) -> bool:
        """A card put face down may be taken back while others still choose (not the card
        that completes the step: it reveals every card)."""
        return after.step == before.step


FIFTH = FifthGame()

# The rest of its description (engine.core.GameDescription): what bot.py, images, messages,
# the demo and the benchmarks read.
FIELDS = {
    "title": "Fifth",
    "options": {"double_last": (bool, False)},
    "ai_levels": ("random", "fast"),
    "renderer": "tests.fifth_game.render:render_fifth",
    "hand_renderer": "tests.fifth_game.render:render_hand",
    "messages": "tests.fifth_game.messages",
    "cog": "tests.fifth_game.cog",
    "catalogue": str(Path(__file__).resolve().parent / "catalogue"),
}
