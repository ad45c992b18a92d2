"""The API of exporting one's data and deleting one's account (``leaving``; docs/protocol.md)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import Field

from spieltafel.server.accounts.auth import SESSION_COOKIE, clear_session_cookie, require_account
from spieltafel.server.accounts.leaving import AccountData
from spieltafel.server.accounts.service import Account
from spieltafel.server.api.schemas import ErrorOut, Strict, Text
from spieltafel.server.services import services_of

router = APIRouter()
Me = Annotated[Account, Depends(require_account)]


class Deletion(Strict):
    password: Text = Field(description="the account's password, to be sure it is its owner")


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in (400, 413, *codes)}


def account_data_of(request: Request) -> AccountData:
    return services_of(request).account_data


def export_response(name: str, data: dict[str, Any]) -> Response:
    """The export as a JSON file to download (``spieltafel-<name>.json``)."""
    body = json.dumps(data, ensure_ascii=False, indent=1).encode()
    headers = {"Content-Disposition": f'attachment; filename="spieltafel-{name}.json"', "Cache-Control": "no-store"}
    return Response(body, media_type="application/json", headers=headers)


@router.get("/api/account/export", responses=_errors(401), tags=["accounts"])
async def export_data(account: Me, request: Request) -> Response:
    """Everything the site keeps about you: the account, tokens (numbers), mutes, games (finished ones
    with their records), ratings with their history, chat lines."""
    return export_response(account.name, await account_data_of(request).export(account))


@router.delete("/api/account", status_code=204, responses=_errors(401, 403, 422), tags=["accounts"])
async def delete_account(body: Deletion, account: Me, request: Request) -> Response:
    """Delete the account: running games follow their leaver rule, finished ones show 'deleted player'."""
    await account_data_of(request).delete(account, body.password)
    response = Response(status_code=204)
    if request.cookies.get(SESSION_COOKIE):
        clear_session_cookie(response)
    return response
