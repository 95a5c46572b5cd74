"""The contract every registered game keeps (``engine.core.GameRules``), checked the same way
for each of them, as OpenSpiel runs its game tests over all its games.

Each check is a plain function of a game ``kind`` (a registered game: the four of the box, or
one a test registers, e.g. ``tests/test_fifth_game.py``) and of the seed, player count and
options of the games it plays; ``tests/test_contract.py`` parametrizes them over
``engine.core.game_kinds()``. What is a game's own (its rules, its exact refusals, what its
views must hide card by card, its damaged saves) stays in that game's test files.

* :func:`check_random_game`: a random legal game to the end; who is awaited always has a legal
  action, nobody else has one; ``apply_action`` leaves its input unchanged and agrees with
  ``apply_in_place``; every event, state and view is JSON; the end has a complete ranking.
* :func:`check_illegal_actions`: malformed actions, unknown types, legal actions spoiled or by
  a player not awaited, actions of earlier positions: each raises ``IllegalAction`` and changes
  nothing (neither the state nor its step and decision keys, on either apply path).
* :func:`check_save_load`: ``from_json(to_json(state))`` is the same state at every step, and
  the game goes on from the loaded copy.
* :func:`check_replay`: seed + the JSON action log rebuild the game exactly (states, events).
* :func:`check_views`: a viewer's view is the same for every state that differs only in what
  that viewer may not see (``determinize`` re-deals it); a view is JSON.
* :func:`check_ai_levels`: every level of the game's AI module (``LEVELS``) answers a legal
  action and leaves the state as it was.
* :func:`check_render`: ``images.render(kind, view, lang)`` gives a PNG (a game without a
  renderer yet is skipped by the caller).
* :func:`check_demo`: ``demo.run_demo`` plays a whole AI game of the kind.
"""

from __future__ import annotations

import importlib
import json
import random

import pytest

from engine.core import IllegalAction, Seat, get_game
from tests.properties import dump

MAX_ACTIONS = 20000  # far more than any game of any kind takes
PNG = b"\x89PNG\r\n\x1a\n"


# --- games -------------------------------------------------------------------------------------

def seats(n: int) -> list[Seat]:
    return [Seat(f"c{i}", f"Player {i + 1}") for i in range(n)]


def player_counts(kind: str) -> list[int]:
    game = get_game(kind)
    return list(range(game.min_players, game.max_players + 1))


def option_sets(kind: str) -> list[dict]:
    """The defaults, every option on, every option off (options are booleans)."""
    names = sorted(get_game(kind).options)
    sets = [{}]
    if names:
        sets += [{k: True for k in names}, {k: False for k in names}]
    return sets


def configs(kind: str) -> list[tuple[int, dict]]:
    """(players, options) pairs: every player count, the option sets in turn."""
    opts = option_sets(kind)
    return [(n, opts[i % len(opts)]) for i, n in enumerate(player_counts(kind))]


def new(kind: str, n: int, seed: int, options: dict | None = None):
    return get_game(kind).new_game(seats(n), seed, dict(options or {}))


def pick(rules, state, rnd: random.Random) -> tuple[int, dict]:
    """A random awaited player, a random type of their legal actions, one of that type (so
    that a rare type is chosen as often as a common one)."""
    p = rnd.choice(rules.to_act(state))
    groups: dict[str, list[dict]] = {}
    for a in rules.legal_actions(state, p):
        groups.setdefault(str(a.get("type")), []).append(a)
    return p, rnd.choice(groups[rnd.choice(sorted(groups))])


def sdump(rules, state) -> str:
    return dump(rules.to_json(state))


def keys(rules, state) -> tuple:
    """The step and decision keys (0s for a game without secret steps)."""
    from engine import core

    n = len(state.seats)
    return (core.step_key(rules, state, 0),
            [core.decision_key(rules, state, q, 0) for q in range(n)])


def play(kind: str, n: int, seed: int, options: dict | None = None, limit: int | None = None,
         each=None):
    """A seeded random game (to the end, or ``limit`` actions): (state, [(p, a)], [events]).
    ``each(state, log)`` is called on every position, the first and the last included."""
    rules = get_game(kind)
    rnd = random.Random(seed)
    state = new(kind, n, seed, options)
    log: list[tuple[int, dict]] = []
    events: list[list[dict]] = []
    while True:
        if each is not None:
            each(state, log)
        if rules.is_over(state) or (limit is not None and len(log) >= limit):
            return state, log, events
        p, a = pick(rules, state, rnd)
        events.append(list(rules.apply_in_place(state, p, a)))
        log.append((p, a))
        assert len(log) < MAX_ACTIONS, f"{kind}: the game does not end"


# --- the checks ----------------------------------------------------------------------------------

def check_position(rules, state) -> None:
    """Who is awaited, and what they may do."""
    n = len(state.seats)
    waiting = rules.to_act(state)
    if rules.is_over(state):
        assert waiting == []
        assert all(rules.legal_actions(state, p) == [] for p in range(n))
        return
    assert waiting, f"nobody to act in phase {rules.phase_name(state)}"
    assert len(set(waiting)) == len(waiting) and set(waiting) <= set(range(n))
    for p in range(n):
        acts = rules.legal_actions(state, p)
        if p not in waiting:
            assert acts == [], f"player {p} is not awaited but has actions"
            continue
        assert acts, f"player {p} is awaited but has no legal action"
        texts = [dump(a) for a in acts]
        assert len(set(texts)) == len(texts), "the same legal action twice"
        for a in acts:
            rules.check_action(a)  # every legal action has its exact shape
    assert isinstance(rules.phase_name(state), str)


def check_random_game(kind: str, n: int, seed: int, options: dict | None = None) -> int:
    """A random game to the end through ``apply_action`` (its input never changes), checked at
    every position, with ``apply_in_place`` on a twin giving the same events and states.
    Returns the number of actions."""
    rules = get_game(kind)
    rnd = random.Random(seed)
    state = new(kind, n, seed, options)
    twin = new(kind, n, seed, options)
    actions = 0
    check_position(rules, state)
    while not rules.is_over(state):
        p, a = pick(rules, state, rnd)
        before = sdump(rules, state)
        after, events = rules.apply_action(state, p, a)
        assert sdump(rules, state) == before, "apply_action changed the state it was given"
        assert dump(list(rules.apply_in_place(twin, p, a))) == dump(events)
        state = after
        assert sdump(rules, twin) == sdump(rules, state)
        actions += 1
        assert actions < MAX_ACTIONS, f"{kind}: the game does not end"
        check_position(rules, state)
    ranks = rules.returns(state)
    assert sorted(r["player"] for r in ranks) == list(range(n))
    assert min(r["rank"] for r in ranks) == 1
    assert [r["seat"] for r in sorted(ranks, key=lambda r: r["player"])] == [
        s["id"] for s in state.seats]
    for viewer in [None, *range(n)]:
        json.loads(dump(rules.view(state, viewer)))
    return actions


MALFORMED = [None, "pass", 42, 1.5, True, [], ["pass"], {}, {"type": None}, {"type": 3},
             {"type": ""}, {"type": "no_such_action"}, {"type": ["pass"]},
             {"type": "pass", "zzz": 1}, {"type": "x" * 200}]
BAD_PLAYERS = [-1, None, "0", 1.0, True, 2**70]


def spoiled(rnd: random.Random, a: dict) -> list:
    """Near misses of a legal action: an extra key, a key missing, a value of a neighbouring
    type."""
    out: list = [dict(a, zzz=1), {k: v for k, v in a.items() if k != "type"}]
    params = sorted(set(a) - {"type"})
    if params:
        k = rnd.choice(params)
        out.append({kk: vv for kk, vv in a.items() if kk != k})
        v = a[k]
        if isinstance(v, bool):
            out.append(dict(a, **{k: int(v)}))
        elif isinstance(v, int):
            out += [dict(a, **{k: float(v)}), dict(a, **{k: str(v)})]
        elif isinstance(v, str):
            out += [dict(a, **{k: [v]}), dict(a, **{k: None})]
        elif isinstance(v, list):
            out.append(dict(a, **{k: dump(v)}))
    return out


def check_refused(rules, state, p, a) -> None:
    """``a`` by ``p`` must be refused by both apply paths, changing nothing."""
    before = sdump(rules, state)
    k = keys(rules, state)
    with pytest.raises(IllegalAction):
        rules.apply_action(state, p, a)
    assert sdump(rules, state) == before, f"refused {a!r} by {p!r} changed the state"
    assert keys(rules, state) == k
    copy = state.clone()
    with pytest.raises(IllegalAction):
        rules.apply_in_place(copy, p, a)
    assert sdump(rules, copy) == before, f"refused {a!r} by {p!r} changed the state in place"


def check_illegal_actions(kind: str, n: int, seed: int, options: dict | None = None,
                          every: int = 8, tries: int = 24) -> int:
    """Along a seeded random game (every ``every`` positions, and at the end), up to ``tries``
    of: malformed actions, bad player numbers, a legal action by a player not awaited or
    spoiled, legal actions of earlier positions that are not legal now. Returns how many were
    refused."""
    rules = get_game(kind)
    rnd = random.Random(seed ^ 0x5EED)
    old: list[tuple[int, dict]] = []
    count = 0

    def each(state, log) -> None:
        nonlocal old, count
        waiting = rules.to_act(state)
        legal = {p: rules.legal_actions(state, p) for p in waiting}
        if len(log) % every == 0 or rules.is_over(state):
            p = rnd.choice(waiting) if waiting else 0
            candidates = [(p, a) for a in MALFORMED]
            mine = legal.get(p, [])
            for a in rnd.sample(mine, min(3, len(mine))):
                candidates += [(q, a) for q in range(n) if q not in waiting][:2]
                candidates += [(q, a) for q in BAD_PLAYERS]
                candidates += [(p, b) for b in spoiled(rnd, a)]
            candidates += rnd.sample(old, min(8, len(old)))
            texts = {q: {dump(x) for x in acts} for q, acts in legal.items()}
            for q, a in rnd.sample(candidates, min(tries, len(candidates))):
                if type(q) is int and dump(a) in texts.get(q, ()):
                    continue  # legal here after all
                check_refused(rules, state, q, a)
                count += 1
        for p in waiting:
            old += [(p, a) for a in legal[p][:6]]
        old = old[-80:]

    play(kind, n, seed, options, each=each)
    return count


def check_save_load(kind: str, n: int, seed: int, options: dict | None = None) -> int:
    """At every position of a seeded random game the JSON save loads into the same state (its
    save, views and legal actions equal), and the game goes on from the loaded copy to the
    same end as the original. Returns the number of positions."""
    rules = get_game(kind)
    rnd = random.Random(seed)
    state = new(kind, n, seed, options)
    twin = new(kind, n, seed, options)
    positions = 0
    while True:
        text = json.dumps(rules.to_json(state), allow_nan=False)
        loaded = rules.from_json(json.loads(text))
        positions += 1
        assert loaded == state
        assert json.dumps(rules.to_json(loaded), allow_nan=False) == text
        assert rules.to_act(loaded) == rules.to_act(state)
        assert rules.view(loaded, None) == rules.view(state, None)
        for q in rules.to_act(state):
            assert rules.legal_actions(loaded, q) == rules.legal_actions(state, q)
        state = loaded  # go on from the loaded copy
        if rules.is_over(state):
            break
        p, a = pick(rules, state, rnd)
        assert dump(list(rules.apply_in_place(state, p, a))) == dump(
            list(rules.apply_in_place(twin, p, a)))
        assert positions < MAX_ACTIONS
    assert sdump(rules, twin) == sdump(rules, state)
    assert rules.returns(state) == rules.returns(twin)
    return positions


def check_replay(kind: str, n: int, seed: int, options: dict | None = None,
                 limit: int | None = None) -> None:
    """Seed + the action log, stored as JSON, rebuild the game exactly: the same events at
    every action and the same state at the end (or after ``limit`` actions); another seed
    deals another game."""
    rules = get_game(kind)
    state, log, events = play(kind, n, seed, options, limit=limit)
    again = new(kind, n, seed, options)
    replayed = []
    for p, a in json.loads(json.dumps(log)):
        again, ev = rules.apply_action(again, p, a)
        replayed.append(ev)
    assert dump(replayed) == dump(events)
    assert sdump(rules, again) == sdump(rules, state) and again == state
    assert sdump(rules, new(kind, n, seed, options)) != sdump(rules, new(kind, n, seed ^ 1,
                                                                          options))


def check_views(kind: str, n: int, seed: int, options: dict | None = None,
                every: int = 7) -> int:
    """At every ``every``-th position (and the last): each seat's view, and the public one, is
    JSON, names its viewer's place, and is the same for a state re-dealt from it
    (``determinize``: everything the viewer may not see drawn again), twice with different
    seeds. Returns the number of views checked."""
    rules = get_game(kind)
    rnd = random.Random(seed ^ 0xF00D)
    count = 0

    def each(state, log) -> None:
        nonlocal count
        if len(log) % every and not rules.is_over(state):
            return
        for viewer in [None, *range(n)]:
            v = rules.view(state, viewer)
            assert json.loads(dump(v)) == v
            if viewer is None:
                continue
            for _ in range(2):
                imagined = rules.determinize(v, rnd.randrange(2**63))
                assert rules.view(imagined, viewer) == v, (
                    f"{kind}: seat {viewer}'s view changes with what it may not see")
                rules.from_json(json.loads(json.dumps(rules.to_json(imagined))))
            count += 1

    play(kind, n, seed, options, each=each)
    return count


def ai_levels(kind: str) -> tuple[str, ...]:
    """The levels of the game's AI module (``LEVELS``)."""
    game = get_game(kind)
    module = getattr(type(game), "ai_module", None) or f"{type(game).__module__}.ai"
    return tuple(importlib.import_module(module).LEVELS)


def check_ai_levels(kind: str, n: int, seed: int, options: dict | None = None,
                    positions: int = 3, levels: tuple[str, ...] | None = None) -> int:
    """Every AI level, at ``positions`` positions of a seeded random game, answers a legal
    action for every awaited seat and leaves the state as it was (a level sees its seat's
    view only: ``engine.ai``). Returns the number of decisions."""
    from engine.ai import search_budget

    rules = get_game(kind)
    levels = ai_levels(kind) if levels is None else levels
    state, log, _ = play(kind, n, seed, options)
    length = len(log)
    stops = sorted({0, length // 3, (2 * length) // 3, max(0, length - 1)})[:positions]
    count = 0
    with search_budget(0.05):
        for stop in stops:
            state, _, _ = play(kind, n, seed, options, limit=stop)
            before = sdump(rules, state)
            for p in rules.to_act(state):
                legal = [dump(a) for a in rules.legal_actions(state, p)]
                for level in levels:
                    a = rules.ai_action(state, p, level)
                    assert dump(a) in legal, f"{kind} {level}: {a!r} is not legal"
                    assert sdump(rules, state) == before
                    count += 1
    return count


def check_render(kind: str, n: int, seed: int, options: dict | None = None,
                 lang: str = "en") -> int:
    """The table image of a position mid-game and of the end, public and seen by seat 0: PNG
    bytes. Returns the number of images."""
    import images

    rules = get_game(kind)
    count = 0
    for limit in (40, None):
        state, _, _ = play(kind, n, seed, options, limit=limit)
        for viewer in (None, 0):
            png = images.render(kind, rules.view(state, viewer), lang)
            assert isinstance(png, bytes) and png.startswith(PNG)
            count += 1
    return count


def check_demo(kind: str, n: int, seed: int, folder, options: dict | None = None) -> None:
    """``python bot.py demo <kind>``'s loop: a whole game of AI seats, a log, a ranking."""
    from demo import run_demo

    result = run_demo(kind, n, seed, folder, options=options, images=False)
    assert len(result) == n and min(r["rank"] for r in result) == 1
    log = (folder / "log.txt").read_text(encoding="utf-8")
    assert log.strip()
