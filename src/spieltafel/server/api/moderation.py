"""The moderation API (issue 30, docs/protocol.md): a player's report, and for moderators and admins the
reports, hiding a chat line, muting or banning an account, and the audit log (``social.moderation``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from spieltafel.server.accounts.auth import require_account
from spieltafel.server.accounts.service import Account
from spieltafel.server.api.schemas import ErrorOut
from spieltafel.server.errors import Forbidden
from spieltafel.server.services import services_of
from spieltafel.server.social.moderation import MAX_MUTE_MINUTES, MAX_REASON, ModerationService

# --- the routes ---------------------------------------------------------------------------------------


router = APIRouter()
Me = Annotated[Account, Depends(require_account)]
AccountName = Annotated[str, Path(max_length=100, description="an account's name")]


def service(request: Request) -> ModerationService:
    return services_of(request).moderation


async def require_moderator(request: Request, account: Me) -> Account:
    """FastAPI dependency: a signed-in moderator or admin (403 otherwise)."""
    if await service(request).role_of(account.id) not in ("moderator", "admin"):
        raise Forbidden("not-moderator", "only moderators and admins may do this")
    return account


async def require_admin(request: Request, account: Me) -> Account:
    """FastAPI dependency: a signed-in admin (403 otherwise)."""
    if await service(request).role_of(account.id) != "admin":
        raise Forbidden("not-admin", "only admins may read this")
    return account


_ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 413, 422)}
"""Every refusal a moderation route may give (documented for the API's schema)."""
Moderator = Annotated[Account, Depends(require_moderator)]
Admin = Annotated[Account, Depends(require_admin)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReportIn(Strict):
    name: StrictStr = Field(max_length=100, description="the account reported")
    chat_id: StrictInt | None = Field(default=None, ge=1, le=2**62, description="one of its chat lines, if any")
    reason: StrictStr = Field(max_length=MAX_REASON, description="why, 1 to 500 characters")


class ReportCreated(Strict):
    id: int


class MuteIn(Strict):
    minutes: StrictInt = Field(ge=0, le=MAX_MUTE_MINUTES, description="how long; 0 lifts the mute")


class MuteOut(Strict):
    until: str | None = Field(description="until when (ISO 8601, UTC); null: not muted")


class BanIn(Strict):
    reason: StrictStr = Field(max_length=MAX_REASON, description="why, 1 to 500 characters (in the audit log)")


@router.post("/api/reports", status_code=201, response_model=ReportCreated, responses=_ERRORS, tags=["moderation"])
async def report(request: Request, me: Me, body: ReportIn) -> dict[str, int]:
    """Report an account, or one of its chat lines, to the moderators."""
    return {"id": await service(request).report(me, body.name, body.chat_id, body.reason)}


@router.get("/api/moderation/reports", responses=_ERRORS, tags=["moderation"])
async def reports(request: Request, _me: Moderator) -> list[dict[str, Any]]:
    return await service(request).reports()


@router.post("/api/moderation/chat/{chat_id}/hide", status_code=204, responses=_ERRORS, tags=["moderation"])
async def hide(request: Request, me: Moderator,
               chat_id: Annotated[int, Path(ge=1, le=2**62)]) -> Response:
    await service(request).hide(me, chat_id)
    return Response(status_code=204)


@router.post("/api/moderation/accounts/{name}/mute", response_model=MuteOut, responses=_ERRORS, tags=["moderation"])
async def mute(request: Request, me: Moderator, name: AccountName, body: MuteIn) -> dict[str, str | None]:
    until = await service(request).mute(me, name, body.minutes)
    return {"until": until.isoformat() if until else None}


@router.post("/api/moderation/accounts/{name}/ban", status_code=204, responses=_ERRORS, tags=["moderation"])
async def ban(request: Request, me: Moderator, name: AccountName, body: BanIn) -> Response:
    await service(request).ban(me, name, body.reason)
    return Response(status_code=204)


@router.get("/api/moderation/audit", responses=_ERRORS, tags=["moderation"])
async def audit(request: Request, _me: Admin) -> list[dict[str, Any]]:
    return await service(request).audit()
