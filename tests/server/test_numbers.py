"""Issue 23, numbers from requests: every number a route reads by hand (a query parameter, a form field,
the Content-Length) is read strictly by ``server.numbers.parse_int``; anything else is a 4xx naming the
parameter and what it may be (a page in the reader's language, JSON for the API), never a 500."""

from __future__ import annotations

import random
import re

import httpx
import pytest

from spieltafel.server.numbers import BadNumber, parse_int, parse_optional_int

from .helpers import PASSWORD, Person, Seen, person, play_http

pytestmark = pytest.mark.anyio

LOOSE = ["²", "⁹", "--1", "-1", "+1", " 1", "1 ", "1_0", "٣", "１", "", "1.0", "0x1", "1e3", "9" * 5000]
"""What ``str.isdigit`` or ``int`` accept (or choke on) but a strict reader refuses."""


@pytest.mark.parametrize("text", LOOSE)
def test_parse_int_refuses_anything_but_ascii_digits_in_range(text: str) -> None:
    with pytest.raises(BadNumber) as refused:
        parse_int(text, "step", 0, 1000)
    assert refused.value.status == 422 and refused.value.code == "bad-number"
    assert refused.value.message.startswith("step must be a whole number from 0 to 1000, not ")


def test_parse_int_reads_numbers_in_range_and_negatives_only_where_allowed() -> None:
    assert parse_int("0", "n", 0, 10) == 0
    assert parse_int("10", "n", 0, 10) == 10
    assert parse_int("007", "n", 0, 1000) == 7
    assert parse_int("-3", "n", -5, 5) == -3
    for text in ("11", "-1", "-0"):
        with pytest.raises(BadNumber):
            parse_int(text, "n", 0, 10)
    with pytest.raises(BadNumber, match="n must be a whole number from 0 to 3 or 'all', not '9'"):
        parse_int("9", "n", 0, 3, word="all")
    assert parse_optional_int(None, "n", 0, 10, 4) == 4
    assert parse_optional_int("5", "n", 0, 10, 4) == 5


async def _signed_in(client: httpx.AsyncClient, who: Person) -> None:
    """``client`` carries ``who``'s session cookie (as a browser)."""
    answer = await client.post("/api/session", json={"name": who.name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text


async def _csrf(client: httpx.AsyncClient, page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', (await client.get(page)).text)
    assert found, f"no form on {page}"
    return found.group(1)


async def _table(client: httpx.AsyncClient, who: Person, seats: list[dict[str, str]]) -> int:
    body = {"game": "iquazu", "players": len(seats), "seats": seats}
    made = await client.post("/api/tables", json=body, headers=who.headers)
    assert made.status_code == 201, made.text
    table_id: int = made.json()["id"]
    return table_id


def _refusal_page(answer: httpx.Response, *words: str) -> None:
    assert answer.status_code == 422, answer.text[:300]
    assert answer.headers["content-type"].startswith("text/html")
    assert "Traceback" not in answer.text
    for word in words:
        assert word in answer.text, (word, answer.text[-1500:])


@pytest.mark.parametrize("step", ["²", "--1", "⁹", "-1", "1" * 40])
async def test_a_bad_step_of_the_history_page_is_a_clear_refusal(client: httpx.AsyncClient, step: str) -> None:
    who = await person(client)
    table_id = await _table(client, who, [{"kind": "me"}, {"kind": "bot", "bot": "random"}])
    answer = await client.get(f"/tables/{table_id}/history", params={"step": step})
    _refusal_page(answer, "“step” must be a whole number from 0 to 1000000")
    german = await client.get(f"/tables/{table_id}/history", params={"step": step}, headers={"Accept-Language": "de"})
    _refusal_page(german, "„step“ muss eine ganze Zahl von 0 bis 1000000")
    assert (await client.get(f"/tables/{table_id}/history", params={"step": "0"})).status_code == 200


async def test_bad_step_and_view_of_a_replay_are_clear_refusals(client: httpx.AsyncClient) -> None:
    people = [await person(client), await person(client)]
    table_id = await _table(client, people[0], [{"kind": "me"}, {"kind": "open"}])
    joined = await client.post(f"/api/tables/{table_id}/join", headers=people[1].headers)
    assert joined.status_code == 200, joined.text
    await play_http(client, table_id, people, Seen(), random.Random(5))
    replay = f"/tables/{table_id}/replay"
    _refusal_page(await client.get(replay, params={"step": "²"}), "“step” must be a whole number")
    for view in ("²", "2", "-1", ""):
        answer = await client.get(replay, params={"step": "1", "as": view})
        _refusal_page(answer, "“as” must be a whole number from 0 to 1 or “all”")
    assert (await client.get(replay, params={"step": "99999", "as": "all"})).status_code == 200  # shows the end
    assert (await client.get(replay, params={"step": "1", "as": "1"})).status_code == 200


@pytest.mark.parametrize("seat", ["²", "-1", "٣", "1 "])
async def test_a_bad_seat_in_the_join_form_is_a_clear_refusal(client: httpx.AsyncClient, seat: str) -> None:
    host, guest = await person(client), await person(client)
    table_id = await _table(client, host, [{"kind": "me"}, {"kind": "open"}])
    await _signed_in(client, guest)
    token = await _csrf(client, f"/tables/{table_id}")
    answer = await client.post(f"/tables/{table_id}/join", data={"csrf_token": token, "seat": seat})
    _refusal_page(answer, "“seat” must be a whole number from 0 to 98")
    seats = (await client.get(f"/api/tables/{table_id}")).json()["seats"]
    assert [s["name"] for s in seats] == [host.name, None]  # nothing changed
    joined = await client.post(f"/tables/{table_id}/join", data={"csrf_token": token, "seat": "1"})
    assert joined.status_code == 303


async def test_bad_numbers_of_the_new_table_forms_are_clear_refusals(client: httpx.AsyncClient) -> None:
    await _signed_in(client, await person(client))
    shown = await client.get("/tables/new", params={"game": "iquazu", "players": "²"})
    _refusal_page(shown, "“players” must be a whole number from 1 to 99")
    token = await _csrf(client, "/tables/new?game=iquazu")
    form = {"csrf_token": token, "game": "iquazu", "players": "2", "seat:0": "me", "seat:1": "bot:random",
            "pace": "live", "minutes": "⁹", "increment": "2"}
    _refusal_page(await client.post("/tables/new", data=form), "“minutes” must be a whole number from 0 to 9999")
    assert (await client.get("/api/tables")).json() == []


async def test_a_content_length_that_is_no_number_is_refused_not_a_crash(client: httpx.AsyncClient) -> None:
    for length in ("9" * 5000, "²", "-1"):
        request = client.build_request("POST", "/api/tables", content=b"{}")
        request.headers["content-length"] = length
        answer = await client.send(request)
        assert answer.status_code == 413, answer.text
        assert answer.json()["detail"]["code"] == "too-large"
