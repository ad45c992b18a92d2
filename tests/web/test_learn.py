"""The browser suite, interactive tutorials (issue 27): for each game a person completes ``/learn/GAME`` in
English, German and Dutch by playing the highlighted targets (by mouse, and by keyboard in German), a wrong
move in each language gets the step's hint in that language, and at the end "Play your first game against an
easy bot" opens a running table with easy bots. A guest is sent to sign in first; the pages are axe-clean
and fit a phone without sideways scrolling."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest

from spieltafel.core import get_game
from spieltafel.core.tutorial import load

from .harness import PHONE, Server, new_person, sign_up, wait_for
from .test_axe import _axe_script, _violations

GAMES = ("iquazu", "haleakala", "niagara")
SWITCH = "form.language-switch button[value='{lang}']"
STEP_TEXT = {"en": "Step 1 of", "de": "Schritt 1 von", "nl": "Stap 1 van"}


def _position(page: Any) -> tuple[str, str]:
    step, made = page.evaluate("() => [document.body.dataset.step, document.body.dataset.made]")
    return str(step), str(made)


def _wrong_move(page: Any) -> str:
    """Play a target that is not this step's (a chooser's first choice where the target opens one): the hint."""
    before = page.evaluate("() => Number(document.body.dataset.hints || 0)")
    other = page.locator("#board [data-action]:not(.learn-target), #board [data-actions]:not(.learn-target)").first
    other.click()
    if page.locator("#chooser").is_visible():
        page.locator("#chooser-list button").first.click()
    wait_for(lambda: page.evaluate("() => Number(document.body.dataset.hints || 0)") > before)
    hint = page.locator("#learn-hint")
    assert hint.is_visible()
    return str(hint.inner_text())


def _play_the_step(page: Any, keyboard: bool) -> None:
    """The step's move: its highlighted target (and the chooser's entry for the highlighted action), or Next."""
    before = _position(page)
    if page.locator("#learn-next").is_visible():
        if keyboard:
            page.locator("#learn-next").focus()
            page.keyboard.press("Enter")
        else:
            page.click("#learn-next")
    else:
        wanted = page.evaluate("() => window.spieltafelLesson.step.highlight.map(Number)")
        target = page.locator("#board .learn-target").first
        assert target.count() == 1, f"no highlighted target at step {before}"
        if keyboard:
            target.focus()
            page.keyboard.press("Enter")
        else:
            target.click()
        if page.locator("#chooser").is_visible():
            page.click(f"#chooser-list button[data-choice='{wanted[0]}']")
    wait_for(lambda: _position(page) != before or page.evaluate("() => document.body.dataset.done") == "true")


def _complete(page: Any, keyboard: bool, shots: Path | None, name: str) -> int:
    """Play every step of the tutorial now shown; returns how many moves and Nexts it took."""
    played = 0
    while page.evaluate("() => document.body.dataset.done") != "true":
        if shots is not None and _position(page) == ("1", "0"):
            page.wait_for_timeout(200)
            page.screenshot(path=str(shots / f"{name}-desktop.png"))
            shots = None
        _play_the_step(page, keyboard)
        played += 1
        assert played < 100, "the tutorial does not end"
    return played


@pytest.mark.parametrize("game", GAMES)
def test_a_person_completes_the_tutorial_in_three_languages_then_plays_a_first_game(
    server: Server, browser: Any, shots: Path, game: str
) -> None:
    lesson = load(get_game(game))
    assert lesson is not None
    moves = sum(max(1, len(step.expect)) for step in lesson.steps)
    page = new_person(browser)
    try:
        sign_up(page, server.url, f"learn{uuid.uuid4().hex[:8]}")
        page.goto(f"{server.url}/")
        page.click(f"a[href='/learn/{game}']")  # the lobby's "learn to play"
        page.wait_for_url(f"{server.url}/learn/{game}")
        hints = {}
        for lang in ("en", "de", "nl"):
            if lang != "en":
                page.goto(f"{server.url}/learn/{game}")
                page.click(SWITCH.format(lang=lang))
                page.wait_for_url(f"{server.url}/learn/{game}")
            assert page.locator("html").get_attribute("lang") == lang
            assert page.locator("#learn-counter").inner_text().startswith(STEP_TEXT[lang])
            hints[lang] = _wrong_move(page)
            assert _position(page) == ("0", "0"), "a wrong move does not move the tutorial on"
            assert _complete(page, keyboard=lang == "de", shots=shots, name=f"learn-{game}-{lang}") == moves
            assert page.locator("#learn-done").is_visible()
        assert len(set(hints.values())) == 3, f"the hints are not in three languages: {hints}"
        assert not page.csp_errors
        page.click("#learn-play")
        page.wait_for_url(re.compile(r".*/tables/\d+$"))
        table_id = page.url.rstrip("/").rsplit("/", 1)[1]
        table = page.request.get(f"{server.url}/api/tables/{table_id}").json()
        assert table["game"] == game and table["players"] == get_game(game).min_players
        assert table["status"] == "playing"
        assert [s.get("bot") for s in table["seats"]][1:] == ["easy"] * (table["players"] - 1)
        page.wait_for_selector("#board svg")
    finally:
        page.context.close()


def test_a_guest_signs_in_first_and_one_click_starts_the_game(server: Server, browser: Any) -> None:
    page = new_person(browser, "nl")
    try:
        last = len(load(get_game("niagara")).steps)  # type: ignore[union-attr]
        page.goto(f"{server.url}/learn/niagara?step={last}")
        assert page.locator("#learn-counter").inner_text() == f"Stap {last} van {last}"
        page.click("#learn-next")
        page.wait_for_selector("#learn-done:not([hidden])")
        page.click("#learn-play")
        page.wait_for_url(re.compile(r".*/signin\?next=/learn/niagara/play$"))
        name = f"guest{uuid.uuid4().hex[:8]}"
        page.goto(f"{server.url}/learn/niagara?step={last}")
        page.click("#learn-next")
        page.wait_for_selector("#learn-done:not([hidden])")
        page.click("#learn-signup")  # a newcomer signs up instead, and comes back to the button
        page.wait_for_url(re.compile(r".*/signup\?next=/learn/niagara/play$"))
        page.fill("#name", name)
        page.fill("#password", "correct-horse-7")
        page.fill("#password2", "correct-horse-7")
        page.click("form[action='/signup'] button[type=submit]")
        page.wait_for_url(re.compile(r".*/learn/niagara/play$"))
        page.click("#learn-play")
        page.wait_for_url(re.compile(r".*/tables/\d+$"))
        assert page.locator("html").get_attribute("lang") == "nl"
    finally:
        page.context.close()


def test_the_tutorials_are_accessible_and_fit_a_phone(server: Server, browser: Any, shots: Path) -> None:
    script = _axe_script()
    problems = []
    for lang in ("en", "de", "nl"):
        page = new_person(browser, lang)
        for game in GAMES:
            page.goto(f"{server.url}/learn/{game}?step=2")
            problems += [f"{lang} {game}: {json.dumps(v)}" for v in _violations(page, script)]
        page.context.close()
    assert not problems, "\n".join(problems)
    phone = new_person(browser, "en", PHONE)
    try:
        for game in GAMES:
            phone.goto(f"{server.url}/learn/{game}?step=2")
            phone.wait_for_selector("#board .learn-target")
            wide = phone.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert wide <= 0, f"{game}: the page scrolls {wide}px sideways on a phone"
            phone.screenshot(path=str(shots / f"learn-{game}-phone.png"), full_page=True)
    finally:
        phone.context.close()


def test_the_tutorials_chooser_works_by_keyboard_and_gives_the_focus_back(server: Server, browser: Any) -> None:
    """A target that stands for several moves opens the chooser (static/chooser.js, the table page's too): the
    focus on its first entry; Escape and Cancel close it and the focus is back on the target; an entry plays."""
    page = new_person(browser)
    try:
        page.goto(f"{server.url}/learn/iquazu")
        page.wait_for_function("() => window.spieltafelLesson")
        index = page.evaluate(
            """() => [...document.querySelectorAll('#board [data-actions]')].findIndex((node) =>
                 node.getAttribute('data-actions').trim().split(/\\s+/)
                   .filter((a) => window.spieltafelLesson.legal.has(Number(a))).length > 1)"""
        )
        assert index >= 0, "no target of the first step stands for several moves"
        target = page.locator("#board [data-actions]").nth(index)
        focused = "(node) => node === document.activeElement"
        for close in ("Escape", "cancel"):
            target.focus()
            page.keyboard.press("Enter")
            page.wait_for_selector("#chooser:not([hidden])")
            assert page.locator("#chooser-list button").count() > 1
            assert page.locator("#chooser-list button").first.evaluate(focused)
            if close == "cancel":
                page.locator("#chooser-cancel").focus()
            page.keyboard.press("Enter" if close == "cancel" else "Escape")
            page.wait_for_selector("#chooser", state="hidden")
            assert target.evaluate(focused), f"{close}: the focus is not back on the target"
            assert _position(page) == ("0", "0")
        before = page.evaluate("() => Number(document.body.dataset.hints || 0)")
        target.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#chooser:not([hidden])")
        page.keyboard.press("Enter")  # the first entry: a move, right or wrong
        wait_for(
            lambda: _position(page) != ("0", "0")
            or page.evaluate("() => Number(document.body.dataset.hints || 0)") > before
        )
        assert page.locator("#chooser").is_hidden()
        assert not page.csp_errors
    finally:
        page.context.close()
