"""Evolution: Climate rules, checked against the rulebook (Italian, shared/rules/seeds/004_*).

Positions come from ``build`` (tests/test_climate_helpers.py) and are played through real
actions (``CLIMATE.apply_action``). Expected values come from the rulebook's text and
examples, or from the choices recorded in docs/rules-decisions.md ("Evolution: Climate"),
never from the engine's output.
"""

from __future__ import annotations

import json

import pytest

from engine import IllegalAction
from engine.climate import CLIMATE as G
from engine.climate import check_invariants
from engine.climate.data import CARDS, EVENTS, TRAIT_OF, ZONE_INDEX, ZONES
from engine.core import CorruptState
from tests.test_climate_helpers import (
    act,
    build,
    illegal,
    of,
    seats,
    sid,
    through_environment,
)

NEUTRAL = "carnivore-5"  # a food card of 0 plants and no icons


def ev(kind: str, zone: str) -> str:
    """An event card of that kind under that zone."""
    return next(c for c, e in EVENTS.items() if e.kind == kind and ZONES[e.zone] == zone)


def feed_options(s, p):
    return G.legal_actions(s, p)


# --- setup -------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, aside", [(2, 88), (3, 60), (4, 30), (5, 0), (6, 0)])
def test_setup_sets_cards_aside_by_player_count(n, aside):
    s = G.new_game(seats(n), 5)
    assert len(s.set_aside) == aside
    dealt = sum(len(h) for h in s.hands)
    assert dealt == n * (4 + 1)  # phase 1: 4 cards plus 1 per species (one each)
    assert len(s.deck) == 177 - aside - dealt
    assert ZONES[s.zone] == "temperate"
    assert all(len(row) == 1 and row[0]["body"] == 1 and row[0]["pop"] == 1 for row in s.rows)
    assert s.phase == "food" and sorted(G.to_act(s)) == list(range(n))


def test_setup_reveals_one_event_of_each_deck_under_its_zone():
    s, events = G.new_game_with_events(seats(3), 9)
    cold, hot = s.event_up["cold"], s.event_up["hot"]
    assert EVENTS[cold].deck == "cold" and EVENTS[hot].deck == "hot"
    assert len(s.event_decks["cold"]) == 14 and len(s.event_decks["hot"]) == 14
    assert events[0]["up"]["cold"]["zone"] == ZONES[EVENTS[cold].zone]
    v = G.view(s, None)
    assert v["events"]["cold"]["up"]["card"] == cold and v["events"]["hot"]["deck"] == 14


def test_the_box_has_177_trait_cards_of_23_traits_and_30_events():
    assert len(CARDS) == 177 and len({TRAIT_OF[c] for c in CARDS}) == 23
    assert sum(TRAIT_OF[c] == "carnivore" for c in CARDS) == 17
    assert len(EVENTS) == 30
    assert sum(e.deck == "cold" for e in EVENTS.values()) == 15


def test_options_and_player_counts():
    with pytest.raises(IllegalAction) as info:
        G.new_game(seats(1), 1)
    assert info.value.code == "player_count"
    with pytest.raises(IllegalAction):
        G.new_game(seats(7), 1)
    with pytest.raises(IllegalAction) as info:
        G.new_game(seats(3), 1, {"divergence": True})
    assert info.value.code == "unknown_option"
    with pytest.raises(IllegalAction) as info:
        G.new_game(seats(3), 1, {"quick": "yes"})
    assert info.value.code == "bad_option"
    assert G.new_game(seats(6), 1, {"quick": False}).options["quick"] is True  # 6: always
    assert G.new_game(seats(5), 1).options == {"events": True, "quick": False}
    s = G.new_game(seats(4), 1, {"events": False})
    assert s.event_up == {"cold": None, "hot": None}


# --- phase 2: food cards (secret, simultaneous) ---------------------------------------------------

def test_food_cards_are_chosen_secretly_and_at_once():
    s = G.new_game(seats(3), 4)
    assert G.view(s, 0)["current"] is None
    c = s.hands[1][0]
    step, k0, k1 = G.step_key(s), G.decision_key(s, 0), G.decision_key(s, 1)
    v0 = G.view(s, 0)
    new, events = act(s, 1, {"type": "food", "card": c})
    assert events == [{"type": "chosen", "player": 1, "step": "food"}]
    assert G.step_key(new) == step and G.decision_key(new, 0) == k0
    assert G.decision_key(new, 1) != k1
    assert G.view(new, 0)["food_cards"][1] == {"down": True}
    assert G.view(new, 1)["food_cards"][1]["card"] == c
    assert c not in json.dumps(G.view(new, 0)) and c not in json.dumps(G.view(new, None))
    # nothing else changed for player 0: their menu stays valid
    assert G.legal_actions(new, 0) == G.legal_actions(s, 0)
    assert {k: v for k, v in G.view(new, 0).items() if k not in ("awaiting", "food_cards",
                                                                 "players")} == \
        {k: v for k, v in v0.items() if k not in ("awaiting", "food_cards", "players")}
    assert sorted(G.to_act(new)) == [0, 2]  # the others, in any order
    illegal(new, 1, {"type": "food", "card": new.hands[1][0]}, "not_your_turn")
    new, _ = act(new, 2, {"type": "food", "card": new.hands[2][0]})
    new, events = act(new, 0, {"type": "food", "card": new.hands[0][0]})
    assert new.phase == "play" and G.step_key(new) == step + 1
    assert not any("card" in e for e in events)


# --- phase 3: play cards --------------------------------------------------------------------------

def test_play_is_clockwise_from_the_first_player_and_traits_lie_face_down():
    s = build(3, rows={0: [[]], 1: [[]], 2: [[]]}, hands={0: ["foraging"], 1: ["climbing"],
                                                         2: ["horns"]},
              phase="play", current=1, first=1)
    s.done = [False] * 3
    assert G.to_act(s) == [1]
    c = s.hands[1][0]
    s, events = act(s, 1, {"type": "trait", "card": c, "species": sid(s, 1, 0)})
    assert events == [{"type": "trait", "player": 1, "species": sid(s, 1, 0)}]
    assert G.view(s, 0)["players"][1]["species"][0]["traits"] == [
        {"card": None, "trait": None, "down": True}]
    assert G.view(s, 1)["players"][1]["species"][0]["traits"][0]["trait"] == "climbing"
    s, _ = act(s, 1, {"type": "done"})
    assert G.to_act(s) == [2]
    s, _ = act(s, 2, {"type": "done"})
    assert G.to_act(s) == [0]
    s, events = act(s, 0, {"type": "done"})
    flips = of(events, "flip")
    assert flips == [{"type": "flip", "player": 1, "species": 2001, "traits": ["climbing"]}]
    assert not any(sp["down"] for row in s.rows for sp in row)


def test_a_species_holds_no_trait_twice_and_at_most_four():
    s = build(3, rows={0: [["foraging", "climbing", "horns"]]},
              hands={0: ["foraging", "long_neck", "fertile"]}, phase="play")
    cards = s.hands[0]
    illegal(s, 0, {"type": "trait", "card": cards[0], "species": sid(s, 0, 0)},
            "duplicate_trait")
    s, _ = act(s, 0, {"type": "trait", "card": cards[1], "species": sid(s, 0, 0)})
    err = illegal(s, 0, {"type": "trait", "card": cards[2], "species": sid(s, 0, 0)},
                  "trait_limit")
    assert err.params == {"species": sid(s, 0, 0), "max": 4}


def test_two_players_hold_at_most_three_traits_per_species():
    s = build(2, rows={0: [["foraging", "climbing", "horns"]]}, hands={0: ["long_neck"]},
              phase="play")
    err = illegal(s, 0, {"type": "trait", "card": s.hands[0][0], "species": sid(s, 0, 0)},
                  "trait_limit")
    assert err.params["max"] == 3
    assert G.view(s, 0)["max_traits"] == 3


def test_new_species_at_either_end_and_growth_up_to_six():
    s = build(3, rows={0: [{"body": 6, "pop": 5}]}, hands={0: ["ambush"] * 4}, phase="play")
    old = sid(s, 0, 0)
    c = s.hands[0]
    s, events = act(s, 0, {"type": "species", "card": c[0], "side": "left"})
    assert [sp["id"] for sp in s.rows[0]][1] == old and s.rows[0][0]["pop"] == 1
    assert c[0] in s.discard
    s, _ = act(s, 0, {"type": "species", "card": c[1], "side": "right"})
    assert s.rows[0][1]["id"] == old and len(s.rows[0]) == 3
    illegal(s, 0, {"type": "species", "card": c[2], "side": "middle"}, "bad_side")
    s, _ = act(s, 0, {"type": "grow", "card": c[2], "species": old, "what": "pop"})
    assert s.rows[0][1]["pop"] == 6
    illegal(s, 0, {"type": "grow", "card": c[3], "species": old, "what": "pop"}, "at_max")
    illegal(s, 0, {"type": "grow", "card": c[3], "species": old, "what": "body"}, "at_max")
    illegal(s, 0, {"type": "grow", "card": c[3], "species": old, "what": "speed"},
            "bad_growth")
    illegal(s, 0, {"type": "grow", "card": "ambush-7", "species": old, "what": "pop"},
            "not_in_hand")


def test_removing_a_trait_discards_it_and_its_fat():
    s = build(3, rows={0: [{"traits": ["fat_tissue", "horns"], "body": 4, "fat": 3}]},
              phase="play")
    fat = s.rows[0][0]["traits"][0]
    s, events = act(s, 0, {"type": "remove", "species": sid(s, 0, 0), "card": fat})
    assert fat in s.discard and s.bags[0] == 3 and s.rows[0][0]["fat"] == 0
    assert events[0]["trait"] == "fat_tissue" and events[0]["fat"] == 3


def test_the_exchange_puts_cards_under_the_deck_and_draws_as_many_from_the_top():
    s = build(3, rows={0: [[]]}, hands={0: ["ambush", "horns", "climbing"], 1: ["fertile"]},
              phase="play", deck=5)
    s.done[1] = False  # player 1 plays next: the phase goes on
    top = s.deck[-2:]
    back = s.hands[0][:2]
    s, _ = act(s, 0, {"type": "exchange", "card": back[0]})
    illegal(s, 0, {"type": "trait", "card": s.hands[0][0], "species": sid(s, 0, 0)},
            "exchanging")
    s, _ = act(s, 0, {"type": "exchange", "card": back[1]})
    assert len(s.deck) == 5 and back[0] not in s.hands[0]
    s, events = act(s, 0, {"type": "done"})
    assert set(top) <= set(s.hands[0]) and len(s.hands[0]) == 3
    assert set(back) == set(s.deck[:2])
    assert of(events, "done")[0]["returned"] == 2


def test_no_more_cards_back_than_the_deck_holds():
    s = build(3, hands={0: ["ambush", "horns"]}, phase="play", deck=1)
    s, _ = act(s, 0, {"type": "exchange", "card": s.hands[0][0]})
    illegal(s, 0, {"type": "exchange", "card": s.hands[0][0]}, "deck_too_small")
    assert {"type": "exchange", "card": s.hands[0][0]} not in G.legal_actions(s, 0)


# --- the Quick game ------------------------------------------------------------------------------

def test_the_quick_game_plays_secretly_and_at_once():
    s = build(3, rows={0: [[]], 1: [[]], 2: [[]]}, hands={0: ["ambush"], 1: ["horns", "climbing"],
                                                         2: ["long_neck"]},
              phase="play", quick=True)
    assert sorted(G.to_act(s)) == [0, 1, 2] and G.view(s, 0)["current"] is None
    step, k0, k2 = G.step_key(s), G.decision_key(s, 0), G.decision_key(s, 2)
    views = {v: G.view(s, v) for v in (None, 0, 2)}
    h = s.hands[1]
    s1, events = act(s, 1, {"type": "trait", "card": h[0], "species": sid(s, 1, 0)})
    assert events == []
    s1, events = act(s1, 1, {"type": "species", "card": h[1], "side": "right"})
    assert events == []
    for v in (None, 0, 2):  # nobody else sees anything of it
        assert G.view(s1, v) == views[v]
    assert G.step_key(s1) == step and G.decision_key(s1, 0) == k0
    assert G.decision_key(s1, 2) == k2
    assert len(G.view(s1, 1)["players"][1]["species"]) == 2
    assert G.returns(s1) == G.returns(s)  # public points only
    s1, events = act(s1, 1, {"type": "done"})
    assert events == [{"type": "chosen", "player": 1, "step": "play"}]
    assert G.view(s1, 0)["players"][1]["done"] is True
    s1, _ = act(s1, 0, {"type": "done"})
    s1, events, _ = through_environment(s1, 2)
    rev = {e["player"]: e for e in of(events, "reveal")}
    assert len(rev[1]["species"]) == 2 and rev[1]["discarded"] == 1
    assert rev[1]["species"][0]["new"] == 1
    assert of(events, "flip")[0]["traits"] == ["horns"]
    assert G.step_key(s1) > step


def test_six_players_play_the_quick_game():
    s = G.new_game(seats(6), 3, {"quick": False})
    for p in G.to_act(s):
        s, _ = act(s, p, {"type": "food", "card": s.hands[p][0]})
    assert s.phase == "play" and sorted(G.to_act(s)) == list(range(6))


# --- phase 4: green-framed traits -------------------------------------------------------------------

def test_fertile_grows_only_when_the_watering_hole_has_food():
    s = build(3, rows={0: [["fertile"]], 1: [["fertile"]]}, phase="play", wh=0)
    _, _, env = through_environment(s)
    assert env.rows[0][0]["pop"] == 1
    s = build(3, rows={0: [["fertile"]], 1: [["fertile"]]}, phase="play", wh=2)
    _, _, env = through_environment(s)
    assert env.rows[0][0]["pop"] == 2 and env.rows[1][0]["pop"] == 2


def test_long_neck_takes_from_the_bank_and_triggers_foraging_and_cooperation():
    s = build(3, rows={0: [{"traits": ["long_neck", "foraging", "cooperation"], "pop": 3},
                           {"pop": 2}]}, phase="play", wh=4)
    _, events, env = through_environment(s)
    assert env.rows[0][0]["food"] == 2  # 1 plant + Foraging's 1, from the bank
    assert env.rows[0][1]["food"] == 1  # Cooperation, from the same source
    takes = of(events, "take")
    assert [t["source"] for t in takes] == ["bank", "bank"]
    assert takes[1]["reason"] == "cooperation"


def test_fat_tissue_moves_its_fat_before_the_reveal_without_cooperation():
    s = build(3, rows={0: [{"traits": ["fat_tissue", "cooperation"], "body": 4, "pop": 2,
                            "fat": 3}, {"pop": 2}]}, phase="play")
    _, events, env = through_environment(s)
    assert env.rows[0][0]["food"] == 2 and env.rows[0][0]["fat"] == 1
    assert env.rows[0][1]["food"] == 0 and not of(events, "take")


def test_the_owner_orders_two_green_traits():
    def setup():
        return build(3, rows={1: [{"traits": ["fat_tissue", "fertile"], "body": 3, "fat": 2}]},
                     phase="play", wh=1)
    s, events = act(setup(), 0, {"type": "done"})
    assert s.phase == "green" and G.to_act(s) == [1] and G.owed_choice(s, 1)
    assert sorted(a["trait"] for a in G.legal_actions(s, 1)) == ["fat_tissue", "fertile"]
    first_fertile, _ = act(s, 1, {"type": "green", "species": sid(s, 1, 0), "trait": "fertile"})
    sp = first_fertile.rows[1][0]
    assert first_fertile.phase == "feeding" and (sp["pop"], sp["food"], sp["fat"]) == (2, 2, 0)
    first_fat, _ = act(s, 1, {"type": "green", "species": sid(s, 1, 0), "trait": "fat_tissue"})
    sp = first_fat.rows[1][0]
    assert (sp["pop"], sp["food"], sp["fat"]) == (2, 1, 1)
    illegal(s, 1, {"type": "green", "species": sid(s, 1, 0), "trait": "long_neck"}, "not_green")


# --- phase 4: the climate -----------------------------------------------------------------------------

@pytest.mark.parametrize("cards, zone, to", [
    (["ambush-1"], "temperate", "warm"),          # 1 sun
    (["ambush-3"], "temperate", "cool"),          # 1 snowflake
    (["ambush-1", "ambush-3"], "temperate", "temperate"),  # as many: no move
    (["ambush-1", "horns-1", "ambush-3"], "hot", "scorching"),
    (["ambush-1"], "scorching", "scorching"),     # the warmest zone
    (["ambush-3"], "ice_age", "ice_age"),
])
def test_the_climate_moves_one_zone_by_suns_against_snowflakes(cards, zone, to):
    s = build(3, phase="play", zone=zone, food=dict(enumerate(cards)))
    _, events, env = through_environment(s)
    assert ZONES[env.zone] == to
    assert of(events, "climate")[0]["to"] == to


def test_a_thaw_on_the_watering_hole_adds_three_suns_then_goes_under_the_cold_deck():
    s = build(3, phase="play", food={0: "ambush-3", 1: "horns-3"}, events=True)  # 2 snowflakes
    thaw = ev("thaw", "cold")
    s.event_decks["cold"].remove(thaw)
    s.thaw = thaw
    check_invariants(s)
    _, events, env = through_environment(s)
    assert ZONES[env.zone] == "warm"  # 3 suns beat 2 snowflakes
    assert of(events, "food_reveal")[0]["suns"] == 3 and env.thaw is None
    assert env.event_decks["cold"][0] == thaw
    v = G.view(env, None)
    assert (v["suns"], v["snows"]) == (0, 2)  # the cards' own icons


LOSS = {  # zone: (body sizes hit, population lost) as the rulebook lists them
    "ice_age": (range(1, 7), 4), "freezing": (range(1, 5), 2), "cold": (range(1, 3), 1),
    "cool": ((), 0), "temperate": ((), 0), "warm": ((), 0),
    "tropical": (range(5, 7), 1), "hot": (range(3, 7), 2), "scorching": (range(1, 7), 4),
}


@pytest.mark.parametrize("zone", list(LOSS))
def test_each_zone_costs_the_population_of_the_body_sizes_it_names(zone):
    s = build(3, rows={0: [{"body": b, "pop": 6} for b in range(1, 7)]}, phase="play",
              zone=zone, food={0: NEUTRAL})
    _, events, env = through_environment(s)
    hit, lost = LOSS[zone]
    for b in range(1, 7):
        assert env.rows[0][b - 1]["pop"] == 6 - (lost if b in hit else 0), (zone, b)
    cause = {"ice_age": "cold", "freezing": "cold", "cold": "cold"}.get(zone, "heat")
    assert all(e["cause"] == cause for e in of(events, "loss") if e["cause"] != "starvation")


@pytest.mark.parametrize("zone, traits, lost", [
    # the rulebook's examples
    ("ice_age", ["heavy_fur"], 0),
    ("scorching", ["heavy_fur"], 5),
    ("scorching", ["cooling_frills"], 1),
    ("ice_age", ["defensive_herding"], 3),
    ("ice_age", ["hibernation"], 3),
    ("ice_age", ["migratory"], 3),
    ("ice_age", ["burrowing"], 3),
    ("scorching", ["burrowing"], 3),
    ("scorching", ["mud_wallowing"], 3),
    ("scorching", ["nocturnal"], 3),
    # protections stack
    ("scorching", ["burrowing", "mud_wallowing", "nocturnal"], 1),
    ("ice_age", ["burrowing", "migratory", "hibernation"], 1),
    ("scorching", ["heavy_fur", "cooling_frills"], 2),
    ("scorching", ["cooling_frills", "burrowing", "nocturnal"], 0),
    # a protection against one cause does nothing against the other
    ("scorching", ["migratory", "hibernation", "defensive_herding"], 4),
    ("ice_age", ["cooling_frills", "mud_wallowing", "nocturnal"], 4),
    # the rulebook's stacking sentence names Migratory against heat; its own text says cold
    ("scorching", ["burrowing", "migratory", "nocturnal"], 2),
])
def test_climate_protections(zone, traits, lost):
    s = build(3, rows={0: [{"traits": traits, "body": 3, "pop": 6}]}, phase="play", zone=zone,
              food={0: NEUTRAL})
    _, _, env = through_environment(s)
    assert env.rows[0][0]["pop"] == 6 - lost


@pytest.mark.parametrize("zone, body, lost", [
    ("tropical", 1, 1), ("hot", 1, 1), ("hot", 3, 3), ("tropical", 5, 2), ("warm", 3, 0),
    ("cold", 1, 0),
])
def test_heavy_fur_costs_one_more_in_the_three_hottest_zones(zone, body, lost):
    s = build(3, rows={0: [{"traits": ["heavy_fur"], "body": body, "pop": 6}]}, phase="play",
              zone=zone, food={0: NEUTRAL})
    _, _, env = through_environment(s)
    assert env.rows[0][0]["pop"] == 6 - lost


def test_climate_losses_cause_extinction_and_a_card_per_trait():
    s = build(3, rows={0: [{"traits": ["horns", "climbing"], "body": 2, "pop": 1}, {"pop": 3}]},
              phase="play", zone="cold", food={0: NEUTRAL}, hands={0: []})
    gone = sid(s, 0, 0)
    traits = list(s.rows[0][0]["traits"])
    _, events, env = through_environment(s)
    ext = of(events, "extinct")
    assert ext[0]["species"] == gone and ext[0]["drawn"] == 2
    assert len(env.hands[0]) == 2 and set(traits) <= set(env.discard)
    assert [sp["pop"] for sp in env.rows[0]] == [2]  # body 1: loses 1 too
    assert not any(c in json.dumps(events) for c in env.hands[0])  # the cards drawn


# --- phase 4: plants ------------------------------------------------------------------------------

def test_plants_are_the_food_cards_plus_the_zone_modifier():
    # 2-3 players' side: Warm +1 (the data file); cards 2 + 3
    s = build(3, phase="play", zone="warm", food={0: "ambush-2", 1: "ambush-4"}, wh=1)
    _, events, env = through_environment(s)
    p = of(events, "plants")[0]
    assert (p["cards"], p["zone"], p["total"]) == (5, 1, 6) and env.wh == 7


def test_the_large_board_side_for_four_to_six_players():
    s = build(4, phase="play", zone="cool", food={0: "ambush-7"}, wh=0)  # 6 - 2
    _, _, env = through_environment(s)
    assert env.wh == 4


def test_a_negative_total_removes_plants_but_never_below_zero():
    s = build(3, phase="play", zone="cold", food={0: "carnivore-1", 1: "carnivore-3"}, wh=4)
    # icons: 1 sun, 1 snowflake: the climate stays Cold (-3); cards -3 -1
    _, events, env = through_environment(s)
    assert ZONES[env.zone] == "cold" and env.wh == 0
    assert of(events, "plants")[0]["removed"] == 4


# --- phase 4: climate events ---------------------------------------------------------------------------

def test_cold_snap_applies_the_zone_two_steps_colder():
    card = ev("cold_snap", "cool")
    s = build(3, rows={0: [{"body": 4, "pop": 5}, {"body": 5, "pop": 5}]}, phase="play",
              zone="cool", food={0: "ambush-7"}, events=True, up={"cold": card})
    _, events, env = through_environment(s)
    e = of(events, "event")[0]
    assert e["card"] == card and e["effects"] == "freezing"
    assert [sp["pop"] for sp in env.rows[0]] == [3, 5]  # Freezing: body 1-4 lose 2
    assert of(events, "plants")[0]["zone"] == -6  # Freezing's modifier (small side)
    assert env.event_decks["cold"][0] == card and env.event_up["cold"] != card
    assert env.event_up["cold"] is not None and of(events, "event_up")


def test_heat_wave_applies_the_zone_two_steps_warmer():
    card = ev("heat_wave", "warm")
    s = build(3, rows={0: [{"body": 3, "pop": 5}, {"body": 2, "pop": 5}]}, phase="play",
              zone="warm", food={0: NEUTRAL}, events=True, up={"hot": card})
    _, events, env = through_environment(s)
    assert of(events, "event")[0]["effects"] == "hot"
    assert [sp["pop"] for sp in env.rows[0]] == [3, 5]


def test_an_event_fires_only_under_the_marker_and_only_one_a_round():
    card = ev("heat_wave", "warm")
    s = build(3, rows={0: [{"body": 3, "pop": 5}]}, phase="play", zone="temperate",
              food={0: NEUTRAL}, events=True, up={"hot": card})
    _, events, env = through_environment(s)
    assert not of(events, "event") and env.event_up["hot"] == card
    # at Warm it fires; its replacement, under Warm too, waits for the next round
    s = build(3, rows={0: [{"body": 3, "pop": 5}]}, phase="play", zone="warm",
              food={0: NEUTRAL}, events=True, up={"hot": card})
    other = ev("wildfire", "warm")
    s.event_decks["hot"].remove(other)
    s.event_decks["hot"].append(other)  # the top card
    _, events, env = through_environment(s)
    assert len(of(events, "event")) == 1 and env.event_up["hot"] == other
    assert env.rows[0][0]["pop"] == 3


def test_desertification_shrinks_every_species_before_the_losses_and_blocks_plants():
    card = ev("desertification", "tropical")
    s = build(3, rows={0: [{"body": 5, "pop": 4}, {"body": 1, "pop": 2}],
                       1: [{"traits": ["fat_tissue"], "body": 2, "pop": 1, "fat": 2}]},
              phase="play", zone="tropical", food={0: "ambush-7"}, events=True,
              up={"hot": card}, wh=1)
    _, events, env = through_environment(s)
    assert [sp["body"] for sp in env.rows[0]] == [4, 1]
    assert env.rows[0][0]["pop"] == 4  # body 4: out of Tropical's 5-6
    p = of(events, "plants")[0]
    assert p["total"] == 8 and p["added"] == 0 and p["blocked"] == "desertification"
    # fat above the new body size goes to the bag; before that, Fat Tissue moved 1 to the board
    assert env.rows[1][0]["body"] == 1 and env.rows[1][0]["fat"] == 1


def test_desertification_still_removes_a_negative_total():
    card = ev("desertification", "scorching")
    s = build(3, rows={0: [{"body": 2, "pop": 6}]}, phase="play", zone="scorching",
              food={0: "carnivore-2"}, events=True, up={"hot": card}, wh=5)
    _, _, env = through_environment(s)
    assert env.wh == 3


def test_meteor_blocks_positive_plants_until_the_end():
    card = ev("meteor", "scorching")
    s = build(3, rows={0: [{"body": 2, "pop": 6}]}, phase="play", zone="scorching",
              food={0: "ambush-7"}, events=True, up={"hot": card}, wh=2)
    _, events, env = through_environment(s)
    assert env.meteor == [card] and env.wh == 2 and env.event_up["hot"] != card
    assert card not in env.event_decks["hot"]
    # a later round, elsewhere: positive totals still never added, negative ones removed
    s = build(3, phase="play", zone="temperate", food={0: "ambush-7"}, events=True, wh=2)
    s.event_decks["hot"].remove(card)
    s.meteor = [card]
    _, events, env = through_environment(s)
    assert env.wh == 2 and of(events, "plants")[0]["blocked"] == "meteor"
    s = build(3, phase="play", zone="temperate", food={0: "carnivore-2"}, events=True, wh=3)
    s.event_decks["hot"].remove(card)
    s.meteor = [card]
    _, _, env = through_environment(s)
    assert env.wh == 1


def test_volcanic_eruption_moves_the_marker_at_the_end_of_feeding():
    card = ev("volcanic_eruption", "tropical")
    s = build(3, rows={0: [{"body": 2, "pop": 1}]}, phase="play", zone="tropical",
              food={0: NEUTRAL}, events=True, up={"hot": card})
    after, events, env = through_environment(s)
    assert ZONES[env.zone] == "tropical" and ZONES[env.volcano] == "cold"
    assert ZONES[after.zone] == "tropical"  # still, while feeding
    after, events = act(after, 0, {"type": "feed", "species": sid(after, 0, 0)})
    # nobody can eat any more: feeding ends, the marker moves, the next round begins there
    assert of(events, "volcano")[0] == {"type": "volcano", "from": "tropical", "to": "cold"}
    assert ZONES[after.zone] == "cold" and after.round == s.round + 1


def test_wildfire_costs_a_population_except_with_burrowing_and_sets_plants_aside():
    card = ev("wildfire", "warm")
    s = build(3, rows={0: [{"traits": ["cooling_frills"], "pop": 3}, {"traits": ["burrowing"],
                                                                      "pop": 3}]},
              phase="play", zone="warm", food={0: "ambush-4"}, events=True, up={"hot": card},
              wh=0)
    after, events, env = through_environment(s)
    assert [sp["pop"] for sp in env.rows[0]] == [2, 3]  # not heat: Cooling Frills no help
    assert of(events, "loss")[0]["cause"] == "wildfire"
    assert env.wh == 0 and env.wildfire == 3 + 1  # the 3 of the card and Warm's +1
    # added to the Watering Hole before the next Deal
    assert after.round == s.round + 1
    assert of(events, "wildfire_plants")[0]["count"] == 4 and after.wh == 4


def test_without_climate_events_nothing_fires():
    s = build(3, rows={0: [{"body": 3, "pop": 5}]}, phase="play", zone="warm",
              food={0: NEUTRAL}, events=False)
    _, events, env = through_environment(s)
    assert not of(events, "event") and env.event_up == {"cold": None, "hot": None}
    assert G.view(env, None)["events"]["cold"] == {"deck": 0, "up": None}


# --- phase 5: feeding -----------------------------------------------------------------------------------

def test_a_player_must_feed_a_hungry_species():
    s = build(3, rows={0: [{"pop": 2}]}, wh=3)
    assert {"type": "pass"} not in G.legal_actions(s, 0)
    illegal(s, 0, {"type": "pass"}, "must_feed")
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert s.rows[0][0]["food"] == 1 and s.wh == 2
    assert of(events, "take")[0] == {"type": "take", "player": 0, "species": 1001,
                                     "food": "plant", "source": "wh", "count": 1, "fat": 0,
                                     "reason": "feed"}


def test_feeding_goes_clockwise_and_skips_players_who_cannot_eat():
    s = build(3, rows={0: [{"pop": 2}], 1: [{"pop": 2, "food": 2}], 2: [{"pop": 2}]}, wh=4)
    s, _ = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert G.to_act(s) == [2]
    s, _ = act(s, 2, {"type": "feed", "species": sid(s, 2, 0)})
    assert G.to_act(s) == [0]


def test_foraging_and_cooperation_chains():
    s = build(3, rows={0: [{"traits": ["foraging", "cooperation"], "pop": 3},
                           {"traits": ["cooperation"], "pop": 2},
                           {"traits": ["carnivore"], "pop": 2, "body": 2}]}, wh=10)
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert [sp["food"] for sp in s.rows[0]] == [2, 1, 0]  # no plants for the carnivore
    assert s.wh == 7
    s, _ = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    # Foraging only up to the population: 1 more; Cooperation fills the next
    assert [sp["food"] for sp in s.rows[0]] == [3, 2, 0]


def test_foraging_takes_only_what_the_watering_hole_holds():
    s = build(3, rows={0: [{"traits": ["foraging"], "pop": 3}]}, wh=1)
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert of(events, "take")[0]["count"] == 1 and s.bags[0] == 1 and s.wh == 0


def carnivore_vs(target: dict, attacker: dict | None = None, **kw):
    """Player 0's carnivore, player 1's target; player 2's big plant eater and plants on the
    Watering Hole keep the feeding going after the attack."""
    att = {"traits": ["carnivore"], "body": 3, "pop": 3}
    att.update(attacker or {})
    kw.setdefault("wh", 5)
    return build(3, rows={0: [att], 1: [target], 2: [{"pop": 6, "body": 6}]}, **kw)


def attack(s, target=(1, 0), **extra):
    return act(s, 0, dict({"type": "attack", "species": sid(s, 0, 0),
                           "target": sid(s, *target)}, **extra))


def test_a_carnivore_never_eats_plants():
    s = carnivore_vs({"body": 1, "pop": 1, "food": 1}, wh=5)
    illegal(s, 0, {"type": "feed", "species": sid(s, 0, 0)}, "carnivore_no_plants")


def test_a_successful_attack():
    s = carnivore_vs({"body": 2, "pop": 3, "food": 3})
    s, events = attack(s)
    t = s.rows[1][0]
    assert t["pop"] == 2 and t["food"] == 2 and s.bags[1] == 1  # extra food to the bag
    assert s.rows[0][0]["food"] == 2  # meat = the target's body size
    take = of(events, "take")[0]
    assert (take["food"], take["source"], take["count"]) == ("meat", "bank", 2)


def test_meat_beyond_the_population_goes_back():
    s = carnivore_vs({"body": 2, "pop": 3}, {"body": 4, "pop": 3, "food": 2})
    s, _ = attack(s)
    assert s.rows[0][0]["food"] == 3


def test_the_attacker_must_be_bigger():
    s = carnivore_vs({"body": 3, "pop": 3})
    err = illegal(s, 0, {"type": "attack", "species": sid(s, 0, 0), "target": sid(s, 1, 0)},
                  "not_attackable")
    assert err.params["blockers"] == ["body"]


def test_an_attack_can_drive_a_species_extinct_and_its_owner_draws():
    s = carnivore_vs({"traits": ["horns"], "body": 1, "pop": 1}, {"pop": 3}, hands={1: []})
    s, events = attack(s)
    assert s.rows[1] == [] and len(s.hands[1]) == 1
    assert of(events, "extinct")[0]["drawn"] == 1


@pytest.mark.parametrize("target, attacker, ok", [
    # Hard Shell: +4 ("body 6 with Hard Shell: effective 10")
    ({"traits": ["hard_shell"], "body": 2}, {"body": 6}, False),
    ({"traits": ["hard_shell"], "body": 6}, {"traits": ["carnivore", "pack_hunting"], "body": 6,
                                             "pop": 5}, True),
    ({"traits": ["hard_shell"], "body": 6}, {"traits": ["carnivore", "pack_hunting"], "body": 6,
                                             "pop": 4}, False),
    # Cooling Frills: +2
    ({"traits": ["cooling_frills"], "body": 2}, {"body": 4}, False),
    ({"traits": ["cooling_frills"], "body": 2}, {"body": 5}, True),
    # Pack Hunting: body + population ("5 population and 3 body: effective 8")
    ({"body": 6}, {"traits": ["carnivore", "pack_hunting"], "body": 3, "pop": 5}, True),
    ({"body": 6}, {"traits": ["carnivore", "pack_hunting"], "body": 3, "pop": 3}, False),
    # Climbing
    ({"traits": ["climbing"], "body": 1}, {}, False),
    ({"traits": ["climbing"], "body": 1}, {"traits": ["carnivore", "climbing"]}, True),
    # Defensive Herding: the carnivore needs a greater population
    ({"traits": ["defensive_herding"], "body": 1, "pop": 3}, {"pop": 3}, False),
    ({"traits": ["defensive_herding"], "body": 1, "pop": 3}, {"pop": 4}, True),
    # Burrowing: only while hungry
    ({"traits": ["burrowing"], "body": 1, "pop": 2, "food": 2}, {}, False),
    ({"traits": ["burrowing"], "body": 1, "pop": 2, "food": 1}, {}, True),
    # with Hibernation: protected once all but 2 are fed
    ({"traits": ["burrowing", "hibernation"], "body": 1, "pop": 4, "food": 2}, {}, False),
    ({"traits": ["burrowing", "hibernation"], "body": 1, "pop": 4, "food": 1}, {}, True),
])
def test_defensive_traits(target, attacker, ok):
    s = carnivore_vs(dict({"pop": 2}, **target), attacker)
    a = {"type": "attack", "species": sid(s, 0, 0), "target": sid(s, 1, 0)}
    assert (a in G.legal_actions(s, 0)) == ok
    if not ok:
        illegal(s, 0, a, "not_attackable")


def test_symbiosis_protects_while_the_species_to_its_right_is_bigger():
    def position(right_body):
        return build(3, rows={0: [{"traits": ["carnivore"], "body": 5, "pop": 3}],
                              1: [{"traits": ["symbiosis"], "body": 2, "pop": 2},
                                  {"body": right_body, "pop": 2}]})
    s = position(3)
    illegal(s, 0, {"type": "attack", "species": sid(s, 0, 0), "target": sid(s, 1, 0)},
            "not_attackable")
    s = position(2)
    attack(s)


def test_warning_call_protects_its_neighbours_unless_the_carnivore_has_ambush():
    rows1 = [{"body": 1, "pop": 2}, {"traits": ["warning_call"], "body": 1, "pop": 2},
             {"body": 1, "pop": 2}, {"body": 1, "pop": 2}]
    s = build(3, rows={0: [{"traits": ["carnivore"], "body": 3, "pop": 3}], 1: rows1})
    targets = {a["target"] for a in G.legal_actions(s, 0) if a["type"] == "attack"}
    assert targets == {sid(s, 1, 1), sid(s, 1, 3)}  # not its neighbours; itself yes
    s = build(3, rows={0: [{"traits": ["carnivore", "ambush"], "body": 3, "pop": 3}],
                       1: rows1})
    targets = {a["target"] for a in G.legal_actions(s, 0) if a["type"] == "attack"}
    assert targets == {sid(s, 1, i) for i in range(4)}


def test_ambush_ignores_one_defensive_trait_of_a_migratory_target():
    s = carnivore_vs({"traits": ["migratory", "climbing"], "body": 1, "pop": 2},
                     {"traits": ["carnivore", "ambush"]})
    illegal(s, 0, {"type": "attack", "species": sid(s, 0, 0), "target": sid(s, 1, 0)},
            "not_attackable")
    s2, events = attack(s, ignore="climbing")
    assert s2.rows[1][0]["pop"] == 1 and of(events, "attack")[0]["ignore"] == "climbing"
    illegal(s, 0, {"type": "attack", "species": sid(s, 0, 0), "target": sid(s, 1, 0),
                   "ignore": "horns"}, "cannot_ignore")


def test_horns_cost_the_carnivore_a_population_first_and_both_may_die():
    s = build(3, rows={0: [{"traits": ["carnivore"], "body": 2, "pop": 1}],
                       1: [{"traits": ["horns"], "body": 1, "pop": 1}],
                       2: [{"traits": ["scavenger"], "body": 1, "pop": 2}]}, wh=5)
    s, events = attack(s)
    assert s.rows[0] == [] and s.rows[1] == []
    # only a Scavenger eats in this case
    assert s.rows[2][0]["food"] == 1
    assert [e["cause"] for e in of(events, "loss")] == ["horns", "attack"]
    s = build(3, rows={0: [{"traits": ["carnivore"], "body": 3, "pop": 3}],
                       1: [{"traits": ["horns"], "body": 2, "pop": 2}]}, wh=5)
    s, _ = attack(s)
    assert s.rows[0][0]["pop"] == 2 and s.rows[0][0]["food"] == 2


def test_a_carnivore_must_attack_even_its_own_horns_species_when_it_is_the_only_prey():
    s = build(3, rows={0: [{"traits": ["carnivore"], "body": 3, "pop": 2},
                           {"traits": ["horns"], "body": 1, "pop": 2}]})
    assert G.legal_actions(s, 0) == [{"type": "attack", "species": sid(s, 0, 0),
                                      "target": sid(s, 0, 1)}]
    illegal(s, 0, {"type": "pass"}, "must_feed")
    illegal(s, 0, {"type": "attack", "species": sid(s, 0, 0), "target": sid(s, 0, 0)},
            "self_attack")


def test_mud_wallowing_costs_a_hand_card_per_attack():
    s = carnivore_vs({"traits": ["mud_wallowing"], "body": 1, "pop": 3}, hands={0: ["horns"]})
    c = s.hands[0][0]
    illegal(s, 0, {"type": "attack", "species": sid(s, 0, 0), "target": sid(s, 1, 0)},
            "discard_needed")
    assert {"type": "pass"} in G.legal_actions(s, 0)  # paying a card is never owed
    s2, events = attack(s, discard=c)
    assert s2.hands[0] == [] and c in s2.discard and s2.rows[1][0]["pop"] == 2
    assert c not in json.dumps(events)
    s = carnivore_vs({"traits": ["mud_wallowing"], "body": 1, "pop": 3})
    assert not [a for a in G.legal_actions(s, 0) if a["type"] == "attack"]
    s = carnivore_vs({"body": 1, "pop": 3}, hands={0: ["horns"]})
    illegal(s, 0, {"type": "attack", "species": sid(s, 0, 0), "target": sid(s, 1, 0),
                   "discard": s.hands[0][0]}, "no_discard_needed")


def test_scavengers_take_meat_after_every_attack_even_when_attacked():
    s = build(3, rows={0: [{"traits": ["carnivore"], "body": 3, "pop": 3},
                           {"traits": ["scavenger"], "pop": 2}],
                       1: [{"traits": ["scavenger"], "body": 1, "pop": 3}],
                       2: [{"traits": ["scavenger"], "pop": 1, "food": 1}]})
    s, events = attack(s)
    assert s.rows[0][1]["food"] == 1 and s.rows[1][0]["food"] == 1
    assert s.rows[2][0]["food"] == 1  # full: nothing more
    assert [e["species"] for e in of(events, "take") if e["reason"] == "scavenger"] == [
        sid(s, 0, 1), sid(s, 1, 0)]


def test_a_fully_fed_carnivore_cannot_attack():
    s = build(3, rows={0: [{"traits": ["carnivore"], "body": 3, "pop": 2, "food": 2},
                           {"pop": 2}], 1: [{"body": 1, "pop": 2}]}, wh=1)
    illegal(s, 0, {"type": "attack", "species": sid(s, 0, 0), "target": sid(s, 1, 0)}, "full")


def test_intelligence_feeds_a_plant_eater_from_the_bank_for_each_card():
    s = build(3, rows={0: [{"traits": ["intelligence", "foraging", "cooperation"], "pop": 5},
                           {"pop": 2}], 1: [{"pop": 6}]}, hands={0: ["horns", "climbing"]},
              wh=3)
    c = s.hands[0]
    s, events = act(s, 0, {"type": "intelligence", "species": sid(s, 0, 0), "card": c[0]})
    assert s.rows[0][0]["food"] == 3 and s.rows[0][1]["food"] == 1  # 2 + Foraging; Coop.
    assert c[0] in s.discard and G.to_act(s) == [0]  # free: the turn goes on
    assert c[0] not in json.dumps(events)
    s, _ = act(s, 0, {"type": "intelligence", "species": sid(s, 0, 0), "card": c[1]})
    assert s.rows[0][0]["food"] == 5 and s.wh == 3  # from the bank, never the Watering Hole


def test_intelligence_cancels_a_trait_for_a_carnivores_next_attack():
    s = carnivore_vs({"traits": ["climbing", "horns"], "body": 1, "pop": 2},
                     {"traits": ["carnivore", "intelligence"]}, hands={0: ["ambush", "fertile"]})
    c = s.hands[0]
    assert not [a for a in G.legal_actions(s, 0) if a["type"] == "attack"]
    assert {"type": "pass"} in G.legal_actions(s, 0)  # never owed
    s, events = act(s, 0, {"type": "negate", "species": sid(s, 0, 0), "card": c[0],
                           "trait": "climbing"})
    assert events[0] == {"type": "negate", "player": 0, "species": sid(s, 0, 0),
                         "trait": "climbing"}
    illegal(s, 0, {"type": "negate", "species": sid(s, 0, 0), "card": c[1],
                   "trait": "climbing"}, "already_negated")
    s, _ = act(s, 0, {"type": "negate", "species": sid(s, 0, 0), "card": c[1],
                      "trait": "horns"})
    s, events = attack(s)
    assert s.rows[0][0]["pop"] == 3 and s.negated == []  # Horns cancelled too


def test_nocturnal_feeds_for_free_when_no_carnivore_could_eat_it():
    s = build(3, rows={0: [{"traits": ["nocturnal"], "pop": 3}],
                       1: [{"traits": ["carnivore"], "body": 1, "pop": 2}]}, wh=5)
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert of(events, "feed")[0]["night"] is True and G.to_act(s) == [0]
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})  # the normal feeding
    assert of(events, "feed")[0]["night"] is False and s.rows[0][0]["food"] == 2
    assert G.to_act(s) == [0] and s.night == []  # nobody else eats: a new turn
    # a carnivore that could eat it: no free feeding
    s = build(3, rows={0: [{"traits": ["nocturnal"], "pop": 3}],
                       1: [{"traits": ["carnivore"], "body": 2, "pop": 2}]}, wh=5)
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert of(events, "feed")[0]["night"] is False and G.to_act(s) == [1]


def test_nocturnal_counts_an_intelligent_carnivores_cards():
    rows = {0: [{"traits": ["nocturnal", "climbing"], "pop": 3}],
            1: [{"traits": ["carnivore", "intelligence"], "body": 2, "pop": 2}]}
    s = build(3, rows=rows, wh=5)  # no card to cancel Climbing: free
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert of(events, "feed")[0]["night"] is True
    s = build(3, rows=rows, wh=5, hands={1: ["horns"]})
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert of(events, "feed")[0]["night"] is False


def test_fat_tissue_stores_food_beyond_the_population_up_to_the_body_size():
    s = build(3, rows={0: [{"traits": ["fat_tissue"], "body": 2, "pop": 1, "food": 1}]}, wh=5)
    assert {"type": "pass"} in G.legal_actions(s, 0)  # not hungry: may
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert s.rows[0][0]["fat"] == 1 and of(events, "take")[0]["fat"] == 1


def test_hibernation_needs_all_but_two_fed():
    s = build(3, rows={0: [{"traits": ["hibernation"], "pop": 4, "food": 1}],
                       1: [{"pop": 1, "food": 1}]}, wh=5)
    assert {"type": "pass"} not in G.legal_actions(s, 0)  # 3 still unfed: hungry
    s, _ = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert not G.view(s, 0)["players"][0]["species"][0]["hungry"]
    assert {"type": "pass"} in G.legal_actions(s, 0)
    s, events = act(s, 0, {"type": "pass"})
    # the end of feeding: none of the 4 is lost (2 fed, 2 hibernating)
    assert not [e for e in of(events, "loss") if e["player"] == 0]


def test_migratory_takes_two_from_the_bank_after_feeding_if_the_watering_hole_is_empty():
    s = build(3, rows={0: [{"traits": ["migratory"], "pop": 4}, {"pop": 1}]}, wh=1)
    s2, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 1)})
    mig = [e for e in of(events, "take") if e["reason"] == "migratory"]
    assert mig[0]["count"] == 2 and mig[0]["source"] == "bank"
    assert s2.bags[0] == 3  # 2 + the 1 plant; the migratory species loses 2 to hunger
    assert [e["lost"] for e in of(events, "loss")] == [2]


def test_end_of_feeding_starvation_bags_and_the_first_player():
    s = build(3, rows={0: [{"pop": 3}, {"pop": 2}], 1: [{"pop": 2, "food": 2}]}, wh=1,
              first=2, current=0)
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    # nobody can eat any more: species 1001 fed 1 of 3 keeps 1; 1002, none fed, dies out
    assert [sp["pop"] for sp in s.rows[0]] == [1]
    assert of(events, "extinct")[0]["species"] == 1002
    assert s.bags == [1, 2, 0] and of(events, "bags")[0]["counts"] == [1, 2, 0]
    assert s.first == 0 and s.round == 2 and s.phase == "food"  # the marker goes left


# --- the end of the game ----------------------------------------------------------------------------

def test_the_deck_running_out_at_the_deal_makes_the_last_round():
    s = build(4, rows={0: [{"pop": 1}]}, wh=1, deck=3, aside=30)
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    out = of(events, "deck_out")[0]
    assert out["refill"] == "set_aside" and out["last"] is True and s.last
    assert sum(len(h) for h in s.hands) == 4 * 4 + 1 + 3 * 1  # everybody dealt in full
    assert s.set_aside == []


def test_five_players_reshuffle_the_discards():
    s = build(5, rows={0: [{"pop": 1}]}, wh=1, deck=2)
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert of(events, "deck_out")[0]["refill"] == "discard" and s.last


def test_the_deck_running_out_at_an_extinction_makes_the_next_round_the_last():
    s = build(3, rows={0: [{"traits": ["carnivore"], "body": 3, "pop": 3}],
                       1: [{"traits": ["horns", "burrowing"], "body": 1, "pop": 1}, {"pop": 1}]},
              deck=1, aside=40)
    s, events = attack(s)
    assert s.final_next and not s.last
    assert of(events, "deck_out")[0]["final_next"] is True


def test_the_game_ends_after_the_last_rounds_feeding():
    s = build(3, rows={0: [{"traits": ["fat_tissue", "horns"], "body": 3, "pop": 2, "food": 1,
                            "fat": 2}],
                       1: [{"traits": ["climbing"], "pop": 3, "food": 3}]},
              wh=1, bags={0: 5, 1: 9}, last=True)
    s, events = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    assert G.is_over(s) and not G.to_act(s)
    over = of(events, "game_over")[0]
    # bag (5 + 2 eaten + 2 fat) + population 2 + 2 traits; bag 9 + 3 eaten + 3 + 1 trait
    assert [x["total"] for x in over["scores"]] == [13, 16, 0]
    assert [r["player"] for r in s.result][:2] == [1, 0]
    assert G.returns(s)[0]["player"] == 1


def test_ties_go_to_more_traits_then_more_population_then_share():
    from engine.climate.rules import ranking

    s = build(3, rows={0: [{"traits": ["horns", "climbing"], "pop": 1}],
                       1: [{"traits": ["horns"], "pop": 2}],
                       2: [{"traits": ["horns"], "pop": 2}]}, bags={0: 3, 1: 3, 2: 3})
    rows = ranking(s)
    assert [(r["player"], r["rank"], r["score"]) for r in rows] == [(0, 1, 6), (1, 2, 6),
                                                                   (2, 2, 6)]
    s = build(3, rows={0: [{"traits": ["horns"], "pop": 1}],
                       1: [{"traits": ["horns"], "pop": 3}]}, bags={0: 2})
    assert [r["player"] for r in ranking(s)][:2] == [1, 0]


def test_standings_before_the_end_show_public_points_only():
    s = build(3, rows={0: [{"traits": ["horns"], "pop": 2}], 1: [{"pop": 1}]},
              bags={1: 50})
    rows = G.returns(s)
    assert rows[0]["player"] == 0 and rows[0]["score"] == 3 and rows[0]["food"] is None
    assert "50" not in json.dumps(rows)


# --- saves ------------------------------------------------------------------------------------------

def test_damaged_states_are_refused_at_load():
    s = build(3, rows={0: [{"traits": ["fat_tissue"], "body": 2, "pop": 2, "fat": 1}]}, wh=2)
    data = G.to_json(s)
    assert G.from_json(json.loads(json.dumps(data))) == s
    for mutate in (
        lambda d: d["rows"][0][0].update(pop=0),
        lambda d: d["rows"][0][0].update(pop=7),
        lambda d: d["rows"][0][0].update(fat=3),
        lambda d: d["rows"][0][0].update(food=3),
        lambda d: d["deck"].pop(),
        lambda d: d["deck"].append(d["deck"][0]),
        lambda d: d["hands"][0].append("dodo-1"),
        lambda d: d.update(wh=-1),
        lambda d: d.update(zone=9),
        lambda d: d.update(phase="lunch"),
        lambda d: d.update(current=3),
        lambda d: d["event_decks"]["cold"].append("meteor-2"),
        lambda d: d.update(options={"events": True}),
        lambda d: d["rows"][0][0].update(id=2001),
        lambda d: d.update(result=[]),
    ):
        bad = json.loads(json.dumps(data))
        mutate(bad)
        with pytest.raises(CorruptState):
            G.from_json(bad)


def test_check_action_refuses_malformed_actions_before_the_rules():
    for bad, code in (
        ({"type": "feed"}, "bad_action"),
        ({"type": "feed", "species": "1"}, "bad_action"),
        ({"type": "attack", "species": 1, "target": 2, "discard": 3}, "bad_action"),
        ({"type": "attack", "species": 1, "target": 2, "sneak": "x"}, "bad_action"),
        ({"type": "fly"}, "unknown_action"),
        ("pass", "bad_action"),
    ):
        with pytest.raises(IllegalAction) as info:
            G.check_action(bad)
        assert info.value.code == code
    G.check_action({"type": "attack", "species": 1, "target": 2, "discard": "x",
                    "ignore": "horns"})


def test_wrong_phase_and_game_over():
    s = build(3, rows={0: [{"pop": 2}]}, wh=1)
    illegal(s, 0, {"type": "done"}, "wrong_phase")
    illegal(s, 1, {"type": "pass"}, "not_your_turn")
    s = build(3, rows={0: [{"pop": 1}]}, wh=1, last=True)
    s, _ = act(s, 0, {"type": "feed", "species": sid(s, 0, 0)})
    illegal(s, 0, {"type": "pass"}, "game_over")


def test_every_zone_named_in_the_rulebook_is_on_the_track():
    for z in ("ice_age", "freezing", "cold", "temperate", "tropical", "hot", "scorching"):
        assert z in ZONE_INDEX
    assert ZONES[0] == "ice_age" and ZONES[-1] == "scorching"
