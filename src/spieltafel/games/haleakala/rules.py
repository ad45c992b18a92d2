"""Haleakala rules: the turn, shaman moves, card distribution, card effects, scorings, the end.

Quotations refer to the German rules page (long version): "Der Spielzug", "Schamane bewegen",
"Fischerboot bewegen", "Karten vergeben", "Palmen-Karten nachlegen", "Die Palmen-Karten und deren
Verwendungen", "Wertungen", "Punktevergabe", "Spielende und Gewinner" and "Taktische Variante".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from spieltafel.core import Event, IllegalActionError

from .board import CARD_DECK, CARD_KIND, CRATERS, FIELDS, LAVA_FLOW, REACH, bay, bay_name, field, field_name, ring_of
from .components import (
    BLACK_PEARL,
    BLACK_PEARL_POINTS,
    BOARD_PRIESTESS_PRICE,
    BOTH_PEARLS_POINTS,
    BUTTERFLY_POINTS,
    FISH_MAJORITY_POINTS,
    FOREST,
    FOREST_BONUS,
    GRASS,
    KIND_CODES,
    KINDS,
    LAVA_CARD,
    LAVA_CHIPS,
    LAVA_DISC,
    MAJORITY_POINTS,
    MOUNTAIN,
    MOUNTAIN_BONUS,
    NAUTILUS,
    NAUTILUS_POINTS,
    PRIESTESS_CARD,
    RINGS,
    SCORING_CARDS,
    SEGMENT_POINTS,
    SEGMENTS,
    SHELL_CARD,
    STATUE_CARD,
    STATUE_POINTS,
    WHITE_PEARL,
    WHITE_PEARL_POINTS,
)
from .notation import (
    BOAT,
    BUY,
    BUY_ITEMS,
    CARD,
    MOVE,
    PASS,
    PLACE,
    PLACE_LAVA,
    SHIFT,
    TAKE,
    action_text,
    shift_action,
    shift_target,
    split_disc_action,
)

if TYPE_CHECKING:
    from .state import HaleakalaState

SUPPLY: Final = -1
"""Disc location: in the owner's supply."""
BOX: Final = -2
"""Disc location: in the box (the lava discs of the basic game)."""
NONE: Final = -1

TURN: Final = 0
"""Phase: the current player chooses one of the three turn actions."""
SHAMAN: Final = 1
"""Phase: after placing on a beach without the boat or taking a disc back, the shaman moves up to 2."""
CHOOSE: Final = 2
"""Phase: the player with the higher sum chooses one of two different cards where the boat landed."""
PRIESTESS: Final = 3
"""Phase: a Lava Priestess (card or board) may move one lava chip to a neighbouring crater."""
SHELL_BUY: Final = 4
"""Phase: right after receiving a shell, the player may buy from the scoring board."""
SCORING_BUY: Final = 5
"""Phase: basic game, before a scoring: each player may buy one card, the triggering player first."""
OVER: Final = 6
PHASE_NAMES: Final = ("turn", "shaman", "choose", "priestess", "shell-buy", "scoring-buy", "over")

PRICES: Final = (*(price for _, price in SCORING_CARDS), BOARD_PRIESTESS_PRICE)
BOARD_PRIESTESS: Final = len(SCORING_CARDS)
"""Index of the board's Priestess among the buyable items."""
TERRAINS: Final = (GRASS, FOREST, MOUNTAIN)
DISC_RANGE: Final = range(LAVA_DISC)


# -- sums on the beaches --------------------------------------------------------------------------
def beach_sums(s: HaleakalaState, seat: int) -> list[int]:
    """The sum of ``seat``'s number discs on each beach (the lava disc counts nothing)."""
    sums = [0] * SEGMENTS
    for value, where in enumerate(s.discs[seat][:LAVA_DISC], start=1):
        if where >= 0:
            sums[where] += value
    return sums


# -- legal actions --------------------------------------------------------------------------------
def legal_actions(s: HaleakalaState, seat: int) -> list[int]:
    """Every legal action of ``seat``, ascending."""
    if seat != s.actor or s.phase == OVER:
        return []
    phase = s.phase
    if phase == TURN:
        return turn_actions(s, seat)
    if phase == SHAMAN:
        other = s.shamans[1 - seat]
        return [MOVE + t for t in REACH[s.shamans[seat]] if t != other]
    if phase == CHOOSE:
        return [CARD + bay(s.landing, 0), CARD + bay(s.landing, 1)]
    if phase == PRIESTESS:
        moves = priestess_moves(s)
        return [*moves, PASS] if s.may_pass else moves
    return [*(BUY + item for item in affordable(s, seat)), PASS]


def turn_actions(s: HaleakalaState, seat: int) -> list[int]:
    """"Der Spielzug": place a disc (1a/1b), take one back (2), or move the boat 1 field (3, only with
    no number disc left in the supply). "Die Summe der gelben Zahlen muß immer verschieden von der
    Summe der roten Zahlen sein" — on every beach, after the action."""
    mine, theirs = beach_sums(s, seat), beach_sums(s, 1 - seat)
    discs = s.discs[seat]
    boat = s.boat
    places: list[int] = []
    takes: list[int] = []
    for value in range(1, LAVA_DISC + 1):
        where = discs[value - 1]
        base = (value - 1) * SEGMENTS
        if where == SUPPLY:
            places.extend([PLACE + base + g for g in range(SEGMENTS) if mine[g] + value != theirs[g]])
        elif where >= 0:
            left = mine[where] - value
            if left != theirs[where] or left == 0:
                takes.append(TAKE + base + where)
    actions = places
    if s.tactical and discs[LAVA_DISC] == SUPPLY:
        actions.extend(
            [PLACE_LAVA + (v - 1) * SEGMENTS + boat for v in range(1, LAVA_DISC + 1)
             if discs[v - 1] == SUPPLY and mine[boat] + v != theirs[boat]]
        )
    actions.extend(takes)
    if SUPPLY not in discs[:LAVA_DISC]:
        actions.append(BOAT)
    return actions


def priestess_moves(s: HaleakalaState) -> list[int]:
    """"Lava-Priesterin": a chip from a crater to a neighbouring crater, clockwise or counter-clockwise."""
    moves: list[int] = []
    for segment, chips in enumerate(s.craters):
        if chips:
            moves.extend((shift_action(segment, True), shift_action(segment, False)))
    return moves


def affordable(s: HaleakalaState, seat: int) -> list[int]:
    """Items of the scoring board still there whose price the seat's shells pay."""
    shells = len(s.shells[seat])
    items = [i for i, owner in enumerate(s.scoring_owner) if owner == NONE and PRICES[i] <= shells]
    if s.priestess_up and shells >= BOARD_PRIESTESS_PRICE:
        items.append(BOARD_PRIESTESS)
    return items


# -- apply ----------------------------------------------------------------------------------------
def apply(s: HaleakalaState, seat: int, action: int, events: list[Event] | None) -> None:
    """Carry out a legal ``action`` of ``seat``."""
    if events is not None:
        events.append(Event("action", {"seat": seat, "notation": text_of(s, seat, action)}))
    if action < BOAT:
        base, value, segment = split_disc_action(action)
        if base == TAKE:
            take_disc(s, seat, value, segment)
        else:
            place_disc(s, seat, value, segment, base == PLACE_LAVA, events)
    elif action == BOAT:
        sail(s, 1, False, events)
    elif action < CARD:
        s.shamans[seat] = action - MOVE
        advance(s, events)
    elif action < SHIFT:
        choose_card(s, seat, action - CARD, events)
    elif action < BUY:
        shift_chip(s, action, events)
    elif action < PASS:
        buy(s, seat, action - BUY, events)
    else:
        advance(s, events)


def text_of(s: HaleakalaState, seat: int, action: int) -> str:
    return action_text(action, s.shamans[seat], s.bays, CARD_KIND)


def place_disc(s: HaleakalaState, seat: int, value: int, segment: int, lava: bool, events: list[Event] | None) -> None:
    """Action 1: on a beach without the boat the shaman may then move (1a); at the boat the boat sails
    the disc's value clockwise (1b), in the tactical variant optionally with the lava disc."""
    s.discs[seat][value - 1] = segment
    if segment != s.boat:
        s.phase = SHAMAN
        return
    if lava:
        s.discs[seat][LAVA_DISC] = segment
    sail(s, value, lava, events)


def take_disc(s: HaleakalaState, seat: int, value: int, segment: int) -> None:
    """Action 2: a number disc back into the supply; then the shaman may move."""
    s.discs[seat][value - 1] = SUPPLY
    s.phase = SHAMAN


def sail(s: HaleakalaState, steps: int, lava: bool, events: list[Event] | None) -> None:
    """"Fischerboot bewegen": clockwise by ``steps`` fields, then the landing."""
    s.boat = (s.boat + steps) % SEGMENTS
    if events is not None:
        events.append(Event("boat", {"segment": s.boat + 1}))
    land(s, s.boat, lava, events)


def land(s: HaleakalaState, segment: int, lava: bool, events: list[Event] | None) -> None:
    """Where the boat lands: (tactical) the summoned lava chip and returning lava discs, then either
    scoring 2 (three-palm deck empty and no card here) or the card distribution."""
    if s.tactical:
        if lava:
            add_chip(s, segment, events)
        for seat in (0, 1):
            if s.discs[seat][LAVA_DISC] == segment:
                s.discs[seat][LAVA_DISC] = SUPPLY
    if not s.decks[2] and s.bays[bay(segment, 0)] == NONE and s.bays[bay(segment, 1)] == NONE:
        start_scoring(s, 2)
    elif distribute(s, segment, events):
        return
    advance(s, events)


def add_chip(s: HaleakalaState, segment: int, events: list[Event] | None) -> None:
    """A lava chip onto the segment's crater, if one of the 4 chips is still beside the board."""
    if sum(s.craters) < LAVA_CHIPS:
        s.craters[segment] += 1
        if events is not None:
            events.append(Event("lava-chip", {"crater": field_name(CRATERS[segment])}))


def distribute(s: HaleakalaState, segment: int, events: list[Event] | None) -> bool:
    """"Karten vergeben": the higher sum chooses first, the other takes the other card if present
    there; two identical cards: only the higher sum gets one; nobody there: the cards stay.
    True when the first chooser must now choose between two different cards."""
    s.landing = segment
    sums = [beach_sums(s, 0)[segment], beach_sums(s, 1)[segment]]
    takers = sorted((seat for seat in (0, 1) if sums[seat]), key=lambda seat: -sums[seat])
    bays = [b for b in (bay(segment, 0), bay(segment, 1)) if s.bays[b] != NONE]
    if not takers or not bays:
        return_discs(s, segment)
        return False
    first = takers[0]
    second = takers[1] if len(takers) > 1 else NONE
    if len(bays) == 2 and CARD_KIND[s.bays[bays[0]]] != CARD_KIND[s.bays[bays[1]]]:
        s.phase, s.actor, s.second = CHOOSE, first, second
        return True
    give(s, first, bays[0], events)  # one card, or an identical pair: only the higher sum gets one
    return_discs(s, segment)
    return False


def choose_card(s: HaleakalaState, seat: int, chosen: int, events: list[Event] | None) -> None:
    """The first chooser's card; the other player (if present) takes the other one."""
    give(s, seat, chosen, events)
    if s.second != NONE:
        give(s, s.second, chosen ^ 1, events)
    s.second = NONE
    return_discs(s, s.landing)
    advance(s, events)


def give(s: HaleakalaState, seat: int, b: int, events: list[Event] | None) -> None:
    """The card in bay ``b`` goes to ``seat``; its effect runs in the order the cards were taken."""
    card = s.bays[b]
    s.bays[b] = NONE
    s.effects.append([seat, card])
    if events is not None:
        events.append(Event("card", {"seat": seat, "bay": bay_name(b), "card": KIND_CODES[CARD_KIND[card]]}))


def return_discs(s: HaleakalaState, segment: int) -> None:
    """"Alle Zahlenscheiben auf dem Strandfeld werden von ihren Besitzern zurück genommen"."""
    for discs in s.discs:
        for d in DISC_RANGE:
            if discs[d] == segment:
                discs[d] = SUPPLY


def advance(s: HaleakalaState, events: list[Event] | None) -> None:
    """Run everything automatic until a player must decide: pending card effects, a pending scoring
    (purchases first), the refill of the landing segment's bays, then the next player's turn."""
    while True:
        if s.effects:
            seat, card = s.effects.pop(0)
            if run_card(s, seat, card, events):
                return
        elif s.scoring:
            if s.buyers:
                seat = s.buyers.pop(0)
                if affordable(s, seat):
                    s.phase, s.actor = SCORING_BUY, seat
                    return
            else:
                score(s, events)
                if s.phase == OVER:
                    return
        elif s.landing != NONE:
            if not refill(s, s.landing, events):
                s.landing = NONE
        else:
            s.current = s.actor = 1 - s.current
            s.phase = TURN
            return


def run_card(s: HaleakalaState, seat: int, card: int, events: list[Event] | None) -> bool:
    """Carry out a received card; True when the player must now decide (Priestess, shell purchase)."""
    kind = CARD_KIND[card]
    if kind == STATUE_CARD:
        s.discard.append(card)
        build_statue(s, seat, events)
    elif kind == PRIESTESS_CARD:
        s.discard.append(card)
        return priestess(s, seat, s.compulsory_priestess)
    elif kind == SHELL_CARD:
        s.shells[seat].append(card)
        if affordable(s, seat):
            s.phase, s.actor = SHELL_BUY, seat
            return True
    else:
        s.collected[seat].append(card)
    return False


def build_statue(s: HaleakalaState, seat: int, events: list[Event] | None) -> None:
    """"Bau einer Statue": on the shaman's field, not on a beach, one statue per field; else lost."""
    where = s.shamans[seat]
    if ring_of(where) in TERRAINS and s.statues[where] == NONE and s.statue_supply[seat]:
        s.statues[where] = seat
        s.statue_supply[seat] -= 1
        if events is not None:
            events.append(Event("statue", {"seat": seat, "field": field_name(where)}))
    elif events is not None:
        events.append(Event("statue-lost", {"seat": seat, "field": field_name(where)}))


def priestess(s: HaleakalaState, seat: int, compulsory: bool) -> bool:
    """A Priestess (card or board): tactical variant, the lava disc comes home; then the player moves
    a chip when one lies on a crater — or passes, unless ``compulsory`` (a palm card, "Aktionskarten,
    die sofort ausgeführt werden müssen", except under option ``priestess=optional``). True when that
    decision is open; with no chip on a crater the action is lost ("verfällt die Aktion")."""
    if s.tactical and s.discs[seat][LAVA_DISC] >= 0:
        s.discs[seat][LAVA_DISC] = SUPPLY
    if any(s.craters):
        s.phase, s.actor, s.may_pass = PRIESTESS, seat, not compulsory
        return True
    return False


def shift_chip(s: HaleakalaState, action: int, events: list[Event] | None) -> None:
    source, target = shift_target(action)
    s.craters[source] -= 1
    s.craters[target] += 1
    if events is not None:
        events.append(Event("lava-shift", {"from": source + 1, "to": target + 1}))
    advance(s, events)


def buy(s: HaleakalaState, seat: int, item: int, events: list[Event] | None) -> None:
    """"Muschel-Karten": pay 1 or 2 shells to the discard pile for a scoring card or the board's
    Priestess (used at once, then turned over until after the next scoring)."""
    for _ in range(PRICES[item]):
        s.discard.append(s.shells[seat].pop())
    if events is not None:
        events.append(Event("buy", {"seat": seat, "item": BUY_ITEMS[item]}))
    if item == BOARD_PRIESTESS:
        s.priestess_up = False
        if priestess(s, seat, False):  # "... auch kaufen, wenn man die Aktion nicht ausführen kann oder will"
            return
    else:
        s.scoring_owner[item] = seat
    advance(s, events)


# -- refilling the bays ---------------------------------------------------------------------------
def refill(s: HaleakalaState, segment: int, events: list[Event] | None) -> bool:
    """"Palmen-Karten nachlegen": free bays from the one-, then two-, then three-palm deck; a lava card
    puts a chip on this segment's crater and is replaced. True when laying out the last two-palm card
    started scoring 1 (the other free bay is filled after the scoring)."""
    for b in (bay(segment, 0), bay(segment, 1)):
        while s.bays[b] == NONE:
            deck = next((d for d in s.decks if d), None)
            if deck is None:
                return False
            card = deck.pop()
            if events is not None:
                events.append(Event("draw", {"bay": bay_name(b), "card": KIND_CODES[CARD_KIND[card]]}))
            if CARD_KIND[card] == LAVA_CARD:
                s.discard.append(card)
                add_chip(s, segment, events)
            else:
                s.bays[b] = card
            if CARD_DECK[card] == 1 and not deck and s.round == 1:
                start_scoring(s, 1)
                return True
    return False


# -- scoring --------------------------------------------------------------------------------------
def start_scoring(s: HaleakalaState, number: int) -> None:
    """Before each scoring, basic game: both may buy one card, the triggering player first."""
    s.scoring = number
    s.buyers = [] if s.tactical else [s.current, 1 - s.current]


def score(s: HaleakalaState, events: list[Event] | None) -> None:
    """Eruption, then "Punktevergabe"; after scoring 1 the scoring cards go back and the board's
    Priestess is turned face up; scoring 2 ends the game."""
    erupt(s, events)
    number = s.scoring
    parts = [scoring_parts(s, seat, number) for seat in (0, 1)]
    gained = [counted_sum(p) for p in parts]
    for seat in (0, 1):
        s.points[seat] += gained[seat]
    s.round_points.append(gained)
    s.scoring_parts += (tuple(parts[0]), tuple(parts[1]))  # the categories, public; replaced, never changed
    if events is not None:
        events.append(Event("scoring", {"number": number, "points": gained, "total": list(s.points)}))
    s.scoring = 0
    if number == 2:
        s.phase = OVER
        if events is not None:
            events.append(Event("game-over", {"scores": list(s.points), "winners": s.winners()}))
        return
    s.scoring_owner = [NONE] * len(SCORING_CARDS)
    s.priestess_up = True
    s.round = 2


def erupt(s: HaleakalaState, events: list[Event] | None) -> None:
    """"Der Vulkan bricht aus": 1, 2, 3 chips flow to mountain, forest, grass of their segment (a 4th
    has no effect); statues hit go back to their owners; shamans are unharmed; the chips are removed."""
    if events is not None and any(s.craters):
        lava = {field_name(CRATERS[g]): n for g, n in enumerate(s.craters) if n}
        events.append(Event("eruption", {"chips": lava}))
    for segment, chips in enumerate(s.craters):
        for f in LAVA_FLOW[segment][:chips]:
            owner = s.statues[f]
            if owner != NONE:
                s.statues[f] = NONE
                s.statue_supply[owner] += 1
                if events is not None:
                    events.append(Event("statue-destroyed", {"seat": owner, "field": field_name(f)}))
    s.craters = [0] * SEGMENTS


RING_FIELDS: Final = tuple(tuple(field(g, ring) for g in range(SEGMENTS)) for ring in range(len(RINGS)))
"""The fields of each ring, segment by segment."""


def statues_on(s: HaleakalaState, seat: int, ring: int) -> int:
    statues = s.statues
    return [statues[f] for f in RING_FIELDS[ring]].count(seat)


SCORING_PARTS: Final = (
    "grass-statues",
    "forest-statues",
    "mountain-statues",
    "fish",
    "pearls",
    "nautilus",
    "shells",
    *[code for code, _ in SCORING_CARDS],
)
"""The categories of a scoring ("Punktevergabe"), in the order :func:`scoring_parts` lists them: statues
by ring, the fish-basket majority, pearls, nautilus and shells (scoring 2 only), the five scoring cards."""
NOT_COUNTED: Final = -1
"""A category that is no part of this scoring (nautilus and shells at scoring 1, a scoring card the seat
does not own)."""


def scoring_parts(s: HaleakalaState, seat: int, number: int) -> list[int]:
    """The points ``seat`` gains at scoring ``number``, category by category (:data:`SCORING_PARTS`;
    NOT_COUNTED where a category is no part of the scoring)."""
    counts = {ring: statues_on(s, seat, ring) for ring in TERRAINS}
    parts = [STATUE_POINTS[ring] * counts[ring] for ring in TERRAINS]
    parts.append(fish_points(s, seat))
    parts.append(pearl_points(s, seat))
    kinds = [CARD_KIND[c] for c in s.collected[seat]]
    if number == 2:
        parts.append(NAUTILUS_POINTS * kinds.count(NAUTILUS))
        parts.append(len(s.shells[seat]))
    else:
        parts.append(NOT_COUNTED)
        parts.append(NOT_COUNTED)
    for card, owner in enumerate(s.scoring_owner):
        parts.append(scoring_card_points(s, seat, card, counts, kinds) if owner == seat else NOT_COUNTED)
    return parts


def counted_sum(parts: Sequence[int]) -> int:
    """The points of a scoring's parts: their sum, categories NOT_COUNTED left out."""
    return sum(p for p in parts if p != NOT_COUNTED)


def points_of(s: HaleakalaState, seat: int, number: int) -> int:
    """The points ``seat`` gains at scoring ``number``."""
    return counted_sum(scoring_parts(s, seat, number))


def fish_points(s: HaleakalaState, seat: int) -> int:
    """"Derjenige Spieler, der mehr Fischkörbe als der andere besitzt, bekommt 3 Punkte"."""
    baskets = [sum(KINDS[CARD_KIND[c]][2] for c in s.collected[p]) for p in (0, 1)]
    return FISH_MAJORITY_POINTS if baskets[seat] > baskets[1 - seat] else 0


def pearl_points(s: HaleakalaState, seat: int) -> int:
    kinds = {CARD_KIND[c] for c in s.collected[seat]}
    white, black = WHITE_PEARL in kinds, BLACK_PEARL in kinds
    if white and black:
        return BOTH_PEARLS_POINTS
    return WHITE_PEARL_POINTS * white + BLACK_PEARL_POINTS * black


def scoring_card_points(s: HaleakalaState, seat: int, card: int, counts: dict[int, int], kinds: list[int]) -> int:
    """The five scoring cards as printed: butterflies 1 each; 2 per terrain with more statues than the
    other; 4 per segment with three own statues; +2 per forest statue; +3 per mountain statue."""
    code = SCORING_CARDS[card][0]
    if code == "butterflies":
        return BUTTERFLY_POINTS * sum(KINDS[k][1] for k in kinds)
    if code == "majority":
        return MAJORITY_POINTS * sum(1 for r in TERRAINS if counts[r] > statues_on(s, 1 - seat, r))
    if code == "segment":
        full = sum(1 for g in range(SEGMENTS) if all(s.statues[field(g, r)] == seat for r in TERRAINS))
        return SEGMENT_POINTS * full
    if code == "forest":
        return FOREST_BONUS * counts[FOREST]
    return MOUNTAIN_BONUS * counts[MOUNTAIN]


def statues_on_board(s: HaleakalaState, seat: int) -> int:
    return sum(1 for f in range(FIELDS) if s.statues[f] == seat)


def winners(s: HaleakalaState) -> list[int]:
    """"Spielende und Gewinner": most points, then more statues on the board, then the player who did
    not start (seat 1)."""
    if s.phase != OVER:
        return []
    key = [(s.points[p], statues_on_board(s, p), p) for p in (0, 1)]
    return [max(key)[2]]


# -- refusals -------------------------------------------------------------------------------------
def explain_illegal(s: HaleakalaState, seat: int, action: int) -> IllegalActionError:
    """The rule that forbids ``action`` now, and what is allowed instead."""
    legal = legal_actions(s, seat)
    allowed = ", ".join(text_of(s, seat, a) for a in legal[:8])
    if len(legal) > 8:
        allowed = f"{len(legal)} actions, e.g. {allowed}"
    try:
        text = text_of(s, seat, action)
    except ValueError:
        return IllegalActionError(str(action), "no such action in Haleakala's action space", allowed)
    return IllegalActionError(text, reason(s, seat, action), allowed)


_PHASE_RULES: Final = {
    SHAMAN: "after this action your shaman moves up to 2 fields (or stays): choose its end field",
    CHOOSE: "you take a card where the boat landed (the higher sum, or the only player there): choose one of "
    "the two cards; a card cannot be refused",
    PRIESTESS: "the Lava Priestess: move a lava chip to a neighbouring crater (or pass, where allowed)",
    SHELL_BUY: "you just received a shell: buy a card from the scoring board, or pass",
    SCORING_BUY: "before the scoring each player may buy one card from the scoring board, or pass",
}


def reason(s: HaleakalaState, seat: int, action: int) -> str:
    """Why ``action`` is illegal for ``seat`` now (the rule, in the rules' words)."""
    if s.phase == OVER:
        return "the game is over"
    if seat != s.actor:
        return "it is not this seat's decision"
    if s.phase != TURN and not _fits_phase(s.phase, action):
        return _PHASE_RULES[s.phase]
    if s.phase == TURN:
        return _turn_reason(s, seat, action)
    if s.phase == SHAMAN:
        return _move_reason(s, seat, action - MOVE)
    if s.phase == PRIESTESS:
        if action == PASS:
            return (
                "a Lava Priestess palm card is an action card and must be carried out while a chip lies on a "
                "crater (option priestess=optional allows passing)"
            )
        return "there is no lava chip on that crater"
    if s.phase == CHOOSE:
        return "choose one of the two cards of the segment where the boat landed"
    return _buy_reason(s, seat, action - BUY)


def _fits_phase(phase: int, action: int) -> bool:
    ranges = {SHAMAN: (MOVE, CARD), CHOOSE: (CARD, SHIFT), PRIESTESS: (SHIFT, BUY), SHELL_BUY: (BUY, PASS + 1)}
    low, high = ranges.get(phase, (BUY, PASS + 1))
    return low <= action < high or (phase == PRIESTESS and action == PASS)


def _turn_reason(s: HaleakalaState, seat: int, action: int) -> str:
    if action == BOAT:
        return "the boat moves 1 field only when all your number discs are out (action 3)"
    if action >= MOVE:
        return "choose a turn action first: place a disc, take one back, or move the boat"
    base, value, segment = split_disc_action(action)
    where = s.discs[seat][value - 1]
    if base == TAKE:
        if where != segment:
            return f"your disc {value} does not lie on beach b{segment + 1}"
        return "the two players' sums on a beach must always differ (it would make them equal)"
    if where != SUPPLY:
        return f"your disc {value} is not in your supply"
    if base == PLACE_LAVA:
        if not s.tactical:
            return "the lava disc is used only in the tactical variant"
        if segment != s.boat:
            return "the lava disc goes only with a number disc onto the beach where the boat lies"
        if s.discs[seat][LAVA_DISC] != SUPPLY:
            return "your lava disc is not in your supply"
    theirs = beach_sums(s, 1 - seat)[segment]
    return (
        f"the two players' sums on a beach must always differ: the other player has {theirs} on b{segment + 1}"
    )


def _move_reason(s: HaleakalaState, seat: int, target: int) -> str:
    ring = ring_of(target)
    if ring == 0:
        return "shamans never go back to a beach"
    if ring == 4:
        return "shamans never go onto or over a crater"
    if target == s.shamans[1 - seat]:
        return "a shaman may pass the other shaman but not end its move there"
    return "a shaman moves at most 2 fields, at most one of them uphill (first move: grass height only)"


def _buy_reason(s: HaleakalaState, seat: int, item: int) -> str:
    if item == BOARD_PRIESTESS and not s.priestess_up:
        return "the board's Priestess has been used; she is turned face up again after the next scoring"
    if item < BOARD_PRIESTESS and s.scoring_owner[item] != NONE:
        return f"the {BUY_ITEMS[item]} scoring card has already been bought"
    return f"it costs {PRICES[item]} shell(s); you have {len(s.shells[seat])}"
