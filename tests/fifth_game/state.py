"""The fifth game's state: plain lists and ints, saved as JSON."""

from __future__ import annotations

from engine.core import SavedState, json_copy


class FifthState(SavedState):
    """``hands[p]``: the cards ``p`` holds (hidden from the others); ``played[p]``: the card
    ``p`` put face down this round (None while they choose; hidden until everyone has);
    ``step``: the public step, ``keys[p]``: ``p``'s decision key (``engine.base.SecretSteps``);
    ``last``: the cards revealed at the end of the previous round."""

    KIND = "fifth"
    LABEL = "Fifth"
    VERSION = 1
    __slots__ = ("seats", "options", "seed", "rng", "round", "phase", "hands", "played",
                 "scores", "last", "step", "keys", "result")

    def __init__(self) -> None:
        self.seats: list[dict] = []
        self.options: dict = {}
        self.seed = 0
        self.rng = 0
        self.round = 1
        self.phase = "play"  # "play" (secret, simultaneous) or "over"
        self.hands: list[list[str]] = []
        self.played: list = []
        self.scores: list[int] = []
        self.last: list = []
        self.step = 0
        self.keys: list[int] = []
        self.result: list[dict] | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    def clone(self) -> FifthState:
        s = FifthState.__new__(FifthState)
        for name in self.__slots__:
            setattr(s, name, json_copy(getattr(self, name)))
        return s
