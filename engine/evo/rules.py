"""EVO's rules: setup, the six phases, combat, the auction and the event-card windows.

The flow is a small state machine: ``state.phase`` (1..6, 7 when over) and ``state.stage``
inside it. :func:`step` checks an action against the current stage, applies it, then
:func:`advance` runs every automatic step (dice, initiative, points, payments) until some
player must decide again. Card windows (``state.window``) pause the flow at the timing points
printed on the cards; see :mod:`engine.evo.cards`. MOI D'ABORD's player is asked at the start of
each phase whether to play first in it (``effects["first_go"]`` is None until they answer).
"""

from __future__ import annotations

from itertools import combinations

from engine.base import EventLog, observe
from engine.core import (
    IllegalAction,
    OneOf,
    Rng,
    Seat,
    check_shape,
    fits,
    plain_shapes,
    rank_rows,
    roll,
    shuffle,
)
from engine.evo import cards
from engine.evo.data import BAG_KINDS, GENE_KINDS, board_for
from engine.evo.position import (  # all offered as rules.<name> too (ai.py reads some here)
    BACKWARD,  # noqa: F401
    DINOS,  # noqa: F401
    EGG,
    FORWARD,  # noqa: F401
    FUR,
    GENE_INDEX,
    HORNS,
    LEGS,
    MUTANT,  # noqa: F401
    PARASOL,
    TAIL,
    TERRAINS,
    TRACK,
    D,
    bid_price,
    bidder,
    board,
    current_actor,  # noqa: F401
    dinos_of,
    discount,
    kill,
    move_climate,
    on_board,
    parse_region,
    region_name,
    reserve,
    turn_order,
)
from engine.evo.state import (
    BIRTHS,
    CLIMATE,
    EVOLUTION,
    INITIATIVE,
    MOVEMENT,
    OVER,
    PHASE_NAMES,
    SURVIVAL,
    EvoState,
)

METEOR_LAST = D["meteorite"]["last"]
METEOR_FACES = {int(k): set(v) for k, v in D["meteorite"]["faces"].items()}
MIN_DIFF = D["combat"]["min_difference"]
WIN_UP_TO = {int(k): v for k, v in D["combat"]["win_up_to"].items()}
MAX_DIFF = max(WIN_UP_TO)
SEPAREE_RAISE = D["cards"]["separee_min_raise"]
ZONES = ("temperate", "cold", "hot", "deadly")

# The parameters of a card play, per card (besides "type" and "card"); the other cards take none.
PLAY_PARAMS = {
    "accident": {"target": int, "region": str},
    "gaz_de_combat": {"target": int},
    "ciel_mon_mari": {"region": str},
    "gene_meteo": {"die": int},
}
# The exact shape of every action (engine.core.check_shape): its keys and their kinds.
ACTION_SHAPES = {
    "pass": {},
    "end": {},
    "move": {"from": str, "to": str},
    "hatch": {"region": str},
    "lose": {"regions": list[str]},
    "bid": {"gene": int, "amount": int},
    "first": {"go": bool},
    "play": OneOf("card", {card: PLAY_PARAMS.get(card, {}) for card in D["cards"]["deck"]},
                  unknown="unknown_card"),
}


# --- small helpers -----------------------------------------------------------------------

_ZONE_AT = {0: "temperate", 1: "cold", -1: "hot"}  # terrain - temperate terrain -> zone


def zone_of(state: EvoState, terrain: int) -> str:
    """'temperate', 'cold', 'hot' or 'deadly' for a terrain under the current climate."""
    return _ZONE_AT.get(terrain - TRACK[state.climate], "deadly")


def choosing_first(state) -> bool:
    """True while MOI D'ABORD's player must choose whether to play first in this phase."""
    e = state.effects
    return (state.window is None and state.phase != OVER and "first" in e
            and e.get("first_go") is None)


def card_window(state: EvoState, player: int) -> bool:
    """True when a card window is open and ``player`` is asked in it and has not answered
    yet in this round (pass is legal)."""
    return (state.window is not None and state.phase != OVER
            and player in cards.waiting(state))


def horns_attacking(state: EvoState, p: int, newborn: bool = False) -> int:
    h = state.genes[p][HORNS]
    if state.phase == MOVEMENT and p in state.effects.get("maousse", ()):
        h += D["cards"]["maousse_horns"]
    if newborn:
        h += D["cards"]["jeunesse_horns"]
    return h


def horns_defending(state: EvoState, q: int) -> int:
    h = state.genes[q][HORNS]
    if state.phase == MOVEMENT and q in state.effects.get("grand_frere", ()):
        h += D["cards"]["grand_frere_horns"]
    return h


def attack_refusal(state: EvoState, p: int, q: int, newborn: bool = False) -> str | None:
    """Why ``p`` may not attack ``q`` now, or None when the attack is allowed."""
    if p == q:
        return "own_species"
    if state.effects.get("no_combat"):
        return "no_combat"
    if state.phase == MOVEMENT and sorted((p, q)) in state.effects.get("peace", []):
        return "peace"
    if horns_attacking(state, p, newborn) - horns_defending(state, q) < MIN_DIFF:
        return "too_few_horns"
    return None


def winning_faces(diff: int) -> int:
    """The highest die face that wins an attack with this horn difference (0: no attack)."""
    if diff < MIN_DIFF:
        return 0
    return WIN_UP_TO[min(diff, MAX_DIFF)]


def fight(state: EvoState, p: int, q: int, region: int, newborn: bool, events: list) -> bool:
    """``p`` attacks ``q``'s dino on ``region``; the attacker rolls. True if ``p`` won.

    The loser's dino goes back to its owner's reserve. The caller moves the winner in.
    """
    diff = horns_attacking(state, p, newborn) - horns_defending(state, q)
    die = roll(state)
    won = die <= winning_faces(diff)
    events.append({
        "type": "fight", "attacker": p, "defender": q, "region": region_name(state, region),
        "die": die, "difference": diff, "needed": winning_faces(diff), "won": won,
        "newborn": newborn,
    })
    if won:
        state.occ[region] = -1
    return won


def draw_card(state: EvoState, p: int, events: list) -> None:
    if not state.deck and state.discard:
        state.deck = state.discard
        state.discard = []
        shuffle(state, state.deck)
        events.append({"type": "deck_reshuffled", "size": len(state.deck)})
    if not state.deck:
        events.append({"type": "deck_empty", "player": p})
        return
    state.hands[p].append(state.deck.pop())
    events.append({"type": "card_drawn", "player": p})


# --- setup ----------------------------------------------------------------------------------

def new_game(seats: list[Seat], seed: int, options: dict | None = None,
             observer=None) -> tuple[EvoState, list]:
    options = dict(options or {})
    unknown = set(options) - {"variant"}
    if unknown:
        raise IllegalAction("unknown_option", option=sorted(unknown)[0])
    n = len(seats)
    if not D["players"]["min"] <= n <= D["players"]["max"]:
        raise IllegalAction("player_count", count=n, min=D["players"]["min"],
                            max=D["players"]["max"])
    if len({s.id for s in seats}) != n:
        raise IllegalAction("duplicate_seat")
    s = EvoState()
    s.seats = [seat.to_json() for seat in seats]
    s.options = {"variant": bool(options.get("variant", False))}
    s.seed = int(seed)
    s.rng = int(seed)
    b = board_for(n)
    s.occ = [-1] * len(b)
    s.mp = [D["setup"]["start_mutation_points"]] * n
    portrait = D["setup"]["portrait"]
    s.genes = [[portrait[k] for k in GENE_KINDS] for _ in range(n)]
    s.bag = [kind for kind in BAG_KINDS for _ in range(D["genes"][kind])]
    s.deck = list(D["cards"]["deck"])
    shuffle(s, s.deck)
    s.hands = [[s.deck.pop() for _ in range(D["setup"]["cards_per_player"])] for _ in range(n)]
    s.locked = [[] for _ in range(n)]
    starts = list(b.starts)
    shuffle(s, starts)
    for p in range(n):
        s.occ[starts[p]] = p
    s.climate = D["climate"]["start"]
    s.meteor = D["meteorite"]["start"][str(n)]
    s.lost = [0] * n
    s.keys = [0] * n
    s.answers = [None] * n
    events = EventLog([{"type": "game_start", "players": n, "variant": s.options["variant"],
                        "starts": [b.names[starts[p]] for p in range(n)]}])
    if observer is not None:
        events.observer = observer
    advance(s, events)
    return s, events


# --- who acts, and what they may do -------------------------------------------------------

def to_act(state: EvoState) -> list[int]:
    # the hot path of every simulated move: choosing_first, cards.waiting and current_actor
    # read inline
    if state.phase == OVER:
        return []
    w = state.window
    if w is not None:
        answered = w["answered"]
        if not answered:  # the round's first answer
            return w["asked"][:]
        return [q for q in w["asked"] if q not in answered]
    e = state.effects
    if "first" in e:
        if e.get("first_go") is None:
            return [e["first"]]
        order = turn_order(state)
    else:
        order = state.order  # turn_order(state)
    stage = state.stage
    if stage == "choose":
        return [p for p, need in enumerate(state.pending) if need is not None]
    if stage == "move" or stage == "hatch":
        return [order[state.cur]] if state.cur < len(order) else []
    if stage == "bid" and state.auction:
        actor = bidder(state)
        return [] if actor is None else [actor]
    return []


def _awaits(state: EvoState, p: int) -> bool:
    """``p in to_act(state)`` for an int ``p`` in ``0..n-1``, without building the list."""
    if state.phase == OVER:
        return False
    w = state.window
    if w is not None:
        return p in w["asked"] and p not in w["answered"]
    e = state.effects
    if "first" in e and e.get("first_go") is None:
        return e["first"] == p
    stage = state.stage
    if stage == "choose":
        pending = state.pending
        return p < len(pending) and pending[p] is not None
    if stage == "move" or stage == "hatch":
        order = turn_order(state)
        return state.cur < len(order) and order[state.cur] == p
    if stage == "bid" and state.auction:
        return bidder(state) == p
    return False


def legal_actions(state: EvoState, p: int) -> list[dict]:
    w = state.window
    if type(p) is not int or not 0 <= p < len(state.seats):
        if p not in to_act(state):
            return []
    elif w is not None and state.phase != OVER:  # _awaits' first case inline
        if p not in w["asked"] or p in w["answered"]:
            return []
    elif not _awaits(state, p):
        return []
    if w is not None:
        return [{"type": "pass"}] + cards.plays(state, p, w["at"])
    e = state.effects
    if "first" in e and e.get("first_go") is None:  # choosing_first (no window, not over)
        return [{"type": "first", "go": True}, {"type": "first", "go": False}]
    if state.stage == "move":
        names = board(state).names
        acts = [{"type": "end"}]
        if state.steps > 0:  # movable(state, p), each step built as an action at once
            occ = state.occ
            nb = board(state).neighbours
            ok: dict[int, bool] = {}  # q -> may p attack q's dinos (asked once per q)
            for a, owner in enumerate(occ):
                if owner != p:
                    continue
                src = names[a]
                for b in nb[a]:
                    q = occ[b]
                    if q == -1:
                        acts.append({"type": "move", "from": src, "to": names[b]})
                    elif q != p:
                        allowed = ok.get(q)
                        if allowed is None:
                            allowed = ok[q] = attack_refusal(state, p, q) is None
                        if allowed:
                            acts.append({"type": "move", "from": src, "to": names[b]})
        return acts + cards.plays(state, p, "move")
    if state.stage == "hatch":
        names = board(state).names
        regions = hatch_regions(state, p)
        # births are compulsory, but a player left here only by a card (no free region)
        # may give up the births instead of having to play it
        if not regions:
            return [{"type": "end"}] + cards.plays(state, p, "hatch")
        acts = [{"type": "hatch", "region": names[r]} for r in regions]
        if state.turn < cards.NO_CARDS_BEFORE:  # cards.plays: none yet
            return acts
        return acts + cards.plays(state, p, "hatch")
    if state.stage == "choose":
        return loss_choices(state, p)
    if state.stage == "bid":
        return bid_actions(state, p) + cards.plays(state, p, "bid")
    return []


def movable(state: EvoState, p: int) -> list[tuple[int, int]]:
    """Every legal single step (from, to) of player ``p`` now."""
    if state.steps <= 0:
        return []
    occ = state.occ
    nb = board(state).neighbours
    out = []
    ok: dict[int, bool] = {}  # q -> may p attack q's dinos (asked once per q)
    for a, owner in enumerate(occ):
        if owner != p:
            continue
        for b in nb[a]:
            q = occ[b]
            if q == -1:
                out.append((a, b))
            elif q != p:
                allowed = ok.get(q)
                if allowed is None:
                    allowed = ok[q] = attack_refusal(state, p, q) is None
                if allowed:
                    out.append((a, b))
    return out


def can_move(state: EvoState, p: int) -> bool:
    """``bool(movable(state, p))``, stopping at the first step found."""
    if state.steps <= 0:
        return False
    occ = state.occ
    nb = board(state).neighbours
    index = occ.index
    a = -1
    for _ in range(occ.count(p)):  # dinos_of(occ, p), each found only when needed
        a = index(p, a + 1)
        for b in nb[a]:
            q = occ[b]
            if q == -1 or (q != p and attack_refusal(state, p, q) is None):
                return True
    return False


def may_hatch(state: EvoState, p: int, r: int) -> bool:
    """``r in hatch_regions(state, p)``, without listing them all."""
    if state.births <= 0:
        return False
    occ = state.occ
    q = occ[r]
    if not (q == -1 or (p in state.effects.get("jeunesse", ()) and q != p
                        and attack_refusal(state, p, q, newborn=True) is None)):
        return False
    # an adult of p's next to r (or near it, with PONDEUSE): the islands' neighbours and
    # near regions are symmetric, so r's own are looked at
    b = board(state)
    newborn = state.newborn
    for a in b.neighbours[r]:
        if occ[a] == p and a not in newborn:
            return True
    if p in state.effects.get("pondeuse", ()):
        for a in b.near[r]:
            if occ[a] == p and a not in newborn:
                return True
    return False


def can_hatch(state: EvoState, p: int) -> bool:
    """``bool(hatch_regions(state, p))``, stopping at the first region found."""
    if state.births <= 0:
        return False
    b = board(state)
    occ = state.occ
    newborn = state.newborn
    far = p in state.effects.get("pondeuse", ())
    young = p in state.effects.get("jeunesse", ())
    nb = b.neighbours
    index = occ.index
    a = -1
    for _ in range(occ.count(p)):  # dinos_of(occ, p), each found only when needed
        a = index(p, a + 1)
        if a in newborn:
            continue
        for r in nb[a]:
            q = occ[r]
            if q == -1 or (young and q != p
                           and attack_refusal(state, p, q, newborn=True) is None):
                return True
        if far:
            for r in b.near[a]:
                q = occ[r]
                if q == -1 or (young and q != p
                               and attack_refusal(state, p, q, newborn=True) is None):
                    return True
    return False


def hatch_regions(state: EvoState, p: int) -> list[int]:
    """Regions where ``p`` may place a newborn now (sorted)."""
    if state.births <= 0:
        return []
    b = board(state)
    occ = state.occ
    newborn = state.newborn
    far = p in state.effects.get("pondeuse", ())
    young = p in state.effects.get("jeunesse", ())
    spots: set[int] = set()
    nb = b.neighbours
    for a in dinos_of(occ, p):
        if a not in newborn:  # an adult
            spots.update(nb[a])
            if far:
                spots.update(b.near[a])
    out = []
    for r in sorted(spots):
        q = occ[r]
        if q == -1 or (young and q != p and attack_refusal(state, p, q, newborn=True) is None):
            out.append(r)
    return out


def survival_capacity(state: EvoState, p: int) -> tuple[int | None, int | None]:
    """How many of ``p``'s dinos survive in cold and in hot zones (None: all of them)."""
    e = state.effects
    cold = None if p in e.get("pthermolactyl", ()) else max(0, state.genes[p][FUR] - e.get("ca_caille", 0))
    hot = None if p in e.get("peau_adaptable", ()) else max(0, state.genes[p][PARASOL] - e.get("on_crame", 0))
    return cold, hot


def dinos_in_zone(state: EvoState, p: int, zone: str) -> list[int]:
    terr = board(state).terrain
    t = TRACK[state.climate]
    at = _ZONE_AT.get
    return [r for r in dinos_of(state.occ, p) if at(terr[r] - t, "deadly") == zone]


def loss_choices(state: EvoState, p: int) -> list[dict]:
    need = state.pending[p]
    if need is None:
        return []
    names = board(state).names
    cold = list(combinations(dinos_in_zone(state, p, "cold"), need[0]))
    hot = list(combinations(dinos_in_zone(state, p, "hot"), need[1]))
    return [{"type": "lose", "regions": [names[r] for r in c + h]} for c in cold for h in hot]


def bid_limit(state: EvoState, p: int) -> int:
    """The highest bid ``p`` can pay now (mutation points + mutant and SURSAUT discounts)."""
    return state.mp[p] + discount(state, p)


def min_bid(state: EvoState, slot: int) -> int:
    held = state.auction["bids"][slot]
    if held is None:
        return 0
    raise_by = D["cards"]["separee_min_raise"] if held[0] in state.effects.get("separee", ()) else 1
    return held[1] + raise_by


def bid_actions(state: EvoState, p: int) -> list[dict]:
    a = state.auction
    top = bid_limit(state, p) + 1
    acts: list[dict] = []
    separee = None
    for slot, held in enumerate(a["bids"]):
        if held is None:  # min_bid, inline
            low = 0
        elif held[0] == p:
            continue
        else:
            if separee is None:
                separee = state.effects.get("separee", ())
            low = held[1] + (SEPAREE_RAISE if held[0] in separee else 1)
        for amount in range(low, top):
            acts.append({"type": "bid", "gene": slot, "amount": amount})
    if can_pass_bid(state, p, has_bid=bool(acts)):
        acts.append({"type": "pass"})
    return acts


def can_pass_bid(state: EvoState, p: int, has_bid: bool) -> bool:
    a = state.auction
    if not has_bid or a["can_pass"]:
        return True
    return state.options["variant"] and a["pending"] == p


# --- applying actions ------------------------------------------------------------------------

_PLAIN = plain_shapes(ACTION_SHAPES)


def check_action(action, partial: bool = False) -> None:
    """Refuse (:class:`IllegalAction`) an action that is not exactly one of the shapes of
    ``ACTION_SHAPES``; the rules below rely on it. ``partial``: a card's or tile's own
    parameters may be missing (the rules give their reason first, see ``check_shape``)."""
    if fits(action, _PLAIN):  # the well-formed common actions at once (engine.core)
        return
    check_shape(action, ACTION_SHAPES, partial=partial)


def step(state: EvoState, p: int, action: dict, observer=None) -> list[dict]:
    """Apply ``action`` by player ``p`` to ``state`` in place; return the events.

    Every check happens before the first change, so an :class:`IllegalAction` leaves the
    state as it was. ``apply_action`` in ``engine.evo`` wraps this on a copy.
    """
    check_action(action, True)  # partial
    if state.phase == OVER:
        raise IllegalAction("game_over")
    if type(p) is not int and (not isinstance(p, int) or isinstance(p, bool)) \
            or not 0 <= p < len(state.seats):
        raise IllegalAction("not_a_player")
    # p in to_act(state) (_awaits, its first cases inline), then the action
    w = state.window
    e = state.effects
    if w is not None:
        if p not in w["asked"] or p in w["answered"]:
            return _not_your_turn(state, p)
    elif "first" in e and e.get("first_go") is None:  # choosing_first
        if e["first"] != p:
            return _not_your_turn(state, p)
    elif not _awaits(state, p):
        return _not_your_turn(state, p)
    kind = action["type"]
    events = EventLog()
    if observer is not None:
        events.observer = observer
    secret = False
    if w is not None:
        # a secret answer, unless it is the round's last (then every answer is settled)
        secret = not cards.answer(state, p, action, events)
    elif "first" in e and e.get("first_go") is None:  # choosing_first
        _act_first(state, p, action, events)
    elif kind == "play":
        card, params = cards.check_play(state, p, action, state.stage)
        cards.play(state, p, card, params, events)
        if not state.effects.get("calm"):
            cards.open_window(state, "reaction", events)
    elif state.stage == "move":
        _act_move(state, p, action, events)
    elif state.stage == "hatch":
        _act_hatch(state, p, action, events)
    elif state.stage == "choose":
        _act_lose(state, p, action, events)
    elif state.stage == "bid":
        _act_bid(state, p, action, events)
    else:  # pragma: no cover - to_act returns nobody in other stages
        raise IllegalAction("nothing_to_do")
    if kind != "play" and state.window is None:
        state.retrievable = None
    # The position moved on: ``step`` (the public step) unless the move was a secret answer
    # in a card window; ``keys`` (what every player may decide), except after a move inside a
    # simultaneous step that leaves the others' choices as they were: a secret answer, or a
    # loss choice while others still choose theirs (another player's dinos taken off change
    # nobody else's choice). Then only p's key moves: the others' menus stay valid. (Written
    # out for 3 and 4 players: this runs at every action of a search.)
    if not secret:
        state.step += 1
    keys = state.keys
    if secret or (kind == "lose" and any(x is not None for x in state.pending)):
        keys[p] += 1
    elif len(keys) == 4:
        a, b, c, d = keys
        state.keys = [a + 1, b + 1, c + 1, d + 1]
    elif len(keys) == 3:
        a, b, c = keys
        state.keys = [a + 1, b + 1, c + 1]
    else:
        state.keys = [k + 1 for k in keys]
    advance(state, events)
    return events


def _not_your_turn(state: EvoState, p: int) -> list[dict]:
    waiting = to_act(state)
    if state.window is not None and p in state.window["answered"]:
        raise IllegalAction("window_answered", waiting=waiting)
    raise IllegalAction("not_your_turn", player=p, waiting=waiting)


def _act_first(state: EvoState, p: int, action: dict, events: list) -> None:
    """MOI D'ABORD's player chooses: ``{"type": "first", "go": true}`` to play first in this
    phase, ``{"type": "first", "go": false}`` to keep their place."""
    if action["type"] != "first":
        raise IllegalAction("first_choice", got=action["type"])
    state.effects["first_go"] = action["go"]
    events.append({"type": "goes_first" if action["go"] else "keeps_place", "player": p,
                   "phase": PHASE_NAMES[state.phase]})


def _act_move(state: EvoState, p: int, action: dict, events: list) -> None:
    if action["type"] == "end":
        events.append({"type": "movement_end", "player": p, "steps_left": state.steps})
        _next_actor(state)
        return
    if action["type"] != "move":
        raise IllegalAction("wrong_action", expected="move", got=action["type"])
    isle = board(state)
    # parse_region, the usual spelling read inline
    a = isle.index.get(action["from"])
    if a is None:
        a = parse_region(state, action["from"])
    b = isle.index.get(action["to"])
    if b is None:
        b = parse_region(state, action["to"])
    if state.steps <= 0:
        raise IllegalAction("no_steps_left")
    if state.occ[a] != p:
        raise IllegalAction("not_your_dino", region=region_name(state, a))
    if b not in isle.neighbours[a]:
        raise IllegalAction("not_adjacent", src=region_name(state, a), dst=region_name(state, b))
    q = state.occ[b]
    if q != -1:
        why = attack_refusal(state, p, q)
        if why is not None:
            raise IllegalAction(why, region=region_name(state, b), defender=q)
    state.steps -= 1
    won = True
    names = isle.names
    if q != -1:
        won = fight(state, p, q, b, False, events)
        events[-1]["from"] = names[a]  # a losing attacker leaves this region
    state.occ[a] = -1
    if won:
        state.occ[b] = p
        events.append({"type": "move", "player": p, "from": names[a], "to": names[b],
                       "steps_left": state.steps})


def _act_hatch(state: EvoState, p: int, action: dict, events: list) -> None:
    if action["type"] == "end" and not hatch_regions(state, p):
        events.append({"type": "births_blocked", "player": p, "missed": state.births})
        _next_actor(state)
        return
    if action["type"] != "hatch":
        raise IllegalAction("wrong_action", expected="hatch", got=action["type"])
    names = board(state).names
    r = board(state).index.get(action["region"])  # parse_region, the usual spelling inline
    if r is None:
        r = parse_region(state, action["region"])
    if not may_hatch(state, p, r):
        q = state.occ[r]
        if q == p:
            raise IllegalAction("region_taken", region=region_name(state, r))
        if q != -1 and p not in state.effects.get("jeunesse", ()):
            raise IllegalAction("region_taken", region=region_name(state, r))
        if q != -1:
            raise IllegalAction(attack_refusal(state, p, q, True) or "not_near_adult",
                                region=region_name(state, r))
        raise IllegalAction("not_near_adult", region=region_name(state, r))
    state.births -= 1
    q = state.occ[r]
    if q != -1 and not fight(state, p, q, r, True, events):
        return
    state.occ[r] = p
    if r not in state.newborn:  # a newborn that took another newborn's region
        state.newborn.append(r)
    events.append({"type": "birth", "player": p, "region": names[r],
                   "births_left": state.births})


def _act_lose(state: EvoState, p: int, action: dict, events: list) -> None:
    if action["type"] != "lose":
        raise IllegalAction("wrong_action", expected="lose", got=action["type"])
    regions = [parse_region(state, x) for x in action["regions"]]
    if len(set(regions)) != len(regions):
        raise IllegalAction("duplicate_region")
    need_cold, need_hot = state.pending[p]
    cold = set(dinos_in_zone(state, p, "cold"))
    hot = set(dinos_in_zone(state, p, "hot"))
    for r in regions:
        if r not in cold and r not in hot:
            raise IllegalAction("not_at_risk", region=region_name(state, r))
    n_cold = sum(r in cold for r in regions)
    n_hot = len(regions) - n_cold
    if (n_cold, n_hot) != (need_cold, need_hot):
        raise IllegalAction("wrong_loss_count", cold=need_cold, hot=need_hot,
                            got_cold=n_cold, got_hot=n_hot)
    for r in regions:
        kill(state, r, "cold" if r in cold else "hot", events)
    state.pending[p] = None


def _act_bid(state: EvoState, p: int, action: dict, events: list) -> None:
    a = state.auction
    if action["type"] == "pass":
        if not can_pass_bid(state, p, has_bid=bool(bid_actions_exist(state, p))):
            raise IllegalAction("bid_required")
        a["out"].append(p)
        if a["pending"] == p:
            a["pending"] = None
        else:
            a["queue"].pop(0)
        events.append({"type": "auction_pass", "player": p})
        return
    if action["type"] != "bid":
        raise IllegalAction("wrong_action", expected="bid", got=action["type"])
    slot = action["gene"]
    amount = action["amount"]
    if not 0 <= slot < len(a["genes"]):
        raise IllegalAction("unknown_gene", gene=slot)
    if amount < 0:
        raise IllegalAction("bad_amount", amount=amount)
    held = a["bids"][slot]
    if held is not None and held[0] == p:
        raise IllegalAction("already_yours", gene=a["genes"][slot])
    low = min_bid(state, slot)
    if amount < low:
        raise IllegalAction("bid_too_low", gene=a["genes"][slot], amount=amount, minimum=low)
    top = bid_limit(state, p)
    if amount > top:
        raise IllegalAction("bid_too_high", amount=amount, maximum=top)
    if a["pending"] == p:
        a["pending"] = None
    else:
        a["queue"].pop(0)
    a["bids"][slot] = [p, amount]
    events.append({"type": "bid", "player": p, "gene": a["genes"][slot], "slot": slot,
                   "amount": amount, "outbid": None if held is None else held[0]})
    if held is not None:
        a["pending"] = held[0]


def bid_actions_exist(state: EvoState, p: int) -> bool:
    top = bid_limit(state, p)
    return any((held is None or held[0] != p) and min_bid(state, slot) <= top
               for slot, held in enumerate(state.auction["bids"]))


def _next_actor(state: EvoState) -> None:
    state.cur += 1
    state.steps = 0
    state.births = 0
    _prepare_actor(state)


# --- the automatic flow ---------------------------------------------------------------------

def advance(state: EvoState, events: list) -> None:
    """Run automatic steps until a player must act or the game is over."""
    stages = _STAGES
    while state.phase != OVER and state.window is None:
        e = state.effects
        if "first" in e and e.get("first_go") is None:  # choosing_first, inline
            return
        if stages[(state.phase, state.stage)](state, events) is False:
            return


def _phase_end(state: EvoState, events: list) -> None:
    """Tell the events' observer (``engine.base.EventLog``) that the phase under way ended,
    before the next one starts (the host and the demo draw the board then)."""
    observe(state, events, PHASE_NAMES[state.phase])


def _phase(state: EvoState, phase: int, events: list) -> None:
    _phase_end(state, events)
    state.phase = phase
    state.stage = "start"
    events.append({"type": "phase", "turn": state.turn, "phase": PHASE_NAMES[phase]})
    if "first" in state.effects and phase != INITIATIVE:
        cards.ask_first(state)  # before the phase's opening window, which follows the new order


def _initiative(state: EvoState, events: list):
    state.effects = {}
    state.history = {"cards": []}
    state.locked = [[] for _ in range(state.n)]
    state.newborn = []
    players = list(range(state.n))
    shuffle(state, players)  # the last tie-break is random
    genes = state.genes
    count = state.occ.count  # on_board
    players.sort(key=lambda p: (-genes[p][TAIL], count(p)))
    state.order = players
    events.append({"type": "turn", "turn": state.turn, "meteor": state.meteor})
    events.append({"type": "initiative", "order": list(players)})
    state.stage = "window"
    cards.open_window(state, "phase1", events)


def _initiative_done(state: EvoState, events: list):
    _phase(state, CLIMATE, events)


def _climate_start(state: EvoState, events: list):
    state.stage = "roll"
    cards.open_window(state, "phase2", events)


def _climate_roll(state: EvoState, events: list):
    if not state.effects.get("climate_set"):
        die = roll(state)
        before = state.climate
        delta = move_climate(state, die)
        state.history["climate"] = {"die": die, "from": before, "to": state.climate}
        events.append({"type": "climate", "die": die, "delta": delta, "square": state.climate,
                       "temperate": TERRAINS[TRACK[state.climate]], "by": turn_order(state)[0]})
    state.stage = "rolled"
    if cards.open_end_window(state, "phase2_end", events):
        state.stage = "ahead"  # the start of movement was in that window


def _climate_done(state: EvoState, events: list):
    _phase(state, MOVEMENT, events)


def _climate_ahead(state: EvoState, events: list):
    _phase(state, MOVEMENT, events)
    state.stage = "begin"  # its opening window was joint with the end of phase 2


def _movement_start(state: EvoState, events: list):
    state.stage = "begin"
    cards.open_window(state, "phase3", events)


def _begin_actors(state: EvoState, events: list):
    state.cur = 0
    state.steps = 0
    state.births = 0
    state.stage = "move" if state.phase == MOVEMENT else "hatch"
    _prepare_actor(state)


def _prepare_actor(state: EvoState) -> None:
    order = turn_order(state)
    if state.cur >= len(order):
        return
    p = order[state.cur]
    if state.phase == MOVEMENT:
        if p in state.effects.get("motivation", ()):
            state.steps = on_board(state, p)
        else:
            state.steps = state.genes[p][LEGS]
    else:
        state.births = min(state.genes[p][EGG], reserve(state, p))


def _movement(state: EvoState, events: list):
    order = turn_order(state)
    while state.cur < len(order):
        p = order[state.cur]
        if can_move(state, p):  # public: a player who cannot move is never kept waiting
            return False
        if state.steps > 0 or on_board(state, p):
            events.append({"type": "movement_end", "player": p, "steps_left": state.steps})
        state.cur += 1
        _prepare_actor(state)
    _phase(state, BIRTHS, events)


def _births_start(state: EvoState, events: list):
    state.newborn = []
    state.stage = "begin"
    cards.open_window(state, "phase4", events)


def _births_begin(state: EvoState, events: list):
    if state.effects.get("no_births"):
        events.append({"type": "no_births"})
        state.stage = "end"
        return
    _begin_actors(state, events)


def _hatching(state: EvoState, events: list):
    order = turn_order(state)
    while state.cur < len(order):
        p = order[state.cur]
        if state.births > 0:
            # a player with no free region is asked (to end, or play a birth card) when they
            # hold a card, whatever it is: hand sizes are public, hands are not
            if can_hatch(state, p) or (state.hands[p] and cards.cards_allowed(state)):
                return False
            events.append({"type": "births_blocked", "player": p, "missed": state.births})
        state.cur += 1
        _prepare_actor(state)
    state.stage = "end"


def _births_end(state: EvoState, events: list):
    state.stage = "done"
    if cards.open_end_window(state, "phase4_end", events):
        state.stage = "ahead"  # the start of survival was in that window


def _births_done(state: EvoState, events: list):
    _phase(state, SURVIVAL, events)


def _births_ahead(state: EvoState, events: list):
    _phase(state, SURVIVAL, events)
    state.lost = [0] * state.n
    state.stage = "resolve"  # its opening window was joint with the end of births


def _survival_start(state: EvoState, events: list):
    state.lost = [0] * state.n
    state.stage = "resolve"
    cards.open_window(state, "phase5", events)


def _survival_resolve(state: EvoState, events: list):
    # one look at every region: the dinos in deadly zones die (in region order), each
    # player's dinos in cold and in hot zones are listed (dinos_in_zone, in region order)
    terr = board(state).terrain
    t = TRACK[state.climate]
    n = state.n
    cold: list[list[int]] = [[] for _ in range(n)]
    hot: list[list[int]] = [[] for _ in range(n)]
    for r, owner in enumerate(state.occ):
        if owner != -1:
            d = terr[r] - t
            if d == 1:
                cold[owner].append(r)
            elif d == -1:
                hot[owner].append(r)
            elif d:  # a deadly zone
                kill(state, r, "deadly", events)
    pending = state.pending = [None] * n
    # survival_capacity of each player, read inline: None (all survive) or the number that do
    e = state.effects
    warm = e.get("pthermolactyl", ())
    cool = e.get("peau_adaptable", ())
    chill = e.get("ca_caille", 0)
    heat = e.get("on_crame", 0)
    genes = state.genes
    def losses(at_risk: list[int], exempt, gene: int, malus: int, cause: str) -> int:
        """How many of ``p``'s dinos at risk (cold or hot) must be chosen to go: all die at
        once when nothing protects them."""
        if not at_risk or p in exempt:
            return 0
        cap = max(0, genes[p][gene] - malus)
        if len(at_risk) <= cap:
            return 0
        if cap == 0:
            for r in at_risk:
                kill(state, r, cause, events)
            return 0
        return len(at_risk) - cap

    for p in turn_order(state):
        need_cold = losses(cold[p], warm, FUR, chill, "cold")
        need_hot = losses(hot[p], cool, PARASOL, heat, "hot")
        if need_cold or need_hot:
            pending[p] = [need_cold, need_hot]
            events.append({"type": "choose_losses", "player": p, "cold": need_cold,
                           "hot": need_hot})
    state.stage = "choose"


def _survival_choose(state: EvoState, events: list):
    if any(x is not None for x in state.pending):
        return False
    gains = []
    for p in range(state.n):
        gain = on_board(state, p)
        state.mp[p] += gain
        gains.append(gain)
    events.append({"type": "points", "gains": gains, "totals": list(state.mp),
                   "lost": list(state.lost)})
    state.stage = "end"


def _survival_end(state: EvoState, events: list):
    state.stage = "done"
    if cards.open_end_window(state, "phase5_end", events):
        state.stage = "ahead"  # the start of phase 6 was in that window


def _survival_done(state: EvoState, events: list):
    state.lost = [0] * state.n
    _phase(state, EVOLUTION, events)


def _survival_ahead(state: EvoState, events: list):
    state.lost = [0] * state.n
    _phase(state, EVOLUTION, events)
    state.stage = "meteor"  # its opening window was joint with the end of survival


def _evolution_start(state: EvoState, events: list):
    state.stage = "meteor"
    cards.open_window(state, "phase6", events)


def _meteorite(state: EvoState, events: list):
    state.meteor += 1
    faces = METEOR_FACES.get(state.meteor)
    ev = {"type": "meteorite", "square": state.meteor, "last": METEOR_LAST,
          "faces": sorted(faces) if faces else None, "die": None, "impact": False,
          "by": turn_order(state)[0]}
    events.append(ev)
    if state.meteor >= METEOR_LAST:
        ev["impact"] = True
    elif faces:
        ev["die"] = roll(state)
        ev["impact"] = ev["die"] in faces
    if ev["impact"]:
        end_game(state, "meteorite", events)
        return
    state.stage = "draw"
    if ev["die"] is not None:  # the game goes on: phase-6 cards may wait until it is known
        cards.open_window(state, "auction", events)


def _evolution_draw(state: EvoState, events: list):
    count = state.n
    if state.options["variant"] or state.effects.get("rate"):
        count = state.n - 1
    genes = []
    bag = state.bag
    rng = Rng(state.rng)  # below(state, ...) for each gene, one generator for them all
    for _ in range(min(count, len(bag))):
        genes.append(bag.pop(rng.below(len(bag))))
    state.rng = rng.state
    order = turn_order(state)
    state.auction = {"genes": genes, "bids": [None] * len(genes), "queue": list(order),
                     "pending": None, "out": [], "can_pass": bool(state.effects.get("rate"))}
    events.append({"type": "auction", "genes": list(genes)})
    state.stage = "bid" if genes else "pay"


def _evolution_bid(state: EvoState, events: list):
    a = state.auction
    if a["pending"] is not None or a["queue"]:  # bidder(state) is not None
        return False
    state.stage = "pay"
    if any(held is not None for held in state.auction["bids"]):
        cards.open_window(state, "pay", events)  # SURSAUT GÉNÉTIQUE "when paying your bid"


def _evolution_pay(state: EvoState, events: list):
    a = state.auction
    if a:
        for slot, gene in enumerate(a["genes"]):
            held = a["bids"][slot]
            if held is None:
                state.bag.append(gene)
                events.append({"type": "gene_returned", "gene": gene})
                continue
            p, amount = held
            price = bid_price(state, p)
            state.mp[p] -= price
            if gene == "card":
                state.gene_discard.append(gene)
                draw_card(state, p, events)
            else:
                state.genes[p][GENE_INDEX[gene]] += 1
            events.append({"type": "bought", "player": p, "gene": gene, "bid": amount,
                           "paid": price, "discount": amount - price})
    state.auction = None
    state.turn += 1
    _phase(state, INITIATIVE, events)


def end_game(state: EvoState, reason: str, events: list) -> None:
    state.window = None
    state.answers = [None] * state.n
    if state.auction:
        state.bag.extend(state.auction["genes"])
        state.auction = None
    for p in range(state.n):
        while "gene_inattendu" in state.hands[p]:
            state.hands[p].remove("gene_inattendu")
            state.discard.append("gene_inattendu")
            state.mp[p] += D["cards"]["inattendu_points"]
            events.append({"type": "card_played", "player": p, "card": "gene_inattendu",
                           "params": {}})
    state.phase = OVER
    state.stage = "over"
    state.result = ranking(state)
    events.append({"type": "game_over", "reason": reason, "ranking": state.result})
    _phase_end(state, events)


def ranking(state: EvoState) -> list[dict]:
    """Final standings: most mutation points, then most dinos on the board; ties share a rank."""
    rows = [{"player": p, "score": state.mp[p], "dinos": on_board(state, p)}
            for p in range(state.n)]
    return rank_rows(rows, lambda r: (r["score"], r["dinos"]))


_STAGES = {
    (INITIATIVE, "start"): _initiative,
    (INITIATIVE, "window"): _initiative_done,
    (CLIMATE, "start"): _climate_start,
    (CLIMATE, "roll"): _climate_roll,
    (CLIMATE, "rolled"): _climate_done,
    (CLIMATE, "ahead"): _climate_ahead,
    (MOVEMENT, "start"): _movement_start,
    (MOVEMENT, "begin"): _begin_actors,
    (MOVEMENT, "move"): _movement,
    (BIRTHS, "start"): _births_start,
    (BIRTHS, "begin"): _births_begin,
    (BIRTHS, "hatch"): _hatching,
    (BIRTHS, "end"): _births_end,
    (BIRTHS, "done"): _births_done,
    (BIRTHS, "ahead"): _births_ahead,
    (SURVIVAL, "start"): _survival_start,
    (SURVIVAL, "resolve"): _survival_resolve,
    (SURVIVAL, "choose"): _survival_choose,
    (SURVIVAL, "end"): _survival_end,
    (SURVIVAL, "done"): _survival_done,
    (SURVIVAL, "ahead"): _survival_ahead,
    (EVOLUTION, "start"): _evolution_start,
    (EVOLUTION, "meteor"): _meteorite,
    (EVOLUTION, "draw"): _evolution_draw,
    (EVOLUTION, "bid"): _evolution_bid,
    (EVOLUTION, "pay"): _evolution_pay,
}
