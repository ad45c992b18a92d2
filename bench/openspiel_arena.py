"""Our bots against OpenSpiel's, one game per run: resumable tournaments and their table (issue 29).

A long tournament (a Niagara game at 1 s per move takes several minutes) is played as one-game arena runs,
so that a stopped run loses one game, not all of them. ``run`` plays every deal in ``--deals`` from every
seat (our bot at seat ``s``, OpenSpiel's bot at every other seat: the rotation ``spieltafel arena`` does,
by hand) and keeps each game's ``spieltafel arena --json`` document in ``--out``; a game whose document is
there already is skipped. ``table`` adds the documents up by configuration (game, players, our bot, their
bot) and prints a Markdown row per configuration: games, our win share (first place, ties split) with its
95% Wilson interval, the fair share, the OpenSpiel seats' share, mean scores, time per move.

    python bench/openspiel_arena.py run niagara --players 3 --ours expert --theirs openspiel-ismcts:1s \\
        --deals 0-1 --out runs/
    python bench/openspiel_arena.py table runs/ [--json bench/results/openspiel-arena-games.json]

Every game is ``spieltafel arena GAME --players P --bots B0,..,Bn --games 1 --seed DEAL
--no-rotate-seats --jobs 1 --json``: the deal and the bots' generators come from the seed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spieltafel.arena.stats import wilson_interval


def seating(players: int, seat: int, ours: str, theirs: str) -> list[str]:
    """The bots of a game with our bot at ``seat`` and OpenSpiel's bot everywhere else."""
    return [ours if s == seat else theirs for s in range(players)]


def deal_range(text: str) -> list[int]:
    """``0-4`` or ``0,2,5``: the deals to play."""
    deals: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        deals.extend(range(int(low), int(high or low) + 1))
    return deals


def game_file(out: Path, game: str, players: int, ours: str, theirs: str, deal: int, seat: int) -> Path:
    tag = f"{game}-{players}p-{ours}-vs-{theirs}".replace(":", "_")
    return out / f"{tag}-d{deal}-s{seat}.json"


def play(game: str, players: int, ours: str, theirs: str, deal: int, seat: int, out: Path) -> Path:
    """One game (skipped when its document exists), its document written to ``out``."""
    path = game_file(out, game, players, ours, theirs, deal, seat)
    if path.exists():
        return path
    bots = ",".join(seating(players, seat, ours, theirs))
    command = [
        str(Path(sys.executable).with_name("spieltafel")),
        "arena",
        game,
        "--players",
        str(players),
        "--bots",
        bots,
        "--games",
        "1",
        "--seed",
        str(deal),
        "--no-rotate-seats",
        "--jobs",
        "1",
        "--json",
    ]
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    started = time.strftime("%H:%M:%S", time.gmtime())
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:  # the arena's own error, not only its exit code
        raise SystemExit(f"{' '.join(command)} failed with exit code {done.returncode}:\n{done.stderr.strip()}")
    document = json.loads(done.stdout)
    end_load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    document["run"] = {
        "started_utc": started,
        "ended_utc": time.strftime("%H:%M:%S", time.gmtime()),
        "load_average": [load, end_load],
        "our_seat": seat,
    }
    path.write_text(json.dumps(document) + "\n")
    return path


@dataclass
class Side:
    """One side's totals over the games of a configuration (OpenSpiel's: all its seats together)."""

    wins: float = 0.0
    seats: int = 0
    scores: list[float] = field(default_factory=list)
    moves: int = 0
    seconds: float = 0.0
    longest: float = 0.0

    def add(self, entry: dict[str, Any]) -> None:
        self.wins += float(entry["wins"])
        self.seats += int(entry["games"])
        self.scores.extend(float(s) for s in entry["scores"])
        self.moves += int(entry["moves"])
        self.seconds += float(entry["seconds_per_move"]) * int(entry["moves"])
        self.longest = max(self.longest, float(entry["max_seconds_per_move"]))

    @property
    def mean_score(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    @property
    def ms_per_move(self) -> float:
        return 1000 * self.seconds / self.moves if self.moves else 0.0


@dataclass
class Configuration:
    game: str
    players: int
    ours: str
    theirs: str
    games: int = 0
    wall_seconds: float = 0.0
    ours_side: Side = field(default_factory=Side)
    theirs_side: Side = field(default_factory=Side)
    load: list[float] = field(default_factory=list)
    by_seat: dict[int, list[float]] = field(default_factory=dict)
    """Our seat → [games, wins] (one-game documents; a rotated tournament counts under its first seat)."""

    def add(self, document: dict[str, Any]) -> None:
        self.games += int(document["games"])
        seat = list(document["bots"]).index(self.ours)
        ours = next(e for e in document["names"] if e["bot"] == self.ours)
        played = self.by_seat.setdefault(seat, [0, 0.0])
        played[0] += int(document["games"])
        played[1] += float(ours["wins"])
        self.wall_seconds += float(document["seconds"])
        for entry in document["names"]:
            side = self.ours_side if entry["bot"] == self.ours else self.theirs_side
            side.add(entry)
        for value in document.get("run", {}).get("load_average", []):
            with contextlib.suppress(ValueError):
                self.load.append(float(value))

    def row(self) -> dict[str, Any]:
        low, high = wilson_interval(self.ours_side.wins, self.games)
        return {
            "game": self.game,
            "players": self.players,
            "ours": self.ours,
            "theirs": self.theirs,
            "games": self.games,
            "our_wins": self.ours_side.wins,
            "our_share": self.ours_side.wins / self.games,
            "our_low": low,
            "our_high": high,
            "fair_share": 1 / self.players,
            "their_share": self.theirs_side.wins / self.games,
            "our_mean_score": self.ours_side.mean_score,
            "their_mean_score": self.theirs_side.mean_score,
            "our_ms_per_move": self.ours_side.ms_per_move,
            "their_ms_per_move": self.theirs_side.ms_per_move,
            "our_longest_s": self.ours_side.longest,
            "their_longest_s": self.theirs_side.longest,
            "minutes": self.wall_seconds / 60,
            "load_average": [min(self.load), max(self.load)] if self.load else None,
            "by_our_seat": {str(seat): {"games": int(g), "wins": w} for seat, (g, w) in sorted(self.by_seat.items())},
        }


def configurations(documents: Iterable[dict[str, Any]]) -> list[Configuration]:
    """The documents added up by (game, players, our bot, their bot); ours is the bot named once."""
    found: dict[tuple[str, int, str, str], Configuration] = {}
    for document in documents:
        bots: list[str] = document["bots"]
        ours = next(b for b in bots if bots.count(b) == 1 and not b.startswith("openspiel-"))
        theirs = next(b for b in bots if b != ours)
        key = (document["game"], int(document["players"]), ours, theirs)
        found.setdefault(key, Configuration(*key)).add(document)
    return list(found.values())


def seats(by_seat: dict[str, dict[str, Any]]) -> str:
    """``5.5/8 · 2.33/5 · 7.5/8``: our wins (a three-way tie's third to two decimals) and games at each seat,
    first seat first."""
    return " · ".join(f"{round(played['wins'], 2):g}/{played['games']}" for played in by_seat.values())


def figure(value: float, decimals: int, below: float) -> str:
    """``value`` with ``decimals`` decimals, or with two significant digits when it is below ``below`` (our
    Niagara moves at 25 iterations take 0.37 ms: ``0``, as a whole number of milliseconds, would hide them)."""
    return f"{value:.2g}" if 0 < value < below else f"{value:.{decimals}f}"


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    lines = [
        "| game | players | our bot | OpenSpiel's bot | games | our win share (95% CI) | fair share "
        "| OpenSpiel's seats | our wins by our seat | mean score ours / theirs "
        "| ms per move ours / theirs (longest, s) | minutes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['game']} | {r['players']} | `{r['ours']}` | `{r['theirs']}` | {r['games']} "
            f"| **{100 * r['our_share']:.1f}%** ({100 * r['our_low']:.1f}%–{100 * r['our_high']:.1f}%) "
            f"| {100 * r['fair_share']:.1f}% | {100 * r['their_share']:.1f}% | {seats(r['by_our_seat'])} "
            f"| {r['our_mean_score']:.1f} / {r['their_mean_score']:.1f} "
            f"| {figure(r['our_ms_per_move'], 0, 10)} / {figure(r['their_ms_per_move'], 0, 10)} "
            f"({figure(r['our_longest_s'], 2, 0.1)} / {figure(r['their_longest_s'], 2, 0.1)}) | {r['minutes']:.0f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="play every deal from every seat, one game per arena run")
    run.add_argument("game")
    run.add_argument("--players", type=int, required=True)
    run.add_argument("--ours", required=True, help="our bot (expert, hard, ismcts:200, ...)")
    run.add_argument("--theirs", required=True, help="OpenSpiel's bot (openspiel-ismcts:1s, ...)")
    run.add_argument("--deals", default="0", help="deals to play, e.g. 0-4 (each from every seat)")
    run.add_argument("--out", type=Path, required=True)
    table = commands.add_parser("table", help="add the documents up, one Markdown row per configuration")
    table.add_argument("paths", type=Path, nargs="+", help="documents or folders of documents")
    table.add_argument("--json", type=Path, help="also write the rows and the documents to this file")
    args = parser.parse_args(argv)
    if args.command == "run":
        args.out.mkdir(parents=True, exist_ok=True)
        for deal in deal_range(args.deals):
            for seat in range(args.players):
                path = play(args.game, args.players, args.ours, args.theirs, deal, seat, args.out)
                print(path, flush=True)
        return
    files = sorted(p for path in args.paths for p in (path.glob("*.json") if path.is_dir() else [path]))
    documents = [json.loads(p.read_text()) for p in files]
    rows = [c.row() for c in configurations(documents)]
    print(markdown(rows))
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "games": documents}, indent=1) + "\n")


if __name__ == "__main__":
    main()
