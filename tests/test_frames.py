"""Every frame tells the truth (issue 21): the phase images of Random Mutations.

The table posts (and a replay animates) the public view the engine's observer gives at every
phase end. Such a frame names the phase it depicts (the Random Mutations Climate image is
taken before the Feeding starts, its view still reads "development"), awaits nobody (the
phase is over: no "Waiting for" the last player who acted) and labels mid-game points as
what they are. A live position still names who is awaited.
"""

from __future__ import annotations

import random

import pytest

from engine import Seat
from engine.mutations import MUTATIONS
from images import mutations as M

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


def drawn(monkeypatch, module, view: dict, lang: str = "en") -> set[str]:
    """Every string ``module``'s table picture draws for ``view`` (caches cleared)."""
    seen: set[str] = set()
    real = module.text

    def spy(img, x, y, s, *args, **kw):
        seen.add(s)
        return real(img, x, y, s, *args, **kw)

    def clear():
        for cached in (M.background, M.empty_row, M.species_card, M.trait_chip,
                       M.animal_line, M.seat_disc, M.trait_name):
            cached.cache_clear()
        M.clear_row_cache()

    monkeypatch.setattr(module, "text", spy)
    clear()
    try:
        M.draw_mutations(view, lang)
    finally:
        monkeypatch.setattr(module, "text", real)
        clear()
    return seen


def waiting_lines(module, seen: set[str], lang: str = "en") -> list[str]:
    prefix = module.label("mutations.render.awaiting", lang, players="").strip()
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
        caption = M.label("mutations.render.caption", turn=1,
                          phase=M.label(f"mutations.phase.{phase}"))
        assert caption in seen, (phase, sorted(seen))  # the Climate frame said "Development"


def test_mutations_frames_await_nobody(mutations_game, monkeypatch):
    frames, _, _ = mutations_game
    for phase, v in first_turn(frames):
        seen = drawn(monkeypatch, M, v)
        assert not waiting_lines(M, seen), (phase, waiting_lines(M, seen))
        assert M.label("mutations.render.phase_over") in seen


def test_mutations_live_positions_still_name_who_is_awaited(mutations_game, monkeypatch):
    _, live, _ = mutations_game
    for v in live:
        assert M.phase_ended(v) is None
    v = next(v for v in live if v["phase"] == "feeding" and not v["pending"])
    seen = drawn(monkeypatch, M, v)
    who = v["players"][v["awaiting"][0]]["name"]
    assert M.label("mutations.render.awaiting", players=who) in seen
    assert M.label("mutations.render.phase_over") not in seen


def test_mutations_phase_end_is_told_by_every_frame(mutations_game):
    frames, _, _ = mutations_game
    assert len(frames) > 8
    for phase, v in frames:
        assert M.phase_ended(v) == (None if v["over"] else phase)


def test_mutations_mid_game_points_say_unfed_animals_count(mutations_game, monkeypatch):
    frames, live, _ = mutations_game
    now, note = M.label("mutations.render.points_now"), M.label("mutations.render.points_note")
    for v in (frames[0][1], live[3]):
        seen = drawn(monkeypatch, M, v)
        assert now in seen and note in seen
    final = drawn(monkeypatch, M, live[-1])
    assert live[-1]["over"] and note not in final and M.label("mutations.render.points") in final
    for lang in ("it", "fr"):
        seen = drawn(monkeypatch, M, live[3], lang)
        assert M.label("mutations.render.points_note", lang) in seen
