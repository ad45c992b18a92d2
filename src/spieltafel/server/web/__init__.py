"""The browser pages of the online platform (issue 11): Jinja2 pages, static files, languages.

`install(app)` is called by `spieltafel.server.app.create_app` at its end: it mounts ``/static``, adds
the security middleware (headers, account and language of each page, CSRF), includes the pages and the
rules and replay routers, and registers the state decorator that adds the SVG board and the words to
WebSocket states opened with ``?board=svg&lang=<lang>``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

STATIC_DIR = Path(__file__).with_name("static")


def install(app: FastAPI) -> None:
    """Add the web pages to ``app``."""
    from fastapi.staticfiles import StaticFiles
    from starlette.exceptions import HTTPException as StarletteHTTPException

    from spieltafel.server.errors import ServiceError
    from spieltafel.server.web import (
        account,
        analysis_pages,
        board,
        error_pages,
        i18n,
        learn,
        leaving_pages,
        lobby,
        moderation_page,
        new_table,
        profiles,
        recovery_pages,
        replay,
        rules,
        sign_in,
        table_pages,
    )
    from spieltafel.server.web.security import PageMiddleware, server_error

    i18n.load_all()
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
    app.include_router(sign_in.router)
    app.include_router(lobby.router)
    app.include_router(new_table.router)  # before the table pages: /tables/new is not /tables/{table_id}
    app.include_router(table_pages.router)
    app.include_router(profiles.router)
    app.include_router(account.router)
    app.include_router(recovery_pages.router)
    app.include_router(leaving_pages.router)
    app.include_router(moderation_page.router)
    app.include_router(rules.router)
    app.include_router(learn.router)
    app.include_router(replay.router)
    app.include_router(analysis_pages.router)
    decorators = getattr(app.state, "state_decorators", None)
    if decorators is None:
        decorators = []
        app.state.state_decorators = decorators
    if board.decorate not in decorators:
        decorators.append(board.decorate)
    app.add_exception_handler(StarletteHTTPException, error_pages.not_found_page)
    app.add_exception_handler(ServiceError, error_pages.refusal_page)
    app.add_exception_handler(Exception, server_error)
    app.add_middleware(PageMiddleware, fastapi_app=app)
