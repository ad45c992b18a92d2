"""The post-game analysis through the JSON API (issue 27; docs/protocol.md):

- ``GET /api/tables/{id}/analysis``: where the finished table's analysis stands (``none``, ``running``
  with ``done`` of ``total`` decisions, or ``done`` with the analysis); it starts nothing.
- ``POST /api/tables/{id}/analysis``: start it (signed in; 409 ``not-over`` before the game's end); a
  kept or running analysis is not started again. Both go through the table gate."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from spieltafel.server.accounts.auth import require_account
from spieltafel.server.accounts.service import Account
from spieltafel.server.analysis.service import AnalysisStatus
from spieltafel.server.api.schemas import ErrorOut
from spieltafel.server.privacy import TableNumber
from spieltafel.server.services import Analyses

router = APIRouter()
Me = Annotated[Account, Depends(require_account)]


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in (400, *codes)}


@router.get("/api/tables/{table_id}/analysis", response_model=AnalysisStatus, responses=_errors(404, 422),
            tags=["play"])
async def get_analysis(table_id: TableNumber, analyses: Analyses) -> AnalysisStatus:
    return await analyses.read(table_id)


@router.post("/api/tables/{table_id}/analysis", response_model=AnalysisStatus,
             responses=_errors(401, 404, 409, 422), tags=["play"])
async def start_analysis(table_id: TableNumber, account: Me, analyses: Analyses) -> AnalysisStatus:
    """The table gate first (a private table is missing for a stranger, signed in or not), then the sign-in."""
    return await analyses.start(table_id)
