"""Every frame tells the truth (issue 21): the phase images of Random Mutations and Climate.

The table posts (and a replay animates) the public view the engine's observer gives at every
phase end. Such a frame names the phase it depicts (the Random Mutations Climate image is
taken before the Feeding starts, its view still reads "development"), awaits nobody (the
phase is over: no "Waiting for" the last player who acted), shows the zone whose effects
apply in a Cold Snap / Heat Wave round, and labels mid-game points as what they are. A live
position still names who is awaited.
"""

from __future__ import annotations

import copy
import random

import pytest

from engine import Seat
from engine.climate import CLIMATE
from engine.climate.data import EVENTS, ZONES, event_info
from engine.mutations import MUTATIONS
from images import climate as C
from images import common
from images import mutations as M
from messages import t as msg

NAMES = ["Ann", "Bob", "Cyd", "Dee"]


def record(game, players: int, seed: int, options: dict):
    """A game of fast AI and random moves: ``(frames, live, events)``: the observer's
    ``(phase, public view)`` at every phase end, the public view after every action (a
    position where someone is to act, or the end), every event."""
    frames, live, events = [], [], []

    def observer(state, phase):
        frames.append((phase, game.view(state, None)))

    seats = [Seat(str(i + 1), NAMES[i]) for i in range(players)]
    st, evs = game.new_game_with_events(seats, seed, options, observer)
    events.extend(evs)
    rng = random.Random(seed)
    while not game.is_over(st):
        live.append(game.view(st, None))
        p = game.to_act(st)[0]
        act = game.ai_action(st, p, "fast") if rng.random() < 0.7 else \
            rng.choice(game.legal_actions(st, p))
        st, evs = game.apply_action(st, p, act, observer)
        events.extend(evs)
    live.append(game.view(st, None))
    return frames, live, events


@pytest.fixture(scope="module")
def mutations_game():
    return record(MUTATIONS, 3, 5, {"divergence": False})


@pytest.fixture(scope="module")
def climate_game():
    return record(CLIMATE, 3, 2, {"events": True, "quick": False})


def drawn(monkeypatch, module, view: dict, lang: str = "en") -> set[str]:
    """Every string ``module``'s table picture draws for ``view`` (caches cleared)."""
    seen: set[str] = set()
    real = common._text_mask

    def spy(s, *args):
        seen.add(s)
        return real(s, *args)

    def clear():
        if module is C:
            C.clear_caches()
        else:
            for cached in (M.background, M.empty_row, M.species_card, M.trait_chip,
                           M.animal_line, M.seat_disc, M.trait_name):
                cached.cache_clear()
            M.clear_row_cache()

    monkeypatch.setattr(common, "_text_mask", spy)
    clear()
    try:
        (C.draw_climate if module is C else M.draw_mutations)(view, lang)
    finally:
        monkeypatch.setattr(common, "_text_mask", real)
        clear()
    return seen


def waiting_lines(module, seen: set[str], lang: str = "en") -> list[str]:
    prefix = msg(f"{'climate' if module is C else 'mutations'}.render.awaiting", lang,
                          players="").strip()
    return [s for s in seen if s.startswith(prefix)]


# --- Random Mutations -----------------------------------------------------------------------

def first_turn(frames: list) -> list:
    out = [(phase, v) for phase, v in frames if v["turn"] == 1]
    assert [phase for phase, _ in out] == ["development", "climate", "feeding", "extinction"]
    return out


def test_mutations_frames_name_the_phase_they_depict(mutations_game, monkeypatch):
    frames, _, _ = mutations_game
    for phase, v in first_turn(frames):
        seen = drawn(monkeypatch, M, v)
        caption = msg("mutations.render.caption", turn=1,
                          phase=msg(f"mutations.phase.{phase}"))
        assert caption in seen, (phase, sorted(seen))  # the Climate frame said "Development"


def test_mutations_frames_await_nobody(mutations_game, monkeypatch):
    frames, _, _ = mutations_game
    for phase, v in first_turn(frames):
        seen = drawn(monkeypatch, M, v)
        assert not waiting_lines(M, seen), (phase, waiting_lines(M, seen))
        assert msg("mutations.render.phase_over") in seen


def test_mutations_live_positions_still_name_who_is_awaited(mutations_game, monkeypatch):
    _, live, _ = mutations_game
    for v in live:
        assert M.phase_ended(v) is None
    v = next(v for v in live if v["phase"] == "feeding" and not v["pending"])
    seen = drawn(monkeypatch, M, v)
    who = v["players"][v["awaiting"][0]]["name"]
    assert msg("mutations.render.awaiting", players=who) in seen
    assert msg("mutations.render.phase_over") not in seen


def test_mutations_phase_end_is_told_by_every_frame(mutations_game):
    frames, _, _ = mutations_game
    assert len(frames) > 8
    for phase, v in frames:
        assert M.phase_ended(v) == (None if v["over"] else phase)


def test_mutations_mid_game_points_say_unfed_animals_count(mutations_game, monkeypatch):
    frames, live, _ = mutations_game
    now, note = msg("mutations.render.points_now"), msg("mutations.render.points_note")
    for v in (frames[0][1], live[3]):
        seen = drawn(monkeypatch, M, v)
        assert now in seen and note in seen
    final = drawn(monkeypatch, M, live[-1])
    assert live[-1]["over"] and note not in final and msg("mutations.render.points") in final
    for lang in ("it", "fr"):
        seen = drawn(monkeypatch, M, live[3], lang)
        assert msg("mutations.render.points_note", lang) in seen


# --- Climate --------------------------------------------------------------------------------

def test_climate_frames_name_their_phase_and_await_nobody(climate_game, monkeypatch):
    frames, _, _ = climate_game
    first_round = [(phase, v) for phase, v in frames if v["round"] == 1]
    assert [phase for phase, _ in first_round] == ["play", "environment", "feeding"]
    for phase, v in first_round:
        seen = drawn(monkeypatch, C, v)
        caption = msg("climate.render.caption", round=1, phase=C.phase_name(phase))
        assert caption in seen, (phase, sorted(seen))
        assert not waiting_lines(C, seen), (phase, waiting_lines(C, seen))
        assert msg("climate.render.phase_over") in seen


def test_climate_live_positions_still_name_who_is_awaited(climate_game, monkeypatch):
    _, live, _ = climate_game
    for v in live:
        assert C.phase_ended(v) is None
    v = next(v for v in live if v["phase"] == "feeding")
    seen = drawn(monkeypatch, C, v)
    assert msg("climate.render.awaiting", players=v["players"][v["awaiting"][0]]["name"]) \
        in seen


def test_climate_phase_end_is_told_by_every_frame(climate_game):
    frames, _, _ = climate_game
    assert len(frames) > 6
    for phase, v in frames:
        assert C.phase_ended(v) == (None if v["over"] else phase)


def test_climate_quick_game_frames_too():
    frames, live, _ = record(CLIMATE, 4, 6, {"events": True, "quick": True})
    for phase, v in frames:
        assert C.phase_ended(v) == (None if v["over"] else phase)
    assert all(C.phase_ended(v) is None for v in live)


def _fired(view: dict, kind: str, index: int) -> dict:
    v = copy.deepcopy(view)
    card = next(c for c, e in EVENTS.items() if e.kind == kind)
    v["events"]["fired"] = event_info(card)
    v["climate"]["index"], v["climate"]["zone"] = index, ZONES[index]
    return v


@pytest.mark.parametrize(("kind", "index", "effects"), [
    ("heat_wave", 5, 7), ("heat_wave", 7, 8), ("cold_snap", 3, 1), ("cold_snap", 1, 0)])
def test_a_cold_snap_or_heat_wave_frame_names_the_zone_that_applies(
        climate_game, monkeypatch, kind, index, effects):
    frames, _, _ = climate_game
    base = next(v for phase, v in frames if phase == "environment")
    v = _fired(base, kind, index)
    seen = drawn(monkeypatch, C, v)
    note = msg("climate.render.fired_effects", event=C.event_name(kind),
                   zone=C.zone_name(ZONES[effects]))
    assert note in seen
    # the zone is marked on the band too; the other zones (but the marker's) are untouched
    plain = copy.deepcopy(v)
    plain["events"]["fired"] = None
    a, b = C.draw_climate(v), C.draw_climate(plain)
    for z in range(len(ZONES)):
        same = a.crop(C.zone_box(z)).tobytes() == b.crop(C.zone_box(z)).tobytes()
        assert same == (z != effects), z
    for lang in ("it", "fr"):
        note = msg("climate.render.fired_effects", lang, event=C.event_name(kind, lang),
                       zone=C.zone_name(ZONES[effects], lang))
        assert note in drawn(monkeypatch, C, v, lang)


def test_the_zone_shown_is_the_one_the_engine_applies():
    """In played games, every Cold Snap / Heat Wave frame marks the zone the engine used."""
    checked = 0
    for seed in range(1, 40):
        frames, _, events = record(CLIMATE, 3, seed, {"events": True, "quick": False})
        applied = [ev["effects"] for ev in events if ev["type"] == "event" and "effects" in ev]
        shown = [ZONES[C.effects_zone(v)] for phase, v in frames
                 if phase == "environment" and C.effects_zone(v) is not None]
        assert shown == applied
        checked += len(applied)
        if checked >= 3:
            return
    pytest.fail("no Cold Snap or Heat Wave fired in 39 games")


def test_climate_mid_game_points_say_the_bag_is_not_counted(climate_game, monkeypatch):
    frames, live, _ = climate_game
    note = msg("climate.render.points_note")
    for v in (frames[0][1], live[5]):
        assert note in drawn(monkeypatch, C, v)
    final = drawn(monkeypatch, C, live[-1])
    assert live[-1]["over"] and note not in final
    for lang in ("it", "fr"):
        assert msg("climate.render.points_note", lang) in drawn(monkeypatch, C, live[5],
                                                                    lang)


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_status_commands_say_what_mid_game_points_count(mutations_game, climate_game, lang):
    """/mutations status and /climate status label their mid-game points as the images do:
    unfed animals counted (Mutations), the bag not counted (Climate)."""
    from cogs.climate import Climate
    from cogs.mutations import Mutations
    from messages import t

    view = mutations_game[1][3]
    text = "\n".join(Mutations.status_lines(None, None, view, lang))
    said = t("mutations.bot.status_player", lang, name="", species=0, animals=0, deck=0,
             score="")
    note = said[said.rindex("(") - 1:]
    assert note.endswith(")") and note in text
    view = climate_game[1][3]
    text = "\n".join(Climate.status_lines(None, None, view, lang))
    said = t("climate.bot.status_player", lang, name="", species=0, pop=0, traits=0, hand=0,
             points="")
    note = said[said.rindex("(") - 1:]
    assert note.endswith(")") and note in text
