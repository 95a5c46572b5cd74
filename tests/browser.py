"""Headless Chromium for the browser tests (issue 26), driven by selenium.

The fixture `browser` (registered in tests/conftest.py) starts Debian's /usr/bin/chromium through
/usr/bin/chromedriver (never a downloaded driver) with a new empty profile, yields a `Browser`,
and always quits it (Chromium, its helper processes and chromedriver) and removes the profile.
When Chromium or chromedriver is missing the test is skipped, but it FAILS when the environment
variable CI is set: CI installs them (scripts/test.sh) and must run the browser tests.

    def test_page(browser):                      # a plain test: call it directly
        browser.phone()                          # 390x844, mobile; browser.desktop(): 1280x900
        browser.open(url)
        browser.mark()                           # later: browser.assert_not_reloaded()
        old = browser.text("#turn")
        browser.wait_text("#turn", changed_from=old, timeout=10)
        browser.press("ArrowRight")
        browser.screenshot("web-phone")          # -> test-artifacts/screenshots/web-phone.png

    async def test_live(browser):                # an async test: the same calls through .aio,
        await browser.aio.open(url)              # each in a thread, so the event loop (the bot,
        await browser.aio.wait_js("window.ok")   # the web server) keeps answering meanwhile

Selenium is synchronous: never call it directly from an async test whose loop serves the page
(the page would wait for a server that waits for the browser). Screenshots go to
test-artifacts/screenshots/ (or $DARWIN_SCREENSHOTS); their paths are listed at the end of the
run. Every failed wait raises AssertionError naming what it waited for, the last value seen, the
page's URL and the page's console errors.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("DARWIN_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("DARWIN_CHROMEDRIVER", "/usr/bin/chromedriver")
SCREENSHOTS = Path(os.environ.get("DARWIN_SCREENSHOTS", ROOT / "test-artifacts" / "screenshots"))

PHONE = (390, 844)
DESKTOP = (1280, 900)

# Without the background-networking flags Chromium's own connections (updates, sync, QUIC
# probes) are refused by the closed network and slow it down; --no-sandbox because tests run as
# root (CI too).
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--no-default-browser-check",
    "--mute-audio",
)

KEYS = {
    "ArrowLeft": "ARROW_LEFT",
    "ArrowRight": "ARROW_RIGHT",
    "ArrowUp": "ARROW_UP",
    "ArrowDown": "ARROW_DOWN",
    "Space": "SPACE",
    " ": "SPACE",
    "Enter": "ENTER",
    "Escape": "ESCAPE",
    "Home": "HOME",
    "End": "END",
    "PageUp": "PAGE_UP",
    "PageDown": "PAGE_DOWN",
    "Tab": "TAB",
}

_saved: list[Path] = []  # every screenshot of this run, listed in the terminal summary


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return f"{path} is missing (Debian: apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (python -m pip install -r requirements-dev.txt)"
    return None


class Browser:
    """One headless Chromium window. Its methods are synchronous; `aio` runs them in a thread."""

    def __init__(self, size: tuple[int, int] = DESKTOP, timeout: float = 10.0):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="darwin-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--window-size={size[0]},{size[1]}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # An explicit driver path: selenium-manager (which would download one) is never run.
        self.service = Service(executable_path=CHROMEDRIVER, log_output=os.devnull)
        try:
            self.driver = webdriver.Chrome(service=self.service, options=options)
        except BaseException:
            self.service.stop()
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        self.driver.set_page_load_timeout(30)
        self.driver.set_script_timeout(30)
        self.aio = _InThread(self)
        self._console: list[dict] = []
        self.resize(*size)

    # -- life --------------------------------------------------------------------------------

    def quit(self) -> None:
        """Quit Chromium and chromedriver (idempotent) and remove the profile."""
        driver, self.driver = getattr(self, "driver", None), None
        process = getattr(self.service, "process", None)
        family = _descendants(process.pid) if process is not None else set()
        try:
            if driver is not None:
                driver.quit()
        finally:
            self.service.stop()
            # Chromium's helper processes finish a moment after quit() returns: wait for them,
            # so that no browser outlives its test.
            deadline = time.monotonic() + 5
            while family and time.monotonic() < deadline:
                family = {pid for pid in family if _alive(pid)}
                if family:
                    time.sleep(0.05)
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    # -- size and pages ----------------------------------------------------------------------

    def resize(
        self, width: int, height: int, *, mobile: bool | None = None, scale: float = 1
    ) -> None:
        """The viewport's size in CSS pixels (exactly, through DevTools' device metrics);
        `mobile` (default: width < 600) makes the page honour its meta viewport like a phone."""
        if mobile is None:
            mobile = width < 600
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile},
        )
        self.size = (width, height)

    def phone(self, scale: float = 1) -> None:
        """A phone's viewport: 390x844 CSS pixels, mobile."""
        self.resize(*PHONE, mobile=True, scale=scale)

    def desktop(self) -> None:
        """A desktop window's viewport: 1280x900."""
        self.resize(*DESKTOP, mobile=False)

    def open(self, url: str) -> None:
        """Load `url` and wait for its load event."""
        self.driver.get(url)

    @property
    def url(self) -> str:
        return self.driver.current_url

    def js(self, script: str, *args: Any) -> Any:
        """Run a function body (`return ...` to get a value); `arguments[i]` are `args`."""
        return self.driver.execute_script(script, *args)

    def value(self, expression: str) -> Any:
        """The value of one JavaScript expression (a string, a number, a list, a dict, None)."""
        return self.js(f"return ({expression});")

    def find(self, selector: str):
        """The element matching a CSS selector (selenium's WebElement); fails if none."""
        from selenium.common.exceptions import NoSuchElementException
        from selenium.webdriver.common.by import By

        try:
            return self.driver.find_element(By.CSS_SELECTOR, selector)
        except NoSuchElementException:
            raise AssertionError(f"no element matches {selector!r} on {self.url}") from None

    def text(self, selector: str) -> str | None:
        """An element's textContent, or None when no element matches."""
        return self.js(
            "const e = document.querySelector(arguments[0]); return e && e.textContent;", selector
        )

    def attribute(self, selector: str, name: str) -> str | None:
        """An element's attribute as written in the DOM (not a property), or None."""
        return self.js(
            "const e = document.querySelector(arguments[0]); return e && e.getAttribute(arguments[1]);",
            selector,
            name,
        )

    def press(self, key: str, selector: str | None = None) -> None:
        """Press a key ('ArrowRight', 'ArrowLeft', 'Space', 'Enter', 'Escape', 'Home', 'End', a
        letter, or a selenium Keys value) on the focused element, or on `selector` after
        clicking it."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        code = getattr(Keys, KEYS[key]) if key in KEYS else key
        if selector is not None:
            self.find(selector).click()
        ActionChains(self.driver).send_keys(code).perform()

    def click(self, selector: str) -> None:
        self.find(selector).click()

    # -- no reload ---------------------------------------------------------------------------

    def mark(self) -> str:
        """Leave a random marker in `window`; a reload or a navigation loses it."""
        token = os.urandom(8).hex()
        self.js("window.__darwinMark = arguments[0];", token)
        self._mark = token
        return token

    def assert_not_reloaded(self) -> None:
        """Fails if the page was reloaded (or left) since `mark()`."""
        seen = self.value("window.__darwinMark")
        assert seen == self._mark, f"the page was reloaded or left since mark() ({self.url})"

    # -- waiting -----------------------------------------------------------------------------

    def wait_for(
        self,
        probe: Callable[[], Any],
        done: Callable[[Any], bool] = bool,
        *,
        what: str,
        timeout: float | None = None,
        interval: float = 0.05,
    ) -> Any:
        """Call `probe` until `done(value)` holds; return that value. After `timeout` seconds
        (default: the browser's, 10 s) raise AssertionError saying `what` was awaited."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        while True:
            value = probe()
            if done(value):
                return value
            if time.monotonic() >= deadline:
                raise AssertionError(
                    f"waited {limit:g} s for {what}; last value {value!r}; page {self.url}"
                    + self._errors_note()
                )
            time.sleep(interval)

    def wait_js(self, expression: str, *, timeout: float | None = None, message: str = "") -> Any:
        """Wait until a JavaScript expression is truthy; return its value."""
        return self.wait_for(
            lambda: self.value(expression),
            what=message or f"`{expression}` to be true",
            timeout=timeout,
        )

    def wait_text(
        self,
        selector: str,
        *,
        changed_from: str | None = None,
        contains: str | None = None,
        equals: str | None = None,
        timeout: float | None = None,
    ) -> str:
        """Wait until the element's text differs from `changed_from` / contains / equals."""
        return self.wait_for(
            lambda: self.text(selector),
            _check(changed_from, contains, equals),
            what=f"the text of {selector!r} {_describe(changed_from, contains, equals)}",
            timeout=timeout,
        )

    def wait_attribute(
        self,
        selector: str,
        name: str,
        *,
        changed_from: str | None = None,
        contains: str | None = None,
        equals: str | None = None,
        timeout: float | None = None,
    ) -> str:
        """Wait until the element's attribute `name` differs from `changed_from` / contains /
        equals (e.g. an <img>'s src after a move)."""
        return self.wait_for(
            lambda: self.attribute(selector, name),
            _check(changed_from, contains, equals),
            what=f"{selector!r}'s {name} {_describe(changed_from, contains, equals)}",
            timeout=timeout,
        )

    # -- screenshots and the console ---------------------------------------------------------

    def screenshot(self, name: str, *, full_page: bool = False) -> Path:
        """Save the viewport (or the whole page) as SCREENSHOTS/<name>.png; return the path."""
        path = SCREENSHOTS / (re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") + ".png")
        path.parent.mkdir(parents=True, exist_ok=True)
        if full_page:
            import base64

            shot = self.driver.execute_cdp_cmd(
                "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
            )
            path.write_bytes(base64.b64decode(shot["data"]))
        else:
            path.write_bytes(self.driver.get_screenshot_as_png())
        _saved.append(path)
        print(f"screenshot: {path}")
        return path

    def console(self) -> list[dict]:
        """Every console entry since the browser started ({'level', 'message', ...}): errors,
        failed requests, Content-Security-Policy refusals."""
        self._console.extend(self.driver.get_log("browser"))
        return list(self._console)

    def console_errors(self) -> list[str]:
        """The console's SEVERE entries' messages (JavaScript errors, failed loads, CSP)."""
        return [e["message"] for e in self.console() if e.get("level") == "SEVERE"]

    def _errors_note(self) -> str:
        try:
            errors = self.console_errors()
        except Exception:  # the browser may be what failed
            return ""
        return "; console errors: " + " | ".join(errors[-5:]) if errors else ""


def _descendants(root: int) -> set[int]:
    """The processes below `root` (Linux's /proc; an empty set elsewhere)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry.parent.name)] = int(fields[1])
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has exited; its parent reaps it


class _InThread:
    """`await browser.aio.method(...)`: the browser's method run in a worker thread."""

    def __init__(self, target: Browser):
        self._target = target

    def __getattr__(self, name: str):
        method = getattr(self._target, name)

        async def call(*args, **kwargs):
            return await asyncio.to_thread(method, *args, **kwargs)

        return call


def _check(changed_from, contains, equals) -> Callable[[Any], bool]:
    def done(value) -> bool:
        if value is None:
            return False
        if changed_from is not None and value == changed_from:
            return False
        if contains is not None and contains not in value:
            return False
        return not (equals is not None and value != equals)

    return done


def _describe(changed_from, contains, equals) -> str:
    parts = []
    if changed_from is not None:
        parts.append(f"to change from {changed_from!r}")
    if contains is not None:
        parts.append(f"to contain {contains!r}")
    if equals is not None:
        parts.append(f"to be {equals!r}")
    return " and ".join(parts) or "to exist"


def start_browser(size: tuple[int, int] = DESKTOP, timeout: float = 10.0) -> Browser:
    """A Browser, or skip (fail under CI) when Chromium, chromedriver or selenium is missing."""
    reason = missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests, but {reason}", pytrace=False)
        pytest.skip(reason)
    return Browser(size, timeout)


@pytest.fixture
def browser() -> Iterator[Browser]:
    """Headless Chromium at the desktop size; quit after the test, whatever happened."""
    b = start_browser()
    try:
        yield b
    finally:
        b.quit()


def pytest_terminal_summary(terminalreporter) -> None:
    """List the screenshots this run saved (registered in tests/conftest.py)."""
    if _saved:
        terminalreporter.write_sep("-", "screenshots")
        for path in dict.fromkeys(_saved):
            terminalreporter.write_line(str(path))
