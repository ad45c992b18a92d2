"""Iquazú (HABA 2017, Michael Feldkötter), 2–4 players: gems behind the waterfall."""

from __future__ import annotations

from collections.abc import Mapping

from spieltafel.core import JSON, Game, GameKit, OptionSpec, RulesPage, State, register
from spieltafel.core.kit import N_

from .notation import ACTION_SPACE
from .state import IquazuState

COMPILED = ("state", "rules", "board", "components", "heuristics", "view", "notation")
"""The modules on the search's hot path that ``setup.py`` compiles with mypyc (it reads this line)."""


class Iquazu(Game):
    """The game Iquazú: registry entry and state factory."""

    name = "iquazu"
    title = "Iquazú"
    min_players = 2
    max_players = 4
    closing_events = frozenset(
        {"draw", "reshuffle", "shift", "rock", "water", "water-box", "bonus-tile", "tile-points", "turn", "game-over"}
    )
    """Takeback: cards drawn from the face-down pile, a new rock strip turned over, water, a scoring or
    the turn passing closes the window; a placement, a double-turn tile and a discard stay open."""
    options = (
        OptionSpec(
            "water",
            ("holder-turn", "every-turn"),
            "holder-turn",
            "who drops water: the water-box holder at the end of their own turn (rulebook), "
            "or the holder after every player's turn",
            label="Dropping water",
            choice_labels=("on the holder's own turn", "after every player's turn"),
        ),
    )

    kit = GameKit(
        locales="locales",
        tutorial="tutorial.json",
        package=__name__,
        rules=RulesPage(picture_players=3, picture_moves=40),
        compiled=COMPILED,
        blurb=N_(
            "Place your gems in the rock face behind the waterfall before the water covers the slots; "
            "majorities in columns and rows score."
        ),
    )

    def action_space_size(self, players: int) -> int:
        return ACTION_SPACE

    def max_game_length(self, players: int, options: Mapping[str, str]) -> int | None:
        """Generous: random games took at most 109, 119 and 131 actions (2, 3, 4 players; 300 seeds each)."""
        return 250 * players

    def _new_state(self, players: int, seed: int, options: dict[str, str]) -> State:
        return IquazuState.new(players, seed, options)

    def _state_from_json(self, data: Mapping[str, JSON]) -> State:
        return IquazuState.from_json(data)


GAME = register(Iquazu())
IquazuState.game = GAME

__all__ = ["GAME", "Iquazu", "IquazuState"]
