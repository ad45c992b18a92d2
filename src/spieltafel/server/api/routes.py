"""The JSON API routes (documented in docs/protocol.md and in the OpenAPI schema at /openapi.json)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response

from spieltafel.core import GameRecord, all_games
from spieltafel.server.accounts.auth import (
    SESSION_COOKIE,
    address_of,
    clear_session_cookie,
    optional_account,
    rate_limits,
    require_account,
    sign_in_checked,
    start_session,
)
from spieltafel.server.accounts.service import Account
from spieltafel.server.api.schemas import (
    AccountOut,
    Credentials,
    EmailIn,
    EmailOut,
    ErrorOut,
    Health,
    Join,
    Leave,
    Move,
    NewAccount,
    NewTable,
    PasswordChange,
    SeatOut,
    SeqOut,
    SessionOut,
    StateOut,
    TableId,
    TableListed,
    TableOut,
    TableWaiting,
    TokenListed,
    TokenOut,
    Undo,
)
from spieltafel.server.privacy import TableNumber
from spieltafel.server.services import Services, services_of

router = APIRouter()
Me = Annotated[Account, Depends(require_account)]
MaybeMe = Annotated[Account | None, Depends(optional_account)]
TokenNumber = Annotated[int, Path(ge=1, le=2**31 - 1, description="the token's id")]


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in (400, 413, *codes)}


LIMITED = 429


def _services(request: Request) -> Services:
    return services_of(request)


@router.get("/healthz", response_model=Health, responses={503: {"model": Health}}, tags=["server"])
async def healthz(request: Request, response: Response) -> dict[str, Any]:
    """The database and pub/sub in use; 503 with ``status: unavailable`` when either does not answer."""
    services = _services(request)
    reachable = await services.site.healthy()
    if not all(reachable.values()):
        response.status_code = 503
    return {
        "status": "ok" if all(reachable.values()) else "unavailable",
        "database": services.db.kind, "pubsub": services.hub.kind,
        "unreachable": sorted(part for part, up in reachable.items() if not up),
    }


@router.post(
    "/api/accounts", status_code=201, response_model=AccountOut, responses=_errors(409, 422, LIMITED), tags=["accounts"]
)
async def create_account(body: NewAccount, request: Request) -> dict[str, str]:
    await rate_limits(request).hit("accounts", address_of(request), "new accounts from your address")
    account = await _services(request).accounts.create(body.name, body.password, body.program)
    return {"name": account.name}


@router.post("/api/session", response_model=SessionOut, responses=_errors(401, 422, LIMITED), tags=["accounts"])
async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, str]:
    account = await sign_in_checked(request, body.name, body.password)
    await start_session(request, response, account)
    return {"name": account.name}


@router.get("/api/session", response_model=SessionOut, responses=_errors(401), tags=["accounts"])
async def who_am_i(account: Me) -> dict[str, str]:
    return {"name": account.name}


@router.delete("/api/session", status_code=204, tags=["accounts"])
async def sign_out(request: Request, response: Response) -> None:
    session_id = request.cookies.get(SESSION_COOKIE)
    if session_id:
        await _services(request).accounts.close_session(session_id)
    clear_session_cookie(response)


@router.put("/api/password", status_code=204, responses=_errors(401, 403, 422), tags=["accounts"])
async def change_password(body: PasswordChange, account: Me, request: Request, response: Response) -> None:
    """Every session and every personal token of the account ends (also the token of this request, and
    their open sockets close with 4401); a caller signed in by cookie gets a new session."""
    await _services(request).accounts.change_password(account, body.current, body.new)
    if request.cookies.get(SESSION_COOKIE) and "authorization" not in request.headers:
        await start_session(request, response, account)


@router.post("/api/tokens", status_code=201, response_model=TokenOut, responses=_errors(401), tags=["accounts"])
async def create_token(account: Me, request: Request) -> dict[str, str]:
    return {"token": await _services(request).accounts.create_token(account)}


@router.get("/api/tokens", response_model=list[TokenListed], responses=_errors(401), tags=["accounts"])
async def list_tokens(account: Me, request: Request) -> list[dict[str, Any]]:
    """The account's tokens: ids and creation times only (a token is shown once, when made)."""
    tokens = await _services(request).accounts.tokens(account)
    return [{"id": token.id, "created_at": token.created_at} for token in tokens]


@router.delete("/api/tokens/{token_id}", status_code=204, responses=_errors(401, 404, 422), tags=["accounts"])
async def revoke_token(token_id: TokenNumber, account: Me, request: Request) -> None:
    await _services(request).accounts.revoke_token(account, token_id)


@router.get("/api/games", tags=["games"])
async def games() -> list[dict[str, Any]]:
    return [game.describe() for game in all_games()]


@router.post(
    "/api/tables", status_code=201, response_model=TableId, responses=_errors(401, 422, LIMITED), tags=["tables"]
)
async def create_table(body: NewTable, account: Me, request: Request) -> dict[str, int]:
    await rate_limits(request).hit("tables", str(account.id), "new tables")
    seats = [seat.model_dump() for seat in body.seats]
    table_id = await _services(request).tables.create(
        account, body.game, body.players, body.options, seats, private=body.private,
        clock=body.clock.model_dump() if body.clock else None, leaver=body.leaver.model_dump() if body.leaver else None,
        rated=body.rated,
    )
    return {"id": table_id}


@router.get("/api/account/email", response_model=EmailOut, responses=_errors(401), tags=["accounts"])
async def get_email(account: Me, request: Request) -> dict[str, Any]:
    notifier = _services(request).notifier
    return {"email": await notifier.email_of(account), "enabled": notifier.enabled,
            "verified": await notifier.verified(account)}


@router.put("/api/account/email", response_model=EmailOut, responses=_errors(401, 422), tags=["accounts"])
async def set_email(body: EmailIn, account: Me, request: Request) -> dict[str, Any]:
    """Where to send an e-mail when a turn-based game waits for you (once per waiting game) or a password
    reset link; a new address gets a verification link and no other mail until it was clicked."""
    services = _services(request)
    stored = await services.recovery.set_email(account, body.email)
    verified = await services.notifier.verified(account)
    return {"email": stored, "enabled": services.notifier.enabled, "verified": verified}


@router.get("/api/waiting", response_model=list[TableWaiting], responses=_errors(401), tags=["tables"])
async def waiting_tables(account: Me, request: Request) -> list[dict[str, Any]]:
    """The running games where it is your turn, soonest deadline first."""
    result: list[dict[str, Any]] = await _services(request).tables.waiting(account)
    return result


@router.get("/api/tables", response_model=list[TableListed], responses=_errors(401, 422), tags=["tables"])
async def list_tables(
    request: Request,
    account: MaybeMe,
    status: Annotated[Literal["open", "playing", "over"] | None, Query()] = None,
    mine: Annotated[bool, Query(description="only tables where you sit")] = False,
) -> list[dict[str, Any]]:
    if mine and account is None:
        await require_account(request)
    result: list[dict[str, Any]] = await _services(request).tables.listing(status, account if mine else None)
    return result


@router.post("/api/tables/{table_id}/join", response_model=SeatOut, responses=_errors(401, 404, 409, 422),
             tags=["tables"])
async def join_table(table_id: TableNumber, account: Me, request: Request, body: Join | None = None) -> dict[str, int]:
    seat = await _services(request).tables.join(account, table_id, body.seat if body else None)
    return {"seat": seat}


@router.post("/api/tables/{table_id}/leave", status_code=204, responses=_errors(401, 404, 409, 422), tags=["tables"],
             description="Before the start the seat opens again; during the game the table's leaver rule takes it, "
             'for good: only with the body {"confirm": true} (else 422, code confirm-leave).')
async def leave_table(table_id: TableNumber, account: Me, request: Request, body: Leave | None = None) -> None:
    await _services(request).tables.leave(account, table_id, confirmed=bool(body and body.confirm))


@router.get("/api/tables/{table_id}", response_model=TableOut, responses=_errors(404, 422), tags=["tables"])
async def get_table(table_id: TableNumber, request: Request) -> dict[str, Any]:
    table: dict[str, Any] = await _services(request).tables.get(table_id)
    return table


@router.get("/api/tables/{table_id}/state", response_model=StateOut, responses=_errors(404, 422), tags=["play"])
async def get_state(table_id: TableNumber, account: MaybeMe, request: Request) -> dict[str, Any]:
    state: dict[str, Any] = await _services(request).tables.state_for(table_id, account)
    return state


@router.post("/api/tables/{table_id}/moves", response_model=SeqOut, responses=_errors(401, 403, 404, 409, 422, LIMITED),
             tags=["play"])
async def post_move(table_id: TableNumber, body: Move, account: Me, request: Request) -> dict[str, int]:
    await rate_limits(request).hit("moves", str(account.id), "moves")
    return {"seq": await _services(request).tables.move(account, table_id, body.seq, body.played())}


@router.post("/api/tables/{table_id}/undo", response_model=SeqOut, responses=_errors(401, 403, 404, 409, 422, LIMITED),
             tags=["play"])
async def post_undo(table_id: TableNumber, body: Undo, account: Me, request: Request) -> dict[str, int]:
    """Take back the caller's latest move within its turn (``undo`` in the state says how many may be)."""
    await rate_limits(request).hit("moves", str(account.id), "moves")
    asked: str | list[int | str] = "undo" if body.steps == 1 else ["undo"] * body.steps
    return {"seq": await _services(request).tables.move(account, table_id, body.seq, asked)}


@router.get("/api/tables/{table_id}/record", response_model=GameRecord, responses=_errors(404, 409, 422),
            tags=["play"])
async def get_record(table_id: TableNumber, request: Request) -> GameRecord:
    record: GameRecord = await _services(request).tables.record(table_id)
    return record
