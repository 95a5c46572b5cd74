"""What a seat of the fifth game sees: its own hand, everybody's hand size, who has played
this round (not what), the last round's cards and the scores."""

from __future__ import annotations

from engine.core import Rng, json_copy


def view(s, viewer: int | None) -> dict:
    return {
        "kind": "fifth", "viewer": viewer, "round": s.round, "phase": s.phase,
        "options": dict(s.options), "step": s.step,
        "players": [{"id": seat["id"], "name": seat["name"], "score": s.scores[p],
                     "cards": len(s.hands[p]), "played": s.played[p] is not None,
                     "hand": list(s.hands[p]) if p == viewer else None,
                     "card": s.played[p] if p == viewer else None}
                    for p, seat in enumerate(s.seats)],
        "last": list(s.last), "awaiting": [p for p in range(s.n)
                                           if s.phase == "play" and s.played[p] is None],
        "result": json_copy(s.result),
    }


def determinize(v: dict, seed: int):
    """A full state consistent with ``v``: the cards the viewer cannot see dealt at random."""
    from tests.fifth_game.rules import CARDS, value
    from tests.fifth_game.state import FifthState

    s = FifthState()
    me = v["viewer"]
    players = v["players"]
    s.seats = [{"id": row["id"], "name": row["name"]} for row in players]
    s.options = dict(v["options"])
    s.seed = int(seed)
    s.round, s.phase, s.step = v["round"], v["phase"], v["step"]
    s.scores = [row["score"] for row in players]
    s.last = list(v["last"])
    s.result = json_copy(v["result"])
    s.keys = [0] * len(players)
    known = set(players[me]["hand"] or []) if me is not None else set()
    if me is not None and players[me]["card"]:
        known.add(players[me]["card"])
    # cards already revealed are out of the game; the others are unseen
    rng = Rng(seed)
    unseen = [c for c in CARDS if c not in known]
    rng.shuffle(unseen)
    s.rng = rng.state
    s.hands, s.played = [], []
    for p, row in enumerate(players):
        if p == me:
            s.hands.append(sorted(row["hand"], key=value))
            s.played.append(row["card"])
            continue
        s.hands.append(sorted((unseen.pop() for _ in range(row["cards"])), key=value))
        s.played.append(unseen.pop() if row["played"] else None)
    return s
