"""The post-game analysis page in the browser (issue 27), for a finished game of each title against `easy` bots,
with a tiny site budget (``SPIELTAFEL_ANALYSIS_ITERATIONS``) so that it takes seconds: opening the page starts the
analysis and shows its progress, then a win-chance chart per analysed player and the marked moves, exactly
as the JSON has them; a click on a chart point takes the replay beside the chart to that move (without a
reload); the JSON of the API is what the page shows; a stranger gets nothing of a private table; the page
speaks German and Dutch throughout."""

from __future__ import annotations

import random
import re
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Server, new_person, shoot, sign_up
from .test_browser import _api, _play_through_api, _token
from .test_pages import RAW_TEMPLATE, SAME_WORDS, _same_as_english, _scanned_texts

PASSWORD = "correct-horse-7"
ITERATIONS = 10
"""The site's search budget per decision in this test (the default is 1,000)."""

GAMES = {"iquazu": 2, "haleakala": 2, "niagara": 3}
SAME_ON_BOARDS = {"nautilus"}
"""Words of the boards the catalogs spell as English does (Haleakala's shell, ``haleakala.po`` in nl)."""


@pytest.fixture(scope="module")
def tiny(browser: Any) -> Iterator[Server]:
    """A server of its own whose analyses search :data:`ITERATIONS` iterations per decision."""
    running = Server(env={"SPIELTAFEL_ANALYSIS_ITERATIONS": str(ITERATIONS)})
    try:
        yield running
    finally:
        running.stop()


def _finished_private_table(server: Server, token: str, game: str, seed: int) -> int:
    """A private table of the person (random moves) against `easy` bots (they end a game of Niagara within a few
    hundred moves; random ones play thousands), played to its end through the API."""
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "easy"}] * (GAMES[game] - 1)
    body = {"game": game, "players": GAMES[game], "seats": seats, "private": True}
    table: int = _api(server, "POST", "/api/tables", body, token)["id"]
    state = _play_through_api(server, table, token, random.Random(seed), lambda _state: False)
    assert state["result"] is not None
    return table


def _shown_points(page: Any) -> dict[int, list[tuple[int, str, str]]]:
    """Per chart (seat): its points as (move number, mark, win chance) in the order drawn."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('svg.analysis-chart')].map((svg) => [
            svg.dataset.seat,
            [...svg.querySelectorAll('a[data-number]')].map((a) => [Number(a.dataset.number), a.dataset.mark,
                                                                    a.dataset.chance]),
        ]))"""
    )


@pytest.mark.parametrize("game", list(GAMES))
def test_the_analysis_of_a_finished_game_in_the_browser(tiny: Server, browser: Any, shots: Path, game: str) -> None:
    page = new_person(browser)
    name = f"ana_{game}"
    sign_up(page, tiny.url, name, PASSWORD)
    token = _token(tiny, name, PASSWORD)
    table = _finished_private_table(tiny, token, game, seed=len(game))
    assert _api(tiny, "GET", f"/api/tables/{table}/analysis", token=token)["status"] == "none"

    # opening the page starts the analysis; its progress shows while it runs, then the page shows the result
    response = page.goto(f"{tiny.url}/tables/{table}/analysis")
    assert response is not None and response.status == 200
    progress = page.locator("#analysis-progress")
    assert progress.is_visible(), page.content()
    assert re.search(r"\d+ of \d+ decisions", progress.inner_text()), progress.inner_text()
    total = int(page.locator("progress").get_attribute("max") or "0")
    assert total > 0
    page.wait_for_selector("#analysis[data-status=done]", timeout=240_000)
    assert not page.locator("#analysis-progress").count()

    status = _api(tiny, "GET", f"/api/tables/{table}/analysis", token=token)
    assert status["status"] == "done" and status["iterations"] == ITERATIONS and status["done"] == total
    analysis = status["analysis"]
    assert analysis["game"] == game and analysis["analysed_seats"] == [0]  # the person's seat only
    assert len(analysis["decisions"]) == total

    # the charts (one per analysed seat) and their points are the JSON's searched decisions
    expected = {
        str(seat): [
            [d["number"], d["mark"], str(d["played_chance"])]
            for d in analysis["decisions"]
            if d["seat"] == seat and not d["forced"]
        ]
        for seat in analysis["analysed_seats"]
    }
    assert _shown_points(page) == expected
    assert page.locator("svg.analysis-chart").count() == len(analysis["analysed_seats"])
    # the marks: those of the JSON, in the chart and in the table of marked moves, and nothing else
    marks = {(d["number"], d["mark"]) for d in analysis["decisions"] if d["mark"]}
    drawn = {(n, mark) for points in _shown_points(page).values() for n, mark, _ in points if mark}
    assert drawn == marks
    rows = page.evaluate(
        "() => [...document.querySelectorAll('.analysis-marks tbody tr')]"
        ".map((tr) => [Number(tr.dataset.number), tr.querySelector('.analysis-mark').textContent])"
    )
    assert {(n, mark) for n, mark in rows} == marks and len(rows) == len(marks)
    assert all(mark in ("?", "??") for _, mark in marks)
    if not marks:
        assert page.get_by_text("No move lost more than 10 points of win chance.").is_visible()
    summary = analysis["summary"][0]
    assert summary["mistakes"] == sum(1 for _, m in marks if m == "?")
    assert summary["blunders"] == sum(1 for _, m in marks if m == "??")

    # the replay beside the chart starts at the decision that lost the most; a point takes it to its move
    replay = page.locator("#analysis-replay")
    assert replay.is_visible() and replay.locator("svg").count()
    searched = [d for d in analysis["decisions"] if not d["forced"]]
    worst = max(searched, key=lambda d: d["loss"])
    assert replay.get_attribute("data-move") == str(worst["number"])
    assert f"Move {worst['number']} of " in replay.locator("h2").inner_text()
    page.evaluate("() => { window.__sameDocument = true; }")
    target = next(d for d in reversed(searched) if d["number"] != worst["number"])
    page.locator(f"svg.analysis-chart a[data-number='{target['number']}'] circle").click()
    page.wait_for_selector(f"#analysis-replay[data-move='{target['number']}']")
    assert page.evaluate("() => window.__sameDocument") is True  # only the replay was swapped in
    assert f"step={target['number'] - 1}" in page.url
    shown = page.locator("#analysis-replay .analysis-decision").inner_text()
    assert target["played"] in shown and (target["mark"] in shown if target["mark"] else True)
    assert page.locator(f"svg.analysis-chart a[data-number='{target['number']}'] circle.current").count() == 1
    # and without the module: the point is a link to the same place
    href = page.locator(f"svg.analysis-chart a[data-number='{target['number']}']").get_attribute("href")
    assert href == f"/tables/{table}/analysis?step={target['number'] - 1}&as=0#analysis-replay"
    page.goto(tiny.url + href)
    assert page.locator("#analysis-replay").get_attribute("data-move") == str(target["number"])
    assert not page.csp_errors, page.csp_errors
    page.evaluate("() => window.scrollTo(0, 0)")  # the picture from the page's top: heading, chart, replay
    shoot(page, shots, f"analysis-{game}")

    # a stranger gets nothing of a private table: not the page, not the JSON, not a start
    stranger = new_person(browser)
    sign_up(stranger, tiny.url, f"stranger_{game}", PASSWORD)
    refused = stranger.goto(f"{tiny.url}/tables/{table}/analysis")
    assert refused is not None and refused.status == 404
    assert not stranger.locator("svg.analysis-chart, #analysis-progress, #analysis-replay").count()
    stranger_token = _token(tiny, f"stranger_{game}", PASSWORD)
    for method in ("GET", "POST"):
        with pytest.raises(urllib.error.HTTPError) as error:
            _api(tiny, method, f"/api/tables/{table}/analysis", None if method == "GET" else {}, stranger_token)
        assert error.value.code == 404
    stranger.context.close()

    # German and Dutch: no English text left on the page (but names and notation), no raw placeholder
    english = _scanned_texts(page.content())
    problems = []
    for lang in ("de", "nl"):
        page.click(f"form.language-switch button[value={lang}]")
        page.wait_for_selector(f"html[lang={lang}]")
        texts = _scanned_texts(page.content()) - {name}  # the person's name stays as it is
        problems += [f"{lang}: raw {t!r}" for t in sorted(texts) if RAW_TEMPLATE.search(t)]
        same = _same_as_english(english, texts, lang) - SAME_WORDS - SAME_ON_BOARDS
        problems += [f"{lang}: {t!r}" for t in sorted(same)]
    assert not problems, "\n".join(problems)
    page.context.close()
