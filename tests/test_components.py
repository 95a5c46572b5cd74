"""The one base of every button and menu (cogs/components.py), the host's one position check,
the lobby message kept through the host, and a refusal with no game to word it."""

from __future__ import annotations

import pytest

from cogs.common import refusal
from cogs.components import NOT_PRESSABLE, PREFIXES, Component, component_classes, hint_id
from engine import IllegalAction
from host import HostError
from messages import t
from store import Store
from tests.test_host import make_host, three_player_game


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(str(tmp_path / "components.sqlite3"))
    yield s
    await s.close()


def test_every_prefix_is_written_once_and_names_its_class():
    classes = component_classes()
    assert [c.prefix for c in classes] == list(PREFIXES)
    assert len({c.__name__ for c in classes}) == len(classes)
    assert all(issubclass(c, Component) for c in classes)
    assert not set(PREFIXES) & set(NOT_PRESSABLE)
    # no template of one prefix matches the ids of another ("c" and "ck", "r..." apart)
    samples = {"l": "dw:l:1:join", "a": 'dw:a:1:2:{"type":"pass"}', "s": "dw:s:1:2:0:tag",
               "h": "dw:h:1", "c": "dw:c:1:2:0:pass", "ck": "dw:ck:1:0", "u": "dw:u:1:2",
               "rm": "dw:rm:1", "rp": "dw:rp:1"}
    assert set(samples) == set(PREFIXES)
    for cls in classes:
        for prefix, cid in samples.items():
            matched = cls.__discord_ui_compiled_template__.fullmatch(cid) is not None
            assert matched == (prefix == cls.prefix), (cls.__name__, cid)
    assert hint_id(1, 2, "trait") == "dw:m:1:2:trait"


def test_a_class_must_own_the_prefix_it_claims():
    with pytest.raises(TypeError):
        class Impostor(Component, prefix="a", fields=r"(?P<game>\d+)"):
            pass
    with pytest.raises(TypeError):
        class Unlisted(Component, prefix="zz", fields=r"(?P<game>\d+)"):
            pass


def test_custom_ids_leave_out_missing_optional_fields():
    from cogs.table import ActButton, ActSelect

    assert ActSelect.make_id(4, None, 1, "") == "dw:s:4:1"
    assert ActSelect.make_id(4, 0, 1, "lose") == "dw:s:4:0:1:lose"
    assert ActButton(4, None, {"type": "pass"}, "Pass").custom_id == 'dw:a:4:{"type":"pass"}'


def test_a_game_refusal_without_its_game_is_the_generic_sentence():
    """Only a game's own catalogue words its refusal codes: without the game (it left the
    channel meanwhile) the reader gets the generic sentence, never another game's wording
    nor a raw catalogue key."""
    for lang in ("en", "it", "fr"):
        text = refusal(IllegalAction("not_your_turn", player=0, waiting=[1]), lang, None)
        assert text == t("bot.error_generic", lang)
        assert "error." not in text


async def test_the_position_and_the_seat_of_a_menu_are_checked_under_the_lock(store):
    host, _ = make_host(store)
    game = await three_player_game(host)
    seat = game.awaiting()[0]
    user = game.seats[seat]["id"]
    legal = game.rules.legal_actions(game.state, seat)
    seq = game.seq
    with pytest.raises(HostError) as err:  # drawn for another position
        await host.act("c1", user, legal[0], game_id=game.id, expected_key=seq + 1)
    assert err.value.code == "stale_game"
    other = (seat + 1) % len(game.seats)
    with pytest.raises(IllegalAction) as refused:  # another seat's menu
        await host.act("c1", user, legal[0], game_id=game.id, expected_key=game.key_for(seat),
                       for_seat=other)
    assert refused.value.code == "not_your_turn" and refused.value.params["waiting"] == [other]
    assert game.seq == seq
    with pytest.raises(HostError):  # the same check, without committing anything
        host.check_position(game, seat, seq + 1)
    host.check_position(game, seat, game.key_for(seat), seat)
    await host.act("c1", user, legal[0], game_id=game.id, expected_key=game.key_for(seat),
                   for_seat=seat)
    assert game.seq == seq + 1


async def test_the_lobby_message_is_kept_by_the_host_and_stored(store):
    host, _ = make_host(store)
    game = await host.open_lobby("g", "c1", "evo", "u1", "Ann")
    before = game.lobby
    await host.note_message(game, "lobby", 1234)
    assert game.lobby["messages"] == {"lobby": 1234}
    assert before["messages"] == {}  # an edited copy replaced the lobby
    row = await store.get_game(game.id)
    assert row.decoded()[1]["messages"] == {"lobby": 1234}
    await host.join("c1", "u2", "Bob")  # later lobby changes keep it
    row = await store.get_game(game.id)
    assert row.decoded()[1]["messages"] == {"lobby": 1234}
