"""The Cubosaurs AI players: legal actions everywhere, determinism, no peeking, sane choices."""

from __future__ import annotations

import random

import pytest

from engine.core import IllegalAction, Rng, Seat
from engine.cubosaurs import CUBOSAURS, ai, scenario
from engine.cubosaurs.ai import (
    FastPolicy,
    RandomPolicy,
    StrongPolicy,
    choose_action,
    decision_seed,
    policy_for,
)
from engine.cubosaurs.data import CARDS
from engine.cubosaurs.scoring import breakdown

G = CUBOSAURS


def seats(n: int) -> list[Seat]:
    return [Seat(f"ai:{i}", f"AI {i}") for i in range(n)]


def play(levels: list[str], seed: int, advanced: bool, stop: int | None = None):
    """A seeded game with these AI levels; every action must be legal."""
    state = G.new_game(seats(len(levels)), seed, {"advanced": advanced})
    kinds = set()
    steps = 0
    while not G.is_over(state) and (stop is None or steps < stop):
        p = G.to_act(state)[0]
        action = choose_action(G, state, p, levels[p])
        assert action in G.legal_actions(state, p), action
        kinds.add(action["type"] if action["type"] != "buy" else "buy:" + action["tile"])
        G.apply_in_place(state, p, action)
        steps += 1
    return state, kinds


def positions(count: int, seed: int):
    """Positions met in random games: 2-5 players, standard and advanced rules."""
    rnd = random.Random(seed)
    out = []
    g = 0
    while len(out) < count:
        n = 2 + g % 4
        state = G.new_game(seats(n), seed * 100 + g, {"advanced": g % 2 == 1})
        g += 1
        while not G.is_over(state):
            p = G.to_act(state)[0]
            legal = G.legal_actions(state, p)
            if rnd.random() < 0.15:
                out.append(state.clone())
            G.apply_in_place(state, p, legal[rnd.randrange(len(legal))])
    return out[:count]


def debt_position(n: int = 3, advanced_tokens=(20, 6, 14)):
    """A player keeps a DNA card with the reserve empty: they must take a token from an
    opponent of their choice."""
    tokens = list(advanced_tokens) + [0] * (n - len(advanced_tokens))
    state = scenario(n, seed=4, advanced=True, tokens=tokens[:n], current=0,
                     collections={0: ["stego-3"], 1: ["trex-3", "penta-5"],
                                  2: ["stego-4", "stego-5", "penta-3"]},
                     hand=["ptero-1"], offer=["egg_bonus"])
    assert state.reserve == 0
    state, _ = G.apply_action(state, 0, {"type": "keep"})
    assert G.to_act(state) == [0] and all(a["type"] == "take_token"
                                           for a in G.legal_actions(state, 0))
    return state


# --- the scoring the AI uses is the engine's ----------------------------------------------

def test_the_ai_scores_collections_like_the_engine():
    rnd = random.Random(3)
    for _ in range(800):
        n = rnd.randint(2, 5)
        pool = list(CARDS)
        rnd.shuffle(pool)
        cols = []
        for _q in range(n):
            k = rnd.randint(0, 14)
            cols.append(pool[:k])
            pool = pool[k:]
        tiles = [rnd.choice([[], ["type_bonus"], ["egg_bonus"], ["type_bonus", "egg_bonus"]])
                 for _q in range(n)]
        counted = [ai.Col(c) for c in cols]
        for p in range(n):
            ob = [max(counted[q].sp(e) for q in range(n) if q != p) for e in range(6)]
            got = ai.score(counted[p], ob, tiles[p].count("type_bonus"),
                           tiles[p].count("egg_bonus"))
            assert got == breakdown(cols, p, tiles[p])["total"], (cols, p)
            for c in pool[:3]:  # one more card, or one card fewer: the quick deltas agree
                more = ai.score(ai.Col([*cols[p], c]), ob, tiles[p].count("type_bonus"),
                                tiles[p].count("egg_bonus"))
                assert ai.card_delta(counted[p], c, 1, ob, tiles[p].count("type_bonus"),
                                     tiles[p].count("egg_bonus")) == more - got


# --- legal actions everywhere ---------------------------------------------------------------

def test_every_level_answers_legally_in_random_positions():
    states = positions(160, seed=1)
    assert {s.n for s in states} == {2, 3, 4, 5}
    assert {s.options["advanced"] for s in states} == {False, True}
    for i, state in enumerate(states):
        p = G.to_act(state)[0]
        legal = G.legal_actions(state, p)
        levels = ("random", "fast", "strong") if i % 5 == 0 else ("random", "fast")
        for level in levels:
            assert choose_action(G, state, p, level) in legal, (level, i)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_take_token_decisions(n):
    state = debt_position(n)
    legal = G.legal_actions(state, 0)
    assert len(legal) >= 2
    for level in ai.LEVELS:
        assert choose_action(G, state, 0, level) in legal
    # the fast and strong players take it from the leader (more points and tokens)
    assert choose_action(G, state, 0, "fast") == {"type": "take_token", "from": 2}
    assert choose_action(G, state, 0, "strong") == {"type": "take_token", "from": 2}


def test_not_my_turn_is_refused():
    state = G.new_game(seats(3), 1)
    waiting = G.to_act(state)[0]
    other = (waiting + 1) % 3
    with pytest.raises(IllegalAction):
        choose_action(G, state, other, "fast")


# --- determinism and hidden information ----------------------------------------------------

def test_same_position_same_action():
    for state in positions(30, seed=2):
        p = G.to_act(state)[0]
        for level in ("random", "fast", "strong"):
            a = choose_action(G, state, p, level)
            again = G.from_json(G.to_json(state))
            assert choose_action(G, again, p, level) == a


def test_same_seed_same_game():
    levels = ["fast", "random", "fast"]
    first, _ = play(levels, 12, True)
    again, _ = play(levels, 12, True)
    assert first == again


def _redeal_hidden(state, seed: int):
    """The same position with the hidden cards (deck order, set-aside cards), the tile pile
    and the generator changed."""
    other = state.clone()
    pool = other.deck + other.aside
    Rng(seed).shuffle(pool)
    other.deck, other.aside = pool[: len(other.deck)], pool[len(other.deck):]
    Rng(seed + 1).shuffle(other.pile)
    other.rng = seed * 7919 + 1
    return other


def test_the_ai_does_not_read_hidden_information():
    checked = 0
    for i, state in enumerate(positions(60, seed=3)):
        p = G.to_act(state)[0]
        twin = _redeal_hidden(state, 100 + i)
        if twin.deck == state.deck and twin.aside == state.aside:
            continue
        assert G.view(twin, p) == G.view(state, p)
        assert decision_seed(twin, p) == decision_seed(state, p)
        for level in ("random", "fast") + (("strong",) if i % 2 == 0 else ()):
            assert choose_action(G, twin, p, level) == choose_action(G, state, p, level)
        checked += 1
    assert checked > 40


# --- sane choices ---------------------------------------------------------------------------

@pytest.mark.parametrize("level", ["fast", "strong"])
def test_keeps_an_obviously_great_hand(level):
    # two penta become three (+4) and a lone grey raptor finds its black partner (+9)
    state = scenario(3, seed=5, current=0, hand=["penta-3", "black-5"], hand_from=2,
                     collections={0: ["penta-1", "penta-2", "grey-5", "stego-1"],
                                  1: ["trex-1", "bronto-1"], 2: ["stego-2", "ptero-2"]})
    assert choose_action(G, state, 0, level) == {"type": "keep"}


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_passes_an_obviously_bad_hand(level):
    # a second T-Rex costs 3 points; the lone Pterodactyl is the card to get rid of
    state = scenario(3, seed=6, current=0, hand=["trex-2"],
                     collections={0: ["trex-1", "stego-1", "stego-2", "ptero-1"],
                                  1: ["trex-3", "bronto-1"], 2: ["stego-3", "penta-2"]})
    assert choose_action(G, state, 0, level) == {"type": "pass", "card": "ptero-1"}


def test_fast_does_not_feed_the_next_player():
    # the hand is bad for us, but passing it would complete the next player's penta set and
    # raptor pair; keeping it costs us little
    state = scenario(3, seed=7, current=0, hand=["penta-4", "black-6"], hand_from=2,
                     collections={0: ["stego-1", "stego-2", "bronto-1", "bronto-2"],
                                  1: ["penta-1", "penta-2", "grey-6", "trex-1"],
                                  2: ["ptero-1", "ptero-2"]})
    assert choose_action(G, state, 0, "fast") == {"type": "keep"}


def test_fast_buys_a_tile_worth_its_cost():
    # seven different types: the +1 per type tile (3 tokens) is worth about 7 points
    state = scenario(3, seed=8, advanced=True, tokens=[3, 0, 0], current=0, hand=["stego-2"],
                     offer=["type_bonus", "swap"],
                     collections={0: ["trex-1", "stego-1", "bronto-1", "penta-1", "grey-2",
                                      "black-2", "egg-stego"],
                                  1: ["trex-3", "bronto-3"], 2: ["ptero-3", "penta-3"]})
    assert choose_action(G, state, 0, "fast") == {"type": "buy", "tile": "type_bonus"}


def test_fast_keeps_its_tokens_when_a_tile_is_useless():
    # a free pass (2 tokens) when the hand is a third Pentaceratops: just keep it
    state = scenario(3, seed=9, advanced=True, tokens=[2, 0, 0], current=0, hand=["penta-3"],
                     offer=["free_pass", "destroy_own"],
                     collections={0: ["penta-1", "penta-2", "stego-1"],
                                  1: ["trex-3", "bronto-3"], 2: ["ptero-3", "stego-3"]})
    assert choose_action(G, state, 0, "fast") == {"type": "keep"}


# --- whole games ----------------------------------------------------------------------------

@pytest.mark.parametrize("n,advanced", [(2, False), (3, True), (4, False), (5, True)])
def test_fast_and_random_seats_play_whole_games(n, advanced):
    levels = ["fast" if i % 2 == 0 else "random" for i in range(n)]
    state, kinds = play(levels, 40 + n, advanced)
    assert G.is_over(state) and len(state.scores) == state.rounds
    assert {"keep", "pass"} <= kinds


def test_fast_seats_buy_tiles_in_advanced_games():
    kinds = set()
    for seed in range(4):
        state, k = play(["fast"] * 4, 60 + seed, True)
        assert G.is_over(state)
        kinds |= k
    assert any(k.startswith("buy:") for k in kinds), kinds


def test_a_strong_seat_finishes_a_game():
    state, kinds = play(["strong", "random", "fast"], 21, True)
    assert G.is_over(state)
    assert {"keep", "pass"} <= kinds


def test_policy_for_levels():
    assert isinstance(policy_for("random"), RandomPolicy)
    assert isinstance(policy_for("fast"), FastPolicy)
    assert isinstance(policy_for("strong"), StrongPolicy)
    with pytest.raises(ValueError):
        policy_for("godlike")


def test_the_host_entry_point_uses_these_players():
    from engine.ai import ai_action

    state = G.new_game(seats(4), 3, {"advanced": True})
    p = G.to_act(state)[0]
    assert ai_action(G, state, p, "fast") == choose_action(G, state, p, "fast")


# --- strategic kinds (issue 22) -----------------------------------------------------------------

def test_strategic_kinds_name_keep_pass_and_every_tile():
    from engine.cubosaurs.data import TILES

    assert set(ai.STRATEGIC) == {"keep", "pass"} | {f"buy:{t}" for t in TILES}
    state = debt_position()
    view = G.view(state, 0)
    for a in G.legal_actions(state, 0):  # whom a token is taken from: no kind
        assert ai.strategic_kinds(view, a) == ()
    seen = set()
    for state in positions(40, 17):
        p = G.to_act(state)[0]
        view = G.view(state, p)
        for a in G.legal_actions(state, p):
            got = ai.strategic_kinds(view, a)
            assert set(got) <= set(ai.STRATEGIC), (a, got)
            seen.update(got)
    assert {"keep", "pass"} <= seen and any(k.startswith("buy:") for k in seen)


def test_fast_buys_an_interactive_tile_when_it_is_clearly_good():
    """Stealing the leader's third Pentaceratops completes our set (the steal tile, 4 tokens)
    and breaks theirs."""
    state = scenario(3, seed=8, advanced=True, tokens=[4, 0, 0], current=0, hand=["trex-3"],
                     offer=["steal", "draw"],
                     collections={0: ["penta-1", "penta-2", "trex-1", "trex-2"],
                                  1: ["penta-3", "penta-4", "penta-5", "bronto-1"],
                                  2: ["ptero-3", "stego-3"]})
    legal = G.legal_actions(state, 0)
    action = choose_action(G, state, 0, "fast")
    assert action in legal and ai.strategic_kinds(G.view(state, 0), action) == ("buy:steal",)
    assert action["target"] == 1 and action["card"].startswith("penta")


# --- the expert's shortlist: the fast values rank every legal action ------------------------

def test_fast_scores_rank_its_own_choice_first_and_order_the_experts_shortlist():
    """FastPolicy.score gives the values the fast rules choose by (their choice scores the
    most, an option they never weigh the least), so the expert's shortlist after the strong
    choice is fast's next best moves, not the legal actions' order."""
    fast = FastPolicy()
    expert = ai.POLICIES["expert"](iterations=4)
    checked = 0
    for state in positions(60, 11):
        p = G.to_act(state)[0]
        legal = G.legal_actions(state, p)
        if len(legal) < 3:
            continue
        v = G.view(state, p)
        seed = decision_seed(state, p)
        scores = [fast.score(v, a) for a in legal]
        assert scores[legal.index(fast.choose(v, legal, seed))] == max(scores)
        short = expert.shortlist(v, legal, seed)
        assert short[0] == StrongPolicy().choose(v, legal, seed)
        rest = [expert.fast.score(v, a) for a in short[1:]]
        assert rest == sorted(rest, reverse=True)
        assert rest[0] == max(s for a, s in zip(legal, scores, strict=True) if a != short[0])
        checked += 1
    assert checked >= 20
