"""The post-game analysis page (issue 27): ``GET /tables/{id}/analysis`` (behind the table gate). A finished
game's analysis is started when first asked for (it runs in the bot workers, ``server/analysis``); while it
runs the page shows its progress and reloads itself; once done, a win-chance chart per analysed seat (inline
SVG) and the marked moves, with the replay beside them: ``?step=N&as=SEAT`` shows the position before
move ``N + 1`` as that seat saw it (default: the decision that lost the most). Every chart point and
marked move links there (a plain link; ``static/analysis.js`` swaps only the replay in, without a reload)."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from spieltafel.analysis import Decision, GameAnalysis
from spieltafel.server.numbers import parse_int, parse_optional_int
from spieltafel.server.privacy import TableNumber
from spieltafel.server.services import Analyses
from spieltafel.server.web.replay import MAX_STEP, table_position
from spieltafel.server.web.seat_labels import seat_labels
from spieltafel.server.web.templating import gettext_of, render

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


def focus(analysis: GameAnalysis) -> Decision | None:
    """The decision the replay shows first: the one that lost the most win chance (the first of them)."""
    searched = [d for d in analysis.decisions if not d.forced]
    return max(searched, key=lambda d: d.loss, default=None)


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
        "position": None,
    }
    if analysis is not None:
        context |= await replay_beside(request, table_id, analyses, analysis)
    return render(request, "analysis.html", context)


async def replay_beside(
    request: Request, table_id: int, analyses: Analyses, analysis: GameAnalysis
) -> dict[str, object]:
    """The replay shown beside the chart: ``step`` and ``as`` from the address (refused with a 422 page
    when they are not numbers in range), else the decision that lost the most, as its seat saw it."""
    first = focus(analysis)
    default_seat = first.seat if first else (analysis.analysed_seats or [0])[0]
    step = parse_optional_int(request.query_params.get("step"), "step", 0, MAX_STEP, first.number - 1 if first else 0)
    raw_seat = request.query_params.get("as")
    seat = default_seat if raw_seat is None else parse_int(raw_seat, "as", 0, analysis.players - 1)
    record = await analyses.tables.record(table_id)
    position = await table_position(request, table_id, record, step, seat)
    decision = next((d for d in analysis.decisions if d.number == position.step + 1), None)
    names = seat_labels(analysis.game, analysis.seats, gettext_of(request))
    numbers = [d.number - 1 for d in analysis.decisions if d.seat == seat and not d.forced]
    before = [n for n in numbers if n < position.step]
    after = [n for n in numbers if n > position.step]
    return {
        "position": position,
        "seat": seat,
        "seat_names": names,
        "decision": decision,
        "next_move": position.moves[position.step] if position.step < position.steps else None,
        "next_seat": record.actions[position.step].seat if position.step < position.steps else None,
        "previous_step": before[-1] if before else None,
        "next_step": after[0] if after else None,
    }
