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
``lang`` (English where a language lacks a key); a trait, zone or event without a name reads
as a readable form of its id.

The package, by what it draws: ``style`` (sizes, colours, names, places), ``sprites`` (icons,
badges, card backs, food and event cards), ``board`` (caption, climate track, strip, legend:
the table's top), ``species`` (the player rows and their species cards), ``hand`` (the
private hand image); this module puts them together, and holds the palette and encoding.
What every game's picture shares is ``images.common``'s (the renderer toolkit).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from images import common as ic
from images.climate import board, hand, species
from images.climate import sprites as spr
from images.climate import style as st

_PARTS = (board, species, hand, spr, st, ic)


def __getattr__(name: str):
    """The names callers read here (``images.climate.zone_name``...): the parts' and the
    toolkit's, as before the split."""
    for part in _PARTS:
        if hasattr(part, name):
            return getattr(part, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def clear_caches() -> None:
    """Forget every cached sprite, row and top (the output never depends on them)."""
    for cached in (board.background, board.zone_tile, spr.event_card, species.species_card,
                   species.trait_chip, spr.food_card, species.empty_row, hand.hand_card,
                   ic.seat_disc, st.trait_name, st.trait_short, st.zone_name, st.event_name,
                   st.phase_name, spr._wrap):
        cached.cache_clear()
    species._rows.clear()
    board._tops.clear()


def draw_climate(view: dict, lang: str = "en") -> Image.Image:
    """The table of ``view`` (``CLIMATE.view``): an RGB image ``WIDTH`` x ``height_for``."""
    n = len(view["players"])
    img = Image.new("RGB", (st.WIDTH, st.height_for(n)), ic.BG)
    img.paste(board.top_sprite(view, lang), (0, 0))
    over = bool(view["over"])
    awaiting = set(view.get("awaiting") or ()) \
        if not over and board.phase_ended(view) is None else set()
    result = {row["player"]: row for row in (view.get("result") or ())} if over else {}
    context = species._context(view)
    for k in range(n):
        img.paste(species.row_sprite(view, k, lang, awaiting, result, context),
                  (0, st.row_box(k)[1]))
    return img


# --- encoding ----------------------------------------------------------------------------------

FLAT = [*ic.SHARED_FLAT, ic.ZEBRA, st.BODY_RGB, st.POP_RGB, st.FOOD, st.FAT, st.FAT_LINE,
        st.HOLLOW, st.FED, st.TRAIT_BG, st.TRAIT_LINE, st.CARN_BG, st.GREEN_FRAME, st.BACK_BG,
        st.BACK_PAT, st.BACK_LINE, st.POND, st.POND_LINE, st.LEAF, st.LEAF_DARK, st.SUN,
        st.SUN_LINE, st.SNOW, st.VOLCANO, st.ROCK, st.BAG, st.COLD_BG, st.COLD_LINE, st.HOT_BG,
        st.HOT_LINE, st.NEGATED, *(g for g, _ in st.ZONE_RGB), *st.PLAYER_RGB]


@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """The fixed 256-colour palette of every Evolution: Climate picture: its flat colours
    exactly, then the in-between colours of a sample sheet drawn with the same sprites."""
    from engine.climate.data import GREEN, TRAITS, ZONES

    sheet = Image.new("RGB", (1400, 420), ic.BG)
    d = ImageDraw.Draw(sheet)
    d.rectangle((0, 0, 1400, 120), fill=ic.CARD_BG)
    for i, tr in enumerate(TRAITS):
        style = ("up", "own", "back")[i % 3] if i % 4 else "up"
        sheet.paste(species.trait_chip(tr, 150, st.CHIP_H, style, tr in GREEN, i == 5, "en"),
                    (4 + (i % 8) * 160, 4 + (i // 8) * 24))
    for i, z in enumerate(ZONES[:st.ZONES_N]):
        sheet.paste(board.zone_tile(z, i, i - 4, ("cold" if i < 4 else "heat", 1 + i % 4, (1, 4)),
                                    i == 4, "en"), (4 + i * 140, 124))
    for i, (ev, deck) in enumerate((("cold_snap", "cold"), ("volcanic_eruption", "hot"))):
        sheet.paste(spr.event_card(ev, deck, "cold" if i else None, st.ZONE_W, st.EVENT_H, "en"),
                    (4 + i * 140, 230))
    for i, tr in enumerate(("carnivore", "fat_tissue", "horns")):
        sheet.paste(hand.hand_card(tr, i - 1, i, 2 - i, tr in GREEN, "en"), (300 + i * 180, 230))
    for p in range(len(st.PLAYER_RGB)):
        ic.paste(sheet, ic.seat_disc(p, 14), 20 + p * 40, 300)
    for i, key in enumerate(((3, 1, 1), None)):
        sprite = spr.food_card(key, i, i == 1, False)
        sheet.paste(sprite, (20 + i * 50, 320), sprite)
    for i, sprite in enumerate((spr.pond(120, 58), spr.bag_icon(18), spr.volcano_icon(24),
                                spr.marker_icon(22), spr.badge(3, 26, "body"),
                                spr.badge(4, 26, "pop"), ic.disc(st.FOOD, 5),
                                ic.disc(st.FAT, 5, st.FAT_LINE), spr.deck_icon(16, 22))):
        ic.paste(sheet, sprite, 200 + i * 70, 380)
    grounds = ((ic.CARD_BG, (ic.INK, ic.MUTED, ic.LIGHT, st.FED, st.NEGATED, st.VOLCANO)),
               (ic.BG, (ic.INK, ic.MUTED, ic.LIGHT)), (ic.CAPTION_BG, (ic.WHITE, ic.CAPTION_HI)),
               (ic.AWAIT_SOFT, (ic.INK,)), (ic.AWAIT, (ic.INK,)), (ic.ZEBRA, (ic.INK,)),
               (st.TRAIT_BG, (ic.INK,)), (st.CARN_BG, (ic.WHITE,)), (st.BACK_BG, (ic.WHITE,)),
               (st.POND, (ic.WHITE,)), (st.COLD_BG, (ic.INK,)), (st.HOT_BG, (ic.INK,)),
               *((g, (ink,)) for g, ink in st.ZONE_RGB))
    ic.ink_swatches(sheet, grounds, 1100, 1400, 120, 10, 11, 40)
    return ic.build_palette(FLAT, sheet)


# encode_png(image), render_climate(view, lang) -> PNG bytes, bench_render(view, repeats, lang)
encode_png, render_climate, bench_render = ic.png_functions(draw_climate, board_palette)


def render_hand(view: dict, lang: str = "en") -> bytes:
    """The viewer's hand image as PNG bytes, to send to that player alone (ephemeral)."""
    return encode_png(hand.draw_hand(view, lang))
