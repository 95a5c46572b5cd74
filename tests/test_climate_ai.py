"""The Evolution: Climate AI players: legal actions to the end, decisions from the seat's own
view only (never another hand, a face-down card, a secret food card or play), determinize
consistent with the view, and a small seeded win-rate check."""

from __future__ import annotations

import random

import pytest

from engine.climate import CLIMATE as G
from engine.climate.ai import choose_action, policy_for, view_seed
from engine.climate.view import determinize
from tests.test_climate_helpers import seats
from tests.test_climate_properties import hidden_variant


def play(levels: list[str], seed: int, options: dict | None = None):
    state = G.new_game(seats(len(levels)), seed, options or {})
    kinds: set[str] = set()
    while not G.is_over(state):
        for p in G.to_act(state)[:1]:
            action = choose_action(G, state, p, levels[p])
            assert action in G.legal_actions(state, p), action
            kinds.add(action["type"])
            G.apply_in_place(state, p, action)
    return state, kinds


@pytest.mark.parametrize("levels, options", [
    (["random", "fast"], {}),
    (["fast", "strong"], {"quick": True}),
    (["fast", "random", "fast", "random", "fast", "random"], {}),  # 6 players: Quick
    (["random", "fast", "fast"], {"events": False}),
])
def test_every_level_plays_legal_moves_to_the_end(levels, options):
    state, kinds = play(levels, 7, options)
    assert G.is_over(state) and {"food", "done", "feed"} <= kinds


def positions(n: int, seed: int, options: dict, phases: set[str]):
    """Positions of a fast-AI game in the given phases (a few of each)."""
    state = G.new_game(seats(n), seed, options)
    seen: dict[str, int] = {}
    while not G.is_over(state):
        if state.phase in phases and seen.get(state.phase, 0) < 3:
            seen[state.phase] = seen.get(state.phase, 0) + 1
            yield state.clone()
        p = G.to_act(state)[0]
        G.apply_in_place(state, p, choose_action(G, state, p, "fast"))


@pytest.mark.parametrize("options", [{}, {"quick": True}])
def test_same_view_same_choice_whatever_the_hidden_cards(options):
    """Others' hands, face-down traits, secret food cards and plays, bags and the decks
    dealt otherwise: every level chooses the same."""
    rnd = random.Random(3)
    count = 0
    for state in positions(3, 11, options, {"food", "play", "feeding"}):
        for p in G.to_act(state)[:2]:
            other = hidden_variant(state, p, rnd)
            assert G.view(other, p) == G.view(state, p)
            levels = ("random", "fast", "strong") if count % 3 == 0 else ("random", "fast")
            for level in levels:
                assert choose_action(G, state, p, level) == choose_action(G, other, p, level)
            count += 1
    assert count >= 6


def test_an_ai_does_not_see_which_food_card_was_chosen_before_it():
    state = G.new_game(seats(3), 5)
    choices = set()
    for c in list(state.hands[0]):
        s, _ = G.apply_action(state, 0, {"type": "food", "card": c})
        choices.add(tuple(sorted(choose_action(G, s, 1, "strong").items())))
    assert len(choices) == 1


@pytest.mark.parametrize("options", [{}, {"quick": True}, {"events": False}])
def test_determinize_is_consistent_with_the_view(options):
    for state in positions(4, 5, options, {"food", "play", "green", "feeding"}):
        for p in G.to_act(state)[:2]:
            v = G.view(state, p)
            imagined = determinize(v, 99)
            imagined.check_loaded()
            assert G.view(imagined, p) == v
            legal = G.legal_actions(state, p)
            assert G.legal_actions(imagined, p) == legal
            assert policy_for("strong").choose(v, legal, view_seed(v)) in legal


def test_fast_beats_random_most_of_the_time():
    wins = 0.0
    games = 12
    for g in range(games):
        me = g % 2
        levels = ["fast", "random"] if me == 0 else ["random", "fast"]
        state, _ = play(levels, 2000 + g)
        rank = {r["player"]: r["rank"] for r in state.result}
        wins += 1.0 if rank[me] < rank[1 - me] else 0.5 if rank[me] == rank[1 - me] else 0.0
    assert wins / games >= 0.8
