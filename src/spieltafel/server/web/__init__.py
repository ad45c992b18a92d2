"""The browser pages of the online platform (issue 11): Jinja2 pages, static files, languages.

`install(app)` is called by `spieltafel.server.app.create_app` at its end; it mounts the static files,
the pages, the security headers and the state decorator that adds the SVG board to WebSocket states.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI


def install(app: FastAPI) -> None:
    """Add the web pages to the app (filled in step by step)."""
    return None
