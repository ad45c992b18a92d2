"""The post-game analysis of a finished table (issue 27): started through the API, computed in the bot
workers part by part with its progress, kept, served as JSON behind the table gate."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from spieltafel.analysis import BLUNDER, MISTAKE
from spieltafel.server.app import create_app

from ..backing import TEST_REDIS_URL, fresh_database, redis_keys
from ..conftest import settings_for
from ..helpers import Seen, person, play_http

pytestmark = pytest.mark.anyio


@pytest.fixture
async def quick(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    """The app with a small analysis budget (20 iterations per decision); a whole Niagara game of moves
    within the moves' rate limit."""
    async with fresh_database() as url, redis_keys(TEST_REDIS_URL) as prefix:
        settings = settings_for(tmp_path, url, prefix).model_copy(update={
            "analysis_iterations": 20, "rate_limits": {"moves": "100000/minute", "accounts": "1000/minute"}})
        application: FastAPI = create_app(settings)
        async with application.router.lifespan_context(application):
            transport = httpx.ASGITransport(app=application)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                yield http


async def finished_table(
    http: httpx.AsyncClient, game: str = "iquazu", private: bool = False, players: int = 2
) -> tuple[int, Any]:
    alice = await person(http, "alice")
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    body = {"game": game, "players": players, "seats": seats, "private": private}
    created = await http.post("/api/tables", json=body, headers=alice.headers)
    assert created.status_code == 201, created.text
    table_id: int = created.json()["id"]
    await play_http(http, table_id, [alice], Seen(), random.Random(5))
    return table_id, alice


async def until_done(http: httpx.AsyncClient, table_id: int, headers: dict[str, str]) -> list[dict[str, Any]]:
    seen = []
    for _ in range(3000):
        status = (await http.get(f"/api/tables/{table_id}/analysis", headers=headers)).json()
        seen.append(status)
        if status["status"] == "done":
            return seen
        await asyncio.sleep(0.05)
    raise AssertionError(f"the analysis did not end: {seen[-1]}")


@pytest.mark.parametrize(("game", "players"), [("iquazu", 2), ("haleakala", 2), ("niagara", 3)])
async def test_a_finished_game_is_analysed_in_the_workers_with_progress_and_kept(
    quick: httpx.AsyncClient, game: str, players: int
) -> None:
    table_id, alice = await finished_table(quick, game, players=players)
    before = (await quick.get(f"/api/tables/{table_id}/analysis")).json()
    assert before == {"table_id": table_id, "status": "none", "done": 0, "total": 0, "iterations": 0,
                      "analysis": None}
    refused = await quick.post(f"/api/tables/{table_id}/analysis")
    assert refused.status_code == 401
    started = await quick.post(f"/api/tables/{table_id}/analysis", headers=alice.headers)
    assert started.status_code == 200, started.text
    assert started.json()["status"] in ("running", "done") and started.json()["total"] > 0
    seen = await until_done(quick, table_id, alice.headers)
    done = seen[-1]
    analysis = done["analysis"]
    assert analysis["format"] == "spieltafel-analysis/1" and analysis["analysed_seats"] == [0]
    assert analysis["iterations"] == 20 and done["done"] == done["total"] == len(analysis["decisions"])
    assert all(d["seat"] == 0 for d in analysis["decisions"])
    for d in analysis["decisions"]:
        if not d["forced"]:
            assert d["mark"] == ("??" if d["loss"] > BLUNDER else "?" if d["loss"] > MISTAKE else "")
    progress = [s["done"] for s in seen if s["status"] == "running"]
    assert progress == sorted(progress)
    # kept: asking again starts nothing and answers the same analysis, to anyone who may see the table
    again = await quick.post(f"/api/tables/{table_id}/analysis", headers=alice.headers)
    assert again.json() == done
    assert (await quick.get(f"/api/tables/{table_id}/analysis")).json() == done


async def test_a_running_game_has_no_analysis_and_a_private_one_is_hidden(quick: httpx.AsyncClient) -> None:
    bob = await person(quick, "bob")
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    running = (await quick.post("/api/tables", json=body, headers=bob.headers)).json()["id"]
    answer = await quick.post(f"/api/tables/{running}/analysis", headers=bob.headers)
    assert answer.status_code == 409 and answer.json()["detail"]["code"] == "not-over"
    table_id, _ = await finished_table(quick, private=True)
    for method in (quick.get, quick.post):
        hidden = await method(f"/api/tables/{table_id}/analysis", headers=bob.headers)
        assert hidden.status_code == 404 and hidden.json()["detail"]["code"] == "no-table"


async def test_the_analysis_page_shows_progress_then_a_chart_per_player_in_three_languages(
    quick: httpx.AsyncClient,
) -> None:
    table_id, alice = await finished_table(quick)
    first = await quick.get(f"/tables/{table_id}/analysis", headers={"Accept-Language": "de"})
    assert first.status_code == 200
    if "<svg" not in first.text:  # still running: the progress, and the page reloads itself
        assert 'id="analysis-progress"' in first.text and "Entscheidungen" in first.text
        assert 'http-equiv="refresh"' in first.text
    done = (await until_done(quick, table_id, {}))[-1]["analysis"]
    searched = [d for d in done["decisions"] if not d["forced"]]
    words = {"en": ("Win chance of", "Marked moves"), "de": ("Gewinnchance von", "Markierte Züge"),
             "nl": ("Winkans van", "Gemarkeerde zetten")}
    for lang, (chart, marks) in words.items():
        page = await quick.get(f"/tables/{table_id}/analysis", headers={"Accept-Language": lang})
        assert page.status_code == 200
        text = page.text
        assert chart in text and marks in text and "<script" not in text.split("</header>")[-1].split("<footer")[0]
        assert text.count("<svg class=\"analysis-chart\"") == 1 and "<polyline" in text
        assert text.count('class="analysis-point') == len(searched)
        for d in searched:  # each point takes the replay beside the chart to its decision
            assert f'href="/tables/{table_id}/analysis?step={d["number"] - 1}&amp;as=0#analysis-replay"' in text
        for d in (d for d in searched if d["mark"]):
            assert f"<code>{d['played']}</code> <strong class=\"analysis-mark\">{d['mark']}</strong>" in text
        assert 'id="analysis-replay"' in text and "/replay?step=" in text  # and from there to the replay page
        assert 'http-equiv="refresh"' not in text
    over = await quick.get(f"/tables/{table_id}", headers=alice.headers)
    assert f'href="/tables/{table_id}/analysis"' in over.text
    # the replay beside the chart: a step past the end shows the end; a step or seat that is no number in
    # range is refused, saying what is allowed
    end = await quick.get(f"/tables/{table_id}/analysis?step=1000000&as=1")
    assert end.status_code == 200 and "The end of the game" in end.text and 'data-seat="1"' in end.text
    for query in ("step=x", "step=-1", "step=%C2%B2", "step=99999999", "as=2", "as=all", "as=-0"):
        refused = await quick.get(f"/tables/{table_id}/analysis?{query}")
        assert refused.status_code == 422, (query, refused.status_code)
        assert "must be a whole number from 0 to" in refused.text, query


async def test_the_page_of_a_running_game_refuses_an_analysis(quick: httpx.AsyncClient) -> None:
    bob = await person(quick, "bob")
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    running = (await quick.post("/api/tables", json=body, headers=bob.headers)).json()["id"]
    page = await quick.get(f"/tables/{running}/analysis")
    assert page.status_code == 409


async def test_the_workers_analyse_at_most_at_once_games_at_a_time(tmp_path: Path) -> None:
    """``analysis_at_once`` = 1: a second game's analysis waits (running, nothing done) until the first is
    kept; with 2 both move at the same time."""
    for at_once in (1, 2):
        async with fresh_database() as url, redis_keys(TEST_REDIS_URL) as prefix:
            settings = settings_for(tmp_path / str(at_once), url, prefix).model_copy(update={
                "analysis_iterations": 60, "analysis_at_once": at_once, "bot_workers": 2,
                "rate_limits": {"moves": "100000/minute", "accounts": "1000/minute"}})
            application: FastAPI = create_app(settings)
            async with application.router.lifespan_context(application):
                transport = httpx.ASGITransport(app=application)
                async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                    first, alice = await finished_table(http, "haleakala")
                    second, _ = await finished_table(http, "haleakala")
                    for table_id in (first, second):
                        started = await http.post(f"/api/tables/{table_id}/analysis", headers=alice.headers)
                        assert started.status_code == 200, started.text
                    together = False
                    for _ in range(6000):
                        a, b = [(await http.get(f"/api/tables/{t}/analysis")).json() for t in (first, second)]
                        if a["status"] == b["status"] == "running" and a["done"] and b["done"]:
                            together = True
                        if a["status"] == b["status"] == "done":
                            break
                        await asyncio.sleep(0.02)
                    assert a["status"] == b["status"] == "done"
                    assert together is (at_once == 2), (at_once, together)
