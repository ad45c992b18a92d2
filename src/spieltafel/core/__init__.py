"""The game-agnostic engine core: registry, state contract, events, chance, records, errors."""

from .errors import (
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    OptionError,
    PlayerCountError,
    RecordMismatchError,
    SpieltafelError,
    StateFormatError,
    UnknownGameError,
)
from .events import JSON, Event
from .game import NOTATION_LIMIT, Action, Game, OptionSpec, Seat, State, check_seat, legal_texts
from .kit import GameKit, RulesPage, kit_of
from .record import (
    GameRecord,
    GameResult,
    GoldenRecord,
    RecordedAction,
    Recorder,
    final_state_digest,
    load_record_file,
    load_state,
    public_record,
    replay,
)
from .registry import all_games, get_game, register
from .rng import Rng, sample_seed

__all__ = [
    "JSON",
    "NOTATION_LIMIT",
    "Action",
    "Event",
    "Game",
    "GameKit",
    "GameRecord",
    "GameResult",
    "GoldenRecord",
    "IllegalActionError",
    "NotYourTurnError",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "PlayerCountError",
    "RecordMismatchError",
    "RecordedAction",
    "Recorder",
    "Rng",
    "RulesPage",
    "Seat",
    "SpieltafelError",
    "State",
    "StateFormatError",
    "UnknownGameError",
    "all_games",
    "check_seat",
    "final_state_digest",
    "get_game",
    "kit_of",
    "legal_texts",
    "load_record_file",
    "load_state",
    "public_record",
    "register",
    "replay",
    "sample_seed",
]
