"""Evolution: Climate's numbers, read once from ``climate.toml`` (the single data file).

* ``TRAITS``: the 23 trait keys (the file's order); ``GREEN``: the green-framed ones.
* ``CARDS``: every trait card id, ``"<trait>-<k>"`` with k from 1 (177 in the box);
  ``TRAIT_OF``, ``PLANTS``, ``SUNS``, ``SNOWS``: card id -> its trait, plant number, icons.
* ``ZONES``: the climate zones coldest first; ``START``: the marker's first zone (an index);
  ``CAUSE``, ``ICONS``, ``BODY``: per zone index the loss cause (``"cold"``, ``"heat"`` or
  ``""``), the icons and the body-size range hit; ``zone_plants(side)``: per zone the plant
  modifier of that board side; ``side_for(n)``: ``"small"`` or ``"large"``.
* ``COLD``, ``HEAT``: trait -> icons it ignores; ``HEAT_PENALTY`` (trait -> extra heat loss)
  in ``PENALTY_ZONES`` (zone indexes).
* ``EVENTS``: event card id -> :class:`EventCard`; ``DECKS``: ``{"cold": ids, "hot": ids}``;
  ``EVENT_KINDS``: the kinds and their numbers.
* ``set_aside(n)``, ``refills_from_discards(n)``, ``always_quick(n)``, ``max_traits(n)``.
* ``NUM``: the other numbers (``NUM["attack"]["hard_shell"]``...).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources


@cache
def rules_data() -> dict:
    """The parsed ``climate.toml`` (read once per process)."""
    text = resources.files("engine.climate").joinpath("climate.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


class DataError(ValueError):
    """``climate.toml`` does not describe a playable game."""


D = rules_data()

EXPECTED_TRAITS = frozenset({
    "ambush", "burrowing", "carnivore", "climbing", "cooling_frills", "cooperation",
    "defensive_herding", "fat_tissue", "fertile", "foraging", "hard_shell", "heavy_fur",
    "hibernation", "horns", "intelligence", "long_neck", "migratory", "mud_wallowing",
    "nocturnal", "pack_hunting", "scavenger", "symbiosis", "warning_call",
})
EXPECTED_EVENTS = frozenset({"cold_snap", "heat_wave", "thaw", "desertification", "wildfire",
                             "meteor", "volcanic_eruption"})

# --- players ---------------------------------------------------------------------------------

MIN_PLAYERS = int(D["players"]["min"])
MAX_PLAYERS = int(D["players"]["max"])
_QUICK = frozenset(int(x) for x in D["players"]["quick"])
_FEW = frozenset(int(x) for x in D["players"]["two_player_traits"])
_SET_ASIDE = {int(k): int(v) for k, v in D["setup"]["set_aside"].items()}
_REFILL_DISCARDS = frozenset(int(x) for x in D["setup"]["refill_from_discards"])
DEAL_BASE = int(D["deal"]["base"])
DEAL_PER_SPECIES = int(D["deal"]["per_species"])
MAX_BODY = int(D["limits"]["max_body"])
MAX_POP = int(D["limits"]["max_pop"])
SCORE_FOOD = int(D["scoring"]["food"])
SCORE_POP = int(D["scoring"]["population"])
SCORE_TRAIT = int(D["scoring"]["trait"])
NUM = {"attack": {k: int(v) for k, v in D["attack"].items()},
       "feeding": {k: int(v) for k, v in D["feeding"].items()}}


def set_aside(n: int) -> int:
    """Trait cards set aside at the setup for ``n`` players."""
    return _SET_ASIDE[n]


def refills_from_discards(n: int) -> bool:
    """True when the draw deck is rebuilt from the shuffled discards (else: the set-aside)."""
    return n in _REFILL_DISCARDS


def always_quick(n: int) -> bool:
    return n in _QUICK


_MAX_TRAITS = int(D["limits"]["max_traits"])
_MAX_TRAITS_FEW = int(D["limits"]["max_traits_few"])


def max_traits(n: int) -> int:
    return _MAX_TRAITS_FEW if n in _FEW else _MAX_TRAITS


# --- trait cards ------------------------------------------------------------------------------

TRAITS: tuple[str, ...] = tuple(D["traits"])
if set(TRAITS) != EXPECTED_TRAITS:
    raise DataError(f"climate.toml: the traits must be exactly {sorted(EXPECTED_TRAITS)}")
GREEN = frozenset(t for t, v in D["traits"].items() if v["green"])

_cards: list[str] = []
TRAIT_OF: dict[str, str] = {}
PLANTS: dict[str, int] = {}
SUNS: dict[str, int] = {}
SNOWS: dict[str, int] = {}
for _t, _v in D["traits"].items():
    _n = int(_v["copies"])
    if _n < 1 or any(len(_v[k]) != _n for k in ("plants", "suns", "snows")):
        raise DataError(f"climate.toml: trait {_t}: plants/suns/snows need {_n} entries")
    for _k in range(_n):
        _c = f"{_t}-{_k + 1}"
        _cards.append(_c)
        TRAIT_OF[_c] = _t
        PLANTS[_c] = int(_v["plants"][_k])
        SUNS[_c] = int(_v["suns"][_k])
        SNOWS[_c] = int(_v["snows"][_k])
        if SUNS[_c] < 0 or SNOWS[_c] < 0:
            raise DataError(f"climate.toml: card {_c} has negative icons")
CARDS: tuple[str, ...] = tuple(_cards)
CARD_INDEX = {c: i for i, c in enumerate(CARDS)}
if any(_SET_ASIDE.get(n, -1) not in range(len(CARDS)) for n in range(MIN_PLAYERS,
                                                                       MAX_PLAYERS + 1)):
    raise DataError("climate.toml: setup.set_aside needs a count below the deck per player count")

# --- the climate board ------------------------------------------------------------------------

ZONES: tuple[str, ...] = tuple(D["board"]["order"])
ZONE_INDEX = {z: i for i, z in enumerate(ZONES)}
if set(ZONES) != set(D["zones"]) or len(ZONES) != len(set(ZONES)):
    raise DataError("climate.toml: board.order and the [zones.*] tables must name the same zones")
START = ZONE_INDEX[D["board"]["start"]]
CAUSE = tuple(str(D["zones"][z]["cause"]) for z in ZONES)
ICONS = tuple(int(D["zones"][z]["icons"]) for z in ZONES)
BODY = tuple((int(D["zones"][z]["body"][0]), int(D["zones"][z]["body"][1])) for z in ZONES)
if any(c not in ("cold", "heat", "") for c in CAUSE) or any(i < 0 for i in ICONS):
    raise DataError("climate.toml: a zone's cause must be cold, heat or empty, its icons >= 0")
_SIDES = {"small": frozenset(D["board"]["small"]), "large": frozenset(D["board"]["large"])}
_ZONE_PLANTS = {side: tuple(int(D["zones"][z]["plants"][side]) for z in ZONES)
                for side in _SIDES}


def side_for(n: int) -> str:
    return "small" if n in _SIDES["small"] else "large"


def zone_plants(side: str) -> tuple[int, ...]:
    return _ZONE_PLANTS[side]


COLD = {k: int(v) for k, v in D["protection"]["cold"].items()}
HEAT = {k: int(v) for k, v in D["protection"]["heat"].items()}
HEAT_PENALTY = {k: int(v) for k, v in D["protection"]["heat_penalty"].items() if k != "zones"}
PENALTY_ZONES = frozenset(ZONE_INDEX[z] for z in D["protection"]["heat_penalty"]["zones"])
if not set(COLD) | set(HEAT) | set(HEAT_PENALTY) <= EXPECTED_TRAITS:
    raise DataError("climate.toml: protection names an unknown trait")

# --- climate events -------------------------------------------------------------------------


@dataclass(frozen=True)
class EventCard:
    """One climate event card: its kind, its deck (``"cold"``/``"hot"``), the zone (index)
    it lies under, and for a Volcanic Eruption the zone the marker moves to."""

    id: str
    kind: str
    deck: str
    zone: int
    to: int | None


EVENT_KINDS = {k: dict(v) for k, v in D["event_kinds"].items()}
if set(EVENT_KINDS) != EXPECTED_EVENTS:
    raise DataError(f"climate.toml: the event kinds must be exactly {sorted(EXPECTED_EVENTS)}")
EVENTS: dict[str, EventCard] = {}
_count: dict[str, int] = {}
_decks: dict[str, list[str]] = {"cold": [], "hot": []}
for _deck in ("cold", "hot"):
    for _e in D["events"][_deck]:
        if _e["event"] not in EVENT_KINDS:
            raise DataError(f"climate.toml: unknown event {_e['event']!r}")
        _to = _e.get("to")
        if (_to is None) != (_e["event"] != "volcanic_eruption"):
            raise DataError("climate.toml: a Volcanic Eruption (and only it) names a zone 'to'")
        for _ in range(int(_e["copies"])):
            _count[_e["event"]] = _count.get(_e["event"], 0) + 1
            _id = f"{_e['event']}-{_count[_e['event']]}"
            EVENTS[_id] = EventCard(_id, _e["event"], _deck, ZONE_INDEX[_e["zone"]],
                                    None if _to is None else ZONE_INDEX[_to])
            _decks[_deck].append(_id)
DECKS = {k: tuple(v) for k, v in _decks.items()}
if not DECKS["cold"] or not DECKS["hot"]:
    raise DataError("climate.toml: each event deck needs cards")
if len({EVENTS[c].zone for c in DECKS["cold"]} & {EVENTS[c].zone for c in DECKS["hot"]}):
    raise DataError("climate.toml: a cold and a hot event may not lie under the same zone")
SHIFT = {"cold_snap": int(EVENT_KINDS["cold_snap"]["shift"]),
         "heat_wave": int(EVENT_KINDS["heat_wave"]["shift"])}
THAW_SUNS = int(EVENT_KINDS["thaw"]["suns"])
DESERT_BODY = int(EVENT_KINDS["desertification"]["body"])
WILDFIRE_POP = int(EVENT_KINDS["wildfire"]["pop"])


# every trait card as views and events show it, built once: read it, never change it (a view
# copies it: ``dict(CARD_INFO[c], down=True)``)
CARD_INFO: dict[str, dict] = {
    c: {"card": c, "trait": TRAIT_OF[c], "plants": PLANTS[c], "suns": SUNS[c], "snows": SNOWS[c],
        "green": TRAIT_OF[c] in GREEN} for c in CARDS}


def card_info(c: str) -> dict:
    """A trait card as views and events show it (a fresh dict)."""
    return CARD_INFO[c].copy()


def event_info(c: str) -> dict:
    """A climate event card as views and events show it."""
    e = EVENTS[c]
    return {"card": c, "event": e.kind, "deck": e.deck, "zone": ZONES[e.zone],
            "to": None if e.to is None else ZONES[e.to]}
