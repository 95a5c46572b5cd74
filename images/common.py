"""What every board picture shares: the vendored font, cached text, sprites, PNG encoding.

``images.evo`` and ``images.cubosaurs`` draw with these helpers:

* ``font`` / ``text`` / ``text_width`` / ``fit_size`` / ``fit_to``: DejaVu Sans (vendored in
  ``images/fonts``, it has every accent) and a cache of rasterised strings, so that a string
  drawn before costs one paste instead of a FreeType render;
* ``paste``: an RGBA sprite centred on a point;
* ``build_palette`` / ``encode_with_palette``: a fixed 256-colour palette (every flat colour
  of a board exactly, plus the in-between colours of its smooth edges) and the one PNG
  encoding (palette, no dithering, ``compress_level=1``, no metadata: same image, same bytes).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
INK = (26, 26, 26)
EXACT_GAP = 12  # minimum distance from an in-between palette colour to a flat one


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
