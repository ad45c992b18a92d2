"""What a bot worker process runs for an analysis: one part of a finished game's decisions
(:func:`spieltafel.analysis.analyse_numbers`), from the record's JSON, returning plain JSON."""

from __future__ import annotations

from typing import Any

from spieltafel.analysis import analyse_numbers
from spieltafel.core import GameRecord


def analyse_part(record_json: str, numbers: list[int], iterations: int, seed: int) -> list[dict[str, Any]]:
    """The decisions at places ``numbers`` of the record, as JSON (runs in a worker process)."""
    record = GameRecord.model_validate_json(record_json)
    return [decision.model_dump(mode="json") for decision in analyse_numbers(record, numbers, iterations, seed)]
