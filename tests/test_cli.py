"""The command line, as a person or a script uses it."""

from __future__ import annotations

import json
import re
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
        assert code == 2 and f"malformed iquazu state: {field}" in err, (field, err)
    for text in ('{"game": "iquazu", "options": []}', "[" * 100_000, '{"game": "iquazu", "seed": 1e999}'):
        bad.write_text(text)
        code, _, err = run("state", "actions", str(bad))
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (text[:30], err)
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
    during, after = out.split("game over", 1)
    assert "seed" not in during and "seed 3" in after  # the seed is told once the game is over
    (record,) = tmp_path.glob("spieltafel-iquazu-*.json")
    assert json.loads(record.read_text())["seed"] == 3
    code, out, _ = run("replay", str(record))
    assert code == 0 and "result verified" in out


def test_play_quits_and_saves_a_public_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 8: the seed (it fixes every hidden card) is neither shown nor saved before the end."""
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("play", "iquazu", "--seed", "9", "--seat", "1", input="place 99z W\n1\nq\n")
    assert code == 0
    assert "cannot read" in out  # a malformed notation is explained, then asked again
    assert "seed 9" not in out
    (saved,) = tmp_path.glob("spieltafel-iquazu-*.json")
    assert re.fullmatch(r"spieltafel-iquazu-\d{8}-\d{6}\.json", saved.name)  # a time, not the seed
    record = json.loads(saved.read_text())
    assert record["seed"] is None and record["result"] is None and len(record["actions"]) >= 2
    code, _, err = run("replay", str(saved), "--json")
    assert code == 2 and "public record of an unfinished game" in err and len(err.strip().splitlines()) == 1


def test_play_saves_no_face_down_card_of_another_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 9: `echo q | spieltafel play niagara --players 3 --seat 0 --bots random --seed 5` saved the
    bots' face-down choices of the open round."""
    monkeypatch.chdir(tmp_path)
    code, _, _ = run("play", "niagara", "--players", "3", "--seat", "0", "--bots", "random", "--seed", "5", input="q\n")
    assert code == 0
    (saved,) = tmp_path.glob("spieltafel-niagara-*.json")
    record = json.loads(saved.read_text())
    assert record["seed"] is None and record["actions"] == []


def test_replay_of_a_record_without_result_that_the_actions_finish(tmp_path: Path) -> None:
    record = json.loads((GOLDEN / "iquazu-2p.json").read_text())["record"]
    record["result"] = None
    file = tmp_path / "no-result.json"
    file.write_text(json.dumps(record))
    code, out, _ = run("replay", str(file))
    assert code == 0 and "to its end" in out and "unfinished" not in out


@pytest.mark.parametrize("seed", ['"3"', "3.7", "-1", "true", "1e999", "18446744073709551616"])
def test_state_files_take_only_whole_non_negative_seeds(tmp_path: Path, seed: str) -> None:
    document = run("state", "new", "iquazu", "--players", "2")[1].replace('"seed": 0', f'"seed": {seed}')
    file = tmp_path / "s.json"
    file.write_text(document)
    code, out, err = run("state", "view", str(file))
    assert code == 2 and out == "" and ("seed" in err or "number" in err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("game", "action", "shown"),
    [
        ("iquazu", "[/]", "'[/]'"),
        ("iquazu", "[bold]draw[/bold]", "'[bold]draw[/bold]'"),
        ("iquazu", "nonsense", "place <slot> <cards> [any]"),
        ("haleakala", "nonsense", "place <value> b<segment> [lava]"),
        ("iquazu", "place ²a W", "'place ²a W'"),
        ("haleakala", "place ² b2", "'place ² b2'"),
        ("iquazu", "place " + "1" * 5000 + "a W", "5009 characters"),
    ],
)
def test_refusals_print_user_and_engine_text_literally(tmp_path: Path, game: str, action: str, shown: str) -> None:
    """Issue 8: error text was read as Rich markup ('[/]' crashed, '[any]' vanished) and Unicode or
    5,000-digit numbers in a notation crashed int()."""
    file = tmp_path / "s.json"
    file.write_text(run("state", "new", game, "--players", "2")[1])
    code, out, err = run("state", "apply", str(file), action, "--seat", "0")
    assert code == 2 and out == "" and "Traceback" not in err
    assert shown in err and len(err.strip().splitlines()) == 1


def test_a_megabyte_action_is_not_echoed_back(tmp_path: Path) -> None:
    file = tmp_path / "s.json"
    file.write_text(run("state", "new", "iquazu", "--players", "2")[1])
    code, _, err = run("state", "apply", str(file), "x" * 1_000_000, "--seat", "0")
    assert code == 2 and len(err) < 400 and "1000000 characters" in err


@pytest.mark.parametrize(
    "args",
    [
        ("play", "iquazu", "--seat", "-1"),
        ("play", "iquazu", "--seat", "x"),
        ("state", "view", "--seat", "-1"),
        ("state", "new", "iquazu", "--players", "two"),
        ("play", "iquazu", "--bogus"),
    ],
)
def test_usage_errors_are_one_line(args: tuple[str, ...]) -> None:
    code, _, err = run(*args, input="")
    assert code == 2 and "Traceback" not in err and "╭" not in err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error:")


def test_bench_reports_every_figure() -> None:
    code, out, _ = run("bench", "iquazu", "--seconds", "0.3", "--json")
    assert code == 0
    rows = json.loads(out)["results"]
    assert [r["players"] for r in rows] == [2, 3, 4]
    for row in rows:
        assert row["actions_per_second"] > 0 and row["clones_per_second"] > 0
        assert row["determinisations_per_second"] > 0 and row["games"] >= 1


@pytest.mark.parametrize(("flag", "clock"), [((), "cpu"), (("--wall-clock",), "wall")])
def test_bench_names_its_clock(flag: tuple[str, ...], clock: str) -> None:
    code, out, _ = run("bench", "haleakala", "--seconds", "0.2", "--json", *flag)
    assert code == 0
    document = json.loads(out)
    assert document["clock"] == clock
    assert document["results"][0]["seconds"] >= 0.2


def test_version_is_the_package_metadatas() -> None:
    from importlib.metadata import version

    import spieltafel

    code, out, _ = run("--version")
    assert code == 0 and out == f"spieltafel {version('spieltafel')}\n"
    assert spieltafel.__version__ == version("spieltafel")


def test_a_command_whose_extra_is_missing_says_which_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``spieltafel serve`` does in a base install (tests/install runs the real one)."""
    import importlib

    import spieltafel.cli as cli

    real = importlib.import_module

    def without_fastapi(name: str, package: str | None = None) -> object:
        if name == "spieltafel.server.command":
            raise ModuleNotFoundError("No module named 'fastapi'", name="fastapi")
        return real(name, package)

    monkeypatch.setattr(cli.importlib, "import_module", without_fastapi)
    monkeypatch.setattr(cli, "app", cli.typer.Typer(cls=cli.OneLineErrors))
    cli.optional_command("serve", "spieltafel.server.command", "serve", "server")
    cli.app.command("games")(cli.games)
    result = runner.invoke(cli.app, ["serve", "--port", "8000", "--data", "x"])
    assert result.exit_code == 2
    assert result.stderr == "error: spieltafel serve needs the server extra: pip install 'spieltafel[server]'\n"


def test_a_broken_spieltafel_module_is_not_taken_for_a_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import spieltafel.cli as cli

    def broken(name: str, package: str | None = None) -> object:
        raise ModuleNotFoundError("No module named 'spieltafel.server.gone'", name="spieltafel.server.gone")

    monkeypatch.setattr(cli.importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError):
        cli.optional_command("serve", "spieltafel.server.command", "serve", "server")
