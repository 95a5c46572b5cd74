"""What one seat may see of a game, and how to rebuild a plausible full state from it.

A view never contains another player's cards, the deck or the bag order, or the random
generator (which would reveal every future die). Spectators (``viewer=None``) get the public
view. AI seats get only their own view and use :func:`determinize` to imagine the rest.
"""

from __future__ import annotations

from collections import Counter

from engine.core import json_copy
from engine.evo import rules as R
from engine.evo.data import BAG_KINDS, GENE_KINDS
from engine.evo.state import PHASE_NAMES, EvoState

# State fields that are public as they are.
_PUBLIC = (
    "seats", "options", "turn", "phase", "stage", "order", "climate", "meteor", "occ", "mp",
    "genes", "locked", "discard", "gene_discard", "effects", "window", "cur", "steps",
    "births", "newborn", "pending", "lost", "auction", "result", "retrievable", "history",
    "step", "keys",
)


def view(state: EvoState, viewer: int | None) -> dict:
    """The game as seat ``viewer`` sees it (``None``: a spectator)."""
    b = R.board(state)
    n = state.n
    public = {k: json_copy(getattr(state, k)) for k in _PUBLIC}
    public["hand_counts"] = [len(h) for h in state.hands]
    # the card window's answers are secret until the round is resolved: only one's own
    public["answers"] = [a if q == viewer else None for q, a in enumerate(state.answers)]
    public["hand"] = list(state.hands[viewer]) if viewer is not None else None
    public["deck_count"] = len(state.deck)
    public["bag_counts"] = {k: state.bag.count(k) for k in BAG_KINDS}
    zones = {R.TERRAINS[t]: R.zone_of(state, t) for t in range(len(R.TERRAINS))}
    players = []
    for p in range(n):
        players.append({
            "seat": state.seats[p]["id"],
            "name": state.seats[p]["name"],
            "mp": state.mp[p],
            "genes": dict(zip(GENE_KINDS, state.genes[p], strict=True)),
            "dinos": R.on_board(state, p),
            "reserve": R.reserve(state, p),
            "cards": len(state.hands[p]),
            "hand": list(state.hands[p]) if p == viewer else None,
        })
    return {
        "kind": "evo",
        "viewer": viewer,
        "turn": state.turn,
        "phase": PHASE_NAMES[state.phase],
        "over": state.phase == R.OVER,
        "players": players,
        "order": list(R.turn_order(state)),
        "awaiting": R.to_act(state),
        "climate": {"square": state.climate, "track": list(R.D["climate"]["track"]),
                    "temperate": R.TERRAINS[R.TRACK[state.climate]], "zones": zones},
        "meteor": {"square": state.meteor, "last": R.METEOR_LAST,
                   "faces": {str(k): sorted(v) for k, v in R.METEOR_FACES.items()}},
        "regions": [{"name": b.names[r], "owner": state.occ[r]} for r in range(len(b))],
        "state": public,
    }


def determinize(v: dict, seed: int) -> EvoState:
    """A full state consistent with view ``v``: unseen cards dealt at random, a fresh rng.

    Used by the strong AI to play out imagined futures; never used to show anything.
    """
    public = v["state"]
    s = EvoState()
    for k in _PUBLIC:
        setattr(s, k, json_copy(public[k]))
    s.seed = seed
    s.rng = seed
    me = v["viewer"]
    n = len(s.seats)
    unseen = Counter(R.D["cards"]["deck"])
    unseen.subtract(public["discard"])
    if me is not None:
        unseen.subtract(public["hand"])
    for p in range(n):
        if p != me:
            unseen.subtract(public["locked"][p])
    pool = sorted(unseen.elements())
    R.shuffle(s, pool)
    hands = []
    for p in range(n):
        if p == me:
            hands.append(list(public["hand"]))
            continue
        known = list(public["locked"][p])
        need = public["hand_counts"][p] - len(known)
        hands.append(known + [pool.pop() for _ in range(max(0, min(need, len(pool))))])
    s.hands = hands
    # the others' answers in the card window's round are unseen: imagine a pass
    s.answers = [json_copy(public["answers"][q]) if q == me else None for q in range(n)]
    if s.window is not None:
        for q in s.window["answered"]:
            if q != me:
                s.answers[q] = {"type": "pass"}
    s.deck = pool[: public["deck_count"]]
    s.bag = [k for k in BAG_KINDS for _ in range(public["bag_counts"][k])]
    return s
