"""Property-based tests of the EVO engine (hypothesis).

Every property plays random legal games from random seeds (3, 4 and 5 players, the variant
on and off) and checks, after every action, things that must always hold. The conservation
and bookkeeping checks are written out here from the rulebook numbers, independently of the
engine's own ``check_invariants`` (which is called too).

``DARWIN_HYPOTHESIS_EXAMPLES=<n>`` raises the number of examples of every property (for a
long soak run); the default keeps the whole file well under a minute.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import IllegalAction, Seat
from engine.core import CorruptState
from engine.evo import EVO, check_invariants
from engine.evo.cards import WINDOWS
from engine.evo.data import GENE_KINDS, board_for
from engine.evo.state import EVOLUTION, OVER, SURVIVAL
from tests import properties
from tests.properties import choices, dump, examples, seeds

# --- the box, as printed in the rulebook (not read from the engine) --------------------------

DINOS_PER_SPECIES = 10
START_MUTATION_POINTS = 10
# 62 gene tiles in the bag
BOX_GENES = Counter({"card": 6, "tail": 6, "mutant": 6, "parasol": 8, "egg": 8, "fur": 8,
                     "horns": 8, "legs": 12})
# the genes printed on every species portrait: one egg, leg, fur, parasol, the same tail, no
# horns and no mutant
PRINTED = {"tail": 1, "fur": 1, "legs": 1, "parasol": 1, "horns": 0, "mutant": 0, "egg": 1}
# 26 event cards, one of each
BOX_CARDS = Counter([
    "deluge", "accident", "cata", "gene_meteo", "plus_de_saison", "motivation",
    "maousse_kosto", "grand_frere", "gaz_de_combat", "regime_vegetarien", "pthermolactyl",
    "on_crame", "ciel_mon_mari", "plus_de_jeunesse", "pondeuse_musclee",
    "rate_evolutionniste", "evolution_separee", "peau_adaptable", "gene_survivaliste",
    "ca_caille", "encore", "moi_dabord", "eon_calme", "gene_inattendu", "sursaut_genetique",
    "evolution_capote",
])
assert sum(BOX_GENES.values()) == 62 and sum(BOX_CARDS.values()) == 26
# The meteorite starts on square 0/1/2 (3/4/5 players), a die may end the game on squares
# 10 and 11 (docs/rules-decisions.md), and square 12 ends it: no game lasts more than 12 turns.
MAX_TURNS = 12
FIRST_DIE_SQUARE = 10
# generous bound on the number of actions of one game (random games take ~200)
MAX_ACTIONS = 5000


players = st.sampled_from([3, 4, 5])
variants = st.booleans()


def seats(n: int) -> list[Seat]:
    return [Seat(f"u{i}", f"Player {i}") for i in range(n)]


def new(seed: int, n: int, variant: bool):
    return EVO.new_game(seats(n), seed, {"variant": variant})


def pick(rnd: random.Random, state) -> tuple[int, dict]:
    """A random legal move, grouped by card so that rare choices come often."""
    return properties.pick(rnd, EVO, state, lambda a: a["type"] + ":" + str(a.get("card", "")))


def sdump(state) -> str:
    return dump(EVO.to_json(state))


# --- explicit checks, independent of the engine's own --------------------------------------

def own_checks(state) -> None:
    n = state.n
    b = board_for(n)
    assert len(state.occ) == len(b)
    assert all(isinstance(o, int) and -1 <= o < n for o in state.occ)
    v = EVO.view(state, None)
    for p in range(n):
        on_board = sum(1 for o in state.occ if o == p)
        assert on_board <= DINOS_PER_SPECIES
        row = v["players"][p]
        assert row["dinos"] == on_board
        assert row["dinos"] + row["reserve"] == DINOS_PER_SPECIES
        assert state.mp[p] >= 0, f"player {p} has {state.mp[p]} mutation points"
        assert type(state.mp[p]) is int
        for i, kind in enumerate(GENE_KINDS):
            assert state.genes[p][i] >= PRINTED[kind], "a printed gene disappeared"
    # the 62 genes: bag + auction table + portraits (minus the printed genes) + card genes
    # that were used up
    genes = Counter(state.bag) + Counter(state.gene_discard)
    if state.auction:
        genes.update(state.auction["genes"])
        assert len(state.auction["bids"]) == len(state.auction["genes"])
    for p in range(n):
        for i, kind in enumerate(GENE_KINDS):
            genes[kind] += state.genes[p][i] - PRINTED[kind]
    assert +genes == BOX_GENES, f"genes not conserved: {genes - BOX_GENES} / {BOX_GENES - genes}"
    assert set(state.gene_discard) <= {"card"}
    # the 26 event cards: deck + hands + discard
    cards = Counter(state.deck) + Counter(state.discard)
    for h in state.hands:
        cards.update(h)
    assert cards == BOX_CARDS, f"cards not conserved: {cards - BOX_CARDS} / {BOX_CARDS - cards}"
    for p in range(n):
        assert Counter(state.locked[p]) <= Counter(state.hands[p]), "a locked card left the hand"
    assert 1 <= state.turn <= MAX_TURNS + 1
    assert sorted(state.order) == list(range(n))
    assert 0 <= state.climate < len(TRACK)
    # newborns stand on the board, once each
    assert len(set(state.newborn)) == len(state.newborn)
    assert all(state.occ[r] != -1 for r in state.newborn)
    # a card window asks exactly the players holding cards, all at once, in turn order
    # (hand sizes are public: who is asked says nothing about what they hold); those who
    # answered are some of them, each with a secret answer
    w = state.window
    if w is not None:
        holders = [q for q in EVO.view(state, None)["order"] if state.hands[q]]
        assert w["asked"] == holders, (w, holders)
        assert set(w["answered"]) < set(w["asked"]) and w["round"] >= 1
        assert EVO.to_act(state) == [q for q in w["asked"] if q not in w["answered"]]
    assert [q for q in range(n) if state.answers[q] is not None] == sorted(
        w["answered"] if w is not None else [])
    # the auction table: one slot per bidder at most, bids the bidder can pay
    if state.auction:
        holders = [held[0] for held in state.auction["bids"] if held is not None]
        assert len(set(holders)) == len(holders), "a player holds two genes"
        assert not set(holders) & set(state.auction["out"])
        played = state.history.get("cards", [])
        for q, amount in (held for held in state.auction["bids"] if held is not None):
            sursaut = sum(1 for x in played if x == {"player": q, "card": "sursaut_genetique"})
            assert 0 <= amount <= state.mp[q] + state.genes[q][MUTANT] + 3 * sursaut
    if any(x is not None for x in state.pending):
        assert state.phase == SURVIVAL and state.stage == "choose"
    if (state.phase == SURVIVAL and state.stage in ("end", "done", "ahead")) or state.phase == EVOLUTION or (
            state.phase == OVER and state.turn > 1):
        check_survivors(state)


# the climate track (docs/rules-decisions.md): the temperate terrain of each square
TRACK = ["beach", "prairie", "hill", "mountain", "hill", "prairie"]
TERRAINS = ["beach", "prairie", "hill", "mountain"]  # hottest to coldest
MUTANT = GENE_KINDS.index("mutant")


def check_survivors(state) -> None:
    """After the survival phase (until the next climate), every dino left on the board
    survives the climate of the turn: none in a deadly zone, no more in cold (hot) zones than
    the species has furs (parasols), after the cards of the turn."""
    b = board_for(state.n)
    temperate = TERRAINS.index(TRACK[state.climate])
    e = state.effects
    for p in range(state.n):
        fur = state.genes[p][GENE_KINDS.index("fur")] - e.get("ca_caille", 0)
        parasol = state.genes[p][GENE_KINDS.index("parasol")] - e.get("on_crame", 0)
        cold = hot = 0
        for r, owner in enumerate(state.occ):
            if owner != p:
                continue
            d = b.terrain[r] - temperate
            assert abs(d) <= 1, f"player {p}'s dino on {b.names[r]} is in a deadly zone"
            cold += d == 1
            hot += d == -1
        if p not in e.get("pthermolactyl", ()):
            assert cold <= max(0, fur), f"player {p}: {cold} dinos in the cold, {fur} furs"
        if p not in e.get("peau_adaptable", ()):
            assert hot <= max(0, parasol), f"player {p}: {hot} dinos in the heat, {parasol} parasols"


def check_turn_structure(state) -> None:
    """Who is awaited, and what they may do."""
    check_invariants(state)
    own_checks(state)
    waiting = EVO.to_act(state)
    if EVO.is_over(state):
        assert waiting == []
        assert all(EVO.legal_actions(state, p) == [] for p in range(state.n))
        assert state.result is not None
        return
    assert waiting, f"nobody to act in phase {state.phase} stage {state.stage}"
    assert len(set(waiting)) == len(waiting)
    for p in range(state.n):
        acts = EVO.legal_actions(state, p)
        if p not in waiting:
            assert acts == [], f"player {p} is not awaited but has actions"
            continue
        assert acts, f"player {p} is awaited but has no legal action"
        texts = [dump(a) for a in acts]  # JSON-serialisable
        assert len(set(texts)) == len(texts), f"duplicate legal actions: {acts}"
        assert all(isinstance(a.get("type"), str) for a in acts)
        # an event card is never compulsory: there is always something else to do
        assert any(a["type"] != "play" for a in acts), f"player {p} is forced to play a card: {acts}"
        # a card window offers pass; MOI D'ABORD's choice is yes or no, nothing else
        assert EVO.card_window(state, p) == (state.window is not None)
        if state.window is not None:
            assert acts[0] == {"type": "pass"} and all(a["type"] == "play" for a in acts[1:])
        if any(a["type"] == "first" for a in acts):
            assert acts == [{"type": "first", "go": True}, {"type": "first", "go": False}]


def play_out(seed: int, n: int, variant: bool, rnd: random.Random, check=check_turn_structure,
             limit: int | None = None):
    """Play a random game; returns (final state, [(player, action)], [events...])."""
    state = new(seed, n, variant)
    check(state)
    log: list[tuple[int, dict]] = []
    events: list[list[dict]] = []
    while not EVO.is_over(state) and (limit is None or len(log) < limit):
        p, a = pick(rnd, state)
        ev = EVO.apply_in_place(state, p, a)
        log.append((p, a))
        events.append(ev)
        check(state)
        assert len(log) < MAX_ACTIONS, "the game does not end"
    return state, log, events


# --- 1. random legal play to the end --------------------------------------------------------

@examples(40)
@given(seed=seeds, n=players, variant=variants, rnd=choices)
def test_random_games_keep_every_invariant(seed, n, variant, rnd):
    state = new(seed, n, variant)
    check_turn_structure(state)
    actions = 0
    while not EVO.is_over(state):
        p, a = pick(rnd, state)
        before = sdump(state)
        new_state, events = EVO.apply_action(state, p, a)
        assert sdump(state) == before, "apply_action changed the state it was given"
        dump(events)
        state = new_state
        actions += 1
        assert actions < MAX_ACTIONS, "the game does not end"
        check_turn_structure(state)
    assert state.turn <= MAX_TURNS
    ranks = EVO.returns(state)
    assert sorted(r["player"] for r in ranks) == list(range(n))
    assert min(r["rank"] for r in ranks) == 1


# --- 2. illegal actions change nothing -------------------------------------------------------

def junk_actions(rnd: random.Random, state, old_legal: list[tuple[int, dict]]):
    """Random (player, action) pairs, most of them illegal, some legal-looking."""
    n = state.n
    b = board_for(n)
    names = list(b.names)
    waiting = EVO.to_act(state)
    p = rnd.choice(waiting) if waiting else 0
    others = [q for q in range(n) if q not in waiting]
    mine = [names[r] for r, o in enumerate(state.occ) if o == p]
    anyregion = rnd.choice(names)
    out: list[tuple[object, object]] = [
        (p, None), (p, "end"), (p, ["move"]), (p, 42), (p, {}), (p, {"type": 3}),
        (p, {"type": None}), (p, {"type": "fly"}), (p, {"type": "move"}),
        (p, {"type": "end"}), (p, {"type": "pass"}), (p, {"type": "hatch"}),
        (p, {"type": "lose"}), (p, {"type": "bid"}), (p, {"type": "play"}),
        (p, {"type": "move", "from": "Z99", "to": anyregion}),
        (p, {"type": "move", "from": anyregion, "to": "A0"}),
        (p, {"type": "move", "from": 3, "to": None}),
        (p, {"type": "move", "from": ["C4"], "to": {"r": 1}}),
        (p, {"type": "hatch", "region": "Q0"}), (p, {"type": "hatch", "region": 7}),
        (p, {"type": "hatch", "region": anyregion}),
        (p, {"type": "lose", "regions": "C4"}), (p, {"type": "lose", "regions": [anyregion]}),
        (p, {"type": "lose", "regions": [anyregion, anyregion]}),
        (p, {"type": "lose", "regions": [None]}), (p, {"type": "lose", "regions": []}),
        (p, {"type": "bid", "gene": -1, "amount": 0}), (p, {"type": "bid", "gene": 99, "amount": 0}),
        (p, {"type": "bid", "gene": "0", "amount": 0}), (p, {"type": "bid", "gene": 0, "amount": -1}),
        (p, {"type": "bid", "gene": 0, "amount": 10**9}), (p, {"type": "bid", "gene": 0, "amount": "3"}),
        (p, {"type": "bid", "gene": 0, "amount": 1.5}), (p, {"type": "bid", "gene": 0.0, "amount": 0}),
        (p, {"type": "bid", "gene": 0, "amount": None}), (p, {"type": "bid", "gene": True, "amount": 0}),
        (p, {"type": "bid", "gene": 0, "amount": False}),
        (p, {"type": "play", "card": "joker"}), (p, {"type": "play", "card": None}),
        (p, {"type": "play", "card": ["encore"]}),
        (p, {"type": "play", "card": rnd.choice(sorted(BOX_CARDS))}),
        (p, {"type": "play", "card": rnd.choice(sorted(BOX_CARDS)), "region": anyregion,
             "target": rnd.randrange(-1, n + 1)}),
        (p, {"type": "play", "card": "gene_meteo", "die": rnd.choice([0, 7, "3", 2.5, None])}),
        (p, {"type": "play", "card": "accident", "target": p, "region": anyregion}),
        (p, {"type": "play", "card": "gaz_de_combat", "target": p}),
        (p, {"type": "first"}), (p, {"type": "first", "go": 1}), (p, {"type": "first", "go": 0}),
        (p, {"type": "first", "go": "yes"}), (p, {"type": "first", "go": None}),
        (p, {"type": "first", "go": True}), (p, {"type": "first", "go": False}),
        (-1, {"type": "end"}), (n, {"type": "pass"}), (None, {"type": "pass"}),
        ("0", {"type": "pass"}), (1.0, {"type": "pass"}),
    ]
    # moves to regions that are not adjacent, and moves of dinos that are not one's own
    if mine:
        a = rnd.choice(mine)
        far = [x for x in names if b.region(x) not in b.neighbours[b.region(a)]]
        out.append((p, {"type": "move", "from": a, "to": rnd.choice(far)}))
    theirs = [names[r] for r, o in enumerate(state.occ) if o not in (-1, p)]
    if theirs:
        a = rnd.choice(theirs)
        out.append((p, {"type": "move", "from": a, "to": names[rnd.choice(b.neighbours[b.region(a)])]}))
    # cards not in hand
    for q in range(n):
        if q != p and state.hands[q]:
            out.append((p, {"type": "play", "card": rnd.choice(state.hands[q])}))
    if state.discard:
        out.append((p, {"type": "play", "card": rnd.choice(state.discard)}))
    # bids around the limits
    if state.auction:
        for slot, held in enumerate(state.auction["bids"]):
            if held is not None:
                out.append((p, {"type": "bid", "gene": slot, "amount": held[1]}))
                out.append((p, {"type": "bid", "gene": slot, "amount": held[1] + 1}))
            out.append((p, {"type": "bid", "gene": slot, "amount": state.mp[p] + 7}))
            out.append((p, {"type": "bid", "gene": slot, "amount": 0}))
    # legal actions, played by the wrong player or spoiled
    legal = EVO.legal_actions(state, p) if waiting else []
    for a in rnd.sample(legal, min(4, len(legal))):
        for q in others:
            out.append((q, a))
        out.append((True if p == 1 else False if p == 0 else p, a))
        out.append((p, spoil(rnd, a)))
        out.append((p, dict(a, extra=1)))
        out.append((p, {k: v for k, v in a.items() if k != "type"}))
        if len(a) > 1:
            k = rnd.choice(sorted(set(a) - {"type"}))
            out.append((p, {kk: vv for kk, vv in a.items() if kk != k}))
    # legal actions of earlier states
    for q, a in rnd.sample(old_legal, min(6, len(old_legal))):
        out.append((q, a))
    return out


def spoil(rnd: random.Random, a: dict) -> dict:
    """The same action with values of a neighbouring type (1 -> True / 1.0, "C4" -> "c4 ")."""
    out = {}
    for k, v in a.items():
        if k == "type":
            out[k] = v
        elif isinstance(v, bool):
            out[k] = int(v)
        elif isinstance(v, int):
            out[k] = rnd.choice([bool(v) if v in (0, 1) else v + 1, float(v), str(v), v - 1])
        elif isinstance(v, str):
            out[k] = rnd.choice([v.lower(), f" {v} ", v + "0", v[:1]])
        elif isinstance(v, list):
            out[k] = list(reversed(v)) + ([v[0]] if v and rnd.random() < 0.5 else [])
        else:
            out[k] = v
    return out


def outcome(state, p, a):
    """(state JSON, events JSON) after an accepted action, or the reason code if refused."""
    try:
        new_state, events = EVO.apply_action(state, p, a)
    except IllegalAction as exc:
        return exc.code
    return sdump(new_state), sorted(dump(e) for e in events)


def check_junk(state, p, a, snapshot) -> None:
    """``snapshot`` is a copy of ``state`` (compared with ``==``, which is fast; the callers
    compare the JSON texts too)."""
    try:
        new_state, events = EVO.apply_action(state, p, a)
    except IllegalAction:
        assert state == snapshot, f"refused {a!r} by {p!r} changed the state"
        # the fast path refuses it too, and leaves its state as it was
        copy = snapshot.clone()
        with pytest.raises(IllegalAction):
            EVO.apply_in_place(copy, p, a)
        assert copy == snapshot, f"refused {a!r} by {p!r} changed the state in place"
        return
    assert state == snapshot
    # accepted: it must be a legal action of an awaited player, or a spelling of one that has
    # exactly the same effect (e.g. "c4" for "C4")
    assert type(p) is int and p in EVO.to_act(state), f"{a!r} accepted from {p!r}"
    result = (sdump(new_state), sorted(dump(e) for e in events))
    legal = EVO.legal_actions(state, p)
    if a in legal and dump(a) in {dump(x) for x in legal}:
        return
    same = [x for x in legal if x.get("type") == a.get("type")]
    assert any(outcome(state, p, x) == result for x in same), (
        f"{a!r} by {p} was accepted but is none of the legal actions")


@examples(20)
@given(seed=seeds, n=players, variant=variants, rnd=choices, junk_seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_change_nothing(seed, n, variant, rnd, junk_seed):
    # ``rnd`` plays the game, ``junk`` makes up the wrong actions (too many choices to draw
    # them one by one from hypothesis)
    junk = random.Random(junk_seed)
    state = new(seed, n, variant)
    old_legal: list[tuple[int, dict]] = []
    steps = 0
    while not EVO.is_over(state):
        if junk.random() < 0.15:
            check_junk_batch(junk, state, old_legal)
        waiting = EVO.to_act(state)
        if junk.random() < 0.05:
            # every legal action of every awaited player is accepted
            for q in waiting:
                for a in EVO.legal_actions(state, q):
                    EVO.apply_action(state, q, a)
        for q in waiting:
            for a in EVO.legal_actions(state, q)[:8]:
                old_legal.append((q, a))
        old_legal = old_legal[-60:]
        p, a = pick(rnd, state)
        EVO.apply_in_place(state, p, a)
        steps += 1
        assert steps < MAX_ACTIONS
    # after the end every action is refused and changes nothing
    check_junk_batch(junk, state, old_legal)


def check_junk_batch(rnd: random.Random, state, old_legal) -> None:
    before = sdump(state)
    snapshot = EVO.from_json(json.loads(before))
    junk = junk_actions(rnd, state, old_legal)
    for q, a in rnd.sample(junk, min(30, len(junk))):
        check_junk(state, q, a, snapshot)
    assert sdump(state) == before


# --- 3. save / load --------------------------------------------------------------------------

# --- 4. replay -------------------------------------------------------------------------------

# --- 5. views --------------------------------------------------------------------------------

HIDDEN_KEYS = {"hands", "deck", "bag", "rng", "seed"}


def keys_in(x) -> set:
    if isinstance(x, dict):
        out = set(x)
        for v in x.values():
            out |= keys_in(v)
        return out
    if isinstance(x, list):
        out = set()
        for v in x:
            out |= keys_in(v)
        return out
    return set()


def check_views(state, det_seed: int) -> None:
    n = state.n
    for viewer in [None, *range(n)]:
        v = EVO.view(state, viewer)
        text = dump(v)
        assert json.loads(text) == v
        assert not HIDDEN_KEYS & set(v["state"]), set(v["state"]) & HIDDEN_KEYS
        assert not HIDDEN_KEYS & keys_in(v)
        assert v["viewer"] == viewer
        for q in range(n):
            row = v["players"][q]
            if q == viewer:
                assert row["hand"] == state.hands[q]
            else:
                assert row["hand"] is None
            assert row["cards"] == len(state.hands[q])
        assert v["state"]["hand"] == (None if viewer is None else state.hands[viewer])
        # a card window's answers are secret: one's own only
        assert v["state"]["answers"] == [state.answers[q] if q == viewer else None
                                         for q in range(n)]
        # no card held by someone else appears anywhere, unless it is public (retrieved
        # with ENCORE, so locked and known to all)
        seen = set(state.hands[viewer]) if viewer is not None else set()
        for q in range(n):
            if q == viewer:
                continue
            for c in state.hands[q]:
                if c not in state.locked[q] and c not in seen:
                    assert f'"{c}"' not in text, f"viewer {viewer} sees {c} in {q}'s hand"
        for c in state.deck:
            if c not in seen:
                assert f'"{c}"' not in text, f"viewer {viewer} sees {c} in the deck"
        # non-interference: re-deal everything the viewer cannot see; the view is the same
        imagined = EVO.determinize(v, det_seed)
        check_invariants(imagined)
        own_checks(imagined)
        assert EVO.view(imagined, viewer) == v
        if viewer is not None:
            assert imagined.hands[viewer] == state.hands[viewer]


@examples(15)
@given(seed=seeds, n=players, variant=variants, rnd=choices, det_seed=seeds)
def test_views_hide_hidden_information(seed, n, variant, rnd, det_seed):
    state = new(seed, n, variant)
    while True:
        if rnd.randrange(100) < 15 or EVO.is_over(state):
            check_views(state, det_seed)
        if EVO.is_over(state):
            break
        p, a = pick(rnd, state)
        EVO.apply_in_place(state, p, a)


# --- 6. apply_action and apply_in_place agree ------------------------------------------------

# --- a plain statistical run -----------------------------------------------------------------

def test_300_random_games_look_sane():
    turns_by_n: dict[int, Counter] = {3: Counter(), 4: Counter(), 5: Counter()}
    reasons = Counter()
    cards_played = Counter()
    windows = Counter()
    actions = []
    for i in range(300):
        n = 3 + i % 3
        variant = (i // 3) % 2 == 1
        rnd = random.Random(1000 + i)
        state = new(7919 * i + 13, n, variant)
        count = 0
        last: list[dict] = []
        while not EVO.is_over(state):
            p, a = pick(rnd, state)
            last = EVO.apply_in_place(state, p, a)
            for e in last:
                if e["type"] == "card_played":
                    cards_played[e["card"]] += 1
                elif e["type"] == "window":
                    windows[e["at"]] += 1
                elif e["type"] in ("goes_first", "keeps_place"):
                    windows[e["type"]] += 1
            count += 1
            assert count < MAX_ACTIONS
        own_checks(state)
        over = [e for e in last if e["type"] == "game_over"]
        assert len(over) == 1
        reasons[over[0]["reason"]] += 1
        meteor = [e for e in last if e["type"] == "meteorite"]
        assert meteor and meteor[-1]["impact"]
        assert state.turn <= 20
        turns_by_n[n][state.turn] += 1
        actions.append(count)
        ranking = EVO.returns(state)
        assert [r["rank"] for r in ranking][0] == 1
        assert sorted(r["player"] for r in ranking) == list(range(n))
        # the ranking is by mutation points, then dinos on the board
        keys = [(-r["score"], -r["dinos"]) for r in ranking]
        assert keys == sorted(keys)
        assert all(r["score"] == state.mp[r["player"]] for r in ranking)
    assert reasons == Counter({"meteorite": 300})
    for n, turns in turns_by_n.items():
        assert sum(turns.values()) == 100
        start = {3: 0, 4: 1, 5: 2}[n]
        # the meteorite reaches the dice squares 10, 11 and the last square 12
        earliest, latest = FIRST_DIE_SQUARE - start, MAX_TURNS - start
        assert min(turns) >= earliest and max(turns) <= latest, (n, turns)
        # the dice really end some games early, and some reach the last square
        assert turns[earliest] > 0 and sum(c for t, c in turns.items() if t < latest) > 0, (
            n, turns)
        assert turns[latest] > 0, (n, turns)
    # most of the event cards get played in 300 random games (GENE INATTENDU is scored)
    assert len(cards_played) >= 20, cards_played
    assert cards_played["gene_inattendu"] > 0
    # every timing point opened its window, and MOI D'ABORD's player chose both ways
    assert set(windows) == set(WINDOWS) | {"goes_first", "keeps_place"}, windows
    assert max(actions) < 2000


# --- 7. the events tell the whole public story -----------------------------------------------

class EventBoard:
    """The board, scores and portraits, kept up to date from the events alone (what a client
    that only reads the event stream would know)."""

    def __init__(self, state, events: list[dict]) -> None:
        b = board_for(state.n)
        self.b = b
        self.occ = [-1] * len(b)
        self.mp = [START_MUTATION_POINTS] * state.n
        self.genes = [dict(PRINTED) for _ in range(state.n)]
        self.feed(events)

    def region(self, name: str) -> int:
        r = self.b.region(name)
        assert r is not None and self.b.names[r] == name, f"event region {name!r}"
        return r

    def feed(self, events: list[dict]) -> None:
        for e in events:
            kind = e["type"]
            if kind == "game_start":
                for p, name in enumerate(e["starts"]):
                    self.occ[self.region(name)] = p
            elif kind == "fight":
                r = self.region(e["region"])
                assert self.occ[r] == e["defender"]
                if e["won"]:
                    self.occ[r] = -1
                elif not e["newborn"]:
                    src = self.region(e["from"])  # the losing attacker leaves the board
                    assert self.occ[src] == e["attacker"]
                    self.occ[src] = -1
            elif kind == "move":
                a, b = self.region(e["from"]), self.region(e["to"])
                assert self.occ[a] == e["player"] and self.occ[b] == -1
                self.occ[a], self.occ[b] = -1, e["player"]
            elif kind == "birth":
                r = self.region(e["region"])
                assert self.occ[r] == -1
                self.occ[r] = e["player"]
            elif kind == "newborn_replaced":
                r = self.region(e["region"])
                assert self.occ[r] == e["victim"]
                self.occ[r] = e["player"]
            elif kind == "death":
                r = self.region(e["region"])
                assert self.occ[r] == e["player"]
                self.occ[r] = -1
            elif kind == "points":
                for p, g in enumerate(e["gains"]):
                    self.mp[p] += g
                    assert g == self.occ.count(p)
                assert self.mp == e["totals"]
            elif kind == "points_lost":
                self.mp[e["player"]] -= e["lost"]
            elif kind == "bought":
                self.mp[e["player"]] -= e["paid"]
                if e["gene"] != "card":
                    self.genes[e["player"]][e["gene"]] += 1
            elif kind == "card_played" and e["card"] == "gene_inattendu":
                self.mp[e["player"]] += 2  # counted at the final scoring
            elif kind == "game_over":
                for row in e["ranking"]:
                    assert row["score"] == self.mp[row["player"]]
                    assert row["dinos"] == self.occ.count(row["player"])

    def check(self, state) -> None:
        assert self.occ == state.occ, "the events do not tell where the dinos are"
        assert self.mp == state.mp, "the events do not tell the mutation points"
        for p in range(state.n):
            assert [self.genes[p][k] for k in GENE_KINDS] == state.genes[p]


@examples(40)
@given(seed=seeds, n=players, variant=variants, rnd=choices)
def test_events_rebuild_the_public_board(seed, n, variant, rnd):
    state, events = EVO.new_game_with_events(seats(n), seed, {"variant": variant})
    tracker = EventBoard(state, events)
    tracker.check(state)
    while not EVO.is_over(state):
        p, a = pick(rnd, state)
        tracker.feed(EVO.apply_in_place(state, p, a))
        tracker.check(state)


# --- 8. a damaged save is refused cleanly ----------------------------------------------------

JUNK_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 70), st.floats(allow_nan=False), st.text(max_size=3),
    st.lists(st.one_of(st.none(), st.integers(-2, 6), st.text(max_size=2)), max_size=6),
    st.dictionaries(st.text(max_size=3), st.integers(-1, 3), max_size=3),
)


@examples(60)
@given(seed=seeds, n=players, variant=variants, rnd=choices, moves=st.integers(0, 150),
       field=st.sampled_from(sorted(EVO.to_json(new(1, 3, False)))), value=JUNK_VALUES,
       delete=st.booleans())
def test_damaged_saves_raise_corrupt_state(seed, n, variant, rnd, moves, field, value, delete):
    """A save with one field removed or replaced loads, or raises CorruptState (which the bot
    reports), never another exception."""
    state, _, _ = play_out(seed, n, variant, rnd, check=lambda s: None, limit=moves)
    data = json.loads(json.dumps(EVO.to_json(state)))
    if delete:
        del data[field]
    else:
        data[field] = value
    with contextlib.suppress(CorruptState):
        EVO.from_json(data)


# a window, MOI D'ABORD's effect, or a stage spoiled in one way (field path, value)
SPOILED = [
    (("window", "at"), "phase7"), (("window", "asked"), []), (("window", "asked"), [0, 0]),
    (("window", "asked"), [9]), (("window", "answered"), [2]), (("window", "answered"), [1, 1]),
    (("window", "answered"), [0, 1]), (("window", "round"), 0), (("window", "round"), "1"),
    (("window", "extra"), 1), (("answers", 0), {"type": "pass"}),
    (("answers", 1), {"type": "play", "card": "encore"}),
    (("effects", "first"), 7), (("effects", "first"), "0"), (("effects", "first_go"), 1),
    (("stage",), "nap"),
]


@pytest.mark.parametrize("path,value", SPOILED)
def test_spoiled_windows_and_choices_raise_corrupt_state(path, value):
    # a game paused in a card window of turn 3, with MOI D'ABORD's effect in force
    state = EVO.scenario(3, phase="movement", hands={0: ["eon_calme"], 1: ["encore"]},
                         effects={"first": 1, "first_go": True}, order=[0, 1, 2])
    assert state.window is not None and state.window["asked"] == [1, 0]
    state, _ = EVO.apply_action(state, 1, {"type": "pass"})  # one secret answer given
    data = json.loads(json.dumps(EVO.to_json(state)))
    EVO.from_json(data)  # the unspoiled save loads
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(CorruptState):
        EVO.from_json(data)


def test_a_window_asking_a_player_without_cards_is_refused():
    state = EVO.scenario(3, phase="movement", hands={0: ["eon_calme"], 1: ["encore"]})
    data = json.loads(json.dumps(EVO.to_json(state)))
    data["deck"] += data["hands"][1]
    data["hands"][1] = []
    with pytest.raises(CorruptState):
        EVO.from_json(data)
