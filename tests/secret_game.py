"""A tiny game with secret simultaneous steps, for the host's tests (kind ``sealed``).

Each round every player secretly picks a number 1-3 (an action only they see); once all
have picked, the picks are revealed together and added to the totals; then the round's
first player must say ``go`` (an ordinary public turn) and the next round starts. Two
rounds. ``step_key`` and ``decision_key`` follow the contract in ``engine/core.py``:
a secret pick changes only the picker's key.
"""

from __future__ import annotations

import copy

from engine.core import CorruptState, IllegalAction, register

ROUNDS = 2


class SealedState:
    def __init__(self, seats, seed):
        self.seats = [{"id": s.id, "name": s.name} for s in seats]
        self.seed = seed
        self.round = 1
        self.stage = "pick"  # "pick" (secret, simultaneous), "go" (first player), "over"
        self.picks = [None] * len(seats)
        self.totals = [0] * len(seats)
        self.step = 0
        self.marks = [0] * len(seats)

    def to_json(self) -> dict:
        return copy.deepcopy(dict(vars(self), kind="sealed"))


class SealedGame:
    kind = "sealed"
    min_players = 2
    max_players = 4
    options: dict[str, str] = {}

    def new_game_with_events(self, seats, seed, options=None, observer=None):
        return SealedState(seats, seed), [{"type": "round", "round": 1}]

    def new_game(self, seats, seed, options=None):
        return self.new_game_with_events(seats, seed, options)[0]

    def to_act(self, s) -> list[int]:
        if s.stage == "pick":
            return [p for p, pick in enumerate(s.picks) if pick is None]
        if s.stage == "go":
            return [(s.round - 1) % len(s.seats)]
        return []

    def card_window(self, s, player) -> bool:
        return False

    def legal_actions(self, s, player) -> list[dict]:
        if player not in self.to_act(s):
            return []
        if s.stage == "pick":
            return [{"type": "pick", "n": n} for n in (1, 2, 3)]
        return [{"type": "go"}]

    def check_action(self, action) -> None:
        if not isinstance(action, dict) or action.get("type") not in ("pick", "go"):
            raise IllegalAction("unknown_action", action=str(action)[:40])

    def apply_action(self, s, player, action, observer=None):
        self.check_action(action)
        if action not in self.legal_actions(s, player):
            raise IllegalAction("not_your_turn", player=player, waiting=self.to_act(s))
        s = copy.deepcopy(s)
        return s, self.apply_in_place(s, player, action)

    def apply_in_place(self, s, player, action) -> list[dict]:
        if action["type"] == "pick":
            s.picks[player] = action["n"]
            s.marks[player] += 1  # a secret move: only the picker's key changes
            events = [{"type": "picked", "player": player}]  # never the number
            if all(pick is not None for pick in s.picks):
                events.append({"type": "reveal", "picks": list(s.picks)})
                s.totals = [t + pick for t, pick in zip(s.totals, s.picks, strict=True)]
                s.stage = "go"
                self._public(s)
            return events
        s.round += 1
        s.picks = [None] * len(s.seats)
        s.stage = "pick" if s.round <= ROUNDS else "over"
        self._public(s)
        return [{"type": "round", "round": s.round}]

    @staticmethod
    def _public(s) -> None:
        s.step += 1
        s.marks = [m + 1 for m in s.marks]

    def step_key(self, s) -> int:
        return s.step

    def decision_key(self, s, player) -> int:
        return s.step * 1000 + s.marks[player]

    def view(self, s, viewer) -> dict:
        return {"round": s.round, "stage": s.stage, "totals": list(s.totals),
                "chosen": viewer is not None and s.picks[viewer] is not None,
                "my_pick": None if viewer is None else s.picks[viewer]}

    def is_over(self, s) -> bool:
        return s.stage == "over"

    def returns(self, s) -> list[dict]:
        order = sorted(range(len(s.seats)), key=lambda p: -s.totals[p])
        return [{"player": p, "rank": 1 + sum(t > s.totals[p] for t in s.totals),
                 "score": s.totals[p], "name": s.seats[p]["name"]} for p in order]

    def to_json(self, s) -> dict:
        return s.to_json()

    def from_json(self, data) -> SealedState:
        if not isinstance(data, dict) or data.get("kind") != "sealed":
            raise CorruptState("not a sealed state")
        s = SealedState.__new__(SealedState)
        for k, v in data.items():
            if k != "kind":
                setattr(s, k, copy.deepcopy(v))
        return s

    def phase_name(self, s) -> str:
        return s.stage

    def ai_action(self, s, player, level) -> dict:
        return self.legal_actions(s, player)[0]


SEALED = SealedGame()


def install():
    """Register the game (a test fixture removes it again)."""
    register(SEALED)
    return SEALED
