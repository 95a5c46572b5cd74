"""The Random Mutations AI players: legal actions to the end, determinism, no peeking, and
small seeded win-rate sanity checks (fast beats random, strong beats fast)."""

from __future__ import annotations

import pytest

from engine.core import Seat
from engine.mutations import MUTATIONS as G
from engine.mutations.ai import choose_action, policy_for, view_seed
from engine.mutations.view import determinize


def seats(n: int) -> list[Seat]:
    return [Seat(f"ai:{i}", f"AI {i}") for i in range(n)]


def play(levels: list[str], seed: int, divergence: bool = False):
    state = G.new_game(seats(len(levels)), seed, {"divergence": divergence})
    kinds: set[str] = set()
    while not G.is_over(state):
        p = G.to_act(state)[0]
        action = choose_action(G, state, p, levels[p])
        assert action in G.legal_actions(state, p), action
        kinds.add(action["type"])
        G.apply_in_place(state, p, action)
    return state, kinds


@pytest.mark.parametrize("levels,divergence", [
    (["random", "fast"], False),
    (["fast", "strong", "random", "fast"], True),
    (["strong", "fast", "random", "fast", "random"], False),
])
def test_every_level_plays_legal_moves_to_the_end(levels, divergence):
    state, kinds = play(levels, 7, divergence)
    assert G.is_over(state) and {"develop", "pass"} <= kinds


def test_same_view_same_choice_whatever_the_hidden_cards():
    state = G.new_game(seats(3), 21)
    for _ in range(12):  # some way into the game
        p = G.to_act(state)[0]
        G.apply_in_place(state, p, choose_action(G, state, p, "fast"))
    p = G.to_act(state)[0]
    other = state.clone()
    # the same public position with other hidden cards: the personal decks reversed
    other.decks = [list(reversed(d)) for d in other.decks]
    other.main = list(reversed(other.main))
    assert G.view(state, p) == G.view(other, p)
    for level in ("random", "fast", "strong"):
        assert choose_action(G, state, p, level) == choose_action(G, other, p, level)


def test_determinize_is_consistent_with_the_view():
    state, _ = play(["fast", "fast"], 3)
    state = G.new_game(seats(4), 5)
    for _ in range(30):
        p = G.to_act(state)[0]
        G.apply_in_place(state, p, choose_action(G, state, p, "fast"))
    p = G.to_act(state)[0]
    v = G.view(state, p)
    imagined = determinize(v, 99)
    assert G.view(imagined, p) == v
    assert policy_for("strong").choose(v, G.legal_actions(state, p), view_seed(v)) in \
        G.legal_actions(state, p)


def test_fast_beats_random_most_of_the_time():
    wins = 0.0
    games = 16
    for g in range(games):
        levels = ["fast", "random"] if g % 2 == 0 else ["random", "fast"]
        me = g % 2
        state, _ = play(levels, 1000 + g)
        rank = {r["player"]: r["rank"] for r in state.result}
        wins += 1.0 if rank[me] < rank[1 - me] else 0.5 if rank[me] == rank[1 - me] else 0.0
    assert wins / games >= 0.6


def test_strong_beats_fast_most_of_the_time():
    # two players, seats swapped every game, Divergence in half of them: strong keeps its
    # cards for the last turn and feeds, attacks and places parasites by the points at stake,
    # so it wins far more than half of these games (11 or 12 of 12 on other seed ranges too;
    # the old one-step look-ahead won 3 to 6)
    wins = 0.0
    games = 12
    for g in range(games):
        me = g % 2
        levels = ["strong", "fast"] if me == 0 else ["fast", "strong"]
        state, _ = play(levels, 2000 + g, divergence=g % 4 >= 2)
        rank = {r["player"]: r["rank"] for r in state.result}
        wins += 1.0 if rank[me] < rank[1 - me] else 0.5 if rank[me] == rank[1 - me] else 0.0
    assert wins / games >= 0.75
