"""The Random Mutations game state: plain lists, dicts and ints, cheap to copy, saved as JSON."""

from __future__ import annotations

from engine.core import SavedState, json_copy

SCHEMA_VERSION = 1

# phase: "development", "feeding", "extinction" (only while a parasite loss is owed), "over".
# The climate phase is automatic: it happens between development and feeding.
PHASES = ("development", "feeding", "extinction", "over")
# the choices a player may owe (``pending["kind"]``) and the action type that answers each
PENDING = {"dark": "dark", "graze": "graze", "mimicry": "redirect", "eat": "eat",
           "scavenge": "scavenge", "lose": "lose"}


class MutState(SavedState):
    """Everything about one game of Random Mutations, including the hidden parts.

    Players are numbered 0..n-1 in seat order; clockwise is increasing seat index. Cards are
    ids (``"carnivore-3"``: its face; its back is an animal). Piles keep their top card last:
    ``main`` (the main deck), ``decks[p]`` (the personal decks). ``removed``: the cards that
    left the game. Hidden: ``main``, ``decks``, ``removed``, the ``card`` of each animal (it
    lies face down) and ``rng``; never show a state, show ``view(state, viewer)``.

    ``rows[p]``: ``p``'s species in row order, each ``{"id", "parent", "traits", "animals"}``:
    ``traits`` the trait cards played on it (in play order), ``parent`` the species it split
    from (Divergence; its traits apply too) or None; each animal ``{"id", "card", "red",
    "blue", "burrow", "parasites", "attacked"}``. Species and animal ids come from ``next_id``
    and are never reused.

    ``current``: whose turn it is in development and feeding; ``passed``: who has passed in
    this development phase; ``passes``: consecutive passes in feeding (the phase ends at n);
    ``grazed``: the current feeding player has used Grazing this turn; ``centre``: the tokens
    in the centre; ``dice``: the climate roll of this turn; ``pending``: the choice some player
    owes now (None: none); ``queue``: species still to lose an animal to parasites; ``lost``:
    cards each player lost from the game (the tie-break); ``last``: this turn is the last.
    """

    KIND = "mutations"
    LABEL = "Random Mutations"
    VERSION = SCHEMA_VERSION
    __slots__ = (
        "seats", "options", "seed", "rng", "boxes", "turn", "first", "current", "phase",
        "last", "main", "decks", "removed", "lost", "rows", "next_id", "passed", "passes",
        "grazed", "centre", "dice", "pending", "queue", "result",
    )

    def __init__(self) -> None:
        self.seats: list[dict] = []
        self.options: dict = {}
        self.seed = 0
        self.rng = 0
        self.boxes = 1
        self.turn = 0
        self.first = 0
        self.current = 0
        self.phase = "development"
        self.last = False
        self.main: list[str] = []
        self.decks: list[list[str]] = []
        self.removed: list[str] = []
        self.lost: list[int] = []
        self.rows: list[list[dict]] = []
        self.next_id = 1
        self.passed: list[bool] = []
        self.passes = 0
        self.grazed = False
        self.centre: dict = {"food": 0, "burrows": 0, "parasites": 0}
        self.dice: dict = {"food": [], "burrows": [], "parasites": []}
        self.pending: dict | None = None
        self.queue: list[int] = []
        self.result: list[dict] | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    def clone(self) -> MutState:
        s = MutState.__new__(MutState)
        s.seats = self.seats  # never changed after the setup
        s.options = self.options  # never changed after the setup
        s.seed = self.seed
        s.rng = self.rng
        s.boxes = self.boxes
        s.turn = self.turn
        s.first = self.first
        s.current = self.current
        s.phase = self.phase
        s.last = self.last
        s.main = list(self.main)
        s.decks = [list(d) for d in self.decks]
        s.removed = list(self.removed)
        s.lost = list(self.lost)
        s.rows = rows = []
        for row in self.rows:  # each species a copy (dict.copy: faster than a literal)
            out = []
            for sp in row:
                x = sp.copy()
                x["traits"] = sp["traits"][:]
                x["animals"] = [a.copy() for a in sp["animals"]]
                out.append(x)
            rows.append(out)
        s.next_id = self.next_id
        s.passed = list(self.passed)
        s.passes = self.passes
        s.grazed = self.grazed
        s.centre = dict(self.centre)
        s.dice = {k: list(v) for k, v in self.dice.items()}
        s.pending = json_copy(self.pending)
        s.queue = list(self.queue)
        s.result = json_copy(self.result)
        return s
