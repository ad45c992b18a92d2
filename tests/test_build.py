"""The build the engines run on (``spieltafel.build``): compiled with mypyc or pure Python, and the warning
about compiled modules older than their sources."""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from spieltafel import build


def test_the_build_is_the_one_ci_asked_for() -> None:
    """``.ci/run`` runs the suite on both builds and says which one each run must be."""
    expected = os.environ.get("SPIELTAFEL_EXPECT_BUILD")
    if not expected:
        pytest.skip("SPIELTAFEL_EXPECT_BUILD is not set (only .ci/run sets it)")
    assert build.engine_build() == expected
    compiled = build.compiled_modules()
    if expected == "pure Python":
        assert compiled == []
    else:
        assert {"spieltafel.core.game", "spieltafel.games.iquazu.rules", "spieltafel.bots.ismcts"} <= set(compiled)


def _package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    package = tmp_path / "spieltafel"
    (package / "games").mkdir(parents=True)
    monkeypatch.setattr(build, "PACKAGE", package)
    return package


def test_a_compiled_module_older_than_its_source_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, monkeypatch)
    suffix = EXTENSION_SUFFIXES[0]
    for name in ("rules", "state"):
        (package / "games" / f"{name}.py").write_text("")
        (package / "games" / f"{name}{suffix}").write_bytes(b"")
    os.utime(package / "games" / "rules.py", (2_000_000_000, 2_000_000_000))  # edited after compiling
    os.utime(package / "games" / f"state{suffix}", (2_000_000_000, 2_000_000_000))
    assert build.compiled_modules() == ["spieltafel.games.rules", "spieltafel.games.state"]
    assert build.stale_modules() == [str(Path("spieltafel/games/rules.py"))]
    with pytest.warns(RuntimeWarning, match=r"older than their sources \(spieltafel/games/rules\.py\)"):
        build.warn_if_stale()


def test_a_pure_installation_has_nothing_to_warn_about(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, monkeypatch)
    (package / "games" / "rules.py").write_text("")
    assert build.compiled_modules() == []
    assert build.stale_modules() == []
