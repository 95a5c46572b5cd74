"""The Cubosaurs strong level's threat (advanced rules, 3 players): the fast rules aim the
interactive tiles at their leader, so a player's value loses what the interactive tiles on
offer are expected to cost them before the round ends (ai.exposure, ai.threats, the
measured table ai_threats.THREAT built by ai_measure.threat_notes)."""

from __future__ import annotations

import pytest

from engine.core import Seat
from engine.cubosaurs import CUBOSAURS, ai, ai_measure, scenario
from engine.cubosaurs.ai import StrongPolicy
from engine.cubosaurs.ai_threats import THREAT

G = CUBOSAURS

# player 0 leads (a grey 4 + black 4 pair: losing either card costs 4 + 4 + 4 = 12); player
# 1, whose leader is player 0, holds 3 tokens (a destroy costs 3, a steal or a swap 4);
# player 2 holds none. Player 1 drew a trex and plays.
LEAD = dict(players=3, seed=5, advanced=True, current=1, hand=["trex-6"],
            collections={0: ["grey-7", "black-7", "stego-1", "stego-2"],
                         1: ["bronto-1", "ptero-2", "penta-3"],
                         2: ["trex-1", "ptero-3", "bronto-2"]},
            tokens={0: 2, 1: 3, 2: 0},
            deck=["stego-3", "penta-4", "trex-2", "grey-1", "black-1", "bronto-3", "egg-trex",
                  "ptero-4"])
ATTACKS = ["destroy_other", "steal", "swap", "draw"]
CALM = ["draw", "type_bonus", "egg_bonus", "free_pass"]


def parts(state):
    cols = [ai.Col(c) for c in state.collections]
    return cols, ai.exposure(state.collections, cols, state.tiles, [0] * state.n, state.tokens)


def test_exposure_and_status():
    state = scenario(**LEAD, offer=ATTACKS)
    _, expo = parts(state)
    # player 0 leads for players 1 and 2; the richer of them holds 3 tokens
    assert expo[0] == (12, 3)
    assert expo[1][1] == -1  # nobody's leader
    assert expo[2][1] == 2  # player 0's leader (trex, ptero, bronto: 4 points), 2 tokens
    assert ai.threat_status(3, ai.COST["destroy_other"]) == 0
    assert ai.threat_status(3, ai.COST["steal"]) == 1
    assert ai.threat_status(-1, ai.COST["destroy_other"]) == 2


def test_threats_follow_the_measured_table():
    state = scenario(**LEAD, offer=ATTACKS)
    _, expo = parts(state)
    left = len(state.deck) + 1  # 9 cards: the table's second column (7-12)
    th = ai.threats(state.offer, expo, left, THREAT[3])
    want = 12 * (THREAT[3]["destroy_other"][0][1] + THREAT[3]["steal"][1][1]
                 + THREAT[3]["swap"][1][1])
    assert th[0] == pytest.approx(want)
    assert th[0] > 3 * max(th[1], th[2])
    # no interactive tile on offer, or nothing left to draw: no threat
    assert ai.threats(CALM, expo, left, THREAT[3]) is None
    assert ai.threats(state.offer, expo, 0, THREAT[3]) is None


def test_the_exposed_leader_is_worth_less_while_the_tiles_are_on_offer():
    strong, plain = StrongPolicy(), StrongPolicy(threat_counts=())
    assert strong.threat_counts == (3,)
    on = scenario(**LEAD, offer=ATTACKS)
    off = scenario(**LEAD, offer=CALM)
    for me in range(3):
        # without interactive tiles on offer, the value is the plain one
        assert strong.value(off, me, 1) == plain.value(off, me, 1)
    # with them, the leader (exposed, attacked by the richer opponent) loses chances, the
    # others gain
    assert strong.value(on, 0, 1) < plain.value(on, 0, 1) - 1.0
    assert strong.value(on, 1, 1) > plain.value(on, 1, 1)
    # the standard rules have no tiles: nothing changes there
    std = scenario(**{**LEAD, "advanced": False, "tokens": None})
    assert strong.value(std, 0, 1) == plain.value(std, 0, 1)


@pytest.mark.parametrize("n", [2, 4, 5])
def test_the_threat_is_weighed_at_three_players_only(n, monkeypatch):
    calls = []
    real = ai.threats
    monkeypatch.setattr(ai, "threats", lambda *a: calls.append(a) or real(*a))
    state = G.new_game([Seat(f"ai:{i}", f"AI {i}") for i in range(n)], 11, {"advanced": True})
    strong = StrongPolicy()
    for _ in range(30):
        if G.is_over(state):
            break
        p = G.to_act(state)[0]
        legal = G.legal_actions(state, p)
        v = G.view(state, p)
        G.apply_in_place(state, p, strong.choose(v, legal, ai.view_seed(v)))
    assert calls == []


def test_the_measure_notes_each_tile_status_and_bucket():
    stats = ai_measure.threat_notes(3, 4, 77000 + 3000)
    assert stats
    for (tile, status, bucket), (_loss, exposure, count) in stats.items():
        assert tile in ai.ATTACKS and status in (0, 1, 2) and 1 <= bucket <= 3
        assert count > 0 and exposure >= 0
    table = ai_measure.threat_table(stats, 3)
    assert set(table) == set(ai.ATTACKS)
    assert all(len(rows) == 3 and all(len(r) == 3 for r in rows) for rows in table.values())
    # the committed table has the same shape, and a destroy threatens a leader who can be
    # paid for more than nobody's leader
    assert set(THREAT) == set(ai_measure.THREAT_COUNTS)
    assert all(THREAT[3]["destroy_other"][0][b] > THREAT[3]["destroy_other"][2][b]
               for b in range(3))
