"""Load-time checks of an Evolution: Climate state: everything the rules index by or rely on,
so that a damaged save raises :class:`CorruptState` at once instead of failing later."""

from __future__ import annotations

from collections import Counter

from engine.base import check_loaded_seats
from engine.climate.data import (
    CARDS,
    EVENTS,
    MAX_BODY,
    MAX_PLAYERS,
    MAX_POP,
    MIN_PLAYERS,
    TRAIT_OF,
    ZONES,
    always_quick,
    max_traits,
)
from engine.climate.position import NEGATABLE, PHASES, find_species, green_effective
from engine.core import CorruptState

SPECIES_KEYS = frozenset({"id", "body", "pop", "food", "fat", "traits", "down"})
RESULT_KEYS = frozenset({"player", "rank", "score", "food", "population", "traits"})
CARD_SET = frozenset(CARDS)
CARD_COUNT = Counter(CARDS)
EVENT_COUNT = Counter(list(EVENTS))


def _int(x, low: int = 0, high: int | None = None) -> bool:
    return type(x) is int and x >= low and (high is None or x <= high)


def _player(x, n: int) -> bool:
    return type(x) is int and 0 <= x < n


def _strs(x) -> bool:
    return type(x) is list and all(type(c) is str for c in x)


def _bool(x) -> bool:
    return type(x) is bool


def _species(sp, p: int, n_players: int, next_sid: int | None) -> None:
    """One species dict (of ``rows`` or of a ``shown`` snapshot)."""
    if type(sp) is not dict or set(sp) != SPECIES_KEYS:
        raise CorruptState("bad species")
    sid = sp["id"]
    if not _int(sid) or sid // 1000 - 1 != p or sid % 1000 < 1 or \
            (next_sid is not None and sid % 1000 >= next_sid):
        raise CorruptState("bad species id")
    if not (_int(sp["body"], 1, MAX_BODY) and _int(sp["pop"], 1, MAX_POP)):
        raise CorruptState("body size or population out of 1..6")
    if not (_int(sp["food"], 0, sp["pop"]) and _int(sp["fat"], 0, sp["body"])):
        raise CorruptState("food above population or fat above body size")
    if not _strs(sp["traits"]) or not _strs(sp["down"]):
        raise CorruptState("bad trait cards")
    if not all(c in CARD_SET for c in sp["traits"]) or not set(sp["down"]) <= set(sp["traits"]) \
            or len(set(sp["down"])) != len(sp["down"]):
        raise CorruptState("bad trait cards")
    names = [TRAIT_OF[c] for c in sp["traits"]]
    if len(set(names)) != len(names) or len(names) > max_traits(n_players):
        raise CorruptState("a species holds a trait twice or too many traits")
    if sp["fat"] and "fat_tissue" not in [TRAIT_OF[c] for c in sp["traits"]
                                          if c not in sp["down"]]:
        raise CorruptState("fat without Fat Tissue")


def check_invariants(s) -> None:
    """Raise :class:`CorruptState` if ``s`` breaks a rule that must always hold."""
    n = s.n
    check_loaded_seats(s.seats, MIN_PLAYERS, MAX_PLAYERS)
    o = s.options
    if type(o) is not dict or set(o) != {"events", "quick"} or not all(_bool(v) for v in
                                                                        o.values()):
        raise CorruptState("bad options")
    if always_quick(n) and not o["quick"]:
        raise CorruptState("this many players always play the Quick game")
    if not (type(s.seed) is int and _int(s.rng, 0, (1 << 64) - 1)):
        raise CorruptState("bad seed")
    if s.phase not in PHASES:
        raise CorruptState(f"unknown phase {s.phase!r}")
    if not (_int(s.round, 1) and _player(s.first, n) and _player(s.current, n)):
        raise CorruptState("bad round, first or current player")
    if not all(_bool(x) for x in (s.last, s.final_next, s.revealed)) or \
            (s.last and s.final_next):
        raise CorruptState("bad flags")
    lists = (s.hands, s.food, s.rows, s.next_sid, s.bags, s.done, s.back, s.held, s.passed,
             s.keys)
    if not all(type(x) is list and len(x) == n for x in lists):
        raise CorruptState("inconsistent player lists")
    if not all(_strs(x) for x in (s.deck, s.set_aside, s.discard, *s.hands, *s.back, *s.held)):
        raise CorruptState("a pile is not a list of cards")
    if not all(c is None or type(c) is str for c in s.food):
        raise CorruptState("bad food cards")
    if not all(_int(x, 1, 999) for x in s.next_sid) or not all(_int(x) for x in s.bags):
        raise CorruptState("bad species counters or bags")
    if not all(_bool(x) for x in s.done + s.passed):
        raise CorruptState("bad done or passed flags")
    if not (_int(s.wh) and _int(s.wildfire) and _int(s.zone, 0, len(ZONES) - 1)):
        raise CorruptState("bad Watering Hole, Wildfire plants or climate zone")
    if not (_int(s.step) and all(_int(k, s.step) for k in s.keys)):
        raise CorruptState("bad step keys")
    # the species
    every = [*s.deck, *s.set_aside, *s.discard, *(c for c in s.food if c is not None)]
    for h in (*s.hands, *s.back, *s.held):
        every.extend(h)
    for p, row in enumerate(s.rows):
        if type(row) is not list:
            raise CorruptState("a row is not a list")
        ids = set()
        for sp in row:
            _species(sp, p, n, s.next_sid[p])
            if sp["id"] in ids:
                raise CorruptState("a species id twice")
            ids.add(sp["id"])
            every.extend(sp["traits"])
            if sp["down"] and s.phase != "play":
                raise CorruptState("face-down traits outside the play phase")
            if sp["food"] and s.phase not in ("green", "feeding"):
                raise CorruptState("food on a species outside Modify environment and feeding")
    if not all(c in CARD_SET for c in every) or Counter(every) != CARD_COUNT:
        raise CorruptState("trait cards are not conserved")
    _check_events(s)
    _check_steps(s, n)
    _check_result(s, n)


def _check_events(s) -> None:
    if type(s.event_decks) is not dict or set(s.event_decks) != {"cold", "hot"} or \
            type(s.event_up) is not dict or set(s.event_up) != {"cold", "hot"}:
        raise CorruptState("bad event decks")
    if not all(_strs(d) for d in s.event_decks.values()) or not _strs(s.meteor):
        raise CorruptState("bad event decks")
    every = [*s.event_decks["cold"], *s.event_decks["hot"], *s.meteor]
    for d in ("cold", "hot"):
        c = s.event_up[d]
        if c is not None:
            if type(c) is not str or c not in EVENTS or EVENTS[c].deck != d:
                raise CorruptState("bad face-up event")
            every.append(c)
        if not all(c in EVENTS and EVENTS[c].deck == d for c in s.event_decks[d]):
            raise CorruptState("an event card in the wrong deck")
    if s.thaw is not None:
        if type(s.thaw) is not str or s.thaw not in EVENTS or EVENTS[s.thaw].kind != "thaw":
            raise CorruptState("bad Thaw")
        every.append(s.thaw)
    if not all(c in EVENTS and EVENTS[c].kind == "meteor" for c in s.meteor):
        raise CorruptState("bad Meteor")
    if Counter(every) != EVENT_COUNT:
        raise CorruptState("event cards are not conserved")
    if s.volcano is not None and (not _int(s.volcano, 0, len(ZONES) - 1)
                                  or s.phase != "feeding"):
        raise CorruptState("bad Volcanic Eruption")
    if s.fired is not None and (type(s.fired) is not str or s.fired not in EVENTS
                                or s.phase != "feeding"):
        raise CorruptState("bad fired event")
    if not s.options["events"] and (any(s.event_up.values()) or s.thaw or s.meteor
                                    or s.volcano is not None or s.fired is not None):
        raise CorruptState("climate events in a game without them")
    if s.options["events"] and any(s.event_up[d] is None and s.event_decks[d]
                                   for d in ("cold", "hot")):
        raise CorruptState("an event zone lacks its card")  # one cold, one hot, always


def _check_steps(s, n: int) -> None:
    ph = s.phase
    if ph != "play" and (any(s.back) or any(s.held) or s.shown is not None):
        raise CorruptState("play-phase piles outside the play phase")
    if ph == "play" and not s.options["quick"] and (any(s.held) or s.shown is not None):
        raise CorruptState("secret plays outside the Quick game")
    if ph == "play" and s.options["quick"]:
        sh = s.shown
        if type(sh) is not list or len(sh) != n:
            raise CorruptState("bad Quick-game snapshot")
        for p, x in enumerate(sh):
            if type(x) is not dict or set(x) != {"hand", "rows"} or not _int(x["hand"]) or \
                    type(x["rows"]) is not list:
                raise CorruptState("bad Quick-game snapshot")
            for sp in x["rows"]:
                _species(sp, p, n, None)
    if s.revealed != (ph == "feeding"):
        raise CorruptState("food cards revealed outside feeding")
    if ph == "food" and not any(s.food[p] is None and s.hands[p] for p in range(n)):
        raise CorruptState("the food step waits for nobody")
    if ph == "play":
        if all(s.done):
            raise CorruptState("the play phase waits for nobody")
        if not s.options["quick"] and s.done[s.current]:
            raise CorruptState("the current player is done")
        for p in range(n):
            if s.back[p] and len(s.back[p]) > len(s.deck):
                raise CorruptState("more cards put back than the deck holds")
    if type(s.green) is not list or not all(
            type(g) is list and len(g) == 2 and _int(g[0]) and type(g[1]) is str
            for g in s.green):
        raise CorruptState("bad green traits")
    if ph == "green":
        own = {sp["id"] for sp in s.rows[s.current]}
        if any(g[0] not in own or g[1] not in ("fat_tissue", "fertile", "long_neck")
               for g in s.green) or len(green_effective(s)) < 2:
            raise CorruptState("bad green traits")
    elif s.green:
        raise CorruptState("green traits outside Modify environment")
    if not (type(s.night) is list and all(_int(x) for x in s.night)):
        raise CorruptState("bad Nocturnal list")
    if type(s.negated) is not list or not all(
            type(g) is list and len(g) == 2 and _int(g[0]) and g[1] in NEGATABLE
            for g in s.negated):
        raise CorruptState("bad negated traits")
    if ph != "feeding" and (s.night or s.negated or any(s.passed)):
        raise CorruptState("feeding marks outside feeding")
    if ph == "feeding":
        for g in s.negated:
            if find_species(s, g[0]) is None:
                raise CorruptState("negated traits of no species")
        for x in s.night:
            found = find_species(s, x)
            if found is None or found[0] != s.current:
                raise CorruptState("Nocturnal marks of a species not in its turn")


def _check_result(s, n: int) -> None:
    if (s.result is None) != (s.phase != "over"):
        raise CorruptState("result and phase disagree")
    if s.result is None:
        return
    if type(s.result) is not list or len(s.result) != n:
        raise CorruptState("bad result")
    for r in s.result:
        if type(r) is not dict or set(r) != RESULT_KEYS or not all(
                type(v) is int for v in r.values()):
            raise CorruptState("bad result row")
    if sorted(r["player"] for r in s.result) != list(range(n)):
        raise CorruptState("bad result")
    for p in range(n):
        for sp in s.rows[p]:
            if sp["food"] or sp["fat"]:
                raise CorruptState("food left on a species at the end")
