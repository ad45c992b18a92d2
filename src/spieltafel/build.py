"""Which build of the engines is running: compiled with mypyc (``setup.py``) or pure Python.

The rule engines and the search bots are compiled to C extensions at install
time when a C compiler is at hand (about 2× faster search); pure Python is the reference and gives the
same results (the CI runs the engine suites on both). An editable install keeps the compiled modules
beside their sources: after editing such a source, reinstall (``pip install -e .``) or the old compiled
module goes on running, so importing Spieltafel warns about every compiled module older than its source.
"""

from __future__ import annotations

import warnings
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

PACKAGE = Path(__file__).parent


def compiled_modules() -> list[str]:
    """The package's modules that are compiled extensions in this installation (dotted names)."""
    return sorted(".".join(source.relative_to(PACKAGE.parent).with_suffix("").parts) for source, _ in _extensions())


def _extensions() -> list[tuple[Path, Path]]:
    """(source path, extension path) of every compiled module in the package."""
    found = []
    for path in PACKAGE.rglob("*.so"):
        suffix = next((s for s in EXTENSION_SUFFIXES if path.name.endswith(s)), None)
        if suffix is not None:
            found.append((path.with_name(path.name[: -len(suffix)] + ".py"), path))
    return found


def engine_build() -> str:
    """``"compiled (mypyc)"`` when the engine core is a compiled extension, else ``"pure Python"``."""
    from spieltafel.core import game

    return "pure Python" if game.__file__ is None or game.__file__.endswith(".py") else "compiled (mypyc)"


def stale_modules() -> list[str]:
    """Compiled modules whose source file was changed after they were compiled (in an editable install or a
    source tree: an installed wheel's files all carry the time of its installation, in no telling order)."""
    if {"site-packages", "dist-packages"} & set(PACKAGE.parts):
        return []
    return sorted(
        str(source.relative_to(PACKAGE.parent))
        for source, extension in _extensions()
        if source.exists() and source.stat().st_mtime > extension.stat().st_mtime
    )


def warn_if_stale() -> None:
    stale = stale_modules()
    if stale:
        warnings.warn(
            f"spieltafel: compiled engine modules are older than their sources ({', '.join(stale)}): the old compiled"
            " code runs. Reinstall (pip install -e .) to compile them again, or install with"
            " SPIELTAFEL_PURE_PYTHON=1 to run the sources.",
            RuntimeWarning,
            stacklevel=2,
        )
