"""Turn Evolution: Climate engine events and refusals into sentences from the catalogue, and
label the menus of the table and of the private hand.

Species are named by their ids (``species #1001``), as the table image shows them; a trait
card is named by its trait, with its plant number and icons where they matter (a food card,
a card in the hand). Nothing here ever prints a trait card's id: public lines name only what
the table may see, and the hand's labels are sent privately.
"""

from __future__ import annotations

from engine.climate.data import PLANTS, SNOWS, SUNS, TRAIT_OF
from engine.core import IllegalAction
from messages import has, t

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


def _who(names: list[str], p) -> str:
    if isinstance(p, int) and 0 <= p < len(names):
        return names[p]
    return "?"


def _owned(names: list[str], owner, sid, lang: str) -> str:
    if isinstance(owner, int) and 0 <= owner < len(names):
        return t("climate.species_of", lang, player=names[owner], id=sid)
    return species_ref(sid, lang)


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
        ref = t("climate.bot.species_owner", lang, player=_who(names, owner), id=sid)
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
    return ", ".join(t("climate.event.count_part", lang, player=_who(names, p), count=c)
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
    return _capital(_describe(event, names, lang), lang)


def _capital(line: str | None, lang: str) -> str | None:
    """A sentence that opens with a species ("l'espèce #1001 de Ada s'éteint") gets its
    capital (one that opens with a player's name keeps the name as it is)."""
    word = t("climate.species_ref", lang, id="").split("#")[0]
    if line and word and line.startswith(word):
        return line[0].upper() + line[1:]
    return line


def _describe(event: dict, names: list[str], lang: str = "en") -> str | None:
    kind = event.get("type")
    who = _who(names, event.get("player"))
    k = f"climate.event.{kind}"
    sid = event.get("species")
    sp = _owned(names, event.get("player"), sid, lang)
    if kind == "setup":
        line = t(k, lang, players=event["players"], player=_who(names, event["first"]),
                 zone=zone_name(event["zone"], lang), deck=event["deck"],
                 set_aside=event["set_aside"])
        if event.get("events"):
            ups = [t("climate.event.setup_up", lang, event=event_name(e["event"], lang),
                     zone=zone_name(e["zone"], lang))
                   for e in (event.get("up") or {}).values() if e]
            line += " " + t("climate.event.setup_events", lang, cards="; ".join(ups) or "—")
        else:
            line += " " + t("climate.event.setup_no_events", lang)
        if event.get("quick"):
            line += " " + t("climate.event.setup_quick", lang)
        return line
    if kind == "round_start":
        key = "climate.event.round_start_last" if event.get("last") else k
        return t(key, lang, round=event["round"], player=_who(names, event["first"]))
    if kind == "wildfire_plants":
        return t(k, lang, count=event["count"], wh=event["wh"])
    if kind == "new_species":
        if event.get("reason") == "deal":
            return t("climate.event.new_species_deal", lang, player=who, species=sp)
        return t(f"climate.event.new_species_{event.get('side', 'right')}", lang, player=who,
                 species=sp)
    if kind == "deal":
        return t(k, lang, counts=_counts(names, event["counts"], lang), deck=event["deck"])
    if kind == "deck_out":
        refill = event.get("refill")
        key = f"climate.event.deck_out_{refill}" if refill in ("set_aside", "discard") \
            else "climate.event.deck_out_empty"
        line = t(key, lang, deck=event["deck"])
        if event.get("final_next"):
            line += " " + t("climate.event.deck_out_next", lang)
        elif event.get("last"):
            line += " " + t("climate.event.deck_out_last", lang)
        return line
    if kind == "chosen":
        return t(f"climate.event.chosen_{event.get('step', 'food')}", lang, player=who)
    if kind == "food_cards":
        return t(k, lang, count=event["count"])
    if kind == "play_start":
        return t("climate.event.play_start_quick", lang) if event.get("quick") else None
    if kind == "play_turn":
        return t(k, lang, player=who)
    if kind == "trait":
        return t(k, lang, player=who, species=species_ref(sid, lang))
    if kind == "grow":
        return t(f"climate.event.grow_{event['what']}", lang, player=who,
                 species=species_ref(sid, lang), value=event["value"])
    if kind == "remove":
        line = t(k, lang, player=who, trait=trait_name(event["trait"], lang),
                 species=species_ref(sid, lang))
        if event.get("fat"):
            line += " " + t("climate.event.remove_fat", lang, fat=event["fat"])
        return line
    if kind == "returned":
        return t(k, lang, player=who, count=event["count"])
    if kind == "done":
        if event.get("forced"):
            return t("climate.event.done_forced", lang, player=who)
        if event.get("returned"):
            return t("climate.event.done_exchange", lang, player=who, count=event["returned"])
        return t(k, lang, player=who)
    if kind == "reveal":
        return t(k, lang, player=who, species=_reveal(event, lang),
                 discarded=event.get("discarded", 0), returned=event.get("returned", 0))
    if kind == "flip":
        return t(k, lang, species=sp, traits=traits_label(event.get("traits", []), lang))
    if kind == "phase_end":
        return t(k, lang, phase=t(f"climate.phase.{event['phase']}", lang))
    if kind == "green":
        trait = event.get("trait")
        if trait == "fat_tissue":
            return t("climate.event.green_fat_tissue", lang, species=sp,
                     moved=event.get("moved", 0))
        if trait == "fertile":
            return t("climate.event.green_fertile", lang, species=sp, pop=event.get("pop", 0))
        return None  # Long Neck: the plant it takes says it
    if kind == "take":
        count = event["count"]
        reason = event.get("reason", "feed")
        line = t(f"climate.event.take_{reason}", lang, species=sp,
                 food=_food(event["food"], count, lang),
                 source=t(f"climate.source.{event['source']}", lang))
        if event.get("fat"):
            line += " " + t("climate.event.take_fat", lang, fat=event["fat"])
        return line
    if kind == "food_reveal":
        cards = [t("climate.event.food_card", lang, player=_who(names, p),
                   card=card_label(c, lang))
                 for p, c in enumerate(event.get("cards", [])) if c]
        line = t(k, lang, cards="; ".join(cards) or "—", suns=event["suns"],
                 snows=event["snows"])
        if event.get("thaw"):
            line += " " + t("climate.event.food_reveal_thaw", lang)
        return line
    if kind == "climate":
        if event["from"] == event["to"]:
            return t("climate.event.climate_stays", lang, zone=zone_name(event["to"], lang))
        return t(k, lang, source=zone_name(event["from"], lang),
                 target=zone_name(event["to"], lang))
    if kind == "event":
        line = t(k, lang, event=event_name(event["event"], lang),
                 zone=zone_name(event["zone"], lang))
        extra = f"climate.event.event_{event['event']}"
        if has(extra):
            line += " " + t(extra, lang, effects=zone_name(event.get("effects"), lang),
                            target=zone_name(event.get("to"), lang))
        return line
    if kind == "shrink":
        line = t(k, lang, species=sp, body=event["body"])
        if event.get("bagged"):
            line += " " + t("climate.event.bagged", lang, count=event["bagged"])
        return line
    if kind == "loss":
        cause = event.get("cause", "attack")
        line = t(f"climate.event.loss_{cause}", lang, species=sp, lost=event["lost"],
                 pop=event["pop"])
        if event.get("bagged"):
            line += " " + t("climate.event.bagged", lang, count=event["bagged"])
        return line
    if kind == "extinct":
        line = t(k, lang, species=sp)
        if event.get("drawn"):
            line += " " + t("climate.event.extinct_drawn", lang, player=who,
                            count=event["drawn"])
        return line
    if kind == "plants":
        key = "climate.event.plants"
        if event.get("set_aside"):
            result = t("climate.event.plants_set_aside", lang, count=event["set_aside"])
        elif event.get("blocked"):
            result = t(f"climate.event.plants_blocked_{event['blocked']}", lang)
        elif event.get("removed"):
            result = t("climate.event.plants_removed", lang, count=event["removed"])
        elif event.get("added"):
            result = t("climate.event.plants_added", lang, count=event["added"])
        else:
            result = t("climate.event.plants_none", lang)
        return t(key, lang, cards=signed(event["cards"]), zone=signed(event["zone"]),
                 total=signed(event["total"]), result=result, wh=event["wh"])
    if kind == "event_up":
        return t(k, lang, event=event_name(event["event"], lang),
                 zone=zone_name(event["zone"], lang))
    if kind in ("feed_turn", "feed"):
        return None  # the footer says whose turn it is; the food taken says the rest
    if kind == "attack":
        line = t(k, lang, species=sp, target=_owned(names, event.get("owner"),
                                                    event.get("target"), lang))
        if event.get("night"):
            line += " " + t("climate.event.attack_night", lang)
        if event.get("ignore"):
            line += " " + t("climate.event.attack_ignoring", lang,
                            trait=trait_name(event["ignore"], lang))
        if event.get("negated"):
            line += " " + t("climate.event.attack_negated", lang,
                            traits=traits_label(event["negated"], lang))
        if event.get("discarded"):
            line += " " + t("climate.event.attack_discarded", lang, player=who)
        return line
    if kind == "intelligence":
        return t(k, lang, player=who, species=species_ref(sid, lang))
    if kind == "negate":
        return t(k, lang, player=who, species=species_ref(sid, lang),
                 trait=trait_name(event["trait"], lang))
    if kind == "pass":
        return t(k, lang, player=who)
    if kind == "bags":
        return t(k, lang, counts=_counts(names, event["counts"], lang), wh=event["wh"])
    if kind == "volcano":
        return t(k, lang, source=zone_name(event["from"], lang),
                 target=zone_name(event["to"], lang))
    if kind == "game_over":
        lines = [t(k, lang)]
        for row in event.get("ranking", []):
            p = row["player"]
            lines.append(t("climate.event.ranking_line", lang, rank=row["rank"],
                           player=_who(names, p), score=row["score"], food=row["food"],
                           population=row["population"], traits=row["traits"]))
        return "\n".join(lines)
    return None


# --- refusals ------------------------------------------------------------------------------------

def _malformed(error: IllegalAction, lang: str) -> str | None:
    """The sentence for a malformed action (``bad_action`` with a ``reason``), or None."""
    reason = error.params.get("reason")
    key = f"climate.malformed.{reason}"
    if error.code != "bad_action" or not isinstance(reason, str) or not has(key):
        return None
    expected = error.params.get("expected")
    return t(key, lang, field=str(error.params.get("field")),
             expected=t(f"climate.malformed.expected.{expected}", lang))


def explain(error: IllegalAction, names: list[str] | None = None, lang: str = "en") -> str:
    """The sentence for a refused action (sent privately to the player who tried it)."""
    malformed = _malformed(error, lang)
    if malformed is not None:
        return malformed
    params = dict(error.params)
    names = names or []
    if isinstance(params.get("waiting"), list):
        params["waiting"] = ", ".join(_who(names, p) for p in params["waiting"]) or "—"
    if isinstance(params.get("player"), int):
        params["player"] = _who(names, params["player"])
    for field in ("species", "target"):
        if isinstance(params.get(field), int):
            params[field] = species_ref(params[field], lang)
    if isinstance(params.get("card"), str):
        trait = card_trait(params["card"])
        params["card"] = trait_name(trait, lang) if trait else params["card"]
    if isinstance(params.get("trait"), str):
        params["trait"] = trait_name(params["trait"], lang)
    if isinstance(params.get("blockers"), list):
        params["blockers"] = ", ".join(
            t("climate.error.blocker_body", lang) if b == "body" else trait_name(b, lang)
            for b in params["blockers"]) or "—"
    if isinstance(params.get("what"), str) and has(f"climate.growth.{params['what']}"):
        params["what"] = t(f"climate.growth.{params['what']}", lang)
    if isinstance(params.get("side"), str) and has(f"climate.side.{params['side']}"):
        params["side"] = t(f"climate.side.{params['side']}", lang)
    if isinstance(params.get("action"), str) and has(f"climate.action.{params['action']}"):
        params["action"] = t(f"climate.action.{params['action']}", lang)
    if isinstance(params.get("phase"), str) and has(f"climate.phase.{params['phase']}"):
        params["phase"] = t(f"climate.phase.{params['phase']}", lang)
    key = f"climate.error.{error.code}"
    if not has(key):
        key = "climate.error.bad_action"
    return _capital(t(key, lang, **params), lang)
