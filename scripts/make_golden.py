"""Write the golden game records (the built-in games' in tests/golden/, another game's in its kit's
``goldens`` folder): one game between greedy bots per game and player
count with the default options, and one per other value of each option (at the smallest player count).

Each file holds the record (game, options, seed, seats, actions, result) and the SHA-256 of the
final full state. tests/test_golden.py replays them; a rule change that alters any game shows up
there, and this script is rerun on purpose (review the diff) when the change is intended.

    python scripts/make_golden.py [GAME ...]     # every game, or only the games named
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from spieltafel.bots import make_bot
from spieltafel.core import Game, GoldenRecord, all_games, final_state_digest, kit_of
from spieltafel.match import play_game

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
SEED = 2017
BOT = "greedy"
"""Greedy bots play the golden games: unlike random play they reach every game's real endings."""


def golden_cases(game: Game) -> list[tuple[int, dict[str, str], str]]:
    """(players, options, file stem) of every golden game of ``game``."""
    cases = [(n, {}, f"{game.name}-{n}p") for n in range(game.min_players, game.max_players + 1)]
    for option in game.options:
        for value in option.choices:
            if value != option.default:
                stem = f"{game.name}-{game.min_players}p-{option.name}-{value}"
                cases.append((game.min_players, {option.name: value}, stem))
    return cases


def main(names: list[str]) -> None:
    for game in all_games():
        if names and game.name not in names:
            continue
        folder = kit_of(game).goldens_folder() or GOLDEN
        folder.mkdir(parents=True, exist_ok=True)
        for players, options, stem in golden_cases(game):
            bots = [make_bot(BOT, SEED * 10 + seat) for seat in range(players)]
            state, record = play_game(game, players, SEED + players, bots, options)
            golden = GoldenRecord(record=record, final_state_sha256=final_state_digest(state))
            document = golden.model_dump(mode="json")
            (folder / f"{stem}.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
            print(f"{stem}: {len(record.actions)} actions, scores {state.scores()}")


if __name__ == "__main__":
    main(sys.argv[1:])
