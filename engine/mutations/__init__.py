"""Evolution: Random Mutations (RightGames; D. Knorre & S. Machin): evolve species from a
face-down personal deck, feed them, survive.

Use the ``MUTATIONS`` object (registered as the game kind ``mutations``)::

    from engine import Seat
    from engine.mutations import MUTATIONS

    state, events = MUTATIONS.new_game_with_events([Seat("1", "Ann"), Seat("2", "Bob")], seed=7,
                                                   options={"divergence": False})
    p = MUTATIONS.to_act(state)[0]
    action = MUTATIONS.legal_actions(state, p)[0]
    state, events = MUTATIONS.apply_action(state, p, action)

Species and animals are named by ids (ints, never reused) that the view shows.

Actions (``rules.ACTION_SHAPES`` is the exact shape table for ``engine.core.check_shape``;
``MUTATIONS.check_action`` checks it, and ``apply_action`` checks it first)
-----------------------------------------------------------------------------------------
Development (the use is declared before the top card of the personal deck is turned):
``{"type": "develop", "use": "species"}``; ``{"type": "develop", "use": "trait"|"animal"|
"split", "species": SID}`` ("split": Divergence); ``{"type": "pass"}``;
``{"type": "dark", "play": "trait"|"species"}`` (a dark card turned for a species with no
trait: keep it as a trait or make it a new species).
Feeding: ``{"type": "graze", "count": K}`` (Grazing, at the start of the turn);
``{"type": "food"|"burrow"|"parasite", "animal": AID}``; ``{"type": "attack", "animal": AID,
"target": SID}`` (+ ``"ignore": TRAIT`` on a Development Defects target); ``{"type": "pass"}``.
Owed choices, possibly by a player whose turn it is not: ``{"type": "redirect", "target": SID}``
(Mimicry: the attacked owner sends the attack on, or keeps the target by naming it),
``{"type": "eat", "animal": AID}`` (the attacked owner's animal eaten), ``{"type": "scavenge",
"animal": AID}`` (the Scavenger's owner), ``{"type": "lose", "animal": AID}`` (parasite loss).

Events (``type`` and parameters; ``player`` is who acts or is concerned)
-------------------------------------------------------------------------
- ``setup`` first, boxes, deck, species, main, divergence
- ``turn_start`` turn, first, last (bool: the last turn), main
- ``new_deck`` player, count (a player with nothing gets a new personal deck)
- ``new_animal`` player, species, animal, reason ("declared" | "budding")
- ``extremophile`` player, species (an extra card of the personal deck discarded)
- ``new_species`` player, species, reason ("declared" | "no_place" | "dark"); with "no_place"
  and "dark" also card, trait
- ``declare`` player, use ("trait"), species, card, trait (the turned card)
- ``trait_passes`` player, from, to, trait (passed to the right along the row)
- ``dark_choice`` player, species, trait (the player must choose)
- ``trait`` player, species, trait
- ``simplification`` player, species, removed (trait or null), new (list of species ids)
- ``split`` player, species, new (Divergence)
- ``pass`` player, phase ("development" | "feeding"), forced (bool)
- ``phase_end`` phase, turn (+ left: the centre's leftovers, for "feeding")
- ``climate`` player (the first player), dice {food, burrows, parasites: [faces]}, food,
  burrows, parasites (what reached the centre)
- ``graze`` player, count
- ``food`` player, species, animal, fed
- ``burrow`` player, species, animal
- ``bark_beetle`` player, species, animal, fed (a green token turned into blue food)
- ``parasite`` player, owner, species, animal
- ``attack`` player, species, animal, owner, target, ignore (trait or null)
- ``mimicry_choice`` player (the attacked owner), species
- ``redirect`` player, from, to (from == to: kept)
- ``running`` owner, species, die, escaped
- ``eat_choice`` player (the attacked owner), species
- ``eaten`` player (the attacker's owner), owner, species, animal, extinct
- ``poisoned`` player, species, animal, extinct (the attacker died)
- ``meal`` player, species, animal, blue, fed
- ``scavenge_choice`` player
- ``scavenge`` player, species, animal, fed
- ``lose_choice`` player, species
- ``parasite_loss`` player, species, animal, extinct
- ``starved`` player, species, animal, extinct
- ``draw`` counts (per player), main
- ``game_over`` scores (per player: animals, traits, bonus, total), ranking (player, rank,
  score, lost)

Refusal codes (``IllegalAction(code, **params)``)
-------------------------------------------------
- shapes (``engine.core.check_shape``): ``bad_action`` reason, field (+ expected);
  ``unknown_action`` action; ``unknown_use`` use; ``unknown_play`` play; ``game_over``; ``not_your_turn`` player,
  waiting; ``wrong_phase`` action, phase; ``choice_first`` choice (a choice is owed);
  ``no_choice`` action (no such choice is owed)
- setup: ``unknown_option`` option; ``bad_option`` option; ``player_count`` count, min, max;
  ``duplicate_seat``
- development: ``deck_empty``; ``not_your_species`` species; ``population_not_one`` species,
  animals; ``population_cap`` species, animals, cap; ``extremophile_needs_two`` species, deck;
  ``no_divergence``
- feeding: ``must_play_token``; ``must_attack`` (Instinct); ``bad_count`` count, max;
  ``not_your_animal`` animal; ``no_such_animal`` animal; ``no_such_species`` species;
  ``no_token`` token ("food" | "burrows" | "parasites"); ``obligate_no_food`` animal;
  ``already_fed`` animal; ``has_burrow`` animal; ``parasite_on_own`` animal; ``not_carnivore``
  animal; ``already_attacked`` animal; ``own_species`` species; ``no_defects`` species;
  ``cannot_ignore`` species, trait; ``not_attackable`` species
- choices: ``bad_redirect`` target; ``bad_choice`` animal
"""

from __future__ import annotations

from collections import Counter

from engine.base import GameRulesBase, check_loaded_seats
from engine.core import CorruptState, IllegalAction, register
from engine.mutations import rules
from engine.mutations import view as views
from engine.mutations.data import TRAIT_OF, boxes_for, cards
from engine.mutations.state import PENDING, PHASES, MutState

__all__ = ["MUTATIONS", "IllegalAction", "MutState", "MutationsGame", "check_invariants"]

PHASE_NAMES = {"development": "development", "feeding": "feeding",
               "extinction": "extinction", "over": "over"}


class MutationsGame(GameRulesBase):
    kind = "mutations"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    options = {
        "divergence": "Divergence (expert rule): a new animal may split a species in two; the "
                      "new species keeps the traits of the old one and may gain its own.",
    }
    rules = rules
    views = views
    State = MutState
    PHASE_NAMES = PHASE_NAMES

    # apply_action's observer(state, phase) is called at each phase end ("development",
    # "climate", "feeding", "extinction").

    def owed_choice(self, state: MutState, player: int) -> bool:
        """True when ``player`` is awaited for a choice owed in another player's turn (the
        attacked owner, Mimicry, the Scavenger's owner, the parasite loss): the table
        mentions them at once. Every such choice follows a public action."""
        pend = state.pending
        return (pend is not None and pend["player"] == player and player != state.current
                and state.phase != "over")

    def undoable(self, before: MutState, player: int, action: dict, after: MutState,
                 events: list[dict]) -> bool:
        """May ``player`` take ``action`` back (the host's Undo)? Only when it revealed
        nothing. In Random Mutations a card comes to light when it leaves a face-down deck:
        every development (the use is declared, then the personal deck's top card is turned
        or laid as an animal the owner has now seen), Budding and Extremophile, a new
        personal deck and the end-of-turn draw from the main deck; and the generator rolls
        the climate dice and Running's escape die. So a move is undoable when the generator,
        the main deck and every personal deck are as they were and the game goes on: a pass
        in development, a dark card's choice, a token played, Grazing, an attack that rolls
        nothing (the attacked owner has not answered yet) and the owed choices (the animal
        eaten, Mimicry, the Scavenger, a parasite loss) — unless the step they complete
        rolls the climate dice or draws."""
        if after.phase == "over":
            return False
        return (before.rng == after.rng and before.main == after.main
                and before.decks == after.decks)

    def invariants(self, state: MutState) -> None:
        check_invariants(state)


# --- invariants ---------------------------------------------------------------------------------

def _int(x, low: int = 0) -> bool:
    return type(x) is int and x >= low


def _player(x, n: int) -> bool:
    return type(x) is int and 0 <= x < n


ANIMAL_KEYS = {"id", "card", "red", "blue", "burrow", "parasites", "attacked"}
SPECIES_KEYS = {"id", "parent", "traits", "animals"}


def check_invariants(state: MutState) -> None:
    """Raise :class:`CorruptState` if the state breaks a rule that must always hold."""
    s = state
    n = s.n
    check_loaded_seats(s.seats, rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    if set(s.options) != {"divergence"} or type(s.options["divergence"]) is not bool:
        raise CorruptState("bad options")
    if not (_int(s.seed, -(2**63)) and _int(s.rng)):
        raise CorruptState("bad seed")
    if s.boxes != boxes_for(n):
        raise CorruptState("wrong number of boxes")
    if s.phase not in PHASES:
        raise CorruptState(f"unknown phase {s.phase!r}")
    if not (_int(s.turn, 1) and _player(s.first, n) and _player(s.current, n)):
        raise CorruptState("bad turn, first or current player")
    if type(s.last) is not bool or type(s.grazed) is not bool:
        raise CorruptState("bad flags")
    if any(len(x) != n for x in (s.decks, s.rows, s.lost, s.passed)):
        raise CorruptState("inconsistent player lists")
    if not all(type(x) is bool for x in s.passed) or not all(_int(x) for x in s.lost):
        raise CorruptState("bad passed or lost")
    if not _int(s.passes) or s.passes > n:
        raise CorruptState("bad passes")
    # the cards, each exactly once
    every = list(s.main) + list(s.removed)
    for d in s.decks:
        if not isinstance(d, list):
            raise CorruptState("a deck is not a list")
        every.extend(d)
    ids: set[int] = set()
    burrows = parasites = 0
    for p, row in enumerate(s.rows):
        if not isinstance(row, list):
            raise CorruptState("a row is not a list")
        sids = {sp.get("id") for sp in row if isinstance(sp, dict)}
        for sp in row:
            if not isinstance(sp, dict) or set(sp) != SPECIES_KEYS:
                raise CorruptState("bad species")
            if not _int(sp["id"], 1) or sp["id"] in ids or sp["id"] >= s.next_id:
                raise CorruptState("bad species id")
            ids.add(sp["id"])
            if sp["parent"] is not None and (sp["parent"] not in sids or sp["parent"] == sp["id"]
                                             or not s.options["divergence"]):
                raise CorruptState("bad parent species")
            if not isinstance(sp["traits"], list) or not isinstance(sp["animals"], list) \
                    or not sp["animals"]:
                raise CorruptState("a species without animals")
            every.extend(sp["traits"])
            for a in sp["animals"]:
                if not isinstance(a, dict) or set(a) != ANIMAL_KEYS:
                    raise CorruptState("bad animal")
                if not _int(a["id"], 1) or a["id"] in ids or a["id"] >= s.next_id:
                    raise CorruptState("bad animal id")
                ids.add(a["id"])
                if not (_int(a["red"]) and _int(a["blue"]) and _int(a["parasites"])
                        and type(a["burrow"]) is bool and type(a["attacked"]) is bool):
                    raise CorruptState("bad animal tokens")
                every.append(a["card"])
                burrows += a["burrow"]
                parasites += a["parasites"]
        for sp in row:  # parents form no loop
            seen, x = set(), sp
            by_id = {y["id"]: y for y in row}
            while x["parent"] is not None:
                if x["id"] in seen:
                    raise CorruptState("a loop of parent species")
                seen.add(x["id"])
                x = by_id[x["parent"]]
        for sp in row:
            have = rules.traits_of(s, sp, p)
            if len(set(have)) != len(have) or len(rules.EXCLUSIVE.intersection(have)) > 1:
                raise CorruptState("a species holds a trait twice or two exclusive traits")
    if isinstance(s.pending, dict) and s.pending.get("kind") == "dark":
        every.append(s.pending.get("card"))
    if not all(isinstance(c, str) and c in TRAIT_OF for c in every) or \
            Counter(every) != Counter(cards(s.boxes)):
        raise CorruptState("cards are not conserved")
    c = s.centre
    if not isinstance(c, dict) or set(c) != {"food", "burrows", "parasites"} or not all(
            _int(v) for v in c.values()):
        raise CorruptState("bad centre")
    if burrows + c["burrows"] > rules.BOX_BURROWS * s.boxes or \
            parasites + c["parasites"] > rules.BOX_PARASITES * s.boxes:
        raise CorruptState("more tokens than the box holds")
    if not isinstance(s.dice, dict) or set(s.dice) != {"food", "burrows", "parasites"} or not all(
            isinstance(v, list) and all(type(f) is int and 1 <= f <= 6 for f in v)
            for v in s.dice.values()):
        raise CorruptState("bad dice")
    if s.phase != "feeding" and any(c.values()):
        raise CorruptState("tokens in the centre outside feeding")
    if not isinstance(s.queue, list) or not all(_int(x, 1) for x in s.queue):
        raise CorruptState("bad queue")
    if s.queue and s.phase != "extinction":
        raise CorruptState("a parasite queue outside extinction")
    _check_pending(s)
    if (s.result is None) != (s.phase != "over"):
        raise CorruptState("result and phase disagree")
    if s.result is not None:
        if not isinstance(s.result, list) or sorted(r.get("player") for r in s.result) != \
                list(range(n)):
            raise CorruptState("bad result")
        for r in s.result:
            if set(r) != {"player", "rank", "score", "lost"} or not all(
                    type(v) is int for v in r.values()):
                raise CorruptState("bad result row")


PENDING_KEYS = {
    "dark": {"kind", "player", "card", "species"},
    "graze": {"kind", "player", "max"},
    "mimicry": {"kind", "player", "options", "attacker", "owner", "target", "ignore",
                "visited", "mimicry"},
    "eat": {"kind", "player", "options", "attacker", "owner", "target", "ignore", "visited",
            "mimicry"},
    "scavenge": {"kind", "player", "options"},
    "lose": {"kind", "player", "options", "species"},
}
PENDING_PHASE = {"dark": "development", "graze": "feeding", "mimicry": "feeding",
                 "eat": "feeding", "scavenge": "feeding", "lose": "extinction"}


def _check_pending(s: MutState) -> None:
    pend = s.pending
    if s.phase == "extinction" and pend is None:
        raise CorruptState("extinction waits for nobody")
    if pend is None:
        return
    if not isinstance(pend, dict) or pend.get("kind") not in PENDING:
        raise CorruptState("bad pending choice")
    kind = pend["kind"]
    if set(pend) != PENDING_KEYS[kind] or s.phase != PENDING_PHASE[kind]:
        raise CorruptState("bad pending choice")
    if not _player(pend["player"], s.n):
        raise CorruptState("bad pending player")
    if kind == "dark":
        if pend["card"] not in TRAIT_OF or pend["card"] in s.main:
            raise CorruptState("bad dark card")
        return
    if kind == "graze":
        if not _int(pend["max"], 1):
            raise CorruptState("bad graze")
        return
    opts = pend["options"]
    if not isinstance(opts, list) or not opts or not all(_int(x, 1) for x in opts):
        raise CorruptState("bad options of a choice")
    if kind in ("mimicry", "eat"):
        if rules.find_animal(s, pend["attacker"]) is None or \
                rules.find_species(s, pend["target"]) is None:
            raise CorruptState("an attack without attacker or target")
        check = rules.find_species if kind == "mimicry" else rules.find_animal
    else:
        check = rules.find_animal
    for x in opts:
        found = check(s, x)
        if found is None or found[0] != pend["player"]:
            raise CorruptState("a choice among things the player does not own")


def _render_at():
    """The render figures' position: a 5-player game (two boxes) of fast AI seats, 20 actions
    into the feeding of turn 3."""
    later = iter(range(21))
    return 5, {}, "fast", lambda s: s.turn == 3 and s.phase == "feeding" and next(later) == 20


MUTATIONS = register(
    MutationsGame(), title="Random Mutations", options={"divergence": (bool, False)},
    ai_levels=("random", "fast", "strong", "expert"),
    renderer="images.mutations:render_mutations", messages="messages.mutations",
    cog="cogs.mutations",
    bench={"mixed": "divergence", "mixed_columns": "plain/div",
           "header": lambda mode, _o: f"Divergence: {mode}",
           "tiebreak": lambda r: r["lost"], "option": "divergence", "strong_runs": 5,
           "render_at": _render_at, "ai_games": 14})
