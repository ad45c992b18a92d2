"""What every command of the command line shares: output consoles, clear errors, option parsing."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text
from typer._click import ClickException  # typer vendors click: its errors are typer's own classes
from typer._click.exceptions import NoArgsIsHelpError
from typer.core import TyperGroup

from spieltafel.core import RecordMismatchError, SpieltafelError
from spieltafel.core.errors import quote

out = Console()
err = Console(stderr=True)


def literal(text: str, style: str = "") -> Text:
    """``text`` to print exactly as it is: user input and engine messages are never read as Rich markup."""
    return Text(text, style=style)


def error_line(message: str) -> None:
    """``error: message`` as one line on stderr, printed literally."""
    one_line = " ".join(message.split())
    err.print(Text.assemble(("error:", "bold red"), " ", one_line), highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """One clear line on stderr and an exit code: 2 for bad input, 1 for a failed check."""
    error_line(message)
    raise typer.Exit(code)


class OneLineErrors(TyperGroup):
    """The command group whose usage errors (a bad option value, a missing argument) are one line
    on stderr and exit code 2, like every other refusal, instead of a usage box."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        plain = (args, prog_name, complete_var)
        if not standalone_mode:
            return super().main(*plain, standalone_mode=False, windows_expand_args=windows_expand_args, **extra)
        try:
            code = super().main(*plain, standalone_mode=False, windows_expand_args=windows_expand_args, **extra)
        except NoArgsIsHelpError as error:
            error.show()
            sys.exit(error.exit_code)
        except ClickException as error:
            context = getattr(error, "ctx", None)
            hint = f" (see '{context.command_path} --help')" if context is not None else ""
            error_line(error.format_message() + hint)
            sys.exit(error.exit_code)
        except typer.Abort:
            err.print("aborted", highlight=False)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


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
            raise SpieltafelError(f"option {quote(pair)} is not KEY=VALUE")
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
