"""JSON routes of the social side: table chat and mutes (docs/protocol.md, "Chat")."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from .accounts import Account
from .auth import optional_account, require_account
from .schemas import ErrorOut

router = APIRouter()
Me = Annotated[Account, Depends(require_account)]
MaybeMe = Annotated[Account | None, Depends(optional_account)]
TableNumber = Annotated[int, Path(ge=1, le=2**31 - 1, description="the table's id")]
AccountName = Annotated[str, Path(max_length=100, description="an account's name")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChatIn(Strict):
    text: StrictStr = Field(description="plain text, 1 to 500 characters")


class ChatOut(Strict):
    id: int
    channel: Literal["players", "spectators"]
    name: str
    text: str
    at: str = Field(description="when it was said (ISO 8601, UTC)")


class MuteOut(Strict):
    name: str


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in (400, 413, *codes)}


def _services(request: Request) -> Any:
    return request.app.state.services


@router.get("/api/tables/{table_id}/chat", response_model=list[ChatOut], responses=_errors(404, 422), tags=["chat"])
async def read_chat(table_id: TableNumber, account: MaybeMe, request: Request) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = await _services(request).chat.history(table_id, account)
    return messages


@router.post("/api/tables/{table_id}/chat", status_code=201, response_model=ChatOut,
             responses=_errors(401, 404, 422, 429), tags=["chat"])
async def say(table_id: TableNumber, body: ChatIn, account: Me, request: Request) -> dict[str, Any]:
    message: dict[str, Any] = await _services(request).chat.say(account, table_id, body.text)
    return message


@router.get("/api/mutes", response_model=list[MuteOut], responses=_errors(401), tags=["chat"])
async def list_mutes(account: Me, request: Request) -> list[dict[str, str]]:
    return [{"name": name} for name in await _services(request).chat.mutes(account)]


@router.put("/api/mutes/{name}", status_code=204, responses=_errors(401, 404, 422), tags=["chat"])
async def mute(name: AccountName, account: Me, request: Request) -> None:
    await _services(request).chat.mute(account, name, True)


@router.delete("/api/mutes/{name}", status_code=204, responses=_errors(401, 404, 422), tags=["chat"])
async def unmute(name: AccountName, account: Me, request: Request) -> None:
    await _services(request).chat.mute(account, name, False)
