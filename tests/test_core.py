"""The engine contract's shared pieces: the seeded RNG, errors, registry, catalogue coverage."""

import re
from collections import Counter
from pathlib import Path

import pytest

from engine import IllegalAction, Rng, Seat, game_kinds, get_game
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


@pytest.mark.parametrize("kind", ["evo", "cubosaurs"])
def test_every_refusal_code_has_a_sentence(kind):
    codes = _engine_codes(kind)
    assert len(codes) > 12
    missing = [c for c in sorted(codes) if t(f"{kind}.error.{c}") == f"{kind}.error.{c}"]
    assert missing == []


def test_every_game_package_is_registered():
    assert game_kinds() == ["cubosaurs", "evo"]


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
