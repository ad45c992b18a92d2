"""Helpers to build Haleakala positions for scenario tests without breaking the game's invariants.

Cards are only ever swapped between places, so the 42 palm cards stay 42; discs, statues and chips
are moved between supply and board.
"""

from __future__ import annotations

from spieltafel.core import Rng, get_game
from spieltafel.games.haleakala import HaleakalaState
from spieltafel.games.haleakala.board import CARD_KIND, parse_bay, parse_field
from spieltafel.games.haleakala.components import KIND_CODES
from spieltafel.games.haleakala.rules import NONE, SUPPLY, TURN

RED, YELLOW = 0, 1


def new(variant: str = "basic", seed: int = 0, priestess: str | None = None) -> HaleakalaState:
    """A new game; ``priestess`` None plays the option's default (``compulsory``)."""
    options = {"variant": variant} if priestess is None else {"variant": variant, "priestess": priestess}
    state = get_game("haleakala").new_state(2, seed, options)
    assert isinstance(state, HaleakalaState)
    return state


def seg(n: int) -> int:
    """0-based segment of the 1-based segment number ``n`` used in the notation."""
    return n - 1


def at(name: str) -> int:
    """The field called ``name`` (e.g. 'g3')."""
    f = parse_field(name)
    assert f is not None
    return f


def kind_of(card: int) -> str:
    return KIND_CODES[CARD_KIND[card]]


def put_card(s: HaleakalaState, bay_name: str, kind: str) -> int:
    """Lay a card of ``kind`` into the bay, swapping it with a card of that kind from a deck, the
    discard pile or a bay of another segment; returns its id."""
    b = parse_bay(bay_name)
    assert b is not None
    if s.bays[b] != NONE and kind_of(s.bays[b]) == kind:
        return s.bays[b]
    for pile in [*s.decks, s.discard]:
        for i, card in enumerate(pile):
            if kind_of(card) == kind:
                if s.bays[b] == NONE:
                    del pile[i]
                else:
                    pile[i] = s.bays[b]
                s.bays[b] = card
                return card
    for other in range(len(s.bays)):
        if other // 2 != b // 2 and s.bays[other] != NONE and kind_of(s.bays[other]) == kind:
            s.bays[b], s.bays[other] = s.bays[other], s.bays[b]
            return s.bays[b]
    raise AssertionError(f"no free {kind} card")


def empty_bay(s: HaleakalaState, bay_name: str) -> None:
    """Move the bay's card to the discard pile."""
    b = parse_bay(bay_name)
    assert b is not None
    if s.bays[b] != NONE:
        s.discard.append(s.bays[b])
        s.bays[b] = NONE


def stack_deck(s: HaleakalaState, palms: int, kinds: list[str]) -> None:
    """Put cards of ``kinds`` from the ``palms``-palm deck on its top, the first of ``kinds`` drawn first."""
    deck = s.decks[palms - 1]
    chosen = []
    for kind in kinds:
        index = next(i for i, c in enumerate(deck) if kind_of(c) == kind)
        chosen.append(deck.pop(index))
    deck.extend(reversed(chosen))


def empty_deck(s: HaleakalaState, palms: int) -> None:
    """Move a whole deck to the discard pile."""
    s.discard.extend(s.decks[palms - 1])
    s.decks[palms - 1].clear()


def disc(s: HaleakalaState, seat: int, value: int, beach: int | None) -> None:
    """Put ``seat``'s disc ``value`` on the beach of 1-based segment ``beach`` (None: supply)."""
    s.discs[seat][value - 1] = SUPPLY if beach is None else seg(beach)


def statue(s: HaleakalaState, seat: int, name: str) -> None:
    s.statues[at(name)] = seat
    s.statue_supply[seat] -= 1


def shaman(s: HaleakalaState, seat: int, name: str) -> None:
    s.shamans[seat] = at(name)


def turn(s: HaleakalaState, seat: int) -> None:
    """Make it ``seat``'s turn."""
    s.current = s.actor = seat
    s.phase = TURN


def bay_card(s: HaleakalaState, bay_name: str) -> int:
    b = parse_bay(bay_name)
    assert b is not None
    return s.bays[b]


def texts(s: HaleakalaState, seat: int) -> list[str]:
    return [s.action_text(seat, a) for a in s.legal_actions(seat)]


def act(s: HaleakalaState, seat: int, text: str) -> list[dict[str, object]]:
    """Apply a notation; return the events' public views."""
    return [e.view() for e in s.apply(seat, text)]


def conserved(s: HaleakalaState) -> None:
    """The physical components are all somewhere, exactly once."""
    cards = [c for d in s.decks for c in d] + [c for c in s.bays if c != NONE] + s.discard + s.box
    cards += [c for p in (0, 1) for c in s.collected[p] + s.shells[p]] + [c for _, c in s.effects]
    assert sorted(cards) == list(range(42))
    assert sum(s.statue_supply) + sum(1 for o in s.statues if o != NONE) == 16
    assert 0 <= sum(s.craters) <= 4
    assert all(len(d) == 6 for d in s.discs)



def random_positions(s: HaleakalaState, rng: Rng) -> list[HaleakalaState]:
    """Every position of a random game from ``s`` (choices drawn from ``rng``), the final one last."""
    positions = [s.clone()]
    while not s.is_over:
        seat = s.seats_to_act()[0]
        s.step(seat, rng.choice(s.legal_actions(seat)))
        positions.append(s.clone())
    return positions
