"""Property-based tests of the Random Mutations engine (hypothesis).

Random legal games from random seeds (2, 4, 5 and 8 players, with and without Divergence) are
played to the end; after every action the checks below hold. Conservation is written out here
from the rulebook (90 cards a box, 6 burrows and 10 parasites a box), independently of the
engine's own ``check_invariants`` (called too).
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine import Seat
from engine.mutations import MUTATIONS as G
from engine.mutations import check_invariants
from engine.mutations.data import cards
from tests import properties
from tests.properties import choices, examples, seeds

BOX = {"cards": 90, "burrows": 6, "parasites": 10}
EXCLUSIVE = {"carnivore", "obligate_carnivore", "scavenger"}
MAX_ACTIONS = 6000

players = st.sampled_from([2, 4, 5, 8])
divergence = st.booleans()


def seats(n: int) -> list[Seat]:
    return [Seat(f"u{i}", f"Player {i}") for i in range(n)]


def group(a: dict) -> str:
    return a["type"] + ":" + str(a.get("use", ""))


def check(state, before: dict) -> dict:
    """The properties of one position; ``before``: each animal's (food, fed) after the
    previous action (returned for the next check)."""
    check_invariants(state)
    boxes = 1 if state.n <= 4 else 2
    pile = list(state.main) + list(state.removed)
    for d in state.decks:
        pile.extend(d)
    burrows = parasites = 0
    for row in state.rows:
        for sp in row:
            pile.extend(sp["traits"])
            for a in sp["animals"]:
                pile.append(a["card"])
                burrows += a["burrow"]
                parasites += a["parasites"]
    if state.pending and state.pending["kind"] == "dark":
        pile.append(state.pending["card"])
    assert len(pile) == BOX["cards"] * boxes
    assert Counter(pile) == Counter(cards(boxes))
    assert burrows + state.centre["burrows"] <= BOX["burrows"] * boxes
    assert parasites + state.centre["parasites"] <= BOX["parasites"] * boxes
    # no species holds two of Carnivore / Obligate Carnivore / Scavenger (its own or inherited)
    v = G.view(state, None)
    now = {}
    for row in v["players"]:
        for sp in row["species"]:
            assert len(EXCLUSIVE.intersection(sp["all_traits"])) <= 1
            assert len(set(sp["all_traits"])) == len(sp["all_traits"])
            for a in sp["animals"]:
                food = a["red"] + a["blue"]
                now[a["id"]] = (food, a["fed"])
                # fed animals take no more food (a meal, a Scavenger or Bark Beetle token
                # tops up to the need at most)
                if a["id"] in before and before[a["id"]][1]:
                    assert food <= before[a["id"]][0] or food == 0
    return now


def hidden_ok(state) -> None:
    """Every view hides every deck: no card id appears anywhere in it."""
    ids = set(cards(state.boxes))
    for viewer in [None, *range(state.n)]:
        text = json.dumps(G.view(state, viewer))
        assert not any(f'"{c}"' in text for c in ids)


@examples(10)
@given(seed=seeds, n=players, div=divergence, rnd=choices)
def test_random_games_keep_every_invariant(seed, n, div, rnd):
    state = G.new_game(seats(n), seed, {"divergence": div})
    fed = check(state, {})
    steps = 0
    while not G.is_over(state):
        p, a = properties.pick(rnd, G, state, group)
        G.apply_in_place(state, p, a)
        fed = check(state, fed)
        if steps % 25 == 0:
            hidden_ok(state)
        steps += 1
        assert steps < MAX_ACTIONS
    assert sorted(r["player"] for r in G.returns(state)) == list(range(n))
    assert state.last and state.main == []
