"""The laws every Haleakala position obeys, checked on a loaded state document (issue 8).

A state document from a stranger must describe a position the game can be in: every field of the
right type and range, every component exactly once (42 palm cards, 2 × 6 discs, 2 × 8 statues,
4 lava chips, 5 scoring cards, the board's Lava Priestess), the palm decks drawn in the rules'
order, and flow fields that fit the phase. :func:`check_invariants` raises ``StateFormatError``
naming the first thing that is wrong and what is allowed. Field names and indices in the messages
are those of the document (0-based: segment 0 is the notation's segment 1).

Checked in the order the document lists its parts: seats and phase, the palm cards, the discs,
the shamans, the statues, the lava chips, the scoring board, the scores, the pending flow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from spieltafel.core import StateFormatError

from .board import BAYS, CARD_DECK, CARD_KIND, CARDS, FIELDS, bay, field, field_name, ring_of
from .components import (
    BEACH,
    DECKS,
    HUTS,
    KIND_CODES,
    LAVA_CARD,
    LAVA_CHIPS,
    LAVA_DISC,
    PRIESTESS_CARD,
    SCORING_CARDS,
    SEGMENTS,
    SHELL_CARD,
    STATUE_CARD,
    STATUE_POINTS,
    STATUES,
)
from .rules import (
    BOX,
    CHOOSE,
    NONE,
    NOT_COUNTED,
    OVER,
    PHASE_NAMES,
    PRIESTESS,
    SCORING_BUY,
    SCORING_PARTS,
    SHAMAN,
    SHELL_BUY,
    TERRAINS,
    TURN,
    beach_sums,
    counted_sum,
)

if TYPE_CHECKING:
    from .state import HaleakalaState

SEATS: Final = (0, 1)
ACTION_CARDS: Final = frozenset({STATUE_CARD, PRIESTESS_CARD, SHELL_CARD})
"""Kinds that are carried out or kept in hand, not laid out in front of the player."""
BEACH_CARDS: Final = frozenset(range(len(KIND_CODES))) - ACTION_CARDS - {LAVA_CARD}
"""Fish baskets, pearls and the nautilus: "Diese Karten sammeln die Spieler vor sich"."""
FIRST_LAYOUT: Final = BAYS
"""Set-up lays 12 one-palm cards into the bays: "12 Karten werden zufällig in die 12 Einbuchtungen gelegt"."""
EFFECTS_AT_ONCE: Final = 2
"""At most two cards are taken at one landing, so at most two effects wait."""
BOXED: Final = {False: [], True: sorted(card for card in range(CARDS) if CARD_KIND[card] == LAVA_CARD)}
"""The cards in the box: none in the basic game, the 8 lava cards in the tactical variant."""
MAX_POINTS: Final = 999
"""Far above any score the two scorings can give; a bound against absurd numbers."""


def check_invariants(state: HaleakalaState) -> None:
    """Raise ``StateFormatError`` naming the first law of the game that ``state`` breaks."""
    for check in CHECKS:
        check(state)


# -- values and lists -----------------------------------------------------------------------------
def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def whole(value: object, where: str, low: int, high: int, meaning: str = "") -> int:
    """``value`` as a whole number in ``low``..``high`` (booleans are not numbers here)."""
    allowed = f"{low}–{high}" + (f" ({meaning})" if meaning else "")
    if type(value) is not int:
        raise StateFormatError(f"{where} must be a whole number {allowed}, not {_shown(value)}")
    if not low <= value <= high:
        raise StateFormatError(f"{where} is {value}; allowed: {allowed}")
    return value


def listed(value: object, where: str, length: int | None = None) -> list[object]:
    """``value`` as a list, of exactly ``length`` items when given."""
    if not isinstance(value, list):
        raise StateFormatError(f"{where} must be a list, not {_shown(value)}")
    if length is not None and len(value) != length:
        raise StateFormatError(f"{where} has {len(value)} entries; allowed: exactly {length}")
    return value


def wholes(value: object, where: str, length: int | None, low: int, high: int, meaning: str = "") -> list[int]:
    """A list of whole numbers in ``low``..``high``."""
    items = listed(value, where, length)
    return [whole(item, f"{where}[{i}]", low, high, meaning) for i, item in enumerate(items)]


def truth(value: object, where: str) -> bool:
    if type(value) is not bool:
        raise StateFormatError(f"{where} must be true or false, not {_shown(value)}")
    return value


def card_name(card: int) -> str:
    palms = CARD_DECK[card] + 1
    return f"palm card {card} ({KIND_CODES[CARD_KIND[card]]}, {palms} palm{'s' if palms > 1 else ''})"


# -- seats and phase ------------------------------------------------------------------------------
def check_seats_and_phase(s: HaleakalaState) -> None:
    """Two players; seat 0 or 1 to act; one of the seven phases; round 1 or 2 ("zwei Spielrunden")."""
    if s.players != 2:
        raise StateFormatError(f"players is {_shown(s.players)}; Haleakala is played by exactly 2")
    whole(s.current, "current", 0, 1, "the seat whose turn it is")
    whole(s.actor, "actor", 0, 1, "the seat that decides now")
    whole(s.phase, "phase", 0, OVER, ", ".join(f"{i} {name}" for i, name in enumerate(PHASE_NAMES)))
    whole(s.round, "round", 1, 2, "the game has two rounds")


# -- palm cards -----------------------------------------------------------------------------------
def card_places(s: HaleakalaState) -> dict[str, list[int]]:
    """Every place a palm card can lie, by its name in the document."""
    places: dict[str, list[int]] = {}
    decks = listed(s.decks, "decks", 3)
    for d, deck in enumerate(decks):
        places[f"decks[{d}]"] = wholes(deck, f"decks[{d}]", None, 0, CARDS - 1, "a palm card")
    places["bays"] = [c for c in wholes(s.bays, "bays", BAYS, NONE, CARDS - 1, "-1 empty or a palm card") if c != NONE]
    places["discard"] = wholes(s.discard, "discard", None, 0, CARDS - 1, "a palm card")
    places["box"] = wholes(s.box, "box", None, 0, CARDS - 1, "a palm card")
    for name in ("collected", "shells"):
        for p, cards in enumerate(listed(getattr(s, name), name, 2)):
            places[f"{name}[{p}]"] = wholes(cards, f"{name}[{p}]", None, 0, CARDS - 1, "a palm card")
    places["effects"] = [card for _, card in pending_effects(s)]
    return places


def pending_effects(s: HaleakalaState) -> list[tuple[int, int]]:
    """The received cards whose effect has not run yet, as (seat, card)."""
    effects = listed(s.effects, "effects")
    if len(effects) > EFFECTS_AT_ONCE:
        raise StateFormatError(f"effects has {len(effects)} entries; at most 2 cards are taken at one landing")
    pairs: list[tuple[int, int]] = []
    for i, entry in enumerate(effects):
        seat, card = wholes(entry, f"effects[{i}]", 2, 0, CARDS - 1, "[seat, palm card]")
        pairs.append((whole(seat, f"effects[{i}][0]", 0, 1, "a seat"), card))
    return pairs


def check_palm_cards(s: HaleakalaState) -> None:
    """ "15 1-Palme-Karten, 12 2-Palmen-Karten, 15 3-Palmen-Karten": each of the 42 lies in exactly one
    place, and each place holds only the cards that can get there."""
    places = card_places(s)
    seen: dict[int, str] = {}
    for place, cards in places.items():
        for card in cards:
            if card in seen:
                raise StateFormatError(f"{card_name(card)} lies twice, in {seen[card]} and in {place}")
            seen[card] = place
    missing = sorted(set(range(CARDS)) - set(seen))
    if missing:
        raise StateFormatError(f"{card_name(missing[0])} is missing: the 42 palm cards must each lie somewhere")
    check_box(s, places)
    check_decks(s, places)
    check_card_kinds(places)


def check_decks(s: HaleakalaState, places: dict[str, list[int]]) -> None:
    """ "Die Palmen-Karten werden nach den Rückseiten sortiert": each deck holds cards of its own back;
    12 one-palm cards go to the bays at set-up; the decks are drawn one-palm, then two-, then three-palm
    ("Zuerst werden Karten vom Stapel mit den 1-Palme-Karten nachgelegt ...")."""
    for d in range(3):
        for card in places[f"decks[{d}]"]:
            if CARD_DECK[card] != d:
                raise StateFormatError(f"decks[{d}] holds {card_name(card)}; a deck holds only cards of its own back")
    if len(places["decks[0]"]) > sum(DECKS[0].values()) - FIRST_LAYOUT:
        raise StateFormatError("decks[0] holds more than 3 cards; set-up lays 12 of the 15 one-palm cards out")
    for d in (1, 2):
        full = sum(1 for card in range(CARDS) if CARD_DECK[card] == d and card not in BOXED[s.tactical])
        if len(places[f"decks[{d}]"]) < full and any(places[f"decks[{e}]"] for e in range(d)):
            raise StateFormatError(f"decks[{d}] has been drawn from while decks[{d - 1}] still holds cards")


def check_box(s: HaleakalaState, places: dict[str, list[int]]) -> None:
    """Tactical variant: "Die 8 Lava-Karten werden aus den Palmen-Karten aussortiert und in die Schachtel
    gelegt"; the basic game boxes no card."""
    if sorted(places["box"]) != BOXED[s.tactical]:
        allowed = "the 8 lava cards (tactical variant)" if s.tactical else "nothing (basic game)"
        raise StateFormatError(f"box holds {_shown(places['box'])}; allowed: {allowed}")


def check_card_kinds(places: dict[str, list[int]]) -> None:
    """A drawn lava card is discarded, never laid into a bay; shells are kept in hand, fish baskets,
    pearls and the nautilus in front of the player ("Diese Karten sammeln die Spieler vor sich")."""
    not_lava = BEACH_CARDS | ACTION_CARDS
    only_kinds(places, "bays", not_lava, "any card but a lava card")
    only_kinds(places, "effects", not_lava, "any card but a lava card")
    for p in SEATS:
        only_kinds(places, f"collected[{p}]", BEACH_CARDS, "fish baskets, pearls and the nautilus")
        only_kinds(places, f"shells[{p}]", frozenset({SHELL_CARD}), "shell cards")


def only_kinds(places: dict[str, list[int]], place: str, kinds: frozenset[int], allowed: str) -> None:
    wrong = [card for card in places[place] if CARD_KIND[card] not in kinds]
    if wrong:
        raise StateFormatError(f"{place} holds {card_name(wrong[0])}; allowed: {allowed}")


# -- discs ----------------------------------------------------------------------------------------
def check_discs(s: HaleakalaState) -> None:
    """ "5 Zahlenscheiben pro Spieler, 1 Lavascheibe pro Spieler": number discs in the supply or on a
    beach; the lava disc in the box (basic game) or in the supply or on a beach (tactical). "Die Summe
    der gelben Zahlen muß immer verschieden von der Summe der roten Zahlen sein" (0 : 0 allowed); at a
    turn the boat's beach is empty (all discs there went home when it landed)."""
    for p, discs in enumerate(listed(s.discs, "discs", 2)):
        values = wholes(discs, f"discs[{p}]", LAVA_DISC + 1, BOX, SEGMENTS - 1, "-1 supply, -2 box, 0–5 a beach")
        if BOX in values[:LAVA_DISC]:
            raise StateFormatError(f"discs[{p}] puts a number disc in the box; allowed: -1 supply or 0–5 a beach")
        if (values[LAVA_DISC] == BOX) == s.tactical:
            allowed = "-1 supply or 0–5 a beach (tactical variant)" if s.tactical else "-2 box (basic game)"
            raise StateFormatError(f"discs[{p}][5] (the lava disc) is {values[LAVA_DISC]}; allowed: {allowed}")
    whole(s.boat, "boat", 0, SEGMENTS - 1, "the segment of the fishing boat")
    sums = [beach_sums(s, p) for p in SEATS]
    for g in range(SEGMENTS):
        if sums[0][g] == sums[1][g] != 0:
            raise StateFormatError(f"beach {g} has equal sums {sums[0][g]} : {sums[1][g]}; the sums must differ")
    if s.phase == TURN and (sums[0][s.boat] or sums[1][s.boat]):
        raise StateFormatError(f"number discs lie on the boat's beach {s.boat} at a turn; they go home at a landing")


# -- shamans and statues --------------------------------------------------------------------------
def check_shamans(s: HaleakalaState) -> None:
    """ "Die Schamanen werden auf die gegenüberliegende Strandfelder mit den Hütten gestellt"; after
    that "er zieht ... nur auf Gras-, Wald- und Bergfelder"; never both on one field."""
    shamans = wholes(s.shamans, "shamans", 2, 0, FIELDS - 1, "a field")
    for p, where in enumerate(shamans):
        if where != field(HUTS[p], BEACH) and ring_of(where) not in TERRAINS:
            hut = field_name(field(HUTS[p], BEACH))
            raise StateFormatError(
                f"shamans[{p}] stands on {field_name(where)}; allowed: its hut beach {hut} or a grass, forest "
                "or mountain field"
            )
    if shamans[0] == shamans[1]:
        raise StateFormatError(f"both shamans stand on {field_name(shamans[0])}; a move never ends on the other")


def check_statues(s: HaleakalaState) -> None:
    """ "8 Statuen pro Spieler", each in the supply or on a grass, forest or mountain field ("Statuen
    können nur auf Gras-, Wald- oder Bergfeldern errichtet werden"), one per field."""
    statues = wholes(s.statues, "statues", FIELDS, NONE, 1, "-1 none or the owner's seat")
    supply = wholes(s.statue_supply, "statue_supply", 2, 0, STATUES, "statues beside the board")
    for f, owner in enumerate(statues):
        if owner != NONE and ring_of(f) not in TERRAINS:
            raise StateFormatError(f"a statue stands on {field_name(f)}; allowed: grass, forest and mountain fields")
    for p in SEATS:
        on_board = statues.count(p)
        if on_board + supply[p] != STATUES:
            raise StateFormatError(
                f"seat {p} has {on_board} statues on the island and {supply[p]} beside it; the two must add up to 8"
            )


# -- lava, scoring board, scores ------------------------------------------------------------------
def check_lava_chips(s: HaleakalaState) -> None:
    """ "4 Lava-Chips": chips lie only on the six craters (or beside the board), never fewer than 0."""
    craters = wholes(s.craters, "craters", SEGMENTS, 0, LAVA_CHIPS, "lava chips on the crater")
    if sum(craters) > LAVA_CHIPS:
        raise StateFormatError(f"the craters hold {sum(craters)} lava chips; the game has 4")


def check_scoring_board(s: HaleakalaState) -> None:
    """ "5 Wertungskarten" on the board or with a player; the board's Lava Priestess face up or turned."""
    wholes(s.scoring_owner, "scoring_owner", len(SCORING_CARDS), NONE, 1, "-1 on the board or the owner's seat")
    truth(s.priestess_up, "priestess_up")


def check_scores(s: HaleakalaState) -> None:
    """Points come only from the two scorings: one entry per scoring held, summing to the points; each
    scoring's recorded categories add up to its points."""
    points = wholes(s.points, "points", 2, 0, MAX_POINTS, "points scored")
    rounds = listed(s.round_points, "round_points")
    held = 2 if s.phase == OVER else s.round - 1
    if len(rounds) != held:
        raise StateFormatError(f"round_points has {len(rounds)} entries; round {s.round} has had {held} scoring(s)")
    gained = [wholes(r, f"round_points[{i}]", 2, 0, MAX_POINTS, "points of that scoring") for i, r in enumerate(rounds)]
    for p in SEATS:
        if sum(g[p] for g in gained) != points[p]:
            raise StateFormatError(f"points[{p}] is {points[p]} but its scorings add up to {sum(g[p] for g in gained)}")
    rows = s.scoring_parts
    parts = listed(list(rows) if isinstance(rows, tuple) else rows, "scoring_parts")
    if len(parts) != 2 * held:
        raise StateFormatError(f"scoring_parts has {len(parts)} rows; {held} scoring(s) held need {2 * held}")
    checked: list[list[int]] = []
    for row, row_parts in enumerate(parts):
        name = f"scoring_parts[{row}]"
        plain = list(row_parts) if isinstance(row_parts, tuple) else row_parts
        shown = wholes(plain, name, len(SCORING_PARTS), NOT_COUNTED, MAX_POINTS, "points of a category")
        number, p = divmod(row, 2)
        check_parts(s, name, shown, number + 1, p)
        if counted_sum(shown) != gained[number][p]:
            gain = gained[number][p]
            message = f"{name} adds up to {counted_sum(shown)}, not to round_points[{number}][{p}] = {gain}"
            raise StateFormatError(message)
        checked.append(shown)
    check_card_owners(checked)


def check_parts(s: HaleakalaState, name: str, parts: list[int], number: int, seat: int) -> None:
    """One scoring's categories for ``seat`` as :func:`.rules.scoring_parts` can give them: statues, fish and
    pearls always counted, the statues' points a multiple of their ring's points; nautilus and shells
    counted at scoring 2 only. Scoring 2 ends the game, so its owners are those of ``scoring_owner``: a
    scoring card counted for its owner, for nobody else (the cards of scoring 1 went back to the board,
    see :func:`check_card_owners`)."""
    for k, part in enumerate(parts):
        category = SCORING_PARTS[k]
        if k < FIRST_CARD_PART:
            counted = k < len(TERRAINS) + 2 or number == 2
            if (part != NOT_COUNTED) != counted:
                when = f"counted at scoring {number}" if counted else "not counted at scoring 1"
                raise StateFormatError(f"{name}: {category} is {part}, but it is {when}")
            if k < len(TERRAINS) and part % STATUE_POINTS[TERRAINS[k]]:
                points = STATUE_POINTS[TERRAINS[k]]
                raise StateFormatError(f"{name}: {category} is {part}, not a multiple of {points} points a statue")
        elif number == 2:
            owned = s.scoring_owner[k - FIRST_CARD_PART] == seat
            if (part != NOT_COUNTED) != owned:
                whose = f"seat {seat} owns it" if owned else f"seat {seat} does not own it"
                raise StateFormatError(f"{name}: {category} is {part} at scoring 2, but {whose}")


def check_card_owners(rows: list[list[int]]) -> None:
    """At scoring 1 a scoring card had one owner at most: it is counted for one seat at most (who owned
    it is not kept, the cards went back to the board after that scoring)."""
    for k in range(FIRST_CARD_PART, len(SCORING_PARTS)):
        if len(rows) >= 2 and all(row[k] != NOT_COUNTED for row in rows[:2]):
            raise StateFormatError(f"scoring_parts: {SCORING_PARTS[k]} is counted for both seats at scoring 1")


FIRST_CARD_PART: Final = len(SCORING_PARTS) - len(SCORING_CARDS)
"""Where the scoring cards start among :data:`.rules.SCORING_PARTS`."""


# -- the pending flow -----------------------------------------------------------------------------
def check_flow(s: HaleakalaState) -> None:
    """The flow fields fit the phase: a turn or a shaman move has nothing pending; a choice needs two
    different cards where the boat landed; a Priestess decision a chip on a crater; a purchase shells
    or a pending scoring."""
    scoring = whole(s.scoring, "scoring", 0, 2, "0 none, or the pending scoring")
    buyers = wholes(s.buyers, "buyers", None, 0, 1, "a seat")
    landing = whole(s.landing, "landing", NONE, SEGMENTS - 1, "-1 none or the segment to refill")
    second = whole(s.second, "second", NONE, 1, "-1 none or the seat taking the other card")
    truth(s.may_pass, "may_pass")
    check_scoring_flow(s, scoring, buyers)
    if s.phase in (TURN, SHAMAN) and (s.effects or scoring or landing != NONE or s.actor != s.current):
        raise StateFormatError(f"phase {PHASE_NAMES[s.phase]} with cards, a scoring or a landing still pending")
    if second != NONE and (s.phase != CHOOSE or second == s.actor):
        raise StateFormatError("second names a seat only while the other seat chooses a card")
    check_phase = PHASE_CHECKS.get(s.phase)
    if check_phase is not None:
        check_phase(s)


def check_scoring_flow(s: HaleakalaState, scoring: int, buyers: list[int]) -> None:
    """Scoring 1 when the last two-palm card is laid out, scoring 2 when the three-palm deck is used up;
    "Vor jeder Wertung haben beide Spieler noch die Möglichkeit, jeweils 1 Karte ... zu kaufen" (basic)."""
    if (s.round == 1) != (bool(s.decks[1]) or scoring == 1):
        raise StateFormatError(
            f"round is {s.round} with {len(s.decks[1])} two-palm cards left; scoring 1 ends round 1 when the last "
            "two-palm card is laid out"
        )
    if scoring == 2 and s.decks[2]:
        raise StateFormatError("scoring 2 is pending while three-palm cards remain")
    if scoring and scoring != s.round:
        raise StateFormatError(f"scoring {scoring} is pending in round {s.round}")
    if buyers and (not scoring or s.tactical or len(set(buyers)) != len(buyers)):
        raise StateFormatError("buyers lists seats only before a scoring of the basic game, each at most once")


def check_bays_refilled(s: HaleakalaState) -> None:
    """ "Soweit möglich werden immer beide leere Kartenfelder aufgefüllt": before a turn, every bay holds
    a card while a deck still has one."""
    if NONE in s.bays and any(s.decks):
        raise StateFormatError(f"bay {s.bays.index(NONE)} is empty at a turn although a deck still holds cards")


def check_choice(s: HaleakalaState) -> None:
    bays = [s.bays[bay(s.landing, k)] for k in (0, 1)] if s.landing != NONE else [NONE, NONE]
    if NONE in bays or CARD_KIND[bays[0]] == CARD_KIND[bays[1]]:
        raise StateFormatError("phase choose needs two different cards in the bays where the boat landed")


def check_priestess(s: HaleakalaState) -> None:
    if not any(s.craters):
        raise StateFormatError("phase priestess with no lava chip on a crater; the action is lost then")


def check_shell_buy(s: HaleakalaState) -> None:
    if not s.shells[s.actor]:
        raise StateFormatError(f"phase shell-buy but seat {s.actor} holds no shell")


def check_scoring_buy(s: HaleakalaState) -> None:
    if not s.scoring or s.tactical:
        raise StateFormatError("phase scoring-buy needs a pending scoring of the basic game")


PHASE_CHECKS: Final[dict[int, Callable[[HaleakalaState], None]]] = {
    TURN: check_bays_refilled,
    SHAMAN: check_bays_refilled,
    CHOOSE: check_choice,
    PRIESTESS: check_priestess,
    SHELL_BUY: check_shell_buy,
    SCORING_BUY: check_scoring_buy,
}
CHECKS: Final[tuple[Callable[[HaleakalaState], None], ...]] = (
    check_seats_and_phase,
    check_palm_cards,
    check_discs,
    check_shamans,
    check_statues,
    check_lava_chips,
    check_scoring_board,
    check_scores,
    check_flow,
)
