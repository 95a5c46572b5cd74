"""What a seat may see of a game of Random Mutations, and how to imagine the hidden part.

Public: the rows (species, their trait cards, animals with their tokens), the centre and the
dice, whose turn it is, the owed choice, scores. Hidden from everyone, the owner included:
the order and content of every personal deck and of the main deck, the face of every animal
card (it lies lizard up) and the cards removed from the game: a view shows counts only. So
every viewer gets the same view except the ``viewer`` field.
"""

from __future__ import annotations

import functools

from engine.core import Rng, json_copy
from engine.mutations import rules as R
from engine.mutations.data import TRAIT_OF, cards
from engine.mutations.state import MutState


def view(state: MutState, viewer: int | None) -> dict:
    s = state
    players = []
    for p in range(s.n):
        row = []
        for sp in s.rows[p]:
            tr = R.traits_of(s, sp, p)
            need = R.need(tr)  # R.is_fed(a, tr): the animal's food reaches it
            row.append({
                "id": sp["id"],
                "parent": sp["parent"],
                "traits": [TRAIT_OF[c] for c in sp["traits"]],
                "all_traits": tr,
                "need": need,
                "animals": [{"id": a["id"], "red": a["red"], "blue": a["blue"],
                             "burrow": a["burrow"], "parasites": a["parasites"],
                             "attacked": a["attacked"], "fed": a["red"] + a["blue"] >= need}
                            for a in sp["animals"]],
            })
        players.append({
            "name": s.seats[p]["name"],
            "id": s.seats[p]["id"],
            "species": row,
            "deck": len(s.decks[p]),
            "passed": s.passed[p],
            "lost": s.lost[p],
            "score": R.score(s, p),
        })
    pend = None
    if s.pending is not None:
        pend = {k: json_copy(v) for k, v in s.pending.items() if k != "card"}
        if "card" in s.pending:  # the dark card has been turned: its trait is public
            pend["trait"] = TRAIT_OF[s.pending["card"]]
    return {
        "kind": "mutations",
        "viewer": viewer,
        "turn": s.turn,
        "phase": s.phase,
        "first": s.first,
        "current": s.current,
        "last": s.last,
        "awaiting": R.to_act(s),
        "over": s.phase == "over",
        "divergence": s.options["divergence"],
        "boxes": s.boxes,
        "main": len(s.main),
        "removed": len(s.removed),
        "centre": dict(s.centre),
        "dice": {k: list(v) for k, v in s.dice.items()},
        "supply": R.supply(s),
        "passes": s.passes,
        "next_id": s.next_id,
        "grazed": s.grazed,
        "pending": pend,
        "queue": list(s.queue),
        "players": players,
        "result": json_copy(s.result),
    }


@functools.cache
def _pool(boxes: int) -> dict[str, tuple[str, ...]]:
    """Every card of a game of ``boxes`` boxes by trait, in ``cards`` order (read only)."""
    pool: dict[str, list[str]] = {}
    for c in cards(boxes):
        pool.setdefault(TRAIT_OF[c], []).append(c)
    return {t: tuple(same) for t, same in pool.items()}


def determinize(v: dict, seed: int) -> MutState:
    """A full state consistent with view ``v``: the unseen cards (decks, main deck, animal
    faces, removed cards) dealt at random, a fresh generator. For AI rollouts only."""
    s = MutState.__new__(MutState)  # every slot is set below
    players = v["players"]
    n = len(players)
    s.seats = [{"id": row["id"], "name": row["name"]} for row in players]
    s.options = {"divergence": bool(v["divergence"])}
    s.seed = int(seed)
    s.boxes = v["boxes"]
    s.turn, s.first, s.current, s.phase, s.last = (v["turn"], v["first"], v["current"],
                                                   v["phase"], v["last"])
    s.centre = dict(v["centre"])
    s.dice = {k: list(x) for k, x in v["dice"].items()}
    s.passes, s.grazed = v["passes"], v["grazed"]
    s.queue = list(v["queue"])
    s.result = json_copy(v["result"])
    s.lost = [row["lost"] for row in players]
    s.passed = [row["passed"] for row in players]
    rng = Rng(seed)
    pool = {t: list(same) for t, same in _pool(s.boxes).items()}

    pend = json_copy(v["pending"])
    if pend is not None and "trait" in pend:
        pend["card"] = pool[pend.pop("trait")].pop()
    s.pending = pend
    rows = []
    max_id = 0
    for row in players:
        out = []
        for sp in row["species"]:
            if sp["id"] > max_id:
                max_id = sp["id"]
            out.append({"id": sp["id"], "parent": sp["parent"],
                        "traits": [pool[t].pop() for t in sp["traits"]], "animals": []})
        rows.append(out)
    unseen = [c for t in pool for c in pool[t]]
    rng.shuffle(unseen)
    pop = unseen.pop
    for out, row in zip(rows, players, strict=True):
        for sp, vsp in zip(out, row["species"], strict=True):
            animals = sp["animals"]
            for a in vsp["animals"]:
                if a["id"] > max_id:
                    max_id = a["id"]
                animals.append({"id": a["id"], "card": pop(), "red": a["red"],
                                "blue": a["blue"], "burrow": a["burrow"],
                                "parasites": a["parasites"], "attacked": a["attacked"]})
    s.rows = rows
    s.next_id = max(max_id + 1, v["next_id"])

    def deal(k: int) -> list[str]:
        """The top ``k`` unseen cards, the last first (as ``k`` pops)."""
        if k > len(unseen):
            raise IndexError("pop from empty list")
        if k <= 0:
            return []
        out = unseen[:-k - 1:-1]
        del unseen[-k:]
        return out

    s.decks = [deal(row["deck"]) for row in players]
    s.main = deal(v["main"])
    s.removed = unseen
    s.rng = rng.state
    assert len(s.removed) == v["removed"] and n == s.n
    return s
