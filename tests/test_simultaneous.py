"""Choices several players make at the same moment, through the host (issue 21).

Whenever a game awaits several players at once (EVO's loss choices in survival, Evolution:
Climate's food cards and a Quick game's play phase; Random Mutations and Cubosaurs never do),
each awaited player's buttons are drawn for the same position, bound to that player's own
decision key (``LiveGame.key_for``). Pressed at the same moment, every one of them is
accepted: one player's choice never invalidates another's still-valid choice.
"""

from __future__ import annotations

import random

import pytest

from engine import get_game
from store import Store
from tests.test_host import make_host


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(str(tmp_path / "same_moment.sqlite3"))
    yield s
    await s.close()


# (kind, options, players, the simultaneous steps to check in one game)
GAMES = [
    ("evo", {}, 4, 3),
    ("climate", {"events": True, "quick": False}, 3, 3),
    ("climate", {"events": True, "quick": True}, 3, 3),
    ("mutations", {}, 3, 0),
    ("cubosaurs", {}, 3, 0),
]


def _choice(rules, state, seat: int, rnd: random.Random) -> dict:
    """A random legal action, card plays and trading-off moves left aside when there is
    something else (the games then reach their simultaneous steps sooner)."""
    legal = rules.legal_actions(state, seat)
    plain = [a for a in legal if a["type"] not in ("play", "exchange")]
    return rnd.choice(plain or legal)


async def _same_moment(host, channel: str, game, rnd: random.Random) -> int:
    """Every awaited player chooses at once: all their choices are drawn at this position
    (their keys now), then sent one after the other. Returns how many were sent."""
    awaited = game.awaiting()
    drawn = [(seat, game.key_for(seat), _choice(game.rules, game.state, seat, rnd))
             for seat in awaited]
    rnd.shuffle(drawn)  # whoever's press arrives first
    for seat, key, action in drawn:
        await host.act(channel, game.seats[seat]["id"], action, expected_key=key)
    return len(drawn)


@pytest.mark.parametrize("kind, options, players, wanted", GAMES,
                         ids=[f"{g[0]}{'-quick' if g[1].get('quick') else ''}" for g in GAMES])
async def test_choices_made_at_the_same_moment_are_all_accepted(store, kind, options,
                                                                 players, wanted):
    host, _ = make_host(store)
    rules = get_game(kind)
    await host.open_lobby("g", "c1", kind, "u0", "P0", options=options)
    for i in range(1, players):
        await host.join("c1", f"u{i}", f"P{i}")
    await host.start_game("c1", "u0", False, seed=11)
    game = host.game_in("c1")
    rnd = random.Random(5)
    found = 0
    for _ in range(3000):
        if game.status != "active" or found >= max(wanted, 1):
            break
        awaited = game.awaiting()
        if len(awaited) > 1:
            found += 1
            assert await _same_moment(host, "c1", game, rnd) == len(awaited)
            continue
        seat = awaited[0]
        await host.act("c1", game.seats[seat]["id"], _choice(rules, game.state, seat, rnd),
                       expected_key=game.key_for(seat))
    assert found >= wanted
    if not wanted:  # a game without simultaneous steps, played to its end
        assert found == 0 and game.status == "finished"
    await host.close()


async def test_evo_losses_chosen_at_the_same_moment(store):
    """The issue's case: two players choose their losses from menus drawn at the same
    position; the second is accepted too (it was refused as drawn for an earlier moment)."""
    from engine.evo import EVO, scenario
    from engine.evo.data import board_for
    from tests.evo_helpers import BEACH, HILL, PRAIRIE, square_of

    host, rec = make_host(store)
    await host.open_lobby("g", "c1", "evo", "u0", "Ann")
    await host.join("c1", "u1", "Bob")
    await host.join("c1", "u2", "Cy")
    await host.start_game("c1", "u0", False, seed=3)
    game = host.game_in("c1")
    # survival with the climate on the prairie: hills are cold, beaches hot; no fur, no
    # parasol, two dinos each in the cold: Ann and Bob each lose one of theirs, their choice
    b = board_for(3)
    cold = [r for r in range(len(b)) if b.terrain[r] == HILL]
    state = scenario(3, 3, phase="survival", turn=1, climate=square_of(PRAIRIE),
                     dinos={0: [b.names[r] for r in cold[:2]],
                            1: [b.names[r] for r in cold[2:4]],
                            2: [b.names[r] for r in range(len(b))
                                if b.terrain[r] in (PRAIRIE, BEACH)][:1]},
                     genes={0: {"fur": 1}, 1: {"fur": 1}, 2: {"parasol": 1}})
    assert EVO.to_act(state) == [0, 1]
    game.state = state  # the position as the table shows it
    keys = [game.key_for(0), game.key_for(1)]
    await host.act("c1", "u1", {"type": "lose", "regions": [b.names[cold[2]]]},
                   expected_key=keys[1])
    assert game.awaiting() == [0]
    await host.act("c1", "u0", {"type": "lose", "regions": [b.names[cold[1]]]},
                   expected_key=keys[0])
    assert game.state.stage != "choose" and state.occ != game.state.occ
    assert [e for o in rec.outcomes for e in o.events if e["type"] == "points"]
    await host.close()
