"""A bounded, seeded fuzz of both games through the engine contract.

Random games of EVO and Cubosaurs are played at every player count and option. At every step,
besides the legal move that carries the game on, the fuzzer tries a random mix of:

* a **malformed** action (an extra or a missing key, a value of the wrong kind, a bool for a
  number, NaN or Infinity, an over-long string, the other game's actions, no object at all):
  ``check_action`` must refuse it, and so must ``apply_action``/``apply_in_place``;
* a **well-formed** action that is usually illegal (random values in the exact shape of a
  random action type, an action legal some moves ago, a legal action by the wrong player):
  ``check_action`` must let it through; the rules may refuse it (never as malformed) or, when
  it happens to be legal, accept it;
* another **legal** action, which must be accepted.

A refusal must raise :class:`IllegalAction` and leave the state exactly as it was (its saved
JSON compared before and after); an accepted action must be one of ``legal_actions``, its new
state and its events must dump as strict JSON (``allow_nan=False``), and the state must load
back equal to itself. ``to_act`` and ``legal_actions`` (of every player) never raise, and every
legal action passes ``check_action``.

``DARWIN_FUZZ_GAMES=<n>`` plays ``n`` games per configuration instead of one (a soak run).
"""

from __future__ import annotations

import json
import math
import os
import random

import pytest

from engine import IllegalAction, Seat, get_game
from engine.climate import rules as climate_rules
from engine.core import MAX_INT, MAX_KEYS, MAX_TEXT, OneOf
from engine.cubosaurs import rules as cubo_rules
from engine.cubosaurs.data import CARDS, TILES
from engine.evo import rules as evo_rules
from engine.evo.data import board_for
from engine.mutations import rules as mutations_rules

GAMES = int(os.environ.get("DARWIN_FUZZ_GAMES", "1") or 1)
MAX_STEPS = 5000

CONFIGS = ([("evo", n, {"variant": v}) for n in (3, 4, 5) for v in (False, True)]
           + [("cubosaurs", n, {"advanced": a, "interactive": i}) for n in (2, 3, 4, 5)
              for a, i in ((False, True), (True, True), (True, False))])

SHAPES = {"evo": evo_rules.ACTION_SHAPES, "cubosaurs": cubo_rules.ACTION_SHAPES}

# a few actions of each game, each malformed for the other one
SAMPLES = {
    "evo": [{"type": "pass"}, {"type": "end"}, {"type": "move", "from": "C4", "to": "D4"},
            {"type": "hatch", "region": "C5"}, {"type": "lose", "regions": ["B2"]},
            {"type": "bid", "gene": 0, "amount": 3}, {"type": "first", "go": True},
            {"type": "play", "card": "accident", "target": 1, "region": "E5"},
            {"type": "play", "card": "encore"}, {"type": "play", "card": "gene_meteo", "die": 2}],
    "cubosaurs": [{"type": "keep"}, {"type": "pass", "card": "egg-raptor"},
                  {"type": "buy", "tile": "steal", "target": 1, "card": "trex-2"},
                  {"type": "buy", "tile": "draw"}, {"type": "take_token", "from": 1}],
}
OTHER = {"evo": "cubosaurs", "cubosaurs": "evo"}

NAN, INF = float("nan"), float("inf")
LONG = "x" * (MAX_TEXT + 1)
# values of the wrong kind, per kind of the shape tables
WRONG = {
    str: [None, 0, 1, True, 2.0, NAN, INF, [], {}, ["C4"], LONG],
    int: [None, True, False, 1.0, 0.0, NAN, INF, -INF, "1", [], {}, [1], MAX_INT + 1,
          -(MAX_INT + 1), 10**40],
    bool: [None, 0, 1, 1.0, "true", NAN, [], {}],
    list[str]: [None, "C4", 3, NAN, {}, [1], [None], ["C4", 2.0], [LONG], ["C4"] * 65],
}
NOT_OBJECTS = [None, 0, 3, True, NAN, INF, "pass", "", ["type", "pass"], ("type", "pass"),
               b"pass", {"pass"}]
NOT_SHAPES = [{}, {"type": None}, {"type": 1}, {"type": True}, {"type": ["pass"]},
              {"type": LONG}, {"type": "PASS"}, {"type": " pass"}, {"type": "roar"},
              {"type": "pass", 1: 2}, {"type": "pass", LONG: 1}, {"type": "pass", "x": NAN},
              {"type": "pass", "x": INF}, {"type": "pass", "x": -INF},
              {"type": "pass", **{f"k{i}": i for i in range(MAX_KEYS)}}]
KEYS = ["card", "x", "region", "regions", "target", "amount", "go", "from", "to", "tile",
        "take", "die", "gene", "player", "type2"]
ANY = [NAN, INF, -INF, None, True, 0, -1, 1.5, "", "C4", "trex-1", [], {}, [NAN], {"a": NAN}]


def dump(x) -> str:
    """Strict, canonical JSON (raises on NaN and Infinity)."""
    return json.dumps(x, sort_keys=True, allow_nan=False)


def same(a, b) -> bool:
    """Equal actions, values of the same types too (``True`` is not 1, ``1.0`` not 1)."""
    return a == b and all(type(a[k]) is type(b[k]) for k in a)


def is_legal(p, a, legal) -> bool:
    """``(p, a)`` is one of ``legal``, exactly."""
    return type(p) is int and any(q == p and same(x, a) for q, x in legal)


class Fuzz:
    """One game played to the end with the attempts described above."""

    def __init__(self, kind: str, n: int, options: dict, seed: int) -> None:
        self.kind, self.n = kind, n
        self.rules = get_game(kind)
        self.shapes = SHAPES[kind]
        self.rnd = random.Random(f"{kind}:{n}:{sorted(options.items())}:{seed}")
        self.legal: list[tuple[int, dict]] = []  # the legal actions now, as (player, action)
        seats = [Seat(f"u{i}", f"P{i}") for i in range(n)]
        self.state = self.rules.new_game(seats, self.rnd.randrange(2**64), options)
        self.saved = self.rules.to_json(self.state)  # the saved state, kept up to date
        names = list(CARDS) + list(TILES) + ["", "x", "C4 ", "trex-0"]
        if kind == "evo":
            names += list(board_for(n).names) + list(evo_rules.D["cards"]["deck"])
        self.names = names
        self.old: list[tuple[int, dict]] = []  # legal actions of earlier positions
        self.counts = {"legal": 0, "well_formed": 0, "malformed": 0, "accepted_other": 0}

    # --- the game -------------------------------------------------------------------------

    def play(self) -> dict:
        rules = self.rules
        steps = 0
        self.legal = self.check_position()
        while not rules.is_over(self.state):
            # one or two attempts, then the legal move that carries the game on (an attempt
            # that was accepted is a move too, and the next position is checked after it)
            for _ in range(self.rnd.choice((1, 1, 1, 2))):
                attempt = self.rnd.random()
                if attempt < 0.5:
                    self.try_malformed(self.legal)
                elif attempt < 0.85:
                    self.try_well_formed(self.legal)
                else:
                    self.apply(*self.rnd.choice(self.legal), self.legal)
                    self.counts["legal"] += 1
                if rules.is_over(self.state):
                    break
            else:
                self.apply(*self.rnd.choice(self.legal), self.legal)
                self.counts["legal"] += 1
            steps += 1
            assert steps < MAX_STEPS
        # once over: nobody is awaited, and everything is refused
        assert rules.to_act(self.state) == [] and self.legal == []
        for a in SAMPLES[self.kind] + SAMPLES[OTHER[self.kind]]:
            self.refused(self.rnd.randrange(self.n), a)
        return self.counts

    def check_position(self) -> list[tuple[int, dict]]:
        """to_act and legal_actions of every player never raise; every legal action passes
        check_action. The legal actions of the awaited players, as (player, action)."""
        rules = self.rules
        waiting = rules.to_act(self.state)
        legal = []
        for p in range(self.n):
            acts = rules.legal_actions(self.state, p)
            assert not acts or p in waiting
            for a in acts:
                rules.check_action(a)
                legal.append((p, a))
        assert bool(legal) == bool(waiting), "an awaited player has nothing to do"
        if legal:
            self.old = (self.old + self.rnd.sample(legal, min(4, len(legal))))[-40:]
        return legal

    # --- the attempts ---------------------------------------------------------------------

    def try_malformed(self, legal) -> None:
        p = self.rnd.choice(legal)[0] if legal else 0
        a = self.malformed(legal)
        with pytest.raises(IllegalAction):
            self.rules.check_action(a)
        self.refused(p, a)
        self.counts["malformed"] += 1

    def try_well_formed(self, legal) -> None:
        rnd = self.rnd
        choice = rnd.random()
        if choice < 0.5:
            p, a = rnd.randrange(-1, self.n + 1), self.random_shape()
        elif choice < 0.8 and self.old:
            p, a = rnd.choice(self.old)
            a = dict(a)
        else:
            a = rnd.choice(legal)[1] if legal else {"type": "pass"}
            p = rnd.choice([q for q in range(-1, self.n + 1) if q not in self.rules.to_act(
                self.state)] + [True, "0", None, 0.0])
        if a in SAMPLES[OTHER[self.kind]]:
            return
        self.rules.check_action(a)  # well-formed: the shape check lets it through
        self.counts["well_formed"] += 1
        if is_legal(p, a, legal):
            self.apply(p, a, legal)
            self.counts["accepted_other"] += 1
            return
        err = self.refused(p, a)
        assert err.code != "bad_action", (a, err.params)

    def malformed(self, legal) -> object:
        """An action that check_action must refuse."""
        rnd = self.rnd
        how = rnd.randrange(6)
        if how == 0:
            return rnd.choice(NOT_OBJECTS)
        if how == 1:
            return dict(rnd.choice(NOT_SHAPES))
        if how == 2:
            return dict(rnd.choice(SAMPLES[OTHER[self.kind]]))
        base = dict(rnd.choice(legal)[1]) if legal and rnd.random() < 0.7 else self.random_shape()
        keys = [k for k in base if k != "type"]
        if how == 3 or not keys:  # an extra key, whatever its value
            key = rnd.choice([k for k in KEYS if k not in base])
            base[key] = rnd.choice(ANY + [base.get(rnd.choice(keys)) if keys else "C4"])
            return base
        key = rnd.choice(keys)
        if how == 4:  # a missing key
            del base[key]
            return base
        base[key] = rnd.choice(WRONG[self.kind_of(base, key)])  # a value of the wrong kind
        return base

    def random_shape(self) -> dict:
        """A random action in the exact shape of a random action type (usually illegal)."""
        rnd = self.rnd
        kind = rnd.choice(sorted(self.shapes))
        shape = self.shapes[kind]
        a: dict = {"type": kind}
        if isinstance(shape, OneOf):
            a[shape.key] = rnd.choice(sorted(shape.shapes))
            shape = shape.shapes[a[shape.key]]
        for key, value_kind in shape.items():
            a[key] = self.random_value(value_kind)
        return a

    def random_value(self, kind):
        rnd = self.rnd
        if kind is str:
            return rnd.choice(self.names)
        if kind is int:
            return rnd.choice([-1, 0, 1, 2, 3, 4, 5, 6, 7, self.n, 12, 40, MAX_INT, -MAX_INT])
        if kind is bool:
            return rnd.random() < 0.5
        return [rnd.choice(self.names) for _ in range(rnd.randrange(4))]

    def kind_of(self, action: dict, key: str):
        shape = self.shapes[action["type"]]
        if isinstance(shape, OneOf):
            if key == shape.key:
                return str
            shape = shape.shapes[action[shape.key]]
        return shape[key]

    # --- applying ---------------------------------------------------------------------------

    def refused(self, p, a) -> IllegalAction:
        """``a`` by ``p`` is refused, through either path, and changes nothing."""
        rules = self.rules
        with pytest.raises(IllegalAction) as err:
            if self.rnd.random() < 0.5:
                rules.apply_action(self.state, p, a)
            else:
                rules.apply_in_place(self.state, p, a)
        assert rules.to_json(self.state) == self.saved, f"refused {a!r} changed the state"
        return err.value

    def apply(self, p: int, a: dict, legal) -> None:
        """A legal action is accepted; the new state and events are strict JSON, and the
        state loads back equal to itself (the game goes on from the loaded copy)."""
        rules = self.rules
        assert is_legal(p, a, legal)
        if self.rnd.random() < 0.5:
            # (that apply_action leaves its input alone is checked by the property tests)
            new, events = rules.apply_action(self.state, p, a)
        else:
            new = self.state
            events = rules.apply_in_place(new, p, a)
        dump(events)
        self.saved = rules.to_json(new)
        loaded = rules.from_json(json.loads(dump(self.saved)))
        assert loaded == new
        self.state = loaded
        self.legal = self.check_position()


@pytest.mark.parametrize("kind,n,options", CONFIGS,
                         ids=[f"{k}-{n}-{'-'.join(o for o, v in opts.items() if v) or 'plain'}"
                              for k, n, opts in CONFIGS])
def test_fuzz(kind, n, options):
    for seed in range(GAMES):
        counts = Fuzz(kind, n, options, seed).play()
        assert counts["malformed"] and counts["well_formed"] and counts["legal"]


def test_fuzz_values_are_wrong_for_their_kind():
    """The fuzzer's own tables: every 'wrong' value is refused in place of a right one."""
    evo = get_game("evo")
    for value in WRONG[int]:
        with pytest.raises(IllegalAction):
            evo.check_action({"type": "bid", "gene": 0, "amount": value})
    for value in WRONG[str]:
        with pytest.raises(IllegalAction):
            evo.check_action({"type": "hatch", "region": value})
    for value in WRONG[bool]:
        with pytest.raises(IllegalAction):
            evo.check_action({"type": "first", "go": value})
    for value in WRONG[list[str]]:
        with pytest.raises(IllegalAction):
            evo.check_action({"type": "lose", "regions": value})
    assert all(isinstance(x, float) and not math.isfinite(x) for x in (NAN, INF, -INF))


# --- outsized values, in every game ----------------------------------------------------------
#
# Whatever its size, a malformed value is refused with IllegalAction and changes nothing: an int
# too long for str() (Python refuses more than 4300 digits), a list or object nested deeper than
# repr() and json can go, a very long string, as the seat or in any field of any action shape.
# The refusal's message and parameters stay printable and small (the bot echoes them).

# every action shape of each game: the shape tables, with each OneOf choice and each optional
# set of attack keys
SHAPE_TABLES = {
    "evo": [evo_rules.ACTION_SHAPES],
    "cubosaurs": [cubo_rules.ACTION_SHAPES],
    "mutations": [mutations_rules.ACTION_SHAPES, mutations_rules.ATTACK_IGNORING],
    "climate": list(climate_rules.ATTACK_SHAPES.values()),
}
HUGE_INTS = [10**5000, -(10**5000), 10**4300, 2**64, -(2**63)]


def _deep(depth: int, make):
    x = make(None)
    for _ in range(depth):
        x = make(x)
    return x


OUTSIZED = [_deep(10_000, lambda x: [x]), _deep(10_000, lambda x: {"a": x}),
            "x" * 1_000_000, ["x" * 1_000_000]]


def every_shape(kind: str):
    """(type, {key: kind}) for every action shape of ``kind``, the type's key excluded."""
    for table in SHAPE_TABLES[kind]:
        for t, shape in table.items():
            if isinstance(shape, OneOf):
                for choice, keys in shape.shapes.items():
                    yield t, {shape.key: choice, **keys}
            else:
                yield t, dict(shape)


def filler(kind):
    if kind is int:
        return 0
    if kind is str:
        return "x"
    if kind is bool:
        return True
    return ["x"]


def refused_whole(rules, state, saved, p, a) -> None:
    """``a`` by ``p`` raises IllegalAction on both paths, changes nothing, and the refusal's
    message and parameters can be printed and stay small."""
    for apply in (rules.apply_action, rules.apply_in_place):
        with pytest.raises(IllegalAction) as err:
            apply(state, p, a)
        assert rules.to_json(state) == saved
        assert len(str(err.value)) < 1000 and len(dump(err.value.params)) < 1000


@pytest.mark.parametrize("kind,n,options", [("evo", 3, {}), ("cubosaurs", 3, {"advanced": True}),
                                            ("mutations", 3, {"divergence": True}),
                                            ("climate", 3, {})])
def test_outsized_values_are_refused_in_every_game(kind, n, options):
    rules = get_game(kind)
    rnd = random.Random(kind)
    state = rules.new_game([Seat(f"u{i}", f"P{i}") for i in range(n)], 7, options)
    checked = 0
    for step in range(60):
        if rules.is_over(state):
            break
        waiting = rules.to_act(state)
        legal = [(p, a) for p in waiting for a in rules.legal_actions(state, p)]
        if step % 12 == 0:  # a few positions along one game
            checked += 1
            saved = rules.to_json(state)
            p = waiting[0]
            # the seat: a legal action by an outsized or odd seat
            for _, a in rnd.sample(legal, min(3, len(legal))):
                for seat in HUGE_INTS + OUTSIZED[:3]:
                    refused_whole(rules, state, saved, seat, a)
            # every field of every shape: huge ints where an int goes, anything outsized
            # anywhere (and as an extra key)
            for t, shape in every_shape(kind):
                # a OneOf's choice is kept (a str value), every other key gets a filler
                base = {"type": t, **{k: v if isinstance(v, str) else filler(v)
                                      for k, v in shape.items()}}
                for key, value_kind in shape.items():
                    bad = (HUGE_INTS if value_kind is int else []) + OUTSIZED
                    for value in bad:
                        a = {**base, key: value}
                        with pytest.raises(IllegalAction):
                            rules.check_action(a)
                        refused_whole(rules, state, saved, p, a)
                for value in HUGE_INTS[:1] + OUTSIZED[:1]:
                    refused_whole(rules, state, saved, p, {**base, "extra": value})
                    refused_whole(rules, state, saved, 10**5000, {**base, "extra": value})
        p, a = rnd.choice(legal)
        state, _ = rules.apply_action(state, p, a)
    assert checked >= 3


def test_a_refusal_with_an_unprintable_parameter_still_has_a_message():
    """IllegalAction's message never fails, whatever a rule put in its parameters."""
    for value in HUGE_INTS[:1] + OUTSIZED[:2]:
        err = IllegalAction("bad_count", count=value, max=3)
        assert err.code == "bad_count" and err.params["count"] is value
        assert str(err) == "bad_count ['count', 'max']"
    assert str(IllegalAction("bad_count", count=4, max=3)) == "bad_count {'count': 4, 'max': 3}"
