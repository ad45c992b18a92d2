"""The boardgame.io anchor's workload game "hidden-hand" (../shared/anchors/bgio/game.js) as a Spieltafel
game, registered only by this module, so that bench/server_load.py can play the same workload on our server.

3 seats; deck 1..60 shuffled from the table's seed; 5 secret cards each, the rest secret; round robin,
one move a turn: ``play i`` puts hand[i] on the public pile (+1 point if higher than the top card, empty
pile = 0) and draws the next card of the deck; over after 40 moves; winners: the highest score. A seat's
view: its own hand, every seat's hand count, the deck count, the pile, the scores, the moves played.

    python bench/hidden_hand.py serve ...     # spieltafel serve with the game registered
    python bench/hidden_hand.py worker ...    # spieltafel worker with the game registered
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from spieltafel.core import Event, Game, IllegalActionError, NotationError, Rng, State, register

HAND, DECK, MOVES, SEATS = 5, 60, 40, 3


class HiddenHandState(State):
    game: ClassVar[Game]

    def __init__(self, seed: int, hands: list[list[int]], deck: list[int], pile: list[int], scores: list[int],
                 played: int) -> None:
        self.players, self.seed, self.options = SEATS, seed, {}
        self.hands, self.deck, self.pile, self.score_list, self.played = hands, deck, pile, scores, played

    def seats_to_act(self) -> tuple[int, ...]:
        return () if self.played >= MOVES else (self.played % SEATS,)

    def legal_actions(self, seat: int) -> list[int]:
        return list(range(len(self.hands[seat]))) if seat in self.seats_to_act() else []

    def action_text(self, seat: int, action: int) -> str:
        return f"play {action}"

    def parse_action(self, seat: int, text: str) -> int:
        word, _, number = text.partition(" ")
        if word != "play" or not number.isdigit():
            raise NotationError(text, "play <index 0-4>")
        return int(number)

    def explain_illegal(self, seat: int, action: int) -> IllegalActionError:
        return IllegalActionError(f"play {action}", "the index is not a card in the hand", "play 0 to play 4")

    def _apply(self, seat: int, action: int, events: list[Event] | None) -> None:
        card = self.hands[seat].pop(action)
        if card > (self.pile[-1] if self.pile else 0):
            self.score_list[seat] += 1
        self.pile.append(card)
        if self.deck:
            self.hands[seat].append(self.deck.pop(0))
        self.played += 1
        if events is not None:
            events.append(Event("play", {"seat": seat, "card": card}))

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {
            "hand": list(self.hands[seat]) if seat is not None else [],
            "hand_counts": [len(hand) for hand in self.hands], "deck_count": len(self.deck),
            "pile": list(self.pile), "scores": list(self.score_list), "moves_played": self.played,
        }

    def render(self, seat: int | None = None) -> Any:
        return str(self.view(seat))

    def clone(self) -> Self:
        return type(self)(self.seed, [list(h) for h in self.hands], list(self.deck), list(self.pile),
                          list(self.score_list), self.played)

    def determinise(self, seat: int, rng: Rng) -> Self:
        return self.clone()

    def scores(self) -> list[int]:
        return list(self.score_list)

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        best = max(self.score_list)
        return [seat for seat, score in enumerate(self.score_list) if score == best]

    def to_json(self) -> dict[str, Any]:
        return {"game": "hidden-hand", "seed": self.seed, "hands": self.hands, "deck": self.deck, "pile": self.pile,
                "scores": self.score_list, "played": self.played}


class HiddenHand(Game):
    name = "hidden-hand"
    title = "Hidden Hand (boardgame.io anchor workload)"
    min_players = max_players = SEATS

    def action_space_size(self, players: int) -> int:
        return HAND

    def _new_state(self, players: int, seed: int, options: dict[str, str]) -> State:
        deck = list(range(1, DECK + 1))
        Rng(seed).shuffle(deck)
        hands = [deck[HAND * seat:HAND * (seat + 1)] for seat in range(SEATS)]
        return HiddenHandState(seed, hands, deck[HAND * SEATS:], [], [0] * SEATS, 0)

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        return HiddenHandState(data["seed"], data["hands"], data["deck"], data["pile"], data["scores"], data["played"])


HiddenHandState.game = register(HiddenHand())


if __name__ == "__main__":
    from spieltafel.cli import main

    main()
