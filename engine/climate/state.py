"""The Evolution: Climate game state: plain lists, dicts and ints, cheap to copy, saved as JSON."""

from __future__ import annotations

from engine.climate.checks import check_invariants
from engine.climate.position import PHASES
from engine.core import SavedState, json_copy

__all__ = ["PHASES", "SCHEMA_VERSION", "ClimateState"]

SCHEMA_VERSION = 1


class ClimateState(SavedState):
    """Everything about one game of Evolution: Climate, including the hidden parts.

    Players are 0..n-1 in seat order; clockwise (to the left) is increasing seat index. Card
    ids are ``"carnivore-3"`` (trait cards) and ``"thaw-2"`` (climate event cards); piles keep
    their top card last.

    Trait cards: ``deck`` (the draw deck), ``set_aside`` (the cards set aside at the setup),
    ``discard`` (face up), ``hands[p]``, ``food[p]`` (p's food card on the Watering Hole, or
    None), the cards on species, ``back[p]`` (cards p put back for the bottom-of-deck
    exchange, drawn for when p is done) and ``held[p]`` (cards p discarded in a Quick game's
    secret play phase, put on the discard pile at the reveal). ``revealed``: the food cards
    are face up.

    ``rows[p]``: p's species left to right, each ``{"id", "body", "pop", "food", "fat",
    "traits", "down"}``: ``traits`` its trait cards in play order, ``down`` those still face
    down (played this round), ``food`` the tokens on its board, ``fat`` on its Fat Tissue.
    Species ids are ``1000 * (p + 1) + k`` with ``k = next_sid[p]`` counting p's species,
    never reused (so that a secret new species tells nothing about the others').
    ``bags[p]``: food tokens in p's bag. ``wh``: plants on the Watering Hole.

    Climate: ``zone`` (marker, an index of ``data.ZONES``); ``event_decks`` {"cold", "hot"};
    ``event_up`` {"cold", "hot"}: the card face up under its zone or None; ``thaw``: a Thaw
    lying on the Watering Hole; ``meteor``: Meteor cards in effect (kept out of their deck to
    the end); ``volcano``: the zone the marker moves to at the end of this feeding;
    ``fired``: the event card that fired this round (shown; it is also in its deck or on
    the Watering Hole); ``wildfire``: plants set aside until the next Deal.

    Flow: ``round`` (from 1), ``phase``, ``first`` (first player), ``current`` (whose turn it
    is in a sequential step), ``last`` (this round is the last), ``final_next`` (the deck ran
    out at an extinction: the next round is the last). Play: ``done[p]`` (p finished playing),
    ``shown`` (in a Quick game's play phase: per player ``{"hand", "rows"}``, the public
    position when the phase began, what the others see of p until the reveal; else None).
    Green: ``green`` the [species id, trait] activations ``current`` has still to order.
    Feeding: ``passed[p]``, ``night`` (species that used Nocturnal's free feeding this turn),
    ``negated`` ([species id, trait] pairs: Intelligence for the species' next attack).

    Keys: ``step`` (public counter: any public change), ``keys[p]`` (p's decision counter: any
    public change, and p's own secret moves). ``result``: the final standings, or None.
    """

    KIND = "climate"
    LABEL = "Evolution: Climate"
    VERSION = SCHEMA_VERSION
    __slots__ = (
        "seats", "options", "seed", "rng", "round", "phase", "first", "current", "last",
        "final_next", "deck", "set_aside", "discard", "hands", "food", "revealed", "rows",
        "next_sid", "bags", "wh", "zone", "event_decks", "event_up", "thaw", "meteor",
        "volcano", "fired", "wildfire", "done", "back", "held", "shown", "green", "passed",
        "night", "negated", "step", "keys", "result",
    )

    def __init__(self) -> None:
        self.seats: list[dict] = []
        self.options: dict = {}
        self.seed = 0
        self.rng = 0
        self.round = 0
        self.phase = "food"
        self.first = 0
        self.current = 0
        self.last = False
        self.final_next = False
        self.deck: list[str] = []
        self.set_aside: list[str] = []
        self.discard: list[str] = []
        self.hands: list[list[str]] = []
        self.food: list = []
        self.revealed = False
        self.rows: list[list[dict]] = []
        self.next_sid: list[int] = []
        self.bags: list[int] = []
        self.wh = 0
        self.zone = 0
        self.event_decks: dict = {"cold": [], "hot": []}
        self.event_up: dict = {"cold": None, "hot": None}
        self.thaw: str | None = None
        self.meteor: list[str] = []
        self.volcano: int | None = None
        self.fired: str | None = None
        self.wildfire = 0
        self.done: list[bool] = []
        self.back: list[list[str]] = []
        self.held: list[list[str]] = []
        self.shown: list | None = None
        self.green: list[list] = []
        self.passed: list[bool] = []
        self.night: list[int] = []
        self.negated: list[list] = []
        self.step = 0
        self.keys: list[int] = []
        self.result: list[dict] | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    def clone(self) -> ClimateState:
        s = ClimateState.__new__(ClimateState)
        s.seats = self.seats  # never changed after the setup
        s.options = self.options  # never changed after the setup
        s.seed = self.seed
        s.rng = self.rng
        s.round = self.round
        s.phase = self.phase
        s.first = self.first
        s.current = self.current
        s.last = self.last
        s.final_next = self.final_next
        s.deck = self.deck[:]
        s.set_aside = self.set_aside[:]
        s.discard = self.discard[:]
        s.hands = [h[:] for h in self.hands]
        s.food = self.food[:]
        s.revealed = self.revealed
        s.rows = rows = []
        for row in self.rows:  # each species a copy (dict.copy: faster than a literal)
            out = []
            for sp in row:
                x = sp.copy()
                x["traits"] = sp["traits"][:]
                x["down"] = sp["down"][:]
                out.append(x)
            rows.append(out)
        s.next_sid = self.next_sid[:]
        s.bags = self.bags[:]
        s.wh = self.wh
        s.zone = self.zone
        s.event_decks = {"cold": self.event_decks["cold"][:], "hot": self.event_decks["hot"][:]}
        s.event_up = dict(self.event_up)
        s.thaw = self.thaw
        s.meteor = self.meteor[:]
        s.volcano = self.volcano
        s.fired = self.fired
        s.wildfire = self.wildfire
        s.done = self.done[:]
        s.back = [b[:] for b in self.back]
        s.held = [h[:] for h in self.held]
        s.shown = self.shown  # a snapshot, never changed in place
        s.green = [g[:] for g in self.green]
        s.passed = self.passed[:]
        s.night = self.night[:]
        s.negated = [g[:] for g in self.negated]
        s.step = self.step
        s.keys = self.keys[:]
        s.result = None if self.result is None else json_copy(self.result)
        return s

    def check_loaded(self) -> None:
        """Every rule a saved state must keep (raise CorruptState): see ``checks.py``."""
        check_invariants(self)
