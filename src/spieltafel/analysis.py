"""Post-game analysis (issue 27): the search bot judges every decision a person made in a finished game.

A finished game's record is replayed; before each decision of an analysed seat the ISMCTS search
(:class:`spieltafel.bots.ismcts.IsmctsBot`, a fixed iteration budget, a seed fixed per decision) is
run on that seat's :class:`~spieltafel.bots.Observation` only: its legal actions and samples drawn by
the engine's ``determinise`` for that seat, which depend on the seat's view alone. The record's hidden
parts (the seed, the other seats' cards) never reach the search, so the analysis of a decision is what
the seat itself could have worked out at that moment (``tests/test_analysis.py`` rebuilds it from other
hidden cards consistent with the seat's view and gets the same figures).

For each decision: the estimated chance to finish first of the move played and of the search's best
move (the most visited; a search's "win chance": the mean reward of the seat, see ``docs/bots.md``),
the points of chance lost (best − played, in percentage points, never below 0) and a mark: ``"?"``
above :data:`MISTAKE` points, ``"??"`` above :data:`BLUNDER`. Decisions with one legal action are
listed as forced, without a search.

Hints (:func:`hint`): the same search asked, during a game, what the seat to act would best play now,
again from that seat's information set only (its legal actions and ``determinise`` samples for it).

Both keep the search's 8-action playouts (``PLAYOUT_DEPTH``) in every game and player count, also where the
bots play to the end (``heuristics.PLAYOUT_DEPTHS``, four-player Iquazú): their budgets are iterations, and a
playout to the end costs about seven times as much, which would make a four-player Iquazú analysis or hint
take about seven times as long.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from spieltafel.bots import BOTS, OPENSPIEL_PREFIX, Observation
from spieltafel.bots.ismcts import PLAYOUT_DEPTH, IsmctsBot
from spieltafel.core import GameRecord, SpieltafelError, State, replay
from spieltafel.core.errors import RecordMismatchError

ANALYSIS_FORMAT: Literal["spieltafel-analysis/1"] = "spieltafel-analysis/1"

DEFAULT_ITERATIONS = 1000
"""The default search budget per decision (``hard``'s iterations; no time cap: reproducible)."""

FOCUS_VISITS = 100
"""Iterations at least behind the move played: a move the search hardly tried is judged on this many."""

MISTAKE = 10.0
"""More points of win chance lost than this: the move is marked "?"."""

BLUNDER = 25.0
"""More points of win chance lost than this: the move is marked "??"."""

TOP = 3
"""How many of the search's best moves each decision lists."""

Progress = Callable[[int, int], None]
"""Called with (decisions analysed, decisions to analyse) after each one."""


class MoveValue(BaseModel):
    """A move and the search's estimate of the seat's chance to finish first after it (0–100)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    action: str
    chance: float
    visits: int


class Decision(BaseModel):
    """One decision of an analysed seat: the move played against the best the search found."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    number: int = Field(description="the action's place in the record, from 1")
    seat: int
    played: str
    best: str
    played_chance: float | None = Field(
        description="estimated chance (0–100) to finish first after the move played; None when forced"
    )
    best_chance: float | None = Field(description="the same after the search's best move; None when forced")
    loss: float = Field(description="points of chance lost: best_chance − played_chance, at least 0")
    mark: Literal["", "?", "??"]
    forced: bool = Field(description="the only legal move: not searched")
    top: list[MoveValue] = Field(description="the search's best moves, most visited first")


class SeatSummary(BaseModel):
    """An analysed seat's decisions in short."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: int
    name: str
    decisions: int
    mean_loss: float
    mistakes: int = Field(description='moves marked "?"')
    blunders: int = Field(description='moves marked "??"')


class GameAnalysis(BaseModel):
    """The analysis of a finished game (JSON through the API and ``spieltafel analyse --json``)."""

    model_config = ConfigDict(extra="forbid")
    format: Literal["spieltafel-analysis/1"] = ANALYSIS_FORMAT
    game: str
    players: int
    seats: list[str]
    analysed_seats: list[int]
    iterations: int
    seed: int
    decisions: list[Decision]
    summary: list[SeatSummary]
    seconds: float = Field(description="time the analysis took (not part of its result)")


class HintMove(BaseModel):
    """One of a hint's moves: its action index (as in the seat's legal actions), its notation and the
    search's estimate of the seat's chance to finish first after it (0–100; None: the only legal move)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    action: int
    notation: str
    chance: float | None
    visits: int


class Hint(BaseModel):
    """What the search would play for ``seat`` now: its best moves, most visited first (at most :data:`TOP`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: int
    moves: list[HintMove]
    iterations: int = Field(description="the search's iterations (0: the only legal move, no search)")


def hint(
    state: State, seat: int, iterations: int | None = DEFAULT_ITERATIONS, seconds: float | None = None, seed: int = 0
) -> Hint:
    """The search's advice for ``seat`` in ``state`` (it must be the seat's decision), computed from the
    seat's :class:`~spieltafel.bots.Observation` only (:func:`observe`): another state with other hidden
    cards consistent with the seat's view gives the same hint (with a fixed ``seed`` and an iteration
    budget; a time budget, ``seconds``, adds the noise of how many iterations fit)."""
    legal = state.legal_actions(seat)
    if not legal:
        raise SpieltafelError(f"seat {seat} has no decision to make now: a hint is for the seat to act")
    if len(legal) == 1:
        only = HintMove(action=legal[0], notation=state.action_text(seat, legal[0]), chance=None, visits=0)
        return Hint(seat=seat, moves=[only], iterations=0)
    bot = IsmctsBot(seed, iterations=iterations, seconds=seconds, rollout_depth=PLAYOUT_DEPTH)
    values = bot.evaluate(observe(state, seat))
    moves = [
        HintMove(action=v.action, notation=state.action_text(seat, v.action), chance=round(100 * v.chance, 1),
                 visits=v.visits)
        for v in values[:TOP]
    ]
    return Hint(seat=seat, moves=moves, iterations=bot.last_iterations)


def is_bot_seat(name: str) -> bool:
    """Whether a record's seat name is a bot: ``bot:LEVEL`` (the server's) or a bot's own name (the CLI's)."""
    key = name.strip().lower()
    return (
        key.startswith("bot:")
        or key in BOTS
        or key.startswith("ismcts:")
        or key.startswith(OPENSPIEL_PREFIX)
        or key == "open"
    )


def person_seats(record: GameRecord) -> list[int]:
    """The seats a person held (every seat whose name is not a bot's); every seat when there is none
    (a record without names, or a game between bots)."""
    people = [seat for seat, name in enumerate(record.seats[: record.players]) if not is_bot_seat(name)]
    return people or list(range(record.players))


def decision_seed(seed: int, number: int) -> int:
    """The search's seed for the decision at place ``number``: each decision is reproducible on its own."""
    return (seed * 1_000_003 + number * 7_919) % (2**31)


def observe(state: State, seat: int) -> Observation:
    """What the analysed seat knew: its legal actions, its view and samples of its information set."""
    snapshot = state.clone()  # the caller's state goes on; the observation keeps this position
    return Observation(
        seat,
        snapshot.legal_actions(seat),
        lambda: snapshot.view(seat),
        lambda rng: snapshot.determinise(seat, rng),
    )


def analyse_decision(
    state: State,
    seat: int,
    played: int,
    number: int,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
) -> Decision:
    """Judge ``seat``'s move ``played`` in ``state`` (before it is applied) from the seat's information set."""
    legal = state.legal_actions(seat)
    if played not in legal:
        raise SpieltafelError(f"action {number} is not legal for seat {seat} in the replayed position")
    text = state.action_text(seat, played)
    if len(legal) == 1:
        return Decision(
            number=number, seat=seat, played=text, best=text, played_chance=None, best_chance=None,
            loss=0.0, mark="", forced=True, top=[],
        )
    bot = IsmctsBot(decision_seed(seed, number), iterations=iterations, seconds=None, rollout_depth=PLAYOUT_DEPTH)
    values = bot.evaluate(observe(state, seat), focus=played, focus_visits=min(FOCUS_VISITS, iterations))
    best = values[0]
    mine = next(v for v in values if v.action == played)
    best_chance = round(100 * best.chance, 1)
    played_chance = best_chance if played == best.action else round(100 * mine.chance, 1)
    loss = round(max(0.0, best_chance - played_chance), 1)
    mark: Literal["", "?", "??"] = "??" if loss > BLUNDER else "?" if loss > MISTAKE else ""
    top = [
        MoveValue(action=state.action_text(seat, v.action), chance=round(100 * v.chance, 1), visits=v.visits)
        for v in values[:TOP]
    ]
    return Decision(
        number=number, seat=seat, played=text, best=state.action_text(seat, best.action),
        played_chance=played_chance, best_chance=best_chance, loss=loss, mark=mark, forced=False, top=top,
    )


def analyse(
    record: GameRecord,
    seats: Sequence[int] | None = None,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    progress: Progress | None = None,
) -> GameAnalysis:
    """Analyse every decision of ``seats`` (default: the seats people held) in the finished game ``record``.

    Raises a SpieltafelError for a record that is not a finished game or a seat that is not in it.
    """
    start = time.perf_counter()
    chosen, numbers = plan(record, seats, iterations)
    decisions = analyse_numbers(record, numbers, iterations, seed, progress)
    return assemble(record, chosen, iterations, seed, decisions, time.perf_counter() - start)


def plan(record: GameRecord, seats: Sequence[int] | None, iterations: int) -> tuple[list[int], list[int]]:
    """Check the request and the record (a finished game, replayed in full: a wrong record changes
    nothing) and return the analysed seats and the places (from 1) of their decisions in the record."""
    if iterations < 1:
        raise SpieltafelError(f"the search budget must be at least 1 iteration, not {iterations}")
    final = replay(record)
    if not final.is_over:
        raise SpieltafelError("only a finished game can be analysed: this record stops before the end")
    chosen = sorted(set(person_seats(record) if seats is None else seats))
    for seat in chosen:
        if not 0 <= seat < record.players:
            raise SpieltafelError(f"there is no seat {seat}: seats are 0 to {record.players - 1}")
    return chosen, [n for n, a in enumerate(record.actions, start=1) if a.seat in chosen]


def analyse_numbers(
    record: GameRecord, numbers: Sequence[int], iterations: int, seed: int, progress: Progress | None = None
) -> list[Decision]:
    """The decisions at places ``numbers`` (from 1) of ``record``, each judged on its own (a part of an
    analysis: the server computes one in parts, showing its progress)."""
    wanted = set(numbers)
    last = max(wanted, default=0)
    state = record.new_state()
    decisions: list[Decision] = []
    for number, recorded in enumerate(record.actions[:last], start=1):
        action = state.read_action(recorded.seat, recorded.action)
        if number in wanted:
            decisions.append(analyse_decision(state, recorded.seat, action, number, iterations, seed))
            if progress is not None:
                progress(len(decisions), len(wanted))
        try:
            state.apply(recorded.seat, action)
        except SpieltafelError as error:
            raise RecordMismatchError(f"action {number}: {error}") from error
    return decisions


def assemble(
    record: GameRecord, chosen: Sequence[int], iterations: int, seed: int, decisions: Sequence[Decision],
    seconds: float,
) -> GameAnalysis:
    """The analysis of ``record`` from its decisions."""
    names = [record.seats[s] if s < len(record.seats) else f"seat {s}" for s in range(record.players)]
    ordered = sorted(decisions, key=lambda d: d.number)
    return GameAnalysis(
        game=record.game,
        players=record.players,
        seats=names,
        analysed_seats=list(chosen),
        iterations=iterations,
        seed=seed,
        decisions=ordered,
        summary=[summarise(seat, names[seat], ordered) for seat in chosen],
        seconds=round(seconds, 2),
    )


def summarise(seat: int, name: str, decisions: Sequence[Decision]) -> SeatSummary:
    """A seat's searched decisions in short: how many, the mean loss, the marks."""
    own = [d for d in decisions if d.seat == seat and not d.forced]
    return SeatSummary(
        seat=seat,
        name=name,
        decisions=len(own),
        mean_loss=round(sum(d.loss for d in own) / len(own), 1) if own else 0.0,
        mistakes=sum(1 for d in own if d.mark == "?"),
        blunders=sum(1 for d in own if d.mark == "??"),
    )
