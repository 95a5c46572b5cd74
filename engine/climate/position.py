"""Reading an Evolution: Climate position: the small helpers that the rules, the views and
the load checks share (who is awaited, a species by id, its face-up traits, the green-framed
traits that would act...). It imports only ``data``, so every module above can use it:
``data`` -> ``position`` -> ``checks`` -> ``state`` -> ``view`` -> ``rules``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.climate.data import MAX_POP, NUM, TRAIT_OF

if TYPE_CHECKING:  # annotations only: the state module sits above this one
    from engine.climate.state import ClimateState

# phase: "food" (everyone chooses a food card, secretly and at once), "play" (play cards: in
# turn order, or in the Quick game by everyone at once and secretly), "green" (an owner orders
# their green-framed traits), "feeding", "over". Deal and Modify environment are automatic.
PHASES = ("food", "play", "green", "feeding", "over")

# the target's traits an Ambush attacker may ignore on a Migratory target
DEFENSIVE = frozenset({"burrowing", "climbing", "cooling_frills", "defensive_herding",
                       "hard_shell", "horns", "mud_wallowing", "symbiosis"})
# traits Intelligence may cancel for a carnivore's next attack (those that block or cost it,
# and Scavengers)
NEGATABLE = DEFENSIVE | {"warning_call", "scavenger"}


def order_from(s: ClimateState, p: int) -> list[int]:
    n = len(s.seats)
    if type(p) is int and 0 <= p < n:  # every caller's case: two ranges, no modulo
        return [*range(p, n), *range(p)]
    return [(p + k) % n for k in range(n)]


def is_quick(s: ClimateState) -> bool:
    return s.options["quick"]


def to_act(s: ClimateState) -> list[int]:
    ph = s.phase
    if ph == "over":
        return []
    if ph == "food":
        food = s.food
        hands = s.hands
        return [p for p in order_from(s, s.first) if food[p] is None and hands[p]]
    if ph == "play" and s.options["quick"]:  # is_quick
        done = s.done
        return [p for p in order_from(s, s.first) if not done[p]]
    return [s.current]


def current_player(s: ClimateState) -> int | None:
    if s.phase == "over" or s.phase == "food" or (s.phase == "play" and is_quick(s)):
        return None
    return s.current


def public_position(s: ClimateState, p: int, viewer: int | None) -> tuple[list[dict], int]:
    """(rows, hand count) of player ``p`` as ``viewer`` sees them: in a Quick game's secret
    play phase the others see the position the phase began with."""
    if s.shown is not None and viewer != p:
        return s.shown[p]["rows"], s.shown[p]["hand"]
    return s.rows[p], len(s.hands[p])


# --- species ------------------------------------------------------------------------------------

def find_species(s: ClimateState, sid: int) -> tuple[int, int, dict] | None:
    """(owner, index in the row, species) of species ``sid``, or None."""
    p = sid // 1000 - 1
    if 0 <= p < s.n:
        for i, sp in enumerate(s.rows[p]):
            if sp["id"] == sid:
                return p, i, sp
    return None


def face_up(sp: dict) -> list[str]:
    """The traits of a species that act: its face-up cards."""
    traits = sp["traits"]
    if not traits:  # most species hold none: no list comprehension
        return []
    down = sp["down"]
    if down:
        return [TRAIT_OF[c] for c in traits if c not in down]
    return [TRAIT_OF[c] for c in traits]


def hibernating(traits) -> int:
    return NUM["feeding"]["hibernation"] if "hibernation" in traits else 0


def room(sp: dict, up) -> int:
    """Food the species may still take: up to its population, then on Fat Tissue up to its
    body size."""
    r = sp["pop"] - sp["food"]
    if "fat_tissue" in up:
        r += sp["body"] - sp["fat"]
    return r


def hungry(sp: dict, up) -> bool:
    return sp["food"] < sp["pop"] - hibernating(up)


def green_effect(s: ClimateState, sp: dict, t: str) -> bool:
    """Would green-framed trait ``t`` of species ``sp`` act now?"""
    up = face_up(sp)
    if t == "fat_tissue":
        return sp["fat"] > 0 and sp["food"] < sp["pop"]
    if t == "fertile":
        return s.wh > 0 and sp["pop"] < MAX_POP
    return "carnivore" not in up and room(sp, up) > 0  # long_neck


def green_effective(s: ClimateState) -> list[list]:
    """The [species id, trait] activations of ``s.green`` that would act now."""
    out = []
    for sid, t in s.green:
        found = find_species(s, sid)
        if found is not None and green_effect(s, found[2], t):
            out.append([sid, t])
    return out
