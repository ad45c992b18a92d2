"""What a bot worker process runs for the bots' other work: one part of a finished game's decisions
(:func:`spieltafel.analysis.analyse_numbers`, from the record's JSON) and a hint for the seat to act
(:func:`spieltafel.analysis.hint`, from the table's state, of which the search sees only the seat's
observation, as a bot's move does), each returning plain JSON."""

from __future__ import annotations

from typing import Any

from spieltafel.analysis import analyse_numbers, hint
from spieltafel.core import GameRecord, get_game


def analyse_part(record_json: str, numbers: list[int], iterations: int, seed: int) -> list[dict[str, Any]]:
    """The decisions at places ``numbers`` of the record, as JSON (runs in a worker process)."""
    record = GameRecord.model_validate_json(record_json)
    return [decision.model_dump(mode="json") for decision in analyse_numbers(record, numbers, iterations, seed)]


def hint_for(
    game: str, state: dict[str, Any], seat: int, iterations: int | None, seconds: float | None, seed: int
) -> dict[str, Any]:
    """The hint for ``seat`` in the table's state, as JSON (runs in a worker process)."""
    position = get_game(game).state_from_json(state)
    return hint(position, seat, iterations, seconds, seed).model_dump(mode="json")
