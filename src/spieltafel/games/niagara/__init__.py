"""Niagara (Zoch 2004, Thomas Liesching), 3–5 players: gems, canoes and a river that flows."""

from __future__ import annotations

from collections.abc import Mapping

from spieltafel.core import JSON, Game, GameKit, OptionSpec, RulesPage, State, register
from spieltafel.core.kit import N_

from .notation import ACTION_SPACE
from .state import NiagaraState

COMPILED = ("state", "rules", "river", "components", "heuristics", "view", "notation")
"""The modules on the search's hot path that ``setup.py`` compiles with mypyc (it reads this line)."""


class Niagara(Game):
    """The game Niagara: registry entry and state factory. Paddle cards are chosen simultaneously
    and in secret, so several seats act at once in that phase."""

    name = "niagara"
    title = "Niagara"
    min_players = 3
    max_players = 5
    simultaneous = True
    closing_events = frozenset({"reveal", "flow", "push", "falls", "ring", "cards-back", "game-over"})
    """Takeback: a revealed paddle card, the river's flow (and a canoe over the falls), a new round or
    the end closes the window (and a secret choice, which has a private part); canoe steps, launches,
    loads, unloads, a bank, a rescue and a theft within the turn stay open."""
    options = (
        OptionSpec(
            "second-canoe",
            ("moves", "launch-only"),
            "moves",
            "a canoe launched while the other is on the water moves the card's full value (the rules "
            "published online) or is only put on the first disc (the printed rules)",
            label="Second canoe",
            choice_labels=("moves the card's value", "is only launched"),
        ),
        OptionSpec(
            "ending",
            ("immediate", "finish-round"),
            "immediate",
            "the first player to meet a goal wins at once, or the round is finished and of those who "
            "meet a goal the highest gem value wins (ties share)",
            label="End of the game",
            choice_labels=("at once", "after the round"),
        ),
        OptionSpec(
            "loading",
            ("ends", "anywhere"),
            "ends",
            "gems are loaded or unloaded only before a canoe's first step or after its last (online "
            "implementations), or at any point of its move (the summary does not restrict it)",
            label="Loading gems",
            choice_labels=("before or after the move", "anywhere on the move"),
        ),
        OptionSpec(
            "direction",
            ("per-canoe", "per-turn"),
            "per-canoe",
            "each canoe keeps one direction for its move (the two may differ), or all of a player's "
            "canoes go the same way in a turn",
            label="Direction",
            choice_labels=("per canoe", "per turn"),
        ),
        OptionSpec(
            "gem-only-move",
            ("refused", "allowed"),
            "refused",
            "whether a canoe's whole move may be one gem action (a 2 spent on loading or unloading in place): "
            "refused, as the summary demands that paddle points be used in full and every canoe on the water "
            "be moved ('Steht ein Kanu auf dem Fluss, muss es auch bewegt werden'), or allowed, as many "
            "players read 'mit einberechnen' (loading counts into the card's points)",
            label="A move of a gem action only",
            choice_labels=("a canoe must also paddle", "loading in place is a move"),
        ),
        OptionSpec(
            "round-limit",
            ("200", "100"),
            "200",
            "safety rule (not in the published rules, which can loop forever): the game ends after this "
            "round; the most banked gems win, then the highest gem value, ties share (200 lies far beyond "
            "the longest games between greedy bots; 100 cuts a few of them short)",
            label="Round limit",
        ),
    )

    kit = GameKit(
        locales="locales",
        tutorial="tutorial.json",
        package=__name__,
        gestures="gestures",
        rules=RulesPage(picture_players=3, picture_moves=90),
        compiled=COMPILED,
        blurb=N_("Paddle canoes to the gem caves and back while the river carries everything towards the falls."),
    )

    def action_space_size(self, players: int) -> int:
        return ACTION_SPACE

    def max_game_length(self, players: int, options: Mapping[str, str]) -> int | None:
        """The game ends after round ``round-limit``; a seat takes at most a dozen actions in a round in
        random games (a paddle card, canoe steps, loading, directions), 40 are allowed."""
        return int(options.get("round-limit", "200")) * players * 40

    def _new_state(self, players: int, seed: int, options: dict[str, str]) -> State:
        return NiagaraState.new(players, seed, options)

    def _state_from_json(self, data: Mapping[str, JSON]) -> State:
        return NiagaraState.from_json(data)


GAME = register(Niagara())
NiagaraState.game = GAME

__all__ = ["GAME", "Niagara", "NiagaraState"]
