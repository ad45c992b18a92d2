"""The built distributions, installed into fresh virtual environments as users install them (issue 31):

- the base install (the pure-Python wheel with its declared dependencies from the package index): no web
  stack installed or imported, every module of the base imports, a game of each title from Python and
  from the command line, and each command of an extra says in one line which extra to install;
- the server extra (from the wheel): ``spieltafel serve`` starts and answers ``/healthz``, a page, a
  static file;
- everything (``[all]``, the compiled wheel): every module imports, the engines run compiled, the arena
  writes its plots, an RL environment resets, OpenSpiel is found.

``pip check`` is clean in each. The server's install is a site's (requirements-server.lock with its hashes,
then the wheel); everything resolves within requirements.lock's versions as constraints (the versions CI
tests); the base install resolves freely, as a researcher's pip would. Slow (a few minutes; the package
index is needed), so they are marked ``install``: ``pytest -m 'not install'`` leaves them out.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, Dists

pytestmark = [pytest.mark.install, pytest.mark.timeout(900)]

WEB_STACK = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "redis", "asyncpg", "jinja2", "babel")
"""Distributions of the server extra that the base install must not bring."""

NOT_BASE = (*WEB_STACK, "httpx", "numpy", "matplotlib", "openskill", "ray", "gymnasium", "pettingzoo")
"""Distributions of any extra: none is installed by, or imported from, the base install."""

WALK = r"""
import fnmatch, importlib, importlib.metadata, json, pkgutil, sys
import spieltafel
from spieltafel.extras import EXTRA_MODULES

everything = sys.argv[1] == "all"
patterns = [] if everything else [p for extra in EXTRA_MODULES.values() for p in extra]

SCRIPTS = ("spieltafel.server.db.migrations.env",)  # alembic runs it; it is not imported

def excluded(name):
    return name in SCRIPTS or any(fnmatch.fnmatch(name, p) or name.startswith(p + ".") for p in patterns)

def walk(path, prefix):
    for info in pkgutil.iter_modules(path):
        name = prefix + info.name
        if excluded(name):
            continue
        yield name
        if info.ispkg:
            yield from walk([f"{p}/{info.name}" for p in path], name + ".")

modules = sorted(set(walk(spieltafel.__path__, "spieltafel.")))
for name in modules:
    importlib.import_module(name)
from spieltafel.build import engine_build
print(json.dumps({
    "modules": modules,
    "imported": sorted({m.split(".")[0] for m in sys.modules}),
    "version": spieltafel.__version__,
    "metadata": importlib.metadata.version("spieltafel"),
    "build": engine_build(),
}))
"""
"""Imports every module of the package but the extras' (``all``: every module) and says what was imported."""

PLAY = r"""
from spieltafel.core import Rng, all_games
for game in all_games():
    state = game.new_state(players=game.min_players, seed=3)
    rng = Rng(0)
    while not state.is_over:
        for seat in state.seats_to_act():
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    print(game.name, state.scores(), state.winners())
"""
"""A random game of every title from Python, as the README's first example."""


class Venv:
    """A fresh virtual environment under ``path``."""

    def __init__(self, path: Path) -> None:
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
        self.path = path
        self.python = str(path / "bin" / "python")

    def pip(self, *args: str) -> str:
        """Run pip in the environment; its output. (The installs pass ``--no-compile``: byte-compiling every
        installed module, Ray's and matplotlib's included, was a large part of their time.)"""
        done = self.run(self.python, "-m", "pip", "--disable-pip-version-check", *args)
        return done.stdout

    def run(
        self, *args: str, check: bool = True, cwd: Path | None = None, stdin: str = ""
    ) -> subprocess.CompletedProcess[str]:
        """Run a command (a name in the environment's bin/, or a path) with no PYTHONPATH of ours."""
        command = [str(self.path / "bin" / args[0]) if "/" not in args[0] else args[0], *args[1:]]
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, input=stdin, timeout=600)
        if check and done.returncode != 0:
            raise AssertionError(f"{command} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        return done

    def installed(self) -> set[str]:
        """The names of the installed distributions (lower case, ``-`` for ``_``)."""
        listed = json.loads(self.pip("list", "--format", "json"))
        return {entry["name"].lower().replace("_", "-") for entry in listed}

    def walk(self, which: str) -> dict[str, Any]:
        """Import every module (``base``: but the extras'), in a fresh interpreter; what it reports."""
        found: dict[str, Any] = json.loads(self.run(self.python, "-c", WALK, which).stdout)
        return found

    def check(self) -> None:
        """``pip check`` finds nothing broken."""
        assert "No broken requirements found" in self.pip("check")


def test_the_base_install_has_the_engines_and_the_terminal_and_no_web_stack(dists: Dists, tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    venv.pip("install", "-q", "--no-compile", str(dists.pure))  # its dependencies from the index, resolved freely
    venv.check()
    installed = venv.installed()
    assert {"spieltafel", "typer", "rich", "pydantic"} <= installed
    assert installed.isdisjoint(NOT_BASE), installed & set(NOT_BASE)

    walked = venv.walk("base")
    assert {"spieltafel.cli", "spieltafel.core", "spieltafel.bots.ismcts", "spieltafel.games.niagara.rules"} <= set(
        walked["modules"]
    )
    assert not any(m.startswith(("spieltafel.server", "spieltafel.rl")) for m in walked["modules"])
    assert set(walked["imported"]).isdisjoint({"fastapi", "sqlalchemy", "redis", "numpy", "matplotlib"})
    assert walked["build"] == "pure Python"
    assert walked["version"] == walked["metadata"]
    assert venv.run("spieltafel", "--version").stdout.strip() == f"spieltafel {walked['metadata']}"

    played = venv.run(venv.python, "-c", PLAY).stdout.splitlines()
    assert [line.split()[0] for line in played] == ["haleakala", "iquazu", "niagara"]
    _terminal_games(venv, tmp_path)
    _commands_of_extras_say_which(venv, tmp_path)


def _terminal_games(venv: Venv, tmp_path: Path) -> None:
    """A game of each title from the command line, replayed from its record; the other base commands."""
    records = tmp_path / "records"
    for game, players in (("iquazu", 3), ("haleakala", 2), ("niagara", 3)):
        args = ("simulate", game, "--players", str(players), "--games", "1", "--bots", "greedy,random")
        summary = json.loads(venv.run("spieltafel", *args, "--records", str(records), "--json").stdout)
        assert summary["games"] == 1 and summary["mean_actions_per_game"] > 10
        record = records / f"{game}-{players}p-seed0.json"
        assert json.loads(venv.run("spieltafel", "replay", str(record), "--json").stdout)["verified"]
    state = tmp_path / "s.json"
    state.write_text(venv.run("spieltafel", "state", "new", "iquazu", "--players", "2", "--seed", "5").stdout)
    assert venv.run("spieltafel", "state", "actions", str(state)).stdout.strip()
    played = venv.run("spieltafel", "play", "haleakala", "--seed", "1", cwd=tmp_path, stdin="1\nq\n")
    assert "game saved" in played.stdout
    bench = json.loads(venv.run("spieltafel", "bench", "niagara", "--seconds", "0.2", "--json").stdout)
    assert bench["engine"] == "pure Python" and bench["results"]
    assert "iquazu" in venv.run("spieltafel", "games").stdout


def _commands_of_extras_say_which(venv: Venv, tmp_path: Path) -> None:
    """Each command of an extra: exit code 2 and one line naming the extra to install, no traceback."""
    for command, extra in (
        (["serve", "--port", "0"], "server"),
        (["worker"], "server"),
        (["connect", "http://127.0.0.1:1", "--token", "t", "--table", "1", "--bot", "random"], "client"),
        (["arena", "iquazu", "--players", "2", "--bots", "random,random", "--games", "2"], "arena"),
        (["bench", "iquazu", "--seconds", "0.1", "--compare-openspiel"], "openspiel"),
    ):
        done = venv.run("spieltafel", *command, check=False, cwd=tmp_path)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and f"pip install 'spieltafel[{extra}]'" in lines[0], (command, done.stderr)
        assert f"needs the {extra} extra" in lines[0]


def test_the_server_extra_from_the_wheel_serves(dists: Dists, tmp_path: Path) -> None:
    """A site's install (docs/deploy.md): the server lock with its hashes, then the wheel's server extra, which
    the lock must satisfy (pip installs nothing more than the wheel)."""
    venv = Venv(tmp_path / "venv")
    venv.pip("install", "-q", "--no-compile", "-r", str(ROOT / "requirements-server.lock"))
    locked = venv.installed()
    venv.pip("install", "-q", "--no-compile", f"{dists.pure}[server]")
    assert venv.installed() - locked == {"spieltafel"}
    venv.check()
    installed = venv.installed()
    assert {"fastapi", "sqlalchemy", "redis", "uvicorn", "openskill"} <= installed
    assert installed.isdisjoint({"numpy", "matplotlib", "ray"}), installed
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [str(venv.path / "bin" / "spieltafel"), "serve", "--port", "0", "--data", str(tmp_path / "data")]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        url = _wait_for_url(server)
        health = json.loads(_get(f"{url}/healthz"))
        assert health["status"] == "ok", health
        assert "<html" in _get(f"{url}/").lower()  # a page: the templates and catalogues are in the wheel
        assert _get(f"{url}/rules/niagara")
        assert "function" in _get(f"{url}/static/table.js")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def test_the_source_builds_compiled_in_pips_own_isolation(dists: Dists, tmp_path: Path) -> None:
    """The README's first command installs from source with pip's isolated build (its own setuptools and
    mypy, none of the project's dependencies): mypyc must compile the engines there. It once followed the
    bots' import of spieltafel.openspiel into numpy, failed, and the install stopped (the wheels above are
    built without isolation, so they did not see it)."""
    venv = Venv(tmp_path / "venv")
    venv.pip("install", "-q", "--no-compile", "-r", str(ROOT / "requirements-server.lock"))
    venv.pip("install", "-q", "--no-compile", f"{dists.sdist}[server]")
    venv.check()
    built = venv.run(venv.python, "-c", "from spieltafel.build import engine_build; print(engine_build())")
    assert built.stdout.strip() == "compiled (mypyc)", built.stdout + built.stderr


def _wait_for_url(server: subprocess.Popen[str], seconds: float = 120) -> str:
    """The address ``spieltafel serve`` prints once it accepts connections."""
    assert server.stdout is not None
    deadline = time.monotonic() + seconds
    seen = []
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line and server.poll() is not None:
            break
        seen.append(line)
        if line.startswith("Spieltafel serves "):
            return line.split()[2]
    raise AssertionError("spieltafel serve did not start:\n" + "".join(seen))


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        assert answer.status == 200, url
        text: str = answer.read().decode("utf-8")
        return text


def test_everything_from_the_compiled_wheel(dists: Dists, compiled_wheel: Path, tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    venv.pip("install", "-q", "--no-compile", "-c", str(dists.constraints), f"{compiled_wheel}[all]")
    venv.check()
    assert {"fastapi", "numpy", "matplotlib", "ray", "openskill", "httpx", "open-spiel"} <= venv.installed()
    walked = venv.walk("all")
    assert {"spieltafel.server.app", "spieltafel.rl.gymnasium_env", "spieltafel.connect"} <= set(walked["modules"])
    assert walked["build"] == "compiled (mypyc)"
    assert walked["version"] == walked["metadata"]
    env = "from spieltafel import rl; e = rl.env('niagara', players=3); e.reset(seed=0); print(len(e.agents))"
    assert venv.run(venv.python, "-c", env).stdout.strip() == "3"
    args = ("arena", "iquazu", "--players", "2", "--bots", "greedy,random", "--games", "2", "--out", "arena")
    venv.run("spieltafel", *args, "--json", cwd=tmp_path)
    assert sorted(p.suffix for p in (tmp_path / "arena").iterdir()).count(".png") >= 1
    bench = ("bench", "haleakala", "--seconds", "0.2", "--compare-openspiel", "--json")
    assert json.loads(venv.run("spieltafel", *bench).stdout)["openspiel_backgammon"]
