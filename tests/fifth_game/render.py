"""The fifth game's pictures: the table (scores, who has played, the last cards revealed) and
a player's own hand, drawn with ``images.common``."""

from __future__ import annotations

from PIL import Image, ImageDraw

from images import common as C
from messages import t

W, ROW = 640, 56
_PALETTE = None


def _palette() -> Image.Image:
    global _PALETTE
    if _PALETTE is None:
        sheet = Image.new("RGB", (64, 64), C.BG)
        _PALETTE = C.build_palette(C.SHARED_FLAT + C.SEAT_RGB, sheet)
    return _PALETTE


def _canvas(rows: int, caption: str, right: str | None) -> Image.Image:
    img = Image.new("RGB", (W, 60 + ROW * rows + 16), C.BG)
    img.paste(C.CAPTION_BG, (0, 0, W, 50))
    C.caption_band(img, caption, right, W, 50, (W - 220, 22, 14), (18, 12))
    return img


def render_fifth(view: dict, lang: str = "en") -> bytes:
    """The public table: a row per seat (seat disc, name, score, cards left, played or not)
    and the cards revealed last."""
    over = view["result"] is not None
    caption = (t("fifth.img.over", lang) if over
               else t("fifth.img.round", lang, round=view["round"]))
    right = C.player_names(view, C.winners(view["result"]) if over else view["awaiting"])
    img = _canvas(len(view["players"]), caption, right or None)
    for p, row in enumerate(view["players"]):
        y = 60 + p * ROW + ROW // 2
        C.paste(img, C.seat_disc(p, 16), 30, y)
        C.text(img, 60, y, C.fit_to(row["name"], 20, True, 220), 20, True)
        C.text(img, 300, y, t("fifth.img.score", lang, score=row["score"]), 18)
        C.text(img, 420, y, t("fifth.img.cards", lang, count=row["cards"]), 16, fill=C.MUTED)
        if view["last"]:
            C.text(img, W - 30, y, str(view["last"][p])[1:], 22, True, anchor="rm")
    return C.encode_with_palette(img, _palette())


def render_hand(view: dict, lang: str = "en") -> bytes:
    """The viewer's own cards (``view`` as that seat sees it), for them alone."""
    me = view["players"][view["viewer"]]
    img = _canvas(1, t("fifth.img.hand", lang), None)
    for k, card in enumerate(me["hand"] or []):
        x = 30 + k * 90
        C.rounded(ImageDraw.Draw(img), (x, 66, x + 70, 66 + ROW - 10))
        C.text(img, x + 35, 66 + (ROW - 10) / 2, str(card)[1:], 22, True, anchor="mm")
    return C.encode_with_palette(img, _palette())

