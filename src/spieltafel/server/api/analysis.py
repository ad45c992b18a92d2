"""The post-game analysis and hints through the JSON API (issue 27; docs/protocol.md):

- ``GET /api/tables/{id}/analysis``: where the finished table's analysis stands (``none``, ``running``
  with ``done`` of ``total`` decisions, or ``done`` with the analysis); it starts nothing.
- ``POST /api/tables/{id}/analysis``: start it (signed in; 409 ``not-over`` before the game's end; 503
  ``analysis-unavailable`` when no process is there to compute it); a kept or running analysis is not
  started again. Both go through the table gate.
- ``POST /api/tables/{id}/hint``: the search's best moves for the caller's seat now (signed in as the
  seat's person; casual games and games against bots only: ``analysis.hints``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field, StrictBool, StrictInt

from spieltafel.server.accounts.auth import rate_limits, require_account
from spieltafel.server.accounts.service import Account
from spieltafel.server.analysis.service import AnalysisStatus
from spieltafel.server.api.schemas import ErrorOut, Strict
from spieltafel.server.privacy import TableNumber
from spieltafel.server.services import Analyses, Hints

router = APIRouter()
Me = Annotated[Account, Depends(require_account)]


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in (400, *codes)}


@router.get("/api/tables/{table_id}/analysis", response_model=AnalysisStatus, responses=_errors(404, 422),
            tags=["play"])
async def get_analysis(table_id: TableNumber, analyses: Analyses) -> AnalysisStatus:
    return await analyses.read(table_id)


@router.post("/api/tables/{table_id}/analysis", response_model=AnalysisStatus,
             responses=_errors(401, 404, 409, 422, 503), tags=["play"])
async def start_analysis(table_id: TableNumber, account: Me, analyses: Analyses) -> AnalysisStatus:
    """The table gate first (a private table is missing for a stranger, signed in or not), then the sign-in."""
    return await analyses.start(table_id)


class HintAsk(Strict):
    seq: StrictInt | None = Field(
        default=None, ge=0, description="the seq of the state you saw (a hint for an older position is refused)"
    )
    unrated_ok: StrictBool = Field(
        default=False, description="a rated game's first hint makes it unrated: true accepts that (else 409)"
    )


class HintMoveOut(Strict):
    action: int = Field(description="the move's action id (as the 'action' of an entry of the state's 'legal')")
    notation: str
    chance: float | None = Field(description="estimated chance (0-100) to finish first after it; null: forced")
    visits: int


class HintOut(Strict):
    table_id: int
    seq: int = Field(description="the position the hint is for")
    seat: int
    moves: list[HintMoveOut] = Field(description="the search's best moves, best first (at most 3)")
    iterations: int = Field(description="the search's iterations (0: the only legal move)")
    hints: int = Field(description="hints your seat has got in this game, this one included")


@router.post("/api/tables/{table_id}/hint", response_model=HintOut,
             responses=_errors(401, 403, 404, 409, 422, 429, 503), tags=["play"])
async def ask_hint(
    table_id: TableNumber, account: Me, hints: Hints, request: Request, body: HintAsk | None = None
) -> dict[str, Any]:
    """A hint for the caller's seat: its turn, at a casual table or a game against bots (docs/play.md)."""
    await rate_limits(request).hit("hints", str(account.id), "hints")
    return await hints.ask(account, table_id, body.seq if body else None, bool(body and body.unrated_ok))
