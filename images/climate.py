"""The Evolution: Climate table as one PNG, and each player's private hand as another.

    png = render_climate(CLIMATE.view(state, None), "en")      # the channel's table
    png = render_hand(CLIMATE.view(state, seat), "en")         # sent to ``seat`` alone

Only the view is drawn (``engine/climate/view.py``), never the state: what the view hides
(hands, food cards still face down, the face-down traits of others, the decks' order, others'
bags, a Quick game's secret play phase) is not in it, so it cannot reach a pixel. Hidden
things are drawn as counts or card backs; a viewer's own face-down cards (only in their own
view) are drawn on a card back's ground with their name.

Layout of the table (1280 wide; 2 players = 678 high, 6 players = 1326)::

    +-- caption: round 3 · play cards · last round ............ waiting for Ann, Bob ---------+
    | [Ice Age][Freezing][Cold][Cool][Temperate][Warm][Tropical][Hot][Scorching]  9 zones:   |
    |  ❄❄❄❄ 1-6  ❄❄ 1-4 ...       each its loss (icons, body sizes) and its plant leaf;    |
    |  the marker's zone framed, a volcano badge where an eruption sends it                 |
    | [event card under its zone: the face-up cold and hot events]                           |
    | Watering Hole (plants) · food cards per seat (backs / revealed) · ☀ ❄ · Thaw · notes   |
    |                                             draw deck · set aside · discard · events  |
    | legend: body size, population, food eaten, fat, face-down card, green frame            |
    | (1) Ann  | [■3 ●4 #1001] [■1 ●1]  ...  species in row order, traits as chips | points |
    | ★ first  |  ●●●○ ◍◍       food eaten, fat, Nocturnal used, negated traits    |   14   |
    | hand 5   |  [Carnivore] [▒▒▒]  face-down cards of others as backs            |        |
    | ... one row per seat ...                                                               |
    +---------------------------------------------------------------------------------------+

Mid-game a row's right column holds the public points, headed as such: population and trait
cards, without the bag (hidden until the end). At the end the strip holds the final ranking
and each row's right column its rank, score and breakdown (food, population, traits) from
``view["result"]``. A phase image (the engine's observer, at a phase end: ``phase_ended``)
says the phase is over instead of naming the last player who acted as awaited; in a Cold
Snap or Heat Wave round the zone whose effects apply is framed and named (``effects_zone``).

The hand image (960 wide): the viewer's cards (name, plant number on a leaf, suns and
snowflakes, a green frame for the traits that act before the reveal, a red title for
Carnivore), then the viewer's food card, the cards they played face down this round, the
cards they put back for the exchange and, in a Quick game's secret play phase, the cards they
discarded (``held``: on the discard pile at the reveal).

Speed: the background (caption bar, the nine zone tiles of that board side, the strip's panel,
the legend) is drawn once per (side, events, language) and kept (``functools.lru_cache``);
zone tiles, event cards, chips, badges and species cards are cached sprites, every string a
cached mask (``images.common.text``); the top of the table (caption, climate band, strip)
and each player row are kept by what they show, so a picture after one move redraws only
what changed and pastes the rest. ``encode_png`` maps the picture onto one fixed 256-colour
palette (exact for every flat colour here), ``compress_level=1``: same view, same bytes.

Words come from the message catalogue (``messages.t``, ``messages/*/render_climate.toml``) in
``lang``; a key the catalogue lacks falls back to the English default kept here (``LABELS``),
and a trait, zone or event without a name to a readable form of its id.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.climate.data import SHIFT, THAW_SUNS
from images.common import (
    build_palette,
    encode_with_palette,
    fit,
    fit_size,
    fit_to,
    font,
    paste,
    text,
    text_width,
)
from messages import has, t

# --- sizes ---------------------------------------------------------------------------------------

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
SS = 4                                    # supersampling of round sprites

HAND_W = 960                              # the hand image
HAND_CAPTION_H = 52
HC_W, HC_H, HC_GAP = 176, 118, 10         # a card of the hand
HC_PER_ROW = 5
HC_X0 = (HAND_W - HC_PER_ROW * HC_W - (HC_PER_ROW - 1) * HC_GAP) // 2
TAG_H = 22                                # the line under a card of a section

# --- colours -------------------------------------------------------------------------------------

BG = (244, 240, 232)
INK = (26, 26, 26)
MUTED = (100, 100, 100)
LIGHT = (170, 170, 170)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
CARD_BG = (255, 255, 255)
CARD_LINE = (196, 188, 175)
CAPTION_BG = (38, 50, 56)
CAPTION_HI = (255, 213, 79)
AWAIT = (242, 169, 0)
AWAIT_SOFT = (255, 236, 179)
ZEBRA = (236, 232, 224)
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
ZONE_RGB = (((30, 70, 140), WHITE), ((62, 116, 190), WHITE), ((124, 172, 226), INK),
            ((192, 222, 242), INK), ((204, 230, 184), INK), ((246, 232, 152), INK),
            ((246, 192, 104), INK), ((232, 126, 64), INK), ((186, 44, 34), WHITE))

# Okabe-Ito: a colour per seat (6 at most); every disc carries its seat number too.
PLAYER_RGB = ((230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178),
              (213, 94, 0), (204, 121, 167), BLACK)
PLAYER_INK = (BLACK, BLACK, WHITE, BLACK, WHITE, WHITE, BLACK, WHITE)

# English defaults of every label, used while the catalogue has no such key.
LABELS = {
    "climate.render.caption": "Round {round} · {phase}",
    "climate.render.last_round": "last round",
    "climate.render.final_next": "next round is the last",
    "climate.render.quick": "Quick game",
    "climate.render.no_events": "No climate events",
    "climate.render.game_over": "Game over",
    "climate.render.awaiting": "Waiting for {players}",
    "climate.render.winner": "Winner: {players}",
    "climate.render.watering_hole": "Watering Hole",
    "climate.render.food_cards": "Food cards",
    "climate.render.no_food_cards": "no food card yet",
    "climate.render.thaw": "Thaw: its suns count at the next reveal",
    "climate.render.meteor": "Meteor: plants are never added",
    "climate.render.wildfire": "Wildfire: {count} plants wait for next round",
    "climate.render.volcano": "Volcano: the marker goes to {zone}",
    "climate.render.fired": "This round's event: {event}",
    "climate.render.fired_effects": "This round's event: {event} · the effects of {zone} apply",
    "climate.render.phase_over": "Phase over",
    "climate.render.deck": "Draw deck {count}",
    "climate.render.set_aside": "Set aside {count}",
    "climate.render.discard": "Discard {count}",
    "climate.render.event_decks": "Event decks",
    "climate.render.legend_body": "body size",
    "climate.render.legend_pop": "population",
    "climate.render.legend_food": "food eaten",
    "climate.render.legend_fat": "fat",
    "climate.render.legend_down": "face-down card",
    "climate.render.legend_green": "acts before the reveal",
    "climate.render.no_loss": "no loss",
    "climate.render.first": "first player",
    "climate.render.hand": "hand {count}",
    "climate.render.bag": "bag {count}",
    "climate.render.returned": "put back {count}",
    "climate.render.done": "done",
    "climate.render.passed": "passed",
    "climate.render.no_species": "no species",
    "climate.render.points": "points",
    "climate.render.points_note": "without the bag",
    "climate.render.total": "with bag {total}",
    "climate.render.ranking": "Final scores",
    "climate.render.rank": "{rank}.",
    "climate.render.score_food": "food {count}",
    "climate.render.score_pop": "population {count}",
    "climate.render.score_traits": "traits {count}",
    "climate.render.hand_title": "{player}: your hand ({count})",
    "climate.render.hand_status": "Round {round} · {phase}",
    "climate.render.hand_score": "bag {bag} · points {points} · total {total}",
    "climate.render.hand_empty": "No card in hand",
    "climate.render.your_food": "Your food card",
    "climate.render.food_down": "face down",
    "climate.render.your_down": "Played face down this round",
    "climate.render.on_species": "on #{species}",
    "climate.render.your_returned": "Put back for the exchange",
    "climate.render.your_held": "Discarded this round (shown at the reveal)",
    "climate.render.phase.food": "Food cards",
    "climate.render.phase.play": "Play cards",
    "climate.render.phase.green": "Modify the environment",
    "climate.render.phase.feeding": "Feeding",
    "climate.render.phase.over": "Game over",
}


def label(key: str, lang: str = "en", **params) -> str:
    """``messages.t(key, lang)`` when the catalogue has ``key`` (in ``lang`` or English), else
    the English default of ``LABELS`` (else the key itself), with ``params`` filled in."""
    if has(key, lang) or has(key, "en"):
        return t(key, lang, **params)
    default = LABELS.get(key, key)
    try:
        return default.format(**params)
    except (KeyError, IndexError, ValueError):
        return default


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
    key = f"climate.render.phase.{phase}"
    return _named((f"climate.phase.{phase}", key), LABELS.get(key, _readable(phase)), lang)


def player_rgb(p: int) -> tuple[int, int, int]:
    return PLAYER_RGB[p % len(PLAYER_RGB)]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")


# --- geometry ------------------------------------------------------------------------------------

def height_for(players: int) -> int:
    """The table's height for ``players`` seats."""
    return ROWS_Y + players * (ROW_H + ROW_GAP) - ROW_GAP + MARGIN


def row_box(k: int) -> tuple[int, int, int, int]:
    """The box of seat ``k``'s row (x0, y0, x1, y1)."""
    y = ROWS_Y + k * (ROW_H + ROW_GAP)
    return MARGIN, y, WIDTH - MARGIN, y + ROW_H


def score_box(k: int) -> tuple[int, int, int, int]:
    _, y0, x1, y1 = row_box(k)
    return SCORE_X0, y0, x1, y1


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


@lru_cache(maxsize=64)
def species_slots(count: int) -> tuple[tuple[int, int], ...]:
    """x and width of each of ``count`` species cards in a row: ``SP_W`` wide while they
    fit, narrower when the row is long (never leaving the row)."""
    if count <= 0:
        return ()
    room = SP_X1 - SP_X0
    gap = SP_GAP if count < 9 else 3
    w = min(SP_W, (room - gap * (count - 1)) // count)
    return tuple((SP_X0 + i * (w + gap), w) for i in range(count))


# --- sprites -------------------------------------------------------------------------------------

def _big(size_w: int, size_h: int | None = None) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    big = Image.new("RGBA", (size_w * SS, (size_h or size_w) * SS), (0, 0, 0, 0))
    return big, ImageDraw.Draw(big)


def _small(big: Image.Image) -> Image.Image:
    return big.resize((big.size[0] // SS, big.size[1] // SS), Image.LANCZOS)


@lru_cache(maxsize=64)
def disc(fill: tuple, r: int, outline: tuple | None = INK) -> Image.Image:
    """A smooth disc of radius ``r`` (RGBA)."""
    big, d = _big(2 * r + 2)
    S = big.size[0]
    d.ellipse((SS, SS, S - SS - 1, S - SS - 1), fill=fill + (255,),
              outline=(outline + (255,)) if outline else None,
              width=max(1, round(SS * (1.2 if r > 6 else 0.9))) if outline else 0)
    return _small(big)


@lru_cache(maxsize=16)
def seat_disc(p: int, r: int) -> Image.Image:
    """Seat ``p``'s disc with its number."""
    im = disc(player_rgb(p), r).copy()
    c = (2 * r + 2) / 2
    text(im, c, c + 0.5, str(p + 1), round(r * 1.15), True,
         PLAYER_INK[p % len(PLAYER_INK)] + (255,), "mm")
    return im


@lru_cache(maxsize=16)
def sun_icon(size: int) -> Image.Image:
    """A sun: a yellow disc with eight rays."""
    big, d = _big(size)
    S = size * SS
    c = S / 2
    for k in range(8):
        a = k * math.pi / 4
        x0, y0 = c + math.cos(a) * S * 0.30, c + math.sin(a) * S * 0.30
        x1, y1 = c + math.cos(a) * S * 0.48, c + math.sin(a) * S * 0.48
        d.line((x0, y0, x1, y1), fill=SUN_LINE + (255,), width=max(SS, round(S * 0.09)))
    r = S * 0.27
    d.ellipse((c - r, c - r, c + r, c + r), fill=SUN + (255,), outline=SUN_LINE + (255,),
              width=max(SS, round(S * 0.06)))
    return _small(big)


@lru_cache(maxsize=16)
def snow_icon(size: int, ink: tuple = SNOW) -> Image.Image:
    """A snowflake: six arms with small branches (blue; white on a dark zone)."""
    big, d = _big(size)
    S = size * SS
    c = S / 2
    w = max(SS, round(S * 0.085))
    fill = ink + (255,)
    for k in range(6):
        a = k * math.pi / 3
        tip = (c + math.cos(a) * S * 0.47, c + math.sin(a) * S * 0.47)
        d.line((c, c, *tip), fill=fill, width=w)
        mx, my = c + math.cos(a) * S * 0.30, c + math.sin(a) * S * 0.30
        for b in (-0.7, 0.7):
            bx = mx + math.cos(a + b) * S * 0.13
            by = my + math.sin(a + b) * S * 0.13
            d.line((mx, my, bx, by), fill=fill, width=w)
    return _small(big)


@lru_cache(maxsize=16)
def leaf_icon(size: int) -> Image.Image:
    """A green leaf (the plant number's frame)."""
    big, d = _big(size)
    S = size * SS
    leaf = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    ld = ImageDraw.Draw(leaf)
    ld.ellipse((S * 0.06, S * 0.2, S * 0.94, S * 0.8), fill=LEAF + (255,),
               outline=LEAF_DARK + (255,), width=max(SS, round(S * 0.05)))
    ld.line((S * 0.12, S * 0.5, S * 0.86, S * 0.5), fill=LEAF_DARK + (255,),
            width=max(SS, round(S * 0.035)))
    leaf = leaf.rotate(35, resample=Image.BICUBIC)
    big.alpha_composite(leaf)
    return _small(big)


@lru_cache(maxsize=32)
def badge(n: int, size: int, kind: str) -> Image.Image:
    """A body size (brown rounded square) or population (green disc) badge with its number."""
    big, d = _big(size)
    S = size * SS
    if kind == "body":
        d.rounded_rectangle((SS, SS, S - SS - 1, S - SS - 1), radius=S // 5,
                            fill=BODY_RGB + (255,), outline=INK + (255,), width=SS)
    else:
        d.ellipse((SS, SS, S - SS - 1, S - SS - 1), fill=POP_RGB + (255,),
                  outline=INK + (255,), width=SS)
    im = _small(big)
    text(im, size / 2, size / 2 + 0.5, str(n), round(size * 0.62), True, WHITE + (255,), "mm")
    return im


@lru_cache(maxsize=16)
def card_back(w: int, h: int) -> Image.Image:
    """A face-down trait card (RGB): slate with a light frame and diagonal hatching."""
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(2, min(w, h) // 6), fill=BACK_BG,
                        outline=BACK_LINE)
    inner = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    di = ImageDraw.Draw(inner)
    for x in range(-h, w, 7):
        di.line((x, h, x + h, 0), fill=BACK_PAT, width=2)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((3, 3, w - 4, h - 4), radius=max(1, min(w, h) // 8),
                                           fill=255)
    im.paste(inner, (0, 0), Image.composite(inner.getchannel("A"), Image.new("L", (w, h), 0),
                                            mask))
    return im


@lru_cache(maxsize=4)
def deck_icon(w: int, h: int) -> Image.Image:
    """A deck: two card backs, one on the other."""
    im = Image.new("RGBA", (w + 4, h + 4), (0, 0, 0, 0))
    back = card_back(w, h)
    im.paste(back, (4, 0), back)
    im.paste(back, (0, 4), back)
    return im


@lru_cache(maxsize=4)
def pond(w: int, h: int) -> Image.Image:
    """The Watering Hole."""
    big, d = _big(w, h)
    d.ellipse((SS, SS, w * SS - SS - 1, h * SS - SS - 1), fill=POND + (255,),
              outline=POND_LINE + (255,), width=2 * SS)
    return _small(big)


@lru_cache(maxsize=4)
def bag_icon(size: int) -> Image.Image:
    """A food bag."""
    big, d = _big(size)
    S = size * SS
    d.rounded_rectangle((S * 0.14, S * 0.3, S * 0.86, S * 0.96), radius=S * 0.25,
                        fill=BAG + (255,), outline=INK + (255,), width=SS)
    d.polygon(((S * 0.3, S * 0.06), (S * 0.7, S * 0.06), (S * 0.56, S * 0.3),
               (S * 0.44, S * 0.3)), fill=BAG + (255,), outline=INK + (255,))
    d.line((S * 0.36, S * 0.31, S * 0.64, S * 0.31), fill=INK + (255,), width=SS * 2)
    return _small(big)


@lru_cache(maxsize=4)
def volcano_icon(size: int) -> Image.Image:
    """A volcano: where an eruption sends the marker."""
    big, d = _big(size)
    S = size * SS
    d.polygon(((S * 0.04, S * 0.96), (S * 0.38, S * 0.34), (S * 0.62, S * 0.34),
               (S * 0.96, S * 0.96)), fill=ROCK + (255,), outline=INK + (255,))
    d.polygon(((S * 0.38, S * 0.34), (S * 0.62, S * 0.34), (S * 0.56, S * 0.48),
               (S * 0.44, S * 0.48)), fill=VOLCANO + (255,))
    for cx, cy, r in ((0.5, 0.2, 0.1), (0.34, 0.1, 0.07), (0.66, 0.1, 0.07)):
        d.ellipse((S * (cx - r), S * (cy - r), S * (cx + r), S * (cy + r)),
                  fill=VOLCANO + (255,))
    return _small(big)


@lru_cache(maxsize=4)
def marker_icon(size: int) -> Image.Image:
    """The climate marker: a dark token with a light ring."""
    big, d = _big(size)
    S = size * SS
    d.ellipse((SS, SS, S - SS - 1, S - SS - 1), fill=INK + (255,), outline=WHITE + (255,),
              width=2 * SS)
    r = S * 0.16
    d.ellipse((S / 2 - r, S / 2 - r, S / 2 + r, S / 2 + r), fill=CAPTION_HI + (255,))
    return _small(big)


def _icons(img: Image.Image, x: float, cy: float, suns: int, snows: int, size: int,
           step: float | None = None, snow_ink: tuple = SNOW) -> float:
    """Paste ``suns`` suns then ``snows`` snowflakes from ``x``; return the x after them."""
    step = step or size + 1
    for k in range(suns + snows):
        paste(img, sun_icon(size) if k < suns else snow_icon(size, snow_ink), x + size / 2, cy)
        x += step
    return x


# --- trait chips and cards -----------------------------------------------------------------------

def _chip_name(trait: str, w: float, big: int, lang: str) -> tuple[int, str]:
    """The largest readable form of a trait's name in ``w`` pixels: the full name down to
    12 px, else the short form down to 9 px (cut with an ellipsis as a last resort)."""
    name = trait_name(trait, lang)
    size, fitted = fit_size(name, w, big, True, min(big, 12))
    if fitted == name:
        return size, name
    return fit_size(trait_short(trait, lang), w, big, True, min(big, 9))


@lru_cache(maxsize=2048)
def trait_chip(trait: str | None, w: int, h: int, style: str, green: bool, pending: bool,
               lang: str) -> Image.Image:
    """A trait card on a species as a chip ``w`` x ``h`` (RGB on a card's white).

    ``style``: ``"up"`` (face up: its name; Carnivore red; a green frame for the traits that
    act before the reveal), ``"back"`` (another player's face-down card: a card back, no
    name), ``"own"`` (the viewer's own face-down card: its name on a card back's ground).
    ``pending``: a green trait its owner has still to order (an orange frame)."""
    im = Image.new("RGB", (w, h), CARD_BG)
    d = ImageDraw.Draw(im)
    if style == "back":
        back = card_back(w, h)
        im.paste(back, (0, 0), back)
        return im
    if style == "own":
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=4, fill=BACK_BG, outline=BACK_LINE)
        ink, mark = WHITE, "▽"
    else:
        carn = trait == "carnivore"
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=4, fill=CARN_BG if carn else TRAIT_BG,
                            outline=INK if carn else TRAIT_LINE)
        ink, mark = (WHITE if carn else INK), ""
    if green:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=4, outline=GREEN_FRAME, width=3)
    if pending:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=4, outline=AWAIT, width=3)
    x = 5
    big = max(9, min(15, h - 6))
    if mark:
        text(im, x, h / 2, mark, big - 2, True, CAPTION_HI)
        x += text_width(mark, big - 2, True) + 2
    size, name = _chip_name(trait or "", w - x - 4, big, lang)
    text(im, x, h / 2 + 0.5, name, size, True, ink)
    return im


def _pips(img: Image.Image, x: float, cy: float, food: int, need: int, fat: int, r: int,
          step: float) -> float:
    """Food eaten against ``need`` (filled, then hollow), then fat; the x after them."""
    for i in range(max(need, food)):
        sprite = disc(FOOD, r) if i < food else disc(CARD_BG, r, HOLLOW)
        paste(img, sprite, x + i * step + r, cy)
    x += max(need, food) * step
    if fat:
        x += 4 if max(need, food) else 0
        for i in range(fat):
            paste(img, disc(FAT, r, FAT_LINE), x + i * step + r, cy)
        x += fat * step
    return x


def species_key(sp: dict, pending: frozenset, night: frozenset, negated: tuple,
                feeding: bool) -> tuple:
    """What a species card shows, as a hashable key: id, body, population, food, fat, fed,
    Nocturnal used, negated traits, the feeding phase (food is drawn against population
    then only), and per trait card (trait or None, style, green, pending)."""
    traits = []
    for tr in sp.get("traits") or ():
        name = tr.get("trait")
        if not tr.get("down"):
            style = "up"
        elif name is None:
            style = "back"
        else:
            style = "own"
        traits.append((name, style, bool(tr.get("green")) and style != "back",
                       (sp["id"], name) in pending and style == "up"))
    return (int(sp["id"]), int(sp.get("body", 1)), int(sp.get("pop", 1)),
            int(sp.get("food", 0)), int(sp.get("fat", 0)), bool(sp.get("fed")),
            sp["id"] in night, negated, feeding, tuple(traits))


@lru_cache(maxsize=1024)
def species_card(key: tuple, w: int, lang: str) -> Image.Image:
    """One species (RGB, ``w`` x ``CARD_H``): body size and population badges, its id, its
    food eaten against its population, its fat, a moon once Nocturnal was used this turn,
    the traits a carnivore's owner negated for its next attack, then its trait cards as
    chips. A fed species has a green frame."""
    sid, body, pop, food, fat, fed, night, negated, feeding, traits = key
    img = Image.new("RGB", (w, CARD_H), CARD_BG)
    d = ImageDraw.Draw(img)
    outline, width = (FED, 3) if fed and feeding else (CARD_LINE, 1)
    d.rounded_rectangle((0, 0, w - 1, CARD_H - 1), radius=7, fill=CARD_BG, outline=outline,
                        width=width)
    bs = 26
    paste(img, badge(body, bs, "body"), SP_PAD + bs / 2 + 1, 4 + bs / 2)
    paste(img, badge(pop, bs, "pop"), SP_PAD + bs * 1.5 + 6, 4 + bs / 2)
    head = f"#{sid}"
    hs = 12 if w >= 120 else 10
    text(img, w - SP_PAD - 1, 4 + bs / 2, head, hs, False, MUTED, "rm")
    # The food line: food against population, fat, moon, negated traits.
    right = w - SP_PAD
    small = 12
    if night:
        text(img, right, FOOD_Y, "☾", 15, True, BACK_BG, "rm")
        right -= text_width("☾", 15, True) + 3
    r = 6
    need = pop if feeding else 0
    tokens = max(need, food) + fat
    step = 2 * r + 2
    x = SP_PAD + 1
    room = right - x - (4 if fat and max(need, food) else 0)
    neg, neg_size = "", small
    if negated:                     # the negated traits first: the pips squeeze for them
        least = 2 * r + (tokens - 1) * (r + 1.5) if tokens else 0
        full = "⊘ " + ", ".join(trait_short(n, lang) for n in negated)
        neg_size, neg = fit_size(full, max(10.0, room - least - 4), small, True, 10)
        if neg != full:
            neg = f"⊘ {len(negated)}"
            neg_size = small
        room -= text_width(neg, neg_size, True) + 4
    if tokens > 1 and tokens * step > room:
        step = max(r + 1.5, (room - 2 * r) / (tokens - 1))
    x = _pips(img, x, FOOD_Y, food, need, fat, r, step) + 4
    if neg:
        text(img, x, FOOD_Y, neg, neg_size, True, NEGATED)
    inner = w - 2 * SP_PAD
    for i, (trait, style, green, pending) in enumerate(traits):
        img.paste(trait_chip(trait, inner, CHIP_H, style, green, pending, lang),
                  (SP_PAD, CHIP_Y + i * CHIP_STEP))
    return img


@lru_cache(maxsize=64)
def event_card(event: str, deck: str, to: str | None, w: int, h: int, lang: str,
               suns: int = 0) -> Image.Image:
    """A climate event card face up (RGB ``w`` x ``h`` on the page's ground): its deck's
    colour and icon, its name on one or two lines, a Volcanic Eruption's destination,
    ``suns`` suns under the name (a Thaw on the Watering Hole)."""
    im = Image.new("RGB", (w, h), BG)
    d = ImageDraw.Draw(im)
    cold = deck == "cold"
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, fill=COLD_BG if cold else HOT_BG,
                        outline=COLD_LINE if cold else HOT_LINE, width=2)
    paste(im, snow_icon(16) if cold else sun_icon(16), 13, h / 2)
    x0, room = 24, w - 28
    lines = _wrap(event_name(event, lang), room, 14, 10)
    extra = f"→ {zone_name(to, lang)}" if to else None
    size = lines[0]
    rows = list(lines[1])
    if extra:
        rows.append(fit_to(extra, size, False, room))
    step = size + 3
    icons = 16 if suns else 0
    y = h / 2 - ((len(rows) - 1) * step + icons) / 2
    for i, row in enumerate(rows):
        bold = not (extra and i == len(rows) - 1)
        text(im, x0 + room / 2, y + i * step, row, size, bold, INK, "mm")
    if suns:
        _icons(im, x0 + room / 2 - suns * 15 / 2, y + (len(rows) - 1) * step + 17, suns, 0, 14)
    return im


@lru_cache(maxsize=256)
def _wrap(s: str, width: float, size: int, smallest: int) -> tuple[int, tuple[str, ...]]:
    """``s`` on one line at the largest size that fits, else on two lines (split at the
    space that balances them best), else cut."""
    for sz in range(size, smallest - 1, -1):
        if text_width(s, sz, True) <= width:
            return sz, (s,)
        words = s.split(" ")
        if len(words) > 1:
            best = None
            for k in range(1, len(words)):
                a, b = " ".join(words[:k]), " ".join(words[k:])
                wmax = max(text_width(a, sz, True), text_width(b, sz, True))
                if wmax <= width and (best is None or wmax < best[0]):
                    best = (wmax, a, b)
            if best is not None:
                return sz, (best[1], best[2])
    return smallest, (fit(s, font(smallest, True), width),)


@lru_cache(maxsize=256)
def food_card(card: tuple | None, seat: int, down: bool, own: bool) -> Image.Image:
    """A food card on the Watering Hole (RGBA ``FOOD_W+8`` x ``FOOD_H+8``): a card back when
    face down (``own``: the viewer's own, its plant number shown on the back), the revealed
    card (plant leaf, suns and snowflakes), an empty place when ``card`` is None and not
    down; the seat's disc on its top-left corner."""
    im = Image.new("RGBA", (FOOD_W + 8, FOOD_H + 8), (0, 0, 0, 0))
    x0, y0 = 6, 6
    d = ImageDraw.Draw(im)
    if down:
        back = card_back(FOOD_W, FOOD_H)
        im.paste(back, (x0, y0), back)
        if own and card is not None:
            _plants(im, x0 + FOOD_W / 2, y0 + FOOD_H - 14, card[0], WHITE)
    elif card is None:
        d.rounded_rectangle((x0, y0, x0 + FOOD_W - 1, y0 + FOOD_H - 1), radius=5,
                            outline=LIGHT, width=2)
    else:
        plants, suns, snows = card
        d.rounded_rectangle((x0, y0, x0 + FOOD_W - 1, y0 + FOOD_H - 1), radius=5,
                            fill=CARD_BG + (255,), outline=INK + (255,), width=1)
        n = suns + snows
        if n:
            size = 12 if n <= 2 else 9
            _icons(im, x0 + FOOD_W / 2 - n * (size + 1) / 2, y0 + 14, suns, snows, size)
        _plants(im, x0 + FOOD_W / 2, y0 + FOOD_H - 14, plants, INK)
    paste(im, seat_disc(seat, 8), 9, 9)
    return im


def _plants(im: Image.Image, cx: float, cy: float, plants: int, ink: tuple) -> None:
    """A small leaf and a plant number, centred on ``cx``."""
    s = _signed(plants)
    size = 16 if len(s) < 3 else 14
    w = 15 + 2 + text_width(s, size, True)
    x = cx - w / 2
    paste(im, leaf_icon(15), x + 7.5, cy)
    text(im, x + 17, cy + 0.5, s, size, True, ink + (255,))


# --- the background ------------------------------------------------------------------------------

def _rounded(d: ImageDraw.ImageDraw, box, fill=CARD_BG, outline=CARD_LINE, width=2) -> None:
    d.rounded_rectangle(box, radius=10, fill=fill, outline=outline, width=width)


def _loss_rows(view: dict) -> tuple:
    """Per zone (cause, icons, (low, high)) from the view, as a hashable key."""
    out = []
    for z in (view.get("climate") or {}).get("loss") or ():
        body = z.get("body") or (1, 6)
        out.append((z.get("cause"), int(z.get("icons", 0)), (int(body[0]), int(body[1]))))
    return tuple(out)


@lru_cache(maxsize=128)
def zone_tile(zone: str, i: int, plants: int, loss: tuple | None, marked: bool,
              lang: str) -> Image.Image:
    """Zone ``i``'s tile (RGB ``ZONE_W`` x ``ZONE_H``): its name, its climate loss (suns or
    snowflakes, one per population lost, and the body sizes hit), its plant modifier on a
    leaf. ``marked``: the climate marker is here (a thick frame and the marker token)."""
    ground, ink = ZONE_RGB[i % len(ZONE_RGB)]
    im = Image.new("RGB", (ZONE_W, ZONE_H), BG)
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, ZONE_W - 1, ZONE_H - 1), radius=8, fill=ground,
                        outline=INK if marked else CARD_LINE, width=5 if marked else 1)
    size, name = fit_size(zone_name(zone, lang), ZONE_W - 16, 16, True, 10)
    text(im, ZONE_W / 2, 17, name, size, True, ink, "mm")
    cy = 48
    cause, icons, (low, high) = loss if loss else (None, 0, (1, 6))
    if icons and cause in ("cold", "heat"):
        sz = 16
        body = f"{low}–{high}" if low != high else str(low)
        bw = text_width(body, 14, True)
        total = icons * (sz + 1) + 6 + 14 + 3 + bw
        x = (ZONE_W - total) / 2
        x = _icons(im, x, cy, icons if cause == "heat" else 0, icons if cause == "cold" else 0,
                   sz, None, WHITE if ink == WHITE else SNOW)
        x += 6
        paste(im, badge_plain(14), x + 7, cy)
        text(im, x + 17, cy, body, 14, True, ink)
    else:
        word = label("climate.render.no_loss", lang)
        size, word = fit_size(word, ZONE_W - 16, 13, False, 9)
        text(im, ZONE_W / 2, cy, word, size, False, ink, "mm")
    s = _signed(plants)
    w = 24 + 4 + text_width(s, 19, True)
    x = (ZONE_W - w) / 2
    paste(im, leaf_icon(24), x + 12, 78)
    text(im, x + 28, 78, s, 19, True, ink)
    if marked:
        paste(im, marker_icon(22), ZONE_W - 17, ZONE_H - 17)
    return im


@lru_cache(maxsize=4)
def badge_plain(size: int) -> Image.Image:
    """A small body-size square with no number (the body sizes a zone hits)."""
    big, d = _big(size)
    S = size * SS
    d.rounded_rectangle((SS, SS, S - SS - 1, S - SS - 1), radius=S // 5,
                        fill=BODY_RGB + (255,), outline=INK + (255,), width=SS)
    return _small(big)


@lru_cache(maxsize=32)
def background(zones: tuple, plants: tuple, loss: tuple, events: bool,
               lang: str) -> Image.Image:
    """The top of the table that stays put during a game (cached; ``WIDTH`` x ``ROWS_Y``):
    the caption bar, the nine zone tiles of this board side, the strip's panel, the legend."""
    img = Image.new("RGB", (WIDTH, ROWS_Y), BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, CAPTION_H - 1), fill=CAPTION_BG)
    for i, zone in enumerate(zones[:ZONES_N]):
        tile = zone_tile(zone, i, plants[i] if i < len(plants) else 0,
                         loss[i] if i < len(loss) else None, False, lang)
        img.paste(tile, zone_box(i)[:2])
    if not events:
        word = label("climate.render.no_events", lang)
        text(img, WIDTH / 2, EVENT_Y + EVENT_H / 2, word, 15, False, MUTED, "mm")
    _rounded(d, strip_box())
    _legend(img, lang)
    return img


def _legend(img: Image.Image, lang: str) -> None:
    cy = LEGEND_Y + LEGEND_H / 2
    x = MARGIN + 8
    items = (
        (badge(3, 20, "body"), "climate.render.legend_body"),
        (badge(4, 20, "pop"), "climate.render.legend_pop"),
        (disc(FOOD, 6), "climate.render.legend_food"),
        (disc(FAT, 6, FAT_LINE), "climate.render.legend_fat"),
        (card_back(30, 18), "climate.render.legend_down"),
        (_green_sample(), "climate.render.legend_green"),
    )
    room = WIDTH - MARGIN - 8 - x
    words = [label(key, lang) for _, key in items]
    size = 14
    while size > 10 and sum(s.size[0] + 6 + text_width(w, size) + 22 for (s, _), w
                            in zip(items, words, strict=True)) > room:
        size -= 1
    for (sprite, _), word in zip(items, words, strict=True):
        paste(img, sprite, x + sprite.size[0] / 2, cy)
        x += sprite.size[0] + 6
        word = fit_to(word, size, False, max(20.0, WIDTH - MARGIN - x))
        text(img, x, cy, word, size, False, MUTED)
        x += text_width(word, size) + 22


@lru_cache(maxsize=1)
def _green_sample() -> Image.Image:
    im = Image.new("RGBA", (30, 18), (0, 0, 0, 0))
    ImageDraw.Draw(im).rounded_rectangle((0, 0, 29, 17), radius=4, fill=TRAIT_BG,
                                         outline=GREEN_FRAME, width=3)
    return im


@lru_cache(maxsize=64)
def empty_row(k: int, lang: str) -> Image.Image:
    """Seat ``k``'s row with nothing on it (``WIDTH`` x ``ROW_H``, on the page's ground):
    the frame, the columns, the seat disc."""
    img = Image.new("RGB", (WIDTH, ROW_H), BG)
    d = ImageDraw.Draw(img)
    x0, _, x1, _ = row_box(k)
    y0, y1 = 0, ROW_H - 1
    _rounded(d, (x0, y0, x1, y1))
    d.line((ID_X1, y0 + 10, ID_X1, y1 - 10), fill=ZEBRA, width=2)
    d.line((SCORE_X0, y0 + 10, SCORE_X0, y1 - 10), fill=CARD_LINE, width=1)
    paste(img, seat_disc(k, 14), x0 + 22, y0 + 22)
    return img


# --- what changes --------------------------------------------------------------------------------

def _name(view: dict, p) -> str:
    players = view["players"]
    if not isinstance(p, int) or not 0 <= p < len(players):
        return "?"
    return players[p]["name"]


def _names(view: dict, ps) -> str:
    return ", ".join(_name(view, p) for p in ps)


def phase_ended(view: dict) -> str | None:
    """The phase whose end ``view`` was taken at (the engine's observer: "play",
    "environment", "feeding"), or None for a position where someone is to act (and at the
    end of the game). A phase image must not name someone as awaited: the phase is over.
    The view tells it: every player is done playing in the play phase, the food cards are
    revealed while the phase still reads "green" (Modify the environment ran to its end),
    they are gone again in the feeding phase (the feeding ended and the round was tidied)."""
    if view.get("over"):
        return None
    phase = view.get("phase")
    players = view.get("players") or ()
    if phase == "play" and players and all(pl.get("done") for pl in players):
        return "play"
    if phase == "green" and view.get("suns") is not None:
        return "environment"
    if phase == "feeding" and view.get("suns") is None:
        return "feeding"
    return None


def effects_zone(view: dict) -> int | None:
    """The index of the zone whose climate effects (losses and plant modifier) apply this
    round when a Cold Snap or a Heat Wave fired: two steps colder or warmer than the
    marker's, kept on the track (the spec's 10.6); None otherwise (the marker's zone)."""
    fired = (view.get("events") or {}).get("fired") or {}
    cl = view.get("climate") or {}
    i, zones = cl.get("index"), cl.get("zones") or ()
    if fired.get("event") not in SHIFT or not isinstance(i, int) or not zones:
        return None
    return max(0, min(len(zones) - 1, i + SHIFT[fired["event"]]))


def _caption(img: Image.Image, view: dict, lang: str) -> None:
    ended = phase_ended(view)
    if view["over"]:
        left = label("climate.render.game_over", lang)
    else:
        left = label("climate.render.caption", lang, round=view.get("round", 1),
                     phase=phase_name(ended or view.get("phase", ""), lang))
        if view.get("last"):
            left += " · " + label("climate.render.last_round", lang)
        elif view.get("final_next"):
            left += " · " + label("climate.render.final_next", lang)
    if (view.get("options") or {}).get("quick"):
        left += " · " + label("climate.render.quick", lang)
    size, left = fit_size(left, 700, 26, True, 15)
    text(img, 18, CAPTION_H / 2, left, size, True, WHITE)
    used = 18 + text_width(left, size, True) + 30
    if view["over"] and view.get("result"):
        best = [row["player"] for row in view["result"] if row.get("rank") == 1]
        right = label("climate.render.winner", lang, players=_names(view, best))
    elif ended:
        right = label("climate.render.phase_over", lang)
    elif view.get("awaiting") and not view["over"]:
        right = label("climate.render.awaiting", lang, players=_names(view, view["awaiting"]))
    else:
        return
    size, right = fit_size(right, WIDTH - 18 - used, 22, True, 12)
    text(img, WIDTH - 18, CAPTION_H / 2, right, size, True, CAPTION_HI, "rm")


def _band(img: Image.Image, view: dict, lang: str) -> None:
    """The marker's zone, the volcano's destination and the event cards under their zones."""
    cl = view.get("climate") or {}
    zones = tuple(cl.get("zones") or ())
    idx = {z: i for i, z in enumerate(zones)}
    i = cl.get("index")
    plants = cl.get("plants") or ()
    loss = _loss_rows(view)
    if isinstance(i, int) and 0 <= i < min(len(zones), ZONES_N):
        tile = zone_tile(zones[i], i, plants[i] if i < len(plants) else 0,
                         loss[i] if i < len(loss) else None, True, lang)
        img.paste(tile, zone_box(i)[:2])
    ev = view.get("events") or {}
    effects = effects_zone(view)
    if effects is not None and effects < ZONES_N:  # a Cold Snap / Heat Wave's zone this round
        cold = (ev.get("fired") or {}).get("deck") == "cold"
        x0, y0, x1, y1 = zone_box(effects)
        d = ImageDraw.Draw(img)  # a white frame in a black one: seen on every zone's colour
        d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 2, y1 + 2), radius=10, outline=INK, width=7)
        d.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=8, outline=WHITE, width=3)
        ink = ZONE_RGB[effects % len(ZONE_RGB)][1]
        paste(img, snow_icon(20, WHITE if ink == WHITE else SNOW) if cold else sun_icon(20),
              x0 + 17, y1 - 17)
    volcano = ev.get("volcano")
    if volcano in idx and idx[volcano] < ZONES_N:
        x0, y0, _, y1 = zone_box(idx[volcano])
        paste(img, volcano_icon(24), x0 + 17, y1 - 17)
    for deck in ("cold", "hot"):
        up = (ev.get(deck) or {}).get("up")
        if up and up.get("zone") in idx and idx[up["zone"]] < ZONES_N:
            x0, y0, _, _ = event_box(idx[up["zone"]])
            img.paste(event_card(up.get("event", ""), up.get("deck", deck), up.get("to"),
                                 ZONE_W, EVENT_H, lang), (x0, y0))


def _strip(img: Image.Image, view: dict, lang: str) -> None:
    """The Watering Hole, the food cards, the icons revealed, the Thaw, the notes, the
    decks; at the end the final ranking instead."""
    if view["over"] and view.get("result"):
        _ranking(img, view, lang)
        return
    x0, y0, x1, y1 = strip_box()
    viewer = view.get("viewer")
    word = label("climate.render.watering_hole", lang)
    size, word = fit_size(word, 120, 14, True, 10)
    text(img, x0 + 70, y0 + 14, word, size, True, INK, "mm")
    paste(img, pond(120, 58), x0 + 70, y0 + 57)
    text(img, x0 + 70, y0 + 57, str(view.get("watering_hole", 0)), 28, True, WHITE, "mm")
    # The food cards, one place per seat.
    x = x0 + 146
    cards = view.get("food_cards") or ()
    word = label("climate.render.food_cards", lang)
    width = max(FOOD_STEP * max(1, len(cards)) - 10, 90)
    size, word = fit_size(word, width, 14, True, 10)
    text(img, x, y0 + 14, word, size, True)
    for p, fc in enumerate(cards):
        if fc is None:
            key, down, own = None, False, False
        elif fc.get("down"):
            own = p == viewer and fc.get("card") is not None
            key = (int(fc.get("plants", 0)), 0, 0) if own else None
            down = True
        else:
            key = (int(fc.get("plants", 0)), int(fc.get("suns", 0)), int(fc.get("snows", 0)))
            down = own = False
        sprite = food_card(key, p, down, own)
        img.paste(sprite, (x + p * FOOD_STEP - 6, y0 + 30 - 6), sprite)
    x += max(FOOD_STEP * len(cards), 90) + 6
    # The icons of the revealed food cards (and a Thaw).
    if view.get("suns") is not None:
        for k, (sprite, n) in enumerate(((sun_icon(22), view.get("suns") or 0),
                                         (snow_icon(22), view.get("snows") or 0))):
            cy = y0 + 36 + k * 30
            paste(img, sprite, x + 11, cy)
            text(img, x + 27, cy, str(n), 20, True)
        x += 72
    ev = view.get("events") or {}
    if ev.get("thaw"):
        th = ev["thaw"]
        card = event_card(th.get("event", "thaw"), th.get("deck", "cold"), None, 100, 58, lang,
                          THAW_SUNS)
        img.paste(card, (x, y0 + 30))
        x += 110
    # Notes: the volcano's destination, Meteor, Wildfire, the Thaw, this round's event.
    notes = []
    if ev.get("volcano"):
        notes.append((label("climate.render.volcano", lang,
                            zone=zone_name(ev["volcano"], lang)), VOLCANO))
    if ev.get("meteor"):
        notes.append((label("climate.render.meteor", lang), NEGATED))
    if ev.get("wildfire"):
        notes.append((label("climate.render.wildfire", lang, count=ev["wildfire"]), NEGATED))
    if ev.get("thaw"):
        notes.append((label("climate.render.thaw", lang), INK))
    fired = ev.get("fired")
    effects = effects_zone(view)
    zones = (view.get("climate") or {}).get("zones") or ()
    if fired and effects is not None:
        notes.append((label("climate.render.fired_effects", lang,
                            event=event_name(fired.get("event", ""), lang),
                            zone=zone_name(zones[effects], lang)), INK))
    elif fired and fired.get("event") not in ("thaw", "volcanic_eruption"):
        notes.append((label("climate.render.fired", lang,
                            event=event_name(fired.get("event", ""), lang)), INK))
    room = DECKS_X - 14 - x
    if notes and room > 40:
        notes = notes[:3]
        step = 26 if len(notes) < 3 else 25
        y = y0 + STRIP_H / 2 - (len(notes) - 1) * step / 2
        for k, (note, ink) in enumerate(notes):
            size, note = fit_size(note, room, 15, False, 11)
            text(img, x, y + k * step, note, size, False, ink)
    _decks(img, view, lang)


def _decks(img: Image.Image, view: dict, lang: str) -> None:
    _, y0, x1, _ = strip_box()
    x = DECKS_X
    room = x1 - 12 - x
    paste(img, deck_icon(16, 22), x + 10, y0 + 22)
    deck = label("climate.render.deck", lang, count=view.get("deck", 0))
    size, deck = fit_size(deck, room - 28, 17, True, 11)
    text(img, x + 26, y0 + 22, deck, size, True)
    line = " · ".join((label("climate.render.set_aside", lang, count=view.get("set_aside", 0)),
                       label("climate.render.discard", lang, count=view.get("discard", 0))))
    size, line = fit_size(line, room, 14, False, 10)
    text(img, x, y0 + 49, line, size, False, MUTED)
    if (view.get("options") or {}).get("events", True):
        ev = view.get("events") or {}
        word = label("climate.render.event_decks", lang)
        size, word = fit_size(word, room - 110, 14, False, 10)
        text(img, x, y0 + 75, word, size, False, MUTED)
        xx = x + text_width(word, size) + 8
        for sprite, n in ((snow_icon(16), (ev.get("cold") or {}).get("deck", 0)),
                          (sun_icon(16), (ev.get("hot") or {}).get("deck", 0))):
            paste(img, sprite, xx + 8, y0 + 75)
            text(img, xx + 19, y0 + 75, str(n), 15, True)
            xx += 19 + text_width(str(n), 15, True) + 10


def _ranking(img: Image.Image, view: dict, lang: str) -> None:
    """The final scores in rank order, across the strip (game over)."""
    x0, y0, x1, y1 = strip_box()
    cy = (y0 + y1) / 2
    word = label("climate.render.ranking", lang)
    size, word = fit_size(word, 190, 20, True, 12)
    text(img, x0 + 14, cy, word, size, True)
    x = x0 + 14 + text_width(word, size, True) + 18
    rows = view["result"]
    each = (x1 - 10 - x) / max(1, len(rows))
    for row in rows:
        p = row["player"]
        rank = label("climate.render.rank", lang, rank=row["rank"])
        text(img, x, cy, rank, 18, True, AWAIT if row["rank"] == 1 else INK)
        rx = x + text_width(rank, 18, True) + 4
        paste(img, seat_disc(p, 11), rx + 12, cy)
        score = str(row["score"])
        sw = text_width(score, 20, True)
        name = fit_to(_name(view, p), 16, False, max(12.0, each - (rx + 28 - x) - sw - 14))
        text(img, rx + 28, cy, name, 16, False, INK)
        text(img, rx + 28 + text_width(name, 16) + 6, cy, score, 20, True, INK)
        x += each


def _identity(img: Image.Image, view: dict, k: int, lang: str, awaiting: set) -> None:
    pl = view["players"][k]
    x0, _, x1, _ = row_box(k)
    if k in awaiting:
        ImageDraw.Draw(img).rounded_rectangle((x0, 0, x1, ROW_H - 1), radius=10,
                                              outline=AWAIT, width=5)
    size, name = fit_size(pl["name"], ID_X1 - (x0 + 42) - 6, 20, True, 11)
    text(img, x0 + 42, 22, name, size, True)
    room = ID_X1 - x0 - 20
    y = 50
    over = bool(view["over"])
    if view.get("first") == k and not over:
        d = ImageDraw.Draw(img)
        word = "★ " + label("climate.render.first", lang)
        size, word = fit_size(word, room - 12, 15, True, 10)
        w = text_width(word, size, True)
        d.rounded_rectangle((x0 + 10, y - 11, x0 + 20 + w, y + 11), radius=11, fill=AWAIT_SOFT,
                            outline=AWAIT, width=2)
        text(img, x0 + 15, y, word, size, True, INK)
        y += 25
    lines: list[tuple[Image.Image | None, str, bool]] = []
    if not over:
        lines.append((deck_icon(12, 17), label("climate.render.hand", lang,
                                               count=pl.get("hand", 0)), True))
    if pl.get("bag") is not None:
        lines.append((bag_icon(18), label("climate.render.bag", lang, count=pl["bag"]), True))
    back = pl.get("returned")
    count = len(back) if isinstance(back, list) else int(back or 0)
    if count and not over:
        lines.append((None, label("climate.render.returned", lang, count=count), False))
    phase = view.get("phase")
    if not over and phase == "play" and pl.get("done"):
        lines.append((None, "✓ " + label("climate.render.done", lang), True))
    elif not over and phase == "feeding" and pl.get("passed"):
        lines.append((None, label("climate.render.passed", lang), False))
    for sprite, word, bold in lines:
        if y > ROW_H - 12:
            break
        if sprite is not None:
            paste(img, sprite, x0 + 20, y)
            size, word = fit_size(word, room - 22, 16, bold, 10)
            text(img, x0 + 34, y, word, size, bold, INK)
        else:
            size, word = fit_size(word, room, 15, bold, 10)
            text(img, x0 + 12, y, word, size, bold, FED if bold else MUTED)
        y += 24


def _score(img: Image.Image, view: dict, k: int, lang: str, result: dict) -> None:
    pl = view["players"][k]
    x0, _, x1, _ = score_box(k)
    cx = (x0 + x1) / 2
    row = result.get(k)
    heading = [(label("climate.render.points", lang), 13, 16)]
    if row is None:  # the points on the board: the bag is hidden, not counted
        heading = [(heading[0][0], 13, 12), (label("climate.render.points_note", lang), 11, 27)]
    for word, size, y in heading:
        size, word = fit_size(word, SCORE_W - 8, size, False, 10)
        text(img, cx, y, word, size, False, MUTED, "mm")
    if row is not None:
        rk = row.get("rank", 0)
        word = label("climate.render.rank", lang, rank=rk)
        d = ImageDraw.Draw(img)
        w = text_width(word, 16, True)
        d.rounded_rectangle((x0 + 8, 38, x0 + 20 + w, 62), radius=12,
                            fill=AWAIT if rk == 1 else ZEBRA)
        text(img, x0 + 14, 50, word, 16, True, INK)
        text(img, x1 - 10, 50, str(row.get("score", 0)), 28, True, INK, "rm")
        lines = [label("climate.render.score_food", lang, count=row.get("food", 0)),
                 label("climate.render.score_pop", lang, count=row.get("population", 0)),
                 label("climate.render.score_traits", lang, count=row.get("traits", 0))]
        y = 84
        for line in lines:
            size, line = fit_size(line, SCORE_W - 10, 14, False, 9)
            text(img, cx, y, line, size, False, MUTED, "mm")
            y += 20
        return
    text(img, cx, 52, str(pl.get("points", 0)), 32, True, INK, "mm")
    if pl.get("total") is not None:
        line = label("climate.render.total", lang, total=pl["total"])
        size, line = fit_size(line, SCORE_W - 10, 14, True, 9)
        text(img, cx, 86, line, size, True, MUTED, "mm")


def _row(img: Image.Image, view: dict, k: int, lang: str, species: tuple) -> None:
    """The species cards of a row, left to right (``species``: their ``species_key``)."""
    if not species:
        word = label("climate.render.no_species", lang)
        text(img, SP_X0 + 10, ROW_H / 2, word, 16, False, LIGHT)
        return
    for (x, w), key in zip(species_slots(len(species)), species, strict=True):
        img.paste(species_card(key, w, lang), (x, 5))


def _context(view: dict) -> tuple[frozenset, frozenset, dict]:
    """What the rows need from the whole view: the green traits still to order, the species
    that used Nocturnal, the traits negated per carnivore."""
    pending = frozenset((g.get("species"), g.get("trait")) for g in (view.get("green") or ()))
    night = frozenset(view.get("night") or ())
    negated: dict[int, list[str]] = {}
    for g in view.get("negated") or ():
        negated.setdefault(g.get("species"), []).append(str(g.get("trait")))
    return pending, night, negated


def _row_key(view: dict, k: int, awaiting: set, result: dict,
             context: tuple) -> tuple[tuple, tuple]:
    """Everything seat ``k``'s row shows, as a hashable key, and its species' keys."""
    pl = view["players"][k]
    over = bool(view["over"])
    pending, night, negated = context
    feeding = view.get("phase") == "feeding" and not over
    species = tuple(species_key(sp, pending, night, tuple(negated.get(sp["id"], ())), feeding)
                    for sp in (pl.get("species") or ()))
    back = pl.get("returned")
    count = len(back) if isinstance(back, list) else int(back or 0)
    phase = view.get("phase")
    res = result.get(k)
    key = (k, pl["name"], view.get("first") == k and not over, over, pl.get("hand", 0),
           pl.get("bag"), count, phase == "play" and bool(pl.get("done")),
           phase == "feeding" and bool(pl.get("passed")), k in awaiting, species,
           pl.get("points", 0), pl.get("total"),
           None if res is None else tuple(sorted((str(a), b) for a, b in res.items())))
    return key, species


ROW_CACHE_SIZE = 128
_rows: dict[tuple, Image.Image] = {}


def row_sprite(view: dict, k: int, lang: str, awaiting: set, result: dict,
               context: tuple) -> Image.Image:
    """Seat ``k``'s row drawn (``WIDTH`` x ``ROW_H``), kept by what it shows (``_row_key``):
    between two pictures of a game most rows have not changed."""
    row_key, species = _row_key(view, k, awaiting, result, context)
    key = (row_key, lang)
    img = _rows.get(key)
    if img is None:
        img = empty_row(k, lang).copy()
        _identity(img, view, k, lang, awaiting)
        _row(img, view, k, lang, species)
        _score(img, view, k, lang, result)
        if len(_rows) >= ROW_CACHE_SIZE:
            _rows.pop(next(iter(_rows)))
        _rows[key] = img
    return img


# What the top of the table (caption, climate band, strip) is drawn from.
TOP_FIELDS = ("over", "round", "phase", "last", "final_next", "options", "awaiting", "result",
              "climate", "events", "watering_hole", "food_cards", "viewer", "suns", "snows",
              "deck", "set_aside", "discard")
TOP_CACHE_SIZE = 16
_tops: dict[tuple, Image.Image] = {}


def top_sprite(view: dict, lang: str) -> Image.Image:
    """The top of the table (``WIDTH`` x ``ROWS_Y``): caption, climate band, strip, legend,
    kept by what it shows (the view's fields it reads and the players' names)."""
    key = (json.dumps({f: view.get(f) for f in TOP_FIELDS}, sort_keys=True),
           tuple(pl.get("name") for pl in view["players"]), phase_ended(view), lang)
    img = _tops.get(key)
    if img is None:
        cl = view.get("climate") or {}
        img = background(tuple(cl.get("zones") or ()), tuple(cl.get("plants") or ()),
                         _loss_rows(view), bool((view.get("options") or {}).get("events", True)),
                         lang).copy()
        _caption(img, view, lang)
        _band(img, view, lang)
        _strip(img, view, lang)
        if len(_tops) >= TOP_CACHE_SIZE:
            _tops.pop(next(iter(_tops)))
        _tops[key] = img
    return img


def clear_caches() -> None:
    """Forget every cached sprite, row and top (the output never depends on them)."""
    for cached in (background, zone_tile, event_card, species_card, trait_chip, food_card,
                   empty_row, hand_card, seat_disc, trait_name, trait_short, zone_name,
                   event_name, phase_name, _wrap):
        cached.cache_clear()
    _rows.clear()
    _tops.clear()


def draw_climate(view: dict, lang: str = "en") -> Image.Image:
    """The table of ``view`` (``CLIMATE.view``): an RGB image ``WIDTH`` x ``height_for``."""
    n = len(view["players"])
    img = Image.new("RGB", (WIDTH, height_for(n)), BG)
    img.paste(top_sprite(view, lang), (0, 0))
    over = bool(view["over"])
    awaiting = set(view.get("awaiting") or ()) \
        if not over and phase_ended(view) is None else set()
    result = {row["player"]: row for row in (view.get("result") or ())} if over else {}
    context = _context(view)
    for k in range(n):
        img.paste(row_sprite(view, k, lang, awaiting, result, context), (0, row_box(k)[1]))
    return img


# --- the hand ------------------------------------------------------------------------------------

@lru_cache(maxsize=512)
def hand_card(trait: str, plants: int, suns: int, snows: int, green: bool,
              lang: str) -> Image.Image:
    """A trait card of a hand (RGB ``HC_W`` x ``HC_H`` on the page's ground): its name on a
    title band (red for Carnivore), a green frame for the traits that act before the reveal,
    its suns and snowflakes, its plant number on a leaf."""
    im = Image.new("RGB", (HC_W, HC_H), BG)
    d = ImageDraw.Draw(im)
    carn = trait == "carnivore"
    d.rounded_rectangle((0, 0, HC_W - 1, HC_H - 1), radius=10, fill=CARD_BG,
                        outline=GREEN_FRAME if green else INK, width=5 if green else 2)
    pad = 7 if green else 5
    band = (pad, pad, HC_W - 1 - pad, 58)
    d.rounded_rectangle(band, radius=6, fill=CARN_BG if carn else TRAIT_BG)
    room = band[2] - band[0] - 10
    name = trait_name(trait, lang)
    size, lines = _wrap(name, room, 20, 14)
    if len(lines) == 1 and lines[0] != name:          # cut: try the short form
        size, lines = _wrap(trait_short(trait, lang), room, 20, 12)
    cy = (band[1] + band[3]) / 2
    step = size + 4
    for i, line in enumerate(lines):
        text(im, HC_W / 2, cy + (i - (len(lines) - 1) / 2) * step, line, size, True,
             WHITE if carn else INK, "mm")
    n = suns + snows
    if n:
        sz = 24 if n <= 3 else 18
        _icons(im, pad + 8, HC_H - pad - 24, suns, snows, sz, sz + 3)
    num = _signed(plants)
    right = HC_W - pad - 8
    cy = HC_H - pad - 24
    text(im, right, cy, num, 26, True, LEAF_DARK if plants >= 0 else NEGATED, "rm")
    paste(im, leaf_icon(30), right - text_width(num, 26, True) - 18, cy)
    return im


def _card_fields(c: dict) -> tuple:
    return (str(c.get("trait") or ""), int(c.get("plants", 0)), int(c.get("suns", 0)),
            int(c.get("snows", 0)), bool(c.get("green")))


def _hand_sections(view: dict) -> list[tuple[str | None, list[tuple[tuple, str | None]]]]:
    """(heading key, [(card fields, tag)]) for the hand and the viewer's other cards."""
    me = view.get("viewer")
    pl = view["players"][me]
    out: list = [(None, [(_card_fields(c), None) for c in (pl.get("cards") or ())])]
    foods = view.get("food_cards") or ()
    fc = foods[me] if me < len(foods) else None
    if fc and fc.get("card"):
        out.append(("climate.render.your_food",
                    [(_card_fields(fc), "climate.render.food_down" if fc.get("down") else None)]))
    down = [(_card_fields(tr), ("climate.render.on_species", sp["id"]))
            for sp in (pl.get("species") or ()) for tr in (sp.get("traits") or ())
            if tr.get("down") and tr.get("card")]
    if down:
        out.append(("climate.render.your_down", down))
    back = pl.get("returned")
    if isinstance(back, list) and back:
        out.append(("climate.render.your_returned", [(_card_fields(c), None) for c in back]))
    held = pl.get("held")
    if isinstance(held, list) and held:
        out.append(("climate.render.your_held", [(_card_fields(c), None) for c in held]))
    return out


def _grid_h(count: int, tagged: bool) -> int:
    rows = max(1, -(-count // HC_PER_ROW))
    return rows * (HC_H + (TAG_H if tagged else 0)) + (rows - 1) * HC_GAP


def hand_height(view: dict) -> int:
    """The hand image's height for ``view`` (its viewer's cards)."""
    h = HAND_CAPTION_H + 40
    for i, (_heading, cards) in enumerate(_hand_sections(view)):
        tagged = any(tag for _, tag in cards)
        if i:
            h += 40
        h += _grid_h(len(cards), tagged) if cards else 40
        h += 12
    return h + MARGIN


def draw_hand(view: dict, lang: str = "en") -> Image.Image:
    """The viewer's private cards (``CLIMATE.view(state, seat)``): an RGB image ``HAND_W``
    wide. Raises ValueError for a view without a viewer (the public table has no hand)."""
    me = view.get("viewer")
    if not isinstance(me, int) or not 0 <= me < len(view["players"]):
        raise ValueError("a hand image needs a player's own view")
    pl = view["players"][me]
    sections = _hand_sections(view)
    img = Image.new("RGB", (HAND_W, hand_height(view)), BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, HAND_W, HAND_CAPTION_H - 1), fill=CAPTION_BG)
    paste(img, seat_disc(me, 14), 26, HAND_CAPTION_H / 2)
    status = label("climate.render.hand_status", lang, round=view.get("round", 1),
                   phase=phase_name(view.get("phase", ""), lang))
    ssize, status = fit_size(status, 330, 18, True, 11)
    text(img, HAND_W - 16, HAND_CAPTION_H / 2, status, ssize, True, CAPTION_HI, "rm")
    title = label("climate.render.hand_title", lang, player=pl["name"],
                  count=len(pl.get("cards") or ()))
    room = HAND_W - 16 - text_width(status, ssize, True) - 20 - 48
    size, title = fit_size(title, room, 22, True, 12)
    text(img, 48, HAND_CAPTION_H / 2, title, size, True, WHITE)
    y = HAND_CAPTION_H + 20
    if pl.get("bag") is not None:
        line = label("climate.render.hand_score", lang, bag=pl["bag"],
                     points=pl.get("points", 0), total=pl.get("total", 0))
        size, line = fit_size(line, HAND_W - 2 * HC_X0 - 30, 17, True, 11)
        paste(img, bag_icon(20), HC_X0 + 10, y)
        text(img, HC_X0 + 26, y, line, size, True, INK)
    y = HAND_CAPTION_H + 40
    for i, (heading, cards) in enumerate(sections):
        if i:
            word = label(heading, lang)
            size, word = fit_size(word, HAND_W - 2 * HC_X0, 18, True, 11)
            text(img, HC_X0, y + 20, word, size, True, INK)
            y += 40
        if not cards:
            word = label("climate.render.hand_empty", lang)
            text(img, HC_X0 + 6, y + 18, word, 18, False, MUTED)
            y += 40 + 12
            continue
        tagged = any(tag for _, tag in cards)
        for j, (fields, tag) in enumerate(cards):
            r, c = divmod(j, HC_PER_ROW)
            x = HC_X0 + c * (HC_W + HC_GAP)
            cy = y + r * (HC_H + (TAG_H if tagged else 0) + HC_GAP)
            img.paste(hand_card(*fields, lang), (x, cy))
            if tag:
                if isinstance(tag, tuple):
                    word = label(tag[0], lang, species=tag[1])
                else:
                    word = label(tag, lang)
                size, word = fit_size(word, HC_W - 4, 15, False, 10)
                text(img, x + HC_W / 2, cy + HC_H + TAG_H / 2 + 1, word, size, False, MUTED,
                     "mm")
        y += _grid_h(len(cards), tagged) + 12
    return img


def render_hand(view: dict, lang: str = "en") -> bytes:
    """The viewer's hand image as PNG bytes, to send to that player alone (ephemeral)."""
    return encode_png(draw_hand(view, lang))


# --- encoding ------------------------------------------------------------------------------------

FLAT = [BG, INK, MUTED, LIGHT, WHITE, BLACK, CARD_BG, CARD_LINE, CAPTION_BG, CAPTION_HI, AWAIT,
        AWAIT_SOFT, ZEBRA, BODY_RGB, POP_RGB, FOOD, FAT, FAT_LINE, HOLLOW, FED, TRAIT_BG,
        TRAIT_LINE, CARN_BG, GREEN_FRAME, BACK_BG, BACK_PAT, BACK_LINE, POND, POND_LINE, LEAF,
        LEAF_DARK, SUN, SUN_LINE, SNOW, VOLCANO, ROCK, BAG, COLD_BG, COLD_LINE, HOT_BG, HOT_LINE,
        NEGATED, *(g for g, _ in ZONE_RGB), *PLAYER_RGB]


@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """The fixed 256-colour palette of every Evolution: Climate picture: its flat colours
    exactly, then the in-between colours of a sample sheet drawn with the same sprites."""
    from engine.climate.data import GREEN, TRAITS, ZONES

    sheet = Image.new("RGB", (1400, 420), BG)
    d = ImageDraw.Draw(sheet)
    d.rectangle((0, 0, 1400, 120), fill=CARD_BG)
    for i, tr in enumerate(TRAITS):
        style = ("up", "own", "back")[i % 3] if i % 4 else "up"
        sheet.paste(trait_chip(tr, 150, CHIP_H, style, tr in GREEN, i == 5, "en"),
                    (4 + (i % 8) * 160, 4 + (i // 8) * 24))
    for i, z in enumerate(ZONES[:ZONES_N]):
        sheet.paste(zone_tile(z, i, i - 4, ("cold" if i < 4 else "heat", 1 + i % 4, (1, 4)),
                              i == 4, "en"), (4 + i * 140, 124))
    for i, (ev, deck) in enumerate((("cold_snap", "cold"), ("volcanic_eruption", "hot"))):
        sheet.paste(event_card(ev, deck, "cold" if i else None, ZONE_W, EVENT_H, "en"),
                    (4 + i * 140, 230))
    for i, tr in enumerate(("carnivore", "fat_tissue", "horns")):
        sheet.paste(hand_card(tr, i - 1, i, 2 - i, tr in GREEN, "en"), (300 + i * 180, 230))
    for p in range(len(PLAYER_RGB)):
        paste(sheet, seat_disc(p, 14), 20 + p * 40, 300)
    for i, key in enumerate(((3, 1, 1), None)):
        sprite = food_card(key, i, i == 1, False)
        sheet.paste(sprite, (20 + i * 50, 320), sprite)
    for i, sprite in enumerate((pond(120, 58), bag_icon(18), volcano_icon(24), marker_icon(22),
                                badge(3, 26, "body"), badge(4, 26, "pop"), disc(FOOD, 5),
                                disc(FAT, 5, FAT_LINE), deck_icon(16, 22))):
        paste(sheet, sprite, 200 + i * 70, 380)
    grounds = ((CARD_BG, (INK, MUTED, LIGHT, FED, NEGATED, VOLCANO)), (BG, (INK, MUTED, LIGHT)),
               (CAPTION_BG, (WHITE, CAPTION_HI)), (AWAIT_SOFT, (INK,)), (AWAIT, (INK,)),
               (ZEBRA, (INK,)), (TRAIT_BG, (INK,)), (CARN_BG, (WHITE,)), (BACK_BG, (WHITE,)),
               (POND, (WHITE,)), (COLD_BG, (INK,)), (HOT_BG, (INK,)),
               *((g, (ink,)) for g, ink in ZONE_RGB))
    y = 120
    for ground, inks in grounds:
        d.rectangle((1100, y, 1400, y + 10), fill=ground)
        for k, ink in enumerate(inks):
            text(sheet, 1104 + k * 40, y + 5, "Ag8", 11, k % 2 == 0, ink)
        y += 11
    return build_palette(FLAT, sheet)


def encode_png(image: Image.Image) -> bytes:
    """The PNG bytes of an Evolution: Climate picture: mapped onto ``board_palette`` (nearest
    colour, no dithering), ``compress_level=1``, no metadata: same image, same bytes."""
    return encode_with_palette(image, board_palette())


def render_climate(view: dict, lang: str = "en") -> bytes:
    """The table of ``view`` as PNG bytes, ready to attach to a Discord message."""
    return encode_png(draw_climate(view, lang))


# --- benchmark -----------------------------------------------------------------------------------

def bench_render(view: dict, repeats: int = 40, lang: str = "en") -> dict:
    """Median ms of draw+encode (``render_climate``) and of ``encode_png`` alone on the same
    finished image, and their ratio."""
    image = draw_climate(view, lang)
    for _ in range(3):                                   # warm-up: caches, palette
        render_climate(view, lang)
        encode_png(image)
    render, encode = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        render_climate(view, lang)
        t1 = time.perf_counter()
        encode_png(image)
        t2 = time.perf_counter()
        render.append((t1 - t0) * 1000)
        encode.append((t2 - t1) * 1000)
    r, e = statistics.median(render), statistics.median(encode)
    return {"render_ms": round(r, 3), "encode_ms": round(e, 3), "ratio": round(r / e, 3)}
