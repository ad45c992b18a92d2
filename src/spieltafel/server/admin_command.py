"""``spieltafel admin``: site roles from the command line (server.moderation)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from .errors import ServiceError
from .settings import Settings

admin_app = typer.Typer(no_args_is_help=True, help="Site roles: who moderates (docs/deploy.md, Moderation).")


async def grant_role(settings: Settings, name: str, role: str) -> None:
    """Give ``name`` the role ``role`` on the site of ``settings`` (written to the audit log, no actor)."""
    from .accounts import AccountService
    from .db import Database
    from .moderation import ModerationService

    db = Database(settings.prepare().resolved_database_url())
    await db.start()
    try:
        await ModerationService(db, AccountService(db), None).grant(name, role)
    finally:
        await db.close()


@admin_app.command("grant")
def grant(
    name: Annotated[str, typer.Argument(help="the account's name")],
    role: Annotated[str, typer.Argument(help="moderator, admin, or player (takes a role back)")],
    data: Annotated[Path | None, typer.Option("--data", help="data folder [default: ./spieltafel-data]")] = None,
    database_url: Annotated[str | None, typer.Option(help="SQLAlchemy async URL instead of SQLite")] = None,
) -> None:
    """Give an account a site role: moderators and admins moderate chat and players, admins read the audit log."""
    given: dict[str, object] = {}
    if data is not None:
        given["data_dir"] = data
    if database_url is not None:
        given["database_url"] = database_url
    try:
        asyncio.run(grant_role(Settings(**given), name, role))  # type: ignore[arg-type]
    except ServiceError as error:
        typer.echo(f"spieltafel admin grant: {error.message}", err=True)
        raise typer.Exit(1) from error
    typer.echo(f"{name}: site role {role}")
