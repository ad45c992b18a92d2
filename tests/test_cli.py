"""The command line, as a person or a script uses it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltafel.cli import app

runner = CliRunner()
GOLDEN = Path(__file__).parent / "golden"


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_games_lists_iquazu_with_its_player_range() -> None:
    code, out, _ = run("games", "--json")
    assert code == 0
    games = {g["name"]: g for g in json.loads(out)}
    assert games["iquazu"]["min_players"] == 2 and games["iquazu"]["max_players"] == 4


def test_state_new_actions_apply_view_show(tmp_path: Path) -> None:
    code, out, _ = run("state", "new", "iquazu", "--players", "3", "--seed", "4")
    assert code == 0
    first = tmp_path / "s0.json"
    first.write_text(out)
    code, out, _ = run("state", "actions", str(first))
    actions = out.splitlines()
    assert code == 0 and "draw" in actions and all(actions)
    code, out, _ = run("state", "apply", str(first), "draw", "--seat", "0")
    assert code == 0
    second = tmp_path / "s1.json"
    second.write_text(out)
    assert json.loads(out)["current"] == 1
    code, out, _ = run("state", "view", str(second), "--seat", "1")
    view = json.loads(out)
    assert code == 0 and view["seat"] == 1 and "hand" in view and "pile" not in view
    code, out, _ = run("state", "view", str(second))
    assert code == 0 and "hand" not in json.loads(out)
    code, out, _ = run("state", "show", str(second), "--seat", "1")
    assert code == 0 and "rock face" in out


def test_refused_apply_exits_2_with_one_line_reason(tmp_path: Path) -> None:
    file = tmp_path / "s.json"
    file.write_text(run("state", "new", "iquazu", "--players", "2")[1])
    before = file.read_text()
    code, out, err = run("state", "apply", str(file), "end", "--seat", "0")
    assert code == 2 and out == ""
    assert "not allowed" in err and "action first" in err and len(err.strip().splitlines()) == 1
    code, _, err = run("state", "apply", str(file), "draw", "--seat", "1")
    assert code == 2 and "not this seat's turn" in err
    assert file.read_text() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("state", "new", "chess", "--players", "2"), "unknown game"),
        (("state", "new", "iquazu", "--players", "5"), "2 to 4 players"),
        (("state", "new", "iquazu", "--players", "2", "--option", "water=always"), "allowed: holder-turn"),
        (("state", "new", "iquazu", "--players", "2", "--option", "colour=red"), "no option"),
        (("simulate", "iquazu", "--players", "1", "--games", "1"), "2 to 4 players"),
        (("simulate", "iquazu", "--players", "2", "--games", "1", "--bots", "genius"), "unknown bot"),
        (("play", "nope"), "unknown game"),
    ],
)
def test_bad_arguments_get_a_clear_message_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2 and message in err and "Traceback" not in err


def test_malformed_files_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    for text in ("{", "[]", '{"game": "iquazu"}', '{"game": "nope"}'):
        bad.write_text(text)
        code, _, err = run("state", "view", str(bad))
        assert code == 2 and err.strip() and "Traceback" not in err
    document = json.loads(run("state", "new", "iquazu", "--players", "2")[1])
    for field, value in (("slots", [99] * 98), ("hands", [[1, 2, 3]]), ("phase", 9), ("pile", [7])):
        bad.write_text(json.dumps({**document, field: value}))
        code, _, err = run("state", "show", str(bad))
        assert code == 2 and "malformed iquazu state" in err, (field, err)
    code, _, err = run("state", "view", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err
    code, _, err = run("replay", str(bad))
    assert code == 2 and "not a game record" in err


def test_simulate_json_summary(tmp_path: Path) -> None:
    code, out, _ = run(
        "simulate", "iquazu", "--players", "3", "--games", "4", "--seed", "1", "--records", str(tmp_path), "--json"
    )
    assert code == 0
    summary = json.loads(out)
    for key in (
        "game",
        "players",
        "games",
        "seed",
        "seconds",
        "games_per_second",
        "actions_per_second",
        "mean_actions_per_game",
        "mean_scores",
        "win_share",
    ):
        assert key in summary
    assert summary["games"] == 4 and len(summary["mean_scores"]) == 3
    assert abs(sum(summary["win_share"]) - 1) < 1e-9
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 4
    code, out, _ = run("replay", str(records[0]), "--json")
    assert code == 0 and json.loads(out)["verified"] is True


def test_simulate_with_two_jobs_gives_the_same_summary_as_one() -> None:
    one = json.loads(run("simulate", "iquazu", "--players", "2", "--games", "4", "--json")[1])
    two = json.loads(run("simulate", "iquazu", "--players", "2", "--games", "4", "--jobs", "2", "--json")[1])
    assert one["mean_scores"] == two["mean_scores"] and one["win_share"] == two["win_share"]


def test_replay_detects_a_tampered_result(tmp_path: Path) -> None:
    document = json.loads((GOLDEN / "iquazu-2p.json").read_text())
    record = document["record"]
    record["result"]["scores"] = [0, 0]
    file = tmp_path / "tampered.json"
    file.write_text(json.dumps(record))
    code, _, err = run("replay", str(file))
    assert code == 1 and "the record says" in err


def test_play_a_whole_game_from_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("play", "iquazu", "--players", "2", "--seed", "3", input="1\n" * 400)
    assert code == 0, out
    assert "game over" in out and "since your last turn" in out
    code, out, _ = run("replay", str(tmp_path / "spieltafel-iquazu-3.json"))
    assert code == 0 and "result verified" in out


def test_play_quits_and_saves_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("play", "iquazu", "--seed", "9", "--seat", "1", input="place 99z W\n1\nq\n")
    assert code == 0
    assert "cannot read" in out  # a malformed notation is explained, then asked again
    assert (tmp_path / "spieltafel-iquazu-9.json").exists()
    code, out, _ = run("replay", str(tmp_path / "spieltafel-iquazu-9.json"), "--json")
    assert code == 0 and json.loads(out)["finished"] is False


def test_bench_reports_every_figure() -> None:
    code, out, _ = run("bench", "iquazu", "--seconds", "0.3", "--json")
    assert code == 0
    rows = json.loads(out)["results"]
    assert [r["players"] for r in rows] == [2, 3, 4]
    for row in rows:
        assert row["actions_per_second"] > 0 and row["clones_per_second"] > 0
        assert row["determinisations_per_second"] > 0 and row["games"] >= 1
