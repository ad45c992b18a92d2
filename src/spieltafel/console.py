"""What every command of the command line shares: output consoles, clear errors, option parsing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from spieltafel.core import RecordMismatchError, SpieltafelError

out = Console()
err = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """One clear line on stderr and an exit code: 2 for bad input, 1 for a failed check."""
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the engine's errors about user input into a message and exit code 2 (1 for a record
    whose replay does not match)."""
    try:
        yield
    except RecordMismatchError as error:
        fail(str(error), 1)
    except SpieltafelError as error:
        fail(str(error))


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["water=every-turn"]`` → ``{"water": "every-turn"}``; anything else is refused."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SpieltafelError(f"option {pair!r} is not KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


@contextmanager
def progress_bar(quiet: bool) -> Iterator[Progress]:
    """A progress bar on stderr, shown only on a terminal and never with machine-readable output."""
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=quiet or not err.is_terminal,
    )
    with bar:
        yield bar
