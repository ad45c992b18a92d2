"""The distributions the packaging tests install: built once per test session (once across the xdist
workers: the first builds under a file lock, the others find the result) with ``python -m build
--no-isolation``, so the build uses the setuptools and mypy of the test environment (the lock's)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Dists:
    """The built sdist and pure-Python wheel, and the lock's versions as pip constraints."""

    sdist: Path
    pure: Path
    constraints: Path


def build(out: Path, *args: str, pure: bool, source: Path = ROOT) -> None:
    """``python -m build --no-isolation`` of ``source`` into ``out``, pure Python or with the engines compiled."""
    env = {**os.environ, "SPIELTAFEL_PURE_PYTHON": "1" if pure else "0"}
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), *args, str(source)],
        env=env, check=True, capture_output=True, text=True,
    )


def constraints_from_lock(lock: Path, out: Path) -> Path:
    """requirements.lock without its hashes: the tested versions as a pip constraints file (pip refuses
    hashes in constraints), so the installs below resolve to the same set as CI's own environment."""
    lines = []
    for line in lock.read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip().rstrip("\\").strip()
        if text and not text.startswith("--"):
            lines.append(text)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _find(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, f"{pattern} in {folder}: {found}"
    return found[0]


def _built(shared: Path, name: str, make: Callable[[Path], None]) -> Path:
    """``shared/name``, made by ``make`` by the first worker to ask (the others wait for it, then reuse it)."""
    folder = shared / name
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / "done").exists():
            folder.mkdir(exist_ok=True)
            make(folder)
            (folder / "done").write_text("")
    return folder


def _shared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every xdist worker of this session sees (the session's base folder without xdist)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _make_pure(folder: Path) -> None:
    build(folder, pure=True)  # the sdist, then the pure wheel built from it (as pip builds one from PyPI)
    constraints_from_lock(ROOT / "requirements.lock", folder / "constraints.txt")


@pytest.fixture(scope="session")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    """The sdist and the pure wheel (``SPIELTAFEL_PURE_PYTHON=1 python -m build``)."""
    folder = _built(_shared(tmp_path_factory), "dists", _make_pure)
    return Dists(
        sdist=_find(folder, "spieltafel-*.tar.gz"),
        pure=_find(folder, "spieltafel-*-py3-none-any.whl"),
        constraints=folder / "constraints.txt",
    )


@pytest.fixture(scope="session")
def compiled_wheel(tmp_path_factory: pytest.TempPathFactory, dists: Dists) -> Path:
    """The wheel with the engines compiled by mypyc for this platform, built from the sdist (``python -m
    build`` does the same: never from the working tree, where the editable install and the sdist build write)."""

    def make(out: Path) -> None:
        with tarfile.open(dists.sdist) as sdist:
            sdist.extractall(out / "sdist", filter="data")
        (unpacked,) = (out / "sdist").iterdir()
        build(out, "--wheel", pure=False, source=unpacked)

    return _find(_built(_shared(tmp_path_factory), "compiled", make), "spieltafel-*-cp3*.whl")
