"""pyproject.toml's ranges and the lock files agree (issue 31): the library states ranges, the locks pin,
with hashes, versions inside those ranges; the site's lock is the full lock's versions for the server extra.
Fast (no network): it reads the files."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCKED_EXTRAS = ("server", "client", "rl", "arena", "test")
"""The extras requirements.lock holds (the test extra names the other four); ``openspiel`` is not locked."""


def read_lock(name: str) -> dict[str, tuple[Version, list[str]]]:
    """Each pinned distribution of a lock file: its version and its hashes."""
    pins: dict[str, tuple[Version, list[str]]] = {}
    current = ""
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        pin = re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)", line)
        if pin:
            current = canonical(pin.group(1))
            pins[current] = (Version(pin.group(2)), [])
        elif line.strip().startswith("--hash=sha256:"):
            pins[current][1].append(line.strip())
    return pins


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements(*extras: str) -> list[Requirement]:
    """The base dependencies and those of ``extras``, without the package's references to itself."""
    project = PYPROJECT["project"]
    listed = list(project["dependencies"])
    for extra in extras:
        listed += project["optional-dependencies"][extra]
    return [r for r in map(Requirement, listed) if canonical(r.name) != "spieltafel"]


def test_pyproject_states_ranges_not_pins() -> None:
    project = PYPROJECT["project"]
    every = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]
    pinned = [r for r in every if any(s.operator in ("==", "===") for s in Requirement(r).specifier)]
    assert pinned == []


@pytest.mark.parametrize(
    ("lock", "extras"), [("requirements.lock", LOCKED_EXTRAS), ("requirements-server.lock", ("server",))]
)
def test_every_requirement_is_locked_inside_its_range_with_hashes(lock: str, extras: tuple[str, ...]) -> None:
    pins = read_lock(lock)
    build = [Requirement(r) for r in PYPROJECT["build-system"]["requires"]]
    for requirement in [*requirements(*extras), *build]:
        name = canonical(requirement.name)
        assert name in pins, f"{requirement} is not in {lock}"
        assert requirement.specifier.contains(pins[name][0], prereleases=True), (str(requirement), pins[name][0])
    assert all(hashes for _, hashes in pins.values()), "every pin of a lock has its hashes (pip's hash-checking mode)"


def test_the_site_lock_has_the_full_locks_versions() -> None:
    full, site = read_lock("requirements.lock"), read_lock("requirements-server.lock")
    assert {name: version for name, (version, _) in site.items()} == {name: full[name][0] for name in site}
    assert not {"ray", "numpy", "playwright", "pytest"} & site.keys()


def test_ci_runs_the_readmes_test_command_verbatim() -> None:
    """The README's second command (the lock, then the project, then the suite) is the one .ci/run runs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if line.startswith("python3 -m venv") and "pytest" in line)
    assert "-r requirements.lock" in command
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
