"""Evolution: Climate's rules: setup, the five phases of a round, the end and the scores.

The flow is a small state machine: ``state.phase`` ("food", "play", "green", "feeding",
"over"; Deal and Modify environment run on their own) and ``state.current`` (whose turn it is
in a sequential step). :func:`step` checks an action completely, then applies it and runs
every automatic step (the reveal, green traits with one possible order, the climate, the
events, losses, plants, starvation, the next Deal) until some player must decide again.

Secret simultaneous steps (the food cards; the Quick game's play phase): every awaited player
acts in any order; such a move changes only its player's ``keys`` entry and its events carry
no content; the move that completes the step is public and its events reveal everything.
"""

from __future__ import annotations

from engine.base import EventLog, check_seats, check_turn, observe
from engine.climate import data as DATA
from engine.climate.data import (
    BODY,
    CARDS,
    CAUSE,
    COLD,
    DECKS,
    EVENTS,
    GREEN,
    HEAT,
    HEAT_PENALTY,
    ICONS,
    MAX_BODY,
    MAX_PLAYERS,
    MAX_POP,
    MIN_PLAYERS,
    NUM,
    PENALTY_ZONES,
    PLANTS,
    SHIFT,
    SNOWS,
    START,
    SUNS,
    THAW_SUNS,
    TRAIT_OF,
    ZONES,
    always_quick,
    card_info,
    event_info,
    max_traits,
    side_for,
    zone_plants,
)
from engine.climate.position import (
    DEFENSIVE,
    face_up,
    find_species,
    green_effective,
    hibernating,
    hungry,
    is_quick,
    order_from,
    public_position,
    room,
    to_act,
)
from engine.climate.state import ClimateState
from engine.core import (
    IllegalAction,
    check_shape,
    fits,
    plain_shapes,
    rank_rows,
    shuffle,
)
from engine.core import below as rand_below

OPTIONS = {"events": True, "quick": False}
SIDES = ("left", "right")
GROWTH = ("body", "pop")
SHELL = NUM["attack"]["hard_shell"]
FRILLS = NUM["attack"]["cooling_frills"]
HORNS = NUM["attack"]["horns"]
SCAVENGE = NUM["attack"]["scavenger"]
F = NUM["feeding"]

ACTION_SHAPES = {
    "food": {"card": str},
    "trait": {"card": str, "species": int},
    "species": {"card": str, "side": str},
    "grow": {"card": str, "species": int, "what": str},
    "remove": {"species": int, "card": str},
    "exchange": {"card": str},
    "done": {},
    "green": {"species": int, "trait": str},
    "feed": {"species": int},
    "attack": {"species": int, "target": int},
    "intelligence": {"species": int, "card": str},
    "negate": {"species": int, "card": str, "trait": str},
    "pass": {},
}
# an attack may also name the hand card discarded for Mud Wallowing ("discard") and the trait
# an Ambush attacker ignores on a Migratory target ("ignore")
ATTACK_SHAPES = {
    frozenset(): ACTION_SHAPES,
    frozenset({"discard"}): {"attack": {"species": int, "target": int, "discard": str}},
    frozenset({"ignore"}): {"attack": {"species": int, "target": int, "ignore": str}},
    frozenset({"discard", "ignore"}): {"attack": {"species": int, "target": int,
                                                  "discard": str, "ignore": str}},
}


_PLAIN = plain_shapes(ACTION_SHAPES)


def check_action(action) -> None:
    """Refuse an action whose shape is not exactly one of ``ACTION_SHAPES`` (with the extra
    keys of an attack), before the rules look at the position."""
    if fits(action, _PLAIN):  # the well-formed actions at once (engine.core)
        return
    if isinstance(action, dict) and action.get("type") == "attack":
        extra = frozenset(k for k in ("discard", "ignore") if k in action)
        check_shape(action, ATTACK_SHAPES[extra])
    else:
        check_shape(action, ACTION_SHAPES)


# --- events ---------------------------------------------------------------------------------

# --- small helpers ----------------------------------------------------------------------------

def own_species(s: ClimateState, p: int, sid) -> tuple[int, dict]:
    for i, sp in enumerate(s.rows[p]):
        if sp["id"] == sid:
            return i, sp
    raise IllegalAction("not_your_species", species=sid)


def icons(s: ClimateState) -> tuple[int, int]:
    """(suns, snowflakes) of the food cards on the Watering Hole, with a Thaw's suns."""
    suns = snows = 0
    for c in s.food:
        if c is not None:
            suns += SUNS[c]
            snows += SNOWS[c]
    if s.thaw is not None:
        suns += THAW_SUNS
    return suns, snows


def _bump(s: ClimateState, secret_of: int | None = None) -> None:
    """A public change (every key moves) or ``secret_of``'s own secret move."""
    if secret_of is None:
        s.step += 1
        s.keys = [k + 1 for k in s.keys]
    else:
        s.keys[secret_of] += 1


# --- setup ----------------------------------------------------------------------------------

def new_game(seats, seed: int, options: dict | None = None,
             observer=None) -> tuple[ClimateState, list]:
    options = dict(options or {})
    for k, v in options.items():
        if k not in OPTIONS:
            raise IllegalAction("unknown_option", option=k)
        if type(v) is not bool:
            raise IllegalAction("bad_option", option=k)
    n = check_seats(seats, MIN_PLAYERS, MAX_PLAYERS)
    s = ClimateState()
    s.seats = [seat.to_json() for seat in seats]
    s.options = {"events": options.get("events", OPTIONS["events"]),
                 "quick": options.get("quick", OPTIONS["quick"]) or always_quick(n)}
    s.seed = int(seed)
    s.rng = int(seed) & ((1 << 64) - 1)
    s.deck = list(CARDS)
    shuffle(s, s.deck)
    k = DATA.set_aside(n)
    s.set_aside = s.deck[len(s.deck) - k:] if k else []
    del s.deck[len(s.deck) - k:]
    s.hands = [[] for _ in range(n)]
    s.food = [None] * n
    s.rows = [[] for _ in range(n)]
    s.next_sid = [1] * n
    s.bags = [0] * n
    s.zone = START
    s.event_decks = {"cold": list(DECKS["cold"]), "hot": list(DECKS["hot"])}
    s.event_up = {"cold": None, "hot": None}
    if s.options["events"]:
        for d in ("cold", "hot"):
            shuffle(s, s.event_decks[d])
            s.event_up[d] = s.event_decks[d].pop()
    s.done = [False] * n
    s.back = [[] for _ in range(n)]
    s.held = [[] for _ in range(n)]
    s.passed = [False] * n
    s.keys = [0] * n
    s.first = rand_below(s, n)
    events = EventLog()
    events.observer = observer
    events.append({"type": "setup", "first": s.first, "players": n, "deck": len(s.deck),
                   "set_aside": len(s.set_aside), "zone": ZONES[s.zone],
                   "events": s.options["events"], "quick": s.options["quick"],
                   "up": {d: None if s.event_up[d] is None else event_info(s.event_up[d])
                          for d in ("cold", "hot")}})
    _start_round(s, events)
    return s, events


def _new_species(s: ClimateState, p: int, side: str = "right") -> dict:
    sp = {"id": 1000 * (p + 1) + s.next_sid[p], "body": 1, "pop": 1, "food": 0, "fat": 0,
          "traits": [], "down": []}
    s.next_sid[p] += 1
    if side == "left":
        s.rows[p].insert(0, sp)
    else:
        s.rows[p].append(sp)
    return sp


# --- the draw deck ----------------------------------------------------------------------------

def _draw(s: ClimateState, p: int, k: int, events: list, at_deal: bool = False) -> int:
    """``p`` draws ``k`` cards; when the draw deck runs out it is rebuilt (the set-aside
    cards, else the shuffled discards) and the game's last round is set. Returns the count
    drawn (fewer only when no card is left anywhere)."""
    hand = s.hands[p]
    deck = s.deck
    if 0 < k < len(deck):  # the deck does not run out: the same cards, top first, at once
        hand.extend(deck[:-k - 1:-1])
        del deck[-k:]
        return k
    got = 0
    for _ in range(k):
        if not s.deck:
            _refill(s, events)
            if not s.deck:
                break
        hand.append(s.deck.pop())
        got += 1
        if not s.deck:
            _ran_out(s, events, at_deal)
    return got


def _ran_out(s: ClimateState, events: list, at_deal: bool) -> None:
    if not s.last:
        if at_deal:
            s.last = True
        else:
            s.final_next = True
    refill = _refill(s, events)
    events.append({"type": "deck_out", "refill": refill, "deck": len(s.deck),
                   "last": s.last, "final_next": s.final_next})


def _refill(s: ClimateState, events: list) -> str | None:
    if s.set_aside:
        s.deck = s.set_aside
        s.set_aside = []
        return "set_aside"
    if s.discard:
        s.deck = s.discard
        s.discard = []
        shuffle(s, s.deck)
        return "discard"
    return None


# --- who acts, and what they may do -------------------------------------------------------

def legal_actions(s: ClimateState, p: int) -> list[dict]:
    ph = s.phase
    if ph == "over":
        return []
    # is p awaited (p in to_act(s))? A seat's index is read directly; any other value, a bool
    # included, asks to_act's list, as before
    if type(p) is int and 0 <= p < len(s.seats):
        if ph == "food":
            if s.food[p] is not None or not s.hands[p]:
                return []
            food = _FOOD
            return [food[c] for c in s.hands[p]]
        if ph == "play":
            if s.done[p] if s.options["quick"] else p != s.current:
                return []
            return play_actions(s, p)
        if p != s.current:
            return []
    elif p not in to_act(s):
        return []
    if ph == "food":
        food = _FOOD
        return [food[c] for c in s.hands[p]]
    if ph == "play":
        return play_actions(s, p)
    if ph == "green":
        return [{"type": "green", "species": sid, "trait": t} for sid, t in green_effective(s)]
    acts, mandatory = feeding_options(s, p)
    if not mandatory:
        acts.append({"type": "pass"})
    return acts


def can_take_trait(s: ClimateState, sp: dict, c: str) -> bool:
    t = TRAIT_OF[c]
    return len(sp["traits"]) < max_traits(s.n) and all(TRAIT_OF[x] != t for x in sp["traits"])


# The actions that name one hand card and nothing of the position, one per card, built once
# and handed out as they are: legal_actions' dicts may be shared between calls (no caller
# changes an action it is given: the host, the AI levels and the search only read them, and
# the rules never change one; copy an action before changing it).
_SPECIES_LEFT = {c: {"type": "species", "card": c, "side": "left"} for c in CARDS}
_SPECIES_RIGHT = {c: {"type": "species", "card": c, "side": "right"} for c in CARDS}
_SPECIES_SIDES = {c: (_SPECIES_LEFT[c], _SPECIES_RIGHT[c]) for c in CARDS}
_EXCHANGE = {c: {"type": "exchange", "card": c} for c in CARDS}
_FOOD = {c: {"type": "food", "card": c} for c in CARDS}
_DONE = {"type": "done"}
_NO_TRAITS: frozenset[str] = frozenset()
_TRAIT_NAME = TRAIT_OF.__getitem__
# The actions naming a species and a card (its trait action, its two growths), shared the
# same way: per species id, three lists with a slot per card (CARDS' order), each action made
# when first asked, then the species id and what the list holds ("trait", "body", "pop").
# Species ids repeat from game to game (1001, 1002, 2001...), so a process soon has the
# actions it needs; at most _SHARED_MAX of them are kept (each about 200 bytes, holding
# strings and ints only: the collector never walks them), then all are let go.
_CARD_INDEX = {c: i for i, c in enumerate(CARDS)}
_PER_SPECIES: dict[int, tuple[list, list, list]] = {}
_SHARED_MAX = 12_000
_shared = [0]  # the actions in _PER_SPECIES' lists
_N_CARDS = len(CARDS)


def _species_slots(sid: int) -> tuple[list, list, list]:
    slots = tuple([None] * _N_CARDS + [sid, what] for what in ("trait", "body", "pop"))
    if type(sid) is int and 1000 < sid < 7000:  # a species id
        _PER_SPECIES[sid] = slots
    return slots


def _made(slot: list, i: int, c: str) -> dict:
    """Card ``c``'s action of ``slot``'s list, made and kept (the first time it is asked);
    past _SHARED_MAX actions, every species' lists are let go (the lists in hand stay
    valid)."""
    sid, what = slot[_N_CARDS], slot[_N_CARDS + 1]
    if what == "trait":
        action = {"type": "trait", "card": c, "species": sid}
    else:
        action = {"type": "grow", "card": c, "species": sid, "what": what}
    slot[i] = action
    _shared[0] += 1
    if _shared[0] > _SHARED_MAX:
        _PER_SPECIES.clear()
        _shared[0] = 0
    return action


def play_actions(s: ClimateState, p: int) -> list[dict]:
    hand = s.hands[p]
    row = s.rows[p]
    back = s.back[p]
    if back:
        acts = [_EXCHANGE[c] for c in hand] if len(back) < len(s.deck) else []
        acts.append(_DONE)
        return acts
    limit = max_traits(len(s.seats))
    per = _PER_SPECIES
    # per species, once: the traits it holds with its trait actions' list when it may take
    # one more, and the lists of the growths it may make (body, then population)
    takers = []
    grows = []
    for sp in row:
        sid = sp["id"]
        slots = per.get(sid)
        if slots is None:
            slots = _species_slots(sid)
        traits = sp["traits"]
        if not traits:
            takers.append((_NO_TRAITS, slots[0]))
        else:
            have = set(map(_TRAIT_NAME, traits))
            if len(have) < limit:
                takers.append((have, slots[0]))
        if sp["body"] < MAX_BODY:
            grows.append(slots[1])
        if sp["pop"] < MAX_POP:
            grows.append(slots[2])
    exchange = _EXCHANGE if s.deck else None
    acts: list[dict] = []
    append = acts.append
    sides = _SPECIES_SIDES
    index = _CARD_INDEX
    for c in hand:
        i = index[c]
        if takers:
            t = TRAIT_OF[c]
            for have, slot in takers:
                if t not in have:
                    a = slot[i]
                    append(_made(slot, i, c) if a is None else a)
        acts += sides[c]  # left, then right
        for slot in grows:
            a = slot[i]
            append(_made(slot, i, c) if a is None else a)
        if exchange is not None:
            append(exchange[c])
    for sp in row:
        traits = sp["traits"]
        if traits:
            sid = sp["id"]
            for c in traits:
                append({"type": "remove", "species": sid, "card": c})
    append(_DONE)
    return acts


# --- attacks ------------------------------------------------------------------------------------

def _neighbours(row: list[dict], i: int) -> list[dict]:
    out = []
    if i > 0:
        out.append(row[i - 1])
    if i + 1 < len(row):
        out.append(row[i + 1])
    return out


def blockers(s: ClimateState, p: int, a: dict, q: int, ti: int, negated,
             ignore: str | None = None) -> list[str] | None:
    """Why carnivore ``a`` (``p``'s) cannot attack ``q``'s species at index ``ti``: the
    traits in the way (each may be cancelled with Intelligence), ``[]`` when it can, None
    when nothing can make it possible (its body size alone is too small). ``negated``: the
    traits cancelled for this attack; ``ignore``: the trait an Ambush attacker ignores on a
    Migratory target. Mud Wallowing and Horns are costs, not blockers."""
    at = face_up(a)
    return _blockers(s.rows[q], ti, a, at, a["body"] + (a["pop"] if "pack_hunting" in at else 0),
                     negated, ignore)


def _blockers(row: list[dict], ti: int, a: dict, at: list[str], size: int, negated,
              ignore: str | None) -> list[str] | None:
    """``blockers`` with the attacker's face-up traits ``at`` and attacking size read once
    by the caller (the body-size test first: it alone decides None)."""
    t = row[ti]
    if size <= t["body"]:
        return None
    if not t["traits"]:  # no trait: only a neighbour's Warning Call may be in the way
        if "ambush" not in at and "warning_call" not in negated and (
                (ti > 0 and row[ti - 1]["traits"] and "warning_call" in face_up(row[ti - 1]))
                or (ti + 1 < len(row) and row[ti + 1]["traits"]
                    and "warning_call" in face_up(row[ti + 1]))):
            return ["warning_call"]
        return []
    tt = set(face_up(t))
    tt.difference_update(negated)
    if ignore is not None:
        tt.discard(ignore)
    out: list[str] = []
    extra = (SHELL if "hard_shell" in tt else 0) + (FRILLS if "cooling_frills" in tt else 0)
    if size <= t["body"] + extra:
        # the fewest of Hard Shell / Cooling Frills to cancel
        if "cooling_frills" in tt and size > t["body"] + extra - FRILLS and \
                ("hard_shell" not in tt or FRILLS <= SHELL):
            out.append("cooling_frills")
        elif "hard_shell" in tt and size > t["body"] + extra - SHELL:
            out.append("hard_shell")
        else:
            out.extend(x for x in ("hard_shell", "cooling_frills") if x in tt)
    if "climbing" in tt and "climbing" not in at:
        out.append("climbing")
    if "defensive_herding" in tt and a["pop"] <= t["pop"]:
        out.append("defensive_herding")
    if "burrowing" in tt and not hungry(t, face_up(t)):
        out.append("burrowing")
    if "symbiosis" in tt and ti + 1 < len(row) and row[ti + 1]["body"] > t["body"]:
        out.append("symbiosis")
    if "ambush" not in at and "warning_call" not in negated and \
            any("warning_call" in face_up(x) for x in _neighbours(row, ti)):
        out.append("warning_call")
    return out


def _mud(s: ClimateState, t: dict, negated, ignore) -> bool:
    return "mud_wallowing" in face_up(t) and "mud_wallowing" not in negated and \
        ignore != "mud_wallowing"


def _negated(s: ClimateState, sid: int) -> set[str]:
    return {t for x, t in s.negated if x == sid}


def _ambush_ignores(a: dict, t: dict) -> list[str]:
    """What an Ambush attacker may ignore on target ``t`` (a Migratory species)."""
    if "ambush" not in face_up(a):
        return []
    up = face_up(t)
    if "migratory" not in up:
        return []
    return [x for x in up if x in DEFENSIVE]


def _open_attacks(s: ClimateState, a: dict):
    """Every attack carnivore ``a`` may make now, in the actions' order: (target, the trait an
    Ambush ignores or None, whether the target's Mud Wallowing makes it cost a card)."""
    neg = _negated(s, a["id"])
    at = face_up(a)
    size = a["body"] + (a["pop"] if "pack_hunting" in at else 0)
    ambush = "ambush" in at
    for q in range(s.n):
        row = s.rows[q]
        for ti, t in enumerate(row):
            if t is a or size <= t["body"]:  # too big: blockers is None whatever is ignored
                continue
            options = [None]
            if ambush:
                options.extend(_ambush_ignores(a, t))
            for ig in options:
                if not _blockers(row, ti, a, at, size, neg, ig):
                    yield t, ig, _mud(s, t, neg, ig)


def attack_actions(s: ClimateState, p: int, ai: int, a: dict) -> tuple[list[dict], bool]:
    """Every legal attack of ``p``'s carnivore ``a`` (index ``ai``) now, and whether one of
    them costs no card (a carnivore that can must eat)."""
    acts: list[dict] = []
    free = False
    hand = s.hands[p]
    for t, ig, mud in _open_attacks(s, a):
        base = {"type": "attack", "species": a["id"], "target": t["id"]}
        if ig is not None:
            base["ignore"] = ig
        if mud:
            for c in hand:
                acts.append(dict(base, discard=c))
        else:
            acts.append(base)
            free = True
    return acts, free


def _negate_useful(s: ClimateState, p: int, a: dict) -> list[str]:
    """The traits ``p`` may cancel with Intelligence for carnivore ``a``'s next attack: those
    blocking (either of Hard Shell and Cooling Frills when they make the target too big) or
    costing (Horns, Mud Wallowing) one of its possible attacks, and Scavengers in play."""
    neg = _negated(s, a["id"])
    useful: set[str] = set()
    at = face_up(a)
    size = a["body"] + (a["pop"] if "pack_hunting" in at else 0)
    for q in range(s.n):
        row = s.rows[q]
        for ti, t in enumerate(row):
            if t is a:
                continue
            up = face_up(t)
            if "scavenger" in up:
                useful.add("scavenger")
            b = _blockers(row, ti, a, at, size, neg, None)
            if b is None:
                continue
            useful.update(b)
            if "hard_shell" in b or "cooling_frills" in b:
                useful.update(x for x in ("hard_shell", "cooling_frills") if x in up)
            useful.update(x for x in ("horns", "mud_wallowing") if x in up)
    return sorted(useful - neg)


def could_eat(s: ClimateState, q: int, c: dict, p: int, ti: int) -> bool:
    """Could carnivore ``c`` (``q``'s) eat ``p``'s species at index ``ti`` now (for
    Nocturnal)? Fully fed carnivores cannot attack; an Intelligence carnivore can when its
    owner holds enough cards to cancel every trait in the way (and pay Mud Wallowing)."""
    if c["food"] >= c["pop"]:
        return False
    neg = _negated(s, c["id"])
    t = s.rows[p][ti]
    best = None
    for ig in [None, *_ambush_ignores(c, t)]:
        b = blockers(s, q, c, p, ti, neg, ig)
        if b is None:
            return False
        cost = len(b) + (1 if _mud(s, t, neg, ig) else 0)
        best = cost if best is None else min(best, cost)
    if best == 0:
        return True
    up = face_up(c)
    if "intelligence" in up:
        return best <= len(s.hands[q])
    # without Intelligence only Mud Wallowing's card may be paid
    for ig in [None, *_ambush_ignores(c, t)]:
        b = blockers(s, q, c, p, ti, neg, ig)
        if b == [] and len(s.hands[q]) >= 1:
            return True
    return False


def nocturnal_free(s: ClimateState, p: int, i: int, sp: dict) -> bool:
    """May ``p``'s species ``sp`` (index ``i``) use Nocturnal's free feeding now?"""
    if "nocturnal" not in face_up(sp) or sp["id"] in s.night:
        return False
    for q in range(s.n):
        for c in s.rows[q]:
            if c is not sp and "carnivore" in face_up(c) and could_eat(s, q, c, p, i):
                return False
    return True


def feeding_options(s: ClimateState, p: int) -> tuple[list[dict], bool]:
    """``p``'s feeding actions now (pass aside) and whether one of them is owed (a hungry
    species that can eat without paying a card must be fed)."""
    acts: list[dict] = []
    mandatory = False
    hand = s.hands[p]
    for i, sp in enumerate(s.rows[p]):
        sid = sp["id"]
        food = sp["food"]
        pop = sp["pop"]
        if not sp["traits"]:  # no trait: room and hunger are pop - food, plants only
            if food < pop and s.wh > 0:
                acts.append({"type": "feed", "species": sid})
                mandatory = True
            continue
        up = face_up(sp)
        must = food < pop - (F["hibernation"] if "hibernation" in up else 0)  # hungry
        if "carnivore" in up:
            if food < pop:
                att, free = attack_actions(s, p, i, sp)
                acts.extend(att)
                if free and must:
                    mandatory = True
                if "intelligence" in up and hand:
                    for t in _negate_useful(s, p, sp):
                        acts.extend({"type": "negate", "species": sid, "card": c, "trait": t}
                                    for c in hand)
            continue
        if pop - food + (sp["body"] - sp["fat"] if "fat_tissue" in up else 0) <= 0:  # room
            continue
        if s.wh > 0:
            acts.append({"type": "feed", "species": sid})
            if must:
                mandatory = True
        if "intelligence" in up:
            acts.extend({"type": "intelligence", "species": sid, "card": c} for c in hand)
    return acts, mandatory


def _can_attack(s: ClimateState, p: int, a: dict, free_only: bool) -> bool:
    """``attack_actions(s, p, ai, a)`` answered without building it: True when it has an
    attack that costs no card (``free_only``), or any attack; stops at the first."""
    costly_ok = bool(s.hands[p]) and not free_only  # a card to discard, and it may
    return any(costly_ok or not mud for _t, _ig, mud in _open_attacks(s, a))


def feeding_wanted(s: ClimateState, p: int, passed: bool) -> bool:
    """``feeding_options(s, p)`` answered without building it: True when one of its actions
    is owed, or (``passed`` False) when there is any; stops at the first that says so."""
    hand = s.hands[p]
    plants = s.wh > 0
    for sp in s.rows[p]:
        food = sp["food"]
        pop = sp["pop"]
        if not sp["traits"]:  # no trait: room and hunger are pop - food, plants only
            if plants and food < pop:
                return True
            continue
        up = face_up(sp)
        must = food < pop - (F["hibernation"] if "hibernation" in up else 0)  # hungry
        if "carnivore" in up:
            if food < pop and (must or not passed):
                # an owed attack costs no card; before a pass any attack or negate will do
                if _can_attack(s, p, sp, passed):
                    return True
                if not passed and "intelligence" in up and hand and _negate_useful(s, p, sp):
                    return True
            continue
        if pop - food + (sp["body"] - sp["fat"] if "fat_tissue" in up else 0) <= 0:  # room
            continue
        if plants and (must or not passed):
            return True
        if not passed and "intelligence" in up and hand:
            return True
    return False


# --- applying actions ------------------------------------------------------------------------

def step(s: ClimateState, p, action, observer=None) -> list[dict]:
    """Apply ``action`` by player ``p`` to ``s`` in place; return the events (a new list:
    ``CLIMATE.apply_in_place`` is this function).

    Every check happens before the first change, so an :class:`IllegalAction` leaves the
    state as it was."""
    if not fits(action, _PLAIN):  # check_action: its first test here, the rest there
        check_action(action)
    phase = s.phase
    if phase == "over":
        raise IllegalAction("game_over")
    # is p awaited? A seat's index is read directly (legal_actions' test); check_turn refuses
    # anyone else (a bool too, even one equal to a seat)
    if type(p) is int and 0 <= p < len(s.seats):
        if phase == "food":
            if s.food[p] is not None or not s.hands[p]:
                check_turn(s, p, to_act(s))
        elif phase == "play" and s.options["quick"]:
            if s.done[p]:
                check_turn(s, p, to_act(s))
        elif p != s.current:
            check_turn(s, p, to_act(s))
    else:
        check_turn(s, p, to_act(s))
    kind = action["type"]
    handler = PHASE_HANDLERS[phase].get(kind)  # the kinds PHASE_ACTIONS allows now
    if handler is None:
        raise IllegalAction("wrong_phase", action=kind, phase=phase)
    if observer is None:  # a plain list (observe() asks for no observer)
        events = []
    else:
        events = EventLog()
        events.observer = observer
    secret = phase == "food" or (phase == "play" and s.options["quick"])
    handler(s, p, action, events)
    # _bump's work inline: p's own secret move, or a public change (every key moves)
    if secret and s.phase == phase:
        s.keys[p] += 1
    else:
        s.step += 1
        s.keys = [k + 1 for k in s.keys]
    return events


PHASE_ACTIONS = {
    "food": {"food"},
    "play": {"trait", "species", "grow", "remove", "exchange", "done"},
    "green": {"green"},
    "feeding": {"feed", "attack", "intelligence", "negate", "pass"},
}


def _hand_card(s: ClimateState, p: int, c: str) -> None:
    if c not in s.hands[p]:
        raise IllegalAction("not_in_hand", card=c)


def _discard(s: ClimateState, p: int, c: str) -> None:
    """A card discarded face up (kept apart until the reveal in a Quick game's play phase)."""
    if s.phase == "play" and is_quick(s):
        s.held[p].append(c)
    else:
        s.discard.append(c)


# --- phase 1: deal ----------------------------------------------------------------------------

def _start_round(s: ClimateState, events: list) -> None:
    s.round += 1
    if s.final_next:
        s.last = True
        s.final_next = False
    events.append({"type": "round_start", "round": s.round, "first": s.first, "last": s.last})
    if s.wildfire:
        s.wh += s.wildfire
        events.append({"type": "wildfire_plants", "count": s.wildfire, "wh": s.wh})
        s.wildfire = 0
    order = order_from(s, s.first)
    for p in order:
        if not s.rows[p]:
            sp = _new_species(s, p)
            events.append({"type": "new_species", "player": p, "species": sp["id"],
                           "side": "right", "reason": "deal"})
    counts = [0] * s.n
    for p in order:
        want = DATA.DEAL_BASE + DATA.DEAL_PER_SPECIES * len(s.rows[p])
        counts[p] = _draw(s, p, want, events, at_deal=True)
    events.append({"type": "deal", "counts": counts, "deck": len(s.deck), "last": s.last})
    s.phase = "food"
    s.food = [None] * s.n
    s.revealed = False
    if not to_act(s):  # nobody holds a card (every pile is empty): no food cards
        _start_play(s, events)


# --- phase 2: food cards ----------------------------------------------------------------------

def _act_food(s: ClimateState, p: int, action: dict, events: list) -> None:
    c = action["card"]
    hand = s.hands[p]
    if c not in hand:  # _hand_card
        raise IllegalAction("not_in_hand", card=c)
    hand.remove(c)
    food = s.food
    food[p] = c
    events.append({"type": "chosen", "player": p, "step": "food"})
    hands = s.hands
    for q, x in enumerate(food):  # not to_act(s): nobody still holds cards without one down
        if x is None and hands[q]:
            return
    events.append({"type": "food_cards", "count": sum(c is not None for c in s.food)})
    _start_play(s, events)


# --- phase 3: play cards ----------------------------------------------------------------------

def _idle(s: ClimateState, p: int) -> bool:
    """Nothing to do in the play phase but say done."""
    return not s.hands[p] and not any(sp["traits"] for sp in s.rows[p]) and not s.back[p]


def _start_play(s: ClimateState, events: list) -> None:
    s.phase = "play"
    s.done = [False] * s.n
    if is_quick(s):
        for p in order_from(s, s.first):
            if _idle(s, p):
                s.done[p] = True
                events.append({"type": "done", "player": p, "returned": 0, "forced": True})
        s.shown = [{"hand": len(s.hands[p]), "rows": [
            {"id": sp["id"], "body": sp["body"], "pop": sp["pop"], "food": sp["food"],
             "fat": sp["fat"], "traits": sp["traits"][:], "down": []} for sp in s.rows[p]]}
            for p in range(s.n)]
        events.append({"type": "play_start", "quick": True, "awaiting": to_act(s)})
        if all(s.done):
            _reveal(s, events)
        return
    events.append({"type": "play_start", "quick": False, "awaiting": []})
    _play_seek(s, s.first, events)


def _play_seek(s: ClimateState, start: int, events: list) -> None:
    for p in order_from(s, start):
        if s.done[p]:
            continue
        if _idle(s, p):
            s.done[p] = True
            events.append({"type": "done", "player": p, "returned": 0, "forced": True})
            continue
        s.current = p
        events.append({"type": "play_turn", "player": p})
        return
    _reveal(s, events)


# The play handlers check in this order where they apply: the card is in hand (inline:
# _hand_card's test), no exchange has begun ("exchanging"), the species is the player's
# (own_species); a discarded card goes where _discard puts it (kept apart in a Quick game's
# play phase); play moves are public (events with content) in the normal game only.

def _act_trait(s: ClimateState, p: int, action: dict, events: list) -> None:
    c = action["card"]
    hand = s.hands[p]
    if c not in hand:
        raise IllegalAction("not_in_hand", card=c)
    if s.back[p]:
        raise IllegalAction("exchanging")
    _, sp = own_species(s, p, action["species"])
    t = TRAIT_OF[c]
    traits = sp["traits"]
    for x in traits:
        if TRAIT_OF[x] == t:
            raise IllegalAction("duplicate_trait", species=sp["id"], trait=t)
    if len(traits) >= max_traits(len(s.seats)):
        raise IllegalAction("trait_limit", species=sp["id"], max=max_traits(len(s.seats)))
    hand.remove(c)
    traits.append(c)
    sp["down"].append(c)
    if not s.options["quick"]:
        events.append({"type": "trait", "player": p, "species": sp["id"]})


def _act_species(s: ClimateState, p: int, action: dict, events: list) -> None:
    c = action["card"]
    hand = s.hands[p]
    if c not in hand:
        raise IllegalAction("not_in_hand", card=c)
    side = action["side"]
    if side not in SIDES:
        raise IllegalAction("bad_side", side=side)
    if s.back[p]:
        raise IllegalAction("exchanging")
    hand.remove(c)
    quick = s.options["quick"]
    (s.held[p] if quick else s.discard).append(c)
    sp = _new_species(s, p, side)
    if not quick:
        events.append({"type": "new_species", "player": p, "species": sp["id"], "side": side,
                       "reason": "played"})


def _act_grow(s: ClimateState, p: int, action: dict, events: list) -> None:
    c = action["card"]
    hand = s.hands[p]
    if c not in hand:
        raise IllegalAction("not_in_hand", card=c)
    what = action["what"]
    if what not in GROWTH:
        raise IllegalAction("bad_growth", what=what)
    if s.back[p]:
        raise IllegalAction("exchanging")
    _, sp = own_species(s, p, action["species"])
    top = MAX_BODY if what == "body" else MAX_POP
    if sp[what] >= top:
        raise IllegalAction("at_max", species=sp["id"], what=what, max=top)
    hand.remove(c)
    quick = s.options["quick"]
    (s.held[p] if quick else s.discard).append(c)
    sp[what] += 1
    if not quick:
        events.append({"type": "grow", "player": p, "species": sp["id"], "what": what,
                       "value": sp[what]})


def _act_remove(s: ClimateState, p: int, action: dict, events: list) -> None:
    if s.back[p]:
        raise IllegalAction("exchanging")
    _, sp = own_species(s, p, action["species"])
    c = action["card"]
    if c not in sp["traits"]:
        raise IllegalAction("no_such_trait", species=sp["id"], card=c)
    sp["traits"].remove(c)
    if c in sp["down"]:
        sp["down"].remove(c)
    quick = s.options["quick"]
    (s.held[p] if quick else s.discard).append(c)
    fat = 0
    if TRAIT_OF[c] == "fat_tissue" and sp["fat"]:
        fat = sp["fat"]
        s.bags[p] += fat
        sp["fat"] = 0
    if not quick:
        events.append({"type": "remove", "player": p, "species": sp["id"],
                       "trait": TRAIT_OF[c], "fat": fat})


def _act_exchange(s: ClimateState, p: int, action: dict, events: list) -> None:
    c = action["card"]
    hand = s.hands[p]
    if c not in hand:
        raise IllegalAction("not_in_hand", card=c)
    back = s.back[p]
    if len(back) >= len(s.deck):
        raise IllegalAction("deck_too_small", deck=len(s.deck))
    hand.remove(c)
    back.append(c)
    if not s.options["quick"]:
        events.append({"type": "returned", "player": p, "count": len(back)})


def _exchange(s: ClimateState, p: int) -> int:
    """``p``'s cards put back go under the draw deck; as many are drawn from the top."""
    back = s.back[p]
    k = len(back)
    if k:
        s.deck[:0] = reversed(back)  # one by one under the deck: the last lies lowest
        s.back[p] = []
        for _ in range(k):
            s.hands[p].append(s.deck.pop())
    return k


def _act_done(s: ClimateState, p: int, action: dict, events: list) -> None:
    s.done[p] = True
    if is_quick(s):
        events.append({"type": "chosen", "player": p, "step": "play"})
        if all(s.done):
            _reveal(s, events)
        return
    k = _exchange(s, p)
    events.append({"type": "done", "player": p, "returned": k, "forced": False})
    _play_seek(s, (p + 1) % s.n, events)


def _reveal(s: ClimateState, events: list) -> None:
    """The end of the play phase: a Quick game's secret plays become public (discards,
    exchanges in turn order); every face-down trait turns face up."""
    order = order_from(s, s.first)
    if is_quick(s):
        for p in order:
            held = s.held[p]
            s.discard.extend(held)
            s.held[p] = []
            k = _exchange(s, p)
            events.append({"type": "reveal", "player": p, "discarded": len(held), "returned": k,
                           "species": [{"id": sp["id"], "body": sp["body"], "pop": sp["pop"],
                                        "traits": [TRAIT_OF[c] for c in sp["traits"]
                                                   if c not in sp["down"]],
                                        "new": len(sp["down"])} for sp in s.rows[p]]})
        s.shown = None
    for p in order:
        for sp in s.rows[p]:
            if sp["down"]:
                events.append({"type": "flip", "player": p, "species": sp["id"],
                               "traits": [TRAIT_OF[c] for c in sp["down"]]})
                sp["down"] = []
    events.append({"type": "phase_end", "phase": "play", "round": s.round})
    observe(s, events, "play")
    _start_green(s, events)


# --- phase 4: modify the environment ----------------------------------------------------------

def _start_green(s: ClimateState, events: list) -> None:
    s.phase = "green"
    _green_from(s, 0, events)


def _green_run(s: ClimateState, p: int, events: list) -> bool:
    """Run ``p``'s green-framed traits (``s.green``) while at most one of them would act;
    True when two or more would: ``p`` orders them (``green`` actions)."""
    while s.green:
        eff = green_effective(s)
        if len(eff) >= 2:
            s.current = p
            return True
        if not eff:
            s.green = []
            break
        _green_apply(s, p, eff[0][0], eff[0][1], events)
    return False


def _green_from(s: ClimateState, k: int, events: list) -> None:
    """Green-framed traits, player by player from the ``k``-th after the first player; then
    the rest of Modify environment."""
    n = s.n
    while k < n:
        p = (s.first + k) % n
        s.green = [[sp["id"], t] for sp in s.rows[p] if sp["traits"] for t in face_up(sp)
                   if t in GREEN]
        if _green_run(s, p, events):
            return
        k += 1
    s.current = s.first
    _environment(s, events)


def _green_apply(s: ClimateState, p: int, sid: int, t: str, events: list) -> None:
    s.green = [g for g in s.green if g != [sid, t]]
    _, i, sp = find_species(s, sid)
    if t == "fat_tissue":
        moved = min(sp["fat"], sp["pop"] - sp["food"])
        sp["fat"] -= moved
        sp["food"] += moved
        events.append({"type": "green", "player": p, "species": sid, "trait": t,
                       "moved": moved})
    elif t == "fertile":
        sp["pop"] += F["fertile"]
        sp["pop"] = min(sp["pop"], MAX_POP)
        events.append({"type": "green", "player": p, "species": sid, "trait": t,
                       "pop": sp["pop"]})
    else:
        events.append({"type": "green", "player": p, "species": sid, "trait": t})
        _take(s, p, i, "plant", "bank", F["long_neck"], "long_neck", events)


def _act_green(s: ClimateState, p: int, action: dict, events: list) -> None:
    pair = [action["species"], action["trait"]]
    if pair not in green_effective(s):
        raise IllegalAction("not_green", species=action["species"], trait=action["trait"])
    _green_apply(s, p, pair[0], pair[1], events)
    if _green_run(s, p, events):
        return
    _green_from(s, (p - s.first) % s.n + 1, events)


def _take(s: ClimateState, p: int, i: int, food: str, source: str, amount: int, reason: str,
          events: list) -> int:
    """``p``'s species at index ``i`` takes ``amount`` food (``"plant"``/``"meat"``) from
    ``source`` (``"wh"``/``"bank"``): a carnivore never takes plants; Foraging adds a plant;
    up to its population, then on Fat Tissue; Cooperation then feeds the species to its
    right. Returns the food taken."""
    row = s.rows[p]
    sp = row[i]
    up = face_up(sp) if sp["traits"] else _NO_TRAITS  # no trait: none of the tests below
    if food == "plant":
        if "carnivore" in up:
            return 0
        if "foraging" in up:
            amount += F["foraging"]
    if source == "wh" and s.wh < amount:  # min(amount, s.wh)
        amount = s.wh
    pop = sp["pop"]
    fed = sp["food"]
    r = pop - fed  # room(sp, up)
    if "fat_tissue" in up:
        r += sp["body"] - sp["fat"]
    got = amount if amount < r else r
    if got <= 0:
        return 0
    board = got if got < pop - fed else pop - fed
    sp["food"] = fed + board
    sp["fat"] += got - board
    if source == "wh":
        s.wh -= got
    events.append({"type": "take", "player": p, "species": sp["id"], "food": food,
                   "source": source, "count": got, "fat": got - board, "reason": reason})
    if "cooperation" in up and i + 1 < len(row):
        _take(s, p, i + 1, food, source, F["cooperation"], "cooperation", events)
    return got


def _pop_loss(s: ClimateState, p: int, sp: dict, lost: int, cause: str, events: list) -> bool:
    """``sp`` loses ``lost`` population; food above the new population goes to the bag; at
    0 it dies out. True when it died out."""
    if lost <= 0:
        return False
    sp["pop"] = max(0, sp["pop"] - lost)
    bagged = max(0, sp["food"] - sp["pop"])
    if bagged:
        sp["food"] -= bagged
        s.bags[p] += bagged
    events.append({"type": "loss", "player": p, "species": sp["id"], "cause": cause,
                   "lost": lost, "pop": sp["pop"], "bagged": bagged})
    if sp["pop"] == 0:
        _extinct(s, p, sp, events)
        return True
    return False


def _extinct(s: ClimateState, p: int, sp: dict, events: list) -> None:
    row = s.rows[p]
    row.remove(sp)
    s.discard.extend(sp["traits"])
    s.bags[p] += sp["food"] + sp["fat"]
    sid = sp["id"]
    s.negated = [g for g in s.negated if g[0] != sid]
    s.green = [g for g in s.green if g[0] != sid]
    if sid in s.night:
        s.night.remove(sid)
    k = len(sp["traits"])
    drawn = _draw(s, p, k, events)
    events.append({"type": "extinct", "player": p, "species": sid,
                   "traits": [TRAIT_OF[c] for c in sp["traits"]], "food": sp["food"] + sp["fat"],
                   "drawn": drawn})


def climate_loss(zone: int, sp: dict) -> tuple[str, int]:
    """(cause, population lost) by species ``sp`` in the effects of ``zone``."""
    cause = CAUSE[zone]
    up = face_up(sp)
    lo, hi = BODY[zone]
    icons_ = ICONS[zone] if cause and lo <= sp["body"] <= hi else 0
    if not up:  # no trait: the sums below are 0, the same answers without them
        if not cause:
            return cause, 0
        return ("cold" if cause == "cold" else "heat"), max(0, icons_)
    if cause == "cold":
        return cause, max(0, icons_ - sum(COLD.get(t, 0) for t in up))
    penalty = sum(HEAT_PENALTY.get(t, 0) for t in up) if zone in PENALTY_ZONES else 0
    if not cause and not penalty:
        return cause, 0
    return "heat", max(0, icons_ + penalty - sum(HEAT.get(t, 0) for t in up))


def _environment(s: ClimateState, events: list) -> None:
    """Reveal the food cards, then the climate, the event, the losses, the plants and the
    event replacement; then feeding begins."""
    s.revealed = True
    suns, snows = icons(s)
    thaw = s.thaw
    events.append({"type": "food_reveal",
                   "cards": [None if c is None else card_info(c) for c in s.food],
                   "suns": suns, "snows": snows, "thaw": thaw is not None})
    if thaw is not None:  # counted: back under the cold deck
        s.event_decks["cold"].insert(0, thaw)
        s.thaw = None
    # 1. the climate
    old = s.zone
    if suns > snows:
        s.zone = min(s.zone + 1, len(ZONES) - 1)
    elif snows > suns:
        s.zone = max(s.zone - 1, 0)
    events.append({"type": "climate", "from": ZONES[old], "to": ZONES[s.zone], "suns": suns,
                   "snows": snows})
    # 2. the event
    zone = s.zone
    block = None
    fire_now = False
    fired_deck = None
    s.fired = None
    if s.options["events"]:
        for d in ("cold", "hot"):
            c = s.event_up[d]
            if c is not None and EVENTS[c].zone == s.zone:
                fired_deck = d
                break
    if fired_deck is not None:
        c = s.event_up[fired_deck]
        s.event_up[fired_deck] = None
        s.fired = c
        e = EVENTS[c]
        kind = e.kind
        info = event_info(c)
        if kind in SHIFT:
            zone = max(0, min(len(ZONES) - 1, s.zone + SHIFT[kind]))
            info["effects"] = ZONES[zone]
        events.append(dict(info, type="event"))
        if kind == "thaw":
            s.thaw = c
        elif kind == "meteor":
            s.meteor.append(c)
        else:
            s.event_decks[fired_deck].insert(0, c)
        if kind == "volcanic_eruption":
            s.volcano = e.to
        elif kind == "desertification":
            block = "desertification"
            for p in order_from(s, s.first):
                for sp in s.rows[p]:
                    if sp["body"] > 1:
                        sp["body"] = max(1, sp["body"] - DATA.DESERT_BODY)
                        bagged = max(0, sp["fat"] - sp["body"])
                        sp["fat"] -= bagged
                        s.bags[p] += bagged
                        events.append({"type": "shrink", "player": p, "species": sp["id"],
                                       "body": sp["body"], "bagged": bagged})
        elif kind == "wildfire":
            fire_now = True
            for p in order_from(s, s.first):
                for sp in list(s.rows[p]):
                    if "burrowing" not in face_up(sp):
                        _pop_loss(s, p, sp, DATA.WILDFIRE_POP, "wildfire", events)
    # 3. climate losses, all at once
    losses = []
    # a species without traits: climate_loss's answer read from the zone alone
    plain = CAUSE[zone]
    lo, hi = BODY[zone]
    plain_loss = max(0, ICONS[zone]) if plain else 0
    if plain:
        plain = "cold" if plain == "cold" else "heat"
    for p in order_from(s, s.first):
        for sp in s.rows[p]:
            if sp["traits"]:
                cause, lost = climate_loss(zone, sp)
            else:
                cause = plain
                lost = plain_loss if lo <= sp["body"] <= hi else 0
            if lost:
                losses.append((p, sp, cause, lost))
    for p, sp, cause, lost in losses:
        _pop_loss(s, p, sp, lost, cause, events)
    # 4. plants
    cards = sum(PLANTS[c] for c in s.food if c is not None)
    mod = zone_plants(side_for(s.n))[zone]
    total = cards + mod
    added = removed = aside = 0
    if s.meteor:
        block = "meteor"
    if total > 0:
        if block is not None:
            pass
        elif fire_now:
            aside = total
            s.wildfire += total
        else:
            added = total
            s.wh += total
    elif total < 0:
        removed = min(s.wh, -total)
        s.wh -= removed
    events.append({"type": "plants", "cards": cards, "zone": mod, "total": total,
                   "added": added, "removed": removed, "set_aside": aside,
                   "blocked": block if total > 0 else None, "wh": s.wh})
    # 5. replace the event
    if fired_deck is not None:
        deck = s.event_decks[fired_deck]
        if deck:
            s.event_up[fired_deck] = deck.pop()
            events.append(dict(event_info(s.event_up[fired_deck]), type="event_up"))
    events.append({"type": "phase_end", "phase": "environment", "round": s.round})
    observe(s, events, "environment")
    s.phase = "feeding"
    s.passed = [False] * s.n
    s.night = []
    s.negated = []
    _next_turn(s, s.first, events)


# --- phase 5: feeding --------------------------------------------------------------------------

def _next_turn(s: ClimateState, start: int, events: list) -> None:
    """The next feeding turn: the first player from ``start`` clockwise who must feed a
    species, or may (and has not passed); nobody: feeding ends."""
    s.night = []
    passed = s.passed
    for q in order_from(s, start):
        # feeding_options(s, q): an owed action, or any while q has not passed
        if feeding_wanted(s, q, passed[q]):
            s.current = q
            events.append({"type": "feed_turn", "player": q})
            return
    _end_feeding(s, events)


def _turn_goes_on(s: ClimateState, p: int, events: list) -> None:
    """After a free action (Nocturnal, Intelligence): the turn stays with ``p`` while they
    have something to do, else passes on."""
    if feeding_wanted(s, p, False):  # feeding_options(s, p) gives an action
        return
    _next_turn(s, (p + 1) % s.n, events)


def _act_feed(s: ClimateState, p: int, action: dict, events: list) -> None:
    sid = action["species"]
    for i, sp in enumerate(s.rows[p]):  # noqa: B007 (own_species: i and sp found)
        if sp["id"] == sid:
            break
    else:
        raise IllegalAction("not_your_species", species=sid)
    if not sp["traits"]:  # no trait: room is pop - food, no Nocturnal (the checks below)
        if sp["pop"] - sp["food"] <= 0:
            raise IllegalAction("full", species=sid)
        if s.wh <= 0:
            raise IllegalAction("no_plants")
        events.append({"type": "feed", "player": p, "species": sid, "night": False})
        _take(s, p, i, "plant", "wh", F["plant"], "feed", events)
        _next_turn(s, (p + 1) % s.n, events)
        return
    up = face_up(sp)
    if "carnivore" in up:
        raise IllegalAction("carnivore_no_plants", species=sp["id"])
    if sp["pop"] - sp["food"] + (sp["body"] - sp["fat"] if "fat_tissue" in up else 0) <= 0:
        raise IllegalAction("full", species=sp["id"])  # no room(sp, up)
    if s.wh <= 0:
        raise IllegalAction("no_plants")
    free = "nocturnal" in up and nocturnal_free(s, p, i, sp)  # its first test read here
    if free:
        s.night.append(sp["id"])
    events.append({"type": "feed", "player": p, "species": sp["id"], "night": free})
    _take(s, p, i, "plant", "wh", F["plant"], "night" if free else "feed", events)
    if free:
        _turn_goes_on(s, p, events)
    else:
        _next_turn(s, (p + 1) % s.n, events)


def _act_attack(s: ClimateState, p: int, action: dict, events: list) -> None:
    ai, a = own_species(s, p, action["species"])
    up = face_up(a)
    if "carnivore" not in up:
        raise IllegalAction("not_carnivore", species=a["id"])
    if a["food"] >= a["pop"]:
        raise IllegalAction("full", species=a["id"])
    found = find_species(s, action["target"])
    if found is None:
        raise IllegalAction("no_such_species", species=action["target"])
    q, ti, t = found
    if t is a:
        raise IllegalAction("self_attack", species=a["id"])
    ig = action.get("ignore")
    if ig is not None and ig not in _ambush_ignores(a, t):
        raise IllegalAction("cannot_ignore", target=t["id"], trait=ig)
    neg = _negated(s, a["id"])
    b = blockers(s, p, a, q, ti, neg, ig)
    if b is None or b:
        raise IllegalAction("not_attackable", target=t["id"], blockers=["body"] if b is None
                            else b)
    mud = _mud(s, t, neg, ig)
    card = action.get("discard")
    if mud and card is None:
        raise IllegalAction("discard_needed", target=t["id"])
    if not mud and card is not None:
        raise IllegalAction("no_discard_needed", target=t["id"])
    if card is not None:
        _hand_card(s, p, card)
    free = nocturnal_free(s, p, ai, a)
    # the attack
    if free:
        s.night.append(a["id"])
    tt = set(face_up(t)) - neg
    if ig is not None:
        tt.discard(ig)
    meat = t["body"]
    events.append({"type": "attack", "player": p, "species": a["id"], "owner": q,
                   "target": t["id"], "ignore": ig, "discarded": card is not None,
                   "negated": sorted(neg), "night": free})
    s.negated = [g for g in s.negated if g[0] != a["id"]]
    if card is not None:
        s.hands[p].remove(card)
        s.discard.append(card)
    alive = True
    if "horns" in tt:
        alive = not _pop_loss(s, p, a, HORNS, "horns", events)
    _pop_loss(s, q, t, 1, "attack", events)
    if alive:
        ai = s.rows[p].index(a)
        _take(s, p, ai, "meat", "bank", meat, "attack", events)
    # Scavengers (every one in play, from the attacker's owner clockwise)
    if "scavenger" not in neg:
        for r in order_from(s, p):
            row = s.rows[r]
            for x in list(row):
                if x in row and x["traits"] and "scavenger" in face_up(x):
                    _take(s, r, row.index(x), "meat", "bank", SCAVENGE, "scavenger", events)
    if free and alive:
        _turn_goes_on(s, p, events)
    else:
        _next_turn(s, (p + 1) % s.n, events)


def _intelligence_species(s: ClimateState, p: int, action: dict) -> tuple[int, dict, list]:
    i, sp = own_species(s, p, action["species"])
    up = face_up(sp)
    if "intelligence" not in up:
        raise IllegalAction("no_intelligence", species=sp["id"])
    _hand_card(s, p, action["card"])
    return i, sp, up


def _act_intelligence(s: ClimateState, p: int, action: dict, events: list) -> None:
    i, sp, up = _intelligence_species(s, p, action)
    if "carnivore" in up:
        raise IllegalAction("carnivore_no_plants", species=sp["id"])
    if room(sp, up) <= 0:
        raise IllegalAction("full", species=sp["id"])
    c = action["card"]
    s.hands[p].remove(c)
    s.discard.append(c)
    events.append({"type": "intelligence", "player": p, "species": sp["id"]})
    _take(s, p, i, "plant", "bank", F["intelligence"], "intelligence", events)
    _turn_goes_on(s, p, events)


def _act_negate(s: ClimateState, p: int, action: dict, events: list) -> None:
    i, sp, up = _intelligence_species(s, p, action)
    if "carnivore" not in up:
        raise IllegalAction("not_carnivore", species=sp["id"])
    if sp["food"] >= sp["pop"]:
        raise IllegalAction("full", species=sp["id"])
    t = action["trait"]
    if t in _negated(s, sp["id"]):
        raise IllegalAction("already_negated", species=sp["id"], trait=t)
    if t not in _negate_useful(s, p, sp):
        raise IllegalAction("cannot_negate", species=sp["id"], trait=t)
    c = action["card"]
    s.hands[p].remove(c)
    s.discard.append(c)
    s.negated.append([sp["id"], t])
    events.append({"type": "negate", "player": p, "species": sp["id"], "trait": t})
    _turn_goes_on(s, p, events)


def _act_pass(s: ClimateState, p: int, action: dict, events: list) -> None:
    if feeding_wanted(s, p, True):  # feeding_options(s, p) has an owed action
        raise IllegalAction("must_feed")
    s.passed[p] = True
    events.append({"type": "pass", "player": p})
    _next_turn(s, (p + 1) % s.n, events)


def _end_feeding(s: ClimateState, events: list) -> None:
    order = order_from(s, s.first)
    # Migratory: 2 food from the bank when the Watering Hole is empty
    if s.wh == 0:
        for p in order:
            row = s.rows[p]
            for sp in list(row):
                if sp in row and sp["traits"] and "migratory" in face_up(sp):
                    _take(s, p, row.index(sp), "plant", "bank", F["migratory"], "migratory",
                          events)
    # starvation
    for p in order:
        for sp in list(s.rows[p]):
            food = sp["food"]
            pop = sp["pop"]
            keep = food + min(hibernating(face_up(sp)), pop - food) if sp["traits"] else food
            if pop - keep > 0:
                _pop_loss(s, p, sp, pop - keep, "starvation", events)
    # food to the bags
    moved = [0] * s.n
    for p in range(s.n):
        for sp in s.rows[p]:
            moved[p] += sp["food"]
            sp["food"] = 0
        s.bags[p] += moved[p]
    events.append({"type": "bags", "counts": moved, "wh": s.wh})
    for p in order:
        if s.food[p] is not None:
            s.discard.append(s.food[p])
    s.food = [None] * s.n
    s.revealed = False
    s.night = []
    s.negated = []
    s.passed = [False] * s.n
    if s.volcano is not None:
        events.append({"type": "volcano", "from": ZONES[s.zone], "to": ZONES[s.volcano]})
        s.zone = s.volcano
        s.volcano = None
    s.fired = None
    events.append({"type": "phase_end", "phase": "feeding", "round": s.round})
    if s.last:
        _end_game(s, events)
        observe(s, events, "feeding")
        return
    observe(s, events, "feeding")
    s.first = (s.first + 1) % s.n
    _start_round(s, events)


# --- the end ----------------------------------------------------------------------------------

def score(s: ClimateState, p: int) -> dict:
    """``p``'s points: the bag, the population and the trait cards of the surviving species."""
    food = s.bags[p]
    pop = sum(sp["pop"] for sp in s.rows[p])
    traits = sum(len(sp["traits"]) for sp in s.rows[p])
    total = food * DATA.SCORE_FOOD + pop * DATA.SCORE_POP + traits * DATA.SCORE_TRAIT
    return {"food": food, "population": pop, "traits": traits, "total": total}


def ranking(s: ClimateState) -> list[dict]:
    """Most points first; ties: more trait cards, then more population, then shared."""
    rows = []
    for p in range(s.n):
        sc = score(s, p)
        rows.append({"player": p, "score": sc["total"], "food": sc["food"],
                     "population": sc["population"], "traits": sc["traits"]})
    rank_rows(rows, lambda r: (r["score"], r["traits"], r["population"]))
    return [{"player": r["player"], "rank": r["rank"], "score": r["score"], "food": r["food"],
             "population": r["population"], "traits": r["traits"]} for r in rows]


def public_ranking(s: ClimateState) -> list[dict]:
    """The standings before the end, on public points only (no bag): population and trait
    cards as the table sees them (a Quick game's secret plays do not count yet)."""
    rows = []
    for p in range(s.n):
        sp_rows, _ = public_position(s, p, None)
        pop = sum(sp["pop"] for sp in sp_rows)
        traits = sum(len(sp["traits"]) for sp in sp_rows)
        rows.append({"player": p, "score": pop * DATA.SCORE_POP + traits * DATA.SCORE_TRAIT,
                     "food": None, "population": pop, "traits": traits})
    rank_rows(rows, lambda r: (r["score"], r["traits"], r["population"]))
    return [{"player": r["player"], "rank": r["rank"], "score": r["score"], "food": None,
             "population": r["population"], "traits": r["traits"]} for r in rows]


def _end_game(s: ClimateState, events: list) -> None:
    for p in range(s.n):
        for sp in s.rows[p]:
            s.bags[p] += sp["fat"]
            sp["fat"] = 0
    s.phase = "over"
    s.green = []
    s.result = ranking(s)
    events.append({"type": "game_over", "scores": [score(s, p) for p in range(s.n)],
                   "ranking": [dict(r) for r in s.result]})


HANDLERS = {
    "food": _act_food,
    "trait": _act_trait,
    "species": _act_species,
    "grow": _act_grow,
    "remove": _act_remove,
    "exchange": _act_exchange,
    "done": _act_done,
    "green": _act_green,
    "feed": _act_feed,
    "attack": _act_attack,
    "intelligence": _act_intelligence,
    "negate": _act_negate,
    "pass": _act_pass,
}
# per phase, the handlers of the kinds PHASE_ACTIONS allows in it (step's one lookup)
PHASE_HANDLERS = {phase: {kind: HANDLERS[kind] for kind in kinds}
                  for phase, kinds in PHASE_ACTIONS.items()}
