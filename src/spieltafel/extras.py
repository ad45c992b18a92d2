"""The optional extras of the package, and the one line a command prints when the extra it needs is missing.

The base install is the engines, the bots, notation and records, and the terminal commands (``games``,
``play``, ``simulate``, ``state``, ``replay``, ``bench``); it needs typer, rich, pydantic and
mypy-extensions alone. Everything else comes with an extra (``pip install 'spieltafel[server]'``).
"""

from __future__ import annotations

EXTRAS: dict[str, str] = {
    "server": "spieltafel serve, worker, backup and restore: the online platform (FastAPI, SQLAlchemy, Redis)",
    "client": "spieltafel connect: a bot or a program plays a seat of a table on a server (httpx, websockets)",
    "rl": "spieltafel.rl: PettingZoo and Gymnasium environments (numpy)",
    "arena": "spieltafel arena: tournaments with ratings, plots and Ray (openskill, matplotlib, ray)",
    "openspiel": "spieltafel.openspiel: our games as OpenSpiel games, OpenSpiel's bots in the arena, "
                 "bench --compare-openspiel (OpenSpiel)",
}
"""Each extra and what it adds."""

EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "server": ("spieltafel.server",),
    "client": ("spieltafel.connect",),
    "rl": ("spieltafel.rl", "spieltafel.games.*.encoding"),
    "arena": ("spieltafel.arena.stats", "spieltafel.arena.report"),
    "openspiel": ("spieltafel.openspiel",),
}
"""The modules (``fnmatch`` patterns; a package with everything under it) that import an extra's packages
when imported; every other module of the package is the base install's and imports with the base
dependencies alone (tests/packaging imports each of them in a fresh environment without the extras)."""


def needs(command: str, extra: str) -> str:
    """The one line that says which extra ``spieltafel COMMAND`` needs and how to install it."""
    return f"spieltafel {command} needs the {extra} extra: pip install 'spieltafel[{extra}]'"


def is_missing_dependency(error: ImportError) -> bool:
    """True when ``error`` is a third-party module that is not installed (not a broken Spieltafel module)."""
    name = error.name or ""
    return isinstance(error, ModuleNotFoundError) and name.split(".")[0] not in ("", "spieltafel")
