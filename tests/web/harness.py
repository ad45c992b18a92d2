"""Shared by the browser suite and ``python -m tests.web.harness``: a real ``spieltafel serve`` in a
temporary data folder, Debian's Chromium through Playwright, and the steps a person takes in the pages."""

from __future__ import annotations

import ctypes
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
REPO = Path(__file__).resolve().parents[2]
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_the_tests() -> None:
    """Run in the server's process before it starts (``preexec_fn``): Linux sends it SIGTERM when the test
    process that started it ends. pytest-timeout ends a hung xdist worker with ``os._exit``, so no fixture
    stops that worker's servers; they would keep running after the suite. The tests start their servers
    from the main thread (the signal comes when the starting thread ends)."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def screenshot_dir(default: Path) -> Path:
    """Where the suite puts its screenshots: ``SPIELTAFEL_SCREENSHOTS_DIR`` (e.g. docs/screenshots) or a
    temporary folder, so that an ordinary test run leaves the committed pictures alone."""
    chosen = os.environ.get("SPIELTAFEL_SCREENSHOTS_DIR")
    folder = Path(chosen) if chosen else default
    if not folder.is_absolute():
        folder = REPO / folder
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Server:
    """``spieltafel serve --port 0`` in a fresh data folder; ``url`` is what it prints."""

    def __init__(self, python: str = sys.executable, env: dict[str, str] | None = None) -> None:
        """``python``: the interpreter whose Spieltafel serves (another environment's, for a game installed
        only there); ``env``: more environment (site settings, ``SPIELTAFEL_...``)."""
        self.data = Path(tempfile.mkdtemp(prefix="spieltafel-web-"))
        script = Path(sys.executable).with_name("spieltafel")
        command = [str(script)] if script.exists() and python == sys.executable else [python, "-m", "spieltafel.cli"]
        # Every browser of the suite signs up from 127.0.0.1: more than the default 10 new accounts a minute
        # per address on a fast machine; a test that plays a whole Niagara game through the API sends more than
        # 1,000 moves a minute. The limits themselves are tested in tests/server/test_rate_limits.py.
        limits = '{"accounts": "1000/minute;10000/hour", "moves": "100000/minute"}'
        env = dict(os.environ, SPIELTAFEL_BOT_WORKERS="1", PYTHONUNBUFFERED="1", SPIELTAFEL_RATE_LIMITS=limits) | (
            env or {}
        )
        self.process = subprocess.Popen(
            [*command, "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(self.data), "--bot-workers", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            preexec_fn=die_with_the_tests,
        )
        self.output: list[str] = []
        self.url = self._read_url(timeout=60)
        threading.Thread(target=self._drain, daemon=True).start()

    def _read_url(self, timeout: float) -> str:
        assert self.process.stdout is not None
        found: list[str] = []

        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                self.output.append(line)
                match = re.search(r"https?://127\.0\.0\.1:\d+", line)
                if match:
                    found.append(match.group(0))
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout)
        if not found:
            self.stop()
            raise RuntimeError("spieltafel serve printed no URL:\n" + "".join(self.output))
        return found[0]

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        shutil.rmtree(self.data, ignore_errors=True)


def chromium_missing_reason() -> str | None:
    """Why the browser suite cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (Debian: apt-get install -y chromium; .ci/run installs it)"
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


# -- what a person does --------------------------------------------------------------------------------


def new_person(browser: Any, lang: str = "en", viewport: dict[str, int] | None = None) -> Any:
    context = browser.new_context(
        viewport=viewport or DESKTOP, locale=lang, extra_http_headers={"Accept-Language": lang}
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.csp_errors = []  # type: ignore[attr-defined]
    page.on("console", lambda m: page.csp_errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: page.csp_errors.append(str(e)))
    return page


def sign_up(page: Any, base: str, name: str, password: str = "correct-horse-7") -> None:
    page.goto(f"{base}/signup")
    page.fill("#name", name)
    page.fill("#password", password)
    page.fill("#password2", password)
    page.click("form[action='/signup'] button[type=submit]")
    page.wait_for_url(f"{base}/")
    assert page.locator(".account-name").inner_text() == name


def create_table(
    page: Any, base: str, game: str, players: int, seats: list[str], options: dict[str, str] | None = None
) -> int:
    """Create a table through the form; ``seats`` as the form's values: "me", "open", "bot:random"..."""
    page.goto(f"{base}/tables/new?game={game}&players={players}")
    for seat, value in enumerate(seats):
        page.select_option(f"#seat-{seat}", value)
    for name, value in (options or {}).items():
        page.check(f"input[name='option:{name}'][value='{value}']")
    page.click("form.new-table button[type=submit]")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def wait_live(page: Any) -> None:
    page.wait_for_selector("#connection.live")


def my_turn(page: Any) -> bool:
    return bool(page.locator("#turn-banner.mine").count())


def current_seq(page: Any) -> Any:
    return page.evaluate("() => window.spieltafelTable ? window.spieltafelTable.seq : null")


TURN_SNAPSHOT = (
    "() => { const t = window.spieltafelTable; const banner = document.querySelector('#turn-banner');"
    " return t ? [t.seq, Boolean(banner && banner.classList.contains('mine')), Boolean(t.busy)] : null; }"
)
"""One page's position, read at one moment: its seq, whether its banner says "your turn", a move in flight."""


def whose_turn(*pages: Any, timeout: float = 30.0) -> Any:
    """The page whose player is to move, once all ``pages`` show the same position: the same seq, no move in
    flight, and "your turn" on exactly one page.

    Asking the pages one after the other is not one look at the table. A state the server sends reaches one page
    before the other: when a forced move plays itself (Iquazú's "end", sent by the page as soon as it is the only
    move), the next player's page can say "your turn" while the page that sent it still says so too."""
    deadline = time.monotonic() + timeout
    while True:
        seen = [page.evaluate(TURN_SNAPSHOT) for page in pages]
        if all(seen) and len({s[0] for s in seen}) == 1 and not any(s[2] for s in seen):
            movers = [page for page, s in zip(pages, seen, strict=True) if s[1]]
            if len(movers) == 1:
                return movers[0]
        if time.monotonic() > deadline:
            raise AssertionError(f"no single player to move after {timeout:.0f} s: [seq, your turn, busy] {seen}")
        time.sleep(0.05)


def play_one(page: Any, rng: random.Random, keyboard: bool = False) -> None:
    """Make one move as a person does: a target on the board (or the move list), then the chooser where it
    opens, and Confirm where the player asked to confirm each move (by default a click plays)."""
    # a socket that dropped on a loaded machine takes the banner's "mine" away until it is back (the page
    # retries after up to 10 s): a longer wait than a step's 20 s. A forced last move plays itself and the page
    # reloads onto the game-over page (#h-result): no move is left to make.
    page.wait_for_selector("#turn-banner.mine, #h-result", timeout=60_000)
    if page.locator("#h-result").count():
        return
    seq = current_seq(page)
    forced = "() => { const t = window.spieltafelTable; return Boolean(t) && t.legal.size === 1 && !t.undoCount; }"
    if page.evaluate(forced):  # the only legal action plays itself (docs/play.md): no click
        page.wait_for_function("(seq) => !window.spieltafelTable || window.spieltafelTable.seq !== seq", arg=seq)
        return
    targets = page.locator("#board [data-action], #board [data-actions]")
    count = targets.count()
    if count:
        _press_target(page, targets, rng.randrange(count), keyboard)
    else:
        page.click("#move-list-box summary")
        buttons = page.locator("#move-list [data-action]")
        buttons.nth(rng.randrange(buttons.count())).click()
    if page.locator("#chooser:not([hidden])").count():
        choices = page.locator("#chooser-list button")
        assert choices.count() >= 2
        choice = choices.nth(rng.randrange(choices.count()))
        if keyboard:
            choice.focus()
            page.keyboard.press("Enter")
        else:
            choice.click()
    elif page.locator("#confirm-bar:not([hidden])").count():  # the player asked to confirm each move
        assert page.locator("#confirm-text").inner_text().strip()
        if keyboard:
            assert page.evaluate("() => document.activeElement.id") == "confirm-yes"
            page.keyboard.press("Enter")
        else:
            page.click("#confirm-yes")
    page.wait_for_function(
        "(seq) => !window.spieltafelTable || window.spieltafelTable.seq !== seq"
        " || !document.querySelector('#move-error').hidden",
        arg=seq,
    )
    error = page.locator("#move-error:not([hidden])")
    assert not error.count(), error.inner_text()


def _press_target(page: Any, targets: Any, index: int, keyboard: bool) -> None:
    """Click a board target, or focus it and press Enter. A state message that arrives meanwhile (another
    seat's secret choice while it is still this seat's turn) draws the board anew and detaches the target:
    then the same target of the new board is taken again."""
    from playwright.sync_api import Error as PlaywrightError

    for attempt in range(5):
        page.wait_for_selector("#turn-banner.mine")
        target = targets.nth(min(index, targets.count() - 1))
        try:
            target.scroll_into_view_if_needed()
            if keyboard:
                target.focus()
                page.keyboard.press("Enter")
            else:
                target.click()
            return
        except PlaywrightError as error:
            if "not attached" not in str(error) or attempt == 4:
                raise


def shoot(page: Any, folder: Path, name: str) -> list[Path]:
    """Desktop (1280×800) and phone (360×740) screenshots of the page as it is now."""
    written = []
    size = page.viewport_size
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        path = folder / f"{name}-{label}.png"
        page.screenshot(path=str(path), full_page=label == "phone")
        written.append(path)
    if size:
        page.set_viewport_size(size)
    return written


def wait_for(condition: Any, timeout: float = 20.0, interval: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met")
        time.sleep(interval)
