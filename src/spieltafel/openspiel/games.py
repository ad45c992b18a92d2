"""The adapter: a ``pyspiel.Game`` and ``pyspiel.State`` over any registered Spieltafel game.

Decisions (chance model, utilities, simultaneous nodes, observations) are documented in the
package's docstring (:mod:`spieltafel.openspiel`). Only the engine contract (``Game``, ``State``) and
the RL encoding are used: no game is known by name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from spieltafel.core import JSON, Game, OptionSpec, Rng, SpieltafelError, State, all_games, get_game
from spieltafel.rl.encoding import Encoder, load_encoder

PREFIX = "spieltafel_"
"""OpenSpiel short names are ``spieltafel_<game>``."""

DEFAULT_MAX_LENGTH = 100_000
"""``max_game_length`` of a game that declares no bound (``Game.max_game_length`` is None)."""

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)

DEALS = 1 << 16
"""The outcomes of the root chance node: the engine seed of the game, uniform over ``range(DEALS)``."""

Params = Mapping[str, Any]


def short_name(game: Game) -> str:
    """The OpenSpiel short name of ``game``: ``spieltafel_<name>``."""
    return PREFIX + game.name


def parameter_name(option: OptionSpec) -> str:
    """An option's OpenSpiel parameter name: ``-`` becomes ``_`` (``round-limit`` → ``round_limit``)."""
    return option.name.replace("-", "_")


def _numeric(option: OptionSpec) -> bool:
    return all(choice.isdigit() for choice in option.choices)


def parameter_specification(game: Game) -> dict[str, object]:
    """The OpenSpiel parameters of ``game`` with their defaults (their types follow the defaults)."""
    spec: dict[str, object] = {"players": max(2, game.min_players)}
    for option in game.options:
        spec[parameter_name(option)] = int(option.default) if _numeric(option) else option.default
    if game.simultaneous:
        spec["turn_based"] = False
    return spec


def _encoder(game: Game) -> Encoder | None:
    try:
        return load_encoder(game.name)
    except SpieltafelError:
        return None


def game_type(game: Game, *, sequential: bool = False) -> Any:
    """The ``pyspiel.GameType`` of ``game`` (``sequential``: its turn-based form)."""
    simultaneous = game.simultaneous and not sequential
    tensors = _encoder(game) is not None
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"Spieltafel {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=max(2, game.min_players),
        provides_information_state_string=True,
        provides_information_state_tensor=tensors,
        provides_observation_string=True,
        provides_observation_tensor=tensors,
        parameter_specification=parameter_specification(game),
        default_loadable=True,
        provides_factored_observation_string=False,
    )


def returns_for(winners: list[int], players: int) -> list[float]:
    """Zero-sum returns from the winners (ties share): ``n/(n-1) * (share - 1/n)`` per seat."""
    if not winners:
        return [0.0] * players
    scale = players / (players - 1)
    return [scale * ((1.0 / len(winners) if seat in winners else 0.0) - 1.0 / players) for seat in range(players)]


class SpieltafelGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game over the Spieltafel game ``spec``, made from OpenSpiel parameters."""

    def __init__(self, spec: Game, params: Params) -> None:
        self.spec = spec
        self.players = int(params.get("players", max(2, spec.min_players)))
        spec.check_players(self.players)
        if self.players < 2:
            raise SpieltafelError("the OpenSpiel games are zero-sum between at least 2 players")
        self.options = spec.resolve_options(
            {o.name: str(params.get(parameter_name(o), o.default)) for o in spec.options}
        )
        self.turn_based = bool(params.get("turn_based", False))
        self.simultaneous = spec.simultaneous and not self.turn_based
        self.encoder = _encoder(spec)
        self.max_length = spec.max_game_length(self.players, self.options) or DEFAULT_MAX_LENGTH
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.action_space_size(self.players),
            max_chance_outcomes=DEALS,
            num_players=self.players,
            min_utility=-1.0 / (self.players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(game_type(spec, sequential=self.turn_based), info, dict(params))

    def deal(self, seed: int) -> State:
        """The engine's new game from ``seed`` (the outcome of the root chance node)."""
        return self.spec.new_state(self.players, seed, self.options)

    def new_initial_state(self) -> SpieltafelState:
        """OpenSpiel's initial state: the chance node that picks the deal."""
        return SpieltafelState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Params | None = None) -> SpieltafelObserver:
        """OpenSpiel's observer factory (``make_observation``, information state, observation)."""
        return SpieltafelObserver(self, iig_obs_type, params)


class EngineHolder:
    """The engine state inside an OpenSpiel state (None before the deal). It deep-copies as
    ``State.clone`` and pickles as the engine's full-state document (``to_json``): OpenSpiel's
    ``Clone`` deep-copies a Python state's attributes and its ``Serialize`` pickles them.

    ``views`` keeps each seat's view string and tensor until the state changes: OpenSpiel asks for
    them repeatedly (ISMCTS looks every node up twice; a simultaneous node is checked per player)."""

    __slots__ = ("state", "views")

    def __init__(self, state: State | None = None) -> None:
        self.state = state
        self.views: dict[tuple[bool, int | None], Any] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> EngineHolder:
        return EngineHolder(None if self.state is None else self.state.clone())

    def __reduce__(self) -> tuple[Callable[[str], EngineHolder], tuple[str]]:
        document = "null" if self.state is None else canonical(self.state.to_json())
        return restore_holder, (document,)


def restore_holder(document: str) -> EngineHolder:
    """Unpickle an :class:`EngineHolder` from the engine's full-state document."""
    data = json.loads(document)
    if data is None:
        return EngineHolder()
    return EngineHolder(get_game(str(data["game"])).state_from_json(data))


class SpieltafelState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state: the engine state plus the number of decisions taken (for the length cap)."""

    def __init__(self, game: SpieltafelGame, engine: State | None = None) -> None:
        super().__init__(game)
        self._engine = EngineHolder(engine)
        self._length = 0
        self._simultaneous = game.simultaneous
        self._max_length = game.max_length

    @property
    def dealt(self) -> bool:
        """False at the root chance node, before the deal."""
        return self._engine.state is not None

    @property
    def engine(self) -> State:
        """The engine state (full information: for the adapter and tests, never for a player)."""
        state = self._engine.state
        if state is None:
            raise SpieltafelError("the root chance node has no engine state yet: apply a deal first")
        return state

    # -- whose turn --------------------------------------------------------------------------------
    def current_player(self) -> int:
        """``PlayerId.CHANCE`` at the root, then a seat, ``PlayerId.SIMULTANEOUS`` when several seats
        choose at once, or ``PlayerId.TERMINAL``."""
        # The hot path of OpenSpiel's random rollouts (asked several times per action): the holder's
        # state directly, not through the ``dealt`` and ``engine`` properties.
        engine = self._engine.state
        if engine is None:
            return CHANCE
        seats = engine.seats_to_act()
        if not seats or self._length >= self._max_length:
            return TERMINAL
        if self._simultaneous and len(seats) > 1:
            return SIMULTANEOUS
        return seats[0]

    def is_terminal(self) -> bool:
        engine = self._engine.state
        return engine is not None and (engine.is_over or self._length >= self._max_length)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The root's outcomes: every seed in ``range(DEALS)``, uniformly."""
        return [(seed, 1.0 / DEALS) for seed in range(DEALS)]

    def _legal_actions(self, player: int) -> list[int]:
        """The seat's legal action indexes, ascending ([] for a seat that does not choose now)."""
        return self.engine.legal_actions(player)

    def _action_to_string(self, player: int, action: int) -> str:
        """The action's notation (``State.action_text``); ``deal N`` at the root; ``action N`` where
        it has none now."""
        if player == pyspiel.PlayerId.CHANCE or not self.dealt:
            return f"deal {action}"
        try:
            return self.engine.action_text(player, action)
        except (SpieltafelError, ValueError, IndexError, KeyError):
            return f"action {action}"

    # -- change ------------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        """The deal at the root; then one seat's action (validated by the engine's legal actions: an
        illegal one raises)."""
        if not self.dealt:
            if not 0 <= action < DEALS:
                raise SpieltafelError(f"the deal must be a seed below {DEALS}, not {action}")
            self._engine = EngineHolder(self.get_game().deal(action))
            return
        engine = self.engine
        seat = engine.seats_to_act()[0]
        if action not in engine.legal_actions(seat):
            raise engine.explain_illegal(seat, action)
        engine.step(seat, action)
        self._engine.views.clear()
        self._length += 1

    def _apply_actions(self, actions: list[int]) -> None:
        """A simultaneous node: the action of every choosing seat, applied in seat order (all are
        checked first); the entries of seats that do not choose are ignored."""
        engine = self.engine
        seats = engine.seats_to_act()
        for seat in seats:
            if actions[seat] not in engine.legal_actions(seat):
                raise engine.explain_illegal(seat, actions[seat])
        for seat in seats:
            engine.step(seat, actions[seat])
        self._engine.views.clear()
        self._length += 1

    # -- outcome -----------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Zero until the end; then ``n/(n-1) * (win share - 1/n)`` per seat (all 0 when cut off)."""
        if not self.dealt or not self.engine.is_over:
            return [0.0] * self.num_players()
        engine = self.engine
        return returns_for(engine.winners(), engine.players)

    # -- search ------------------------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> SpieltafelState:
        """A state from ``player_id``'s information set: the engine's ``determinise`` with a generator
        seeded from two draws of OpenSpiel's sampler (for OpenSpiel's ISMCTS)."""
        twin: SpieltafelState = self.get_game().new_initial_state()
        if not self.dealt:
            return twin
        seed = (int(probability_sampler() * (1 << 32)) << 32) | int(probability_sampler() * (1 << 32))
        twin._engine = EngineHolder(self.engine.determinise(player_id, Rng(seed)))
        twin._length = self._length
        return twin

    def decisions_left(self) -> int:
        """How many more decisions the length cap (``max_game_length``) allows."""
        return self._max_length - self._length

    def view_string(self, seat: int | None) -> str:
        """``State.view(seat)`` as canonical JSON (a spectator's view for None; ``{}`` before the deal)."""
        if not self.dealt:
            return "{}"
        views = self._engine.views
        text: str | None = views.get((False, seat))
        if text is None:
            text = views[False, seat] = canonical(self.engine.view(seat))
        return text

    def view_tensor(self, seat: int, encoder: Encoder) -> Any:
        """``seat``'s view encoded by the game's RL encoding (zeros before the deal)."""
        views = self._engine.views
        tensor = views.get((True, seat))
        if tensor is None:
            players = self.num_players()
            if self.dealt:
                tensor = encoder.encode(self.engine.view(seat), players)
            else:
                tensor = np.zeros(encoder.observation_size(players), np.float32)
            views[True, seat] = tensor
        return tensor

    def __str__(self) -> str:
        """The full state (secrets included) as canonical JSON: equal strings, equal states."""
        return canonical(self.engine.to_json()) if self.dealt else "{}"


def canonical(data: Mapping[str, JSON]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class SpieltafelObserver:
    """OpenSpiel's Python observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``).

    ``private_info=SINGLE_PLAYER`` (information state and observation): the seat's view, and the RL
    encoding of it as the tensor. ``NONE``: the spectator's view, no tensor. ``ALL_PLAYERS``: the
    full state, no tensor. Perfect recall is not distinguished (see the package docs).
    """

    def __init__(self, game: SpieltafelGame, iig_obs_type: Any, params: Params | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; given {dict(params)}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        public = True if iig_obs_type is None else bool(iig_obs_type.public_info)
        if not public and private != pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("a view without its public part is not supported")
        self.private = private
        self.players = game.players
        self.encoder = game.encoder if private == pyspiel.PrivateInfoType.SINGLE_PLAYER else None
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        if self.encoder is not None:
            self.tensor = np.zeros(self.encoder.observation_size(game.players), np.float32)
            self.dict = {"view": self.tensor}

    def set_from(self, state: SpieltafelState, player: int) -> None:
        """Write ``player``'s encoded view into ``tensor``."""
        if self.encoder is not None:
            self.tensor[:] = state.view_tensor(player, self.encoder)

    def string_from(self, state: SpieltafelState, player: int) -> str:
        """The view of ``player`` (or the spectator's, or the full state) as canonical JSON."""
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return state.view_string(player)
        if self.private == pyspiel.PrivateInfoType.NONE:
            return state.view_string(None)
        return str(state)


# -- registration and loading -------------------------------------------------------------------------


def _factory(spec: Game) -> type[SpieltafelGame]:
    """The class OpenSpiel calls with the parameters: a class per game, as OpenSpiel's own Python games
    register (a closure as the creator made the interpreter abort at exit, in OpenSpiel's registry's
    clean-up)."""

    def __init__(self: SpieltafelGame, params: Params) -> None:
        SpieltafelGame.__init__(self, spec, params)

    name = "Game_" + "".join(c if c.isalnum() else "_" for c in spec.name)
    cls = type(name, (SpieltafelGame,), {"__init__": __init__, "__module__": __name__})
    globals()[name] = cls  # found by name, as pickle finds a class
    return cls


def register_all() -> list[str]:
    """Register every game of the registry with OpenSpiel (idempotent); return the short names."""
    known = set(pyspiel.registered_names())
    names = []
    for spec in all_games():
        name = short_name(spec)
        if name not in known:
            pyspiel.register_game(game_type(spec), _factory(spec))
        names.append(name)
    return names


def game_string(game: str | Game, players: int, **options: object) -> str:
    """The OpenSpiel game string: ``spieltafel_niagara(players=4,round_limit=100)``."""
    spec = get_game(game) if isinstance(game, str) else game
    params = [f"players={players}"] + [f"{key.replace('-', '_')}={value}" for key, value in options.items()]
    return f"{short_name(spec)}({','.join(params)})"


def load(game: str | Game, players: int, **options: object) -> SpieltafelGame:
    """``pyspiel.load_game`` of a Spieltafel game (registered on import of this package)."""
    register_all()
    loaded: SpieltafelGame = pyspiel.load_game(game_string(game, players, **options))
    return loaded


def wrap(game: SpieltafelGame, engine: State) -> SpieltafelState:
    """An OpenSpiel state of ``game`` holding ``engine`` (e.g. a bot's determinised sample)."""
    return SpieltafelState(game, engine)
