"""The Niagara state: what lies on the table, and the engine contract wired to the rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, final

from spieltafel.core import JSON, Event, Game, IllegalActionError, Rng, State, sample_seed

from . import notation, rules, schema, text, view
from .components import (
    ALL_CARDS,
    CANOES,
    CAVE_START,
    COLOURS,
    DISCS_ASIDE,
    FALLEN,
    RIVER_DISCS,
    SHORE,
    SPACES,
    WEATHER_MAX,
    WEATHER_MIN,
    WEATHER_START,
)
from .invariants import check_invariants
from .rules import NO_GEM, OVER, SECRET


@final
class NiagaraState(State):
    """One position of Niagara.

    ``canoes[seat * 2 + c]`` is the space of canoe ``c`` of ``seat`` (SHORE, 1–9 or FALLEN) and
    ``cargo`` the colour of the gem it carries (NO_GEM). ``caves[i][colour]`` counts the gems in
    cave ``i`` (cave ``i`` is the home of colour ``i``); ``banked[seat][colour]`` the gems brought
    ashore. ``hands[seat]`` is a bit set of the paddle cards in the hand; ``choice[seat]`` the card
    on the table this round (-1: not yet chosen), secret until ``revealed[seat]``; ``played[seat]``
    the revealed cards since the hand was last refilled. ``river[i]`` is the disc on space ``i+1``.

    The move of the seat on turn: ``must`` (bit set of canoes on the water at the start of the
    turn), ``moved`` (canoes that have moved), ``launched``, ``rescue_declined`` (the buy-back of
    this turn is settled: a canoe came back, one per turn, or the player left them), ``active`` (the
    canoe moving, -1), and its ``points``, ``heading``, ``stage`` and ``handled`` (it has taken or set
    down its one gem of the move; see :mod:`.river`); ``turn_heading`` is the direction of the turn's
    last step (binding with ``direction=per-turn``).

    The class is final and declares every field in :meth:`set_up`: setup.py compiles it with mypyc
    to a native class (fields in slots, typed), so copies are made field by field, never through
    ``__dict__``; :meth:`new` sets up a game, the constructor alone makes an empty shell for copies.
    """

    game: ClassVar[Game]

    def __init__(self, players: int, seed: int, options: dict[str, str]) -> None:
        """A state with its players, seed and options, nothing on the table yet (see :meth:`new`)."""
        self.players = players
        self.seed = seed
        self.options = options

    @staticmethod
    def new(players: int, seed: int, options: dict[str, str]) -> NiagaraState:
        """Set up a game ("Aufbau"), see :meth:`set_up`."""
        state = NiagaraState(players, seed, options)
        state.set_up()
        return state

    def set_up(self) -> None:
        """Set up a game ("Aufbau"): 7 gems in each cave, the cloud at 0, the discs laid from the
        rope (the first nine on the river, three aside), both canoes of every player on the beach,
        seven paddle cards each; seat 0 holds the life ring. Niagara has no chance: ``seed`` only
        seeds the generator kept for search."""
        players = self.players
        self.rng = Rng(self.seed)
        self.round = 1
        self.ring = 0
        self.current = 0
        self.phase = SECRET
        self.hands = [ALL_CARDS] * players
        self.choice = [-1] * players
        self.revealed = [0] * players
        self.played: list[list[int]] = [[] for _ in range(players)]
        self.canoes = [SHORE] * (players * CANOES)
        self.cargo = [NO_GEM] * (players * CANOES)
        self.banked = [[0] * COLOURS for _ in range(players)]
        self.caves = [[CAVE_START if colour == cave else 0 for colour in range(COLOURS)] for cave in range(COLOURS)]
        self.river = list(range(SPACES))
        self.aside = list(range(SPACES, RIVER_DISCS))
        self.weather = WEATHER_START
        self.next_arm = 0
        self.must = self.moved = self.launched = self.rescue_declined = 0
        self.active = -1
        self.points = self.heading = self.stage = self.handled = 0
        self.turn_heading = 0
        self.ending = 0
        self.won: list[int] = []
        """The winning seats once the game is over."""

    # -- engine contract --------------------------------------------------------------------------
    def seats_to_act(self) -> tuple[int, ...]:
        if self.phase == SECRET:
            return tuple(seat for seat, card in enumerate(self.choice) if card < 0)
        return () if self.phase == OVER else (self.current,)

    def legal_actions(self, seat: int) -> list[int]:
        return rules.legal_actions(self, seat)

    def action_text(self, seat: int, action: int) -> str:
        return notation.action_text(action)

    def parse_action(self, seat: int, text: str) -> int:
        return notation.parse_action(text)

    def explain_illegal(self, seat: int, action: int) -> IllegalActionError:
        return rules.explain_illegal(self, seat, action)

    def _apply(self, seat: int, action: int, events: list[Event] | None) -> None:
        rules.apply(self, seat, action, events)

    def step(self, seat: int, action: int) -> None:
        rules.apply(self, seat, action, None)  # State.step without the extra call (the search's hot path)

    def view(self, seat: int | None = None) -> dict[str, JSON]:
        return view.view(self, seat)

    def render(self, seat: int | None = None) -> Any:
        return text.render(self, seat)

    def determinise(self, seat: int, rng: Rng) -> NiagaraState:
        twin = self.clone()
        view.resample_hidden(twin, seat, rng)
        twin.seed = sample_seed(rng)  # no trace of the true seed in a sample
        return twin

    def scores(self) -> list[int]:
        """Gems banked per seat (the winner is decided by the end conditions, see ``winners``)."""
        return [sum(banked) for banked in self.banked]

    def winners(self) -> list[int]:
        return list(self.won) if self.phase == OVER else []

    # -- copies ---------------------------------------------------------------------------------
    def clone(self) -> NiagaraState:
        twin = NiagaraState(self.players, self.seed, self.options)
        twin.round = self.round
        twin.ring = self.ring
        twin.current = self.current
        twin.phase = self.phase
        twin.weather = self.weather
        twin.next_arm = self.next_arm
        twin.must = self.must
        twin.moved = self.moved
        twin.launched = self.launched
        twin.rescue_declined = self.rescue_declined
        twin.active = self.active
        twin.points = self.points
        twin.heading = self.heading
        twin.stage = self.stage
        twin.handled = self.handled
        twin.turn_heading = self.turn_heading
        twin.ending = self.ending
        twin.rng = Rng(self.rng.state)
        twin.hands = self.hands[:]
        twin.choice = self.choice[:]
        twin.revealed = self.revealed[:]
        twin.played = [p[:] for p in self.played]
        twin.canoes = self.canoes[:]
        twin.cargo = self.cargo[:]
        twin.banked = [b[:] for b in self.banked]
        twin.caves = [c[:] for c in self.caves]
        twin.river = self.river[:]
        twin.aside = self.aside[:]
        twin.won = self.won[:]
        return twin

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "round", "ring", "current", "phase", "hands", "choice", "revealed", "played", "canoes", "cargo",
        "banked", "caves", "river", "aside", "weather", "next_arm", "must", "moved", "launched",
        "rescue_declined", "active", "points", "heading", "stage", "handled", "turn_heading", "ending", "won",
    )

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "game": self.game.name,
            "format": 1,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self.rng.state,
        }
        for name in self._FIELDS:
            data[name] = _copy(getattr(self, name))
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> NiagaraState:
        schema.check_document(cls.game, data, cls._FIELDS)  # shape, ranges, options, invariants
        options = data["options"]
        if not isinstance(options, dict):
            raise ValueError("options must be an object")
        state = NiagaraState(int(data["players"]), int(data["seed"]), {str(k): str(v) for k, v in options.items()})
        state.rng = Rng(int(data["rng"]))
        for name in cls._FIELDS:
            setattr(state, name, _copy(data[name]))
        _check_shape(state)
        check_invariants(state)
        return state


def _copy(value: JSON) -> JSON:
    """A copy of a JSON value nested at most two lists deep (all the state holds)."""
    if isinstance(value, list):
        return [v[:] if isinstance(v, list) else v for v in value]
    return value


def _check_shape(state: NiagaraState) -> None:
    """Refuse a document whose parts have the wrong sizes or ranges (a hand-edited file, say)."""
    n = state.players
    known = {spec.name: spec.choices for spec in state.game.options}
    if set(state.options) != set(known) or any(v not in known[k] for k, v in state.options.items()):
        raise ValueError(f"options {state.options} do not match Niagara's options")
    if not 3 <= n <= 5:
        raise ValueError(f"Niagara is played by 3 to 5 players, not {n}")
    per_seat = (state.hands, state.choice, state.revealed, state.played, state.banked)
    if any(len(part) != n for part in per_seat) or len(state.canoes) != n * CANOES or len(state.cargo) != n * CANOES:
        raise ValueError("per-player lists do not match the player count")
    if len(state.caves) != COLOURS or any(len(c) != COLOURS for c in state.caves):
        raise ValueError("there are five caves of five colours")
    if sorted(state.river + state.aside) != list(range(RIVER_DISCS)) or len(state.aside) != DISCS_ASIDE:
        raise ValueError("the twelve river discs must be nine on the river and three aside")
    if not all(SHORE <= c <= FALLEN for c in state.canoes) or not all(-1 <= g < COLOURS for g in state.cargo):
        raise ValueError("canoe place or cargo out of range")
    if not WEATHER_MIN <= state.weather <= WEATHER_MAX or not 0 <= state.phase <= OVER:
        raise ValueError("weather or phase out of range")
    in_play = [sum(cave[c] for cave in state.caves) + sum(b[c] for b in state.banked) for c in range(COLOURS)]
    for gem in state.cargo:
        if gem >= 0:
            in_play[gem] += 1
    if in_play != [CAVE_START] * COLOURS:
        raise ValueError(f"gems in play per colour are {in_play}, not {CAVE_START} each")
    if not (0 <= state.ring < n and 0 <= state.current < n and all(0 <= h <= ALL_CARDS for h in state.hands)):
        raise ValueError("seat or hand out of range")
