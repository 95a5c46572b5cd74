"""Property-based tests of the Evolution: Climate engine (hypothesis).

Random legal games from random seeds (2 to 6 players, with and without climate events, normal
and Quick) are played to the end; after every action the checks below hold. Conservation is
written out here from the rulebook (177 trait cards, 30 climate events), independently of the
engine's own ``check_invariants`` (called too). Hidden information is checked two ways: no
hidden card id appears in a view, and two states that differ only in what a seat may not see
give that seat equal views.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine.climate import CLIMATE as G
from engine.climate import check_invariants
from engine.climate.data import CARDS, EVENTS, TRAIT_OF
from tests import properties
from tests.properties import choices, examples, seeds
from tests.test_climate_helpers import seats

MAX_ACTIONS = 5000
players = st.integers(min_value=2, max_value=6)
variant = st.sampled_from([{}, {"events": False}, {"quick": True},
                           {"events": False, "quick": True}])


def group(a: dict) -> str:
    """Trait plays by trait (so that every trait reaches the table), the rest by type."""
    if a["type"] == "trait":
        return "trait:" + TRAIT_OF[a["card"]]
    return a["type"]


def check(state) -> None:
    """The properties of one position (from the rulebook, not the engine's own checks)."""
    check_invariants(state)
    n = state.n
    pile = [*state.deck, *state.set_aside, *state.discard]
    pile += [c for c in state.food if c is not None]
    for p in range(n):
        pile += state.hands[p] + state.back[p] + state.held[p]
        for sp in state.rows[p]:
            pile += sp["traits"]
            assert 1 <= sp["body"] <= 6 and 1 <= sp["pop"] <= 6
            assert 0 <= sp["food"] <= sp["pop"]  # never more than the population...
            assert 0 <= sp["fat"] <= sp["body"]  # ...except on Fat Tissue, up to body size
            names = [TRAIT_OF[c] for c in sp["traits"]]
            assert len(set(names)) == len(names)
            assert len(names) <= (3 if n == 2 else 4)
    assert len(pile) == 177 and Counter(pile) == Counter(CARDS)
    events = [*state.event_decks["cold"], *state.event_decks["hot"], *state.meteor]
    events += [c for c in (state.event_up["cold"], state.event_up["hot"], state.thaw)
               if c is not None]
    assert Counter(events) == Counter(list(EVENTS)) and len(events) == 30
    assert state.wh >= 0 and all(b >= 0 for b in state.bags)
    if state.options["events"] and not G.is_over(state):
        assert state.event_up["cold"] and state.event_up["hot"]


def hidden_cards(state, viewer) -> set[str]:
    """Every card id ``viewer`` may not see now."""
    out = set(state.deck) | set(state.set_aside) | set(state.discard)
    for p in range(state.n):
        if p == viewer:
            continue
        out.update(state.held[p])
        out.update(state.hands[p])
        out.update(state.back[p])
        if state.food[p] is not None and not state.revealed:
            out.add(state.food[p])
        for sp in state.rows[p]:
            out.update(sp["down"])
            if state.shown is not None:
                out.update(sp["traits"])  # a Quick game's secret plays
    if state.shown is not None:  # what the viewer sees of the others: the snapshot
        for p in range(state.n):
            if p != viewer:
                for sp in state.shown[p]["rows"]:
                    out.difference_update(sp["traits"])
    events = set(state.event_decks["cold"]) | set(state.event_decks["hot"])
    events.discard(state.fired)  # this round's event fired in public
    return out | events


def no_card_leaks(state) -> None:
    for viewer in [None, *range(state.n)]:
        text = json.dumps(G.view(state, viewer))
        leaked = [c for c in hidden_cards(state, viewer) if f'"{c}"' in text]
        assert not leaked, (viewer, leaked)


def hidden_variant(state, viewer, rnd: random.Random):
    """A copy of ``state`` that differs only in what ``viewer`` may not see: the hidden cards
    dealt again at random into the same places, the others' bags, the event decks' order,
    and in a Quick game's play phase the others' secret plays."""
    s = state.clone()
    places: list[tuple[list, int]] = []  # (a list, an index in it)
    for lst in (s.deck, s.set_aside, s.discard):
        places.extend((lst, i) for i in range(len(lst)))
    downs = []  # (species, indexes of its face-down cards)
    for p in range(s.n):
        if p == viewer:
            continue
        for lst in (s.hands[p], s.back[p], s.held[p]):
            places.extend((lst, i) for i in range(len(lst)))
        if s.food[p] is not None and not s.revealed:
            places.append((s.food, p))
        if s.shown is None:
            for sp in s.rows[p]:
                at = [i for i, c in enumerate(sp["traits"]) if c in sp["down"]]
                places.extend((sp["traits"], i) for i in at)
                downs.append((sp, at))
    cards = [lst[i] for lst, i in places]
    rnd.shuffle(cards)
    for (lst, i), c in zip(places, cards, strict=True):
        lst[i] = c
    for sp, at in downs:
        sp["down"] = [sp["traits"][i] for i in at]
    for p in range(s.n):
        if p != viewer:
            if s.phase != "over":
                s.bags[p] = rnd.randrange(60)
            if s.shown is not None:  # the others' live rows are their secret
                for sp in s.rows[p]:
                    sp["pop"] = rnd.randint(1, 6)
    for d in ("cold", "hot"):
        rnd.shuffle(s.event_decks[d])
    return s


def same_views(state, rnd: random.Random) -> None:
    for viewer in [None, *range(state.n)]:
        other = hidden_variant(state, viewer, rnd)
        assert G.view(other, viewer) == G.view(state, viewer), viewer
    if not G.is_over(state):
        other = hidden_variant(state, None, rnd)
        assert G.returns(other) == G.returns(state)  # public points only


def secret_move_keeps_others(before, after, p, events) -> None:
    """A secret move inside a simultaneous step: same public step, the others' keys, legal
    actions and views unchanged (but for that they are still awaited / hold a food card
    face down), and its events carry nothing."""
    assert G.step_key(after) == G.step_key(before)
    for q in range(before.n):
        if q == p:
            continue
        assert G.decision_key(after, q) == G.decision_key(before, q)
        assert G.legal_actions(after, q) == G.legal_actions(before, q)
        va, vb = G.view(after, q), G.view(before, q)
        for v in (va, vb):
            v.pop("awaiting")
            v["players"][p].pop("done")
            if before.phase == "food":
                v["food_cards"][p] = None
                v["players"][p].pop("hand")
        assert va == vb
    for e in events:
        assert set(e) <= {"type", "player", "step"}


@examples(12)
@given(seed=seeds, n=players, options=variant, rnd=choices)
def test_random_games_keep_every_invariant(seed, n, options, rnd):
    state = G.new_game(seats(n), seed, options)
    check(state)
    local = random.Random(seed)
    steps = 0
    while not G.is_over(state):
        p, a = properties.pick(rnd, G, state, group)
        before = state.clone() if state.phase in ("food", "play") else None
        phase = state.phase
        events = G.apply_in_place(state, p, a)
        check(state)
        if before is not None and state.phase == phase and (
                phase == "food" or state.options["quick"]):
            secret_move_keeps_others(before, state, p, events)
        if steps % 15 == 0:
            no_card_leaks(state)
            same_views(state, local)
        steps += 1
        assert steps < MAX_ACTIONS
    no_card_leaks(state)
    rows = G.returns(state)
    assert sorted(r["player"] for r in rows) == list(range(n))
    assert state.last


def test_damaged_saves_are_refused_or_load_into_a_usable_state():
    """Small saves at moments that fill many fields (a Quick play phase with secret plays,
    feeding with Intelligence or Nocturnal marks, an owner ordering green traits), each field
    damaged in turn."""
    from tests.test_climate_helpers import build

    saves = []
    for seed in range(60):  # a Quick play phase with secret plays, from a random game
        state = G.new_game(seats(3 + seed % 3), seed, {"quick": True})
        rnd = random.Random(seed)
        while state.round == 1 and not any(state.held):
            p = rnd.choice(G.to_act(state))
            G.apply_in_place(state, p, rnd.choice(G.legal_actions(state, p)))
        if any(state.held) and state.phase == "play":
            saves.append(G.to_json(state))
            break
    s = build(3, rows={0: [{"traits": ["carnivore", "intelligence"], "body": 3, "pop": 3},
                           {"traits": ["nocturnal", "fat_tissue"], "body": 4, "pop": 3,
                            "fat": 1}],
                       1: [{"traits": ["climbing"], "body": 1, "pop": 2}]},
              hands={0: ["horns", "ambush"]}, wh=3, events=True)
    s, _ = G.apply_action(s, 0, {"type": "feed", "species": 1002})  # Nocturnal: free
    s, _ = G.apply_action(s, 0, {"type": "negate", "species": 1001, "card": s.hands[0][0],
                                 "trait": "climbing"})
    assert s.night and s.negated and G.to_act(s) == [0]
    saves.append(G.to_json(s))
    s = build(3, rows={1: [{"traits": ["fat_tissue", "fertile"], "body": 3, "fat": 2}]},
              phase="play", wh=1, events=True)
    s, _ = G.apply_action(s, 0, {"type": "done"})
    assert s.phase == "green"
    saves.append(G.to_json(s))
    assert len(saves) == 3
    counts = properties.check_damaged_saves(G, saves)
    assert counts["refused"] > counts["variants"] // 2


def test_random_games_use_every_action():
    """Seeded random games (the same choices as the properties) reach every kind of action,
    so the properties above see every path of the rules."""
    kinds: Counter = Counter()
    for seed in range(25):
        rnd = random.Random(seed)
        state = G.new_game(seats(2 + seed % 5), seed, {"quick": seed % 2 == 1})
        while not G.is_over(state):
            p, a = properties.pick(rnd, G, state, group)
            G.apply_in_place(state, p, a)
            kinds[a["type"]] += 1
    from engine.climate.rules import ACTION_SHAPES

    assert set(kinds) == set(ACTION_SHAPES), set(ACTION_SHAPES) - set(kinds)
