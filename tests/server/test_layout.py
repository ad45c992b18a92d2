"""The server's layout (issue 24): packages along its responsibilities, no import cycle, no private name used
across modules, and one place that builds the services."""

from __future__ import annotations

import ast
from pathlib import Path

import spieltafel.server

SERVER = Path(spieltafel.server.__file__).parent
PACKAGES = ("accounts", "api", "bots", "db", "realtime", "social", "tables", "web")
STDLIB_PRIVATE = {"os._exit"}
"""Private names of the standard library that the server may use (``os._exit`` ends a pool's child)."""


def _modules() -> dict[str, Path]:
    found = {}
    for path in SERVER.rglob("*.py"):
        parts = ("spieltafel", "server", *path.relative_to(SERVER).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The server modules ``path`` imports anywhere in it (inside functions too: a lazy import hides a cycle)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("spieltafel.server"):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("spieltafel.server"))
    return {name for name in found if name in modules}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == 1:
                cycles.append([*path[path.index(imported):], imported])
            elif imported not in state:
                visit(imported, path)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
    return cycles


def test_the_server_has_a_package_per_responsibility() -> None:
    assert all((SERVER / package / "__init__.py").is_file() for package in PACKAGES)
    loose = sorted(p.stem for p in SERVER.glob("*.py") if p.stem != "__init__")
    assert loose == ["app", "command", "errors", "numbers", "privacy", "ratelimit", "responses", "services",
                     "settings", "tasks"], "a new top-level module: does it belong in one of the packages?"


def test_no_import_cycle_in_the_server() -> None:
    modules = _modules()
    graph = {name: _imports(path, modules) - {name} for name, path in modules.items()}
    assert sum(map(len, graph.values())) > 100, "the import graph was not read"
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_one() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c", "a"]]


def test_no_private_name_is_used_across_modules() -> None:
    """``x._name`` only on ``self``/``cls``; ``from spieltafel... import _name`` nowhere."""
    used = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = node.value
                if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                    continue
                if ast.unparse(node) not in STDLIB_PRIVATE:
                    used.append(f"{name}:{node.lineno} {ast.unparse(node)}")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("spieltafel"):
                used += [f"{name}:{node.lineno} import {a.name}" for a in node.names if a.name.startswith("_")]
    assert used == []


def test_services_are_built_in_one_place() -> None:
    """Only ``services.py`` constructs the services; routes reach them through its typed dependencies."""
    builders = {"TableService", "AccountService", "ChatService", "RatingService", "Notifier", "RateLimits",
                "AnalysisService", "BotPool", "BotRunner", "Database", "RedisHub", "ModerationService", "QuickPlay",
                "Recovery", "AccountData"}
    built = []
    for name, path in _modules().items():
        if name in ("spieltafel.server.services", "spieltafel.server.command"):
            continue  # command.py: the worker's notifier and the one-off migration before the processes start
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in builders:
                built.append(f"{name}:{node.lineno} {node.func.id}")
            reaches_state = isinstance(node, ast.Attribute) and ast.unparse(node).endswith("app.state.services")
            if reaches_state and name != "spieltafel.server.app":
                built.append(f"{name}:{node.lineno} {ast.unparse(node)}")
    assert built == []
