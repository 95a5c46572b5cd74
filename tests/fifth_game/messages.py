"""The fifth game's events and refusals as sentences (its catalogue: catalogue/<lang>/)."""

from __future__ import annotations

from messages import t


def card_label(card: str, lang: str = "en") -> str:
    return t("fifth.card", lang, value=str(card)[1:])


def _who(names: list[str], p) -> str:
    return names[p] if isinstance(p, int) and 0 <= p < len(names) else "?"


def describe(event: dict, names: list[str], lang: str = "en") -> str | None:
    kind = event["type"]
    key = f"fifth.event.{kind}"
    if kind == "chosen":
        return t(key, lang, player=_who(names, event["player"]))
    if kind == "reveal":
        cards = ", ".join(f"{_who(names, p)} {card_label(c, lang)}"
                          for p, c in enumerate(event["cards"]))
        return t(key, lang, cards=cards, player=_who(names, event["winner"]),
                 points=event["points"])
    if kind == "round_start":
        return t(key, lang, round=event["round"])
    if kind == "game_over":
        rows = [t("fifth.rank_row", lang, rank=r["rank"], player=_who(names, r["player"]),
                  score=r["score"]) for r in event["ranking"]]
        return t(key, lang, ranking="\n".join(rows))
    return None


def explain(error, names: list[str] | None = None, lang: str = "en") -> str:
    params = dict(error.params)
    names = names or []
    if "waiting" in params:
        params["waiting"] = ", ".join(_who(names, p) for p in params["waiting"]) or "—"
    if isinstance(params.get("card"), str):
        params["card"] = card_label(params["card"], lang)
    return t(f"fifth.error.{error.code}", lang, **params)
