"""Sessions and tokens (issue 12): a new session id at every sign-in, sign-out and a password change end
sessions on the server, tokens are listed without their secret and revocable, cookies are Secure behind
HTTPS, common passwords are refused, a foreign Origin makes the cookie count for nothing, CORS is closed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from spieltafel.server.accounts.auth import SESSION_COOKIE
from spieltafel.server.accounts.service import check_password, common_passwords
from spieltafel.server.app import create_app
from spieltafel.server.errors import Invalid

from ..conftest import settings_for
from ..helpers import PASSWORD, person, unique_name

pytestmark = pytest.mark.anyio
NEW_PASSWORD = "another long secret 42"


async def _account(client: httpx.AsyncClient) -> str:
    name = unique_name()
    assert (await client.post("/api/accounts", json={"name": name, "password": PASSWORD})).status_code == 201
    return name


async def _sign_in(client: httpx.AsyncClient, name: str, password: str = PASSWORD) -> str:
    answer = await client.post("/api/session", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    return answer.cookies[SESSION_COOKIE]


async def _as_cookie(client: httpx.AsyncClient, session_id: str) -> int:
    answer = await client.get("/api/session", headers={"Cookie": f"{SESSION_COOKIE}={session_id}"})
    return answer.status_code


async def test_sign_in_gives_a_new_session_id_and_ends_the_old_one(client: httpx.AsyncClient) -> None:
    name = await _account(client)
    first = await _sign_in(client, name)
    second = await _sign_in(client, name)  # the client still sends the first cookie
    assert first != second
    client.cookies.clear()
    assert await _as_cookie(client, first) == 401
    assert await _as_cookie(client, second) == 200


async def test_a_planted_session_id_is_replaced_at_sign_in(client: httpx.AsyncClient) -> None:
    name = await _account(client)
    client.cookies.set(SESSION_COOKIE, "planted-by-an-attacker")
    issued = await _sign_in(client, name)
    assert issued != "planted-by-an-attacker"
    client.cookies.clear()
    assert await _as_cookie(client, "planted-by-an-attacker") == 401


async def test_sign_out_ends_the_session_on_the_server(client: httpx.AsyncClient) -> None:
    name = await _account(client)
    session_id = await _sign_in(client, name)
    assert (await client.delete("/api/session")).status_code == 204
    client.cookies.clear()
    assert await _as_cookie(client, session_id) == 401  # a copy of the cookie is worthless now


async def test_password_change_ends_every_session_and_keeps_the_caller_signed_in(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    name = await _account(client)
    elsewhere = await _sign_in(client, name)
    mine = await _sign_in(client, name)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as browser:
        other_browser = await _sign_in(browser, name)
    wrong = await client.put("/api/password", json={"current": "not it at all", "new": NEW_PASSWORD})
    assert wrong.status_code == 403 and wrong.json()["detail"]["code"] == "wrong-password"
    assert await _as_cookie(client, mine) == 200  # a refusal changes nothing
    common = await client.put("/api/password", json={"current": PASSWORD, "new": "password123"})
    assert common.status_code == 422 and common.json()["detail"]["code"] == "common-password"
    changed = await client.put("/api/password", json={"current": PASSWORD, "new": NEW_PASSWORD})
    assert changed.status_code == 204
    fresh = changed.cookies[SESSION_COOKIE]
    client.cookies.clear()
    for old in (elsewhere, mine, other_browser):
        assert await _as_cookie(client, old) == 401
    assert await _as_cookie(client, fresh) == 200
    refused = await client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert refused.status_code == 401
    assert await _sign_in(client, name, NEW_PASSWORD)


async def test_password_change_needs_a_signed_in_caller(client: httpx.AsyncClient) -> None:
    answer = await client.put("/api/password", json={"current": PASSWORD, "new": NEW_PASSWORD})
    assert answer.status_code == 401


async def test_tokens_are_listed_without_secret_and_revocable(client: httpx.AsyncClient) -> None:
    owner, other = await person(client), await person(client)
    second = (await client.post("/api/tokens", headers=owner.headers)).json()["token"]
    listed = (await client.get("/api/tokens", headers=owner.headers)).json()
    assert len(listed) == 2 and {"id", "created_at"} == set(listed[0])
    assert owner.token not in str(listed) and second not in str(listed)
    theirs = (await client.get("/api/tokens", headers=other.headers)).json()
    stolen = await client.delete(f"/api/tokens/{listed[0]['id']}", headers=other.headers)
    assert stolen.status_code == 404 and stolen.json()["detail"]["code"] == "no-token"
    assert (await client.get("/api/session", headers=owner.headers)).status_code == 200
    assert (await client.delete(f"/api/tokens/{listed[0]['id']}", headers=owner.headers)).status_code == 204
    assert (await client.get("/api/session", headers=owner.headers)).status_code == 401
    assert (await client.get("/api/session", headers={"Authorization": f"Bearer {second}"})).status_code == 200
    assert (await client.get("/api/tokens", headers=other.headers)).json() == theirs
    again = await client.delete(f"/api/tokens/{listed[0]['id']}", headers={"Authorization": f"Bearer {second}"})
    assert again.status_code == 404


def test_common_passwords_are_refused() -> None:
    assert len(common_passwords()) > 19_000
    for weak in ("password", "12345678", "Password1", "iloveyou", "qwertyuiop", "PASSWORD"):
        with pytest.raises(Invalid):
            check_password(weak)
    with pytest.raises(Invalid):
        check_password("alice-the-great", "alice")
    check_password(PASSWORD, "alice")
    check_password(NEW_PASSWORD)


async def test_a_common_password_is_refused_at_sign_up(client: httpx.AsyncClient) -> None:
    answer = await client.post("/api/accounts", json={"name": unique_name(), "password": "football1"})
    assert answer.status_code == 422 and answer.json()["detail"]["code"] == "common-password"


async def test_cookies_are_secure_behind_https(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="https://test") as https:
        name = await _account(https)
        answer = await https.post("/api/session", json={"name": name, "password": PASSWORD})
        assert "secure" in answer.headers["set-cookie"].lower()
        page = await https.get("/signin")
        assert all("secure" in c.lower() for c in page.headers.get_list("set-cookie"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as http:
        answer = await http.post("/api/session", json={"name": name, "password": PASSWORD})
        assert "secure" not in answer.headers["set-cookie"].lower()


@pytest.fixture
async def configured(tmp_path: Path) -> AsyncIterator[FastAPI]:
    settings = settings_for(tmp_path).model_copy(
        update={"secure_cookies": True, "cors_origins": ["https://friend.example"]}
    )
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


async def test_secure_cookies_by_setting_and_cors_for_named_sites(configured: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=configured), base_url="http://test") as http:
        name = await _account(http)
        answer = await http.post("/api/session", json={"name": name, "password": PASSWORD})
        assert "secure" in answer.headers["set-cookie"].lower()
        friend = await http.options("/api/tables", headers=_preflight("https://friend.example"))
        assert friend.headers.get("access-control-allow-origin") == "https://friend.example"
        assert "access-control-allow-credentials" not in friend.headers
        stranger = await http.options("/api/tables", headers=_preflight("https://evil.example"))
        assert "access-control-allow-origin" not in stranger.headers


def _preflight(origin: str) -> dict[str, str]:
    return {
        "Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"
    }


async def test_cors_is_closed_by_default(client: httpx.AsyncClient) -> None:
    preflight = await client.options("/api/tables", headers=_preflight("https://evil.example"))
    simple = await client.get("/api/tables", headers={"Origin": "https://evil.example"})
    for answer in (preflight, simple):
        assert not any(h.startswith("access-control-") for h in answer.headers), answer.headers


async def test_a_foreign_origin_makes_the_session_cookie_count_for_nothing(client: httpx.AsyncClient) -> None:
    name = await _account(client)
    await _sign_in(client, name)
    assert (await client.get("/api/session", headers={"Origin": "http://test"})).status_code == 200
    forged = await client.post("/api/tokens", headers={"Origin": "https://evil.example"})
    assert forged.status_code == 401
    assert (await client.get("/api/session", headers={"Origin": "https://evil.example"})).status_code == 401


async def test_an_opaque_origin_makes_the_session_cookie_count_for_nothing(client: httpx.AsyncClient) -> None:
    """Issue 23: ``Origin: null`` (a sandboxed frame, a file:// page) counted as our own origin, so a page
    anywhere could make a token with the visitor's cookie by a simple text/plain POST."""
    name = await _account(client)
    await _sign_in(client, name)
    plain = {"Content-Type": "text/plain"}
    forged = await client.post("/api/tokens", content="x", headers={**plain, "Origin": "null"})
    assert forged.status_code == 401, forged.text
    assert (await client.get("/api/session", headers={"Origin": "null"})).status_code == 401
    assert (await client.get("/api/tokens")).json() == []
    own = await client.post("/api/tokens", content="x", headers={**plain, "Origin": "http://test"})
    assert own.status_code == 201, own.text
