"""The engine contract's shared pieces: the seeded RNG, errors, registry, catalogue coverage,
the action shapes."""

import re
from collections import Counter
from pathlib import Path

import pytest

from engine import IllegalAction, Rng, Seat, game_kinds, get_game
from engine.core import (
    GAME_PACKAGES,
    MAX_INT,
    MAX_KEYS,
    MAX_TEXT,
    OneOf,
    check_shape,
    description,
    descriptions,
    register,
)
from messages import describe, languages, t
from messages.evo import explain

ROOT = Path(__file__).resolve().parent.parent


def test_rng_is_deterministic_and_state_is_one_int():
    a, b = Rng(42), Rng(42)
    assert [a.die() for _ in range(50)] == [b.die() for _ in range(50)]
    assert isinstance(a.state, int) and a.state == b.state
    c = Rng(a.state)
    assert [a.below(1000) for _ in range(20)] == [c.below(1000) for _ in range(20)]


def test_rng_die_is_roughly_uniform():
    r = Rng(7)
    counts = Counter(r.die() for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9_000 < c < 11_000 for c in counts.values())


def test_rng_shuffle_is_a_permutation():
    r = Rng(1)
    items = list(range(30))
    r.shuffle(items)
    assert sorted(items) == list(range(30)) and items != list(range(30))
    with pytest.raises(ValueError):
        r.below(0)


def test_registry_knows_evo():
    assert "evo" in game_kinds()
    assert get_game("evo").kind == "evo"
    with pytest.raises(KeyError):
        get_game("chess")


def test_new_game_refuses_bad_tables():
    evo = get_game("evo")
    with pytest.raises(IllegalAction) as err:
        evo.new_game([Seat("a", "A"), Seat("b", "B")], 1)
    assert err.value.code == "player_count" and err.value.params["count"] == 2
    with pytest.raises(IllegalAction) as err:
        evo.new_game([Seat("a", "A")] * 3, 1)
    assert err.value.code == "duplicate_seat"
    with pytest.raises(IllegalAction) as err:
        evo.new_game([Seat(str(i), str(i)) for i in range(3)], 1, {"turbo": True})
    assert err.value.code == "unknown_option"


def _engine_codes(kind: str) -> set[str]:
    codes = set()
    for path in (ROOT / "engine" / kind).rglob("*.py"):
        codes.update(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', path.read_text()))
    return codes


@pytest.mark.parametrize("kind", game_kinds())
def test_every_refusal_code_has_a_sentence(kind):
    codes = _engine_codes(kind)
    assert len(codes) > 12
    missing = [c for c in sorted(codes) if t(f"{kind}.error.{c}") == f"{kind}.error.{c}"]
    assert missing == []


def test_every_game_package_is_registered():
    """GAME_PACKAGES is the one list of the built-in games: each registers one description."""
    assert game_kinds() == sorted(package.rsplit(".", 1)[1] for package in GAME_PACKAGES)
    assert [d.kind for d in descriptions()] == [p.rsplit(".", 1)[1] for p in GAME_PACKAGES]


@pytest.mark.parametrize("kind", game_kinds())
def test_a_description_names_what_every_layer_reads(kind):
    """The description's player counts are the rules'; each option has a type and a default
    that the rules accept (and keep, in the state); the renderer, the message module, the cog
    and the AI module it names exist, and the AI module has its levels."""
    import importlib

    d = description(kind)
    assert d.rules is get_game(kind) and d.kind == kind and d.title
    assert (d.min_players, d.max_players) == (d.rules.min_players, d.rules.max_players)
    assert set(d.options) == set(d.rules.options)
    for name, opt in d.options.items():
        assert type(opt.default) is opt.type and opt.text == d.rules.options[name]
    seats = [Seat(str(i), f"P{i}") for i in range(d.max_players - 1 or 1)]
    state = d.rules.new_game(seats, 1, d.defaults())
    assert d.rules.view(state, None) is not None
    for path in filter(None, (d.renderer, d.hand_renderer)):
        module, _, name = path.partition(":")
        assert callable(getattr(importlib.import_module(module), name))
    assert hasattr(importlib.import_module(d.messages), "describe")
    assert hasattr(importlib.import_module(d.cog), "setup")
    ai = importlib.import_module(d.ai_module)
    assert set(d.ai_levels) <= set(ai.LEVELS) and callable(ai.choose_action)


def test_a_game_registered_for_a_while_is_forgotten_afterwards(tmp_path):
    """``registered`` (and ``unregister``) give a test its own game; a catalogue folder of
    its own is merged into the catalogue while it is registered."""
    from engine.core import Option, registered

    class Toy:
        kind = "toy"
        min_players, max_players = 2, 3
        options = {"fast": "Short games."}

    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "toy.toml").write_text('[toy]\nname = "Toy"\n')
    with registered(Toy(), title="Toy", options={"fast": (bool, True)},
                    catalogue=str(tmp_path)) as d:
        assert "toy" in game_kinds() and get_game("toy") is d.rules
        assert d.options == {"fast": Option(bool, True, "Short games.")}
        assert d.ai_module == f"{Toy.__module__}.ai"
        assert t("toy.name") == "Toy" and t("toy.name", "fr") == "Toy"
        assert [x.kind for x in descriptions()][-1] == "toy"
    assert "toy" not in game_kinds() and t("toy.name") == "toy.name"
    with pytest.raises(KeyError):
        description("toy")
    with pytest.raises(ValueError):
        register(Toy(), options={"fast": (bool, 1)})
    assert "toy" not in game_kinds()


def test_every_card_has_a_name_timing_and_text():
    from engine.evo.data import rules_data

    deck = rules_data()["cards"]["deck"]
    assert len(deck) == 26 and len(set(deck)) == 26
    for card in deck:
        for part in ("name", "when", "text"):
            key = f"evo.card.{card}.{part}"
            assert t(key) != key, key


def test_catalogue_fills_parameters_and_explains_errors():
    err = IllegalAction("bid_too_low", gene="legs", amount=1, minimum=3)
    assert explain(err) == "A bid on leg must be at least 3."
    err = IllegalAction("not_your_turn", player=0, waiting=[1, 2])
    assert explain(err, ["Ann", "Bob", "Cy"]) == "It is not your turn: waiting for Bob, Cy."
    assert "en" in languages()


@pytest.mark.parametrize("kind, options, expected", [
    ("evo", {}, {"fight", "birth", "bid", "bought", "points", "game_over"}),
    ("cubosaurs", {"advanced": True},
     {"round_start", "draw", "keep", "pass", "buy", "tile", "token", "round_end", "game_over"}),
])
def test_every_event_of_a_game_has_a_sentence(kind, options, expected):
    """Play random games and check no event falls back to its raw key."""
    import random

    rules = get_game(kind)
    names = ["Ann", "Bob", "Cy", "Di"]
    seen = set()
    for seed in range(15):
        state, events = rules.new_game_with_events([Seat(n, n) for n in names], seed, options)
        rnd = random.Random(seed)
        all_events = list(events)
        while not rules.is_over(state):
            p = rules.to_act(state)[0]
            state, events = rules.apply_action(state, p, rnd.choice(rules.legal_actions(state, p)))
            all_events += events
        for ev in all_events:
            line = describe(kind, ev, names)
            seen.add(ev["type"])
            assert line is None or f"{kind}.event." not in line, (ev, line)
            assert line is None or "{" not in line, (ev, line)
    assert expected <= seen


# --- action shapes ------------------------------------------------------------------------------

TOY = {"go": {}, "hop": {"to": str, "far": int, "fast": bool}, "pick": {"names": list[str]},
       "use": OneOf("item", {"rope": {}, "map": {"at": str}}, unknown="unknown_item")}


def shape_refusal(action, shapes=TOY) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        check_shape(action, shapes)
    return err.value


def test_check_shape_accepts_exactly_the_shapes():
    for action in ({"type": "go"}, {"type": "hop", "to": "C4", "far": -2, "fast": False},
                   {"type": "pick", "names": []}, {"type": "pick", "names": ["a", "b"]},
                   {"type": "use", "item": "rope"}, {"type": "use", "item": "map", "at": "x"},
                   {"type": "hop", "to": "x" * MAX_TEXT, "far": MAX_INT, "fast": True}):
        check_shape(action, TOY)


@pytest.mark.parametrize("action, reason, field", [
    (None, "not_object", None), ("go", "not_object", None), (["type", "go"], "not_object", None),
    ({f"k{i}": 0 for i in range(MAX_KEYS + 1)}, "too_many_keys", None),
    ({"type": "go", 1: 2}, "bad_key", None), ({"type": "go", "k" * 65: 2}, "bad_key", None),
    ({}, "missing", "type"), ({"type": None}, "wrong_type", "type"),
    ({"type": "x" * 65}, "too_long", "type"),
    ({"type": "go", "x": float("nan")}, "not_finite", "x"),
    ({"type": "go", "x": float("inf")}, "not_finite", "x"),
    ({"type": "go", "card": "egg-raptor"}, "extra", "card"),
    ({"type": "hop", "to": "C4", "far": 1}, "missing", "fast"),
    ({"type": "hop", "to": "C4", "far": True, "fast": True}, "wrong_type", "far"),
    ({"type": "hop", "to": "C4", "far": 1.0, "fast": True}, "wrong_type", "far"),
    ({"type": "hop", "to": "C4", "far": float("-inf"), "fast": True}, "not_finite", "far"),
    ({"type": "hop", "to": "C4", "far": MAX_INT + 1, "fast": True}, "too_big", "far"),
    ({"type": "hop", "to": "C4", "far": 1, "fast": 1}, "wrong_type", "fast"),
    ({"type": "hop", "to": 4, "far": 1, "fast": True}, "wrong_type", "to"),
    ({"type": "hop", "to": "x" * 65, "far": 1, "fast": True}, "too_long", "to"),
    ({"type": "pick", "names": "a"}, "wrong_type", "names"),
    ({"type": "pick", "names": ["a", 1]}, "wrong_type", "names"),
    ({"type": "pick", "names": ["a", float("nan")]}, "wrong_type", "names"),
    ({"type": "pick", "names": ["a"] * 65}, "too_long", "names"),
    ({"type": "use"}, "missing", "item"), ({"type": "use", "item": 3}, "wrong_type", "item"),
    ({"type": "use", "item": "rope", "at": "x"}, "extra", "at"),
    ({"type": "use", "item": "map"}, "missing", "at"),
])
def test_check_shape_refuses_everything_else(action, reason, field):
    err = shape_refusal(action)
    assert err.code == "bad_action"
    assert err.params["reason"] == reason and err.params["field"] == field


def test_check_shape_unknown_type_and_unknown_choice():
    err = shape_refusal({"type": "fly"})
    assert (err.code, err.params) == ("unknown_action", {"action": "fly"})
    err = shape_refusal({"type": "use", "item": "lamp"})
    assert (err.code, err.params) == ("unknown_item", {"item": "lamp"})


@pytest.mark.parametrize("kind", ["evo", "cubosaurs"])
def test_every_malformed_action_reads_as_a_sentence(kind):
    """Every refusal check_shape can make is a sentence in every language."""
    from messages import explain as explain_in

    rules = get_game(kind)
    refusals = [IllegalAction("unknown_action", action="roar")]
    refusals += [IllegalAction("bad_action", reason=r, field=None)
                 for r in ("not_object", "too_many_keys", "bad_key")]
    refusals += [IllegalAction("bad_action", reason=r, field="card")
                 for r in ("missing", "extra", "not_finite", "too_long", "too_big")]
    refusals += [IllegalAction("bad_action", reason="wrong_type", field="card", expected=e)
                 for e in ("str", "int", "bool", "list")]
    refusals += [IllegalAction(shape.unknown, **{shape.key: "zzz"})
                 for shape in _shape_table(kind).values() if isinstance(shape, OneOf)]
    for err in refusals:
        for lang in languages():
            text = explain_in(kind, err, ["Ann", "Bob"], lang)
            assert f"{kind}." not in text and "{" not in text and "None" not in text, (err, text)
    # and the engine's own refusals of malformed actions come as these
    with pytest.raises(IllegalAction) as err:
        rules.check_action({"type": "pass", "x": float("nan")})
    assert err.value.code == "bad_action"


def _shape_table(kind: str) -> dict:
    import importlib

    return importlib.import_module(f"engine.{kind}.rules").ACTION_SHAPES


@pytest.mark.parametrize("kind, options", [
    ("evo", {"variant": False}), ("evo", {"variant": True}),
    ("cubosaurs", {"advanced": False}), ("cubosaurs", {"advanced": True}),
    ("cubosaurs", {"advanced": True, "interactive": False}),
])
def test_every_legal_action_has_its_exact_shape(kind, options):
    """legal_actions never offers an action that check_action refuses (random games)."""
    import random

    rules = get_game(kind)
    seen = set()
    for seed, n in enumerate(range(rules.min_players, rules.max_players + 1)):
        state = rules.new_game([Seat(f"u{i}", f"P{i}") for i in range(n)], seed, options)
        rnd = random.Random(seed)
        while not rules.is_over(state):
            for p in rules.to_act(state):
                for a in rules.legal_actions(state, p):
                    rules.check_action(a)
                    seen.add(a["type"] + ":" + str(a.get("card", a.get("tile", ""))))
            p = rnd.choice(rules.to_act(state))
            state, _ = rules.apply_action(state, p, rnd.choice(rules.legal_actions(state, p)))
    assert len(seen) > 8, seen


@pytest.mark.parametrize("kind, action", [
    ("evo", {"type": "pass", "card": "egg-raptor"}), ("evo", {"type": "pass", "x": float("nan")}),
    ("evo", {"type": "keep"}), ("cubosaurs", {"type": "pass"}),
    ("cubosaurs", {"type": "keep", "x": float("inf")}),
    ("cubosaurs", {"type": "take_token", "from": True}),
])
def test_apply_action_refuses_a_malformed_action_first(kind, action):
    rules = get_game(kind)
    state = rules.new_game([Seat(f"u{i}", f"P{i}") for i in range(3)], 5)
    p = rules.to_act(state)[0]
    before = rules.to_json(state)
    for apply in (rules.apply_action, rules.apply_in_place):
        with pytest.raises(IllegalAction) as err:
            apply(state, p, action)
        assert err.value.code in ("bad_action", "unknown_action")
    assert rules.to_json(state) == before


def test_a_card_or_tile_named_without_its_target_gets_the_rules_reason_first():
    """/evo play or /cubosaurs buy with a name only: the player learns why it cannot be played
    (not in hand, not the advanced rules) rather than that a target is missing; a complete
    shape is still required before anything is applied."""
    from engine import Seat, get_game

    seats = [Seat(str(i), f"P{i}") for i in range(3)]
    evo = get_game("evo")
    state = evo.new_game(seats, 1)
    p = evo.to_act(state)[0]
    state.hands[p] = []
    with pytest.raises(IllegalAction) as err:
        evo.apply_action(state, p, {"type": "play", "card": "accident"})
    assert err.value.code == "card_not_in_hand"
    cubo = get_game("cubosaurs")
    state = cubo.new_game(seats, 1, {})
    p = cubo.to_act(state)[0]
    with pytest.raises(IllegalAction) as err:
        cubo.apply_action(state, p, {"type": "buy", "tile": "swap"})
    assert err.value.code == "not_advanced"
    with pytest.raises(IllegalAction) as err:  # the full check when shapes are checked alone
        cubo.check_action({"type": "buy", "tile": "swap"})
    assert err.value.code == "bad_action" and err.value.params["reason"] == "missing"
