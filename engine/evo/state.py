"""The EVO game state: plain lists and ints, cheap to copy, saved as JSON."""

from __future__ import annotations

from engine.core import CorruptState, SavedState, json_copy

SCHEMA_VERSION = 3

# Phases of a turn. OVER marks a finished game.
INITIATIVE, CLIMATE, MOVEMENT, BIRTHS, SURVIVAL, EVOLUTION, OVER = 1, 2, 3, 4, 5, 6, 7
PHASE_NAMES = {
    INITIATIVE: "initiative",
    CLIMATE: "climate",
    MOVEMENT: "movement",
    BIRTHS: "births",
    SURVIVAL: "survival",
    EVOLUTION: "evolution",
    OVER: "over",
}


class EvoState(SavedState):
    """Everything about one game of EVO, including the hidden parts (hands, deck, bag, rng).

    Players are numbered 0..n-1 in seat order. Regions are indices into the board
    (``engine.evo.data.board_for(n)``); ``occ[r]`` is the player whose dino stands there, or -1.
    Hidden information lives in ``hands``, ``deck``, ``bag`` and ``rng``; never show a state,
    show ``view(state, viewer)``.
    """

    KIND = "evo"
    LABEL = "EVO"
    VERSION = SCHEMA_VERSION
    __slots__ = (
        "seats", "options", "seed", "rng", "turn", "phase", "stage", "order", "climate",
        "meteor", "occ", "mp", "genes", "hands", "locked", "deck", "discard", "bag",
        "gene_discard", "effects", "window", "cur", "steps", "births", "newborn", "pending",
        "lost", "auction", "result", "retrievable", "history", "step", "keys", "answers",
    )

    def __init__(self) -> None:
        self.seats: list[dict] = []
        self.options: dict = {}
        self.seed = 0
        self.rng = 0
        self.turn = 1
        self.phase = INITIATIVE
        self.stage = "start"
        self.order: list[int] = []
        self.climate = 0
        self.meteor = 0
        self.occ: list[int] = []
        self.mp: list[int] = []
        self.genes: list[list[int]] = []
        self.hands: list[list[str]] = []
        self.locked: list[list[str]] = []
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.bag: list[str] = []
        self.gene_discard: list[str] = []
        self.effects: dict = {}
        self.window: dict | None = None
        self.cur = 0
        self.steps = 0
        self.births = 0
        self.newborn: list[int] = []
        self.pending: list = []
        self.lost: list[int] = []
        self.auction: dict | None = None
        self.result: list | None = None
        self.retrievable: dict | None = None
        # public record of what happened in the current turn (climate roll, cards played);
        # reset at the start of each turn
        self.history: dict = {}
        # the position's keys (the contract's step_key/decision_key): ``step`` moves on every
        # action, ``keys[p]`` whenever what ``p`` may decide may have changed (every action,
        # except another player's loss choice while ``p`` still chooses theirs)
        self.step = 0
        self.keys: list[int] = []
        # each player's secret answer in the card window's current round (None: not yet, or
        # no window): {"type": "pass"} or the card play they chose, still in their hand
        self.answers: list = []

    @property
    def n(self) -> int:
        return len(self.seats)

    def clone(self) -> EvoState:
        """An independent copy (a searcher copies a state for every simulated move): the flat
        lists sliced, the lists of lists and of flat dicts copied one level down, the history
        one level down, the nested dicts (effects, auction, result) with ``json_copy``."""
        s = EvoState.__new__(EvoState)
        s.seats = self.seats  # never changed after the setup
        s.options = self.options  # never changed after the setup
        s.seed = self.seed
        s.rng = self.rng
        s.turn = self.turn
        s.phase = self.phase
        s.stage = self.stage
        s.order = self.order[:]
        s.climate = self.climate
        s.meteor = self.meteor
        s.occ = self.occ[:]
        s.mp = self.mp[:]
        s.genes = [g[:] for g in self.genes]
        s.hands = [h[:] for h in self.hands]
        s.locked = [h[:] for h in self.locked]
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.bag = self.bag[:]
        s.gene_discard = self.gene_discard[:]
        s.effects = json_copy(self.effects) if self.effects else {}
        w = self.window
        if w is not None:  # {"at", "asked", "answered", "round"}: its lists one level deep
            w = {k: v[:] if type(v) is list else v for k, v in w.items()}
        s.window = w
        s.cur = self.cur
        s.steps = self.steps
        s.births = self.births
        s.newborn = self.newborn[:]
        s.pending = [x if x is None else x[:] for x in self.pending]  # None or [cold, hot]
        s.lost = self.lost[:]
        s.auction = None if self.auction is None else json_copy(self.auction)
        s.result = None if self.result is None else json_copy(self.result)
        r = self.retrievable
        s.retrievable = None if r is None else r.copy()  # {"card", "player"}
        # the turn's record: its "cards" list copied; its entries (and "climate") are only
        # ever replaced or appended, never changed in place
        s.history = {k: v[:] if type(v) is list else v for k, v in self.history.items()}
        s.step = self.step
        s.keys = self.keys[:]
        s.answers = [a if a is None else a.copy() for a in self.answers]  # flat actions
        return s

    @classmethod
    def from_json(cls, data):
        return super().from_json(upgrade(data))

    def check_loaded(self) -> None:
        n = len(self.seats)
        if not 3 <= n <= 5 or any(len(x) != n for x in (self.mp, self.genes, self.hands,
                                                         self.locked, self.keys,
                                                         self.answers)):
            raise CorruptState("EVO state has inconsistent player lists")


# A save of version 1 (before the keys) gets keys above any action count it may have been
# drawn with: a button bound to the old position number never matches a key again.
OLD_SAVE_KEYS = 1 << 20


def upgrade(data):
    """A save of an earlier schema version, brought to this one (anything else as it is).

    Version 2 asked card holders one at a time (``window``: ``order``, ``i``, ``passed``);
    version 3 asks them all at once, each answering secretly: an old window becomes a new
    round asking every player it asked (what was passed in it is asked again)."""
    if not isinstance(data, dict) or data.get("kind") != EvoState.KIND \
            or not isinstance(data.get("seats"), list):
        return data
    n = len(data["seats"])
    if data.get("version") == 1:
        data = dict(data, version=2, step=OLD_SAVE_KEYS, keys=[OLD_SAVE_KEYS] * n)
    if data.get("version") == 2:
        data = dict(data, version=3, answers=[None] * n)
        w = data.get("window")
        if isinstance(w, dict) and set(w) == {"at", "order", "i", "passed"}:
            data["window"] = {"at": w["at"], "asked": w["order"], "answered": [], "round": 1}
    return data
