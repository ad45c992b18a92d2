"""Bot strength benchmark: `hard` against `random` and against `greedy`, every game and player count.

For each configuration it runs a seat-rotated arena tournament with one `hard` seat and the other
seats filled with the opponent bot, and records hard's win share (first place, ties split) with its
95% Wilson interval, each opponent seat's share, and hard's mean and longest time per move.

    python bench/strength.py [GAME ...] [--players N ...] [--opponents random,greedy] [--games-per-seat K]
                             [--jobs J] [--out FILE]

Results go to a JSON file (default bench/results/strength.json, merged with earlier runs) and a
Markdown table on stdout, for docs/bots.md.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from spieltafel.arena.stats import compute_stats
from spieltafel.arena.tournament import run_tournament
from spieltafel.core import all_games, get_game


def measure(game: str, players: int, opponent: str, games_per_seat: int, jobs: int, seed: int) -> dict[str, object]:
    start = time.perf_counter()
    result = run_tournament(game, players, ["hard"] + [opponent] * (players - 1), games_per_seat * players, seed, jobs)
    stats = compute_stats(result)
    hard, rivals = stats.entries[0], stats.entries[1:]
    return {
        "game": game,
        "players": players,
        "opponent": opponent,
        "games": result.games,
        "hard_win_share": hard.win_share,
        "hard_win_low": hard.win_low,
        "hard_win_high": hard.win_high,
        "opponent_win_shares": [r.win_share for r in rivals],
        "hard_seconds_per_move": hard.seconds_per_move,
        "hard_max_seconds_per_move": hard.max_seconds_per_move,
        "hard_largest_share": all(hard.win_share > r.win_share for r in rivals),
        "wall_seconds": round(time.perf_counter() - start, 1),
    }


def markdown(rows: list[dict[str, object]]) -> str:
    lines = [
        "| game | players | opponents | games | hard win share (95% CI) | each opponent | hard s/move (max) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        shares = ", ".join(f"{s:.0%}" for s in r["opponent_win_shares"])  # type: ignore[attr-defined]
        lines.append(
            f"| {r['game']} | {r['players']} | {r['opponent']} | {r['games']} | "
            f"{r['hard_win_share']:.0%} ({r['hard_win_low']:.0%}–{r['hard_win_high']:.0%}) | {shares} | "
            f"{r['hard_seconds_per_move']:.2f} ({r['hard_max_seconds_per_move']:.2f}) |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: all)")
    parser.add_argument("--games-per-seat", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: all the game allows)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "strength.json")
    args = parser.parse_args()
    specs = [get_game(g) for g in args.games] if args.games else all_games()
    rows: list[dict[str, object]] = json.loads(args.out.read_text()) if args.out.exists() else []
    for spec in specs:
        for players in args.players or range(spec.min_players, spec.max_players + 1):
            for opponent in args.opponents.split(","):
                row = measure(spec.name, players, opponent, args.games_per_seat, args.jobs, args.seed)
                rows = [r for r in rows if (r["game"], r["players"], r["opponent"]) != (spec.name, players, opponent)]
                rows.append(row)
                rows.sort(key=lambda r: (str(r["game"]), int(str(r["players"])), str(r["opponent"])))
                args.out.parent.mkdir(parents=True, exist_ok=True)
                args.out.write_text(json.dumps(rows, indent=1) + "\n")
                print(markdown([row]).splitlines()[-1], flush=True)
    print(markdown(rows))


if __name__ == "__main__":
    main()
