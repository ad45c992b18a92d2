"""Programs as players: ``spieltafel connect`` plays whole games against a person through a real
``spieltafel serve`` (a bot level, and a Python callable from examples/), program accounts are marked
as such, and the sample route gives a seat's determinisation and nothing to others."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from spieltafel.cli import app as cli
from spieltafel.core import GameRecord, get_game, replay
from spieltafel.server.app import create_app

from .conftest import settings_for
from .helpers import PASSWORD, rated, unique_name
from .processes import Server
from .sync_client import table, token

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("connect") / "data")
    yield running
    running.stop()


def account(http: httpx.Client, program: bool = False) -> tuple[str, dict[str, str]]:
    name = unique_name("r" if program else "p")
    made = http.post("/api/accounts", json={"name": name, "password": PASSWORD, "program": program})
    assert made.status_code == 201, made.text
    http.post("/api/session", json={"name": name, "password": PASSWORD})
    issued = http.post("/api/tokens").json()["token"]
    http.cookies.clear()
    return issued, {"Authorization": f"Bearer {issued}"}


def connect(server: Server, program_token: str, table_id: int, *how: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "spieltafel.cli", "connect", server.url, "--table", str(table_id), *how]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "SPIELTAFEL_TOKEN": program_token}
    return subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def person_plays(http: httpx.Client, table_id: int, me: dict[str, str], rng: random.Random) -> dict[str, Any]:
    """The person's random legal moves over HTTP until the game ends (the program joins on its own)."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        state = http.get(f"/api/tables/{table_id}/state", headers=me).json()
        if state["result"] is not None:
            return state
        if state["legal"]:
            move = {"seq": state["seq"], "action": rng.choice(state["legal"])["action"]}
            assert http.post(f"/api/tables/{table_id}/moves", json=move, headers=me).status_code in (200, 409)
        else:
            time.sleep(0.02)
    raise AssertionError(f"table {table_id} did not end")


@pytest.mark.parametrize(
    ("game", "how"),
    [("iquazu", ["--bot", "hard"]), ("haleakala", ["--player", "examples/program_player.py:choose"])],
)
def test_connect_plays_a_whole_game_against_a_person(server: Server, game: str, how: list[str]) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        _, alice = account(http)
        robot_token, robot = account(http, program=True)
        robot_name = http.get("/api/session", headers=robot).json()["name"]
        body = {"game": game, "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}
        table_id = http.post("/api/tables", json=body, headers=alice).json()["id"]
        process = connect(server, robot_token, table_id, *how)
        try:
            final = person_plays(http, table_id, alice, random.Random(len(game)))
            output, _ = process.communicate(timeout=60)
        finally:
            process.kill()
        assert process.returncode == 0, output
        assert f"{robot_name} plays seat 1 of table {table_id}" in output
        assert f"game over: scores {final['result']['scores']}" in output
        record = GameRecord.model_validate(http.get(f"/api/tables/{table_id}/record").json())
        assert record.seats[1] == robot_name and replay(record).scores() == final["result"]["scores"]
        moves_by_program = sum(1 for action in record.actions if action.seat == 1)
        played = {line.split(":")[0] for line in output.splitlines() if line.startswith("seq ")}
        assert moves_by_program > 0 and len(played) == moves_by_program  # a move resent after a reconnect: once
        seat = http.get(f"/api/tables/{table_id}").json()["seats"][1]
        assert seat["name"] == robot_name and seat["program"] is True
        board = rated(http.get, game, lambda now: robot_name in now and len(now) == 2)
        kinds = {e["name"]: e["kind"] for e in board.values()}
        assert kinds[robot_name] == "program" and "person" in kinds.values()
        assert http.get(f"/api/players/{robot_name}").json()["kind"] == "program"
        page = http.get(f"/tables/{table_id}").text
        assert f"{robot_name} (program)" in page


def test_connect_refuses_clearly(server: Server) -> None:
    runner = CliRunner()
    neither = runner.invoke(cli, ["connect", server.url, "--token", "x", "--table", "1"])
    assert neither.exit_code == 2 and "exactly one of --bot and --player" in neither.output
    with httpx.Client(base_url=server.url, timeout=30) as http:
        robot_token, _ = account(http, program=True)
    for args, words in [
        (["--token", "stt_wrong", "--table", "1", "--bot", "random"], "signed-out"),
        (["--token", robot_token, "--table", "999999", "--bot", "random"], "no-table"),
        (["--token", robot_token, "--table", "1", "--bot", "godlike"], "unknown bot"),
        (["--token", robot_token, "--table", "1", "--player", "examples/none.py:choose"], "no Python file"),
        (["--token", robot_token, "--table", "1", "--player", "json:nothing"], "no callable"),
    ]:
        result = runner.invoke(cli, ["connect", server.url, *args])
        assert result.exit_code == 2 and words in result.output, (args, result.output)


def test_the_sample_is_a_determinisation_for_the_seat_only(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path))) as http:
        alice, bob = token(http), token(http)
        table_id = table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "open"}])
        assert http.get(f"/api/tables/{table_id}/sample", headers=alice).json()["detail"]["code"] == "not-playing"
        http.post(f"/api/tables/{table_id}/join", headers=bob)
        for who, seat in ((alice, 0), (bob, 1)):
            drawn = http.get(f"/api/tables/{table_id}/sample", headers=who).json()
            state = http.get(f"/api/tables/{table_id}/state", headers=who).json()
            assert drawn["seat"] == seat and drawn["seq"] == state["seq"] == 0
            sample = get_game("iquazu").state_from_json(drawn["state"])
            assert sample.view(seat) == state["view"]
        carol = token(http)
        assert http.get(f"/api/tables/{table_id}/sample", headers=carol).json()["detail"]["code"] == "not-seated"
        assert http.get(f"/api/tables/{table_id}/sample").status_code == 401


def test_an_account_marks_itself_as_a_program(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path))) as http:
        alice = token(http)
        name = http.get("/api/session", headers=alice).json()["name"]
        table_id = table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "open"}])
        http.post(f"/api/tables/{table_id}/chat", json={"text": "hello"}, headers=alice)
        assert http.get(f"/api/tables/{table_id}/chat").json()[0]["program"] is False
        marked = http.put("/api/account/program", json={"program": True}, headers=alice)
        assert marked.json() == {"name": name, "program": True}
        assert http.get(f"/api/tables/{table_id}").json()["seats"][0]["program"] is True
        assert http.get(f"/api/tables/{table_id}/chat").json()[0]["program"] is True
        assert http.put("/api/account/program", json={"program": "yes"}, headers=alice).status_code == 422
        assert http.put("/api/account/program", json={"program": True}).status_code == 401


TAKING_BACK = '''
import random

from spieltafel.core.undo import UNDO

taken = []
rng = random.Random(4)


def choose(observation):
    """Take back up to three moves where the server allows it, else a random legal action."""
    if observation.undo > 0 and len(taken) < 3:
        taken.append(observation.undo)
        return UNDO
    return rng.choice(observation.legal)
'''


def test_a_program_takes_back_through_connect(server: Server, tmp_path: Path) -> None:
    """A ``--player`` callable sees ``observation.undo`` and returns UNDO: the server takes the move back
    (an entry of the log), the game goes on and the record holds only the moves that stand."""
    player = tmp_path / "taking_back.py"
    player.write_text(TAKING_BACK)
    with httpx.Client(base_url=server.url, timeout=30) as http:
        _, alice = account(http)
        robot_token, _ = account(http, program=True)
        body = {"game": "haleakala", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}
        table_id = http.post("/api/tables", json=body, headers=alice).json()["id"]
        process = connect(server, robot_token, table_id, "--player", f"{player}:choose")
        try:
            final = person_plays(http, table_id, alice, random.Random(9))
            output, _ = process.communicate(timeout=60)
        finally:
            process.kill()
        assert process.returncode == 0, output
        takebacks = sum(1 for line in output.splitlines() if line.startswith("seq ") and line.endswith(": undo"))
        assert takebacks == 3, output
        record = GameRecord.model_validate(http.get(f"/api/tables/{table_id}/record").json())
        assert all(action.action != "undo" for action in record.actions)
        assert replay(record).scores() == final["result"]["scores"]
        assert final["seq"] == len(record.actions) + 2 * takebacks  # each takeback and its move stay in the log
