"""Damaged Cubosaurs saves: every field the rules index by is checked when a save is loaded.

Saves are taken from random games (2 to 5 players; standard, advanced, and advanced with the
whole DNA reserve handed out so that players take tokens from each other) at the moments that
fill the most fields (a drawn hand, a passed hand, tiles bought, a token to take from an
opponent, a later round, the end). Each field and nested element of each save is replaced by
assorted bad values (None, -1, 99, "x", [], {}, a huge int, a float, true), removed, and every
object gets an unknown key: ``from_json`` either raises CorruptState, or the state it loads
works (tests/properties.py: ``exercise``).
"""

from __future__ import annotations

import json
import random

import pytest

from engine import Seat
from engine.core import CorruptState
from engine.cubosaurs import CUBOSAURS as G
from tests import properties
from tests.properties import check_damaged_saves

MOMENTS = {
    "drawn": lambda s: s.stage == "act" and s.hand_from is None and s.turn > 2,
    "passed": lambda s: s.stage == "act" and s.hand_from is not None and len(s.hand) > 2,
    "tiles": lambda s: any(s.tiles) and s.stage == "act",
    "debt": lambda s: bool(s.debts),
    "later round": lambda s: s.round > 1 and s.stage == "act",
    "over": lambda s: s.stage == "over",
}


def saves_from_games(n: int, mode: str, seed: int) -> dict[str, dict]:
    """The first save of each moment in random games with ``n`` players (up to 6 games)."""
    found: dict[str, dict] = {}
    rnd = random.Random(seed)
    for game in range(6):
        state = G.new_game([Seat(f"u{i}", f"P{i}") for i in range(n)], seed * 100 + game,
                           {"advanced": mode != "standard"})
        if mode == "rich":  # the whole reserve handed out (tokens are conserved)
            while state.reserve:
                state.reserve -= 1
                state.tokens[rnd.randrange(n)] += 1
        while True:
            for name, moment in MOMENTS.items():
                if name not in found and moment(state):
                    found[name] = json.loads(json.dumps(G.to_json(state)))
            if G.is_over(state) or len(found) == len(MOMENTS):
                break
            p, a = properties.pick(rnd, G, state,
                                   lambda a: a["type"] + ":" + str(a.get("tile", "")))
            G.apply_in_place(state, p, a)
        if len(found) == len(MOMENTS):
            break
    return found


CONFIGS = [(2, "advanced"), (3, "rich"), (4, "standard"), (5, "advanced")]


@pytest.mark.parametrize("n, mode", CONFIGS)
def test_damaged_saves_raise_corrupt_state_or_work(n, mode):
    saves = saves_from_games(n, mode, seed=n)
    assert {"drawn", "passed", "later round", "over"} <= set(saves), sorted(saves)
    counts = check_damaged_saves(G, list(saves.values()), seed=n)
    assert counts["refused"] > counts["loaded"] > 0


def test_the_saves_are_sound():
    seen = set()
    for n, mode in CONFIGS:
        saves = saves_from_games(n, mode, seed=n)
        seen.update(saves)
        for data in saves.values():
            assert G.to_json(G.from_json(data)) == data
    assert seen == set(MOMENTS)


def test_a_wrong_stage_or_player_is_corrupt():
    data = json.loads(json.dumps(G.to_json(G.scenario(3, hand=["trex-1"]))))
    for field, value in (("stage", "nap"), ("current", -1), ("current", 3), ("round", 0)):
        with pytest.raises(CorruptState):
            G.from_json(properties.damaged(data, (field,), value))


def _edit(fn):
    """A mutation that changes a copy of the save in place with ``fn(data)``."""
    def mutate(d):
        d = json.loads(json.dumps(d))
        fn(d)
        return d
    return mutate


def _set(path, value):
    return lambda d: properties.damaged(d, path, value)


def _debt_nobody_can_pay(d):
    """A token owed while the reserve is empty and no opponent has any: the debtor would be
    awaited with nothing to do."""
    d["tokens"] = [40] + [0] * (len(d["seats"]) - 1)
    d["reserve"] = 0
    d["debts"] = [[0, 1]]


def _hand_to_oneself(d):
    d["hand_from"] = d["current"]


# values of the right type that do not fit the rest of the save, by the moment they spoil
SPOILED_SAVES = [
    ("drawn", "a turn that never began", _set(("stage",), "begin")),
    ("drawn", "the game over without a result", _set(("stage",), "over")),
    ("drawn", "a round past the last", _edit(lambda d: d.update(round=d["rounds"] + 1))),
    ("drawn", "a player who is not there", _edit(lambda d: d.update(current=len(d["seats"])))),
    ("drawn", "a hand passed by its holder", _edit(_hand_to_oneself)),
    ("drawn", "a card twice", _edit(lambda d: d["hand"].append(d["deck"][0]))),
    ("drawn", "a direction of two", _set(("direction",), 2)),
    ("drawn", "a finished round too many", _edit(lambda d: d["scores"].append(d["scores"][:1]))),
    ("tiles", "a debt nobody can pay", _edit(_debt_nobody_can_pay)),
    ("tiles", "a tile twice", _edit(lambda d: d["offer"].append(d["tiles"][
        next(p for p, t in enumerate(d["tiles"]) if t)][0]))),
    ("tiles", "a token too many", _edit(lambda d: d["tokens"].__setitem__(0, d["tokens"][0] + 1))),
    ("over", "a result of nobody", _edit(lambda d: d["result"][0].update(player=9))),
    ("over", "an end before the last round", _edit(lambda d: d.update(round=d["rounds"] - 1))),
]


@pytest.mark.parametrize("moment, what, spoil", SPOILED_SAVES,
                         ids=[what for _, what, _ in SPOILED_SAVES])
def test_a_save_that_does_not_hold_together_is_corrupt(moment, what, spoil):
    saves = saves_from_games(2, "advanced", seed=2)
    data = saves[moment]
    G.from_json(data)  # the save itself loads
    with pytest.raises(CorruptState):
        G.from_json(spoil(data))
