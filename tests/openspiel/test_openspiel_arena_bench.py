"""bench/openspiel_arena.py: one-game arena runs from every seat, resumable, added up into a table."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pyspiel")

SCRIPT = "bench/openspiel_arena.py"


def test_seatings_and_deals(script: Callable[[str], ModuleType]) -> None:
    bench = script(SCRIPT)
    assert bench.seating(3, 1, "expert", "openspiel-ismcts:1s") == [
        "openspiel-ismcts:1s",
        "expert",
        "openspiel-ismcts:1s",
    ]
    assert bench.deal_range("0-2,5") == [0, 1, 2, 5]
    by_seat = {"0": {"games": 8, "wins": 5.5}, "1": {"games": 5, "wins": 1 + 1 / 3 + 1}, "2": {"games": 4, "wins": 0}}
    assert bench.seats(by_seat) == "5.5/8 · 2.33/5 · 0/4"  # a three-way tie's third, to two decimals


def test_short_moves_keep_two_significant_digits(script: Callable[[str], ModuleType]) -> None:
    bench = script(SCRIPT)
    assert [bench.figure(ms, 0, 10) for ms in (385.4, 10.0, 5.43, 0.3734, 0.0)] == ["385", "10", "5.4", "0.37", "0"]
    assert [bench.figure(s, 2, 0.1) for s in (1.404, 0.1, 0.0195, 0.00195)] == ["1.40", "0.10", "0.019", "0.0019"]


def test_every_seat_is_played_once_and_the_table_adds_the_games_up(
    tmp_path: Path, script: Callable[[str], ModuleType]
) -> None:
    bench = script(SCRIPT)
    bench.main(["run", "iquazu", "--players", "2", "--ours", "random", "--theirs", "openspiel-random",
                "--deals", "0", "--out", str(tmp_path)])  # fmt: skip
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name[-11:] for f in files] == ["-d0-s0.json", "-d0-s1.json"]
    documents = [json.loads(f.read_text()) for f in files]
    assert [d["bots"] for d in documents] == [["random", "openspiel-random"], ["openspiel-random", "random"]]
    assert [d["run"]["our_seat"] for d in documents] == [0, 1]
    stamps = [f.stat().st_mtime_ns for f in files]
    bench.main(["run", "iquazu", "--players", "2", "--ours", "random", "--theirs", "openspiel-random",
                "--deals", "0", "--out", str(tmp_path)])  # fmt: skip
    assert [f.stat().st_mtime_ns for f in files] == stamps, "a game already played is played again"

    [row] = [c.row() for c in bench.configurations(documents)]
    ours = sum(e["wins"] for d in documents for e in d["names"] if e["bot"] == "random")
    theirs = sum(e["wins"] for d in documents for e in d["names"] if e["bot"] == "openspiel-random")
    assert (row["games"], row["ours"], row["theirs"]) == (2, "random", "openspiel-random")
    assert row["our_wins"] == ours and row["our_share"] + row["their_share"] == pytest.approx(1.0)
    assert row["their_share"] == pytest.approx(theirs / 2)
    assert row["our_low"] <= row["our_share"] <= row["our_high"]
    table = bench.markdown([row])
    assert "| iquazu | 2 | `random` | `openspiel-random` | 2 |" in table
    assert sorted(row["by_our_seat"]) == ["0", "1"] and all(p["games"] == 1 for p in row["by_our_seat"].values())


def test_a_game_that_fails_stops_the_series_with_the_arenas_own_error(
    tmp_path: Path, script: Callable[[str], ModuleType]
) -> None:
    bench = script(SCRIPT)
    with pytest.raises(SystemExit) as stopped:
        bench.main(["run", "iquazu", "--players", "2", "--ours", "ismcts:1s:depth=-1", "--theirs", "openspiel-random",
                    "--deals", "0", "--out", str(tmp_path)])  # fmt: skip
    assert "failed with exit code" in str(stopped.value) and "bad search setting" in str(stopped.value)
    assert list(tmp_path.glob("*.json")) == []
