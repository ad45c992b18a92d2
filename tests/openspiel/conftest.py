"""What the OpenSpiel tests share: loading a script of ``bench/`` or ``examples/`` as a module."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_script(relative: str) -> ModuleType:
    """The script at ``relative`` (to the repository's root, e.g. ``bench/openspiel_arena.py``) as a module
    named after its file, registered in ``sys.modules`` (its dataclasses look their module up)."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, f"{path} cannot be loaded"
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def script() -> Callable[[str], ModuleType]:
    """:func:`load_script`, for the tests of a script."""
    return load_script
