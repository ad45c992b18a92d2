"""Game records: (game, options, seed, seats, actions, result), and their exact replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import RecordMismatchError, SpieltafelError, StateFormatError
from .game import State
from .registry import get_game

RECORD_FORMAT: Literal["spieltafel-record/1"] = "spieltafel-record/1"


class RecordedAction(BaseModel):
    """One applied action: the seat that chose it and its notation."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: int = Field(ge=0)
    action: str


class GameResult(BaseModel):
    """Final scores per seat and the winning seats (ties share the win)."""

    model_config = ConfigDict(extra="forbid")
    scores: list[int]
    winners: list[int]


class GameRecord(BaseModel):
    """Everything needed to replay a game exactly."""

    model_config = ConfigDict(extra="forbid")
    format: Literal["spieltafel-record/1"] = RECORD_FORMAT
    game: str
    players: int
    options: dict[str, str] = Field(default_factory=dict)
    seed: int = Field(ge=0)
    seats: list[str] = Field(default_factory=list, description="who sat at each seat, e.g. 'random', 'human'")
    actions: list[RecordedAction] = Field(default_factory=list)
    result: GameResult | None = None

    def new_state(self) -> State:
        """The game's initial state as recorded (game, players, seed, options)."""
        return get_game(self.game).new_state(self.players, self.seed, self.options)

    def save(self, path: Path) -> None:
        path.write_text(self.model_dump_json(indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> GameRecord:
        """Read a record file; a malformed file raises StateFormatError with the reason."""
        try:
            return cls.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise StateFormatError(f"cannot read record {path}: {error}") from error
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "document"
            raise StateFormatError(f"{path} is not a game record: {where}: {first['msg']}") from error


class Recorder:
    """Builds a :class:`GameRecord` while a game is played."""

    def __init__(self, state: State, seats: list[str]) -> None:
        self.record = GameRecord(
            game=state.game.name,
            players=state.players,
            options=dict(state.options),
            seed=state.seed,
            seats=seats,
        )

    def add(self, state: State, seat: int, action: int) -> None:
        """Note ``action`` of ``seat``; call before applying it to ``state``."""
        self.record.actions.append(RecordedAction(seat=seat, action=state.action_text(seat, action)))

    def finish(self, state: State) -> GameRecord:
        self.record.result = GameResult(scores=state.scores(), winners=state.winners())
        return self.record


def replay(record: GameRecord, verify: bool = True) -> State:
    """Replay ``record`` action by action and return the final state.

    Each action is validated as in live play. With ``verify``, the replayed result must equal the
    recorded one, or RecordMismatchError says where they differ.
    """
    state = record.new_state()
    for number, recorded in enumerate(record.actions, start=1):
        try:
            state.apply(recorded.seat, recorded.action)
        except SpieltafelError as error:
            where = f"action {number} ({recorded.action!r}, seat {recorded.seat})"
            raise RecordMismatchError(f"{where}: {error}") from error
    if verify and record.result is not None:
        replayed = GameResult(scores=state.scores(), winners=state.winners())
        if replayed != record.result:
            raise RecordMismatchError(
                f"replay ends with scores {replayed.scores} and winners {replayed.winners}, "
                f"the record says {record.result.scores} and {record.result.winners}"
            )
    return state


def load_state(text: str) -> State:
    """Rebuild a state from full-state JSON text of any registered game."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise StateFormatError(f"not JSON: {error}") from error
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise StateFormatError("not a Spieltafel state: no 'game' field")
    return get_game(data["game"]).state_from_json(data)
