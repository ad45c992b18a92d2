"""Issue 26, "asks before Leave for good", in a real browser: a form sent without the tick (here the page's own
``required`` removed, as an old page or another client would send it) leaves nothing and gets the server's
question in the reader's language; ticked there, the seat is left for good."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .harness import Server, new_person, sign_up
from .test_browser import _api, _token

QUESTION = {"en": "Leave this game for good?", "de": "Diese Partie endgültig verlassen?",
            "nl": "Deze partij definitief verlaten?"}


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_the_server_asks_before_leave_for_good(server: Server, browser: Any, shots: Path, lang: str) -> None:
    page = new_person(browser, lang)
    name = f"leaver{lang}{abs(hash(str(shots))) % 10**6}"
    try:
        sign_up(page, server.url, name)
        token = _token(server, name, "correct-horse-7")
        body = {"game": "haleakala", "players": 2, "options": {},
                "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
        table = _api(server, "POST", "/api/tables", body, token)["id"]
        page.goto(f"{server.url}/tables/{table}")
        page.click(".leave-box summary")
        page.evaluate("() => document.querySelector('#leave-confirm').removeAttribute('required')")
        page.click("#leave-for-good")
        page.wait_for_selector("#h-leave")
        assert page.locator("#h-leave").inner_text().startswith(QUESTION[lang])
        seat = _api(server, "GET", f"/api/tables/{table}")["seats"][0]
        assert seat["gone"] is None and seat["kind"] == "player"
        page.check("#leave-confirm")
        page.click("#leave-for-good")
        page.wait_for_url(f"{server.url}/")
        assert _api(server, "GET", f"/api/tables/{table}")["seats"][0]["gone"] == "left"
    finally:
        page.context.close()
