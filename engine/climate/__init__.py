"""Evolution: Climate (North Star Games): evolve species through a changing climate, feed
them, survive the cold, the heat and the carnivores.

Use the ``CLIMATE`` object (the game kind ``climate``)::

    from engine import Seat
    from engine.climate import CLIMATE

    state, events = CLIMATE.new_game_with_events([Seat("1", "Ann"), Seat("2", "Bob")], seed=7,
                                                 options={"events": True, "quick": False})
    p = CLIMATE.to_act(state)[0]
    action = CLIMATE.legal_actions(state, p)[0]
    state, events = CLIMATE.apply_action(state, p, action)

Species are named by ids (ints, ``1000 * (player + 1) + k``, never reused), trait cards by ids
(``"carnivore-3"``: its trait and copy; ``data.card_info`` gives its plant number and icons),
climate event cards by ids (``"thaw-2"``). The view (``engine/climate/view.py``) documents
what a seat sees.

Secret simultaneous steps: the food card (every player holding cards), and in the Quick game
the whole play phase (every player acts several times, then ``done``). ``to_act`` lists every
player still to choose; they act in any order. ``step_key(state)`` changes on every public
change, never on a secret move; ``decision_key(state, p)`` changes on every public change and
on ``p``'s own secret moves. A secret move's events carry no content; the move that completes
the step is public and its events reveal everything.

Actions (``rules.ACTION_SHAPES`` is the exact shape table for ``engine.core.check_shape``;
``CLIMATE.check_action`` checks it, and ``apply_action`` checks it first)
-----------------------------------------------------------------------------------------
``legal_actions`` returns a new list each time, but its action dicts may be shared between
calls (the same objects handed out again, for speed): never change one, copy it first.

Food card (secret): ``{"type": "food", "card": CARD}`` (a hand card, face down on the
Watering Hole).
Play cards (in turn order from the first player; in the Quick game secret and simultaneous):
``{"type": "trait", "card": CARD, "species": SID}`` (face down on an own species; no trait
twice, at most 4 cards, 3 with 2 players); ``{"type": "species", "card": CARD, "side":
"left"|"right"}`` (the card discarded: a new species of body size 1 and population 1 at that
end of the row); ``{"type": "grow", "card": CARD, "species": SID, "what": "body"|"pop"}``
(the card discarded: +1, at most 6); ``{"type": "remove", "species": SID, "card": CARD}`` (a
trait card of an own species to the discard pile; food on a Fat Tissue goes to the bag);
``{"type": "exchange", "card": CARD}`` (a hand card to put under the draw deck: once begun,
only more exchanges and ``done``; never more cards than the deck holds);
``{"type": "done"}`` (the cards put back go under the deck and as many are drawn).
Green-framed traits, when an owner has two or more that would act (the others act by
themselves): ``{"type": "green", "species": SID, "trait": "fat_tissue"|"fertile"|
"long_neck"}`` (the next one to act).
Feeding (a turn: at most one free Nocturnal feeding per Nocturnal species, any number of
Intelligence uses, then one feeding, or a pass): ``{"type": "feed", "species": SID}`` (a plant
from the Watering Hole); ``{"type": "attack", "species": SID, "target": SID}`` (+ ``"discard":
CARD`` when the target has Mud Wallowing, + ``"ignore": TRAIT`` when an Ambush carnivore
ignores a defensive trait of a Migratory target); ``{"type": "intelligence", "species": SID,
"card": CARD}`` (a non-carnivore: the card discarded, 2 plants from the bank; free);
``{"type": "negate", "species": SID, "card": CARD, "trait": TRAIT}`` (a carnivore: the card
discarded, every copy of that trait ignored by its next attack; free); ``{"type": "pass"}``
(only with no hungry species that can eat without paying a card; a player who passes is asked
again only when a hungry species of theirs can eat).

Events (``type`` and parameters; ``player`` is who acts or is concerned; no event carries a
hidden card: hand cards, face-down traits, drawn cards or the bags' contents)
-------------------------------------------------------------------------------------------
- ``setup`` first, players, deck, set_aside, zone, events (bool), quick (bool), up {cold, hot:
  EVENT or null}
- ``round_start`` round, first, last (bool: the last round)
- ``wildfire_plants`` count, wh (plants a Wildfire set aside reach the Watering Hole)
- ``new_species`` player, species, side, reason ("deal" | "played")
- ``deal`` counts (per player), deck, last
- ``deck_out`` refill ("set_aside" | "discard" | null), deck, last, final_next (the draw deck
  ran out: this round (at the Deal) or the next one (at an extinction) is the last)
- ``chosen`` player, step ("food" | "play"): a secret choice was made (a food card; in the
  Quick game, the player has finished playing)
- ``food_cards`` count (every food card is down)
- ``play_start`` quick, awaiting; ``play_turn`` player (normal game)
- ``trait`` player, species (a card placed face down; normal game)
- ``grow`` player, species, what, value
- ``remove`` player, species, trait, fat (food moved from Fat Tissue to the bag)
- ``returned`` player, count (cards put back so far; normal game)
- ``done`` player, returned (cards exchanged), forced (bool: nothing to do)
- ``reveal`` player, discarded, returned, species [{id, body, pop, traits (face-up names),
  new (face-down count)}] (Quick game: what the player did, made public)
- ``flip`` player, species, traits (the face-down cards turned face up)
- ``phase_end`` phase ("play" | "environment" | "feeding"), round
- ``green`` player, species, trait (+ moved for Fat Tissue, pop for Fertile)
- ``take`` player, species, food ("plant" | "meat"), source ("wh" | "bank"), count, fat (of
  which on Fat Tissue), reason ("feed" | "night" | "long_neck" | "intelligence" |
  "cooperation" | "attack" | "scavenger" | "migratory")
- ``food_reveal`` cards [CARD or null per player], suns, snows, thaw (bool: a Thaw's suns
  counted)
- ``climate`` from, to, suns, snows
- ``event`` card, event, deck, zone, to (+ effects: the zone whose effects apply, for Cold Snap
  and Heat Wave)
- ``shrink`` player, species, body, bagged (Desertification)
- ``loss`` player, species, cause ("cold" | "heat" | "wildfire" | "horns" | "attack" |
  "starvation"), lost, pop, bagged (food above the new population to the bag)
- ``extinct`` player, species, traits, food (to the bag), drawn (cards drawn, one per trait)
- ``plants`` cards, zone, total, added, removed, set_aside (Wildfire), blocked ("meteor" |
  "desertification" | null), wh
- ``event_up`` card, event, deck, zone, to (the card that replaces the fired one)
- ``feed_turn`` player
- ``feed`` player, species, night (bool: Nocturnal's free feeding)
- ``attack`` player, species, owner, target, ignore, discarded (bool), negated (traits), night
- ``intelligence`` player, species; ``negate`` player, species, trait
- ``pass`` player
- ``bags`` counts (food moved to each bag), wh
- ``volcano`` from, to
- ``game_over`` scores (per player: food, population, traits, total), ranking (player, rank,
  score, food, population, traits)

Refusal codes (``IllegalAction(code, **params)``)
-------------------------------------------------
- shapes (``engine.core.check_shape``): ``bad_action`` reason, field (+ expected);
  ``unknown_action`` action; ``game_over``; ``not_your_turn`` player, waiting;
  ``wrong_phase`` action, phase
- setup: ``unknown_option`` option; ``bad_option`` option; ``player_count`` count, min, max;
  ``duplicate_seat``
- cards: ``not_in_hand`` card
- play: ``not_your_species`` species; ``duplicate_trait`` species, trait; ``trait_limit``
  species, max; ``bad_side`` side; ``bad_growth`` what; ``at_max`` species, what, max;
  ``no_such_trait`` species, card; ``exchanging`` (the exchange has begun: only more cards
  back, or done); ``deck_too_small`` deck
- green: ``not_green`` species, trait (not a green trait of that player's that would act now)
- feeding: ``carnivore_no_plants`` species; ``full`` species; ``no_plants``;
  ``not_carnivore`` species; ``no_such_species`` species; ``self_attack`` species;
  ``cannot_ignore`` target, trait; ``not_attackable`` target, blockers (the traits in the
  way, or ["body"]: too small); ``discard_needed`` target; ``no_discard_needed`` target;
  ``no_intelligence`` species; ``already_negated`` species, trait; ``cannot_negate`` species,
  trait; ``must_feed``
"""

from __future__ import annotations

from engine.base import GameRulesBase, SecretSteps
from engine.climate import rules
from engine.climate import view as views
from engine.climate.checks import check_invariants
from engine.climate.state import ClimateState
from engine.core import register

__all__ = ["CLIMATE", "ClimateGame", "ClimateState", "check_invariants"]

PHASE_NAMES = {"food": "food", "play": "play", "green": "environment", "feeding": "feeding",
               "over": "over"}


class ClimateGame(SecretSteps, GameRulesBase):
    kind = "climate"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    options = {
        "events": "Climate events (default on): the two event decks; off plays the 'no "
                  "climate events' variant suggested for first games.",
        "quick": "Quick game (default off): every player plays cards at the same time without "
                 "seeing the others'. Six players always play it.",
    }
    rules = rules
    views = views
    State = ClimateState  # its check_loaded runs check_invariants
    PHASE_NAMES = PHASE_NAMES

    # apply_action's observer(state, phase) is called at each phase end ("play",
    # "environment", "feeding").

    # The simulations' fast path is rules.step itself: no wrapper frame, and no copy of the
    # events (without an observer step returns a new plain list).
    apply_in_place = staticmethod(rules.step)

    def owed_choice(self, state: ClimateState, player: int) -> bool:
        """True when ``player`` is awaited for a choice in a step that is not their turn (an
        owner ordering their green-framed traits)."""
        return state.phase == "green" and state.current == player

    def undoable(self, before: ClimateState, player: int, action: dict, after: ClimateState,
                 events: list[dict]) -> bool:
        """May ``player`` take ``action`` back (the host's Undo)? Only when it revealed
        nothing. In Evolution: Climate cards come to light when they are drawn (the Deal, the
        exchange's draw at Done, an extinction), when the food cards are turned (Modify the
        environment), when the face-down traits flip at the end of the play phase, when a
        Quick game's secret plays are revealed and when an event card is turned; the
        generator shuffles. Discarded cards show only as a count. So a move is undoable when
        the generator, the draw deck, the set-aside cards and both event decks (and the
        cards up) are as they were, no food card, face-down trait or Quick play was
        revealed, and, in a secret simultaneous step (the food cards; a Quick game's play
        phase), it was not the move that completes the step (that one is public: the phase
        moves on for everyone); e.g. a food card chosen while others still choose, any Quick
        play before the last Done, a normal play (a trait placed face down, a new species,
        a growth, a removal, a card put back) that does not end the phase, a green-trait
        order, a feeding that draws nothing."""
        if after.phase == "over":
            return False
        if (before.rng != after.rng or before.deck != after.deck
                or before.set_aside != after.set_aside
                or before.event_decks != after.event_decks
                or before.event_up != after.event_up or before.meteor != after.meteor):
            return False
        if after.revealed and not before.revealed:
            return False
        if any(ev.get("type") in ("flip", "reveal", "food_reveal") for ev in events):
            return False
        secret = before.phase == "food" or (before.phase == "play" and rules.is_quick(before))
        return not (secret and after.step != before.step)

    def standings(self, state: ClimateState) -> list[dict]:
        """Before the end, standings on public points only (population and trait cards the
        table sees; no bags)."""
        return rules.public_ranking(state)


def _render_at():
    """The render figures' position: a 4-player game of fast AI seats in round 3's feeding."""
    return 4, {}, "fast", lambda s: s.round == 3 and s.phase == "feeding"


CLIMATE = register(
    ClimateGame(), title="Evolution: Climate",
    options={"events": (bool, True), "quick": (bool, False)},
    ai_levels=("random", "fast", "strong", "expert"), renderer="images.climate:render_climate",
    hand_renderer="images.climate:render_hand", messages="messages.climate",
    cog="cogs.climate",
    bench={"mixed": "quick", "mixed_columns": "normal/quick", "options": {"events": True},
           "header": lambda mode, _o: f"Quick game: {mode}",
           "tiebreak": lambda r: (r["traits"], r["population"]), "turns": "round",
           "watch": "bench.ai_matchup:ClimateSilly", "call_times": True, "option": "quick",
           "strong_runs": 3, "render_at": _render_at, "ai_games": 15})
