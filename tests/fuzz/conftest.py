"""Report how many fuzz cases ran (docs/engine-hardening.md quotes these counts)."""

from __future__ import annotations

import pytest

from .fuzzing import COUNTS


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if COUNTS:
        cases = ", ".join(f"{kind} {n}" for kind, n in sorted(COUNTS.items()))
        total = sum(n for kind, n in COUNTS.items() if not kind.startswith("of which"))
        terminalreporter.write_line(f"fuzz cases: {total} ({cases})")
