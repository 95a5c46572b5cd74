"""The Cubosaurs game state: plain lists and ints, cheap to copy, saved as JSON."""

from __future__ import annotations

from engine.core import SavedState

SCHEMA_VERSION = 1

# Stages: "begin" (the current player's turn starts: take the passed hand or draw),
# "act" (the current player keeps, passes or buys), "over".
STAGES = ("begin", "act", "over")


class CuboState(SavedState):
    """Everything about one game of Cubosaurs, including the hidden parts.

    Players are numbered 0..n-1 in seat order; clockwise (+1) is increasing seat index.
    Cards are ids (``"trex-3"``, ``"egg-penta"``); ``deck[-1]`` is the top card. Hidden
    information lives in ``deck``, ``aside`` (the cards set aside for the round, and the
    destroyed ones), ``pile`` (the face-down tiles) and ``rng``; never show a state, show
    ``view(state, viewer)``.

    ``tiles[p]``: the tiles bought by ``p`` this round; ``bought``: the current player has
    bought a tile this turn; ``debts``: ``[[player, tokens], ...]`` owed while the reserve is
    empty (the first is resolved first); ``scores``: per finished round, every player's
    breakdown; ``result``: the final ranking once over.
    """

    KIND = "cubosaurs"
    LABEL = "Cubosaurs"
    VERSION = SCHEMA_VERSION
    __slots__ = (
        "seats", "options", "seed", "rng", "round", "rounds", "stage", "first", "direction",
        "current", "turn", "deck", "aside", "hand", "hand_from", "collections", "tokens",
        "reserve", "offer", "pile", "tiles", "bought", "debts", "scores", "result",
    )

    def __init__(self) -> None:
        self.seats: list[dict] = []
        self.options: dict = {}
        self.seed = 0
        self.rng = 0
        self.round = 1
        self.rounds = 2
        self.stage = "begin"
        self.first = 0
        self.direction = 1
        self.current = 0
        self.turn = 0
        self.deck: list[str] = []
        self.aside: list[str] = []
        self.hand: list[str] = []
        self.hand_from: int | None = None
        self.collections: list[list[str]] = []
        self.tokens: list[int] = []
        self.reserve = 0
        self.offer: list[str] = []
        self.pile: list[str] = []
        self.tiles: list[list[str]] = []
        self.bought = False
        self.debts: list[list[int]] = []
        self.scores: list[list[dict]] = []
        self.result: list[dict] | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    def clone(self) -> CuboState:
        s = CuboState.__new__(CuboState)
        s.seats = self.seats  # never changed after the setup
        s.options = self.options  # never changed after the setup
        s.seed = self.seed
        s.rng = self.rng
        s.round = self.round
        s.rounds = self.rounds
        s.stage = self.stage
        s.first = self.first
        s.direction = self.direction
        s.current = self.current
        s.turn = self.turn
        s.deck = list(self.deck)
        s.aside = list(self.aside)
        s.hand = list(self.hand)
        s.hand_from = self.hand_from
        s.collections = [list(c) for c in self.collections]
        s.tokens = list(self.tokens)
        s.reserve = self.reserve
        s.offer = list(self.offer)
        s.pile = list(self.pile)
        s.tiles = [list(t) for t in self.tiles]
        s.bought = self.bought
        s.debts = [list(d) for d in self.debts]
        s.scores = [[dict(b) for b in r] for r in self.scores]
        s.result = None if self.result is None else [dict(r) for r in self.result]
        return s
