"""Random Mutations rules, checked against the rulebook (Italian, shared/rules/seeds/002_*).

Positions are built with :func:`build` (a dealt game whose rows, decks and centre are then
set, cards taken from the box so that they stay conserved) and played through real actions
(``MUTATIONS.apply_action``). Expected values come from the rulebook or from the choices
recorded in docs/rules-decisions.md ("Random Mutations"), never from the engine's output.
"""

from __future__ import annotations

import json

import pytest

from engine import IllegalAction, Seat
from engine.core import CorruptState, Rng
from engine.mutations import MUTATIONS as G
from engine.mutations import check_invariants
from engine.mutations import rules as R
from engine.mutations.data import TRAIT_OF, cards

# --- helpers -----------------------------------------------------------------------------------


def seats(n: int) -> list[Seat]:
    return [Seat(f"s{i}", f"Seat {i}") for i in range(n)]


def build(n: int = 2, *, rows: dict | None = None, decks: dict | None = None,
          phase: str = "development", centre: dict | None = None, current: int = 0,
          first: int | None = None, divergence: bool = False, main: int | None = None,
          grazed: bool = True, seed: int = 1):
    """A position. ``rows``: {player: [species]}, a species being a list of trait names, or
    a dict {"traits": [...], "animals": N or [animal overrides], "parent": index in the row};
    ``decks``: {player: [trait names, played first to last]}; other players keep empty rows
    and decks. ``main``: how many cards stay in the main deck (the rest leave the game)."""
    s = G.new_game(seats(n), seed, {"divergence": divergence})
    pool = list(cards(s.boxes))
    by_trait: dict[str, list[str]] = {}
    for c in pool:
        by_trait.setdefault(TRAIT_OF[c], []).append(c)
    used: set[str] = set()

    def take(t: str | None = None) -> str:
        if t is None:
            for lst in by_trait.values():
                for c in lst:
                    if c not in used:
                        used.add(c)
                        return c
        c = next(c for c in by_trait[t] if c not in used)
        used.add(c)
        return c

    s.rows = [[] for _ in range(n)]
    s.decks = [[] for _ in range(n)]
    for p, names in (decks or {}).items():
        s.decks[p] = [take(t) for t in reversed(names)]
    specs = []
    for p, row in (rows or {}).items():
        for spec in row:
            if isinstance(spec, list):
                spec = {"traits": spec}
            sp = {"id": R._new_id(s), "parent": None,
                  "traits": [take(t) for t in spec.get("traits", [])], "animals": []}
            specs.append((p, sp, spec))
            s.rows[p].append(sp)
    for p, sp, spec in specs:
        animals = spec.get("animals", 1)
        if isinstance(animals, int):
            animals = [{}] * animals
        for over in animals:
            a = R._animal(s, take())
            a.update(over)
            sp["animals"].append(a)
        if spec.get("parent") is not None:
            sp["parent"] = s.rows[p][spec["parent"]]["id"]
    rest = [c for c in pool if c not in used]
    keep = len(rest) if main is None else main
    s.main = rest[:keep]
    s.removed = rest[keep:]
    s.lost = [0] * n
    s.phase = phase
    s.first = current if first is None else first
    s.current = current
    s.passed = [False] * n
    s.passes = 0
    s.grazed = grazed
    s.pending = None
    s.queue = []
    s.centre = dict({"food": 0, "burrows": 0, "parasites": 0}, **(centre or {}))
    s.last = False
    check_invariants(s)
    return s


def sp(s, p: int, i: int) -> dict:
    return s.rows[p][i]


def aid(s, p: int, i: int, k: int = 0) -> int:
    return s.rows[p][i]["animals"][k]["id"]


def act(s, p, action):
    return G.apply_action(s, p, action)


def of(events, kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def illegal(s, p, action, code: str) -> IllegalAction:
    before = json.dumps(G.to_json(s), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        G.apply_action(s, p, action)
    assert info.value.code == code, info.value
    assert json.dumps(G.to_json(s), sort_keys=True) == before
    return info.value


def traits(s, p: int, i: int) -> list[str]:
    return [TRAIT_OF[c] for c in s.rows[p][i]["traits"]]


def rig_die(s, *faces: int) -> None:
    """Make the next die rolls of ``s`` show ``faces``."""
    for x in range(1, 10**6):
        r = Rng(x)
        if all(r.die() == f for f in faces):
            s.rng = x
            return
    raise AssertionError("no such generator state")


def develop(use: str, species: int | None = None) -> dict:
    a = {"type": "develop", "use": use}
    if species is not None:
        a["species"] = species
    return a


# --- setup -------------------------------------------------------------------------------------

def test_setup_one_box_for_2_to_4_two_for_5_to_8():
    for n, total in ((2, 90), (4, 90), (5, 180), (8, 180)):
        s = G.new_game(seats(n), 3)
        assert s.boxes == (1 if n <= 4 else 2)
        assert sum(1 for _ in cards(s.boxes)) == total
        # 7 cards in each personal deck, 3 species of one animal each
        for p in range(n):
            assert len(s.decks[p]) == 7 or s.phase != "development"
        assert all(len(s.rows[p]) == 3 for p in range(n))
        assert len(s.main) == total - 10 * n
    with pytest.raises(IllegalAction):
        G.new_game(seats(9), 1)
    with pytest.raises(IllegalAction):
        G.new_game(seats(1), 1)
    with pytest.raises(IllegalAction):
        G.new_game(seats(2), 1, {"unknown": True})


def test_views_show_counts_only():
    s = G.new_game(seats(3), 5)
    for viewer in (None, 0, 1, 2):
        v = G.view(s, viewer)
        text = json.dumps(v)
        assert all(c not in text for c in cards(1))  # no card id anywhere
        assert [row["deck"] for row in v["players"]] == [7, 7, 7]
        assert v["main"] == 90 - 30


# --- development ---------------------------------------------------------------------------------

def test_new_species_goes_to_the_right_end():
    s = build(rows={0: [[], []]}, decks={0: ["running"]})
    s2, ev = act(s, 0, develop("species"))
    assert len(s2.rows[0]) == 3 and s2.rows[0][-1]["traits"] == []
    assert of(ev, "new_species")[0]["reason"] == "declared"


def test_trait_declared_before_the_card_is_turned_lands_on_the_species():
    s = build(rows={0: [[], []]}, decks={0: ["running", "swimming"]})
    s2, ev = act(s, 0, develop("trait", sp(s, 0, 1)["id"]))
    assert traits(s2, 0, 1) == ["running"]
    assert of(ev, "declare")[0]["trait"] == "running"
    assert len(s2.decks[0]) == 1


def test_trait_only_on_a_species_of_one_animal():
    s = build(rows={0: [{"animals": 2}, []]}, decks={0: ["running"]})
    illegal(s, 0, develop("trait", sp(s, 0, 0)["id"]), "population_not_one")
    assert develop("trait", sp(s, 0, 0)["id"]) not in G.legal_actions(s, 0)


def test_illegal_trait_passes_to_the_right():
    # the same trait twice is not allowed: it passes to the next species on the right
    s = build(rows={0: [["running"], {"animals": 2}, []]}, decks={0: ["running"]})
    s2, ev = act(s, 0, develop("trait", sp(s, 0, 0)["id"]))
    assert traits(s2, 0, 0) == ["running"] and traits(s2, 0, 1) == []
    assert traits(s2, 0, 2) == ["running"]
    assert of(ev, "trait_passes")[0]["to"] == sp(s, 0, 2)["id"]


def test_trait_nowhere_to_go_becomes_a_new_species():
    s = build(rows={0: [["swimming"], ["swimming"]]}, decks={0: ["swimming"]})
    s2, ev = act(s, 0, develop("trait", sp(s, 0, 0)["id"]))
    assert len(s2.rows[0]) == 3 and s2.rows[0][2]["traits"] == []
    assert of(ev, "new_species")[0]["reason"] == "no_place"


def test_carnivore_obligate_scavenger_exclusive():
    s = build(rows={0: [["scavenger"], ["carnivore"], []]}, decks={0: ["obligate_carnivore"]})
    s2, _ = act(s, 0, develop("trait", sp(s, 0, 0)["id"]))
    assert traits(s2, 0, 0) == ["scavenger"] and traits(s2, 0, 1) == ["carnivore"]
    assert traits(s2, 0, 2) == ["obligate_carnivore"]


def test_dark_first_trait_may_become_a_new_species():
    s = build(rows={0: [[], []]}, decks={0: ["metabolic_syndrome", "bark_beetle"]})
    s2, ev = act(s, 0, develop("trait", sp(s, 0, 0)["id"]))
    assert G.to_act(s2) == [0] and s2.pending["kind"] == "dark"
    assert G.legal_actions(s2, 0) == [{"type": "dark", "play": "trait"},
                                      {"type": "dark", "play": "species"}]
    illegal(s2, 0, {"type": "pass"}, "choice_first")
    s3, ev = act(s2, 0, {"type": "dark", "play": "species"})
    assert len(s3.rows[0]) == 3 and traits(s3, 0, 0) == []
    s4, _ = act(s2, 0, {"type": "dark", "play": "trait"})
    assert traits(s4, 0, 0) == ["metabolic_syndrome"]


def test_dark_card_on_a_species_with_traits_is_played():
    s = build(rows={0: [["running"]]}, decks={0: ["metabolic_syndrome"]})
    s2, _ = act(s, 0, develop("trait", sp(s, 0, 0)["id"]))
    assert s2.pending is None and traits(s2, 0, 0) == ["running", "metabolic_syndrome"]


def test_population_cap_is_the_number_of_species():
    s = build(rows={0: [{"animals": 2}, []]}, decks={0: ["running"]})
    illegal(s, 0, develop("animal", sp(s, 0, 0)["id"]), "population_cap")
    s2, _ = act(s, 0, develop("animal", sp(s, 0, 1)["id"]))
    assert len(sp(s2, 0, 1)["animals"]) == 2
    # animals already over the cap stay
    s = build(rows={0: [{"animals": 4}, []]}, decks={0: ["running"]})
    assert len(sp(s, 0, 0)["animals"]) == 4


def test_pass_is_for_the_whole_phase_and_an_empty_deck_passes():
    s = build(rows={0: [[]], 1: [[]]}, decks={0: ["running", "swimming"], 1: ["mimicry"]})
    s2, _ = act(s, 0, {"type": "pass"})
    assert s2.passed[0] and G.to_act(s2) == [1]
    s3, ev = act(s2, 1, develop("species"))
    # player 1's deck is empty, player 0 passed: the phase ends, the climate is rolled
    assert s3.phase == "feeding" and of(ev, "climate")


def test_simplification_removes_the_last_trait():
    s = build(rows={0: [["running", "swimming"], []]}, decks={0: ["simplification"]})
    s2, ev = act(s, 0, develop("trait", sp(s, 0, 0)["id"]))
    assert traits(s2, 0, 0) == ["running"]
    assert len(s2.rows[0]) == 4 and all(x["traits"] == [] for x in s2.rows[0][2:])
    assert of(ev, "simplification")[0]["removed"] == "swimming"


def test_budding_adds_an_animal_at_the_start_of_the_turn_over_the_cap():
    s = build(rows={0: [{"traits": ["budding"], "animals": 1}]}, decks={0: ["running"]})
    ev: list = []
    R._start_turn(s, ev)
    assert len(sp(s, 0, 0)["animals"]) == 2  # one species: the cap would be 1
    assert of(ev, "new_animal")[0]["reason"] == "budding"


def test_extremophile_costs_an_extra_card():
    s = build(rows={0: [["extremophile"], []]}, decks={0: ["running", "swimming", "mimicry"]})
    s2, ev = act(s, 0, develop("animal", sp(s, 0, 0)["id"]))
    assert len(s2.decks[0]) == 1 and len(s2.removed) == len(s.removed) + 1
    assert of(ev, "extremophile")
    s = build(rows={0: [["extremophile"], []]}, decks={0: ["running"]})
    illegal(s, 0, develop("animal", sp(s, 0, 0)["id"]), "extremophile_needs_two")


def test_divergence_splits_a_species():
    s = build(rows={0: [{"traits": ["carnivore"], "animals": 2}, []]},
              decks={0: ["running", "scavenger"]}, divergence=True)
    parent = sp(s, 0, 0)["id"]
    s2, ev = act(s, 0, develop("split", parent))
    new = s2.rows[0][1]
    assert new["parent"] == parent and len(new["animals"]) == 1
    assert R.traits_of(s2, new, 0) == ["carnivore"]
    # the new species may gain its own traits, not a clashing one
    s2.current = 0
    s3, _ = act(s2, 0, develop("trait", new["id"]))
    assert traits(s3, 0, 1) == [] and traits(s3, 0, 2) == ["scavenger"]
    s = build(rows={0: [[]]}, decks={0: ["running"]})
    illegal(s, 0, develop("split", sp(s, 0, 0)["id"]), "no_divergence")


# --- climate ---------------------------------------------------------------------------------------

def test_climate_dice_and_box_limits():
    s = build(rows={0: [{"animals": [{"parasites": 10}]}], 1: [[]]}, decks={0: ["running"]})
    s.passed = [False, True]
    s2, ev = act(s, 0, {"type": "pass"})
    c = of(ev, "climate")[0]
    assert c["food"] == sum(c["dice"]["food"]) + 2 and len(c["dice"]["food"]) == 1
    assert c["burrows"] == min(6, sum(c["dice"]["burrows"]))
    assert c["parasites"] == 0  # all 10 are on an animal
    five = build(5, rows={0: [[]]}, decks={0: ["running"]})
    five.passed = [False, True, True, True, True]
    _, ev = act(five, 0, {"type": "pass"})
    c = of(ev, "climate")[0]
    assert len(c["dice"]["food"]) == 3 and c["food"] == sum(c["dice"]["food"]) + 2
    assert len(c["dice"]["parasites"]) == 2


# --- feeding ---------------------------------------------------------------------------------------

def test_no_passing_while_a_token_can_be_played():
    s = build(rows={0: [[]], 1: [[]]}, phase="feeding", centre={"food": 2})
    illegal(s, 0, {"type": "pass"}, "must_play_token")
    s2, _ = act(s, 0, {"type": "food", "animal": aid(s, 0, 0)})
    assert s2.rows[0][0]["animals"][0]["red"] == 1 and s2.centre["food"] == 1
    assert G.to_act(s2) == [1]


def test_fed_animals_take_no_more_food_and_need_grows_with_bonuses():
    s = build(rows={0: [["high_body_weight"], []], 1: [[]]}, phase="feeding",
              centre={"food": 5})
    a = aid(s, 0, 0)
    s2, _ = act(s, 0, {"type": "food", "animal": a})
    s2.current = 0
    s3, ev = act(s2, 0, {"type": "food", "animal": a})
    assert of(ev, "food")[0]["fed"] is True  # need 2: 1 + High Body Weight
    s3.current = 0
    illegal(s3, 0, {"type": "food", "animal": a}, "already_fed")


def test_burrow_protects_and_parasites_go_on_opponents():
    s = build(rows={0: [[]], 1: [{"traits": ["carnivore"]}]}, phase="feeding",
              centre={"burrows": 1, "parasites": 1})
    illegal(s, 0, {"type": "parasite", "animal": aid(s, 0, 0)}, "parasite_on_own")
    s2, _ = act(s, 0, {"type": "burrow", "animal": aid(s, 0, 0)})
    # the only animal is in a burrow: the species cannot be attacked
    assert not any(a["type"] == "attack" for a in G.legal_actions(s2, 1))
    s3, ev = act(s2, 1, {"type": "parasite", "animal": aid(s, 0, 0)})
    assert of(ev, "parasite")[0]["owner"] == 0
    # the centre is empty: the feeding ends; the most parasites: that animal is lost
    assert of(ev, "parasite_loss")[0]["animal"] == aid(s, 0, 0)


def test_a_player_without_animals_may_play_a_parasite():
    s = build(rows={1: [[]]}, phase="feeding", centre={"parasites": 1})
    _, ev = act(s, 0, {"type": "parasite", "animal": aid(s, 1, 0)})
    assert of(ev, "parasite")[0] == {"type": "parasite", "player": 0, "owner": 1,
                                     "species": sp(s, 1, 0)["id"], "animal": aid(s, 1, 0)}


def test_carnivore_attack_the_owner_chooses_and_carnivore_gets_two_blue():
    s = build(rows={0: [["carnivore"]], 1: [{"animals": [{"burrow": True}, {}, {}]}]},
              phase="feeding", centre={"food": 3})
    att = aid(s, 0, 0)
    tgt = sp(s, 1, 0)["id"]
    s2, ev = act(s, 0, {"type": "attack", "animal": att, "target": tgt})
    # the owner of the attacked species chooses among the unprotected animals
    assert G.to_act(s2) == [1]
    opts = [a["animal"] for a in G.legal_actions(s2, 1)]
    assert opts == [aid(s, 1, 0, 1), aid(s, 1, 0, 2)]
    illegal(s2, 0, {"type": "eat", "animal": opts[0]}, "not_your_turn")
    s3, ev = act(s2, 1, {"type": "eat", "animal": opts[1]})
    assert len(s3.rows[1][0]["animals"]) == 2
    carn = s3.rows[0][0]["animals"][0]
    assert carn["blue"] == 2 and carn["attacked"]  # need 2 (Carnivore +1): fed
    assert of(ev, "meal")[0]["fed"] and G.to_act(s3) == [1]


def test_attack_own_other_species_allowed_not_its_own():
    s = build(rows={0: [{"traits": ["carnivore"], "animals": 2}, []]}, phase="feeding")
    targets = {a["target"] for a in G.legal_actions(s, 0) if a["type"] == "attack"}
    assert targets == {sp(s, 0, 1)["id"]}
    illegal(s, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": sp(s, 0, 0)["id"]},
            "own_species")


def test_last_animal_eaten_takes_its_traits():
    s = build(rows={0: [["carnivore"]], 1: [["running"], {"animals": [fed()]}]},
              phase="feeding")
    rig_die(s, 1)
    running = s.rows[1][0]["traits"][0]
    s2, ev = act(s, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": sp(s, 1, 0)["id"]})
    assert of(ev, "eaten")[0]["extinct"] is True
    assert len(s2.rows[1]) == 1 and running in s2.removed
    assert s2.lost[1] == 2  # the animal card and its trait card


def test_obligate_carnivore_takes_no_food_and_is_fed_by_a_kill():
    s = build(rows={0: [["obligate_carnivore"]], 1: [[]]}, phase="feeding", centre={"food": 3})
    att = aid(s, 0, 0)
    illegal(s, 0, {"type": "food", "animal": att}, "obligate_no_food")
    s2, ev = act(s, 0, {"type": "attack", "animal": att, "target": sp(s, 1, 0)["id"]})
    assert of(ev, "meal")[0]["fed"] is True and of(ev, "eaten")
    assert not of(ev, "starved")  # fully fed: it survives the extinction


def test_instinct_an_unfed_carnivore_must_attack_when_the_centre_is_empty():
    s = build(rows={0: [["carnivore"]], 1: [["poisonous"]]}, phase="feeding")
    illegal(s, 0, {"type": "pass"}, "must_attack")
    assert {"type": "pass"} not in G.legal_actions(s, 0)
    s2, ev = act(s, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": sp(s, 1, 0)["id"]})
    # Poisonous: the carnivore that ate it dies at once (and its species with it)
    assert of(ev, "poisoned") and s2.rows[0] == [] and s2.rows[1] == []


def test_with_tokens_left_a_carnivore_may_pass():
    s = build(rows={0: [["obligate_carnivore"]], 1: [[]]}, phase="feeding",
              centre={"food": 2})
    s.rows[0][0]["animals"][0]["burrow"] = True
    assert {"type": "pass"} in G.legal_actions(s, 0)


def test_swimming_both_ways():
    s = build(rows={0: [["carnivore"], ["carnivore", "swimming"]], 1: [["swimming"], []]},
              phase="feeding")
    acts = [a for a in G.legal_actions(s, 0) if a["type"] == "attack"]
    land, sea = aid(s, 0, 0), aid(s, 0, 1)
    assert {a["target"] for a in acts if a["animal"] == land} == {sp(s, 1, 1)["id"]}
    assert {a["target"] for a in acts if a["animal"] == sea} == {sp(s, 1, 0)["id"]}
    illegal(s, 0, {"type": "attack", "animal": land, "target": sp(s, 1, 0)["id"]},
            "not_attackable")


def test_high_body_weight_only_by_high_body_weight_carnivores():
    s = build(rows={0: [["carnivore"], ["carnivore", "high_body_weight"]],
                    1: [["high_body_weight"]]}, phase="feeding")
    acts = [a for a in G.legal_actions(s, 0) if a["type"] == "attack"
            and a["target"] == sp(s, 1, 0)["id"]]
    assert [a["animal"] for a in acts] == [aid(s, 0, 1)]


def test_burrowing_fed_animals_cannot_be_eaten():
    s = build(rows={0: [["carnivore"]], 1: [{"traits": ["burrowing"],
                                              "animals": [{"red": 1}, {"red": 1}]}]},
              phase="feeding")
    assert not any(a["type"] == "attack" for a in G.legal_actions(s, 0))
    s.rows[1][0]["animals"][1]["red"] = 0
    s2, ev = act(s, 0, {"type": "attack", "animal": aid(s, 0, 0),
                        "target": sp(s, 1, 0)["id"]})
    # only the unfed one could be eaten: no choice to make
    assert of(ev, "eaten")[0]["animal"] == aid(s, 1, 0, 1)


def test_running_escapes_on_4_to_6():
    s = build(rows={0: [{"traits": ["carnivore"], "animals": 2}], 1: [["running"]]},
              phase="feeding", centre={"parasites": 1})
    rig_die(s, 4)
    s2, ev = act(s, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": sp(s, 1, 0)["id"]})
    assert of(ev, "running")[0] == {"type": "running", "owner": 1, "species": sp(s, 1, 0)["id"],
                                    "die": 4, "escaped": True}
    assert len(s2.rows[1][0]["animals"]) == 1
    assert s2.rows[0][0]["animals"][0]["attacked"]  # that carnivore cannot attack again
    s2.current = 0
    illegal(s2, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": sp(s, 1, 0)["id"]},
            "already_attacked")
    rig_die(s, 3)
    s3, ev = act(s, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": sp(s, 1, 0)["id"]})
    assert of(ev, "eaten") and s3.rows[1] == []


def test_mimicry_the_owner_sends_the_attack_on():
    s = build(rows={0: [["carnivore"]], 1: [["mimicry"], [], ["swimming"]]}, phase="feeding")
    s2, ev = act(s, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": sp(s, 1, 0)["id"]})
    assert G.to_act(s2) == [1] and s2.pending["kind"] == "mimicry"
    # the target itself (kept) or another species the carnivore could attack (not Swimming)
    assert G.legal_actions(s2, 1) == [{"type": "redirect", "target": sp(s, 1, 0)["id"]},
                                      {"type": "redirect", "target": sp(s, 1, 1)["id"]}]
    _, ev = act(s2, 1, {"type": "redirect", "target": sp(s, 1, 1)["id"]})
    assert of(ev, "eaten")[0]["species"] == sp(s, 1, 1)["id"]


def test_development_defects_lets_the_attacker_ignore_a_trait():
    s = build(rows={0: [["carnivore"]], 1: [["development_defects", "swimming"]]},
              phase="feeding")
    target = sp(s, 1, 0)["id"]
    assert [a for a in G.legal_actions(s, 0) if a["type"] == "attack"] == [
        {"type": "attack", "animal": aid(s, 0, 0), "target": target, "ignore": "swimming"}]
    illegal(s, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": target},
            "not_attackable")
    s2, ev = act(s, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": target,
                        "ignore": "swimming"})
    assert of(ev, "eaten")


def test_scavenger_the_carnivore_owner_first_then_clockwise():
    s = build(3, rows={0: [["carnivore"]], 1: [["scavenger"]], 2: [["scavenger"], []]},
              phase="feeding")
    s2, ev = act(s, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": sp(s, 2, 1)["id"]})
    # player 0 has no Scavenger: player 1 (next clockwise) gets the blue token
    assert [(e["player"], e["animal"]) for e in of(ev, "scavenge")] == [(1, aid(s, 1, 0))]


def test_scavenger_owner_picks_the_animal():
    s = build(rows={0: [["carnivore"], {"traits": ["scavenger"], "animals": 2}], 1: [[]]},
              phase="feeding")
    s2, ev = act(s, 0, {"type": "attack", "animal": aid(s, 0, 0), "target": sp(s, 1, 0)["id"]})
    assert G.to_act(s2) == [0] and s2.pending["kind"] == "scavenge"
    _, ev = act(s2, 0, {"type": "scavenge", "animal": aid(s, 0, 1, 1)})
    assert of(ev, "scavenge")[0]["animal"] == aid(s, 0, 1, 1) and of(ev, "scavenge")[0]["fed"]


def test_grazing_destroys_red_tokens_even_when_passing():
    s = build(rows={0: [{"traits": ["grazing"], "animals": [{"red": 1}, {"red": 1}]}],
                    1: [[]]}, phase="feeding", centre={"food": 5}, grazed=False)
    ev: list = []
    R._feed_seek(s, ev)
    assert s.pending == {"kind": "graze", "player": 0, "max": 2}
    assert [a["count"] for a in G.legal_actions(s, 0)] == [0, 1, 2]
    s2, ev = act(s, 0, {"type": "graze", "count": 2})
    assert s2.centre["food"] == 3 and of(ev, "graze")
    # all fed: a forced pass follows, player 1 is next
    assert G.to_act(s2) == [1]


def test_bark_beetle_green_becomes_blue_until_fed():
    s = build(rows={0: [["bark_beetle"], ["bark_beetle", "obligate_carnivore"]], 1: [[]]},
              phase="feeding", centre={"burrows": 3})
    s2, ev = act(s, 0, {"type": "burrow", "animal": aid(s, 0, 0)})
    a = s2.rows[0][0]["animals"][0]
    assert a["blue"] == 1 and not a["burrow"] and of(ev, "bark_beetle")
    s2.current = 0
    s3, ev = act(s2, 0, {"type": "burrow", "animal": aid(s, 0, 0)})
    # fed now: the green token is a burrow
    assert s3.rows[0][0]["animals"][0]["burrow"]
    s3.current = 0
    # with Obligate Carnivore a green token stays a burrow
    s4, ev = act(s3, 0, {"type": "burrow", "animal": aid(s, 0, 1)})
    b = s4.rows[0][1]["animals"][0]
    assert b["burrow"] and b["blue"] == 0


def test_feeding_ends_when_everyone_passes_and_leftovers_go_back():
    s = build(rows={0: [{"animals": [{"red": 1}]}], 1: [{"animals": [{"red": 1}]}]},
              phase="feeding", centre={"food": 4}, main=30)
    ev: list = []
    turn = s.turn
    R._feed_seek(s, ev)
    # every animal is fed: both must pass; the phase ends, extinction follows, a new turn
    assert of(ev, "phase_end")[0] == {"type": "phase_end", "phase": "feeding", "turn": turn,
                                      "left": {"food": 4, "burrows": 0, "parasites": 0}}
    assert s.phase == "development" and s.centre["food"] == 0


# --- extinction ------------------------------------------------------------------------------------

def fed(k: int = 1, **kw) -> dict:
    return dict({"red": k}, **kw)


def test_parasites_the_species_with_most_loses_an_animal_owner_choosing():
    s = build(rows={0: [{"animals": [fed(parasites=1), fed(parasites=1), fed()]}],
                    1: [{"animals": [fed(parasites=1)]}]}, phase="feeding", main=30)
    ev: list = []
    R._end_feeding(s, ev)
    assert s.pending["kind"] == "lose" and G.to_act(s) == [0]
    # only animals carrying a parasite may be chosen
    assert [a["animal"] for a in G.legal_actions(s, 0)] == [aid(s, 0, 0, 0), aid(s, 0, 0, 1)]
    s2, ev = act(s, 0, {"type": "lose", "animal": aid(s, 0, 0, 1)})
    assert len(s2.rows[0][0]["animals"]) == 2 and len(s2.rows[1][0]["animals"]) == 1


def test_parasite_tie_each_tied_species_loses_one():
    s = build(rows={0: [{"animals": [fed(parasites=2)]}, {"animals": [fed(), fed()]}],
                    1: [{"animals": [fed(parasites=1), fed(parasites=1)]}]},
              phase="feeding", main=30)
    ev: list = []
    R._end_feeding(s, ev)
    assert s.pending["player"] == 1  # player 0's species had a single candidate
    s2, ev = act(s, 1, {"type": "lose", "animal": aid(s, 1, 0, 0)})
    assert len(s2.rows[0]) == 1 and len(s2.rows[1][0]["animals"]) == 1
    assert s2.rows[1][0]["animals"][0]["parasites"] == 1  # parasites stay on the survivors


def test_starvation_traits_go_with_the_last_animal_and_the_draw():
    s = build(rows={0: [{"traits": ["running"], "animals": [{}]},
                        {"traits": ["swimming"], "animals": [fed(), {}]}],
                    1: [{"animals": [fed(parasites=1)]}]}, phase="feeding", main=40)
    decks_before = [len(d) for d in s.decks]
    removed = len(s.removed)
    ev: list = []
    R._end_feeding(s, ev)
    # player 1's only animal had the most parasites: it is lost; player 0's unfed die
    assert s.rows[1] == []
    assert len(s.rows[0]) == 1 and traits(s, 0, 0) == ["swimming"]
    assert len(s.removed) == removed + 2 + 1 + 1  # 2 starved + Running + player 1's animal
    # the draw: animals + 2 each; player 1 has no animal and no card left, so draws nothing
    # and gets the new deck of 10 at the start of the next turn instead
    draw = of(ev, "draw")[0]
    assert draw["counts"] == [3, 0]
    assert of(ev, "new_deck") == [{"type": "new_deck", "player": 1, "count": 10}]
    assert [len(d) for d in s.decks] == [decks_before[0] + 3, 10]
    # surviving animals keep only their parasites
    a = s.rows[0][0]["animals"][0]
    assert (a["red"], a["blue"], a["burrow"]) == (0, 0, False)


def test_a_player_with_nothing_gets_a_new_deck_of_ten():
    s = build(rows={0: [[]]}, decks={0: ["running"]}, main=30)
    ev: list = []
    s.turn = 1
    R._start_turn(s, ev)
    assert len(s.decks[1]) == 10 and of(ev, "new_deck")[0] == {"type": "new_deck",
                                                               "player": 1, "count": 10}


def test_a_player_left_with_nothing_after_extinction_gets_ten_cards_not_the_draw():
    # [S] "Se a un giocatore non sono rimasti nemmeno un animale ... e nemmeno una carta nel
    # mazzo del giocatore, all'inizio del turno successivo ricevera' un nuovo mazzo ... di
    # dieci carte." Player 1's last animal starves and their deck is empty; player 2 loses
    # every animal too but still holds a card, so draws 0 + 2 as usual.
    s = build(3, rows={0: [{"animals": [fed(), fed()]}], 1: [{"animals": [{}]}],
                       2: [{"animals": [{}]}]},
              decks={2: ["running"]}, phase="feeding", current=0, main=40)
    main = len(s.main)
    # a real end of feeding: nobody can play anything, everyone passes
    s2, ev = act(s, 0, {"type": "pass"})
    assert s2.turn == s.turn + 1 and s2.rows[1] == [] and s2.rows[2] == []
    assert of(ev, "draw")[0]["counts"] == [4, 0, 2]
    assert of(ev, "new_deck") == [{"type": "new_deck", "player": 1, "count": 10}]
    assert len(s2.decks[1]) == 10 and len(s2.decks[2]) == 3
    assert len(s2.main) == main - 4 - 2 - 10
    # the next turn's development: player 1 plays from the new deck
    assert s2.phase == "development" and not s2.passed[1]
    check_invariants(s2)


def test_a_player_with_no_animal_but_cards_draws_two_and_gets_no_new_deck():
    s = build(rows={0: [{"animals": [fed()]}], 1: [{"animals": [{}]}]},
              decks={1: ["running"]}, phase="feeding", main=40)
    ev: list = []
    R._end_feeding(s, ev)
    assert of(ev, "draw")[0]["counts"] == [3, 2] and of(ev, "new_deck") == []
    assert len(s.decks[1]) == 3


def test_the_last_turn_and_the_scores():
    # the main deck runs out at the draw: the next turn is the last, and is scored
    s = build(rows={0: [{"traits": ["high_body_weight", "carnivore"], "animals": [fed(3)]}],
                    1: [{"animals": [fed(), fed()]}]}, phase="feeding", main=3)
    ev: list = []
    R._end_feeding(s, ev)
    assert s.last and s.main == [] and of(ev, "turn_start")[-1]["last"]
    while not G.is_over(s):
        p = G.to_act(s)[0]
        a = G.legal_actions(s, p)
        pas = [x for x in a if x["type"] == "pass"] or [a[0]]
        s, _ = act(s, p, pas[0])
    # no draw after the last extinction
    assert G.is_over(s)


def test_scoring_two_per_animal_one_per_trait_plus_food_bonus():
    s = build(rows={0: [{"traits": ["high_body_weight", "carnivore", "running"], "animals": 2},
                        {"traits": ["metabolic_syndrome"], "animals": 1}],
                    1: [{"animals": 3}]})
    # 3 animals x2, 4 traits x1, bonuses: High Body Weight +1, Carnivore +1, Metabolic +2
    assert R.score(s, 0) == {"animals": 3, "traits": 4, "bonus": 4, "total": 14}
    assert R.score(s, 1)["total"] == 6


def test_ties_go_to_the_most_cards_lost_then_shared():
    s = build(3, rows={0: [{"animals": 2}], 1: [{"animals": 2}], 2: [{"animals": 2}]})
    s.lost = [3, 5, 3]
    ranks = {r["player"]: r["rank"] for r in R.ranking(s)}
    assert ranks == {1: 1, 0: 2, 2: 2}


# --- the contract --------------------------------------------------------------------------------

def test_shapes_are_strict():
    s = G.new_game(seats(2), 1)
    p = G.to_act(s)[0]
    for bad, field in (({"type": "develop"}, "use"),
                       ({"type": "develop", "use": "species", "species": 1}, "species"),
                       ({"type": "develop", "use": "trait"}, "species"),
                       ({"type": "pass", "x": 1}, "x"),
                       ({"type": "food", "animal": "1"}, "animal"),
                       ({"type": "food", "animal": True}, "animal"),
                       ({"type": "attack", "animal": 1, "target": 2, "ignore": 3}, "ignore")):
        err = illegal(s, p, bad, "bad_action")
        assert err.params["field"] == field
    illegal(s, p, {"type": "develop", "use": "fly"}, "unknown_use")
    illegal(s, p, {"type": "dark", "play": "both"}, "unknown_play")
    illegal(s, p, {"type": "fly"}, "unknown_action")
    illegal(s, 1 - p, {"type": "pass"}, "not_your_turn")
    G.check_action({"type": "attack", "animal": 1, "target": 2, "ignore": "swimming"})


def test_save_load_and_damaged_saves():
    s = G.new_game(seats(3), 11, {"divergence": True})
    data = json.loads(json.dumps(G.to_json(s)))
    assert G.from_json(data) == s
    for breaking in (
        lambda d: d["main"].pop(),
        lambda d: d["main"].append(d["main"][0]),
        lambda d: d["centre"].update(food=-1),
        lambda d: d.update(phase="lunch"),
        lambda d: d["rows"][0][0]["animals"].clear(),
        lambda d: d["rows"][0][0]["traits"].extend(["carnivore-1", "scavenger-1"]),
        lambda d: d.update(version=99),
        lambda d: d.update(pending={"kind": "eat", "player": 0}),
    ):
        bad = json.loads(json.dumps(data))
        breaking(bad)
        with pytest.raises(CorruptState):
            G.from_json(bad)
