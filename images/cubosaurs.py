"""The Cubosaurs table as one PNG: round and turn, turn order, the hand in play, every
collection grouped by type with its score, DNA tokens and tiles, the scoreboard.

    png = render_cubosaurs(CUBOSAURS.view(state, None), "en")

Everything on the table is public (see the spec's "Public information"): the picture draws
only what the view holds, so it is the same for every viewer.

Layout (1280 wide; the height grows with the players, 5 players = 1000)::

    +-- caption: round N of M · turn T ...................... waiting for / winner ---------+
    | ↻ clockwise  (1) Ann → (2) Bob → (3) Cyd                        deck · set aside     |
    | hand in play: its cards, drawn / passed by       | DNA: reserve, pile, tile offer    |
    |                                                   | (basic game: a note; game over:  |
    |                                                   |  the final ranking)              |
    |        T-Rex  Stego  Bronto  Ptero  Penta  Grey  Black   Eggs      Tiles   Score     |
    | (1) Ann  [cards cascaded by type, count badge] ...  [eggs] [tiles]    14            |
    | tokens      +4     +3     -1     ...    +5 (raptors)  -2     +3      total 9         |
    | ... one row per seat ...                                                            |
    | scoreboard: last round's breakdown per player, each round, DNA bonus, total, rank  |
    +-------------------------------------------------------------------------------------+

Speed: the background (caption bar, panels, empty player rows, column titles, the table's
grid and headers) is drawn once per (players, advanced, rounds, language) and kept
(``functools.lru_cache``); every card is a cached sprite, every string a cached mask
(``images.common.text``). A render copies the background and pastes sprites and strings.
``encode_png`` maps the picture onto one fixed 256-colour palette (exact for every flat
colour used here) and writes it at ``compress_level=1``.

Every word on the picture comes from the message catalogue (``messages.t``) in ``lang``.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cubosaurs import data as cdata
from images import common as ic
from messages import t

# --- sizes ---------------------------------------------------------------------------------------

WIDTH = 1280
MARGIN = 12
CAPTION_H = 52
STRIP_Y, STRIP_H = 52, 48                 # turn order, deck
BAND_Y, BAND_H = 106, 150                 # hand (left) and DNA / ranking (right)
HAND_X0, HAND_X1 = MARGIN, 692
SIDE_X0, SIDE_X1 = 704, WIDTH - MARGIN
HEAD_Y = 262                              # column titles over the player rows
ROWS_Y, ROW_H, ROW_GAP = 284, 104, 6      # player rows
ID_X1 = 206                               # identity column (disc, name, tokens)
SCORE_X0 = 1180                           # current round score column
TABLE_HEAD_H, TABLE_ROW_H = 26, 26        # the scoreboard
MAX_HEIGHT = 1000

CW, CH = 36, 54                           # a card in a collection
HCW, HCH = 66, 96                         # a card of the hand in play
CARD_TOP = 12                             # collection cards, from the row's top
SCORE_LINE = 89                           # a type's score, from the row's top

# --- colours -------------------------------------------------------------------------------------

# BG, INK, MUTED, LIGHT, WHITE, BLACK, CARD_*, CAPTION_*, AWAIT*, ZEBRA: images.common's.
PLUS = (27, 128, 56)
MINUS = (198, 40, 40)
TOKEN = (0, 137, 123)
TILE_END = (255, 224, 130)
TILE_NOW = (178, 223, 219)

TYPE_RGB = {
    "trex": (211, 64, 56),
    "stego": (67, 160, 71),
    "bronto": (41, 121, 196),
    "ptero": (142, 84, 173),
    "penta": (240, 160, 40),
    "grey": (158, 158, 158),
    "black": (48, 48, 48),
    "egg": (250, 238, 200),
}
TYPE_INK = {"trex": ic.WHITE, "stego": ic.WHITE, "bronto": ic.WHITE, "ptero": ic.WHITE,
            "penta": ic.INK, "grey": ic.INK, "black": ic.WHITE, "egg": ic.INK}
# The colour of an egg's species (the raptor egg is drawn half grey, half black).
EGG_RGB = {**{s: TYPE_RGB[s] for s in ("trex", "stego", "bronto", "ptero", "penta")},
           "raptor": TYPE_RGB["grey"]}

# Okabe-Ito based, as in EVO; every disc carries the seat number, so colour is never the
# only cue.
PLAYER_RGB = ((213, 94, 0), (0, 114, 178), (245, 245, 245), (34, 34, 34), (204, 121, 167))
PLAYER_INK = (ic.WHITE, ic.WHITE, ic.BLACK, ic.WHITE, ic.BLACK)

SPECIES_TYPES = ("trex", "stego", "bronto", "ptero", "penta")
SLOT_TYPES = (*SPECIES_TYPES, "grey", "black", "egg")
CATEGORIES = ("trex", "stego", "bronto", "ptero", "penta", "raptors", "eggs", "tiles")


def darker(c, k: float = 0.62) -> tuple[int, int, int]:
    return tuple(round(v * k) for v in c)


def player_rgb(p: int) -> tuple[int, int, int]:
    return PLAYER_RGB[p % len(PLAYER_RGB)]


# --- geometry ------------------------------------------------------------------------------------

def _slots() -> dict[str, tuple[int, int]]:
    """x and width of each collection column (and of the tiles column)."""
    out, x = {}, ID_X1 + 8
    for ty in SLOT_TYPES:
        w = 170 if ty == "egg" else 98
        out[ty] = (x, w)
        x += w
    out["tiles"] = (x, SCORE_X0 - x)
    return out


SLOTS = _slots()


def height_for(players: int) -> int:
    """The picture's height for ``players`` seats (at most ``MAX_HEIGHT``)."""
    return min(MAX_HEIGHT, _table_y(players) + TABLE_HEAD_H + players * TABLE_ROW_H + 8)


def row_y(k: int) -> int:
    """Top of seat ``k``'s row."""
    return ROWS_Y + k * (ROW_H + ROW_GAP)


def row_box(k: int) -> tuple[int, int, int, int]:
    """The box of seat ``k``'s row (x0, y0, x1, y1)."""
    y = row_y(k)
    return MARGIN, y, WIDTH - MARGIN, y + ROW_H


def _table_y(players: int) -> int:
    return row_y(players) + 2


def hand_box() -> tuple[int, int, int, int]:
    return HAND_X0, BAND_Y, HAND_X1, BAND_Y + BAND_H


def side_box() -> tuple[int, int, int, int]:
    return SIDE_X0, BAND_Y, SIDE_X1, BAND_Y + BAND_H


def table_box(players: int) -> tuple[int, int, int, int]:
    y = _table_y(players)
    return MARGIN, y, WIDTH - MARGIN, y + TABLE_HEAD_H + players * TABLE_ROW_H


# Scoreboard columns: name, the 8 categories of the last round, its total, each round,
# the DNA bonus, the total, the rank.
T_NAME = (MARGIN, 200)
T_CAT_X, T_CAT_W = 212, 72
T_SUM = (T_CAT_X + 8 * T_CAT_W, 80)
T_ROUND_X, T_ROUND_W = T_SUM[0] + T_SUM[1] + 8, 60
T_DNA_W, T_TOTAL_W = 58, 80
T_RANK_X1 = WIDTH - MARGIN


def _table_cols(rounds: int) -> dict[str, tuple[int, int]]:
    cols = {"name": T_NAME}
    for i, cat in enumerate(CATEGORIES):
        cols[cat] = (T_CAT_X + i * T_CAT_W, T_CAT_W)
    cols["sum"] = T_SUM
    x = T_ROUND_X
    for r in range(rounds):
        cols[f"r{r}"] = (x, T_ROUND_W)
        x += T_ROUND_W
    cols["dna"] = (x, T_DNA_W)
    x += T_DNA_W
    cols["total"] = (x, T_TOTAL_W)
    x += T_TOTAL_W
    cols["rank"] = (x, T_RANK_X1 - x)
    return cols


# --- cards ---------------------------------------------------------------------------------------

@lru_cache(maxsize=128)
def card_info(cid: str):
    """``engine.cubosaurs.data.card`` (type, value, dna, species, plus, minus)."""
    return cdata.card(cid)


@lru_cache(maxsize=32)
def tile_info(tid: str):
    """``engine.cubosaurs.data.tile`` (cost, timing, interactive)."""
    return cdata.tile(tid)


def _egg_oval(d: ImageDraw.ImageDraw, box, species: str, s: int) -> None:
    x0, y0, x1, y1 = box
    if species == "raptor":
        d.ellipse(box, fill=TYPE_RGB["grey"] + (255,))
        d.chord(box, 270, 90, fill=TYPE_RGB["black"] + (255,))
    else:
        d.ellipse(box, fill=EGG_RGB.get(species, ic.MUTED) + (255,))
    d.ellipse(box, outline=ic.INK + (255,), width=max(1, round(1.2 * s)))


def _dna_mark(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, s: int) -> None:
    """The DNA symbol: a white disc with a small teal double helix."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ic.WHITE + (255,), outline=TOKEN + (255,),
              width=max(1, round(0.9 * s)))
    h = r * 0.72
    w = r * 0.42
    a = [(cx + w * math.sin(k / 8 * 2 * math.pi), cy - h + 2 * h * k / 8) for k in range(9)]
    b = [(2 * cx - x, y) for x, y in a]
    d.line(a, fill=TOKEN + (255,), width=max(1, round(r * 0.28)), joint="curve")
    d.line(b, fill=TOKEN + (255,), width=max(1, round(r * 0.28)), joint="curve")


@lru_cache(maxsize=256)
def card_sprite(cid: str, active: str = "") -> Image.Image:
    """A small collection card (RGBA ``CW`` x ``CH``). All its marks sit in its left strip,
    so that they stay visible when the next card of the stack covers the rest: raptor value,
    DNA mark, egg species and +/- (``active`` = "plus" or "minus": the value that counts now,
    drawn in colour, the other one light)."""
    c = card_info(cid)
    s = ic.SS
    big = Image.new("RGBA", (CW * s, CH * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fill = TYPE_RGB.get(c.type, ic.MUTED)
    d.rounded_rectangle((0, 0, CW * s - 1, CH * s - 1), radius=5 * s, fill=fill + (255,),
                        outline=darker(fill, 0.55) + (255,), width=round(1.3 * s))
    ink = TYPE_INK.get(c.type, ic.INK) + (255,)
    if c.type in ("grey", "black"):
        d.text((3 * s, 1 * s), str(c.value), font=ic.font(16 * s, True), fill=ink, anchor="la")
        if c.dna:
            _dna_mark(d, 10 * s, 29 * s, 6.5 * s, s)
    elif c.type == "egg":
        _egg_oval(d, (3 * s, 3 * s, 19 * s, 23 * s), c.species, s)
        plus_ink = PLUS if active != "minus" else ic.LIGHT
        minus_ink = MINUS if active != "plus" else ic.LIGHT
        d.text((2 * s, 33 * s), f"+{abs(c.plus)}", font=ic.font(12 * s, True),
               fill=plus_ink + (255,), anchor="lm")
        d.text((2 * s, 46 * s), f"−{abs(c.minus)}", font=ic.font(12 * s, True),
               fill=minus_ink + (255,), anchor="lm")
    elif c.dna:
        _dna_mark(d, 10 * s, 11 * s, 6.5 * s, s)
    return big.resize((CW, CH), Image.LANCZOS)


@lru_cache(maxsize=256)
def hand_sprite(cid: str, lang: str) -> Image.Image:
    """A card of the hand in play (RGBA ``HCW`` x ``HCH``): its type's short name on a
    band, the raptor value or the egg (species, +/-) big, the DNA mark."""
    c = card_info(cid)
    s = ic.SS
    W, H = HCW * s, HCH * s
    big = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fill = TYPE_RGB.get(c.type, ic.MUTED)
    edge = darker(fill, 0.55)
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius=8 * s, fill=fill + (255,),
                        outline=edge + (255,), width=2 * s)
    d.rounded_rectangle((2 * s, 2 * s, W - 1 - 2 * s, 22 * s), radius=6 * s,
                        fill=darker(fill, 0.8) + (255,))
    ink = TYPE_INK.get(c.type, ic.INK)
    band_ink = ic.WHITE if c.type != "egg" else ic.INK
    name = t(f"cubosaurs.render.short.{'egg_card' if c.type == 'egg' else c.type}", lang)
    size, name = ic.fit_size(name, HCW - 8, 14, True, 9)
    d.text((W / 2, 12.5 * s), name, font=ic.font(size * s, True), fill=band_ink + (255,),
           anchor="mm")
    if c.type in ("grey", "black"):
        d.text((W / 2, 56 * s), str(c.value), font=ic.font(40 * s, True), fill=ink + (255,),
               anchor="mm")
    elif c.type == "egg":
        _egg_oval(d, (W / 2 - 12 * s, 27 * s, W / 2 + 12 * s, 57 * s), c.species, s)
        key = "raptors" if c.species == "raptor" else c.species
        size, sp = ic.fit_size(t(f"cubosaurs.render.short.{key}", lang), HCW - 6, 13, True, 8)
        d.text((W / 2, 67 * s), sp, font=ic.font(size * s, True), fill=ic.INK + (255,), anchor="mm")
        d.text((6 * s, 84 * s), f"+{abs(c.plus)}", font=ic.font(17 * s, True),
               fill=PLUS + (255,), anchor="lm")
        d.text((W - 6 * s, 84 * s), f"−{abs(c.minus)}", font=ic.font(17 * s, True),
               fill=MINUS + (255,), anchor="rm")
    else:
        initial = t(f"cubosaurs.render.short.{c.type}", lang)[:1]
        d.text((W / 2, 58 * s), initial, font=ic.font(44 * s, True),
               fill=darker(fill, 0.8) + (255,), anchor="mm")
    if c.dna:
        _dna_mark(d, W - 13 * s, H - 13 * s, 9 * s, s)
    return big.resize((HCW, HCH), Image.LANCZOS)


@lru_cache(maxsize=16)
def seat_disc(player: int, radius: int) -> Image.Image:
    """A seat marker: a disc in the player's colour with the seat number (RGBA)."""
    size = 2 * (radius + 3)
    big = Image.new("RGBA", (size * ic.SS, size * ic.SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * ic.SS / 2
    R = radius * ic.SS
    d.ellipse((c - R - 1.5 * ic.SS, c - R - 1.5 * ic.SS, c + R + 1.5 * ic.SS, c + R + 1.5 * ic.SS),
              fill=ic.WHITE + (255,))
    d.ellipse((c - R, c - R, c + R, c + R), fill=ic.BLACK + (255,))
    inner = R - 2 * ic.SS
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=player_rgb(player) + (255,))
    num = ic.font(max(8, round(inner / ic.SS * 1.2)) * ic.SS, True)
    d.text((c, c + 0.5 * ic.SS), str(player + 1), font=num, anchor="mm",
           fill=PLAYER_INK[player % len(PLAYER_INK)] + (255,))
    return big.resize((size, size), Image.LANCZOS)


@lru_cache(maxsize=8)
def token_icon(radius: int) -> Image.Image:
    """A DNA token: a teal disc with a white double helix (RGBA)."""
    size = 2 * (radius + 1)
    big = Image.new("RGBA", (size * ic.SS, size * ic.SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * ic.SS / 2
    R = radius * ic.SS
    d.ellipse((c - R, c - R, c + R, c + R), fill=TOKEN + (255,), outline=darker(TOKEN) + (255,),
              width=ic.SS)
    h, w = R * 0.62, R * 0.38
    a = [(c + w * math.sin(k / 10 * 2 * math.pi), c - h + 2 * h * k / 10) for k in range(11)]
    b = [(2 * c - x, y) for x, y in a]
    for k in (2, 5, 8):
        d.line((a[k], b[k]), fill=ic.WHITE + (255,), width=round(0.6 * ic.SS))
    d.line(a, fill=ic.WHITE + (255,), width=round(R * 0.16), joint="curve")
    d.line(b, fill=ic.WHITE + (255,), width=round(R * 0.16), joint="curve")
    return big.resize((size, size), Image.LANCZOS)


@lru_cache(maxsize=8)
def cost_disc(radius: int) -> Image.Image:
    """The disc a tile's cost is written on: a plain DNA token (RGBA)."""
    size = 2 * (radius + 1)
    big = Image.new("RGBA", (size * ic.SS, size * ic.SS), (0, 0, 0, 0))
    c = size * ic.SS / 2
    R = radius * ic.SS
    ImageDraw.Draw(big).ellipse((c - R, c - R, c + R, c + R), fill=TOKEN + (255,),
                                outline=darker(TOKEN) + (255,), width=ic.SS)
    return big.resize((size, size), Image.LANCZOS)


@lru_cache(maxsize=8)
def badge(n: int) -> Image.Image:
    """The count of a stack of cards: a dark disc with the number (RGBA)."""
    r = 11
    size = 2 * (r + 1)
    big = Image.new("RGBA", (size * ic.SS, size * ic.SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * ic.SS / 2
    d.ellipse((c - r * ic.SS, c - r * ic.SS, c + r * ic.SS, c + r * ic.SS), fill=ic.WHITE + (255,))
    R = (r - 1.5) * ic.SS
    d.ellipse((c - R, c - R, c + R, c + R), fill=ic.INK + (255,))
    d.text((c, c + 0.5 * ic.SS), str(n), font=ic.font(14 * ic.SS, True), fill=ic.WHITE + (255,),
           anchor="mm")
    return big.resize((size, size), Image.LANCZOS)


@lru_cache(maxsize=64)
def tile_chip(tid: str, w: int, h: int, lang: str, long: bool) -> Image.Image:
    """A DNA tile (RGB ``w`` x ``h`` on the card ground): its cost on a token, its name
    (long: the offer's full name; short: the label of a bought tile)."""
    info = tile_info(tid)
    end = info.timing == "end"
    img = Image.new("RGB", (w, h), ic.CARD_BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, fill=TILE_END if end else TILE_NOW,
                        outline=darker(TILE_END if end else TILE_NOW, 0.6), width=1)
    if long:
        r = (h - 8) // 2
        ic.paste(img, cost_disc(r), 4 + r + 1, h / 2)
        ic.text(img, 4 + r + 1, h / 2 + 1, str(info.cost), r + 5, True, ic.WHITE, "mm")
        x = 4 + 2 * r + 8
        mark = "⚔" if info.interactive else ""
        room = w - x - 6 - (ic.text_width(mark, 15, True) + 4 if mark else 0)
        size, name = ic.fit_size(t(f"cubosaurs.tile.{tid}", lang), room, 15, True, 10)
        ic.text(img, x, h / 2, name, size, True)
        if mark:
            ic.text(img, w - 6, h / 2, mark, 15, True, ic.INK, "rm")
    else:
        size, name = ic.fit_size(t(f"cubosaurs.render.tile.{tid}", lang), w - 8, 13, True, 9)
        ic.text(img, w / 2, h / 2, name, size, True, ic.INK, "mm")
    return img


# --- the background ------------------------------------------------------------------------------

def _species_tables(img: Image.Image, lang: str) -> None:
    """Basic games (no DNA panel): each species' points for 1, 2, 3, 4+ copies
    (``engine.cubosaurs.data.rules_data``), a reminder for the players."""
    x0, y0, x1, y1 = side_box()
    title = t("cubosaurs.render.scoring", lang)
    size, title = ic.fit_size(title, x1 - x0 - 28, 18, True, 12)
    ic.text(img, x0 + 14, y0 + 18, title, size, True)
    tables = cdata.rules_data()["species"]
    species = [sp for sp in SPECIES_TYPES if sp in tables]
    rows = max((len(tables[sp]) for sp in species), default=0)
    label_w = 62
    col_w = (x1 - x0 - 14 - label_w - 10) / max(1, len(species))
    top, step = y0 + 42, min(22, (y1 - 8 - (y0 + 42)) / max(1, rows + 1))
    for j, sp in enumerate(species):
        cx = x0 + 14 + label_w + j * col_w + col_w / 2
        size, word = ic.fit_size(t(f"cubosaurs.render.short.{sp}", lang), col_w - 6, 16, True, 10)
        ic.text(img, cx, top, word, size, True, darker(TYPE_RGB[sp], 0.75), "mm")
        for i, v in enumerate(tables[sp]):
            ic.text(img, cx, top + (i + 1) * step, ic.signed(v), 16, True, _score_ink(v), "mm")
    for i in range(rows):
        label = f"×{i + 1}" + ("+" if i == rows - 1 else "")
        ic.text(img, x0 + 14 + label_w / 2, top + (i + 1) * step, label, 15, False, ic.MUTED, "mm")


@lru_cache(maxsize=16)
def background(players: int, advanced: bool, rounds: int, lang: str) -> Image.Image:
    """Everything that stays put during a game (cached): the caption bar, the panels, the
    column titles, the empty player rows, the scoreboard's grid and headings."""
    h = height_for(players)
    img = Image.new("RGB", (WIDTH, h), ic.BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, CAPTION_H - 1), fill=ic.CAPTION_BG)
    ic.rounded(d, hand_box())
    ic.rounded(d, side_box())
    if not advanced:
        _species_tables(img, lang)
    # Column titles.
    for ty in SLOT_TYPES:
        x, w = SLOTS[ty]
        size, word = ic.fit_size(t(f"cubosaurs.render.short.{ty}", lang), w - 6, 16, True, 10)
        ic.text(img, x + w / 2, HEAD_Y + 11, word, size, True, darker(TYPE_RGB[ty], 0.75)
                if ty not in ("egg", "grey") else ic.MUTED, "mm")
    if advanced:
        x, w = SLOTS["tiles"]
        size, word = ic.fit_size(t("cubosaurs.render.tiles", lang), w - 6, 16, True, 10)
        ic.text(img, x + w / 2, HEAD_Y + 11, word, size, True, ic.MUTED, "mm")
    size, word = ic.fit_size(t("cubosaurs.render.now", lang), WIDTH - MARGIN - SCORE_X0, 16, True,
                             10)
    ic.text(img, (SCORE_X0 + WIDTH - MARGIN) / 2, HEAD_Y + 11, word, size, True, ic.MUTED, "mm")
    # Player rows: the card, faint column separators, the raptors' bracket.
    for k in range(players):
        x0, y0, x1, y1 = row_box(k)
        ic.rounded(d, (x0, y0, x1, y1))
        for ty in (*SLOT_TYPES[1:], "tiles"):
            x = SLOTS[ty][0]
            if ty in ("black",):
                continue
            d.line((x, y0 + 10, x, y1 - 10), fill=ic.ZEBRA, width=1)
        d.line((SCORE_X0, y0 + 10, SCORE_X0, y1 - 10), fill=ic.CARD_LINE, width=1)
    # Scoreboard: headings and zebra rows.
    x0, y0, x1, y1 = table_box(players)
    ic.rounded(d, (x0, y0, x1, y1 + 4))
    for k in range(players):
        if k % 2 == 0:
            ry = y0 + TABLE_HEAD_H + k * TABLE_ROW_H
            d.rectangle((x0 + 2, ry, x1 - 2, ry + TABLE_ROW_H - 1), fill=ic.ZEBRA)
    cols = _table_cols(rounds)
    hy = y0 + TABLE_HEAD_H / 2 + 1
    size, word = ic.fit_size(t("cubosaurs.render.scoreboard", lang), T_NAME[1] - 10, 17, True, 11)
    ic.text(img, T_NAME[0] + 10, hy, word, size, True)
    for cat in CATEGORIES:
        if cat == "tiles" and not advanced:
            continue
        x, w = cols[cat]
        key = f"cubosaurs.render.short.{cat}" if cat in (*SPECIES_TYPES, "raptors") else \
            "cubosaurs.render.short.egg" if cat == "eggs" else "cubosaurs.render.tiles"
        size, word = ic.fit_size(t(key, lang), w - 4, 14, True, 9)
        ic.text(img, x + w / 2, hy, word, size, True, ic.MUTED, "mm")
    for r in range(rounds):
        x, w = cols[f"r{r}"]
        size, word = ic.fit_size(t("cubosaurs.render.round_col", lang, round=r + 1), w - 4, 15,
                                 True, 9)
        ic.text(img, x + w / 2, hy, word, size, True, ic.MUTED, "mm")
    if advanced:
        x, w = cols["dna"]
        size, word = ic.fit_size(t("cubosaurs.render.dna_bonus", lang), w - 4, 15, True, 9)
        ic.text(img, x + w / 2, hy, word, size, True, ic.MUTED, "mm")
    x, w = cols["total"]
    size, word = ic.fit_size(t("cubosaurs.score.total", lang), w - 4, 15, True, 9)
    ic.text(img, x + w / 2, hy, word, size, True, ic.INK, "mm")
    x, w = cols["rank"]
    size, word = ic.fit_size(t("cubosaurs.render.rank", lang), w - 4, 15, True, 9)
    ic.text(img, x + w / 2, hy, word, size, True, ic.MUTED, "mm")
    sx = cols["sum"][0] - 4
    d.line((sx, y0 + 4, sx, y1 - 2), fill=ic.CARD_LINE, width=1)
    rx = cols["r0"][0] - 4 if rounds else sx
    d.line((rx, y0 + 4, rx, y1 - 2), fill=ic.CARD_LINE, width=2)
    return img


# --- what changes --------------------------------------------------------------------------------

def _number(n: int) -> str:
    """A number with a real minus sign."""
    return str(n) if n >= 0 else f"−{-n}"


def _score_ink(n: int):
    return PLUS if n > 0 else (MINUS if n < 0 else ic.MUTED)


def _caption(img: Image.Image, view: dict, lang: str) -> None:
    left = t("cubosaurs.render.caption", lang, round=view["round"], rounds=view["rounds"],
             turn=view["turn"])
    if view["over"]:
        left = t("cubosaurs.render.game_over", lang)
    elif round_scored(view):
        left = t("cubosaurs.render.round_scored", lang, round=view["round"],
                 rounds=view["rounds"])
    result = view.get("result")
    if view["over"] and result:
        right = t("cubosaurs.render.winner", lang,
                  players=ic.player_names(view, ic.winners(result)))
    elif view.get("awaiting") and not round_scored(view):
        right = t("cubosaurs.render.awaiting", lang,
                  players=ic.player_names(view, view["awaiting"]))
    else:
        right = None
    ic.caption_band(img, left, right, WIDTH, CAPTION_H, (620, 28, 18), (26, 14))


def round_scored(view: dict) -> bool:
    """The round in the view is already scored (the picture of a round's end: the
    collections still on the table, ``last_scores`` is this round's)."""
    players = view["players"]
    return (not view["over"] and bool(view.get("last_scores")) and bool(players)
            and len(players[0].get("rounds") or ()) >= view["round"])


def turn_order(view: dict) -> list[int]:
    """The seats in this round's turn order, from the round's first player."""
    n = len(view["players"])
    first = view.get("first") or 0
    step = -1 if view.get("direction", 1) < 0 else 1
    return [(first + step * k) % n for k in range(n)]


def _strip(img: Image.Image, view: dict, lang: str) -> None:
    cy = STRIP_Y + STRIP_H / 2 + 1
    # Right: deck and set-aside counts.
    deck = t("cubosaurs.render.deck", lang, count=view.get("deck", 0))
    aside = t("cubosaurs.render.aside", lang, count=view.get("aside", 0))
    x = WIDTH - 18
    ic.text(img, x, cy, aside, 17, False, ic.MUTED, "rm")
    x -= ic.text_width(aside, 17) + 22
    ic.text(img, x, cy, deck, 19, True, ic.INK, "rm")
    x -= ic.text_width(deck, 19, True) + 8
    _card_back(img, x - 12, cy)
    right_edge = x - 34
    # Left: the direction, then the seats in order.
    cw = view.get("direction", 1) >= 0
    arrow = "↻" if cw else "↺"
    ic.text(img, 18, cy, arrow, 30, True, ic.INK)
    word = t("cubosaurs.render.clockwise" if cw else "cubosaurs.render.counterclockwise", lang)
    size, word = ic.fit_size(word, 150, 17, False, 11)
    ic.text(img, 54, cy, word, size, False, ic.MUTED)
    x = 54 + ic.text_width(word, size) + 18
    order = turn_order(view)
    n = len(order)
    arrow_w = ic.text_width("→", 18, True) + 12
    each = (right_edge - x - arrow_w * (n - 1)) / max(1, n)
    current = view.get("current")
    d = None
    for k, p in enumerate(order):
        name = ic.fit_to(ic.player_name(view, p), 18, True, max(20.0, each - 40))
        w = 34 + ic.text_width(name, 18, True) + 10
        if p == current and not view["over"] and not round_scored(view):
            d = d or ImageDraw.Draw(img)
            d.rounded_rectangle((x - 4, cy - 17, x + w, cy + 17), radius=17, fill=ic.AWAIT_SOFT,
                                outline=ic.AWAIT, width=3)
        ic.paste(img, seat_disc(p, 12), x + 14, cy)
        ic.text(img, x + 32, cy, name, 18, True)
        x += w + 4
        if k < n - 1:
            ic.text(img, x + 2, cy, "→", 18, True, ic.MUTED)
            x += arrow_w


def _card_back(img: Image.Image, cx: float, cy: float) -> None:
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((cx - 10, cy - 14, cx + 10, cy + 14), radius=3, fill=ic.CAPTION_BG,
                        outline=ic.INK)
    d.rounded_rectangle((cx - 13, cy - 11, cx + 7, cy + 17), radius=3, fill=ic.CAPTION_BG,
                        outline=ic.WHITE)


def _hand(img: Image.Image, view: dict, lang: str) -> None:
    x0, y0, x1, y1 = hand_box()
    title = t("cubosaurs.render.hand", lang)
    size, title = ic.fit_size(title, 300, 20, True, 14)
    ic.text(img, x0 + 14, y0 + 20, title, size, True)
    hand = list(view.get("hand") or ())
    tx = x0 + 14 + ic.text_width(title, size, True) + 12
    if hand and not view["over"]:
        src = view.get("hand_from")
        if src is None:
            sub = t("cubosaurs.render.drawn_by", lang,
                    player=ic.player_name(view, view.get("current")))
        else:
            sub = t("cubosaurs.render.passed_by", lang, player=ic.player_name(view, src))
        size, sub = ic.fit_size(sub, x1 - 14 - tx, 18, False, 12)
        ic.text(img, tx, y0 + 20, sub, size, False, ic.MUTED)
    if not hand:
        word = t("cubosaurs.render.no_hand", lang)
        size, word = ic.fit_size(word, x1 - x0 - 40, 20, False, 12)
        ic.text(img, (x0 + x1) / 2, y0 + 40 + HCH / 2, word, size, False, ic.LIGHT, "mm")
        return
    room = x1 - x0 - 28
    step = HCW + 8 if len(hand) < 2 else min(HCW + 8, (room - HCW) / (len(hand) - 1))
    for i, cid in enumerate(hand):
        sprite = hand_sprite(cid, lang)
        img.paste(sprite, (round(x0 + 14 + i * step), y0 + 40), sprite)


def _side(img: Image.Image, view: dict, lang: str) -> None:
    x0, y0, x1, y1 = side_box()
    if view["over"] and view.get("result"):
        ic.rounded(ImageDraw.Draw(img), (x0, y0, x1, y1))
        _ranking(img, view, lang)
        return
    if not view.get("advanced"):
        return                                  # the scoring tables, in the background
    # Title line: DNA tokens, reserve, pile.
    title = t("cubosaurs.render.dna", lang)
    size, title = ic.fit_size(title, 200, 20, True, 13)
    ic.paste(img, token_icon(12), x0 + 26, y0 + 20)
    ic.text(img, x0 + 44, y0 + 20, title, size, True)
    x = x0 + 44 + ic.text_width(title, size, True) + 16
    reserve = t("cubosaurs.render.reserve", lang, count=view.get("reserve", 0))
    ic.text(img, x, y0 + 20, reserve, 18, True, TOKEN)
    x += ic.text_width(reserve, 18, True) + 14
    pile = t("cubosaurs.render.pile", lang, count=view.get("pile", 0))
    size, pile = ic.fit_size(pile, max(10, x1 - 14 - x), 16, False, 11)
    ic.text(img, x, y0 + 20, pile, size, False, ic.MUTED)
    # The offer, two columns.
    offer = list(view.get("offer") or ())
    cw, ch, gap = (x1 - x0 - 28 - 10) // 2, 28, 4
    top = y0 + 38
    for i, tid in enumerate(offer[:6]):
        cx = x0 + 14 + (i % 2) * (cw + 10)
        cy = top + (i // 2) * (ch + gap)
        img.paste(tile_chip(tid, cw, ch, lang, True), (cx, cy))
    if not offer:
        word = t("cubosaurs.render.no_offer", lang)
        size, word = ic.fit_size(word, x1 - x0 - 40, 18, False, 12)
        ic.text(img, (x0 + x1) / 2, top + 48, word, size, False, ic.LIGHT, "mm")
    # The last line: a debt to settle, or the tile bought this turn.
    debt = view.get("debt")
    line, ink = "", ic.MUTED
    if debt:
        line = t("cubosaurs.render.debt", lang, player=ic.player_name(view, debt.get("player")),
                 count=debt.get("count", 0))
        ink = MINUS
    elif view.get("bought"):
        line = t("cubosaurs.render.bought", lang)
    if line:
        size, line = ic.fit_size(line, x1 - x0 - 28, 15, True, 10)
        ic.text(img, x1 - 14, y1 - 5, line, size, True, ink, "rb")


def _ranking(img: Image.Image, view: dict, lang: str) -> None:
    x0, y0, x1, y1 = side_box()
    title = t("cubosaurs.render.ranking", lang)
    size, title = ic.fit_size(title, x1 - x0 - 28, 20, True, 13)
    ic.text(img, x0 + 14, y0 + 20, title, size, True)
    rows = view["result"]
    step = min(24, (BAND_H - 46) / max(1, len(rows)))
    for k, row in enumerate(rows):
        y = y0 + 48 + k * step
        p = row["player"]
        first = row["rank"] == 1
        ic.text(img, x0 + 20, y, f"{row['rank']}.", 18, True, ic.AWAIT if first else ic.INK)
        ic.paste(img, seat_disc(p, 10), x0 + 58, y)
        score = t("cubosaurs.render.rank_score", lang, score=_number(row["score"]))
        last = t("cubosaurs.render.rank_last", lang, last=_number(row.get("last", 0)))
        ic.text(img, x1 - 14, y, last, 15, False, ic.MUTED, "rm")
        rx = x1 - 14 - ic.text_width(last, 15) - 16
        ic.text(img, rx, y, score, 18, True, ic.INK, "rm")
        room = rx - ic.text_width(score, 18, True) - 16 - (x0 + 76)
        name = ic.fit_to(ic.player_name(view, p), 18, True, max(20.0, room))
        ic.text(img, x0 + 76, y, name, 18, True)


def egg_states(view: dict) -> dict[str, bool]:
    """For each egg card in a collection: does its owner hold the majority of its species
    now (count >= every opponent's, and at least one card; the raptor egg counts grey and
    black)? That tells which of its two values counts."""
    counts = []
    for pl in view["players"]:
        c: dict[str, int] = {}
        for cid in pl["collection"]:
            info = card_info(cid)
            key = "raptor" if info.type in ("grey", "black") else info.type
            c[key] = c.get(key, 0) + 1
        counts.append(c)
    out = {}
    for p, pl in enumerate(view["players"]):
        for cid in pl["collection"]:
            info = card_info(cid)
            if info.type != "egg":
                continue
            mine = counts[p].get(info.species, 0)
            out[cid] = mine >= 1 and all(mine >= other.get(info.species, 0)
                                         for q, other in enumerate(counts) if q != p)
    return out


@lru_cache(maxsize=256)
def stack_positions(ty: str, n: int) -> tuple[int, ...]:
    """The left edges of ``n`` cards of type ``ty`` cascaded in their column: a wide step
    while they fit, squeezed so that the stack never leaves its column."""
    x, w = SLOTS[ty]
    pref = 28 if ty == "egg" else 18
    step = pref if n < 2 else min(pref, (w - 12 - CW) / (n - 1))
    return tuple(round(x + 6 + i * step) for i in range(n))


def _collection(img: Image.Image, k: int, pl: dict, eggs: dict[str, bool]) -> None:
    """Seat ``k``'s cards, grouped by type in their columns, each group a cascade."""
    x0, y0, _, _ = row_box(k)
    groups: dict[str, list[str]] = {}
    for cid in pl["collection"]:
        groups.setdefault(card_info(cid).type, []).append(cid)
    top = y0 + CARD_TOP
    for ty, cids in groups.items():
        if ty not in SLOTS:
            continue
        xs = stack_positions(ty, len(cids))
        for x, cid in zip(xs, cids, strict=True):
            active = ""
            if ty == "egg":
                active = "plus" if eggs.get(cid) else "minus"
            sprite = card_sprite(cid, active)
            img.paste(sprite, (x, top), sprite)
        if len(cids) > 1:
            ic.paste(img, badge(len(cids)), xs[-1] + CW - 2, top + 2)


def _row(img: Image.Image, view: dict, k: int, lang: str, eggs: dict[str, bool],
         awaiting: set) -> None:
    pl = view["players"][k]
    x0, y0, x1, y1 = row_box(k)
    if k in awaiting:
        ic.awaited_frame(img, (x0, y0, x1, y1))
    ic.paste(img, seat_disc(k, 15), x0 + 24, y0 + 26)
    size, name = ic.fit_size(pl["name"], ID_X1 - (x0 + 46) - 4, 20, True, 14)
    ic.text(img, x0 + 46, y0 + 26, name, size, True)
    if view.get("advanced"):
        ic.paste(img, token_icon(12), x0 + 24, y0 + 78)
        ic.text(img, x0 + 42, y0 + 78, f"× {pl.get('tokens', 0)}", 20, True, TOKEN)
    _collection(img, k, pl, eggs)
    score = pl.get("score") or {}
    y = y0 + SCORE_LINE
    for ty in SPECIES_TYPES:
        x, w = SLOTS[ty]
        if ty in score and any(card_info(c).type == ty for c in pl["collection"]):
            ic.text(img, x + w / 2, y, ic.signed(score[ty]), 20, True, _score_ink(score[ty]), "mm")
    gx = SLOTS["grey"][0]
    bx, bw = SLOTS["black"]
    if score.get("raptors") or any(card_info(c).type in ("grey", "black")
                                   for c in pl["collection"]):
        # A bracket over both raptor columns: they score together.
        by = y0 + CARD_TOP + CH + 8
        d = ImageDraw.Draw(img)
        d.line((gx + 10, by, bx + bw - 10, by), fill=ic.LIGHT, width=2)
        d.line((gx + 10, by - 5, gx + 10, by), fill=ic.LIGHT, width=2)
        d.line((bx + bw - 10, by - 5, bx + bw - 10, by), fill=ic.LIGHT, width=2)
        v = score.get("raptors", 0)
        ic.text(img, (gx + bx + bw) / 2, y, ic.signed(v), 20, True, _score_ink(v), "mm")
    ex, ew = SLOTS["egg"]
    if score.get("eggs") or any(card_info(c).type == "egg" for c in pl["collection"]):
        v = score.get("eggs", 0)
        ic.text(img, ex + ew / 2, y, ic.signed(v), 20, True, _score_ink(v), "mm")
    tiles = list(pl.get("tiles") or ())
    if view.get("advanced"):
        tx, tw = SLOTS["tiles"]
        shown = tiles[:3] if len(tiles) <= 3 else tiles[:2]
        for i, tid in enumerate(shown):
            img.paste(tile_chip(tid, tw - 12, 20, lang, False), (tx + 6, y0 + CARD_TOP + i * 23))
        if len(tiles) > len(shown):
            ic.text(img, tx + tw / 2, y0 + CARD_TOP + 2 * 23 + 10, f"+{len(tiles) - 2}", 15, True,
                    ic.MUTED, "mm")
        if score.get("tiles") or any(tile_info(x).timing == "end" for x in tiles):
            v = score.get("tiles", 0)
            ic.text(img, tx + tw / 2, y, ic.signed(v), 20, True, _score_ink(v), "mm")
    cx = (SCORE_X0 + x1) / 2
    total_now = score.get("total", 0)
    ic.text(img, cx, y0 + 40, ic.signed(total_now) if total_now else "0", 32, True,
            _score_ink(total_now), "mm")
    line = t("cubosaurs.render.total_line", lang, total=_number(pl.get("total", 0)))
    size, line = ic.fit_size(line, x1 - SCORE_X0 - 8, 15, False, 10)
    ic.text(img, cx, y0 + SCORE_LINE, line, size, False, ic.MUTED, "mm")


def _scoreboard(img: Image.Image, view: dict, lang: str) -> None:
    n = len(view["players"])
    rounds = int(view.get("rounds") or 0)
    cols = _table_cols(rounds)
    x0, y0, x1, y1 = table_box(n)
    last = view.get("last_scores")
    done = [len(pl.get("rounds") or ()) for pl in view["players"]]
    # The breakdown's heading: which round it is.
    ranks = {row["player"]: row["rank"] for row in (view.get("result") or ())}
    for p, pl in enumerate(view["players"]):
        cy = y0 + TABLE_HEAD_H + p * TABLE_ROW_H + TABLE_ROW_H / 2
        ic.paste(img, seat_disc(p, 9), T_NAME[0] + 18, cy)
        ic.text(img, T_NAME[0] + 34, cy, ic.fit_to(pl["name"], 17, True, T_NAME[1] - 40), 17, True)
        if last and p < len(last) and last[p]:
            bd = last[p]
            for cat in CATEGORIES:
                if cat == "tiles" and not view.get("advanced"):
                    continue
                x, w = cols[cat]
                v = bd.get(cat, 0)
                ic.text(img, x + w / 2, cy, ic.signed(v) if v else "·", 17, bool(v),
                        _score_ink(v), "mm")
            x, w = cols["sum"]
            v = bd.get("total", 0)
            ic.text(img, x + w / 2, cy, ic.signed(v) if v else "0", 18, True, ic.INK, "mm")
        for r, v in enumerate((pl.get("rounds") or ())[:rounds]):
            x, w = cols[f"r{r}"]
            ic.text(img, x + w / 2, cy, _number(v), 17, False, ic.INK, "mm")
        if view.get("advanced"):
            bonus = pl.get("bonus", pl.get("total", 0) - sum(pl.get("rounds") or ()))
            x, w = cols["dna"]
            if bonus:
                ic.text(img, x + w / 2, cy, ic.signed(bonus), 17, False, TOKEN, "mm")
        x, w = cols["total"]
        v = pl.get("total", 0)
        ic.text(img, x + w / 2, cy, _number(v), 19, True, ic.INK, "mm")
        if p in ranks:
            x, w = cols["rank"]
            rk = ranks[p]
            ic.text(img, x + w / 2, cy, f"{rk}.", 18, True, ic.AWAIT if rk == 1 else ic.INK, "mm")
    # Heading of the breakdown block.
    hy = y0 + TABLE_HEAD_H / 2 + 1
    x, w = cols["sum"]
    r_last = max(done) if any(done) else 0
    word = t("cubosaurs.render.breakdown", lang, round=r_last) if last and r_last else \
        t("cubosaurs.render.round_sum", lang)
    size, word = ic.fit_size(word, w - 4, 14, True, 9)
    ic.text(img, x + w / 2, hy, word, size, True, ic.INK, "mm")
    if not last:
        word = t("cubosaurs.render.no_breakdown", lang)
        cx0 = T_CAT_X
        cx1 = cols["sum"][0] + cols["sum"][1]
        size, word = ic.fit_size(word, cx1 - cx0 - 20, 17, False, 11)
        ic.text(img, (cx0 + cx1) / 2, y0 + TABLE_HEAD_H + n * TABLE_ROW_H / 2, word, size, False,
                ic.LIGHT, "mm")


def draw_cubosaurs(view: dict, lang: str = "en") -> Image.Image:
    """The table of ``view`` (see the spec's View): an RGB image ``WIDTH`` x ``height_for``."""
    n = len(view["players"])
    advanced = bool(view.get("advanced"))
    img = background(n, advanced, int(view.get("rounds") or 0), lang).copy()
    _caption(img, view, lang)
    _strip(img, view, lang)
    _hand(img, view, lang)
    _side(img, view, lang)
    eggs = egg_states(view)
    awaiting = set(view.get("awaiting") or ()) if not view["over"] else set()
    for k in range(n):
        _row(img, view, k, lang, eggs, awaiting)
    _scoreboard(img, view, lang)
    return img


# --- encoding ------------------------------------------------------------------------------------

FLAT = [*ic.SHARED_FLAT, PLUS, MINUS, TOKEN, TILE_END, TILE_NOW, ic.ZEBRA, *TYPE_RGB.values(),
        *(darker(c, 0.55) for c in TYPE_RGB.values()),
        *(darker(c, 0.8) for c in TYPE_RGB.values()),
        *(darker(c, 0.75) for c in TYPE_RGB.values()),
        darker(TOKEN), darker(TILE_END, 0.6), darker(TILE_NOW, 0.6), *PLAYER_RGB]


@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """The fixed 256-colour palette of every Cubosaurs picture: its flat colours exactly,
    then the in-between colours of a sample sheet drawn with the same sprites (every card,
    small and in the hand; discs, tokens, badges; text of every ink on every ground)."""
    sheet = Image.new("RGB", (1280, 300), ic.BG)
    d = ImageDraw.Draw(sheet)
    ids = list(cdata.CARDS)
    d.rectangle((0, 0, 1280, 70), fill=ic.CARD_BG)
    for i, cid in enumerate(ids):
        for j, active in enumerate(("plus", "minus")):
            sp = card_sprite(cid, active)
            sheet.paste(sp, (4 + i * 18, 4 + j * 10), sp)
    for i, cid in enumerate(ids[:18]):
        sp = hand_sprite(cid, "en")
        sheet.paste(sp, (4 + i * 40, 80), sp)
    for i, cid in enumerate(ids[18:36]):
        sp = hand_sprite(cid, "en")
        sheet.paste(sp, (4 + i * 40, 180), sp)
    for p in range(len(PLAYER_RGB)):
        for j, r in enumerate((9, 10, 12, 15)):
            ic.paste(sheet, seat_disc(p, r), 760 + p * 40, 100 + j * 36)
    for j, r in enumerate((11, 12, 13)):
        ic.paste(sheet, token_icon(r), 980, 100 + j * 34)
    for n in range(2, 8):
        ic.paste(sheet, badge(n), 1020 + n * 24, 100)
    grounds = ((ic.CARD_BG, (ic.INK, ic.MUTED, ic.LIGHT, PLUS, MINUS, TOKEN, ic.AWAIT)),
               (ic.BG, (ic.INK, ic.MUTED)), (ic.ZEBRA, (ic.INK, PLUS, MINUS, TOKEN)),
               (ic.CAPTION_BG, (ic.WHITE, ic.CAPTION_HI)), (ic.AWAIT_SOFT, (ic.INK,)),
               (TILE_END, (ic.INK,)), (TILE_NOW, (ic.INK, ic.WHITE)))
    ic.ink_swatches(sheet, grounds, 1010, 1280, 130, 22, 17, 38)
    return ic.build_palette(FLAT, sheet)


# encode_png(image), render_cubosaurs(view, lang) -> PNG bytes, bench_render(view, repeats, lang)
encode_png, render_cubosaurs, bench_render = ic.png_functions(draw_cubosaurs, board_palette)


def __getattr__(name: str):
    """The toolkit's names, read here as before it was split out (``INK``, ``text``...)."""
    return getattr(ic, name)
