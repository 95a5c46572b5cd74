"""Turn Evolution: Climate engine events and refusals into sentences from the catalogue, and
label the menus of the table and of the private hand.

Species are named by their ids (``species #1001``), as the table image shows them; a trait
card is named by its trait, with its plant number and icons where they matter (a food card,
a card in the hand). Nothing here ever prints a trait card's id: public lines name only what
the table may see, and the hand's labels are sent privately.
"""

from __future__ import annotations

from functools import partial

from engine.climate.data import PLANTS, SNOWS, SUNS, TRAIT_OF
from engine.core import IllegalAction
from messages import common, has, t
from messages.common import SEAT, WAITING, Event, Wording, clauses, named, refusal, who, word

SUN = "☀"
SNOW = "❄"
LEAF = "🌿"


# --- names ---------------------------------------------------------------------------------------

def trait_name(trait, lang: str = "en") -> str:
    key = f"climate.trait.{trait}.name"
    return t(key, lang) if isinstance(trait, str) and has(key) else str(trait)


def traits_label(traits, lang: str = "en") -> str:
    return ", ".join(trait_name(x, lang) for x in traits) or t("climate.bot.no_traits", lang)


def card_trait(card) -> str | None:
    """The trait of a card id (``"carnivore-3"`` -> ``"carnivore"``), or None."""
    return TRAIT_OF.get(card) if isinstance(card, str) else None


def zone_name(zone, lang: str = "en") -> str:
    key = f"climate.zone.{zone}"
    return t(key, lang) if isinstance(zone, str) and has(key) else str(zone)


def event_name(event, lang: str = "en") -> str:
    key = f"climate.card_event.{event}"
    return t(key, lang) if isinstance(event, str) and has(key) else str(event)


def species_ref(sid, lang: str = "en") -> str:
    return t("climate.species_ref", lang, id=sid)


_owned = partial(common.species_of, "climate")  # (names, owner, species id, lang)


def icons(suns: int, snows: int) -> str:
    return SUN * max(0, suns) + SNOW * max(0, snows)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def card_label(info: dict, lang: str = "en") -> str:
    """A trait card with its leaf and icons: ``Carnivore · 🌿+3 ☀``."""
    mark = icons(info.get("suns", 0), info.get("snows", 0))
    return t("climate.bot.card", lang, trait=trait_name(info.get("trait"), lang),
             plants=f"{LEAF}{signed(info.get('plants', 0))}") + (f" {mark}" if mark else "")


def card_id_label(card: str, lang: str = "en") -> str:
    """The label of a card known by its id only (a hand card in an action)."""
    trait = card_trait(card)
    if trait is None:
        return str(card)
    return card_label({"trait": trait, "plants": PLANTS[card], "suns": SUNS[card],
                       "snows": SNOWS[card]}, lang)


def _face(traits: list[dict], lang: str) -> str:
    """A species' trait cards as its viewer sees them (the own face-down ones marked)."""
    out = []
    hidden = 0
    for x in traits:
        if x.get("trait") is None:
            hidden += 1
        elif x.get("down"):
            out.append(t("climate.bot.face_down", lang, trait=trait_name(x["trait"], lang)))
        else:
            out.append(trait_name(x["trait"], lang))
    if hidden:
        out.append(t("climate.bot.hidden_traits", lang, count=hidden))
    return ", ".join(out) or t("climate.bot.no_traits", lang)


def species_label(sp: dict, lang: str = "en") -> str:
    """``#1001 · body 2 · pop 3 · 1/3 food · Foraging, Carnivore``."""
    food = t("climate.bot.food_state", lang, food=sp["food"], pop=sp["pop"])
    if sp.get("fat"):
        food += t("climate.bot.fat_state", lang, fat=sp["fat"])
    return t("climate.bot.species", lang, id=sp["id"], body=sp["body"], pop=sp["pop"],
             food=food, traits=_face(sp.get("traits", []), lang))


def index(view: dict) -> dict:
    """``{species id: (owner, species)}`` of a view."""
    out = {}
    for p, pl in enumerate(view["players"]):
        for sp in pl["species"]:
            out[sp["id"]] = (p, sp)
    return out


def _short(view: dict, sid, lang: str, names: list[str] | None = None) -> str:
    """``#1001 (Carnivore, Ambush)``; with the owner when ``names`` is given."""
    found = index(view).get(sid)
    ref = f"#{sid}"
    if found is None:
        return ref
    owner, sp = found
    if names is not None:
        ref = t("climate.bot.species_owner", lang, player=who(names, owner), id=sid)
    up = [x["trait"] for x in sp["traits"] if x.get("trait") and not x.get("down")]
    return f"{ref} ({traits_label(up, lang)})" if up else ref


def action_label(action: dict, view: dict, names: list[str], lang: str = "en") -> str:
    """A legal action as a menu or the autocomplete shows it (hand cards by name: only ever
    shown to their holder)."""
    kind = action.get("type")
    card = action.get("card")
    if kind == "food":
        return card_id_label(card, lang)
    if kind == "trait":
        return t("climate.bot.option_trait", lang, card=trait_name(card_trait(card), lang),
                 species=_short(view, action["species"], lang))
    if kind == "species":
        return t(f"climate.bot.option_species_{action['side']}", lang,
                 card=trait_name(card_trait(card), lang))
    if kind == "grow":
        found = index(view).get(action["species"])
        now = found[1][action["what"]] if found else 0
        return t(f"climate.bot.option_grow_{action['what']}", lang,
                 card=trait_name(card_trait(card), lang),
                 species=_short(view, action["species"], lang), value=now + 1)
    if kind == "remove":
        return t("climate.bot.option_remove", lang, trait=trait_name(card_trait(card), lang),
                 species=f"#{action['species']}")
    if kind == "exchange":
        return t("climate.bot.option_exchange", lang, card=card_id_label(card, lang))
    if kind == "done":
        return t("climate.bot.btn_done", lang)
    if kind == "green":
        return t("climate.bot.option_green", lang, trait=trait_name(action["trait"], lang),
                 species=_short(view, action["species"], lang))
    if kind == "feed":
        found = index(view).get(action["species"])
        return species_label(found[1], lang) if found else species_ref(action["species"], lang)
    if kind == "attack":
        text = t("climate.bot.option_attack", lang,
                 species=_short(view, action["species"], lang),
                 target=_short(view, action["target"], lang, names))
        if action.get("ignore"):
            text += t("climate.bot.option_ignoring", lang, trait=trait_name(action["ignore"], lang))
        if action.get("discard"):
            text += t("climate.bot.option_discarding", lang,
                      card=trait_name(card_trait(action["discard"]), lang))
        return text
    if kind == "intelligence":
        return t("climate.bot.option_intelligence", lang,
                 card=trait_name(card_trait(card), lang),
                 species=_short(view, action["species"], lang))
    if kind == "negate":
        return t("climate.bot.option_negate", lang, card=trait_name(card_trait(card), lang),
                 trait=trait_name(action["trait"], lang),
                 species=_short(view, action["species"], lang))
    if kind == "pass":
        return t("climate.bot.btn_pass", lang)
    return str(kind)


# --- events --------------------------------------------------------------------------------------

def _food(food: str, count: int, lang: str) -> str:
    return t(f"climate.food.{food}_{'one' if count == 1 else 'many'}", lang, count=count)


def _counts(names: list[str], counts, lang: str) -> str:
    return ", ".join(t("climate.event.count_part", lang, player=who(names, p), count=c)
                     for p, c in enumerate(counts))


def _reveal(event: dict, lang: str) -> str:
    parts = []
    for sp in event.get("species", []):
        up = traits_label(sp.get("traits", []), lang)
        key = "climate.event.reveal_species_new" if sp.get("new") else "climate.event.reveal_species"
        parts.append(t(key, lang, id=sp["id"], body=sp["body"], pop=sp["pop"], traits=up,
                       new=sp.get("new", 0)))
    return "; ".join(parts) or t("climate.bot.no_species", lang)


def describe(event: dict, names: list[str], lang: str = "en") -> str | None:
    """One line for an event, or None for events not worth a line."""
    return _capital(common.describe("climate", EVENTS, event, names, lang), lang)


def _capital(line: str | None, lang: str) -> str | None:
    """A sentence that opens with a species ("l'espèce #1001 de Ada s'éteint") gets its
    capital (one that opens with a player's name keeps the name as it is)."""
    word = t("climate.species_ref", lang, id="").split("#")[0]
    if line and word and line.startswith(word):
        return line[0].upper() + line[1:]
    return line


def _sp(e: Event) -> str:
    """The event's species, with its owner's name (``player``)."""
    return _owned(e.names, e.get("player"), e.get("species"), e.lang)


def _ref(e: Event) -> str:
    return species_ref(e.get("species"), e.lang)


def _setup(e: Event) -> str:
    if e.get("events"):
        ups = [e.line("setup_up", event=event_name(x["event"], e.lang),
                      zone=zone_name(x["zone"], e.lang))
               for x in (e.get("up") or {}).values() if x]
        events = e.line("setup_events", cards="; ".join(ups) or "—")
    else:
        events = e.line("setup_no_events")
    return clauses(e.line(players=e["players"], player=e.who("first"),
                          zone=zone_name(e["zone"], e.lang), deck=e["deck"],
                          set_aside=e["set_aside"]),
                   events, e.get("quick") and e.line("setup_quick"))


def _new_species(e: Event) -> str:
    key = "new_species_deal" if e.get("reason") == "deal" \
        else f"new_species_{e.get('side', 'right')}"
    return e.line(key, player=e.who(), species=_sp(e))


def _deck_out(e: Event) -> str:
    refill = e.get("refill")
    key = f"deck_out_{refill}" if refill in ("set_aside", "discard") else "deck_out_empty"
    return clauses(e.line(key, deck=e["deck"]),
                   e.line("deck_out_next") if e.get("final_next")
                   else e.get("last") and e.line("deck_out_last"))


def _done(e: Event) -> str:
    if e.get("forced"):
        return e.line("done_forced", player=e.who())
    if e.get("returned"):
        return e.line("done_exchange", player=e.who(), count=e["returned"])
    return e.line(player=e.who())


def _green(e: Event) -> str | None:
    if e.get("trait") == "fat_tissue":
        return e.line("green_fat_tissue", species=_sp(e), moved=e.get("moved", 0))
    if e.get("trait") == "fertile":
        return e.line("green_fertile", species=_sp(e), pop=e.get("pop", 0))
    return None  # Long Neck: the plant it takes says it


def _take(e: Event) -> str:
    return clauses(e.line(f"take_{e.get('reason', 'feed')}", species=_sp(e),
                          food=_food(e["food"], e["count"], e.lang),
                          source=t(f"climate.source.{e['source']}", e.lang)),
                   e.get("fat") and e.line("take_fat", fat=e["fat"]))


def _food_reveal(e: Event) -> str:
    cards = [e.line("food_card", player=who(e.names, p), card=card_label(c, e.lang))
             for p, c in enumerate(e.get("cards", [])) if c]
    return clauses(e.line(cards="; ".join(cards) or "—", suns=e["suns"], snows=e["snows"]),
                   e.get("thaw") and e.line("food_reveal_thaw"))


def _climate(e: Event) -> str:
    if e["from"] == e["to"]:
        return e.line("climate_stays", zone=zone_name(e["to"], e.lang))
    return e.line(source=zone_name(e["from"], e.lang), target=zone_name(e["to"], e.lang))


def _event(e: Event) -> str:
    extra = f"event_{e['event']}"
    return clauses(e.line(event=event_name(e["event"], e.lang), zone=zone_name(e["zone"], e.lang)),
                   has(f"climate.event.{extra}")
                   and e.line(extra, effects=zone_name(e.get("effects"), e.lang),
                              target=zone_name(e.get("to"), e.lang)))


def _bagged(e: Event) -> str | None:
    return e.get("bagged") and e.line("bagged", count=e["bagged"])


def _plants(e: Event) -> str:
    if e.get("set_aside"):
        result = e.line("plants_set_aside", count=e["set_aside"])
    elif e.get("blocked"):
        result = e.line(f"plants_blocked_{e['blocked']}")
    elif e.get("removed"):
        result = e.line("plants_removed", count=e["removed"])
    elif e.get("added"):
        result = e.line("plants_added", count=e["added"])
    else:
        result = e.line("plants_none")
    return e.line(cards=signed(e["cards"]), zone=signed(e["zone"]), total=signed(e["total"]),
                  result=result, wh=e["wh"])


def _attack(e: Event) -> str:
    return clauses(e.line(species=_sp(e), target=_owned(e.names, e.get("owner"), e.get("target"),
                                                        e.lang)),
                   e.get("night") and e.line("attack_night"),
                   e.get("ignore") and e.line("attack_ignoring",
                                              trait=trait_name(e["ignore"], e.lang)),
                   e.get("negated") and e.line("attack_negated",
                                               traits=traits_label(e["negated"], e.lang)),
                   e.get("discarded") and e.line("attack_discarded", player=e.who()))


EVENTS: dict[str, Wording] = {
    "setup": _setup,
    "round_start": lambda e: e.line("round_start_last" if e.get("last") else None,
                                    round=e["round"], player=e.who("first")),
    "wildfire_plants": lambda e: e.line(count=e["count"], wh=e["wh"]),
    "new_species": _new_species,
    "deal": lambda e: e.line(counts=_counts(e.names, e["counts"], e.lang), deck=e["deck"]),
    "deck_out": _deck_out,
    "chosen": lambda e: e.line(f"chosen_{e.get('step', 'food')}", player=e.who()),
    "food_cards": lambda e: e.line(count=e["count"]),
    "play_start": lambda e: e.line("play_start_quick") if e.get("quick") else None,
    "play_turn": lambda e: e.line(player=e.who()),
    "trait": lambda e: e.line(player=e.who(), species=_ref(e)),
    "grow": lambda e: e.line(f"grow_{e['what']}", player=e.who(), species=_ref(e),
                             value=e["value"]),
    "remove": lambda e: clauses(e.line(player=e.who(), trait=trait_name(e["trait"], e.lang),
                                       species=_ref(e)),
                                e.get("fat") and e.line("remove_fat", fat=e["fat"])),
    "returned": lambda e: e.line(player=e.who(), count=e["count"]),
    "done": _done,
    "reveal": lambda e: e.line(player=e.who(), species=_reveal(e.event, e.lang),
                               discarded=e.get("discarded", 0), returned=e.get("returned", 0)),
    "flip": lambda e: e.line(species=_sp(e), traits=traits_label(e.get("traits", []), e.lang)),
    "phase_end": lambda e: e.line(phase=t(f"climate.phase.{e['phase']}", e.lang)),
    "green": _green,
    "take": _take,
    "food_reveal": _food_reveal,
    "climate": _climate,
    "event": _event,
    "shrink": lambda e: clauses(e.line(species=_sp(e), body=e["body"]), _bagged(e)),
    "loss": lambda e: clauses(e.line(f"loss_{e.get('cause', 'attack')}", species=_sp(e),
                                     lost=e["lost"], pop=e["pop"]), _bagged(e)),
    "extinct": lambda e: clauses(e.line(species=_sp(e)), e.get("drawn") and e.line(
        "extinct_drawn", player=e.who(), count=e["drawn"])),
    "plants": _plants,
    "event_up": lambda e: e.line(event=event_name(e["event"], e.lang),
                                 zone=zone_name(e["zone"], e.lang)),
    "feed_turn": None,  # the footer says whose turn it is
    "feed": None,  # the food taken says the rest
    "attack": _attack,
    "intelligence": lambda e: e.line(player=e.who(), species=_ref(e)),
    "negate": lambda e: e.line(player=e.who(), species=_ref(e),
                               trait=trait_name(e["trait"], e.lang)),
    "pass": lambda e: e.line(player=e.who()),
    "bags": lambda e: e.line(counts=_counts(e.names, e["counts"], e.lang), wh=e["wh"]),
    "volcano": lambda e: e.line(source=zone_name(e["from"], e.lang),
                                target=zone_name(e["to"], e.lang)),
    "game_over": lambda e: e.ranking(e.line()),
}


# --- refusals ------------------------------------------------------------------------------------

def _card(card: str, lang: str) -> str:
    """A card in a refusal: its trait."""
    trait = card_trait(card)
    return trait_name(trait, lang) if trait else card


def _blockers(blockers: list, lang: str, names: list[str]) -> str:
    return ", ".join(t("climate.error.blocker_body", lang) if b == "body" else trait_name(b, lang)
                     for b in blockers) or "—"


REFUSAL = {"waiting": WAITING, "player": SEAT, "species": named(species_ref, int),
           "target": named(species_ref, int), "card": named(_card), "trait": named(trait_name),
           "blockers": (list, _blockers), "what": word("climate.growth"),
           "side": word("climate.side"), "action": word("climate.action"),
           "phase": word("climate.phase")}


def explain(error: IllegalAction, names: list[str] | None = None, lang: str = "en") -> str:
    """The sentence for a refused action (sent privately to the player who tried it)."""
    return _capital(refusal("climate", error, names, lang, REFUSAL), lang)
