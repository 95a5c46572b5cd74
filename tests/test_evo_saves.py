"""Damaged EVO saves: every field the rules index by is checked when a save is loaded.

Saves are taken from random games (3, 4 and 5 players, the variant on and off) at the moments
that fill the most fields (a card window, MOI D'ABORD in force, survival choices, an auction
under way, a card ENCORE may take back, the end). Each field and nested element of each save
is replaced by assorted bad values (None, -1, 99, "x", [], {}, a huge int, a float, true),
removed, and every object gets an unknown key: ``from_json`` either raises CorruptState, or the
state it loads works (tests/properties.py: ``exercise``).
"""

from __future__ import annotations

import json
import random

import pytest

from engine import Seat
from engine.core import CorruptState
from engine.evo import EVO
from engine.evo.state import MOVEMENT, OVER
from tests import properties
from tests.properties import check_damaged_saves

MOMENTS = {
    "window": lambda s: s.window is not None and len(s.window["asked"]) > 1
    and bool(s.window["answered"]),
    "first": lambda s: "first" in s.effects and s.effects.get("first_go") is not None,
    "effects": lambda s: len(s.effects) >= 3,
    "choose": lambda s: sum(x is not None for x in s.pending) >= 1 and s.stage == "choose",
    "auction": lambda s: s.auction is not None and any(b is not None for b in s.auction["bids"]),
    "retrievable": lambda s: s.retrievable is not None,
    "move": lambda s: s.phase == MOVEMENT and s.stage == "move" and s.cur > 0,
    "hatch": lambda s: s.stage == "hatch",
    "over": lambda s: s.phase == OVER,
}


def saves_from_games(n: int, variant: bool, seed: int) -> dict[str, dict]:
    """The first save of each moment in random games with ``n`` players (up to 6 games)."""
    found: dict[str, dict] = {}
    rnd = random.Random(seed)
    for game in range(6):
        state = EVO.new_game([Seat(f"u{i}", f"P{i}") for i in range(n)], seed * 100 + game,
                             {"variant": variant})
        while True:
            for name, moment in MOMENTS.items():
                if name not in found and moment(state):
                    found[name] = json.loads(json.dumps(EVO.to_json(state)))
            if EVO.is_over(state) or len(found) == len(MOMENTS):
                break
            p, a = properties.pick(rnd, EVO, state,
                                   lambda a: a["type"] + ":" + str(a.get("card", "")))
            EVO.apply_in_place(state, p, a)
        if len(found) == len(MOMENTS):
            break
    return found


@pytest.mark.parametrize("n, variant", [(3, False), (4, True), (5, False)])
def test_damaged_saves_raise_corrupt_state_or_work(n, variant):
    saves = saves_from_games(n, variant, seed=n)
    assert {"window", "auction", "choose", "over", "move"} <= set(saves), sorted(saves)
    counts = check_damaged_saves(EVO, list(saves.values()), seed=n)
    assert counts["refused"] > counts["loaded"] > 0


def test_the_saves_are_sound():
    for n, variant in ((3, False), (4, True), (5, False)):
        for data in saves_from_games(n, variant, seed=n).values():
            assert EVO.to_json(EVO.from_json(data)) == data


def test_a_wrong_phase_or_stage_is_corrupt():
    data = json.loads(json.dumps(EVO.to_json(EVO.scenario(3))))
    for field, value in (("phase", 99), ("phase", 0), ("stage", "nap"), ("cur", -1)):
        bad = properties.damaged(data, (field,), value)
        with pytest.raises(CorruptState):
            EVO.from_json(bad)


def _set(path, value):
    return lambda d: properties.damaged(d, path, value)


def _edit(fn):
    """A mutation that changes a copy of the save in place with ``fn(data)``."""
    def mutate(d):
        d = json.loads(json.dumps(d))
        fn(d)
        return d
    return mutate


def _bid_beyond_means(d):
    a = d["auction"]
    slot = next(i for i, held in enumerate(a["bids"]) if held is not None)
    a["bids"][slot][1] = d["mp"][a["bids"][slot][0]] + 50


def _answer_unanswered(d):
    w = d["window"]
    q = next(q for q in w["asked"] if q not in w["answered"])
    d["answers"][q] = {"type": "pass"}


def _holder_also_pending(d):
    a = d["auction"]
    a["pending"] = next(held[0] for held in a["bids"] if held is not None)


# values of the right type that do not fit the rest of the save, by the moment they spoil
SPOILED_SAVES = [
    ("move", "phase 99", _set(("phase",), 99)),
    ("move", "phase 0", _set(("phase",), 0)),
    ("move", "over without a result", _set(("phase",), OVER)),
    ("move", "a stage of another phase", _set(("stage",), "bid")),
    ("move", "cur negative", _set(("cur",), -1)),
    ("move", "cur past the last player", _edit(lambda d: d.update(cur=len(d["seats"])))),
    ("move", "a player twice in the order", _edit(lambda d: d["order"].__setitem__(1, d["order"][0]))),
    ("move", "an order too short", _edit(lambda d: d["order"].pop())),
    ("move", "climate off the track", _set(("climate",), 6)),
    ("move", "meteorite off the track", _set(("meteor",), 13)),
    ("move", "negative steps", _set(("steps",), -1)),
    ("move", "a dino of nobody", _edit(lambda d: d["occ"].__setitem__(0, len(d["seats"])))),
    ("move", "negative points", _set(("mp", 0), -1)),
    ("move", "points beyond any game", _set(("mp", 0), 10**6)),
    ("move", "a gene below the portrait", _set(("genes", 0, 0), 0)),
    ("move", "an unknown effect", _set(("effects",), {"zzz": True})),
    ("move", "a flag effect not true", _set(("effects",), {"calm": 1})),
    ("move", "peace the wrong way round", _set(("effects",), {"peace": [[1, 0]]})),
    ("move", "MOI D'ABORD's choice without its player", _set(("effects",), {"first_go": True})),
    ("move", "SURSAUT for nobody", _set(("effects",), {"sursaut": {"9": 1}})),
    ("move", "a survival choice outside survival", _edit(
        lambda d: d.update(pending=[[1, 0]] + [None] * (len(d["seats"]) - 1)))),
    ("move", "a result before the end", _set(("result",), [])),
    ("move", "a card to take back that is not discarded", _edit(
        lambda d: d.update(retrievable={"card": d["deck"][0], "player": 0}))),
    ("move", "a history of nobody", _set(("history",), {"cards": [{"player": 9, "card": "encore"}]})),
    ("move", "the variant as a number", _set(("options",), {"variant": 1})),
    ("move", "a seat twice", _edit(lambda d: d["seats"][1].update(id=d["seats"][0]["id"]))),
    ("move", "a negative generator", _set(("rng",), -1)),
    ("move", "turn 0", _set(("turn",), 0)),
    ("move", "a decision key too few", _edit(lambda d: d["keys"].pop())),
    ("move", "a negative step", _set(("step",), -1)),
    ("move", "an auction out of phase 6", _set(("auction",), {
        "genes": [], "bids": [], "queue": [], "pending": None, "out": [], "can_pass": False})),
    ("choose", "more losses than dinos at risk", _edit(lambda d: d["pending"].__setitem__(
        next(p for p, x in enumerate(d["pending"]) if x is not None), [11, 0]))),
    ("choose", "a survival choice of nothing", _edit(lambda d: d["pending"].__setitem__(
        next(p for p, x in enumerate(d["pending"]) if x is not None), [0, 0]))),
    ("auction", "no auction while bidding", _set(("auction",), None)),
    ("auction", "a bid beyond its player's means", _edit(_bid_beyond_means)),
    ("auction", "an outbid player still holding a bid", _edit(_holder_also_pending)),
    ("auction", "an unknown gene on the table", _set(("auction", "genes", 0), "wings")),
    ("auction", "can_pass as a number", _set(("auction", "can_pass"), 1)),
    ("auction", "a bidder twice in the queue", _edit(
        lambda d: d["auction"]["queue"].extend(d["auction"]["queue"][:1] or [0, 0]))),
    ("window", "a window at no timing point", _set(("window", "at"), "lunch")),
    ("window", "a window asking a player twice", _edit(
        lambda d: d["window"]["asked"].append(d["window"]["asked"][0]))),
    ("window", "an answer of a player who did not answer", _edit(_answer_unanswered)),
    ("window", "an answer missing", _edit(
        lambda d: d["answers"].__setitem__(d["window"]["answered"][0], None))),
    ("window", "a card answered that is not in the hand", _edit(
        lambda d: d["answers"].__setitem__(d["window"]["answered"][0], {
            "type": "play", "card": next(c for c in d["deck"] if c != "gene_inattendu")}))),
    ("window", "every player asked answered", _edit(
        lambda d: d["window"].update(answered=list(d["window"]["asked"])))),
    ("move", "an answer without a window", _set(("answers", 0), {"type": "pass"})),
    ("over", "an end without a result", _set(("result",), None)),
    ("over", "an end in a stage", _set(("stage",), "move")),
    ("over", "a window after the end", _set(("window",), {"at": "phase3", "asked": [0],
                                                         "answered": [], "round": 1})),
]


@pytest.mark.parametrize("moment, what, spoil", SPOILED_SAVES,
                         ids=[what for _, what, _ in SPOILED_SAVES])
def test_a_save_that_does_not_hold_together_is_corrupt(moment, what, spoil):
    data = saves_from_games(3, False, seed=3)[moment]
    EVO.from_json(data)  # the save itself loads
    with pytest.raises(CorruptState):
        EVO.from_json(spoil(data))


def _older(data: dict, version: int) -> dict:
    """``data`` as a save of an earlier version would hold it: version 2 had no secret
    answers and asked card holders one at a time; version 1 had no position keys either."""
    old = {k: v for k, v in data.items() if k != "answers"}
    old["version"] = 2
    w = data["window"]
    if w is not None:
        old["window"] = {"at": w["at"], "order": list(w["asked"]), "i": 1, "passed": 1}
    if version == 1:
        old = {k: v for k, v in old.items() if k not in ("step", "keys")}
        old["version"] = 1
    return old


@pytest.mark.parametrize("version", [1, 2])
def test_a_save_of_an_earlier_version_loads(version):
    """A version-1 save (before ``step`` and ``keys``) gets keys above any action count, so
    a button drawn with the old position number never matches a key; a version-2 window
    (one player asked at a time) becomes a round asking all its players again."""
    from engine.evo.state import OLD_SAVE_KEYS

    saves = saves_from_games(3, False, seed=3)
    for moment in ("choose", "window"):
        data = saves[moment]
        state = EVO.from_json(_older(data, version))
        assert EVO.to_json(state)["version"] == data["version"]
        assert state.answers == [None] * 3
        if version == 1:
            assert state.step == OLD_SAVE_KEYS and state.keys == [OLD_SAVE_KEYS] * 3
        if moment == "window":
            assert EVO.to_act(state) == data["window"]["asked"]
            assert state.window["answered"] == [] and state.window["round"] == 1
