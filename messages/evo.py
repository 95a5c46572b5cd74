"""Turn EVO engine events and errors into sentences from the catalogue."""

from __future__ import annotations

from engine.core import IllegalAction
from messages import has, t


def card_name(card: str, lang: str = "en") -> str:
    """A card's printed name; an unknown id is shown as it was given."""
    key = f"evo.card.{card}.name"
    return t(key, lang) if has(key) else str(card)


def gene_name(gene: str, lang: str = "en") -> str:
    key = f"evo.gene.{gene}"
    return t(key, lang) if has(key) else str(gene)


def _who(names: list[str], p) -> str:
    if isinstance(p, int) and 0 <= p < len(names):
        return names[p]
    return "?"


def describe(event: dict, names: list[str], lang: str = "en") -> str | None:
    """One line for an event, or None for events that are not worth a line."""
    kind = event["type"]
    k = f"evo.event.{kind}"
    who = _who(names, event.get("player"))
    if kind == "game_start":
        return t(k, lang, players=event["players"])
    if kind == "turn":
        return t(k, lang, turn=event["turn"], meteor=event["meteor"])
    if kind == "phase":
        return t(k, lang, phase=t(f"evo.phase.{event['phase']}", lang))
    if kind == "initiative":
        return t(k, lang, order=", ".join(_who(names, p) for p in event["order"]))
    if kind == "climate":
        terrain = t(f"evo.terrain.{event['temperate']}", lang)
        if event.get("card") or event["die"] is None:
            return t("evo.event.climate_card", lang, player=_who(names, event.get("by")),
                     temperate=terrain)
        return t(k, lang, player=_who(names, event["by"]), die=event["die"], temperate=terrain)
    if kind in ("window", "window_answer"):
        return None  # the footer names who is still asked; an answer stays secret
    if kind == "card_played":
        params = event.get("params", {})
        if "target" in params:
            return t("evo.event.card_played_target", lang, player=who,
                     card=card_name(event["card"], lang), target=_who(names, params["target"]))
        return t(k, lang, player=who, card=card_name(event["card"], lang))
    if kind == "card_retrieved":
        return t(k, lang, player=who, card=card_name(event["card"], lang))
    if kind == "move":
        return t(k, lang, player=who, src=event["from"], dst=event["to"])
    if kind == "fight":
        prefix = "newborn_fight" if event.get("newborn") else "fight"
        suffix = "won" if event["won"] else "lost"
        return t(f"evo.event.{prefix}_{suffix}", lang, player=_who(names, event["attacker"]),
                 defender=_who(names, event["defender"]), region=event["region"],
                 die=event["die"], needed=event["needed"])
    if kind == "movement_end":
        return None
    if kind in ("birth",):
        return t(k, lang, player=who, region=event["region"])
    if kind == "births_blocked":
        return t(k, lang, player=who, missed=event["missed"])
    if kind == "newborn_replaced":
        return t(k, lang, player=who, victim=_who(names, event["victim"]), region=event["region"])
    if kind == "death":
        return t(k, lang, player=who, region=event["region"],
                 cause=t(f"evo.cause.{event['cause']}", lang))
    if kind == "choose_losses":
        return t(k, lang, player=who, cold=event["cold"], hot=event["hot"])
    if kind == "points":
        gains = ", ".join(f"{_who(names, p)} +{g} ({event['totals'][p]})"
                          for p, g in enumerate(event["gains"]))
        return t(k, lang, gains=gains)
    if kind == "points_lost":
        return t(k, lang, player=who, lost=event["lost"])
    if kind == "deluge_roll":
        return t(k, lang, region=event["region"], die=event["die"], total=event["total"],
                 drowned=" ✝" if event["drowned"] else "")
    if kind == "meteorite":
        if event["die"] is not None:
            return t("evo.event.meteorite_roll", lang, square=event["square"],
                     player=_who(names, event.get("by", 0)), die=event["die"],
                     faces=", ".join(map(str, event["faces"])))
        return t(k, lang, square=event["square"], last=event["last"])
    if kind == "auction":
        return t(k, lang, genes=", ".join(gene_name(g, lang) for g in event["genes"]))
    if kind == "bid":
        if event.get("outbid") is not None:
            return t("evo.event.bid_outbid", lang, player=who, amount=event["amount"],
                     gene=gene_name(event["gene"], lang), outbid=_who(names, event["outbid"]))
        return t(k, lang, player=who, amount=event["amount"], gene=gene_name(event["gene"], lang))
    if kind == "bought":
        return t(k, lang, player=who, gene=gene_name(event["gene"], lang), paid=event["paid"],
                 bid=event["bid"])
    if kind == "gene_returned":
        return t(k, lang, gene=gene_name(event["gene"], lang))
    if kind == "game_over":
        lines = [t(k, lang, reason=t(f"evo.reason.{event['reason']}", lang))]
        for row in event["ranking"]:
            lines.append(t("evo.event.ranking_line", lang, rank=row["rank"],
                           player=_who(names, row["player"]), score=row["score"],
                           dinos=row["dinos"]))
        return "\n".join(lines)
    return t(k, lang, player=who, **{a: b for a, b in event.items() if a not in ("type", "player")})


def _malformed(error: IllegalAction, lang: str) -> str | None:
    """The sentence for a malformed action (``bad_action`` with a ``reason``), or None."""
    reason = error.params.get("reason")
    key = f"evo.malformed.{reason}"
    if error.code != "bad_action" or not isinstance(reason, str) or not has(key):
        return None
    expected = error.params.get("expected")
    return t(key, lang, field=str(error.params.get("field")),
             expected=t(f"evo.malformed.expected.{expected}", lang))


def explain(error: IllegalAction, names: list[str] | None = None, lang: str = "en") -> str:
    """The sentence for a refused action."""
    malformed = _malformed(error, lang)
    if malformed is not None:
        return malformed
    params = dict(error.params)
    names = names or []
    if "waiting" in params:
        params["waiting"] = ", ".join(_who(names, p) for p in params["waiting"]) or "—"
    if "card" in params and isinstance(params["card"], str):
        params["card"] = card_name(params["card"], lang)
    if "gene" in params and isinstance(params["gene"], str):
        params["gene"] = gene_name(params["gene"], lang)
    return t(f"evo.error.{error.code}", lang, **params)
