"""Shared helpers of the Evolution: Climate tests (no tests here): positions built from a dealt
game whose rows, hands, piles and climate are then set, every card taken from the box so that
the 177 stay conserved."""

from __future__ import annotations

import json

import pytest

from engine import IllegalAction, Seat
from engine.climate import CLIMATE as G
from engine.climate import check_invariants
from engine.climate.data import CARDS, DECKS, EVENTS, TRAIT_OF, ZONE_INDEX


def seats(n: int) -> list[Seat]:
    return [Seat(f"s{i}", f"Seat {i}") for i in range(n)]


class Box:
    """The trait cards not used yet; ``take("carnivore")`` the next copy, ``take("carnivore",
    3)`` copy 3 (``"carnivore-3"``)."""

    def __init__(self) -> None:
        self.free = list(CARDS)

    def take(self, t: str, k: int | None = None) -> str:
        if "-" in t:
            c = t
        elif k is not None:
            c = f"{t}-{k}"
        else:
            c = next(x for x in self.free if TRAIT_OF[x] == t)
        self.free.remove(c)
        return c


def build(n: int = 2, *, rows: dict | None = None, hands: dict | None = None,
          phase: str = "feeding", zone: str | None = None, wh: int = 0, current: int = 0,
          first: int | None = None, events: bool = False, quick: bool = False,
          food: dict | None = None, up: dict | None = None, deck: int | None = None,
          aside: int = 0, bags: dict | None = None, seed: int = 1, last: bool = False):
    """A position. ``rows``: {player: [species]}, a species being a list of trait names (or
    card ids) or a dict {"traits", "body", "pop", "food", "fat"}; ``hands``: {player: [trait
    names or card ids]}; ``food``: {player: card}: food cards on the Watering Hole;
    ``deck``: cards kept in the draw deck (the rest of the box goes to the discard pile;
    None: all of it in the deck); ``aside``: of those, how many are set aside; ``up``:
    {"cold"/"hot": event card id} face up (events on)."""
    s = G.new_game(seats(n), seed, {"events": events, "quick": quick})
    box = Box()
    s.rows = [[] for _ in range(n)]
    s.next_sid = [1] * n
    s.hands = [[] for _ in range(n)]
    for p, row in (rows or {}).items():
        for spec in row:
            if isinstance(spec, list):
                spec = {"traits": spec}
            sp = {"id": 1000 * (p + 1) + s.next_sid[p], "body": spec.get("body", 1),
                  "pop": spec.get("pop", 1), "food": spec.get("food", 0),
                  "fat": spec.get("fat", 0),
                  "traits": [box.take(t) for t in spec.get("traits", [])], "down": []}
            if spec.get("down"):
                sp["down"] = [c for c in sp["traits"] if TRAIT_OF[c] in spec["down"]]
            s.next_sid[p] += 1
            s.rows[p].append(sp)
    for p, names in (hands or {}).items():
        s.hands[p] = [box.take(t) for t in names]
    s.food = [None] * n
    for p, c in (food or {}).items():
        s.food[p] = box.take(c)
    rest = list(box.free)
    keep = len(rest) if deck is None else deck + aside
    s.deck = rest[:keep]
    s.discard = rest[keep:]
    s.set_aside = s.deck[len(s.deck) - aside:] if aside else []
    if aside:
        del s.deck[len(s.deck) - aside:]
    s.bags = [0] * n
    for p, b in (bags or {}).items():
        s.bags[p] = b
    s.event_decks = {"cold": list(DECKS["cold"]), "hot": list(DECKS["hot"])}
    s.event_up = {"cold": None, "hot": None}
    s.thaw, s.meteor, s.volcano, s.fired, s.wildfire = None, [], None, None, 0
    if events:
        for d in ("cold", "hot"):
            want = (up or {}).get(d)
            if want is None:  # a card under a zone far from the tests' zones
                want = next(c for c in s.event_decks[d]
                            if EVENTS[c].zone in (ZONE_INDEX["ice_age"], ZONE_INDEX["scorching"])
                            and EVENTS[c].kind != "meteor")
            s.event_decks[d].remove(want)
            s.event_up[d] = want
    s.zone = ZONE_INDEX[zone or "temperate"]
    s.wh = wh
    s.phase = phase
    s.first = current if first is None else first
    s.current = current
    s.last = last
    s.final_next = False
    s.revealed = phase == "feeding"
    s.done = [phase == "play" and p != current for p in range(n)]
    s.back = [[] for _ in range(n)]
    s.held = [[] for _ in range(n)]
    s.shown = None
    if phase == "play" and quick:
        s.done = [False] * n
        s.shown = [{"hand": len(s.hands[p]), "rows": json.loads(json.dumps(s.rows[p]))}
                   for p in range(n)]
    s.green, s.night, s.negated = [], [], []
    s.passed = [False] * n
    check_invariants(s)
    return s


def sid(s, p: int, i: int) -> int:
    return s.rows[p][i]["id"]


def act(s, p, action, observer=None):
    return G.apply_action(s, p, action, observer)


def of(events, kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def illegal(s, p, action, code: str) -> IllegalAction:
    before = json.dumps(G.to_json(s), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        G.apply_action(s, p, action)
    assert info.value.code == code, info.value
    assert json.dumps(G.to_json(s), sort_keys=True) == before
    return info.value


def through_environment(s, p: int = 0):
    """``p`` (the last player still playing) says done: the reveal, green traits and Modify
    environment run. Returns (state after the action, events, the state at the end of
    Modify environment)."""
    snaps = {}

    def observer(state, phase):
        snaps[phase] = state.clone()

    new, events = act(s, p, {"type": "done"}, observer)
    return new, events, snaps.get("environment")
