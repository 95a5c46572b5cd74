"""What the property tests of every game share: hypothesis settings and strategies, canonical
JSON, a random legal move, and the check that the two ways of applying an action agree.

``DARWIN_HYPOTHESIS_EXAMPLES=<n>`` raises the number of examples of every property (for a long
soak run); the defaults keep each file at a few seconds.
"""

from __future__ import annotations

import json
import os
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

EXTRA = int(os.environ.get("DARWIN_HYPOTHESIS_EXAMPLES", "0") or 0)

seeds = st.integers(min_value=0, max_value=2**64 - 1)
# the random choices of the players (drawn from hypothesis, so that a failing game shrinks)
choices = st.randoms(use_true_random=False)


def examples(default: int) -> settings:
    return settings(max_examples=max(default, EXTRA), deadline=None, derandomize=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])


def dump(x) -> str:
    """A canonical JSON text (so 1 and True, or 1 and 1.0, differ)."""
    return json.dumps(x, sort_keys=True, allow_nan=False)


def pick(rnd: random.Random, rules, state, group) -> tuple[int, dict]:
    """A random legal move: a random awaited player, a random group of actions (``group(a)``
    names it: a kind of action, a card, a tile...), then one action of that group, so that
    rare kinds are chosen often however many actions a common kind has.

    One draw from ``rnd`` a move (none when there is no choice): a whole game makes hundreds
    of choices, and hypothesis' buffer must hold them all."""
    options = []
    for p in rules.to_act(state):
        groups: dict[str, list[dict]] = {}
        for a in rules.legal_actions(state, p):
            groups.setdefault(group(a), []).append(a)
        options.append((p, [groups[k] for k in sorted(groups)]))
    if len(options) == 1 and len(options[0][1]) == 1 and len(options[0][1][0]) == 1:
        return options[0][0], options[0][1][0][0]
    u = rnd.randrange(1 << 24) / (1 << 24)  # an integer draw costs hypothesis less than a float
    i = min(int(u * len(options)), len(options) - 1)
    u = u * len(options) - i
    p, groups = options[i]
    j = min(int(u * len(groups)), len(groups) - 1)
    u = u * len(groups) - j
    chosen = groups[j]
    return p, chosen[min(int(u * len(chosen)), len(chosen) - 1)]


def check_apply_paths_agree(rules, slow, fast, choose) -> None:
    """Play ``choose(state)`` moves to the end on two equal states, one through
    ``apply_action`` (which must leave its input unchanged) and one through
    ``apply_in_place``: same players awaited, same events, same states all along."""
    while not rules.is_over(slow):
        assert rules.to_act(slow) == rules.to_act(fast)
        p, a = choose(slow)
        before = dump(rules.to_json(slow))
        slow2, ev_slow = rules.apply_action(slow, p, a)
        assert dump(rules.to_json(slow)) == before
        ev_fast = rules.apply_in_place(fast, p, a)
        assert dump(ev_slow) == dump(ev_fast)
        assert slow2 == fast
        assert dump(rules.to_json(slow2)) == dump(rules.to_json(fast))
        slow = slow2
    assert rules.is_over(fast) and dump(rules.to_json(fast)) == dump(rules.to_json(slow))


# --- damaged saves ----------------------------------------------------------------------------

# what a damaged save may hold in place of any field or element
BAD_VALUES = (None, -1, 99, "x", [], {}, 2**70, 1.5, True)
DELETE = object()  # a key removed from an object


def field_paths(data, rnd: random.Random, path: tuple = ()) -> list[tuple]:
    """Paths to every field of a saved state and to its nested elements: every key of an
    object, and of a list its first, last and one other element (not the ``kind`` and
    ``version`` tags, checked on their own)."""
    out = []
    if isinstance(data, dict):
        keys = [k for k in data if path or k not in ("kind", "version")]
    elif isinstance(data, list) and data:
        keys = sorted({0, len(data) - 1, rnd.randrange(len(data))})
    else:
        return out
    for k in keys:
        out.append(path + (k,))
        out.extend(field_paths(data[k], rnd, path + (k,)))
    return out


def damaged(data: dict, path: tuple, value) -> dict:
    """A copy of ``data`` with the element at ``path`` replaced by ``value`` (or removed when
    ``value`` is :data:`DELETE`)."""
    data = json.loads(json.dumps(data))
    target = data
    for k in path[:-1]:
        target = target[k]
    if value is DELETE:
        if isinstance(target, dict):
            del target[path[-1]]
        else:
            target.pop(path[-1])
    else:
        target[path[-1]] = value
    return data


def variants(data: dict, rnd: random.Random):
    """Every damaged copy of a save: each path with each bad value, removed, and each object
    with an unknown key added. Yields ``(what, damaged_data)``."""
    for path in field_paths(data, rnd):
        for value in BAD_VALUES + (DELETE,):
            yield (path, "deleted" if value is DELETE else value), damaged(data, path, value)
    objects = [()] + [p for p in field_paths(data, rnd)
                      if isinstance(_at(data, p), dict)]
    for path in objects:
        yield (path + ("zzz",), 1), damaged(data, path + ("zzz",), 1)


def _at(data, path: tuple):
    for k in path:
        data = data[k]
    return data


def exercise(rules, state, rnd: random.Random, budget: int = 6) -> None:
    """Use a loaded state the way the host does: who is awaited, everybody's legal actions,
    every view, the standings, and (up to ``budget`` of) the legal actions and a few illegal
    ones applied; nothing may raise but :class:`IllegalAction`, and whatever an action leads
    to must save and load again."""
    from engine import IllegalAction

    n = len(state.seats)
    waiting = rules.to_act(state)
    legal = [(p, a) for p in range(n) for a in rules.legal_actions(state, p)]
    for viewer in [None, *range(n)]:
        rules.view(state, viewer)
    rules.is_over(state)
    rules.returns(state)
    rules.phase_name(state)
    for p in range(n):
        rules.card_window(state, p)
    tries = legal if len(legal) <= budget else [legal[0], legal[-1]] + rnd.sample(legal, budget)
    # and a few illegal ones: a legal action by someone not awaited, a bare pass and end
    someone = waiting[0] if waiting else 0
    wrong = [q for q in range(n) if q not in waiting]
    if tries and wrong:
        tries.append((wrong[0], tries[0][1]))
    tries += [(someone, {"type": "pass"}), (someone, {"type": "end"})]
    for p, a in tries:
        try:
            new, events = rules.apply_action(state, p, a)
        except IllegalAction:
            continue
        json.dumps(events, allow_nan=False)
        rules.from_json(json.loads(json.dumps(rules.to_json(new), allow_nan=False)))


def check_damaged_saves(rules, saves: list[dict], seed: int = 0) -> dict:
    """Every damaged variant of every save in ``saves`` either raises CorruptState from
    ``from_json``, or loads into a state that :func:`exercise` can use. Returns counts; fails
    listing every variant that did otherwise."""
    from engine.core import CorruptState

    rnd = random.Random(seed)
    failures = []
    counts = {"variants": 0, "refused": 0, "loaded": 0}
    for i, data in enumerate(saves):
        for what, bad in variants(data, rnd):
            counts["variants"] += 1
            try:
                state = rules.from_json(bad)
            except CorruptState:
                counts["refused"] += 1
                continue
            except Exception as exc:  # noqa: BLE001 - listed below
                failures.append((i, what, "load", repr(exc)))
                continue
            counts["loaded"] += 1
            try:
                exercise(rules, state, rnd)
            except Exception as exc:  # noqa: BLE001 - listed below
                failures.append((i, what, "use", repr(exc)))
    assert not failures, f"{len(failures)} damaged saves misbehave:\n" + "\n".join(
        map(repr, failures[:60]))
    return counts
