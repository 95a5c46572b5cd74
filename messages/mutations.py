"""Turn Evolution: Random Mutations engine events and errors into sentences from the catalogue.

Species and animals are named by their ids (``species #12``, ``animal #15``), as the table
image shows them; the labels of the menus (a species with its traits, an animal with its
food) are built here too, from a public view (``MUTATIONS.view(state, None)``).
"""

from __future__ import annotations

from engine.core import IllegalAction
from messages import has, t

TOKEN_KINDS = ("food", "burrow", "parasite")


def trait_name(trait, lang: str = "en") -> str:
    key = f"mutations.trait.{trait}.name"
    return t(key, lang) if isinstance(trait, str) and has(key) else str(trait)


def traits_label(traits, lang: str = "en") -> str:
    return ", ".join(trait_name(x, lang) for x in traits) or t("mutations.bot.no_traits", lang)


def species_ref(sid, lang: str = "en") -> str:
    return t("mutations.species_ref", lang, id=sid)


def animal_ref(aid, lang: str = "en") -> str:
    return t("mutations.animal_ref", lang, id=aid)


def _who(names: list[str], p) -> str:
    if isinstance(p, int) and 0 <= p < len(names):
        return names[p]
    return "?"


def _owned(names: list[str], owner, sid, lang: str) -> str:
    if isinstance(owner, int) and 0 <= owner < len(names):
        return t("mutations.species_of", lang, player=names[owner], id=sid)
    return species_ref(sid, lang)


# --- labels from a public view -------------------------------------------------------------------

def index(view: dict) -> tuple[dict, dict]:
    """``({species id: (owner, species)}, {animal id: (owner, species, animal)})`` of a view."""
    species, animals = {}, {}
    for p, pl in enumerate(view["players"]):
        for sp in pl["species"]:
            species[sp["id"]] = (p, sp)
            for a in sp["animals"]:
                animals[a["id"]] = (p, sp, a)
    return species, animals


def species_label(sp: dict, lang: str = "en") -> str:
    """``#12 · Carnivore, Swimming · 2 animals``."""
    n = len(sp["animals"])
    key = "mutations.bot.option_species_one" if n == 1 else "mutations.bot.option_species"
    return t(key, lang, id=sp["id"], traits=traits_label(sp["all_traits"], lang), animals=n)


def animal_state(sp: dict, a: dict, lang: str = "en") -> str:
    if a["fed"]:
        out = t("mutations.bot.state_fed", lang)
    else:
        out = t("mutations.bot.state_food", lang, food=a["red"] + a["blue"], need=sp["need"])
    if a["burrow"]:
        out += t("mutations.bot.state_burrow", lang)
    if a["parasites"]:
        out += t("mutations.bot.state_parasites", lang, count=a["parasites"])
    return out


def animal_label(view: dict, aid: int, names: list[str], lang: str = "en",
                 owner_shown: bool = False) -> str:
    """``#15 of species #12 (Carnivore), 0/2 food`` (with the owner's name when asked)."""
    _, animals = index(view)
    if aid not in animals:
        return animal_ref(aid, lang)
    p, sp, a = animals[aid]
    ref = _owned(names, p, sp["id"], lang) if owner_shown else species_ref(sp["id"], lang)
    ref += f" ({traits_label(sp['all_traits'], lang)})" if sp["all_traits"] else ""
    return t("mutations.bot.option_animal", lang, id=aid, species=ref,
             state=animal_state(sp, a, lang))


def action_label(action: dict, view: dict, names: list[str], lang: str = "en") -> str:
    """A legal action as a menu or the autocomplete shows it."""
    species, animals = index(view)
    kind = action["type"]
    if kind == "develop":
        if action["use"] == "species":
            return t("mutations.bot.btn_species", lang)
        sp = species.get(action["species"])
        return species_label(sp[1], lang) if sp else species_ref(action["species"], lang)
    if kind in TOKEN_KINDS:
        return t("mutations.bot.option_token", lang,
                 token=t(f"mutations.token.{kind}", lang).capitalize(),
                 animal=animal_label(view, action["animal"], names, lang,
                                     owner_shown=kind == "parasite"))
    if kind == "attack":
        found = animals.get(action["animal"])
        traits = traits_label(found[1]["all_traits"], lang) if found else "?"
        tgt = species.get(action["target"])
        if tgt:
            target = _owned(names, tgt[0], action["target"], lang)
            if tgt[1]["all_traits"]:
                target += f" ({traits_label(tgt[1]['all_traits'], lang)})"
        else:
            target = species_ref(action["target"], lang)
        if action.get("ignore"):
            return t("mutations.bot.option_attack_ignoring", lang, animal=action["animal"],
                     traits=traits, target=target, trait=trait_name(action["ignore"], lang))
        return t("mutations.bot.option_attack", lang, animal=action["animal"], traits=traits,
                 target=target)
    if kind == "graze":
        return t("mutations.bot.option_graze", lang, count=action["count"])
    if kind == "redirect":
        pend = view.get("pending") or {}
        if action["target"] == pend.get("target"):
            return t("mutations.bot.option_keep", lang,
                     species=species_ref(action["target"], lang))
        sp = species.get(action["target"])
        return species_label(sp[1], lang) if sp else species_ref(action["target"], lang)
    if kind in ("eat", "scavenge", "lose"):
        return animal_label(view, action["animal"], names, lang)
    if kind == "dark":
        trait = trait_name((view.get("pending") or {}).get("trait"), lang)
        key = "mutations.bot.btn_dark_trait" if action["play"] == "trait" \
            else "mutations.bot.btn_dark_species"
        return t(key, lang, trait=trait)
    if kind == "pass":
        return t("mutations.bot.btn_pass", lang)
    return kind


# --- events --------------------------------------------------------------------------------------

def _left(left: dict, lang: str) -> str:
    parts = [t("mutations.event.left_part", lang, count=left[k], token=t(f"mutations.token.{k}", lang))
             for k in ("food", "burrows", "parasites") if left.get(k)]
    return ", ".join(parts)


def describe(event: dict, names: list[str], lang: str = "en") -> str | None:
    """One line for an event, or None for events that are not worth a line."""
    kind = event["type"]
    who = _who(names, event.get("player"))
    k = f"mutations.event.{kind}"
    sid = event.get("species")
    sp = species_ref(sid, lang)
    if kind == "setup":
        line = t(k, lang, deck=event["deck"], species=event["species"], main=event["main"],
                 player=_who(names, event["first"]))
        if event.get("divergence"):
            line += " " + t("mutations.event.setup_divergence", lang)
        return line
    if kind == "turn_start":
        key = "mutations.event.turn_start_last" if event["last"] else k
        return t(key, lang, turn=event["turn"], player=_who(names, event["first"]),
                 main=event["main"])
    if kind == "new_deck":
        return t(k, lang, player=who, count=event["count"])
    if kind == "new_animal":
        key = "mutations.event.new_animal_budding" if event["reason"] == "budding" else k
        return t(key, lang, player=who, species=sp)
    if kind == "extremophile":
        return t(k, lang, player=who, species=sp)
    if kind == "new_species":
        reason = event.get("reason")
        key = f"mutations.event.new_species_{reason}" if reason in ("no_place", "dark") else k
        return t(key, lang, player=who, species=sp, trait=trait_name(event.get("trait"), lang))
    if kind == "declare":
        return None  # the next line says where the turned trait went (or that it is asked)
    if kind in ("dark_choice", "trait"):
        return t(k, lang, player=who, species=sp, trait=trait_name(event["trait"], lang))
    if kind == "trait_passes":
        return t(k, lang, player=who, trait=trait_name(event["trait"], lang),
                 source=species_ref(event["from"], lang), target=species_ref(event["to"], lang))
    if kind == "simplification":
        new = ", ".join(species_ref(x, lang) for x in event["new"])
        if event.get("removed") is None:
            return t("mutations.event.simplification_alone", lang, species=sp, new=new)
        return t(k, lang, species=sp, new=new, trait=trait_name(event["removed"], lang))
    if kind == "split":
        return t(k, lang, player=who, species=sp, new=species_ref(event["new"], lang))
    if kind == "pass":
        if event.get("forced"):
            if event["phase"] == "development":
                return None  # an empty deck: nothing a player chose
            return t("mutations.event.pass_forced", lang, player=who)
        return t(f"mutations.event.pass_{event['phase']}", lang, player=who)
    if kind == "phase_end":
        left = _left(event.get("left") or {}, lang)
        if event["phase"] == "feeding" and left:
            return t("mutations.event.phase_end_feeding", lang, left=left)
        return t(k, lang, phase=t(f"mutations.phase.{event['phase']}", lang))
    if kind == "climate":
        dice = " · ".join("+".join(str(f) for f in event["dice"][x])
                          for x in ("food", "burrows", "parasites") if event["dice"].get(x))
        return t(k, lang, player=who, food=event["food"], burrows=event["burrows"],
                 parasites=event["parasites"], dice=dice or "—")
    if kind == "graze":
        return t(k, lang, player=who, count=event["count"])
    if kind == "food":
        key = "mutations.event.food_fed" if event["fed"] else k
        return t(key, lang, player=who, animal=event["animal"], species=sp)
    if kind in ("burrow", "bark_beetle"):
        return t(k, lang, player=who, animal=event["animal"], species=sp)
    if kind == "parasite":
        return t(k, lang, player=who, animal=event["animal"],
                 species=_owned(names, event["owner"], sid, lang))
    if kind == "attack":
        target = _owned(names, event["owner"], event["target"], lang)
        if event.get("ignore"):
            return t("mutations.event.attack_ignoring", lang, player=who, animal=event["animal"],
                     species=sp, target=target, trait=trait_name(event["ignore"], lang))
        return t(k, lang, player=who, animal=event["animal"], species=sp, target=target)
    if kind in ("mimicry_choice", "eat_choice", "lose_choice"):
        return t(k, lang, player=who, species=_owned(names, event.get("player"), sid, lang))
    if kind == "redirect":
        if event["from"] == event["to"]:
            return t("mutations.event.redirect_kept", lang, player=who,
                     target=species_ref(event["to"], lang))
        return t(k, lang, player=who, source=species_ref(event["from"], lang),
                 target=species_ref(event["to"], lang))
    if kind == "running":
        key = k if event["escaped"] else "mutations.event.running_caught"
        return t(key, lang, species=_owned(names, event.get("owner"), sid, lang),
                 die=event["die"])
    if kind in ("eaten", "parasite_loss", "starved"):
        key = f"{k}_extinct" if event.get("extinct") else k
        owner = event.get("owner", event.get("player"))
        return t(key, lang, animal=event["animal"], species=_owned(names, owner, sid, lang))
    if kind == "poisoned":
        return t(k, lang, player=who, animal=event["animal"], species=sp)
    if kind == "meal":
        key = "mutations.event.meal_fed" if event["fed"] else k
        return t(key, lang, player=who, animal=event["animal"], blue=event["blue"])
    if kind == "scavenge_choice":
        return t(k, lang, player=who)
    if kind == "scavenge":
        return t(k, lang, player=who, animal=event["animal"],
                 species=_owned(names, event.get("player"), sid, lang))
    if kind == "draw":
        counts = ", ".join(t("mutations.event.draw_part", lang, player=_who(names, p), count=c)
                           for p, c in enumerate(event["counts"]))
        return t(k, lang, counts=counts, main=event["main"])
    if kind == "game_over":
        lines = [t(k, lang)]
        by_player = {r["player"]: r for r in event["ranking"]}
        for row in event["ranking"]:
            lines.append(t("mutations.event.ranking_line", lang, rank=row["rank"],
                           player=_who(names, row["player"]), score=row["score"],
                           lost=row["lost"]))
        for p, s in enumerate(event["scores"]):
            if p in by_player:
                lines.append(t("mutations.event.score_line", lang, player=_who(names, p),
                               total=s["total"], animals=s["animals"], traits=s["traits"],
                               bonus=s["bonus"]))
        return "\n".join(lines)
    return None


# --- refusals ------------------------------------------------------------------------------------

def _malformed(error: IllegalAction, lang: str) -> str | None:
    """The sentence for a malformed action (``bad_action`` with a ``reason``), or None."""
    reason = error.params.get("reason")
    key = f"mutations.malformed.{reason}"
    if error.code != "bad_action" or not isinstance(reason, str) or not has(key):
        return None
    expected = error.params.get("expected")
    return t(key, lang, field=str(error.params.get("field")),
             expected=t(f"mutations.malformed.expected.{expected}", lang))


def explain(error: IllegalAction, names: list[str] | None = None, lang: str = "en") -> str:
    """The sentence for a refused action."""
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
    if isinstance(params.get("animal"), int):
        params["animal"] = animal_ref(params["animal"], lang)
    if isinstance(params.get("trait"), str):
        params["trait"] = trait_name(params["trait"], lang)
    if isinstance(params.get("token"), str) and has(f"mutations.token.{params['token']}"):
        params["token"] = t(f"mutations.token.{params['token']}", lang)
    if isinstance(params.get("choice"), str) and has(f"mutations.choice.{params['choice']}"):
        params["choice"] = t(f"mutations.choice.{params['choice']}", lang)
    if isinstance(params.get("action"), str) and has(f"mutations.action.{params['action']}"):
        params["action"] = t(f"mutations.action.{params['action']}", lang)
    if isinstance(params.get("phase"), str) and has(f"mutations.phase.{params['phase']}"):
        params["phase"] = t(f"mutations.phase.{params['phase']}", lang)
    key = f"mutations.error.{error.code}"
    if not has(key):
        key = "mutations.error.bad_action"
    return t(key, lang, **params)
