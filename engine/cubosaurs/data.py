"""Cubosaurs' numbers, read once from ``cubosaurs.toml`` (the single data file of the game).

* ``CARDS``: the 55 card ids in a fixed order (``trex-1`` .. ``black-7``, then the eggs
  ``egg-trex`` .. ``egg-raptor``); ``card(cid)`` -> :class:`Card`.
* ``TYPES``: the 8 card types (all eggs are one type, grey and black are two);
  ``SPECIES``: the 5 species scored by a table; ``EGG_SPECIES``: what the 6 eggs name.
* ``TILES``: the 10 DNA tile ids in rulebook order; ``tile(tid)`` -> :class:`Tile`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources


@cache
def rules_data() -> dict:
    """The parsed ``cubosaurs.toml`` (read once per process)."""
    text = resources.files("engine.cubosaurs").joinpath("cubosaurs.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@dataclass(frozen=True)
class Card:
    """One card. ``copy``: 1..7 (eggs: 1). ``value``: a Velociraptor's printed value (0 for the
    other cards). ``species``: what the card counts as for the eggs (``trex``..``penta``,
    ``raptor`` for grey and black; an egg: the species it names). ``plus``/``minus``: an
    egg's points with / without the majority (``minus`` is negative; 0 for other cards)."""

    id: str
    type: str
    copy: int
    value: int
    dna: bool
    species: str
    plus: int
    minus: int


@dataclass(frozen=True)
class Tile:
    """One DNA Evolution tile: its cost in tokens, ``timing`` ("end" or "instant"), the
    interactive icon, and ``points`` (per type / per egg, end tiles only)."""

    id: str
    cost: int
    timing: str
    interactive: bool
    points: int = 0


def _build() -> tuple[tuple[Card, ...], tuple[Tile, ...]]:
    d = rules_data()
    types = d["cards"]["types"]
    copies = d["cards"]["copies"]
    symbol = d["dna"]["symbol"]
    cards: list[Card] = []
    for ty in types:
        if ty == "egg":
            continue
        values = d["raptors"].get(ty)
        for k in range(1, copies + 1):
            cards.append(Card(
                id=f"{ty}-{k}", type=ty, copy=k, value=values[k - 1] if values else 0,
                dna=k in symbol.get(ty, []), species="raptor" if values else ty, plus=0, minus=0))
    for i, sp in enumerate(d["cards"]["eggs"], start=1):
        egg = d["eggs"][sp]
        cards.append(Card(id=f"egg-{sp}", type="egg", copy=1, value=0,
                          dna=i in symbol.get("egg", []), species=sp,
                          plus=int(egg["plus"]), minus=int(egg["minus"])))
    tiles = tuple(Tile(id=t["id"], cost=int(t["cost"]), timing=t["timing"],
                       interactive=bool(t["interactive"]), points=int(t.get("points", 0)))
                  for t in d["tiles"])
    if len({c.id for c in cards}) != len(cards) or len({t.id for t in tiles}) != len(tiles):
        raise ValueError("cubosaurs.toml: duplicate card or tile ids")
    for t in tiles:
        if t.timing not in ("end", "instant"):
            raise ValueError(f"cubosaurs.toml: tile {t.id} has an unknown timing {t.timing!r}")
    return tuple(cards), tiles


_CARDS, _TILES = _build()

CARDS: tuple[str, ...] = tuple(c.id for c in _CARDS)
TYPES: tuple[str, ...] = tuple(rules_data()["cards"]["types"])
SPECIES: tuple[str, ...] = tuple(rules_data()["species"])
EGG_SPECIES: tuple[str, ...] = tuple(rules_data()["cards"]["eggs"])
TILES: tuple[str, ...] = tuple(t.id for t in _TILES)
CARD_INDEX: dict[str, int] = {cid: i for i, cid in enumerate(CARDS)}

_CARD_BY_ID = {c.id: c for c in _CARDS}
_TILE_BY_ID = {t.id: t for t in _TILES}


def card(cid: str) -> Card:
    """The card with this id (``KeyError`` if there is none)."""
    return _CARD_BY_ID[cid]


def tile(tid: str) -> Tile:
    """The tile with this id (``KeyError`` if there is none)."""
    return _TILE_BY_ID[tid]


def tiles_in_play(interactive: bool = True) -> tuple[str, ...]:
    """The tiles used in a game: all 10, or the 6 without the interactive icon."""
    return tuple(t.id for t in _TILES if interactive or not t.interactive)
