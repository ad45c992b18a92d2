"""The API of quick play ("Play now", ``tables.quickplay``; docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import Field, StrictBool, StrictInt

from spieltafel.server.accounts.auth import require_account
from spieltafel.server.accounts.service import Account
from spieltafel.server.api.schemas import ErrorOut, Name, Strict
from spieltafel.server.services import services_of
from spieltafel.server.tables.quickplay import QuickPlay

router = APIRouter()
Me = Annotated[Account, Depends(require_account)]


class Bots(Strict):
    level: Name = Field(description="the bots' level (random, easy, medium, hard…)")
    after: StrictInt = Field(description="seconds of waiting after which bots take the seats left (0 to 600)")


class QuickAsk(Strict):
    game: Name
    players: StrictInt | None = Field(default=None, description="the player count; null: any")
    pace: Literal["live", "turn"] = "live"
    rated: StrictBool = True
    bots: Bots | None = Field(default=None, description="fill the seats left with bots after a wait; null: people only")


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in (400, 413, *codes)}


def quickplay_of(request: Request) -> QuickPlay:
    return services_of(request).quickplay


@router.post("/api/quickplay", responses=_errors(401, 409, 422), tags=["tables"])
async def ask(body: QuickAsk, account: Me, request: Request) -> dict[str, Any]:
    """Wait for a table of ``game`` with people who want the same (a request of yours is replaced);
    answers the state of the request: ``waiting`` or ``seated`` with the ``table_id``."""
    bot, after = (body.bots.level, body.bots.after) if body.bots else (None, None)
    return await quickplay_of(request).ask(account, body.game, body.players, body.pace, body.rated, bot, after)


@router.get("/api/quickplay", responses=_errors(401, 404), tags=["tables"])
async def status(account: Me, request: Request) -> dict[str, Any]:
    """Your request: ``seated`` with the ``table_id``, or ``waiting`` with the seconds waited, the rating
    window now and who waits for the same (name, player count asked, seconds waited)."""
    return await quickplay_of(request).status(account)


@router.delete("/api/quickplay", status_code=204, responses=_errors(401, 404, 409), tags=["tables"])
async def cancel(account: Me, request: Request) -> Response:
    """Stop waiting (409 ``seated`` when the matcher seated you a moment ago)."""
    await quickplay_of(request).cancel(account)
    return Response(status_code=204)
