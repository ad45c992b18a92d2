"""Issue 23, no third-party scripts: no page loads a script (or a style sheet) from another site. FastAPI's
``/docs`` and ``/redoc`` loaded Swagger UI and ReDoc from a CDN without integrity hashes; they are off now
(``/openapi.json`` stays). Every page route that answers a GET without parameters is fetched, as a visitor
and signed in."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import iter_route_contexts

from ..helpers import PASSWORD, person

pytestmark = pytest.mark.anyio

SCRIPT_SRC = re.compile(r"<script\b[^>]*?\bsrc\s*=\s*[\"']?([^\"'\s>]+)", re.I)
STYLE_HREF = re.compile(r"<link\b[^>]*?\bhref\s*=\s*[\"']?([^\"'\s>]+)", re.I)
NOT_PAGES = ("/api/", "/ws/", "/static")


def page_routes(app: FastAPI) -> list[str]:
    """Every path of a route answering GET that needs no parameter (no ``{…}`` in the path)."""
    found = []
    for route in iter_route_contexts(app.routes):
        path, methods = route.path or "", route.methods or ()
        if "GET" in methods and "{" not in path and not path.startswith(NOT_PAGES):
            found.append(path)
    return sorted(found)


def off_site(url: str) -> bool:
    return url.startswith("//") or bool(re.match(r"[a-z][a-z0-9+.-]*:", url, re.I))


async def test_no_page_loads_a_script_from_another_site(app: FastAPI, client: httpx.AsyncClient) -> None:
    paths = page_routes(app)
    assert {"/", "/signin", "/replay/upload", "/openapi.json"} <= set(paths)
    who = await person(client)
    checked = 0
    for signed_in in (False, True):
        if signed_in:
            assert (await client.post("/api/session", json={"name": who.name, "password": PASSWORD})).is_success
        for path in paths:
            answer = await client.get(path, follow_redirects=True)
            assert answer.status_code < 500, (path, answer.status_code)
            assert "script-src 'self'" in answer.headers["content-security-policy"], path
            scripts = SCRIPT_SRC.findall(answer.text)
            styles = STYLE_HREF.findall(answer.text)
            assert not [url for url in scripts + styles if off_site(url)], (path, scripts, styles)
            checked += 1
    assert checked == 2 * len(paths)


async def test_the_api_docs_pages_are_off_and_the_schema_stays(client: httpx.AsyncClient) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert (await client.get(path)).status_code == 404, path
    schema = await client.get("/openapi.json")
    assert schema.status_code == 200 and schema.json()["info"]["title"] == "Spieltafel"
