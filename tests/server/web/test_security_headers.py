"""Issue 23, security headers: every answer carries the Content-Security-Policy, ``nosniff``, the frame
options and the referrer policy, refusals and unexpected failures included. A failure is a clean 500 (a
page in the reader's language, or the API's JSON error) without a traceback; before, Starlette's own
``Internal Server Error`` went out without any of the headers."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from ..helpers import person

pytestmark = pytest.mark.anyio

SECRET = "boom-4711 the database password is hunter2"


def assert_secured(answer: httpx.Response) -> None:
    headers = answer.headers
    assert "default-src 'self'" in headers.get("content-security-policy", ""), (answer.status_code, headers)
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("x-frame-options") == "DENY"
    assert headers.get("referrer-policy") == "same-origin"


@pytest.fixture
async def failing(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """A client of ``app`` with a page and an API route that fail; errors reach the client as answers."""

    async def fail() -> None:
        raise RuntimeError(SECRET)

    app.add_api_route("/api/test-failure", fail)
    app.add_api_route("/test-failure", fail)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield http


async def test_every_answer_carries_the_security_headers_a_failure_too(failing: httpx.AsyncClient) -> None:
    api = await failing.get("/api/test-failure")
    assert api.status_code == 500
    assert_secured(api)
    assert api.json() == {"detail": {"code": "server-error",
                                     "message": "the server failed to answer this request; please try again"}}
    for lang, words in (("en", "Server error"), ("de", "Serverfehler"), ("nl", "Serverfout")):
        page = await failing.get("/test-failure", headers={"Accept-Language": lang})
        assert page.status_code == 500
        assert_secured(page)
        assert page.headers["content-type"].startswith("text/html") and words in page.text
        assert page.headers["cache-control"] == "no-store"
        for answer in (api, page):
            assert SECRET not in answer.text and "Traceback" not in answer.text and "RuntimeError" not in answer.text
    await _refusals_carry_the_security_headers(failing)


async def _refusals_carry_the_security_headers(client: httpx.AsyncClient) -> None:
    who = await person(client)
    answers = [
        await client.get("/api/tables/999999"),  # 404 of the service
        await client.get("/api/no-such-route"),  # 404 of Starlette
        await client.get("/no-such-page"),  # 404 page
        await client.post("/api/tables", json={"game": "nope"}, headers=who.headers),  # 422
        await client.post("/api/tables", content=b"x" * 20000, headers=who.headers),  # 413
        await client.post("/api/tables", json={}),  # 401
        await client.post("/signin", data={"name": "x"}),  # 403: no CSRF token
        await client.get("/tables/1/history?step=%C2%B2"),  # 404 or 422
    ]
    assert [a.status_code for a in answers][:7] == [404, 404, 404, 422, 413, 401, 403]
    for answer in answers:
        assert_secured(answer)
