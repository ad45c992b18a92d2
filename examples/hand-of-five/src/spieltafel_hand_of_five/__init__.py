"""Hand of Five: a small card game with secret hands, registered with Spieltafel from outside.

Spieltafel finds it through this distribution's ``spieltafel.games`` entry point (pyproject.toml), which names
this module: importing it registers the game and its kit. Nothing in Spieltafel names this game.
"""

from __future__ import annotations

from collections.abc import Mapping

from spieltafel.core import JSON, Game, GameKit, OptionSpec, RulesPage, State, register
from spieltafel.core.kit import N_

from .state import HIGHEST, HandOfFiveState


class HandOfFive(Game):
    """The game: 2 to 4 players, the cards 1 to 60, five secret cards each; over when every card is played."""

    name = "hand-of-five"
    title = "Hand of Five"
    min_players = 2
    max_players = 4
    # 60 cards: 30, 20 or 15 turns each
    options = (
        OptionSpec("goal", ("high", "low"), "high", "a card scores when it is higher than the top card, or lower"),
    )
    kit = GameKit(
        package=__name__,
        rules=RulesPage(picture_players=3, picture_moves=20),
        locales="locales",
        goldens="golden",
        blurb=N_("Play a card higher than the pile's top card to score; your hand is secret, and so is the deck."),
    )

    def action_space_size(self, players: int) -> int:
        return HIGHEST

    def _new_state(self, players: int, seed: int, options: dict[str, str]) -> State:
        return HandOfFiveState.new(players, seed, options)

    def _state_from_json(self, data: Mapping[str, JSON]) -> State:
        return HandOfFiveState.from_json(data)


GAME = register(HandOfFive())
HandOfFiveState.game = GAME
