"""The Random Mutations table as one PNG: every player's row of species (traits, animals, food
against need, burrows, parasites, fed or not), the centre, the dice, the decks, the scores.

    png = render_mutations(MUTATIONS.view(state, None), "en")

Everything drawn is public: a view holds the decks as counts only (nobody, the owner
included, sees a personal deck or the main deck), so the picture is the same for every viewer.

Layout (1400 wide; the height grows with the players: 2 = 436, 8 = 1408)::

    +-- caption: turn T · phase · last turn .......... waiting for Bob: which animal is eaten --+
    | centre: ● 7  ■ 2  ● 3     dice: [food dice] [burrow dice] [parasite dice]   main deck 23 |
    | (1) Ann    | #4          | #7          | #9 ↑#4      | ...                       |  14    |
    | ★ first    | Carnivore   | ▼ Bark Be.. | ↑ Carnivore |                           | 4 an.  |
    | ▤ deck 5   | #5 ●●○ ■ ✓  | #8 ●  ●●    | #10 ○○      |                           | 3 tr.  |
    | ... one row per seat, species in row order ...                                       |
    +---------------------------------------------------------------------------------------+

A species is a card: its number (and ``↑#N``, the species it split from, with Divergence),
its trait chips (negative traits dark with ``▼``, inherited ones with ``↑``), then one line per
animal: its number, its food as circles against its need (red food, blue extra food, hollow:
still needed), a green burrow, black parasites, ``⚔`` once it has attacked this turn and ``✓``
when it is fed. A species whose animals are all fed has a green frame. The right column holds
the points so far (2 per animal, 1 per trait card, plus the food bonuses), headed as such:
the animals not fed yet count until the Extinction starves them; at the end, the rank, the
final score and the tie-break (cards lost from the game).

A phase image (the engine's observer, at a phase end: ``phase_ended``) names the phase it
depicts and says the phase is over instead of naming the last player who acted as awaited.

Speed: the background (caption bar, strip, empty rows, the fixed words) is drawn once per
(players, language) and kept (``functools.lru_cache``); trait chips, animal lines, dice,
discs and icons are cached sprites and every string a cached mask (``images.common.text``).
A render copies the background and pastes. ``encode_png`` maps the picture onto one fixed
256-colour palette (exact for every flat colour used here), ``compress_level=1``.

Words come from the message catalogue (``messages.t``, ``messages/*/render_mutations.toml``)
in ``lang`` (English where a language lacks a key); a trait without a name reads as a readable
form of its id. What every game's picture shares (colours, caption bar, ranking, seat discs,
the row layout, palette and encoding, the benchmark) is ``images.common``'s.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.mutations.data import DARK, TRAITS
from images import common as ic
from messages import has, t

# --- sizes ---------------------------------------------------------------------------------------

WIDTH = 1400
MARGIN = 12
CAPTION_H = 52
STRIP_Y, STRIP_H = 52, 48
ROWS_Y, ROW_H, ROW_GAP = 104, 156, 6
ID_X1 = 196                       # identity column (disc, name, first, deck, passed)
SCORE_W = 124                     # points column, on the right
SCORE_X0 = WIDTH - MARGIN - SCORE_W
SP_X0 = ID_X1 + 8                 # first species card
SP_X1 = SCORE_X0 - 8
SP_W, SP_GAP = 170, 6             # a species card, while the row has room (6 fit)
SP_PAD = 5
HEAD_H = 17                       # the species number line
CHIP_H, CHIP_STEP = 22, 24        # a trait chip
LINE_H, LINE_STEP = 22, 24        # an animal line
ROWS = ic.RowLayout(WIDTH, MARGIN, ROWS_Y, ROW_H, ROW_GAP, ID_X1, SCORE_W, SP_W, SP_GAP, 10)

# --- colours -------------------------------------------------------------------------------------

# BG, INK, MUTED, LIGHT, WHITE, BLACK, CARD_*, CAPTION_*, AWAIT*, ZEBRA: images.common's.
FOOD_RED = (211, 47, 47)
FOOD_BLUE = (30, 110, 200)
BURROW = (56, 142, 60)
PARASITE = ic.INK
FED = (46, 125, 50)
FED_SOFT = (237, 247, 237)
TRAIT_BG = (226, 234, 244)
TRAIT_LINE = (150, 170, 192)
DARK_BG = (74, 52, 88)
TARGET = (198, 40, 40)
HOLLOW = (150, 150, 150)
DIE_WHITE = ic.WHITE

PLAYER_RGB, PLAYER_INK = ic.SEAT_RGB, ic.SEAT_INK  # eight seats: images.common's seat colours

DICE_RGB = {"food": (DIE_WHITE, ic.INK), "burrows": (BURROW, ic.WHITE),
            "parasites": (PARASITE, ic.WHITE)}

@lru_cache(maxsize=256)
def trait_name(trait: str, lang: str = "en") -> str:
    """The trait's name from the catalogue (``mutations.trait.<id>.name``), else a readable
    form of its id (``high_body_weight`` -> "High Body Weight")."""
    key = f"mutations.trait.{trait}.name"
    if has(key, lang) or has(key, "en"):
        return t(key, lang)
    return " ".join(w.capitalize() for w in str(trait).split("_"))


# --- geometry ------------------------------------------------------------------------------------

def height_for(players: int) -> int:
    """The picture's height for ``players`` seats."""
    return ROWS_Y + players * (ROW_H + ROW_GAP) + MARGIN - ROW_GAP + 2


row_box = ROWS.row_box
score_box = ROWS.score_box
species_slots = lru_cache(maxsize=64)(ROWS.species_slots)


def strip_box() -> tuple[int, int, int, int]:
    return 0, STRIP_Y, WIDTH, STRIP_Y + STRIP_H


# --- sprites -------------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def burrow_icon(size: int) -> Image.Image:
    """A green burrow token: a rounded square with a dark arch."""
    S = size * ic.SS
    big = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, S - 1, S - 1), radius=S // 4, fill=BURROW + (255,),
                        outline=(27, 94, 32, 255), width=ic.SS)
    d.pieslice((S * 0.22, S * 0.35, S * 0.78, S * 1.05), 180, 360, fill=(27, 60, 30, 255))
    return big.resize((size, size), Image.LANCZOS)


@lru_cache(maxsize=8)
def card_back(w: int, h: int) -> Image.Image:
    """A face-down card (a deck)."""
    im = Image.new("RGBA", (w + 4, h + 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((3, 0, w + 3, h), radius=3, fill=(120, 144, 156, 255),
                        outline=ic.INK + (255,))
    d.rounded_rectangle((0, 3, w, h + 3), radius=3, fill=(69, 90, 100, 255),
                        outline=ic.WHITE + (255,))
    return im


# Pips of each die face on a 3 x 3 grid (column, row).
PIPS = {1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
        4: ((0, 0), (2, 0), (0, 2), (2, 2)), 5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
        6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2))}


@lru_cache(maxsize=64)
def die_face(kind: str, face: int, size: int) -> Image.Image:
    """One face of a climate die: white (food), green (burrows) or black (parasites)."""
    body, pip = DICE_RGB.get(kind, (DIE_WHITE, ic.INK))
    S = size * ic.SS
    big = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, S - 1, S - 1), radius=S // 5, fill=ic.INK + (255,))
    e = max(ic.SS, S // 14)
    d.rounded_rectangle((e, e, S - 1 - e, S - 1 - e), radius=S // 6, fill=body + (255,))
    r = S * 0.09
    for col, row in PIPS.get(face, ()):
        x, y = S * (0.25 + 0.25 * col), S * (0.25 + 0.25 * row)
        d.ellipse((x - r, y - r, x + r, y + r), fill=pip + (255,))
    return big.resize((size, size), Image.LANCZOS)


@lru_cache(maxsize=1024)
def trait_chip(trait: str, w: int, h: int, inherited: bool, lang: str) -> Image.Image:
    """A trait as a chip ``w`` x ``h``: its name as large as fits; a negative (dark) trait
    dark with a ``▼``; a trait inherited from the species it split from with a ``↑``."""
    dark = trait in DARK
    im = Image.new("RGB", (w, h), ic.CARD_BG)
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=4, fill=DARK_BG if dark else TRAIT_BG,
                        outline=ic.INK if dark else TRAIT_LINE)
    ink = ic.WHITE if dark else ic.INK
    mark = ("▼" if dark else "") + ("↑" if inherited else "")
    x = 4
    big = max(9, min(15, h - 7))
    if mark:
        ms = max(8, big - 3)
        ic.text(im, x, h / 2, mark, ms, True, ic.CAPTION_HI if dark else ic.MUTED)
        x += ic.text_width(mark, ms, True) + 2
    size, name = ic.fit_size(trait_name(trait, lang), w - x - 3, big, True, 9)
    ic.text(im, x, h / 2 + 0.5, name, size, True, ink)
    return im


def _pips(d_img: Image.Image, x: float, cy: float, red: int, blue: int, need: int, r: int,
          step: float) -> float:
    for i in range(max(need, red + blue)):
        if i < red:
            sprite = ic.disc(FOOD_RED, r)
        elif i < red + blue:
            sprite = ic.disc(FOOD_BLUE, r)
        else:
            sprite = ic.disc(ic.CARD_BG, r, HOLLOW)
        ic.paste(d_img, sprite, x + i * step + r, cy)
    return x + max(need, red + blue) * step


@lru_cache(maxsize=2048)
def animal_line(aid: int, red: int, blue: int, need: int, burrow: bool, parasites: int,
                attacked: bool, fed: bool, w: int, h: int) -> Image.Image:
    """One animal (RGB on a species card's ground, ``w`` x ``h``): ``#id``, food circles
    against its need, its burrow, its parasites, ``⚔`` if it attacked this turn, ``✓`` if fed."""
    ground = FED_SOFT if fed else ic.CARD_BG
    im = Image.new("RGB", (w, h), ground)
    cy = h / 2
    small = max(8, min(12, h - 8))
    label_ = f"#{aid}"
    ic.text(im, 1, cy, label_, small, False, ic.MUTED)
    x = 2 + ic.text_width(label_, small) + 3
    right = w - 2
    if fed:
        ic.text(im, right, cy, "✓", small + 2, True, FED, "rm")
        right -= ic.text_width("✓", small + 2, True) + 2
    if attacked:
        ic.text(im, right, cy, "⚔", small + 1, True, TARGET, "rm")
        right -= ic.text_width("⚔", small + 1, True) + 2
    r = max(3, min(7, (h - 6) // 2))
    tokens = max(need, red + blue)
    extras = (2 * r + 4 if burrow else 0) + (2 * r + 2 if parasites else 0) + \
        (ic.text_width(f"×{parasites}", small, True) if parasites > 1 else 0)
    step = 2 * r + 2
    if tokens > 1 and x + tokens * step + extras > right:
        step = max(r + 1.0, (right - extras - x - 2 * r) / (tokens - 1))
    x = _pips(im, x, cy, red, blue, need, r, step) + 3
    if burrow:
        ic.paste(im, burrow_icon(2 * r + 2), x + r + 1, cy)
        x += 2 * r + 4
    if parasites:
        ic.paste(im, ic.disc(PARASITE, r, None), x + r, cy)
        x += 2 * r + 2
        if parasites > 1:
            ic.text(im, x, cy, f"×{parasites}", small, True, PARASITE)
    return im


# --- the background ------------------------------------------------------------------------------

@lru_cache(maxsize=32)
def background(players: int, lang: str) -> Image.Image:
    """Everything that stays put during a game (cached): the caption bar, the strip and its
    fixed words, the empty player rows with their columns."""
    h = height_for(players)
    img = Image.new("RGB", (WIDTH, h), ic.BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, CAPTION_H - 1), fill=ic.CAPTION_BG)
    for k in range(players):
        img.paste(empty_row(k, lang), (0, row_box(k)[1]))
    return img


@lru_cache(maxsize=64)
def empty_row(k: int, lang: str) -> Image.Image:
    """Seat ``k``'s row with nothing on it: the frame, the columns, the seat disc."""
    return ROWS.empty_row(k)


# --- what changes --------------------------------------------------------------------------------

def phase_ended(view: dict) -> str | None:
    """The phase whose end ``view`` was taken at (the engine's observer: "development",
    "climate", "feeding", "extinction"), or None for a position where someone is to act (and
    at the end of the game). A phase image must not name someone as awaited: the phase is
    over. The view tells it: everyone has passed the Development (the climate dice are
    rolled by then: the Climate image), every player passed in a row in the Feeding, the
    Extinction has nobody to ask."""
    if view.get("over") or view.get("pending"):
        return None
    phase = view.get("phase")
    players = view.get("players") or ()
    if phase == "development" and players and all(pl.get("passed") for pl in players):
        return "climate" if any((view.get("dice") or {}).values()) else "development"
    if phase == "feeding" and players and int(view.get("passes") or 0) >= len(players):
        return "feeding"
    if phase == "extinction":
        return "extinction"
    return None


def shown_phase(view: dict) -> str:
    """The phase a picture depicts: the one that just ended at a phase end (the Climate
    image is taken before the Feeding starts), else the view's."""
    return phase_ended(view) or view["phase"]


def _caption(img: Image.Image, view: dict, lang: str) -> None:
    ended = phase_ended(view)
    if view["over"]:
        left = t("mutations.render.game_over", lang)
    else:
        phase = t(f"mutations.phase.{shown_phase(view)}", lang)
        left = t("mutations.render.caption", lang, turn=view["turn"], phase=phase)
        if view.get("last"):
            left += " · " + t("mutations.render.last_turn", lang)
    if view.get("divergence"):
        left += " · " + t("mutations.render.divergence", lang)
    pend = view.get("pending")
    if view["over"] and view.get("result"):
        right = t("mutations.render.winner", lang,
                  players=ic.player_names(view, ic.winners(view["result"])))
    elif pend and isinstance(pend.get("player"), int):
        choice = t(f"mutations.choice.{pend.get('kind')}", lang)
        right = t("mutations.render.awaiting_choice", lang,
                  player=ic.player_name(view, pend["player"]), choice=choice)
        if pend.get("kind") == "dark" and pend.get("trait"):
            right += f" ({trait_name(pend['trait'], lang)})"
    elif ended:
        right = t("mutations.render.phase_over", lang)
    elif view.get("awaiting"):
        right = t("mutations.render.awaiting", lang,
                  players=ic.player_names(view, view["awaiting"]))
    else:
        right = None
    ic.caption_band(img, left, right, WIDTH, CAPTION_H, (640, 28, 16), (24, 13))


def _ranking(img: Image.Image, view: dict, lang: str) -> None:
    """The final scores in rank order, across the strip (game over)."""
    ic.ranking_strip(img, view, t("mutations.render.ranking", lang),
                     lambda rank: t("mutations.render.rank", lang, rank=rank), 18, WIDTH - 18,
                     STRIP_Y + STRIP_H / 2 + 1, (200, 18, 12), (17, 15, 17), 10, (16, 5))


def _strip(img: Image.Image, view: dict, lang: str) -> None:
    if view["over"] and view.get("result"):
        _ranking(img, view, lang)
        return
    cy = STRIP_Y + STRIP_H / 2 + 1
    word = t("mutations.render.centre", lang)
    size, word = ic.fit_size(word, 110, 18, True, 12)
    ic.text(img, 18, cy, word, size, True)
    x = 18 + ic.text_width(word, size, True) + 14
    centre = view.get("centre") or {}
    for kind in ("food", "burrows", "parasites"):
        if kind == "burrows":
            ic.paste(img, burrow_icon(20), x + 10, cy)
        else:
            ic.paste(img, ic.disc(FOOD_RED if kind == "food" else PARASITE, 10), x + 10, cy)
        s = str(centre.get(kind, 0))
        ic.text(img, x + 25, cy, s, 22, True, ic.INK)
        x += 25 + ic.text_width(s, 22, True) + 20
    # The dice rolled this turn.
    x += 10
    word = t("mutations.render.dice", lang)
    size, word = ic.fit_size(word, 90, 18, True, 12)
    ic.text(img, x, cy, word, size, True)
    x += ic.text_width(word, size, True) + 10
    dice = view.get("dice") or {}
    any_die = False
    for kind in ("food", "burrows", "parasites"):
        faces = list(dice.get(kind) or ())
        for f in faces[:8]:
            ic.paste(img, die_face(kind, int(f), 30), x + 15, cy)
            x += 34
            any_die = True
        if faces:
            x += 12
    if not any_die:
        word = t("mutations.render.no_dice", lang)
        size, word = ic.fit_size(word, 200, 16, False, 11)
        ic.text(img, x, cy, word, size, False, ic.LIGHT)
        x += ic.text_width(word, size) + 12
    # Right: main deck, cards out of the game, the box.
    right = WIDTH - 18
    supply = view.get("supply") or {}
    box = t("mutations.render.box", lang, burrows=supply.get("burrows", 0),
                parasites=supply.get("parasites", 0))
    removed = t("mutations.render.removed", lang, count=view.get("removed", 0))
    main = t("mutations.render.main", lang, count=view.get("main", 0))
    room = right - x - 40
    small = max(10, min(14, int(room / max(1.0, ic.text_width(box + removed, 14) / 14 + 30))))
    ic.text(img, right, cy + 10, box, small, False, ic.MUTED, "rm")
    ic.text(img, right, cy - 9, removed, small, False, ic.MUTED, "rm")
    right -= max(ic.text_width(box, small), ic.text_width(removed, small)) + 18
    size, main = ic.fit_size(main, max(40, right - x - 30), 20, True, 12)
    ic.text(img, right, cy, main, size, True, ic.INK, "rm")
    right -= ic.text_width(main, size, True) + 10
    ic.paste(img, card_back(18, 25), right - 12, cy)


def _identity(img: Image.Image, view: dict, k: int, lang: str, awaiting: set) -> None:
    pl = view["players"][k]
    x0, _, x1, _ = row_box(k)
    y0, y1 = 0, ROW_H - 1
    if k in awaiting:
        ic.awaited_frame(img, (x0, y0, x1, y1))
    size, name = ic.fit_size(pl["name"], ID_X1 - (x0 + 42) - 6, 20, True, 12)
    ic.text(img, x0 + 42, y0 + 22, name, size, True)
    y = y0 + 52
    if view.get("first") == k and not view["over"]:
        ic.first_chip(img, x0, y, t("mutations.render.first", lang), ID_X1 - x0 - 24)
    y += 30
    ic.paste(img, card_back(14, 20), x0 + 20, y)
    deck = t("mutations.render.deck", lang, count=pl.get("deck", 0))
    size, deck = ic.fit_size(deck, ID_X1 - x0 - 44, 17, True, 10)
    ic.text(img, x0 + 36, y, deck, size, True)
    y += 28
    if pl.get("passed") and shown_phase(view) == "development" and not view["over"]:
        word = t("mutations.render.passed", lang)
        size, word = ic.fit_size(word, ID_X1 - x0 - 24, 15, False, 10)
        ic.text(img, x0 + 14, y, word, size, False, ic.MUTED)


def _score(img: Image.Image, view: dict, k: int, lang: str, ranks: dict) -> None:
    pl = view["players"][k]
    sc = pl.get("score") or {}
    x0, _, x1, _ = score_box(k)
    y0 = 0
    cx = (x0 + x1) / 2
    total = sc.get("total", 0)
    if k in ranks:  # the final score
        heading = [(t("mutations.render.points", lang), 13, y0 + 16)]
    else:  # the animals now on the board count, also those that will starve
        heading = [(t("mutations.render.points_now", lang), 13, y0 + 12),
                   (t("mutations.render.points_note", lang), 11, y0 + 27)]
    for word, size, y in heading:
        size, word = ic.fit_size(word, SCORE_W - 8, size, False, 10)
        ic.text(img, cx, y, word, size, False, ic.MUTED, "mm")
    y = y0 + 50
    if k in ranks:
        rk = ranks[k]
        word = t("mutations.render.rank", lang, rank=rk)
        d = ImageDraw.Draw(img)
        w = ic.text_width(word, 16, True)
        d.rounded_rectangle((x0 + 8, y - 12, x0 + 20 + w, y + 12), radius=12,
                            fill=ic.AWAIT if rk == 1 else ic.ZEBRA)
        ic.text(img, x0 + 14, y, word, 16, True, ic.INK)
        ic.text(img, x1 - 10, y, str(total), 30, True, ic.INK, "rm")
    else:
        ic.text(img, cx, y, str(total), 32, True, ic.INK, "mm")
    lines = [t("mutations.render.score_animals", lang, count=sc.get("animals", 0)),
             t("mutations.render.score_traits", lang, count=sc.get("traits", 0)),
             t("mutations.render.score_bonus", lang, bonus=sc.get("bonus", 0))]
    if k in ranks:
        lines.append(t("mutations.render.lost", lang, count=pl.get("lost", 0)))
    y = y0 + 82
    for line in lines:
        size, line = ic.fit_size(line, SCORE_W - 10, 14, False, 9)
        ic.text(img, cx, y, line, size, False, ic.MUTED, "mm")
        y += 19


def _focus(view: dict) -> dict[int, tuple]:
    """Species the owed choice is about, with the colour of their frame."""
    pend = view.get("pending") or {}
    out: dict[int, tuple] = {}
    if not pend:
        return out
    kind = pend.get("kind")
    if kind in ("mimicry", "eat") and isinstance(pend.get("target"), int):
        out[pend["target"]] = TARGET
    elif kind in ("lose", "dark") and isinstance(pend.get("species"), int):
        out[pend["species"]] = TARGET if kind == "lose" else ic.AWAIT
    return out


def species_key(sp: dict) -> tuple:
    """What a species card shows, as a hashable key: number, parent, own and inherited
    traits, need, and each animal's (id, red, blue, burrow, parasites, attacked, fed)."""
    own = tuple(sp.get("traits") or ())
    every = tuple(sp.get("all_traits") or own)
    inherited = every[len(own):] if every[:len(own)] == own else tuple(
        x for x in every if x not in own)
    animals = tuple((int(a["id"]), int(a.get("red", 0)), int(a.get("blue", 0)),
                     bool(a.get("burrow")), int(a.get("parasites", 0)), bool(a.get("attacked")),
                     bool(a.get("fed"))) for a in (sp.get("animals") or ()))
    return (int(sp["id"]), sp.get("parent"), own, inherited, int(sp.get("need", 1)), animals)


@lru_cache(maxsize=1024)
def species_card(key: tuple, w: int, focus: tuple | None, lang: str) -> Image.Image:
    """One species card (RGB, ``w`` x ``ROW_H - 12``, on the row's white) for a
    ``species_key``: a green frame when every animal is fed, ``focus`` the frame of a species
    an owed choice is about; its number (and parent), trait chips, one line per animal. When
    they do not fit, the animals go in two columns, then everything is squeezed."""
    sid, parent, own, inherited, need, animals = key
    h = ROW_H - 12
    img = Image.new("RGB", (w, h), ic.CARD_BG)
    fed = bool(animals) and all(a[6] for a in animals)
    outline, width = (FED, 3) if fed else (ic.CARD_LINE, 1)
    if focus is not None:
        outline, width = focus, 4
    ImageDraw.Draw(img).rounded_rectangle((0, 0, w - 1, h - 1), radius=7, fill=ic.CARD_BG,
                                          outline=outline, width=width)
    small = 12 if w >= 90 else 10
    head = f"#{sid}"
    ic.text(img, SP_PAD, HEAD_H / 2 + 2, head, small, True, ic.MUTED)
    if parent is not None:
        hx = SP_PAD + ic.text_width(head, small, True) + 6
        ic.text(img, hx, HEAD_H / 2 + 2, f"↑#{parent}", small, False, ic.MUTED)
    chips = [(tr, False) for tr in own] + [(tr, True) for tr in inherited]
    inner_w = w - 2 * SP_PAD
    y = HEAD_H + 2
    room = h - 4 - y
    n_a = len(animals)
    cols = 1
    need_h = len(chips) * CHIP_STEP + n_a * LINE_STEP
    if need_h > room and n_a > 2 and inner_w >= 120:
        cols = 2
        need_h = len(chips) * CHIP_STEP + -(-n_a // cols) * LINE_STEP
    k = min(1.0, room / need_h) if need_h else 1.0
    chip_step, chip_h = CHIP_STEP * k, max(10, round(CHIP_H * k))
    line_step, line_h = LINE_STEP * k, max(10, round(LINE_H * k))
    for i, (tr, inh) in enumerate(chips):
        img.paste(trait_chip(tr, inner_w, chip_h, inh, lang), (SP_PAD, round(y + i * chip_step)))
    y += len(chips) * chip_step + (2 if chips else 0)
    lw = inner_w if cols == 1 else (inner_w - 4) // 2
    for i, (aid, red, blue, burrow, parasites, attacked, a_fed) in enumerate(animals):
        row, col = divmod(i, cols)
        sprite = animal_line(aid, red, blue, need, burrow, parasites, attacked, a_fed, lw,
                             line_h)
        img.paste(sprite, (SP_PAD + col * (lw + 4), round(y + row * line_step)))
    return img


def _row(img: Image.Image, view: dict, k: int, lang: str, focus: dict) -> None:
    pl = view["players"][k]
    y0 = 0
    row = pl.get("species") or ()
    if not row:
        word = t("mutations.render.no_species", lang)
        ic.text(img, SP_X0 + 10, y0 + ROW_H / 2, word, 16, False, ic.LIGHT)
        return
    for (x, w), sp in zip(species_slots(len(row)), row, strict=True):
        img.paste(species_card(species_key(sp), w, focus.get(sp["id"]), lang), (x, y0 + 6))


def _row_key(view: dict, k: int, awaiting: set, ranks: dict, focus: dict) -> tuple:
    """Everything seat ``k``'s row shows, as a hashable key."""
    pl = view["players"][k]
    over = bool(view["over"])
    sc = pl.get("score") or {}
    species = tuple(species_key(sp) for sp in (pl.get("species") or ()))
    return (k, pl["name"], view.get("first") == k and not over, pl.get("deck", 0),
            bool(pl.get("passed")) and shown_phase(view) == "development" and not over,
            k in awaiting, species, tuple(focus.get(sp[0]) for sp in species),
            tuple(sorted(sc.items())), ranks.get(k), pl.get("lost", 0) if k in ranks else None)


ROW_CACHE_SIZE = 256
_rows = ic.RowCache(ROW_CACHE_SIZE)


def row_sprite(view: dict, k: int, lang: str, awaiting: set, ranks: dict,
               focus: dict) -> Image.Image:
    """Seat ``k``'s row drawn (``WIDTH`` x ``ROW_H``), kept by what it shows (``_row_key``):
    between two pictures of a game most rows have not changed."""
    def draw() -> Image.Image:
        img = empty_row(k, lang).copy()
        _identity(img, view, k, lang, awaiting)
        _row(img, view, k, lang, focus)
        _score(img, view, k, lang, ranks)
        return img

    return _rows.get((_row_key(view, k, awaiting, ranks, focus), lang), draw)


def clear_row_cache() -> None:
    _rows.clear()


def draw_mutations(view: dict, lang: str = "en") -> Image.Image:
    """The table of ``view`` (``MUTATIONS.view``): an RGB image ``WIDTH`` x ``height_for``."""
    n = len(view["players"])
    img = background(n, lang).copy()
    _caption(img, view, lang)
    _strip(img, view, lang)
    awaiting = set(view.get("awaiting") or ()) \
        if not view["over"] and phase_ended(view) is None else set()
    ranks = {row["player"]: row["rank"] for row in (view.get("result") or ())} \
        if view["over"] else {}
    focus = _focus(view)
    for k in range(n):
        img.paste(row_sprite(view, k, lang, awaiting, ranks, focus), (0, row_box(k)[1]))
    return img


# --- encoding ------------------------------------------------------------------------------------

FLAT = [*ic.SHARED_FLAT, FOOD_RED, FOOD_BLUE, BURROW, PARASITE, FED, FED_SOFT, TRAIT_BG, TRAIT_LINE,
        DARK_BG, TARGET, HOLLOW, DIE_WHITE, ic.ZEBRA, (27, 94, 32), (27, 60, 30), (120, 144, 156),
        (69, 90, 100), *PLAYER_RGB]


@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """The fixed 256-colour palette of every Random Mutations picture: its flat colours
    exactly, then the in-between colours of a sample sheet drawn with the same sprites."""
    sheet = Image.new("RGB", (1400, 200), ic.BG)
    d = ImageDraw.Draw(sheet)
    d.rectangle((0, 0, 1400, 100), fill=ic.CARD_BG)
    for i, tr in enumerate(TRAITS):
        sheet.paste(trait_chip(tr, 140, CHIP_H, i % 3 == 0, "en"), (4 + (i % 8) * 150,
                                                                    4 + (i // 8) * 24))
    for i, (red, blue, need, fed) in enumerate(((1, 0, 2, False), (1, 1, 2, True),
                                                (0, 2, 3, False), (2, 1, 3, True))):
        sheet.paste(animal_line(10 + i, red, blue, need, i % 2 == 0, i, i == 2, fed, 136,
                                LINE_H), (4 + i * 150, 60))
    for p in range(len(PLAYER_RGB)):
        ic.paste(sheet, ic.seat_disc(p, 14), 20 + p * 40, 130)
    for i, kind in enumerate(DICE_RGB):
        for f in range(1, 7):
            ic.paste(sheet, die_face(kind, f, 30), 400 + (i * 6 + f) * 34, 130)
    ic.paste(sheet, card_back(18, 25), 360, 170)
    ic.paste(sheet, burrow_icon(20), 330, 170)
    grounds = ((ic.CARD_BG, (ic.INK, ic.MUTED, ic.LIGHT, FED, TARGET, PARASITE)),
               (ic.BG, (ic.INK, ic.MUTED, ic.LIGHT)), (FED_SOFT, (ic.INK, ic.MUTED, FED, TARGET)),
               (ic.CAPTION_BG, (ic.WHITE, ic.CAPTION_HI)), (ic.AWAIT_SOFT, (ic.INK,)),
               (ic.AWAIT, (ic.INK,)), (ic.ZEBRA, (ic.INK,)), (TRAIT_BG, (ic.INK,)),
               (DARK_BG, (ic.WHITE, ic.CAPTION_HI)))
    ic.ink_swatches(sheet, grounds, 1100, 1400, 100, 10, 11, 40)
    return ic.build_palette(FLAT, sheet)


# encode_png(image), render_mutations(view, lang) -> PNG bytes, bench_render(view, repeats, lang)
encode_png, render_mutations, bench_render = ic.png_functions(draw_mutations, board_palette)


def __getattr__(name: str):
    """The toolkit's names, read here as before it was split out (``INK``, ``text``...)."""
    return getattr(ic, name)
