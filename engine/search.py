"""Information-set Monte Carlo tree search for any game of the contract (issue 22).

Single-observer IS-MCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree
Search"; OpenSpiel's ``ISMCTSBot``): one tree for the deciding seat, whose nodes are action
histories from its own view. Every iteration

1. takes a world consistent with that view only (``rules.determinize(view, seed)``: the
   hidden cards dealt at random, a fresh generator for the dice to come), so the search never
   reads what the seat cannot see. The worlds are numbered: the k-th visit of a root move is
   played in world k (one determinization per world, cloned for each use), so the root's
   moves are compared over the same deals and dice (common random numbers: far less noise
   than independent worlds at the same budget);
2. walks down the tree: at the root among the ``candidates`` (the legal moves, or the few a
   prior ranks first: progressive widening's shortlist) with PUCT (the value plus the
   prior's share of the exploration: AlphaZero's rule, ``c_puct``, on the candidates' values
   scaled to 0..1 among themselves) when a prior is given,
   else UCB1; below the root with UCB1 among the actions legal *in that world* (the
   availability count of an action is the number of visits to its parent where it was
   legal), every player choosing for itself (the reward of the player who moves at a node);
3. adds one node (down to ``depth`` plies), then plays the ``rollout`` policy (default:
   uniformly random legal actions; the games' experts play their fast rules) until the
   ``horizon`` says stop (the end of the round, or the game) -- rollouts are cut early and
   scored by the game's ``evaluate(state)`` (one number per player, higher is better,
   about 0..1: :func:`relative` turns points into that);
4. backs the rewards up the path.

The chosen action is the root's most visited candidate (the prior's rank breaks ties). A
``paired`` searcher (the experts') replaces steps 2's root rule and this choice: the
candidates are played in turn, each in the same worlds, and the prior's first choice (the
strong level's move) is kept unless a challenger's mean over those worlds beats it by more
than ``margin`` with ``z`` standard errors of the paired differences to spare (``min_pairs``
worlds at least); a challenger whose mean plus ``z_prune`` standard errors falls below the
margin is no longer played, and the search ends when none is left. A small budget's
greedy choice was the move luckiest in its first world or two (Cubosaurs' expert lost every
game to strong that way: a round's deal weighs far more than one keep or pass); the paired
rule leaves the strong move only on evidence. The
budget is per decision: ``iterations`` (deterministic: the worlds and the rollouts come from
``seed``, itself from the view) and/or ``seconds`` (a wall-clock limit: not deterministic).
Pure Python, no I/O; the caller may run it in a worker process (the host's part comes later).

:class:`SearchPolicy` is the expert level every game declares (``engine/<kind>/ai.py``
``ExpertPolicy``): the game's strong policy's choice and its fast rules' ranking are the
prior and the root's shortlist, its fast policy plays the rollouts on each player's view of
the sampled world, its evaluator scores the cut.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from engine.core import Rng

__all__ = ["ISMCTS", "SearchPolicy", "action_key", "policy_rollout", "relative"]


def action_key(a: dict) -> tuple:
    """A hashable key for a JSON action of flat values (every game's actions)."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in a.items()))


def relative(values: list[float], scale: float) -> list[float]:
    """Each player's worth (0..1) from everyone's ``values`` (points, or points plus what
    resources are worth): 0.5 + 0.5 tanh((own - best other's) / scale)."""
    n = len(values)
    out = []
    for p in range(n):
        best = max(values[q] for q in range(n) if q != p) if n > 1 else 0.0
        out.append(0.5 + 0.5 * math.tanh((values[p] - best) / scale))
    return out


def policy_rollout(rules: Any, policy: Any,
                   sample: int | None = None) -> Callable[[Any, int, list[dict], int], dict]:
    """A rollout step that asks ``policy`` (``choose(view, legal, seed)``) for player ``p``'s
    move on ``p``'s own view of the sampled world (the world is the searcher's guess: reading
    it is not peeking). ``sample``: when more actions than that are legal, the policy chooses
    among the actions of a type of their own (a pass, a stop) and ``sample`` others drawn at
    random (a policy's cost grows with the actions it weighs)."""
    view = rules.view
    choose = policy.choose

    def step(state: Any, p: int, legal: list[dict], seed: int) -> dict:
        if sample is not None and len(legal) > sample:
            legal = _sampled(legal, sample, Rng(seed))
        return choose(view(state, p), legal, seed)

    return step


def _sampled(legal: list[dict], k: int, rng: Rng) -> list[dict]:
    kinds: dict[Any, int] = {}
    for a in legal:
        kinds[a.get("type")] = kinds.get(a.get("type"), 0) + 1
    out = [a for a in legal if kinds[a.get("type")] == 1]
    rest = [a for a in legal if kinds[a.get("type")] > 1]
    for i in range(min(k, len(rest))):
        j = i + rng.below(len(rest) - i)
        rest[i], rest[j] = rest[j], rest[i]
        out.append(rest[i])
    return out


class _Node:
    __slots__ = ("action", "player", "visits", "total", "avail", "children", "prior",
                 "samples")

    def __init__(self, action: dict | None, player: int, prior: float = 0.0) -> None:
        self.action = action
        self.player = player  # who moved into this node (its reward is theirs)
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.prior = prior
        self.children: dict[tuple, _Node] = {}
        self.samples: list[float] | None = None  # a root candidate's reward in each world


class ISMCTS:
    """A searcher for ``rules`` (a :class:`engine.core.GameRules` with ``determinize``).

    ``evaluate(state) -> list[float]``: each player's worth of a (cut) position, about 0..1;
    ``horizon(root_state, state) -> bool``: stop the rollout here (default: never, i.e. the
    end of the game); ``iterations`` and ``seconds``: the budget per decision (the first
    reached ends it; at least one of them); ``c``: UCB1's exploration constant;
    ``rollout(state, p, legal, seed) -> action``: the rollout policy (default: uniformly
    random); ``depth``: the tree's plies at most (None: no limit); ``c_puct``: PUCT's
    constant when :meth:`choose` is given a prior. ``stats`` keeps the last decision's
    iterations, time and the root's visits."""

    def __init__(self, rules: Any, evaluate: Callable[[Any], list[float]],
                 horizon: Callable[[Any, Any], bool] | None = None, iterations: int | None = 300,
                 seconds: float | None = None, c: float = 0.7, max_rollout: int = 400,
                 rollout: Callable[[Any, int, list[dict], int], dict] | None = None,
                 depth: int | None = None, c_puct: float = 1.0, paired: bool = False,
                 margin: float = 0.0, z: float = 1.5, z_prune: float = 1.0,
                 min_pairs: int = 4) -> None:
        if iterations is None and seconds is None:
            raise ValueError("a budget: iterations, seconds or both")
        self.rules = rules
        self.evaluate = evaluate
        self.horizon = horizon
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.max_rollout = max_rollout
        self.rollout = rollout
        self.depth = depth
        self.c_puct = c_puct
        self.paired = paired
        self.margin = margin
        self.z = z
        self.z_prune = z_prune
        self.min_pairs = min_pairs
        self.stats: dict = {"iterations": 0, "seconds": 0.0}

    def choose(self, view: dict, legal: list[dict], seed: int,
               prior: list[float] | None = None) -> dict:
        """One of ``legal``. ``prior`` (one weight per action of ``legal``, best first or
        not): the root searches only the actions with a weight above 0, with PUCT (or, when
        the searcher is ``paired``, in turn over the same worlds: see :meth:`_paired`)."""
        if len(legal) == 1:
            self.stats = {"iterations": 0, "seconds": 0.0}
            return legal[0]
        me = view["viewer"]
        root = _Node(None, me)
        if prior is not None:
            total = sum(w for w in prior if w > 0) or 1.0
            for a, w in zip(legal, prior, strict=True):
                if w > 0:
                    root.children[(me, action_key(a))] = _Node(a, me, w / total)
            if len(root.children) == 1:
                self.stats = {"iterations": 0, "seconds": 0.0}
                return next(iter(root.children.values())).action
        else:
            for a in legal:
                root.children[(me, action_key(a))] = _Node(a, me, 1.0 / len(legal))
        kids = list(root.children.values())
        paired = self.paired
        if paired:  # the head: the prior's first choice (the first of the largest weight)
            head = max(range(len(kids)), key=lambda i: (kids[i].prior, -i))
            kids.insert(0, kids.pop(head))
            for child in kids:
                child.samples = []
        alive = list(kids)
        rng = Rng(seed)
        worlds: list[Any] = []  # world k: (state, rollout seed)
        t0 = time.perf_counter()
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if self.seconds is not None and done and time.perf_counter() - t0 >= self.seconds:
                break
            if paired:
                if len(alive) == 1:
                    break  # every challenger is out: the head is the choice
                child = min(alive, key=lambda c: c.visits)  # in turn (the head first)
            else:
                child = self._select_root(root, prior is not None)
            k = child.visits
            while len(worlds) <= k:
                worlds.append((self.rules.determinize(view, rng.next64()), rng.next64()))
            world, wseed = worlds[k]
            self._iterate(root, child, world.clone(), Rng(wseed))
            done += 1
            if paired and child is alive[-1]:
                alive = self._prune(alive)
        self.stats = {"iterations": done, "seconds": time.perf_counter() - t0,
                      "worlds": len(worlds),
                      "root": [(c.action, c.visits, c.total / c.visits if c.visits else None)
                               for c in root.children.values()]}
        if paired:
            best = self._paired(kids)
            self.stats["switched"] = best is not kids[0]
            return best.action
        best, best_key = None, None
        for child in root.children.values():
            key = (child.visits, child.prior, child.total)
            if best_key is None or key > best_key:
                best, best_key = child.action, key
        return best

    @staticmethod
    def _diff(head: _Node, child: _Node) -> tuple[int, float, float]:
        """The paired differences child - head over the worlds both were played in: their
        count, mean and standard error."""
        a, b = child.samples, head.samples
        m = min(len(a), len(b))
        if m < 2:
            return m, (a[0] - b[0]) if m else 0.0, math.inf
        d = [a[i] - b[i] for i in range(m)]
        mean = sum(d) / m
        var = sum((x - mean) ** 2 for x in d) / (m - 1)
        return m, mean, math.sqrt(var / m)

    def _prune(self, alive: list[_Node]) -> list[_Node]:
        """After a turn of every live candidate: drop the challengers that cannot plausibly
        beat the head by ``margin`` (mean + ``z_prune`` standard errors below it), once
        ``min_pairs`` worlds are played."""
        head = alive[0]
        if head.visits < self.min_pairs:
            return alive
        out = [head]
        for child in alive[1:]:
            m, mean, se = self._diff(head, child)
            if m < self.min_pairs or mean + self.z_prune * se >= self.margin:
                out.append(child)
        return out

    def _paired(self, kids: list[_Node]) -> _Node:
        """The conservative decision: the head (the prior's choice) unless a challenger's
        paired mean beats it by more than ``margin`` with ``z`` standard errors to spare,
        over ``min_pairs`` worlds at least; the best such challenger (largest lower bound).
        A small budget thus never trades the prior's move for a playout's luck."""
        head = kids[0]
        best, best_lb = head, None
        for child in kids[1:]:
            m, mean, se = self._diff(head, child)
            if m < self.min_pairs:
                continue
            lb = mean - self.z * se
            if lb > self.margin and (best_lb is None or lb > best_lb):
                best, best_lb = child, lb
        return best

    def _select_root(self, root: _Node, puct: bool) -> _Node:
        kids = list(root.children.values())
        for child in kids:  # every candidate once first (in the prior's order)
            if not child.visits:
                return child
        n = sum(c.visits for c in kids)
        best, best_v = None, None
        if puct:
            # the values scaled to 0..1 among the candidates (MuZero's min-max): the prior's
            # share of the exploration means the same whatever the evaluator's scale
            qs = [c.total / c.visits for c in kids]
            lo, hi = min(qs), max(qs)
            span = hi - lo if hi > lo else 1.0
            sq = math.sqrt(n)
            for child, q in zip(kids, qs, strict=True):
                v = (q - lo) / span + self.c_puct * child.prior * sq / (1 + child.visits)
                if best_v is None or v > best_v:
                    best, best_v = child, v
        else:
            ln = math.log(n)
            for child in kids:
                v = child.total / child.visits + self.c * math.sqrt(ln / child.visits)
                if best_v is None or v > best_v:
                    best, best_v = child, v
        return best

    def _iterate(self, root: _Node, first: _Node, state: Any, rng: Rng) -> None:
        rules = self.rules
        start = state.clone() if self.horizon is not None else state
        rules.apply_in_place(state, root.player, first.action)
        path = [first]
        node = first
        depth = 1
        expanding = self.depth is None or depth < self.depth
        # selection and expansion below the root
        while expanding and not rules.is_over(state) and not self._cut(start, state):
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
            depth += 1
            if self.depth is not None and depth >= self.depth:
                break
        # rollout
        steps = 0
        policy = self.rollout
        while steps < self.max_rollout and not rules.is_over(state) and \
                not self._cut(start, state):
            p = rules.to_act(state)[0]
            acts = rules.legal_actions(state, p)
            if len(acts) == 1:
                a = acts[0]
            elif policy is None:
                a = acts[rng.below(len(acts))]
            else:
                a = policy(state, p, acts, rng.next64())
            rules.apply_in_place(state, p, a)
            steps += 1
        rewards = self.evaluate(state)
        root.visits += 1
        for n in path:
            n.visits += 1
            n.total += rewards[n.player]
        if first.samples is not None:
            first.samples.append(rewards[first.player])

    def _cut(self, start: Any, state: Any) -> bool:
        return self.horizon is not None and self.horizon(start, state)


class SearchPolicy:
    """The expert level of a game: IS-MCTS (:class:`ISMCTS`) from the seat's own view.

    A game's ``ExpertPolicy`` subclasses it and names its ``kind`` (the rules searched),
    ``evaluate(state)`` and ``horizon(start, state)``, and the classes ``prior_policy`` (the
    strong level: its choice heads the shortlist) and ``rollout_policy`` (the fast level: it
    ranks the rest of the shortlist when it has ``score(view, action)``, and plays every
    seat in the rollouts). The root searches at most ``width`` moves, down to ``depth``
    plies: ``paired`` (the default), in turn over the same worlds, the strong choice kept
    unless a challenger surely beats it (``margin``, ``z``, ``z_prune``, ``min_pairs``: see
    :class:`ISMCTS`); else PUCT with the prior weights ``prior_weights`` (the strong choice
    first) and the most visited move.

    Budget: ``iterations`` (deterministic) and ``seconds`` (wall clock, production: about
    1 s), class attributes or constructor arguments; when ``iterations`` is set the seconds
    are not used (a budget in iterations makes the same choice on every machine)."""

    name = "expert"
    iterations: int | None = None
    seconds: float | None = 1.0
    width = 4
    depth = 1
    c_puct = 1.0
    prior_weights = (0.5, 0.2, 0.15, 0.1, 0.05, 0.05, 0.05, 0.05)
    max_rollout = 400
    rollout_sample: int | None = 12  # see policy_rollout
    # the root's rule (ISMCTS ``paired``): the candidates in turn over the same worlds, the
    # strong choice kept unless a challenger beats it by ``margin`` with ``z`` standard
    # errors to spare (``min_pairs`` worlds at least); ``z_prune``: a challenger out of reach
    # stops being played
    paired = True
    margin = 0.0
    z = 1.5
    z_prune = 1.0
    min_pairs = 4
    prior_policy: type | None = None
    rollout_policy: type | None = None
    kind = ""  # the game searched (its rules object: engine.core.get_game)

    def __init__(self, iterations: int | None = None, seconds: float | None = None) -> None:
        its = iterations if iterations is not None else self.iterations
        secs = seconds if seconds is not None else (None if its is not None else self.seconds)
        rules = self.game()
        self.prior = self.prior_policy() if self.prior_policy is not None else None
        self.fast = self.rollout_policy() if self.rollout_policy is not None else None
        self.search = ISMCTS(rules, self.evaluate, self.horizon, iterations=its, seconds=secs,
                             rollout=self.rollout_step(rules), depth=self.depth,
                             c_puct=self.c_puct, max_rollout=self.max_rollout,
                             paired=self.paired, margin=self.margin, z=self.z,
                             z_prune=self.z_prune, min_pairs=self.min_pairs)

    # --- what a game names -----------------------------------------------------------------
    def game(self) -> Any:
        from engine.core import get_game

        return get_game(self.kind)

    def evaluate(self, state: Any) -> list[float]:
        raise NotImplementedError

    def horizon(self, start: Any, state: Any) -> bool:
        return False

    def rollout_step(self, rules: Any):
        """The rollout policy: the fast level on each player's view of the world."""
        if self.fast is None:
            return None
        return policy_rollout(rules, self.fast, self.rollout_sample)

    # --- deciding ------------------------------------------------------------------------------
    def shortlist(self, view: dict, legal: list[dict], seed: int) -> list[dict]:
        """The root's moves, best first: the strong level's choice, then the fast rules'
        ranking (``score``) of the others, ``width`` at most."""
        head = None
        if self.prior is not None:
            head = legal[legal.index(self.prior.choose(view, legal, seed))]
        score = getattr(self.fast, "score", None)
        rest = [a for a in legal if a is not head]
        if score is not None:
            ranked = sorted(((score(view, a), -i, a) for i, a in enumerate(rest)),
                            key=lambda t: (t[0], t[1]), reverse=True)
            rest = [a for _, _, a in ranked]
        elif self.fast is not None and rest:
            first = self.fast.choose(view, rest, seed)
            rest = [first] + [a for a in rest if a is not first]
        out = ([head] if head is not None else []) + rest
        return out[:self.width]

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        if len(legal) == 1:
            return legal[0]
        from engine import ai

        if ai.SEARCH_SECONDS is not None and self.search.iterations is None:
            self.search.seconds = ai.SEARCH_SECONDS  # the host's budget (engine.ai.search_budget)
        short = self.shortlist(view, legal, seed)
        weights = {id(a): self.prior_weights[min(i, len(self.prior_weights) - 1)]
                   for i, a in enumerate(short)}
        prior = [weights.get(id(a), 0.0) for a in legal]
        return self.search.choose(view, legal, seed, prior)
