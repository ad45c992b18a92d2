"""Ratings, leaderboards and profiles: the server's ratings after real games equal the arena's own
computation (spieltafel.arena.stats.rate_games over the same games), each game counts once (also
across a restart), people and bots alike; profiles with history and recent games."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from spieltafel.arena.stats import ranks, rate_games
from spieltafel.server.app import create_app
from spieltafel.server.db import RatingRow
from spieltafel.server.social.ratings import Placing

from ..conftest import settings_for
from ..helpers import Seen, by_player, person, play_http, rated, rated_async
from ..sync_client import table, token

CONFIRM = {"confirm": True}  # leaving a running game is for good: the API asks for it


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path))) as client:
        yield client


def finish(http: TestClient, table_id: int, people: list[dict[str, str]], seed: int) -> dict[str, Any]:
    """Play the people's seats with random legal moves until the end (bots move by themselves)."""
    rng = random.Random(seed)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        moved = False
        for who in people:
            state = http.get(f"/api/tables/{table_id}/state", headers=who).json()
            if state["result"] is not None:
                record: dict[str, Any] = http.get(f"/api/tables/{table_id}/record").json()
                return record
            if state["legal"]:
                move = {"seq": state["seq"], "action": rng.choice(state["legal"])["action"]}
                http.post(f"/api/tables/{table_id}/moves", json=move, headers=who)
                moved = True
        if not moved:
            time.sleep(0.01)
    raise AssertionError(f"table {table_id} did not end")


def arena_ratings(records: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """What the arena computes for the same games: each name once per game, at its best seat's rank."""
    names: list[str] = []
    rankings = []
    for record in records:
        seat_ranks = ranks(record["result"]["scores"], record["result"]["winners"])
        best: dict[str, int] = {}
        for seat, name in enumerate(record["seats"]):
            best[name] = min(best.get(name, seat_ranks[seat]), seat_ranks[seat])
        names += [name for name in best if name not in names]
        rankings.append([(names.index(name), place) for name, place in best.items()])
    rated = rate_games(rankings, len(names))
    return {name: (r.mu, r.sigma) for name, r in zip(names, rated, strict=True)}


def board(http: TestClient, game: str) -> dict[str, dict[str, Any]]:
    answer = http.get(f"/api/leaderboards/{game}")
    assert answer.status_code == 200, answer.text
    return by_player(answer.json())


def test_ratings_equal_the_arenas_computation_and_count_once(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path))) as http:
        alice, bob = token(http), token(http)
        names = {who["Authorization"]: http.get("/api/session", headers=who).json()["name"] for who in (alice, bob)}
        games = [
            (alice, [{"kind": "me"}, {"kind": "bot", "bot": "random"}], [alice]),
            (alice, [{"kind": "me"}, {"kind": "open"}], [alice, bob]),
            (bob, [{"kind": "bot", "bot": "random"}, {"kind": "me"}, {"kind": "bot", "bot": "random"}], [bob]),
            (bob, [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}], [bob]),
        ]
        records = []
        for number, (host, seats, people) in enumerate(games):
            table_id = table(http, host, "iquazu", seats)
            if len(people) > 1:
                http.post(f"/api/tables/{table_id}/join", headers=people[1])
            records.append(finish(http, table_id, people, number))
        unfinished = table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "bot", "bot": "easy"}])
        expected = arena_ratings(records)
        games_of = {name: sum(name in r["seats"] for r in records) for name in expected}
        rated(http.get, "iquazu", lambda now: sum(e["games"] for e in now.values()) == sum(games_of.values()))
        ratings = board(http, "iquazu")
        assert set(ratings) == set(expected) == {*names.values(), "bot:random", "bot:greedy"}
        for name, (mu, sigma) in expected.items():
            assert ratings[name]["mu"] == pytest.approx(mu, abs=1e-9), name
            assert ratings[name]["sigma"] == pytest.approx(sigma, abs=1e-9), name
            assert ratings[name]["ordinal"] == pytest.approx(mu - 3 * sigma, abs=1e-9)
        assert [e["rank"] for e in http.get("/api/leaderboards/iquazu").json()] == [1, 2, 3, 4]
        ordinals = [e["ordinal"] for e in http.get("/api/leaderboards/iquazu").json()]
        assert ordinals == sorted(ordinals, reverse=True)
        wins_of = {name: sum(any(r["seats"][w] == name for w in r["result"]["winners"]) for r in records)
                   for name in expected}
        played = {n: (e["games"], e["wins"]) for n, e in ratings.items()}
        assert played == {n: (games_of[n], wins_of[n]) for n in ratings}
        assert ratings["bot:random"]["kind"] == "bot" and ratings[names[alice["Authorization"]]]["kind"] == "person"
        assert http.get("/api/leaderboards/haleakala").json() == []
        assert http.get("/api/leaderboards/chess").json()["detail"]["code"] == "no-game"
    with TestClient(create_app(settings_for(tmp_path))) as http:  # a restart rates nothing again
        assert board(http, "iquazu") == ratings
        assert http.get(f"/api/tables/{unfinished}").json()["status"] == "playing"


def test_a_profile_shows_games_wins_history_and_recent_games(http: TestClient) -> None:
    alice = token(http)
    name = http.get("/api/session", headers=alice).json()["name"]
    tables = []
    for seed in range(2):
        tables.append(table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "bot", "bot": "random"}]))
        finish(http, tables[-1], [alice], seed)
    private = http.post("/api/tables", headers=alice, json={
        "game": "iquazu", "players": 2, "private": True, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]})
    finish(http, private.json()["id"], [alice], 7)
    rated(http.get, "iquazu", lambda now: now.get(name, {}).get("games") == 3)
    profile = http.get(f"/api/players/{name}").json()
    assert profile["name"] == name and profile["kind"] == "person" and profile["games_played"] == 3
    [iquazu] = profile["games"]
    assert iquazu["game"] == "iquazu" and iquazu["games"] == 3  # the private game counts, but ...
    assert [point["table"] for point in iquazu["history"]] == tables  # ... shows only to its players (issue 23)
    assert [g["table"] for g in profile["recent"]] == tables[::-1]  # the private game only for alice herself
    own = http.get(f"/api/players/{name}", headers=alice).json()
    assert [g["table"] for g in own["recent"]] == [private.json()["id"], *tables[::-1]]
    [own_iquazu] = own["games"]
    assert [point["table"] for point in own_iquazu["history"]] == [*tables, private.json()["id"]]
    assert (own_iquazu["history"][-1]["mu"], own_iquazu["history"][-1]["sigma"]) == (iquazu["mu"], iquazu["sigma"])
    assert http.get(profile["recent"][0]["replay"]).status_code == 200
    assert http.get("/api/players/nobody-here").json()["detail"]["code"] == "no-account"
    page = http.get(f"/players/{name}", headers=alice).text
    assert "3 games played" in page and page.count('<circle class="dot"') == 3  # one dot per rated game
    assert '<polyline class="mu"' in page and f'href="/tables/{tables[0]}/replay"' in page
    assert http.get("/players/nobody-here").status_code == 404
    assert f'<a href="/players/{name}">{name}</a>' in http.get(f"/tables/{tables[0]}").text  # names lead here
    board_page = http.get("/leaderboards/iquazu").text
    assert f'href="/players/{name}"' in board_page and "Bot (random)" in board_page
    assert http.get("/leaderboards/chess").status_code == 404


@pytest.mark.anyio
async def test_a_player_who_is_out_is_rated_last_and_the_stand_in_is_not_rated(client: httpx.AsyncClient) -> None:
    """The leaver rule "out" reaches the ratings: the person who left is rated at the last place (the seats
    still in ranked among themselves as the arena ranks them), the random stand-in of the seat is not
    rated; the ratings equal the arena's own Plackett–Luce computation over the same rankings."""
    alice, bob, carol = await person(client, "a"), await person(client, "b"), await person(client, "c")
    rule = {"leaver": {"rule": "out"}}
    records, rankings = [], []
    # game 1: alice, bob and a random bot; bob leaves at once (3 seats: bob third whatever the scores)
    body = {"game": "iquazu", "players": 3, "seats": [{"kind": "me"}, {"kind": "open"},
                                                        {"kind": "bot", "bot": "random"}], **rule}
    first = (await client.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
    assert (await client.post(f"/api/tables/{first}/join", headers=bob.headers)).status_code == 200
    assert (await client.post(f"/api/tables/{first}/leave", json=CONFIRM, headers=bob.headers)).status_code == 204
    # game 2: carol and bob; carol leaves (bob first even if carol's stand-in scores more)
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}], **rule}
    second = (await client.post("/api/tables", json=body, headers=carol.headers)).json()["id"]
    assert (await client.post(f"/api/tables/{second}/join", headers=bob.headers)).status_code == 200
    assert (await client.post(f"/api/tables/{second}/leave", json=CONFIRM, headers=carol.headers)).status_code == 204
    finals = []
    for table_id, people, seed in ((first, [alice], 1), (second, [bob], 2)):
        finals.append(await play_http(client, table_id, people, Seen(), random.Random(seed),
                                      pause=lambda: asyncio.sleep(0.01)))
        records.append((await client.get(f"/api/tables/{table_id}/record")).json())
    assert records[0]["seats"] == [alice.name, f"{bob.name} (left, out)", "bot:random"]
    assert records[1]["seats"] == [f"{carol.name} (left, out)", bob.name]
    assert finals[0]["result"]["places"][1] == 3 and finals[1]["result"]["places"] == [2, 1]
    names = [alice.name, bob.name, "bot:random", carol.name]
    for record, who in zip(records, ([alice.name, bob.name, "bot:random"], [carol.name, bob.name]), strict=True):
        scores, winners = record["result"]["scores"], record["result"]["winners"]
        inside = [seat for seat, name in enumerate(record["seats"]) if "(left, out)" not in name]
        inner = ranks([scores[seat] for seat in inside], [n for n, seat in enumerate(inside) if seat in winners])
        place = dict.fromkeys(range(len(scores)), len(inside) + 1) | dict(zip(inside, inner, strict=True))
        rankings.append([(names.index(name), place[seat]) for seat, name in enumerate(who)])
    assert rankings[0][1] == (1, 3) and rankings[1] == [(3, 2), (1, 1)]
    expected = {name: (r.mu, r.sigma) for name, r in zip(names, rate_games(rankings, len(names)), strict=True)}
    rated = await rated_async(client, "iquazu", lambda now: sum(e["games"] for e in now.values()) == 5)
    assert set(rated) == set(names)
    for name, (mu, sigma) in expected.items():
        assert rated[name]["mu"] == pytest.approx(mu, abs=1e-9), name
        assert rated[name]["sigma"] == pytest.approx(sigma, abs=1e-9), name
    assert rated["bot:random"]["games"] == 1  # its own seat only, not bob's stand-in
    assert (rated[bob.name]["games"], rated[bob.name]["wins"]) == (2, 1)
    assert (rated[carol.name]["games"], rated[carol.name]["wins"]) == (1, 0)
    history = (await client.get(f"/api/players/{bob.name}")).json()["games"][0]["history"]
    assert [(p["table"], p["place"], p["won"]) for p in history] == [(first, 3, False), (second, 1, True)]


@pytest.mark.anyio
async def test_two_games_of_the_same_new_players_ending_at_once_both_rate(app: FastAPI) -> None:
    """Both transactions make the players' first rating rows; the second waits for the first and adds to
    its rows instead of failing on the primary key (which used to refuse a game's last move as stale)."""
    ratings = app.state.services.ratings
    places = [Placing("bot:hard", None, 1, True), Placing("bot:easy", None, 2, False)]
    first_has_rows = asyncio.Event()

    async def game(first: bool) -> None:
        async with ratings.db.write() as session:
            if not first:
                await first_has_rows.wait()
            rows = await ratings._lock_rows(session, "iquazu", places)
            for row in rows.values():
                row.games += 1
            if first:
                first_has_rows.set()
                await asyncio.sleep(0.3)  # hold the new rows, uncommitted, while the other game asks for them

    await asyncio.gather(game(True), game(False))
    async with ratings.db.session() as session:
        found = (await session.execute(select(RatingRow).where(RatingRow.game == "iquazu"))).scalars().all()
    assert sorted((row.player, row.games) for row in found) == [("bot:easy", 2), ("bot:hard", 2)]


@pytest.mark.anyio
async def test_a_leavers_profile_does_not_list_the_bot_that_took_the_seat(client: httpx.AsyncClient) -> None:
    """Issue 26: after leaving a game (rule "bot") the profile showed the stand-in bot's rating as a second
    row of the game, the game's rating chart twice and the abandoned game as "won": the bot's rows carried
    the leaver's account id. The person's own rows only, and the bot's rows belong to no account."""
    alice = await person(client, "a")
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    played = (await client.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
    await play_http(client, played, [alice], Seen(), random.Random(3), pause=lambda: asyncio.sleep(0.01))
    body["leaver"] = {"rule": "bot", "bot": "greedy"}
    left = (await client.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
    assert (await client.post(f"/api/tables/{left}/leave", json=CONFIRM, headers=alice.headers)).status_code == 204
    board = await rated_async(client, "iquazu", lambda now: "bot:greedy" in now and now["bot:random"]["games"] == 2)
    assert board["bot:greedy"]["games"] == 1 and board[alice.name]["games"] == 1
    profile = (await client.get(f"/api/players/{alice.name}", headers=alice.headers)).json()
    assert [(g["game"], g["games"], g["kind"]) for g in profile["games"]] == [("iquazu", 1, "person")]
    assert [r["table"] for r in profile["recent"]] == [played]
    page = (await client.get(f"/players/{alice.name}", headers=alice.headers)).text
    assert page.count('class="rating-figure"') == 1 and page.count("<tr><th scope=\"row\">") == 1
    assert f"#{left}" not in page


@pytest.mark.anyio
async def test_a_newcomers_rating_shows_as_a_question_mark_until_five_games(client: httpx.AsyncClient) -> None:
    """Issue 26: after a first game the profile and the leaderboard showed a newcomer's μ − 3σ (−1.8 after a
    loss), read as a penalty. Until 5 rated games of the game the rating is "?" (explained beside it)."""
    from spieltafel.server.web.profiles import PROVISIONAL_GAMES
    from spieltafel.server.web.templating import environment

    dana = await person(client, "d")
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    played = (await client.post("/api/tables", json=body, headers=dana.headers)).json()["id"]
    await play_http(client, played, [dana], Seen(), random.Random(4), pause=lambda: asyncio.sleep(0.01))
    board = await rated_async(client, "iquazu", lambda now: dana.name in now)
    shown = f"{board[dana.name]['ordinal']:.1f}"
    for path in (f"/players/{dana.name}", "/leaderboards/iquazu"):
        page = (await client.get(path, headers=dana.headers)).text
        assert '<span class="provisional" title="rated after 5 games">?</span>' in page, path
        assert f"<td>{shown}</td>" not in page and "A rating shows after 5 rated games" in page, path
    macro = environment("en").from_string(
        '{% from "_macros.html" import rating_cell %}{{ rating_cell(e, 5) }}'
    )
    assert macro.render(e={"games": PROVISIONAL_GAMES, "ordinal": 3.14159}).strip() == "3.1"
    assert macro.render(e={"games": PROVISIONAL_GAMES - 1, "ordinal": 3.14159}).strip().endswith(">?</span>")
