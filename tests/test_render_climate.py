"""The Evolution: Climate images (images/climate.py): the table from a view at 2, 4 and 6
players (normal and Quick games, the food step, the play phase, feeding, the end), and a
player's private hand image. Nothing hidden reaches a pixel: states that differ only in
hidden things (hands, face-down food cards and traits, decks, a Quick game's secret moves)
give the same bytes; the same view gives the same bytes whatever the caches; labels and trait
names come from the catalogue (en/it/fr) with readable fallbacks."""

from __future__ import annotations

import copy
import io
import random

import pytest
from PIL import Image

import images
from engine import Seat
from engine.climate import CLIMATE
from engine.climate.data import CARDS, TRAIT_OF, TRAITS, card_info
from images import climate as R
from images import common
from images.climate import draw_climate, draw_hand, encode_png, render_climate, render_hand
from messages import t as msg

NAMES = ["Ann", "Bob", "Cyrille-Amélie", "Dédé", "Françoise", "Gianluca"]


def play(players: int, seed: int, quick: bool = False):
    """A game of fast AI and random moves; yields every state, to the end."""
    seats = [Seat(str(i + 1), NAMES[i]) for i in range(players)]
    st, _ = CLIMATE.new_game_with_events(seats, seed, {"events": True, "quick": quick})
    rng = random.Random(seed)
    while True:
        yield st
        if CLIMATE.is_over(st):
            return
        p = CLIMATE.to_act(st)[0]
        if rng.random() < 0.75:
            act = CLIMATE.ai_action(st, p, "fast")
        else:
            act = rng.choice(CLIMATE.legal_actions(st, p))
        st, _ = CLIMATE.apply_action(st, p, act)


def moments(players: int, seed: int, quick: bool = False) -> dict:
    """Named states along one game: the food step half chosen, the play phase with
    face-down traits of several players, a green step if one comes, feeding, the end."""
    out: dict = {"views": []}
    last_phase = None
    for i, st in enumerate(play(players, seed, quick)):
        awaiting = CLIMATE.to_act(st)
        if st.phase == "food" and 0 < len(awaiting) < players and st.round >= 2:
            out.setdefault("food", st)
        if st.phase == "play" and st.round >= 2:
            downs = [p for p in range(players) if any(sp["down"] for sp in st.rows[p])]
            if st.shown is not None and len(awaiting) >= 2 and any(
                    any(sp["down"] for sp in row) for row in st.rows):
                out.setdefault("quick_play", st)
            elif st.shown is None and len(downs) >= 2:
                out.setdefault("play", st)
        if st.phase == "green":
            out.setdefault("green", st)
        if st.phase == "feeding" and st.round >= 3:
            out.setdefault("feeding", st)
        if st.phase != last_phase or i % 41 == 0:
            out["views"].append(st)
            last_phase = st.phase
        out["final"] = st
    return out


@pytest.fixture(scope="module")
def games() -> dict:
    return {2: moments(2, 4), 4: moments(4, 11), 6: moments(6, 3), "quick4": moments(4, 6, True)}


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def drawn_strings(monkeypatch, draw, view: dict, lang: str = "en") -> set[str]:
    """Every string a picture draws (``images.common.text``, caches cleared)."""
    seen: set[str] = set()
    real = common._text_mask

    def spy(s, *args):
        seen.add(s)
        return real(s, *args)

    monkeypatch.setattr(common, "_text_mask", spy)
    R.clear_caches()
    try:
        draw(view, lang)
    finally:
        monkeypatch.setattr(common, "_text_mask", real)
        R.clear_caches()
    return seen


def shown(name: str, seen: set[str]) -> bool:
    """``name`` is drawn whole, or cut with an ellipsis."""
    return any(s == name or (s.endswith("…") and name.startswith(s[:-1].rstrip()))
               for s in seen)


def trait_drawn(trait: str, seen: set[str], lang: str = "en") -> bool:
    """A trait's name or its short form is drawn (on one line or wrapped on two)."""
    name, short = R.trait_name(trait, lang), R.trait_short(trait, lang)
    joined = {a + " " + b for a in seen for b in seen}
    return shown(name, seen) or shown(short, seen) or name in joined


def hide_differently(st, keep: int | None):
    """A copy of ``st`` that differs only in what ``keep`` (None: nobody) cannot see: the
    others' hands, their face-down traits and food cards swapped for unseen cards (keeping
    the counts), the draw deck and the set-aside cards reshuffled."""
    other = st.clone()
    pool = list(other.deck) + list(other.set_aside)
    random.Random(7).shuffle(pool)
    back: list[str] = []                 # the cards replaced go where the new ones came from

    def swap(old: str, avoid: set[str]) -> str:
        i = next(i for i, c in enumerate(pool) if TRAIT_OF[c] not in avoid)
        back.append(old)
        return pool.pop(i)

    for p in range(other.n):
        if p == keep:
            continue
        other.hands[p] = [swap(c, set()) for c in other.hands[p]]
        if other.food[p] is not None and not other.revealed:
            other.food[p] = swap(other.food[p], set())
        for sp in other.rows[p]:
            for c in list(sp["down"]):
                have = {TRAIT_OF[x] for x in sp["traits"]}
                new = swap(c, have - {TRAIT_OF[c]})
                sp["traits"][sp["traits"].index(c)] = new
                sp["down"][sp["down"].index(c)] = new
    pool += back
    random.Random(8).shuffle(pool)
    other.deck, other.set_aside = pool[: len(st.deck)], pool[len(st.deck):]
    assert len(other.set_aside) == len(st.set_aside)
    return other


# --- sizes and content -------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4, 6])
def test_games_render_at_a_stable_sane_size(games, players):
    size = (R.WIDTH, R.height_for(players))
    g = games[players]
    views = [CLIMATE.view(st, None) for st in g["views"][:8]] + [CLIMATE.view(g["final"], None)]
    assert len(views) >= 5 and views[-1]["over"]
    for v in views:
        im = decode(render_climate(v))
        assert im.format == "PNG" and im.mode == "P" and im.size == size
    assert R.row_box(players - 1)[3] < size[1]
    assert 600 < size[1] <= 1400                       # a phone scrolls it, never endlessly
    heights = [R.height_for(n) for n in range(2, 7)]
    assert heights == sorted(heights) and len(set(heights)) == 5


def test_names_species_and_traits_are_drawn(games, monkeypatch):
    st = games[6]["feeding"]
    v = CLIMATE.view(st, None)
    seen = drawn_strings(monkeypatch, draw_climate, v)
    for pl in v["players"]:
        assert shown(pl["name"], seen), pl["name"]
        for sp in pl["species"]:
            assert f"#{sp['id']}" in seen
            for tr in sp["traits"]:
                if not tr["down"]:
                    assert trait_drawn(tr["trait"], seen), tr["trait"]
    for z in v["climate"]["zones"]:
        assert shown(R.zone_name(z), seen)
    assert R.phase_name("feeding") in " ".join(seen)
    assert str(v["watering_hole"]) in seen
    assert msg("climate.render.deck", count=v["deck"]) in seen
    for d in ("cold", "hot"):
        up = v["events"][d]["up"]
        if up:
            assert trait_drawn_event(up["event"], seen)


def trait_drawn_event(event: str, seen: set[str]) -> bool:
    name = R.event_name(event)
    return shown(name, seen) or any(name.startswith(s) and s for s in seen if len(s) > 3)


def test_awaited_players_are_named_and_framed(games, monkeypatch):
    st = games[4]["food"]
    v = CLIMATE.view(st, None)
    assert 0 < len(v["awaiting"]) < 4
    seen = drawn_strings(monkeypatch, draw_climate, v)
    names = ", ".join(v["players"][p]["name"] for p in v["awaiting"])
    assert shown(msg("climate.render.awaiting", players=names), seen)
    a = draw_climate(v)
    waiting = v["awaiting"][0]
    b = draw_climate(dict(v, awaiting=[p for p in v["awaiting"] if p != waiting]))
    box = R.row_box(waiting)
    assert a.crop(box).tobytes() != b.crop(box).tobytes()
    assert R.AWAIT in {c for _, c in a.crop(box).getcolors(1 << 16)}


# --- hidden information ------------------------------------------------------------------------

@pytest.mark.parametrize("moment", ["food", "play"])
def test_hidden_things_never_reach_a_pixel(games, moment):
    """A state whose hidden cards are others gives the same table, for the public and for
    each seat (their own hidden cards kept); the seat's own view does change."""
    st = games[4][moment]
    public = render_climate(CLIMATE.view(st, None))
    other = hide_differently(st, None)
    assert CLIMATE.view(other, 1) != CLIMATE.view(st, 1)   # it does differ, in hidden things
    assert render_climate(CLIMATE.view(other, None)) == public
    for seat in range(st.n):
        mine = hide_differently(st, seat)
        assert render_climate(CLIMATE.view(mine, seat)) == render_climate(CLIMATE.view(st, seat))
        assert render_hand(CLIMATE.view(mine, seat)) == render_hand(CLIMATE.view(st, seat))


def test_face_down_cards_are_backs(games):
    """Face-down traits of others are card backs: the public table shows no name for them,
    and the owner's own view does (their row differs from the public one)."""
    st = games[4]["play"]
    v = CLIMATE.view(st, None)
    downs = [(p, sp) for p, pl in enumerate(v["players"]) for sp in pl["species"]
             if any(t["down"] for t in sp["traits"])]
    assert downs
    for _, sp in downs:
        assert all(t["card"] is None for t in sp["traits"] if t["down"])
    p = downs[0][0]
    a = draw_climate(v).crop(R.row_box(p))
    b = draw_climate(CLIMATE.view(st, p)).crop(R.row_box(p))
    assert a.tobytes() != b.tobytes()
    back = R.trait_chip(None, 150, R.CHIP_H, "back", False, False, "en").convert("RGB")
    assert R.BACK_BG in {c for _, c in back.getcolors(1 << 16)}


def test_food_cards_chosen_differently_look_the_same(games):
    """In the food step a player's choice is secret: two different food cards give the same
    table to the public and to the others; the chooser's own hand image differs."""
    st = games[4]["food"]
    p = CLIMATE.to_act(st)[0]
    acts = CLIMATE.legal_actions(st, p)
    plants = {}
    for a in acts:
        plants.setdefault(card_info(a["card"])["plants"], a)
    assert len(acts) >= 2
    a, b = (list(plants.values()) + acts)[:2]
    sa, _ = CLIMATE.apply_action(st, p, a)
    sb, _ = CLIMATE.apply_action(st, p, b)
    assert render_climate(CLIMATE.view(sa, None)) == render_climate(CLIMATE.view(sb, None))
    for q in range(st.n):
        if q != p:
            assert render_climate(CLIMATE.view(sa, q)) == render_climate(CLIMATE.view(sb, q))
    assert render_hand(CLIMATE.view(sa, p)) != render_hand(CLIMATE.view(sb, p))


@pytest.mark.parametrize("key", ["quick4", 6])
def test_quick_game_secret_moves_are_not_drawn(games, key):
    """In a Quick game's play phase a player's moves are secret until the reveal: the public
    table and the others' tables do not change; the mover's own table does."""
    st = games[key]["quick_play"]
    assert st.shown is not None
    p = next(q for q in CLIMATE.to_act(st)
             if any(a["type"] in ("trait", "grow", "species")
                    for a in CLIMATE.legal_actions(st, q)))
    act = next(a for a in CLIMATE.legal_actions(st, p)
               if a["type"] in ("trait", "grow", "species"))
    after, _ = CLIMATE.apply_action(st, p, act)
    assert render_climate(CLIMATE.view(after, None)) == render_climate(CLIMATE.view(st, None))
    for q in range(st.n):
        if q != p:
            assert render_climate(CLIMATE.view(after, q)) == \
                render_climate(CLIMATE.view(st, q))
    assert render_climate(CLIMATE.view(after, p)) != render_climate(CLIMATE.view(st, p))


def test_bag_only_for_its_owner_and_at_the_end(games, monkeypatch):
    st = games[4]["feeding"]
    v = CLIMATE.view(st, None)
    assert all(pl["bag"] is None for pl in v["players"])
    own = CLIMATE.view(st, 2)
    bag = own["players"][2]["bag"]
    seen = drawn_strings(monkeypatch, draw_climate, own)
    assert msg("climate.render.bag", count=bag) in seen
    assert not any(s.startswith(msg("climate.render.bag", count="")) for s in
                   drawn_strings(monkeypatch, draw_climate, v))


# --- the end -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 6])
def test_end_scoreboard(games, monkeypatch, players):
    v = CLIMATE.view(games[players]["final"], None)
    assert v["over"] and v["result"]
    seen = drawn_strings(monkeypatch, draw_climate, v)
    assert msg("climate.render.ranking") in seen
    assert any(s.startswith(msg("climate.render.game_over")) for s in seen)
    for row in v["result"]:
        assert msg("climate.render.rank", rank=row["rank"]) in seen
        assert str(row["score"]) in seen
        assert shown(msg("climate.render.score_food", count=row["food"]), seen)
    best = [row["player"] for row in v["result"] if row["rank"] == 1]
    assert shown(msg("climate.render.winner",
                         players=", ".join(v["players"][p]["name"] for p in best)), seen)
    for pl in v["players"]:
        assert msg("climate.render.bag", count=pl["bag"]) in seen   # every bag, at the end
    still = dict(v, over=False, result=None)
    a, b = draw_climate(v), draw_climate(still)
    box = R.score_box(0)
    assert a.crop(box).tobytes() != b.crop(box).tobytes()


# --- the hand ----------------------------------------------------------------------------------

def test_hand_image_for_a_viewer(games, monkeypatch):
    st = games[4]["play"]
    p = next(q for q in range(st.n) if st.hands[q] and any(sp["down"] for sp in st.rows[q]))
    v = CLIMATE.view(st, p)
    im = decode(render_hand(v))
    assert im.mode == "P" and im.size == (R.HAND_W, R.hand_height(v))
    assert images.render_hand("climate", v) == render_hand(v)
    seen = drawn_strings(monkeypatch, draw_hand, v)
    for c in v["players"][p]["cards"]:
        assert trait_drawn(c["trait"], seen), c["trait"]
    assert shown(msg("climate.render.hand_title", player=v["players"][p]["name"],
                         count=len(v["players"][p]["cards"])), seen)
    # The player's face-down traits of this round, with the species they lie on.
    downs = [(sp["id"], t) for sp in v["players"][p]["species"] for t in sp["traits"]
             if t["down"]]
    assert downs
    assert msg("climate.render.your_down") in seen
    for sid, t in downs:
        assert msg("climate.render.on_species", species=sid) in seen
        assert trait_drawn(t["trait"], seen)
    # More cards, a taller image.
    more = copy.deepcopy(v)
    more["players"][p]["cards"] = [card_info(c) for c in CARDS[::9][:14]]
    assert R.hand_height(more) > R.hand_height(v)
    assert decode(render_hand(more)).size == (R.HAND_W, R.hand_height(more))


def test_hand_image_shows_cards_put_back_and_held(games, monkeypatch):
    """The viewer's cards put back for the exchange and, in a Quick game's secret play phase,
    discarded until the reveal (``held``) get their own sections."""
    v = copy.deepcopy(CLIMATE.view(games["quick4"]["quick_play"], 0))
    v["players"][0]["returned"] = [card_info("horns-1")]
    v["players"][0]["held"] = [card_info("climbing-2"), card_info("ambush-3")]
    seen = drawn_strings(monkeypatch, draw_hand, v)
    assert msg("climate.render.your_returned") in seen
    assert msg("climate.render.your_held") in seen
    for t in ("horns", "climbing", "ambush"):
        assert trait_drawn(t, seen)
    assert decode(render_hand(v)).size == (R.HAND_W, R.hand_height(v))


def test_hand_needs_a_viewer(games):
    v = CLIMATE.view(games[2]["final"], None)
    with pytest.raises(ValueError):
        render_hand(v)
    with pytest.raises(ValueError):
        images.render_hand("mutations", v)
    assert "climate" in images.HAND_KINDS


def test_food_card_in_the_hand_image(games, monkeypatch):
    st = games[4]["food"]
    p = next(q for q in range(st.n) if st.food[q] is not None)
    seen = drawn_strings(monkeypatch, draw_hand, CLIMATE.view(st, p))
    assert msg("climate.render.your_food") in seen
    assert msg("climate.render.food_down") in seen
    assert trait_drawn(TRAIT_OF[st.food[p]], seen)


# --- phones: long names, many species ------------------------------------------------------------

def test_six_species_row_with_long_names(games):
    v = copy.deepcopy(CLIMATE.view(games[6]["feeding"], None))
    longest = sorted(TRAITS, key=lambda t: -len(R.trait_name(t, "fr")))
    species = []
    for k in range(6):
        traits = [dict(card_info(f"{longest[(k + j) % 8]}-1"), down=False) for j in range(4)]
        traits[3] = {"card": None, "trait": None, "down": True}
        species.append({"id": 2001 + k, "body": 1 + k, "pop": 6 - k, "food": k % 3,
                        "fat": k % 2, "traits": traits, "carnivore": False, "hungry": True,
                        "fed": False})
    v["players"][1]["species"] = species
    for lang in ("en", "it", "fr"):
        im = decode(render_climate(v, lang))
        assert im.size == (R.WIDTH, R.height_for(6))
    slots = R.species_slots(6)
    assert slots[-1][0] + slots[-1][1] <= R.SP_X1
    inner = slots[0][1] - 2 * R.SP_PAD - 9
    for lang in ("en", "it", "fr"):
        for t in TRAITS:                 # every name readable whole (or its short form)
            size, name = R._chip_name(t, inner, 15, lang)
            assert size >= 10 and not name.endswith("…"), (lang, t, name)
            assert name in (R.trait_name(t, lang), R.trait_short(t, lang))


def test_a_change_in_one_row_changes_that_row_only(games):
    v = CLIMATE.view(games[6]["feeding"], None)
    players = [dict(pl) for pl in v["players"]]
    players[2]["hand"] += 3
    a, b = draw_climate(v), draw_climate(dict(v, players=players))
    assert a.crop(R.row_box(2)).tobytes() != b.crop(R.row_box(2)).tobytes()
    for k in (0, 1, 3, 4, 5):
        assert a.crop(R.row_box(k)).tobytes() == b.crop(R.row_box(k)).tobytes()


def test_climate_band_shows_marker_events_and_volcano(games):
    v = copy.deepcopy(CLIMATE.view(games[4]["feeding"], None))
    i = v["climate"]["index"]
    base = draw_climate(v)
    moved = copy.deepcopy(v)
    moved["climate"]["index"] = (i + 1) % 9
    moved["climate"]["zone"] = v["climate"]["zones"][(i + 1) % 9]
    a = draw_climate(moved)
    for z in (i, (i + 1) % 9):
        assert base.crop(R.zone_box(z)).tobytes() != a.crop(R.zone_box(z)).tobytes()
    volcano = copy.deepcopy(v)
    volcano["events"]["volcano"] = "cold"
    volcano["events"]["meteor"] = True
    b = draw_climate(volcano)
    z = v["climate"]["zones"].index("cold")
    assert base.crop(R.zone_box(z)).tobytes() != b.crop(R.zone_box(z)).tobytes()
    assert base.crop(R.strip_box()).tobytes() != b.crop(R.strip_box()).tobytes()
    for d in ("cold", "hot"):
        up = v["events"][d]["up"]
        if up:
            box = R.event_box(v["climate"]["zones"].index(up["zone"]))
            gone = copy.deepcopy(v)
            gone["events"][d]["up"] = None
            assert base.crop(box).tobytes() != draw_climate(gone).crop(box).tobytes()


# --- determinism and caches --------------------------------------------------------------------

def test_same_view_gives_identical_bytes(games):
    v = CLIMATE.view(games[6]["feeding"], 3)
    before = copy.deepcopy(v)
    first = render_climate(v)
    assert render_climate(v) == first
    hand = render_hand(v)
    R.clear_caches()
    R.board_palette.cache_clear()
    assert render_climate(v) == first
    assert render_hand(v) == hand
    assert images.render("climate", v) == first
    assert v == before                                   # drawing did not change the view


# --- the catalogue -----------------------------------------------------------------------------

def test_languages_render(games, monkeypatch):
    v = CLIMATE.view(games[4]["feeding"], 1)
    for lang in ("it", "fr", "xx"):
        assert decode(render_climate(v, lang)).size == (R.WIDTH, R.height_for(4))
        assert decode(render_hand(v, lang)).size[0] == R.HAND_W
    seen = drawn_strings(monkeypatch, draw_climate, v, "it")
    assert "Stagno" in seen
    assert R.zone_name("ice_age", "it") == "Era glaciale"
    assert R.trait_name("burrowing", "it") == "Scavare una Tana"
    assert R.trait_name("nocturnal", "it") == "Notturno"
    assert R.event_name("cold_snap", "it") == "Ondata di Freddo"
    assert R.trait_name("heavy_fur", "fr") != R.trait_name("heavy_fur", "en")


def used_keys(paths, prefix: str) -> set[str]:
    """The catalogue keys a renderer's source names in full (``"<prefix>.render.deck"``)."""
    import re
    from pathlib import Path
    keys = set()
    for path in paths:
        keys |= set(re.findall(rf'"({prefix}\.[a-z_]+(?:\.[a-z_]+)*)"', Path(path).read_text()))
    return keys


def test_every_label_is_in_the_catalogue():
    """No English fallback in the renderer: every word it names is in en, it and fr."""
    from pathlib import Path

    from messages import has
    keys = used_keys(Path(R.__file__).parent.glob("*.py"), "climate")
    keys |= {f"climate.render.phase.{p}" for p in ("food", "play", "green", "feeding", "over")}
    assert {k for k in keys if ".render." in k} >= {"climate.render.deck", "climate.render.hand_title"}
    for lang in ("en", "it", "fr"):
        assert not [k for k in keys if not has(k, lang)], lang


def test_labels_and_names_read_the_catalogue_or_readable_ids(monkeypatch):
    from messages import catalogue
    key = "climate.render.deck"
    monkeypatch.delitem(catalogue("it"), key, raising=False)   # a language's gap: English
    assert msg(key, "it", count=4) == catalogue("en")[key].format(count=4)
    monkeypatch.setitem(catalogue("en"), key, "Zq {count}")
    assert msg(key, "it", count=4) == "Zq 4"
    monkeypatch.undo()
    R.clear_caches()
    assert R.trait_name("made_up_trait") == "Made Up Trait"
    assert R.zone_name("made_up_zone", "fr") == "Made Up Zone"
    for k in ("climate.trait.fat_tissue.name", "climate.render.trait.fat_tissue"):
        for lang in ("en", "it"):
            monkeypatch.delitem(catalogue(lang), k, raising=False)
    R.clear_caches()
    assert R.trait_name("fat_tissue", "it") == "Fat Tissue"
    monkeypatch.undo()
    R.clear_caches()


# --- encoding and bench ------------------------------------------------------------------------

def test_fixed_palette_keeps_flat_colours_exact(games):
    flat = list(dict.fromkeys(R.FLAT))
    im = Image.new("RGB", (len(flat), 1))
    for i, c in enumerate(flat):
        im.putpixel((i, 0), c)
    back = decode(encode_png(im)).convert("RGB")
    assert [back.getpixel((i, 0)) for i in range(len(flat))] == flat
    rgb = draw_climate(CLIMATE.view(games[6]["feeding"], None))
    png = decode(encode_png(rgb)).convert("RGB")
    err = sum(abs(a - b) for a, b in zip(rgb.tobytes(), png.tobytes(), strict=True))
    assert err / (rgb.size[0] * rgb.size[1] * 3) < 1.0


def test_bench_render_reports_the_ratio(games):
    out = R.bench_render(CLIMATE.view(games[4]["feeding"], None), 9)
    assert set(out) == {"render_ms", "encode_ms", "ratio"}
    assert out["render_ms"] > 0 and out["encode_ms"] > 0
    assert out["ratio"] == pytest.approx(out["render_ms"] / out["encode_ms"], rel=0.01)
    assert out["ratio"] < 4          # the target is 1.5; generous against a busy machine
