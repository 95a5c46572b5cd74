"""AI players for Random Mutations: ``random``, ``fast`` (rules of thumb) and ``strong``.

Every policy follows the shared contract ``policy.choose(view, legal, seed) -> one of legal``.
``view`` is the seat's own view (``MUTATIONS.view(state, me)``): decks are counts only, so an
AI cannot know the card it is about to turn. ``seed`` comes from the view alone
(:func:`view_seed`).

* :class:`RandomPolicy`: a uniformly random legal action.
* :class:`FastPolicy`: development grows the population up to what the expected food share
  (the climate dice's mean over the players, plus what the carnivores may catch) can feed
  (a new species; an animal under a species whose trait cards a spare keeps or whose guards
  protect it; with Divergence, a split of a guarded or carnivore species, whose new species
  keeps those traits and may take its own), then plays traits on species of one animal,
  then passes; a dark first trait stays on its species when it is cheap there (Bark Beetle,
  Development Defects on an unguarded species, Extremophile or Metabolic Syndrome late) and
  becomes a new species when food can follow; feeding completes the hungriest
  animal closest to fed, attacks the most valuable unprotected opponent species (avoiding
  Poisonous and Running when it can), protects threatened animals with burrows, and puts
  parasites on the leader's biggest species; owed choices give up the least valuable animal.
* :class:`StrongPolicy`: keeps its cards for the last turn (before it, the population only
  grows to what the food can keep; a card played earlier is mostly lost before the end), then
  plays the whole deck as traits on the species cheapest to feed plus a spare animal under
  each species with traits (with Divergence, a split of a guarded species rather than a new
  bare species; a dark first trait becomes an animal only with food to spare); feeds the animal whose food saves the most points, and aims
  attacks and parasites at the points they destroy.
"""

from __future__ import annotations

from engine.ai import Levels, RandomPolicy, seed_of
from engine.core import Rng
from engine.mutations.data import FOOD, TRAIT_OF, climate_dice
from engine.search import SearchPolicy, _sampled, relative

__all__ = ["LEVELS", "STRATEGIC", "FastPolicy", "RandomPolicy", "StrongPolicy",
           "choose_action", "policy_for", "strategic_kinds", "view_seed"]


# The kinds of action a good player uses where they are good (engine/ai.py: every level but
# random must choose each at least once where legal over 60 seeded games). Every action type
# has its kind but the owed choices (which animal is eaten, lost or scavenges: no rule to
# choose, only an animal) and the forced passes; none is never right.
STRATEGIC = {
    "new_species": "development: the card becomes a new species",
    "trait": "development: the card is declared a trait of a species",
    "animal": "development: an animal for an existing species",
    "split": "Divergence: a new animal splits a species in two",
    "keep_cards": "development: pass with cards left (kept for a later turn)",
    "dark_trait": "a dark first trait kept on its species",
    "dark_species": "a dark first trait turned into a new species",
    "food": "feeding: a red food token",
    "burrow": "feeding: a green token as a burrow (no attack eats the animal)",
    "bark_beetle": "feeding: a green token eaten by an unfed Bark Beetle animal",
    "parasite": "feeding: a parasite on another player's animal",
    "attack": "feeding: a carnivore attacks",
    "attack_ignoring": "an attack ignoring a trait of a Development Defects species",
    "graze": "Grazing destroys red tokens",
    "mimicry": "Mimicry sends an attack to another of the owner's species",
}


def strategic_kinds(view: dict, a: dict) -> tuple[str, ...]:
    """The strategic kinds of action ``a`` (see :data:`STRATEGIC`), read from ``view``."""
    kind = a["type"]
    if kind == "develop":
        return ({"species": "new_species"}.get(a["use"], a["use"]),)
    if kind == "pass":
        mine = view["players"][view["viewer"]]
        return ("keep_cards",) if view["phase"] == "development" and mine["deck"] else ()
    if kind == "dark":
        return ("dark_trait",) if a["play"] == "trait" else ("dark_species",)
    if kind == "burrow":
        _, sp, an = _animals(view)[a["animal"]]
        tr = sp["all_traits"]
        beetle = "bark_beetle" in tr and "obligate_carnivore" not in tr and not an["fed"]
        return ("bark_beetle",) if beetle else ("burrow",)
    if kind == "attack":
        return ("attack", "attack_ignoring") if "ignore" in a else ("attack",)
    if kind == "graze":
        return ("graze",) if a["count"] else ()
    if kind == "redirect":
        pend = view["pending"]
        return ("mimicry",) if pend and a["target"] != pend["target"] else ()
    if kind in ("food", "parasite"):
        return (kind,)
    return ()


# --- reading a view ---------------------------------------------------------------------------

def _species(view: dict) -> dict[int, tuple[int, dict]]:
    return {sp["id"]: (p, sp) for p, row in enumerate(view["players"]) for sp in row["species"]}


def _animals(view: dict) -> dict[int, tuple[int, dict, dict]]:
    return {a["id"]: (p, sp, a) for p, row in enumerate(view["players"])
            for sp in row["species"] for a in sp["animals"]}


_SHARE: dict[int, float] = {}


def _food_share(view: dict) -> float:
    n = len(view["players"])
    share = _SHARE.get(n)
    if share is None:
        dice, plus = climate_dice(n)["food"]
        share = _SHARE[n] = (dice * 3.5 + plus) / n
    return share


def _fed(sp: dict, an: dict) -> bool:
    """Animal ``an`` of species ``sp`` is fed (the view's ``fed``, read from its tokens: a
    :func:`rollout_view` lists the state's own animals)."""
    return an["red"] + an["blue"] >= sp["need"]


def _value(sp: dict) -> float:
    """What a species is worth at the end: 2 per animal, its trait cards and bonuses."""
    return 2 * len(sp["animals"]) + sum(1 + FOOD[t] for t in sp["traits"])


# traits that keep a species' animals from attacks (inherited by a species split from it)
GUARDS = frozenset({"swimming", "poisonous", "running", "high_body_weight", "burrowing",
                    "mimicry"})


def _carnivore(sp: dict) -> bool:
    return "carnivore" in sp["all_traits"] or "obligate_carnivore" in sp["all_traits"]


class FastPolicy:
    greed = 1.25  # animals kept per expected food token of the share
    spare = 0.4  # an animal rather than a new species, under traits worth keeping
    diverge = 0.3  # a split rather than an animal, for a species with guards or Carnivore

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        # the first of the best scores (the view's lookups built once per decision)
        ctx: list = [None, None, None]
        best, best_v = legal[0], None
        for a in legal:
            v = self._score(view, a, ctx)
            if best_v is None or v > best_v:
                best, best_v = a, v
        return best

    # a number per action: higher is better
    def score(self, view: dict, a: dict) -> float:
        return self._score(view, a, [None, None, None])

    def _score(self, view: dict, a: dict, ctx: list) -> float:
        """``score``; ``ctx``: the view's species and animals by id (and the strong level's
        parasite table), built on first use and kept for the decision's other actions."""
        kind = a["type"]
        me = view["viewer"]
        mine = view["players"][me]
        if kind in ("develop", "pass") and view["phase"] == "development":
            return self.develop(view, mine, a)
        if kind == "dark":
            return self.dark(view, mine, a)
        if kind == "graze":
            hunger = sum(sp["need"] - a2["red"] - a2["blue"] for sp in mine["species"]
                         for a2 in sp["animals"] if not _fed(sp, a2)
                         and "obligate_carnivore" not in sp["all_traits"])
            spare = max(0, view["centre"]["food"] - hunger)
            return -abs(a["count"] - spare)
        species, animals, _ = ctx
        if species is None:
            species = ctx[0] = _species(view)
            animals = ctx[1] = _animals(view)
        if kind == "redirect":
            _, sp = species[a["target"]]
            return -_value(sp) + (5 if "poisonous" in sp["all_traits"] else 0)
        if kind in ("eat", "lose"):
            _, sp, an = animals[a["animal"]]
            return -(an["red"] + an["blue"]) * 2 - (3 if _fed(sp, an) else 0) + an["parasites"]
        if kind == "scavenge":
            _, sp, an = animals[a["animal"]]
            return -(sp["need"] - an["red"] - an["blue"])
        return self.feed(view, me, mine, a, species, animals, ctx)

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
        if room < sp["need"]:
            return -1.5
        good = 0.5 * len(sp["all_traits"]) - sp["need"] + 1
        bonus = 0.3 if "extremophile" in sp["all_traits"] else 0
        v = 1.8 + 0.1 * good - bonus
        guarded = bool(GUARDS.intersection(sp["all_traits"]))
        if use == "animal":
            # a spare animal keeps the species' trait cards when one animal is lost, and an
            # animal of a guarded species is safer than a new bare species
            if _trait_points(sp) >= 2 or guarded:
                v += self.spare
            return v
        # Divergence: the new species keeps the old one's traits (its guards, its Carnivore)
        # and may take traits of its own; a species of one animal keeps taking traits too
        if guarded or _carnivore(sp):
            v += self.diverge + (0.2 if len(sp["animals"]) == 1 and _trait_points(sp) < 2 else 0.0)
        return v

    def dark(self, view: dict, mine: dict, a: dict) -> float:
        """A dark first trait: kept on its species (its points, no food) or a new species
        (an animal: 2 points and a card a turn, if it can be fed)."""
        animals = sum(len(sp["animals"]) for sp in mine["species"])
        room = self.target_animals(view, mine) - animals
        if a["play"] == "species":
            return 2.0 if room >= 1 else 0.5
        pend = view["pending"]
        t = pend["trait"]
        sp = next((x for x in mine["species"] if x["id"] == pend["species"]), None)
        if sp is None:
            return -5.0
        if t == "bark_beetle":  # a point, and green tokens feed it
            return 1.8
        if t == "development_defects":  # a point; attackers may ignore one of its guards
            return 1.0 - (1.0 if GUARDS.intersection(sp["all_traits"]) else 0.0)
        if t == "extremophile":  # a point; each later animal of the species costs a card
            return 1.2 if view["last"] or mine["deck"] <= 1 else -1.0
        if t == "metabolic_syndrome":  # 3 points, but its animals need 2 food more
            return 2.5 if view["last"] and room >= 3 and len(sp["animals"]) == 1 else -1.0
        return -1.0

    def feed(self, view, me, mine, a, species, animals, ctx=None) -> float:
        kind = a["type"]
        if kind == "pass":
            return -0.5
        if kind == "food":
            _, sp, an = animals[a["animal"]]
            short = sp["need"] - an["red"] - an["blue"]
            return 10.0 - short
        if kind == "burrow":
            _, sp, an = animals[a["animal"]]
            if "bark_beetle" in sp["all_traits"] and not _fed(sp, an) \
                    and "obligate_carnivore" not in sp["all_traits"]:
                return 9.5
            threats = sum(1 for q, row in enumerate(view["players"]) if q != me
                          for x in row["species"] if _carnivore(x))
            return 3.0 + threats - (0 if _fed(sp, an) else 1)
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
    """Fast's rules where they work, and three things fast gets wrong.

    * The cards wait for the last turn. A card played earlier is mostly lost before the end
      (starved, eaten, killed by parasites with its species' traits), while a card kept in the
      deck is safe and can be played as a trait on the last turn, when the points are counted
      after one single feeding. So before the last turn no trait is played: the population
      only grows to what the food can keep (fast's rule), which keeps the draws coming
      (animals + 2 cards a turn). On the last turn the whole deck goes down: traits on the
      species cheapest to feed, then one spare animal under each species with traits, so that
      a parasite loss or an attack takes the spare, not the species and its traits.
    * Food goes where it saves the most points per token (a species' first fed animal keeps
      its traits too); a carnivore with prey waits and hunts instead.
    * Attacks and parasites aim at the points they destroy: a species of one animal loses its
      traits with it, and only the species with the most parasites loses an animal.
    """

    greed = 1.0
    spare = 0.0  # before the last turn an animal or a split is fast's, without its bonuses
    diverge = -1.0

    # --- development ---------------------------------------------------------------------

    def develop(self, view: dict, mine: dict, a: dict) -> float:
        if not view["last"]:
            if a["type"] == "develop" and a["use"] == "trait":
                return -1.0  # keep the card for the last turn
            return FastPolicy.develop(self, view, mine, a)
        if a["type"] == "pass":
            return 0.0
        use = a["use"]
        if use == "species":
            room = self.target_animals(view, mine) - sum(len(sp["animals"])
                                                         for sp in mine["species"])
            return 2.0 if room >= 1 else 0.5
        sp = next(x for x in mine["species"] if x["id"] == a["species"])
        if use == "trait":  # spread the traits, on the species that are cheap to feed
            return 2.5 - 0.4 * len(sp["all_traits"]) - 0.6 * (sp["need"] - 1)
        if use == "animal" and self.wants_spare(mine, sp):
            return 5.0 + _trait_points(sp)
        if use == "split" and sp["need"] == 1 and GUARDS.intersection(sp["all_traits"]):
            # Divergence: a new species that keeps the guards, at no food more
            room = self.target_animals(view, mine) - sum(len(x["animals"])
                                                         for x in mine["species"])
            return 2.1 if room >= 1 else 0.6
        return FastPolicy.develop(self, view, mine, a)

    def dark(self, view: dict, mine: dict, a: dict) -> float:
        """Fast's reading; on the last turn a new animal counts only if the feeding ends
        with it fed (no card comes of it any more), so it needs food to spare."""
        if view["last"] and a["play"] == "species":
            animals = sum(len(sp["animals"]) for sp in mine["species"])
            return 2.0 if self.target_animals(view, mine) - animals >= 2 else 0.5
        return FastPolicy.dark(self, view, mine, a)

    @staticmethod
    def wants_spare(mine: dict, sp: dict) -> bool:
        """A spare animal for ``sp``: it has traits worth keeping and the deck is down to one
        card per such species (a species of two animals takes no more traits)."""
        def bare(x: dict) -> bool:
            return len(x["animals"]) == 1 and _trait_points(x) >= 2

        return bare(sp) and mine["deck"] <= sum(1 for x in mine["species"] if bare(x))

    # --- feeding -------------------------------------------------------------------------

    def feed(self, view, me, mine, a, species, animals, ctx=None) -> float:
        kind = a["type"]
        if kind == "food":
            _, sp, an = animals[a["animal"]]
            short = sp["need"] - an["red"] - an["blue"]
            # the newest animal first among equals: the older ones carry the parasites (they
            # stay on an animal from turn to turn) and are the ones lost first
            v = 6.0 + _saved(sp, an) / short - 0.3 * an["parasites"] \
                + 0.01 * sp["animals"].index(an)
            if _carnivore(sp) and _has_prey(view, sp):
                v -= 2.0  # it can feed itself by attacking, once the food is gone
            return v
        if kind == "attack":
            return self.attack(view, me, a, species, animals)
        if kind == "parasite":
            return self.parasite(view, me, a, animals, ctx)
        return FastPolicy.feed(self, view, me, mine, a, species, animals, ctx)

    def weight(self, view: dict, q: int) -> float:
        """How much a point of player ``q`` counts: minus for mine, more for the leader."""
        me = view["viewer"]
        if q == me:
            return -1.0
        scores = [row["score"]["total"] for row in view["players"]]
        best = max(s for p, s in enumerate(scores) if p != me)
        return 1.5 if scores[q] == best else 1.0

    def attack(self, view, me, a, species, animals) -> float:
        q, tgt = species[a["target"]]
        _, sp, an = animals[a["animal"]]
        traits = [t for t in tgt["all_traits"] if t != a.get("ignore")]
        # Mimicry lets the owner send the attack to a cheaper species of theirs
        lost = 2 if "mimicry" in traits else _loss(tgt)
        harm = 0.5 * lost * self.weight(view, q)
        gain = _saved(sp, an)
        hit = 0.5 if "running" in traits else 1.0
        if "poisonous" in traits:  # the attacker dies eating it
            return 4.0 + 0.5 * hit * (harm - _loss(sp) - gain)
        return 4.0 + 0.5 * hit * (harm + gain)

    def parasite(self, view, me, a, animals, ctx=None) -> float:
        """At the extinction the species with the most parasites (all of them if tied) loses
        an animal: the value is the points that loss would take, after this token (the
        species' counts and losses read once per decision: :meth:`parasite_table`)."""
        table = ctx[2] if ctx is not None else None
        if table is None:
            table = self.parasite_table(view, me)
            if ctx is not None:
                ctx[2] = table
        counts, harms, order, top, top_harm = table
        sid = animals[a["animal"]][1]["id"]
        k = counts[sid] + 1
        if k > top:  # this species alone has the most
            harm = 0.0 + harms[sid]
        elif k == top:  # it joins the tied ones (summed in the row order)
            harm = 0.0
            for s in order:
                if counts[s] == top or s == sid:
                    harm += harms[s]
        else:  # the tied ones as they are
            harm = top_harm
        return 2.0 + 0.3 * harm

    def parasite_table(self, view, me) -> tuple:
        """Each species' parasites and the weighted points its owner loses with one animal
        (mine counted twice: never risk a loss of mine), in the rows' order; the most
        parasites now and those species' summed loss."""
        counts, harms, order = {}, {}, []
        for p, row in enumerate(view["players"]):
            w = self.weight(view, p)
            for x in row["species"]:
                sid = x["id"]
                counts[sid] = sum(y["parasites"] for y in x["animals"])
                harms[sid] = _loss(x) * (2 * w if p == me else w)
                order.append(sid)
        top = max(counts.values()) if counts else 0
        top_harm = 0.0
        for s in order:
            if counts[s] == top:
                top_harm += harms[s]
        return counts, harms, order, top, top_harm


def _trait_points(sp: dict) -> int:
    """The points of a species' own trait cards (lost when its last animal goes)."""
    return sum(1 + FOOD[t] for t in sp["traits"])


def _loss(sp: dict) -> int:
    """The points its owner loses when one animal of ``sp`` goes."""
    return 2 + (_trait_points(sp) if len(sp["animals"]) == 1 else 0)


def _saved(sp: dict, an: dict) -> int:
    """The points that feeding animal ``an`` saves: its own 2, and the species' traits when no
    other animal of the species is fed."""
    others_fed = any(_fed(sp, x) for x in sp["animals"] if x is not an)
    return 2 + (0 if others_fed else _trait_points(sp))


def _has_prey(view: dict, sp: dict) -> bool:
    """Can carnivore species ``sp`` attack some species that is not Poisonous?"""
    mine = sp["all_traits"]
    for row in view["players"]:
        for x in row["species"]:
            tt = x["all_traits"]
            if x["id"] == sp["id"] or not x["animals"] or "poisonous" in tt:
                continue
            if ("swimming" in tt) != ("swimming" in mine):
                continue
            if "high_body_weight" in tt and "high_body_weight" not in mine:
                continue
            return True
    return False


# --- expert: information-set MCTS (engine/search.py) ------------------------------------------

DECK_WORTH = 1.0  # a card kept in a personal deck: a trait or an animal to come
EARLY_TRAIT = 0.6  # a trait card on the table before the last turn: mostly lost before the end


def evaluate(state) -> list[float]:
    """Each player's worth of a position (the searcher's cut rollouts), against the best other
    player's, squashed to 0..1 (:func:`engine.search.relative`): the final points once the game
    is over; before, 2 an animal, the trait cards and their bonuses at ``EARLY_TRAIT`` (the
    strong level's lesson: a card played early is mostly lost before the end) and the cards
    kept at ``DECK_WORTH``."""
    from engine.mutations.rules import score

    n = state.n
    if state.phase == "over":
        return relative([score(state, p)["total"] for p in range(n)], 4.0)
    vals = []
    for p in range(n):
        sc = score(state, p)
        vals.append(2 * sc["animals"] + EARLY_TRAIT * (sc["traits"] + sc["bonus"])
                    + DECK_WORTH * len(state.decks[p]))
    return relative(vals, 6.0)


def turn_over(start, state) -> bool:
    """The searcher's horizon: the turn the search began in is over (or the game)."""
    return state.turn != start.turn or state.phase == "over"


def rollout_view(s, viewer: int) -> dict:
    """What the fast and strong rules read of ``viewer``'s view, built straight from a state
    (a sampled world in the searcher's rollouts: reading it is not peeking): the same values
    as ``view(s, viewer)`` for those fields, at a fraction of its cost."""
    from engine.mutations.rules import need, traits_of

    players = []
    for p, srow in enumerate(s.rows):
        row = []
        n_animals = n_traits = bonus = 0
        for sp in srow:
            own = [TRAIT_OF[c] for c in sp["traits"]]
            tr = own if sp["parent"] is None else traits_of(s, sp, p)
            nd = need(tr)
            animals = sp["animals"]  # the state's own (read only): id, red, blue, parasites
            row.append({"id": sp["id"], "traits": own, "all_traits": tr, "need": nd,
                        "animals": animals})
            n_animals += len(animals)
            n_traits += len(own)
            for t in own:
                bonus += FOOD[t]
        players.append({"species": row, "deck": len(s.decks[p]),
                        "score": {"total": n_animals * 2 + n_traits + bonus}})
    pend = s.pending
    if pend is not None:
        pend = {k: v for k, v in pend.items() if k != "card"}
        if "card" in s.pending:
            pend["trait"] = TRAIT_OF[s.pending["card"]]
    return {"viewer": viewer, "phase": s.phase, "last": s.last, "centre": s.centre,
            "pending": pend, "players": players}


class ExpertPolicy(SearchPolicy):
    """IS-MCTS from the seat's own view (engine/search.py): worlds from ``determinize``, the
    strong choice and the strong ranking (``score``) of the others as the root's shortlist and
    prior, rollouts played by the strong rules on every seat's :func:`rollout_view` of the
    world, cut at the end of the turn and scored by :func:`evaluate`. ``iterations``
    (deterministic) or ``seconds`` (wall clock, 1 s by default) bound each decision.

    The rollouts play strong, not fast: they stand for the searcher's own next moves (the
    strong choice heads every shortlist: keep the cards for the last turn) and for opponents
    who play at least that well; fast's rollouts played the searcher's cards as early traits
    and judged each root move by a future it would not play."""

    kind = "mutations"
    prior_policy = StrongPolicy
    rollout_policy = StrongPolicy

    def evaluate(self, state) -> list[float]:
        return evaluate(state)

    def horizon(self, start, state) -> bool:
        return turn_over(start, state)

    def rollout_step(self, rules):
        """The fast rules on each player's :func:`rollout_view` of the sampled world (among
        ``rollout_sample`` actions at most, as :func:`engine.search.policy_rollout`)."""
        policy, sample = self.fast, self.rollout_sample

        def step(state, p: int, legal: list[dict], seed: int) -> dict:
            if sample is not None and len(legal) > sample:
                legal = _sampled(legal, sample, Rng(seed))
            return policy.choose(rollout_view(state, p), legal, seed)

        return step


# expert: the searching level (engine/search.py); the host runs it in an AI worker process
POLICIES = {"random": RandomPolicy, "fast": FastPolicy, "strong": StrongPolicy,
            "expert": ExpertPolicy}
AI = Levels(POLICIES, lambda _s, _p, v: view_seed(v))
LEVELS, policy_for, choose_action = AI.names, AI.policy_for, AI.choose_action


def view_seed(view: dict) -> int:
    """A seed for one decision, from the public position only (never the names)."""
    key = {k: v for k, v in view.items() if k != "players"}
    key["players"] = [(row["species"], row["deck"], row["passed"]) for row in view["players"]]
    return seed_of(key)
