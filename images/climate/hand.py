"""Evolution: Climate's private hand image (960 wide), sent to its player alone: the viewer's
cards (name, plant number on a leaf, suns and snowflakes, a green frame for the traits that
act before the reveal, a red title for Carnivore), then their food card, the cards they
played face down this round, the cards put back for the exchange and, in a Quick game's
secret play phase, the cards they discarded."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from images import common as ic
from images.climate import sprites as spr
from images.climate import style as st
from messages import t


@lru_cache(maxsize=512)
def hand_card(trait: str, plants: int, suns: int, snows: int, green: bool,
              lang: str) -> Image.Image:
    """A trait card of a hand (RGB ``HC_W`` x ``HC_H`` on the page's ground): its name on a
    title band (red for Carnivore), a green frame for the traits that act before the reveal,
    its suns and snowflakes, its plant number on a leaf."""
    im = Image.new("RGB", (st.HC_W, st.HC_H), ic.BG)
    d = ImageDraw.Draw(im)
    carn = trait == "carnivore"
    d.rounded_rectangle((0, 0, st.HC_W - 1, st.HC_H - 1), radius=10, fill=ic.CARD_BG,
                        outline=st.GREEN_FRAME if green else ic.INK, width=5 if green else 2)
    pad = 7 if green else 5
    band = (pad, pad, st.HC_W - 1 - pad, 58)
    d.rounded_rectangle(band, radius=6, fill=st.CARN_BG if carn else st.TRAIT_BG)
    room = band[2] - band[0] - 10
    name = st.trait_name(trait, lang)
    size, lines = spr._wrap(name, room, 20, 14)
    if len(lines) == 1 and lines[0] != name:          # cut: try the short form
        size, lines = spr._wrap(st.trait_short(trait, lang), room, 20, 12)
    cy = (band[1] + band[3]) / 2
    step = size + 4
    for i, line in enumerate(lines):
        ic.text(im, st.HC_W / 2, cy + (i - (len(lines) - 1) / 2) * step, line, size, True,
                ic.WHITE if carn else ic.INK, "mm")
    n = suns + snows
    if n:
        sz = 24 if n <= 3 else 18
        spr._icons(im, pad + 8, st.HC_H - pad - 24, suns, snows, sz, sz + 3)
    num = ic.signed(plants)
    right = st.HC_W - pad - 8
    cy = st.HC_H - pad - 24
    ic.text(im, right, cy, num, 26, True, st.LEAF_DARK if plants >= 0 else st.NEGATED, "rm")
    ic.paste(im, spr.leaf_icon(30), right - ic.text_width(num, 26, True) - 18, cy)
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
    rows = max(1, -(-count // st.HC_PER_ROW))
    return rows * (st.HC_H + (st.TAG_H if tagged else 0)) + (rows - 1) * st.HC_GAP


def hand_height(view: dict) -> int:
    """The hand image's height for ``view`` (its viewer's cards)."""
    h = st.HAND_CAPTION_H + 40
    for i, (_heading, cards) in enumerate(_hand_sections(view)):
        tagged = any(tag for _, tag in cards)
        if i:
            h += 40
        h += _grid_h(len(cards), tagged) if cards else 40
        h += 12
    return h + st.MARGIN


def draw_hand(view: dict, lang: str = "en") -> Image.Image:
    """The viewer's private cards (``CLIMATE.view(state, seat)``): an RGB image ``HAND_W``
    wide. Raises ValueError for a view without a viewer (the public table has no hand)."""
    me = view.get("viewer")
    if not isinstance(me, int) or not 0 <= me < len(view["players"]):
        raise ValueError("a hand image needs a player's own view")
    pl = view["players"][me]
    sections = _hand_sections(view)
    img = Image.new("RGB", (st.HAND_W, hand_height(view)), ic.BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, st.HAND_W, st.HAND_CAPTION_H - 1), fill=ic.CAPTION_BG)
    ic.paste(img, ic.seat_disc(me, 14), 26, st.HAND_CAPTION_H / 2)
    status = t("climate.render.hand_status", lang, round=view.get("round", 1),
                   phase=st.phase_name(view.get("phase", ""), lang))
    ssize, status = ic.fit_size(status, 330, 18, True, 11)
    ic.text(img, st.HAND_W - 16, st.HAND_CAPTION_H / 2, status, ssize, True, ic.CAPTION_HI, "rm")
    title = t("climate.render.hand_title", lang, player=pl["name"],
                  count=len(pl.get("cards") or ()))
    room = st.HAND_W - 16 - ic.text_width(status, ssize, True) - 20 - 48
    size, title = ic.fit_size(title, room, 22, True, 12)
    ic.text(img, 48, st.HAND_CAPTION_H / 2, title, size, True, ic.WHITE)
    y = st.HAND_CAPTION_H + 20
    if pl.get("bag") is not None:
        line = t("climate.render.hand_score", lang, bag=pl["bag"],
                     points=pl.get("points", 0), total=pl.get("total", 0))
        size, line = ic.fit_size(line, st.HAND_W - 2 * st.HC_X0 - 30, 17, True, 11)
        ic.paste(img, spr.bag_icon(20), st.HC_X0 + 10, y)
        ic.text(img, st.HC_X0 + 26, y, line, size, True, ic.INK)
    y = st.HAND_CAPTION_H + 40
    for i, (heading, cards) in enumerate(sections):
        if i:
            word = t(heading, lang)
            size, word = ic.fit_size(word, st.HAND_W - 2 * st.HC_X0, 18, True, 11)
            ic.text(img, st.HC_X0, y + 20, word, size, True, ic.INK)
            y += 40
        if not cards:
            word = t("climate.render.hand_empty", lang)
            ic.text(img, st.HC_X0 + 6, y + 18, word, 18, False, ic.MUTED)
            y += 40 + 12
            continue
        tagged = any(tag for _, tag in cards)
        for j, (fields, tag) in enumerate(cards):
            r, c = divmod(j, st.HC_PER_ROW)
            x = st.HC_X0 + c * (st.HC_W + st.HC_GAP)
            cy = y + r * (st.HC_H + (st.TAG_H if tagged else 0) + st.HC_GAP)
            img.paste(hand_card(*fields, lang), (x, cy))
            if tag:
                if isinstance(tag, tuple):
                    word = t(tag[0], lang, species=tag[1])
                else:
                    word = t(tag, lang)
                size, word = ic.fit_size(word, st.HC_W - 4, 15, False, 10)
                ic.text(img, x + st.HC_W / 2, cy + st.HC_H + st.TAG_H / 2 + 1, word, size, False,
                        ic.MUTED, "mm")
        y += _grid_h(len(cards), tagged) + 12
    return img
