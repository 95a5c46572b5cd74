"""The read-only web page (web/): every route, status and header, the 404s (wrong, revoked,
server page off), 405, the rate limit, the language choice, the caches (one store read per
game per second, one drawing per position), the event stream, and a leak scan of every page,
JSON and image served, on real games of all four kinds (mid-game and finished).

aiohttp's own test server and client (aiohttp.test_utils), inside pytest-asyncio tests."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from aiohttp.test_utils import TestClient, TestServer

from engine import get_game
from store import Store
from tests.contract import pick, seats
from web import WebSettings, make_app
from web.app import IMMUTABLE, SECURITY_HEADERS, WEB_APP, choose_lang, draw_board

KINDS = ("evo", "cubosaurs", "mutations", "climate")
PNG = b"\x89PNG\r\n\x1a\n"


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


async def store_game(store: Store, kind: str, *, n: int = 3, seed: int = 7,
                     moves: int | None = None, guild: str = "100", channel: str = "200",
                     lang: str | None = None) -> tuple[int, object]:
    """A seeded random game written as the host writes it (lobby with seats, seed and the
    recent events; one action row per move); to the end unless ``moves``. (id, state)."""
    rules = get_game(kind)
    table = seats(n)
    lobby = {"creator": table[0].id, "lang": lang,
             "seats": [{"id": s.id, "name": s.name, "ai": i > 0} for i, s in enumerate(table)]}
    game = await store.create_game(guild, channel, kind, {}, lobby, 1.0)
    state, events = rules.new_game_with_events(table, seed, {})
    lobby = dict(lobby, seed=seed, log=list(events)[-30:])
    await store.start_game(game, rules.to_json(state), 2.0, lobby=lobby)
    rnd = random.Random(seed)
    seq = 0
    while not rules.is_over(state) and (moves is None or seq < moves):
        p, a = pick(rules, state, rnd)
        state, new_events = rules.apply_action(state, p, a)
        lobby = dict(lobby, log=(lobby["log"] + list(new_events))[-30:])
        results = None
        if rules.is_over(state):
            results = [{"seat": r["player"], "rank": r["rank"], "score": r.get("score"),
                        "user_id": table[r["player"]].id, "name": table[r["player"]].name}
                       for r in rules.returns(state)]
        seq = await store.record_action(game, seq, table[p].id, a, rules.to_json(state),
                                        3.0 + seq, results=results, lobby=lobby)
    return game, state


@pytest.fixture
async def store():
    async with Store.open(":memory:") as s:
        yield s


@pytest.fixture
def clock():
    return Clock()


async def client_for(store, clock, **settings) -> TestClient:
    app = make_app(store, WebSettings(enabled=True, base_url="https://x.test", **settings),
                   default_lang="en", clock=clock,
                   status_lines=lambda kind, view, lang: [f"**{kind}** status", "line two"])
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


@pytest.fixture
async def web(store, clock):
    client = await client_for(store, clock, rate=1000, burst=10000)
    yield client
    await client.close()


def secure(response, *, token_page: bool = True) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert response.headers[name] == value, name
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    if token_page:
        assert response.headers["Cache-Control"] in ("no-store", "private, no-cache", IMMUTABLE)


# --- routes, statuses, headers -------------------------------------------------------------------


async def test_game_page_state_board_and_headers(store, web):
    game, state = await store_game(store, "evo", moves=25)
    token = await store.web_token(5.0, game_id=game)
    r = await web.get(f"/g/{token}")
    assert r.status == 200 and r.content_type == "text/html"
    secure(r)
    assert r.headers["Cache-Control"] == "no-store"
    page = await r.text()
    for anchor in ('id="board-img"', 'id="players"', 'id="log"', 'id="replay-prev"',
                   'id="replay-next"', 'id="replay-play"', 'data-seq="25"',
                   'name="viewport"', f'src="{token}/board.png?seq=25&amp;lang=en"',
                   'href="../static/web.css?v=', '<script src="../static/web.js?v=',
                   '<link rel="icon" href="../static/icon.svg?v=',
                   f'data-events="{token}/events?lang=en"'):
        assert anchor in page, anchor
    assert "<script>" not in page and "style=" not in page and "onclick" not in page
    assert "**" not in page and "evo status" in page and "Player 1" in page

    r = await web.get(f"/g/{token}/state.json")
    assert r.status == 200 and r.content_type == "application/json"
    secure(r)
    data = await r.json()
    assert data["seq"] == 25 and data["status"] == "active" and data["kind"] == "evo"
    assert data["phase"] == get_game("evo").phase_name(state)
    assert [p["name"] for p in data["players"]] == ["Player 1", "Player 2", "Player 3"]
    assert all(p["rank"] is not None for p in data["players"])
    awaited = get_game("evo").to_act(state)
    assert [p["seat"] for p in data["players"] if p["awaited"]] == awaited
    assert data["turn"] == [f"Player {p + 1}" for p in awaited] and data["log"]

    r = await web.get(f"/g/{token}/board.png")
    assert r.status == 200 and r.content_type == "image/png"
    secure(r)
    png = await r.read()
    assert png.startswith(PNG) and r.headers["ETag"]
    assert r.headers["Cache-Control"] == "private, no-cache"  # no position named: revalidated
    again = await web.get(f"/g/{token}/board.png", headers={"If-None-Match": r.headers["ETag"]})
    assert again.status == 304
    # the page's URL names the position and the language: never asked again
    r = await web.get(f"/g/{token}/{data['board'].split('/', 1)[1]}")
    assert r.status == 200 and await r.read() == png and r.headers["ETag"]
    assert r.headers["Cache-Control"] == IMMUTABLE == "private, max-age=31536000, immutable"
    secure(r)
    for stale in ("seq=24&lang=en", "seq=25&lang=xx", "seq=25"):  # not that content
        r = await web.get(f"/g/{token}/board.png?{stale}")
        assert r.status == 200 and r.headers["Cache-Control"] == "private, no-cache", stale
    large = await web.get(f"/g/{token}/board.png?size=large")
    assert (await large.read()).startswith(PNG)
    import io

    from PIL import Image

    small_size = Image.open(io.BytesIO(png)).size
    assert Image.open(io.BytesIO(await large.read())).size == (small_size[0] * 2,
                                                               small_size[1] * 2)
    head = await web.head(f"/g/{token}")
    assert head.status == 200 and await head.read() == b""


async def test_static_files_cached_with_their_hash(web):
    r = await web.get("/g/aaaaaaaaaaaaaaaaaaaaaa")  # any page names the files
    assert r.status == 404
    app = web.server.app[WEB_APP]
    for name, (data, digest) in app.static.items():
        r = await web.get(f"/static/{name}?v={digest}")
        assert r.status == 200 and await r.read() == data
        assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert r.headers["ETag"] == f'"{digest}"'
        secure(r, token_page=False)
        r = await web.get(f"/static/{name}", headers={"If-None-Match": f'"{digest}"'})
        assert r.status == 304
    assert (await web.get("/static/web.css")).headers["Content-Type"].startswith("text/css")
    assert (await web.get("/static/nope.js")).status == 404
    assert (await web.get("/static/../web/app.py")).status == 404


async def test_wrong_revoked_and_unknown_links_are_the_same_404(store, web):
    game, _ = await store_game(store, "cubosaurs", moves=5)
    token = await store.web_token(5.0, game_id=game)
    assert (await web.get(f"/g/{token}")).status == 200
    await store.revoke_web_token(6.0, game_id=game)
    web.server.app[WEB_APP].forget(token)
    bodies = set()
    for path in (f"/g/{token}", f"/g/{token}/state.json", f"/g/{token}/board.png",
                 f"/g/{token}/events", f"/g/{token}/replay/0.png", "/g/short",
                 "/g/" + "x" * 30, "/nothing", "/s/" + "y" * 24, f"/s/{token}", "/"):
        r = await web.get(path)
        assert r.status == 404, path
        secure(r)
        bodies.add(await r.text())
    assert bodies == {"404: Not Found"}
    guild_token = await store.web_token(7.0, guild_id=100)  # the server page is off
    assert (await web.get(f"/s/{guild_token}")).status == 404
    assert (await web.get(f"/g/{guild_token}")).status == 404  # not a game's link


async def test_only_get_and_head(store, web):
    game, _ = await store_game(store, "evo", moves=3)
    token = await store.web_token(5.0, game_id=game)
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        for path in (f"/g/{token}", f"/g/{token}/state.json", "/static/web.css", "/nothing"):
            r = await web.request(method, path)
            assert r.status == 405, (method, path)
            assert r.headers["Allow"] == "GET, HEAD"
            secure(r)


async def test_rate_limit_per_client_with_retry_after(store, clock):
    client = await client_for(store, clock, rate=2, burst=5)
    try:
        codes = [(await client.get("/static/web.css")).status for _ in range(7)]
        assert codes == [200] * 5 + [429] * 2
        r = await client.get("/static/web.css")
        assert r.status == 429 and r.headers["Retry-After"] == "1"
        secure(r, token_page=False)
        clock.t += 1.0  # two tokens back
        assert [(await client.get("/static/web.css")).status for _ in range(3)] == \
               [200, 200, 429]
        # without a trusted proxy, X-Forwarded-For does not make another client
        r = await client.get("/static/web.css", headers={"X-Forwarded-For": "10.0.0.9"})
        assert r.status == 429
    finally:
        await client.close()
    client = await client_for(store, clock, rate=2, burst=2, trusted_proxy=True)
    try:
        for ip in ("10.0.0.1", "10.0.0.2"):  # the last address: the one our proxy added
            headers = {"X-Forwarded-For": f"6.6.6.6, {ip}"}
            assert [(await client.get("/static/web.css", headers=headers)).status
                    for _ in range(3)] == [200, 200, 429]
    finally:
        await client.close()


# --- languages ----------------------------------------------------------------------------------


def test_accept_language_with_q_values():
    from aiohttp.test_utils import make_mocked_request

    def lang(header, default="en", query=""):
        request = make_mocked_request("GET", "/g/x" + query,
                                      headers={"Accept-Language": header} if header else {})
        return choose_lang(request, default)

    assert lang("") == "en" and lang("", "it") == "it"
    assert lang("fr-FR,fr;q=0.9,en;q=0.8") == "fr"
    assert lang("de;q=1.0, it;q=0.5, fr;q=0.7") == "fr"
    assert lang("en;q=0.2, it-IT") == "it"
    assert lang("de, es", "fr") == "fr"  # nothing known: the table's language
    assert lang("fr;q=0, it;q=0.1") == "it"
    assert lang("it", query="?lang=fr") == "fr"
    assert lang("it;q=bad, fr") == "fr"


async def test_pages_in_the_readers_language(store, web):
    from messages import t

    game, _ = await store_game(store, "mutations", moves=10, lang="it")
    token = await store.web_token(5.0, game_id=game)
    page = await (await web.get(f"/g/{token}")).text()
    assert 'lang="it"' in page and t("web.players", "it") in page  # the table's language
    page = await (await web.get(f"/g/{token}",
                                headers={"Accept-Language": "fr-CA,fr;q=0.9"})).text()
    assert 'lang="fr"' in page and t("web.players", "fr") in page
    data = await (await web.get(f"/g/{token}/state.json",
                                headers={"Accept-Language": "en"})).json()
    assert data["lang"] == "en" and data["status_text"] == t("web.status.active", "en")
    r = await web.get(f"/g/{token}/board.png?lang=fr")
    assert r.status == 200 and "-fr-" in r.headers["ETag"]


# --- caches --------------------------------------------------------------------------------------


async def test_two_hundred_viewers_cost_one_read_and_one_drawing(store, web, clock):
    game, _ = await store_game(store, "climate", moves=15)
    token = await store.web_token(5.0, game_id=game)
    app = web.server.app[WEB_APP]
    reads, draws = app.snapshots.reads, app.drawings.draws
    responses = await asyncio.gather(*(web.get(f"/g/{token}/board.png") for _ in range(200)))
    bodies = {await r.read() for r in responses}
    assert {r.status for r in responses} == {200} and len(bodies) == 1
    assert app.drawings.draws - draws == 1
    assert app.snapshots.reads - reads == 1
    for _ in range(50):
        assert (await web.get(f"/g/{token}/state.json")).status == 200
    assert app.snapshots.reads - reads == 1  # within the second: still the one read
    clock.t += 1.5
    await web.get(f"/g/{token}/state.json")
    assert app.snapshots.reads - reads == 2
    app.notify(game)  # a commit here: read again at once
    await web.get(f"/g/{token}/state.json")
    assert app.snapshots.reads - reads == 3


# --- live events -----------------------------------------------------------------------------


async def read_event(response) -> dict:
    """The data of the next ``event: state`` of a stream (state.json's text), decoded."""
    lines = []
    while True:
        line = (await asyncio.wait_for(response.content.readline(), 5)).decode().rstrip("\n")
        if line == "" and lines:
            block = dict(x.split(": ", 1) for x in lines if ": " in x and not x.startswith(":"))
            lines = []
            if block.get("event") == "state":
                return json.loads(block["data"])
        elif line:
            lines.append(line)


async def test_events_after_a_commit(store, web):
    rules = get_game("evo")
    game, state = await store_game(store, "evo", moves=4)
    token = await store.web_token(5.0, game_id=game)
    r = await web.get(f"/g/{token}/events?lang=it")
    assert r.status == 200 and r.headers["Content-Type"] == "text/event-stream"
    secure(r)
    # the event carries state.json (in the page's language): the page asks nothing else
    state_json = await (await web.get(f"/g/{token}/state.json?lang=it")).json()
    assert await read_event(r) == state_json and state_json["seq"] == 4
    assert state_json["lang"] == "it" and "lang=it" in state_json["board"]
    # a commit (as the host makes it), then the bot's notification: the event comes at once
    p, a = pick(rules, state, random.Random(1))
    state, _ = rules.apply_action(state, p, a)
    row = await store.get_game(game)
    await store.record_action(game, 4, f"c{p}", a, rules.to_json(state), 50.0,
                              lobby=row.decoded()[1])
    web.server.app[WEB_APP].notify(game)
    data = await read_event(r)
    assert data["seq"] == 5 and data["board"] != state_json["board"]
    assert data == await (await web.get(f"/g/{token}/state.json?lang=it")).json()
    r.close()


async def test_every_stream_writes_the_same_event_bytes(store, web):
    """The event is encoded once per position and language, whatever the number of streams."""
    game, _ = await store_game(store, "cubosaurs", moves=3)
    token = await store.web_token(5.0, game_id=game)
    streams = [await web.get(f"/g/{token}/events?lang=en") for _ in range(3)]
    assert [(await read_event(r))["seq"] for r in streams] == [3, 3, 3]
    app = web.server.app[WEB_APP]
    snap = await app.snapshots.get(game)
    first = app._state_event(snap, "en", token)
    assert app._state_event(snap, "en", token) is first
    assert first.startswith(b"event: state\ndata: {") and first.count(b"\n") == 3
    for r in streams:
        r.close()


async def test_events_end_when_the_link_is_revoked(store, web, clock):
    game, _ = await store_game(store, "evo", moves=2)
    token = await store.web_token(5.0, game_id=game)
    r = await web.get(f"/g/{token}/events")
    assert (await read_event(r))["seq"] == 2
    await store.revoke_web_token(6.0, game_id=game)
    web.server.app[WEB_APP].forget(token)
    assert await asyncio.wait_for(r.content.read(), 5) == b""  # the stream ends


# --- finished games: final table and replay ------------------------------------------------------


async def test_finished_game_final_table_and_replay(store, web):
    game, state = await store_game(store, "cubosaurs", n=3, seed=4)  # the winner is not seat 0
    token = await store.web_token(5.0, game_id=game)
    page = await (await web.get(f"/g/{token}")).text()
    frames = int(re.search(r'data-frames="(\d+)"', page)[1])
    assert frames >= 3 and 'data-status="finished"' in page
    assert f'src="{token}/replay/0.png?lang=en"' in page and "<section id=\"replay\">" in page
    data = await (await web.get(f"/g/{token}/state.json")).json()
    assert data["status"] == "finished" and data["frames"] == frames and not data["turn"]
    ranks = {p["name"]: p["rank"] for p in data["players"]}
    assert ranks == {r["name"]: r["rank"] for r in get_game("cubosaurs").returns(state)}
    assert [p["rank"] for p in data["players"]] == sorted(ranks.values())  # standings order
    first = await web.get(f"/g/{token}/replay/0.png")
    last = await web.get(f"/g/{token}/replay/{frames - 1}.png")
    assert first.status == last.status == 200
    assert (await last.read()) == draw_board("cubosaurs", get_game("cubosaurs").view(state, None),
                                             "en")
    assert (await web.get(f"/g/{token}/replay/{frames}.png")).status == 404
    assert (await web.get(f"/g/{token}/replay/x.png")).status == 404
    r = await web.get(f"/g/{token}/events")  # a finished game: one event, then the end
    assert await read_event(r) == data  # its frames included
    assert await asyncio.wait_for(r.content.read(), 5) == b""


async def test_a_live_game_has_no_replay_and_a_lobby_no_board(store, web):
    game, _ = await store_game(store, "evo", moves=3)
    token = await store.web_token(5.0, game_id=game)
    assert (await web.get(f"/g/{token}/replay/0.png")).status == 404
    lobby = await store.create_game("100", "300", "evo", {}, {"seats": [
        {"id": "1", "name": "<b>Ann</b>", "ai": False}]}, 1.0)
    token = await store.web_token(5.0, game_id=lobby)
    page = await (await web.get(f"/g/{token}")).text()
    assert "&lt;b&gt;Ann&lt;/b&gt;" in page and "<b>Ann" not in page
    assert 'data-status="lobby"' in page
    assert (await web.get(f"/g/{token}/board.png")).status == 404


# --- the server page -------------------------------------------------------------------------------


async def test_server_page_only_when_turned_on(store, web, clock):
    await store_game(store, "evo", seed=2, channel="201")
    await store_game(store, "mutations", seed=4, channel="202")
    token = await store.web_token(5.0, guild_id=100)
    assert (await web.get(f"/s/{token}")).status == 404  # off by default
    await store.save_guild_settings(100, {"web_page": True, "language": "fr"}, 6.0)
    r = await web.get(f"/s/{token}")
    assert r.status == 200
    secure(r)
    page = await r.text()
    assert 'lang="fr"' in page and page.count("<li>") == 2 and "Player 1" in page
    await store.save_guild_settings(100, {"web_page": False}, 7.0)
    clock.t += 11  # the page is kept 10 s at most; the setting is read every time
    assert (await web.get(f"/s/{token}")).status == 404


# --- leaks: nothing a player may not see, in any page, JSON or image --------------------------


def strings(data) -> set[str]:
    out: set[str] = set()
    if isinstance(data, str):
        out.add(data)
    elif isinstance(data, dict):
        for k, v in data.items():
            out.add(str(k))
            out |= strings(v)
    elif isinstance(data, (list, tuple)):
        for v in data:
            out |= strings(v)
    return out


def hidden_words(kind: str, state) -> set[str]:
    """Strings that a seat's own view or the full state holds and the public view does not
    (cards in hands, the deck's order...), long enough to be searched for."""
    rules = get_game(kind)
    public = strings(rules.view(state, None))
    secret = strings(rules.to_json(state))
    for seat in range(len(state.seats)):
        secret |= strings(rules.view(state, seat))
    return {w for w in secret - public if len(w) >= 4 and not w.isdigit()}


@pytest.mark.parametrize("kind", KINDS)
async def test_no_hidden_card_in_any_page_json_or_image(store, web, kind):
    from messages import catalogue

    words_everywhere = " ".join(catalogue("en").values())
    for moves in (12, 40, None):
        game, state = await store_game(store, kind, n=3, seed=11, moves=moves,
                                       channel=f"2{moves}")
        token = await store.web_token(5.0, game_id=game)
        rules = get_game(kind)
        hidden = hidden_words(kind, state)
        # words of the catalogue (a card's printed name may be on the table for another
        # card) are matched as whole JSON strings only; ids and keys anywhere
        texts = [await (await web.get(f"/g/{token}")).text(),
                 await (await web.get(f"/g/{token}/state.json")).text()]
        for text in texts:
            for word in hidden:
                if word in words_everywhere:
                    assert f'"{word}"' not in text, (kind, moves, word)
                else:
                    assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text), \
                        (kind, moves, word)
        # images: exactly the public view's drawing (the contract tests check that view)
        if moves is not None:
            png = await (await web.get(f"/g/{token}/board.png")).read()
            assert png == draw_board(kind, rules.view(state, None), "en")
        else:
            frames = (await (await web.get(f"/g/{token}/state.json")).json())["frames"]
            for n in range(frames):
                assert (await web.get(f"/g/{token}/replay/{n}.png")).status == 200
            views = web.server.app[WEB_APP]._frames[game]
            assert all(v.get("viewer") is None for _, v in views)
        json.loads(texts[1])
