"""Game records: (game, options, seed, seats, actions, result), and their exact replay."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, ValidationError, model_serializer

from .document import MAX_SEED, first_problem, parse_json
from .errors import RecordMismatchError, SpieltafelError, StateFormatError
from .game import NOTATION_LIMIT, Seat, State
from .registry import get_game

RECORD_FORMAT: Literal["spieltafel-record/1"] = "spieltafel-record/1"


class RecordedAction(BaseModel):
    """One applied action: the seat that chose it and its notation."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    seat: int = Field(ge=0, le=99)
    action: str = Field(max_length=NOTATION_LIMIT)


class GameResult(BaseModel):
    """Final scores per seat and the winning seats (ties share the win)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    scores: list[int] = Field(max_length=100)
    winners: list[int] = Field(max_length=100)


class GameRecord(BaseModel):
    """Everything needed to replay a game exactly.

    ``seed`` is None in the public record of an unfinished game (see :func:`public_record`): the seed
    fixes every hidden card, so it is told only once the game is over.
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["spieltafel-record/1"] = RECORD_FORMAT
    game: str = Field(max_length=40)
    players: int = Field(ge=1, le=99)
    options: dict[str, str] = Field(default_factory=dict)
    seed: int | None = Field(ge=0, le=MAX_SEED)
    seats: list[Annotated[str, Field(max_length=100)]] = Field(
        default_factory=list, max_length=99, description="who sat at each seat, e.g. 'random', 'human'"
    )
    actions: list[RecordedAction] = Field(default_factory=list)
    result: GameResult | None = None
    hints: list[int] | None = Field(
        default=None,
        description="hints each seat's person got (a server game where hints were allowed); absent otherwise",
    )

    @model_serializer(mode="wrap")
    def without_absent_hints(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Leave out ``hints`` when there are none (a record without hints reads as before issue 27); a
        serializer pydantic 2.10 has too (the field option for it came only in 2.12, above the declared bound)."""
        data: dict[str, Any] = handler(self)
        if self.hints is None:
            data.pop("hints", None)
        return data

    def new_state(self) -> State:
        """The game's initial state as recorded (game, players, seed, options)."""
        if self.seed is None:
            raise StateFormatError(
                "this is the public record of an unfinished game: it holds no seed (the seed reveals every "
                "hidden card, so it is told only when the game is over) and cannot be replayed"
            )
        return get_game(self.game).new_state(self.players, self.seed, self.options)

    def save(self, path: Path) -> None:
        path.write_text(self.model_dump_json(indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> GameRecord:
        """Read a record file; a malformed file raises StateFormatError with the reason."""
        return load_record_file(path)[0]


class GoldenRecord(BaseModel):
    """A golden record file: a finished game's record and the digest of its final state.

    The test suite replays every golden record and compares the digest (``tests/golden``), so a change
    of behaviour in an engine shows as a changed final state, not only as a changed result.
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    record: GameRecord
    final_state_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


def final_state_digest(state: State) -> str:
    """SHA-256 of the state's JSON document with sorted keys: the fingerprint golden records keep."""
    return hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()


def load_record_file(path: Path) -> tuple[GameRecord, str | None]:
    """Read a record file or a golden record file: (the record, the golden final-state digest or None).

    A malformed file raises StateFormatError naming the first problem.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StateFormatError(f"cannot read record {path}: {error}") from error
    try:
        document: Any = parse_json(text, what="record")
        if isinstance(document, dict) and "final_state_sha256" in document:
            golden = GoldenRecord.model_validate(document)
            return golden.record, golden.final_state_sha256
        return GameRecord.model_validate(document), None
    except StateFormatError as error:
        raise StateFormatError(f"{path} is not a game record: {error}") from None
    except ValidationError as error:
        raise StateFormatError(f"{path} is not a game record: {first_problem(error)}") from None


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
        _replay_action(state, number, recorded)
    if verify and record.result is not None:
        replayed = GameResult(scores=state.scores(), winners=state.winners())
        if replayed != record.result:
            raise RecordMismatchError(
                f"replay ends with scores {replayed.scores} and winners {replayed.winners}, "
                f"the record says {record.result.scores} and {record.result.winners}"
            )
    return state


def _replay_action(state: State, number: int, recorded: RecordedAction) -> None:
    try:
        state.apply(recorded.seat, recorded.action)
    except SpieltafelError as error:
        where = f"action {number} ({recorded.action!r}, seat {recorded.seat})"
        raise RecordMismatchError(f"{where}: {error}") from error


def public_record(record: GameRecord, seat: Seat | None) -> GameRecord:
    """What of ``record`` may leave the engine for ``seat`` (None: a spectator).

    A finished game's record is public in full (with its result). Of an unfinished game only a
    public record leaves: no seed (it fixes every hidden card) and no choice of another seat that is
    still face down. Its actions stop at the last point where no seat had a secret choice pending
    (for a game with simultaneous choices: where every seat was still to choose, or any point of a
    game without them), followed by ``seat``'s own choices made since, as long as no other seat's
    choice comes between. The full record stays only where the full state is kept anyway.
    """
    if record.seed is None:
        return record.model_copy(deep=True)
    state = record.new_state()
    quiet = 0
    for number, recorded in enumerate(record.actions, start=1):
        _replay_action(state, number, recorded)
        if _no_secret_pending(state):
            quiet = number
    if state.is_over:
        result = GameResult(scores=state.scores(), winners=state.winners())
        return record.model_copy(update={"result": result}, deep=True)
    kept = quiet
    while kept < len(record.actions) and record.actions[kept].seat == seat:
        kept += 1
    return record.model_copy(update={"seed": None, "actions": record.actions[:kept], "result": None}, deep=True)


def _no_secret_pending(state: State) -> bool:
    """No seat has made a choice the others have not seen: the game has no secret simultaneous
    choices, or every seat is still to make its choice (the start of a simultaneous round)."""
    return not state.game.simultaneous or state.is_over or len(state.seats_to_act()) == state.players


def load_state(text: str) -> State:
    """Rebuild a state from full-state JSON text of any registered game (bounded: size, nesting,
    numbers; see :mod:`.document`)."""
    data = parse_json(text)
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise StateFormatError("not a Spieltafel state: no 'game' field")
    return get_game(data["game"]).state_from_json(data)
