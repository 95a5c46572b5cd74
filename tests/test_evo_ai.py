"""The EVO AI players: legal actions everywhere, determinism, no peeking, sane behaviour."""

from __future__ import annotations

import pytest

from engine.core import Rng, Seat
from engine.evo import EVO, ai
from engine.evo import rules as R
from engine.evo.ai import (
    FastPolicy,
    RandomPolicy,
    StrongPolicy,
    choose_action,
    decision_seed,
    policy_for,
)
from engine.evo.data import board_for
from tests.evo_helpers import rng_for_dice


def seats(n: int) -> list[Seat]:
    return [Seat(f"ai:{i}", f"AI {i}") for i in range(n)]


def kind_of(state, action: dict) -> str:
    if state.window is not None:
        return "card:" + action["type"]
    return f"{state.stage}:{action['type']}"


def play(policies, n: int, seed: int, variant: bool = False, stop: int | None = None):
    """Play a seeded game; every action must be legal. Returns (state, actions, kinds)."""
    state = EVO.new_game(seats(n), seed, {"variant": variant})
    actions = []
    kinds = set()
    while not EVO.is_over(state) and (stop is None or len(actions) < stop):
        p = EVO.to_act(state)[0]
        legal = EVO.legal_actions(state, p)
        action = policies[p].choose(EVO.view(state, p), legal, decision_seed(state, p))
        assert action in legal, (kind_of(state, action), action)
        kinds.add(kind_of(state, action))
        actions.append((p, action))
        EVO.apply_in_place(state, p, action)
    return state, actions, kinds


@pytest.mark.parametrize("level", ["random", "fast"])
def test_every_seat_plays_legal_games_to_the_end(level):
    kinds = set()
    for n, seed, variant in ((3, 1, False), (4, 2, False), (5, 3, False), (4, 4, True),
                             (3, 5, True), (5, 6, False)):
        state, _, k = play([policy_for(level)] * n, n, seed, variant)
        assert EVO.is_over(state)
        kinds |= k
    # every kind of decision came up (and was answered legally)
    for needed in ("move:move", "move:end", "hatch:hatch", "choose:lose", "bid:bid",
                   "card:pass", "card:play"):
        assert needed in kinds, (level, needed, sorted(kinds))


def test_strong_plays_legal_games_in_every_seat():
    kinds = set()
    for n, seed, variant in ((3, 11, False), (4, 12, True), (5, 13, False)):
        state, _, k = play([StrongPolicy()] * n, n, seed, variant)
        assert EVO.is_over(state)
        kinds |= k
    for needed in ("move:move", "move:end", "hatch:hatch", "bid:bid", "card:pass",
                   "card:play"):
        assert needed in kinds, (needed, sorted(kinds))


def test_default_strong_seat_finishes_a_game():
    policies = [FastPolicy(), StrongPolicy(), FastPolicy()]
    state, actions, _ = play(policies, 3, 21)
    assert EVO.is_over(state)
    assert any(p == 1 for p, _ in actions)


@pytest.mark.parametrize("level", ["random", "fast"])
def test_same_seed_same_game(level):
    _, first, _ = play([policy_for(level)] * 4, 4, 7)
    _, again, _ = play([policy_for(level)] * 4, 4, 7)
    assert first == again


def test_strong_is_deterministic():
    policies = [StrongPolicy(), FastPolicy(), StrongPolicy(width=3, budget=200)]
    state, first, _ = play(policies, 3, 8)
    _, again, _ = play(policies, 3, 8)
    assert first == again and EVO.is_over(state)


def test_choose_action_is_deterministic_and_legal():
    state = EVO.new_game(seats(3), 5)
    for _ in range(60):
        p = EVO.to_act(state)[0]
        a = choose_action(EVO, state, p, "fast")
        assert a == choose_action(EVO, state, p, "fast")
        assert a in EVO.legal_actions(state, p)
        state, _ = EVO.apply_action(state, p, a)


def _reshuffle_hidden(state, me: int, seed: int):
    """The same game with the opponents' hands, the deck and the bag order redealt."""
    other = state.clone()
    pool = list(other.deck)
    for q in range(other.n):
        if q != me:
            pool += other.hands[q]
    Rng(seed).shuffle(pool)
    for q in range(other.n):
        if q != me:
            k = len(other.hands[q])
            other.hands[q], pool = pool[:k], pool[k:]
    other.deck = pool
    Rng(seed + 1).shuffle(other.bag)
    return other


def test_ai_does_not_read_hidden_information():
    """Two states that differ only in what seat ``me`` cannot see give the same choice."""
    state = EVO.new_game(seats(4), 33)
    fast = [FastPolicy()] * 4
    checked = {"fast": 0, "strong": 0}
    strong = StrongPolicy()
    steps = 0
    while not EVO.is_over(state) and steps < 400:
        p = EVO.to_act(state)[0]
        legal = EVO.legal_actions(state, p)
        if state.turn >= 3 and len(legal) > 1 and any(len(h) for q, h in enumerate(state.hands)
                                                      if q != p):
            twin = _reshuffle_hidden(state, p, steps)
            assert twin.hands != state.hands or twin.deck != state.deck
            assert EVO.view(twin, p) == EVO.view(state, p)
            assert decision_seed(twin, p) == decision_seed(state, p)
            assert choose_action(EVO, twin, p, "fast") == choose_action(EVO, state, p, "fast")
            checked["fast"] += 1
            if steps % 3 == 0:
                view = EVO.view(state, p)
                seed = decision_seed(state, p)
                assert (strong.choose(EVO.view(twin, p), legal, seed)
                        == strong.choose(view, legal, seed))
                checked["strong"] += 1
        action = fast[p].choose(EVO.view(state, p), legal, decision_seed(state, p))
        EVO.apply_in_place(state, p, action)
        steps += 1
    assert checked["fast"] > 50 and checked["strong"] > 15


def _deadly_with_safe_neighbour(players: int, climate: int):
    b = board_for(players)
    zone = lambda r: R.zone_of(type("S", (), {"climate": climate})(), b.terrain[r])  # noqa: E731
    for r in range(len(b)):
        if zone(r) != "deadly" or r in b.starts:
            continue
        for x in b.neighbours[r]:
            if zone(x) == "temperate":
                return b.names[r], r
    raise AssertionError("no such region")


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_ai_moves_a_dino_out_of_a_deadly_region(level):
    climate = 3  # mountains temperate: prairies and beaches are deadly
    name, r = _deadly_with_safe_neighbour(3, climate)
    b = board_for(3)
    # the other species far away, in safe places
    safe = [b.names[x] for x in range(len(b)) if R.TRACK[climate] == b.terrain[x]
            and x not in b.neighbours[r] and x != r]
    state = EVO.scenario(3, seed=2, phase="movement", climate=climate, hands={},
                         dinos={0: [name], 1: [safe[0]], 2: [safe[-1]]})
    assert EVO.to_act(state) == [0]
    action = choose_action(EVO, state, 0, level)
    assert action["type"] == "move" and action["from"] == name
    dest = b.region(action["to"])
    # temperate, or hot/cold where its single parasol/fur keeps it alive
    assert R.zone_of(state, b.terrain[dest]) != "deadly"


def test_ai_does_not_walk_into_death():
    climate = 3
    b = board_for(3)
    safe = [x for x in range(len(b)) if R.TRACK[climate] == b.terrain[x]]
    # a lone temperate dino may step to a place that its parasol covers, never to death
    for level in ("fast", "strong"):
        state = EVO.scenario(3, seed=2, phase="movement", climate=climate, hands={},
                             dinos={0: [b.names[safe[0]]], 1: [b.names[safe[-1]]], 2: []})
        action = choose_action(EVO, state, 0, level)
        if action["type"] == "move":
            dest = b.region(action["to"])
            assert R.zone_of(state, b.terrain[dest]) != "deadly"


def test_fast_bids_stay_sane():
    for meteor, mp in ((1, 30), (6, 30), (10, 30), (10, 4)):
        state = EVO.scenario(3, seed=4, phase="evolution", meteor=meteor, hands={},
                             mp=[mp, mp, mp])
        p = EVO.to_act(state)[0]
        for _ in range(12):  # the whole auction, every bidder fast
            if EVO.is_over(state) or state.stage != "bid":
                break
            p = EVO.to_act(state)[0]
            legal = EVO.legal_actions(state, p)
            a = choose_action(EVO, state, p, "fast")
            assert a in legal
            if a["type"] == "bid":
                cap = max(1, int(0.6 * state.mp[p])) + state.genes[p][R.MUTANT]
                assert a["amount"] <= cap
                if meteor >= 10:  # one or two turns left: genes are worth little
                    assert a["amount"] <= 3
            state, _ = EVO.apply_action(state, p, a)


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_losses_fall_on_the_dino_with_the_worse_future(level):
    climate = 1  # prairies temperate: beaches hot, one parasol keeps one of two hot dinos
    b = board_for(3)
    fv = ai._info(3).fv(climate, True, True, ai.DEFAULT)
    hot = sorted((fv[r], r) for r in range(len(b))
                 if R.TRACK[climate] - 1 == b.terrain[r] and r not in b.starts)
    (low, worse), (high, better) = hot[0], hot[-1]
    assert high - low > 0.3
    temperate = [x for x in range(len(b)) if b.terrain[x] == R.TRACK[climate]
                 and x not in b.neighbours[worse] and x not in b.neighbours[better]]
    state = EVO.scenario(3, seed=3, phase="survival", climate=climate, hands={},
                         dinos={0: [b.names[worse], b.names[better]],
                                1: [b.names[temperate[0]]], 2: [b.names[temperate[-1]]]})
    assert state.stage == "choose" and state.pending[0] == [0, 1]
    action = choose_action(EVO, state, 0, level)
    assert action == {"type": "lose", "regions": [b.names[worse]]}


def test_policy_for_levels():
    assert isinstance(policy_for("random"), RandomPolicy)
    assert isinstance(policy_for("fast"), FastPolicy)
    assert isinstance(policy_for("strong"), StrongPolicy)
    with pytest.raises(ValueError):
        policy_for("godlike")


# --- card windows, MOI D'ABORD's choice, SURSAUT at payment --------------------------------------

def test_a_window_with_nothing_playable_is_passed_without_looking(monkeypatch):
    """Windows open whenever someone holds a card: an AI with nothing playable passes at once
    (no view is built, no rule of thumb is run)."""
    state = EVO.scenario(3, seed=1, phase="climate", hands={0: ["on_crame"], 1: ["encore"]})
    assert EVO.card_window(state, 0) and EVO.legal_actions(state, 0) == [{"type": "pass"}]
    monkeypatch.setattr(EVO, "view", lambda *a: (_ for _ in ()).throw(AssertionError("view")))
    for level in ("random", "fast", "strong"):
        assert choose_action(EVO, state, 0, level) == {"type": "pass"}


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_moi_dabord_player_goes_first_except_in_the_auction(level):
    state = EVO.scenario(3, seed=2, phase="movement", order=[0, 1, 2], hands={},
                         effects={"first": 2})
    assert EVO.to_act(state) == [2] and EVO.legal_actions(state, 2)[0]["type"] == "first"
    assert choose_action(EVO, state, 2, level) == {"type": "first", "go": True}
    state = EVO.scenario(3, seed=2, phase="evolution", order=[0, 1, 2], hands={},
                         effects={"first": 2})
    assert choose_action(EVO, state, 2, level) == {"type": "first", "go": False}


def _paying(mp0: int, amount: int, meteor: int = 2):
    state = EVO.scenario(3, seed=3, phase="evolution", meteor=meteor, mp=[mp0, 10, 10],
                         hands={0: ["sursaut_genetique"]}, order=[0, 1, 2])
    state.rng = rng_for_dice(6)  # a meteorite die, if rolled, misses
    state, _ = EVO.apply_action(state, 0, {"type": "pass"})  # the phase-6 window
    if state.window is not None:
        state, _ = EVO.apply_action(state, 0, {"type": "pass"})  # after the meteorite die
    for p, slot, bid in ((0, 0, amount), (1, 1, 0), (2, 2, 0)):
        state, _ = EVO.apply_action(state, p, {"type": "bid", "gene": slot, "amount": bid})
    assert state.window["at"] == "pay" and EVO.to_act(state) == [0]
    return state


def test_fast_keeps_sursaut_for_the_payment_and_plays_it_there():
    state = EVO.scenario(3, seed=3, phase="evolution", mp=[10, 10, 10], order=[0, 1, 2],
                         hands={0: ["sursaut_genetique"]})
    state, _ = EVO.apply_action(state, 0, {"type": "pass"})
    assert state.stage == "bid" and EVO.to_act(state) == [0]
    assert choose_action(EVO, state, 0, "fast")["type"] == "bid"  # not the card yet
    play = {"type": "play", "card": "sursaut_genetique"}
    assert choose_action(EVO, _paying(10, 4), 0, "fast") == play  # saves 3
    assert choose_action(EVO, _paying(10, 1), 0, "fast") == {"type": "pass"}  # saves 1
    assert choose_action(EVO, _paying(10, 1, meteor=10), 0, "fast") == play  # last chance


@pytest.mark.parametrize("level", ["random", "fast", "strong"])
def test_every_level_answers_a_window_that_asks_everyone_at_once(level):
    """The pay window asks both holders at once; each level answers from its own view, and a
    card it answers is played once the other has answered (fast and strong play SURSAUT,
    which saves 3 of a price of 4)."""
    state = EVO.scenario(3, seed=3, phase="evolution", mp=[10, 10, 10], order=[0, 1, 2],
                         hands={0: ["sursaut_genetique"], 2: ["ca_caille"]})
    state, _ = EVO.apply_action(state, 0, {"type": "pass"})  # the phase-6 window: both
    state, _ = EVO.apply_action(state, 2, {"type": "pass"})
    for p, slot, bid in ((0, 0, 4), (1, 1, 0), (2, 2, 0)):
        state, _ = EVO.apply_action(state, p, {"type": "bid", "gene": slot, "amount": bid})
    assert state.window["at"] == "pay" and EVO.to_act(state) == [0, 2]
    answer = choose_action(EVO, state, 0, level)
    assert answer in EVO.legal_actions(state, 0)
    if level != "random":
        assert answer == {"type": "play", "card": "sursaut_genetique"}
    state, _ = EVO.apply_action(state, 0, answer)
    assert EVO.to_act(state) == [2]
    other = choose_action(EVO, state, 2, level)
    state, events = EVO.apply_action(state, 2, other)
    played = [e["card"] for e in events if e["type"] == "card_played"]
    assert played == (["sursaut_genetique"] if answer["type"] == "play" else [])


# --- strategic kinds and silly plays (issue 22) ------------------------------------------------

def _regions(players: int, climate: int, zone: str) -> list[str]:
    b = board_for(players)
    s = type("S", (), {"climate": climate})()
    return [b.names[r] for r in range(len(b))
            if r not in b.starts and R.zone_of(s, b.terrain[r]) == zone]


def test_strategic_kinds_name_every_card_gene_and_board_move():
    kinds = ai.STRATEGIC
    assert sum(k.startswith("card:") for k in kinds) == 25 and "card:gene_inattendu" not in kinds
    assert {f"bid:{g}" for g in ("card", "tail", "fur", "legs", "parasol", "horns", "mutant",
                                 "egg")} <= set(kinds)
    for k in ("auction_pass", "first_go", "first_keep", "move_escape", "move_cold", "move_hot",
              "move_attack", "hatch_attack"):
        assert k in kinds
    # every legal action of random games is classified into listed kinds only
    seen = set()
    for n, seed, variant in ((3, 11, False), (4, 12, True), (5, 13, False)):
        state = EVO.new_game(seats(n), seed, {"variant": variant})
        rnd = RandomPolicy()
        while not EVO.is_over(state):
            p = EVO.to_act(state)[0]
            legal = EVO.legal_actions(state, p)
            view = EVO.view(state, p)
            for a in legal:
                got = ai.strategic_kinds(view, a)
                assert set(got) <= set(kinds), (a, got)
                seen.update(got)
            EVO.apply_in_place(state, p, rnd.choose(view, legal, decision_seed(state, p)))
    assert {"move_escape", "move_attack", "bid:egg", "auction_pass"} <= seen
    view = EVO.view(EVO.scenario(3, seed=2, phase="movement", order=[0, 1, 2], hands={},
                                 effects={"first": 2}), 2)
    assert ai.strategic_kinds(view, {"type": "first", "go": False}) == ("first_keep",)
    assert ai.strategic_kinds(view, {"type": "play", "card": "eon_calme"}) == ("card:eon_calme",)


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_ai_does_not_stop_while_two_dinos_stand_in_deadly_terrain(level):
    """The silly play counted by bench/ai_matchup.py's EvoSilly: movement ended with no step
    while two dinos die where they stand and a step saves one."""
    climate = 3
    b = board_for(3)
    doomed = [n for n in _regions(3, climate, "deadly")
              if any(R.zone_of(type("S", (), {"climate": climate})(), b.terrain[x])
                     == "temperate" for x in b.neighbours[b.region(n)])][:2]
    far = [n for n in _regions(3, climate, "temperate")
           if not any(b.region(n) in b.neighbours[b.region(d)] for d in doomed)]
    state = EVO.scenario(3, seed=2, phase="movement", climate=climate, hands={},
                         dinos={0: doomed, 1: [far[0]], 2: [far[-1]]})
    assert EVO.to_act(state) == [0] and ai.saving_steps(ai._obs(EVO.view(state, 0)), 0)
    action = choose_action(EVO, state, 0, level)
    assert action["type"] == "move" and action["from"] in doomed
    assert "move_escape" in ai.strategic_kinds(EVO.view(state, 0), action)


@pytest.mark.parametrize("level", ["fast", "strong"])
@pytest.mark.parametrize("card", ["pthermolactyl", "peau_adaptable", "on_crame", "ca_caille"])
def test_ai_keeps_a_survival_card_that_would_do_nothing(level, card):
    """PTHERMOLACTYL with no dino in the cold, ON CRAME hurting nobody...: passed."""
    temp = _regions(3, 1, "temperate")
    state = EVO.scenario(3, seed=3, phase="survival", climate=1,
                         hands={0: [card], 1: ["encore"]},
                         dinos={0: temp[:2], 1: [temp[3]], 2: [temp[5]]})
    assert state.window["at"] == "phase5" and 0 in EVO.to_act(state)
    assert not ai.card_has_effect(ai._obs(EVO.view(state, 0)), 0, card)
    assert choose_action(EVO, state, 0, level) == {"type": "pass"}


def test_pthermolactyl_is_played_when_it_saves_a_dino():
    temp, cold = _regions(3, 1, "temperate"), _regions(3, 1, "cold")
    state = EVO.scenario(3, seed=3, phase="survival", climate=1,
                         hands={0: ["pthermolactyl"], 1: ["encore"]},
                         dinos={0: cold[:2], 1: [temp[3]], 2: [temp[5]]})
    assert ai.card_has_effect(ai._obs(EVO.view(state, 0)), 0, "pthermolactyl")
    for level in ("fast", "strong"):
        assert choose_action(EVO, state, 0, level) == {"type": "play", "card": "pthermolactyl"}


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_rate_evolutionniste_when_a_poorer_opponent_would_go_without(level):
    def auction_window(mp):
        state = EVO.scenario(3, seed=3, phase="evolution", meteor=9, mp=mp, order=[0, 1, 2],
                             hands={0: ["rate_evolutionniste"]})
        state.rng = rng_for_dice(6)  # the meteorite die misses: the game goes on
        state, _ = EVO.apply_action(state, 0, {"type": "pass"})  # the phase-6 window
        assert state.window["at"] == "auction"
        return state

    play = {"type": "play", "card": "rate_evolutionniste"}
    assert choose_action(EVO, auction_window([20, 5, 5]), 0, level) == play
    assert choose_action(EVO, auction_window([3, 20, 20]), 0, level) == {"type": "pass"}


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_eon_calme_shields_dinos_at_the_limit_of_fur_and_parasol(level):
    """Our dinos in the heat and the cold exactly as many as parasol and fur cover, and the
    opponents holding many cards (ON CRAME and ÇA CAILLE unseen): ÉON CALME stops them. With
    every dino temperate there is nothing to stop: passed."""
    temp, hot, cold = (_regions(3, 1, z) for z in ("temperate", "hot", "cold"))
    theirs = {1: ["encore", "gaz_de_combat", "accident", "motivation", "grand_frere"],
              2: ["deluge", "cata", "maousse_kosto", "gene_survivaliste", "moi_dabord"]}
    state = EVO.scenario(3, seed=3, phase="survival", climate=1,
                         hands={0: ["eon_calme"], **theirs},
                         dinos={0: [temp[0], hot[0], cold[0]], 1: [temp[3]], 2: [temp[5]]})
    assert choose_action(EVO, state, 0, level) == {"type": "play", "card": "eon_calme"}
    state = EVO.scenario(3, seed=3, phase="survival", climate=1,
                         hands={0: ["eon_calme"], **theirs},
                         dinos={0: temp[:2], 1: [temp[3]], 2: [temp[5]]})
    assert choose_action(EVO, state, 0, level) == {"type": "pass"}


def test_bench_counts_evo_silly_plays_and_strategic_kinds():
    """bench/ai_matchup.py's EvoSilly and the coverage, on a few games of fast seats with one
    random seat (which makes silly plays): the random seat's are counted, fast makes none."""
    import sys
    from pathlib import Path

    from engine.ai import Coverage, strategic

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from ai_matchup import EvoSilly

    cov = Coverage(*strategic("evo"))
    silly = {"fast": {}, "random": {}}
    for g in range(4):
        n = 3 + g % 3
        levels = ["fast"] * n
        levels[g % n] = "random"
        watch = EvoSilly(tuple(levels))
        state = EVO.new_game(seats(n), 300 + g, {"variant": g % 2 == 1})
        while not EVO.is_over(state):
            p = EVO.to_act(state)[0]
            legal = EVO.legal_actions(state, p)
            view = EVO.view(state, p) if len(legal) > 1 else None
            action = legal[0] if view is None else policy_for(levels[p]).choose(
                view, legal, decision_seed(state, p))
            if view is not None:
                cov.record(levels[p], view, legal, action)
            watch(state, p, levels[p], view, legal, action, EVO.apply_in_place(state, p, action))
        for lv, counts in watch.counts.items():
            for k, c in counts.items():
                silly[lv][k] = silly[lv].get(k, 0) + c
    assert silly["fast"] == {"idle_in_deadly": 0, "useless_card": 0}, silly
    assert silly["random"]["useless_card"] > 0, silly
    assert cov.chosen["fast"].get("move_escape") and cov.chosen["fast"].get("bid:egg")
