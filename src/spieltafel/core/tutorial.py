"""Interactive tutorials (``/learn/GAME``): a short guided game built from real engine positions.

A game offers a tutorial through its kit (``GameKit.tutorial``, a JSON file of its package). The file is data,
not code::

    {"players": 2, "seed": 1, "options": {}, "seat": 0,
     "steps": [{"before": ["place 1a WW"], "text": "…", "expect": "draw",
                "highlight": ["draw"], "hint": "…", "wrong": {"place": "…"}}, …]}

- ``players``, ``seed``, ``options``: the game the engine sets up; ``seat``: the learner's seat.
- A step's position is the previous step's position, then the previous step's expected move(s), then this step's
  ``before`` moves (other seats' turns or moves that only lead to the position), each in the game's stable
  notation and applied by the engine (``"2:notation"`` names the seat; without it the one seat to act).
  So a rules change that breaks a tutorial fails its test (``tests/conformance/test_tutorials.py``).
- ``text``: the explanation in the rulebook's terms (an English msgid, translated in the game's catalogs);
  ``expect``: the learner's move (notation), or a list of moves made one after the other (a canoe's steps), or
  null for a step that is only read ("Next"); ``highlight``: the moves whose board targets are highlighted
  (default: the move expected next);
  ``hint``: what a wrong move is told; ``wrong``: optional hints per wrong move, keyed by the beginning of its
  notation (``"draw"``, ``"place 1"``), the first key that matches wins.

The tutorial's state lives in the learner's browser: the page sends the step number and a move, the server
replays the step's position, checks the move (:func:`check`) and answers with the next step. Nothing is stored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from .errors import SpieltafelError
from .kit import kit_of

if TYPE_CHECKING:
    from .events import Event
    from .game import Game, State

MIN_STEPS = 1
MAX_STEPS = 40


class TutorialError(SpieltafelError):
    """A tutorial file that the engine cannot replay, or a learner's request that names no step or move."""


@dataclass(frozen=True)
class Step:
    """One step of a tutorial (see the module's docs)."""

    number: int
    text: str
    before: tuple[str, ...] = ()
    expect: tuple[str, ...] = ()
    """The learner's moves, in order; empty for a step that is only read."""
    highlight: tuple[str, ...] = ()
    hint: str = ""
    wrong: tuple[tuple[str, str], ...] = ()

    def targets(self, made: int = 0) -> tuple[str, ...]:
        """The moves to highlight after ``made`` of the step's moves: ``highlight``, else the move expected next."""
        if self.highlight:
            return self.highlight
        return self.expect[made : made + 1]

    def hint_for(self, notation: str) -> str:
        """The hint for the wrong move ``notation``: the first ``wrong`` entry it begins with, else ``hint``."""
        for prefix, text in self.wrong:
            if notation.startswith(prefix):
                return text
        return self.hint


@dataclass(frozen=True)
class Tutorial:
    """A game's tutorial: the set-up the engine plays and the steps."""

    game: str
    players: int
    seed: int
    seat: int
    options: Mapping[str, str] = field(default_factory=dict)
    steps: tuple[Step, ...] = ()
    replayed: dict[tuple[int, int], tuple[State, tuple[Event, ...]]] = field(
        default_factory=dict, compare=False, repr=False)
    """Positions already replayed, by (step, moves made): a tutorial is fixed data, so each position is replayed
    once per process and handed out as a clone (a page asks for the same steps again and again)."""

    def messages(self) -> list[str]:
        """Every text of the tutorial (msgids of the game's catalogs), in order, each once."""
        found: list[str] = []
        for step in self.steps:
            for text in (step.text, step.hint, *(t for _, t in step.wrong)):
                if text and text not in found:
                    found.append(text)
        return found

    def step(self, number: object) -> Step:
        """Step ``number`` (from 0); a clear refusal for anything else."""
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(self.steps):
            raise TutorialError(f"no such step {str(number)[:20]!r}: steps are 0 to {len(self.steps) - 1}")
        return self.steps[number]

    def position(self, number: int, made: int = 0, events: list[Event] | None = None) -> State:
        """The position of step ``number`` after the learner's first ``made`` moves of it, replayed by the engine
        from the set-up; ``events`` (a list) receives what happened since the learner's previous move (the
        previous step's last expected move, this step's ``before`` moves, this step's moves made)."""
        step = self.step(number)
        if not 0 <= made <= max(0, len(step.expect) - 1):
            raise TutorialError(f"step {number} has {len(step.expect)} moves; {made} cannot have been made")
        known = self.replayed.get((number, made))
        if known is None:
            happened: list[Event] = []
            known = (self.replay(number, made, happened), tuple(happened))
            self.replayed[(number, made)] = known
        if events is not None:
            events.extend(known[1])
        return known[0].clone()

    def replay(self, number: int, made: int, events: list[Event]) -> State:
        """:meth:`position`, replayed from the set-up by the engine."""
        from .registry import get_game

        step = self.steps[number]
        state = get_game(self.game).new_state(self.players, self.seed, dict(self.options))
        moves: list[tuple[str, str]] = []
        for index, earlier in enumerate(self.steps[:number]):
            moves += [(move, f"step {index}'s move {move!r}") for move in earlier.before]
            moves += [(f"{self.seat}:{move}", f"step {index}'s expected move {move!r}") for move in earlier.expect]
        recent = len(moves) - 1 if number and self.steps[number - 1].expect else len(moves)
        moves += [(move, f"step {number}'s move {move!r}") for move in step.before]
        if made:
            recent = len(moves) + made - 1
        moves += [(f"{self.seat}:{move}", f"step {number}'s expected move {move!r}") for move in step.expect[:made]]
        for at, (move, what) in enumerate(moves):
            play(state, move, what, events if at >= recent else None)
        return state


def play(state: State, move: str, what: str, events: list[Event] | None = None) -> None:
    """Apply ``move`` (``"seat:notation"`` or the notation of the one seat to act) to ``state``; its events
    are added to ``events`` when that is a list."""
    head, colon, rest = move.partition(":")
    if colon and head.strip().isdigit():
        seat, notation = int(head), rest.strip()
    else:
        acting = state.seats_to_act()
        if len(acting) != 1:
            raise TutorialError(f"{what}: seats {list(acting)} act now; name one as 'seat:notation'")
        seat, notation = acting[0], move
    try:
        happened = state.apply(seat, notation)
    except SpieltafelError as error:
        raise TutorialError(f"{what} cannot be played: {error}") from error
    if events is not None:
        events.extend(happened)


@dataclass(frozen=True)
class Answer:
    """The engine's verdict on a learner's move in a step: right (go on), or the hint to show."""

    right: bool
    legal: bool
    hint: str = ""


def check(tutorial: Tutorial, number: int, action: object, made: int = 0) -> Answer:
    """Whether the learner's ``action`` (an action index) is the move step ``number`` expects after ``made`` of
    its moves. A move that is legal but not the expected one, or not legal at all, gets the step's hint;
    anything that is no action index of the game is refused (TutorialError)."""
    step = tutorial.step(number)
    if not step.expect:
        if action is not None:
            raise TutorialError(f"step {number} asks for no move; send none to go on")
        return Answer(True, True)
    state = tutorial.position(number, made)
    seat = tutorial.seat
    try:
        index = state.check_index(seat, action)
    except SpieltafelError as error:
        raise TutorialError(str(error)) from error
    expected = state.read_action(seat, step.expect[made])
    if index == expected:
        return Answer(True, True)
    legal = index in state.legal_actions(seat)
    return Answer(False, legal, step.hint_for(state.action_text(seat, index)))


def load(game: Game) -> Tutorial | None:
    """``game``'s tutorial (its kit's ``tutorial`` file), or None when it offers none."""
    return _load(game.name)


@cache
def _load(name: str) -> Tutorial | None:
    from .registry import get_game

    game = get_game(name)
    kit = kit_of(game)
    if kit.tutorial is None:
        return None
    path = kit.folder() / kit.tutorial
    return parse(game.name, json.loads(path.read_text(encoding="utf-8")))


def parse(game: str, data: Any) -> Tutorial:
    """A tutorial from its file's JSON; TutorialError names what is wrong."""
    if not isinstance(data, Mapping):
        raise TutorialError(f"{game}: a tutorial is a JSON object")
    steps_data = data.get("steps")
    if not isinstance(steps_data, list) or not MIN_STEPS <= len(steps_data) <= MAX_STEPS:
        raise TutorialError(f"{game}: 'steps' is a list of {MIN_STEPS} to {MAX_STEPS} steps")
    steps = tuple(_step(game, number, item) for number, item in enumerate(steps_data))
    options = data.get("options") or {}
    if not isinstance(options, Mapping) or not all(isinstance(v, str) for v in options.values()):
        raise TutorialError(f"{game}: 'options' maps option names to values")
    try:
        players, seed, seat = int(data["players"]), int(data.get("seed", 0)), int(data.get("seat", 0))
    except (KeyError, TypeError, ValueError) as error:
        raise TutorialError(f"{game}: 'players', 'seed' and 'seat' are numbers") from error
    return Tutorial(game, players, seed, seat, dict(options), steps)


def _strings(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or not all(isinstance(v, str) for v in value):
        raise TutorialError(f"{what} is a list of notations")
    return tuple(value)


def _step(game: str, number: int, item: object) -> Step:
    where = f"{game} step {number}"
    if not isinstance(item, Mapping) or not isinstance(item.get("text"), str) or not item["text"]:
        raise TutorialError(f"{where}: a step is an object with a 'text'")
    expect_data = item.get("expect")
    expect = (expect_data,) if isinstance(expect_data, str) else _strings(expect_data or [], f"{where}: 'expect'")
    wrong = item.get("wrong") or {}
    if not isinstance(wrong, Mapping) or not all(isinstance(v, str) for v in wrong.values()):
        raise TutorialError(f"{where}: 'wrong' maps the beginning of a notation to a hint")
    highlight = _strings(item.get("highlight", []), f"{where}: 'highlight'")
    hint = item.get("hint") or ""
    if not isinstance(hint, str) or (expect and not hint):
        raise TutorialError(f"{where}: a step that expects a move has a 'hint' for a wrong one")
    return Step(
        number=number,
        text=item["text"],
        before=_strings(item.get("before", []), f"{where}: 'before'"),
        expect=expect,
        highlight=highlight,
        hint=hint,
        wrong=tuple((str(k), v) for k, v in wrong.items()),
    )
