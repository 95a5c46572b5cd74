"""The EVO board image (images/evo.py): decodes, right size, every phase, deterministic,
cached, dinos where the engine says, accents drawn with the vendored font, no hidden info."""

from __future__ import annotations

import ast
import io
import random
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from engine import Seat
from engine.evo import EVO
from engine.evo.data import Board, board_for
from images import evo as R
from images.evo import draw_evo, encode_png, render_evo

NAMES = ["Ann", "Bob", "Cyrille-Amélie", "Dédé", "Françoise"]


def play(players: int, seed: int, stop=None, viewer=None):
    """Random play; yields (state, view) after every action until ``stop(view)`` or the end."""
    st = EVO.new_game([Seat(str(i + 1), NAMES[i]) for i in range(players)], seed=seed,
                      options={"variant": False})
    rng = random.Random(seed)
    while True:
        v = EVO.view(st, viewer)
        yield st, v
        if v["over"] or (stop and stop(v)):
            return
        p = EVO.to_act(st)[0]
        acts = EVO.legal_actions(st, p)
        pick = [a for a in acts if a["type"] in ("hatch", "bid")] or acts
        EVO.apply_in_place(st, p, rng.choice(pick))


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


@pytest.fixture(scope="module")
def phase_views() -> dict:
    """One public view per (players, phase, auction shown) from random games, incl. 'over'."""
    out: dict = {}
    for players in (3, 4, 5):
        for seed in (1, 2):
            for _, v in play(players, seed):
                key = (players, v["phase"], bool(v["state"]["auction"]))
                out.setdefault(key, v)
    return out


@pytest.fixture(scope="module")
def auction_view() -> dict:
    return R.sample_view(4, seed=3, turn=2, bids=1)


def test_every_phase_and_player_count_renders(phase_views):
    phases = {"initiative", "climate", "movement", "births", "survival", "evolution", "over"}
    for players in (3, 4, 5):
        seen = {phase for (n, phase, _) in phase_views if n == players}
        assert {"movement", "births", "evolution", "over"} <= seen
    assert {phase for (_, phase, _) in phase_views} == phases
    assert any(auction for (_, _, auction) in phase_views)
    for view in phase_views.values():
        im = decode(render_evo(view))
        assert im.size == (R.WIDTH, R.HEIGHT)
        assert im.format == "PNG"


def test_auction_and_ranking_are_drawn(auction_view, phase_views):
    a = auction_view["state"]["auction"]
    assert a and any(b is not None for b in a["bids"])
    with_auction = draw_evo(auction_view)
    without = dict(auction_view, phase="births")
    box = (R.PANEL_X, R.BOX_Y, R.PANEL_X + R.PANEL_W, R.HEIGHT)
    assert with_auction.crop(box).tobytes() != draw_evo(without).crop(box).tobytes()
    # The bidder's disc is in the auction box: their colour appears there.
    p, _ = next(b for b in a["bids"] if b is not None)
    colours = with_auction.crop(box).getcolors(1 << 16)
    assert any(c == R.player_rgb(p) for _, c in colours)

    over = next(v for (n, phase, _), v in phase_views.items() if phase == "over")
    assert over["state"]["result"]
    done = draw_evo(over)
    assert done.crop(box).tobytes() != draw_evo(dict(over, over=False, phase="births")).crop(
        box).tobytes()


def test_same_view_gives_identical_bytes(auction_view):
    first = render_evo(auction_view)
    assert render_evo(auction_view) == first
    # Even with every cache rebuilt from scratch.
    for cached in (R.background, R.island_image, R.disc_sprite, R.gene_icon, R._text_mask,
                   R._auction_tile, R.zone_swatch):
        cached.cache_clear()
    assert render_evo(auction_view) == first


def test_island_and_background_are_cached(auction_view):
    render_evo(auction_view)
    island, bg = R.island_image.cache_info(), R.background.cache_info()
    render_evo(auction_view)
    later = dict(auction_view, turn=auction_view["turn"] + 1)     # same climate, new turn
    render_evo(later)
    assert R.island_image.cache_info().misses == island.misses
    assert R.background.cache_info().misses == bg.misses
    assert R.background.cache_info().hits >= bg.hits + 2


def test_dino_disc_has_player_colour_at_hex_centre(phase_views):
    checked = 0
    busiest = {}
    for (players, _, _), view in sorted(phase_views.items()):
        dinos = sum(reg["owner"] >= 0 for reg in view["regions"])
        if dinos > busiest.get(players, (0, None))[0]:
            busiest[players] = (dinos, view)
    for players, (_, view) in busiest.items():
        owned = [(r, reg["owner"]) for r, reg in enumerate(view["regions"]) if reg["owner"] >= 0]
        im = decode(render_evo(view)).convert("RGB")
        radius = R.island_layout(players).radius
        for region, owner in owned:
            x, y = R.hex_centre(players, region)
            near = Counter(im.getpixel((x + dx, y + dy))
                           for dx in range(-9, 10) for dy in range(-9, 10)
                           if dx * dx + dy * dy <= (0.3 * radius) ** 2)
            assert near.most_common(1)[0][0] == R.player_rgb(owner), (players, region)
            checked += 1
        empty = next((r for r, reg in enumerate(view["regions"]) if reg["owner"] < 0), None)
        if empty is not None:
            x, y = R.hex_centre(players, empty)
            assert im.getpixel((x, y)) not in R.PLAYER_RGB[:players]
    assert checked >= 10


def test_newborns_are_ringed(phase_views):
    view = next(v for v in phase_views.values()
                if any(v["regions"][r]["owner"] >= 0 for r in v["state"]["newborn"]))
    r = next(r for r in view["state"]["newborn"] if view["regions"][r]["owner"] >= 0)
    players = len(view["players"])
    im = draw_evo(view)
    lay = R.island_layout(players)
    x, y = lay.disc_centre(r)
    left = [im.getpixel((x + dx, y)) for dx in range(-lay.disc_radius() - 4, -lay.disc_radius() + 2)]
    assert any(sum(abs(a - b) for a, b in zip(c, R.NEWBORN_RING, strict=True)) < 40 for c in left)
    adult = dict(view, state=dict(view["state"], newborn=[]))
    assert draw_evo(adult).tobytes() != im.tobytes()


def test_accents_drawn_with_the_vendored_font(auction_view):
    fonts = Path(R.__file__).parent / "fonts"
    for bold in (False, True):
        assert Path(R.font(20, bold).path).parent == fonts
    f = R.font(40, True)
    missing = bytes(f.getmask("\U0010fffd"))
    for accented, plain in zip("àèéçÉ", "aeecE", strict=True):
        glyph = bytes(f.getmask(accented))
        assert glyph != missing and glyph != bytes(f.getmask(plain))

    def named(name):
        players = [dict(p) for p in auction_view["players"]]
        players[auction_view["order"][0]]["name"] = name
        return dict(auction_view, players=players)

    card = (R.PANEL_X + 50, R.PLAYERS_Y + 4, R.PANEL_X + 300, R.PLAYERS_Y + 50)
    accents = draw_evo(named("àèéç Ça")).crop(card)
    plain = draw_evo(named("aeec Ca")).crop(card)
    assert accents.tobytes() != plain.tobytes()
    # The accents are above the letters: ink where the plain name has only paper.
    diff = [i for i, (a, b) in enumerate(zip(accents.convert("L").tobytes(),
                                             plain.convert("L").tobytes(), strict=True))
            if a < 128 <= b]
    assert len(diff) > 20
    assert decode(render_evo(named("Hélène à Noël"))).size == (R.WIDTH, R.HEIGHT)


def test_hidden_hand_is_never_drawn():
    """The table image is the same whoever looks: a seat's own view draws no hand."""
    *_, (state, public) = play(4, 5, lambda v: v["turn"] >= 4)
    seat = next(p for p in range(state.n) if state.hands[p])
    mine = EVO.view(state, seat)
    assert mine["players"][seat]["hand"] and public["players"][seat]["hand"] is None
    assert render_evo(mine) == render_evo(public)


def _blobs(img: Image.Image, inside) -> int:
    """How many 4-connected groups of pixels satisfy ``inside(rgb)``."""
    w, h = img.size
    px = img.load()
    seen: set = set()
    count = 0
    for y in range(h):
        for x in range(w):
            if (x, y) in seen or not inside(px[x, y]):
                continue
            count += 1
            todo = [(x, y)]
            seen.add((x, y))
            while todo:
                a, b = todo.pop()
                for c, d in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                    if 0 <= c < w and 0 <= d < h and (c, d) not in seen and inside(px[c, d]):
                        seen.add((c, d))
                        todo.append((c, d))
    return count


def _pip(rgb) -> bool:
    r, g, b = rgb[:3]
    return r > 120 and g < 90 and b < 90


@pytest.mark.parametrize("face", range(1, 7))
@pytest.mark.parametrize("size", [12, 13, 16])
def test_die_face_has_its_pips(face, size):
    sprite = R.die_face(face, size)
    flat = Image.new("RGB", sprite.size, R.WHITE)
    flat.paste(sprite, (0, 0), sprite)
    assert _blobs(flat, _pip) == face


def test_meteorite_squares_show_all_their_die_faces():
    """A rolled square of the meteorite track shows each of its faces as a die face (the
    printed track's "several faces"); a plain square shows none."""
    view = next(v for _, v in play(3, 1))
    meteor = view["meteor"]
    img = decode(render_evo(view)).convert("RGB")
    step = R._meteor_step(meteor["last"])
    for square in range(meteor["last"]):
        cx, cy = R._meteor_square(square, meteor["last"])
        below = img.crop((round(cx - step / 2), round(cy + R.METEOR_SQ / 2 + 2),
                          round(cx + step / 2), R.HEIGHT))
        faces = meteor["faces"].get(str(square), [])
        assert _blobs(below, _pip) == sum(faces), (square, faces)


def test_fixed_palette_keeps_flat_colours_exact(auction_view):
    flat = [*R.PLAYER_RGB, *R.TERRAIN_RGB.values(), R.BG, R.INK, R.SEA, R.CARD_BG,
            *(R.zone_fill(t, z) for t in R.TERRAINS for z in R.ZONES)]
    im = Image.new("RGB", (len(flat), 1))
    for i, c in enumerate(flat):
        im.putpixel((i, 0), c)
    back = decode(encode_png(im)).convert("RGB")
    assert [back.getpixel((i, 0)) for i in range(len(flat))] == flat
    # The whole board survives the palette almost unchanged.
    rgb = draw_evo(auction_view)
    png = decode(encode_png(rgb)).convert("RGB")
    err = sum(abs(a - b) for a, b in zip(rgb.tobytes(), png.tobytes(), strict=True))
    assert err / (R.WIDTH * R.HEIGHT * 3) < 1.0


def test_bigger_island_fits_the_sea(monkeypatch):
    """Maps may grow (up to 12 columns x 11 rows): the layout scales, nothing hard-coded."""
    rows, cols = 11, 12
    cells = tuple((r, c) for r in range(rows) for c in range(cols))
    names = tuple(f"{chr(65 + c)}{r + 1}" for r, c in cells)
    big = Board(players=5, names=names, terrain=tuple((r + c) % 4 for r, c in cells),
                cells=cells, neighbours=tuple(() for _ in cells),
                coastal=tuple(False for _ in cells), starts=(0, len(cells) - 1), rows=rows,
                cols=cols, index={n: i for i, n in enumerate(names)},
                near=tuple(frozenset() for _ in cells))
    caches = (R.island_layout, R._marks, R.island_image, R.background)
    for c in caches:
        c.cache_clear()
    monkeypatch.setattr(R, "board_for", lambda n: big)
    try:
        lay = R.island_layout(5)
        x0, y0, x1, y1 = R.ISLAND_BOX
        for x, y in lay.centres:
            assert x0 <= x - lay.radius * 0.87 and x + lay.radius * 0.87 <= x1
            assert y0 <= y - lay.radius and y + lay.radius <= y1
        assert lay.radius >= 30
        view = R.sample_view(5, 1)
        view = dict(view, regions=[{"name": n, "owner": i % 6 - 1} for i, n in enumerate(names)])
        assert decode(render_evo(view)).size == (R.WIDTH, R.HEIGHT)
    finally:
        monkeypatch.undo()
        for c in caches:
            c.cache_clear()
    assert len(R.island_layout(5).centres) == len(board_for(5))


def test_images_never_import_discord_or_cogs():
    for path in Path(R.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                mods = [node.module or ""]
            else:
                continue
            for m in mods:
                assert m.split(".")[0] not in ("discord", "cogs"), (path.name, m)


def test_text_comes_from_the_catalogue(auction_view):
    from messages import t
    for key in ("render.caption", "render.awaiting", "render.auction", "render.stock",
                "render.no_bid", "render.ranking", "render.score_line", "render.played",
                "render.start", "render.newborn", "render.climate", "render.meteorite",
                "render.initiative", "render.mp"):
        assert t(key) != key
    # A caption in another language is drawn from its own sentence (falls back to English).
    assert render_evo(auction_view, "xx") == render_evo(auction_view, "en")


def test_bench_render_reports_the_ratio():
    out = R.bench_render(seed=1, runs=3)
    assert set(out) == {"render_ms", "encode_ms", "ratio"}
    assert out["render_ms"] > 0 and out["encode_ms"] > 0
    assert out["ratio"] == pytest.approx(out["render_ms"] / out["encode_ms"], rel=0.01)


def test_text_helper_matches_pillow():
    """The cached text paste gives the same pixels as ImageDraw.text at whole pixels."""
    a = Image.new("RGB", (300, 60), R.CARD_BG)
    b = a.copy()
    R.text(a, 10, 30, "Élodie · 12 MP", 26, True, R.INK, "lm")
    ImageDraw.Draw(b).text((10, 30), "Élodie · 12 MP", font=R.font(26, True), fill=R.INK,
                           anchor="lm")
    assert a.tobytes() == b.tobytes()
