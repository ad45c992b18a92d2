"""Small arena runs: report structure, seat rotation, determinism across jobs, a local Ray, greedy vs random."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from spieltafel.arena import TournamentResult, run_tournament
from spieltafel.arena.report import PLOTS, write_report
from spieltafel.arena.stats import ArenaStats, compute_stats
from spieltafel.bots import make_bot
from spieltafel.core import SpieltafelError

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def three_player(tmp_path_factory: pytest.TempPathFactory) -> tuple[TournamentResult, ArenaStats, Path]:
    calls: list[tuple[int, int]] = []
    result = run_tournament(
        "iquazu", 3, ["random", "random", "random"], 6, seed=11, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(i, 6) for i in range(1, 7)]
    stats = compute_stats(result)
    out = tmp_path_factory.mktemp("arena")
    write_report(result, stats, out)
    return result, stats, out


def test_report_files_exist_and_plots_are_pngs(three_player: tuple[TournamentResult, ArenaStats, Path]) -> None:
    _, _, out = three_player
    for name in ("report.md", "results.json", *PLOTS.values()):
        assert (out / name).is_file(), name
    for name in PLOTS.values():
        data = (out / name).read_bytes()
        assert data.startswith(PNG_MAGIC) and data[12:16] == b"IHDR", name
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert width > 300 and height > 150
    report = (out / "report.md").read_text(encoding="utf-8")
    for heading in ("# Arena: iquazu, 3 players, 6 games", "## Bots (per entry)", "## Win share by seat", "Wilson"):
        assert heading in report
    for name in PLOTS.values():
        assert f"]({name})" in report
    assert "| `random#1` |" in report and "| `random` |" in report


def test_results_json_keys_and_sums(three_player: tuple[TournamentResult, ArenaStats, Path]) -> None:
    _, _, out = three_player
    data: dict[str, Any] = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert {"format", "game", "players", "bots", "games", "seed", "rotate_seats", "options", "seconds"} <= data.keys()
    assert {"entries", "names", "seats", "game_length", "outcomes"} <= data.keys()
    assert data["format"] == "spieltafel-arena/1" and data["games"] == 6 and len(data["outcomes"]) == 6
    entry_keys = {"label", "bot", "games", "win_share", "win_low", "win_high", "mean_score", "rating", "by_seat"}
    for entry in data["entries"] + data["names"]:
        assert entry_keys | {"seconds_per_move", "max_seconds_per_move", "moves", "scores"} <= entry.keys()
        assert {"mu", "sigma", "low", "high", "ordinal"} <= entry["rating"].keys()
    assert sum(e["win_share"] for e in data["entries"]) == pytest.approx(1.0)
    assert sum(n["win_share"] for n in data["names"]) == pytest.approx(1.0)
    assert sum(s["share"] for s in data["seats"]) == pytest.approx(1.0)
    assert data["game_length"]["mean"] > 0


def test_seat_rotation_is_balanced(three_player: tuple[TournamentResult, ArenaStats, Path]) -> None:
    result, stats, _ = three_player
    for entry in range(3):
        seats = [o.seat_of(entry) for o in result.outcomes]
        assert sorted(seats) == [0, 0, 1, 1, 2, 2]
    for bot in stats.entries:
        assert [s.games for s in bot.by_seat] == [2, 2, 2]
    # Duplicate deals: the games of one rotation block share a seed.
    assert [o.seed for o in result.outcomes] == [11, 11, 11, 12, 12, 12]


def test_intervals_contain_their_point_estimates(three_player: tuple[TournamentResult, ArenaStats, Path]) -> None:
    _, stats, _ = three_player
    for bot in stats.entries + stats.names:
        assert bot.win_low <= bot.win_share <= bot.win_high
        assert bot.rating.low < bot.rating.mu < bot.rating.high
        for seat in bot.by_seat:
            assert seat.low <= seat.share <= seat.high
    for seat in stats.seats:
        assert seat.low <= seat.share <= seat.high
    assert all(bot.moves > 0 and bot.seconds_per_move > 0 for bot in stats.entries)


def _comparable(result: TournamentResult) -> list[tuple[Any, ...]]:
    return [(o.index, o.seed, o.seating, o.scores, o.winners, o.actions, o.moves) for o in result.outcomes]


def _ratings(result: TournamentResult) -> list[tuple[float, float, float]]:
    return [(b.win_share, b.rating.mu, b.rating.sigma) for b in compute_stats(result).entries]


def test_jobs_do_not_change_the_results() -> None:
    serial = run_tournament("iquazu", 2, ["random", "random"], 6, seed=5, jobs=1)
    parallel = run_tournament("iquazu", 2, ["random", "random"], 6, seed=5, jobs=2)
    assert parallel.backend == "processes" and serial.backend == "serial"
    assert _comparable(serial) == _comparable(parallel)
    assert _ratings(serial) == _ratings(parallel)
    other_seed = run_tournament("iquazu", 2, ["random", "random"], 6, seed=6)
    assert _comparable(other_seed) != _comparable(serial)


def test_without_rotation_any_game_count_and_fixed_seats() -> None:
    result = run_tournament("iquazu", 2, ["random", "random"], 3, seed=2, rotate_seats=False)
    assert [o.seating for o in result.outcomes] == [[0, 1]] * 3
    assert [o.seed for o in result.outcomes] == [2, 3, 4]


@pytest.mark.parametrize(
    ("game", "players", "bots", "games", "message"),
    [
        ("nosuchgame", 2, ["random", "random"], 2, "unknown game"),
        ("iquazu", 2, ["random", "nosuchbot"], 2, "unknown bot"),
        ("iquazu", 3, ["random", "random"], 3, "2 bots given"),
        ("iquazu", 9, ["random"] * 9, 9, "2 to 4 players"),
        ("iquazu", 2, ["random", "random"], 3, "multiple of 2"),
        ("iquazu", 2, ["random", "random"], 0, "at least 1"),
    ],
)
def test_bad_set_ups_are_refused(game: str, players: int, bots: list[str], games: int, message: str) -> None:
    with pytest.raises(SpieltafelError, match=message):
        run_tournament(game, players, bots, games)


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed (optional extra)")
def test_local_ray_gives_the_same_results_as_one_process() -> None:
    ray_result = run_tournament("iquazu", 2, ["random", "random"], 4, seed=3, ray_address="local")
    serial = run_tournament("iquazu", 2, ["random", "random"], 4, seed=3)
    assert ray_result.backend == "ray"
    assert _comparable(ray_result) == _comparable(serial)


def test_greedy_beats_random_over_a_fixed_seed_set() -> None:
    try:
        make_bot("greedy")
    except SpieltafelError:
        pytest.skip("greedy bot not registered yet")
    result = run_tournament("iquazu", 2, ["greedy", "random"], 20, seed=2024)
    greedy, random = compute_stats(result).entries
    assert greedy.win_share > random.win_share
