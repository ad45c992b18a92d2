"""Golden game records (written by scripts/make_golden.py) must replay identically."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from spieltafel.core import GameRecord, all_games, replay

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def test_every_game_player_count_and_option_value_has_a_golden_record() -> None:
    expected = {f"{g.name}-{n}p.json" for g in all_games() for n in range(g.min_players, g.max_players + 1)}
    expected |= {
        f"{g.name}-{g.min_players}p-{o.name}-{v}.json"
        for g in all_games()
        for o in g.options
        for v in o.choices
        if v != o.default
    }
    assert expected <= {f.name for f in FILES}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_golden_record_replays_identically(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    record = GameRecord.model_validate(document["record"])
    assert record.result is not None
    state = replay(record)  # validates every action and the recorded result
    assert state.is_over
    digest = hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()
    assert digest == document["final_state_sha256"]
