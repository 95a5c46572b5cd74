"""What a seat may see of a game of Cubosaurs, and how to rebuild a plausible full state.

Everything is public (collections, the hand in play, tokens, tiles, the offer, scores)
except the deck order, which cards are set aside, the tile pile order and the random
generator. So every viewer gets the same view except the ``viewer`` field. AI seats use
:func:`determinize` to imagine the hidden part.
"""

from __future__ import annotations

from engine.core import Rng
from engine.cubosaurs import rules as R
from engine.cubosaurs.data import CARD_INDEX, CARDS, tiles_in_play
from engine.cubosaurs.scoring import all_counts, breakdown
from engine.cubosaurs.state import CuboState


def view(state: CuboState, viewer: int | None) -> dict:
    """The game as seat ``viewer`` sees it (``None``: a spectator)."""
    s = state
    n = s.n
    over = s.stage == "over"
    totals = R.round_totals(s)
    counts = all_counts(s.collections)
    players = []
    for p in range(n):
        bonus = R.token_points(s, p) if over else 0
        players.append({
            "name": s.seats[p]["name"],
            "id": s.seats[p]["id"],
            "collection": sorted(s.collections[p], key=CARD_INDEX.__getitem__),
            "tokens": s.tokens[p],
            "tiles": list(s.tiles[p]),
            "score": breakdown(s.collections, p, s.tiles[p], counts),
            "rounds": [r[p]["total"] for r in s.scores],
            "bonus": bonus,
            "total": totals[p] + bonus,
        })
    return {
        "kind": "cubosaurs",
        "round": s.round,
        "rounds": s.rounds,
        "turn": s.turn,
        "direction": s.direction,
        "first": s.first,
        "current": s.current,
        "awaiting": R.to_act(s),
        "over": over,
        "viewer": viewer,
        "stage": s.stage,
        "deck": len(s.deck),
        "aside": len(s.aside),
        "hand": list(s.hand),
        "hand_from": s.hand_from,
        "advanced": s.options["advanced"],
        "interactive": s.options["interactive"],
        "reserve": s.reserve,
        "offer": list(s.offer),
        "pile": len(s.pile),
        "bought": s.bought,
        "debt": {"player": s.debts[0][0], "count": s.debts[0][1]} if s.debts else None,
        "debts": [list(d) for d in s.debts],
        "players": players,
        # breakdowns and result rows are flat dicts of numbers
        "round_scores": [[dict(b) for b in r] for r in s.scores],
        "last_scores": [dict(b) for b in s.scores[-1]] if s.scores else None,
        "result": None if s.result is None else [dict(r) for r in s.result],
    }


def determinize(v: dict, seed: int) -> CuboState:
    """A full state consistent with view ``v``: the unseen cards split at random between the
    deck and the set-aside cards, the tile pile shuffled, a fresh generator.

    Used by the AI to play out imagined futures; never used to show anything.
    """
    s = CuboState()
    s.seats = [{"id": row["id"], "name": row["name"]} for row in v["players"]]
    s.options = {"advanced": bool(v["advanced"]), "interactive": bool(v["interactive"])}
    s.seed = int(seed)
    for k in ("round", "rounds", "stage", "first", "direction", "current", "turn",
              "hand_from", "reserve", "bought"):
        setattr(s, k, v[k])
    s.hand = list(v["hand"])
    s.collections = [list(row["collection"]) for row in v["players"]]
    s.tokens = [row["tokens"] for row in v["players"]]
    s.tiles = [list(row["tiles"]) for row in v["players"]]
    s.offer = list(v["offer"])
    s.debts = [list(d) for d in v["debts"]]
    s.scores = [[dict(b) for b in r] for r in v["round_scores"]]
    s.result = None if v["result"] is None else [dict(r) for r in v["result"]]
    rng = Rng(seed)
    seen = set(s.hand)
    for c in s.collections:
        seen.update(c)
    unseen = [c for c in CARDS if c not in seen]
    rng.shuffle(unseen)
    s.deck = unseen[: v["deck"]]
    s.aside = unseen[v["deck"]:]
    if s.options["advanced"]:
        placed = set(s.offer)
        for t in s.tiles:
            placed.update(t)
        s.pile = [t for t in tiles_in_play(s.options["interactive"]) if t not in placed]
        rng.shuffle(s.pile)
    s.rng = rng.state
    return s
