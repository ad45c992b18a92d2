"""Tournament reports: ``report.md`` (Markdown tables), ``results.json`` and PNG plots (matplotlib, Agg)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .stats import ArenaStats, BotStats, SeatShare
from .tournament import TournamentResult

RESULTS_FORMAT = "spieltafel-arena/1"
PLOTS = {
    "rating": "rating.png",
    "win_share": "win_share.png",
    "seats": "win_share_by_seat.png",
    "scores": "scores.png",
}


def results_json(result: TournamentResult, stats: ArenaStats) -> dict[str, Any]:
    """The tournament's set-up, statistics and per-game outcomes, JSON-ready."""
    return {
        "format": RESULTS_FORMAT,
        "game": result.game,
        "players": result.players,
        "bots": result.bots,
        "labels": result.labels,
        "games": result.games,
        "seed": result.seed,
        "rotate_seats": result.rotate_seats,
        "options": result.options,
        "backend": result.backend,
        "jobs": result.jobs,
        "seconds": result.seconds,
        **stats.to_json(),
        "outcomes": [o.to_json() for o in result.outcomes],
    }


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interval(low: float, high: float) -> str:
    return f"{_pct(low)} – {_pct(high)}"


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.3g}"


def _table(header: list[str], rows: list[list[str]], align: str = "") -> list[str]:
    marks = [("---:" if (align[i] if i < len(align) else "r") == "r" else ":---") for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(marks) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _bot_rows(bots: list[BotStats]) -> list[list[str]]:
    return [
        [
            f"`{b.label}`",
            str(b.games),
            f"{b.wins:g}",
            _pct(b.win_share),
            _interval(b.win_low, b.win_high),
            f"{b.mean_score:.2f}",
            f"{b.score_stdev:.2f}",
            f"{b.rating.mu:.2f}",
            f"{b.rating.low:.2f} – {b.rating.high:.2f}",
            f"{b.rating.ordinal:.2f}",
            str(b.moves),
            _ms(b.seconds_per_move),
            _ms(b.max_seconds_per_move),
        ]
        for b in bots
    ]


BOT_HEADER = [
    "bot",
    "games",
    "wins",
    "win share",
    "95% CI (Wilson)",
    "mean score",
    "score sd",
    "rating μ",
    "μ ± 2σ",
    "μ − 3σ",
    "moves",
    "ms/move",
    "max ms/move",
]


def _seat_cells(shares: list[SeatShare]) -> list[str]:
    return [f"{_pct(s.share)} ({_interval(s.low, s.high)}, n={s.games})" for s in shares]


def markdown(result: TournamentResult, stats: ArenaStats, plots: bool = True) -> str:
    """The report as Markdown."""
    bots = ", ".join(f"`{b}`" for b in result.bots)
    options = ", ".join(f"{k}={v}" for k, v in result.options.items()) or "none"
    lines = [
        f"# Arena: {result.game}, {result.players} players, {result.games} games",
        "",
        f"- bots (one per entry): {bots}",
        f"- seed {result.seed}; seat rotation {'on' if result.rotate_seats else 'off'}; options: {options}",
        f"- run: {result.backend}, jobs {result.jobs}, {result.seconds:.2f} s wall clock",
        f"- game length: mean {stats.length.mean:.1f} actions (sd {stats.length.stdev:.1f}, "
        f"{stats.length.minimum}–{stats.length.maximum})",
        "",
        "Win share: first place 1, a first place shared by k seats 1/k each; 95% confidence interval by the "
        "Wilson score interval. Rating: openskill Plackett–Luce, updated per game from the ranking by "
        "(winner, score), equal places sharing a rank; the interval is μ ± 2σ, μ − 3σ the conservative ordinal. "
        "Time per move: wall clock of the bot's decision, in milliseconds.",
        "",
        "## Bots (per entry)",
        "",
        *_table(BOT_HEADER, _bot_rows(stats.entries), "l"),
        "",
    ]
    if len(stats.names) < len(stats.entries):
        lines += [
            "## Bots (entries of one name pooled)",
            "",
            "A name wins a game when any of its seats does (its seats' shares add up); scores and times pool all "
            "its seats; its rating comes from a model where each name is placed at its best seat's rank.",
            "",
            *_table(BOT_HEADER, _bot_rows(stats.names), "l"),
            "",
        ]
    seats = [f"seat {s}" for s in range(result.players)]
    lines += [
        "## Win share by seat",
        "",
        "Seat 0 starts. The first row counts every game, whoever sat there (seat advantage).",
        "",
        *_table(
            ["", *seats],
            [["all bots", *_seat_cells(stats.seats)]]
            + [[f"`{b.label}`", *_seat_cells(b.by_seat)] for b in stats.entries],
            "l",
        ),
        "",
    ]
    if plots:
        lines += [
            "## Plots",
            "",
            f"![rating]({PLOTS['rating']})",
            "",
            f"![win share]({PLOTS['win_share']})",
            "",
            f"![win share by seat]({PLOTS['seats']})",
            "",
            f"![score distributions]({PLOTS['scores']})",
            "",
        ]
    return "\n".join(lines)


def write_report(result: TournamentResult, stats: ArenaStats, out: Path) -> list[Path]:
    """Write ``report.md``, ``results.json`` and the PNG plots into ``out``; return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = _plots(result, stats, out)
    report = out / "report.md"
    report.write_text(markdown(result, stats) + "\n", encoding="utf-8")
    data = out / "results.json"
    data.write_text(json.dumps(results_json(result, stats), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return [report, data, *written]


def _plots(result: TournamentResult, stats: ArenaStats, out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = stats.entries + (stats.names if len(stats.names) < len(stats.entries) else [])
    pooled = len(stats.entries)
    labels = [b.label if i < pooled else f"{b.label} (all)" for i, b in enumerate(rows)]
    colours = ["tab:blue" if i < pooled else "tab:orange" for i in range(len(rows))]
    title = f"{result.game}, {result.players} players, {result.games} games"
    written: list[Path] = []
    height = 1.2 + 0.45 * len(rows)

    fig, ax = plt.subplots(figsize=(7, height))
    for y, (b, colour) in enumerate(zip(rows, colours, strict=True)):
        ax.errorbar(b.rating.mu, y, xerr=2 * b.rating.sigma, fmt="o", color=colour, capsize=4)
    ax.set_yticks(range(len(rows)), labels)
    ax.invert_yaxis()
    ax.set_xlabel("openskill rating μ (bars: μ ± 2σ)")
    ax.set_title(f"Rating — {title}")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    written.append(_save(fig, out / PLOTS["rating"]))

    fig, ax = plt.subplots(figsize=(7, height))
    for y, (b, colour) in enumerate(zip(rows, colours, strict=True)):
        err = [[max(0.0, b.win_share - b.win_low)], [max(0.0, b.win_high - b.win_share)]]
        ax.barh(y, b.win_share, color=colour, alpha=0.7)
        ax.errorbar(b.win_share, y, xerr=err, fmt="none", color="black", capsize=4)
    ax.set_yticks(range(len(rows)), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win share (ties split; bars: 95% Wilson interval)")
    ax.set_title(f"Win share — {title}")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    written.append(_save(fig, out / PLOTS["win_share"]))

    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * result.players + 3), 4.5))
    groups: list[tuple[str, list[SeatShare]]] = [("all bots", stats.seats)]
    groups += [(b.label, b.by_seat) for b in stats.entries]
    width = 0.8 / len(groups)
    for g, (label, shares) in enumerate(groups):
        xs = [s.seat - 0.4 + width * (g + 0.5) for s in shares]
        values = [s.share for s in shares]
        err = [[max(0.0, s.share - s.low) for s in shares], [max(0.0, s.high - s.share) for s in shares]]
        ax.bar(xs, values, width=width, label=label, color="grey" if g == 0 else None)
        ax.errorbar(xs, values, yerr=err, fmt="none", color="black", capsize=2, linewidth=0.8)
    ax.axhline(1 / result.players, color="black", linestyle=":", linewidth=1, label="1 / players")
    ax.set_xticks(range(result.players), [f"seat {s}" for s in range(result.players)])
    ax.set_ylim(0, 1)
    ax.set_ylabel("win share (95% Wilson interval)")
    ax.set_title(f"Win share by seat — {title}")
    ax.legend(fontsize="small")
    fig.tight_layout()
    written.append(_save(fig, out / PLOTS["seats"]))

    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(rows) + 2), 4.5))
    ax.boxplot([b.scores for b in rows], showmeans=True)
    ax.set_xticks(range(1, len(rows) + 1), labels, rotation=20 if len(rows) > 4 else 0)
    ax.set_ylabel("final score")
    ax.set_title(f"Score distributions — {title}")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    written.append(_save(fig, out / PLOTS["scores"]))
    return written


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
