"""Random Mutations' rules: setup, the four phases of a turn, the owed choices, the end and
the scores.

The flow is a small state machine: ``state.phase`` ("development", "feeding", "extinction",
"over"; the climate phase is automatic), ``state.current`` (whose turn it is) and
``state.pending`` (a choice some player owes now, perhaps not the current player: the
attacked owner, the Scavenger's owner...). :func:`step` checks an action completely, then
applies it and runs every automatic step (forced passes, the climate roll, Budding,
starvation, the draw) until some player must decide again.
"""

from __future__ import annotations

from engine.base import EventLog, check_seats, check_turn, observe
from engine.core import IllegalAction, OneOf, Seat, below, check_shape, rank_rows, roll, shuffle
from engine.mutations.data import DARK, FOOD, TRAIT_OF, boxes_for, cards, climate_dice, rules_data
from engine.mutations.state import PENDING, MutState

D = rules_data()
MIN_PLAYERS = D["players"]["min"]
MAX_PLAYERS = D["players"]["max"]
PERSONAL_DECK = D["setup"]["personal_deck"]
START_SPECIES = D["setup"]["start_species"]
NEW_DECK = D["setup"]["new_deck"]
DRAW_EXTRA = D["extinction"]["draw_extra"]
POINTS_ANIMAL = D["scoring"]["animal"]
POINTS_TRAIT = D["scoring"]["trait"]
CARNIVORE_BLUE = D["attack"]["carnivore_blue"]
RUNNING_ESCAPE = frozenset(D["attack"]["running_escape"])
SCAVENGER_BLUE = D["attack"]["scavenger_blue"]
BARK_BEETLE_BLUE = D["attack"]["bark_beetle_blue"]
BOX_BURROWS = D["box"]["burrows"]
BOX_PARASITES = D["box"]["parasites"]

CARNIVORES = frozenset({"carnivore", "obligate_carnivore"})
EXCLUSIVE = frozenset({"carnivore", "obligate_carnivore", "scavenger"})
# the traits Development Defects lets an attacker ignore with an effect on the attack
IGNORABLE = ("swimming", "high_body_weight", "burrowing", "mimicry", "running", "poisonous")
OPTIONS = ("divergence",)

# The exact shape of every action (``engine.core.check_shape``). An attack on a species with
# Development Defects may name the trait it ignores: that shape is ``ATTACK_IGNORING``.
ACTION_SHAPES = {
    "develop": OneOf("use", {"species": {}, "trait": {"species": int},
                             "animal": {"species": int}, "split": {"species": int}},
                     unknown="unknown_use"),
    "pass": {},
    "dark": OneOf("play", {"trait": {}, "species": {}}, unknown="unknown_play"),
    "graze": {"count": int},
    "food": {"animal": int},
    "burrow": {"animal": int},
    "parasite": {"animal": int},
    "attack": {"animal": int, "target": int},
    "redirect": {"target": int},
    "eat": {"animal": int},
    "scavenge": {"animal": int},
    "lose": {"animal": int},
}
ATTACK_IGNORING = {"attack": {"animal": int, "target": int, "ignore": str}}


def check_action(action) -> None:
    """Refuse an action whose shape is not exactly one of ``ACTION_SHAPES`` (codes of
    ``engine.core.check_shape``: ``bad_action`` with reason and field, ``unknown_action``,
    ``unknown_use``, ``unknown_play``), before the rules look at the position."""
    if isinstance(action, dict) and action.get("type") == "attack" and "ignore" in action:
        check_shape(action, ATTACK_IGNORING)
    else:
        check_shape(action, ACTION_SHAPES)


# --- events ---------------------------------------------------------------------------------

# --- lookups --------------------------------------------------------------------------------

def species_index(s: MutState) -> dict[int, tuple[int, dict]]:
    """species id -> (owner, species)."""
    return {sp["id"]: (p, sp) for p, row in enumerate(s.rows) for sp in row}


def find_species(s: MutState, sid: int) -> tuple[int, dict] | None:
    for p, row in enumerate(s.rows):
        for sp in row:
            if sp["id"] == sid:
                return p, sp
    return None


def find_animal(s: MutState, aid: int) -> tuple[int, dict, dict] | None:
    """(owner, species, animal) of animal ``aid``, or None."""
    for p, row in enumerate(s.rows):
        for sp in row:
            for a in sp["animals"]:
                if a["id"] == aid:
                    return p, sp, a
    return None


def traits_of(s: MutState, sp: dict, owner: int | None = None) -> list[str]:
    """The traits that apply to species ``sp``: its own cards, then its parent's (Divergence),
    and so on up the line."""
    out = [TRAIT_OF[c] for c in sp["traits"]]
    parent = sp["parent"]
    if parent is not None:
        row = s.rows[owner] if owner is not None else None
        if row is None:
            found = find_species(s, parent)
            row = s.rows[found[0]] if found else []
        by_id = {x["id"]: x for x in row}
        seen = {sp["id"]}
        while parent is not None and parent in by_id and parent not in seen:
            seen.add(parent)
            up = by_id[parent]
            out.extend(TRAIT_OF[c] for c in up["traits"])
            parent = up["parent"]
    return out


def need(traits) -> int:
    """The food an animal with these traits needs to be fed."""
    return 1 + sum(map(FOOD.__getitem__, traits))


def food_of(a: dict) -> int:
    return a["red"] + a["blue"]


def is_fed(a: dict, traits) -> bool:
    return food_of(a) >= need(traits)


def animals_of(s: MutState, p: int) -> int:
    return sum(len(sp["animals"]) for sp in s.rows[p])


def nothing_left(s: MutState, p: int) -> bool:
    """Has ``p`` no animal on the table and no card in their personal deck? Such a player
    gets a new personal deck (of NEW_DECK cards) instead of the end-of-turn draw."""
    return not s.decks[p] and animals_of(s, p) == 0


def descendants(row: list[dict], sid: int) -> list[dict]:
    """The species of ``row`` that split, directly or not, from species ``sid``."""
    out: list[dict] = []
    frontier = {sid}
    while frontier:
        nxt = {sp["id"] for sp in row if sp["parent"] in frontier and sp not in out}
        out.extend(sp for sp in row if sp["id"] in nxt)
        frontier = nxt
    return out


def can_take_trait(s: MutState, p: int, sp: dict, t: str) -> bool:
    """Can trait ``t`` be played on ``p``'s species ``sp`` now: one animal, the trait not there
    yet, and no two of Carnivore / Obligate Carnivore / Scavenger (on it or any species that
    split from it, which would inherit the card)?"""
    if len(sp["animals"]) != 1:
        return False
    for x in [sp, *descendants(s.rows[p], sp["id"])]:
        have = traits_of(s, x, p)
        if t in have:
            return False
        if t in EXCLUSIVE and EXCLUSIVE.intersection(have):
            return False
    return True


def supply(s: MutState) -> dict[str, int]:
    """Burrow and parasite tokens in the box (not in the centre, not on an animal)."""
    on_b = on_p = 0
    for row in s.rows:
        for sp in row:
            for a in sp["animals"]:
                on_b += 1 if a["burrow"] else 0
                on_p += a["parasites"]
    return {"burrows": BOX_BURROWS * s.boxes - on_b - s.centre["burrows"],
            "parasites": BOX_PARASITES * s.boxes - on_p - s.centre["parasites"]}


def next_player(s: MutState, p: int) -> int:
    return (p + 1) % s.n


def order_from(s: MutState, p: int) -> list[int]:
    n = len(s.seats)
    return [(p + k) % n for k in range(n)]


# --- setup ----------------------------------------------------------------------------------

def new_game(seats: list[Seat], seed: int, options: dict | None = None,
             observer=None) -> tuple[MutState, list]:
    options = dict(options or {})
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise IllegalAction("unknown_option", option=sorted(unknown)[0])
    if "divergence" in options and type(options["divergence"]) is not bool:
        raise IllegalAction("bad_option", option="divergence")
    n = check_seats(seats, MIN_PLAYERS, MAX_PLAYERS)
    s = MutState()
    s.seats = [seat.to_json() for seat in seats]
    s.options = {"divergence": bool(options.get("divergence", False))}
    s.seed = int(seed)
    s.rng = int(seed)
    s.boxes = boxes_for(n)
    s.main = list(cards(s.boxes))
    shuffle(s, s.main)
    s.decks = [[] for _ in range(n)]
    s.rows = [[] for _ in range(n)]
    s.lost = [0] * n
    s.removed = []
    s.first = below(s, n)
    events = EventLog()
    events.observer = observer
    for p in order_from(s, s.first):
        s.decks[p] = [s.main.pop() for _ in range(PERSONAL_DECK)]
    for p in order_from(s, s.first):
        for _ in range(START_SPECIES):
            _new_species(s, p, s.main.pop())
    events.append({"type": "setup", "first": s.first, "boxes": s.boxes,
                   "deck": PERSONAL_DECK, "species": START_SPECIES, "main": len(s.main),
                   "divergence": s.options["divergence"]})
    s.turn = 0
    _start_turn(s, events)
    return s, events


def _new_id(s: MutState) -> int:
    i = s.next_id
    s.next_id += 1
    return i


def _animal(s: MutState, c: str) -> dict:
    return {"id": _new_id(s), "card": c, "red": 0, "blue": 0, "burrow": False, "parasites": 0,
            "attacked": False}


def _new_species(s: MutState, p: int, c: str, parent: int | None = None,
                 at: int | None = None) -> dict:
    sp = {"id": _new_id(s), "parent": parent, "traits": [], "animals": [_animal(s, c)]}
    if at is None:
        s.rows[p].append(sp)
    else:
        s.rows[p].insert(at, sp)
    return sp


# --- who acts, and what they may do -------------------------------------------------------

def to_act(s: MutState) -> list[int]:
    if s.phase == "over":
        return []
    if s.pending is not None:
        return [s.pending["player"]]
    if s.phase in ("development", "feeding"):
        return [s.current]
    return []


def legal_actions(s: MutState, p: int) -> list[dict]:
    if p not in to_act(s):
        return []
    pend = s.pending
    if pend is not None:
        kind = pend["kind"]
        if kind == "dark":
            return [{"type": "dark", "play": "trait"}, {"type": "dark", "play": "species"}]
        if kind == "graze":
            return [{"type": "graze", "count": k}
                    for k in range(min(pend["max"], s.centre["food"]) + 1)]
        if kind == "mimicry":
            return [{"type": "redirect", "target": t} for t in pend["options"]]
        return [{"type": PENDING[kind], "animal": a} for a in pend["options"]]
    if s.phase == "development":
        return development_actions(s, p)
    return feeding_actions(s, p)


def development_actions(s: MutState, p: int) -> list[dict]:
    acts: list[dict] = [{"type": "pass"}]
    deck = len(s.decks[p])
    if not deck:
        return acts
    acts.append({"type": "develop", "use": "species"})
    row = s.rows[p]
    for sp in row:
        sid = sp["id"]
        if len(sp["animals"]) == 1:
            acts.append({"type": "develop", "use": "trait", "species": sid})
        extremo = "extremophile" in traits_of(s, sp, p)
        if extremo and deck < 2:
            continue
        if len(sp["animals"]) < len(row):
            acts.append({"type": "develop", "use": "animal", "species": sid})
        if s.options["divergence"]:
            acts.append({"type": "develop", "use": "split", "species": sid})
    return acts


def token_actions(s: MutState, p: int) -> list[dict]:
    """Every legal token play of ``p`` now (red food, green burrow, black parasite)."""
    return list(_token_plays(s, p))


def _token_plays(s: MutState, p: int):
    """``token_actions`` one by one (``next(...)`` asks whether there is one)."""
    c = s.centre
    food, burrows = c["food"], c["burrows"]
    if food or burrows:
        for sp in s.rows[p]:
            tr = traits_of(s, sp, p)
            obligate = "obligate_carnivore" in tr
            beetle = "bark_beetle" in tr and not obligate
            nd = need(tr)  # is_fed, the species' need counted once
            for a in sp["animals"]:
                fed = a["red"] + a["blue"] >= nd
                if food and not fed and not obligate:
                    yield {"type": "food", "animal": a["id"]}
                if burrows and ((beetle and not fed) or not a["burrow"]):
                    yield {"type": "burrow", "animal": a["id"]}
    if c["parasites"]:
        for q, row in enumerate(s.rows):
            if q != p:
                for sp in row:
                    for a in sp["animals"]:
                        yield {"type": "parasite", "animal": a["id"]}


def attackers(s: MutState, p: int) -> list[tuple[dict, dict, list[str]]]:
    """(species, animal, traits) of ``p``'s animals that may attack now."""
    out = []
    for sp in s.rows[p]:
        tr = traits_of(s, sp, p)
        if not CARNIVORES.intersection(tr):
            continue
        nd = need(tr)  # is_fed, the species' need counted once
        out.extend((sp, a, tr) for a in sp["animals"]
                   if not a["attacked"] and a["red"] + a["blue"] < nd)
    return out


def edible(s: MutState, sp: dict, traits) -> list[dict]:
    """The animals of ``sp`` a successful attack may eat (no burrow; not fed if Burrowing)."""
    if "burrowing" not in traits:
        return [a for a in sp["animals"] if not a["burrow"]]
    nd = need(traits)  # is_fed, the species' need counted once
    return [a for a in sp["animals"] if not a["burrow"] and a["red"] + a["blue"] < nd]


def attackable(s: MutState, att_traits, att_sid: int, tgt: dict, tgt_owner: int,
               ignore: str | None = None) -> bool:
    if tgt["id"] == att_sid or not tgt["animals"]:
        return False
    return _attackable(s, att_traits, tgt, traits_of(s, tgt, tgt_owner), ignore)


def _attackable(s: MutState, att_traits, tgt: dict, traits, ignore: str | None) -> bool:
    """``attackable`` once the target is known to be another species with animals, whose
    traits are ``traits``."""
    tt = [t for t in traits if t != ignore] if ignore is not None else traits
    swim_a = "swimming" in att_traits
    if ("swimming" in tt) != swim_a:
        return False
    if "high_body_weight" in tt and "high_body_weight" not in att_traits:
        return False
    return bool(edible(s, tgt, tt))


def attack_actions(s: MutState, p: int) -> list[dict]:
    return list(_attack_plays(s, p))


def _attack_plays(s: MutState, p: int):
    """``attack_actions`` one by one (``next(...)`` asks whether there is one)."""
    ready = attackers(s, p)
    if not ready:
        return
    # the species with animals, each with its traits (computed once)
    targets = [(sp, traits_of(s, sp, q)) for q, row in enumerate(s.rows) for sp in row
               if sp["animals"]]
    for sp, a, tr in ready:
        sid = sp["id"]
        for tgt, tt in targets:
            if tgt["id"] == sid:
                continue
            if _attackable(s, tr, tgt, tt, None):
                yield {"type": "attack", "animal": a["id"], "target": tgt["id"]}
            if "development_defects" in tt:
                for t in IGNORABLE:
                    if t in tt and _attackable(s, tr, tgt, tt, t):
                        yield {"type": "attack", "animal": a["id"], "target": tgt["id"],
                               "ignore": t}


def centre_empty(s: MutState) -> bool:
    return not (s.centre["food"] or s.centre["burrows"] or s.centre["parasites"])


def feeding_actions(s: MutState, p: int) -> list[dict]:
    tokens = token_actions(s, p)
    attacks = attack_actions(s, p)
    acts = tokens + attacks
    # no passing while a token could be played; Instinct: with the centre empty, an unfed
    # carnivore that can attack must
    if not tokens and not (attacks and centre_empty(s)):
        acts.append({"type": "pass"})
    return acts


def graze_max(s: MutState, p: int) -> int:
    """How many red tokens ``p``'s Grazing species may destroy this feeding turn."""
    return sum(len(sp["animals"]) for sp in s.rows[p] if "grazing" in traits_of(s, sp, p))


# --- applying actions ------------------------------------------------------------------------

def step(s: MutState, p, action, observer=None) -> list[dict]:
    """Apply ``action`` by player ``p`` to ``s`` in place; return the events.

    Every check happens before the first change, so an :class:`IllegalAction` leaves the
    state as it was."""
    check_action(action)
    if s.phase == "over":
        raise IllegalAction("game_over")
    waiting = to_act(s)
    check_turn(s, p, waiting)
    kind = action["type"]
    events = EventLog()
    if observer is not None:  # EventLog's own is None
        events.observer = observer
    pend = s.pending
    if pend is not None:
        want = PENDING[pend["kind"]]
        if kind != want:
            raise IllegalAction("choice_first", choice=pend["kind"])
        HANDLERS[kind](s, p, action, events)
        return events
    if kind in ("dark", "graze", "redirect", "eat", "scavenge", "lose"):
        raise IllegalAction("no_choice", action=kind)
    if s.phase == "development":
        if kind == "pass":
            _dev_pass(s, p, events)
        elif kind == "develop":
            _act_develop(s, p, action, events)
        else:
            raise IllegalAction("wrong_phase", action=kind, phase=s.phase)
        return events
    # feeding
    if kind == "develop":
        raise IllegalAction("wrong_phase", action=kind, phase=s.phase)
    HANDLERS[kind](s, p, action, events)
    return events


def _own_species(s: MutState, p: int, sid: int) -> dict:
    for sp in s.rows[p]:
        if sp["id"] == sid:
            return sp
    raise IllegalAction("not_your_species", species=sid)


def _own_animal(s: MutState, p: int, aid: int) -> tuple[dict, dict]:
    for sp in s.rows[p]:
        for a in sp["animals"]:
            if a["id"] == aid:
                return sp, a
    raise IllegalAction("not_your_animal", animal=aid)


# --- development ------------------------------------------------------------------------------

def _dev_pass(s: MutState, p: int, events: list) -> None:
    s.passed[p] = True
    events.append({"type": "pass", "player": p, "phase": "development", "forced": False})
    _dev_seek(s, events, next_player(s, p))


def _act_develop(s: MutState, p: int, action: dict, events: list) -> None:
    use = action["use"]
    deck = s.decks[p]
    if not deck:
        raise IllegalAction("deck_empty")
    if use == "species":
        c = deck.pop()
        sp = _new_species(s, p, c)
        events.append({"type": "new_species", "player": p, "species": sp["id"],
                       "reason": "declared"})
        _dev_seek(s, events, next_player(s, p))
        return
    sp = _own_species(s, p, action["species"])
    sid = sp["id"]
    if use == "trait":
        if len(sp["animals"]) != 1:
            raise IllegalAction("population_not_one", species=sid, animals=len(sp["animals"]))
        c = deck.pop()
        events.append({"type": "declare", "player": p, "use": "trait", "species": sid,
                       "card": c, "trait": TRAIT_OF[c]})
        if _place_trait(s, p, sp, c, events):
            _dev_seek(s, events, next_player(s, p))
        return
    # an animal: for the species (use "animal") or splitting it (use "split", Divergence)
    if use == "split" and not s.options["divergence"]:
        raise IllegalAction("no_divergence")
    row = s.rows[p]
    if use == "animal" and len(sp["animals"]) >= len(row):
        raise IllegalAction("population_cap", species=sid, animals=len(sp["animals"]),
                            cap=len(row))
    extremo = "extremophile" in traits_of(s, sp, p)
    if extremo and len(deck) < 2:
        raise IllegalAction("extremophile_needs_two", species=sid, deck=len(deck))
    c = deck.pop()
    if use == "animal":
        sp["animals"].append(_animal(s, c))
        events.append({"type": "new_animal", "player": p, "species": sid,
                       "animal": sp["animals"][-1]["id"], "reason": "declared"})
    else:
        at = row.index(sp) + 1
        new = _new_species(s, p, c, parent=sid, at=at)
        events.append({"type": "split", "player": p, "species": sid, "new": new["id"]})
    if extremo:
        _extremophile_discard(s, p, sid, events)
    _dev_seek(s, events, next_player(s, p))


def _extremophile_discard(s: MutState, p: int, sid: int, events: list) -> None:
    d = s.decks[p].pop()
    s.removed.append(d)
    s.lost[p] += 1
    events.append({"type": "extremophile", "player": p, "species": sid})


def _place_trait(s: MutState, p: int, sp: dict, c: str, events: list) -> bool:
    """Play trait card ``c`` declared for species ``sp``: there, or passed along the row to the
    right, or as a new species. False when the owner must choose (a dark first trait)."""
    t = TRAIT_OF[c]
    row = s.rows[p]
    target = None
    for x in row[row.index(sp):]:
        if can_take_trait(s, p, x, t):
            target = x
            break
    if target is None:
        new = _new_species(s, p, c)
        events.append({"type": "new_species", "player": p, "species": new["id"],
                       "reason": "no_place", "card": c, "trait": t})
        return True
    if target is not sp:
        events.append({"type": "trait_passes", "player": p, "from": sp["id"],
                       "to": target["id"], "trait": t})
    if t in DARK and not target["traits"] and t != "simplification":
        s.pending = {"kind": "dark", "player": p, "card": c, "species": target["id"]}
        events.append({"type": "dark_choice", "player": p, "species": target["id"],
                       "trait": t})
        return False
    _attach(s, p, target, c, events)
    return True


def _attach(s: MutState, p: int, sp: dict, c: str, events: list) -> None:
    t = TRAIT_OF[c]
    if t != "simplification":
        sp["traits"].append(c)
        events.append({"type": "trait", "player": p, "species": sp["id"], "trait": t})
        return
    # Simplification: the last trait played here and Simplification become two new species
    if sp["traits"]:
        last = sp["traits"].pop()
        a = _new_species(s, p, last)
        b = _new_species(s, p, c)
        events.append({"type": "simplification", "player": p, "species": sp["id"],
                       "removed": TRAIT_OF[last], "new": [a["id"], b["id"]]})
    else:
        b = _new_species(s, p, c)
        events.append({"type": "simplification", "player": p, "species": sp["id"],
                       "removed": None, "new": [b["id"]]})


def _act_dark(s: MutState, p: int, action: dict, events: list) -> None:
    pend = s.pending
    found = find_species(s, pend["species"])
    c = pend["card"]
    s.pending = None
    if action["play"] == "species" or found is None:
        new = _new_species(s, p, c)
        events.append({"type": "new_species", "player": p, "species": new["id"],
                       "reason": "dark", "card": c, "trait": TRAIT_OF[c]})
    else:
        _attach(s, p, found[1], c, events)
    _dev_seek(s, events, next_player(s, p))


def _dev_seek(s: MutState, events: list, start: int) -> None:
    """The next player to develop from ``start`` on: those with an empty deck pass; when all
    have passed the phase ends."""
    for q in order_from(s, start):
        if s.passed[q]:
            continue
        if not s.decks[q]:
            s.passed[q] = True
            events.append({"type": "pass", "player": q, "phase": "development", "forced": True})
            continue
        s.current = q
        return
    events.append({"type": "phase_end", "phase": "development", "turn": s.turn})
    observe(s, events, "development")
    _climate(s, events)


# --- the start of a turn ------------------------------------------------------------------------

def _start_turn(s: MutState, events: list) -> None:
    n = s.n
    if s.turn > 0:
        s.first = next_player(s, s.first)
    s.turn += 1
    for p in order_from(s, s.first):
        if nothing_left(s, p) and s.main:
            got = [s.main.pop() for _ in range(min(NEW_DECK, len(s.main)))]
            s.decks[p] = got
            events.append({"type": "new_deck", "player": p, "count": len(got)})
    s.last = not s.main
    events.append({"type": "turn_start", "turn": s.turn, "first": s.first, "last": s.last,
                   "main": len(s.main)})
    for p in order_from(s, s.first):
        for sp in list(s.rows[p]):
            tr = traits_of(s, sp, p)
            if "budding" not in tr:
                continue
            extremo = "extremophile" in tr
            deck = s.decks[p]
            if not deck or (extremo and len(deck) < 2):
                continue
            sp["animals"].append(_animal(s, deck.pop()))
            events.append({"type": "new_animal", "player": p, "species": sp["id"],
                           "animal": sp["animals"][-1]["id"], "reason": "budding"})
            if extremo:
                _extremophile_discard(s, p, sp["id"], events)
    s.phase = "development"
    s.passed = [False] * n
    s.pending = None
    _dev_seek(s, events, s.first)


# --- climate ------------------------------------------------------------------------------------

def _climate(s: MutState, events: list) -> None:
    table = climate_dice(s.n)
    s.centre = {"food": 0, "burrows": 0, "parasites": 0}
    box = supply(s)
    got = {}
    for k in ("food", "burrows", "parasites"):
        dice, plus = table[k]
        faces = [roll(s) for _ in range(dice)]
        s.dice[k] = faces
        total = sum(faces) + plus
        if k != "food":
            total = min(total, box[k])
        got[k] = total
    s.centre = dict(got)
    events.append({"type": "climate", "player": s.first, "dice": {k: list(v) for k, v in
                                                                   s.dice.items()},
                   **got})
    observe(s, events, "climate")
    s.phase = "feeding"
    s.passes = 0
    s.grazed = False
    s.current = s.first
    _feed_seek(s, events)


# --- feeding ------------------------------------------------------------------------------------

def _feed_seek(s: MutState, events: list) -> None:
    """Set up the current player's feeding turn: Grazing first, forced passes, the end."""
    while True:
        if s.passes >= s.n:
            _end_feeding(s, events)
            return
        p = s.current
        if not s.grazed:
            g = graze_max(s, p)
            if g and s.centre["food"]:
                s.pending = {"kind": "graze", "player": p, "max": g}
                return
        # feeding_actions(s, p) == [pass]: no token play and no attack
        if next(_token_plays(s, p), None) is None and next(_attack_plays(s, p), None) is None:
            events.append({"type": "pass", "player": p, "phase": "feeding", "forced": True})
            _next_feeder(s, passed=True)
            continue
        return


def _next_feeder(s: MutState, passed: bool) -> None:
    s.passes = s.passes + 1 if passed else 0
    s.current = next_player(s, s.current)
    s.grazed = False


def _feed_done(s: MutState, events: list) -> None:
    """The current player's feeding turn ended with a token or an attack."""
    s.pending = None
    _next_feeder(s, passed=False)
    _feed_seek(s, events)


def _act_graze(s: MutState, p: int, action: dict, events: list) -> None:
    k = action["count"]
    top = min(s.pending["max"], s.centre["food"])
    if not 0 <= k <= top:
        raise IllegalAction("bad_count", count=k, max=top)
    s.pending = None
    s.grazed = True
    if k:
        s.centre["food"] -= k
        events.append({"type": "graze", "player": p, "count": k})
    _feed_seek(s, events)


def _feed_pass(s: MutState, p: int, events: list) -> None:
    if next(_token_plays(s, p), None) is not None:
        raise IllegalAction("must_play_token")
    if centre_empty(s) and next(_attack_plays(s, p), None) is not None:
        raise IllegalAction("must_attack")
    events.append({"type": "pass", "player": p, "phase": "feeding", "forced": False})
    _next_feeder(s, passed=True)
    _feed_seek(s, events)


def _act_pass(s: MutState, p: int, action: dict, events: list) -> None:
    _feed_pass(s, p, events)


def _act_food(s: MutState, p: int, action: dict, events: list) -> None:
    sp, a = _own_animal(s, p, action["animal"])
    if not s.centre["food"]:
        raise IllegalAction("no_token", token="food")
    tr = traits_of(s, sp, p)
    if "obligate_carnivore" in tr:
        raise IllegalAction("obligate_no_food", animal=a["id"])
    if is_fed(a, tr):
        raise IllegalAction("already_fed", animal=a["id"])
    s.centre["food"] -= 1
    a["red"] += 1
    events.append({"type": "food", "player": p, "species": sp["id"], "animal": a["id"],
                   "fed": is_fed(a, tr)})
    _feed_done(s, events)


def _act_burrow(s: MutState, p: int, action: dict, events: list) -> None:
    sp, a = _own_animal(s, p, action["animal"])
    if not s.centre["burrows"]:
        raise IllegalAction("no_token", token="burrows")
    tr = traits_of(s, sp, p)
    beetle = "bark_beetle" in tr and "obligate_carnivore" not in tr and not is_fed(a, tr)
    if not beetle and a["burrow"]:
        raise IllegalAction("has_burrow", animal=a["id"])
    s.centre["burrows"] -= 1
    if beetle:  # Bark Beetle: the green goes back to the box, the animal takes blue food
        a["blue"] += min(BARK_BEETLE_BLUE, need(tr) - food_of(a))
        events.append({"type": "bark_beetle", "player": p, "species": sp["id"],
                       "animal": a["id"], "fed": is_fed(a, tr)})
    else:
        a["burrow"] = True
        events.append({"type": "burrow", "player": p, "species": sp["id"], "animal": a["id"]})
    _feed_done(s, events)


def _act_parasite(s: MutState, p: int, action: dict, events: list) -> None:
    if not s.centre["parasites"]:
        raise IllegalAction("no_token", token="parasites")
    found = find_animal(s, action["animal"])
    if found is None:
        raise IllegalAction("no_such_animal", animal=action["animal"])
    q, sp, a = found
    if q == p:
        raise IllegalAction("parasite_on_own", animal=a["id"])
    s.centre["parasites"] -= 1
    a["parasites"] += 1
    events.append({"type": "parasite", "player": p, "owner": q, "species": sp["id"],
                   "animal": a["id"]})
    _feed_done(s, events)


def _act_attack(s: MutState, p: int, action: dict, events: list) -> None:
    sp, a = _own_animal(s, p, action["animal"])
    tr = traits_of(s, sp, p)
    if not CARNIVORES.intersection(tr):
        raise IllegalAction("not_carnivore", animal=a["id"])
    if a["attacked"]:
        raise IllegalAction("already_attacked", animal=a["id"])
    if is_fed(a, tr):
        raise IllegalAction("already_fed", animal=a["id"])
    found = find_species(s, action["target"])
    if found is None:
        raise IllegalAction("no_such_species", species=action["target"])
    q, tgt = found
    if tgt is sp:
        raise IllegalAction("own_species", species=tgt["id"])
    ignore = action.get("ignore")
    if ignore is not None:
        tt = traits_of(s, tgt, q)
        if "development_defects" not in tt:
            raise IllegalAction("no_defects", species=tgt["id"])
        if ignore not in IGNORABLE or ignore not in tt:
            raise IllegalAction("cannot_ignore", species=tgt["id"], trait=ignore)
    if not attackable(s, tr, sp["id"], tgt, q, ignore):
        raise IllegalAction("not_attackable", species=tgt["id"])
    a["attacked"] = True
    events.append({"type": "attack", "player": p, "species": sp["id"], "animal": a["id"],
                   "owner": q, "target": tgt["id"], "ignore": ignore})
    ctx = {"attacker": a["id"], "owner": p, "target": tgt["id"], "ignore": ignore,
           "visited": [tgt["id"]], "mimicry": False}
    _resolve_attack(s, ctx, events)


def _resolve_attack(s: MutState, ctx: dict, events: list) -> None:
    """The attack of ``ctx["attacker"]`` on species ``ctx["target"]``: Mimicry (the owner may
    send it to another of their species), Running, then the meal."""
    q, tgt = find_species(s, ctx["target"])
    _, asp, att = find_animal(s, ctx["attacker"])
    atr = traits_of(s, asp, ctx["owner"])
    tt = [t for t in traits_of(s, tgt, q) if t != ctx["ignore"]]
    if "mimicry" in tt and not ctx["mimicry"]:
        options = [x["id"] for x in s.rows[q] if x["id"] not in ctx["visited"]
                   and attackable(s, atr, asp["id"], x, q)]
        if options:
            s.pending = {"kind": "mimicry", "player": q, **ctx,
                         "options": [tgt["id"], *options]}
            events.append({"type": "mimicry_choice", "player": q, "species": tgt["id"]})
            return
    if "running" in tt:
        die = roll(s)
        escaped = die in RUNNING_ESCAPE
        events.append({"type": "running", "owner": q, "species": tgt["id"], "die": die,
                       "escaped": escaped})
        if escaped:
            _feed_done(s, events)
            return
    victims = edible(s, tgt, tt)
    if len(victims) == 1:
        _eat(s, ctx, victims[0]["id"], events)
        return
    s.pending = {"kind": "eat", "player": q, **ctx, "options": [v["id"] for v in victims]}
    events.append({"type": "eat_choice", "player": q, "species": tgt["id"]})


def _act_redirect(s: MutState, p: int, action: dict, events: list) -> None:
    pend = s.pending
    t = action["target"]
    if t not in pend["options"]:
        raise IllegalAction("bad_redirect", target=t)
    ctx = {k: pend[k] for k in ("attacker", "owner", "target", "ignore", "visited", "mimicry")}
    s.pending = None
    if t == ctx["target"]:
        ctx["mimicry"] = True
        events.append({"type": "redirect", "player": p, "from": t, "to": t})
    else:
        events.append({"type": "redirect", "player": p, "from": ctx["target"], "to": t})
        ctx["target"] = t
        ctx["ignore"] = None
        ctx["visited"] = [*ctx["visited"], t]
    _resolve_attack(s, ctx, events)


def _act_eat(s: MutState, p: int, action: dict, events: list) -> None:
    pend = s.pending
    if action["animal"] not in pend["options"]:
        raise IllegalAction("bad_choice", animal=action["animal"])
    ctx = {k: pend[k] for k in ("attacker", "owner", "target", "ignore", "visited", "mimicry")}
    s.pending = None
    _eat(s, ctx, action["animal"], events)


def _remove_animal(s: MutState, q: int, sp: dict, a: dict) -> bool:
    """Animal ``a`` of ``q``'s species ``sp`` leaves the game with its tokens; True when the
    species died out (its trait cards leave too; species split from it keep going)."""
    sp["animals"].remove(a)
    s.removed.append(a["card"])
    s.lost[q] += 1
    if sp["animals"]:
        return False
    s.removed.extend(sp["traits"])
    s.lost[q] += len(sp["traits"])
    row = s.rows[q]
    for x in row:
        if x["parent"] == sp["id"]:
            x["parent"] = sp["parent"]
    row.remove(sp)
    return True


def _eat(s: MutState, ctx: dict, aid: int, events: list) -> None:
    q, tgt = find_species(s, ctx["target"])
    tt = [t for t in traits_of(s, tgt, q) if t != ctx["ignore"]]
    victim = next(a for a in tgt["animals"] if a["id"] == aid)
    gone = _remove_animal(s, q, tgt, victim)
    events.append({"type": "eaten", "player": ctx["owner"], "owner": q, "species": tgt["id"],
                   "animal": aid, "extinct": gone})
    p = ctx["owner"]
    _, asp, att = find_animal(s, ctx["attacker"])
    atr = traits_of(s, asp, p)
    if "poisonous" in tt:
        gone = _remove_animal(s, p, asp, att)
        events.append({"type": "poisoned", "player": p, "species": asp["id"],
                       "animal": att["id"], "extinct": gone})
    else:
        want = need(atr) - food_of(att)
        got = want if "obligate_carnivore" in atr else min(CARNIVORE_BLUE, want)
        att["blue"] += max(0, got)
        events.append({"type": "meal", "player": p, "species": asp["id"], "animal": att["id"],
                       "blue": max(0, got), "fed": is_fed(att, atr)})
    _scavenger(s, p, events)


def scavengers(s: MutState, q: int) -> list[int]:
    """``q``'s unfed animals of Scavenger species."""
    out = []
    for sp in s.rows[q]:
        tr = traits_of(s, sp, q)
        if "scavenger" in tr:
            nd = need(tr)  # is_fed, the species' need counted once
            out.extend(a["id"] for a in sp["animals"] if a["red"] + a["blue"] < nd)
    return out


def _scavenger(s: MutState, carnivore_owner: int, events: list) -> None:
    for q in order_from(s, carnivore_owner):
        options = scavengers(s, q)
        if not options:
            continue
        if len(options) == 1:
            _scavenge(s, q, options[0], events)
        else:
            s.pending = {"kind": "scavenge", "player": q, "options": options}
            events.append({"type": "scavenge_choice", "player": q})
            return
        break
    _feed_done(s, events)


def _scavenge(s: MutState, q: int, aid: int, events: list) -> None:
    _, sp, a = find_animal(s, aid)
    tr = traits_of(s, sp, q)
    got = min(SCAVENGER_BLUE, need(tr) - food_of(a))
    a["blue"] += got
    events.append({"type": "scavenge", "player": q, "species": sp["id"], "animal": aid,
                   "fed": is_fed(a, tr)})


def _act_scavenge(s: MutState, p: int, action: dict, events: list) -> None:
    if action["animal"] not in s.pending["options"]:
        raise IllegalAction("bad_choice", animal=action["animal"])
    s.pending = None
    _scavenge(s, p, action["animal"], events)
    _feed_done(s, events)


def _end_feeding(s: MutState, events: list) -> None:
    left = dict(s.centre)
    s.centre = {"food": 0, "burrows": 0, "parasites": 0}
    events.append({"type": "phase_end", "phase": "feeding", "turn": s.turn, "left": left})
    observe(s, events, "feeding")
    _extinction(s, events)


# --- extinction ----------------------------------------------------------------------------------

def _extinction(s: MutState, events: list) -> None:
    s.phase = "extinction"
    s.current = s.first
    best = 0
    tied: list[int] = []
    for p in order_from(s, s.first):
        for sp in s.rows[p]:
            k = sum(a["parasites"] for a in sp["animals"])
            if k > best:
                best, tied = k, [sp["id"]]
            elif k == best and k > 0:
                tied.append(sp["id"])
    s.queue = tied
    _parasite_losses(s, events)


def _parasite_losses(s: MutState, events: list) -> None:
    while s.queue:
        sid = s.queue[0]
        found = find_species(s, sid)
        if found is None:
            s.queue.pop(0)
            continue
        q, sp = found
        options = [a["id"] for a in sp["animals"] if a["parasites"] > 0]
        if len(options) > 1:
            s.pending = {"kind": "lose", "player": q, "species": sid, "options": options}
            events.append({"type": "lose_choice", "player": q, "species": sid})
            return
        s.queue.pop(0)
        _lose(s, q, sp, options[0], events)
    _starvation(s, events)


def _lose(s: MutState, q: int, sp: dict, aid: int, events: list) -> None:
    a = next(x for x in sp["animals"] if x["id"] == aid)
    gone = _remove_animal(s, q, sp, a)
    events.append({"type": "parasite_loss", "player": q, "species": sp["id"], "animal": aid,
                   "extinct": gone})


def _act_lose(s: MutState, p: int, action: dict, events: list) -> None:
    pend = s.pending
    if action["animal"] not in pend["options"]:
        raise IllegalAction("bad_choice", animal=action["animal"])
    _, sp = find_species(s, pend["species"])
    s.pending = None
    s.queue.pop(0)
    _lose(s, p, sp, action["animal"], events)
    _parasite_losses(s, events)


def _starvation(s: MutState, events: list) -> None:
    for p in order_from(s, s.first):
        hungry = []
        for sp in s.rows[p]:
            nd = need(traits_of(s, sp, p))  # is_fed, the species' need counted once
            hungry.extend((sp, a) for a in sp["animals"] if a["red"] + a["blue"] < nd)
        for sp, a in hungry:
            gone = _remove_animal(s, p, sp, a)
            events.append({"type": "starved", "player": p, "species": sp["id"],
                           "animal": a["id"], "extinct": gone})
    for row in s.rows:
        for sp in row:
            for a in sp["animals"]:
                a["red"] = a["blue"] = 0
                a["burrow"] = False
                a["attacked"] = False
    s.dice = {"food": [], "burrows": [], "parasites": []}
    if s.last:
        events.append({"type": "phase_end", "phase": "extinction", "turn": s.turn})
        _end_game(s, events)
        observe(s, events, "extinction")
        return
    # A player left with no animal and no card takes no part in the draw: the new deck of
    # NEW_DECK cards replaces it, at the start of the next turn (_start_turn). Otherwise the
    # draw's 2 cards would always come first and the rule could never apply.
    want = [0 if nothing_left(s, p) else animals_of(s, p) + DRAW_EXTRA for p in range(s.n)]
    got = [0] * s.n
    order = order_from(s, s.first)
    while s.main and any(got[p] < want[p] for p in order):
        for p in order:
            if got[p] < want[p] and s.main:
                s.decks[p].append(s.main.pop())
                got[p] += 1
    # the cards drawn go under the personal deck (it is played from the top)
    for p in range(s.n):
        if got[p]:
            drawn = s.decks[p][-got[p]:]
            s.decks[p][-got[p]:] = []
            s.decks[p][:0] = drawn
    events.append({"type": "draw", "counts": got, "main": len(s.main)})
    events.append({"type": "phase_end", "phase": "extinction", "turn": s.turn})
    observe(s, events, "extinction")
    _start_turn(s, events)


# --- the end ---------------------------------------------------------------------------------------

def score(s: MutState, p: int) -> dict:
    """``p``'s points now: 2 per animal, 1 per trait card and each card's food bonus."""
    animals = traits = bonus = 0
    for sp in s.rows[p]:
        animals += len(sp["animals"])
        traits += len(sp["traits"])
        bonus += sum(FOOD[TRAIT_OF[c]] for c in sp["traits"])
    total = animals * POINTS_ANIMAL + traits * POINTS_TRAIT + bonus
    return {"animals": animals, "traits": traits, "bonus": bonus, "total": total}


def ranking(s: MutState) -> list[dict]:
    """Most points first; ties: most cards lost from the game; then shared."""
    rows = [{"player": p, "score": score(s, p)["total"], "lost": s.lost[p]}
            for p in range(s.n)]
    rank_rows(rows, lambda r: (r["score"], r["lost"]))
    return [{"player": r["player"], "rank": r["rank"], "score": r["score"], "lost": r["lost"]}
            for r in rows]


def _end_game(s: MutState, events: list) -> None:
    s.phase = "over"
    s.pending = None
    s.queue = []
    s.result = ranking(s)
    events.append({"type": "game_over", "scores": [score(s, p) for p in range(s.n)],
                   "ranking": [dict(r) for r in s.result]})


HANDLERS = {
    "pass": _act_pass,
    "dark": _act_dark,
    "graze": _act_graze,
    "food": _act_food,
    "burrow": _act_burrow,
    "parasite": _act_parasite,
    "attack": _act_attack,
    "redirect": _act_redirect,
    "eat": _act_eat,
    "scavenge": _act_scavenge,
    "lose": _act_lose,
}
