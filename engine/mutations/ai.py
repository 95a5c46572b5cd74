"""AI players for Random Mutations: ``random``, ``fast`` (rules of thumb) and ``strong``.

Every policy follows the shared contract ``policy.choose(view, legal, seed) -> one of legal``.
``view`` is the seat's own view (``MUTATIONS.view(state, me)``): decks are counts only, so an
AI cannot know the card it is about to turn. ``seed`` comes from the view alone
(:func:`view_seed`).

* :class:`RandomPolicy`: a uniformly random legal action.
* :class:`FastPolicy`: development grows the population up to what the expected food share
  (the climate dice's mean over the players, plus what the carnivores may catch) can feed,
  then plays traits on species of one animal, then passes; feeding completes the hungriest
  animal closest to fed, attacks the most valuable unprotected opponent species (avoiding
  Poisonous and Running when it can), protects threatened animals with burrows, and puts
  parasites on the leader's biggest species; owed choices give up the least valuable animal.
* :class:`StrongPolicy`: the same rules with a one-step look-ahead: every candidate action is
  applied to a few states imagined from the view (``determinize``) and the position after it
  is valued (points of fed and feedable animals, traits, the leader's margin); the best mean
  wins, ties to the fast choice.
"""

from __future__ import annotations

import json
import zlib

from engine.ai import choose_with, make_policy
from engine.core import Rng
from engine.mutations.data import FOOD, climate_dice

__all__ = ["LEVELS", "FastPolicy", "RandomPolicy", "StrongPolicy", "choose_action",
           "policy_for", "view_seed"]

LEVELS = ("random", "fast", "strong")


class RandomPolicy:
    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        return legal[Rng(seed).below(len(legal))]


# --- reading a view ---------------------------------------------------------------------------

def _species(view: dict) -> dict[int, tuple[int, dict]]:
    return {sp["id"]: (p, sp) for p, row in enumerate(view["players"]) for sp in row["species"]}


def _animals(view: dict) -> dict[int, tuple[int, dict, dict]]:
    return {a["id"]: (p, sp, a) for p, row in enumerate(view["players"])
            for sp in row["species"] for a in sp["animals"]}


def _food_share(view: dict) -> float:
    n = len(view["players"])
    dice, plus = climate_dice(n)["food"]
    return (dice * 3.5 + plus) / n


def _value(sp: dict) -> float:
    """What a species is worth at the end: 2 per animal, its trait cards and bonuses."""
    return 2 * len(sp["animals"]) + sum(1 + FOOD[t] for t in sp["traits"])


def _carnivore(sp: dict) -> bool:
    return "carnivore" in sp["all_traits"] or "obligate_carnivore" in sp["all_traits"]


class FastPolicy:
    greed = 1.25  # animals kept per expected food token of the share

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        return max(legal, key=lambda a: (self.score(view, a), -legal.index(a)))

    # a number per action: higher is better
    def score(self, view: dict, a: dict) -> float:
        kind = a["type"]
        me = view["viewer"]
        mine = view["players"][me]
        if kind in ("develop", "pass") and view["phase"] == "development":
            return self.develop(view, mine, a)
        if kind == "dark":
            return 1.0 if a["play"] == "species" else 0.0
        if kind == "graze":
            hunger = sum(sp["need"] - a2["red"] - a2["blue"] for sp in mine["species"]
                         for a2 in sp["animals"] if not a2["fed"]
                         and "obligate_carnivore" not in sp["all_traits"])
            spare = max(0, view["centre"]["food"] - hunger)
            return -abs(a["count"] - spare)
        species = _species(view)
        animals = _animals(view)
        if kind == "redirect":
            _, sp = species[a["target"]]
            return -_value(sp) + (5 if "poisonous" in sp["all_traits"] else 0)
        if kind in ("eat", "lose"):
            _, sp, an = animals[a["animal"]]
            return -(an["red"] + an["blue"]) * 2 - (3 if an["fed"] else 0) + an["parasites"]
        if kind == "scavenge":
            _, sp, an = animals[a["animal"]]
            return -(sp["need"] - an["red"] - an["blue"])
        return self.feed(view, me, mine, a, species, animals)

    def target_animals(self, view: dict, mine: dict) -> float:
        extra = sum(len(sp["animals"]) for sp in mine["species"] if _carnivore(sp))
        return self.greed * _food_share(view) + 0.6 * extra + (1.5 if view["last"] else 0.0)

    def develop(self, view: dict, mine: dict, a: dict) -> float:
        animals = sum(len(sp["animals"]) for sp in mine["species"])
        room = self.target_animals(view, mine) - animals
        if a["type"] == "pass":
            return 0.0
        use = a["use"]
        if use == "species":
            return 2.0 if room >= 1 else (0.5 if view["last"] else -1.0)
        sp = next(x for x in mine["species"] if x["id"] == a["species"])
        if use == "trait":
            base = 1.5 - 0.4 * len(sp["all_traits"])
            return base + (1.0 if view["last"] else 0.0)
        # an animal for the species (or a split): worth it while food can follow
        good = 0.5 * len(sp["all_traits"]) - sp["need"] + 1
        bonus = 0.3 if "extremophile" in sp["all_traits"] else 0
        return (1.8 + 0.1 * good - bonus) if room >= sp["need"] else -1.5

    def feed(self, view, me, mine, a, species, animals) -> float:
        kind = a["type"]
        if kind == "pass":
            return -0.5
        if kind == "food":
            _, sp, an = animals[a["animal"]]
            short = sp["need"] - an["red"] - an["blue"]
            return 10.0 - short
        if kind == "burrow":
            _, sp, an = animals[a["animal"]]
            if "bark_beetle" in sp["all_traits"] and not an["fed"] \
                    and "obligate_carnivore" not in sp["all_traits"]:
                return 9.5
            threats = sum(1 for q, row in enumerate(view["players"]) if q != me
                          for x in row["species"] if _carnivore(x))
            return 3.0 + threats - (0 if an["fed"] else 1)
        if kind == "parasite":
            q, sp, an = animals[a["animal"]]
            leader = max(range(len(view["players"])),
                         key=lambda p: (view["players"][p]["score"]["total"], -abs(p - me)))
            return 2.0 + (1.0 if q == leader else 0) + 0.1 * _value(sp) + 0.3 * an["parasites"]
        if kind == "attack":
            q, tgt = species[a["target"]]
            tt = [t for t in tgt["all_traits"] if t != a.get("ignore")]
            v = 8.0 + 0.2 * _value(tgt)
            if q == me:
                v -= 6.0
            if "poisonous" in tt:
                v -= 12.0
            if "running" in tt:
                v -= 3.0
            return v
        return 0.0


class StrongPolicy(FastPolicy):
    """The fast rules, checked one step ahead on imagined states."""

    samples = 2
    width = 5

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        ranked = sorted(legal, key=lambda a: -self.score(view, a))
        if view["phase"] == "development" or len(ranked) == 1:
            return FastPolicy.choose(self, view, legal, seed)
        from engine.mutations import MUTATIONS as G
        from engine.mutations.view import determinize

        me = view["viewer"]
        best, best_value = ranked[0], None
        states = [determinize(view, Rng(seed + k).next64()) for k in range(self.samples)]
        for a in ranked[: self.width]:
            total = 0.0
            for st in states:
                s = st.clone()
                try:
                    G.apply_in_place(s, me, a)
                except Exception:  # an imagined state may differ: skip the action
                    total -= 100
                    continue
                total += self.position(G.view(s, me), me)
            value = total / len(states) + 0.05 * self.score(view, a)
            if best_value is None or value > best_value + 1e-9:
                best, best_value = a, value
        return best

    def position(self, view: dict, me: int) -> float:
        def worth(p: int) -> float:
            row = view["players"][p]
            v = 0.0
            for sp in row["species"]:
                v += sum(1 + FOOD[t] for t in sp["traits"])
                for an in sp["animals"]:
                    v += 2.0 if an["fed"] else 0.8 - 0.3 * an["parasites"]
            return v

        others = [worth(p) for p in range(len(view["players"])) if p != me]
        return worth(me) - (max(others) if others else 0)


POLICIES = {"random": RandomPolicy, "fast": FastPolicy, "strong": StrongPolicy}


def policy_for(level: str):
    return make_policy(level, POLICIES)


def view_seed(view: dict) -> int:
    """A seed for one decision, from the public position only (never the names)."""
    key = {k: v for k, v in view.items() if k != "players"}
    key["players"] = [(row["species"], row["deck"], row["passed"]) for row in view["players"]]
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    return Rng(zlib.crc32(text.encode()) * 0x9E3779B1 + len(text)).next64()


def choose_action(rules, state, player: int, level: str = "fast") -> dict:
    """The action an AI of ``level`` takes for ``player`` now (it sees only its own view)."""
    return choose_with(rules, state, player, level, POLICIES, lambda _s, _p, v: view_seed(v))
