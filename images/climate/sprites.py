"""Evolution: Climate's small pictures, each drawn once and kept (``functools.lru_cache``):
suns, snowflakes, leaves, body and population badges, card backs and decks, the Watering
Hole, the bag, the volcano, the climate marker, food cards and event cards."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from images import common as ic
from images.climate import style as st


def _big(size_w: int, size_h: int | None = None) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    big = Image.new("RGBA", (size_w * ic.SS, (size_h or size_w) * ic.SS), (0, 0, 0, 0))
    return big, ImageDraw.Draw(big)


def _small(big: Image.Image) -> Image.Image:
    return big.resize((big.size[0] // ic.SS, big.size[1] // ic.SS), Image.LANCZOS)


@lru_cache(maxsize=16)
def sun_icon(size: int) -> Image.Image:
    """A sun: a yellow disc with eight rays."""
    big, d = _big(size)
    S = size * ic.SS
    c = S / 2
    for k in range(8):
        a = k * math.pi / 4
        x0, y0 = c + math.cos(a) * S * 0.30, c + math.sin(a) * S * 0.30
        x1, y1 = c + math.cos(a) * S * 0.48, c + math.sin(a) * S * 0.48
        d.line((x0, y0, x1, y1), fill=st.SUN_LINE + (255,), width=max(ic.SS, round(S * 0.09)))
    r = S * 0.27
    d.ellipse((c - r, c - r, c + r, c + r), fill=st.SUN + (255,), outline=st.SUN_LINE + (255,),
              width=max(ic.SS, round(S * 0.06)))
    return _small(big)


@lru_cache(maxsize=16)
def snow_icon(size: int, ink: tuple = st.SNOW) -> Image.Image:
    """A snowflake: six arms with small branches (blue; white on a dark zone)."""
    big, d = _big(size)
    S = size * ic.SS
    c = S / 2
    w = max(ic.SS, round(S * 0.085))
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
    S = size * ic.SS
    leaf = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    ld = ImageDraw.Draw(leaf)
    ld.ellipse((S * 0.06, S * 0.2, S * 0.94, S * 0.8), fill=st.LEAF + (255,),
               outline=st.LEAF_DARK + (255,), width=max(ic.SS, round(S * 0.05)))
    ld.line((S * 0.12, S * 0.5, S * 0.86, S * 0.5), fill=st.LEAF_DARK + (255,),
            width=max(ic.SS, round(S * 0.035)))
    leaf = leaf.rotate(35, resample=Image.BICUBIC)
    big.alpha_composite(leaf)
    return _small(big)


@lru_cache(maxsize=32)
def badge(n: int, size: int, kind: str) -> Image.Image:
    """A body size (brown rounded square) or population (green disc) badge with its number."""
    big, d = _big(size)
    S = size * ic.SS
    if kind == "body":
        d.rounded_rectangle((ic.SS, ic.SS, S - ic.SS - 1, S - ic.SS - 1), radius=S // 5,
                            fill=st.BODY_RGB + (255,), outline=ic.INK + (255,), width=ic.SS)
    else:
        d.ellipse((ic.SS, ic.SS, S - ic.SS - 1, S - ic.SS - 1), fill=st.POP_RGB + (255,),
                  outline=ic.INK + (255,), width=ic.SS)
    im = _small(big)
    ic.text(im, size / 2, size / 2 + 0.5, str(n), round(size * 0.62), True, ic.WHITE + (255,), "mm")
    return im


@lru_cache(maxsize=4)
def badge_plain(size: int) -> Image.Image:
    """A small body-size square with no number (the body sizes a zone hits)."""
    big, d = _big(size)
    S = size * ic.SS
    d.rounded_rectangle((ic.SS, ic.SS, S - ic.SS - 1, S - ic.SS - 1), radius=S // 5,
                        fill=st.BODY_RGB + (255,), outline=ic.INK + (255,), width=ic.SS)
    return _small(big)


@lru_cache(maxsize=16)
def card_back(w: int, h: int) -> Image.Image:
    """A face-down trait card (RGB): slate with a light frame and diagonal hatching."""
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(2, min(w, h) // 6), fill=st.BACK_BG,
                        outline=st.BACK_LINE)
    inner = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    di = ImageDraw.Draw(inner)
    for x in range(-h, w, 7):
        di.line((x, h, x + h, 0), fill=st.BACK_PAT, width=2)
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
    d.ellipse((ic.SS, ic.SS, w * ic.SS - ic.SS - 1, h * ic.SS - ic.SS - 1), fill=st.POND + (255,),
              outline=st.POND_LINE + (255,), width=2 * ic.SS)
    return _small(big)


@lru_cache(maxsize=4)
def bag_icon(size: int) -> Image.Image:
    """A food bag."""
    big, d = _big(size)
    S = size * ic.SS
    d.rounded_rectangle((S * 0.14, S * 0.3, S * 0.86, S * 0.96), radius=S * 0.25,
                        fill=st.BAG + (255,), outline=ic.INK + (255,), width=ic.SS)
    d.polygon(((S * 0.3, S * 0.06), (S * 0.7, S * 0.06), (S * 0.56, S * 0.3),
               (S * 0.44, S * 0.3)), fill=st.BAG + (255,), outline=ic.INK + (255,))
    d.line((S * 0.36, S * 0.31, S * 0.64, S * 0.31), fill=ic.INK + (255,), width=ic.SS * 2)
    return _small(big)


@lru_cache(maxsize=4)
def volcano_icon(size: int) -> Image.Image:
    """A volcano: where an eruption sends the marker."""
    big, d = _big(size)
    S = size * ic.SS
    d.polygon(((S * 0.04, S * 0.96), (S * 0.38, S * 0.34), (S * 0.62, S * 0.34),
               (S * 0.96, S * 0.96)), fill=st.ROCK + (255,), outline=ic.INK + (255,))
    d.polygon(((S * 0.38, S * 0.34), (S * 0.62, S * 0.34), (S * 0.56, S * 0.48),
               (S * 0.44, S * 0.48)), fill=st.VOLCANO + (255,))
    for cx, cy, r in ((0.5, 0.2, 0.1), (0.34, 0.1, 0.07), (0.66, 0.1, 0.07)):
        d.ellipse((S * (cx - r), S * (cy - r), S * (cx + r), S * (cy + r)),
                  fill=st.VOLCANO + (255,))
    return _small(big)


@lru_cache(maxsize=4)
def marker_icon(size: int) -> Image.Image:
    """The climate marker: a dark token with a light ring."""
    big, d = _big(size)
    S = size * ic.SS
    d.ellipse((ic.SS, ic.SS, S - ic.SS - 1, S - ic.SS - 1), fill=ic.INK + (255,),
              outline=ic.WHITE + (255,), width=2 * ic.SS)
    r = S * 0.16
    d.ellipse((S / 2 - r, S / 2 - r, S / 2 + r, S / 2 + r), fill=ic.CAPTION_HI + (255,))
    return _small(big)


def _icons(img: Image.Image, x: float, cy: float, suns: int, snows: int, size: int,
           step: float | None = None, snow_ink: tuple = st.SNOW) -> float:
    """Paste ``suns`` suns then ``snows`` snowflakes from ``x``; return the x after them."""
    step = step or size + 1
    for k in range(suns + snows):
        ic.paste(img, sun_icon(size) if k < suns else snow_icon(size, snow_ink), x + size / 2, cy)
        x += step
    return x


@lru_cache(maxsize=256)
def _wrap(s: str, width: float, size: int, smallest: int) -> tuple[int, tuple[str, ...]]:
    """``s`` on one line at the largest size that fits, else on two lines (split at the
    space that balances them best), else cut."""
    for sz in range(size, smallest - 1, -1):
        if ic.text_width(s, sz, True) <= width:
            return sz, (s,)
        words = s.split(" ")
        if len(words) > 1:
            best = None
            for k in range(1, len(words)):
                a, b = " ".join(words[:k]), " ".join(words[k:])
                wmax = max(ic.text_width(a, sz, True), ic.text_width(b, sz, True))
                if wmax <= width and (best is None or wmax < best[0]):
                    best = (wmax, a, b)
            if best is not None:
                return sz, (best[1], best[2])
    return smallest, (ic.fit(s, ic.font(smallest, True), width),)


def _plants(im: Image.Image, cx: float, cy: float, plants: int, ink: tuple) -> None:
    """A small leaf and a plant number, centred on ``cx``."""
    s = ic.signed(plants)
    size = 16 if len(s) < 3 else 14
    w = 15 + 2 + ic.text_width(s, size, True)
    x = cx - w / 2
    ic.paste(im, leaf_icon(15), x + 7.5, cy)
    ic.text(im, x + 17, cy + 0.5, s, size, True, ink + (255,))


@lru_cache(maxsize=256)
def food_card(card: tuple | None, seat: int, down: bool, own: bool) -> Image.Image:
    """A food card on the Watering Hole (RGBA ``FOOD_W+8`` x ``FOOD_H+8``): a card back when
    face down (``own``: the viewer's own, its plant number shown on the back), the revealed
    card (plant leaf, suns and snowflakes), an empty place when ``card`` is None and not
    down; the seat's disc on its top-left corner."""
    im = Image.new("RGBA", (st.FOOD_W + 8, st.FOOD_H + 8), (0, 0, 0, 0))
    x0, y0 = 6, 6
    d = ImageDraw.Draw(im)
    if down:
        back = card_back(st.FOOD_W, st.FOOD_H)
        im.paste(back, (x0, y0), back)
        if own and card is not None:
            _plants(im, x0 + st.FOOD_W / 2, y0 + st.FOOD_H - 14, card[0], ic.WHITE)
    elif card is None:
        d.rounded_rectangle((x0, y0, x0 + st.FOOD_W - 1, y0 + st.FOOD_H - 1), radius=5,
                            outline=ic.LIGHT, width=2)
    else:
        plants, suns, snows = card
        d.rounded_rectangle((x0, y0, x0 + st.FOOD_W - 1, y0 + st.FOOD_H - 1), radius=5,
                            fill=ic.CARD_BG + (255,), outline=ic.INK + (255,), width=1)
        n = suns + snows
        if n:
            size = 12 if n <= 2 else 9
            _icons(im, x0 + st.FOOD_W / 2 - n * (size + 1) / 2, y0 + 14, suns, snows, size)
        _plants(im, x0 + st.FOOD_W / 2, y0 + st.FOOD_H - 14, plants, ic.INK)
    ic.paste(im, ic.seat_disc(seat, 8), 9, 9)
    return im


@lru_cache(maxsize=64)
def event_card(event: str, deck: str, to: str | None, w: int, h: int, lang: str,
               suns: int = 0) -> Image.Image:
    """A climate event card face up (RGB ``w`` x ``h`` on the page's ground): its deck's
    colour and icon, its name on one or two lines, a Volcanic Eruption's destination,
    ``suns`` suns under the name (a Thaw on the Watering Hole)."""
    im = Image.new("RGB", (w, h), ic.BG)
    d = ImageDraw.Draw(im)
    cold = deck == "cold"
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, fill=st.COLD_BG if cold else st.HOT_BG,
                        outline=st.COLD_LINE if cold else st.HOT_LINE, width=2)
    ic.paste(im, snow_icon(16) if cold else sun_icon(16), 13, h / 2)
    x0, room = 24, w - 28
    lines = _wrap(st.event_name(event, lang), room, 14, 10)
    extra = f"→ {st.zone_name(to, lang)}" if to else None
    size = lines[0]
    rows = list(lines[1])
    if extra:
        rows.append(ic.fit_to(extra, size, False, room))
    step = size + 3
    icons = 16 if suns else 0
    y = h / 2 - ((len(rows) - 1) * step + icons) / 2
    for i, row in enumerate(rows):
        bold = not (extra and i == len(rows) - 1)
        ic.text(im, x0 + room / 2, y + i * step, row, size, bold, ic.INK, "mm")
    if suns:
        _icons(im, x0 + room / 2 - suns * 15 / 2, y + (len(rows) - 1) * step + 17, suns, 0, 14)
    return im
