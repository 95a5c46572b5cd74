"""Scoring a collection at the end of a round (also used for the live score in views)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cubosaurs.data import CARDS, SPECIES, TYPES, card, rules_data, tile

# the parts of a breakdown, in order; "total" is their sum
PARTS = (*SPECIES, "raptors", "eggs", "tiles")
KEYS = (*PARTS, "total")

_D = rules_data()
_TABLES = {s: tuple(_D["species"][s]) for s in SPECIES}
_TYPE = {cid: card(cid).type for cid in CARDS}
_SPECIES = {cid: card(cid).species for cid in CARDS}
_VALUE = {cid: card(cid).value for cid in CARDS}
_EGG = {cid: (card(cid).species, card(cid).plus, card(cid).minus)
        for cid in CARDS if card(cid).type == "egg"}


def species_points(species: str, count: int) -> int:
    """Points of ``count`` copies of a table species (0 copies: 0)."""
    if count <= 0:
        return 0
    table = _TABLES[species]
    return table[min(count, len(table)) - 1]


def raptor_points(greys: list[int], blacks: list[int]) -> int:
    """The best score of Velociraptors with these values: each grey + black pair scores both
    values, each card left alone loses its value.

    Pairing more cards never hurts (a pair turns two losses into two gains), so there are
    min(greys, blacks) pairs, and the cards left alone are the smallest of the larger colour.
    """
    pairs = min(len(greys), len(blacks))
    longer = sorted(greys if len(greys) > len(blacks) else blacks)
    alone = longer[: len(longer) - pairs]
    return sum(greys) + sum(blacks) - 2 * sum(alone)


def _counts(collection: Sequence[str]) -> dict[str, int]:
    """Cards per egg species ("raptor" = grey + black) in a collection (eggs not counted)."""
    out: dict[str, int] = {}
    for cid in collection:
        if cid in _EGG:
            continue
        sp = _SPECIES[cid]
        out[sp] = out.get(sp, 0) + 1
    return out


def all_counts(collections: Sequence[Sequence[str]]) -> list[dict[str, int]] | None:
    """Every collection's cards per egg species, for :func:`breakdown`'s ``counts`` (one pass
    for every player's breakdown); None when no collection holds an egg (none are needed)."""
    if not any(cid in _EGG for c in collections for cid in c):
        return None
    return [_counts(c) for c in collections]


def breakdown(collections: Sequence[Sequence[str]], player: int,
              tiles: Sequence[str] = (), counts: list[dict[str, int]] | None = None) -> dict:
    """The points of ``player``'s collection, part by part, as if the round ended now.

    ``collections``: every player's collection (the eggs compare with the opponents);
    ``tiles``: the end-of-round DNA tiles in front of ``player`` (instant tiles score nothing).
    An egg gives its ``plus`` when the player has at least one card of its species and no
    opponent has more, else its ``minus``. ``counts``: :func:`all_counts` of
    ``collections``, when the caller has it.
    """
    mine = collections[player]
    types = dict.fromkeys(TYPES, 0)
    greys: list[int] = []
    blacks: list[int] = []
    eggs: list[str] = []
    for cid in mine:
        ty = _TYPE[cid]
        types[ty] += 1
        if ty == "grey":
            greys.append(_VALUE[cid])
        elif ty == "black":
            blacks.append(_VALUE[cid])
        elif ty == "egg":
            eggs.append(cid)
    out = {}
    for s, table in _TABLES.items():  # species_points, inlined
        k = types[s]
        out[s] = table[min(k, len(table)) - 1] if k > 0 else 0
    out["raptors"] = raptor_points(greys, blacks)
    egg_points = 0
    if eggs:
        if counts is None:
            counts = [_counts(c) for c in collections]
        own = counts[player]
        others = [c for q, c in enumerate(counts) if q != player]
        for cid in eggs:
            sp, plus, minus = _EGG[cid]
            have = own.get(sp, 0)
            best = max((o.get(sp, 0) for o in others), default=0)
            egg_points += plus if have >= 1 and have >= best else minus
    out["eggs"] = egg_points
    tile_points = 0
    for tid in tiles:
        if tid == "type_bonus":
            tile_points += tile(tid).points * sum(1 for v in types.values() if v)
        elif tid == "egg_bonus":
            tile_points += tile(tid).points * types["egg"]
    out["tiles"] = tile_points
    out["total"] = sum(out.values())  # the PARTS, each once
    return out


def zero_breakdown() -> dict:
    return dict.fromkeys(KEYS, 0)
