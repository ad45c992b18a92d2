"""The post-game analysis page (issue 27): ``GET /tables/{id}/analysis`` (behind the table gate). A finished
game's analysis is started when first asked for (it runs in the bot workers, ``server/analysis``); while it
runs the page shows its progress and reloads itself; once done, a win-chance chart per analysed seat (inline
SVG, no script) whose points link to the replay at that decision, and the marked moves."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from spieltafel.analysis import Decision, GameAnalysis
from spieltafel.server.privacy import TableNumber
from spieltafel.server.services import Analyses
from spieltafel.server.web.templating import render

router = APIRouter(include_in_schema=False)

WIDTH, HEIGHT, PAD = 640, 200, 24
"""The chart's drawing area (SVG user units) and its margin."""


@dataclass(frozen=True, slots=True)
class Point:
    x: float
    y: float
    decision: Decision
    step: int
    """The replay's step showing the position of the decision (before the move)."""


@dataclass(frozen=True, slots=True)
class Chart:
    seat: int
    name: str
    points: list[Point]
    line: str
    """The polyline's points attribute."""


def charts(analysis: GameAnalysis, actions: int) -> list[Chart]:
    """One chart per analysed seat: the win chance after each searched move played, over the game."""
    found = []
    span = max(actions, 1)
    for seat in analysis.analysed_seats:
        points = [
            Point(
                x=round(PAD + (WIDTH - 2 * PAD) * (d.number - 1) / span, 1),
                y=round(HEIGHT - PAD - (HEIGHT - 2 * PAD) * (d.played_chance or 0) / 100, 1),
                decision=d,
                step=d.number - 1,
            )
            for d in analysis.decisions
            if d.seat == seat and not d.forced
        ]
        line = " ".join(f"{p.x},{p.y}" for p in points)
        found.append(Chart(seat, analysis.seats[seat], points, line))
    return found


@router.get("/tables/{table_id}/analysis", response_class=HTMLResponse)
async def analysis_page(request: Request, table_id: TableNumber, analyses: Analyses) -> Response:
    status = await analyses.read(table_id)
    if status.status == "none":
        status = await analyses.start(table_id)  # before the end: the refusal page says the game is not over
    analysis = status.analysis
    actions = max((d.number for d in analysis.decisions), default=0) if analysis else 0
    context = {
        "table_id": table_id,
        "status": status,
        "charts": charts(analysis, actions) if analysis else [],
        "marked": [d for d in analysis.decisions if d.mark] if analysis else [],
        "width": WIDTH,
        "height": HEIGHT,
        "pad": PAD,
    }
    return render(request, "analysis.html", context)
