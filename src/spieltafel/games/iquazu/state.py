"""The Iquazú state: what lies on the table, and the engine contract wired to the rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, final

from spieltafel.core import JSON, Event, Game, IllegalActionError, Rng, State, sample_seed

from . import notation, rules, schema, text, view
from .board import BONUS_FIELDS, ROCK_COLUMNS, ROWS, SLOTS, Layout, bonus_field_is_dark, layout
from .components import (
    CARDS_PER_COLOUR,
    DARK_TILES,
    GEMS_PER_COLOUR,
    LIGHT_TILES,
    START_CARDS,
    TILE_KINDS,
    WATER_DROPS,
)
from .rules import ACTION, EMPTY, OVER, TILE_INDEX

_LIGHT: Final = tuple(TILE_INDEX[c] for c, n in LIGHT_TILES.items() for _ in range(n))
_DARK: Final = tuple(TILE_INDEX[c] for c, n in DARK_TILES.items() for _ in range(n))
_FIELD_IS_DARK: Final = tuple(bonus_field_is_dark(f) for f in range(BONUS_FIELDS))
_DECK: Final = tuple(colour for colour in range(3) for _ in range(CARDS_PER_COLOUR))
_ALONE: Final = tuple((seat,) for seat in range(8))
"""_ALONE[seat]: the tuple (seat,), made once (seats_to_act on the hot path)."""


@final
class IquazuState(State):
    """One position of Iquazú.

    ``slots[s]`` is EMPTY, WATER (see rules) or the seat whose gem lies there. ``frame`` is the 0-based board
    column of the water frame's first column. Cards are colour counts (white, blue, orange): cards of
    one colour are alike. ``bonus[f]`` is the tile kind on bonus field ``f`` (NO_TILE once handed out).
    The score is kept with its parts, as the rules award them: ``rock_points[seat][c]`` is what the
    rock of board column ``c`` gave the seat when it was scored, ``tile_points[seat]`` the points on
    its bonus tiles added at the end; ``points[seat]`` is always their sum.

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
    def new(players: int, seed: int, options: dict[str, str]) -> IquazuState:
        """Set up a game (rulebook, "Opbouw") from ``seed``."""
        state = IquazuState(players, seed, options)
        state.set_up()
        return state

    def set_up(self) -> None:
        """Lay out the board, the bonus tiles and the cards (rulebook, "Opbouw"), all chance from the seed."""
        players = self.players
        self.rng = Rng(self.seed)
        order = list(range(ROWS))
        self.rng.shuffle(order)  # the rock strips are laid in random order
        self.layout: Layout = layout(tuple(order))
        self.slots = [EMPTY] * SLOTS
        self.frame = 0
        self.bonus = self._lay_bonus_tiles()
        deck = list(_DECK)
        self.rng.shuffle(deck)
        self.hands = [[0, 0, 0] for _ in range(players)]
        for seat in range(players):  # dealt clockwise from the start player: 4, 5, 6, 7
            for _ in range(START_CARDS[seat]):
                self.hands[seat][deck.pop()] += 1
        self.pile = deck
        self.discards = [0, 0, 0]
        self.supply = [GEMS_PER_COLOUR - 1] * players  # one gem of each colour is the score marker
        self.drops = WATER_DROPS
        self.points = [0] * players
        self.rock_points: tuple[tuple[int, ...], ...] = ((0,) * ROCK_COLUMNS,) * players
        self.tile_points: tuple[int, ...] = (0,) * players
        self.tiles = [[0] * len(TILE_KINDS) for _ in range(players)]
        self.used_tiles = [0] * len(TILE_KINDS)
        self.removed_tiles = [0] * len(TILE_KINDS)
        self.current = 0  # the start player has the gem box
        self.water_holder = players - 1  # the water box starts right of the start player
        self.phase = ACTION
        self.actions_left = 1
        self.scored_this_turn = False

    def _lay_bonus_tiles(self) -> list[int]:
        """Shuffle the tiles face down by back colour and lay them on the light and dark fields."""
        light = list(_LIGHT)
        dark = list(_DARK)
        self.rng.shuffle(light)
        self.rng.shuffle(dark)
        return [(dark if is_dark else light).pop() for is_dark in _FIELD_IS_DARK]

    # -- engine contract --------------------------------------------------------------------------
    def seats_to_act(self) -> tuple[int, ...]:
        return () if self.phase == OVER else _ALONE[self.current]

    def legal_actions(self, seat: int) -> list[int]:
        return rules.legal_actions(self, seat)

    def action_text(self, seat: int, action: int) -> str:
        return notation.action_text(action, self.layout.colour)

    def parse_action(self, seat: int, text: str) -> int:
        return notation.parse_action(text, self.layout.colour)

    def explain_illegal(self, seat: int, action: int) -> IllegalActionError:
        return rules.explain_illegal(self, seat, action)

    def _apply(self, seat: int, action: int, events: list[Event] | None) -> None:
        rules.apply(self, seat, action, events)

    def step(self, seat: int, action: int) -> None:
        rules.step(self, seat, action)  # State.step: the unchecked path without events (the search's)

    def view(self, seat: int | None = None) -> dict[str, JSON]:
        return view.view(self, seat)

    def render(self, seat: int | None = None) -> Any:
        return text.render(self, seat)

    def determinise(self, seat: int, rng: Rng) -> IquazuState:
        twin = self.clone()
        view.resample_hidden(twin, seat, rng)
        twin.seed = sample_seed(rng)
        return twin

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        best = max(self.points)
        return [seat for seat, p in enumerate(self.points) if p == best]

    # -- copies ---------------------------------------------------------------------------------
    def clone(self) -> IquazuState:
        twin = IquazuState(self.players, self.seed, self.options)
        twin.layout = self.layout
        twin.frame = self.frame
        twin.drops = self.drops
        twin.current = self.current
        twin.water_holder = self.water_holder
        twin.phase = self.phase
        twin.actions_left = self.actions_left
        twin.scored_this_turn = self.scored_this_turn
        twin.rng = Rng(self.rng.state)
        twin.slots = self.slots[:]
        twin.bonus = self.bonus[:]
        twin.hands = [h[:] for h in self.hands]
        twin.pile = self.pile[:]
        twin.discards = self.discards[:]
        twin.supply = self.supply[:]
        twin.points = self.points[:]
        twin.rock_points = self.rock_points  # immutable: the rules replace them when they score
        twin.tile_points = self.tile_points
        twin.tiles = [t[:] for t in self.tiles]
        twin.used_tiles = self.used_tiles[:]
        twin.removed_tiles = self.removed_tiles[:]
        return twin

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "slots",
        "frame",
        "bonus",
        "hands",
        "pile",
        "discards",
        "supply",
        "drops",
        "points",
        "tiles",
        "used_tiles",
        "removed_tiles",
        "current",
        "water_holder",
        "phase",
        "actions_left",
        "scored_this_turn",
    )

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "game": self.game.name,
            "format": schema.FORMAT,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self.rng.state,
            "strip_order": list(self.layout.strip_order),
        }
        for name in self._FIELDS:
            data[name] = _copy(getattr(self, name))
        data["rock_points"] = [list(rocks) for rocks in self.rock_points]
        data["tile_points"] = list(self.tile_points)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> IquazuState:
        """The state of a full-state document, checked completely by :mod:`.schema` first."""
        document = schema.check_document(cls.game, data)
        state = IquazuState(document.players, document.seed, dict(document.options))
        state.rng = Rng(document.rng)
        state.layout = layout(tuple(document.strip_order))
        for name in cls._FIELDS:
            setattr(state, name, _copy(getattr(document, name)))
        state.rock_points = tuple(tuple(rocks) for rocks in document.rock_points)
        state.tile_points = tuple(document.tile_points)
        return state


def _copy(value: JSON) -> JSON:
    """A copy of a JSON value nested at most two lists deep (all the state holds)."""
    if isinstance(value, list):
        return [v[:] if isinstance(v, list) else v for v in value]
    return value
