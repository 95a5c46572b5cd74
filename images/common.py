"""The renderer toolkit: what every game's picture shares. A game's renderer
(``images/<kind>.py`` or ``images/<kind>/``) keeps only what is its own.

* the colours every board uses (``BG``, ``INK``, ``CARD_BG``, the caption's, the awaited
  frame's...: ``SHARED_FLAT``) and eight seat colours for the games of up to 8 seats;

* ``font`` / ``text`` / ``text_width`` / ``fit_size`` / ``fit_to``: DejaVu Sans (vendored in
  ``images/fonts``, it has every accent) and a cache of rasterised strings, so that a string
  drawn before costs one paste instead of a FreeType render;
* ``paste``: an RGBA sprite centred on a point;
* ``build_palette`` / ``encode_with_palette``: a fixed 256-colour palette (every flat colour
  of a board exactly, plus the in-between colours of its smooth edges) and the one PNG
  encoding (palette, no dithering, ``compress_level=1``, no metadata: same image, same bytes);
  ``ink_swatches``: the text-of-every-ink-on-every-ground part of a palette's sample sheet;
* ``caption_band``: the dark caption bar's two lines (what is happening, who we wait for);
  ``player_name`` / ``player_names`` / ``winners``; ``ranking_strip``: final scores across
  a strip; ``rounded`` (a panel), ``awaited_frame``, ``first_chip``;
* ``disc`` / ``seat_disc``: smooth discs and numbered seat discs; ``RowLayout`` and
  ``RowCache``: a game drawn as one row of species per seat (Random Mutations, Climate);
* ``measure``: the render benchmark (draw + encode against encode alone).
"""

from __future__ import annotations

import io
import statistics
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
EXACT_GAP = 12  # minimum distance from an in-between palette colour to a flat one


# --- colours ------------------------------------------------------------------------------------

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
# The first flat colours of a palette, in this order (a game's own follow them).
SHARED_FLAT = (BG, INK, MUTED, LIGHT, WHITE, BLACK, CARD_BG, CARD_LINE, CAPTION_BG, CAPTION_HI,
               AWAIT, AWAIT_SOFT)

# Okabe-Ito: eight colours for eight seats (with the ink of the seat number on each); every
# disc carries its seat number too, so colour is never the only cue.
SEAT_RGB = ((230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178),
            (213, 94, 0), (204, 121, 167), BLACK)
SEAT_INK = (BLACK, BLACK, WHITE, BLACK, WHITE, WHITE, BLACK, WHITE)
SS = 4  # supersampling of round sprites


# --- fonts and text ------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The vendored DejaVu Sans (never Pillow's bitmap default: it has no accents)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def fit(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels long."""
    if fnt.getlength(text) <= width:
        return text
    while text and fnt.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


@lru_cache(maxsize=2048)
def fit_size(text: str, width: float, size: int, bold: bool, smallest: int) -> tuple[int, str]:
    """The largest size from ``size`` down to ``smallest`` at which ``text`` fits ``width``
    (cut with an ellipsis at ``smallest`` if it never does)."""
    for s in range(size, smallest - 1, -2):
        if font(s, bold).getlength(text) <= width:
            return s, text
    return smallest, fit(text, font(smallest, bold), width)


@lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    f = font(size, bold)
    x0, y0, x1, y1 = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=f, fill=255, anchor=anchor)
    return mask, x0, y0


def text(img: Image.Image, x: float, y: float, s: str, size: int, bold: bool = False,
         fill=INK, anchor: str = "lm") -> None:
    """Draw ``s`` at ``(x, y)`` (Pillow anchor), from a cache of rasterised strings.

    Same pixels as ``ImageDraw.text`` at a whole-pixel position, but a string seen before
    costs one paste instead of a FreeType render.
    """
    if not s:
        return
    mask, dx, dy = _text_mask(s, size, bold, anchor)
    img.paste(fill, (round(x) + dx, round(y) + dy), mask)


@lru_cache(maxsize=8192)
def text_width(s: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(s)


@lru_cache(maxsize=2048)
def fit_to(s: str, size: int, bold: bool, width: float) -> str:
    """``fit`` for a (size, bold) font, cached: names come back in every picture."""
    return fit(s, font(size, bold), width)


def paste(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste an RGBA ``sprite`` centred on ``(x, y)``."""
    w, h = sprite.size
    canvas.paste(sprite, (round(x - w / 2), round(y - h / 2)), sprite)


# --- palette and PNG -----------------------------------------------------------------------------

def build_palette(exact, sheet: Image.Image, gap: int = EXACT_GAP) -> Image.Image:
    """A fixed 256-colour palette (a 1x1 "P" image holding it): every colour of ``exact``
    first, exactly, then the in-between colours that an octree finds in ``sheet`` (a picture
    drawn with the board's own code: smooth edges, text of every ink on every ground).

    Pillow maps a pixel to the entry nearest to its 4x4x4 cell, not to the pixel itself: the
    in-between colours are kept at least ``gap`` away from the flat ones, so that those map
    to themselves.
    """
    exact = list(dict.fromkeys(tuple(c) for c in exact))
    if len(exact) > 255:
        raise ValueError("too many flat colours for one palette")
    room = 256 - len(exact)
    octree = sheet.convert("RGB").quantize(room, method=Image.Quantize.FASTOCTREE,
                                           dither=Image.Dither.NONE).getpalette()[: 3 * room]
    extra: list[tuple[int, ...]] = []
    for i in range(0, len(octree), 3):
        c = tuple(octree[i:i + 3])
        if all(sum((a - b) ** 2 for a, b in zip(c, e, strict=True)) > gap ** 2
               for e in exact) and c not in extra:
            extra.append(c)
    flat = [v for c in exact + extra for v in c]
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def encode_with_palette(image: Image.Image, palette: Image.Image) -> bytes:
    """The PNG bytes of ``image`` mapped onto ``palette`` (nearest colour, no dithering),
    written at ``compress_level=1`` with no ``optimize`` and no metadata: the same image
    always gives the same bytes, and a palette PNG is about 4x faster to write and 3x
    smaller than RGB."""
    if image.mode != "P":
        image = image.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def ink_swatches(sheet: Image.Image, grounds, x0: int, x1: int, y: int, h: int, size: int,
                 dx: int, pad: int = 4, sample: str = "Ag8") -> int:
    """Draw on a palette's sample ``sheet`` one band ``h`` high per ``(ground, inks)`` from
    ``y`` (``x0`` to ``x1``) with ``sample`` in each ink (bold and regular in turn), so that
    the octree sees the smooth edges of text of every ink on every ground; the y after."""
    d = ImageDraw.Draw(sheet)
    for ground, inks in grounds:
        d.rectangle((x0, y, x1, y + h), fill=ground)
        for k, ink in enumerate(inks):
            text(sheet, x0 + pad + k * dx, y + h / 2, sample, size, k % 2 == 0, ink)
        y += h + 1
    return y


# --- the caption bar, names, ranking, panels -------------------------------------------------------

def player_name(view: dict, p) -> str:
    """Seat ``p``'s name in ``view`` ("?" for no such seat)."""
    players = view["players"]
    if not isinstance(p, int) or not 0 <= p < len(players):
        return "?"
    return players[p]["name"]


def player_names(view: dict, ps) -> str:
    return ", ".join(player_name(view, p) for p in ps)


def winners(result) -> list[int]:
    """The seats ranked first in a final ``result`` (rows with ``player`` and ``rank``)."""
    return [row["player"] for row in result if row.get("rank") == 1]


def caption_band(img: Image.Image, left: str, right: str | None, width: int, height: int,
                 left_fit: tuple[int, int, int], right_fit: tuple[int, int]) -> None:
    """The caption bar's words: ``left`` (what is happening) in white at the largest size of
    ``left_fit`` (room, size, smallest) that fits, ``right`` (who we wait for, the winner) in
    the highlight colour, right-aligned, in what room is left (``right_fit``: size, smallest)."""
    room, big, small = left_fit
    size, left = fit_size(left, room, big, True, small)
    text(img, 18, height / 2, left, size, True, WHITE)
    if right is None:
        return
    used = 18 + text_width(left, size, True) + 30
    size, right = fit_size(right, width - 18 - used, right_fit[0], True, right_fit[1])
    text(img, width - 18, height / 2, right, size, True, CAPTION_HI, "rm")


def ranking_strip(img: Image.Image, view: dict, title: str, rank_word, x: float, x1: float,
                  cy: float, title_fit: tuple[int, int, int], sizes: tuple[int, int, int],
                  disc_r: int, gaps: tuple[int, int]) -> None:
    """The final scores in rank order across a strip from ``x`` to ``x1`` on the line ``cy``:
    ``title``, then per row its rank (``rank_word(rank)``), seat disc, name and score
    (``sizes``: rank, name, score; ``gaps``: after the title, between a name and its score)."""
    room, big, small = title_fit
    size, title = fit_size(title, room, big, True, small)
    text(img, x, cy, title, size, True)
    x = x + text_width(title, size, True) + gaps[0]
    rank_size, name_size, score_size = sizes
    rows = view["result"]
    each = (x1 - x) / max(1, len(rows))
    for row in rows:
        p = row["player"]
        rank = rank_word(row["rank"])
        text(img, x, cy, rank, rank_size, True, AWAIT if row["rank"] == 1 else INK)
        rx = x + text_width(rank, rank_size, True) + 4
        paste(img, seat_disc(p, disc_r), rx + disc_r + 1, cy)
        score = str(row["score"])
        sw = text_width(score, score_size, True)
        nx = rx + 2 * disc_r + 6
        name = fit_to(player_name(view, p), name_size, False, max(12.0, each - (nx - x) - sw - 14))
        text(img, nx, cy, name, name_size, False, INK)
        text(img, nx + text_width(name, name_size) + gaps[1], cy, score, score_size, True, INK)
        x += each


def rounded(d: ImageDraw.ImageDraw, box, fill=CARD_BG, outline=CARD_LINE, width=2) -> None:
    """A panel: a rounded rectangle (radius 10) on the card ground with a light outline."""
    d.rounded_rectangle(box, radius=10, fill=fill, outline=outline, width=width)


def awaited_frame(img: Image.Image, box) -> None:
    """The thick frame around the row or card of a player the table waits for."""
    ImageDraw.Draw(img).rounded_rectangle(box, radius=10, outline=AWAIT, width=5)


def first_chip(img: Image.Image, x0: float, y: float, word: str, room: float) -> None:
    """The "★ first player" chip from ``x0`` on the line ``y``, at most ``room`` wide."""
    size, word = fit_size("★ " + word, room, 15, True, 10)
    w = text_width(word, size, True)
    ImageDraw.Draw(img).rounded_rectangle((x0 + 10, y - 11, x0 + 20 + w, y + 11), radius=11,
                                          fill=AWAIT_SOFT, outline=AWAIT, width=2)
    text(img, x0 + 15, y, word, size, True, INK)


def signed(n: int) -> str:
    """A number with its sign (a real minus sign; "0" unsigned)."""
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


# --- discs ---------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def disc(fill: tuple, r: int, outline: tuple | None = INK) -> Image.Image:
    """A smooth disc of radius ``r`` (RGBA)."""
    S = (2 * r + 2) * SS
    big = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.ellipse((SS, SS, S - SS - 1, S - SS - 1), fill=fill + (255,),
              outline=(outline + (255,)) if outline else None,
              width=max(1, round(SS * (1.2 if r > 6 else 0.9))) if outline else 0)
    return big.resize((2 * r + 2, 2 * r + 2), Image.LANCZOS)


@lru_cache(maxsize=16)
def seat_disc(p: int, r: int) -> Image.Image:
    """Seat ``p``'s disc (``SEAT_RGB``) with its number."""
    im = disc(SEAT_RGB[p % len(SEAT_RGB)], r).copy()
    c = (2 * r + 2) / 2
    text(im, c, c + 0.5, str(p + 1), round(r * 1.15), True, SEAT_INK[p % len(SEAT_INK)] + (255,),
         "mm")
    return im


# --- a row of species per seat -------------------------------------------------------------------

@dataclass(frozen=True)
class RowLayout:
    """Where a seat's row goes on a table drawn as one row per seat: the identity column
    (up to ``id_x1``), the species cards (``sp_w`` wide while they fit), the points column
    (``score_w`` on the right)."""

    width: int
    margin: int
    rows_y: int
    row_h: int
    row_gap: int
    id_x1: int
    score_w: int
    sp_w: int
    sp_gap: int
    dense_from: int                   # this many cards and more: a 3-pixel gap

    @property
    def score_x0(self) -> int:
        return self.width - self.margin - self.score_w

    @property
    def sp_x0(self) -> int:
        return self.id_x1 + 8

    @property
    def sp_x1(self) -> int:
        return self.score_x0 - 8

    def row_box(self, k: int) -> tuple[int, int, int, int]:
        """The box of seat ``k``'s row (x0, y0, x1, y1)."""
        y = self.rows_y + k * (self.row_h + self.row_gap)
        return self.margin, y, self.width - self.margin, y + self.row_h

    def score_box(self, k: int) -> tuple[int, int, int, int]:
        _, y0, x1, y1 = self.row_box(k)
        return self.score_x0, y0, x1, y1

    def species_slots(self, count: int) -> tuple[tuple[int, int], ...]:
        """x and width of each of ``count`` species cards in a row: ``sp_w`` wide while they
        fit, narrower when the row is long (never leaving the row)."""
        if count <= 0:
            return ()
        room = self.sp_x1 - self.sp_x0
        gap = self.sp_gap if count < self.dense_from else 3
        w = min(self.sp_w, (room - gap * (count - 1)) // count)
        return tuple((self.sp_x0 + i * (w + gap), w) for i in range(count))

    def empty_row(self, k: int) -> Image.Image:
        """Seat ``k``'s row with nothing on it (``width`` x ``row_h``, on the page's ground):
        the frame, the columns, the seat disc."""
        img = Image.new("RGB", (self.width, self.row_h), BG)
        d = ImageDraw.Draw(img)
        x0, _, x1, _ = self.row_box(k)
        y0, y1 = 0, self.row_h - 1
        rounded(d, (x0, y0, x1, y1))
        d.line((self.id_x1, y0 + 10, self.id_x1, y1 - 10), fill=ZEBRA, width=2)
        d.line((self.score_x0, y0 + 10, self.score_x0, y1 - 10), fill=CARD_LINE, width=1)
        paste(img, seat_disc(k, 14), x0 + 22, y0 + 22)
        return img


class RowCache:
    """Pictures kept by what they show (a hashable key), the oldest dropped past ``size``:
    between two pictures of a game most rows have not changed."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: dict = {}

    def get(self, key, draw):
        img = self._items.get(key)
        if img is None:
            img = draw()
            if len(self._items) >= self.size:
                self._items.pop(next(iter(self._items)))
            self._items[key] = img
        return img

    def clear(self) -> None:
        self._items.clear()


def png_functions(draw, palette):
    """A game's ``encode_png(image)`` (onto its ``palette()``, ``encode_with_palette``),
    ``render(view, lang)`` (the PNG bytes of ``draw(view, lang)``, ready to attach to a Discord
    message) and ``bench_render(view, repeats, lang)`` (``measure``)."""
    def encode_png(image: Image.Image) -> bytes:
        return encode_with_palette(image, palette())

    def render(view: dict, lang: str = "en") -> bytes:
        return encode_png(draw(view, lang))

    def bench_render(view: dict, repeats: int = 40, lang: str = "en") -> dict:
        return measure(lambda: draw(view, lang), encode_png, repeats)

    return encode_png, render, bench_render


# --- benchmark -----------------------------------------------------------------------------------

def measure(draw, encode, repeats: int = 40) -> dict:
    """Median ms of draw+encode (``encode(draw())``, a whole render) and of ``encode`` alone
    on the same finished image, and their ratio: the render benchmark of every game."""
    image = draw()
    for _ in range(3):                                   # warm-up: caches, palette
        encode(draw())
        encode(image)
    render, enc = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        encode(draw())
        t1 = time.perf_counter()
        encode(image)
        t2 = time.perf_counter()
        render.append((t1 - t0) * 1000)
        enc.append((t2 - t1) * 1000)
    r, e = statistics.median(render), statistics.median(enc)
    return {"render_ms": round(r, 3), "encode_ms": round(e, 3), "ratio": round(r / e, 3)}
