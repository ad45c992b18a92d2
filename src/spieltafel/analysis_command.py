"""The ``spieltafel analyse`` command (registered in ``cli.py`` with ``app.command("analyse")``): the
post-game analysis of :mod:`spieltafel.analysis` for a record file."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from spieltafel.analysis import DEFAULT_ITERATIONS, GameAnalysis, analyse
from spieltafel.console import literal, out, progress_bar, user_errors
from spieltafel.core import load_record_file


def analyse_command(
    record: Annotated[Path, typer.Argument(help="A finished game's record JSON file.")],
    seat: Annotated[
        list[int] | None,
        typer.Option(help="Seat to analyse (repeatable; default: every seat a person held, all if none is named)."),
    ] = None,
    iterations: Annotated[
        int, typer.Option(min=1, help="Search iterations per decision (fixed budget: reproducible).")
    ] = DEFAULT_ITERATIONS,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the searches.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
    save: Annotated[Path | None, typer.Option("--out", help="Also write the analysis as JSON to this file.")] = None,
    all_moves: Annotated[bool, typer.Option("--all", help="List every decision, not only the marked ones.")] = False,
) -> None:
    """Analyse a finished game: for each decision of the analysed seats, the ISMCTS search judges the move
    played against its best move from that seat's own information (its view, never the hidden cards), and
    marks the moves that lost more than 10 ("?") or 25 ("??") points of win chance."""
    with user_errors():
        loaded, _ = load_record_file(record)
        with progress_bar(as_json) as progress:
            task = progress.add_task(f"analysing {record.name}", total=None)

            def advance(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            result = analyse(loaded, seats=seat, iterations=iterations, seed=seed, progress=advance)
        if save is not None:
            save.write_text(result.model_dump_json(indent=1) + "\n", encoding="utf-8")
        if as_json:
            sys.stdout.write(json.dumps(result.model_dump(mode="json"), indent=1) + "\n")
            return
        print_analysis(result, all_moves)


def print_analysis(result: GameAnalysis, all_moves: bool) -> None:
    """The analysis as a table of decisions (marked ones, or all) and a summary per seat."""
    table = Table(title=f"{result.game}, {result.players} players: {result.iterations} iterations per decision")
    for column, justify in (("#", "right"), ("seat", "right"), ("played", "left"), ("win %", "right"),
                            ("best", "left"), ("win %", "right"), ("lost", "right"), ("", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for d in result.decisions:
        if d.forced or not (all_moves or d.mark):
            continue
        table.add_row(
            str(d.number), str(d.seat), literal(d.played), f"{d.played_chance:.1f}", literal(d.best),
            f"{d.best_chance:.1f}", f"{d.loss:.1f}", Text(d.mark, style="bold red"),
        )
    out.print(table)
    for s in result.summary:
        out.print(
            literal(
                f"seat {s.seat} ({s.name}): {s.decisions} decisions searched, mean loss {s.mean_loss:.1f} points, "
                f"{s.mistakes} marked ?, {s.blunders} marked ??"
            )
        )
    out.print(f"{result.seconds:.1f} s")
