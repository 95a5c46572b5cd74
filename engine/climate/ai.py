"""AI players for Evolution: Climate: ``random``, ``fast`` (rules of thumb) and ``strong``.

Every policy follows the shared contract ``policy.choose(view, legal, seed) -> one of legal``.
``view`` is the seat's own view (``CLIMATE.view(state, me)``): other hands, face-down cards,
food cards, bags and decks are counts only, and in a secret step the others' choices do not
show, so an AI never knows them. ``seed`` comes from the view alone (:func:`view_seed`).

* :class:`RandomPolicy`: a uniformly random legal action.
* :class:`FastPolicy`: the food card is the hand card least worth keeping, with the icons
  that push the climate towards the zone that costs its species least (and the others most);
  the play phase spends cards one by one on the best of a new species (while there are few
  and the plants coming feed it with a head more; on the left of the row when a Warning
  Call there would guard it), population (only while the plants coming, taken turn by turn
  by every player's species as the feeding feeds them, the others' hands still to play
  anticipated, Migratory's bank food for its own hungry species only, feed two heads more:
  :func:`food_outlook`, :meth:`FastPolicy.feedable`; a carnivore, a prey a head and two
  more, and the meat of the prey within its reach, after the climate of every likely zone
  and the other carnivores' hunger, feeding one more head with one to spare:
  :func:`prey_meat`, :func:`likely_zones`),
  body size (against carnivores and the climate; a carnivore's, to reach more prey), a trait
  for its effect here (protections against the climate coming, defences when carnivores
  are about, Foraging / Cooperation / Long Neck for plant eaters, Carnivore on a species of
  body 2 or more with no plant eater's trait when prey abound and it has few carnivores,
  Pack Hunting and Ambush on its carnivores), a trait taken off (Heavy Fur where the heat
  is coming, a Carnivore with no prey), then puts back the cards no species of its can
  take (the exchange; not in the last round) and stops; feeding attacks the prey giving
  the most meat at the least cost (Horns, Mud Wallowing, its own species), feeds the hungry
  species that gains most (Foraging, Cooperation), uses Intelligence when the Watering Hole
  cannot feed everyone, cancels a trait with Intelligence where that opens or cheapens the
  carnivore's best attack (a defence, Horns, Mud Wallowing) or denies the others'
  Scavengers their meat, worth more than the card (:meth:`FastPolicy.negate_value`), and
  stores fat.
* :class:`StrongPolicy`: the food card and every play-phase move are chosen on a model of
  the round worked out from the view alone (no hidden card is guessed): the zones the
  marker may reach (the icons of its own food card, each unknown one a sun or a snowflake
  as often as in the box, a Thaw's suns; the event lying under each zone), the green
  traits, the climate's losses, the plants, the feeding round-robin on the Watering Hole
  (every player's species taking turn by turn with Foraging, Cooperation's chains,
  Nocturnal, Fat Tissue, Hibernation; carnivores eating first), Migratory, its own
  Intelligence with the cards it keeps, starvation. A position is worth the food it brings
  this round, the cards kept, and the rounds left: what the surviving population can be fed
  (its share of the plants against the others' Foraging / Cooperation / Nocturnal, and
  Long Neck, Migratory, Intelligence, carnivores), its final points, its trait cards, one
  more card dealt per species, all discounted by the losses the climate drifting one zone
  either way would cost. Each move (trait by species, growth, a new species; the cards
  spent for growth are those least worth keeping; a plant eater's population is weighed
  only where the fast rules' outlook says the plants coming feed it, :meth:`feedable` with
  no plant to spare, a carnivore's only where the prey within its reach feed one more head
  in every zone weighed, :meth:`hunt_fed`; a trait the model cannot tell from its
  point needs no round of its own) is weighed on the likeliest zone, the best few again
  on every likely zone, and the best one played until stopping is worth more: a species
  is a card a round, a population that will not be fed is a wasted card, a card kept may
  feed an Intelligence species (2 plants). The food card is weighed by the zones and
  plants it brings against what it would have added played as a trait. The work is
  bounded: at most ``StrongPolicy.max_work`` imagined rounds a decision, whatever the
  player count (:meth:`StrongPolicy.decide` tells how many); it never applies an action to
  an engine state (200 games against fast seats, 2-6 players: a median 3.3 ms of CPU a
  decision, 18 ms at the 99th percentile; the worst, 6 players and some 20 species of its
  own, about 25 ms timed alone, up to 55 on a busy machine). Green order: the fast rules;
  feeding: the fast rules, but a Nocturnal species is fed first (its feeding is free) and
  Intelligence is used once the Watering Hole is empty (for the hungry, for 2 of room, or
  for anything in the last round). The model also weighs taking Heavy Fur or a hungry
  Carnivore off; the fast rules choose the side of a new species and the exchange once the
  model stops, and in the last round a trait is played rather than cards kept beyond what
  its Intelligence species can use (the model may run out of work before it weighs them).
  (The food card alone checked ahead by playing the round
  out with the fast rules on determinized states won about 0.3 of the games against fast
  seats for a fair 0.29, at up to seconds a decision; this model wins 0.91 of them:
  ``bench/ai_matchup.py --game climate``.)

Everything here is pure: no I/O, no clock, decisions from the view (and the seed) alone.
"""

from __future__ import annotations

import copy
from functools import lru_cache

from engine.ai import Levels, RandomPolicy, seed_of
from engine.climate.data import (
    BODY,
    CARDS,
    CAUSE,
    COLD,
    HEAT,
    HEAT_PENALTY,
    ICONS,
    MAX_POP,
    NUM,
    PENALTY_ZONES,
    PLANTS,
    SNOWS,
    SUNS,
    TRAIT_OF,
    TRAITS,
    ZONES,
)
from engine.climate.position import DEFENSIVE
from engine.search import SearchPolicy, relative

__all__ = ["LEVELS", "STRATEGIC", "FastPolicy", "RandomPolicy", "StrongPolicy",
           "choose_action", "policy_for", "strategic_kinds", "view_seed"]


# The kinds of action a good player uses where they are good (engine/ai.py: every level but
# random must choose each at least once where legal over 60 seeded games): every trait played
# as a trait, every other play, and the feeding's choices. Not listed, as never right: a card
# put back for the exchange in the last round (the cards drawn come after the last play
# phase, only Intelligence could use them and any card does that); the order of green
# traits and the food card are no kinds (every decision of their step makes one).
STRATEGIC = {
    **{f"trait:{t}": f"play: {t.replace('_', ' ')} played as a trait" for t in TRAITS},
    "species_right": "play: a new species on the right of the row",
    "species_left": "play: a new species on the left of the row",
    "grow_pop": "play: population +1",
    "grow_body": "play: body size +1",
    "remove": "play: a trait card removed from a species",
    "exchange": "play: cards put back under the deck for as many drawn",
    "attack": "feeding: a carnivore attacks",
    "attack_ambush": "feeding: an Ambush attacker ignores a Migratory target's defence",
    "attack_mud": "feeding: a card discarded to attack through Mud Wallowing",
    "intelligence": "feeding: a card for 2 plants from the bank (Intelligence)",
    "negate": "feeding: a card cancels a defence for the next attack (Intelligence)",
}


def strategic_kinds(view: dict, a: dict) -> tuple[str, ...]:
    """The strategic kinds of action ``a`` (see :data:`STRATEGIC`), read from ``view``."""
    kind = a["type"]
    if kind == "trait":
        return (f"trait:{TRAIT_OF[a['card']]}",)
    if kind == "species":
        return (f"species_{a['side']}",)
    if kind == "grow":
        return (f"grow_{a['what']}",)
    if kind == "attack":
        out = ["attack"]
        if "ignore" in a:
            out.append("attack_ambush")
        if "discard" in a:
            out.append("attack_mud")
        return tuple(out)
    if kind in ("remove", "exchange", "intelligence", "negate"):
        return (kind,)
    return ()


# --- reading a view -----------------------------------------------------------------------------

def _traits(sp: dict) -> list[str]:
    return [t["trait"] for t in sp["traits"] if t["trait"] is not None]


def _species(view: dict) -> dict[int, tuple[int, int, dict]]:
    """species id -> (owner, index, species)."""
    return {sp["id"]: (p, i, sp) for p, row in enumerate(view["players"])
            for i, sp in enumerate(row["species"])}


def zone_loss(zone: int, sp: dict, traits=None) -> int:
    """Population ``sp`` would lose to the climate of ``zone`` (the rules' reckoning)."""
    return _loss(zone, sp["body"], frozenset(_traits(sp) if traits is None else traits))


@lru_cache(maxsize=4096)
def _loss(zone: int, body: int, tr: frozenset) -> int:
    """Population a species of ``body`` size with traits ``tr`` loses to ``zone``."""
    cause = CAUSE[zone]
    lo, hi = BODY[zone]
    icons = ICONS[zone] if cause and lo <= body <= hi else 0
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
PLANT_ONLY = frozenset({"foraging", "long_neck", "cooperation", "intelligence", "nocturnal"})
MEAN_PLANTS = sum(PLANTS.values()) / len(PLANTS)  # an unknown food card's plants
OTHERS_GROWTH = 0.3  # plant demand another player still to play adds a card in hand


def _prey(view: dict, me: int, body: int, pop: int, at) -> list[dict]:
    """Other players' species a carnivore of ``body`` (``pop``, traits ``at``) could attack
    (the blockers that do not depend on the round: size, Hard Shell, Cooling Frills,
    Climbing, Defensive Herding; Horns' cost is the feeding's business)."""
    size = body + (pop if "pack_hunting" in at else 0)
    out = []
    for p, row in enumerate(view["players"]):
        if p == me:
            continue
        for t in row["species"]:
            tt = _traits(t)
            extra = (SHELL if "hard_shell" in tt else 0) + (FRILLS if "cooling_frills" in tt
                                                             else 0)
            if size <= t["body"] + extra:
                continue
            if "climbing" in tt and "climbing" not in at:
                continue
            if "defensive_herding" in tt and pop <= t["pop"]:
                continue
            out.append(t)
    return out


def _ambush_ignores(att: dict, t: dict) -> tuple[str, ...]:
    """What an Ambush attacker ``att`` may ignore on ``t`` (a Migratory species)."""
    if "ambush" not in _traits(att):
        return ()
    tt = _traits(t)
    return tuple(x for x in tt if x in DEFENSIVE) if "migratory" in tt else ()


def _mudded(t: dict, negated, ignore) -> bool:
    """An attack on ``t`` costs a card (Mud Wallowing, neither cancelled nor ignored)."""
    return "mud_wallowing" in _traits(t) and "mud_wallowing" not in negated and \
        ignore != "mud_wallowing"


def _view_blockers(view: dict, att: dict, q: int, ti: int, negated,
                   ignore: str | None = None) -> list[str] | None:
    """The rules' blockers (``engine.climate.rules.blockers``) read from a view: the traits
    in the way of ``att`` attacking ``q``'s species at ``ti``, ``[]`` when it can, None when
    its size alone is too small."""
    row = view["players"][q]["species"]
    t = row[ti]
    at = _traits(att)
    tt = set(_traits(t)) - set(negated) - {ignore}
    size = att["body"] + (att["pop"] if "pack_hunting" in at else 0)
    if size <= t["body"]:
        return None
    out: list[str] = []
    if size <= t["body"] + (SHELL if "hard_shell" in tt else 0) + \
            (FRILLS if "cooling_frills" in tt else 0):
        out.extend(x for x in ("hard_shell", "cooling_frills") if x in tt)
    if "climbing" in tt and "climbing" not in at:
        out.append("climbing")
    if "defensive_herding" in tt and att["pop"] <= t["pop"]:
        out.append("defensive_herding")
    if "burrowing" in tt and not t["hungry"]:
        out.append("burrowing")
    if "symbiosis" in tt and ti + 1 < len(row) and row[ti + 1]["body"] > t["body"]:
        out.append("symbiosis")
    if "ambush" not in at and "warning_call" not in negated and any(
            "warning_call" in _traits(row[j]) for j in (ti - 1, ti + 1) if 0 <= j < len(row)):
        out.append("warning_call")
    return out


def food_outlook(view: dict, me: int, extra: int = 0, anticipate: bool = False,
                 species: int | None = None, new: bool = False) -> tuple[float, float]:
    """(plants ``me``'s plant eaters may expect this round, their hunger) with ``extra``
    population more on ``species`` (an id; None: the first plant eater), or if ``new`` on a
    new species (population 1 + ``extra``) on the right of the row: the Watering Hole
    and the food cards coming (the unknown ones at the box's mean) with the zone's
    modifier, taken turn by turn (:func:`round_robin`) by every player's plant eaters as the
    feeding rules would feed them (the strong model's :func:`_schedule`: Foraging,
    Cooperation's chains, Nocturnal), after the green traits (Long Neck) and the climate's
    losses in the zone now; a player's hungry carnivores with prey (their population after
    Fertile and the climate) spend its first turns attacking (the best prey's body in meat
    an attack, at most 2); Migratory's food from the bank for its own species still hungry
    when the plants run out. ``anticipate``: in the play phase, each other player still to
    play adds ``OTHERS_GROWTH`` of demand a card in hand (the population and species it may
    add)."""
    zone = view["climate"]["index"]
    wh = view["watering_hole"]
    cards = 0.0
    for fc in view["food_cards"]:
        if fc is not None:
            cards += fc["plants"] if fc.get("card") else MEAN_PLANTS
    total = cards + view["climate"]["plants"][zone]
    if total > 0 and not view["events"]["meteor"]:
        wh += total
    elif total < 0:
        wh = max(0.0, wh + total)
    rows = _model_rows(view)
    if new:
        rows[me].append(_mk(1 + extra, 1, 0, 0, (), 0))
    elif extra:
        mine = view["players"][me]["species"]
        at = [i for i, sp in enumerate(mine) if species is None and not sp["carnivore"]
              or sp["id"] == species]
        if at:
            rows[me][at[0]][POP] += extra
    scheds, skip = [], []
    hunger = 0.0
    log: list = []  # my feeding turns (:func:`_schedule`)
    for p, (vrow, row) in enumerate(zip(view["players"], rows, strict=True)):
        carns = [(sp, row[i]) for i, sp in enumerate(vrow["species"]) if sp["carnivore"]]
        _green_and_climate(row, view["watering_hole"], zone, False)
        hunts = 0
        for sp, msp in carns:
            # its attacks come first (a feeding turn each, the best prey's body in meat, at
            # most 2 a time), its population after Fertile and the climate's losses
            h = msp[POP] - msp[FOOD] if _at(row, msp) >= 0 else 0
            prey = _prey(view, p, sp["body"], sp["pop"], _traits(sp)) if h > 0 else ()
            if prey:
                meat = min(2, max(t["body"] for t in prey))
                hunts += -(-h // meat)
        if p == me:
            hunger = float(sum(max(0, sp[POP] - sp[FOOD] - sp[HIB]) for sp in row
                               if not sp[CARN]))
        sched = [float(x) for x in _schedule(row, True, log if p == me else None)]
        if anticipate and p != me and view["phase"] == "play" and not vrow["done"]:
            more = OTHERS_GROWTH * vrow["hand"]
            while more > 1e-9:
                sched.append(min(1.0, more))
                more -= 1.0
        scheds.append(sched)
        skip.append(hunts)
    n = len(rows)
    order = [(view["first"] + k) % n for k in range(n)]
    got = round_robin(float(wh), scheds, skip, order)[me]
    mine, sched = rows[me], scheds[me]
    if got < sum(sched) - 1e-9:
        # the plants ran out: my species as they stand after my last turn (the row was fed
        # as if they never did), then Migratory feeds those of them still hungry
        k, taken = 0, 0.0
        while k < len(sched) and taken + sched[k] <= got + 1e-9:
            taken += sched[k]
            k += 1
        for t in range(len(log) - 1, k - 1, -1):
            for j, f, fat in log[t]:
                mine[j][FOOD], mine[j][FAT] = f, fat
        if got - taken > 1e-9:
            vals = [_feed_value(mine, j) for j in range(len(mine))]
            if vals and max(vals) > 0:
                _take(mine, vals.index(max(vals)), 1, limit=got - taken)
        for i, sp in enumerate(mine):
            if "migratory" in sp[TR] and not sp[CARN] and _hungry(sp):
                got += _take(mine, i, FEEDING["migratory"])
    return got, hunger


def prey_meat(view: dict, me: int, sp: dict, extra: int, zone: int) -> tuple[float, int]:
    """(the meat within reach of ``me``'s carnivore ``sp`` with ``extra`` population more,
    its hunger) once the climate of ``zone`` has taken its losses: the other players'
    species it may attack as the rules' blockers read from the view allow (an Ambush
    attacker ignoring a Migratory target's defence; Burrowing left out: its prey is hungry
    when the feeding begins), a prey's body size for each of its heads, less the hunger of
    every other carnivore the view shows (they hunt the same prey). Its own losses are the
    least of those with its traits and with any one trait in hand more (one may still come
    and keep alive a head that would starve)."""
    tr = _traits(sp)
    loss = zone_loss(zone, sp, tr)
    for c in view["players"][me]["cards"]:
        if loss and c["trait"] not in tr:
            loss = min(loss, zone_loss(zone, sp, [*tr, c["trait"]]))
    att = dict(sp, pop=sp["pop"] + extra - loss)
    hunger = att["pop"] - sp["food"]
    if att["pop"] <= 0 or hunger <= 0:
        return 0.0, 0
    meat = 0.0
    for q, row in enumerate(view["players"]):
        if q == me:
            continue
        for ti, t in enumerate(row["species"]):
            for ig in (None, *_ambush_ignores(att, t)):
                b = _view_blockers(view, att, q, ti, (), ig)
                if b is not None and all(x == "burrowing" for x in b):
                    meat += t["body"] * max(0, t["pop"] - zone_loss(zone, t))
                    break
    rivals = sum(max(0, c["pop"] - zone_loss(zone, c) - c["food"])
                 for _, c in _carnivores(view) if c["id"] != sp["id"])
    return meat - rivals, hunger


def round_robin(plants: float, scheds: list[list[float]], skip: list[int],
                order: list[int]) -> list[float]:
    """The plants each player gets at the Watering Hole, turn by turn from ``order[0]``:
    player q takes ``scheds[q][k]`` at its k-th plant turn, after ``skip[q]`` turns spent
    otherwise (its carnivores' attacks)."""
    got = [0.0] * len(scheds)
    ptr = [0] * len(scheds)
    t = 0
    while plants > 1e-9:
        moved = False
        for q in order:
            if ptr[q] >= len(scheds[q]):
                continue
            moved = True
            if t < skip[q]:
                continue
            x = min(scheds[q][ptr[q]], plants)
            ptr[q] += 1
            got[q] += x
            plants -= x
            if plants <= 1e-9:
                break
        if not moved:
            break
        t += 1
    return got


def share_plants(plants: float, rates: list[float], demand: list[float]) -> list[float]:
    """The plants each player gets when everyone takes them at their own rate (a round-robin
    at the Watering Hole, smoothed): shares in proportion to the rates, a player's surplus
    going back to those still hungry."""
    alloc = [0.0] * len(rates)
    active = [q for q in range(len(rates)) if rates[q] > 0 and demand[q] > 0]
    while plants > 1e-9 and active:
        tot = sum(rates[q] for q in active)
        give, nxt = plants, []
        for q in active:
            g = give * rates[q] / tot
            if alloc[q] + g >= demand[q]:
                plants -= demand[q] - alloc[q]
                alloc[q] = demand[q]
            else:
                alloc[q] += g
                plants -= g
                nxt.append(q)
        if len(nxt) == len(active):
            break
        active = nxt
    return alloc


_MISSING = object()  # FastPolicy._once: not asked yet


class FastPolicy:
    # (issue 22: a quarter of fast's starvation losses hit a species it grew that round;
    # a plant and two prey to spare make it fewer)
    margin = 1  # heads more the plants coming must feed before the population grows
    carn_spare = 2  # prey beyond one a head before a carnivore's population grows
    meat_spare = 1  # meat to spare before a carnivore's population grows (:meth:`hunt_fed`)
    # one decision's answers (the view, {key: answer}) of :meth:`fed`, :meth:`feedable`'s
    # carnivore test, :meth:`keep_value`, :meth:`trait_effect` and a body growth's gain
    # (:meth:`_once`): every card's growth of a species, every card's new species ask the
    # same food outlook, every action with a card its keep value. The policy is shared
    # (engine.ai keeps one per level, threads included), so the memo lives on a copy made
    # for the decision, never on the shared policy. Species are the view's own (keyed by
    # id), and nothing changes the view during a decision.
    _fed_memo: tuple[dict, dict] | None = None

    def _once(self, view: dict, key: tuple, fn, *args):
        """``fn(*args)``, asked once per ``key`` in this decision (on ``view``)."""
        memo = self._fed_memo
        if memo is not None and memo[0] is view:
            found = memo[1].get(key, _MISSING)
            if found is _MISSING:
                found = memo[1][key] = fn(*args)
            return found
        return fn(*args)

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        if self._fed_memo is None or self._fed_memo[0] is not view:
            one = copy.copy(self)
            one._fed_memo = (view, {})
            return one.choose(view, legal, seed)
        best, best_v = legal[0], None
        now: dict[int, float] = {}  # per carnivore: its best legal attack's value
        negates = []
        for a in legal:
            if a["type"] == "negate":
                negates.append(a)
                continue
            v = self.score(view, a)
            if a["type"] == "attack":
                now[a["species"]] = max(now.get(a["species"], v), v)
            if best_v is None or v > best_v + 1e-9:
                best, best_v = a, v
        for a in negates:
            v = self.negate_value(view, a, now.get(a["species"]))
            if best_v is None or v > best_v + 1e-9:
                best, best_v = a, v
        return best

    def negate_value(self, view: dict, a: dict, now: float | None) -> float:
        """Intelligence cancels a trait for a carnivore's next attack, for a card: worth the
        best attack it opens or makes cheaper (a target a defence shut, Horns' pop, Mud
        Wallowing's card), or for Scavenger the meat the others' scavengers would take; less
        the card (next to nothing in the last round). ``now``: the carnivore's best legal
        attack's value (None: none). Below ``now`` when it changes nothing."""
        me = view["viewer"]
        species = _species(view)
        _, _, att = species[a["species"]]
        if att["food"] >= att["pop"]:
            return -5.0
        neg = {g["trait"] for g in view["negated"] if g["species"] == att["id"]}
        neg.add(a["trait"])
        card = next(c for c in view["players"][me]["cards"] if c["card"] == a["card"])
        cost = 0.3 if view["last"] else self.keep_value(view, me, card)
        best = None
        for q, row in enumerate(view["players"]):
            for ti, t in enumerate(row["species"]):
                if t is att:
                    continue
                for ig in (None, *_ambush_ignores(att, t)):
                    if _view_blockers(view, att, q, ti, neg, ig) != []:
                        continue
                    mud = _mudded(t, neg, ig)
                    if mud and len(view["players"][me]["cards"]) < 2:
                        continue
                    v = self.attack_value(view, me, att, q, t, neg, ig, mud)
                    best = v if best is None else max(best, v)
        if best is None:
            return -5.0
        if a["trait"] == "scavenger":
            scav = [p for p, row in enumerate(view["players"]) for sp in row["species"]
                    if "scavenger" in _traits(sp)]
            best += 0.5 * sum(1 for p in scav if p != me) - 1.0 * scav.count(me)
        return best - cost

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
        # it reads the card's trait only
        return self._once(view, ("keep", me, card["trait"]), self._keep_value, view, me, card)

    def _keep_value(self, view: dict, me: int, card: dict) -> float:
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
        return self._once(view, ("trait", me, sp["id"], t), self._trait_effect, view, me, sp, t)

    def _trait_effect(self, view: dict, me: int, sp: dict, t: str) -> float:
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
            v = self.carnivore_value(view, me, sp)
        # the climate: now and one zone either way
        if t in COLD or t in HEAT or t in HEAT_PENALTY:
            before = sum(zone_loss(z, sp, have) for z in (zone - 1, zone, zone + 1)
                         if 0 <= z < len(ZONES))
            after = sum(zone_loss(z, sp, have + [t]) for z in (zone - 1, zone, zone + 1)
                        if 0 <= z < len(ZONES))
            v += 0.8 * (before - after)
        return v

    def carnivore_value(self, view: dict, me: int, sp: dict) -> float:
        """Carnivore on ``sp`` (not one yet): good on a species of body 2 or more (or 1,
        with a card left to grow it) with no plant eater's trait, when prey abound and the
        player has no carnivore yet (or one for every three species)."""
        mine = view["players"][me]
        have = _traits(sp)
        carns = sum(1 for x in mine["species"] if "carnivore" in _traits(x))
        body = max(sp["body"], 2)
        prey = _prey(view, me, body, sp["pop"], set(have) | {"carnivore"})
        ok = (len(prey) >= 2 and carns <= len(mine["species"]) // 3 - (1 if carns else 0)
              and not PLANT_ONLY.intersection(have)
              and (sp["body"] >= 2 or len(mine["cards"]) >= 2))
        return 1.2 + 0.15 * min(len(prey), 6) if ok else -2.0

    def play(self, view: dict, me: int, a: dict) -> float:
        kind = a["type"]
        mine = view["players"][me]
        if kind == "done":
            return 0.0
        if kind == "remove":
            return self.remove_value(view, me, a)
        card = next(c for c in mine["cards"] if c["card"] == a["card"])
        spend = self.keep_value(view, me, card)
        if kind == "exchange":
            # once nothing else is worth a card: a card no species of mine can take as a
            # trait, for a card drawn (not in the last round: the cards come after its play)
            return 0.05 if spend <= 0.6 + 1e-9 and not view["last"] else -5.0
        species = {sp["id"]: sp for sp in mine["species"]}
        last = view["last"]
        zone = view["climate"]["index"]
        if kind == "species":
            want = 2 if view["round"] <= 1 else 3
            v = (2.2 if len(species) < want else 0.3 if last else -0.5) - 0.3 * spend
            if not self.fed(view, me, None):
                # the plants coming would not feed it (or what it takes starves another)
                v = min(v, -0.6)
            # a Warning Call at the left end protects a neighbour; a Cooperation (or a
            # Warning Call) at the right end feeds (protects) one on the right
            row = mine["species"]
            left = bool(row) and "warning_call" in _traits(row[0]) and not (
                {"cooperation", "warning_call"} & set(_traits(row[-1])))
            return v + (0.1 if (a["side"] == "left") == left else -0.1)
        sp = species[a["species"]]
        have = _traits(sp)
        carn = "carnivore" in have
        if kind == "trait":
            v = 1.0 + self.trait_effect(view, me, sp, card["trait"])
            return v + (0.5 if last else 0.0)
        if a["what"] == "pop":
            loss = zone_loss(zone, sp)
            if not self.feedable(view, me, sp):
                return -0.6
            v = 1.8 + (0.6 if loss >= sp["pop"] else 0.0)
            return v + (0.6 if last else 0.0) - 0.5 * spend
        # body size (what the species gains, the same for every card)
        v = self._once(view, ("body", me, sp["id"]), self._body_value, view, me, sp, have,
                       carn, zone)
        return v - 0.5 * spend - (0.8 if last else 0.0)

    @staticmethod
    def _body_value(view: dict, me: int, sp: dict, have: list[str], carn: bool,
                    zone: int) -> float:
        threats = [c for _, c in _carnivores(view, me)
                   if c["body"] + (c["pop"] if "pack_hunting" in _traits(c) else 0)
                   == sp["body"] + 1]
        grown = dict(sp, body=sp["body"] + 1)
        climate = sum(zone_loss(z, sp) - zone_loss(z, grown) for z in (zone, zone + 1, zone - 1)
                      if 0 <= z < len(ZONES))
        v = 0.3 + (1.3 if threats else 0.0) + 0.7 * climate
        if carn:  # a carnivore grows to reach more prey (of body 1 it reaches none)
            now = len(_prey(view, me, sp["body"], sp["pop"], have))
            more = len(_prey(view, me, sp["body"] + 1, sp["pop"], have)) - now
            v += 2.0 if now == 0 and more else 1.2 if more else 0.2
        return v

    def feedable(self, view: dict, me: int, sp: dict) -> bool:
        """Would one more population on ``me``'s species ``sp`` be fed this round, as far as
        the view tells? A carnivore: a prey a head and ``carn_spare`` to spare; a plant
        eater: the plants coming (:func:`food_outlook`, the others' hands still to play
        counted) feed all of ``me``'s plant eaters and one more with ``margin`` to spare
        (:meth:`fed`)."""
        if "carnivore" in _traits(sp):
            # (sp: the view's own species, as for every memo keyed by a species id)
            return self._once(view, ("hunt", me, sp["id"]), self._hunt_feedable, view, me, sp)
        return self.fed(view, me, sp["id"])

    def _hunt_feedable(self, view: dict, me: int, sp: dict) -> bool:
        return sp["pop"] + self.carn_spare < min(
            4, len(_prey(view, me, sp["body"], sp["pop"], _traits(sp)))) and \
            self.hunt_fed(view, me, sp, likely_zones(view, me))

    def fed(self, view: dict, me: int, species: int | None) -> bool:
        """The plants coming (:func:`food_outlook`, the others' hands still to play counted)
        feed all of ``me``'s plant eaters with one head more on ``species`` (None: a new
        species), and ``margin`` heads more."""
        return self._once(view, ("fed", me, species), self._fed, view, me, species)

    def _fed(self, view: dict, me: int, species: int | None) -> bool:
        more = round(self.margin)
        if species is None:
            got, need = food_outlook(view, me, more, anticipate=True, new=True)
        else:
            got, need = food_outlook(view, me, 1 + more, anticipate=True, species=species)
        return got >= need - 1e-9

    def hunt_fed(self, view: dict, me: int, sp: dict, zones) -> bool:
        """Would one more head on ``me``'s carnivore ``sp`` be fed by the prey within its
        reach (:func:`prey_meat`, ``meat_spare`` to spare) wherever the climate ends among
        ``zones`` (the zones after the events under them)?"""
        for z in zones:
            meat, hunger = prey_meat(view, me, sp, 1, z)
            if hunger and meat < hunger + self.meat_spare:
                return False
        return True

    def remove_value(self, view: dict, me: int, a: dict) -> float:
        """A trait card taken off (its point lost): Heavy Fur where the heat is coming, a
        Carnivore with no prey left (it may eat plants again)."""
        sp = next(x for x in view["players"][me]["species"] if x["id"] == a["species"])
        t = TRAIT_OF[a["card"]]
        have = _traits(sp)
        if t == "heavy_fur":
            zone = view["climate"]["index"]
            rest = [x for x in have if x != t]
            harm = sum(w * (zone_loss(z, sp, have) - zone_loss(z, sp, rest))
                       for z, w in ((zone - 1, 0.25), (zone, 0.5), (zone + 1, 0.25))
                       if 0 <= z < len(ZONES))
            return 1.5 * harm - 1.0
        if t == "carnivore" and not _prey(view, me, sp["body"], sp["pop"], have) \
                and view["watering_hole"] + 2 >= sp["pop"]:
            return 0.5 * sp["pop"] - 0.4
        return -5.0

    # --- feeding ---------------------------------------------------------------------------
    @staticmethod
    def attack_value(view: dict, me: int, att: dict, q: int, tgt: dict, negated: set,
                     ignore: str | None, discard: bool) -> float:
        """An attack of ``me``'s carnivore ``att`` on ``q``'s ``tgt``, ``negated`` cancelled,
        an Ambush attacker ignoring ``ignore``, a card discarded for Mud Wallowing or not:
        the meat at the least cost (Horns, the card, an own species)."""
        traits = set(_traits(tgt)) - negated - {ignore}
        meat = min(tgt["body"], att["pop"] - att["food"])
        v = 6.0 + meat + (0.01 if ignore else 0.0)  # Ambush: ignoring never hurts
        if "horns" in traits:
            v -= 2.5 if att["pop"] > 1 else 8.0
        if discard:
            v -= 1.0
        if q == me:
            v -= 5.0
        elif tgt["pop"] == 1:
            v += 1.0 + 0.3 * len(tgt["traits"])  # an extinction: their traits go too
        return v

    def feed(self, view: dict, me: int, a: dict) -> float:
        kind = a["type"]
        if kind == "pass":
            return 0.0
        species = _species(view)
        if kind == "attack":
            q, _, tgt = species[a["target"]]
            _, _, att = species[a["species"]]
            negated = {g["trait"] for g in view["negated"] if g["species"] == att["id"]}
            return self.attack_value(view, me, att, q, tgt, negated, a.get("ignore"),
                                     "discard" in a)
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


# --- the strong player's model of a round ------------------------------------------------------
#
# A species in the model is a list (cheap to copy): [pop, body, food, fat, traits (frozenset),
# trait cards (points), carnivore, Foraging's extra plant, Fat Tissue, Hibernation's pop].
POP, BODY_, FOOD, FAT, TR, NT, CARN, FORAGE, FATT, HIB = range(10)

LAST_ZONE = len(ZONES) - 1
FEEDING = NUM["feeding"]
SHELL, FRILLS = NUM["attack"]["hard_shell"], NUM["attack"]["cooling_frills"]
P_SUN = sum(SUNS.values()) / len(CARDS)  # an unknown food card: a sun, a snowflake, neither
P_SNOW = sum(SNOWS.values()) / len(CARDS)
# traits the model feeds with (beyond their point), and those that only defend
FEED_TRAITS = frozenset({"foraging", "cooperation", "nocturnal", "long_neck", "fertile",
                         "fat_tissue", "hibernation", "migratory", "intelligence", "carnivore"})
DEFENCE_TRAITS = frozenset({"burrowing", "climbing", "hard_shell", "cooling_frills",
                            "defensive_herding", "horns", "symbiosis", "warning_call",
                            "mud_wallowing", "scavenger"})


def _mk(pop: int, body: int, food: int, fat: int, tr, nt: int) -> list:
    tr = frozenset(tr)
    return [pop, body, food, fat, tr, nt, "carnivore" in tr,
            FEEDING["foraging"] if "foraging" in tr else 0,
            "fat_tissue" in tr, FEEDING["hibernation"] if "hibernation" in tr else 0]


def _model_rows(view: dict) -> list[list[list]]:
    """Every player's species in the model: the traits the viewer knows (others' face-down
    cards count as points only)."""
    return [[_mk(sp["pop"], sp["body"], sp["food"], sp["fat"], _traits(sp), len(sp["traits"]))
             for sp in row["species"]] for row in view["players"]]


def _room(sp: list) -> int:
    r = sp[POP] - sp[FOOD]
    if sp[FATT]:
        r += sp[BODY_] - sp[FAT]
    return r


def _hungry(sp: list) -> bool:
    return sp[FOOD] < sp[POP] - sp[HIB]


def _attackable(a: list, row: list, i: int) -> bool:
    """Can carnivore ``a`` attack ``row[i]`` (the rules' blockers, no Intelligence)?"""
    t = row[i]
    tt, at = t[TR], a[TR]
    size = a[BODY_] + (a[POP] if "pack_hunting" in at else 0)
    extra = (SHELL if "hard_shell" in tt else 0) + (FRILLS if "cooling_frills" in tt else 0)
    if size <= t[BODY_] + extra:
        return False
    if "climbing" in tt and "climbing" not in at:
        return False
    if "defensive_herding" in tt and a[POP] <= t[POP]:
        return False
    if "burrowing" in tt and not _hungry(t):
        return False
    if "symbiosis" in tt and i + 1 < len(row) and row[i + 1][BODY_] > t[BODY_]:
        return False
    if "ambush" not in at:
        for j in (i - 1, i + 1):
            if 0 <= j < len(row) and "warning_call" in row[j][TR]:
                return False
    return True


def _take(row: list, i: int, amount: int, plant: bool = True, limit: int = 99) -> int:
    """Food to ``row[i]`` (at most ``limit`` in all), Foraging and Cooperation's chain
    included; returns the food taken."""
    sp = row[i]
    if plant:
        if sp[CARN]:
            return 0
        amount += sp[FORAGE]
    got = min(amount, _room(sp), limit)
    if got <= 0:
        return 0
    board = min(got, sp[POP] - sp[FOOD])
    sp[FOOD] += board
    sp[FAT] += got - board
    if "cooperation" in sp[TR] and i + 1 < len(row):
        got += _take(row, i + 1, FEEDING["cooperation"], plant, limit - got)
    return got


def _at(row: list, sp: list) -> int:
    """The index of species ``sp`` itself in ``row`` (alike species are equal lists), or -1."""
    for i, x in enumerate(row):
        if x is sp:
            return i
    return -1


def _lose(row: list, sp: list, lost: int) -> int:
    """``sp`` loses population (dies out at 0); returns the food that goes to the bag."""
    if lost <= 0:
        return 0
    sp[POP] = max(0, sp[POP] - lost)
    bag = 0
    if sp[FOOD] > sp[POP]:
        bag = sp[FOOD] - sp[POP]
        sp[FOOD] = sp[POP]
    if sp[POP] == 0:
        bag += sp[FOOD] + sp[FAT]
        del row[_at(row, sp)]
    return bag


def _feed_value(row: list, i: int) -> float:
    """Which species a player feeds (the fast rules): the hungry first, Foraging,
    Cooperation with room on its right, the hungriest; < 0: none."""
    sp = row[i]
    if sp[6]:  # CARN
        return -1.0
    pop, food = sp[0], sp[2]
    r = pop - food + (sp[1] - sp[3] if sp[8] else 0)  # _room, inline (the hot path)
    if r <= 0:
        return -1.0
    v = (10.0 if food < pop - sp[9] else 1.0) + sp[7] + 0.1 * (pop - food)
    if "cooperation" in sp[4] and i + 1 < len(row) and _room(row[i + 1]) > 0:
        v += 0.8
    return v


def _refresh(row: list, vals: list, i: int) -> None:
    """The feeding values of species ``i``, its left neighbour and its Cooperation chain."""
    n = len(row)
    hi = i + 1
    while hi < n and "cooperation" in row[hi - 1][4]:
        hi += 1
    for j in range(i - 1 if i else 0, hi + 1 if hi < n else n):
        vals[j] = _feed_value(row, j)


def _schedule(row: list, night_ok: bool, log: list | None = None) -> list[int]:
    """The Watering Hole plants ``row`` takes turn by turn if they never ran out (the row is
    fed in place); ``log`` gets, per turn, (index, food, fat) of the species it changes as
    they were before it."""
    out = []
    n = len(row)
    vals = [_feed_value(row, i) for i in range(n)]
    night = [i for i, sp in enumerate(row) if "nocturnal" in sp[TR] and not sp[CARN]] \
        if night_ok else []
    for _ in range(150):
        # a turn changes the species it feeds and those on their right (Cooperation's chain)
        before, i0 = None, n
        got = 0
        for i in night:  # Nocturnal's free feeding, before the turn's own
            if _hungry(row[i]):
                if log is not None:
                    before, i0 = [(j, row[j][FOOD], row[j][FAT]) for j in range(i, n)], i
                got += _take(row, i, 1)
                _refresh(row, vals, i)
                break
        vmax = max(vals) if vals else -1.0
        if vmax > 0:
            i = vals.index(vmax)
            if log is not None and i < i0:
                before = [(j, row[j][FOOD], row[j][FAT]) for j in range(i, i0)] + (before or [])
            got += _take(row, i, 1)
            _refresh(row, vals, i)
        if got <= 0:
            break
        if log is not None:
            log.append(before)
        out.append(got)
    return out


def _green_and_climate(row: list, wh: int, zone: int, fire: bool) -> int:
    """Green traits (Fat Tissue, Fertile, Long Neck), a Wildfire, the climate's losses;
    returns the food bagged."""
    for i, sp in enumerate(row):
        tr = sp[TR]
        if sp[FATT] and sp[FAT]:
            mv = min(sp[FAT], sp[POP] - sp[FOOD])
            sp[FAT] -= mv
            sp[FOOD] += mv
        if "fertile" in tr and wh > 0 and sp[POP] < MAX_POP:
            sp[POP] = min(MAX_POP, sp[POP] + FEEDING["fertile"])
        if "long_neck" in tr and not sp[CARN]:
            _take(row, i, FEEDING["long_neck"])
    bag = 0
    if fire:
        for sp in list(row):
            if "burrowing" not in sp[TR]:
                bag += _lose(row, sp, 1)
    for sp in list(row):
        bag += _lose(row, sp, _loss(zone, sp[BODY_], sp[TR]))
    return bag


def _carnivores_eat(rows: list, order: list[int]) -> list[int]:
    """Carnivores eat before the plants (a simplification): each hungry one attacks its best
    target (body size, not Horns, another player's) until fed or out of targets. Returns the
    food bagged per player."""
    n = len(rows)
    bags = [0] * n
    for p in order:
        for sp in [x for x in rows[p] if x[CARN]]:
            if _at(rows[p], sp) < 0 or sp[FOOD] >= sp[POP]:
                continue
            cands = []
            for q in range(n):
                row = rows[q]
                for ti, t in enumerate(row):
                    if t is not sp and _attackable(sp, row, ti):
                        v = t[BODY_] - (3 if "horns" in t[TR] else 0) - (6 if q == p else 0)
                        cands.append((-v, len(cands), q, t))
            cands.sort(key=lambda c: c[:2])
            k = 0
            for _ in range(8):
                if _at(rows[p], sp) < 0 or sp[FOOD] >= sp[POP] or k >= len(cands):
                    break
                _, _, q, t = cands[k]
                ti = _at(rows[q], t)
                if ti < 0 or not _attackable(sp, rows[q], ti):
                    k += 1
                    continue
                if "horns" in t[TR]:
                    bags[p] += _lose(rows[p], sp, 1)
                bags[q] += _lose(rows[q], t, 1)
                i = _at(rows[p], sp)
                if i >= 0:
                    _take(rows[p], i, t[BODY_], plant=False)
    return bags


def _zone_odds(view: dict, net: int, unknown: int) -> dict[int, float]:
    """Where the marker goes: my food card's icons ``net`` (suns - snowflakes), ``unknown``
    other cards each a sun or a snowflake as often as in the box, a Thaw's suns."""
    dist = {net + (3 if view["events"]["thaw"] else 0): 1.0}
    for _ in range(unknown):
        nd: dict[int, float] = {}
        for k, pr in dist.items():
            for d, q in ((1, P_SUN), (-1, P_SNOW), (0, 1.0 - P_SUN - P_SNOW)):
                nd[k + d] = nd.get(k + d, 0.0) + pr * q
        dist = nd
    z = view["climate"]["index"]
    out: dict[int, float] = {}
    for k, pr in dist.items():
        zz = max(0, min(LAST_ZONE, z + (1 if k > 0 else -1 if k < 0 else 0)))
        out[zz] = out.get(zz, 0.0) + pr
    return out


def _event_zone(view: dict, z: int) -> int:
    """The zone whose climate strikes when the marker ends on ``z`` (a Cold Snap, a Heat
    Wave lying under it)."""
    ev = _event_at(view, z)
    if ev is not None and ev["event"] == "cold_snap":
        return max(0, z - 2)
    if ev is not None and ev["event"] == "heat_wave":
        return min(LAST_ZONE, z + 2)
    return z


def likely_zones(view: dict, me: int, min_odds: float = 0.08) -> set[int]:
    """The zones whose climate may strike this round, as ``me``'s view tells (its own food
    card's icons, each unknown card a sun or a snowflake as often as in the box, a Thaw, the
    events under the zones): those at least ``min_odds`` likely."""
    fcs = view["food_cards"]
    mine = fcs[me]
    net = mine["suns"] - mine["snows"] if mine and mine.get("card") else 0
    unknown = sum(1 for p, fc in enumerate(fcs) if p != me and (
        (fc is not None and fc.get("card") is None) or
        (fc is None and view["phase"] == "food" and view["players"][p]["hand"] > 0)))
    odds = _zone_odds(view, net, unknown)
    return {_event_zone(view, z) for z, pr in odds.items() if pr >= min_odds}


def _event_at(view: dict, z: int) -> dict | None:
    if not view["options"]["events"]:
        return None
    for d in ("cold", "hot"):
        up = view["events"][d]["up"]
        if up is not None and up["zone"] == ZONES[z]:
            return up
    return None


class _Round:
    """This round's environment and feeding on the model if the marker ends on ``zone``,
    with the other players' part worked out once (when no carnivore is about)."""

    def __init__(self, view: dict, rows: list, me: int, zone: int, plants: float) -> None:
        self.me = me
        n = self.n = len(rows)
        self.order = [(view["first"] + k) % n for k in range(n)]
        self.wh0 = view["watering_hole"]
        ez, blocked, fire, nxt = zone, False, False, zone
        ev = _event_at(view, zone)
        if ev is not None:
            kind = ev["event"]
            if kind == "cold_snap":
                ez = max(0, zone - 2)
            elif kind == "heat_wave":
                ez = min(LAST_ZONE, zone + 2)
            elif kind in ("desertification", "meteor"):
                blocked = True
            elif kind == "wildfire":
                blocked = fire = True
            elif kind == "volcanic_eruption":
                nxt = ZONES.index(ev["to"])
        self.ez, self.fire, self.next_zone = ez, fire, nxt
        self.total = plants + view["climate"]["plants"][ez]
        self.blocked = blocked or view["events"]["meteor"]
        self.carn = any(sp[CARN] for row in rows for sp in row)
        self.cache: dict = {}
        self.rates = None  # the others' feeding rates and demand (StrongPolicy.future)
        self.others = None
        if not self.carn:
            self.others = {}
            for q in range(n):
                if q != me:
                    row = [sp[:] for sp in rows[q]]
                    bag = _green_and_climate(row, self.wh0, ez, fire)
                    self.others[q] = (row, bag, _schedule(row, True))

    def run(self, rows: list, hand: int, last: bool) -> tuple:
        """Play the round with my rows ``rows[me]`` and ``hand`` cards kept: (my food this
        round, my rows after it, cards spent on Intelligence, the others' food, their rows)."""
        me = self.me
        if self.others is None:
            rows = [[sp[:] for sp in row] for row in rows]
            cbags = _carnivores_eat(rows, self.order)
            others = {}
            for q in range(self.n):
                if q == me:
                    continue
                row = rows[q]
                key = (q, cbags[q], tuple(tuple(sp[:5]) for sp in row))
                got = self.cache.get(key)
                if got is None:
                    bag = _green_and_climate(row, self.wh0, self.ez, self.fire) + cbags[q]
                    got = self.cache[key] = (row, bag, _schedule(row, False))
                others[q] = got
            mine = rows[me]
            food = cbags[me]
        else:
            others = self.others
            mine = [sp[:] for sp in rows[me]]
            food = 0
        food += _green_and_climate(mine, self.wh0, self.ez, self.fire)
        wh = self.wh0
        if self.total > 0 and not self.blocked:
            wh += self.total
        elif self.total < 0:
            wh = max(0, wh + self.total)
        log: list = []
        scheds = {q: o[2] for q, o in others.items()}
        scheds[me] = _schedule(mine, not self.carn, log)
        # the round-robin on the Watering Hole, from the first player
        ptr = dict.fromkeys(range(self.n), 0)
        got = dict.fromkeys(range(self.n), 0)
        partial = 0
        while wh > 0:
            moved = False
            for q in self.order:
                s, k = scheds[q], ptr[q]
                if k >= len(s):
                    continue
                moved = True
                if s[k] <= wh:
                    wh -= s[k]
                    got[q] += s[k]
                    ptr[q] = k + 1
                else:
                    if q == me:
                        partial = wh
                    got[q] += wh
                    wh = 0
                    break
            if not moved:
                break
        # my species as they stand after my last whole turn (and a partial one)
        k = ptr[me]
        if k < len(log):
            for t in range(len(log) - 1, k - 1, -1):
                for j, f, fat in log[t]:
                    mine[j][FOOD], mine[j][FAT] = f, fat
            if partial:
                vals = [_feed_value(mine, j) for j in range(len(mine))]
                if vals and max(vals) > 0:
                    _take(mine, vals.index(max(vals)), 1, limit=partial)
        if wh == 0:  # Migratory
            for i, sp in enumerate(mine):
                if "migratory" in sp[TR]:
                    _take(mine, i, FEEDING["migratory"])
        cards, used = hand, 0  # Intelligence with the cards kept
        for i, sp in enumerate(mine):
            if "intelligence" in sp[TR] and not sp[CARN]:
                while cards > 0 and _room(sp) > 0 and (last or _room(sp) >= 2 or _hungry(sp)):
                    _take(mine, i, FEEDING["intelligence"])
                    cards -= 1
                    used += 1
        for sp in list(mine):  # starvation, then the bag
            keep = sp[FOOD] + min(sp[HIB], sp[POP] - sp[FOOD])
            food += _lose(mine, sp, sp[POP] - keep)
        for sp in mine:
            food += sp[FOOD]
            sp[FOOD] = 0
        others_food = [got[q] + others[q][1] for q in sorted(others)]
        return food, mine, used, others_food, [others[q][0] for q in sorted(others)]


class StrongPolicy(FastPolicy):
    """Food card and play phase weighed on the model of the round (see the module text);
    green order and feeding by the fast rules."""

    max_work = 30  # imagined rounds (``_Round.run``) a decision, at most
    margin = 0  # a plant eater grows only while the plants coming feed it (:meth:`feedable`)
    meat_spare = 0  # a carnivore grows only while the prey feed it in every likely zone
    c_card = 0.7  # a card kept for a later round
    card_deal = 1.0  # a species for each round left: one more card dealt
    others_plants = 4.0  # the plants of another player's unknown food card
    lam = 0.3  # the others' food this round, against ours
    min_odds = 0.08  # zones less likely than this are left out
    shortlist = 4  # moves weighed on every likely zone after a first look on the likeliest

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        return self.decide(view, legal, seed)[0]

    # --- feeding ---------------------------------------------------------------------------
    def feed(self, view: dict, me: int, a: dict) -> float:
        """FastPolicy's feeding, with Nocturnal first and Intelligence's own reading."""
        kind = a["type"]
        if kind == "feed":
            sp = _species(view)[a["species"]][2]
            first = sp["hungry"] and "nocturnal" in _traits(sp) \
                and sp["id"] not in view["night"]
            # Nocturnal's feeding is free when no carnivore could eat it
            return super().feed(view, me, a) + (2.0 if first else 0.0)
        if kind == "intelligence":
            # 2 plants from the bank for a card, once the Watering Hole is empty: for the
            # hungry, for 2 of room, or for anything in the last round (cards are worth
            # nothing after it)
            sp = _species(view)[a["species"]][2]
            room = sp["pop"] - sp["food"]
            if "fat_tissue" in _traits(sp):
                room += sp["body"] - sp["fat"]
            if room <= 0 or view["watering_hole"] > 0:
                return -1.0
            return 4.0 if view["last"] or room >= 2 or sp["hungry"] else -1.0
        return super().feed(view, me, a)

    def decide(self, view: dict, legal: list[dict], seed: int) -> tuple[dict, int]:
        """The action, and the work it took (imagined rounds, at most ``max_work``)."""
        if len(legal) > 1:
            if view["phase"] == "food":
                return self.choose_food(view, legal)
            if view["phase"] == "play":
                best, work = self.choose_play(view, legal)
                return self.tidy(view, legal, best), work
        return FastPolicy.choose(self, view, legal, seed), 0

    def tidy(self, view: dict, legal: list[dict], best: dict) -> dict:
        """What the model leaves to the fast rules: the side of a new species (a Warning
        Call at the left end), stopping (a trait rather than cards kept in the last round,
        beyond what Intelligence can use; else the cards no species can take exchanged)."""
        me = view["viewer"]
        kind = best["type"]
        if kind == "species":
            other = dict(best, side="left" if best["side"] == "right" else "right")
            if other in legal and FastPolicy.play(self, view, me, other) > \
                    FastPolicy.play(self, view, me, best):
                return other
            return best
        if kind != "done":
            return best
        mine = view["players"][me]
        if view["last"]:
            intel = sum(-(-(sp["pop"] - sp["food"]) // 2) for sp in mine["species"]
                        if not sp["carnivore"] and "intelligence" in _traits(sp))
            if len(mine["cards"]) > intel:
                # (a trait card is a point: any the fast rules do not find harmful)
                return self._best_fast(view, legal, "trait", above=0.0) or best
            return best
        return self._best_fast(view, legal, "exchange", above=0.0) or best

    def _best_fast(self, view: dict, legal: list[dict], kind: str, above: float):
        """The legal action of ``kind`` the fast rules value most (the first of equals), if
        that value is above ``above``; else None."""
        me = view["viewer"]
        scored = [(FastPolicy.play(self, view, me, a), i, a)
                  for i, a in enumerate(legal) if a["type"] == kind]
        if not scored:
            return None
        v, _, a = max(scored, key=lambda t: (t[0], -t[1]))
        return a if v > above else None

    # --- valuing a position -------------------------------------------------------------
    def rounds_left(self, view: dict) -> int:
        """Rounds after this one: until a Deal empties the draw deck."""
        if view["last"]:
            return 0
        if view["final_next"]:
            return 1
        deal = sum(4 + len(r["species"]) for r in view["players"])
        return max(1, -(-view["deck"] // deal))

    def rounds(self, view: dict, rows: list, me: int, odds: dict, plants: float) -> list:
        """[(probability, _Round)] for the zones the marker may likely reach."""
        zs = sorted(((pr, z) for z, pr in odds.items() if pr >= self.min_odds), reverse=True)
        tot = sum(pr for pr, _ in zs)
        return [(pr / tot, _Round(view, rows, me, z, plants)) for pr, z in zs]

    def value(self, view: dict, rnds: list, rows: list, hand: int, left: int) -> float:
        """Expected points of my position (``rows[me]``, ``hand`` cards kept) over the
        zones: this round's food and the cards kept, then the rounds ``left``."""
        last = view["last"]
        total = 0.0
        for pr, rnd in rnds:
            food, mine, used, ofood, orows = rnd.run(rows, hand, last)
            v = food + (hand - used) * (0.0 if last else self.c_card)
            v -= self.lam * sum(ofood) / max(1, len(ofood))
            if rnd.others is not None:  # the same other rows every time: once
                if rnd.rates is None:
                    rnd.rates = self.others_rates(orows)
                v += self.future(view, mine, orows, left, rnd.next_zone, rnd.rates)
            else:
                v += self.future(view, mine, orows, left, rnd.next_zone)
            total += pr * v
        return total

    def future(self, view: dict, my: list, orows: list, left: int, zone: int,
               others: tuple | None = None) -> float:
        """My species' worth after this round: trait cards and fat; with rounds ``left``,
        the food the population can get a round and the final points, one more card dealt
        per species, all discounted by the losses of the climate drifting a zone either
        way. ``others``: ``others_rates(orows)`` if known."""
        if left == 0:
            return float(sum(sp[NT] + sp[FAT] + sp[POP] for sp in my))
        drift = ((max(0, zone - 1), 0.25), (zone, 0.5), (min(LAST_ZONE, zone + 1), 0.25))
        pop = v = alive = 0.0
        bank = 0.0
        hib = 0
        for sp in my:
            lost = min(sp[POP], left * sum(w * _loss(z, sp[BODY_], sp[TR]) for z, w in drift))
            s = 1.0 - lost / sp[POP]
            pop += sp[POP] - lost
            v += s * sp[NT] + sp[FAT]
            alive += s
            hib += min(sp[HIB], sp[POP])
            if sp[CARN]:
                bank += min(sp[POP], 2.0)
                continue
            tr = sp[TR]
            if "long_neck" in tr:
                bank += 1 + sp[FORAGE]
            if "migratory" in tr:
                bank += 1.4
            if "intelligence" in tr:
                bank += min(sp[POP], 3.0)
        # the plants of a round shared by the rate at which each player takes them
        n = 1 + len(orows)
        plants = 0.0 if view["events"]["meteor"] else \
            max(0.0, n * 3.6 + view["climate"]["plants"][zone])
        if others is None:
            others = self.others_rates(orows)
        rates = [self._rate(my), *others[0]]
        demand = [pop, *others[1]]
        cap = share_plants(plants, rates, demand)[0] + bank
        return v + left * min(pop, cap) + min(pop, cap + hib) + left * self.card_deal * alive

    def others_rates(self, orows: list) -> tuple[list, list]:
        """The other players' feeding rates and plant demand in the rounds left."""
        return ([self._rate(r) for r in orows],
                [sum(sp[POP] for sp in r if not sp[CARN]) + 1.5 for r in orows])

    @staticmethod
    def _rate(row: list) -> float:
        """Plants a player takes a feeding turn: its best take, and Nocturnal's."""
        r = 0.0
        for i, sp in enumerate(row):
            if not sp[CARN]:
                x = 1 + sp[FORAGE] + (1 if "cooperation" in sp[TR] and i + 1 < len(row) else 0)
                r = max(r, x)
                if "nocturnal" in sp[TR]:
                    r += 1
        return r

    def inert(self, t: str, sp: list, carn_any: bool, zones) -> bool:
        """Trait ``t`` changes nothing the model sees on ``sp`` (beyond its point)."""
        if t in FEED_TRAITS:
            return False
        if sp[CARN] and t in ("pack_hunting", "ambush", "scavenger"):
            return False
        if carn_any and t in DEFENCE_TRAITS:
            return False
        if t in COLD or t in HEAT or t in HEAT_PENALTY:
            tr2 = sp[TR] | {t}
            return all(_loss(z, sp[BODY_], tr2) == _loss(z, sp[BODY_], sp[TR]) for z in zones)
        return True

    def prior(self, t: str, sp: list, carn_any: bool, rnds: list) -> float:
        """Which trait moves to weigh first when the work runs short."""
        if t in FEED_TRAITS:
            return 2.0 + sp[POP] / 6.0
        p = 0.5
        for pr, r in rnds:
            if _loss(r.ez, sp[BODY_], sp[TR] | {t}) < _loss(r.ez, sp[BODY_], sp[TR]):
                p += 2.0 * pr
        return p + (1.0 if carn_any and t in DEFENCE_TRAITS else 0.0)

    @staticmethod
    def _with_trait(sp: list, t: str) -> list:
        return _mk(sp[POP], sp[BODY_], sp[FOOD], sp[FAT], sp[TR] | {t}, sp[NT] + 1)

    # --- the play phase -----------------------------------------------------------------
    def choose_play(self, view: dict, legal: list[dict]) -> tuple[dict, int]:
        me = view["viewer"]
        left = self.rounds_left(view)
        rows = _model_rows(view)
        mine0 = rows[me]
        fcs = view["food_cards"]
        mycard = fcs[me]
        net = mycard["suns"] - mycard["snows"] if mycard and mycard.get("card") else 0
        unknown = sum(1 for p, fc in enumerate(fcs)
                      if p != me and fc is not None and fc.get("card") is None)
        plants = sum(fc["plants"] for fc in fcs if fc and fc.get("card")) + \
            unknown * self.others_plants
        odds = _zone_odds(view, net, unknown)
        rnds = self.rounds(view, rows, me, odds, plants)
        work = len(rnds)
        hand = view["players"][me]["cards"]
        h = len(hand)
        best = next((a for a in legal if a["type"] == "done"), None)
        bv = self.value(view, rnds, rows, h, left)
        cards = {c["card"]: c for c in hand}
        kv = {c["card"]: self.keep_value(view, me, c) for c in hand}
        cheapest = min(hand, key=lambda c: (kv[c["card"]], c["card"]))["card"] if hand else None
        species = view["players"][me]["species"]
        idx = {sp["id"]: i for i, sp in enumerate(species)}
        # species alike (and alike placed for Cooperation) give alike moves
        sig = [(tuple(sp[:4]), sp[TR], sp[NT], i > 0 and "cooperation" in mine0[i - 1][TR],
                i + 1 < len(mine0)) for i, sp in enumerate(mine0)]
        carn_any = any(sp[CARN] for row in rows for sp in row)
        zones = set(odds) | {r.ez for _, r in rnds}
        kept = None  # my rows unchanged, one card fewer (a trait that only adds its point)
        seen: set = set()
        cands = []
        for a in legal:
            k = a["type"]
            if k == "trait":
                i = idx[a["species"]]
                t = cards[a["card"]]["trait"]
                key = (k, t, sig[i])
                if key in seen:
                    continue
                seen.add(key)
                if self.inert(t, mine0[i], carn_any, zones):
                    if kept is None:
                        kept = self.value(view, rnds, rows, h - 1, left)
                        work += len(rnds)
                    v = kept + 1.0 + 0.05 * self.trait_effect(view, me, species[i], t)
                    if best is None or v > bv + 1e-9:
                        best, bv = a, v
                    continue
                cands.append((-self.prior(t, mine0[i], carn_any, rnds), len(cands), a))
            elif k == "grow" and a["card"] == cheapest:
                key = (k, a["what"], sig[idx[a["species"]]])
                if key not in seen and a["what"] == "pop":
                    i = idx[a["species"]]
                    if not (self.hunt_fed(view, me, species[i], {r.ez for _, r in rnds})
                            if mine0[i][CARN] else self.feedable(view, me, species[i])):
                        seen.add(key)  # the plants coming (the prey) would not feed it
                if key not in seen:
                    seen.add(key)
                    cands.append((-3.0 if a["what"] == "pop" else -1.0, len(cands), a))
            elif k == "species" and a["card"] == cheapest and a["side"] == "right":
                cands.append((-3.0, len(cands), a))
            elif k == "remove" and FastPolicy.remove_value(self, view, me, a) > -1.0:
                cands.append((-2.0, len(cands), a))  # Heavy Fur in the heat, a hungry Carnivore
        cands.sort(key=lambda c: c[:2])
        moves = []
        for _, order, a in cands:
            k = a["type"]
            mine = [sp[:] for sp in mine0]
            r2 = list(rows)
            r2[me] = mine
            if k == "trait":
                i = idx[a["species"]]
                mine[i] = self._with_trait(mine[i], cards[a["card"]]["trait"])
            elif k == "grow":
                mine[idx[a["species"]]][POP if a["what"] == "pop" else BODY_] += 1
            elif k == "remove":
                i = idx[a["species"]]
                x = mine[i]
                mine[i] = _mk(x[POP], x[BODY_], x[FOOD], x[FAT], x[TR] - {TRAIT_OF[a["card"]]},
                              x[NT] - 1)
            else:
                mine.append(_mk(1, 1, 0, 0, (), 0))
            rr = rnds
            if (k == "trait" and mine[idx[a["species"]]][CARN] and not carn_any) or (
                    k == "remove" and carn_any and not any(
                        sp[CARN] for row in r2 for sp in row)):
                rr = self.rounds(view, r2, me, odds, plants)  # a first or no carnivore
            moves.append((order, a, r2, rr))
        if len(moves) > self.shortlist and len(rnds) > 1:
            # many moves: each weighed first on the likeliest zone alone, the best few then
            # on every likely zone
            stop = self.value(view, rnds[:1], rows, h, left)
            work += 1
            reserve = self.shortlist * len(rnds)
            first = []
            for order, a, r2, rr in moves:
                if work + 1 + reserve > self.max_work:
                    break
                work += 1
                spent = 0 if a["type"] == "remove" else 1
                v = self.value(view, [(1.0, rr[0][1])], r2, h - spent, left) - stop
                first.append((-v, order, a, r2, rr))
            first.sort(key=lambda c: c[:2])
            moves = [m[1:] for m in first[:self.shortlist]]
        for _, a, r2, rr in moves:
            if work + len(rr) > self.max_work:
                break
            work += len(rr)
            v = self.value(view, rr, r2, h - (0 if a["type"] == "remove" else 1), left)
            if best is None or v > bv + 1e-9:
                best, bv = a, v
        if best is None:
            best = FastPolicy.choose(self, view, legal, 0)
        return best, work

    # --- the food card ------------------------------------------------------------------
    def choose_food(self, view: dict, legal: list[dict]) -> tuple[dict, int]:
        me = view["viewer"]
        left = self.rounds_left(view)
        rows = _model_rows(view)
        mine0 = rows[me]
        hand = view["players"][me]["cards"]
        h = len(hand)
        fcs = view["food_cards"]
        unknown = sum(1 for p, row in enumerate(view["players"]) if p != me and (
            (fcs[p] is not None and fcs[p].get("card") is None) or
            (fcs[p] is None and row["hand"] > 0)))
        plants = sum(fc["plants"] for p, fc in enumerate(fcs)
                     if p != me and fc and fc.get("card")) + unknown * self.others_plants
        work = 0
        # the zones and plants a card brings: per net icons, the value at 3 plants and the
        # gain per plant
        by_net: dict[int, float] = {}
        slope = None
        for a in legal:
            c = next(x for x in hand if x["card"] == a["card"])
            net = c["suns"] - c["snows"]
            if net in by_net:
                continue
            odds = _zone_odds(view, net, unknown)
            lo = self.rounds(view, rows, me, odds, plants + 3)
            by_net[net] = self.value(view, lo, rows, h - 1, left)
            work += len(lo)
            if slope is None:
                hi = self.rounds(view, rows, me, odds, plants + 6)
                slope = (self.value(view, hi, rows, h - 1, left) - by_net[net]) / 3.0
                work += len(hi)
        # what a trait in hand would add played on a species (once, the likeliest zone);
        # a second copy adds nothing
        odds0 = _zone_odds(view, 0, unknown)
        z0 = max(sorted(odds0), key=lambda z: odds0[z])
        rnd0 = [(1.0, _Round(view, rows, me, z0, plants + 3))]
        carn_any = any(sp[CARN] for row in rows for sp in row)
        count: dict[str, int] = {}
        for c in hand:
            count[c["trait"]] = count.get(c["trait"], 0) + 1
        gain = dict.fromkeys(count, 0.0)  # inert traits: their point
        tries = []
        seen: set = set()
        for t in sorted(count):
            if count[t] > 1:
                continue
            for i, sp in enumerate(mine0):
                if t in sp[TR] or sp[NT] >= view["max_traits"]:
                    continue
                key = (t, tuple(sp[:4]), sp[TR], sp[NT])
                if key in seen:
                    continue
                seen.add(key)
                if self.inert(t, sp, carn_any, {z0}):
                    gain[t] = 1.0
                else:
                    tries.append((-self.prior(t, sp, carn_any, rnd0), len(tries), t, i))
        weighed: dict[str, float] = {}
        base = None
        for _, _, t, i in sorted(tries):
            if work + (2 if base is None else 1) > self.max_work:
                weighed[t] = max(weighed.get(t, 1.0), 1.0)  # not weighed: its point
                continue
            if base is None:
                base = self.value(view, rnd0, rows, h - 1, left)
                work += 1
            work += 1
            r2 = list(rows)
            r2[me] = mine = [sp[:] for sp in mine0]
            mine[i] = self._with_trait(mine[i], t)
            g = self.value(view, rnd0, r2, h - 2, left) - base + self.c_card
            weighed[t] = max(weighed.get(t, g), g)
        for t, g in weighed.items():
            gain[t] = max(gain[t], g)
        best, bv = None, None
        for a in legal:
            c = next(x for x in hand if x["card"] == a["card"])
            v = by_net[c["suns"] - c["snows"]] + slope * (c["plants"] - 3) - gain[c["trait"]]
            if bv is None or v > bv + 1e-9:
                best, bv = a, v
        return best, work


# --- expert: information-set MCTS (engine/search.py) ------------------------------------------

CARD_WORTH = 0.7  # a hand card: a trait, a population or a species to come
SPECIES_WORTH = 1.0  # a surviving species: a card dealt each round left, plants to take


def evaluate(state) -> list[float]:
    """Each player's worth of a position (the searcher's cut rollouts) against the best other
    player's, squashed to 0..1 (:func:`engine.search.relative`): the final points once the game
    is over; before, the points now (bag, population, trait cards), the hand cards at
    ``CARD_WORTH`` and ``SPECIES_WORTH`` a species for each round that may be left."""
    from engine.climate.rules import score

    n = state.n
    totals = [score(state, p)["total"] for p in range(n)]
    if state.phase == "over":
        return relative(totals, 4.0)
    left = 0 if state.last else 1
    vals = [totals[p] + CARD_WORTH * len(state.hands[p])
            + SPECIES_WORTH * left * len(state.rows[p]) for p in range(n)]
    return relative(vals, 6.0)


def round_over(start, state) -> bool:
    """The searcher's horizon: the round the search began in is over (or the game)."""
    return state.round != start.round or state.phase == "over"


class ExpertPolicy(SearchPolicy):
    """IS-MCTS from the seat's own view (engine/search.py): worlds from ``determinize``, the
    strong choice and the fast ranking as the root's shortlist and prior, rollouts played by
    the fast rules on every seat's view of the world, cut at the end of the round and scored
    by :func:`evaluate`. ``iterations`` (deterministic) or ``seconds`` (wall clock, 1 s by
    default) bound each decision."""

    kind = "climate"
    prior_policy = StrongPolicy
    rollout_policy = FastPolicy

    def evaluate(self, state) -> list[float]:
        return evaluate(state)

    def horizon(self, start, state) -> bool:
        return round_over(start, state)

    def rollout_step(self, rules):
        """The fast rules, but every player stops at once in the rollouts' play phases (the
        fast rules weigh every card on every species: far too slow for rollouts late in a
        game); what the search weighs is the root move, then the round's climate and
        feeding."""
        fast = SearchPolicy.rollout_step(self, rules)
        done = {"type": "done"}

        def step(state, p, legal, seed):
            if state.phase == "play" and done in legal:
                return done
            return fast(state, p, legal, seed)

        return step


# expert: the searching level (engine/search.py); the host runs it in an AI worker process
POLICIES = {"random": RandomPolicy, "fast": FastPolicy, "strong": StrongPolicy,
            "expert": ExpertPolicy}
AI = Levels(POLICIES, lambda _s, _p, v: view_seed(v))
LEVELS, policy_for, choose_action = AI.names, AI.policy_for, AI.choose_action


def view_seed(view: dict) -> int:
    """A seed for one decision, from what the seat sees only (never the names)."""
    key = {k: v for k, v in view.items() if k != "players"}
    key["players"] = [(row["species"], row["hand"], row["cards"], row["done"], row["passed"])
                      for row in view["players"]]
    return seed_of(key)
