"""The rules of Hand of Five: set-up, turns, playing a card, scoring, the end (README.md, "The rules").

Chance: the deal comes from the seed; each card drawn later is drawn at random from the rest of the deck by
the state's own generator (``rng``), so a sample for a bot (:meth:`HandOfFiveState.determinise`) gets a
generator and a seed of its own and cannot deal or draw the true cards again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from spieltafel.core import JSON, Event, Game, IllegalActionError, NotationError, Rng, State, StateFormatError

HIGHEST = 60
"""The deck holds the cards 1 to ``HIGHEST``; card c is action c - 1."""
HAND = 5


class HandOfFiveState(State):
    """One position: every hand (sorted, secret), the deck (secret, in drawing order), the open pile, the
    points, and how many cards were played."""

    game: ClassVar[Game]

    def __init__(self, players: int, seed: int, options: dict[str, str], hands: list[list[int]], deck: list[int],
                 pile: list[int], points: list[int], played: int, rng: Rng) -> None:
        self.players, self.seed, self.options = players, seed, options
        self.hands, self.deck, self.pile, self.points, self.played = hands, deck, pile, points, played
        self.rng = rng

    @classmethod
    def new(cls, players: int, seed: int, options: dict[str, str]) -> HandOfFiveState:
        """Set-up: shuffle the cards 1 to 60 and deal five to each player; the rest is the deck."""
        rng = Rng(seed)
        cards = list(range(1, HIGHEST + 1))
        rng.shuffle(cards)
        hands = [sorted(cards[HAND * seat:HAND * (seat + 1)]) for seat in range(players)]
        return cls(players, seed, options, hands, sorted(cards[HAND * players:]), [], [0] * players, 0, rng)

    @property
    def goal(self) -> str:
        """``high``: a card higher than the top card scores; ``low``: a lower one (the option ``goal``)."""
        return self.options["goal"]

    def scores_over(self, card: int) -> bool:
        """Whether ``card`` played now scores: it beats the top card (any card beats the empty pile)."""
        if not self.pile:
            return True
        return card > self.pile[-1] if self.goal == "high" else card < self.pile[-1]

    # -- whose turn, what is allowed ----------------------------------------------------------------
    def seats_to_act(self) -> tuple[int, ...]:
        return () if self.played >= HIGHEST else (self.played % self.players,)

    def legal_actions(self, seat: int) -> list[int]:
        return [card - 1 for card in self.hands[seat]] if seat in self.seats_to_act() else []

    def action_text(self, seat: int, action: int) -> str:
        if not 0 <= action < HIGHEST:
            raise ValueError(f"{action} is outside Hand of Five's action space (0..{HIGHEST - 1})")
        return f"play {action + 1}"

    def parse_action(self, seat: int, text: str) -> int:
        word, _, number = text.strip().partition(" ")
        if word != "play" or not (number.isascii() and number.isdigit()) or not 1 <= int(number) <= HIGHEST:
            raise NotationError(text, f"'play <card>' with a card from 1 to {HIGHEST}")
        return int(number) - 1

    def check_index_error(self, seat: int, action: int) -> IllegalActionError:
        """The engine's own refusal of an index outside the action space (it names the space)."""
        try:
            self.check_index(seat, action)
        except IllegalActionError as refused:
            return refused
        raise AssertionError(f"{action} is inside the action space")

    def explain_illegal(self, seat: int, action: int) -> IllegalActionError:
        allowed = ", ".join(f"play {card}" for card in self.hands[seat]) if seat in self.seats_to_act() else "none"
        if not 0 <= action < HIGHEST:
            return self.check_index_error(seat, action)
        return IllegalActionError(self.action_text(seat, action), "you play a card of your own hand", allowed)

    # -- change -------------------------------------------------------------------------------------
    def _apply(self, seat: int, action: int, events: list[Event] | None) -> None:
        card = action + 1
        self.hands[seat].remove(card)
        higher = self.scores_over(card)
        self.pile.append(card)
        self.played += 1
        if higher:
            self.points[seat] += 1
        if events is not None:
            events.append(Event("play", {"seat": seat, "card": card}))
            if higher:
                events.append(Event("score", {"seat": seat, "points": self.points[seat]}))
        self._draw(seat, events)
        if events is not None and self.is_over:
            events.append(Event("game-over", {"points": list(self.points), "winners": self.winners()}))

    def _draw(self, seat: int, events: list[Event] | None) -> None:
        """The player draws a card of the deck at random (secret: only they learn which)."""
        if not self.deck:
            return
        card = self.deck.pop(self.rng.below(len(self.deck)))
        self.hands[seat].append(card)
        self.hands[seat].sort()
        if events is not None:
            events.append(Event("draw", {"seat": seat}, {seat: {"card": card}}))
            if not self.deck:
                events.append(Event("deck-empty", {}))

    # -- information --------------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, JSON]:
        return {
            "viewer": seat,
            "hand": list(self.hands[seat]) if seat is not None else None,
            "hand_counts": [len(hand) for hand in self.hands],
            "deck_count": len(self.deck),
            "pile": list(self.pile),
            "points": list(self.points),
            "played": self.played,
            "to_act": list(self.seats_to_act()),
        }

    def render(self, seat: int | None = None) -> Any:
        view = self.view(seat)
        top = self.pile[-1] if self.pile else "-"
        hand = f"  your hand: {view['hand']}" if seat is not None else ""
        return f"pile top {top}  points {self.points}  deck {len(self.deck)}{hand}"

    # -- search -------------------------------------------------------------------------------------
    def clone(self) -> Self:
        return type(self)(self.players, self.seed, dict(self.options), [list(h) for h in self.hands], list(self.deck),
                          list(self.pile), list(self.points), self.played, Rng(self.rng.state))

    def determinise(self, seat: int, rng: Rng) -> Self:
        """The other hands and the deck dealt anew from the cards ``seat`` has not seen (in a fixed order
        first, so that the result depends on ``seat``'s view alone), with a seed and a chance generator of
        the sample's own (neither can deal or draw the true cards again)."""
        twin = self.clone()
        unseen = sorted([card for other, hand in enumerate(self.hands) if other != seat for card in hand] + self.deck)
        rng.shuffle(unseen)
        for other, hand in enumerate(twin.hands):
            if other != seat:
                twin.hands[other] = sorted(unseen[:len(hand)])
                del unseen[:len(hand)]
        twin.deck = sorted(unseen)
        twin.seed, twin.rng = rng.next64(), Rng(rng.next64())
        return twin

    # -- outcome ------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        best = max(self.points)
        return [seat for seat, points in enumerate(self.points) if points == best]

    def to_json(self) -> dict[str, JSON]:
        return {"game": "hand-of-five", "players": self.players, "seed": self.seed, "options": dict(self.options),
                "hands": [list(h) for h in self.hands], "deck": list(self.deck), "pile": list(self.pile),
                "points": list(self.points), "played": self.played, "rng": self.rng.state}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> HandOfFiveState:
        """A state from :meth:`to_json`, checked: every card 1 to 60 exactly once, counts that fit."""
        players, seed, played, rng = data["players"], data["seed"], data["played"], data["rng"]
        options, hands, deck, pile, points = data["options"], data["hands"], data["deck"], data["pile"], data["points"]
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (players, seed, played, rng)):
            raise StateFormatError("players, seed, played and rng must be whole numbers")
        if not (2 <= players <= 4 and 0 <= played <= HIGHEST and 0 <= seed < 2**64 and 0 <= rng < 2**64):
            raise StateFormatError("players, seed, played or rng is out of range")
        if not (isinstance(hands, list) and len(hands) == players and isinstance(points, list)
                and len(points) == players and all(isinstance(p, int) for p in points)):
            raise StateFormatError("hands or points do not match the players")
        cards = [c for hand in hands for c in hand] + list(deck) + list(pile)
        if sorted(cards) != list(range(1, HIGHEST + 1)) or not all(isinstance(c, int) for c in cards):
            raise StateFormatError(f"the cards are not 1 to {HIGHEST} once each")
        resolved = cls.game.resolve_options(options)
        return cls(players, seed, resolved, [sorted(h) for h in hands], sorted(deck), list(pile), list(points), played,
                   Rng(rng))
