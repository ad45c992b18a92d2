"""Haleakala (Klerner & Racky; first published as "Haus der Sonne", Feuerland 2015), 2 players:
shamans, statues and lava on a volcano island."""

from __future__ import annotations

from collections.abc import Mapping

from spieltafel.core import JSON, Game, GameKit, OptionSpec, RulesPage, State, register
from spieltafel.core.kit import N_

from .notation import ACTION_SPACE
from .state import HaleakalaState

COMPILED = ("state", "rules", "board", "components", "heuristics", "view", "notation")
"""The modules on the search's hot path that ``setup.py`` compiles with mypyc (it reads this line)."""


class Haleakala(Game):
    """The game Haleakala: registry entry and state factory."""

    name = "haleakala"
    title = "Haleakala"
    min_players = 2
    max_players = 2
    closing_events = frozenset({"draw", "scoring", "eruption", "game-over"})
    """Takeback: a card laid out from a face-down deck, a scoring, an eruption or the end closes the
    window (and the turn passing, as for every game); placing or taking a disc before the shaman's
    step, a card taken or bought and a lava chip shifted stay open."""
    options = (
        OptionSpec(
            "variant",
            ("basic", "tactical"),
            "basic",
            "basic game (lava cards in the palm decks) or the tactical variant (lava discs summon the lava, "
            "no lava cards, no buying before a scoring)",
            label="Variant",
            choice_labels=("basic game", "tactical variant"),
        ),
        OptionSpec(
            "priestess",
            ("compulsory", "optional"),
            "compulsory",
            "whether a Lava Priestess palm card must move a chip when one lies on a crater ('Aktionskarten, "
            "die sofort ausgeführt werden müssen', the default) or may be passed ('Der Spieler darf ... "
            "versetzen'); the Priestess bought from the scoring board is optional either way ('... wenn man "
            "die Aktion nicht ausführen kann oder will')",
            label="Lava Priestess palm card",
            choice_labels=("must be played", "may be passed"),
        ),
    )

    kit = GameKit(
        locales="locales",
        tutorial="tutorial.json",
        package=__name__,
        rules=RulesPage(picture_players=2, picture_moves=60),
        compiled=COMPILED,
        blurb=N_(
            "Two shamans raise statues on a volcano island; the fishing boat hands out cards, and the "
            "lava destroys what stands in its way."
        ),
    )

    def action_space_size(self, players: int) -> int:
        return ACTION_SPACE

    def max_game_length(self, players: int, options: Mapping[str, str]) -> int | None:
        """Generous: random games took at most 675 actions in 300 seeds (greedy and search bots fewer)."""
        return 5000

    def _new_state(self, players: int, seed: int, options: dict[str, str]) -> State:
        return HaleakalaState.new(players, seed, options)

    def _state_from_json(self, data: Mapping[str, JSON]) -> State:
        return HaleakalaState.from_json(data)


GAME = register(Haleakala())
HaleakalaState.game = GAME

__all__ = ["GAME", "Haleakala", "HaleakalaState"]
