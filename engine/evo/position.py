"""Reading an EVO position: the small helpers that the event cards and the rules share (the
board, dinos on it and in reserve, the order of play and who acts in a sequential stage,
region names, a dino's death, the climate marker's move, a bid's price). It imports only
``data`` and ``state``, so both modules above can use it: ``data`` -> ``state`` ->
``position`` -> ``cards`` -> ``rules`` (-> ``checks``, ``view``, ``ai``). ``rules`` still
offers every name here (``rules.board``, ``rules.TRACK``...), for the modules that read them
there."""

from __future__ import annotations

from engine.core import IllegalAction
from engine.evo.data import GENE_KINDS, board_for, rules_data
from engine.evo.state import SURVIVAL, EvoState

D = rules_data()
TAIL, FUR, LEGS, PARASOL, HORNS, MUTANT, EGG = range(len(GENE_KINDS))
GENE_INDEX = {k: i for i, k in enumerate(GENE_KINDS)}
TERRAINS = D["climate"]["terrains"]
TRACK = [TERRAINS.index(t) for t in D["climate"]["track"]]
FORWARD = set(D["climate"]["forward_faces"])
BACKWARD = set(D["climate"]["backward_faces"])
DINOS = D["setup"]["dinos_per_species"]


# --- the board --------------------------------------------------------------------------------

_BOARDS: dict = {}  # board_for's islands by number of players, once asked for here


def board(state: EvoState):
    b = _BOARDS.get(len(state.seats))
    if b is None:
        b = _BOARDS[len(state.seats)] = board_for(len(state.seats))
    return b


def on_board(state: EvoState, p: int) -> int:
    return state.occ.count(p)


def dinos_of(occ: list[int], p: int) -> list[int]:
    """The regions where ``p``'s dinos stand (``occ``: ``state.occ``), in region order: found
    with ``list.index`` from one to the next rather than a look at every region."""
    out = []
    index = occ.index
    r = -1
    for _ in range(occ.count(p)):
        r = index(p, r + 1)
        out.append(r)
    return out


def reserve(state: EvoState, p: int) -> int:
    return DINOS - state.occ.count(p)


def region_name(state: EvoState, r: int) -> str:
    return board(state).names[r]


def parse_region(state: EvoState, name) -> int:
    if isinstance(name, str):
        b = board(state)
        r = b.index.get(name)  # the usual spelling; anything else as Board.region reads it
        if r is None:
            r = b.region(name)
    else:
        r = None
    if r is None:
        raise IllegalAction("unknown_region", region=str(name))
    return r


def kill(state: EvoState, region: int, cause: str, events: list) -> None:
    p = state.occ[region]
    state.occ[region] = -1
    if state.phase == SURVIVAL and state.lost:
        state.lost[p] += 1
    if region in state.newborn:
        state.newborn.remove(region)
    events.append({"type": "death", "player": p, "region": board(state).names[region],
                   "cause": cause})


def move_climate(state: EvoState, die: int) -> int:
    """Move the climate marker as a die roll says; returns the squares moved (-1, 0, +1)."""
    delta = 1 if die in FORWARD else -1 if die in BACKWARD else 0
    state.climate = (state.climate + delta) % len(TRACK)
    return delta


# --- who acts ----------------------------------------------------------------------------------

def turn_order(state: EvoState) -> list[int]:
    """The order of play in the current phase: the initiative, with MOI D'ABORD's player
    first when they chose to be in this phase."""
    e = state.effects
    if "first" not in e:
        return state.order
    first = e["first"]
    if first is None or not e.get("first_go"):
        return state.order
    return [first] + [p for p in state.order if p != first]


def current_actor(state: EvoState) -> int | None:
    """The single player acting in a sequential stage (not windows, not survival)."""
    order = turn_order(state)
    if state.stage in ("move", "hatch") and state.cur < len(order):
        return order[state.cur]
    if state.stage == "bid" and state.auction:
        return bidder(state)
    return None


def bidder(state: EvoState) -> int | None:
    a = state.auction
    if a["pending"] is not None:
        return a["pending"]
    return a["queue"][0] if a["queue"] else None


# --- the auction -------------------------------------------------------------------------------

def bid_price(state: EvoState, p: int) -> int | None:
    """What ``p`` pays for the gene they hold on the auction table (after the mutant and
    SURSAUT discounts, never below zero), or None when they hold none."""
    for held in state.auction["bids"] if state.auction else ():
        if held is not None and held[0] == p:
            return max(0, held[1] - discount(state, p))
    return None


def discount(state: EvoState, p: int) -> int:
    """Points taken off ``p``'s price: one per mutant gene, three per SURSAUT played."""
    played = state.effects.get("sursaut")  # {str(player): SURSAUT cards played}
    if played:
        return state.genes[p][MUTANT] + played.get(str(p), 0) * D["cards"]["sursaut_value"]
    return state.genes[p][MUTANT]

