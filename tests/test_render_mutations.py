"""The Random Mutations table image (images/mutations.py): random games at 2, 5 and 8 players
render at a stable size with every player's name, the end scoreboard, the same bytes for the
same view, nothing hidden drawn (decks are counts), labels and trait names from the catalogue
with readable fallbacks."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine import Seat
from engine.mutations import MUTATIONS
from engine.mutations.data import DARK, TRAITS
from images import common, render
from images import mutations as R
from images.mutations import draw_mutations, encode_png, render_mutations
from messages import t as msg

NAMES = ["Ann", "Bob", "Cyrille-Amélie", "Dédé", "Françoise", "Gianluca", "Hélène", "Ingrid Ø"]


def play(players: int, seed: int, divergence: bool = False):
    """A game of AI (fast) and random moves; yields (state, public view) after every action
    and at every phase end (the observer's moments), to the end."""
    moments: list = []

    def observer(state, phase):
        moments.append((state.clone(), MUTATIONS.view(state, None)))

    seats = [Seat(str(i + 1), NAMES[i]) for i in range(players)]
    st, _ = MUTATIONS.new_game_with_events(seats, seed, {"divergence": divergence}, observer)
    rng = random.Random(seed)
    while True:
        yield from moments
        moments.clear()
        yield st, MUTATIONS.view(st, None)
        if MUTATIONS.is_over(st):
            return
        p = MUTATIONS.to_act(st)[0]
        if rng.random() < 0.6:
            act = MUTATIONS.ai_action(st, p, "fast")
        else:
            act = rng.choice(MUTATIONS.legal_actions(st, p))
        st, _ = MUTATIONS.apply_action(st, p, act, observer)


@pytest.fixture(scope="module")
def games() -> dict:
    """For 2, 5 and 8 players: a few views along a game (every phase, an owed choice if one
    came up) and the final view, each with its state."""
    out: dict = {}
    for players, seed in ((2, 3), (5, 2), (8, 1)):
        picked, phases, kinds = [], set(), set()
        last = None
        for i, (st, v) in enumerate(play(players, seed, divergence=players != 5)):
            kind = (v["pending"] or {}).get("kind")
            if (v["phase"] not in phases or (kind and kind not in kinds) or i % 97 == 0):
                phases.add(v["phase"])
                kinds.add(kind)
                picked.append((st.clone(), v))
            last = (st, v)
        assert last[1]["over"]
        out[players] = {"views": picked, "final": last}
    return out


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def drawn_strings(monkeypatch, view: dict, lang: str = "en") -> set[str]:
    """Every string the picture draws (``images.common.text``, caches cleared)."""
    seen: set[str] = set()
    real = common._text_mask

    def spy(s, *args):
        seen.add(s)
        return real(s, *args)

    monkeypatch.setattr(common, "_text_mask", spy)
    clear_caches()
    try:
        draw_mutations(view, lang)
    finally:
        monkeypatch.setattr(common, "_text_mask", real)
        clear_caches()
    return seen


def clear_caches() -> None:
    for cached in (R.background, R.empty_row, R.species_card, R.trait_chip, R.animal_line,
                   R.seat_disc, R.trait_name):
        cached.cache_clear()
    R.clear_row_cache()


# --- random games ------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 5, 8])
def test_random_games_render_at_a_stable_size(games, players):
    size = (R.WIDTH, R.height_for(players))
    views = [v for _, v in games[players]["views"]] + [games[players]["final"][1]]
    assert len(views) >= 4
    for v in views:
        im = decode(render_mutations(v))
        assert im.format == "PNG" and im.mode == "P" and im.size == size
    assert R.row_box(players - 1)[3] < size[1]


def test_heights_grow_with_players():
    heights = [R.height_for(n) for n in range(2, 9)]
    assert heights == sorted(heights) and len(set(heights)) == 7


@pytest.mark.parametrize("players", [2, 5, 8])
def test_every_player_name_is_drawn(games, monkeypatch, players):
    _, v = games[players]["views"][-1]
    seen = drawn_strings(monkeypatch, v)
    for pl in v["players"]:
        assert pl["name"] in seen, pl["name"]
    # Species and animals are named by their ids on the picture.
    for pl in v["players"]:
        for sp in pl["species"]:
            assert f"#{sp['id']}" in seen
            for a in sp["animals"]:
                assert f"#{a['id']}" in seen


def test_trait_names_are_drawn_negative_marked(games, monkeypatch):
    st, v = games[8]["views"][-1]
    traits = {tr for pl in v["players"] for sp in pl["species"] for tr in sp["all_traits"]}
    assert traits
    seen = drawn_strings(monkeypatch, v)
    for tr in traits:
        name = R.trait_name(tr)
        assert any(s == name or (s.endswith("…") and name.startswith(s[:-1].rstrip()))
                   for s in seen), name
    # A negative trait's chip differs from a positive one's (dark, marked).
    dark = next(iter(DARK))
    plain = next(tr for tr in TRAITS if tr not in DARK)
    a = R.trait_chip(dark, 140, 22, False, "en").convert("RGB")
    assert R.DARK_BG in {c for _, c in a.getcolors(1 << 16)}
    b = R.trait_chip(plain, 140, 22, False, "en").convert("RGB")
    assert R.DARK_BG not in {c for _, c in b.getcolors(1 << 16)}


def test_end_scoreboard(games, monkeypatch):
    for players in (2, 5, 8):
        st, v = games[players]["final"]
        assert v["over"] and v["result"]
        seen = drawn_strings(monkeypatch, v)
        assert msg("mutations.render.ranking") in seen
        for row in v["result"]:
            assert msg("mutations.render.rank", rank=row["rank"]) in seen
            assert str(row["score"]) in seen
        best = [row["player"] for row in v["result"] if row["rank"] == 1]
        winner = msg("mutations.render.winner",
                         players=", ".join(v["players"][p]["name"] for p in best))
        assert any(s == winner or (s.endswith("…") and winner.startswith(s[:-1].rstrip()))
                   for s in seen)
        # The rows' score column changes once the game is over (rank, tie-break).
        still = dict(v, over=False, result=None)
        a, b = draw_mutations(v), draw_mutations(still)
        box = R.score_box(0)
        assert a.crop(box).tobytes() != b.crop(box).tobytes()


# --- hidden information ------------------------------------------------------------------------

def test_hidden_information_is_never_drawn(games):
    """A view holds decks as counts; the picture is the same for every viewer, and the same
    whatever the hidden cards are (decks and the main deck dealt otherwise)."""
    for players in (2, 5, 8):
        for st, v in games[players]["views"][1:4]:
            public = render_mutations(v)
            for seat in range(players):
                assert render_mutations(MUTATIONS.view(st, seat)) == public
            other = st.clone()
            pool = [c for d in other.decks for c in d] + other.main
            random.Random(players).shuffle(pool)
            for d in other.decks:
                d[:] = [pool.pop() for _ in d]
            other.main = [pool.pop() for _ in other.main]
            assert render_mutations(MUTATIONS.view(other, None)) == public


def test_no_card_id_is_drawn(games, monkeypatch):
    st, v = games[5]["views"][2]
    seen = drawn_strings(monkeypatch, v)
    hidden = set(st.main) | {c for d in st.decks for c in d}
    assert hidden and not hidden & seen
    assert not any("-" in s and s.rsplit("-", 1)[0] in TRAITS for s in seen)


# --- determinism and caches --------------------------------------------------------------------

def test_same_view_gives_identical_bytes(games):
    _, v = games[8]["views"][-1]
    first = render_mutations(v)
    assert render_mutations(v) == first
    clear_caches()
    R.board_palette.cache_clear()
    assert render_mutations(v) == first
    assert render("mutations", v) == first
    _, again = games[8]["views"][-1]
    assert again is v                                  # drawing did not change the view


def test_dispatcher():
    with pytest.raises(ValueError):
        render("chess", {})


def test_a_change_in_one_row_changes_that_row_only(games):
    _, v = games[5]["views"][-1]
    players = [dict(pl) for pl in v["players"]]
    players[1]["deck"] += 3
    a, b = draw_mutations(v), draw_mutations(dict(v, players=players))
    assert a.crop(R.row_box(1)).tobytes() != b.crop(R.row_box(1)).tobytes()
    for k in (0, 2, 3, 4):
        assert a.crop(R.row_box(k)).tobytes() == b.crop(R.row_box(k)).tobytes()


def test_food_against_need_and_fed():
    red = R.animal_line(7, 1, 1, 3, False, 0, False, False, 150, 22)
    fed = R.animal_line(7, 2, 1, 3, False, 0, False, True, 150, 22)
    colours = {c for _, c in red.getcolors(1 << 16)}
    assert R.FOOD_RED in colours and R.FOOD_BLUE in colours
    assert R.FED_SOFT in {c for _, c in fed.getcolors(1 << 16)}
    assert red.tobytes() != fed.tobytes()
    burrow = R.animal_line(7, 1, 1, 3, True, 2, True, False, 150, 22)
    assert burrow.tobytes() != red.tobytes()
    # Many animals and traits still fit their card.
    key = (5, None, ("carnivore", "high_body_weight", "metabolic_syndrome", "running"), (),
           5, tuple((i, 1, 0, i % 2 == 0, i, False, False) for i in range(9)))
    card = R.species_card(key, 80, None, "en")
    assert card.size == (80, R.ROW_H - 12)


# --- the catalogue -----------------------------------------------------------------------------

def test_labels_and_trait_names_fall_back(monkeypatch):
    from messages import catalogue
    assert R.trait_name("high_body_weight", "zz") in ("High Body Weight",
                                                     catalogue("en").get(
                                                         "mutations.trait.high_body_weight.name"))
    key = "mutations.trait.high_body_weight.name"
    for lang in ("en",):
        monkeypatch.delitem(catalogue(lang), key, raising=False)
    R.trait_name.cache_clear()
    assert R.trait_name("high_body_weight") == "High Body Weight"
    monkeypatch.setitem(catalogue("en"), key, "Zq Heavy")
    R.trait_name.cache_clear()
    assert R.trait_name("high_body_weight") == "Zq Heavy"
    monkeypatch.undo()
    R.trait_name.cache_clear()
    # Labels come from the catalogue alone (no English copy in images/): a language's gap
    # reads the English sentence.
    monkeypatch.delitem(catalogue("it"), "mutations.render.main", raising=False)
    monkeypatch.setitem(catalogue("en"), "mutations.render.main", "Zq {count}")
    assert msg("mutations.render.main", "it", count=4) == "Zq 4"


def test_every_label_is_in_the_catalogue():
    """No English fallback in the renderer: every word it names is in en, it and fr."""
    import re
    from pathlib import Path

    from messages import has
    src = Path(R.__file__).read_text()
    keys = set(re.findall(r'"(mutations\.(?:render|choice)\.[a-z_]+)"', src))
    keys |= {f"mutations.phase.{p}" for p in ("development", "climate", "feeding", "extinction",
                                               "over")}
    keys |= {f"mutations.choice.{c}" for c in ("dark", "graze", "mimicry", "eat", "scavenge",
                                                "lose")}
    assert "mutations.render.main" in keys and "mutations.render.points_note" in keys
    for lang in ("en", "it", "fr"):
        assert not [k for k in keys if not has(k, lang)], lang


def test_other_languages_render(games):
    _, v = games[5]["views"][-1]
    for lang in ("it", "fr", "xx"):
        im = decode(render_mutations(v, lang))
        assert im.size == (R.WIDTH, R.height_for(5))


# --- encoding and bench ------------------------------------------------------------------------

def test_fixed_palette_keeps_flat_colours_exact(games):
    flat = [*R.PLAYER_RGB, R.BG, R.INK, R.CARD_BG, R.AWAIT, R.FOOD_RED, R.FOOD_BLUE, R.BURROW,
            R.PARASITE, R.FED, R.DARK_BG, R.TRAIT_BG]
    im = Image.new("RGB", (len(flat), 1))
    for i, c in enumerate(flat):
        im.putpixel((i, 0), c)
    back = decode(encode_png(im)).convert("RGB")
    assert [back.getpixel((i, 0)) for i in range(len(flat))] == flat
    _, v = games[8]["views"][-1]
    rgb = draw_mutations(v)
    png = decode(encode_png(rgb)).convert("RGB")
    err = sum(abs(a - b) for a, b in zip(rgb.tobytes(), png.tobytes(), strict=True))
    assert err / (rgb.size[0] * rgb.size[1] * 3) < 1.0


def test_bench_render_reports_the_ratio(games):
    _, v = games[5]["views"][-1]
    out = R.bench_render(v, 9)
    assert set(out) == {"render_ms", "encode_ms", "ratio"}
    assert out["render_ms"] > 0 and out["encode_ms"] > 0
    assert out["ratio"] == pytest.approx(out["render_ms"] / out["encode_ms"], rel=0.01)
    assert out["ratio"] < 4          # the target is 1.5; generous against a busy machine
