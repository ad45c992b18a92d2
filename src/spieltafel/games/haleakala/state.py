"""The Haleakala state: what lies on the table, and the engine contract wired to the rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, final

from spieltafel.core import JSON, Event, Game, IllegalActionError, OptionError, Rng, State, sample_seed

from . import notation, rules, schema, text, view
from .board import BAYS, CARD_DECK, CARD_KIND, FIELDS, field
from .components import BEACH, HUTS, JETTY, LAVA_CARD, LAVA_DISC, SCORING_CARDS, SEGMENTS, STATUES
from .invariants import check_invariants
from .rules import BOX, NONE, OVER, SUPPLY, TURN


@final
class HaleakalaState(State):
    """One position of Haleakala (always 2 players; seat 0 is the start player).

    Cards are ids 0–41 (see ``board.CARD_KIND``). ``decks[d]`` is the face-down d+1-palm deck, top
    last; ``bays[b]`` the card in bay ``b`` or NONE. ``discs[seat][i]`` is where disc value i+1 lies
    (i = 5: the lava disc): SUPPLY, BOX or a beach's segment. ``statues[f]`` is the owner of the statue
    on field ``f`` or NONE; ``craters[g]`` the lava chips on segment g's crater. ``scoring_owner[k]``
    is the seat holding scoring card k or NONE (on the board).

    The flow fields say what is still to happen after the current decision: ``effects`` (received
    cards whose effect has not run, [seat, card]), ``scoring`` (0, or the number of a pending
    scoring), ``buyers`` (seats that may still buy before it), ``landing`` (segment whose bays must
    still be refilled, NONE), ``second`` (the seat taking the other card after a choice, NONE) and
    ``may_pass`` (whether the pending Priestess move may be declined; option ``priestess``).

    ``round_points`` holds each scoring's points per seat, ``scoring_parts`` the same points by
    category as the rules awarded them: one row per scoring held and seat (row ``2 * (scoring - 1) +
    seat``), the points of each of ``rules.SCORING_PARTS`` (``rules.NOT_COUNTED`` where a category is no
    part of that scoring); a row adds up to its entry of ``round_points``.

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
        self.tactical = options["variant"] == "tactical"
        self.compulsory_priestess = options["priestess"] == "compulsory"

    @staticmethod
    def new(players: int, seed: int, options: dict[str, str]) -> HaleakalaState:
        """"Spielaufbau": shamans on the hut beaches, boat at the jetty, 12 one-palm cards face up in
        the bays, the rest and the shuffled two- and three-palm decks on the scoring board."""
        state = HaleakalaState(players, seed, options)
        state.set_up()
        return state

    def set_up(self) -> None:
        """Lay out the decks, the bays, the discs and the shamans ("Spielaufbau"), all chance from the seed."""
        self.rng = Rng(self.seed)
        self.decks: list[list[int]] = [[], [], []]
        self.box: list[int] = []
        for card, palms in enumerate(CARD_DECK):
            if self.tactical and CARD_KIND[card] == LAVA_CARD:
                self.box.append(card)  # "Die 8 Lava-Karten werden ... in die Schachtel gelegt"
            else:
                self.decks[palms].append(card)
        for deck in self.decks:
            self.rng.shuffle(deck)
        self.bays = [self.decks[0].pop() for _ in range(BAYS)]
        self.discard: list[int] = []
        self.collected: list[list[int]] = [[], []]
        self.shells: list[list[int]] = [[], []]
        lava_disc = SUPPLY if self.tactical else BOX
        self.discs = [[SUPPLY] * LAVA_DISC + [lava_disc] for _ in range(2)]
        self.shamans = [field(HUTS[0], BEACH), field(HUTS[1], BEACH)]
        self.statues = [NONE] * FIELDS
        self.statue_supply = [STATUES, STATUES]
        self.boat = JETTY
        self.craters = [0] * SEGMENTS
        self.scoring_owner = [NONE] * len(SCORING_CARDS)
        self.priestess_up = True
        self.points = [0, 0]
        self.round_points: list[list[int]] = []
        self.scoring_parts: tuple[tuple[int, ...], ...] = ()
        self.round = 1
        self.current = 0
        self.actor = 0
        self.phase = TURN
        self.effects: list[list[int]] = []
        self.scoring = 0
        self.buyers: list[int] = []
        self.landing = NONE
        self.second = NONE
        self.may_pass = True

    # -- engine contract --------------------------------------------------------------------------
    def seats_to_act(self) -> tuple[int, ...]:
        return () if self.phase == OVER else (self.actor,)

    def legal_actions(self, seat: int) -> list[int]:
        return rules.legal_actions(self, seat)

    def action_text(self, seat: int, action: int) -> str:
        return notation.action_text(action, self.shamans[seat], self.bays, CARD_KIND)

    def parse_action(self, seat: int, text: str) -> int:
        return notation.parse_action(text, self.shamans[seat], self.bays, CARD_KIND)

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

    def determinise(self, seat: int, rng: Rng) -> HaleakalaState:
        twin = self.clone()
        view.resample_hidden(twin, rng)
        twin.seed = sample_seed(rng)  # the true seed would rebuild the deck order
        return twin

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        return rules.winners(self)

    # -- copies ---------------------------------------------------------------------------------
    def clone(self) -> HaleakalaState:
        twin = HaleakalaState(self.players, self.seed, self.options)
        twin.boat = self.boat
        twin.priestess_up = self.priestess_up
        twin.round = self.round
        twin.current = self.current
        twin.actor = self.actor
        twin.phase = self.phase
        twin.scoring = self.scoring
        twin.landing = self.landing
        twin.second = self.second
        twin.may_pass = self.may_pass
        twin.rng = Rng(self.rng.state)
        # what _copy does to each of _LISTS, written out: the nested ones first, then the flat ones
        twin.decks = [deck[:] for deck in self.decks]
        twin.collected = [cards[:] for cards in self.collected]
        twin.shells = [cards[:] for cards in self.shells]
        twin.discs = [discs[:] for discs in self.discs]
        twin.round_points = [points[:] for points in self.round_points]
        twin.scoring_parts = self.scoring_parts  # immutable: a scoring replaces it with a longer tuple
        twin.effects = [effect[:] for effect in self.effects]
        twin.box = self.box[:]
        twin.bays = self.bays[:]
        twin.discard = self.discard[:]
        twin.shamans = self.shamans[:]
        twin.statues = self.statues[:]
        twin.statue_supply = self.statue_supply[:]
        twin.craters = self.craters[:]
        twin.scoring_owner = self.scoring_owner[:]
        twin.points = self.points[:]
        twin.buyers = self.buyers[:]
        return twin

    _LISTS: ClassVar[tuple[str, ...]] = (
        "decks", "box", "bays", "discard", "collected", "shells", "discs", "shamans", "statues",
        "statue_supply", "craters", "scoring_owner", "points", "round_points", "effects",
        "buyers",
    )
    _FIELDS: ClassVar[tuple[str, ...]] = (
        *_LISTS, "boat", "priestess_up", "round", "current", "actor", "phase", "scoring", "landing", "second",
        "may_pass",
    )
    """The fields saved as they are; ``scoring_parts`` (tuples, shared between clones) is saved as lists."""

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "game": self.game.name,
            "format": schema.FORMAT,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self.rng.state,
        }
        for name in self._FIELDS:
            data[name] = _copy(getattr(self, name))
        data["scoring_parts"] = [list(parts) for parts in self.scoring_parts]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> HaleakalaState:
        saved = (*cls._FIELDS, "scoring_parts")
        document = schema.check_document(cls.game, data, saved)  # shape, types, ranges, options
        try:  # options missing from older documents take their defaults
            options = cls.game.resolve_options({str(k): str(v) for k, v in data["options"].items()})
        except OptionError as error:
            raise ValueError(str(error)) from error
        state = HaleakalaState(int(data["players"]), int(data["seed"]), options)
        state.rng = Rng(int(data["rng"]))
        for name in cls._FIELDS:
            setattr(state, name, _copy(data[name]) if name != "may_pass" else bool(data.get(name, True)))
        state.scoring_parts = tuple(tuple(parts) for parts in document.scoring_parts)  # checked: whole numbers
        _check_shape(state)
        check_invariants(state)  # the game's laws: conservation, places, ranges, the flow (issue 8)
        return state


def _copy(value: JSON) -> JSON:
    """A copy of a JSON value nested at most two lists deep (all the state holds)."""
    if isinstance(value, list):
        return [v[:] if isinstance(v, list) else v for v in value]
    return value


def _check_shape(state: HaleakalaState) -> None:
    """Refuse a document whose parts have the wrong sizes or whose cards do not add up to the 42."""
    if state.players != 2:
        raise ValueError("Haleakala is played by 2 players")
    if len(state.bays) != BAYS or len(state.statues) != FIELDS or len(state.craters) != SEGMENTS:
        raise ValueError("board size does not match Haleakala's")
    cards = [c for deck in state.decks for c in deck] + [c for c in state.bays if c != NONE]
    cards += state.discard + state.box + [c for p in (0, 1) for c in state.collected[p] + state.shells[p]]
    cards += [card for _, card in state.effects]
    if sorted(cards) != list(range(len(CARD_KIND))):
        raise ValueError("the palm cards do not add up to the 42 of the game")
    if not 0 <= state.phase <= OVER or state.actor not in (0, 1) or state.current not in (0, 1):
        raise ValueError("phase or seat out of range")
    if len(state.discs) != 2 or any(len(d) != LAVA_DISC + 1 for d in state.discs):
        raise ValueError("each player has 5 number discs and a lava disc")
