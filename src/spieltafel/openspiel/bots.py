"""OpenSpiel's bots as Spieltafel bots, for the arena and wherever a bot is named.

- ``openspiel-ismcts``: OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``,
  Cowling et al.), as OpenSpiel ships it: UCT with ``uct_c=2``, one random rollout to the end of the
  game per simulation (``RandomRolloutEvaluator``), the most visited action, a new world per
  simulation from ``resample_from_infostate`` (our ``determinise``).
- ``openspiel-mcts``: OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``, same evaluator),
  which is for perfect information: it searches one world drawn from the bot's information set per
  move (determinised MCTS).
- ``openspiel-random``: OpenSpiel's uniform random bot (``pyspiel.make_uniform_random_bot``).

Budgets: ``openspiel-ismcts`` searches 1 s per move (as ``expert``); ``openspiel-ismcts:500``
runs 500 simulations per move, ``openspiel-ismcts:0.25s`` simulates until 0.25 s are spent. Every
search runs at least two simulations (the first only expands the root, and OpenSpiel's searches fail
with one). OpenSpiel's MCTS has no clock: with a time budget its simulations per move are set from
the rate measured on its previous moves.

``:rollouts=engine`` after the budget (``openspiel-ismcts:1000:rollouts=engine``), for measurements at
equal iterations: the search's random rollouts run on the engine state directly
(:class:`EngineRolloutEvaluator`) instead of through OpenSpiel's state interface. They draw the same
numbers from the same generator, so the bot chooses exactly what it chooses without the setting (the
tests replay games both ways), some five times faster in Niagara, whose random games run to thousands
of actions. Not for equal time: that speed is ours, not OpenSpiel's.

A bot sees what every Spieltafel bot sees: its seat's view and samples from its information set
(``Observation.sample``). It plays on the OpenSpiel game in its turn-based form (OpenSpiel's
searches are for sequential games): a sample where earlier seats of a simultaneous choice have not
chosen yet gets random choices for them, which the seat cannot see anyway.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from spieltafel.bots import Observation, parse_budget
from spieltafel.core import Rng, SpieltafelError, State
from spieltafel.core.errors import quote

from .games import SpieltafelGame, SpieltafelState, load, returns_for, wrap

KINDS = ("openspiel-ismcts", "openspiel-mcts", "openspiel-random")
DEFAULT_SECONDS = 1.0
UCT_C = 2.0
MIN_SIMULATIONS = 2
"""OpenSpiel's searches need two simulations per move: the first only expands the root."""
WORD = 1 << 32
"""NumPy's ``randint(0, WORD, dtype=np.uint32)`` returns the generator's next raw 32-bit word as it is."""
WORDS_AT_ONCE = 1024
"""Raw words fetched at a time by the engine rollouts (the unused ones are given back)."""


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS with a time budget: its search loop, run until ``seconds`` are spent."""

    def __init__(self, *args: Any, seconds: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.last_simulations = 0

    def run_search(self, state: Any) -> Any:
        """``ISMCTSBot.run_search`` with a deadline instead of a number of simulations."""
        if self.seconds is None:
            self.last_simulations = self._max_simulations
            return super().run_search(state)
        deadline = time.perf_counter() + self.seconds
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        self.last_simulations = 0
        while self.last_simulations < MIN_SIMULATIONS or time.perf_counter() < deadline:
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled)
            self.run_simulation(sampled)
            self.last_simulations += 1
        return self.get_final_policy(state, self._root_node)


class EngineRolloutEvaluator(mcts.RandomRolloutEvaluator):  # type: ignore[misc]
    """OpenSpiel's ``RandomRolloutEvaluator`` run on the engine state directly: the same actions from the
    same draws, faster.

    OpenSpiel's rollout takes ``random_state.choice(state.legal_actions())``, which draws
    ``random_state.randint(0, len(legal))`` (NumPy's ``RandomState.choice`` without weights); this one
    draws that number and takes that action. The draws are replayed from the generator's raw 32-bit words,
    fetched in blocks, as NumPy's legacy ``randint`` makes them (the word masked to the bit length of
    ``count - 1``, again until it is below ``count``; no word when ``count`` is 1), and the generator is then
    set to where the draws one by one would leave it. A turn-based state's player is the engine's first seat to
    act; chance happens inside the engine's ``step`` with the state's own generator, as in the adapter.
    A rollout ends where the OpenSpiel state is terminal (the game is over, or the state's length cap is
    reached) or after the evaluator's ``max_length`` actions, and counts what the state's ``returns()``
    would; the evaluation is the mean over ``n_rollouts``, as OpenSpiel's. Other states (the root chance
    node, a simultaneous node) go to OpenSpiel's own rollout.
    """

    def evaluate(self, state: Any) -> Any:
        if not isinstance(state, SpieltafelState) or not state.dealt or state.current_player() < 0:
            return super().evaluate(state)
        result = None
        for _ in range(self.n_rollouts):
            returns = self._rollout(state.engine.clone(), state.decisions_left())
            result = returns if result is None else result + returns
        return result / self.n_rollouts

    def _rollout(self, engine: State, left: int) -> Any:
        """One random game from ``engine`` (changed in place) for at most ``left`` actions; its returns."""
        if self.max_length is not None:
            left = min(left, max(1, self.max_length))  # OpenSpiel checks its limit after an action
        random_state = self._random_state
        start = random_state.get_state()
        words: list[int] = []
        used = 0
        while left > 0 and not engine.is_over:
            seat = engine.seats_to_act()[0]
            legal = engine.legal_actions(seat)
            count = len(legal)
            index = 0
            if count > 1:  # NumPy's randint(0, count): 32-bit words masked, until one is below count
                mask = (1 << (count - 1).bit_length()) - 1
                index = count
                while index >= count:
                    if used == len(words):
                        words += random_state.randint(0, WORD, size=WORDS_AT_ONCE, dtype=np.uint32).tolist()
                    index = words[used] & mask
                    used += 1
            engine.step(seat, legal[index])
            left -= 1
        random_state.set_state(start)  # then on by exactly the words used, as the draws one by one leave it
        if used:
            random_state.randint(0, WORD, size=used, dtype=np.uint32)
        if not engine.is_over:
            return np.zeros(engine.players)
        return np.array(returns_for(engine.winners(), engine.players))


class OpenSpielBot:
    """One of OpenSpiel's bots playing a Spieltafel seat (see the module docs)."""

    def __init__(
        self,
        name: str,
        kind: str,
        simulations: int | None,
        seconds: float | None,
        seed: int,
        *,
        engine_rollouts: bool = False,
    ) -> None:
        self.name = name
        self.kind = kind
        self.simulations = simulations
        self.seconds = seconds
        self.engine_rollouts = engine_rollouts
        self.rng = Rng(seed)
        self.random_state = np.random.RandomState(seed & 0xFFFFFFFF)
        self.seed = seed
        self._games: dict[tuple[str, int, tuple[tuple[str, str], ...]], SpieltafelGame] = {}
        self._bots: dict[tuple[int, int], Any] = {}
        self._rate: float | None = None
        """MCTS with a time budget: simulations per second measured so far."""

    def choose(self, observation: Observation) -> int:
        if len(observation.legal) == 1:
            return observation.legal[0]
        sample = self._sample(observation)
        game = self._game(sample)
        state = wrap(game, sample)
        action = int(self._step(game, state, observation.seat))
        if action not in observation.legal:
            raise SpieltafelError(f"{self.name} chose {action}, not a legal action")
        return action

    def _sample(self, observation: Observation) -> State:
        """A world from the seat's information set in which the seat is the first to choose."""
        sample = observation.sample(self.rng)
        while sample.seats_to_act()[0] != observation.seat:
            other = sample.seats_to_act()[0]
            sample.step(other, self.rng.choice(sample.legal_actions(other)))
        return sample

    def _game(self, sample: State) -> SpieltafelGame:
        key = (sample.game.name, sample.players, tuple(sorted(sample.options.items())))
        game = self._games.get(key)
        if game is None:
            extra: dict[str, object] = {"turn_based": True} if sample.game.simultaneous else {}
            game = self._games[key] = load(sample.game, sample.players, **sample.options, **extra)
        return game

    def _step(self, game: SpieltafelGame, state: Any, seat: int) -> Any:
        key = (id(game), seat if self.kind == "openspiel-random" else -1)
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = self._make(game, seat)
        if self.kind == "openspiel-mcts" and self.seconds is not None:
            return self._timed_mcts_step(bot, state)
        return bot.step(state)

    def _make(self, game: SpieltafelGame, seat: int) -> Any:
        if self.kind == "openspiel-random":
            return pyspiel.make_uniform_random_bot(seat, self.seed & 0x7FFFFFFF)
        rollouts = EngineRolloutEvaluator if self.engine_rollouts else mcts.RandomRolloutEvaluator
        evaluator = rollouts(n_rollouts=1, random_state=self.random_state)
        if self.kind == "openspiel-ismcts":
            bot = TimedISMCTSBot(
                game,
                evaluator,
                UCT_C,
                max_simulations=max(MIN_SIMULATIONS, self.simulations or 1),
                random_state=self.random_state,
                seconds=self.seconds,
            )
            bot.set_resampler(self._resample)
            return bot
        simulations = max(MIN_SIMULATIONS, self.simulations or 1)
        return mcts.MCTSBot(game, UCT_C, simulations, evaluator, solve=False, random_state=self.random_state)

    def _resample(self, state: Any, player: int) -> Any:
        """``resample_from_infostate`` drawing from the bot's own generator (OpenSpiel's default
        sampler is not seeded): iteration budgets are then reproducible from the bot's seed."""
        return state.resample_from_infostate(player, self.random_state.uniform)

    def _timed_mcts_step(self, bot: Any, state: Any) -> Any:
        """MCTS for about ``seconds``: simulations from the rate measured so far (10 at first)."""
        assert self.seconds is not None
        rate = self._rate
        bot.max_simulations = 10 if rate is None else max(MIN_SIMULATIONS, int(rate * self.seconds))
        start = time.perf_counter()
        action = bot.step(state)
        spent = time.perf_counter() - start
        rate = bot.max_simulations / max(spent, 1e-6)
        self._rate = rate if self._rate is None else 0.5 * self._rate + 0.5 * rate
        return action


def make_openspiel_bot(name: str, seed: int = 0) -> OpenSpielBot:
    """The OpenSpiel bot called ``name``: ``openspiel-ismcts``, ``openspiel-mcts`` or
    ``openspiel-random``, the search bots with an optional budget (``:500``, ``:0.25s``) and then
    ``:rollouts=engine`` or ``:rollouts=openspiel`` (the default; see the module docs)."""
    kind, _, rest = name.partition(":")
    if kind not in KINDS:
        raise SpieltafelError(f"unknown OpenSpiel bot {quote(name)}; OpenSpiel bots: {', '.join(KINDS)}")
    parts = rest.split(":") if rest else []
    if kind == "openspiel-random":
        if parts:
            raise SpieltafelError(f"{kind} takes no budget or setting, not {quote(rest)}")
        return OpenSpielBot(name, kind, None, None, seed)
    engine_rollouts = False
    if parts and parts[-1].startswith("rollouts="):
        engine_rollouts = parse_rollouts(name, parts.pop())
    if len(parts) > 1 or parts == [""]:
        raise SpieltafelError(
            f"bad OpenSpiel bot {quote(name)}: give {kind}, then optionally a budget (':500' or ':0.25s'), "
            "then optionally ':rollouts=engine'"
        )
    simulations, seconds = parse_budget(name, parts[0]) if parts else (None, DEFAULT_SECONDS)
    return OpenSpielBot(name, kind, simulations, seconds, seed, engine_rollouts=engine_rollouts)


def parse_rollouts(name: str, part: str) -> bool:
    """``rollouts=engine`` → True (rollouts on the engine), ``rollouts=openspiel`` → False."""
    value = part.partition("=")[2]
    if value not in ("engine", "openspiel"):
        raise SpieltafelError(
            f"bad setting {quote(part)} in {quote(name)}: give rollouts=engine (the same random rollouts, run "
            "on the engine directly) or rollouts=openspiel (through OpenSpiel's state, the default)"
        )
    return value == "engine"
