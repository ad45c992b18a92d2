"""The laws of a Haleakala position (``invariants.check_invariants``, issue 8): every position of a
random game obeys them, and each inconsistent document is refused with a StateFormatError naming
the first thing that is wrong — directly on the state, and through ``state_from_json``."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from haleakala_scenario import kind_of, new, random_positions
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltafel.build import engine_build
from spieltafel.core import Rng, StateFormatError, get_game
from spieltafel.games.haleakala.board import field
from spieltafel.games.haleakala.components import BEACH, CRATER, GRASS, LAVA_DISC
from spieltafel.games.haleakala.invariants import check_invariants
from spieltafel.games.haleakala.rules import (
    BOX,
    CHOOSE,
    NOT_COUNTED,
    OVER,
    PRIESTESS,
    SCORING_BUY,
    SCORING_PARTS,
    SHELL_BUY,
    SUPPLY,
    TURN,
)
from spieltafel.games.haleakala.state import HaleakalaState

GAME = get_game("haleakala")
COMPILED = engine_build() != "pure Python"
NOTHING = (0,) * 5 + (NOT_COUNTED,) * (len(SCORING_PARTS) - 5)
"""A seat's categories at a scoring 1 that gave it nothing and in which it held no scoring card."""
"""Whether this is the mypyc build (setup.py), whose states hold only values of their declared types."""
Mutation = Callable[[HaleakalaState], None]


def replace_part(s: HaleakalaState, row: int, category: int, points: int) -> None:
    """Set one recorded part (the rows are tuples shared between clones: replaced, never changed)."""
    rows = [list(parts) for parts in s.scoring_parts]
    rows[row][category] = points
    s.scoring_parts = tuple(tuple(parts) for parts in rows)


def positions(variant: str, seed: int, priestess: str | None = None) -> list[HaleakalaState]:
    """Every position of a random game, the final one last."""
    return random_positions(new(variant, seed, priestess), Rng(seed ^ 0xBEEF))


def reached(condition: Callable[[HaleakalaState], bool], variant: str = "basic") -> HaleakalaState:
    """The first position of a random game (seed 3) at a turn that meets ``condition``."""
    return next(s for s in positions(variant, 3) if s.phase == TURN and condition(s))


def round_1() -> HaleakalaState:
    """A turn of round 1 (two- and three-palm cards left) with one lava chip, on crater 2, and one
    number disc out: red's 1, on the beach after the boat's."""
    s = reached(lambda s: s.round == 1 and all(s.decks[1:]) and not s.decks[0])
    s.craters = [0, 0, 1, 0, 0, 0]
    for discs in s.discs:
        discs[:LAVA_DISC] = [SUPPLY] * LAVA_DISC
    s.discs[0][0] = (s.boat + 1) % 6
    check_invariants(s)
    return s


def round_2() -> HaleakalaState:
    """A turn of round 2 with three-palm cards left (the one- and two-palm decks are used up)."""
    s = reached(lambda s: s.round == 2 and len(s.decks[2]) > 4)
    check_invariants(s)
    return s


def first(cards: list[int], *kinds: str) -> int:
    return next(c for c in cards if kind_of(c) in kinds)


def lava_into_bay(s: HaleakalaState) -> None:
    """A three-palm lava card laid into bay 0; the bay's card goes to the discard pile."""
    lava = first(s.decks[2], "lava")
    s.decks[2].remove(lava)
    s.discard.append(s.bays[0])
    s.bays[0] = lava


def ninth_statue(s: HaleakalaState) -> None:
    """A statue of red on a free grass field, none taken from red's supply."""
    s.statues[next(field(g, GRASS) for g in range(6) if s.statues[field(g, GRASS)] == -1)] = 0


def shell_buy_without_shells(s: HaleakalaState) -> None:
    s.discard.extend(s.shells[s.actor])
    s.shells[s.actor].clear()
    s.phase = SHELL_BUY


def move(source: list[int], target: list[int], card: int) -> None:
    source.remove(card)
    target.append(card)


# -- every reachable position passes ---------------------------------------------------------------
@settings(max_examples=8, deadline=None)
@given(st.sampled_from(["basic", "tactical"]), st.sampled_from([None, "optional"]), st.integers(0, 2**32))
def test_every_position_of_random_games_passes(variant: str, priestess: str | None, seed: int) -> None:
    """Both variants, both Priestess options: each position obeys the laws and its document loads."""
    for i, s in enumerate(positions(variant, seed, priestess)):
        check_invariants(s)
        if i % 9 == 0 or s.phase == OVER:
            data = json.loads(json.dumps(s.to_json()))
            assert GAME.state_from_json(data).to_json() == data


def test_set_up_and_sampled_states_pass() -> None:
    for variant in ("basic", "tactical"):
        s = new(variant, 5)
        check_invariants(s)
        check_invariants(s.determinise(1, Rng(2)))
        check_invariants(round_1().determinise(0, Rng(3)))


# -- each inconsistency is refused ---------------------------------------------------------------------
MUTATIONS: list[tuple[str, Callable[[], HaleakalaState], Mutation, str]] = [
    # issue 8's findings
    ("boat on space 99", round_1, lambda s: setattr(s, "boat", 99), "boat is 99; allowed: 0–5"),
    ("crater with -3 chips", round_1, lambda s: s.craters.__setitem__(2, -3), r"craters\[2\] is -3; allowed: 0–4"),
    (
        "card moved into another deck",
        round_1,
        lambda s: s.decks[1].append(s.decks[2].pop()),
        r"decks\[1\] holds palm card \d+ \(\w+, 3 palms\); a deck holds only cards of its own back",
    ),
    # conservation of the palm cards
    ("a card lost", round_1, lambda s: s.decks[2].pop(), "is missing: the 42 palm cards"),
    ("a card twice", round_1, lambda s: s.bays.__setitem__(0, s.bays[1]), "lies twice, in bays and in bays"),
    ("a card id 42", round_1, lambda s: s.discard.append(42), r"discard\[\d+\] is 42; allowed: 0–41"),
    (
        "a card in the box of the basic game",
        round_1,
        lambda s: move(s.discard, s.box, s.discard[0]),
        r"box holds \[\d+\]; allowed: nothing \(basic game\)",
    ),
    (
        "a lava card back in the tactical game",
        lambda: new("tactical"),
        lambda s: s.discard.append(s.box.pop()),
        r"box holds .*; allowed: the 8 lava cards",
    ),
    (
        "a lava card in a bay",
        round_2,
        lava_into_bay,
        r"bays holds palm card \d+ \(lava, 3 palms\); allowed: any card but a lava",
    ),
    (
        "a statue card among the collected cards",
        round_2,
        lambda s: move(s.decks[2], s.collected[0], first(s.decks[2], "statue", "priestess", "shell", "lava")),
        r"collected\[0\] holds palm card \d+ \(\w+, 3 palms\); allowed: fish baskets",
    ),
    (
        "a card among the shells that is no shell",
        round_2,
        lambda s: move(s.decks[2], s.shells[1], first(s.decks[2], "statue", "priestess", "lava", "fish1", "fish5")),
        r"shells\[1\] holds palm card \d+ \(\w+, 3 palms\); allowed: shell cards",
    ),
    (
        "a one-palm card back in its deck",
        lambda: new(),
        lambda s: (s.decks[0].append(s.bays[0]), s.bays.__setitem__(0, -1)),
        "decks.0. holds more than 3 cards",
    ),
    (
        "the two-palm deck drawn before the one-palm deck",
        lambda: new(),
        lambda s: move(s.decks[1], s.discard, s.decks[1][0]),
        r"decks\[1\] has been drawn from while decks\[0\] still holds cards",
    ),
    (
        "an empty bay at a turn",
        lambda: new(),
        lambda s: (s.discard.append(s.bays[3]), s.bays.__setitem__(3, -1)),
        "bay 3 is empty at a turn although a deck still holds cards",
    ),
    # discs
    ("a number disc in the box", round_1, lambda s: s.discs[0].__setitem__(2, BOX), "puts a number disc in the box"),
    (
        "a lava disc in play in the basic game",
        round_1,
        lambda s: s.discs[1].__setitem__(LAVA_DISC, SUPPLY),
        r"discs\[1\]\[5\] \(the lava disc\) is -1; allowed: -2 box \(basic game\)",
    ),
    ("a disc on beach 6", round_1, lambda s: s.discs[0].__setitem__(1, 6), r"discs\[0\]\[1\] is 6; allowed: -2–5"),
    ("equal sums on a beach", round_1, lambda s: s.discs[1].__setitem__(0, s.discs[0][0]), "has equal sums 1 : 1"),
    (
        "a disc on the boat's beach at a turn",
        round_1,
        lambda s: s.discs[1].__setitem__(4, s.boat),
        "lie on the boat's beach",
    ),
    ("five discs", round_1, lambda s: s.discs[0].pop(), r"discs\[0\] has 5 entries; allowed: exactly 6"),
    # shamans
    (
        "a shaman on a crater",
        round_1,
        lambda s: s.shamans.__setitem__(0, field(2, CRATER)),
        r"shamans\[0\] stands on c3; allowed: its hut beach b2 or a grass, forest or mountain field",
    ),
    (
        "a shaman on the other's hut beach",
        lambda: new(),
        lambda s: s.shamans.__setitem__(1, field(1, BEACH)),
        r"shamans\[1\] stands on b2; allowed: its hut beach b5",
    ),
    ("a shaman off the island", round_1, lambda s: s.shamans.__setitem__(1, 30), r"shamans\[1\] is 30; allowed: 0–29"),
    ("both shamans on one field", round_1, lambda s: s.shamans.__setitem__(1, s.shamans[0]), "both shamans stand on"),
    # statues and chips
    ("a ninth statue", round_1, ninth_statue, "seat 0 has .* the two must add up to 8"),
    (
        "a statue on a beach",
        round_1,
        lambda s: (s.statues.__setitem__(field(0, BEACH), 1), s.statue_supply.__setitem__(1, s.statue_supply[1] - 1)),
        "a statue stands on b1; allowed: grass, forest and mountain",
    ),
    (
        "a fifth lava chip",
        round_1,
        lambda s: s.craters.__setitem__(0, 4),
        "the craters hold 5 lava chips; the game has 4",
    ),
    # seats, phases, types
    ("three players", round_1, lambda s: setattr(s, "players", 3), "Haleakala is played by exactly 2"),
    ("unknown phase 7", round_1, lambda s: setattr(s, "phase", 7), "phase is 7; allowed: 0–6 .0 turn, 1 shaman"),
    ("negative phase", round_1, lambda s: setattr(s, "phase", -1), "phase is -1"),
    ("actor seat 2", round_1, lambda s: setattr(s, "actor", 2), "actor is 2; allowed: 0–1"),
    ("current seat -1", round_1, lambda s: setattr(s, "current", -1), "current is -1"),
    ("statue of seat 2", round_1, lambda s: s.statues.__setitem__(field(3, GRASS), 2), r"statues\[16\] is 2"),
    ("scoring card held by seat 5", round_1, lambda s: s.scoring_owner.__setitem__(0, 5), r"scoring_owner\[0\] is 5"),
    ("pending card of seat 3", round_1, lambda s: s.effects.append([3, s.discard.pop()]), r"effects\[0\]\[0\] is 3"),
    ("second seat 4", round_1, lambda s: setattr(s, "second", 4), "second is 4"),
    ("buyer seat 2", round_1, lambda s: s.buyers.append(2), r"buyers\[0\] is 2"),
    ("boat as text", round_1, lambda s: setattr(s, "boat", "1"), "boat must be a whole number 0–5 .*, not '1'"),
    ("phase as a float", round_1, lambda s: setattr(s, "phase", 1.0), "phase must be a whole number"),
    (
        "round as a boolean",
        round_1,
        lambda s: setattr(s, "round", True),
        "round must be a whole number 1–2 .*, not True",
    ),
    ("bays as text", round_1, lambda s: setattr(s, "bays", "x" * 1000), r"bays must be a list, not 'x+\.\.\.$"),
    (
        "priestess_up as a number",
        round_1,
        lambda s: setattr(s, "priestess_up", 1),
        "priestess_up must be true or false",
    ),
    # scores and the flow
    (
        "a point from nowhere",
        round_2,
        lambda s: s.points.__setitem__(0, s.points[0] + 1),
        r"points\[0\] is \d+ but its scorings add up to",
    ),
    (
        "a scoring forgotten",
        round_2,
        lambda s: s.round_points.clear(),
        "round_points has 0 entries; round 2 has had 1 scoring",
    ),
    (
        "round 2 with two-palm cards left",
        round_1,
        lambda s: (
            setattr(s, "round", 2),
            s.round_points.append([0, 0]),
            setattr(s, "scoring_parts", (NOTHING, NOTHING)),
        ),
        "round is 2 with .* two-palm cards left",
    ),
    (
        "a scoring's categories not adding up to its points",
        round_2,
        lambda s: replace_part(s, 0, 0, s.scoring_parts[0][0] + 3),
        r"scoring_parts\[0\] adds up to \d+, not to round_points\[0\]\[0\]",
    ),
    (
        "a scoring's categories missing",
        round_2,
        lambda s: setattr(s, "scoring_parts", ()),
        r"scoring_parts has 0 rows; 1 scoring\(s\) held need 2",
    ),
    (
        "a card effect pending at a turn",
        round_1,
        lambda s: s.effects.append([0, s.discard.pop()]),
        "phase turn with cards",
    ),
    (
        "a choice without a landing",
        round_1,
        lambda s: setattr(s, "phase", CHOOSE),
        "phase choose needs two different cards",
    ),
    (
        "a Priestess decision without chips",
        round_1,
        lambda s: (setattr(s, "craters", [0] * 6), setattr(s, "phase", PRIESTESS)),
        "phase priestess with no lava chip",
    ),
    (
        "a shell purchase without shells",
        round_1,
        shell_buy_without_shells,
        r"phase shell-buy but seat \d holds no shell",
    ),
    (
        "a scoring purchase without a scoring",
        round_1,
        lambda s: setattr(s, "phase", SCORING_BUY),
        "phase scoring-buy needs a pending scoring",
    ),
    (
        "scoring 2 with three-palm cards left",
        round_2,
        lambda s: setattr(s, "scoring", 2),
        "scoring 2 is pending while three-palm cards remain",
    ),
]


@pytest.mark.parametrize(("case", "position", "mutate", "message"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_inconsistent_state_is_refused(
    case: str, position: Callable[[], HaleakalaState], mutate: Mutation, message: str
) -> None:
    """The mutation is refused by the laws, with a message naming it, and its document does not load."""
    s = position()
    data = json.loads(json.dumps(s.to_json()))
    assert GAME.state_from_json(data).to_json() == data  # unmutated: accepted
    document = SimpleNamespace(**json.loads(json.dumps(data)))
    mutate(document)  # type: ignore[arg-type]
    with pytest.raises(StateFormatError):  # the same change made to the document
        GAME.state_from_json(vars(document))
    try:
        mutate(s)
    except TypeError:  # the compiled build's state refuses a value of the wrong type itself
        return
    if COMPILED and json.dumps(s.to_json()) != json.dumps(vars(document)):
        return  # the compiled build's state took the value as its declared type (True as 1): nothing wrong is held
    with pytest.raises(StateFormatError, match=message):
        check_invariants(s)
    with pytest.raises(StateFormatError):
        GAME.state_from_json(json.loads(json.dumps(s.to_json())))


def test_the_first_wrong_thing_is_named() -> None:
    """With a crater at -3 and the boat on 99, the boat is named: the discs and the boat come before the
    lava chips in the document's order."""
    s = round_1()
    s.craters[2] = -3
    s.boat = 99
    with pytest.raises(StateFormatError, match=r"^boat is 99"):
        check_invariants(s)


def test_random_games_reach_every_decision_phase() -> None:
    """So that the random games above also check positions in the middle of a landing (a choice, a
    Priestess decision, a purchase) and at the end."""
    phases = {s.phase for v in ("basic", "tactical") for seed in range(4) for s in positions(v, seed)}
    assert {TURN, CHOOSE, PRIESTESS, SHELL_BUY, SCORING_BUY, OVER} <= phases
