"""Turn EVO engine events and errors into sentences from the catalogue."""

from __future__ import annotations

from engine.core import IllegalAction
from messages import common, has, t
from messages.common import WAITING, Event, Wording, named, refusal, who


def card_name(card: str, lang: str = "en") -> str:
    """A card's printed name; an unknown id is shown as it was given."""
    key = f"evo.card.{card}.name"
    return t(key, lang) if has(key) else str(card)


def gene_name(gene: str, lang: str = "en") -> str:
    key = f"evo.gene.{gene}"
    return t(key, lang) if has(key) else str(gene)


def _climate(e: Event) -> str:
    terrain = t(f"evo.terrain.{e['temperate']}", e.lang)
    if e.get("card") or e["die"] is None:
        return e.line("climate_card", player=e.who("by"), temperate=terrain)
    return e.line(player=e.who("by"), die=e["die"], temperate=terrain)


def _card_played(e: Event) -> str:
    params = e.get("params", {})
    if "target" in params:
        return e.line("card_played_target", player=e.who(), card=card_name(e["card"], e.lang),
                      target=who(e.names, params["target"]))
    return e.line(player=e.who(), card=card_name(e["card"], e.lang))


def _fight(e: Event) -> str:
    key = f"{'newborn_fight' if e.get('newborn') else 'fight'}_{'won' if e['won'] else 'lost'}"
    return e.line(key, player=e.who("attacker"), defender=e.who("defender"), region=e["region"],
                  die=e["die"], needed=e["needed"])


def _meteorite(e: Event) -> str:
    if e["die"] is not None:
        return e.line("meteorite_roll", square=e["square"], player=who(e.names, e.get("by", 0)),
                      die=e["die"], faces=", ".join(map(str, e["faces"])))
    return e.line(square=e["square"], last=e["last"])


def _bid(e: Event) -> str:
    gene = gene_name(e["gene"], e.lang)
    if e.get("outbid") is not None:
        return e.line("bid_outbid", player=e.who(), amount=e["amount"], gene=gene,
                      outbid=e.who("outbid"))
    return e.line(player=e.who(), amount=e["amount"], gene=gene)


def _points(e: Event) -> str:
    return e.line(gains=", ".join(f"{who(e.names, p)} +{g} ({e['totals'][p]})"
                                  for p, g in enumerate(e["gains"])))


EVENTS: dict[str, Wording] = {
    "game_start": lambda e: e.line(players=e["players"]),
    "turn": lambda e: e.line(turn=e["turn"], meteor=e["meteor"]),
    "phase": lambda e: e.line(phase=t(f"evo.phase.{e['phase']}", e.lang)),
    "initiative": lambda e: e.line(order=", ".join(who(e.names, p) for p in e["order"])),
    "climate": _climate,
    "window": None,  # the footer names who is still asked
    "window_answer": None,  # an answer stays secret
    "card_played": _card_played,
    "card_retrieved": lambda e: e.line(player=e.who(), card=card_name(e["card"], e.lang)),
    "move": lambda e: e.line(player=e.who(), src=e["from"], dst=e["to"]),
    "fight": _fight,
    "movement_end": None,
    "birth": lambda e: e.line(player=e.who(), region=e["region"]),
    "births_blocked": lambda e: e.line(player=e.who(), missed=e["missed"]),
    "newborn_replaced": lambda e: e.line(player=e.who(), victim=e.who("victim"),
                                         region=e["region"]),
    "death": lambda e: e.line(player=e.who(), region=e["region"],
                              cause=t(f"evo.cause.{e['cause']}", e.lang)),
    "choose_losses": lambda e: e.line(player=e.who(), cold=e["cold"], hot=e["hot"]),
    "points": _points,
    "points_lost": lambda e: e.line(player=e.who(), lost=e["lost"]),
    "deluge_roll": lambda e: e.line(region=e["region"], die=e["die"], total=e["total"],
                                    drowned=" ✝" if e["drowned"] else ""),
    "meteorite": _meteorite,
    "auction": lambda e: e.line(genes=", ".join(gene_name(g, e.lang) for g in e["genes"])),
    "bid": _bid,
    "bought": lambda e: e.line(player=e.who(), gene=gene_name(e["gene"], e.lang),
                               paid=e["paid"], bid=e["bid"]),
    "gene_returned": lambda e: e.line(gene=gene_name(e["gene"], e.lang)),
    "game_over": lambda e: e.ranking(e.line(reason=t(f"evo.reason.{e['reason']}", e.lang))),
}


def _other(e: Event) -> str:
    """Any other event: its sentence with its fields."""
    return e.line(player=e.who(), **{a: b for a, b in e.event.items() if a not in ("type", "player")})


def describe(event: dict, names: list[str], lang: str = "en") -> str | None:
    """One line for an event, or None for events that are not worth a line."""
    return common.describe("evo", EVENTS, event, names, lang, _other)


REFUSAL = {"waiting": WAITING, "card": named(card_name), "gene": named(gene_name)}


def explain(error: IllegalAction, names: list[str] | None = None, lang: str = "en") -> str:
    """The sentence for a refused action."""
    return refusal("evo", error, names, lang, REFUSAL, fallback=False)
