"""How many rounds games of Niagara between greedy bots last (docs/rules/niagara.md, decision 18).

The round limit is a safety rule; it must never decide a game that is really played. This plays
``--games`` games per player count between greedy bots and reports the rounds (min, median, max)
and how many games the round limit ended.

    python bench/niagara_rounds.py --games 60 [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics

from spieltafel.bots import make_bot
from spieltafel.core import get_game
from spieltafel.match import play_game


def rounds_of_games(players: int, games: int) -> tuple[list[int], int]:
    """Rounds of ``games`` greedy games (seeds 0…) and how many ended by the round limit."""
    game = get_game("niagara")
    rounds: list[int] = []
    limited = 0
    for seed in range(games):
        bots = [make_bot("greedy", seed * 10 + seat) for seat in range(players)]
        state, _ = play_game(game, players, seed, bots)
        document = state.to_json()
        rounds.append(int(document["round"]))
        limited += int(document["round"]) >= int(state.options["round-limit"])
    return rounds, limited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = {}
    for players in (3, 4, 5):
        rounds, limited = rounds_of_games(players, args.games)
        report[players] = {
            "games": len(rounds),
            "min": min(rounds),
            "median": statistics.median(rounds),
            "max": max(rounds),
            "ended_by_round_limit": limited,
        }
    if args.json:
        print(json.dumps(report, indent=1))
        return
    for players, row in report.items():
        print(
            f"{players} players: {row['games']} games, rounds {row['min']}–{row['max']} "
            f"(median {row['median']}), ended by the round limit: {row['ended_by_round_limit']}"
        )


if __name__ == "__main__":
    main()
