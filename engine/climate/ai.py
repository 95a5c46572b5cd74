"""AI players for Evolution: Climate: ``random``, ``fast`` (rules of thumb) and ``strong``.

Every policy follows the shared contract ``policy.choose(view, legal, seed) -> one of legal``.
``view`` is the seat's own view (``CLIMATE.view(state, me)``): other hands, face-down cards,
food cards, bags and decks are counts only, and in a secret step the others' choices do not
show, so an AI never knows them. ``seed`` comes from the view alone (:func:`view_seed`).

* :class:`RandomPolicy`: a uniformly random legal action.
* :class:`FastPolicy`: the food card is the hand card least worth keeping, with the icons
  that push the climate towards the zone that costs its species least (and the others most);
  the play phase spends cards one by one on the best of a new species (while there are few),
  population (up to what the expected food can feed), body size (against carnivores and the
  climate), a trait for its effect here (protections against the climate coming, defences
  when carnivores are about, Foraging / Cooperation / Long Neck for plant eaters, one
  Carnivore on a big species when prey abound), then stops; feeding attacks the prey giving
  the most meat at the least cost (Horns, Mud Wallowing, its own species), feeds the hungry
  species that gains most (Foraging, Cooperation), uses Intelligence when the Watering Hole
  cannot feed everyone, and stores fat.
* :class:`StrongPolicy`: the same rules, but the food card (the round's main choice: the
  climate it pushes, the plants, and which cards stay in hand to play) is checked ahead:
  each of the few best distinct cards is applied to states imagined from the view
  (``determinize``), the round is played out by the fast rules for every seat, and the
  position is valued in points (bag, population, traits, fat, body size, cards in hand)
  against the best other player. (Looking ahead in feeding as well was tried: no gain.)
"""

from __future__ import annotations

import json
import zlib

from engine.ai import choose_with, make_policy
from engine.climate.data import (
    BODY,
    CAUSE,
    COLD,
    HEAT,
    HEAT_PENALTY,
    ICONS,
    PENALTY_ZONES,
    ZONES,
)
from engine.core import Rng

__all__ = ["LEVELS", "FastPolicy", "RandomPolicy", "StrongPolicy", "choose_action",
           "policy_for", "view_seed"]

LEVELS = ("random", "fast", "strong")


class RandomPolicy:
    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        return legal[Rng(seed).below(len(legal))]


# --- reading a view -----------------------------------------------------------------------------

def _traits(sp: dict) -> list[str]:
    return [t["trait"] for t in sp["traits"] if t["trait"] is not None]


def _species(view: dict) -> dict[int, tuple[int, int, dict]]:
    """species id -> (owner, index, species)."""
    return {sp["id"]: (p, i, sp) for p, row in enumerate(view["players"])
            for i, sp in enumerate(row["species"])}


def zone_loss(zone: int, sp: dict, traits=None) -> int:
    """Population ``sp`` would lose to the climate of ``zone`` (the rules' reckoning)."""
    tr = _traits(sp) if traits is None else traits
    cause = CAUSE[zone]
    lo, hi = BODY[zone]
    icons = ICONS[zone] if cause and lo <= sp["body"] <= hi else 0
    if cause == "cold":
        return max(0, icons - sum(COLD.get(t, 0) for t in tr))
    pen = sum(HEAT_PENALTY.get(t, 0) for t in tr) if zone in PENALTY_ZONES else 0
    if not cause and not pen:
        return 0
    return max(0, icons + pen - sum(HEAT.get(t, 0) for t in tr))


def _carnivores(view: dict, but: int | None = None) -> list[tuple[int, dict]]:
    return [(p, sp) for p, row in enumerate(view["players"]) if p != but
            for sp in row["species"] if "carnivore" in _traits(sp)]


def _share(view: dict) -> float:
    """Plants a player may expect this round: the Watering Hole, the food cards' mean and the
    zone's modifier, shared by the species that eat plants."""
    n = len(view["players"])
    zone = view["climate"]["index"]
    plants = view["watering_hole"] + 3.0 * n + view["climate"]["plants"][zone]
    if view["events"]["meteor"]:
        plants = view["watering_hole"]
    eaters = sum(1 for row in view["players"] for sp in row["species"]
                 if "carnivore" not in _traits(sp)) or 1
    return max(0.0, plants) / eaters


def _climate_pref(view: dict, me: int) -> float:
    """> 0: a warmer climate suits ``me``; < 0: a colder one."""
    zone = view["climate"]["index"]
    last = len(ZONES) - 1

    def cost(z: int) -> float:
        z = max(0, min(last, z))
        mine = sum(zone_loss(z, sp) for sp in view["players"][me]["species"])
        others = [sum(zone_loss(z, sp) for sp in row["species"])
                  for p, row in enumerate(view["players"]) if p != me]
        plants = view["climate"]["plants"][z] / max(1, len(view["players"]))
        return mine - 0.5 * (sum(others) / max(1, len(others))) - 0.3 * plants

    return cost(zone - 1) - cost(zone + 1)


# trait values for a plant eater / a carnivore (before the situation is looked at)
PLANT_EATER = {"foraging": 1.6, "cooperation": 1.0, "long_neck": 1.4, "fertile": 1.2,
               "fat_tissue": 1.1, "intelligence": 0.9, "carnivore": -1.0, "pack_hunting": -1.0,
               "ambush": -1.0, "scavenger": 0.5}
CARNIVORE = {"pack_hunting": 1.6, "ambush": 1.0, "intelligence": 1.0, "fat_tissue": 1.2,
             "cooperation": 0.6, "scavenger": 0.6, "foraging": -1.0, "long_neck": -1.0,
             "fertile": 0.6, "carnivore": -9.0}
DEFENCE = ("hard_shell", "climbing", "burrowing", "horns", "defensive_herding", "symbiosis",
           "warning_call", "cooling_frills", "mud_wallowing")


class FastPolicy:
    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        best, best_v = legal[0], None
        for a in legal:
            v = self.score(view, a)
            if best_v is None or v > best_v + 1e-9:
                best, best_v = a, v
        return best

    # a number per action: higher is better
    def score(self, view: dict, a: dict) -> float:
        kind = a["type"]
        me = view["viewer"]
        if kind == "food":
            return self.food_card(view, me, a)
        if view["phase"] == "play":
            return self.play(view, me, a)
        if kind == "green":
            return {"fertile": 3.0, "fat_tissue": 2.0, "long_neck": 1.0}.get(a["trait"], 0)
        return self.feed(view, me, a)

    # --- cards ---------------------------------------------------------------------------
    def keep_value(self, view: dict, me: int, card: dict) -> float:
        """What a hand card is worth kept (its best trait use on an own species)."""
        best = 0.6
        for sp in view["players"][me]["species"]:
            have = _traits(sp)
            if card["trait"] in have or len(sp["traits"]) >= view["max_traits"]:
                continue
            best = max(best, 1.0 + self.trait_effect(view, me, sp, card["trait"]))
        return best

    def food_card(self, view: dict, me: int, a: dict) -> float:
        card = next(c for c in view["players"][me]["cards"] if c["card"] == a["card"])
        pref = _climate_pref(view, me)
        mine = view["players"][me]["species"]
        eaters = sum(1 for sp in mine if "carnivore" not in _traits(sp))
        plants = card["plants"] * (0.25 if eaters else -0.1)
        return plants + 0.8 * pref * (card["suns"] - card["snows"]) - \
            self.keep_value(view, me, card)

    def trait_effect(self, view: dict, me: int, sp: dict, t: str) -> float:
        """The effect of trait ``t`` on species ``sp`` of ``me`` (beyond its point)."""
        have = _traits(sp)
        carn = "carnivore" in have
        zone = view["climate"]["index"]
        table = CARNIVORE if carn else PLANT_EATER
        if t in table:
            v = table[t]
        elif t in DEFENCE:
            threats = [c for _, c in _carnivores(view, me)]
            big = [c for c in threats if c["body"] + (c["pop"] if "pack_hunting" in _traits(c)
                                                      else 0) > sp["body"]]
            v = 0.2 + (1.2 if big else 0.3 if threats else 0.0)
            if t == "warning_call":
                v = 0.4 if threats else 0.0
            if t == "symbiosis":
                v = 0.2
        else:
            v = 0.3
        if t == "carnivore" and not carn:
            prey = [x for p, row in enumerate(view["players"]) if p != me
                    for x in row["species"] if x["body"] < sp["body"]]
            carns = sum(1 for x in view["players"][me]["species"] if "carnivore" in _traits(x))
            v = 1.5 if (len(prey) >= 2 and sp["body"] >= 3 and not carns
                        and not {"foraging", "long_neck", "cooperation"} & set(have)) else -2.0
        # the climate: now and one zone either way
        if t in COLD or t in HEAT or t in HEAT_PENALTY:
            before = sum(zone_loss(z, sp, have) for z in (zone - 1, zone, zone + 1)
                         if 0 <= z < len(ZONES))
            after = sum(zone_loss(z, sp, have + [t]) for z in (zone - 1, zone, zone + 1)
                        if 0 <= z < len(ZONES))
            v += 0.8 * (before - after)
        return v

    def play(self, view: dict, me: int, a: dict) -> float:
        kind = a["type"]
        mine = view["players"][me]
        if kind == "done":
            return 0.0
        if kind in ("remove", "exchange"):
            return -5.0
        card = next(c for c in mine["cards"] if c["card"] == a["card"])
        spend = self.keep_value(view, me, card)
        species = {sp["id"]: sp for sp in mine["species"]}
        last = view["last"]
        zone = view["climate"]["index"]
        share = _share(view)
        if kind == "species":
            if a["side"] == "left":
                return -5.0
            want = 2 if view["round"] <= 1 else 3
            return (2.2 if len(species) < want else 0.3 if last else -0.5) - 0.3 * spend
        sp = species[a["species"]]
        have = _traits(sp)
        if kind == "trait":
            v = 1.0 + self.trait_effect(view, me, sp, card["trait"])
            return v + (0.5 if last else 0.0)
        if a["what"] == "pop":
            feedable = sp["pop"] < (share + 1.5 if "carnivore" not in have else 3)
            loss = zone_loss(zone, sp)
            v = (1.8 if feedable else 0.4) + (0.6 if loss >= sp["pop"] else 0.0)
            return v + (0.6 if last else 0.0) - 0.5 * spend
        # body size
        threats = [c for _, c in _carnivores(view, me)
                   if c["body"] + (c["pop"] if "pack_hunting" in _traits(c) else 0)
                   == sp["body"] + 1]
        grown = dict(sp, body=sp["body"] + 1)
        climate = sum(zone_loss(z, sp) - zone_loss(z, grown) for z in (zone, zone + 1, zone - 1)
                      if 0 <= z < len(ZONES))
        v = 0.3 + (1.3 if threats else 0.0) + 0.7 * climate
        if "carnivore" in have:
            v += 1.2 if sp["body"] < 5 else 0.2
        return v - 0.5 * spend - (0.8 if last else 0.0)

    # --- feeding ---------------------------------------------------------------------------
    def feed(self, view: dict, me: int, a: dict) -> float:
        kind = a["type"]
        if kind == "pass":
            return 0.0
        species = _species(view)
        if kind == "attack":
            q, ti, tgt = species[a["target"]]
            _, _, att = species[a["species"]]
            traits = set(_traits(tgt)) - {a.get("ignore")}
            negated = {g["trait"] for g in view["negated"] if g["species"] == att["id"]}
            traits -= negated
            meat = min(tgt["body"], att["pop"] - att["food"])
            v = 6.0 + meat
            if "horns" in traits:
                v -= 2.5 if att["pop"] > 1 else 8.0
            if "discard" in a:
                v -= 1.0
            if q == me:
                v -= 5.0
            elif tgt["pop"] == 1:
                v += 1.0 + 0.3 * len(tgt["traits"])  # an extinction: their traits go too
            return v
        if kind == "feed":
            _, i, sp = species[a["species"]]
            tr = _traits(sp)
            v = 5.0 + (1.0 if "foraging" in tr else 0) + (0.8 if "cooperation" in tr else 0)
            if not sp["hungry"]:
                v = 2.0 if sp["food"] < sp["pop"] else 1.5  # Hibernation's room, or fat
            return v + 0.1 * (sp["pop"] - sp["food"])
        if kind == "intelligence":
            _, _, sp = species[a["species"]]
            demand = sum(max(0, x["pop"] - x["food"]) for x in view["players"][me]["species"]
                         if not x["carnivore"])
            return 4.0 if demand > view["watering_hole"] and sp["hungry"] else -1.0
        if kind == "negate":
            return -2.0
        return 0.0


class StrongPolicy(FastPolicy):
    """The fast rules, with the food card checked ahead on imagined states."""

    samples = 2
    width = 3

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        if len(legal) == 1 or view["phase"] != "food":
            return FastPolicy.choose(self, view, legal, seed)
        from engine.climate import CLIMATE as G
        from engine.climate.view import determinize

        me = view["viewer"]
        ranked = sorted(legal, key=lambda a: -self.score(view, a))
        # distinct cards by (icons, plants, trait): the best few by the fast score
        seen, cands = set(), []
        for a in ranked:
            c = next(x for x in view["players"][me]["cards"] if x["card"] == a["card"])
            key = (c["suns"] - c["snows"], c["plants"], c["trait"])
            if key not in seen:
                seen.add(key)
                cands.append(a)
        cands = cands[: self.width]
        states = [determinize(view, Rng(seed + k).next64()) for k in range(self.samples)]
        fast = FastPolicy()
        best, best_value = cands[0], None
        for a in cands:
            total = 0.0
            for k, st in enumerate(states):
                s = st.clone()
                try:
                    G.apply_in_place(s, me, a)
                    self.rollout(G, s, fast, seed + k, view["round"])
                except Exception:  # an imagined state may differ: skip the action
                    total -= 100
                    continue
                total += self.position(G, s, me)
            value = total / len(states) + 0.05 * self.score(view, a)
            if best_value is None or value > best_value + 1e-9:
                best, best_value = a, value
        return best

    def rollout(self, G, s, fast, seed: int, round_: int, limit: int = 400) -> None:
        """Play on with the fast rules to the end of this round."""
        k = 0
        while not G.is_over(s) and s.round == round_ and k < limit:
            p = G.to_act(s)[0]
            legal = G.legal_actions(s, p)
            a = legal[0] if len(legal) == 1 else fast.choose(G.view(s, p), legal, seed + k)
            G.apply_in_place(s, p, a)
            k += 1

    def position(self, G, s, me: int) -> float:
        def worth(p: int) -> float:
            v = float(s.bags[p])
            for sp in s.rows[p]:
                v += sp["pop"] + len(sp["traits"]) + 0.5 * sp["fat"] + 0.3 * sp["body"]
            v += 0.3 * len(s.hands[p])
            return v

        others = [worth(p) for p in range(s.n) if p != me]
        return worth(me) - (max(others) if others else 0.0)


POLICIES = {"random": RandomPolicy, "fast": FastPolicy, "strong": StrongPolicy}


def policy_for(level: str):
    return make_policy(level, POLICIES)


def view_seed(view: dict) -> int:
    """A seed for one decision, from what the seat sees only (never the names)."""
    key = {k: v for k, v in view.items() if k != "players"}
    key["players"] = [(row["species"], row["hand"], row["cards"], row["done"], row["passed"])
                      for row in view["players"]]
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    return Rng(zlib.crc32(text.encode()) * 0x9E3779B1 + len(text)).next64()


def choose_action(rules, state, player: int, level: str = "fast") -> dict:
    """The action an AI of ``level`` takes for ``player`` now (it sees only its own view)."""
    return choose_with(rules, state, player, level, POLICIES, lambda _s, _p, v: view_seed(v))
