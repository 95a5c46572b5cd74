"""The browser harness (tests/browser.py) against a tiny aiohttp page: headless Chromium sees a
server-sent event change the page without a reload, a key press move a counter, and takes a
phone and a desktop screenshot. The page is served in the test's own event loop; every
selenium call runs in a thread (`browser.aio`) so the server answers while the browser waits."""

from __future__ import annotations

import asyncio
import struct

from aiohttp import web
from aiohttp.test_utils import TestServer

# The page is served like the real web page will be: a strict Content-Security-Policy, so its
# script and style are files of their own (inline ones would be refused). The harness's own
# JavaScript (mark(), the waits) runs through DevTools, which the policy does not block.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'"
)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>harness</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head><body>
<h1 id="board" data-seq="0">waiting</h1>
<p>step <span id="step">0</span></p>
</body></html>
"""

CSS = "body { font: 18px sans-serif; margin: 1rem } #board { padding: 1rem; background: #dfe }"

JS = """
const board = document.getElementById("board");
const step = document.getElementById("step");
const events = new EventSource("/events");
events.addEventListener("open", () => { window.streamOpen = true; });
events.addEventListener("board", (e) => {
  const msg = JSON.parse(e.data);
  board.textContent = msg.text;
  board.dataset.seq = String(msg.seq);
});
events.addEventListener("end", () => events.close());
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") step.textContent = String(Number(step.textContent) + 1);
  if (e.key === "ArrowLeft") step.textContent = String(Number(step.textContent) - 1);
});
"""


def make_app() -> tuple[web.Application, asyncio.Queue, dict]:
    queue: asyncio.Queue = asyncio.Queue()
    state = {"streams": 0, "closed": False}

    def static(text, content_type):
        async def handler(request):
            return web.Response(
                text=text, content_type=content_type, headers={"Content-Security-Policy": CSP}
            )

        return handler

    async def events(request):
        if state["closed"]:
            return web.Response(status=204)  # EventSource does not reconnect after a 204
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        )
        await response.prepare(request)
        state["streams"] += 1
        while (data := await queue.get()) is not None:
            await response.write(f"event: board\ndata: {data}\n\n".encode())
        await response.write(b"event: end\ndata: {}\n\n")
        return response

    app = web.Application()
    app.router.add_get("/", static(PAGE, "text/html"))
    app.router.add_get("/app.js", static(JS, "text/javascript"))
    app.router.add_get("/app.css", static(CSS, "text/css"))
    app.router.add_get("/events", events)
    return app, queue, state


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


async def test_live_page_sse_keys_and_screenshots(browser):
    app, queue, state = make_app()
    async with TestServer(app, host="127.0.0.1") as server:
        try:
            url = str(server.make_url("/"))
            await browser.aio.open(url)
            await browser.aio.wait_js("window.streamOpen === true", message="the event stream")
            assert state["streams"] == 1
            marker = await browser.aio.mark()

            before = await browser.aio.text("#board")
            await queue.put('{"seq": 1, "text": "move 1: Ana grows"}')
            after = await browser.aio.wait_text("#board", changed_from=before, timeout=5)
            assert after == "move 1: Ana grows"
            assert await browser.aio.wait_attribute("#board", "data-seq", equals="1") == "1"
            await browser.aio.assert_not_reloaded()
            assert await browser.aio.value("window.__darwinMark") == marker

            await browser.aio.press("ArrowRight")
            await browser.aio.press("ArrowRight")
            await browser.aio.press("ArrowLeft")
            await browser.aio.press("ArrowRight")
            assert await browser.aio.wait_text("#step", equals="2") == "2"
            await browser.aio.assert_not_reloaded()

            await browser.aio.phone()
            assert await browser.aio.value("[innerWidth, innerHeight]") == [390, 844]
            phone = await browser.aio.screenshot("harness-phone")
            await browser.aio.desktop()
            assert await browser.aio.value("[innerWidth, innerHeight]") == [1280, 900]
            desktop = await browser.aio.screenshot("harness-desktop")
            assert png_size(phone) == (390, 844)
            assert png_size(desktop) == (1280, 900)
            await browser.aio.assert_not_reloaded()  # resizing is not a reload either

            assert await browser.aio.console_errors() == []
        finally:
            state["closed"] = True
            await queue.put(None)  # ends the stream; the browser then closes it


def test_a_failed_wait_and_a_refused_script_are_reported(browser):
    browser.open("data:text/html,<p id=x>still</p>")
    try:
        browser.wait_text("#x", changed_from="still", timeout=0.3)
    except AssertionError as e:
        message = str(e)
    else:
        raise AssertionError("the wait should have failed")
    assert "waited 0.3 s for the text of '#x' to change from 'still'" in message
    assert "last value 'still'" in message

    # a script the page's Content-Security-Policy refuses shows in console_errors()
    browser.open(
        "data:text/html,<meta http-equiv=Content-Security-Policy content=\"script-src 'none'\">"
        "<p id=x>a</p><script>document.getElementById('x').textContent = 'b'</script>"
    )
    assert browser.text("#x") == "a"
    assert any("Content Security Policy" in e for e in browser.console_errors())
