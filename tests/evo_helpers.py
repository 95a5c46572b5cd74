"""Helpers shared by the EVO rules and card tests: the track, forced dice, acting, driving."""

from __future__ import annotations

from itertools import count

import pytest

from engine import IllegalAction
from engine.core import Rng
from engine.evo import EVO
from engine.evo.data import rules_data

DATA = rules_data()
TERRAINS = DATA["climate"]["terrains"]
BEACH, PRAIRIE, HILL, MOUNTAIN = (TERRAINS.index(t) for t in ("beach", "prairie", "hill", "mountain"))
TRACK = [TERRAINS.index(t) for t in DATA["climate"]["track"]]


def rng_for_dice(*faces: int) -> int:
    """A generator state whose next die rolls are ``faces``, in order."""
    for x in count():
        r = Rng(x)
        if all(r.die() == f for f in faces):
            return x
    raise AssertionError("unreachable")


def forced(state, *faces: int):
    """A copy of ``state`` whose next die rolls are ``faces``."""
    s = state.clone()
    s.rng = rng_for_dice(*faces)
    return s


def square_of(terrain: int) -> int:
    """The first climate square whose temperate colour is ``terrain``."""
    return TRACK.index(terrain)


def act(state, player, action):
    return EVO.apply_action(state, player, action)


def events_of(events, kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def assert_illegal(state, player, action, code: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        EVO.apply_action(state, player, action)
    assert info.value.code == code, info.value
    return info.value


def default_action(state, p) -> dict:
    """The dullest legal choice: pass a card window, end a move, the lowest bid, MOI
    D'ABORD's player first (the first legal action that is not a card)..."""
    acts = EVO.legal_actions(state, p)
    assert acts, f"player {p} to act but has no legal action (stage {state.stage})"
    if state.window is not None:
        return {"type": "pass"}
    if state.stage == "move":
        return {"type": "end"}
    if state.stage == "bid":
        bids = [a for a in acts if a["type"] == "bid"]
        return min(bids, key=lambda a: (a["amount"], a["gene"])) if bids else acts[0]
    return next(a for a in acts if a["type"] != "play")


def drive(state, until, choose=default_action, limit: int = 2000):
    """Play ``choose`` actions until ``until(state)``; returns the state and all events."""
    events: list[dict] = []
    for _ in range(limit):
        if until(state):
            return state, events
        p = EVO.to_act(state)[0]
        state, ev = EVO.apply_action(state, p, choose(state, p))
        events.extend(ev)
    raise AssertionError("drive did not reach the goal")


def first_choice(n: int, seed: int, turn: int, me: int, stage: str):
    """Fast seats play seed ``seed`` until ``me``'s first step of ``stage`` ("move", "bid")
    with a choice in ``turn``: (state, legal actions, ``me``'s view, its decision seed)."""
    from engine.core import Seat
    from engine.evo.ai import FastPolicy, decision_seed

    fast = FastPolicy()
    state = EVO.new_game([Seat(f"ai:{i}", f"AI {i}") for i in range(n)], seed)
    while True:
        p = EVO.to_act(state)[0]
        legal = EVO.legal_actions(state, p)
        if (p == me and state.turn == turn and state.stage == stage and state.window is None
                and len(legal) > 1):
            return state, legal, EVO.view(state, me), decision_seed(state, me)
        act = legal[0] if len(legal) == 1 else fast.choose(EVO.view(state, p), legal,
                                                            decision_seed(state, p))
        state, _ = EVO.apply_action(state, p, act)
