"""The API of password reset and e-mail verification (``recovery``; docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field, StrictStr

from spieltafel.server.accounts.auth import address_of, rate_limits
from spieltafel.server.accounts.recovery import Recovery
from spieltafel.server.api.schemas import ErrorOut, Strict, Text
from spieltafel.server.services import services_of

router = APIRouter()

Link = Annotated[StrictStr, Field(max_length=200, description="the `link` parameter of the mailed address")]
RESET_ASKED = ("if this name or address belongs to an account with a verified e-mail address, a link to reset "
               "its password was sent there; it is valid for one hour")


class ResetAsked(Strict):
    who: Annotated[StrictStr, Field(min_length=1, max_length=254)] = Field(
        description="the account's name or its (verified) e-mail address"
    )


class ResetAnswer(Strict):
    message: str = Field(description="the same answer whether or not the name or address exists")


class ResetDone(Strict):
    link: Link
    password: Text = Field(description="the new password: at least 8 characters, not common, not the name")


class VerifyIn(Strict):
    link: Link


class VerifyOut(Strict):
    email: str = Field(description="the address now verified")


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in (400, 413, *codes)}


def recovery_of(request: Request) -> Recovery:
    return services_of(request).recovery


async def ask_for_reset(request: Request, who: str) -> None:
    """Count the request against the limits (per client address, per name or address asked about), then
    ask for the mail. Raises RateLimited (429) the same way whether or not ``who`` exists."""
    limits = rate_limits(request)
    await limits.hit("reset_address", address_of(request), "password reset requests from your address")
    await limits.hit("reset_target", who.strip().casefold()[:254], "password reset requests for this account")
    await recovery_of(request).request_reset(who)


@router.post("/api/password/reset", status_code=202, response_model=ResetAnswer, responses=_errors(422, 429),
             tags=["accounts"])
async def request_reset(body: ResetAsked, request: Request) -> dict[str, str]:
    """Mail a password reset link to the account's verified address; the same answer for any name."""
    await ask_for_reset(request, body.who)
    return {"message": RESET_ASKED}


@router.post("/api/password/reset/confirm", status_code=204, responses=_errors(422), tags=["accounts"])
async def confirm_reset(body: ResetDone, request: Request) -> None:
    """Set the new password: the link is used up; every session, personal token and socket of the account ends."""
    await recovery_of(request).reset(body.link, body.password)


@router.post("/api/account/email/verify", response_model=VerifyOut, responses=_errors(422), tags=["accounts"])
async def verify_email(body: VerifyIn, request: Request) -> dict[str, str]:
    """Confirm an address with the link mailed to it (no sign-in needed: the link proves the mailbox)."""
    return {"email": await recovery_of(request).verify(body.link)}
