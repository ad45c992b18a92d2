"""Iquazú rules: legal actions, the turn, water, interim scoring, the end of the game.

References are to the rulebook's sections (HABA 2017, Dutch edition): "Verloop van het spel"
(turn), "Tussentelling" (interim scoring), "Bonuskaartjes", "Einde van het spel" and the FAQ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from spieltafel.core import Event, IllegalActionError

from .board import (
    ANY_PATTERN_START,
    CAPPED,
    CARD_CAP,
    CARDS_PAID,
    COLUMN_SLOTS,
    COLUMN_STARTS,
    LAST_INTERIM,
    PATTERN_COUNT,
    PATTERNS,
    PLANS,
    ROWS,
    bonus_field,
    cards_paid,
    placement_plan,
    slot_actions,
    slot_name,
)
from .components import CARD_COLOURS, DRAW_CARDS, FRAME_COLUMNS, HAND_LIMIT, ROCK_POINTS, TILE_KINDS
from .notation import BONUS, DISCARD, DRAW, END, PLACE_LIMIT, TILE_CODES, action_text

if TYPE_CHECKING:
    from .state import IquazuState

EMPTY: Final = -1
WATER: Final = -2
NO_TILE: Final = -1

ACTION: Final = 0
"""Phase: the gem-box holder takes an action (draw 4 or place a gem) or uses bonus tiles."""
END_OF_TURN: Final = 1
"""Phase: actions used; bonus tiles may still be used before the turn ends."""
DISCARD_PHASE: Final = 2
"""Phase: over the hand limit of 12 at the end of the turn; discard one card at a time."""
OVER: Final = 3
PHASE_NAMES: Final = ("action", "end-of-turn", "discard", "over")

TILE_INDEX: Final = {code: i for i, (code, _, _) in enumerate(TILE_KINDS)}
ANY: Final = TILE_INDEX["any"]
DOUBLE: Final = TILE_INDEX["double"]
CARDS2: Final = TILE_INDEX["cards2"]
CARDS3: Final = TILE_INDEX["cards3"]
CARDS4: Final = TILE_INDEX["cards4"]
CARD_TILES: Final = (CARDS2, CARDS3, CARDS4)
_CAP1: Final = CARD_CAP + 1
TILE_ACTIONS: Final = tuple((BONUS + t, t) for t in (*CARD_TILES, DOUBLE))


# -- legal actions --------------------------------------------------------------------------------
def legal_actions(s: IquazuState, seat: int) -> list[int]:
    """Every legal action of ``seat``, ascending."""
    phase = s.phase
    if seat != s.current or phase == OVER:
        return []
    if phase == ACTION:
        actions = placements(s, seat)
        actions.append(DRAW)
    elif phase == END_OF_TURN:
        actions = [END]
    else:  # DISCARD_PHASE
        w, b, o = s.hands[seat]
        return [DISCARD + c for c, n in ((0, w), (1, b), (2, o)) if n]
    tiles = s.tiles[seat]
    if tiles[CARDS2]:  # usable bonus tiles (TILE_ACTIONS, written out: most hands hold none)
        actions.append(BONUS + CARDS2)
    if tiles[CARDS3]:
        actions.append(BONUS + CARDS3)
    if tiles[CARDS4]:
        actions.append(BONUS + CARDS4)
    if tiles[DOUBLE]:
        actions.append(BONUS + DOUBLE)
    return actions


def placements(s: IquazuState, seat: int) -> list[int]:
    """Gem placements on free slots of the frame's columns 1–5 that the hand can pay ("B. Een
    edelsteen plaatsen"): column k costs k cards of the slot's colour, each card replaceable by two
    identical cards; with an any-colour tile any k cards pay."""
    if not s.supply[seat] and not _gems_under_water(s, seat):
        return []
    w, b, o = s.hands[seat]
    has_any = s.tiles[seat][ANY] > 0
    try:  # placement_plan(), its cache read inline
        w, b, o = CAPPED[w], CAPPED[b], CAPPED[o]
        plan = PLANS[((w * _CAP1 + b) * _CAP1 + o) * 2 + has_any] or placement_plan(w, b, o, has_any)
    except IndexError:  # more than 60 cards of a colour: not a real hand, but answer it all the same
        plan = placement_plan(min(w, CARD_CAP), min(b, CARD_CAP), min(o, CARD_CAP), has_any)
    actions: list[int] = []
    if not plan:
        return actions
    slots = s.slots
    cells = s.layout.column_cells
    column = s.frame
    for offer in plan:  # frame columns 1, 2, …: the dearer ones the hand cannot pay are left out
        for slot, colour, by_set in cells[column]:
            if slots[slot] == EMPTY:
                pattern_set = offer[colour]
                if pattern_set:
                    try:
                        actions += by_set[pattern_set]
                    except KeyError:
                        actions += slot_actions(slot, pattern_set)
        column += 1
    return actions


def _gems_under_water(s: IquazuState, seat: int) -> int:
    return s.slots[: COLUMN_STARTS[s.frame]].count(seat)


def _has_usable_tiles(s: IquazuState, seat: int) -> bool:
    tiles = s.tiles[seat]
    return bool(tiles[CARDS2] or tiles[CARDS3] or tiles[CARDS4] or tiles[DOUBLE])


# -- apply ----------------------------------------------------------------------------------------
def apply(s: IquazuState, seat: int, action: int, events: list[Event] | None) -> None:
    """Carry out a legal ``action`` of ``seat``."""
    if action < PLACE_LIMIT:
        slot, pattern = divmod(action, PATTERN_COUNT)
        place_gem(s, seat, slot, pattern, events)
        if s.phase != OVER:
            action_done(s, events)
    elif action == DRAW:
        draw_cards(s, seat, DRAW_CARDS, events)
        action_done(s, events)
    elif action == END:
        finish_turn(s, events)
    elif action < BONUS:
        discard_card(s, seat, action - DISCARD, events)
    else:
        use_tile(s, seat, action - BONUS, events)


def step(s: IquazuState, seat: int, action: int) -> None:
    """:func:`apply` without events, for search and random play: the placement, the draw and the
    end of an action are written out here (the same effects, in the same order; a test replays
    random games through both)."""
    if action < PLACE_LIMIT:
        slot, pattern = divmod(action, PATTERN_COUNT)
        white, blue, orange = CARDS_PAID[s.layout.colour[slot]][pattern]  # place_gem
        hand = s.hands[seat]
        hand[0] -= white
        hand[1] -= blue
        hand[2] -= orange
        discards = s.discards
        discards[0] += white
        discards[1] += blue
        discards[2] += orange
        if pattern >= ANY_PATTERN_START:
            s.tiles[seat][ANY] -= 1
            s.used_tiles[ANY] += 1
        supply = s.supply
        if not supply[seat]:
            _refill_gems(s, seat, None)
        supply[seat] -= 1
        slots = s.slots
        slots[slot] = seat
        frame = s.frame
        if EMPTY not in slots[COLUMN_STARTS[frame] : COLUMN_STARTS[frame + 1]]:
            score_columns(s, None)
            if s.phase == OVER:
                return
    elif action == DRAW:
        hand = s.hands[seat]
        pile = s.pile
        if len(pile) >= DRAW_CARDS:
            for card in pile[-DRAW_CARDS:]:
                hand[card] += 1
            del pile[-DRAW_CARDS:]
        else:
            draw_cards(s, seat, DRAW_CARDS, None)
    else:
        apply(s, seat, action, None)
        return
    s.actions_left -= 1  # action_done
    if s.actions_left > 0:
        return
    current = s.current
    tiles = s.tiles[current]
    if tiles[CARDS2] or tiles[CARDS3] or tiles[CARDS4] or tiles[DOUBLE]:
        s.phase = END_OF_TURN
    elif sum(s.hands[current]) > HAND_LIMIT:
        s.phase = DISCARD_PHASE
    else:
        drop_water_and_pass(s, None)


def draw_cards(s: IquazuState, seat: int, count: int, events: list[Event] | None) -> None:
    """Take ``count`` cards from the draw pile; an empty pile is replaced by the shuffled discards."""
    hand = s.hands[seat]
    pile = s.pile
    if events is None and len(pile) >= count:  # the common case: no reshuffle, nothing to report
        for card in pile[-count:]:
            hand[card] += 1
        del pile[-count:]
        return
    drawn = [0, 0, 0]
    for _ in range(count):
        if not s.pile:
            if not any(s.discards):
                break
            reshuffle(s, events)
        card = s.pile.pop()
        hand[card] += 1
        drawn[card] += 1
    if events is not None:
        events.append(Event("draw", {"seat": seat, "count": sum(drawn)}, {seat: {"cards": _cards(drawn)}}))


def reshuffle(s: IquazuState, events: list[Event] | None) -> None:
    """ "Is de afneemstapel leeg? Meng de aflegstapel": the discards become the new draw pile."""
    white, blue, orange = s.discards
    s.pile = [0] * white + [1] * blue + [2] * orange
    s.discards = [0, 0, 0]
    s.rng.shuffle(s.pile)
    if events is not None:
        events.append(Event("reshuffle", {"cards": len(s.pile)}))


def place_gem(s: IquazuState, seat: int, slot: int, pattern: int, events: list[Event] | None) -> None:
    """Pay the cards face up onto the discard pile and put a gem on ``slot``."""
    paid = CARDS_PAID[s.layout.colour[slot]][pattern]
    white, blue, orange = paid
    hand = s.hands[seat]
    hand[0] -= white
    hand[1] -= blue
    hand[2] -= orange
    discards = s.discards
    discards[0] += white
    discards[1] += blue
    discards[2] += orange
    if pattern >= ANY_PATTERN_START:
        s.tiles[seat][ANY] -= 1
        s.used_tiles[ANY] += 1
    if not s.supply[seat]:
        _refill_gems(s, seat, events)
    s.supply[seat] -= 1
    s.slots[slot] = seat
    if events is not None:
        text = action_text(slot * PATTERN_COUNT + pattern, s.layout.colour)
        events.append(Event("place", {"seat": seat, "slot": slot_name(slot), "paid": _cards(paid), "notation": text}))
    if _first_column_full(s):
        score_columns(s, events)


def _refill_gems(s: IquazuState, seat: int, events: list[Event] | None) -> None:
    """FAQ: an empty gem supply is refilled with that colour's gems from already scored columns."""
    count = 0
    for slot in range(COLUMN_STARTS[s.frame]):
        if s.slots[slot] == seat:
            s.slots[slot] = EMPTY
            count += 1
    s.supply[seat] += count
    if events is not None:
        events.append(Event("refill-gems", {"seat": seat, "gems": count}))


def action_done(s: IquazuState, events: list[Event] | None) -> None:
    """One action used: another if a double turn granted it, else the end of the turn."""
    s.actions_left -= 1
    if s.actions_left > 0:
        return
    tiles = s.tiles[s.current]
    if tiles[CARDS2] or tiles[CARDS3] or tiles[CARDS4] or tiles[DOUBLE]:  # _has_usable_tiles
        s.phase = END_OF_TURN
    elif sum(s.hands[s.current]) > HAND_LIMIT:  # finish_turn
        s.phase = DISCARD_PHASE
    else:
        drop_water_and_pass(s, events)


def use_tile(s: IquazuState, seat: int, tile: int, events: list[Event] | None) -> None:
    """ "Bonuskaartjes": extra cards (2, 3 or 4) or a double turn (one more action)."""
    s.tiles[seat][tile] -= 1
    s.used_tiles[tile] += 1
    if events is not None:
        events.append(Event("bonus", {"seat": seat, "tile": TILE_CODES[tile]}))
    _, effect, value = TILE_KINDS[tile]
    if effect == "cards":
        draw_cards(s, seat, value, events)
    else:
        s.actions_left += 1
        s.phase = ACTION


def finish_turn(s: IquazuState, events: list[Event] | None) -> None:
    """End of the turn: hand limit first, then water and passing the gem box."""
    if sum(s.hands[s.current]) > HAND_LIMIT:
        s.phase = DISCARD_PHASE
    else:
        drop_water_and_pass(s, events)


def discard_card(s: IquazuState, seat: int, colour: int, events: list[Event] | None) -> None:
    """Hand limit: discard one card of the player's choice face up."""
    s.hands[seat][colour] -= 1
    s.discards[colour] += 1
    if events is not None:
        events.append(Event("discard", {"seat": seat, "card": CARD_COLOURS[colour]}))
    if sum(s.hands[seat]) <= HAND_LIMIT:
        drop_water_and_pass(s, events)


def drop_water_and_pass(s: IquazuState, events: list[Event] | None) -> None:
    """ "Waterdruppels leggen" then "Edelstenenkist doorgeven".

    The water-box holder drops water at the end of their own turn (option ``water=every-turn``: after
    every turn). No water falls in a turn in which a column was scored: the scoring ends the turn.
    """
    if not s.scored_this_turn and (s.water_holder == s.current or s.options["water"] == "every-turn"):
        drop_water(s, events)
        if s.phase == OVER:
            return
    s.current = (s.current + 1) % s.players
    s.phase = ACTION
    s.actions_left = 1
    s.scored_this_turn = False
    if events is not None:
        events.append(Event("turn", {"seat": s.current}))


def drop_water(s: IquazuState, events: list[Event] | None) -> None:
    """A drop on the topmost free slot of the frame's first column ("het water druppelt van boven
    naar beneden")."""
    if not s.drops:
        _refill_drops(s, events)
        if not s.drops:
            return
    start = COLUMN_STARTS[s.frame]
    cells = s.slots[start : COLUMN_STARTS[s.frame + 1]]
    free = cells.count(EMPTY)
    if free:
        slot = start + cells.index(EMPTY)
        s.slots[slot] = WATER
        s.drops -= 1
        free -= 1
        if events is not None:
            events.append(Event("water", {"seat": s.water_holder, "slot": slot_name(slot)}))
    if not free:  # _first_column_full
        score_columns(s, events)


def _refill_drops(s: IquazuState, events: list[Event] | None) -> None:
    """FAQ: an empty water box is refilled with the drops of already scored columns."""
    for slot in range(COLUMN_STARTS[s.frame]):
        if s.slots[slot] == WATER:
            s.slots[slot] = EMPTY
            s.drops += 1
    if events is not None:
        events.append(Event("refill-water", {"drops": s.drops}))


# -- scoring --------------------------------------------------------------------------------------
def _first_column_full(s: IquazuState) -> bool:
    column = s.frame
    return EMPTY not in s.slots[COLUMN_STARTS[column] : COLUMN_STARTS[column + 1]]


def score_columns(s: IquazuState, events: list[Event] | None) -> None:
    """ "Tussentelling", with its exception: if after the shift the new first column is full too,
    it is scored at once, before the boxes pass. The water box then passes counter-clockwise once."""
    while True:
        score_rock(s, s.frame, events)
        hand_out_bonus_tiles(s, events)
        if s.frame == LAST_INTERIM:
            end_game(s, events)
            return
        s.frame += 1
        if events is not None:
            revealed = [TILE_CODES[s.bonus[bonus_field(s.frame, r)]] for r in range(ROWS)]
            events.append(Event("shift", {"frame": s.frame + 1, "revealed": revealed}))
        if not _first_column_full(s):
            break
    s.water_holder = (s.water_holder - 1) % s.players
    s.scored_this_turn = True
    if events is not None:
        events.append(Event("water-box", {"seat": s.water_holder}))


def rock_ranking(s: IquazuState, column: int) -> list[int]:
    """Seats with gems in ``column``, best first: most gems; tie: the gem lower down wins."""
    count = [0] * s.players
    lowest = [0] * s.players
    slots = s.slots
    for slot in COLUMN_SLOTS[column]:
        owner = slots[slot]
        if owner >= 0:
            count[owner] += 1
            lowest[owner] = slot  # slots run top to bottom: the last one seen is the lowest
    ranked = [(count[seat], lowest[seat], seat) for seat in range(s.players) if count[seat]]
    ranked.sort(reverse=True)  # lowest slots differ between seats: the seat never decides
    return [seat for _, _, seat in ranked]


def score_rock(s: IquazuState, column: int, events: list[Event] | None) -> None:
    """ "Punten van de rots": the rock's points go by majority; at least one player scores nothing."""
    awards = list(zip(rock_ranking(s, column), ROCK_POINTS[s.players][column], strict=False))
    rocks = list(s.rock_points)
    for seat, points in awards:
        s.points[seat] += points
        row = list(rocks[seat])
        row[column] = points  # the score's part, kept (gems taken back later do not change it)
        rocks[seat] = tuple(row)
    s.rock_points = tuple(rocks)  # replaced, never changed in place: clones share it
    if events is not None:
        events.append(Event("rock", {"column": column + 1, "awards": [list(a) for a in awards]}))


def bonus_winner(s: IquazuState, row: int) -> int | None:
    """Most gems in ``row`` within the frame; tie: the gem further right, then further down."""
    count = [0] * s.players
    best = [0] * s.players
    slots = s.slots
    for slot in s.layout.frame_rows[s.frame][row]:
        owner = slots[slot]
        if owner >= 0:
            count[owner] += 1
            best[owner] = slot  # ascending ids: further right, then lower down
    leader = max([(count[seat], best[seat], seat) for seat in range(s.players) if count[seat]], default=None)
    return None if leader is None else leader[2]  # best slots differ between seats: the seat never decides


def row_winners(s: IquazuState) -> list[int | None]:
    """:func:`bonus_winner` of every row, in one pass over the frame."""
    players = s.players
    count = [0] * (ROWS * players)
    best = [0] * (ROWS * players)
    rows = s.layout.row
    start = COLUMN_STARTS[s.frame]
    for slot, owner in enumerate(s.slots[start : COLUMN_STARTS[s.frame + FRAME_COLUMNS]], start):
        if owner >= 0:
            key = rows[slot] * players + owner
            count[key] += 1
            best[key] = slot  # ascending ids: further right, then lower down
    winners: list[int | None] = []
    for base in range(0, ROWS * players, players):
        leader, most, furthest = None, 0, 0
        for seat in range(players):
            gems = count[base + seat]
            if gems > most or (gems == most and gems and best[base + seat] > furthest):
                leader, most, furthest = seat, gems, best[base + seat]
        winners.append(leader)
    return winners


def hand_out_bonus_tiles(s: IquazuState, events: list[Event] | None) -> None:
    """ "Verdeling van de bonuskaartjes": each row's tile to its majority; no gem: out of the game."""
    winners = row_winners(s)
    for row in range(ROWS):
        field = bonus_field(s.frame, row)
        tile = s.bonus[field]
        winner = winners[row]
        if winner is None:
            s.removed_tiles[tile] += 1
        else:
            s.tiles[winner][tile] += 1
        s.bonus[field] = NO_TILE
        if events is not None:
            events.append(Event("bonus-tile", {"row": row + 1, "tile": TILE_CODES[tile], "seat": winner}))


def end_game(s: IquazuState, events: list[Event] | None) -> None:
    """ "Einde van het spel": the last two rocks score (full or not, rock points only), then the
    points on bonus tiles; most points wins, ties share the win."""
    for column in range(LAST_INTERIM + 1, LAST_INTERIM + 3):
        score_rock(s, column, events)
    held = [0] * s.players
    for seat in range(s.players):
        tile_points = sum(n * TILE_KINDS[t][2] for t, n in enumerate(s.tiles[seat]) if TILE_KINDS[t][1] == "points")
        s.points[seat] += tile_points
        held[seat] = tile_points
        if events is not None:
            events.append(Event("tile-points", {"seat": seat, "points": tile_points}))
    s.tile_points = tuple(held)  # replaced, never changed in place: clones share it
    s.phase = OVER
    if events is not None:
        events.append(Event("game-over", {"scores": list(s.points), "winners": s.winners()}))


# -- refusals -------------------------------------------------------------------------------------
def explain_illegal(s: IquazuState, seat: int, action: int) -> IllegalActionError:
    """The rule that forbids ``action`` now, and what is allowed instead."""
    legal = legal_actions(s, seat)
    allowed = ", ".join(action_text(a, s.layout.colour) for a in legal[-6:])
    if len(legal) > 6:
        allowed = f"{len(legal)} actions, e.g. {allowed}"
    try:
        text = action_text(action, s.layout.colour)
    except ValueError:
        return IllegalActionError(str(action), "no such action in Iquazú's action space", allowed)
    return IllegalActionError(text, _reason(s, seat, action), allowed)


def _reason(s: IquazuState, seat: int, action: int) -> str:
    hand = s.hands[seat]
    if s.phase == OVER:
        return "the game is over"
    if s.phase == DISCARD_PHASE and not DISCARD <= action < BONUS:
        return f"you hold {sum(hand)} cards: discard down to {HAND_LIMIT} first (hand limit)"
    if DISCARD <= action < BONUS:
        if s.phase != DISCARD_PHASE:
            return f"cards are discarded only at the end of the turn, when over the hand limit of {HAND_LIMIT}"
        return "you hold no card of that colour"
    if action >= BONUS:
        return f"you hold no {TILE_CODES[action - BONUS]} bonus tile"
    if action == END:
        return "take your action first: draw 4 cards or place a gem"
    if s.phase == END_OF_TURN:
        return "you have used your action this turn; a double-turn tile gives one more"
    if action == DRAW:
        return "drawing is not possible now"
    return _placement_reason(s, seat, action)


def _placement_reason(s: IquazuState, seat: int, action: int) -> str:
    slot, pattern = divmod(action, PATTERN_COUNT)
    column = next(c for c in range(len(COLUMN_STARTS) - 1) if slot < COLUMN_STARTS[c + 1])
    cost = column - s.frame + 1
    if not 1 <= cost <= FRAME_COLUMNS:
        first = s.frame + 1
        return f"slot {slot_name(slot)} is outside the water frame (board columns {first}–{first + FRAME_COLUMNS - 1})"
    if s.slots[slot] != EMPTY:
        return f"slot {slot_name(slot)} is already covered by {'water' if s.slots[slot] == WATER else 'a gem'}"
    if PATTERNS[pattern][1] != cost:
        return f"column {cost} of the frame costs {cost} card(s); this payment is worth {PATTERNS[pattern][1]}"
    if pattern >= ANY_PATTERN_START and not s.tiles[seat][ANY]:
        return "paying with any colours needs an any-colour bonus tile, and you hold none"
    if not s.supply[seat] and not _gems_under_water(s, seat):
        return "you have no gems of your colour left"
    paid = cards_paid(pattern, s.layout.colour[slot])
    return f"you hold {_cards(s.hands[seat])}, the payment needs {_cards(list(paid))}"


def _cards(counts: list[int] | tuple[int, ...]) -> str:
    return "".join(CARD_COLOURS[c] * counts[c] for c in range(3)) or "no cards"
