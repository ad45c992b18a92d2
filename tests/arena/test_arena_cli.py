"""``spieltafel arena`` through typer's test runner, on a small app that registers the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from spieltafel.arena.command import arena_command

app = typer.Typer()
app.command("arena")(arena_command)


@app.callback()
def main() -> None:
    """Test app: keeps ``arena`` a subcommand."""


runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["arena", *args])
    return result.exit_code, result.stdout, result.stderr


def test_arena_writes_the_report_and_prints_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "report"
    code, stdout, _ = run("iquazu", "--players", "2", "--bots", "random,random", "--games", "4", "--out", str(out))
    assert code == 0
    assert "win share" in stdout and "random#1" in stdout and "seat 0" in stdout
    assert {p.name for p in out.iterdir()} >= {"report.md", "results.json", "rating.png", "scores.png"}


def test_arena_json_output() -> None:
    code, stdout, _ = run(
        "iquazu", "--players", "3", "--bots", "random,random,random", "--games", "3", "--seed", "4", "--json"
    )
    assert code == 0
    data = json.loads(stdout)
    assert data["games"] == 3 and data["seed"] == 4 and len(data["entries"]) == 3
    assert sum(e["win_share"] for e in data["entries"]) == pytest.approx(1.0)


def test_arena_without_rotation_accepts_any_game_count() -> None:
    code, stdout, _ = run(
        "iquazu", "--players", "2", "--bots", "random,random", "--games", "3", "--no-rotate-seats", "--json"
    )
    assert code == 0 and json.loads(stdout)["rotate_seats"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuchgame", "--players", "2", "--bots", "random,random", "--games", "2"], "unknown game"),
        (["iquazu", "--players", "2", "--bots", "random,nosuchbot", "--games", "2"], "unknown bot"),
        (["iquazu", "--players", "3", "--bots", "random,random", "--games", "3"], "2 bots given"),
        (["iquazu", "--players", "2", "--bots", "random,random", "--games", "5"], "multiple of 2"),
        (["iquazu", "--players", "2", "--bots", "random,random", "--games", "2", "--jobs", "0"], "jobs"),
        (["iquazu", "--players", "2", "--bots", "random,random", "--games", "2", "--option", "x"], "KEY=VALUE"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], message: str) -> None:
    code, stdout, stderr = run(*args)
    assert code == 2
    assert stdout == ""
    assert message in stderr and len(stderr.strip().splitlines()) == 1
