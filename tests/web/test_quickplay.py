"""The browser suite, quick play (issue 28): "Play now" on the lobby seats two people at one table; the
waiting person sees themselves waiting and the time waited, can cancel; the choices are remembered (the
browser's localStorage); the game's rules page has its own "Play now"; German and Dutch."""

from __future__ import annotations

import re
import uuid
from typing import Any

from .harness import Server, new_person, sign_up, wait_for


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def _play_now(page: Any, base: str, pace: str = "live", players: str = "2") -> None:
    page.goto(f"{base}/")
    page.select_option("#quickplay select[name=game]", "haleakala")
    page.select_option("#quickplay select[name=players]", players)
    page.select_option("#quickplay select[name=pace]", pace)
    page.click("#quickplay button[type=submit]")


def test_play_now_on_the_lobby_seats_two_people_together(server: Server, browser: Any) -> None:
    ann, ben = new_person(browser), new_person(browser)
    ann_name, ben_name = unique("qa"), unique("qb")
    try:
        sign_up(ann, server.url, ann_name)
        sign_up(ben, server.url, ben_name)
        _play_now(ann, server.url, pace="turn")
        ann.wait_for_selector(".quickplay-wait:not([hidden])")
        assert ann_name in ann.locator(".quickplay-others").inner_text()
        wait_for(lambda: re.search(r"[1-9]\d* s", ann.locator(".quickplay-waited").inner_text()), timeout=10)
        ann.click("[data-quickplay-cancel]")  # cancelled: Ben alone waits, then Ann asks again
        ann.wait_for_selector("form[data-quickplay]:not([hidden])")
        _play_now(ben, server.url, pace="turn")
        ben.wait_for_selector(".quickplay-wait:not([hidden])")
        assert ann_name not in ben.locator(".quickplay-others").inner_text()
        ann.reload()  # remembered from last time: pace turn-based, two players, the game
        assert ann.locator("#quickplay select[name=pace]").input_value() == "turn"
        assert ann.locator("#quickplay select[name=game]").input_value() == "haleakala"
        ann.click("#quickplay button[type=submit]")
        ann.wait_for_url(re.compile(r".*/tables/\d+$"))
        ben.wait_for_url(re.compile(r".*/tables/\d+$"))
        assert ann.url == ben.url
        assert not ann.csp_errors and not ben.csp_errors
    finally:
        ann.context.close()
        ben.context.close()


def test_play_now_on_a_games_page_with_bots_after_a_wait(server: Server, browser: Any) -> None:
    page = new_person(browser, "de")
    try:
        sign_up(page, server.url, unique("qc"))
        page.goto(f"{server.url}/rules/iquazu")
        assert page.locator("#h-quickplay").inner_text() == "Jetzt spielen"
        page.select_option("#quickplay select[name=players]", "3")
        page.select_option("#quickplay select[name=bot]", "easy")
        page.fill("#quickplay input[name=after]", "1")
        page.click("#quickplay button[type=submit]")
        page.wait_for_url(re.compile(r".*/tables/\d+$"))
        table_id = page.url.rstrip("/").rsplit("/", 1)[1]
        table = page.request.get(f"{server.url}/api/tables/{table_id}").json()
        assert table["game"] == "iquazu" and table["players"] == 3
        assert sorted(s.get("bot") or "" for s in table["seats"]) == ["", "easy", "easy"]
    finally:
        page.context.close()


def test_play_now_speaks_dutch(server: Server, browser: Any) -> None:
    page = new_person(browser, "nl")
    try:
        sign_up(page, server.url, unique("qd"))
        assert page.locator("#h-quickplay").inner_text() == "Nu spelen"
        assert "beurt voor beurt" in page.locator("#quickplay select[name=pace]").inner_text()
    finally:
        page.context.close()
