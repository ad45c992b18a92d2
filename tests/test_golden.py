"""Golden game records (written by scripts/make_golden.py) must replay identically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltafel.cli import app
from spieltafel.core import Game, all_games, final_state_digest, kit_of, load_record_file, replay

GOLDEN = Path(__file__).parent / "golden"
"""The built-in games' golden records; a game from outside keeps its own (its kit's ``goldens``)."""


def golden_folder(game: Game) -> Path:
    return kit_of(game).goldens_folder() or GOLDEN


FILES = sorted({path for game in all_games() for path in golden_folder(game).glob(f"{game.name}-*.json")})


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.name)
def test_every_game_player_count_and_option_value_has_a_golden_record(game: Game) -> None:
    expected = {f"{game.name}-{n}p.json" for n in range(game.min_players, game.max_players + 1)}
    expected |= {
        f"{game.name}-{game.min_players}p-{o.name}-{v}.json" for o in game.options for v in o.choices if v != o.default
    }
    assert expected <= {f.name for f in golden_folder(game).glob("*.json")}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_golden_record_replays_identically(path: Path) -> None:
    record, digest = load_record_file(path)
    assert record.result is not None and digest is not None
    state = replay(record)  # validates every action and the recorded result
    assert state.is_over
    assert final_state_digest(state) == digest


@pytest.mark.parametrize("path", FILES[:2] + FILES[-1:], ids=lambda p: p.stem)
def test_spieltafel_replay_verifies_a_golden_file(path: Path) -> None:
    answer = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert answer.exit_code == 0, answer.output
    report = json.loads(answer.output)
    assert report["finished"] and report["verified"] and report["final_state"] == "verified"


def test_spieltafel_replay_refuses_a_golden_file_whose_final_state_differs(tmp_path: Path) -> None:
    document = json.loads(FILES[0].read_text(encoding="utf-8"))
    document["final_state_sha256"] = "0" * 64
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(document), encoding="utf-8")
    answer = CliRunner().invoke(app, ["replay", str(changed)])
    assert answer.exit_code == 1  # a record whose replay does not match
    assert "final state" in answer.output and "differs" in answer.output
