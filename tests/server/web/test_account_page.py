"""The account page: a password change ends the other sessions and keeps this one; tokens are shown once,
listed by number and revocable; every form needs the CSRF token."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spieltafel.server.accounts.auth import SESSION_COOKIE
from spieltafel.server.app import create_app

from ..conftest import settings_for

PASSWORD = "correct-horse-7"
NEW = "battery staple 9000"


def _csrf(client: TestClient, page: str = "/account") -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).text)
    assert match
    return match.group(1)


def _post(client: TestClient, action: str, data: dict[str, str]) -> object:
    return client.post(action, data={"csrf_token": _csrf(client), **data}, follow_redirects=False)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path)), base_url="http://127.0.0.1") as client:
        token = _csrf(client, "/signup")
        form = {"csrf_token": token, "name": "carol", "password": PASSWORD, "password2": PASSWORD, "next": "/"}
        assert client.post("/signup", data=form, follow_redirects=False).status_code == 303
        yield client


def test_the_account_page_needs_a_sign_in(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path)), base_url="http://127.0.0.1") as client:
        answer = client.get("/account", follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"].startswith("/signin")


def test_password_change_on_the_page(site: TestClient) -> None:
    before = site.cookies[SESSION_COOKIE]
    for data in ({"current": "wrong one!", "new": NEW, "new2": NEW}, {"current": PASSWORD, "new": NEW, "new2": "x"},
                 {"current": PASSWORD, "new": "password1", "new2": "password1"}):
        refused = site.post("/account/password", data={"csrf_token": _csrf(site), **data}, follow_redirects=False)
        assert refused.status_code in (403, 422) and 'role="alert"' in refused.text
        assert site.cookies[SESSION_COOKIE] == before
    done = site.post("/account/password", data={"csrf_token": _csrf(site), "current": PASSWORD, "new": NEW,
                                                "new2": NEW}, follow_redirects=False)
    assert done.status_code == 303
    after = site.cookies[SESSION_COOKIE]
    assert after != before
    assert site.get("/api/session", headers={"Cookie": f"{SESSION_COOKIE}={before}"}).status_code == 401
    assert site.get("/api/session").json() == {"name": "carol"}


def test_tokens_on_the_page(site: TestClient) -> None:
    made = site.post("/account/tokens", data={"csrf_token": _csrf(site)})
    assert made.status_code == 201
    token = re.search(r'<code id="new-token">(stt_[^<]+)</code>', made.text)
    assert token
    listing = site.get("/account").text
    assert token.group(1) not in listing and "/account/tokens/1/revoke" in listing
    bearer = {"Authorization": f"Bearer {token.group(1)}"}
    assert site.get("/api/session", headers=bearer).status_code == 200
    revoked = site.post("/account/tokens/1/revoke", data={"csrf_token": _csrf(site)}, follow_redirects=False)
    assert revoked.status_code == 303
    assert site.get("/api/session", headers=bearer).status_code == 401
    assert site.post("/account/tokens/1/revoke", data={"csrf_token": _csrf(site)}).status_code == 404


def test_the_account_forms_need_the_csrf_token(site: TestClient) -> None:
    for action in ("/account/password", "/account/tokens", "/account/tokens/1/revoke"):
        answer = site.post(action, data={"current": PASSWORD, "new": NEW, "new2": NEW}, follow_redirects=False)
        assert answer.status_code == 403, action
    assert site.get("/api/tokens").json() == []
    assert site.get("/api/session").status_code == 200
