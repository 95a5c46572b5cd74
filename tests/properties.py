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
