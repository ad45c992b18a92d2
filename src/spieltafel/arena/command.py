"""The ``spieltafel arena`` command (registered in ``cli.py`` with ``app.command("arena")(arena_command)``).

Only typer, rich and the core are imported at module level, so the CLI starts fast and works without
the arena's optional libraries; openskill and matplotlib are imported when the command runs.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from spieltafel import console
from spieltafel.console import parse_options, progress_bar, user_errors
from spieltafel.core import SpieltafelError, get_game
from spieltafel.extras import needs

from .tournament import check_tournament, run_tournament


def arena_command(
    game: Annotated[str, typer.Argument(help="Game name, see 'spieltafel games'.")],
    players: Annotated[int, typer.Option(help="Number of players.")],
    bots: Annotated[
        str, typer.Option(help="One bot per seat, comma-separated; names may repeat (hard,random,random).")
    ],
    games: Annotated[int, typer.Option(help="Number of games (a multiple of --players when seats rotate).")],
    seed: Annotated[int, typer.Option(help="Tournament seed: deals and bots' generators derive from it.")] = 0,
    jobs: Annotated[int, typer.Option(help="Worker processes (ignored with --ray).")] = 1,
    rotate_seats: Annotated[
        bool, typer.Option("--rotate-seats/--no-rotate-seats", help="Rotate seats so every bot plays every seat.")
    ] = True,
    out: Annotated[
        Path | None, typer.Option("--out", help="Directory for report.md, results.json and PNG plots.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print results.json's document instead of tables.")] = False,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Play the games as Ray tasks on the cluster at ADDRESS ('local': a local Ray).",
        ),
    ] = None,
    option: Annotated[list[str] | None, typer.Option(help="Game option KEY=VALUE (repeatable).")] = None,
) -> None:
    """Run a tournament between bots: win shares with confidence intervals, ratings, seat advantage, speed."""
    with user_errors():
        spec = get_game(game)
        options = spec.resolve_options(parse_options(option or []))
        if seed < 0:
            raise SpieltafelError(f"the seed must be 0 or more, not {seed}")
        names = check_tournament(spec.name, players, bots.split(","), games, jobs, rotate_seats)
        try:
            from .report import results_json, write_report
            from .stats import compute_stats
        except ImportError as error:
            raise SpieltafelError(needs("arena", "arena")) from error
        if out is not None and importlib.util.find_spec("matplotlib") is None:  # the plots, before the games
            raise SpieltafelError(needs("arena --out", "arena"))
        with progress_bar(quiet=as_json) as progress:
            task = progress.add_task(f"{spec.title}, {players} players", total=games)
            result = run_tournament(
                spec.name,
                players,
                names,
                games,
                seed=seed,
                jobs=jobs,
                rotate_seats=rotate_seats,
                ray_address=ray,
                options=options,
                progress=lambda done, _total: progress.update(task, completed=done),
            )
        stats = compute_stats(result)
        if out is not None:
            try:
                write_report(result, stats, out)
            except OSError as error:
                raise SpieltafelError(f"cannot write the report to {out}: {error}") from error
        if as_json:
            sys.stdout.write(json.dumps(results_json(result, stats), ensure_ascii=False, indent=1) + "\n")
            return
        _print_summary(results_json(result, stats), out)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _bot_table(title: str, rows: list[dict[str, Any]]) -> Table:
    table = Table(title=title)
    table.add_column("bot")
    for column in ("win share", "95% CI", "mean score", "rating μ ± 2σ", "ms/move"):
        table.add_column(column, justify="right")
    for row in rows:
        rating = row["rating"]
        table.add_row(
            row["label"],
            _pct(row["win_share"]),
            f"{_pct(row['win_low'])}–{_pct(row['win_high'])}",
            f"{row['mean_score']:.2f}",
            f"{rating['mu']:.1f} ± {2 * rating['sigma']:.1f}",
            f"{1000 * row['seconds_per_move']:.3g}",
        )
    return table


def _print_summary(data: dict[str, Any], report: Path | None) -> None:
    title = f"{data['game']}: {data['games']} games, {data['players']} players"
    console.out.print(_bot_table(title, data["entries"]))
    if len(data["names"]) < len(data["entries"]):
        console.out.print(_bot_table("entries of one name pooled", data["names"]))
    seats = " · ".join(
        f"seat {s['seat']} {_pct(s['share'])} ({_pct(s['low'])}–{_pct(s['high'])})" for s in data["seats"]
    )
    console.out.print(f"win share by seat: {seats}", highlight=False)
    length = data["game_length"]
    console.out.print(
        f"{data['seconds']:.1f} s ({data['backend']}, jobs {data['jobs']}) · mean length {length['mean']:.1f} actions"
        + (f" · report in {report}" if report is not None else ""),
        highlight=False,
    )
