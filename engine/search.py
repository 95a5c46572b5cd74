"""Information-set Monte Carlo tree search for any game of the contract (issue 22).

Single-observer IS-MCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree
Search"; OpenSpiel's ``ISMCTSBot``): one tree for the deciding seat, whose nodes are action
histories from its own view. Every iteration

1. samples a world consistent with that view only (``rules.determinize(view, seed)``: the
   hidden cards dealt at random, a fresh generator for the dice to come), so the search never
   reads what the seat cannot see;
2. walks down the tree with UCB1 among the actions legal *in that world* (the availability
   count of an action is the number of visits to its parent where it was legal), every
   player choosing for itself (the reward of the player who moves at a node);
3. adds one node, then plays uniformly random legal actions until the ``horizon`` says stop
   (the end of the round, or the game) -- rollouts are cut early and scored by the game's
   ``evaluate(state)`` (one number per player, higher is better, about 0..1);
4. backs the rewards up the path.

The chosen action is the root's most visited legal one. The budget is per decision:
``iterations`` (deterministic: the worlds and the rollouts come from ``seed``, itself from
the view) and/or ``seconds`` (a wall-clock limit: not deterministic). Pure Python, no I/O;
the caller may run it in a worker process (the host's part comes later).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from engine.core import Rng

__all__ = ["ISMCTS", "action_key"]


def action_key(a: dict) -> tuple:
    """A hashable key for a JSON action of flat values (every game's actions)."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in a.items()))


class _Node:
    __slots__ = ("action", "player", "visits", "total", "avail", "children")

    def __init__(self, action: dict | None, player: int) -> None:
        self.action = action
        self.player = player  # who moved into this node (its reward is theirs)
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[tuple, _Node] = {}


class ISMCTS:
    """A searcher for ``rules`` (a :class:`engine.core.GameRules` with ``determinize``).

    ``evaluate(state) -> list[float]``: each player's worth of a (cut) position, about 0..1;
    ``horizon(root_state, state) -> bool``: stop the rollout here (default: never, i.e. the
    end of the game); ``iterations`` and ``seconds``: the budget per decision (the first
    reached ends it; at least one of them); ``c``: UCB1's exploration constant.
    ``stats`` keeps the last decision's iterations and time."""

    def __init__(self, rules: Any, evaluate: Callable[[Any], list[float]],
                 horizon: Callable[[Any, Any], bool] | None = None, iterations: int | None = 300,
                 seconds: float | None = None, c: float = 0.7, max_rollout: int = 400) -> None:
        if iterations is None and seconds is None:
            raise ValueError("a budget: iterations, seconds or both")
        self.rules = rules
        self.evaluate = evaluate
        self.horizon = horizon
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.max_rollout = max_rollout
        self.stats = {"iterations": 0, "seconds": 0.0}

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        if len(legal) == 1:
            return legal[0]
        rules = self.rules
        me = view["viewer"]
        root = _Node(None, me)
        rng = Rng(seed)
        legal_keys = {action_key(a): a for a in legal}
        t0 = time.perf_counter()
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if self.seconds is not None and done and time.perf_counter() - t0 >= self.seconds:
                break
            self._iterate(root, rules.determinize(view, rng.next64()), rng)
            done += 1
        self.stats = {"iterations": done, "seconds": time.perf_counter() - t0}
        best, best_key = None, None
        for k, child in root.children.items():
            if k[1] not in legal_keys:
                continue
            key = (child.visits, child.total)
            if best_key is None or key > best_key:
                best, best_key = legal_keys[k[1]], key
        return best if best is not None else legal[0]

    def _iterate(self, root: _Node, state: Any, rng: Rng) -> None:
        rules = self.rules
        start = state.clone()
        path = [root]
        node = root
        # selection and expansion
        while not rules.is_over(state) and not self._cut(start, state):
            p = rules.to_act(state)[0]
            acts = rules.legal_actions(state, p)
            keyed = [((p, action_key(a)), a) for a in acts]
            for k, _ in keyed:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            untried = [(k, a) for k, a in keyed if k not in node.children]
            if untried:
                k, a = untried[rng.below(len(untried))]
                child = node.children[k] = _Node(a, p)
                child.avail = 1
                rules.apply_in_place(state, p, a)
                path.append(child)
                break
            best, best_v = None, None
            for k, a in keyed:
                child = node.children[k]
                v = child.total / child.visits + self.c * math.sqrt(
                    math.log(max(1, child.avail)) / child.visits) if child.visits else math.inf
                if best_v is None or v > best_v:
                    best, best_v = (child, a, p), v
            node, a, p = best
            rules.apply_in_place(state, p, a)
            path.append(node)
        # rollout
        steps = 0
        while steps < self.max_rollout and not rules.is_over(state) and \
                not self._cut(start, state):
            p = rules.to_act(state)[0]
            acts = rules.legal_actions(state, p)
            rules.apply_in_place(state, p, acts[rng.below(len(acts))])
            steps += 1
        rewards = self.evaluate(state)
        for n in path:
            n.visits += 1
            n.total += rewards[n.player]

    def _cut(self, start: Any, state: Any) -> bool:
        return self.horizon is not None and self.horizon(start, state)
