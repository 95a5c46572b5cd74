"""The Cubosaurs table image (images/cubosaurs.py): decodes, right size for 2-5 players,
basic and advanced, deterministic, each part of the view changes its own area, labels come
from the catalogue, no crash on edge cases; and with the real engine, random games."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine.cubosaurs.data import CARDS, TILES, card
from engine.cubosaurs.scoring import breakdown
from images import cubosaurs as R
from images import render
from images.cubosaurs import draw_cubosaurs, encode_png, render_cubosaurs

NAMES = ["Ann", "Bob", "Cyrille-Amélie", "Dédé", "Françoise"]


def make_view(players: int = 4, advanced: bool = False, seed: int = 1, stage: str = "play",
              per_player: int = 7, hand: int = 3, passed: bool = True) -> dict:
    """A view as the spec's View section describes it, built by hand.

    ``stage``: "play" (a hand in play), "round_end" (a round just scored: ``last_scores``
    set), "over" (the game over, with ``result``). ``per_player`` cards in each collection.
    """
    rng = random.Random(seed)
    pool = list(CARDS)
    rng.shuffle(pool)
    cols = []
    for _ in range(players):
        take, pool = pool[:per_player], pool[per_player:]
        cols.append(sorted(take, key=CARDS.index))
    the_hand, seen = [], set()
    for cid in list(pool):
        if len(the_hand) >= hand:
            break
        if card(cid).type not in seen:
            seen.add(card(cid).type)
            the_hand.append(cid)
            pool.remove(cid)
    rounds = 3 if players == 2 else 2
    rnd = {"play": 1, "round_end": 1, "over": rounds}[stage]
    offer = list(TILES[: players + 1]) if advanced else []
    tiles = [[] for _ in range(players)]
    if advanced:
        tiles[0] = ["type_bonus"]
        if players > 2:
            tiles[2] = ["egg_bonus", "type_bonus"]
    finished = {"play": 0, "round_end": 1, "over": rounds}[stage]
    ps = []
    for p in range(players):
        past = [rng.randint(-8, 25) for _ in range(finished)]
        tokens = rng.randint(0, 9) if advanced else 0
        bonus = tokens // 2 if (advanced and stage == "over") else 0
        ps.append({"name": NAMES[p], "id": str(100 + p), "collection": cols[p],
                   "tokens": tokens, "tiles": tiles[p],
                   "score": breakdown(cols, p, tiles[p]), "rounds": past,
                   "total": sum(past) + bonus})
    current = 2 % players
    view = {
        "kind": "cubosaurs", "round": rnd, "rounds": rounds, "turn": 7,
        "direction": 1 if rnd % 2 else -1, "first": 1 % players, "current": current,
        "awaiting": [current], "over": stage == "over", "viewer": None,
        "deck": 23, "aside": 15,
        "hand": the_hand if stage == "play" else [],
        "hand_from": (current - 1) % players if passed else None,
        "advanced": advanced, "interactive": True, "reserve": 31 if advanced else 40,
        "offer": offer, "pile": 3 if advanced else 0, "bought": False, "debt": None,
        "players": ps,
        "last_scores": [breakdown(cols, p, tiles[p]) for p in range(players)]
        if stage != "play" else None,
        "result": None,
    }
    if stage == "over":
        view["awaiting"] = []
        order = sorted(range(players), key=lambda p: -ps[p]["total"])
        view["result"] = [{"player": p, "rank": k + 1, "score": ps[p]["total"],
                           "last": ps[p]["rounds"][-1]} for k, p in enumerate(order)]
    return view


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def crop_bytes(im: Image.Image, box) -> bytes:
    return im.crop(box).tobytes()


def no_eggs(view: dict) -> dict:
    """``view`` with every egg card taken out of the collections (scores recomputed)."""
    cols = [[c for c in pl["collection"] if card(c).type != "egg"] for pl in view["players"]]
    return with_collections(view, cols)


def with_collections(view: dict, cols) -> dict:
    players = []
    for p, pl in enumerate(view["players"]):
        players.append(dict(pl, collection=sorted(cols[p], key=CARDS.index),
                            score=breakdown(cols, p, pl["tiles"])))
    return dict(view, players=players)


# --- size, format, every kind of view -----------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("stage", ["play", "round_end", "over"])
def test_valid_png_of_the_expected_size(players, advanced, stage):
    im = decode(render_cubosaurs(make_view(players, advanced, stage=stage)))
    assert im.format == "PNG" and im.mode == "P"
    assert im.size == (R.WIDTH, R.height_for(players))
    assert im.size[1] <= 1000
    # Every part of the layout is inside the picture.
    x0, y0, x1, y1 = R.table_box(players)
    assert y1 <= im.size[1] and x1 <= R.WIDTH
    assert R.row_box(players - 1)[3] < y0


def test_heights_grow_with_players():
    heights = [R.height_for(n) for n in (2, 3, 4, 5)]
    assert heights == sorted(heights) and len(set(heights)) == 4
    assert heights[-1] <= 1000


def test_dispatcher():
    view = make_view(3, True)
    assert render("cubosaurs", view) == render_cubosaurs(view)
    with pytest.raises(ValueError):
        render("chess", view)


# --- determinism -------------------------------------------------------------------------------

def test_same_view_gives_identical_bytes():
    view = make_view(5, True, seed=4)
    first = render_cubosaurs(view)
    assert render_cubosaurs(view) == first
    for cached in (R.background, R.card_sprite, R.hand_sprite, R.seat_disc, R.token_icon,
                   R.badge, R.tile_chip, R.cost_disc, R.board_palette, R.stack_positions):
        cached.cache_clear()
    assert render_cubosaurs(view) == first
    # The view is not changed by drawing it.
    again = make_view(5, True, seed=4)
    assert view == again


def test_same_picture_for_every_viewer():
    view = make_view(4, True)
    assert render_cubosaurs(dict(view, viewer=2)) == render_cubosaurs(dict(view, viewer=None))


def test_background_is_cached():
    view = make_view(4, True)
    render_cubosaurs(view)
    before = R.background.cache_info()
    render_cubosaurs(dict(view, turn=view["turn"] + 1, deck=view["deck"] - 1))
    after = R.background.cache_info()
    assert after.misses == before.misses and after.hits == before.hits + 1


# --- each part of the view moves its own part of the picture ---------------------------------

def test_the_hand_changes_the_hand_area_only():
    view = make_view(4, True, hand=3)
    other = dict(view, hand=view["hand"][:1])
    a, b = draw_cubosaurs(view), draw_cubosaurs(other)
    assert crop_bytes(a, R.hand_box()) != crop_bytes(b, R.hand_box())
    for k in range(4):
        assert crop_bytes(a, R.row_box(k)) == crop_bytes(b, R.row_box(k))
    assert crop_bytes(a, R.side_box()) == crop_bytes(b, R.side_box())
    # Drawn or passed: the subtitle changes.
    drawn = dict(view, hand_from=None)
    assert crop_bytes(draw_cubosaurs(drawn), R.hand_box()) != crop_bytes(a, R.hand_box())


def test_a_collection_change_changes_that_row_only():
    view = no_eggs(make_view(4, False, per_player=6))
    cols = [list(pl["collection"]) for pl in view["players"]]
    used = {c for col in cols for c in col} | set(view["hand"])
    extra = next(c for c in CARDS if c not in used and card(c).type in ("stego", "bronto"))
    cols[1].append(extra)
    changed = with_collections(view, cols)
    a, b = draw_cubosaurs(view), draw_cubosaurs(changed)
    assert crop_bytes(a, R.row_box(1)) != crop_bytes(b, R.row_box(1))
    for k in (0, 2, 3):
        assert crop_bytes(a, R.row_box(k)) == crop_bytes(b, R.row_box(k))
    # The new card lands in its type's column.
    x, w = R.SLOTS[card(extra).type]
    y0 = R.row_y(1)
    col = (x, y0, x + w, y0 + R.CARD_TOP + R.CH)
    assert crop_bytes(a, col) != crop_bytes(b, col)


def test_cards_show_their_type_colour_and_count():
    view = no_eggs(make_view(2, False, per_player=0, hand=0))
    stegos = [c for c in CARDS if card(c).type == "stego"][:3]
    view = with_collections(view, [stegos, []])
    im = draw_cubosaurs(view)
    x, w = R.SLOTS["stego"]
    box = (x, R.row_y(0), x + w, R.row_y(0) + R.CARD_TOP + R.CH)
    colours = {c for _, c in im.crop(box).getcolors(1 << 16)}
    assert R.TYPE_RGB["stego"] in colours
    assert R.TYPE_RGB["trex"] not in colours
    # Three cards, not two: the stack and its badge differ.
    two = with_collections(view, [stegos[:2], []])
    assert crop_bytes(im, box) != crop_bytes(draw_cubosaurs(two), box)


def test_raptor_values_and_dna_marks_are_on_the_cards():
    grey = [c for c in CARDS if card(c).type == "grey"]
    # Same DNA mark, different values: different cards; same value and mark: the same.
    by_mark: dict = {}
    for c in grey:
        by_mark.setdefault((card(c).dna, card(c).value), []).append(c)
    plain = {v: cs[0] for (dna, v), cs in by_mark.items() if not dna}
    assert len(plain) >= 2
    assert len({R.card_sprite(c).tobytes() for c in plain.values()}) == len(plain)
    for cs in by_mark.values():
        assert len({R.card_sprite(c).tobytes() for c in cs}) == 1
    # The DNA mark: a DNA grey differs from a plain grey of the same value, if there is one.
    same = [(dna_c[0], by_mark.get((False, v), [None])[0])
            for (dna, v), dna_c in by_mark.items() if dna]
    for with_mark, without in same:
        if without is not None:
            assert R.card_sprite(with_mark).tobytes() != R.card_sprite(without).tobytes()
    stego = [c for c in CARDS if card(c).type == "stego"]
    dna = next(c for c in stego if card(c).dna)
    nodna = next(c for c in stego if not card(c).dna)
    assert R.card_sprite(dna).tobytes() != R.card_sprite(nodna).tobytes()
    # Two plain stegos look the same: no other mark.
    others = [c for c in stego if not card(c).dna]
    assert R.card_sprite(others[0]).tobytes() == R.card_sprite(others[-1]).tobytes()


def test_egg_cards_show_species_and_which_value_counts():
    eggs = [c for c in CARDS if card(c).type == "egg"]
    assert len({R.card_sprite(c, "plus").tobytes() for c in eggs}) == len(eggs)
    assert R.card_sprite(eggs[0], "plus").tobytes() != R.card_sprite(eggs[0], "minus").tobytes()
    stegos = [c for c in CARDS if card(c).type == "stego"]
    view = make_view(3, False, per_player=0, hand=0)
    view = with_collections(view, [[stegos[0], "egg-stego"], [stegos[1], stegos[2]], []])
    states = R.egg_states(view)
    assert states == {"egg-stego": False}           # 1 stego against 2: the minus counts
    view = with_collections(view, [[stegos[0], stegos[3], "egg-stego"], [stegos[1]], []])
    assert R.egg_states(view) == {"egg-stego": True}
    alone = with_collections(view, [["egg-stego"], [], []])
    assert R.egg_states(alone) == {"egg-stego": False}   # no stego at all: not the most
    raptor = with_collections(view, [["grey-1", "black-1", "egg-raptor"], ["grey-2"], []])
    assert R.egg_states(raptor) == {"egg-raptor": True}   # grey + black count together


def test_stacks_stay_in_their_column():
    for ty in R.SLOT_TYPES:
        x, w = R.SLOTS[ty]
        for n in range(1, 15):
            xs = R.stack_positions(ty, n)
            assert len(xs) == n and xs[0] >= x and xs[-1] + R.CW <= x + w
            assert list(xs) == sorted(xs)


def test_direction_and_current_player_in_the_order_strip():
    view = make_view(4, False)
    strip = (0, R.STRIP_Y, R.WIDTH, R.STRIP_Y + R.STRIP_H)
    a = draw_cubosaurs(view)
    assert R.turn_order(view) == [1, 2, 3, 0]
    assert R.turn_order(dict(view, direction=-1)) == [1, 0, 3, 2]
    b = draw_cubosaurs(dict(view, direction=-1))
    assert crop_bytes(a, strip) != crop_bytes(b, strip)
    c = draw_cubosaurs(dict(view, current=3, awaiting=[3]))
    assert crop_bytes(a, strip) != crop_bytes(c, strip)
    # The awaited player's row is outlined.
    colours = {col for _, col in c.crop(R.row_box(3)).getcolors(1 << 16)}
    assert R.AWAIT in colours
    assert R.AWAIT not in {col for _, col in c.crop(R.row_box(0)).getcolors(1 << 16)}


def test_counts_and_tokens_are_drawn():
    view = make_view(3, True)
    caption = (0, 0, R.WIDTH, R.STRIP_Y + R.STRIP_H)
    a = draw_cubosaurs(view)
    assert crop_bytes(a, caption) != crop_bytes(draw_cubosaurs(dict(view, deck=4)), caption)
    assert crop_bytes(a, caption) != crop_bytes(draw_cubosaurs(dict(view, aside=3)), caption)
    assert crop_bytes(a, caption) != crop_bytes(draw_cubosaurs(dict(view, turn=9)), caption)
    side = R.side_box()
    assert crop_bytes(a, side) != crop_bytes(draw_cubosaurs(dict(view, reserve=2)), side)
    assert crop_bytes(a, side) != crop_bytes(
        draw_cubosaurs(dict(view, offer=view["offer"][1:])), side)
    assert crop_bytes(a, side) != crop_bytes(
        draw_cubosaurs(dict(view, debt={"player": 1, "count": 2})), side)
    players = [dict(pl) for pl in view["players"]]
    players[2]["tokens"] += 3
    players[2]["tiles"] = ["steal"]
    b = draw_cubosaurs(dict(view, players=players))
    assert crop_bytes(a, R.row_box(2)) != crop_bytes(b, R.row_box(2))
    assert crop_bytes(a, R.row_box(1)) == crop_bytes(b, R.row_box(1))


def test_scoreboard_shows_the_last_round_and_the_ranking():
    view = make_view(4, True, stage="round_end")
    table = R.table_box(4)
    a = draw_cubosaurs(view)
    assert crop_bytes(a, table) != crop_bytes(draw_cubosaurs(dict(view, last_scores=None)),
                                              table)
    last = [dict(b) for b in view["last_scores"]]
    last[0]["raptors"] += 3
    last[0]["total"] += 3
    assert crop_bytes(a, table) != crop_bytes(draw_cubosaurs(dict(view, last_scores=last)), table)
    over = make_view(4, True, stage="over")
    done = draw_cubosaurs(over)
    still = draw_cubosaurs(dict(over, over=False, result=None))
    assert crop_bytes(done, R.side_box()) != crop_bytes(still, R.side_box())
    assert crop_bytes(done, table) != crop_bytes(still, table)


# --- the catalogue -------------------------------------------------------------------------------

def _clear_text_caches():
    for cached in (R.background, R.hand_sprite, R.tile_chip):
        cached.cache_clear()


@pytest.mark.parametrize(("key", "area"), [
    ("cubosaurs.render.hand", "hand"),
    ("cubosaurs.render.passed_by", "hand"),
    ("cubosaurs.render.short.trex", "head"),
    ("cubosaurs.render.dna", "side"),
    ("cubosaurs.tile.type_bonus", "side"),
    ("cubosaurs.render.scoreboard", "table"),
    ("cubosaurs.render.caption", "caption"),
    ("cubosaurs.render.clockwise", "strip"),
])
def test_text_comes_from_the_catalogue(monkeypatch, key, area):
    from messages import catalogue
    view = make_view(4, True)
    assert view["offer"][0] == "type_bonus"
    boxes = {"hand": R.hand_box(), "side": R.side_box(), "table": R.table_box(4),
             "head": (0, R.HEAD_Y, R.WIDTH, R.ROWS_Y), "caption": (0, 0, R.WIDTH, R.CAPTION_H),
             "strip": (0, R.STRIP_Y, R.WIDTH, R.STRIP_Y + R.STRIP_H)}
    box = boxes[area]
    _clear_text_caches()
    before = draw_cubosaurs(view)
    assert catalogue("en")[key]
    monkeypatch.setitem(catalogue("en"), key, "Zq {player}{round}")
    _clear_text_caches()
    try:
        after = draw_cubosaurs(view)
    finally:
        monkeypatch.undo()
        _clear_text_caches()
    assert crop_bytes(before, box) != crop_bytes(after, box)


def test_every_key_used_exists():
    import re
    from pathlib import Path

    from messages import t
    src = Path(R.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'"(cubosaurs\.[a-z_.]+[a-z_])"', src))
    assert len(keys) > 20
    keys |= {f"cubosaurs.render.short.{x}" for x in (*R.SLOT_TYPES, "raptors", "egg_card")}
    keys |= {f"cubosaurs.tile.{x}" for x in TILES} | {f"cubosaurs.render.tile.{x}" for x in TILES}
    for key in keys:
        assert t(key) != key, key
    # Another language falls back to English.
    view = make_view(3, True)
    assert render_cubosaurs(view, "xx") == render_cubosaurs(view, "en")


# --- edge cases ----------------------------------------------------------------------------------

def test_empty_hand_and_empty_collections():
    view = make_view(5, True, per_player=0, hand=0)
    assert all(not pl["collection"] for pl in view["players"]) and not view["hand"]
    im = decode(render_cubosaurs(view))
    assert im.size == (R.WIDTH, R.height_for(5))
    full = make_view(5, True, per_player=5, hand=0)
    assert crop_bytes(draw_cubosaurs(view), R.row_box(0)) != crop_bytes(
        draw_cubosaurs(full), R.row_box(0))


def test_big_collections_many_tiles_long_names():
    rng = random.Random(7)
    view = make_view(5, True, per_player=0, hand=0)
    cols = [[rng.choice(CARDS) for _ in range(28)] for _ in range(5)]
    cols[0] = list(CARDS[:28])
    cols[1] = [c for c in CARDS if card(c).type in ("egg", "grey", "black")] * 2
    view = with_collections(view, cols)
    players = [dict(pl) for pl in view["players"]]
    players[3]["tiles"] = list(TILES)
    players[4]["name"] = "Wolfeschlegelsteinhausenbergerdorff the Magnificent"
    players[4]["total"] = -123
    players[4]["tokens"] = 40
    view = dict(view, players=players, hand=list(CARDS[::4]), hand_from=4,
                debt={"player": 4, "count": 3}, bought=True, offer=list(TILES),
                last_scores=[pl["score"] for pl in players])
    for pl in players:
        assert len(pl["collection"]) >= 25 or pl is players[1]
    im = decode(render_cubosaurs(view))
    assert im.size == (R.WIDTH, R.height_for(5))


def test_game_over_with_ties_and_no_awaiting():
    view = make_view(3, False, stage="over")
    view["result"] = [{"player": 0, "rank": 1, "score": 10, "last": 4},
                      {"player": 2, "rank": 1, "score": 10, "last": 4},
                      {"player": 1, "rank": 3, "score": -2, "last": -5}]
    im = draw_cubosaurs(view)
    assert im.size == (R.WIDTH, R.height_for(3))
    caption = (0, 0, R.WIDTH, R.CAPTION_H)
    lone = dict(view, result=[view["result"][0], dict(view["result"][1], rank=2),
                              view["result"][2]])
    assert crop_bytes(im, caption) != crop_bytes(draw_cubosaurs(lone), caption)


def test_fixed_palette_keeps_flat_colours_exact():
    flat = [*R.TYPE_RGB.values(), *R.PLAYER_RGB, R.BG, R.INK, R.CARD_BG, R.AWAIT, R.PLUS,
            R.MINUS, R.TOKEN]
    im = Image.new("RGB", (len(flat), 1))
    for i, c in enumerate(flat):
        im.putpixel((i, 0), c)
    back = decode(encode_png(im)).convert("RGB")
    assert [back.getpixel((i, 0)) for i in range(len(flat))] == flat
    rgb = draw_cubosaurs(make_view(5, True))
    png = decode(encode_png(rgb)).convert("RGB")
    err = sum(abs(a - b) for a, b in zip(rgb.tobytes(), png.tobytes(), strict=True))
    assert err / (rgb.size[0] * rgb.size[1] * 3) < 1.0


def test_bench_render_reports_the_ratio():
    out = R.bench_render(make_view(5, True), 15)
    assert set(out) == {"render_ms", "encode_ms", "ratio"}
    assert out["render_ms"] > 0 and out["encode_ms"] > 0
    assert out["ratio"] == pytest.approx(out["render_ms"] / out["encode_ms"], rel=0.01)
    assert out["ratio"] < 4          # the target is 1.5; generous against a busy machine


# --- with the real engine ------------------------------------------------------------------------

def play(players: int, advanced: bool, seed: int):
    """Random legal play (buys now and then); yields every view, with the observer's
    moments ("deal", "round_end") in their place."""
    from engine import Seat
    from engine.cubosaurs import CUBOSAURS

    moments: list[dict] = []

    def observer(state, moment):
        moments.append(dict(CUBOSAURS.view(state, None), moment=moment))

    seats = [Seat(str(i + 1), NAMES[i]) for i in range(players)]
    st, _ = CUBOSAURS.new_game_with_events(seats, seed, {"advanced": advanced}, observer)
    rng = random.Random(seed)
    while True:
        yield from moments
        moments.clear()
        v = CUBOSAURS.view(st, None)
        yield v
        if v["over"]:
            return
        p = CUBOSAURS.to_act(st)[0]
        acts = CUBOSAURS.legal_actions(st, p)
        buys = [a for a in acts if a["type"] == "buy"]
        act = rng.choice(buys) if buys and rng.random() < 0.3 else rng.choice(acts)
        st, _ = CUBOSAURS.apply_action(st, p, act, observer)


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (3, True), (4, False),
                                                     (5, True)])
def test_random_games_render(players, advanced):
    seen_end = seen_over = 0
    for i, v in enumerate(play(players, advanced, seed=players * 11)):
        if v.get("moment") == "round_end":
            seen_end += 1
            assert v["last_scores"] and (R.round_scored(v) or v["over"])
        elif i % 9 and not v["over"]:
            continue
        seen_over += v["over"]
        im = decode(render_cubosaurs(v))
        assert im.size == (R.WIDTH, R.height_for(players))
    assert seen_end == (3 if players == 2 else 2)
    assert seen_over
