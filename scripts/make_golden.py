"""Write the golden game records (the built-in games' in tests/golden/, another game's in its kit's
``goldens`` folder): one game between greedy bots per game and player
count with the default options, and one per other value of each option (at the smallest player count).

Each file holds the record (game, options, seed, seats, actions, result) and the SHA-256 of the
final full state. tests/test_golden.py replays them; a rule change that alters any game shows up
there, and this script is rerun on purpose (review the diff) when the change is intended.

A golden game that exists is **replayed**, not played again: its actions stay, and only its result and
final-state digest are written anew (an action the rules now refuse stops the script, naming the file and
the action). The bots' play changes with their heuristics and samplers, so playing the games again would
change every record whenever a bot changes, and a rule change would hide among those changes. Games are
played only for cases that have no file yet, or for every case with ``--new``.

    python scripts/make_golden.py [GAME ...]         # every game, or only the games named
    python scripts/make_golden.py --new [GAME ...]   # play every golden game again
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from spieltafel.bots import make_bot
from spieltafel.core import (
    Game,
    GameRecord,
    GameResult,
    GoldenRecord,
    State,
    all_games,
    final_state_digest,
    kit_of,
    load_record_file,
    replay,
)
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


def play_golden_game(game: Game, players: int, options: dict[str, str]) -> tuple[State, GameRecord]:
    """A new golden game: greedy bots with fixed seeds."""
    bots = [make_bot(BOT, SEED * 10 + seat) for seat in range(players)]
    return play_game(game, players, SEED + players, bots, options)


def replay_golden_game(path: Path) -> tuple[State, GameRecord]:
    """An existing golden game replayed by today's rules: the same actions, the result they now give."""
    record, _ = load_record_file(path)
    state = replay(record, verify=False)  # every action is still checked against the rules
    if not state.is_over:
        raise SystemExit(f"{path}: the recorded actions no longer end the game; rerun with --new")
    record.result = GameResult(scores=state.scores(), winners=state.winners())
    return state, record


def main(arguments: list[str]) -> None:
    new = "--new" in arguments
    names = [name for name in arguments if name != "--new"]
    for game in all_games():
        if names and game.name not in names:
            continue
        folder = kit_of(game).goldens_folder() or GOLDEN
        folder.mkdir(parents=True, exist_ok=True)
        for players, options, stem in golden_cases(game):
            path = folder / f"{stem}.json"
            replayed = path.exists() and not new
            state, record = replay_golden_game(path) if replayed else play_golden_game(game, players, options)
            golden = GoldenRecord(record=record, final_state_sha256=final_state_digest(state))
            document = golden.model_dump(mode="json")
            path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
            how = "replayed" if replayed else "played"
            print(f"{stem}: {how}, {len(record.actions)} actions, scores {state.scores()}")


if __name__ == "__main__":
    main(sys.argv[1:])
