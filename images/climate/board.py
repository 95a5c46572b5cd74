"""Evolution: Climate's table top: the caption bar, the climate track (the nine zone tiles
with their loss and plants, the marker, the event cards under their zones, a Cold Snap or
Heat Wave's zone framed, the volcano), the strip (the Watering Hole, the food cards, the
icons revealed, the Thaw, the notes, the decks; at the end the final ranking) and the legend.
The top is kept by what it shows (``top_sprite``)."""

from __future__ import annotations

import json
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.climate.data import SHIFT, THAW_SUNS
from images import common as ic
from images.climate import sprites as spr
from images.climate import style as st
from messages import t


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
    ground, ink = st.ZONE_RGB[i % len(st.ZONE_RGB)]
    im = Image.new("RGB", (st.ZONE_W, st.ZONE_H), ic.BG)
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, st.ZONE_W - 1, st.ZONE_H - 1), radius=8, fill=ground,
                        outline=ic.INK if marked else ic.CARD_LINE, width=5 if marked else 1)
    size, name = ic.fit_size(st.zone_name(zone, lang), st.ZONE_W - 16, 16, True, 10)
    ic.text(im, st.ZONE_W / 2, 17, name, size, True, ink, "mm")
    cy = 48
    cause, icons, (low, high) = loss if loss else (None, 0, (1, 6))
    if icons and cause in ("cold", "heat"):
        sz = 16
        body = f"{low}–{high}" if low != high else str(low)
        bw = ic.text_width(body, 14, True)
        total = icons * (sz + 1) + 6 + 14 + 3 + bw
        x = (st.ZONE_W - total) / 2
        x = spr._icons(im, x, cy, icons if cause == "heat" else 0, icons if cause == "cold" else 0,
                       sz, None, ic.WHITE if ink == ic.WHITE else st.SNOW)
        x += 6
        ic.paste(im, spr.badge_plain(14), x + 7, cy)
        ic.text(im, x + 17, cy, body, 14, True, ink)
    else:
        word = t("climate.render.no_loss", lang)
        size, word = ic.fit_size(word, st.ZONE_W - 16, 13, False, 9)
        ic.text(im, st.ZONE_W / 2, cy, word, size, False, ink, "mm")
    s = ic.signed(plants)
    w = 24 + 4 + ic.text_width(s, 19, True)
    x = (st.ZONE_W - w) / 2
    ic.paste(im, spr.leaf_icon(24), x + 12, 78)
    ic.text(im, x + 28, 78, s, 19, True, ink)
    if marked:
        ic.paste(im, spr.marker_icon(22), st.ZONE_W - 17, st.ZONE_H - 17)
    return im


@lru_cache(maxsize=32)
def background(zones: tuple, plants: tuple, loss: tuple, events: bool,
               lang: str) -> Image.Image:
    """The top of the table that stays put during a game (cached; ``WIDTH`` x ``ROWS_Y``):
    the caption bar, the nine zone tiles of this board side, the strip's panel, the legend."""
    img = Image.new("RGB", (st.WIDTH, st.ROWS_Y), ic.BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, st.WIDTH, st.CAPTION_H - 1), fill=ic.CAPTION_BG)
    for i, zone in enumerate(zones[:st.ZONES_N]):
        tile = zone_tile(zone, i, plants[i] if i < len(plants) else 0,
                         loss[i] if i < len(loss) else None, False, lang)
        img.paste(tile, st.zone_box(i)[:2])
    if not events:
        word = t("climate.render.no_events", lang)
        ic.text(img, st.WIDTH / 2, st.EVENT_Y + st.EVENT_H / 2, word, 15, False, ic.MUTED, "mm")
    ic.rounded(d, st.strip_box())
    _legend(img, lang)
    return img


def _legend(img: Image.Image, lang: str) -> None:
    cy = st.LEGEND_Y + st.LEGEND_H / 2
    x = st.MARGIN + 8
    items = (
        (spr.badge(3, 20, "body"), "climate.render.legend_body"),
        (spr.badge(4, 20, "pop"), "climate.render.legend_pop"),
        (ic.disc(st.FOOD, 6), "climate.render.legend_food"),
        (ic.disc(st.FAT, 6, st.FAT_LINE), "climate.render.legend_fat"),
        (spr.card_back(30, 18), "climate.render.legend_down"),
        (_green_sample(), "climate.render.legend_green"),
    )
    room = st.WIDTH - st.MARGIN - 8 - x
    words = [t(key, lang) for _, key in items]
    size = 14
    while size > 10 and sum(s.size[0] + 6 + ic.text_width(w, size) + 22 for (s, _), w
                            in zip(items, words, strict=True)) > room:
        size -= 1
    for (sprite, _), word in zip(items, words, strict=True):
        ic.paste(img, sprite, x + sprite.size[0] / 2, cy)
        x += sprite.size[0] + 6
        word = ic.fit_to(word, size, False, max(20.0, st.WIDTH - st.MARGIN - x))
        ic.text(img, x, cy, word, size, False, ic.MUTED)
        x += ic.text_width(word, size) + 22


@lru_cache(maxsize=1)
def _green_sample() -> Image.Image:
    im = Image.new("RGBA", (30, 18), (0, 0, 0, 0))
    ImageDraw.Draw(im).rounded_rectangle((0, 0, 29, 17), radius=4, fill=st.TRAIT_BG,
                                         outline=st.GREEN_FRAME, width=3)
    return im


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
        left = t("climate.render.game_over", lang)
    else:
        left = t("climate.render.caption", lang, round=view.get("round", 1),
                     phase=st.phase_name(ended or view.get("phase", ""), lang))
        if view.get("last"):
            left += " · " + t("climate.render.last_round", lang)
        elif view.get("final_next"):
            left += " · " + t("climate.render.final_next", lang)
    if (view.get("options") or {}).get("quick"):
        left += " · " + t("climate.render.quick", lang)
    if view["over"] and view.get("result"):
        right = t("climate.render.winner", lang,
                  players=ic.player_names(view, ic.winners(view["result"])))
    elif ended:
        right = t("climate.render.phase_over", lang)
    elif view.get("awaiting") and not view["over"]:
        right = t("climate.render.awaiting", lang,
                  players=ic.player_names(view, view["awaiting"]))
    else:
        right = None
    ic.caption_band(img, left, right, st.WIDTH, st.CAPTION_H, (700, 26, 15), (22, 12))


def _band(img: Image.Image, view: dict, lang: str) -> None:
    """The marker's zone, the volcano's destination and the event cards under their zones."""
    cl = view.get("climate") or {}
    zones = tuple(cl.get("zones") or ())
    idx = {z: i for i, z in enumerate(zones)}
    i = cl.get("index")
    plants = cl.get("plants") or ()
    loss = _loss_rows(view)
    if isinstance(i, int) and 0 <= i < min(len(zones), st.ZONES_N):
        tile = zone_tile(zones[i], i, plants[i] if i < len(plants) else 0,
                         loss[i] if i < len(loss) else None, True, lang)
        img.paste(tile, st.zone_box(i)[:2])
    ev = view.get("events") or {}
    effects = effects_zone(view)
    if effects is not None and effects < st.ZONES_N:  # a Cold Snap / Heat Wave's zone this round
        cold = (ev.get("fired") or {}).get("deck") == "cold"
        x0, y0, x1, y1 = st.zone_box(effects)
        d = ImageDraw.Draw(img)  # a white frame in a black one: seen on every zone's colour
        d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 2, y1 + 2), radius=10, outline=ic.INK, width=7)
        d.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=8, outline=ic.WHITE, width=3)
        ink = st.ZONE_RGB[effects % len(st.ZONE_RGB)][1]
        icon = spr.snow_icon(20, ic.WHITE if ink == ic.WHITE else st.SNOW) if cold \
            else spr.sun_icon(20)
        ic.paste(img, icon, x0 + 17, y1 - 17)
    volcano = ev.get("volcano")
    if volcano in idx and idx[volcano] < st.ZONES_N:
        x0, y0, _, y1 = st.zone_box(idx[volcano])
        ic.paste(img, spr.volcano_icon(24), x0 + 17, y1 - 17)
    for deck in ("cold", "hot"):
        up = (ev.get(deck) or {}).get("up")
        if up and up.get("zone") in idx and idx[up["zone"]] < st.ZONES_N:
            x0, y0, _, _ = st.event_box(idx[up["zone"]])
            img.paste(spr.event_card(up.get("event", ""), up.get("deck", deck), up.get("to"),
                                     st.ZONE_W, st.EVENT_H, lang), (x0, y0))


def _strip(img: Image.Image, view: dict, lang: str) -> None:
    """The Watering Hole, the food cards, the icons revealed, the Thaw, the notes, the
    decks; at the end the final ranking instead."""
    if view["over"] and view.get("result"):
        _ranking(img, view, lang)
        return
    x0, y0, x1, y1 = st.strip_box()
    viewer = view.get("viewer")
    word = t("climate.render.watering_hole", lang)
    size, word = ic.fit_size(word, 120, 14, True, 10)
    ic.text(img, x0 + 70, y0 + 14, word, size, True, ic.INK, "mm")
    ic.paste(img, spr.pond(120, 58), x0 + 70, y0 + 57)
    ic.text(img, x0 + 70, y0 + 57, str(view.get("watering_hole", 0)), 28, True, ic.WHITE, "mm")
    # The food cards, one place per seat.
    x = x0 + 146
    cards = view.get("food_cards") or ()
    word = t("climate.render.food_cards", lang)
    width = max(st.FOOD_STEP * max(1, len(cards)) - 10, 90)
    size, word = ic.fit_size(word, width, 14, True, 10)
    ic.text(img, x, y0 + 14, word, size, True)
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
        sprite = spr.food_card(key, p, down, own)
        img.paste(sprite, (x + p * st.FOOD_STEP - 6, y0 + 30 - 6), sprite)
    x += max(st.FOOD_STEP * len(cards), 90) + 6
    # The icons of the revealed food cards (and a Thaw).
    if view.get("suns") is not None:
        for k, (sprite, n) in enumerate(((spr.sun_icon(22), view.get("suns") or 0),
                                         (spr.snow_icon(22), view.get("snows") or 0))):
            cy = y0 + 36 + k * 30
            ic.paste(img, sprite, x + 11, cy)
            ic.text(img, x + 27, cy, str(n), 20, True)
        x += 72
    ev = view.get("events") or {}
    if ev.get("thaw"):
        th = ev["thaw"]
        card = spr.event_card(th.get("event", "thaw"), th.get("deck", "cold"), None, 100, 58, lang,
                              THAW_SUNS)
        img.paste(card, (x, y0 + 30))
        x += 110
    # Notes: the volcano's destination, Meteor, Wildfire, the Thaw, this round's event.
    notes = []
    if ev.get("volcano"):
        notes.append((t("climate.render.volcano", lang,
                            zone=st.zone_name(ev["volcano"], lang)), st.VOLCANO))
    if ev.get("meteor"):
        notes.append((t("climate.render.meteor", lang), st.NEGATED))
    if ev.get("wildfire"):
        notes.append((t("climate.render.wildfire", lang, count=ev["wildfire"]), st.NEGATED))
    if ev.get("thaw"):
        notes.append((t("climate.render.thaw", lang), ic.INK))
    fired = ev.get("fired")
    effects = effects_zone(view)
    zones = (view.get("climate") or {}).get("zones") or ()
    if fired and effects is not None:
        notes.append((t("climate.render.fired_effects", lang,
                            event=st.event_name(fired.get("event", ""), lang),
                            zone=st.zone_name(zones[effects], lang)), ic.INK))
    elif fired and fired.get("event") not in ("thaw", "volcanic_eruption"):
        notes.append((t("climate.render.fired", lang,
                            event=st.event_name(fired.get("event", ""), lang)), ic.INK))
    room = st.DECKS_X - 14 - x
    if notes and room > 40:
        notes = notes[:3]
        step = 26 if len(notes) < 3 else 25
        y = y0 + st.STRIP_H / 2 - (len(notes) - 1) * step / 2
        for k, (note, ink) in enumerate(notes):
            size, note = ic.fit_size(note, room, 15, False, 11)
            ic.text(img, x, y + k * step, note, size, False, ink)
    _decks(img, view, lang)


def _decks(img: Image.Image, view: dict, lang: str) -> None:
    _, y0, x1, _ = st.strip_box()
    x = st.DECKS_X
    room = x1 - 12 - x
    ic.paste(img, spr.deck_icon(16, 22), x + 10, y0 + 22)
    deck = t("climate.render.deck", lang, count=view.get("deck", 0))
    size, deck = ic.fit_size(deck, room - 28, 17, True, 11)
    ic.text(img, x + 26, y0 + 22, deck, size, True)
    line = " · ".join((t("climate.render.set_aside", lang, count=view.get("set_aside", 0)),
                       t("climate.render.discard", lang, count=view.get("discard", 0))))
    size, line = ic.fit_size(line, room, 14, False, 10)
    ic.text(img, x, y0 + 49, line, size, False, ic.MUTED)
    if (view.get("options") or {}).get("events", True):
        ev = view.get("events") or {}
        word = t("climate.render.event_decks", lang)
        size, word = ic.fit_size(word, room - 110, 14, False, 10)
        ic.text(img, x, y0 + 75, word, size, False, ic.MUTED)
        xx = x + ic.text_width(word, size) + 8
        for sprite, n in ((spr.snow_icon(16), (ev.get("cold") or {}).get("deck", 0)),
                          (spr.sun_icon(16), (ev.get("hot") or {}).get("deck", 0))):
            ic.paste(img, sprite, xx + 8, y0 + 75)
            ic.text(img, xx + 19, y0 + 75, str(n), 15, True)
            xx += 19 + ic.text_width(str(n), 15, True) + 10


def _ranking(img: Image.Image, view: dict, lang: str) -> None:
    """The final scores in rank order, across the strip (game over)."""
    x0, y0, x1, y1 = st.strip_box()
    ic.ranking_strip(img, view, t("climate.render.ranking", lang),
                     lambda rank: t("climate.render.rank", lang, rank=rank), x0 + 14, x1 - 10,
                     (y0 + y1) / 2, (190, 20, 12), (18, 16, 20), 11, (18, 6))


# What the top of the table (caption, climate band, strip) is drawn from.
TOP_FIELDS = ("over", "round", "phase", "last", "final_next", "options", "awaiting", "result",
              "climate", "events", "watering_hole", "food_cards", "viewer", "suns", "snows",
              "deck", "set_aside", "discard")


TOP_CACHE_SIZE = 16


_tops = ic.RowCache(TOP_CACHE_SIZE)


def top_sprite(view: dict, lang: str) -> Image.Image:
    """The top of the table (``WIDTH`` x ``ROWS_Y``): caption, climate band, strip, legend,
    kept by what it shows (the view's fields it reads and the players' names)."""
    key = (json.dumps({f: view.get(f) for f in TOP_FIELDS}, sort_keys=True),
           tuple(pl.get("name") for pl in view["players"]), phase_ended(view), lang)

    def draw() -> Image.Image:
        cl = view.get("climate") or {}
        img = background(tuple(cl.get("zones") or ()), tuple(cl.get("plants") or ()),
                         _loss_rows(view), bool((view.get("options") or {}).get("events", True)),
                         lang).copy()
        _caption(img, view, lang)
        _band(img, view, lang)
        _strip(img, view, lang)
        return img

    return _tops.get(key, draw)
