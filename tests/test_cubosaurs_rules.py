"""Cubosaurs rules, checked against the rulebook (Italian, shared/rules/seeds/001_*).

Positions are built with ``engine.cubosaurs.scenario`` and played through real actions
(``CUBOSAURS.apply_action``). Expected scores are written out from the rulebook's numbers
(T-Rex +4/+1/−2/−5, three Brontosaurus +5, one Pentaceratops −3, Pterodactyl −1, the
Pentaceratops egg +3/−3, the Stegosaurus egg +4/−3, raptor pairs) or from the values the
project chose and documented in docs/rules-decisions.md, never from the engine's output.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from engine import IllegalAction, Seat
from engine.core import CorruptState
from engine.cubosaurs import CUBOSAURS as G
from engine.cubosaurs import check_invariants, scenario
from engine.cubosaurs.data import CARDS, SPECIES, TILES, TYPES, card, rules_data, tile
from engine.cubosaurs.scoring import breakdown, raptor_points

ALL_TILES = ["type_bonus", "egg_bonus", "draw", "free_pass", "forbidden", "destroy_own",
             "destroy_other", "steal", "give", "swap"]
INTERACTIVE = {"destroy_other", "steal", "give", "swap"}
PARTS = ["trex", "stego", "bronto", "ptero", "penta", "raptors", "eggs", "tiles"]


# --- helpers ---------------------------------------------------------------------------------

def seats(n: int) -> list[Seat]:
    return [Seat(f"s{i}", f"Seat {i}") for i in range(n)]


def act(state, player, action, observer=None):
    return G.apply_action(state, player, action, observer)


def of(events, kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def illegal(state, player, action, code: str) -> IllegalAction:
    before = json.dumps(G.to_json(state), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        G.apply_action(state, player, action)
    assert info.value.code == code, info.value
    assert json.dumps(G.to_json(state), sort_keys=True) == before
    return info.value


def raptor(colour: str, value: int, skip: tuple[str, ...] = ()) -> str:
    """A Velociraptor card of that colour printed with that value."""
    for cid in CARDS:
        c = card(cid)
        if c.type == colour and c.value == value and cid not in skip:
            return cid
    raise AssertionError(f"no {colour} raptor worth {value}")


def bd(total: int) -> dict:
    """A breakdown worth ``total`` (for the scores of rounds already played)."""
    return {"trex": total, "stego": 0, "bronto": 0, "ptero": 0, "penta": 0, "raptors": 0,
            "eggs": 0, "tiles": 0, "total": total}


def totals(scores: list[dict]) -> list[int]:
    return [b["total"] for b in scores]


def dna(players: int = 3, offer=None, tokens=None, **kw):
    """An advanced position where player 0 is to act with 10 tokens (unless told)."""
    if tokens is None:
        tokens = {p: 10 for p in range(players)}
    kw.setdefault("current", 0)
    return scenario(players, advanced=True, offer=offer if offer is not None else [],
                    tokens=tokens, **kw)


def random_game(seed: int, n: int, options: dict, rnd: random.Random | None = None):
    rnd = rnd or random.Random(seed)
    state, events = G.new_game_with_events(seats(n), seed, options)
    while not G.is_over(state):
        (p,) = G.to_act(state)
        state, ev = G.apply_action(state, p, rnd.choice(G.legal_actions(state, p)))
        events += ev
    return state, events


# --- the box ---------------------------------------------------------------------------------

def test_box_has_55_cards_of_8_types():
    assert len(CARDS) == 55 and len(set(CARDS)) == 55
    assert TYPES == ("trex", "stego", "bronto", "ptero", "penta", "grey", "black", "egg")
    count = Counter(card(c).type for c in CARDS)
    assert count == {"trex": 7, "stego": 7, "bronto": 7, "ptero": 7, "penta": 7, "grey": 7,
                     "black": 7, "egg": 6}
    assert sorted(c for c in CARDS if card(c).type == "egg") == sorted(
        f"egg-{s}" for s in ("trex", "stego", "bronto", "ptero", "penta", "raptor"))
    assert SPECIES == ("trex", "stego", "bronto", "ptero", "penta")
    assert len(TILES) == 10 and list(TILES) == ALL_TILES


def test_known_values_of_the_rulebook():
    d = rules_data()
    assert d["species"]["trex"] == [4, 1, -2, -5]
    assert d["species"]["bronto"][2] == 5
    assert d["species"]["penta"][0] == -3
    assert set(d["species"]["ptero"]) == {-1}
    assert (card("egg-stego").plus, card("egg-stego").minus) == (4, -3)
    assert (card("egg-penta").plus, card("egg-penta").minus) == (3, -3)
    assert d["dna"]["tokens"] == 40
    assert d["setup"]["cards_per_player"] == 10 and d["setup"]["start_cards"] == 4


def test_chosen_values_are_the_documented_ones():
    """The values the rulebook shows only in pictures: the spec's choices."""
    d = rules_data()
    assert d["species"] == {"trex": [4, 1, -2, -5], "stego": [1, 3, 4, 5],
                            "bronto": [1, 2, 5, -1], "ptero": [-1, -1, -1, -1],
                            "penta": [-3, 1, 5, 9]}
    assert [card(f"grey-{k}").value for k in range(1, 8)] == [1, 1, 2, 2, 3, 3, 4]
    assert [card(f"black-{k}").value for k in range(1, 8)] == [1, 1, 2, 2, 3, 3, 4]
    eggs = {card(c).species: (card(c).plus, card(c).minus) for c in CARDS if card(c).type == "egg"}
    assert eggs == {"trex": (3, -2), "stego": (4, -3), "bronto": (3, -2), "ptero": (4, -2),
                    "penta": (3, -3), "raptor": (4, -3)}
    with_dna = {c for c in CARDS if card(c).dna}
    expected = {f"ptero-{k}" for k in range(1, 8)} | {
        f"{t}-{k}" for t in ("trex", "stego", "bronto", "penta", "grey", "black") for k in (1, 2)}
    assert with_dna == expected and len(with_dna) == 19
    costs = {t: (tile(t).cost, tile(t).timing, tile(t).interactive) for t in TILES}
    assert costs == {
        "type_bonus": (3, "end", False), "egg_bonus": (2, "end", False),
        "draw": (1, "instant", False), "free_pass": (2, "instant", False),
        "forbidden": (2, "instant", False), "destroy_own": (2, "instant", False),
        "destroy_other": (3, "instant", True), "steal": (4, "instant", True),
        "give": (3, "instant", True), "swap": (4, "instant", True)}


# --- scoring ---------------------------------------------------------------------------------

@pytest.mark.parametrize("species, table", [
    ("trex", [4, 1, -2, -5]), ("stego", [1, 3, 4, 5]), ("bronto", [1, 2, 5, -1]),
    ("ptero", [-1, -1, -1, -1]), ("penta", [-3, 1, 5, 9])])
def test_species_tables_by_number_of_copies(species, table):
    for k in range(0, 8):
        cols = [[f"{species}-{i}" for i in range(1, k + 1)], []]
        b = breakdown(cols, 0)
        expected = 0 if k == 0 else table[min(k, 4) - 1]
        assert b[species] == expected, (species, k)
        assert b["total"] == expected


def test_mr_hammond_scores_3():
    black2 = raptor("black", 2)
    grey3 = raptor("grey", 3)
    grey1 = raptor("grey", 1)
    hammond = ["bronto-1", "bronto-2", "bronto-3", "penta-1", "egg-penta", black2, grey3, grey1]
    opponent = ["penta-2", "penta-3"]
    b = breakdown([hammond, opponent], 0)
    assert b["bronto"] == 5       # three Brontosaurus
    assert b["penta"] == -3       # one Pentaceratops
    assert b["eggs"] == -3        # an opponent has two Pentaceratops
    assert b["raptors"] == 4      # black 2 + grey 3 pair = +5, lone grey 1 = -1
    assert b["total"] == 3
    assert b["total"] == sum(b[k] for k in PARTS)


def test_mr_hammond_with_two_pentaceratops_the_egg_gives_3():
    hammond = ["bronto-1", "bronto-2", "bronto-3", "penta-1", "penta-4", "egg-penta"]
    b = breakdown([hammond, ["penta-2", "penta-3"]], 0)
    assert b["eggs"] == 3


def test_raptor_pair_and_lone_raptor_of_the_rulebook():
    assert raptor_points([3], [2]) == 5
    assert raptor_points([], [2]) == -2
    assert raptor_points([3, 1], [2]) == 4
    assert raptor_points([], []) == 0


def _best_pairing(greys: list[int], blacks: list[int]) -> int:
    """Every way to pair the cards (brute force): the best score."""
    best = None
    for k in range(0, min(len(greys), len(blacks)) + 1):
        for gs in itertools.combinations(range(len(greys)), k):
            for bs in itertools.permutations(range(len(blacks)), k):
                paired = sum(greys[i] for i in gs) + sum(blacks[j] for j in bs)
                alone = sum(g for i, g in enumerate(greys) if i not in gs) + sum(
                    b for j, b in enumerate(blacks) if j not in bs)
                score = paired - alone
                best = score if best is None else max(best, score)
    return best


def test_raptor_pairing_is_the_best_one():
    rnd = random.Random(5)
    for _ in range(300):
        greys = [rnd.choice([1, 1, 2, 2, 3, 3, 4]) for _ in range(rnd.randrange(0, 5))]
        blacks = [rnd.choice([1, 1, 2, 2, 3, 3, 4]) for _ in range(rnd.randrange(0, 5))]
        assert raptor_points(greys, blacks) == _best_pairing(greys, blacks), (greys, blacks)


def test_raptors_in_a_collection_use_the_printed_values():
    g4, b1, b2 = raptor("grey", 4), raptor("black", 1), raptor("black", 2)
    # grey 4 pairs with black 2 (+6), black 1 alone (-1)
    assert breakdown([[g4, b1, b2]], 0)["raptors"] == 5


def test_egg_ties_count_as_the_majority():
    # Stegosaurus egg +4/-3: two stegos each
    me = ["stego-1", "stego-2", "egg-stego"]
    assert breakdown([me, ["stego-3", "stego-4"], ["stego-5"]], 0)["eggs"] == 4
    assert breakdown([me, ["stego-3", "stego-4", "stego-5"]], 0)["eggs"] == -3


def test_egg_needs_at_least_one_card_of_its_species():
    # nobody has a Stegosaurus: the egg's owner is not "the player with the most"
    assert breakdown([["egg-stego"], ["trex-1"]], 0)["eggs"] == -3
    assert breakdown([["egg-stego", "stego-1"], []], 0)["eggs"] == 4


def test_raptor_egg_counts_grey_and_black():
    plus, minus = card("egg-raptor").plus, card("egg-raptor").minus
    me = ["egg-raptor", "grey-1", "black-1"]
    assert breakdown([me, ["grey-2", "grey-3"]], 0)["eggs"] == plus        # 2 vs 2
    assert breakdown([me, ["grey-2", "black-3", "grey-4"]], 0)["eggs"] == minus  # 2 vs 3
    assert breakdown([me, ["grey-2"]], 0)["eggs"] == plus
    # the raptors count whether paired or alone
    assert breakdown([me + ["black-2"], ["grey-2", "black-3", "grey-4"]], 0)["eggs"] == plus


def test_end_tiles_score():
    cols = [["trex-1", "grey-1", "black-1", "egg-trex", "egg-stego", "egg-penta"], []]
    # types: trex, grey, black, egg = 4
    assert breakdown(cols, 0, ["type_bonus"])["tiles"] == 4
    # 3 eggs, +2 each
    assert breakdown(cols, 0, ["egg_bonus"])["tiles"] == 6
    assert breakdown(cols, 0, ["type_bonus", "egg_bonus"])["tiles"] == 10
    # instant tiles score nothing
    assert breakdown(cols, 0, ["steal", "draw"])["tiles"] == 0


# --- setup -----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_deals_the_round(n):
    state, events = G.new_game_with_events(seats(n), 11, {"advanced": True})
    first = of(events, "round_start")[0]["first"]
    assert of(events, "round_start")[0] == {
        "type": "round_start", "round": 1, "rounds": 3 if n == 2 else 2, "first": first,
        "direction": 1, "deck": 10 * n, "offer": state.offer}
    # 4 start cards each, dealt clockwise from the first player
    deals = of(events, "start_cards")
    assert [e["player"] for e in deals] == [(first + i) % n for i in range(n)]
    assert all(len(e["cards"]) == 4 for e in deals)
    assert [sorted(state.collections[e["player"]]) for e in deals] == [
        sorted(e["cards"]) for e in deals]
    # the first player has drawn
    assert of(events, "draw") == [{"type": "draw", "player": first, "card": state.hand[0]}]
    assert state.current == first and G.to_act(state) == [first]
    assert len(state.deck) == 10 * n - 4 * n - 1 and len(state.aside) == 55 - 10 * n
    # a token per DNA start card
    for p in range(n):
        assert state.tokens[p] == sum(card(c).dna for c in state.collections[p])
    assert state.reserve == 40 - sum(state.tokens)
    assert len(state.offer) == n + 1 and len(state.pile) == 10 - n - 1
    check_invariants(state)


def test_standard_game_has_no_dna_material():
    state, events = G.new_game_with_events(seats(3), 2)
    assert state.tokens == [0, 0, 0] and state.reserve == 40 and state.offer == []
    assert not of(events, "token")
    assert all(a["type"] in ("keep", "pass") for a in G.legal_actions(state, state.current))


def test_first_player_is_random_but_seeded():
    firsts = {G.new_game(seats(4), seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert G.new_game(seats(4), 8).first == G.new_game(seats(4), 8).first


def test_new_game_refuses_bad_tables():
    for n in (1, 6):
        with pytest.raises(IllegalAction) as err:
            G.new_game(seats(n), 1)
        assert err.value.code == "player_count" and err.value.params["count"] == n
    with pytest.raises(IllegalAction) as err:
        G.new_game([Seat("a", "A")] * 3, 1)
    assert err.value.code == "duplicate_seat"
    with pytest.raises(IllegalAction) as err:
        G.new_game(seats(3), 1, {"turbo": True})
    assert err.value.code == "unknown_option"


def test_game_object_contract():
    assert G.kind == "cubosaurs" and G.min_players == 2 and G.max_players == 5
    assert set(G.options) == {"advanced", "interactive"}
    assert all(isinstance(v, str) and v for v in G.options.values())


# --- the turn: the rulebook example ----------------------------------------------------------

def test_alan_ellie_ian_example():
    alan, ellie, ian = 0, 1, 2
    s = scenario(3, collections={alan: ["stego-3", "ptero-3", "black-3", "trex-3"],
                                 ellie: ["trex-5", "ptero-5", "stego-5", "egg-trex"],
                                 ian: ["bronto-1"]},
                 hand=[], current=alan, deck=["trex-4", "bronto-5", "penta-5"])
    # Alan has no hand: he draws (a T-Rex)
    assert s.hand == ["trex-4"] and s.hand_from is None and G.to_act(s) == [alan]
    # he may add the Stegosaurus, the Pterodactyl or the Black Velociraptor, not the T-Rex
    passes = {a["card"] for a in G.legal_actions(s, alan) if a["type"] == "pass"}
    assert passes == {"stego-3", "ptero-3", "black-3"}
    illegal(s, alan, {"type": "pass", "card": "trex-3"}, "type_in_hand")
    # he passes with the Pterodactyl
    s, ev = act(s, alan, {"type": "pass", "card": "ptero-3"})
    assert of(ev, "pass") == [{"type": "pass", "player": alan, "card": "ptero-3", "to": ellie,
                               "cards": ["trex-4", "ptero-3"], "tile": None}]
    assert "ptero-3" not in s.collections[alan]
    # Ellie receives both cards and does not draw
    assert of(ev, "draw") == []
    assert of(ev, "receive") == [{"type": "receive", "player": ellie, "from": alan,
                                  "cards": ["trex-4", "ptero-3"]}]
    assert s.hand == ["trex-4", "ptero-3"] and s.hand_from == alan and len(s.deck) == 2
    assert G.to_act(s) == [ellie]
    # she could pass adding anything but a T-Rex or a Pterodactyl
    passes = {a["card"] for a in G.legal_actions(s, ellie) if a["type"] == "pass"}
    assert passes == {"stego-5", "egg-trex"}
    # she keeps them
    s, ev = act(s, ellie, {"type": "keep"})
    assert of(ev, "keep") == [{"type": "keep", "player": ellie, "cards": ["trex-4", "ptero-3"]}]
    assert Counter(s.collections[ellie]) == Counter(
        ["trex-5", "ptero-5", "stego-5", "egg-trex", "trex-4", "ptero-3"])
    # Ian then has no hand and draws
    assert of(ev, "draw") == [{"type": "draw", "player": ian, "card": "bronto-5"}]
    assert s.hand == ["bronto-5"] and s.hand_from is None and G.to_act(s) == [ian]


def test_passing_needs_exactly_one_card_of_a_new_type():
    s = scenario(3, collections={0: ["egg-stego", "grey-2", "black-1", "trex-1"]},
                 hand=["egg-trex", "grey-1"], current=0)
    passes = {a["card"] for a in G.legal_actions(s, 0) if a["type"] == "pass"}
    # all eggs are one type; grey and black are two types
    assert passes == {"black-1", "trex-1"}
    illegal(s, 0, {"type": "pass", "card": "egg-stego"}, "type_in_hand")
    illegal(s, 0, {"type": "pass", "card": "grey-2"}, "type_in_hand")
    # one card, named: not a list, not none
    illegal(s, 0, {"type": "pass", "card": ["black-1", "trex-1"]}, "bad_action")
    illegal(s, 0, {"type": "pass"}, "bad_action")
    illegal(s, 0, {"type": "pass", "card": "black-1", "take": "trex-1"}, "bad_action")
    illegal(s, 0, {"type": "pass", "card": "stego-1"}, "not_in_collection")
    illegal(s, 0, {"type": "pass", "card": "dodo-1"}, "unknown_card")
    s2, ev = act(s, 0, {"type": "pass", "card": "black-1"})
    assert s2.hand == ["egg-trex", "grey-1", "black-1"] and s2.current == 1


def test_keep_is_the_only_choice_when_no_card_qualifies():
    s = scenario(3, collections={0: ["trex-1", "egg-penta"]}, hand=["trex-2", "egg-stego"],
                 current=0)
    assert G.legal_actions(s, 0) == [{"type": "keep"}]
    illegal(s, 0, {"type": "pass", "card": "trex-1"}, "must_keep")
    empty = scenario(3, collections={0: []}, hand=["trex-2"], current=0)
    assert G.legal_actions(empty, 0) == [{"type": "keep"}]
    illegal(empty, 0, {"type": "pass", "card": "trex-1"}, "must_keep")


def test_keep_adds_the_whole_hand():
    s = scenario(3, collections={0: ["stego-1"]}, hand=["trex-1", "ptero-1", "egg-trex"],
                 hand_from=2, current=0)
    s, ev = act(s, 0, {"type": "keep"})
    assert Counter(s.collections[0]) == Counter(["stego-1", "trex-1", "ptero-1", "egg-trex"])
    assert of(ev, "keep")[0]["cards"] == ["trex-1", "ptero-1", "egg-trex"]
    # no token in the standard game
    assert s.tokens == [0, 0, 0] and not of(ev, "token")


def test_wrong_player_and_junk_are_refused():
    s = scenario(3, hand=["trex-1"], current=0)
    err = illegal(s, 1, {"type": "keep"}, "not_your_turn")
    assert err.params == {"player": 1, "waiting": [0]}
    illegal(s, True, {"type": "keep"}, "not_your_turn")
    illegal(s, "0", {"type": "keep"}, "not_your_turn")
    illegal(s, 7, {"type": "keep"}, "not_your_turn")
    illegal(s, 0, {"type": "roar"}, "unknown_action")
    illegal(s, 0, {"type": None}, "bad_action")
    illegal(s, 0, "keep", "bad_action")
    illegal(s, 0, {"type": "keep", "card": "trex-2"}, "bad_action")
    illegal(s, 0, {"type": "buy", "tile": "draw"}, "not_advanced")
    illegal(s, 0, {"type": "take_token", "from": 1}, "no_debt")


# --- the end of a round ----------------------------------------------------------------------

def test_round_ends_at_once_when_a_player_must_draw_from_an_empty_deck():
    s = scenario(3, collections={0: ["trex-1"], 1: ["penta-1"], 2: ["trex-2"]},
                 hand=["ptero-1"], current=0, deck=[])
    seen = []
    s, ev = act(s, 0, {"type": "keep"}, observer=lambda st, m: seen.append(
        (m, st.round, [list(c) for c in st.collections])))
    kinds = [e["type"] for e in ev]
    # player 1 must draw: the round is scored at once, nobody draws before
    assert kinds[:2] == ["keep", "round_end"]
    end = of(ev, "round_end")[0]
    assert end["round"] == 1
    assert totals(end["scores"]) == [4 - 1, -3, 4]
    # the observer saw the scored round with the collections still on the table
    assert seen[0][0] == "round_end" and seen[0][1] == 1
    assert Counter(seen[0][2][0]) == Counter(["trex-1", "ptero-1"])
    assert seen[1][0] == "deal" and seen[1][1] == 2


def test_a_passed_hand_is_played_even_with_an_empty_deck():
    s = scenario(3, collections={0: ["trex-1", "stego-1"]}, hand=["ptero-1"], current=0,
                 deck=[])
    s, ev = act(s, 0, {"type": "pass", "card": "stego-1"})
    assert not of(ev, "round_end") and G.to_act(s) == [1]
    s, ev = act(s, 1, {"type": "keep"})
    assert of(ev, "round_end")


def test_round_2_lowest_scorer_starts_counter_clockwise():
    s = scenario(3, collections={0: ["trex-1"], 1: ["penta-1"], 2: ["trex-2"]},
                 hand=["ptero-1"], current=0, deck=[])
    s, ev = act(s, 0, {"type": "keep"})
    # scores 3, -3, 4: player 1 starts round 2, play goes counter-clockwise
    start = of(ev, "round_start")[-1]
    assert (start["round"], start["first"], start["direction"]) == (2, 1, -1)
    assert [e["player"] for e in of(ev, "start_cards")] == [1, 0, 2]
    assert s.round == 2 and s.direction == -1 and G.to_act(s) == [1]
    assert of(ev, "draw")[-1]["player"] == 1
    assert s.rounds == 2 and G.phase_name(s) == "round_2"
    # a pass goes counter-clockwise too
    passed, ev = act(s, 1, next(a for a in G.legal_actions(s, 1) if a["type"] == "pass"))
    assert of(ev, "pass")[0]["to"] == 0 and G.to_act(passed) == [0]
    # the new round: every card shuffled back, 4 start cards each, 30 - 12 - 1 left
    assert [len(c) for c in s.collections] == [4, 4, 4] and len(s.deck) == 30 - 12 - 1
    s, ev = act(s, 1, {"type": "keep"})
    assert G.to_act(s) == [0]
    s, ev = act(s, 0, {"type": "keep"})
    assert G.to_act(s) == [2]


def test_round_2_tie_is_drawn_among_the_lowest():
    firsts = set()
    for seed in range(30):
        s = scenario(3, seed, collections={0: ["penta-1"], 1: ["penta-2"], 2: ["trex-1"]},
                     hand=["trex-2"], current=2, deck=[])
        s, ev = act(s, 2, {"type": "keep"})
        assert totals(of(ev, "round_end")[0]["scores"]) == [-3, -3, 1]
        firsts.add(of(ev, "round_start")[-1]["first"])
    assert firsts == {0, 1}


def test_two_players_play_three_rounds_alternating_direction():
    state, events = random_game(4, 2, {})
    starts = of(events, "round_start")
    assert [(e["round"], e["rounds"], e["direction"]) for e in starts] == [
        (1, 3, 1), (2, 3, -1), (3, 3, 1)]
    assert [e["round"] for e in of(events, "round_end")] == [1, 2, 3]
    assert len(of(events, "game_over")) == 1 and G.phase_name(state) == "over"
    assert [r["score"] for r in G.returns(state)] == sorted(
        (sum(rd[p]["total"] for rd in state.scores) for p in range(2)), reverse=True)


def test_round_3_lowest_round_2_scorer_starts():
    s = scenario(2, round=2, scores=[[bd(0), bd(10)]],
                 collections={0: ["trex-1"], 1: ["trex-2"]}, hand=["ptero-1"], current=0,
                 deck=[])
    s, ev = act(s, 0, {"type": "keep"})
    assert totals(of(ev, "round_end")[0]["scores"]) == [3, 4]
    start = of(ev, "round_start")[-1]
    assert (start["round"], start["first"], start["direction"]) == (3, 0, 1)


@pytest.mark.parametrize("before, first", [((10, 0), 1), ((0, 10), 0)])
def test_round_3_tie_goes_to_the_lowest_total(before, first):
    s = scenario(2, round=2, scores=[[bd(before[0]), bd(before[1])]],
                 collections={0: ["trex-1"], 1: ["trex-2", "ptero-2"]}, hand=["ptero-1"],
                 current=0, deck=[])
    s, ev = act(s, 0, {"type": "keep"})
    assert totals(of(ev, "round_end")[0]["scores"]) == [3, 3]
    assert of(ev, "round_start")[-1]["first"] == first


def test_final_ranking_total_then_last_round_then_shared():
    # round 2 of 2; the round ends as the current player must draw from the empty deck
    s = scenario(4, round=2, scores=[[bd(5), bd(9), bd(10), bd(10)]],
                 collections={0: ["trex-1", "bronto-1", "bronto-2", "bronto-3"],
                              1: ["bronto-4", "bronto-5", "bronto-6"],
                              2: ["trex-2"], 3: ["trex-3"]},
                 hand=[], deck=[], current=0)
    assert G.is_over(s)
    # all four have 14 points; last round 9, 5, 4, 4
    rows = G.returns(s)
    assert [(r["player"], r["rank"], r["score"], r["last"]) for r in rows] == [
        (0, 1, 14, 9), (1, 2, 14, 5), (2, 3, 14, 4), (3, 3, 14, 4)]
    assert rows[0]["seat"] == "p0" and rows[0]["name"] == "Player 1"
    assert G.to_act(s) == [] and all(G.legal_actions(s, p) == [] for p in range(4))
    illegal(s, 0, {"type": "keep"}, "game_over")


def test_unspent_tokens_score_one_point_per_two():
    s = scenario(3, advanced=True, round=2, scores=[[bd(0)] * 3],
                 collections={0: [], 1: [], 2: []}, tokens={0: 5, 1: 4, 2: 3},
                 hand=[], deck=[], current=0)
    assert G.is_over(s)
    rows = {r["player"]: r for r in G.returns(s)}
    assert (rows[0]["score"], rows[1]["score"], rows[2]["score"]) == (2, 2, 1)
    assert rows[0]["rank"] == rows[1]["rank"] == 1 and rows[2]["rank"] == 3
    v = G.view(s, None)
    assert [p["total"] for p in v["players"]] == [2, 2, 1]


def test_observer_sees_each_deal_and_each_round_end():
    seen = []

    def observer(state, moment):
        seen.append(moment)
        if moment == "deal":
            assert [len(c) for c in state.collections] == [4] * state.n
            assert state.hand == [] and len(state.deck) == 6 * state.n
            assert len(state.scores) == state.round - 1
        else:
            assert len(state.scores) == state.round
            assert state.scores[-1] == [breakdown(state.collections, p, state.tiles[p])
                                        for p in range(state.n)]

    state, _ = G.new_game_with_events(seats(3), 3, {"advanced": True}, observer)
    rnd = random.Random(3)
    while not G.is_over(state):
        (p,) = G.to_act(state)
        state, _ = G.apply_action(state, p, rnd.choice(G.legal_actions(state, p)), observer)
    assert seen == ["deal", "round_end", "deal", "round_end"]


def test_returns_during_a_round_counts_the_round_so_far():
    s = scenario(3, collections={0: ["trex-1"], 1: ["penta-1"], 2: []}, hand=["ptero-1"],
                 current=0)
    rows = {r["player"]: r for r in G.returns(s)}
    assert (rows[0]["score"], rows[1]["score"], rows[2]["score"]) == (4, -3, 0)
    assert G.phase_name(s) == "round_1"


# --- DNA tiles -------------------------------------------------------------------------------

def test_buying_pays_the_cost_into_the_reserve():
    s = dna(offer=["type_bonus", "steal", "draw", "give"], hand=["trex-1"],
            collections={0: ["trex-2"], 1: [], 2: []}, deck=["stego-4"])
    reserve = s.reserve
    s, ev = act(s, 0, {"type": "buy", "tile": "type_bonus"})
    assert of(ev, "buy") == [{"type": "buy", "player": 0, "tile": "type_bonus", "cost": 3}]
    assert s.tokens[0] == 7 and s.reserve == reserve + 3
    assert s.offer == ["steal", "draw", "give"] and s.tiles[0] == ["type_bonus"]
    # the turn goes on; once per turn
    assert G.to_act(s) == [0] and s.bought
    assert all(a["type"] != "buy" for a in G.legal_actions(s, 0))
    illegal(s, 0, {"type": "buy", "tile": "draw"}, "already_bought")
    # the next turn may buy again
    s, _ = act(s, 0, {"type": "keep"})
    assert G.to_act(s) == [1] and not s.bought
    assert any(a["type"] == "buy" for a in G.legal_actions(s, 1))


def test_buy_refusals():
    s = dna(offer=["steal", "draw"], tokens={0: 1, 1: 10, 2: 10}, hand=["trex-1"],
            collections={0: ["trex-2"], 1: ["stego-1"], 2: []}, deck=["stego-4"])
    illegal(s, 0, {"type": "buy", "tile": "free_pass"}, "tile_not_offered")
    illegal(s, 0, {"type": "buy", "tile": "teleport"}, "unknown_tile")
    illegal(s, 0, {"type": "buy"}, "bad_action")
    err = illegal(s, 0, {"type": "buy", "tile": "steal", "target": 1, "card": "stego-1"},
                  "not_enough_tokens")
    assert err.params == {"tile": "steal", "cost": 4, "tokens": 1}
    illegal(s, 0, {"type": "buy", "tile": "draw", "card": "trex-2"}, "bad_action")
    assert {a["tile"] for a in G.legal_actions(s, 0) if a["type"] == "buy"} == {"draw"}


def test_interactive_off_leaves_out_the_four_interactive_tiles():
    for seed in range(20):
        n = 2 + seed % 4
        s = G.new_game(seats(n), seed, {"advanced": True, "interactive": False})
        assert Counter(s.offer + s.pile) == Counter(t for t in ALL_TILES if t not in INTERACTIVE)
        assert len(s.offer) == n + 1
    on = G.new_game(seats(3), 1, {"advanced": True})
    assert Counter(on.offer + on.pile) == Counter(ALL_TILES)
    state, events = random_game(2, 5, {"advanced": True, "interactive": False})
    assert not {e["tile"] for e in of(events, "buy")} & INTERACTIVE


def test_type_bonus_scores_each_type_at_the_round_end():
    s = dna(offer=["type_bonus"], hand=["ptero-1"], deck=[],
            collections={0: ["trex-1", "grey-1", "black-1", "egg-trex", "egg-stego"], 1: [],
                         2: []})
    s, _ = act(s, 0, {"type": "buy", "tile": "type_bonus"})
    s, ev = act(s, 0, {"type": "keep"})
    # trex, grey, black, egg (two eggs, one type), ptero
    assert of(ev, "round_end")[0]["scores"][0]["tiles"] == 5
    assert of(ev, "round_end")[0]["scores"][1]["tiles"] == 0


def test_egg_bonus_scores_two_per_egg():
    s = dna(offer=["egg_bonus"], hand=["trex-1"], deck=[],
            collections={0: ["egg-trex", "egg-stego", "egg-penta"], 1: [], 2: []})
    s, _ = act(s, 0, {"type": "buy", "tile": "egg_bonus"})
    s, ev = act(s, 0, {"type": "keep"})
    assert of(ev, "round_end")[0]["scores"][0]["tiles"] == 6


def test_draw_tile_adds_a_card_of_any_type_and_the_turn_goes_on():
    s = dna(offer=["draw"], hand=["trex-1"], deck=["trex-2", "stego-4"],
            collections={0: ["trex-3", "bronto-1"], 1: [], 2: []})
    s, ev = act(s, 0, {"type": "buy", "tile": "draw"})
    assert of(ev, "tile") == [{"type": "tile", "player": 0, "tile": "draw", "card": "trex-2"}]
    assert s.hand == ["trex-1", "trex-2"] and s.deck == ["stego-4"]
    assert G.to_act(s) == [0]
    # passing still needs a card of another type
    assert {a["card"] for a in G.legal_actions(s, 0) if a["type"] == "pass"} == {"bronto-1"}
    empty = dna(offer=["draw"], hand=["trex-1"], deck=[])
    illegal(empty, 0, {"type": "buy", "tile": "draw"}, "deck_empty")
    assert not [a for a in G.legal_actions(empty, 0) if a["type"] == "buy"]


def test_free_pass_passes_without_adding_a_card():
    s = dna(offer=["free_pass"], hand=["trex-1"], deck=["stego-4"],
            collections={0: ["bronto-1"], 1: [], 2: []})
    s, ev = act(s, 0, {"type": "buy", "tile": "free_pass"})
    assert of(ev, "pass") == [{"type": "pass", "player": 0, "card": None, "to": 1,
                               "cards": ["trex-1"], "tile": "free_pass"}]
    assert s.collections[0] == ["bronto-1"] and s.hand == ["trex-1"] and s.hand_from == 0
    assert G.to_act(s) == [1] and s.deck == ["stego-4"] and not of(ev, "draw")


def test_forbidden_passes_with_a_card_of_a_type_in_the_hand():
    s = dna(offer=["forbidden"], hand=["trex-1"], collections={0: ["trex-2", "stego-1"]})
    assert [a for a in G.legal_actions(s, 0) if a["type"] == "buy"] == [
        {"type": "buy", "tile": "forbidden", "card": "trex-2"}]
    illegal(s, 0, {"type": "buy", "tile": "forbidden", "card": "stego-1"}, "not_in_hand_types")
    illegal(s, 0, {"type": "buy", "tile": "forbidden", "card": "trex-4"}, "not_in_collection")
    illegal(s, 0, {"type": "buy", "tile": "forbidden"}, "bad_action")
    s2, ev = act(s, 0, {"type": "buy", "tile": "forbidden", "card": "trex-2"})
    assert of(ev, "pass")[0]["cards"] == ["trex-1", "trex-2"]
    assert s2.collections[0] == ["stego-1"] and G.to_act(s2) == [1]
    useless = dna(offer=["forbidden"], hand=["trex-1"], collections={0: ["stego-1"]})
    illegal(useless, 0, {"type": "buy", "tile": "forbidden", "card": "stego-1"}, "tile_useless")


def test_destroy_own_sets_the_card_aside_and_the_turn_goes_on():
    s = dna(offer=["destroy_own"], hand=["trex-1"], collections={0: ["penta-1", "stego-1"]})
    aside = len(s.aside)
    s, ev = act(s, 0, {"type": "buy", "tile": "destroy_own", "card": "penta-1"})
    assert s.collections[0] == ["stego-1"] and "penta-1" in s.aside and len(s.aside) == aside + 1
    assert of(ev, "tile") == [{"type": "tile", "player": 0, "tile": "destroy_own",
                               "card": "penta-1"}]
    assert G.to_act(s) == [0] and s.hand == ["trex-1"]
    other = dna(offer=["destroy_own"], hand=["trex-1"], collections={0: ["stego-1"],
                                                                      1: ["penta-1"]})
    illegal(other, 0, {"type": "buy", "tile": "destroy_own", "card": "penta-1"},
            "not_in_collection")
    empty = dna(offer=["destroy_own"], hand=["trex-1"], collections={0: []})
    illegal(empty, 0, {"type": "buy", "tile": "destroy_own", "card": "penta-1"}, "tile_useless")


def test_destroy_other_sets_an_opponents_card_aside():
    s = dna(offer=["destroy_other"], hand=["trex-1"],
            collections={0: ["stego-1"], 1: ["penta-1"], 2: []})
    assert [a for a in G.legal_actions(s, 0) if a["type"] == "buy"] == [
        {"type": "buy", "tile": "destroy_other", "card": "penta-1", "target": 1}]
    illegal(s, 0, {"type": "buy", "tile": "destroy_other", "target": 0, "card": "stego-1"},
            "bad_target")
    illegal(s, 0, {"type": "buy", "tile": "destroy_other", "target": 3, "card": "penta-1"},
            "bad_target")
    illegal(s, 0, {"type": "buy", "tile": "destroy_other", "target": 2, "card": "penta-1"},
            "not_in_collection")
    illegal(s, 0, {"type": "buy", "tile": "destroy_other", "target": "1", "card": "penta-1"},
            "bad_action")
    s2, ev = act(s, 0, {"type": "buy", "tile": "destroy_other", "target": 1, "card": "penta-1"})
    assert s2.collections[1] == [] and "penta-1" in s2.aside and G.to_act(s2) == [0]
    assert of(ev, "tile")[0] == {"type": "tile", "player": 0, "tile": "destroy_other",
                                 "card": "penta-1", "target": 1}
    nobody = dna(offer=["destroy_other"], hand=["trex-1"], collections={0: ["stego-1"], 1: [],
                                                                         2: []})
    illegal(nobody, 0, {"type": "buy", "tile": "destroy_other", "target": 1, "card": "stego-1"},
            "tile_useless")


def test_steal_takes_a_card_and_its_dna_token():
    s = dna(offer=["steal"], hand=["trex-1"], collections={0: [], 1: ["ptero-2"], 2: []})
    reserve = s.reserve
    s, ev = act(s, 0, {"type": "buy", "tile": "steal", "target": 1, "card": "ptero-2"})
    assert s.collections[0] == ["ptero-2"] and s.collections[1] == []
    # 10 - 4 + 1 (the Pterodactyl has the DNA symbol)
    assert s.tokens[0] == 7 and s.reserve == reserve + 4 - 1
    assert of(ev, "token") == [{"type": "token", "player": 0, "count": 1, "from": None}]
    assert G.to_act(s) == [0]


def test_give_puts_a_card_in_an_opponents_collection():
    s = dna(offer=["give"], hand=["trex-1"], collections={0: ["ptero-2", "penta-1"], 1: [],
                                                          2: []})
    s, ev = act(s, 0, {"type": "buy", "tile": "give", "card": "ptero-2", "target": 2})
    assert s.collections[0] == ["penta-1"] and s.collections[2] == ["ptero-2"]
    assert s.tokens == [7, 10, 11]
    assert of(ev, "token") == [{"type": "token", "player": 2, "count": 1, "from": None}]
    illegal(dna(offer=["give"], hand=["trex-1"], collections={0: []}), 0,
            {"type": "buy", "tile": "give", "card": "ptero-2", "target": 2}, "tile_useless")
    illegal(dna(offer=["give"], hand=["trex-1"], collections={0: ["ptero-2"]}), 0,
            {"type": "buy", "tile": "give", "card": "ptero-2", "target": 0}, "bad_target")


def test_swap_exchanges_two_cards():
    s = dna(offer=["swap"], hand=["trex-1"], collections={0: ["ptero-2"], 1: ["trex-5"], 2: []})
    acts = [a for a in G.legal_actions(s, 0) if a["type"] == "buy"]
    assert acts == [{"type": "buy", "tile": "swap", "card": "ptero-2", "target": 1,
                     "take": "trex-5"}]
    illegal(s, 0, {"type": "buy", "tile": "swap", "card": "trex-5", "target": 1,
                   "take": "ptero-2"}, "not_in_collection")
    illegal(s, 0, {"type": "buy", "tile": "swap", "card": "ptero-2", "target": 1},
            "bad_action")
    s, ev = act(s, 0, acts[0])
    assert s.collections[0] == ["trex-5"] and s.collections[1] == ["ptero-2"]
    assert s.tokens == [6, 11, 10]
    illegal(dna(offer=["swap"], hand=["trex-1"], collections={0: ["ptero-2"], 1: [], 2: []}),
            0, {"type": "buy", "tile": "swap", "card": "ptero-2", "target": 1,
                "take": "trex-5"}, "tile_useless")


def test_tiles_on_offer_after_a_round():
    s = dna(offer=["draw", "steal", "give", "swap"], tiles={0: ["type_bonus"], 1: ["egg_bonus"]},
            hand=["trex-1"], deck=["trex-7"], collections={0: [], 1: [], 2: []})
    s, _ = act(s, 0, {"type": "buy", "tile": "draw"})
    assert s.offer == ["steal", "give", "swap"]
    s, ev = act(s, 0, {"type": "keep"})
    assert s.round == 2
    # the unsold tiles stay, one more from the reshuffled pile + bought tiles
    assert s.offer[:3] == ["steal", "give", "swap"] and len(s.offer) == 4
    assert Counter(s.offer + s.pile) == Counter(ALL_TILES)
    assert s.tiles == [[], [], []]
    assert of(ev, "round_start")[-1]["offer"] == s.offer


# --- DNA tokens when the reserve is empty ----------------------------------------------------

def test_empty_reserve_one_opponent_with_tokens_is_automatic():
    s = dna(tokens={0: 0, 1: 40, 2: 0}, hand=["ptero-1"], collections={0: []})
    assert s.reserve == 0
    s, ev = act(s, 0, {"type": "keep"})
    assert of(ev, "token") == [{"type": "token", "player": 0, "count": 1, "from": 1}]
    assert s.tokens == [1, 39, 0] and G.to_act(s) == [1]


def test_empty_reserve_several_opponents_the_player_chooses():
    s = dna(players=4, tokens={0: 0, 1: 20, 2: 20, 3: 0}, hand=["ptero-1", "ptero-2"],
            hand_from=3, collections={0: []})
    s, ev = act(s, 0, {"type": "keep"})
    assert of(ev, "token_choice") == [{"type": "token_choice", "player": 0, "count": 2,
                                       "from": [1, 2]}]
    assert not of(ev, "draw")
    assert G.to_act(s) == [0] and s.debts == [[0, 2]]
    assert G.legal_actions(s, 0) == [{"type": "take_token", "from": 1},
                                     {"type": "take_token", "from": 2}]
    assert G.view(s, None)["debt"] == {"player": 0, "count": 2}
    illegal(s, 0, {"type": "keep"}, "take_token_first")
    illegal(s, 1, {"type": "keep"}, "not_your_turn")
    illegal(s, 0, {"type": "take_token", "from": 0}, "bad_target")
    illegal(s, 0, {"type": "take_token", "from": 3}, "no_tokens_there")
    illegal(s, 0, {"type": "take_token"}, "bad_action")
    s, ev = act(s, 0, {"type": "take_token", "from": 2})
    assert ev == [{"type": "token", "player": 0, "count": 1, "from": 2}]
    assert s.tokens == [1, 20, 19, 0] and G.to_act(s) == [0]
    s, ev = act(s, 0, {"type": "take_token", "from": 1})
    assert s.tokens == [2, 19, 19, 0] and not s.debts
    # then play goes on: the next player draws
    assert of(ev, "draw")[0]["player"] == 1 and G.to_act(s) == [1]


def test_empty_reserve_no_opponent_with_tokens_the_token_is_lost():
    s = dna(tokens={0: 40, 1: 0, 2: 0}, hand=["ptero-1"], collections={0: []})
    s, ev = act(s, 0, {"type": "keep"})
    assert of(ev, "token_lost") == [{"type": "token_lost", "player": 0, "count": 1}]
    assert s.tokens == [40, 0, 0] and G.to_act(s) == [1]


def test_reserve_running_out_part_way():
    s = dna(tokens={0: 0, 1: 39, 2: 0}, hand=["ptero-1", "ptero-2"], collections={0: []})
    assert s.reserve == 1
    s, ev = act(s, 0, {"type": "keep"})
    assert of(ev, "token") == [{"type": "token", "player": 0, "count": 1, "from": None},
                               {"type": "token", "player": 0, "count": 1, "from": 1}]
    assert s.tokens == [2, 38, 0] and s.reserve == 0


# --- save, view, determinize -----------------------------------------------------------------

def test_json_round_trip_and_corrupt_saves():
    s = dna(offer=["steal"], hand=["trex-1"], collections={0: [], 1: ["ptero-2"], 2: []})
    data = json.loads(json.dumps(G.to_json(s)))
    assert G.from_json(data) == s
    for key, value in (("version", 2), ("kind", "evo")):
        with pytest.raises(CorruptState):
            G.from_json(dict(data, **{key: value}))
    broken = json.loads(json.dumps(data))
    broken["deck"].append(broken["collections"][1][0])  # a card twice
    with pytest.raises(CorruptState):
        G.from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["tokens"][0] += 1  # a token out of nowhere
    with pytest.raises(CorruptState):
        G.from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["offer"].append("steal")
    with pytest.raises(CorruptState):
        G.from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["current"] = 9
    with pytest.raises(CorruptState):
        G.from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["collections"] = [["x"]]
    with pytest.raises(CorruptState):
        G.from_json(broken)


def test_check_invariants_catches_a_lost_card():
    s = scenario(3, hand=["trex-1"], current=0)
    s.collections[1].pop()
    with pytest.raises(CorruptState):
        check_invariants(s)


def test_view_format():
    s = dna(offer=["steal", "draw"], hand=["trex-1", "ptero-3"], hand_from=2,
            collections={0: ["stego-2", "trex-3"], 1: ["penta-1"], 2: []}, turn=7)
    v = G.view(s, 1)
    for key in ("kind", "round", "rounds", "turn", "direction", "first", "current", "awaiting",
                "over", "viewer", "deck", "aside", "hand", "hand_from", "advanced",
                "interactive", "reserve", "offer", "pile", "bought", "debt", "players",
                "last_scores", "result"):
        assert key in v, key
    assert v["kind"] == "cubosaurs" and v["viewer"] == 1 and v["awaiting"] == [0]
    assert v["hand"] == ["trex-1", "ptero-3"] and v["hand_from"] == 2 and v["turn"] == 7
    assert v["deck"] == len(s.deck) and v["aside"] == len(s.aside) and v["pile"] == 8
    assert v["offer"] == ["steal", "draw"] and v["debt"] is None and v["result"] is None
    row = v["players"][0]
    assert row["collection"] == ["trex-3", "stego-2"]  # in card order
    assert row["name"] == "Player 1" and row["id"] == "p0" and row["tokens"] == 10
    assert row["score"]["trex"] == 4 and row["rounds"] == [] and row["total"] == 0
    assert json.loads(json.dumps(v)) == v
    assert dict(v, viewer=None) == G.view(s, None)


def test_determinize_keeps_the_view_and_reshuffles_the_hidden_cards():
    s = G.new_game(seats(4), 21, {"advanced": True})
    v = G.view(s, 2)
    decks = set()
    for seed in range(5):
        d = G.determinize(v, seed)
        check_invariants(d)
        assert G.view(d, 2) == v
        assert Counter(d.deck + d.aside) == Counter(s.deck + s.aside)
        decks.add(tuple(d.deck))
    assert len(decks) > 1


def test_apply_action_never_changes_the_state_it_is_given():
    rnd = random.Random(8)
    state = G.new_game(seats(3), 8, {"advanced": True})
    while not G.is_over(state):
        (p,) = G.to_act(state)
        before = json.dumps(G.to_json(state))
        new, _ = G.apply_action(state, p, rnd.choice(G.legal_actions(state, p)))
        assert json.dumps(G.to_json(state)) == before
        state = new


def test_start_cards_with_an_empty_reserve_settle_before_the_first_draw():
    choices = 0
    for seed in range(25):
        s = dna(tokens={0: 20, 1: 20, 2: 0}, hand=["trex-1"], deck=[],
                collections={0: [], 1: [], 2: []}, seed=seed)
        s, ev = act(s, 0, {"type": "keep"})
        start = ev.index(of(ev, "round_start")[-1])
        later = ev[start:]
        assert all(e["from"] is not None for e in of(later, "token"))
        while s.debts:
            choices += 1
            assert not of(later, "draw") and G.to_act(s) == [s.debts[0][0]]
            (p,) = G.to_act(s)
            s, later = act(s, p, G.legal_actions(s, p)[0])
        assert of(later, "draw") and G.to_act(s) == [s.first]
        assert sum(s.tokens) == 40 and s.reserve == 0
    assert choices > 0
