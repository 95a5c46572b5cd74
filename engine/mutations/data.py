"""Random Mutations' numbers, read once from ``mutations.toml`` (the single data file of the game).

* ``TRAITS``: the 16 trait keys in rulebook order; ``trait(key)`` -> :class:`Trait`.
* ``cards(boxes)``: the card ids of one box (90) or two (180): ``"<trait>-<k>"``, k from 1.
* ``TRAIT_OF``: card id -> its trait key (the card's face; its back is an animal).
* ``boxes_for(n)``, ``climate_dice(n)``: the boxes and the climate dice for ``n`` players.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources


@cache
def rules_data() -> dict:
    """The parsed ``mutations.toml`` (read once per process)."""
    text = resources.files("engine.mutations").joinpath("mutations.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


@dataclass(frozen=True)
class Trait:
    """One trait: its key, the copies per box, its food bonus (per animal, and points per
    card) and whether its cards are dark (negative)."""

    key: str
    copies: int
    food: int
    dark: bool


D = rules_data()
_TRAITS = tuple(Trait(key=k, copies=int(v["copies"]), food=int(v["food"]), dark=bool(v["dark"]))
                for k, v in D["traits"].items())
TRAITS: tuple[str, ...] = tuple(t.key for t in _TRAITS)
_BY_KEY = {t.key: t for t in _TRAITS}
MAX_BOXES = 2
CARDS_PER_BOX = sum(t.copies for t in _TRAITS)

EXPECTED = {"bark_beetle", "mimicry", "simplification", "swimming", "poisonous", "budding",
            "extremophile", "development_defects", "grazing", "carnivore", "obligate_carnivore",
            "scavenger", "metabolic_syndrome", "high_body_weight", "burrowing", "running"}
if set(TRAITS) != EXPECTED:
    raise ValueError(f"mutations.toml: the traits must be exactly {sorted(EXPECTED)}")
if any(t.copies < 0 or t.food < 0 for t in _TRAITS):
    raise ValueError("mutations.toml: negative copies or food")


def trait(key: str) -> Trait:
    return _BY_KEY[key]


@cache
@cache
def cards(boxes: int) -> tuple[str, ...]:
    """Every card id of a game played with ``boxes`` boxes, in a fixed order (built once per
    count: every determinized world deals them)."""
    return tuple(f"{t.key}-{k}" for t in _TRAITS for k in range(1, t.copies * boxes + 1))


TRAIT_OF: dict[str, str] = {c: c.rsplit("-", 1)[0] for c in cards(MAX_BOXES)}
FOOD = {t.key: t.food for t in _TRAITS}
DARK = frozenset(t.key for t in _TRAITS if t.dark)


def boxes_for(n: int) -> int:
    return 2 if n >= D["players"]["two_boxes_from"] else 1


def climate_dice(n: int) -> dict[str, tuple[int, int]]:
    """``{"food": (dice, plus), "burrows": ..., "parasites": ...}`` for ``n`` players."""
    return {k: tuple(int(x) for x in D["climate"][k][str(n)])
            for k in ("food", "burrows", "parasites")}
