"""Evolution: Climate's picture, its own sizes, colours, names and places: the table's layout
(the nine zone tiles, the event cards under them, the strip, the legend, one row per seat),
the hand image's, the colours of its zones, cards and tokens (the ones every game shares are
``images.common``'s), and the words read from the catalogue for traits, zones, events and
phases (a name the catalogue lacks reads as a readable form of its id)."""

from __future__ import annotations

from functools import lru_cache

from images import common as ic
from messages import has, t

# --- sizes -------------------------------------------------------------------------------------

WIDTH = 1280
MARGIN = 12
CAPTION_H = 52
BAND_Y = 58                               # the nine zone tiles
ZONES_N = 9
ZONE_GAP = 4
ZONE_W = (WIDTH - 2 * MARGIN - (ZONES_N - 1) * ZONE_GAP) // ZONES_N      # 136
ZONE_H = 100
EVENT_Y = BAND_Y + ZONE_H + 4             # event cards under their zones
EVENT_H = 54
STRIP_Y = EVENT_Y + EVENT_H + 6           # Watering Hole, food cards, decks (or the ranking)
STRIP_H = 96
LEGEND_Y = STRIP_Y + STRIP_H + 2
LEGEND_H = 26
ROWS_Y = LEGEND_Y + LEGEND_H + 2          # player rows
ROW_H, ROW_GAP = 156, 6
ID_X1 = 178                               # identity column (disc, name, first, hand, bag)
SCORE_W = 100                             # points column, on the right
SCORE_X0 = WIDTH - MARGIN - SCORE_W
SP_X0 = ID_X1 + 8                         # first species card
SP_X1 = SCORE_X0 - 8
SP_W, SP_GAP = 190, 6                     # a species card, while the row has room (5 fit)
CARD_H = ROW_H - 10
SP_PAD = 5
HEAD_H = 32                               # body and population badges
FOOD_Y = 43                               # centre of the food line
CHIP_Y, CHIP_H, CHIP_STEP = 54, 21, 23    # trait chips
FOOD_W, FOOD_H, FOOD_STEP = 44, 58, 52    # a food card on the strip
DECKS_X = 1000                            # the decks' block on the strip
HAND_W = 960                              # the hand image
HAND_CAPTION_H = 52
HC_W, HC_H, HC_GAP = 176, 118, 10         # a card of the hand
HC_PER_ROW = 5
HC_X0 = (HAND_W - HC_PER_ROW * HC_W - (HC_PER_ROW - 1) * HC_GAP) // 2
TAG_H = 22                                # the line under a card of a section
ROWS = ic.RowLayout(WIDTH, MARGIN, ROWS_Y, ROW_H, ROW_GAP, ID_X1, SCORE_W, SP_W, SP_GAP, 9)

# --- colours -----------------------------------------------------------------------------------

# BG, INK, MUTED, LIGHT, WHITE, BLACK, CARD_*, CAPTION_*, AWAIT*, ZEBRA: images.common's.
BODY_RGB = (141, 96, 60)                  # body size: the brown marker
POP_RGB = (46, 125, 50)                   # population: the green marker
FOOD = (214, 120, 40)                     # a food token eaten this round
FAT = (250, 200, 40)                      # food stored on Fat Tissue
FAT_LINE = (170, 120, 0)
HOLLOW = (150, 150, 150)
FED = (46, 125, 50)
TRAIT_BG = (246, 240, 226)
TRAIT_LINE = (190, 176, 150)
CARN_BG = (190, 40, 40)
GREEN_FRAME = (60, 160, 60)
BACK_BG = (70, 88, 110)                   # a card back
BACK_PAT = (96, 116, 140)
BACK_LINE = (40, 52, 66)
POND = (90, 160, 215)
POND_LINE = (40, 100, 160)
LEAF = (76, 150, 60)
LEAF_DARK = (40, 95, 35)
SUN = (245, 180, 0)
SUN_LINE = (205, 120, 0)
SNOW = (40, 110, 200)
VOLCANO = (200, 50, 30)
ROCK = (110, 80, 60)
BAG = (176, 132, 80)
COLD_BG, COLD_LINE = (218, 234, 250), (62, 116, 190)
HOT_BG, HOT_LINE = (252, 228, 204), (200, 90, 40)
NEGATED = (198, 40, 40)

# Zone tiles, coldest first: (ground, ink).
ZONE_RGB = (((30, 70, 140), ic.WHITE), ((62, 116, 190), ic.WHITE), ((124, 172, 226), ic.INK),
            ((192, 222, 242), ic.INK), ((204, 230, 184), ic.INK), ((246, 232, 152), ic.INK),
            ((246, 192, 104), ic.INK), ((232, 126, 64), ic.INK), ((186, 44, 34), ic.WHITE))

PLAYER_RGB, PLAYER_INK = ic.SEAT_RGB, ic.SEAT_INK  # up to 6 seats: images.common's colours


# --- names -------------------------------------------------------------------------------------

def _readable(key: str) -> str:
    return " ".join(w.capitalize() for w in str(key).split("_"))


def _named(keys: tuple[str, ...], fallback: str, lang: str) -> str:
    """The first of ``keys`` the catalogue has in ``lang``, else in English, else
    ``fallback``: a language's own word wins over an English one of another file."""
    for lg in dict.fromkeys((lang, "en")):
        for key in keys:
            if has(key, lg):
                return t(key, lg)
    return fallback


@lru_cache(maxsize=256)
def trait_name(trait: str, lang: str = "en") -> str:
    """The trait's name: the game's catalogue (``climate.trait.<id>.name``), so that the
    picture and the menus agree, else ``climate.render.trait.<id>``, else a readable form of
    its id (``fat_tissue`` -> "Fat Tissue")."""
    return _named((f"climate.trait.{trait}.name", f"climate.render.trait.{trait}"),
                  _readable(trait), lang)


@lru_cache(maxsize=256)
def trait_short(trait: str, lang: str = "en") -> str:
    """The trait's short form for a narrow chip (``climate.render.short.<id>``), else its
    name."""
    key = f"climate.render.short.{trait}"
    if has(key, lang) or (has(key, "en") and trait_name(trait, lang) == trait_name(trait)):
        return t(key, lang)
    return trait_name(trait, lang)


@lru_cache(maxsize=64)
def zone_name(zone: str, lang: str = "en") -> str:
    return _named((f"climate.zone.{zone}", f"climate.render.zone.{zone}"), _readable(zone),
                  lang)


@lru_cache(maxsize=64)
def event_name(event: str, lang: str = "en") -> str:
    return _named((f"climate.card_event.{event}", f"climate.render.event.{event}"),
                  _readable(event), lang)


@lru_cache(maxsize=16)
def phase_name(phase: str, lang: str = "en") -> str:
    return _named((f"climate.phase.{phase}", f"climate.render.phase.{phase}"), _readable(phase),
                  lang)


# --- geometry ----------------------------------------------------------------------------------

def height_for(players: int) -> int:
    """The table's height for ``players`` seats."""
    return ROWS_Y + players * (ROW_H + ROW_GAP) - ROW_GAP + MARGIN


def zone_box(i: int) -> tuple[int, int, int, int]:
    """The tile of zone ``i`` (0 = coldest)."""
    x = MARGIN + i * (ZONE_W + ZONE_GAP)
    return x, BAND_Y, x + ZONE_W, BAND_Y + ZONE_H


def event_box(i: int) -> tuple[int, int, int, int]:
    """The place of an event card under zone ``i``."""
    x = MARGIN + i * (ZONE_W + ZONE_GAP)
    return x, EVENT_Y, x + ZONE_W, EVENT_Y + EVENT_H


def strip_box() -> tuple[int, int, int, int]:
    return MARGIN, STRIP_Y, WIDTH - MARGIN, STRIP_Y + STRIP_H


def band_box() -> tuple[int, int, int, int]:
    return 0, BAND_Y, WIDTH, EVENT_Y + EVENT_H


row_box = ROWS.row_box
score_box = ROWS.score_box
species_slots = lru_cache(maxsize=64)(ROWS.species_slots)
