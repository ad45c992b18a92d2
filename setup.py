"""Build of Spieltafel: the engine packages compiled with mypyc where possible, pure Python otherwise.

The rule engines and the search bots are plain, ``mypy --strict`` Python; mypyc
compiles the same source files to C extensions (about 2× faster search). Pure Python stays the
reference: ``SPIELTAFEL_PURE_PYTHON=1 pip install ...`` builds without compiling, and a build whose C
compilation fails falls back to pure Python with a warning. Both must give identical results (the CI
runs the engine suites on both builds). Everything else (project data, dependencies) is in pyproject.toml.
"""

from __future__ import annotations

import ast
import os
import sys
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext


def game_modules(package: Path) -> list[str]:
    """The modules a built-in game declares for compiling: the ``COMPILED`` tuple of its ``__init__.py``, read
    without importing it (its kit's ``compiled``; docs/games.md)."""
    tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "COMPILED" for t in node.targets):
            return [str(package / f"{module}.py") for module in ast.literal_eval(node.value)]
    return []


COMPILED = [
    "src/spieltafel/core/game.py",
    "src/spieltafel/core/kiss.py",
    "src/spieltafel/bots/ismcts.py",
    "src/spieltafel/bots/greedy.py",
    *(module for package in sorted(Path("src/spieltafel/games").iterdir()) if (package / "__init__.py").is_file()
      for module in game_modules(package)),
]
"""The modules on the search's hot path (rules, state, views for determinisation, heuristics, search).
Not ``core/rng.py``: SplitMix64 works on 64-bit numbers, beyond mypyc's fast small integers, and compiled
it was slower than CPython's own big-integer arithmetic (``Rng.choice`` 875 against 747 ns, ``shuffle`` of
45 items 35 against 22 µs; ISMCTS as fast or faster without it: docs/performance.md)."""


class OptionalBuildExt(build_ext):  # type: ignore[misc]
    """Compile the extensions, or leave the package pure Python if the C compiler fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, missing headers: pure Python still works
            _warn(f"compiling the engines failed ({error}); what did not compile stays pure Python")


def _warn(message: str) -> None:
    print(f"spieltafel: {message}", file=sys.stderr)


def _extensions() -> list[object]:
    if os.environ.get("SPIELTAFEL_PURE_PYTHON", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not available; installing pure Python")
        return []
    # pip builds in an isolated environment without the project's dependencies (rich, pydantic, ...):
    # their types are unknown there (Any; the engines' own types are all known), so compile with a
    # config of its own instead of pyproject.toml's strict one, which CI's `mypy --strict src` checks.
    with tempfile.TemporaryDirectory() as folder:  # mypycify writes the C sources before it returns
        config = Path(folder) / "mypyc.ini"
        config.write_text("[mypy]\nignore_missing_imports = True\n")
        try:
            return list(mypycify(["--config-file", str(config), *COMPILED], opt_level="3"))
        except (Exception, SystemExit) as error:  # mypy's errors end in SystemExit: pure Python still works
            _warn(f"mypyc could not compile the engines ({error!r}); installing pure Python")
            return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
