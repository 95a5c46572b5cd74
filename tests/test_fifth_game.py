"""Issue 23: a fifth game defined inside tests/ (tests/fifth_game/: a hidden hand per player,
one secret simultaneous step a round) joins the bot through its description alone: it is
registered here (``engine.core.registered``) and played to the end through SimCord with the
real cogs, host, store and images; no file outside tests/ names it. It follows
docs/architecture.md's "Adding a game: the checklist". ``pytest -k fifth_game`` runs these."""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path

import pytest

from engine import IllegalAction, Seat
from engine.core import (
    GameDescription,
    decision_key,
    description,
    descriptions,
    game_kinds,
    registered,
    step_key,
)
from messages import describe, explain, t
from tests.conftest import flush
from tests.fifth_game import FIELDS, FIFTH
from tests.fifth_game.messages import card_label
from tests.test_discord import custom_ids, reply_text

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = Path(FIELDS["catalogue"])


@pytest.fixture
def fifth_game():
    """The fifth game, registered for one test (forgotten afterwards)."""
    with registered(FIFTH, **FIELDS) as game:
        yield game


@pytest.fixture
async def simcord_bot(darwin_config, fifth_game):
    """conftest's bot, made once the fifth game is registered (its cog is loaded with the
    others)."""
    from cogs.bot import DarwinBot

    bot = DarwinBot(darwin_config)
    yield bot
    await bot.stop_services()


def seats(n: int) -> list[Seat]:
    return [Seat(f"u{i}", f"P{i}") for i in range(n)]


def random_game(seed: int, n: int, options=None, check=None):
    """A game of random moves to the end; ``check(before, p, action, after, events)`` sees
    every move. Returns the final state and every event."""
    rnd = random.Random(seed)
    state, events = FIFTH.new_game_with_events(seats(n), seed, options or {})
    every = list(events)
    while not FIFTH.is_over(state):
        p = rnd.choice(FIFTH.to_act(state))
        action = rnd.choice(FIFTH.legal_actions(state, p))
        after, events = FIFTH.apply_action(state, p, action)
        if check is not None:
            check(state, p, action, after, events)
        state = after
        every += events
    return state, every


# --- the description and its readers ---------------------------------------------------------------

def test_fifth_game_is_known_only_while_registered(fifth_game):
    import images
    from cogs.bot import extensions

    assert isinstance(fifth_game, GameDescription) and description("fifth") is fifth_game
    assert "fifth" in game_kinds() and descriptions()[-1] is fifth_game
    assert (fifth_game.min_players, fifth_game.max_players) == (2, 4)
    assert fifth_game.defaults() == {"double_last": False}
    assert "fifth" in images.HAND_KINDS and "tests.fifth_game.cog" in extensions()
    assert t("fifth.name") == "Fifth" and t("fifth.name", "it") == "Quinto"


def test_fifth_game_is_forgotten_afterwards():
    import images
    from cogs.bot import extensions

    assert "fifth" not in game_kinds() and "fifth" not in images.HAND_KINDS
    assert "tests.fifth_game.cog" not in extensions() and t("fifth.name") == "fifth.name"


def test_fifth_game_is_named_by_no_file_outside_tests():
    shared = [p for folder in ("engine", "host", "store", "images", "messages", "cogs", "ops",
                               "bench", "docs")
              for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".toml", ".md")]
    shared += [ROOT / "bot.py", ROOT / "demo.py"]
    assert [p for p in shared if "fifth_game" in p.read_text(encoding="utf-8")] == []


def test_fifth_game_catalogue_has_the_same_keys_in_every_language():
    def keys(table, prefix=""):
        out = set()
        for k, v in table.items():
            out |= keys(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
        return out

    tables = {lang: tomllib.loads((CATALOGUE / lang / "fifth.toml").read_text("utf-8"))
              for lang in ("en", "it", "fr")}
    assert keys(tables["en"]) == keys(tables["it"]) == keys(tables["fr"])


def test_fifth_game_demo_plays_it_with_its_images(fifth_game, tmp_path, capsys):
    """demo.py reads the description: its flags (``--double-last``) and the renderer."""
    import argparse

    import demo

    parser = argparse.ArgumentParser()
    demo.add_arguments(parser)
    args = parser.parse_args(["fifth", "--players", "3", "--double-last", "--out",
                              str(tmp_path)])
    assert demo.game_options(args) == {"double_last": True}
    assert demo.main(args) == 0
    assert len(list(tmp_path.glob("*-round.png"))) == 3
    log = (tmp_path / "log.txt").read_text()
    assert "Game over." in log and "fifth." not in log
    wrong = parser.parse_args(["evo", "--double-last"])
    assert demo.misplaced_options(wrong) == [
        "demo: --double-last is an option of fifth, not of evo (evo takes --variant)."]


def test_fifth_game_ai_matchup_runs_from_the_description(fifth_game, capsys):
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    import ai_matchup

    assert ai_matchup.main(["--game", "fifth", "--games", "3", "--workers", "1",
                            "--only", "c"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Fifth AI matchups: 3 games each") and "(c) 1 fast vs random" in out


# --- the engine contract -------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_fifth_game_engine_contract(fifth_game, n):
    def check(before, p, action, after, events):
        saved = json.dumps(FIFTH.to_json(before), sort_keys=True)
        # the old state is untouched, saves round-trip, an illegal action changes nothing
        assert FIFTH.from_json(json.loads(json.dumps(FIFTH.to_json(after)))) == after
        with pytest.raises(IllegalAction):
            FIFTH.apply_action(before, p, {"type": "play", "card": "n99"})
        with pytest.raises(IllegalAction):
            FIFTH.check_action({"type": "play", "card": 7})
        assert json.dumps(FIFTH.to_json(before), sort_keys=True) == saved
        # a secret move moves only its player's decision key, never the public step
        secret = not FIFTH.is_over(after) and after.round == before.round
        for q in range(n):
            moved = decision_key(FIFTH, after, q, 0) != decision_key(FIFTH, before, q, 0)
            assert moved == (q == p or not secret)
        assert (step_key(FIFTH, after, 0) == step_key(FIFTH, before, 0)) == secret
        assert FIFTH.undoable(before, p, action, after, events) == secret
        # nobody sees another's hand or face-down card; determinize agrees with the view
        for viewer in [None, *range(n)]:
            v = FIFTH.view(after, viewer)
            for q, row in enumerate(v["players"]):
                assert (row["hand"] is None) == (q != viewer)
                assert q == viewer or row["card"] is None
            if viewer is not None:
                assert FIFTH.view(FIFTH.determinize(v, 5), viewer) == v
        assert all(e.get("type") != "chosen" or set(e) == {"type", "player"} for e in events)

    for seed in range(6):
        state, events = random_game(seed, n, {"double_last": seed % 2 == 0}, check)
        ranking = FIFTH.returns(state)
        assert sorted(r["player"] for r in ranking) == list(range(n))
        assert min(r["rank"] for r in ranking) == 1
        assert sum(r["score"] for r in ranking) >= sum(range(1, 13)[:n * 3]) // 2
        for lang in ("en", "it", "fr"):
            for ev in events:
                line = describe("fifth", ev, [f"P{i}" for i in range(n)], lang)
                assert line is None or "fifth." not in line, line


@pytest.mark.parametrize("check", ["random_game", "illegal_actions", "save_load", "replay",
                                   "views", "ai_levels", "render", "demo"])
def test_fifth_game_passes_the_contract_suite(fifth_game, check, tmp_path):
    """The same checks as every built-in game (tests/contract.py, tests/test_contract.py)."""
    from tests import contract

    for n, options in contract.configs("fifth"):
        if check == "demo":
            contract.check_demo("fifth", n, 800, tmp_path / f"{n}", options)
        elif check == "render":
            assert contract.check_render("fifth", n, 700, options) == 4
        else:
            getattr(contract, f"check_{check}")("fifth", n, 100, options)


def test_fifth_game_refusals_are_worded(fifth_game):
    with pytest.raises(IllegalAction) as err:
        FIFTH.new_game(seats(5), 1)
    assert explain("fifth", err.value) == "This game is for 2 to 4 players."
    with pytest.raises(IllegalAction) as err:
        FIFTH.new_game(seats(2), 1, {"turbo": True})
    assert err.value.code == "unknown_option"
    state = FIFTH.new_game(seats(2), 1)
    mine = FIFTH.legal_actions(state, 0)[0]
    state, _ = FIFTH.apply_action(state, 0, mine)
    with pytest.raises(IllegalAction) as err:
        FIFTH.apply_action(state, 0, FIFTH.legal_actions(state, 1)[0])
    assert explain("fifth", err.value, ["Ann", "Bob"], "it") == \
        "Non è il tuo turno: si aspetta Bob."


def test_fifth_game_ai_levels_play_it(fifth_game):
    from engine.ai import ai_action

    for level in fifth_game.ai_levels:
        state = FIFTH.new_game(seats(3), 4)
        while not FIFTH.is_over(state):
            p = FIFTH.to_act(state)[0]
            state, _ = FIFTH.apply_action(state, p, ai_action(FIFTH, state, p, level))
        assert FIFTH.returns(state)[0]["rank"] == 1


def test_fifth_game_images_are_pngs(fifth_game):
    import images

    state, _ = random_game(3, 3)
    for view in (FIFTH.view(FIFTH.new_game(seats(3), 3), None), FIFTH.view(state, None)):
        assert images.render("fifth", view, "fr").startswith(b"\x89PNG")
    hand = FIFTH.view(FIFTH.new_game(seats(3), 3), 1)
    assert images.render_hand("fifth", hand, "it").startswith(b"\x89PNG")


# --- on Discord ----------------------------------------------------------------------------------

def menu_values(message) -> list[str]:
    return [o.value for row in message.components
            for child in getattr(row, "children", [row]) for o in getattr(child, "options", [])]


async def test_fifth_game_played_to_the_end_on_discord(simcord_env, fifth_game):
    """Ann and Bob and an AI seat play a whole game: /fifth new (double last round), Join,
    Add AI, Start; each round Ann opens her hand with the table's **My cards** button (a
    private message with the hand's picture and a menu) and Bob plays by /fifth play; the
    table shows who has played, never what, posts each round's board image and the result."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("fifth")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    result = await ann.slash(channel, "fifth new", double_last=True)
    assert not result.ephemeral  # issue 25: answered with the lobby itself
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Add AI")
    await ann.click(lobby, label="Start")
    game = env.bot.host.game_in(channel.id)
    assert game is not None and game.kind == "fifth" and game.status == "active"
    assert game.options == {"double_last": True} and game.seats[2].get("ai")
    seat = {ann.id: game.seat_of(ann.id), bob.id: game.seat_of(bob.id)}
    for round_ in (1, 2, 3):
        await flush(env)
        assert game.state.round == round_
        # Ann: the table's My cards button, then the private menu
        r = await ann.click(channel.last_message, label=t("bot.btn_hand"))
        assert r.ephemeral and t("fifth.bot.hand", cards="")[:10] in reply_text(r)
        assert [a.filename for a in r.response.attachments] == ["hand.png"]
        menu = r.response.message
        values = menu_values(menu)
        hand = FIFTH.view(game.state, seat[ann.id])["players"][seat[ann.id]]["hand"]
        assert sorted(json.loads(v)["card"] for v in values) == sorted(hand)
        before = game.seq
        select = next(cid for cid in custom_ids(menu) if cid.startswith("dw:s:"))
        await ann.select(r.response, [values[-1]], custom_id=select)
        assert game.seq == before + 1
        chosen = json.loads(values[-1])["card"]
        await flush(env)
        table = channel.last_message.content  # who has played, never what
        # only this round's lines: the last round's reveal may name "card 10"
        this_round = table.split(t("fifth.event.round_start", round=round_))[-1]
        assert t("fifth.event.chosen", player="ann") in this_round
        assert not re.search(rf"\b{re.escape(card_label(chosen))}\b", this_round)
        # Bob: the slash command, with a card of his hand
        card = FIFTH.legal_actions(game.state, seat[bob.id])[0]["card"]
        before = game.seq
        r = await bob.slash(channel, "fifth play", card=card)
        assert r.acknowledged and r.ephemeral and game.seq == before + 1, reply_text(r)
        for _ in range(10):  # the AI seat plays after its delay
            if game.status != "active" or game.state.round > round_:
                break
            await env.advance_time(1.0)
    await flush(env)
    assert game.status == "finished"
    messages = list(channel.history())
    final = messages[-1].content
    assert "Game over." in final and "ann" in final and "bob" in final
    images = [a for m in messages for a in m.attachments]
    assert len(images) >= 3 and all(a.filename.endswith(".png") for a in images)
    results = await env.bot.store.game_results(game.id)
    assert sorted(r.seat for r in results) == [0, 1, 2]
