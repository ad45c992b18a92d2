"""A fourth game from outside the project (issue 24): ``examples/hand-of-five`` is its own distribution. It is
installed (from a copy, never copied into the project) into a new virtual environment that sees this
checkout's Spieltafel and nothing else of the game; there it appears in the command line, the bots and the
arena, the RL environments, the conformance, board, golden and rules suites, and a person plays it in the
browser against a bot, in English and German. The test environment itself never has the game, and the
checkout is unchanged afterwards: no line outside the game's own package was needed."""

from __future__ import annotations

import json
import random
import shutil
import site
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spieltafel.core import all_games

from .harness import REPO, Server, new_person, play_one, shoot, sign_up, wait_for, wait_live

EXAMPLE = REPO / "examples" / "hand-of-five"
GAME = "hand-of-five"


def _git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain"], cwd=REPO, capture_output=True, text=True).stdout


BEFORE: dict[str, str] = {}


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A new virtual environment with the game installed: Spieltafel and its dependencies come from this
    test environment (a ``.pth`` that adds its site-packages), the game only from its own distribution."""
    assert GAME not in {game.name for game in all_games()}, "the test environment must not have the game"
    BEFORE["status"] = _git_status()
    root = tmp_path_factory.mktemp("outside")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
    venv_python = str(root / "venv" / "bin" / "python")
    purelib = subprocess.run([venv_python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    ours = [path for path in site.getsitepackages() if Path(path).is_dir()]
    Path(purelib, "spieltafel-project.pth").write_text(
        "".join(f"import site; site.addsitedir({path!r})\n" for path in ours), encoding="utf-8")
    source = root / "hand-of-five"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    subprocess.run([venv_python, "-m", "pip", "install", "-q", "--no-deps", str(source)], check=True)
    yield venv_python


def run(python: str, *arguments: str, timeout: float = 600) -> str:
    done = subprocess.run([python, *arguments], cwd=REPO, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def test_the_game_is_registered_only_where_it_is_installed(python: str) -> None:
    listed = json.loads(run(python, "-m", "spieltafel.cli", "games", "--json"))
    names = [game["name"] for game in listed]
    assert GAME in names and {"iquazu", "haleakala", "niagara"} <= set(names)
    assert GAME not in {game.name for game in all_games()}


def test_the_command_line_bots_and_arena_play_it(python: str, tmp_path: Path) -> None:
    summary = json.loads(run(python, "-m", "spieltafel.cli", "simulate", GAME, "--players", "3", "--games", "3",
                             "--bots", "greedy,random", "--json"))
    assert summary["games"] == 3
    out = tmp_path / "arena"
    run(python, "-m", "spieltafel.cli", "arena", GAME, "--players", "2", "--bots", "hard,random", "--games", "2",
        "--jobs", "1", "--out", str(out))
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["game"] == GAME and results["games"] == 2 and results["bots"] == ["hard", "random"]


def test_the_project_suites_cover_it(python: str) -> None:
    """The conformance suite, the boards' and words' checks, the golden records (the game's own), the RL
    environments, the bots and the rules pages run over every registered game: there, this one too."""
    output = run(python, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:warnings", "-x",
                 "tests/conformance", "tests/boards", "tests/test_golden.py", "tests/rl", "tests/bots",
                 "tests/web_rules", str(EXAMPLE / "tests"), "-k", "hand-of-five or hand_of_five or catalogs")
    counts = next(line for line in reversed(output.splitlines()) if " passed" in line or " failed" in line)
    assert " passed" in counts and "failed" not in counts, counts
    assert int(counts.split(" passed")[0].split()[-1]) >= 60, counts


def test_a_person_plays_it_in_the_browser_against_a_bot(python: str, browser: Any, shots: Path) -> None:
    server = Server(python=python)
    try:
        page = new_person(browser)
        sign_up(page, server.url, "outsider")
        page.goto(f"{server.url}/tables/new?game={GAME}&players=2")
        assert page.locator(f"a[href='/tables/new?game={GAME}']").count() == 1  # listed among the games
        page.select_option("#seat-1", "bot:random")
        page.click("form.new-table button[type=submit]")
        page.wait_for_url(f"{server.url}/tables/*")
        table = int(page.url.rstrip("/").rsplit("/", 1)[1])
        wait_live(page)
        shoot(page, shots, "hand-of-five")
        rng = random.Random(5)
        moves = 0
        while not page.locator("#h-result").count():
            wait_for(lambda: page.locator("#turn-banner.mine").count() or page.locator("#h-result").count(),
                     timeout=30)
            if page.locator("#h-result").count():
                break
            play_one(page, rng, keyboard=moves % 4 == 3)
            moves += 1
            assert moves <= 30
        # two players: 30 turns each; the last card, the only legal move left, plays itself (docs/play.md), and
        # play_one may or may not see that turn come before the page has played it
        assert 29 <= moves <= 30
        assert page.locator(".result-table tbody tr").count() == 2
        page.goto(f"{server.url}/tables/{table}/replay")
        assert int(page.locator("#replay-step").get_attribute("max") or "0") == 60
        german = new_person(browser, "de")
        german.goto(f"{server.url}/rules/{GAME}")
        assert "Spiele eine Karte, die höher ist" in german.locator("main").inner_text()
        german.goto(f"{server.url}/rules")
        assert german.locator(f"li[data-game='{GAME}']").count() == 1
        assert not page.csp_errors and not german.csp_errors, page.csp_errors + german.csp_errors
        page.context.close()
        german.context.close()
    finally:
        server.stop()


def test_nothing_outside_the_game_changed(python: str) -> None:
    """The game came in by installation alone: the checkout is as it was before, and no file of the project
    outside the game's own folder names it."""
    assert _git_status() == BEFORE["status"]
    named = subprocess.run(["git", "grep", "-l", "-i", "-e", "hand-of-five", "-e", "hand_of_five", "--", "src"],
                           cwd=REPO, capture_output=True, text=True).stdout
    assert named == "", named
