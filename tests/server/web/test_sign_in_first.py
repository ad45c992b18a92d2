"""A signed-out reader sent to sign in comes back to the very address they left, query and escapes included:
the sign-in page's ``next`` is quoted whole (``templating.sign_in_first``), so a path with its own ``?`` and
``&`` is not cut at the first ``&`` and an escaped name is not decoded once too often."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spieltafel.server.app import create_app

from ..conftest import settings_for

PASSWORD = "correct-horse-7"


def _csrf(client: TestClient, page: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).text)
    assert match
    return match.group(1)


def _next_on(client: TestClient, address: str) -> str:
    """The ``next`` the sign-in form at ``address`` carries (its hidden field, unescaped; the header's language
    form has a ``next`` of its own, the page's address)."""
    match = re.search(r'action="/signin".*?name="next" value="([^"]*)"', client.get(address).text, re.DOTALL)
    assert match, f"no next field on {address}"
    return html.unescape(match.group(1))


@pytest.fixture
def visitor(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path)), base_url="http://127.0.0.1") as client:
        yield client


def test_a_mute_with_a_query_in_its_way_back_keeps_the_whole_query(visitor: TestClient) -> None:
    back = "/tables/3?tab=chat&x=1"
    form = {"csrf_token": _csrf(visitor, "/signin"), "name": "bob", "action": "mute", "next": back}
    answer = visitor.post("/mutes", data=form, follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/signin?next=/tables/3%3Ftab%3Dchat%26x%3D1"
    assert _next_on(visitor, answer.headers["location"]) == back
    signup = {"csrf_token": _csrf(visitor, "/signup"), "name": "carol", "password": PASSWORD,
              "password2": PASSWORD, "next": back}
    assert visitor.post("/signup", data=signup, follow_redirects=False).headers["location"] == back


def test_a_report_of_an_escaped_name_comes_back_to_that_name(visitor: TestClient) -> None:
    form = {"csrf_token": _csrf(visitor, "/signin"), "reason": "spam"}
    answer = visitor.post("/players/a%3Fb%26c/report", data=form, follow_redirects=False)
    assert answer.status_code == 303
    assert _next_on(visitor, answer.headers["location"]) == "/players/a%3Fb%26c"


@pytest.mark.parametrize("address", ["/account", "/tables/new", "/moderation", "/learn/haleakala/play"])
def test_plain_paths_keep_their_plain_address(visitor: TestClient, address: str) -> None:
    answer = visitor.get(address, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/signin?next={address}"
    assert _next_on(visitor, answer.headers["location"]) == address
