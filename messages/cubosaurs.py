"""Turn Cubosaurs engine events and errors into sentences from the catalogue."""

from __future__ import annotations

from engine.core import IllegalAction
from messages import common, has, t
from messages.common import SEAT, WAITING, Event, Wording, named, refusal, who, word

PARTS = ("trex", "stego", "bronto", "ptero", "penta", "raptors", "eggs", "tiles")


def card_label(cid: str, lang: str = "en") -> str:
    """A card as players tell it apart: its type, a raptor's value, an egg's species, DNA."""
    from engine.cubosaurs.data import card

    try:
        c = card(cid)
    except KeyError:
        return str(cid)
    if c.type == "egg":
        text = f"{t(f'cubosaurs.egg.{c.species}', lang)} (+{c.plus}/{c.minus})"
    elif c.type in ("grey", "black"):
        text = f"{t(f'cubosaurs.type.{c.type}', lang)} {c.value}"
    else:
        text = t(f"cubosaurs.type.{c.type}", lang)
    return text + (" 🧬" if c.dna else "")


def cards_label(cids, lang: str = "en") -> str:
    return ", ".join(card_label(c, lang) for c in cids) or "—"


def tile_name(tile: str, lang: str = "en") -> str:
    key = f"cubosaurs.tile.{tile}"
    return t(key, lang) if has(key) else str(tile)


def direction_word(direction: int, lang: str = "en") -> str:
    return t("cubosaurs.clockwise" if direction >= 0 else "cubosaurs.counterclockwise", lang)


def breakdown_parts(b: dict, lang: str = "en") -> str:
    """``T-Rex +4, Velociraptors -1...`` for the non-zero parts of a score breakdown."""
    parts = [f"{t(f'cubosaurs.score.{k}', lang)} {b[k]:+d}" for k in PARTS if b.get(k)]
    return ", ".join(parts) or "0"


def _pass(e: Event) -> str:
    cards, target = cards_label(e["cards"], e.lang), e.who("to")
    if e.get("card") is None:
        return e.line("pass_free", player=e.who(), cards=cards, target=target)
    return e.line(player=e.who(), card=card_label(e["card"], e.lang), cards=cards, target=target)


def _tile(e: Event) -> str | None:
    key = f"cubosaurs.event.tile_{e['tile']}"
    if t(key, e.lang) == key:
        return None  # end-of-round tiles and passes: the buy and pass lines say it
    params = {"player": e.who(), "target": e.who("target")}
    for field in ("card", "take"):
        if e.get(field) is not None:
            params[field] = card_label(e[field], e.lang)
    return t(key, e.lang, **params)


def _token(e: Event) -> str:
    if e.get("from") is None:
        return e.line(player=e.who(), count=e["count"])
    return e.line("token_from", player=e.who(), count=e["count"], source=e.who("from"))


def _round_end(e: Event) -> str:
    return "\n".join([e.line(round=e["round"])] + [
        e.line("score_line", player=who(e.names, p), total=b["total"],
               parts=breakdown_parts(b, e.lang)) for p, b in enumerate(e["scores"])])


EVENTS: dict[str, Wording] = {
    "round_start": lambda e: e.line(round=e["round"], rounds=e["rounds"], player=e.who("first"),
                                    direction=direction_word(e["direction"], e.lang),
                                    deck=e["deck"]),
    "start_cards": lambda e: e.line(player=e.who(), cards=cards_label(e["cards"], e.lang)),
    "draw": lambda e: e.line(player=e.who(), card=card_label(e["card"], e.lang)),
    "receive": None,  # the pass line already says it
    "keep": lambda e: e.line(player=e.who(), cards=cards_label(e["cards"], e.lang)),
    "pass": _pass,
    "buy": lambda e: e.line(player=e.who(), tile=tile_name(e["tile"], e.lang), cost=e["cost"]),
    "tile": _tile,
    "token": _token,
    "token_lost": lambda e: e.line(player=e.who(), count=e["count"]),
    "token_choice": lambda e: e.line(player=e.who()),
    "round_end": _round_end,
    "game_over": lambda e: e.ranking(e.line()),
}


def describe(event: dict, names: list[str], lang: str = "en") -> str | None:
    """One line for an event, or None for events that are not worth a line."""
    return common.describe("cubosaurs", EVENTS, event, names, lang)


REFUSAL = {"waiting": WAITING, "card": named(card_label), "take": named(card_label),
           "tile": word("cubosaurs.tile"), "type": word("cubosaurs.type"), "player": SEAT,
           "target": SEAT}


def explain(error: IllegalAction, names: list[str] | None = None, lang: str = "en") -> str:
    """The sentence for a refused action."""
    return refusal("cubosaurs", error, names, lang, REFUSAL, fallback=False)
