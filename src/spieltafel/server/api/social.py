"""JSON routes of the social side: table chat and mutes, invitations and rematches, leaderboards and
profiles (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from spieltafel.server.accounts.auth import optional_account, require_account
from spieltafel.server.accounts.service import Account
from spieltafel.server.api.schemas import ErrorOut
from spieltafel.server.errors import Conflict
from spieltafel.server.privacy import TableNumber
from spieltafel.server.services import Services, services_of

router = APIRouter()
Me = Annotated[Account, Depends(require_account)]
MaybeMe = Annotated[Account | None, Depends(optional_account)]
AccountName = Annotated[str, Path(max_length=100, description="an account's name")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChatIn(Strict):
    text: StrictStr = Field(description="plain text, 1 to 500 characters")


class ChatOut(Strict):
    id: int
    channel: Literal["players", "spectators"]
    name: str
    program: bool = Field(description="the author is a program")
    text: str
    at: str = Field(description="when it was said (ISO 8601, UTC)")


class MuteOut(Strict):
    name: str


class ProgramIn(Strict):
    program: StrictBool


class ProgramOut(Strict):
    name: str
    program: bool


class SampleOut(Strict):
    seq: int
    seat: int
    state: dict[str, Any] = Field(description="a full state drawn from your seat's information set")


class TableRef(Strict):
    id: int


class RatedOut(Strict):
    game: str
    name: str = Field(description="the account's name, or the bot level")
    kind: Literal["person", "program", "bot"]
    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma, what the boards sort by")
    games: int
    wins: int


class LeaderboardEntry(RatedOut):
    rank: int


class RatingPoint(Strict):
    table: int
    place: int
    won: bool
    mu: float
    sigma: float
    ordinal: float
    at: str


class GameRatingOut(RatedOut):
    history: list[RatingPoint]


class RecentGame(Strict):
    table: int
    game: str
    players: int
    place: int
    won: bool
    at: str
    replay: str


class CasualGame(Strict):
    table: int
    game: str
    players: int
    at: str = Field(description="when the table was made")
    replay: str


class ProfileOut(Strict):
    name: str
    kind: Literal["person", "program"]
    games_played: int = Field(description="rated games")
    games: list[GameRatingOut]
    recent: list[RecentGame] = Field(description="the latest rated games")
    casual: list[CasualGame] = Field(default_factory=list, description="the latest casual games (no rating)")


class InvitationOut(Strict):
    code: str
    url: str = Field(description="the invitation link's path: /invite/<code>")


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in (400, 413, *codes)}


def _services(request: Request) -> Services:
    return services_of(request)


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


@router.post("/api/invitations/{code}", response_model=TableRef, responses=_errors(401, 404, 422), tags=["tables"])
async def accept_invitation(
    code: Annotated[str, Path(max_length=100)], account: Me, request: Request
) -> dict[str, int]:
    return {"id": await _services(request).tables.admit(account, code)}


@router.get("/api/tables/{table_id}/invitation", response_model=InvitationOut, responses=_errors(401, 404, 409, 422),
            tags=["tables"])
async def invitation(table_id: TableNumber, account: Me, request: Request) -> dict[str, str]:
    code = await _services(request).tables.invitation(table_id, account)
    if code is None:
        raise Conflict("no-invitation", f"table {table_id} is public, or you do not sit there")
    return {"code": code, "url": f"/invite/{code}"}


@router.post("/api/tables/{table_id}/rematch", status_code=201, response_model=TableRef,
             responses={200: {"model": TableRef}, **_errors(401, 403, 404, 409, 422)}, tags=["tables"])
async def rematch(table_id: TableNumber, account: Me, request: Request, response: Response) -> dict[str, int]:
    new_id, made = await _services(request).tables.rematch(account, table_id)
    if not made:
        response.status_code = 200
    return {"id": new_id}


@router.get("/api/leaderboards/{game}", response_model=list[LeaderboardEntry], responses=_errors(404, 422),
            tags=["ratings"])
async def leaderboard(game: Annotated[str, Path(max_length=40)], request: Request) -> list[dict[str, Any]]:
    board: list[dict[str, Any]] = await _services(request).ratings.leaderboard(game)
    return board


@router.get("/api/players/{name}", response_model=ProfileOut, responses=_errors(404, 422), tags=["ratings"])
async def profile(name: AccountName, account: MaybeMe, request: Request) -> dict[str, Any]:
    found: dict[str, Any] = await _services(request).ratings.profile(name, account)
    return found


@router.put("/api/account/program", response_model=ProgramOut, responses=_errors(401, 422), tags=["accounts"])
async def mark_program(body: ProgramIn, account: Me, request: Request) -> dict[str, Any]:
    await _services(request).accounts.mark_program(account, body.program)
    return {"name": account.name, "program": body.program}


@router.get("/api/tables/{table_id}/sample", response_model=SampleOut, responses=_errors(401, 403, 404, 409, 422),
            tags=["play"])
async def sample(table_id: TableNumber, account: Me, request: Request) -> dict[str, Any]:
    """For search bots playing through the API: one determinisation for your seat (what you cannot see
    drawn at random; it depends only on your seat's view)."""
    drawn: dict[str, Any] = await _services(request).tables.sample_for(account, table_id)
    return drawn
