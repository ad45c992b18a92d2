"""Accessibility (issue 26): axe-core, installed from npm (``tests/web/axe``: ``npm ci`` from the committed
package-lock.json, as ``.ci/run`` does) and injected by Playwright, finds no violation on any page of the
site in English, German and Dutch: the lobby, the new-table form, running tables of every game, a finished
game, its replay and a running game's history, the rules and the decisions, a profile, the leaderboards, the
account page, the sign-in and sign-up forms and an error page.

Besides axe's default rules the two that the issue's players met run too, although axe marks them
experimental: ``label-content-name-mismatch`` (a board target whose accessible name does not contain its
visible text) and ``scrollable-region-focusable`` (the move log)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from .harness import Server, new_person, play_one, sign_up, wait_live
from .test_browser import _api, _token

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
PASSWORD = "correct-horse-7"
RUN = """async () => {
  const result = await axe.run(document, {
    rules: {"label-content-name-mismatch": {enabled: true}, "scrollable-region-focusable": {enabled: true}},
  });
  return result.violations.map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 4)}));
}"""


def _axe_script() -> str:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci --prefix tests/web/axe` (.ci/run does)", pytrace=False)
    return AXE.read_text(encoding="utf-8")


def _violations(page: Any, script: str) -> list[dict[str, Any]]:
    page.evaluate(script + "\n;true")  # through the debugging protocol: the site's CSP stays as it is
    found: list[dict[str, Any]] = page.evaluate(RUN)
    return found


def _until_running(server: Server, token: str, table: int) -> None:
    deadline = time.monotonic() + 30
    while _api(server, "GET", f"/api/tables/{table}", None, token)["status"] != "playing":
        assert time.monotonic() < deadline
        time.sleep(0.05)


def _until_over(server: Server, token: str, table: int) -> None:
    deadline = time.monotonic() + 120
    while _api(server, "GET", f"/api/tables/{table}", None, token)["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.1)


def test_no_page_has_an_accessibility_violation(server: Server, browser: Any) -> None:
    script = _axe_script()
    owner = new_person(browser)
    sign_up(owner, server.url, "axel", PASSWORD)
    token = _token(server, "axel", PASSWORD)
    running = {}
    for game, players in (("iquazu", 2), ("haleakala", 2), ("niagara", 3)):
        seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
        table = _api(server, "POST", "/api/tables", {"game": game, "players": players, "seats": seats}, token)["id"]
        _until_running(server, token, table)
        running[game] = table
    owner.goto(f"{server.url}/tables/{running['iquazu']}")
    wait_live(owner)
    play_one(owner, random.Random(2))  # a move in the log
    bots = [{"kind": "bot", "bot": "random"}] * 2
    over = _api(server, "POST", "/api/tables", {"game": "iquazu", "players": 2, "seats": bots}, token)["id"]
    _until_over(server, token, over)
    owner.context.close()
    pages = ["/", "/tables/new", "/tables/new?game=niagara&players=4", "/rules", "/account", "/players/axel",
             "/leaderboards/iquazu", f"/tables/{over}", f"/tables/{over}/replay?step=3",
             f"/tables/{running['iquazu']}/history", "/tables/999999"]
    pages += [f"/tables/{table}" for table in running.values()]
    pages += [f"/rules/{game}" for game in running] + [f"/rules/{game}/decisions" for game in running]
    pages += [f"/learn/{game}" for game in running]
    problems = []
    for lang in ("en", "de", "nl"):
        page = new_person(browser, lang)
        for path in ("/signin", "/signup"):
            page.goto(server.url + path)
            problems += [f"{lang} {path}: {v}" for v in _violations(page, script)]
        page.goto(f"{server.url}/signin")
        page.fill("#name", "axel")
        page.fill("#password", PASSWORD)
        page.click("form[action='/signin'] button[type=submit]")
        page.wait_for_url(f"{server.url}/")
        for path in pages:
            page.goto(server.url + path)
            if path in [f"/tables/{table}" for table in running.values()]:
                page.wait_for_selector("#board svg")
            problems += [f"{lang} {path}: {json.dumps(v)}" for v in _violations(page, script)]
        page.context.close()
    assert not problems, "\n".join(problems)
