"""Bots: players that see only their seat's view and legal actions.

A bot gets an :class:`Observation` (its seat, its legal actions and, on demand, its view) and
returns one of the legal actions. Later bots (greedy, ISMCTS) join through :func:`make_bot`.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, Protocol

from spieltafel.core import JSON, Rng, SpieltafelError, State
from spieltafel.core.errors import quote


@dataclass(frozen=True, slots=True)
class Observation:
    """What a bot may know when it must choose: nothing beyond its own seat's view.

    ``sample(rng)`` gives a full state drawn from the seat's information set (the engine's
    ``determinise``, which depends only on the seat's view and ``rng``): search bots simulate on
    such samples, never on the real state.
    """

    seat: int
    legal: list[int]
    _view: Callable[[], dict[str, JSON]] = field(repr=False)
    _sample: Callable[[Rng], State] = field(repr=False)
    undo: int = 0
    """Online (``spieltafel connect``): how many of the seat's latest moves it may take back now; a
    program may then return :data:`spieltafel.core.undo.UNDO` to take back one. Bots never do."""

    @property
    def view(self) -> dict[str, JSON]:
        """The seat's view of the game (computed on demand: random play does not need it)."""
        return self._view()

    def sample(self, rng: Rng) -> State:
        """A full state consistent with the seat's view, hidden information drawn with ``rng``."""
        return self._sample(rng)


class Bot(Protocol):
    """A player program."""

    name: str

    def choose(self, observation: Observation) -> int:
        """One of ``observation.legal``."""
        ...


class RandomBot:
    """Plays a uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, observation: Observation) -> int:
        return self.rng.choice(observation.legal)


class SearchSettings(NamedTuple):
    """ISMCTS settings besides the budget (``ismcts:1s:depth=20:temperature=2``)."""

    rollout_depth: int | Literal["game"] | None = "game"
    """Random actions before the heuristic judges the position; None: play to the end of the game;
    ``"game"``: the game's own for the player count (``ismcts.GAME_DEPTH``)."""
    temperature: float | None = None
    """The heuristic's softmax temperature in points; None: the game's own."""


def _greedy(seed: int) -> Bot:
    from .greedy import GreedyBot

    return GreedyBot(seed)


def _ismcts(
    iterations: int | None, seconds: float | None, name: str, settings: SearchSettings | None = None
) -> Callable[[int], Bot]:
    depth, temperature = settings or SearchSettings()

    def make(seed: int) -> Bot:
        from .ismcts import IsmctsBot

        bot = IsmctsBot(seed, iterations=iterations, seconds=seconds, rollout_depth=depth, temperature=temperature)
        bot.name = name
        return bot

    return make


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": _greedy,
    "ismcts": _ismcts(1000, 1.0, "ismcts"),
    "easy": _greedy,
    "medium": _ismcts(200, 1.0, "medium"),
    "hard": _ismcts(1000, 1.0, "hard"),
    "expert": _ismcts(None, 1.0, "expert"),
}
"""Bot names and difficulty levels. Levels: easy = greedy (one-ply heuristic); medium = ISMCTS, 200
iterations; hard = ISMCTS, 1000 iterations; expert = ISMCTS for 1 s. Every ISMCTS level stops at 1 s
per move at the latest; iteration budgets are reproducible as long as that cap is not reached."""


OPENSPIEL_PREFIX = "openspiel-"
"""Bots from OpenSpiel (``openspiel-ismcts``, ``openspiel-mcts``, ``openspiel-random``, with an optional
budget ``:500`` or ``:0.25s``): :mod:`spieltafel.openspiel.bots`, with the ``openspiel`` extra."""


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot called ``name``, with its own random generator seeded from ``seed``.

    Besides the names of :data:`BOTS`: ``ismcts:500`` (our ISMCTS with 500 iterations per move, no
    time cap) and ``ismcts:0.25s`` (0.25 s per move, no iteration cap: ``expert``'s search at another
    time), each optionally with the search's settings for experiments, ``ismcts:1s:depth=20`` (random
    playouts of 20 actions before the heuristic; ``depth=end``: to the end of the game) and
    ``:temperature=2`` (the heuristic's softmax temperature, in points), and OpenSpiel's bots
    (:data:`OPENSPIEL_PREFIX`)."""
    key = name.strip().lower()
    if key.startswith(OPENSPIEL_PREFIX):
        return _openspiel_bot(key, seed)
    if key.startswith("ismcts:"):
        budget, *settings = key.split(":")[1:]
        iterations, seconds = parse_budget(key, budget)
        return _ismcts(iterations, seconds, key, parse_search_settings(key, settings))(seed)
    factory = BOTS.get(key)
    if factory is None:
        raise SpieltafelError(
            f"unknown bot {quote(name)}; bots: {', '.join(BOTS)}, ismcts:N, ismcts:Ts (with :depth=D, :temperature=T), "
            "openspiel-ismcts, openspiel-mcts, openspiel-random"
        )
    return factory(seed)


def parse_budget(name: str, text: str) -> tuple[int | None, float | None]:
    """A search budget: ``"500"`` → 500 iterations; ``"0.25s"`` → 0.25 seconds per move."""
    try:
        if text.endswith("s") and float(text[:-1]) > 0:
            return None, float(text[:-1])
        if not text.endswith("s") and int(text) > 0:
            return int(text), None
    except ValueError:
        pass
    raise SpieltafelError(f"bad budget in {quote(name)}: give iterations (':500') or seconds per move (':0.25s')")


def parse_search_settings(name: str, parts: list[str]) -> SearchSettings:
    """ISMCTS settings after the budget: ``depth=20`` or ``depth=end`` (random actions before the heuristic
    judges the position, or none: to the end), ``temperature=2`` (the heuristic's softmax)."""
    settings, seen = SearchSettings(), set()
    for part in parts:
        setting, _, text = part.partition("=")
        try:
            if setting == "depth" and setting not in seen and (text == "end" or int(text) >= 0):
                settings = settings._replace(rollout_depth=None if text == "end" else int(text))
            elif setting == "temperature" and setting not in seen and 0 < float(text) < math.inf:
                settings = settings._replace(temperature=float(text))
            else:
                raise ValueError(part)
            seen.add(setting)
        except ValueError:
            raise SpieltafelError(
                f"bad search setting {quote(part)} in {quote(name)}: give depth=N (random actions before the "
                "heuristic, 0 or more) or depth=end, and temperature=T (a number above 0), each at most once"
            ) from None
    return settings


def _openspiel_bot(name: str, seed: int) -> Bot:
    # Imported by name: the bots are compiled with mypyc, and a static import would make the build follow
    # spieltafel.openspiel into numpy and OpenSpiel, which pip's isolated build environment does not have.
    try:
        module = importlib.import_module("spieltafel.openspiel.bots")
    except ImportError as error:
        raise SpieltafelError(
            f"{name} needs OpenSpiel ({error.name} is missing): pip install 'spieltafel[openspiel]'"
        ) from error
    bot: Bot = module.make_openspiel_bot(name, seed)
    return bot


def bot_names() -> list[str]:
    return list(BOTS)
