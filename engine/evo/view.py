"""What one seat may see of a game, and how to rebuild a plausible full state from it.

A view never contains another player's cards, the deck or the bag order, or the random
generator (which would reveal every future die). Spectators (``viewer=None``) get the public
view. AI seats get only their own view and use :func:`determinize` to imagine the rest.
"""

from __future__ import annotations

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

# What every view repeats, built once: the climate track, the zones of the terrains on each
# square of it, the meteorite's faces; the deck's cards (sorted) and their counts.
_TRACK = tuple(R.D["climate"]["track"])
_ZONES = [{R.TERRAINS[t]: ("temperate" if t == T else "cold" if t - T == 1
                           else "hot" if t - T == -1 else "deadly")
           for t in range(len(R.TERRAINS))} for T in R.TRACK]
_FACES = {str(k): sorted(v) for k, v in R.METEOR_FACES.items()}
_DECK_COUNTS: dict[str, int] = {}
for _card in R.D["cards"]["deck"]:
    _DECK_COUNTS[_card] = _DECK_COUNTS.get(_card, 0) + 1
_DECK_NAMES = sorted(_DECK_COUNTS)


def _public(state: EvoState) -> dict:
    """The public fields (``_PUBLIC``, in that order) as independent copies: a view never
    shares a list with the state (nor a world with its view), each field copied as deep as
    it goes (see ``EvoState.clone``)."""
    w = state.window
    r = state.retrievable
    return {
        "seats": [seat.copy() for seat in state.seats],
        "options": state.options.copy(),
        "turn": state.turn,
        "phase": state.phase,
        "stage": state.stage,
        "order": state.order[:],
        "climate": state.climate,
        "meteor": state.meteor,
        "occ": state.occ[:],
        "mp": state.mp[:],
        "genes": [g[:] for g in state.genes],
        "locked": [h[:] for h in state.locked],
        "discard": state.discard[:],
        "gene_discard": state.gene_discard[:],
        "effects": json_copy(state.effects) if state.effects else {},
        "window": None if w is None else {k: v[:] if type(v) is list else v
                                          for k, v in w.items()},
        "cur": state.cur,
        "steps": state.steps,
        "births": state.births,
        "newborn": state.newborn[:],
        "pending": [x if x is None else x[:] for x in state.pending],
        "lost": state.lost[:],
        "auction": None if state.auction is None else json_copy(state.auction),
        "result": None if state.result is None else json_copy(state.result),
        "retrievable": None if r is None else r.copy(),
        "history": json_copy(state.history),
        "step": state.step,
        "keys": state.keys[:],
    }


def view(state: EvoState, viewer: int | None) -> dict:
    """The game as seat ``viewer`` sees it (``None``: a spectator)."""
    b = R.board(state)
    hands = state.hands
    occ = state.occ
    public = _public(state)
    public["hand_counts"] = [len(h) for h in hands]
    # the card window's answers are secret until the round is resolved: only one's own
    public["answers"] = [a if q == viewer else None for q, a in enumerate(state.answers)]
    public["hand"] = hands[viewer][:] if viewer is not None else None
    public["deck_count"] = len(state.deck)
    bag = state.bag
    public["bag_counts"] = {k: bag.count(k) for k in BAG_KINDS}
    players = []
    dinos = R.DINOS
    for p, seat in enumerate(state.seats):
        on = occ.count(p)
        players.append({
            "seat": seat["id"],
            "name": seat["name"],
            "mp": state.mp[p],
            "genes": dict(zip(GENE_KINDS, state.genes[p], strict=True)),
            "dinos": on,
            "reserve": dinos - on,
            "cards": len(hands[p]),
            "hand": hands[p][:] if p == viewer else None,
        })
    return {
        "kind": "evo",
        "viewer": viewer,
        "turn": state.turn,
        "phase": PHASE_NAMES[state.phase],
        "over": state.phase == R.OVER,
        "players": players,
        "order": R.turn_order(state)[:],
        "awaiting": R.to_act(state),
        "climate": {"square": state.climate, "track": list(_TRACK),
                    "temperate": R.TERRAINS[R.TRACK[state.climate]],
                    "zones": _ZONES[state.climate].copy()},
        "meteor": {"square": state.meteor, "last": R.METEOR_LAST,
                   "faces": {k: v[:] for k, v in _FACES.items()}},
        "regions": [{"name": name, "owner": owner}
                    for name, owner in zip(b.names, occ, strict=True)],
        "state": public,
    }


def determinize(v: dict, seed: int) -> EvoState:
    """A full state consistent with view ``v``: unseen cards dealt at random, a fresh rng.

    Used by the strong AI to play out imagined futures; never used to show anything.
    """
    public = v["state"]
    # the public fields straight from the view, then the state copied as a whole (the
    # world never shares a list with its view: the rules change it in place)
    t = EvoState.__new__(EvoState)
    for k in _PUBLIC:
        setattr(t, k, public[k])
    me = v["viewer"]
    n = len(t.seats)
    t.seed = t.rng = seed
    t.hands = [[] for _ in range(n)]
    t.deck = t.bag = []
    t.answers = [None] * n
    s = t.clone()
    counts = _DECK_COUNTS.copy()
    for card in public["discard"]:
        counts[card] = counts.get(card, 0) - 1
    if me is not None:
        for card in public["hand"]:
            counts[card] = counts.get(card, 0) - 1
    for p in range(n):
        if p != me:
            for card in public["locked"][p]:
                counts[card] = counts.get(card, 0) - 1
    pool = []
    for card in _DECK_NAMES:  # sorted, as the cards are dealt from a sorted pool
        c = counts[card]
        if c > 0:
            pool += [card] * c
    R.shuffle(s, pool)
    hands = s.hands
    hand_counts = public["hand_counts"]
    for p in range(n):
        if p == me:
            hands[p] = public["hand"][:]
            continue
        known = public["locked"][p][:]
        need = min(hand_counts[p] - len(known), len(pool))
        if need > 0:
            known += pool[-need:][::-1]  # what popping them one by one gave
            del pool[-need:]
        hands[p] = known
    # the others' answers in the card window's round are unseen: imagine a pass
    answers = s.answers
    if me is not None:
        a = public["answers"][me]
        answers[me] = None if a is None else a.copy()
    if s.window is not None:
        for q in s.window["answered"]:
            if q != me:
                answers[q] = {"type": "pass"}
    s.deck = pool[: public["deck_count"]]
    bag = []
    bag_counts = public["bag_counts"]
    for k in BAG_KINDS:
        bag += [k] * bag_counts[k]
    s.bag = bag
    return s
