"""AI seats for every game: one entry point for the host and the demo, and the steps every
game's AI shares (pick the policy of a level, build the seat's view, ask it).

Strategic action kinds (issue 22: every level but random plays the whole game). A game lists,
in its AI module ``engine/<kind>/ai.py``, the kinds of action a good player uses at some point
of some game -- the rules, traits and options an AI seat must be seen to use where they are
good:

* ``STRATEGIC: dict[str, str]``: kind -> one line saying what it is (e.g. ``"split"``:
  "Divergence: a new animal splits a species in two");
* ``strategic_kinds(view, action) -> tuple[str, ...]``: the kinds ``action`` is, read from the
  deciding seat's own ``view`` (an action may be of none or of several kinds).

Kinds the game's AI considers never right are not listed; its module text says which and why.
:func:`strategic` reads them (an empty table for a game that lists none) and :class:`Coverage`
counts, per level, how often each kind was legal and how often chosen
(``bench/ai_matchup.py --coverage``, ``python bench/run.py ai``): a kind legal but never
chosen by a level is an ``unused_strategic`` of that level.

Levels (one way for every game). A game's AI module lists its policies, each a class whose
``choose(view, legal, seed)`` returns one of ``legal`` (:class:`Policy`), and declares them
with :class:`Levels`::

    POLICIES = {"random": RandomPolicy, "fast": FastPolicy, "strong": StrongPolicy}
    AI = Levels(POLICIES, lambda state, player, view: view_seed(view))
    LEVELS, policy_for, choose_action = AI.names, AI.policy_for, AI.choose_action

``RandomPolicy`` (a uniformly random legal action) is the same in every game: it lives here.
The host offers the levels of :data:`LEVELS` (``expert``, the searching level of
``engine/search.py``, included); a game whose description lacks one plays its best level
below it (:func:`level_of`).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from engine.core import IllegalAction, Rng

# the levels the host offers, weakest first; a game without one plays its best level below it
LEVELS = ("random", "fast", "strong", "expert")

_SHARED: dict[tuple, Any] = {}  # policies keep no state between decisions


def ai_action(rules, state: Any, player: int, level: str = "fast") -> dict:
    """The action an AI of ``level`` takes for ``player`` now (it sees only its own view)."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; known: {LEVELS}")
    return rules.ai_action(state, player, level_of(rules, level))


def level_of(rules, level: str) -> str:
    """``level`` if the game has it (its description's ``ai_levels``), else the game's best
    level below it (a game without a searching level plays its strong one for ``expert``)."""
    from engine.core import description

    have = description(rules.kind).ai_levels
    if level in have:
        return level
    below = [lv for lv in LEVELS[:LEVELS.index(level)] if lv in have]
    return below[-1] if below else have[0]


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


# --- policies and levels -----------------------------------------------------------------------

class Policy:
    """An AI player: ``choose(view, legal, seed)`` returns one of ``legal``."""

    name = "base"

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        raise NotImplementedError


class RandomPolicy(Policy):
    """A uniformly random legal action (from the decision's seed)."""

    name = "random"

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        return legal[Rng(seed).below(len(legal))]


class Levels:
    """A game's AI levels: ``policies`` (``{level: policy class}``, in the order the levels
    are listed) and ``seed(state, player, view)``, the seed of one decision (from what the
    seat may know only). ``names`` is the game's ``LEVELS``; ``policy_for`` and
    ``choose_action`` are its entry points."""

    def __init__(self, policies: dict[str, type],
                 seed: Callable[[Any, int, dict], int]) -> None:
        self.policies = policies
        self.names = tuple(policies)
        self.seed = seed

    def policy_for(self, level: str):
        """A new policy of ``level`` (ValueError for an unknown level)."""
        return make_policy(level, self.policies)

    def choose_action(self, rules, state: Any, player: int, level: str = "fast") -> dict:
        """The action an AI of ``level`` takes for ``player`` now (it sees only its own
        view)."""
        return choose_with(rules, state, player, level, self.policies, self.seed)


def seed_of(key: Any) -> int:
    """A decision seed from a JSON-shaped ``key`` (the public facts of a position): equal
    keys give equal seeds on every platform."""
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    return Rng(zlib.crc32(text.encode()) * 0x9E3779B1 + len(text)).next64()


# --- strategic action kinds --------------------------------------------------------------------

def strategic(kind: str) -> tuple[dict[str, str], Callable[[dict, dict], tuple] | None]:
    """A game's ``(STRATEGIC, strategic_kinds)`` (see the module text); ``({}, None)`` when its
    AI module lists none."""
    import importlib

    from engine.core import description

    module = importlib.import_module(description(kind).ai_module)
    return getattr(module, "STRATEGIC", {}), getattr(module, "strategic_kinds", None)


class Coverage:
    """Per level and strategic kind: the decisions where the kind was legal and those where
    it was chosen. ``record`` is called for every decision a policy is asked (more than one
    legal action)."""

    def __init__(self, kinds: dict[str, str], classify) -> None:
        self.kinds = kinds
        self.classify = classify
        self.legal: dict[str, dict[str, int]] = {}
        self.chosen: dict[str, dict[str, int]] = {}

    def record(self, level: str, view: dict, legal: list[dict], chosen: dict) -> None:
        if self.classify is None:
            return
        seen: set[str] = set()
        for a in legal:
            seen.update(self.classify(view, a))
        if not seen:
            return
        lg = self.legal.setdefault(level, {})
        for k in seen:
            lg[k] = lg.get(k, 0) + 1
        ch = self.chosen.setdefault(level, {})
        for k in set(self.classify(view, chosen)):
            ch[k] = ch.get(k, 0) + 1

    def merge(self, other: Coverage) -> None:
        for mine, theirs in ((self.legal, other.legal), (self.chosen, other.chosen)):
            for lv, counts in theirs.items():
                out = mine.setdefault(lv, {})
                for k, c in counts.items():
                    out[k] = out.get(k, 0) + c

    def unused(self, level: str) -> list[str]:
        """The strategic kinds legal for ``level`` at least once and never chosen."""
        lg = self.legal.get(level, {})
        ch = self.chosen.get(level, {})
        return [k for k in self.kinds if lg.get(k, 0) and not ch.get(k, 0)]

    def rows(self, level: str) -> list[tuple[str, int, int]]:
        """(kind, chosen, legal) for every listed kind, in the game's order."""
        lg = self.legal.get(level, {})
        ch = self.chosen.get(level, {})
        return [(k, ch.get(k, 0), lg.get(k, 0)) for k in self.kinds]


# --- the searching levels' time budget ---------------------------------------------------------

SEARCH_SECONDS: float | None = None  # None: each searching policy's own default budget


@contextmanager
def search_budget(seconds: float | None):
    """Within this block a searching policy (``expert``) thinks for at most ``seconds`` of
    wall-clock time per decision (the host's ``[games] ai_seconds``); None: its default."""
    global SEARCH_SECONDS
    before, SEARCH_SECONDS = SEARCH_SECONDS, seconds
    try:
        yield
    finally:
        SEARCH_SECONDS = before
