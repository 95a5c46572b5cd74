"""Property-based tests of the Cubosaurs engine (hypothesis).

Every property plays random legal games from random seeds (2 to 5 players, the advanced DNA
rules on and off) and checks, after every action, things that must always hold. The
conservation and bookkeeping checks are written out here from the rulebook (55 cards, 40 DNA
tokens, 10 tiles), independently of the engine's own ``check_invariants`` (called too).

``DARWIN_HYPOTHESIS_EXAMPLES=<n>`` raises the number of examples of every property (for a
long soak run); the default keeps the whole file at a few seconds.
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
from engine.cubosaurs import CUBOSAURS as G
from engine.cubosaurs import check_invariants
from engine.cubosaurs.data import card
from tests import properties
from tests.properties import choices, dump, examples, seeds

# --- the box, as printed in the rulebook (not read from the engine) --------------------------

TYPES = ["trex", "stego", "bronto", "ptero", "penta", "grey", "black"]
BOX_CARDS = Counter([f"{t}-{k}" for t in TYPES for k in range(1, 8)]
                    + [f"egg-{s}" for s in ("trex", "stego", "bronto", "ptero", "penta", "raptor")])
BOX_TOKENS = 40
BOX_TILES = ["type_bonus", "egg_bonus", "draw", "free_pass", "forbidden", "destroy_own",
             "destroy_other", "steal", "give", "swap"]
INTERACTIVE_TILES = {"destroy_other", "steal", "give", "swap"}
PARTS = ["trex", "stego", "bronto", "ptero", "penta", "raptors", "eggs", "tiles"]
# the DNA symbol (docs/rules-decisions.md): every Pterodactyl, copies 1 and 2 of the others
DNA_CARDS = {f"ptero-{k}" for k in range(1, 8)} | {
    f"{t}-{k}" for t in ("trex", "stego", "bronto", "penta", "grey", "black") for k in (1, 2)}
assert sum(BOX_CARDS.values()) == 55
# every turn draws a card or moves one out of a collection, and each round deals 10 per player:
# a generous bound on the number of actions of one game
MAX_ACTIONS = 3000


players = st.sampled_from([2, 3, 4, 5])
# "rich": advanced, with the whole reserve handed out at the start, so that players often take
# tokens from each other (and choose whom from)
adv = st.sampled_from(["standard", "advanced", "rich"])


def seats(n: int) -> list[Seat]:
    return [Seat(f"u{i}", f"Player {i}") for i in range(n)]


def new(seed: int, n: int, mode: str, interactive: bool = True):
    state = G.new_game(seats(n), seed, {"advanced": mode != "standard",
                                        "interactive": interactive})
    if mode == "rich":
        enrich(state, seed)
    return state


def enrich(state, seed: int) -> None:
    """Hand the whole reserve out to the players (a legal position: tokens are conserved)."""
    r = random.Random(seed)
    while state.reserve:
        state.reserve -= 1
        state.tokens[r.randrange(state.n)] += 1


def pick(rnd: random.Random, state) -> tuple[int, dict]:
    """A random legal move, grouped by tile so that rare choices come often."""
    return properties.pick(rnd, G, state, lambda a: a["type"] + ":" + str(a.get("tile", "")))


def sdump(state) -> str:
    return dump(G.to_json(state))


# --- explicit checks, independent of the engine's own --------------------------------------

def own_checks(state) -> None:
    n = state.n
    cards = Counter(state.deck) + Counter(state.aside) + Counter(state.hand)
    for c in state.collections:
        cards.update(c)
    assert cards == BOX_CARDS, f"cards not conserved: {cards - BOX_CARDS} / {BOX_CARDS - cards}"
    assert all(t >= 0 for t in state.tokens) and state.reserve >= 0
    assert sum(state.tokens) + state.reserve == BOX_TOKENS, "tokens not conserved"
    tiles = Counter(state.offer) + Counter(state.pile)
    for t in state.tiles:
        tiles.update(t)
    if state.options["advanced"]:
        box = [t for t in BOX_TILES if state.options["interactive"] or t not in INTERACTIVE_TILES]
        assert tiles == Counter(box), "tiles not conserved"
        assert len(state.offer) <= n + 1
    else:
        assert not tiles and state.tokens == [0] * n
    assert state.rounds == (3 if n == 2 else 2)
    assert state.direction == (1 if state.round % 2 else -1)
    # the round's deck: 10 cards per player, 4 of them dealt to each collection
    assert len(state.deck) <= 6 * n
    v = G.view(state, None)
    for p in range(n):
        b = v["players"][p]["score"]
        assert b["total"] == sum(b[k] for k in PARTS)
    for r in state.scores:
        for b in r:
            assert b["total"] == sum(b[k] for k in PARTS)
    if not G.is_over(state):
        (p,) = G.to_act(state)
        if not state.debts:
            assert p == state.current and state.hand


def check_structure(state) -> None:
    check_invariants(state)
    own_checks(state)
    waiting = G.to_act(state)
    if G.is_over(state):
        assert waiting == []
        assert all(G.legal_actions(state, p) == [] for p in range(state.n))
        assert state.result is not None
        return
    assert len(waiting) == 1
    for p in range(state.n):
        acts = G.legal_actions(state, p)
        if p not in waiting:
            assert acts == []
            continue
        assert acts
        texts = [dump(a) for a in acts]
        assert len(set(texts)) == len(texts), "duplicate legal actions"
        if state.debts:
            assert {a["type"] for a in acts} == {"take_token"} and len(acts) >= 2
        else:
            assert {"type": "keep"} in acts


def expected_collections(state, p: int, a: dict) -> list[Counter]:
    """The collections right after action ``a`` (before any round change), from the rules."""
    cols = [Counter(c) for c in state.collections]
    kind = a["type"]
    if kind == "keep":
        cols[p].update(state.hand)
    elif kind == "pass":
        cols[p][a["card"]] -= 1
    elif kind == "buy":
        t = a["tile"]
        if t in ("forbidden", "destroy_own"):
            cols[p][a["card"]] -= 1
        elif t == "destroy_other":
            cols[a["target"]][a["card"]] -= 1
        elif t == "steal":
            cols[a["target"]][a["card"]] -= 1
            cols[p][a["card"]] += 1
        elif t == "give":
            cols[p][a["card"]] -= 1
            cols[a["target"]][a["card"]] += 1
        elif t == "swap":
            cols[p][a["card"]] -= 1
            cols[a["target"]][a["take"]] -= 1
            cols[p][a["take"]] += 1
            cols[a["target"]][a["card"]] += 1
    return [+c for c in cols]


def check_effect(before, p: int, a: dict, after, events: list[dict], at_round_end) -> None:
    """The action did what it says: collections, hand, tiles, tokens."""
    expected = expected_collections(before, p, a)
    ended = any(e["type"] == "round_end" for e in events)
    got = at_round_end if ended else [Counter(c) for c in after.collections]
    assert [+Counter(c) for c in got] == expected, f"{a} changed the collections wrongly"
    if a["type"] == "buy":
        t = a["tile"]
        cost = {"type_bonus": 3, "egg_bonus": 2, "draw": 1, "free_pass": 2, "forbidden": 2,
                "destroy_own": 2, "destroy_other": 3, "steal": 4, "give": 3, "swap": 4}[t]
        buy = [e for e in events if e["type"] == "buy"]
        assert len(buy) == 1 and buy[0]["cost"] == cost and buy[0]["tile"] == t
        assert t in before.offer
        if not ended:
            assert t not in after.offer and t in after.tiles[p]
            gained = sum(e["count"] for e in events
                         if e["type"] == "token" and e["player"] == p)
            given = sum(e["count"] for e in events
                        if e["type"] == "token" and e["from"] == p)
            assert after.tokens[p] == before.tokens[p] - cost + gained - given
        if t == "draw":
            assert after.hand[:-1] == before.hand and after.hand[-1] == before.deck[-1]
            assert after.current == p and after.stage == "act"
        if t in ("free_pass", "forbidden"):
            added = [] if t == "free_pass" else [a["card"]]
            passes = [e for e in events if e["type"] == "pass"]
            assert passes[0]["cards"] == before.hand + added
    if a["type"] == "pass":
        (e,) = [e for e in events if e["type"] == "pass"]
        assert e["cards"] == before.hand + [a["card"]]
        assert e["to"] == (p + before.direction) % before.n
        assert card(a["card"]).type not in {card(c).type for c in before.hand}
        if not ended:
            assert after.hand == before.hand + [a["card"]] and after.hand_from == p
            assert after.current == e["to"]
            assert after.deck == before.deck, "a player who receives a hand does not draw"
    if a["type"] == "keep" and not ended and not after.debts:
        # the next player draws the top card
        assert after.hand == [before.deck[-1]] and after.hand_from is None
        assert after.current == (p + before.direction) % before.n
    if a["type"] == "take_token":
        assert after.tokens[a["from"]] == before.tokens[a["from"]] - 1
        assert after.tokens[p] == before.tokens[p] + 1
    check_tokens(before, p, a, after, events)


def owed(state) -> Counter:
    out: Counter = Counter()
    for q, count in state.debts:
        out[q] += count
    return out


def check_tokens(before, p: int, a: dict, after, events: list[dict]) -> None:
    """Whoever adds DNA cards to their collection gets (or is owed, or loses) one token each."""
    if not before.options["advanced"]:
        assert not [e for e in events if e["type"] in ("token", "token_lost", "token_choice")]
        return
    added: Counter = Counter()

    def dna(cards) -> int:
        return sum(1 for c in cards if c in DNA_CARDS)

    kind, t = a["type"], a.get("tile")
    if kind == "keep":
        added[p] += dna(before.hand)
    elif t == "steal":
        added[p] += dna([a["card"]])
    elif t == "give":
        added[a["target"]] += dna([a["card"]])
    elif t == "swap":
        added[p] += dna([a["take"]])
        added[a["target"]] += dna([a["card"]])
    for e in events:
        if e["type"] == "start_cards":
            added[e["player"]] += dna(e["cards"])
    got: Counter = Counter()
    for e in events:
        if e["type"] in ("token", "token_lost"):
            got[e["player"]] += e["count"]
    now, then = owed(after), owed(before)
    for q in range(before.n):
        assert got[q] + now[q] - then[q] == added[q], f"player {q}: tokens for DNA cards"


def play_out(seed, n, mode, rnd, check=check_structure, limit=None, interactive=True):
    state = new(seed, n, mode, interactive)
    check(state)
    log: list[tuple[int, dict]] = []
    events: list[list[dict]] = []
    while not G.is_over(state) and (limit is None or len(log) < limit):
        p, a = pick(rnd, state)
        ev = G.apply_in_place(state, p, a)
        log.append((p, a))
        events.append(ev)
        check(state)
        assert len(log) < MAX_ACTIONS, "the game does not end"
    return state, log, events


# --- 1. random legal play to the end --------------------------------------------------------

@examples(60)
@given(seed=seeds, n=players, mode=adv, interactive=st.booleans(), rnd=choices)
def test_random_games_keep_every_invariant(seed, n, mode, interactive, rnd):
    state = new(seed, n, mode, interactive)
    check_structure(state)
    actions = 0
    rounds_seen: list[int] = []
    while not G.is_over(state):
        p, a = pick(rnd, state)
        before = sdump(state)
        snapshot = state.clone()
        seen: list = []

        def observer(s, moment, seen=seen):
            seen.append((moment, s.round, [Counter(c) for c in s.collections]))

        new_state, events = G.apply_action(state, p, a, observer)
        assert sdump(state) == before, "apply_action changed the state it was given"
        dump(events)
        ends = [x for x in seen if x[0] == "round_end"]
        assert len(ends) == sum(e["type"] == "round_end" for e in events) <= 1
        check_effect(snapshot, p, a, new_state, events, ends[0][2] if ends else None)
        if not interactive:
            assert not INTERACTIVE_TILES & (set(new_state.offer) | set(new_state.pile))
        for e in events:
            if e["type"] == "round_end":
                rounds_seen.append(e["round"])
                for b in e["scores"]:
                    assert b["total"] == sum(b[k] for k in PARTS)
        state = new_state
        actions += 1
        assert actions < MAX_ACTIONS, "the game does not end"
        check_structure(state)
    assert rounds_seen == list(range(1, state.rounds + 1))
    ranks = G.returns(state)
    assert sorted(r["player"] for r in ranks) == list(range(n))
    assert min(r["rank"] for r in ranks) == 1
    for r in ranks:
        p = r["player"]
        bonus = state.tokens[p] // 2 if mode != "standard" else 0
        assert r["score"] == sum(rd[p]["total"] for rd in state.scores) + bonus
        assert r["last"] == state.scores[-1][p]["total"]
    keys = [(-r["score"], -r["last"]) for r in ranks]
    assert keys == sorted(keys)


# --- 2. illegal actions change nothing -------------------------------------------------------

def junk_actions(rnd: random.Random, state, old_legal):
    n = state.n
    waiting = G.to_act(state)
    p = waiting[0] if waiting else 0
    others = [q for q in range(n) if q not in waiting]
    cards = sorted(BOX_CARDS)
    anycard = rnd.choice(cards)
    anytile = rnd.choice(BOX_TILES)
    out: list[tuple[object, object]] = [
        (p, None), (p, "keep"), (p, ["keep"]), (p, 7), (p, {}), (p, {"type": 3}),
        (p, {"type": None}), (p, {"type": "roar"}), (p, {"type": "pass"}),
        (p, {"type": "pass", "card": None}), (p, {"type": "pass", "card": "trex-8"}),
        (p, {"type": "pass", "card": [anycard]}), (p, {"type": "pass", "card": anycard}),
        (p, {"type": "pass", "card": anycard.upper()}),
        (p, {"type": "keep", "card": anycard}),
        (p, {"type": "buy"}), (p, {"type": "buy", "tile": "fly"}), (p, {"type": "buy", "tile": 3}),
        (p, {"type": "buy", "tile": anytile}),
        (p, {"type": "buy", "tile": anytile, "card": anycard, "target": rnd.randrange(-1, n + 1),
             "take": rnd.choice(cards)}),
        (p, {"type": "buy", "tile": anytile, "card": anycard, "target": p}),
        (p, {"type": "buy", "tile": anytile, "card": anycard, "target": True}),
        (p, {"type": "buy", "tile": anytile, "card": anycard, "target": 1.0}),
        (p, {"type": "take_token"}), (p, {"type": "take_token", "from": p}),
        (p, {"type": "take_token", "from": rnd.randrange(-1, n + 1)}),
        (p, {"type": "take_token", "from": "1"}),
        (-1, {"type": "keep"}), (n, {"type": "keep"}), (None, {"type": "keep"}),
        ("0", {"type": "keep"}), (1.0, {"type": "keep"}), (True, {"type": "keep"}),
    ]
    for q in range(n):
        if q != p and state.collections[q]:
            out.append((p, {"type": "pass", "card": rnd.choice(state.collections[q])}))
    if state.deck:
        out.append((p, {"type": "pass", "card": rnd.choice(state.deck)}))
    legal = G.legal_actions(state, p) if waiting else []
    for a in rnd.sample(legal, min(4, len(legal))):
        for q in others:
            out.append((q, a))
        out.append((p, spoil(rnd, a)))
        out.append((p, dict(a, extra=1)))
        out.append((p, {k: v for k, v in a.items() if k != "type"}))
        if len(a) > 1:
            k = rnd.choice(sorted(set(a) - {"type"}))
            out.append((p, {kk: vv for kk, vv in a.items() if kk != k}))
    for q, a in rnd.sample(old_legal, min(6, len(old_legal))):
        out.append((q, a))
    return out


def spoil(rnd: random.Random, a: dict) -> dict:
    out = {}
    for k, v in a.items():
        if k == "type":
            out[k] = v
        elif isinstance(v, int):
            out[k] = rnd.choice([bool(v) if v in (0, 1) else v + 7, float(v), str(v), -1])
        elif isinstance(v, str):
            out[k] = rnd.choice([v.upper(), f" {v} ", v + "0", v[:1]])
        else:
            out[k] = v
    return out


def check_junk(state, p, a, snapshot) -> None:
    try:
        new_state, events = G.apply_action(state, p, a)
    except IllegalAction:
        assert state == snapshot, f"refused {a!r} by {p!r} changed the state"
        copy = snapshot.clone()
        with pytest.raises(IllegalAction):
            G.apply_in_place(copy, p, a)
        assert copy == snapshot, f"refused {a!r} by {p!r} changed the state in place"
        return
    assert state == snapshot
    # accepted: it must be exactly a legal action of the awaited player
    assert type(p) is int and p in G.to_act(state), f"{a!r} accepted from {p!r}"
    legal = {dump(x) for x in G.legal_actions(state, p)}
    assert dump(a) in legal, f"{a!r} by {p} was accepted but is not a legal action"


def check_junk_batch(rnd, state, old_legal) -> None:
    before = sdump(state)
    snapshot = G.from_json(json.loads(before))
    junk = junk_actions(rnd, state, old_legal)
    for q, a in rnd.sample(junk, min(30, len(junk))):
        check_junk(state, q, a, snapshot)
    assert sdump(state) == before


@examples(25)
@given(seed=seeds, n=players, mode=adv, rnd=choices, junk_seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_change_nothing(seed, n, mode, rnd, junk_seed):
    junk = random.Random(junk_seed)
    state = new(seed, n, mode)
    old_legal: list[tuple[int, dict]] = []
    steps = 0
    while not G.is_over(state):
        if junk.random() < 0.2:
            check_junk_batch(junk, state, old_legal)
        waiting = G.to_act(state)
        if junk.random() < 0.03:
            # every legal action of the awaited player is accepted
            for q in waiting:
                for a in G.legal_actions(state, q):
                    G.apply_action(state, q, a)
        for q in waiting:
            for a in G.legal_actions(state, q)[:8]:
                old_legal.append((q, a))
        old_legal = old_legal[-60:]
        p, a = pick(rnd, state)
        G.apply_in_place(state, p, a)
        steps += 1
        assert steps < MAX_ACTIONS
    check_junk_batch(junk, state, old_legal)
    with pytest.raises(IllegalAction) as err:
        G.apply_action(state, 0, {"type": "keep"})
    assert err.value.code == "game_over"


# --- 3. save / load, replay --------------------------------------------------------------------

def test_unknown_version_and_kind_are_corrupt():
    data = G.to_json(new(1, 3, "advanced"))
    for key, value in (("version", 99), ("kind", "evo"), ("version", None)):
        with pytest.raises(CorruptState):
            G.from_json(dict(data, **{key: value}))
    with pytest.raises(CorruptState):
        G.from_json([])


# --- 4. views ----------------------------------------------------------------------------------

def check_views(state, det_seed: int) -> None:
    n = state.n
    hidden_cards = set(state.deck) | set(state.aside)
    for viewer in [None, *range(n)]:
        v = G.view(state, viewer)
        text = dump(v)
        assert json.loads(text) == v
        assert v["viewer"] == viewer
        for k in ("deck", "aside", "pile"):
            assert type(v[k]) is int
        assert v["deck"] == len(state.deck) and v["aside"] == len(state.aside)
        for c in hidden_cards:
            assert f'"{c}"' not in text, f"viewer {viewer} sees {c}"
        for t in state.pile:
            assert f'"{t}"' not in text, f"viewer {viewer} sees the pile's {t}"
        for q in range(n):
            assert sorted(v["players"][q]["collection"]) == sorted(state.collections[q])
        # the view is the same for every seat but the "viewer" field
        assert dict(v, viewer=None) == G.view(state, None)
        imagined = G.determinize(v, det_seed)
        check_invariants(imagined)
        own_checks(imagined)
        assert G.view(imagined, viewer) == v
        if not G.is_over(state):
            (p,) = G.to_act(state)
            # the same choices (collections may be in another order)
            key = lambda a: dump(a)  # noqa: E731
            assert sorted(map(key, G.legal_actions(imagined, p))) == sorted(
                map(key, G.legal_actions(state, p)))


@examples(20)
@given(seed=seeds, n=players, mode=adv, rnd=choices, det_seed=seeds)
def test_views_hide_the_hidden_information(seed, n, mode, rnd, det_seed):
    state = new(seed, n, mode)
    while True:
        if rnd.randrange(100) < 10 or G.is_over(state):
            check_views(state, det_seed)
        if G.is_over(state):
            break
        p, a = pick(rnd, state)
        G.apply_in_place(state, p, a)


# --- 5. apply_action and apply_in_place agree ------------------------------------------------

# --- 6. the events tell the public story -------------------------------------------------------

class EventTable:
    """Collections, the hand and tokens, kept up to date from the events alone."""

    def __init__(self, n: int, events: list[dict]) -> None:
        self.cols: list[Counter] = [Counter() for _ in range(n)]
        self.tokens = [0] * n
        self.hand: list[str] = []
        self.feed(events)

    def feed(self, events: list[dict]) -> None:
        for e in events:
            k = e["type"]
            if k == "round_start":
                self.cols = [Counter() for _ in self.cols]
                self.hand = []
            elif k == "start_cards":
                self.cols[e["player"]].update(e["cards"])
            elif k == "draw":
                assert self.hand == []
                self.hand = [e["card"]]
            elif k == "receive":
                assert self.hand == e["cards"]
            elif k == "keep":
                assert self.hand == e["cards"]
                self.cols[e["player"]].update(e["cards"])
                self.hand = []
            elif k == "pass":
                if e["card"] is not None:
                    self.cols[e["player"]][e["card"]] -= 1
                    self.hand.append(e["card"])
                assert self.hand == e["cards"]
            elif k == "buy":
                self.tokens[e["player"]] -= e["cost"]
            elif k == "tile":
                t, p = e["tile"], e["player"]
                if t == "draw":
                    self.hand.append(e["card"])
                elif t == "destroy_own":
                    self.cols[p][e["card"]] -= 1
                elif t == "destroy_other":
                    self.cols[e["target"]][e["card"]] -= 1
                elif t == "steal":
                    self.cols[e["target"]][e["card"]] -= 1
                    self.cols[p][e["card"]] += 1
                elif t == "give":
                    self.cols[p][e["card"]] -= 1
                    self.cols[e["target"]][e["card"]] += 1
                elif t == "swap":
                    self.cols[p][e["card"]] -= 1
                    self.cols[e["target"]][e["take"]] -= 1
                    self.cols[p][e["take"]] += 1
                    self.cols[e["target"]][e["card"]] += 1
            elif k == "token":
                self.tokens[e["player"]] += e["count"]
                if e["from"] is not None:
                    self.tokens[e["from"]] -= e["count"]

    def check(self, state) -> None:
        assert [+c for c in self.cols] == [Counter(c) for c in state.collections]
        assert self.tokens == state.tokens
        assert self.hand == state.hand


@examples(30)
@given(seed=seeds, n=players, mode=adv, rnd=choices)
def test_events_rebuild_the_public_table(seed, n, mode, rnd):
    state, events = G.new_game_with_events(seats(n), seed, {"advanced": mode != "standard"})
    table = EventTable(n, events)
    if mode == "rich":
        enrich(state, seed)
        table.tokens = list(state.tokens)
    table.check(state)
    while not G.is_over(state):
        p, a = pick(rnd, state)
        table.feed(G.apply_in_place(state, p, a))
        table.check(state)


# --- 7. a damaged save is refused cleanly ----------------------------------------------------

JUNK_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 70), st.floats(allow_nan=False), st.text(max_size=3),
    st.lists(st.one_of(st.none(), st.integers(-2, 6), st.text(max_size=2)), max_size=6),
    st.dictionaries(st.text(max_size=3), st.integers(-1, 3), max_size=3),
)


@examples(60)
@given(seed=seeds, n=players, mode=adv, rnd=choices, moves=st.integers(0, 150),
       field=st.sampled_from(sorted(G.to_json(new(1, 3, "advanced")))), value=JUNK_VALUES,
       delete=st.booleans())
def test_damaged_saves_raise_corrupt_state(seed, n, mode, rnd, moves, field, value, delete):
    """A save with one field removed or replaced loads, or raises CorruptState."""
    state, _, _ = play_out(seed, n, mode, rnd, check=lambda s: None, limit=moves)
    data = json.loads(json.dumps(G.to_json(state)))
    if delete:
        del data[field]
    else:
        data[field] = value
    with contextlib.suppress(CorruptState):
        loaded = G.from_json(data)
        # what loads is playable
        for p in G.to_act(loaded):
            G.legal_actions(loaded, p)
        G.view(loaded, None)
