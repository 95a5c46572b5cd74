"""The EVO board as one PNG: island, dinos, climate and meteorite tracks, players, auction.

    png = render_evo(EVO.view(state, None), "en")

The picture is the public table: it draws only what the view holds and never a hand, so it
is the same for every player (render it from a spectator view, ``viewer=None``).

Layout (1280 x 860, made to stay readable when Discord shrinks it to ~400 px on a phone)::

    +------------------------- caption: turn, phase, who we wait for / winner ---------------+
    | island: hexes with terrain colour and zone    | Order: one card per player, in turn     |
    | pattern, names, start stars, dinos            |   order: disc, name, MP, dinos, cards,  |
    |                                               |   species portrait (gene icons)         |
    | climate track (marker)        + symbol legend |                                         |
    | zone of each terrain now (legend of patterns) | auction / final ranking / cards played  |
    | meteorite track (marker, ending die faces)    |                                         |
    +----------------------------------------------------------------------------------------+

Speed: everything that does not change between two pictures of the same game is drawn once
and kept (``functools.lru_cache``): fonts, the island for a map and a climate (six climates
per map), the background around it (titles, track squares, zone chips, the empty player
cards with their gene icons), dino discs and gene icons (drawn 4x larger and shrunk, so they
are smooth), and every piece of text already rasterised (names and small numbers come back
all game long). A render copies the background and pastes only what changed: dinos,
markers, numbers. ``encode_png`` maps the picture onto one fixed 256-colour palette (exact
for every flat colour used here) before writing the PNG: see its docstring.

Every word on the picture comes from the message catalogue (``messages.t``) in ``lang``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engine.evo.data import GENE_KINDS, board_for
from images import common as ic
from messages import t

# --- sizes ---------------------------------------------------------------------------------------

WIDTH, HEIGHT = 1280, 860
CAPTION_H = 62
ISLAND_BOX = (12, 70, 772, 650)          # x0, y0, x1, y1 of the sea
CLIMATE_Y = 658                          # climate track row (top)
ZONES_Y = 716                            # zone chips row (the island's legend)
METEOR_Y = 782                           # meteorite track row
PANEL_X, PANEL_W = 786, 484              # the right column
PLAYERS_Y = 120                          # first player card
CARD_H, CARD_GAP = 102, 6                # one player card
BOX_Y = 664                              # auction / ranking / cards played (right, bottom)
GENE_COL_X, GENE_COL_W = PANEL_X + 12, 67
CLIMATE_SQ, CLIMATE_STEP, CLIMATE_X = 44, 52, 168
METEOR_SQ, METEOR_X = 40, 168
SS = 4                                   # supersampling of sprites

# --- colours -----------------------------------------------------------------------------------

# BG, INK, WHITE, BLACK, CARD_*, CAPTION_*, AWAIT: images.common's.
MUTED = (95, 95, 95)                     # a little darker than the other games'
SEA = (46, 102, 144)
SHALLOW = (96, 156, 196)
HEX_LINE = (52, 52, 52)
METEOR_RED = (230, 60, 20)
FACE_FILL = (255, 204, 170)
FACE_INK = (180, 0, 0)
END_FILL = HEX_LINE

TERRAINS = ("beach", "prairie", "hill", "mountain")
TERRAIN_RGB = {
    "beach": (242, 209, 107),
    "prairie": (124, 186, 78),
    "hill": (166, 116, 62),
    "mountain": (150, 150, 150),
}
ZONES = ("temperate", "cold", "hot", "deadly")
# How a zone changes a hex: a tint (colour, strength) and a pattern in one colour, so that
# the four zones differ by texture too (plain, snow dots, single hatch, dark cross-hatch).
ZONE_TINT = {"temperate": (ic.WHITE, 0.0), "cold": ((214, 238, 255), 0.45),
             "hot": ((255, 106, 0), 0.30), "deadly": ((25, 0, 0), 0.62)}
ZONE_PATTERN_RGB = {"cold": ic.WHITE, "hot": (170, 55, 0), "deadly": (235, 45, 30)}
ZONE_INK = {"temperate": (30, 110, 40), "cold": (25, 90, 170), "hot": (200, 80, 0),
            "deadly": (180, 0, 0)}
ZONE_GLYPH = {"temperate": "", "cold": "❄", "hot": "☀", "deadly": "☠"}

# Okabe-Ito based, told apart by colour-blind players too; every disc also carries the seat
# number, so colour is never the only cue.
PLAYER_RGB = ((213, 94, 0), (0, 114, 178), (245, 245, 245), (34, 34, 34), (204, 121, 167))
PLAYER_INK = (ic.WHITE, ic.WHITE, ic.BLACK, ic.WHITE, ic.BLACK)
NEWBORN_RING = (255, 212, 0)

GENE_RGB = {
    "tail": (46, 125, 50), "fur": (121, 85, 72), "legs": (21, 101, 192),
    "parasol": (142, 36, 170), "horns": (239, 230, 207), "mutant": (216, 27, 96),
    "egg": (255, 248, 225), "card": (0, 137, 123),
}
ICON_INK = ic.INK
EGG_SPOT = (120, 90, 60)

def player_rgb(p: int) -> tuple[int, int, int]:
    """The colour of player ``p``'s dinos."""
    return PLAYER_RGB[p % len(PLAYER_RGB)]


def zone_fill(terrain: str, zone: str) -> tuple[int, int, int]:
    """The flat colour of a ``terrain`` hex in ``zone`` (under its pattern)."""
    base = TERRAIN_RGB[terrain]
    tint, k = ZONE_TINT[zone]
    return tuple(round(a + (b - a) * k) for a, b in zip(base, tint, strict=True))


# --- island geometry -------------------------------------------------------------------------------

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class IslandLayout:
    """Where the hexes of one map go on the canvas (pointy-top, odd rows shifted right)."""

    radius: float                                 # centre to corner, in pixels
    centres: tuple[tuple[float, float], ...]      # hex centres, canvas coordinates

    def disc_centre(self, region: int) -> tuple[int, int]:
        """Where a dino stands in ``region`` (a little below the centre, under the name)."""
        x, y = self.centres[region]
        return round(x), round(y + 0.08 * self.radius)

    def disc_radius(self) -> int:
        return max(8, round(0.45 * self.radius))


@lru_cache(maxsize=16)
def island_layout(players: int) -> IslandLayout:
    """The hex layout of the map for ``players``, scaled to fill the sea box.

    Works for any map size (the box is filled whatever the rows and columns).
    """
    b = board_for(players)
    units = [(c + 0.5 * (r % 2), r) for r, c in b.cells]
    xs = [u for u, _ in units]
    rs = [r for _, r in units]
    wide = max(xs) - min(xs) + 1.0              # in hex widths
    tall = 1.5 * (max(rs) - min(rs)) + 2.0      # in radii
    x0, y0, x1, y1 = ISLAND_BOX
    pad = 14
    radius = min((x1 - x0 - 2 * pad) / (SQRT3 * wide), (y1 - y0 - 2 * pad) / tall)
    w, h = SQRT3 * radius * wide, radius * tall
    ox = x0 + (x1 - x0 - w) / 2 + SQRT3 * radius / 2 - SQRT3 * radius * min(xs)
    oy = y0 + (y1 - y0 - h) / 2 + radius - 1.5 * radius * min(rs)
    centres = tuple((ox + SQRT3 * radius * u, oy + 1.5 * radius * r) for u, r in units)
    return IslandLayout(radius=radius, centres=centres)


def hex_centre(players: int, region: int) -> tuple[int, int]:
    """The pixel at the centre of ``region``'s hex on the board image (a dino covers it)."""
    x, y = island_layout(players).centres[region]
    return round(x), round(y)


def _hexagon(x: float, y: float, r: float) -> list[tuple[float, float]]:
    return [(x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
            for a in (30, 90, 150, 210, 270, 330)]


# --- zone patterns and hex painting ---------------------------------------------------------------

@lru_cache(maxsize=32)
def _pattern_mask(zone: str, w: int, h: int, s: int) -> Image.Image:
    """Where a zone's pattern colour goes (L image ``w`` x ``h``, drawn at scale ``s``)."""
    mask = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(mask)
    if zone == "cold":
        step, dot = 13 * s, 1.7 * s
        for j, y in enumerate(range(0, h + step, step)):
            for x in range(-step, w + step, step):
                cx = x + (step // 2 if j % 2 else 0)
                d.ellipse((cx - dot, y - dot, cx + dot, y + dot), fill=255)
    elif zone == "hot":
        step = 11 * s
        for k in range(-h, w + h, step):
            d.line((k, 0, k + h, h), fill=255, width=max(1, round(1.3 * s)))
    elif zone == "deadly":
        step = 13 * s
        for k in range(-h, w + h, step):
            d.line((k, 0, k + h, h), fill=255, width=round(1.2 * s))
            d.line((k, h, k + h, 0), fill=255, width=round(1.2 * s))
    return mask


def _paint_hexes(img: Image.Image, hexes, s: int) -> None:
    """Paint ``hexes`` [(x, y, r, terrain, zone)] on ``img`` (drawn at scale ``s``):
    flat zone colour, the zone's pattern, then the outlines."""
    d = ImageDraw.Draw(img)
    for x, y, r, terrain, zone in hexes:
        d.polygon(_hexagon(x, y, r), fill=zone_fill(terrain, zone))
    w, h = img.size
    for zone, colour in ZONE_PATTERN_RGB.items():
        cells = [hx for hx in hexes if hx[4] == zone]
        if not cells:
            continue
        where = Image.new("L", (w, h), 0)
        dm = ImageDraw.Draw(where)
        for x, y, r, _, _ in cells:
            dm.polygon(_hexagon(x, y, r), fill=255)
        box = where.getbbox()
        if box:                                   # only the zone's part of the picture
            mask = ImageChops.multiply(where.crop(box), _pattern_mask(zone, w, h, s).crop(box))
            img.paste(colour, box, mask)
    for x, y, r, _, _ in hexes:
        d.polygon(_hexagon(x, y, r), outline=HEX_LINE, width=3)


def zone_key(view: dict) -> tuple[str, ...]:
    """The zone of each terrain (beach..mountain): what the island's look depends on."""
    zones = view["climate"]["zones"]
    return tuple(zones.get(terrain, "temperate") for terrain in TERRAINS)


def _label(img: Image.Image, x: float, y: float, s: str, size: int) -> None:
    """A region name as the island shows it: dark ink in a white halo."""
    ImageDraw.Draw(img).text((x, y), s, font=ic.font(size, True), anchor="mm", fill=ic.INK,
                             stroke_width=2, stroke_fill=ic.WHITE)


def _star(img: Image.Image, x: float, y: float, size: int) -> None:
    ImageDraw.Draw(img).text((x, y), "★", font=ic.font(size, True), anchor="mm", fill=ic.WHITE,
                             stroke_width=2, stroke_fill=ic.BLACK)


@lru_cache(maxsize=8)
def _marks(players: int) -> tuple[Image.Image, ...]:
    """Region names and start stars of a map as masks (halo, ink) for the names and
    (halo, ink) for the stars: the same in every climate, so drawn once per map."""
    lay = island_layout(players)
    b = board_for(players)
    x0, y0, x1, y1 = ISLAND_BOX
    masks = [Image.new("L", (x1 - x0, y1 - y0), 0) for _ in range(4)]
    draws = [ImageDraw.Draw(m) for m in masks]
    label = ic.font(max(11, round(0.36 * lay.radius)), True)
    star = ic.font(max(12, round(0.46 * lay.radius)), True)
    for i, (cx, cy) in enumerate(lay.centres):
        cx, cy = cx - x0, cy - y0
        at = (cx, cy - 0.62 * lay.radius)
        draws[0].text(at, b.names[i], font=label, anchor="mm", fill=255, stroke_width=2,
                      stroke_fill=255)
        draws[1].text(at, b.names[i], font=label, anchor="mm", fill=255)
        if i in b.starts:
            at = (cx, cy + 0.72 * lay.radius)
            draws[2].text(at, "★", font=star, anchor="mm", fill=255, stroke_width=2,
                          stroke_fill=255)
            draws[3].text(at, "★", font=star, anchor="mm", fill=255)
    return tuple(masks)


@lru_cache(maxsize=18)            # 3 maps x 6 climates, ~1.3 MB each
def island_image(players: int, zones: tuple[str, ...]) -> Image.Image:
    """The island with no dinos: sea, terrain, zone look, names, start stars (cached).

    Drawn 2x larger and halved so hex edges are smooth; names and stars are drawn at the
    final size so they stay sharp. Keyed by map and climate: at most six per map.
    """
    lay = island_layout(players)
    b = board_for(players)
    x0, y0, x1, y1 = ISLAND_BOX
    s = 2
    big = Image.new("RGB", ((x1 - x0) * s, (y1 - y0) * s), SEA)
    d = ImageDraw.Draw(big)
    r = lay.radius * s
    pts = [((cx - x0) * s, (cy - y0) * s) for cx, cy in lay.centres]
    for px, py in pts:                      # shallow water along the coast
        d.polygon(_hexagon(px, py, r * 1.22), fill=SHALLOW)
    hexes = [(px, py, r, TERRAINS[b.terrain[i]], zones[b.terrain[i]])
             for i, (px, py) in enumerate(pts)]
    _paint_hexes(big, hexes, s)
    img = big.reduce(s)
    name_halo, name_ink, star_halo, star_ink = _marks(players)
    img.paste(ic.WHITE, (0, 0), name_halo)
    img.paste(ic.INK, (0, 0), name_ink)
    img.paste(ic.BLACK, (0, 0), star_halo)
    img.paste(ic.WHITE, (0, 0), star_ink)
    return img


@lru_cache(maxsize=64)
def zone_swatch(terrain: str, zone: str, size: int, bg: tuple = ic.BG) -> Image.Image:
    """One hex of ``terrain`` in ``zone`` exactly as the island paints it (the legend)."""
    s = 2
    big = Image.new("RGB", (size * s, size * s), bg)
    _paint_hexes(big, [(size * s / 2, size * s / 2, size * s / 2 - 2, terrain, zone)], s)
    sw = big.reduce(s)
    glyph = ZONE_GLYPH[zone]
    if glyph:
        ImageDraw.Draw(sw).text((size / 2, size / 2), glyph, font=ic.font(round(size * 0.5), True),
                                anchor="mm", fill=ic.WHITE, stroke_width=2, stroke_fill=ic.BLACK)
    return sw


# --- sprites: dino discs, gene icons -----------------------------------------------------------

@lru_cache(maxsize=64)
def disc_sprite(player: int, radius: int, newborn: bool = False) -> Image.Image:
    """A dino of ``player``: a disc in the player's colour with the seat number (RGBA).

    A newborn of this turn wears a thick yellow ring (about the same outer size, so it
    never hides the region's name).
    """
    size = 2 * (radius + 5)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * SS / 2

    def disc(r: float, colour) -> None:
        d.ellipse((c - r, c - r, c + r, c + r), fill=colour + (255,))

    R = radius * SS
    if newborn:
        disc(R + 3.5 * SS, ic.BLACK)
        disc(R + 2.5 * SS, NEWBORN_RING)
        disc(R - 1.5 * SS, ic.BLACK)
        inner = R - 2.5 * SS
    else:
        disc(R + 1.5 * SS, ic.WHITE)
        disc(R, ic.BLACK)
        inner = R - 2 * SS
    disc(inner, player_rgb(player))
    num = ic.font(max(8, round(inner / SS * 1.25)) * SS, True)
    d.text((c, c + 0.5 * SS), str(player + 1), font=num, anchor="mm",
           fill=PLAYER_INK[player % len(PLAYER_INK)] + (255,))
    return big.resize((size, size), Image.LANCZOS)


@lru_cache(maxsize=64)
def gene_icon(kind: str, size: int) -> Image.Image:
    """A small picture of a gene (RGBA, ``size`` pixels square), drawn on a 24-unit grid."""
    S = size * SS
    im = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    u = S / 24.0
    ink = ICON_INK + (255,)
    fill = GENE_RGB.get(kind, MUTED) + (255,)
    lw = max(1, round(1.4 * u))

    def P(*xy):
        return [(x * u, y * u) for x, y in xy]

    if kind == "tail":
        d.polygon(P((1, 13), (1, 22), (9, 21), (15, 18), (20, 12), (23, 2), (17, 9),
                    (11, 13), (5, 14)), fill=fill, outline=ink, width=lw)
    elif kind == "fur":
        for k in range(4):
            x = 4 + k * 5.3
            d.line(P(*[(x + 1.6 * math.sin(j / 3.0), 2 + 20 * j / 18) for j in range(19)]),
                   fill=fill, width=round(2.8 * u), joint="curve")
    elif kind == "legs":
        for x in (3, 13):
            d.polygon(P((x, 2), (x + 5, 2), (x + 5, 17), (x + 9, 18), (x + 9, 22),
                        (x, 22)), fill=fill, outline=ink, width=lw)
    elif kind == "parasol":
        d.pieslice(P((1, 2), (23, 24)), 180, 360, fill=fill, outline=ink, width=lw)
        d.line(P((12, 12), (12, 20)), fill=ink, width=round(2 * u))
        d.arc(P((12, 17), (18, 23)), 0, 180, fill=ink, width=round(2 * u))
    elif kind == "horns":
        # A curved horn: wide base, tip up and to the right.
        outer = [(3 + 17 * q ** 1.6, 22 - 20 * q) for q in (i / 10 for i in range(11))]
        inner = [(16 + 4 * q ** 0.7, 22 - 20 * q ** 1.1) for q in (i / 10 for i in range(10, -1, -1))]
        d.polygon(P(*outer, *inner), fill=fill, outline=ink, width=lw)
    elif kind == "mutant":
        # A double helix, standing.
        a = [(12 + 7 * math.sin(k / 24 * 2.5 * math.pi), 1 + 22 * k / 24) for k in range(25)]
        bb = [(24 - x, y) for x, y in a]
        for k in range(2, 24, 3):
            d.line(P(a[k], bb[k]), fill=ink, width=round(1.3 * u))
        d.line(P(*a), fill=fill, width=round(2.8 * u), joint="curve")
        d.line(P(*bb), fill=ICON_INK + (255,), width=round(2.8 * u), joint="curve")
    elif kind == "egg":
        d.ellipse(P((5, 1), (19, 23)), fill=fill, outline=ink, width=lw)
        for x, y in ((10, 8), (14, 13), (9, 16)):
            d.ellipse(P((x - 1.4, y - 1.4), (x + 1.4, y + 1.4)), fill=EGG_SPOT + (255,))
    else:  # "card" (a gene tile that draws an event card), or anything new
        d.rounded_rectangle(P((4, 1), (20, 23)), radius=3 * u, fill=fill, outline=ink,
                            width=lw)
        d.text((12 * u, 12.5 * u), "?", font=ic.font(round(15 * u), True), anchor="mm",
               fill=ic.WHITE + (255,))
    return im.resize((size, size), Image.LANCZOS)


# Pips of each die face on a 3 x 3 grid (column, row).
PIPS = {1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
        4: ((0, 0), (2, 0), (0, 2), (2, 2)), 5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
        6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2))}


@lru_cache(maxsize=32)
def die_face(face: int, size: int) -> Image.Image:
    """One face of the die (RGBA, ``size`` pixels square): white, dark edge, red pips."""
    S = size * SS
    big = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    edge = max(SS, S // 14)
    d.rounded_rectangle((0, 0, S - 1, S - 1), radius=S // 5, fill=HEX_LINE + (255,))
    d.rounded_rectangle((edge, edge, S - 1 - edge, S - 1 - edge), radius=S // 6,
                        fill=ic.WHITE + (255,))
    r = S * 0.085
    for col, row in PIPS.get(face, ()):
        x, y = S * (0.25 + 0.25 * col), S * (0.25 + 0.25 * row)
        d.ellipse((x - r, y - r, x + r, y + r), fill=FACE_INK + (255,))
    return big.resize((size, size), Image.LANCZOS)


def _meteor_dice(img: Image.Image, cx: float, top: float, faces: tuple[int, ...],
                 room: float) -> None:
    """The die faces printed on a meteorite square, under it (``room`` wide, down to the
    bottom of the picture): up to three a row."""
    gap = 3
    cols = min(len(faces), 3)
    rows = -(-len(faces) // cols)
    size = int(min(16, (room - gap * (cols - 1)) / cols,
                   (HEIGHT - top - 2 - gap * (rows - 1)) / rows))
    for k, f in enumerate(faces):
        row, col = divmod(k, cols)
        in_row = min(cols, len(faces) - row * cols)
        x = cx + (col - (in_row - 1) / 2) * (size + gap)
        ic.paste(img, die_face(f, size), x, top + row * (size + gap) + size / 2)


# --- the background: all that stays put during a climate ------------------------------------------

def _meteor_step(last: int) -> float:
    return min(52.0, (ISLAND_BOX[2] - METEOR_X - METEOR_SQ) / max(1, last))


def _meteor_square(i: int, last: int) -> tuple[float, float]:
    """Centre of meteorite square ``i``."""
    return METEOR_X + METEOR_SQ / 2 + i * _meteor_step(last), METEOR_Y + 4 + METEOR_SQ / 2


def _climate_square(i: int) -> tuple[float, float]:
    return CLIMATE_X + CLIMATE_SQ / 2 + i * CLIMATE_STEP, CLIMATE_Y + 2 + CLIMATE_SQ / 2


def _card_y(k: int) -> int:
    return PLAYERS_Y + k * (CARD_H + CARD_GAP)


@lru_cache(maxsize=8)             # ~3.3 MB each; rebuilt from the island in ~10 ms
def background(players: int, zones: tuple[str, ...], track: tuple[str, ...], last: int,
               faces: tuple[tuple[int, tuple[int, ...]], ...], lang: str) -> Image.Image:
    """Everything that stays put while the climate does (cached): the island, titles, the
    track squares, the zone legend, the empty player cards with their gene icons."""
    img = Image.new("RGB", (WIDTH, HEIGHT), ic.BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, CAPTION_H - 1), fill=ic.CAPTION_BG)
    x0, y0, x1, y1 = ISLAND_BOX
    img.paste(island_image(players, zones), (x0, y0))
    d.rectangle((x0 - 1, y0 - 1, x1, y1), outline=HEX_LINE, width=1)

    # Climate track: six squares in a loop.
    size, word = ic.fit_size(t("render.climate", lang), CLIMATE_X - 24, 24, True, 14)
    ic.text(img, 16, CLIMATE_Y + 24, word, size, True)
    for i, terrain in enumerate(track):
        cx, cy = _climate_square(i)
        h = CLIMATE_SQ / 2
        d.rectangle((cx - h, cy - h, cx + h, cy + h), fill=TERRAIN_RGB.get(terrain, MUTED),
                    outline=HEX_LINE, width=2)
    lx, ly = _climate_square(len(track) - 1)
    end = lx + CLIMATE_SQ / 2 + 8
    ic.text(img, end, ly, "↻", 34, True)

    # Legend of the island symbols, right of the track.
    lx = max(end + 50, 540)
    room = ISLAND_BOX[2] - lx - 30
    _star(img, lx + 10, CLIMATE_Y + 13, 24)
    size, word = ic.fit_size(t("render.start", lang), room, 19, False, 12)
    ic.text(img, lx + 30, CLIMATE_Y + 13, word, size)
    ic.paste(img, disc_sprite(0, 9, True), lx + 10, CLIMATE_Y + 40)
    size, word = ic.fit_size(t("render.newborn", lang), room, 19, False, 12)
    ic.text(img, lx + 30, CLIMATE_Y + 40, word, size)

    # Zone of every terrain now: the legend of the island's patterns.
    chip_w = (ISLAND_BOX[2] - 16) / len(TERRAINS)
    sw = 52
    for k, terrain in enumerate(TERRAINS):
        zone = zones[k]
        x = 16 + k * chip_w
        img.paste(zone_swatch(terrain, zone, sw), (round(x), ZONES_Y + 4))
        tx = x + sw + 6
        room = chip_w - sw - 12
        size, word = ic.fit_size(t(f"evo.terrain.{terrain}", lang), room, 21, True, 13)
        ic.text(img, tx, ZONES_Y + 19, word, size, True)
        size, word = ic.fit_size(t(f"evo.zone.{zone}", lang), room, 21, False, 13)
        ic.text(img, tx, ZONES_Y + 42, word, size, False, ZONE_INK[zone])

    # Meteorite track: squares 0..last, the die faces that end the game under them (each
    # rolled square shows all of its faces, as the printed track does).
    size, word = ic.fit_size(t("render.meteorite", lang), METEOR_X - 24, 24, True, 14)
    ic.text(img, 16, METEOR_Y + 24, word, size, True)
    face_of = dict(faces)
    for i in range(last + 1):
        cx, cy = _meteor_square(i, last)
        h = METEOR_SQ / 2
        fill, ink = ic.WHITE, ic.INK
        if i == last:
            fill, ink = END_FILL, ic.WHITE
        elif i in face_of:
            fill = FACE_FILL
        d.rectangle((cx - h, cy - h, cx + h, cy + h), fill=fill, outline=HEX_LINE, width=2)
        ic.text(img, cx, cy, str(i), 18, True, ink, "mm")
        if i in face_of:
            _meteor_dice(img, cx, cy + h + 3, face_of[i], _meteor_step(last) - 4)

    # Right column: title, gene column names, the empty player cards with gene icons.
    size, word = ic.fit_size(t("render.initiative", lang), PANEL_W, 28, True, 16)
    ic.text(img, PANEL_X, 78, word, size, True)
    for k, gene in enumerate(GENE_KINDS):
        cx = GENE_COL_X + k * GENE_COL_W + GENE_COL_W / 2
        size, word = ic.fit_size(t(f"evo.gene.{gene}", lang), GENE_COL_W - 4, 14, False, 10)
        ic.text(img, cx, 106, word, size, False, MUTED, "mm")
    for k in range(players):
        y = _card_y(k)
        d.rounded_rectangle((PANEL_X, y, PANEL_X + PANEL_W, y + CARD_H), radius=10,
                            fill=ic.CARD_BG, outline=ic.CARD_LINE, width=2)
        for g, gene in enumerate(GENE_KINDS):
            ic.paste(img, gene_icon(gene, 26), GENE_COL_X + g * GENE_COL_W + 18, y + 84)
    return img


# --- what changes: caption, dinos, markers, numbers --------------------------------------------------

def _caption(img: Image.Image, view: dict, lang: str) -> None:
    phase = t(f"evo.phase.{view['phase']}", lang)
    left = t("render.caption", lang, turn=view["turn"], phase=phase)
    result = view["state"].get("result")
    if view["over"] and result:
        right = t("render.winner", lang, player=ic.player_names(view, ic.winners(result)))
    elif view["awaiting"]:
        right = t("render.awaiting", lang, players=ic.player_names(view, view["awaiting"]))
    else:
        right = None
    ic.caption_band(img, left, right, WIDTH, CAPTION_H, (700, 32, 22), (26, 16))


def _dinos(img: Image.Image, view: dict) -> None:
    lay = island_layout(len(view["players"]))
    radius = lay.disc_radius()
    newborn = set(view["state"].get("newborn") or ())
    for r, region in enumerate(view["regions"][: len(lay.centres)]):
        owner = region["owner"]
        if owner is None or owner < 0:
            continue
        ic.paste(img, disc_sprite(owner, radius, r in newborn), *lay.disc_centre(r))


def _markers(img: Image.Image, view: dict) -> None:
    d = ImageDraw.Draw(img)
    climate = view["climate"]
    cx, cy = _climate_square(climate["square"])
    h = CLIMATE_SQ / 2 + 4
    d.rectangle((cx - h, cy - h, cx + h, cy + h), outline=ic.BLACK, width=5)
    d.rectangle((cx - h + 5, cy - h + 5, cx + h - 5, cy + h - 5), outline=ic.WHITE, width=2)
    meteor = view["meteor"]
    mx, my = _meteor_square(meteor["square"], meteor["last"])
    h = METEOR_SQ / 2 + 4
    d.ellipse((mx - h, my - h, mx + h, my + h), outline=ic.BLACK, width=4)
    d.ellipse((mx - h + 4, my - h + 4, mx + h - 4, my + h - 4), outline=METEOR_RED, width=4)


def _players(img: Image.Image, view: dict, lang: str) -> None:
    awaiting = set(view["awaiting"])
    n = len(view["players"])
    order = [p for p in view["order"] if 0 <= p < n]
    order += [p for p in range(n) if p not in order]
    mp_word = t("render.mp", lang)
    d = None
    for k, p in enumerate(order):
        pl = view["players"][p]
        y = _card_y(k)
        x0, x1 = PANEL_X, PANEL_X + PANEL_W
        wait = p in awaiting
        if wait:
            d = d or ImageDraw.Draw(img)
            d.rounded_rectangle((x0, y, x1, y + CARD_H), radius=10, outline=ic.AWAIT, width=5)
        ic.paste(img, disc_sprite(p, 17), x0 + 32, y + 27)
        mp_text = f"{pl['mp']} {mp_word}"
        ic.text(img, x1 - 14, y + 27, mp_text, 28, True, ic.INK, "rm")
        room = x1 - 14 - ic.text_width(mp_text, 28, True) - 16 - (x0 + 58) - (26 if wait else 0)
        name = ic.fit_to(pl["name"], 26, True, room)
        ic.text(img, x0 + 58, y + 27, name, 26, True)
        if wait:
            d = d or ImageDraw.Draw(img)
            nx = x0 + 58 + ic.text_width(name, 26, True) + 8
            d.polygon([(nx, y + 17), (nx, y + 37), (nx + 16, y + 27)], fill=ic.AWAIT)
        line = t("render.stock", lang, dinos=pl["dinos"], reserve=pl["reserve"],
                 cards=pl["cards"])
        size, line = ic.fit_size(line, x1 - x0 - 72, 20, False, 14)
        ic.text(img, x0 + 58, y + 56, line, size, False, MUTED)
        for g, gene in enumerate(GENE_KINDS):
            ic.text(img, GENE_COL_X + g * GENE_COL_W + 34, y + 85, str(pl["genes"].get(gene, 0)),
                    22, True)


def _box_title(img: Image.Image, s: str) -> None:
    size, s = ic.fit_size(s, PANEL_W, 24, True, 14)
    ic.text(img, PANEL_X, BOX_Y + 16, s, size, True)


@lru_cache(maxsize=64)
def _auction_tile(gene: str, w: int, lang: str) -> Image.Image:
    tile = Image.new("RGB", (w, 152), ic.BG)
    d = ImageDraw.Draw(tile)
    d.rounded_rectangle((0, 0, w - 1, 151), radius=10, fill=ic.CARD_BG, outline=ic.CARD_LINE,
                        width=2)
    ic.paste(tile, gene_icon(gene, 44), w / 2, 32)
    size, word = ic.fit_size(t(f"evo.gene.{gene}", lang), w - 8, 18, True, 11)
    ic.text(tile, w / 2, 70, word, size, True, ic.INK, "mm")
    return tile


def _auction(img: Image.Image, view: dict, lang: str) -> None:
    a = view["state"]["auction"]
    _box_title(img, t("render.auction", lang))
    genes = a.get("genes") or []
    bids = a.get("bids") or []
    if not genes:
        return
    gap = 8
    w = int((PANEL_W - gap * (len(genes) - 1)) / len(genes))
    top = BOX_Y + 36
    for k, gene in enumerate(genes):
        x = PANEL_X + k * (w + gap)
        img.paste(_auction_tile(gene, w, lang), (x, top))
        cx = x + w / 2
        held = bids[k] if k < len(bids) else None
        if held is None:
            size, word = ic.fit_size(t("render.no_bid", lang), w - 8, 18, False, 11)
            ic.text(img, cx, top + 118, word, size, False, MUTED, "mm")
        else:
            p, amount = held
            s = str(amount)
            left = cx - (34 + 6 + ic.text_width(s, 26, True)) / 2
            ic.paste(img, disc_sprite(p, 15), left + 17, top + 118)
            ic.text(img, left + 40, top + 119, s, 26, True)


def _ranking(img: Image.Image, view: dict, lang: str) -> None:
    _box_title(img, t("render.ranking", lang))
    rows = view["state"]["result"]
    step = min(34, 150 / max(1, len(rows)))
    mp = t("render.mp", lang)
    dinos_word = t("render.dinos", lang)
    for k, row in enumerate(rows):
        y = BOX_Y + 52 + k * step
        p = row["player"]
        ic.text(img, PANEL_X + 4, y, f"{row['rank']}.", 22, True)
        ic.paste(img, disc_sprite(p, 13), PANEL_X + 52, y)
        score = t("render.score_line", lang, score=row["score"], mp=mp, dinos=row["dinos"],
                  dinos_word=dinos_word)
        ic.text(img, PANEL_X + PANEL_W - 4, y, score, 20, False, MUTED, "rm")
        room = PANEL_W - 4 - ic.text_width(score, 20) - 16 - 74
        name = ic.fit_to(view["players"][p]["name"], 22, True, room)
        ic.text(img, PANEL_X + 74, y, name, 22, True)


def _cards_played(img: Image.Image, view: dict, lang: str) -> None:
    """No auction and the game goes on: the event cards played this turn (public)."""
    played = (view["state"].get("history") or {}).get("cards") or []
    if not played:
        return
    _box_title(img, t("render.played", lang))
    for k, entry in enumerate(played[-5:]):
        y = BOX_Y + 50 + k * 30
        ic.paste(img, disc_sprite(entry["player"], 12), PANEL_X + 16, y)
        name = ic.fit_to(t(f"evo.card.{entry['card']}.name", lang), 20, True, PANEL_W - 44)
        ic.text(img, PANEL_X + 38, y, name, 20, True)


def draw_evo(view: dict, lang: str = "en") -> Image.Image:
    """The board of ``view`` (see ``engine.evo.view``): an RGB image WIDTH x HEIGHT."""
    climate = view["climate"]
    meteor = view["meteor"]
    faces = tuple(sorted((int(k), tuple(v)) for k, v in (meteor.get("faces") or {}).items()))
    img = background(len(view["players"]), zone_key(view), tuple(climate["track"]),
                     int(meteor["last"]), faces, lang).copy()
    _caption(img, view, lang)
    _dinos(img, view)
    _markers(img, view)
    _players(img, view, lang)
    state = view["state"]
    if view["over"] and state.get("result"):
        _ranking(img, view, lang)
    elif view["phase"] == "evolution" and state.get("auction"):
        _auction(img, view, lang)
    else:
        _cards_played(img, view, lang)
    return img


# --- encoding ------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """The fixed 256-colour palette of every board (a 1x1 "P" image holding it).

    First every flat colour the board uses, exactly (terrains in each zone, players, inks,
    panels...), then the in-between colours of smooth edges and text, taken by an octree
    from a sample sheet drawn with the same code (hexes of every terrain and zone with names,
    stars and dinos; discs and icons on the panels; text of every ink on every ground).
    """
    exact = [ic.BG, ic.INK, MUTED, ic.WHITE, ic.BLACK, ic.CARD_BG, ic.CARD_LINE, ic.CAPTION_BG,
             ic.CAPTION_HI, ic.AWAIT,
             SEA, SHALLOW, HEX_LINE, METEOR_RED, FACE_FILL, FACE_INK, END_FILL, NEWBORN_RING,
             ICON_INK, EGG_SPOT, *TERRAIN_RGB.values(), *ZONE_PATTERN_RGB.values(),
             *ZONE_INK.values(), *PLAYER_RGB, *GENE_RGB.values()]
    exact += [zone_fill(tr, z) for tr in TERRAINS for z in ZONES]
    exact = list(dict.fromkeys(tuple(c) for c in exact))

    sheet = Image.new("RGB", (16 * 72, 6 * 72), ic.BG)
    for i, (tr, z) in enumerate((tr, z) for tr in TERRAINS for z in ZONES):
        for row, bg in enumerate((SEA, SHALLOW, ic.BG)):
            x, y = i * 72, row * 72
            sheet.paste(zone_swatch(tr, z, 72, bg), (x, y))
            _label(sheet, x + 36, y + 14, "C10", 14)
            if row == 0:
                _star(sheet, x + 36, y + 58, 17)
            ic.paste(sheet, disc_sprite(i % len(PLAYER_RGB), 16, row == 1), x + 36, y + 38)
    for i in range(len(PLAYER_RGB)):
        for j, (r, nb) in enumerate(((17, False), (15, False), (12, False), (9, True))):
            ic.paste(sheet, disc_sprite(i, r, nb), 20 + i * 44, 3 * 72 + 20 + j * 40)
    for j, gene in enumerate(("card", *GENE_KINDS)):
        ic.paste(sheet, gene_icon(gene, 26), 260 + j * 34, 3 * 72 + 20)
        ic.paste(sheet, gene_icon(gene, 44), 260 + j * 50, 3 * 72 + 70)
    for f in range(1, 7):
        for k, size in enumerate((16, 13, 12)):
            ic.paste(sheet, die_face(f, size), 680 + f * 60 + k * 18, 3 * 72 + 60)
    grounds = ((ic.CARD_BG, (ic.INK, MUTED, ic.AWAIT)),
               (ic.BG, (ic.INK, MUTED, *ZONE_INK.values())),
               (ic.CAPTION_BG, (ic.WHITE, ic.CAPTION_HI)), (FACE_FILL, (ic.INK, FACE_INK)),
               (END_FILL, (ic.WHITE,)))
    ic.ink_swatches(sheet, grounds, 680, 16 * 72, 4 * 72, 28, 22, 100, 10, "Àg8é")
    return ic.build_palette(exact, sheet)



# encode_png(image) onto the board's palette (a 5-player board: ~6 ms and ~120 kB, against
# ~27 ms and ~410 kB for RGB at the same level) and render_evo(view, lang) -> PNG bytes
encode_png, render_evo, _ = ic.png_functions(draw_evo, board_palette)


# --- benchmark -------------------------------------------------------------------------------------------

def sample_view(players: int = 5, seed: int = 1, turn: int = 4, bids: int = 2) -> dict:
    """A public view of a random game at ``turn`` or later, during the auction, with a
    few bids on the table (random play that prefers births, so the island is not empty)."""
    from engine import Seat
    from engine.evo import EVO

    best = None
    for attempt in range(20):
        rng = random.Random(seed * 7919 + attempt)
        seats = [Seat(str(i + 1), f"Player {i + 1}") for i in range(players)]
        st = EVO.new_game(seats, seed=seed + attempt, options={"variant": False})
        while True:
            v = EVO.view(st, None)
            if v["over"]:
                break
            a = v["state"]["auction"]
            if (v["turn"] >= turn and v["phase"] == "evolution" and a
                    and sum(b is not None for b in a["bids"]) >= min(bids, len(a["genes"]))):
                dinos = sum(p["dinos"] for p in v["players"])
                if dinos >= 2 * players:
                    return v
                if best is None or dinos > best[0]:
                    best = (dinos, v)
                break
            p = EVO.to_act(st)[0]
            acts = EVO.legal_actions(st, p)
            pick = ([x for x in acts if x["type"] in ("hatch", "bid")]
                    or [x for x in acts if x["type"] != "play"] or acts)
            EVO.apply_in_place(st, p, rng.choice(pick))
    if best is None:
        raise RuntimeError("no random game reached an auction")
    return best[1]


def bench_render(seed: int = 1, runs: int = 40) -> dict:
    """Median ms of draw+encode (``render_evo``) and of ``encode_png`` alone on the same
    finished image, for a mid-game 5-player board during an auction; and their ratio."""
    view = sample_view(5, seed)
    return ic.measure(lambda: draw_evo(view), encode_png, runs)


def __getattr__(name: str):
    """The toolkit's names, read here as before it was split out (``INK``, ``text``...)."""
    return getattr(ic, name)
