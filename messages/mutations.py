"""Turn Evolution: Random Mutations engine events and errors into sentences from the catalogue.

Species and animals are named by their ids (``species #12``, ``animal #15``), as the table
image shows them; the labels of the menus (a species with its traits, an animal with its
food) are built here too, from a public view (``MUTATIONS.view(state, None)``).
"""

from __future__ import annotations

from functools import partial

from engine.core import IllegalAction
from messages import common, has, t
from messages.common import SEAT, WAITING, Event, Wording, named, refusal, who, word

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


owned = partial(common.species_of, "mutations")  # (names, owner, species id, lang)


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
    ref = owned(names, p, sp["id"], lang) if owner_shown else species_ref(sp["id"], lang)
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
            target = owned(names, tgt[0], action["target"], lang)
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

def _owned(e: Event, field: str = "player") -> str:
    """The event's species, with the name of the seat in ``field``."""
    return owned(e.names, e.get(field), e.get("species"), e.lang)


def _sp(e: Event) -> str:
    return species_ref(e.get("species"), e.lang)


def _setup(e: Event) -> str:
    line = e.line(deck=e["deck"], species=e["species"], main=e["main"], player=e.who("first"))
    if e.get("divergence"):
        line += " " + e.line("setup_divergence")
    return line


def _new_species(e: Event) -> str:
    reason = e.get("reason")
    return e.line(f"new_species_{reason}" if reason in ("no_place", "dark") else None,
                  player=e.who(), species=_sp(e), trait=trait_name(e.get("trait"), e.lang))


def _simplification(e: Event) -> str:
    new = ", ".join(species_ref(x, e.lang) for x in e["new"])
    if e.get("removed") is None:
        return e.line("simplification_alone", species=_sp(e), new=new)
    return e.line(species=_sp(e), new=new, trait=trait_name(e["removed"], e.lang))


def _pass(e: Event) -> str | None:
    if e.get("forced"):
        if e["phase"] == "development":
            return None  # an empty deck: nothing a player chose
        return e.line("pass_forced", player=e.who())
    return e.line(f"pass_{e['phase']}", player=e.who())


def _left(left: dict, lang: str) -> str:
    parts = [t("mutations.event.left_part", lang, count=left[k], token=t(f"mutations.token.{k}", lang))
             for k in ("food", "burrows", "parasites") if left.get(k)]
    return ", ".join(parts)


def _phase_end(e: Event) -> str:
    left = _left(e.get("left") or {}, e.lang)
    if e["phase"] == "feeding" and left:
        return e.line("phase_end_feeding", left=left)
    return e.line(phase=t(f"mutations.phase.{e['phase']}", e.lang))


def _climate(e: Event) -> str:
    dice = " · ".join("+".join(str(f) for f in e["dice"][x])
                      for x in ("food", "burrows", "parasites") if e["dice"].get(x))
    return e.line(player=e.who(), food=e["food"], burrows=e["burrows"],
                  parasites=e["parasites"], dice=dice or "—")


def _attack(e: Event) -> str:
    target = owned(e.names, e.get("owner"), e["target"], e.lang)
    if e.get("ignore"):
        return e.line("attack_ignoring", player=e.who(), animal=e["animal"], species=_sp(e),
                      target=target, trait=trait_name(e["ignore"], e.lang))
    return e.line(player=e.who(), animal=e["animal"], species=_sp(e), target=target)


def _redirect(e: Event) -> str:
    if e["from"] == e["to"]:
        return e.line("redirect_kept", player=e.who(), target=species_ref(e["to"], e.lang))
    return e.line(player=e.who(), source=species_ref(e["from"], e.lang),
                  target=species_ref(e["to"], e.lang))


def _loss(e: Event) -> str:
    owner = e.get("owner", e.get("player"))
    return e.line(f"{e.type}_extinct" if e.get("extinct") else None, animal=e["animal"],
                  species=owned(e.names, owner, e.get("species"), e.lang))


def _draw(e: Event) -> str:
    counts = ", ".join(e.line("draw_part", player=who(e.names, p), count=c)
                       for p, c in enumerate(e["counts"]))
    return e.line(counts=counts, main=e["main"])


def _game_over(e: Event) -> str:
    ranked = {r["player"] for r in e["ranking"]}
    return "\n".join([e.ranking(e.line())] + [
        e.line("score_line", player=who(e.names, p), total=s["total"], animals=s["animals"],
               traits=s["traits"], bonus=s["bonus"])
        for p, s in enumerate(e["scores"]) if p in ranked])


def _animal(e: Event) -> str:
    """A line of a player's animal of a species (``player``, ``animal``, ``species``)."""
    return e.line(player=e.who(), animal=e["animal"], species=_sp(e))


def _trait(e: Event) -> str:
    return e.line(player=e.who(), species=_sp(e), trait=trait_name(e["trait"], e.lang))


EVENTS: dict[str, Wording] = {
    "setup": _setup,
    "turn_start": lambda e: e.line("turn_start_last" if e["last"] else None, turn=e["turn"],
                                   player=e.who("first"), main=e["main"]),
    "new_deck": lambda e: e.line(player=e.who(), count=e["count"]),
    "new_animal": lambda e: e.line("new_animal_budding" if e["reason"] == "budding" else None,
                                   player=e.who(), species=_sp(e)),
    "extremophile": lambda e: e.line(player=e.who(), species=_sp(e)),
    "new_species": _new_species,
    "declare": None,  # the next line says where the turned trait went (or that it is asked)
    "dark_choice": _trait,
    "trait": _trait,
    "trait_passes": lambda e: e.line(player=e.who(), trait=trait_name(e["trait"], e.lang),
                                     source=species_ref(e["from"], e.lang),
                                     target=species_ref(e["to"], e.lang)),
    "simplification": _simplification,
    "split": lambda e: e.line(player=e.who(), species=_sp(e),
                              new=species_ref(e["new"], e.lang)),
    "pass": _pass,
    "phase_end": _phase_end,
    "climate": _climate,
    "graze": lambda e: e.line(player=e.who(), count=e["count"]),
    "food": lambda e: e.line("food_fed" if e["fed"] else None, player=e.who(),
                             animal=e["animal"], species=_sp(e)),
    "burrow": _animal,
    "bark_beetle": _animal,
    "poisoned": _animal,
    "parasite": lambda e: e.line(player=e.who(), animal=e["animal"], species=_owned(e, "owner")),
    "attack": _attack,
    "mimicry_choice": lambda e: e.line(player=e.who(), species=_owned(e)),
    "eat_choice": lambda e: e.line(player=e.who(), species=_owned(e)),
    "lose_choice": lambda e: e.line(player=e.who(), species=_owned(e)),
    "redirect": _redirect,
    "running": lambda e: e.line(None if e["escaped"] else "running_caught",
                                species=_owned(e, "owner"), die=e["die"]),
    "eaten": _loss,
    "parasite_loss": _loss,
    "starved": _loss,
    "meal": lambda e: e.line("meal_fed" if e["fed"] else None, player=e.who(),
                             animal=e["animal"], blue=e["blue"]),
    "scavenge_choice": lambda e: e.line(player=e.who()),
    "scavenge": lambda e: e.line(player=e.who(), animal=e["animal"], species=_owned(e)),
    "draw": _draw,
    "game_over": _game_over,
}


def describe(event: dict, names: list[str], lang: str = "en") -> str | None:
    """One line for an event, or None for events that are not worth a line."""
    return common.describe("mutations", EVENTS, event, names, lang)


# --- refusals ------------------------------------------------------------------------------------

REFUSAL = {"waiting": WAITING, "player": SEAT, "species": named(species_ref, int),
           "target": named(species_ref, int), "animal": named(animal_ref, int),
           "trait": named(trait_name), "token": word("mutations.token"),
           "choice": word("mutations.choice"), "action": word("mutations.action"),
           "phase": word("mutations.phase")}


def explain(error: IllegalAction, names: list[str] | None = None, lang: str = "en") -> str:
    """The sentence for a refused action."""
    return refusal("mutations", error, names, lang, REFUSAL)
