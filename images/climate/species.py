"""Evolution: Climate's player rows: each seat's identity column (name, first player, hand,
bag, done or passed), its species as cards (body size, population, food eaten against the
population, fat, Nocturnal used, negated traits, trait cards as chips: face up, another's
face-down card as a back, the viewer's own face down on a back's ground) and its points.
A row is kept by what it shows (``row_sprite``): a picture after one move redraws only the
rows that changed."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from images import common as ic
from images.climate import sprites as spr
from images.climate import style as st
from messages import t


def _chip_name(trait: str, w: float, big: int, lang: str) -> tuple[int, str]:
    """The largest readable form of a trait's name in ``w`` pixels: the full name down to
    12 px, else the short form down to 9 px (cut with an ellipsis as a last resort)."""
    name = st.trait_name(trait, lang)
    size, fitted = ic.fit_size(name, w, big, True, min(big, 12))
    if fitted == name:
        return size, name
    return ic.fit_size(st.trait_short(trait, lang), w, big, True, min(big, 9))


@lru_cache(maxsize=2048)
def trait_chip(trait: str | None, w: int, h: int, style: str, green: bool, pending: bool,
               lang: str) -> Image.Image:
    """A trait card on a species as a chip ``w`` x ``h`` (RGB on a card's white).

    ``style``: ``"up"`` (face up: its name; Carnivore red; a green frame for the traits that
    act before the reveal), ``"back"`` (another player's face-down card: a card back, no
    name), ``"own"`` (the viewer's own face-down card: its name on a card back's ground).
    ``pending``: a green trait its owner has still to order (an orange frame)."""
    im = Image.new("RGB", (w, h), ic.CARD_BG)
    d = ImageDraw.Draw(im)
    if style == "back":
        back = spr.card_back(w, h)
        im.paste(back, (0, 0), back)
        return im
    if style == "own":
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=4, fill=st.BACK_BG, outline=st.BACK_LINE)
        ink, mark = ic.WHITE, "▽"
    else:
        carn = trait == "carnivore"
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=4,
                            fill=st.CARN_BG if carn else st.TRAIT_BG,
                            outline=ic.INK if carn else st.TRAIT_LINE)
        ink, mark = (ic.WHITE if carn else ic.INK), ""
    if green:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=4, outline=st.GREEN_FRAME, width=3)
    if pending:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=4, outline=ic.AWAIT, width=3)
    x = 5
    big = max(9, min(15, h - 6))
    if mark:
        ic.text(im, x, h / 2, mark, big - 2, True, ic.CAPTION_HI)
        x += ic.text_width(mark, big - 2, True) + 2
    size, name = _chip_name(trait or "", w - x - 4, big, lang)
    ic.text(im, x, h / 2 + 0.5, name, size, True, ink)
    return im


def _pips(img: Image.Image, x: float, cy: float, food: int, need: int, fat: int, r: int,
          step: float) -> float:
    """Food eaten against ``need`` (filled, then hollow), then fat; the x after them."""
    for i in range(max(need, food)):
        sprite = ic.disc(st.FOOD, r) if i < food else ic.disc(ic.CARD_BG, r, st.HOLLOW)
        ic.paste(img, sprite, x + i * step + r, cy)
    x += max(need, food) * step
    if fat:
        x += 4 if max(need, food) else 0
        for i in range(fat):
            ic.paste(img, ic.disc(st.FAT, r, st.FAT_LINE), x + i * step + r, cy)
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
    img = Image.new("RGB", (w, st.CARD_H), ic.CARD_BG)
    d = ImageDraw.Draw(img)
    outline, width = (st.FED, 3) if fed and feeding else (ic.CARD_LINE, 1)
    d.rounded_rectangle((0, 0, w - 1, st.CARD_H - 1), radius=7, fill=ic.CARD_BG, outline=outline,
                        width=width)
    bs = 26
    ic.paste(img, spr.badge(body, bs, "body"), st.SP_PAD + bs / 2 + 1, 4 + bs / 2)
    ic.paste(img, spr.badge(pop, bs, "pop"), st.SP_PAD + bs * 1.5 + 6, 4 + bs / 2)
    head = f"#{sid}"
    hs = 12 if w >= 120 else 10
    ic.text(img, w - st.SP_PAD - 1, 4 + bs / 2, head, hs, False, ic.MUTED, "rm")
    # The food line: food against population, fat, moon, negated traits.
    right = w - st.SP_PAD
    small = 12
    if night:
        ic.text(img, right, st.FOOD_Y, "☾", 15, True, st.BACK_BG, "rm")
        right -= ic.text_width("☾", 15, True) + 3
    r = 6
    need = pop if feeding else 0
    tokens = max(need, food) + fat
    step = 2 * r + 2
    x = st.SP_PAD + 1
    room = right - x - (4 if fat and max(need, food) else 0)
    neg, neg_size = "", small
    if negated:                     # the negated traits first: the pips squeeze for them
        least = 2 * r + (tokens - 1) * (r + 1.5) if tokens else 0
        full = "⊘ " + ", ".join(st.trait_short(n, lang) for n in negated)
        neg_size, neg = ic.fit_size(full, max(10.0, room - least - 4), small, True, 10)
        if neg != full:
            neg = f"⊘ {len(negated)}"
            neg_size = small
        room -= ic.text_width(neg, neg_size, True) + 4
    if tokens > 1 and tokens * step > room:
        step = max(r + 1.5, (room - 2 * r) / (tokens - 1))
    x = _pips(img, x, st.FOOD_Y, food, need, fat, r, step) + 4
    if neg:
        ic.text(img, x, st.FOOD_Y, neg, neg_size, True, st.NEGATED)
    inner = w - 2 * st.SP_PAD
    for i, (trait, style, green, pending) in enumerate(traits):
        img.paste(trait_chip(trait, inner, st.CHIP_H, style, green, pending, lang),
                  (st.SP_PAD, st.CHIP_Y + i * st.CHIP_STEP))
    return img


@lru_cache(maxsize=64)
def empty_row(k: int, lang: str) -> Image.Image:
    """Seat ``k``'s row with nothing on it: the frame, the columns, the seat disc."""
    return st.ROWS.empty_row(k)


def _identity(img: Image.Image, view: dict, k: int, lang: str, awaiting: set) -> None:
    pl = view["players"][k]
    x0, _, x1, _ = st.row_box(k)
    if k in awaiting:
        ic.awaited_frame(img, (x0, 0, x1, st.ROW_H - 1))
    size, name = ic.fit_size(pl["name"], st.ID_X1 - (x0 + 42) - 6, 20, True, 11)
    ic.text(img, x0 + 42, 22, name, size, True)
    room = st.ID_X1 - x0 - 20
    y = 50
    over = bool(view["over"])
    if view.get("first") == k and not over:
        ic.first_chip(img, x0, y, t("climate.render.first", lang), room - 12)
        y += 25
    lines: list[tuple[Image.Image | None, str, bool]] = []
    if not over:
        lines.append((spr.deck_icon(12, 17), t("climate.render.hand", lang,
                                               count=pl.get("hand", 0)), True))
    if pl.get("bag") is not None:
        lines.append((spr.bag_icon(18), t("climate.render.bag", lang, count=pl["bag"]), True))
    back = pl.get("returned")
    count = len(back) if isinstance(back, list) else int(back or 0)
    if count and not over:
        lines.append((None, t("climate.render.returned", lang, count=count), False))
    phase = view.get("phase")
    if not over and phase == "play" and pl.get("done"):
        lines.append((None, "✓ " + t("climate.render.done", lang), True))
    elif not over and phase == "feeding" and pl.get("passed"):
        lines.append((None, t("climate.render.passed", lang), False))
    for sprite, word, bold in lines:
        if y > st.ROW_H - 12:
            break
        if sprite is not None:
            ic.paste(img, sprite, x0 + 20, y)
            size, word = ic.fit_size(word, room - 22, 16, bold, 10)
            ic.text(img, x0 + 34, y, word, size, bold, ic.INK)
        else:
            size, word = ic.fit_size(word, room, 15, bold, 10)
            ic.text(img, x0 + 12, y, word, size, bold, st.FED if bold else ic.MUTED)
        y += 24


def _score(img: Image.Image, view: dict, k: int, lang: str, result: dict) -> None:
    pl = view["players"][k]
    x0, _, x1, _ = st.score_box(k)
    cx = (x0 + x1) / 2
    row = result.get(k)
    heading = [(t("climate.render.points", lang), 13, 16)]
    if row is None:  # the points on the board: the bag is hidden, not counted
        heading = [(heading[0][0], 13, 12), (t("climate.render.points_note", lang), 11, 27)]
    for word, size, y in heading:
        size, word = ic.fit_size(word, st.SCORE_W - 8, size, False, 10)
        ic.text(img, cx, y, word, size, False, ic.MUTED, "mm")
    if row is not None:
        rk = row.get("rank", 0)
        word = t("climate.render.rank", lang, rank=rk)
        d = ImageDraw.Draw(img)
        w = ic.text_width(word, 16, True)
        d.rounded_rectangle((x0 + 8, 38, x0 + 20 + w, 62), radius=12,
                            fill=ic.AWAIT if rk == 1 else ic.ZEBRA)
        ic.text(img, x0 + 14, 50, word, 16, True, ic.INK)
        ic.text(img, x1 - 10, 50, str(row.get("score", 0)), 28, True, ic.INK, "rm")
        lines = [t("climate.render.score_food", lang, count=row.get("food", 0)),
                 t("climate.render.score_pop", lang, count=row.get("population", 0)),
                 t("climate.render.score_traits", lang, count=row.get("traits", 0))]
        y = 84
        for line in lines:
            size, line = ic.fit_size(line, st.SCORE_W - 10, 14, False, 9)
            ic.text(img, cx, y, line, size, False, ic.MUTED, "mm")
            y += 20
        return
    ic.text(img, cx, 52, str(pl.get("points", 0)), 32, True, ic.INK, "mm")
    if pl.get("total") is not None:
        line = t("climate.render.total", lang, total=pl["total"])
        size, line = ic.fit_size(line, st.SCORE_W - 10, 14, True, 9)
        ic.text(img, cx, 86, line, size, True, ic.MUTED, "mm")


def _row(img: Image.Image, view: dict, k: int, lang: str, species: tuple) -> None:
    """The species cards of a row, left to right (``species``: their ``species_key``)."""
    if not species:
        word = t("climate.render.no_species", lang)
        ic.text(img, st.SP_X0 + 10, st.ROW_H / 2, word, 16, False, ic.LIGHT)
        return
    for (x, w), key in zip(st.species_slots(len(species)), species, strict=True):
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


_rows = ic.RowCache(ROW_CACHE_SIZE)


def row_sprite(view: dict, k: int, lang: str, awaiting: set, result: dict,
               context: tuple) -> Image.Image:
    """Seat ``k``'s row drawn (``WIDTH`` x ``ROW_H``), kept by what it shows (``_row_key``):
    between two pictures of a game most rows have not changed."""
    row_key, species = _row_key(view, k, awaiting, result, context)

    def draw() -> Image.Image:
        img = empty_row(k, lang).copy()
        _identity(img, view, k, lang, awaiting)
        _row(img, view, k, lang, species)
        _score(img, view, k, lang, result)
        return img

    return _rows.get((row_key, lang), draw)
