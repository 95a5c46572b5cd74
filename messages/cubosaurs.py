"""Turn Cubosaurs engine events and errors into sentences from the catalogue."""

from __future__ import annotations

from engine.core import IllegalAction
from messages import has, t

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


def _who(names: list[str], p) -> str:
    if isinstance(p, int) and 0 <= p < len(names):
        return names[p]
    return "?"


def breakdown_parts(b: dict, lang: str = "en") -> str:
    """``T-Rex +4, Velociraptors -1...`` for the non-zero parts of a score breakdown."""
    parts = [f"{t(f'cubosaurs.score.{k}', lang)} {b[k]:+d}" for k in PARTS if b.get(k)]
    return ", ".join(parts) or "0"


def describe(event: dict, names: list[str], lang: str = "en") -> str | None:
    """One line for an event, or None for events that are not worth a line."""
    kind = event["type"]
    who = _who(names, event.get("player"))
    k = f"cubosaurs.event.{kind}"
    if kind == "round_start":
        return t(k, lang, round=event["round"], rounds=event["rounds"],
                 player=_who(names, event["first"]),
                 direction=direction_word(event["direction"], lang), deck=event["deck"])
    if kind == "start_cards":
        return t(k, lang, player=who, cards=cards_label(event["cards"], lang))
    if kind == "draw":
        return t(k, lang, player=who, card=card_label(event["card"], lang))
    if kind == "receive":
        return None  # the pass line already says it
    if kind == "keep":
        return t(k, lang, player=who, cards=cards_label(event["cards"], lang))
    if kind == "pass":
        if event.get("card") is None:
            return t("cubosaurs.event.pass_free", lang, player=who,
                     cards=cards_label(event["cards"], lang), target=_who(names, event["to"]))
        return t(k, lang, player=who, card=card_label(event["card"], lang),
                 cards=cards_label(event["cards"], lang), target=_who(names, event["to"]))
    if kind == "buy":
        return t(k, lang, player=who, tile=tile_name(event["tile"], lang), cost=event["cost"])
    if kind == "tile":
        tile = event["tile"]
        key = f"cubosaurs.event.tile_{tile}"
        if t(key, lang) == key:
            return None  # end-of-round tiles and passes: the buy and pass lines say it
        params = {"player": who, "target": _who(names, event.get("target"))}
        for field in ("card", "take"):
            if event.get(field) is not None:
                params[field] = card_label(event[field], lang)
        return t(key, lang, **params)
    if kind == "token":
        if event.get("from") is None:
            return t(k, lang, player=who, count=event["count"])
        return t("cubosaurs.event.token_from", lang, player=who, count=event["count"],
                 source=_who(names, event["from"]))
    if kind == "token_lost":
        return t(k, lang, player=who, count=event["count"])
    if kind == "token_choice":
        return t(k, lang, player=who)
    if kind == "round_end":
        lines = [t(k, lang, round=event["round"])]
        for p, b in enumerate(event["scores"]):
            lines.append(t("cubosaurs.event.score_line", lang, player=_who(names, p),
                           total=b["total"], parts=breakdown_parts(b, lang)))
        return "\n".join(lines)
    if kind == "game_over":
        lines = [t(k, lang)]
        for row in event["ranking"]:
            lines.append(t("cubosaurs.event.ranking_line", lang, rank=row["rank"],
                           player=_who(names, row["player"]), score=row["score"],
                           last=row["last"]))
        return "\n".join(lines)
    return None


def _malformed(error: IllegalAction, lang: str) -> str | None:
    """The sentence for a malformed action (``bad_action`` with a ``reason``), or None."""
    reason = error.params.get("reason")
    key = f"cubosaurs.malformed.{reason}"
    if error.code != "bad_action" or not isinstance(reason, str) or not has(key):
        return None
    expected = error.params.get("expected")
    return t(key, lang, field=str(error.params.get("field")),
             expected=t(f"cubosaurs.malformed.expected.{expected}", lang))


def explain(error: IllegalAction, names: list[str] | None = None, lang: str = "en") -> str:
    """The sentence for a refused action."""
    malformed = _malformed(error, lang)
    if malformed is not None:
        return malformed
    params = dict(error.params)
    names = names or []
    if "waiting" in params:
        params["waiting"] = ", ".join(_who(names, p) for p in params["waiting"]) or "—"
    for field in ("card", "take"):
        if isinstance(params.get(field), str):
            params[field] = card_label(params[field], lang)
    if isinstance(params.get("tile"), str) and has(f"cubosaurs.tile.{params['tile']}"):
        params["tile"] = tile_name(params["tile"], lang)  # a real tile, not what was typed
    if isinstance(params.get("type"), str):
        params["type"] = t(f"cubosaurs.type.{params['type']}", lang)
    for field in ("player", "target"):
        if isinstance(params.get(field), int):
            params[field] = _who(names, params[field])
    return t(f"cubosaurs.error.{error.code}", lang, **params)
