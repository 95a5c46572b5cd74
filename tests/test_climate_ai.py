"""The Evolution: Climate AI players: legal actions to the end, decisions from the seat's own
view only (never another hand, a face-down card, a secret food card or play), determinize
consistent with the view, small seeded win-rate checks (fast beats random, strong beats fast)
and the strong level's bounded work (imagined rounds, never an engine apply)."""

from __future__ import annotations

import random

import pytest

from engine.climate import CLIMATE as G
from engine.climate.ai import LEVELS, StrongPolicy, choose_action, policy_for, view_seed
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
            levels = LEVELS if count % 3 == 0 else ("random", "fast")
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


def share_of(levels: list[str], me: int, seed: int, options: dict | None = None):
    """Seat ``me``'s win (1, a shared first place a fraction, 0) and its score minus the best
    other score in one seeded game."""
    state, _ = play(levels, seed, options)
    rank = {r["player"]: r["rank"] for r in state.result}
    score = {r["player"]: r["score"] for r in state.result}
    firsts = [p for p in rank if rank[p] == 1]
    win = 1.0 / len(firsts) if me in firsts else 0.0
    return win, score[me] - max(score[p] for p in score if p != me)


def test_strong_beats_fast():
    """Seeded games against fast seats, the strong seat moving round the table, half of them
    Quick: 6 two-player games (fair: 3 wins) of which strong must win at least 5, and 4
    four-player games (fair: 1) of which at least 3, by a mean margin of 10 points. (Strong
    wins all 10 by some 25 points; a fast seat in its place wins 1 and 1, by about -4.)"""
    wins2 = wins4 = margin = 0.0
    for g in range(6):
        levels = ["fast", "fast"]
        levels[g % 2] = "strong"
        w, m = share_of(levels, g % 2, 3600 + g, {"quick": g >= 3})
        wins2 += w
        margin += m
    for g in range(4):
        levels = ["fast"] * 4
        levels[g] = "strong"
        w, m = share_of(levels, g, 3300 + g, {"quick": g >= 2})
        wins4 += w
        margin += m
    assert wins2 >= 5
    assert wins4 >= 3
    assert margin / 10 >= 10


def test_strong_work_is_bounded_whatever_the_player_count(monkeypatch):
    """Every strong decision in seeded 6-player games (the most species; one of them Quick)
    weighs at most ``max_work`` imagined rounds of its own model, never applies an action to
    an engine state, and is the same when asked again; the food card and the play phase do
    weigh some."""
    strong = StrongPolicy()
    fast = policy_for("fast")
    most = {"food": 0, "play": 0}
    for seed, seats_strong, options in ((21, {0, 3}, {}), (22, {1, 2, 5}, {"quick": True})):
        state = G.new_game(seats(6), seed, options)
        while not G.is_over(state):
            p = G.to_act(state)[0]
            legal = G.legal_actions(state, p)
            v = G.view(state, p)
            if p in seats_strong:
                with monkeypatch.context() as m:
                    for name in ("apply_in_place", "apply_action"):
                        m.setattr(G, name, lambda *a, **k: pytest.fail("an engine apply"))
                    action, work = strong.decide(v, legal, view_seed(v))
                    assert strong.decide(v, legal, view_seed(v)) == (action, work)
                assert 0 <= work <= StrongPolicy.max_work
                if v["phase"] in most:
                    most[v["phase"]] = max(most[v["phase"]], work)
            else:
                action = fast.choose(v, legal, view_seed(v))
            assert action in legal
            G.apply_in_place(state, p, action)
    assert most["food"] >= 3 and most["play"] >= 10


def coverage_of(games: int, n: int = 3, seed: int = 4100):
    """Seeded games of fast seats and one strong seat moving round the table (every other
    one Quick): the strategic kinds each level chose / had legal (engine.ai.Coverage), and
    per level the silly plays (bench/ai_matchup.py's ClimateSilly)."""
    import sys
    from pathlib import Path

    from engine.ai import Coverage, strategic

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from ai_matchup import ClimateSilly

    cov = Coverage(*strategic("climate"))
    silly = None
    for g in range(games):
        levels = ["fast"] * n
        levels[g % n] = "strong"
        watch = ClimateSilly(tuple(levels))
        state = G.new_game(seats(n), seed + g, {"quick": g % 2 == 1})
        while not G.is_over(state):
            p = G.to_act(state)[0]
            legal = G.legal_actions(state, p)
            action = choose_action(G, state, p, levels[p])
            assert action in legal
            view = None
            if len(legal) > 1:
                view = G.view(state, p)
                cov.record(levels[p], view, legal, action)
            watch(state, p, levels[p], view, legal, action, G.apply_in_place(state, p, action))
        if silly is None:
            silly = watch.counts
        else:
            for lv, counts in watch.counts.items():
                for k, c in counts.items():
                    silly[lv][k] += c
    return cov, silly


def test_fast_hunts_grows_and_exchanges_and_feeds_what_it_grows():
    """Issue 22: fast never played Carnivore (so never attacked), almost never grew a body
    size, never exchanged cards, and 90 % of its starvation losses hit a species it grew
    that same round. Over a few seeded games each is used
    where legal, and fewer than half of fast's starvation losses follow its own growth."""
    cov, silly = coverage_of(6)
    for kind in ("trait:carnivore", "attack", "grow_body", "exchange"):
        assert cov.legal["fast"].get(kind) and cov.chosen["fast"].get(kind), \
            (kind, cov.rows("fast"))
    fast = silly["fast"]
    assert fast["grown_starved"] * 2 <= fast["starved"], fast
    assert silly["strong"]["last_round_stop"] == 0, silly


# --- silly plays (issue 22): each situation, the sensible choice -------------------------------

def _play_phase_positions(games: int, seed: int):
    """(state, player, view, legal) at every play-phase decision of seeded fast games."""
    for g in range(games):
        n = 3 + g % 2
        state = G.new_game(seats(n), seed + g, {"quick": g % 2 == 1})
        while not G.is_over(state):
            p = G.to_act(state)[0]
            legal = G.legal_actions(state, p)
            if len(legal) > 1 and G.view(state, p)["phase"] == "play":
                yield state, p, G.view(state, p), legal
            G.apply_in_place(state, p, choose_action(G, state, p, "fast"))


def test_the_last_round_is_not_stopped_with_cards_a_trait_could_use():
    """Issue 22: strong stopped in the last round holding 7 cards with 2 trait slots free.
    In the last round, while a card can still go on a species as a trait (not Carnivore) and
    the hand holds more cards than its Intelligence species could use, neither fast nor
    strong is done."""
    strong = StrongPolicy()
    met = 0
    for state, p, view, legal in _play_phase_positions(4, 4300):
        if not view["last"] or not any(a["type"] == "trait" and not a["card"].startswith(
                "carnivore") for a in legal):  # (Carnivore makes a plant eater hunt or starve)
            continue
        mine = view["players"][p]
        intel = sum((sp["pop"] + 1) // 2 for sp in mine["species"]
                    if not sp["carnivore"] and any(t["trait"] == "intelligence"
                                                   for t in sp["traits"]))
        if len(mine["cards"]) <= intel:
            continue
        met += 1
        assert choose_action(G, state, p, "fast")["type"] != "done"
        assert strong.choose(view, legal, view_seed(view))["type"] != "done"
    assert met >= 3


def test_fast_grows_a_plant_eater_only_with_a_plant_to_spare():
    """Issue 22: fast grew population it could not feed. It grows a plant eater's population
    only while the plants coming (food_outlook; Migratory's bank food only for its own
    hungry species) feed two heads more, a carnivore's while it has a prey a head and two
    more and the meat of the prey within its reach feeds it with one to spare wherever the
    climate may strike (prey_meat, likely_zones); it adds a species only while the plants
    feed it with a head more."""
    from engine.climate import ai as A

    fast = A.FastPolicy()
    grown = added = 0
    for _state, p, view, legal in _play_phase_positions(3, 4400):
        a = fast.choose(view, legal, view_seed(view))
        if a["type"] == "species":
            added += 1
            got, need = A.food_outlook(view, p, 1, anticipate=True, new=True)
            assert got >= need
            continue
        if a["type"] != "grow" or a["what"] != "pop":
            continue
        grown += 1
        sp = A._species(view)[a["species"]][2]
        if "carnivore" in A._traits(sp):  # (a Carnivore played face down this round too)
            prey = A._prey(view, p, sp["body"], sp["pop"], A._traits(sp))
            assert sp["pop"] + 2 < min(4, len(prey))
            for z in A.likely_zones(view, p):
                meat, hunger = A.prey_meat(view, p, sp, 1, z)
                assert not hunger or meat >= hunger + 1
        else:
            got, need = A.food_outlook(view, p, 2, anticipate=True, species=sp["id"])
            assert got >= need
    assert grown >= 3 and added >= 3


def test_strong_grows_a_carnivore_only_where_its_prey_feed_it():
    """Issue 22: strong grew a carnivore (its Carnivore played face down that round) that a
    Heat Wave left without prey. It grows a carnivore's population only while the prey
    within its reach feed one more head in every zone its model weighs."""
    from engine.climate import ai as A

    strong = A.StrongPolicy()
    grown = 0
    for seed in (4500, 4510, 4520):
        state = G.new_game(seats(4), seed, {"quick": seed % 20 == 0})
        levels = ["strong", "fast", "fast", "strong"]
        while not G.is_over(state):
            p = G.to_act(state)[0]
            view = G.view(state, p)
            a = choose_action(G, state, p, levels[p])
            if levels[p] == "strong" and view["phase"] == "play" and a["type"] == "grow" \
                    and a["what"] == "pop":
                sp = A._species(view)[a["species"]][2]
                if "carnivore" in A._traits(sp):
                    grown += 1
                    assert strong.hunt_fed(view, p, sp, A.likely_zones(view, p))
            G.apply_in_place(state, p, a)
    assert grown >= 1
