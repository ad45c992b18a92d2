"""Checking full-state documents: bounded JSON text, the header every game shares, one clear error.

Every game checks its documents in one place (its ``schema.py``): a pydantic model for shape, types
and ranges (strict: no "3" for 3, no 2.5, no true for 1, no extra keys), then the game's own
invariants (conservation of its pieces, indexes in range, a consistent phase). The first thing
that is wrong is named in a :class:`StateFormatError`.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import StateFormatError, quote
from .events import JSON

if TYPE_CHECKING:
    from .game import Game

MAX_SEED = (1 << 64) - 1
"""Seeds and generator states are 64-bit: 0 to 2**64 - 1."""
MAX_DOCUMENT_CHARS = 1_000_000
"""A state document is at most this long (the largest real one is a few kilobytes)."""
MAX_NESTING = 32
"""Brackets nest at most this deep in a state document (real ones: three)."""
MAX_DIGITS = 30
"""A number in a state document has at most this many digits (a 64-bit seed has 20)."""

Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]
"""A seed or a generator state: a whole number from 0 to 2**64 - 1 (never a string, a float or a bool)."""

M = TypeVar("M", bound=BaseModel)


class StateDocument(BaseModel):
    """The fields every game's full-state document starts with."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    game: str
    format: Literal[1]
    players: int
    seed: Seed
    options: dict[str, str]
    rng: Seed


# -- JSON text --------------------------------------------------------------------------------------
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def nesting_depth(text: str) -> int:
    """How deep brackets nest in JSON ``text`` (brackets inside strings do not count)."""
    depth = deepest = 0
    for char in _STRINGS.sub('""', text):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise StateFormatError(f"a number with {len(text)} digits: at most {MAX_DIGITS} are allowed")
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise StateFormatError(f"the number {quote(text)} is out of range")
    return value


def _no_constant(text: str) -> float:
    raise StateFormatError(f"{text} is not a number a state document may hold")


def parse_json(text: str, what: str = "state document") -> JSON:
    """Parse JSON ``text`` of bounded size, nesting and numbers (no NaN or Infinity)."""
    if len(text) > MAX_DOCUMENT_CHARS:
        raise StateFormatError(f"the {what} has {len(text):,} characters; at most {MAX_DOCUMENT_CHARS:,} are allowed")
    if nesting_depth(text) > MAX_NESTING:
        raise StateFormatError(f"the {what} nests brackets deeper than {MAX_NESTING} levels")
    try:
        return json.loads(text, parse_int=_whole_number, parse_float=_finite, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise StateFormatError(f"not JSON: {error}") from None
    except (ValueError, RecursionError) as error:
        raise StateFormatError(f"not JSON: {error}") from None


# -- documents --------------------------------------------------------------------------------------
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring, _SHORT.maxother = 2, 4, 4, 40, 40
_SHORT.maxlong = 40


def first_problem(error: ValidationError) -> str:
    """'where: what is wrong (got what)' for the first problem pydantic found."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "document"
    return f"{where}: {first['msg']} (got {_SHORT.repr(first.get('input'))})"


def validate(model: type[M], data: Mapping[str, JSON], game: str) -> M:
    """``data`` as ``model``, or StateFormatError naming the first field that is wrong."""
    if not isinstance(data, Mapping):
        raise StateFormatError(f"a {game} state document is a JSON object, not {type(data).__name__}")
    try:
        return model.model_validate(dict(data))
    except ValidationError as error:
        raise StateFormatError(f"malformed {game} state: {first_problem(error)}") from None


def require(condition: bool, game: str, message: str) -> None:
    """Refuse an inconsistent document: ``message`` says what does not add up."""
    if not condition:
        raise StateFormatError(f"inconsistent {game} state: {message}")


def check_header(game: Game, document: StateDocument) -> None:
    """The game, the player count and every option (each listed, each with an allowed value)."""
    require(document.game == game.name, game.name, f"game is {quote(document.game)}, not {game.name!r}")
    require(
        game.min_players <= document.players <= game.max_players,
        game.name,
        f"players is {document.players}; {game.title} is played by {game.min_players} to {game.max_players}",
    )
    for spec in game.options:
        value = document.options.get(spec.name)
        require(value is not None, game.name, f"options lack {spec.name!r} (every option must be listed)")
        require(
            value in spec.choices,
            game.name,
            f"option {spec.name!r} cannot be {quote(str(value))}; allowed: {', '.join(spec.choices)}",
        )
    unknown = sorted(set(document.options) - {spec.name for spec in game.options})
    require(not unknown, game.name, f"{game.name} has no option {quote(unknown[0]) if unknown else ''}")


def _small(value: JSON, depth: int = 0) -> bool:
    """An int, a bool or a short list of them, at most two lists deep (a plain bookkeeping field)."""
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return -1_000_000 <= value <= 1_000_000
    if isinstance(value, list):
        return depth < 2 and len(value) <= 100 and all(_small(v, depth + 1) for v in value)
    return False


def split_unmodelled(
    data: Mapping[str, JSON], model: type[BaseModel], state_fields: Collection[str], game: str
) -> dict[str, JSON]:
    """``data`` without the fields the state class saves but ``model`` does not describe yet (a field
    added to the rules after the schema): those must be small ints, bools or short lists of them."""
    modelled = {key: value for key, value in data.items() if key in model.model_fields or key not in state_fields}
    for key in data.keys() - modelled.keys():
        require(_small(data[key]), game, f"{key}: expected a small whole number, a bool or a short list of them")
    return modelled
