"""A fixed-size numeric encoding of a Haleakala view, for learning agents (``spieltafel.rl``).

:func:`encode` reads only the view dict a seat receives (``state.view(seat)``), never the state, so
it cannot reveal anything the seat may not know (the palm decks' order is not in the view). Seats
are counted from the viewer (the viewer is relative seat 0, the opponent 1). Every entry lies in
[0, 1]; card counts are divided by the number of copies of that kind in the game. Blocks, in order:

- the game's options (one-hot over each option's choices), phase (one-hot 7), seats to act and
  current player (relative), round (one-hot 2), boat segment (one-hot 6), lava chips per crater
  and beside the board (/4);
- statues per field (30 fields x mine / the opponent's);
- bays (12 x card kind one-hot 11, empty = zeros);
- per palm deck: remaining cards per kind and deck size (/15); discard pile and box per kind;
- scoring cards still on the board (5 bits), board priestess available;
- points of the scorings held so far (2 scorings x relative seat, /40);
- pending flow: received cards per relative seat and kind (/3), pending scoring (one-hot 3), seats that
  may still buy, segment still to be refilled (one-hot 6), seat taking the second card;
- per relative seat: score (/60), shaman field (one-hot 30), each number disc and the lava disc
  (one-hot over supply, box, beach 1-6), beach sums (/15), statues in supply and on the board (/8),
  collected cards per kind, saved shells, scoring cards owned (5 bits).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from spieltafel.core import JSON
from spieltafel.rl.features import Features, Vector, options_size, relative, viewer_of

from . import GAME
from .board import BAYS, FIELDS, bay_name, field_name
from .components import DECKS, DISC_VALUES, KIND_CODES, LAVA_CHIPS, PLAYER_COLOURS, SCORING_CARDS, SEGMENTS, STATUES
from .rules import PHASE_NAMES

KINDS = len(KIND_CODES)
COPIES = tuple(max(1, sum(deck.get(code, 0) for deck in DECKS)) for code in KIND_CODES)
"""Copies of each card kind in the game: the scale of every per-kind count."""
SCORING_CODES = tuple(code for code, _ in SCORING_CARDS)
DISC_PLACES = ("supply", "box", *(f"b{segment + 1}" for segment in range(SEGMENTS)))
FIELD_NAMES = tuple(field_name(f) for f in range(FIELDS))
BAY_NAMES = tuple(bay_name(b) for b in range(BAYS))
SEATS = 2
ROUNDS = 2
SCORINGS = 2
DECK_SCALE = 15
SCORE_SCALE = 60
ROUND_SCALE = 40
SUM_SCALE = 15
PENDING_SCALE = 3


def observation_size(players: int) -> int:
    """Length of :func:`encode`'s vector (Haleakala is a game for two)."""
    head = options_size(GAME.options) + len(PHASE_NAMES) + 2 * SEATS + ROUNDS + SEGMENTS + SEGMENTS + 1
    board = FIELDS * SEATS + BAYS * KINDS
    cards = len(DECKS) * (KINDS + 1) + 2 * KINDS + len(SCORING_CODES) + 1
    flow = SCORINGS * SEATS + SEATS * KINDS + (SCORINGS + 1) + SEATS + SEGMENTS + SEATS
    seat = 1 + FIELDS + (len(DISC_VALUES) + 1) * len(DISC_PLACES) + SEGMENTS + 2 + KINDS + 1 + len(SCORING_CODES)
    return head + board + cards + flow + SEATS * seat


def _kind_counts(out: Features, counts: Mapping[str, int]) -> None:
    for k, code in enumerate(KIND_CODES):
        out.scalar(counts.get(code, 0), COPIES[k])


def encode(view: Mapping[str, JSON], players: int) -> Vector:
    """The view as a float32 vector of :func:`observation_size` entries (see the module docstring)."""
    me = viewer_of(view)
    out = Features(observation_size(players))

    def rel(seat: int | None) -> int | None:
        return relative(seat, me, SEATS)

    out.options(view["options"], GAME.options)
    out.choice(view["phase"], PHASE_NAMES)
    out.members((rel(p) for p in view["to_act"]), range(SEATS))
    out.one_hot(rel(view["current"]), SEATS)
    out.one_hot(view["round"] - 1, ROUNDS)
    out.one_hot(view["boat"] - 1, SEGMENTS)
    out.scalars(view["craters"], LAVA_CHIPS)
    out.scalar(view["lava_chips_beside_board"], LAVA_CHIPS)

    statues = view["statues"]
    for name in FIELD_NAMES:
        owner = statues.get(name)
        out.one_hot(rel(PLAYER_COLOURS.index(owner)) if owner is not None else None, SEATS)
    bays = view["bays"]
    for name in BAY_NAMES:
        out.choice(bays.get(name), KIND_CODES)

    for deck, size in zip(view["decks"], view["deck_sizes"], strict=True):
        _kind_counts(out, deck)
        out.scalar(size, DECK_SCALE)
    _kind_counts(out, Counter(view["discard"]))
    _kind_counts(out, Counter(view["box"]))
    out.members(view["scoring_board"], SCORING_CODES)
    out.flag(bool(view["board_priestess"]))

    held = list(view["round_points"])
    for scoring in range(SCORINGS):
        points = held[scoring] if scoring < len(held) else [0] * SEATS
        out.scalars((points[(me + k) % SEATS] for k in range(SEATS)), ROUND_SCALE)
    pending = view["pending"]
    received = Counter((rel(p), code) for p, code in pending["cards"])
    for k in range(SEATS):
        out.scalars((received[k, code] for code in KIND_CODES), PENDING_SCALE)
    out.one_hot(pending["scoring"], SCORINGS + 1)
    out.members((rel(p) for p in pending["buyers"]), range(SEATS))
    landing = pending["landing"]
    out.one_hot(landing - 1 if landing is not None else None, SEGMENTS)
    out.one_hot(rel(pending["second"]), SEATS)

    info = view["player_info"]
    for k in range(SEATS):
        player = info[(me + k) % SEATS]
        out.scalar(player["score"], SCORE_SCALE)
        out.choice(player["shaman"], FIELD_NAMES)
        for value in DISC_VALUES:
            out.choice(player["discs"][str(value)], DISC_PLACES)
        out.choice(player["lava_disc"], DISC_PLACES)
        out.scalars(player["beach_sums"], SUM_SCALE)
        out.scalar(player["statues_in_supply"], STATUES)
        out.scalar(player["statues_on_board"], STATUES)
        _kind_counts(out, Counter(player["cards"]))
        out.scalar(player["shells"], COPIES[KIND_CODES.index("shell")])
        out.members(player["scoring_cards"], SCORING_CODES)
    return out.finish()
