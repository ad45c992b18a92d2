"""Iquazú rule scenarios, taken from the rulebook's text and examples (HABA 2017, Dutch edition)."""

from __future__ import annotations

import pytest

from spieltafel.core import IllegalActionError, NotationError
from spieltafel.games.iquazu.board import bonus_field
from spieltafel.games.iquazu.rules import DISCARD_PHASE, END_OF_TURN, OVER, TILE_INDEX, WATER

from .helpers import GREEN, PURPLE, RED, YELLOW, column_free, give_tile, hand, new, put, slot, texts


# -- set-up ("Opbouw") -----------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "dealt"), [(2, [4, 5]), (3, [4, 5, 6]), (4, [4, 5, 6, 7])])
def test_setup_deals_4_5_6_7_clockwise_and_places_the_boxes(players: int, dealt: list[int]) -> None:
    state = new(players)
    assert [sum(h) for h in state.hands] == dealt
    assert len(state.pile) == 60 - sum(dealt)
    assert state.current == 0  # the gem box is with the start player
    assert state.water_holder == players - 1  # the water box with the player right of the start player
    assert state.supply == [34] * players and state.drops == 50
    view = state.view(None)
    fields = view["bonus_fields"]
    assert all(f not in ("light", "dark") for f in fields[:5])  # the frame's bonus column is face up
    assert set(fields[5:35]) == {"light"} and set(fields[35:]) == {"dark"}


# -- turn: draw or place ("Verloop van het spel") --------------------------------------------------
def test_a_slot_in_frame_column_k_costs_k_cards_of_its_colour() -> None:
    state = new()
    hand(state, RED, "OOO")
    legal = texts(state, RED)
    assert "place 1a O" in legal  # 1a is orange, column 1 costs 1
    assert "place 3b OOO" in legal  # 3b is orange, column 3 costs 3
    assert not any(t.startswith("place 4") for t in legal)  # column 4 needs 4 cards
    assert "place 1b W" not in legal  # 1b is white


def test_each_card_may_be_replaced_by_two_identical_cards() -> None:
    state = new()
    hand(state, RED, "BBOOOO")
    legal = texts(state, RED)
    assert "place 1b BB" in legal  # white slot paid with two blue cards
    assert "place 1b OO" in legal
    assert "place 2a BOO" in legal  # blue slot, column 2: B + OO, or BB
    assert "place 2a OOOO" in legal
    assert "place 2a BB" in legal
    with pytest.raises(IllegalActionError, match="identical"):
        state.apply(RED, "place 1b BO")


def test_placing_pays_cards_face_up_and_puts_a_gem() -> None:
    state = new()
    hand(state, RED, "WWO")
    state.apply(RED, "place 2b WW")  # 2b is white (row 2 'WB': upper slot)
    assert state.slots[slot("2b")] == RED
    assert state.hands[RED] == [0, 0, 1]
    assert state.discards == [2, 0, 0]
    assert state.supply[RED] == 33
    assert state.current == YELLOW  # one action per turn, then the gem box passes


def test_drawing_takes_four_cards_and_reshuffles_an_empty_pile() -> None:
    state = new()
    state.pile = [1, 1]
    state.discards = [3, 0, 0]
    before = sum(state.hands[RED])
    events = state.apply(RED, "draw")
    assert sum(state.hands[RED]) == before + 4
    assert [e.kind for e in events][:3] == ["reshuffle", "draw", "turn"]
    assert state.discards == [0, 0, 0] and len(state.pile) == 1
    draw = next(e for e in events if e.kind == "draw")
    assert "cards" not in draw.view(YELLOW) and draw.view(RED)["cards"]


def test_hand_limit_twelve_the_player_chooses_the_discards() -> None:
    state = new()
    hand(state, RED, "WWWWWBBBBOO")  # 11 cards, draw 4 → 15
    state.apply(RED, "draw")
    assert state.phase == DISCARD_PHASE and state.current == RED
    assert texts(state, RED) == ["discard W", "discard B", "discard O"]
    for _ in range(3):
        state.apply(RED, "discard W")
    assert sum(state.hands[RED]) == 12 and state.current == YELLOW


def test_the_water_box_holder_drops_water_on_the_topmost_free_slot_of_the_first_column() -> None:
    state = new()
    put(state, **{"1a": RED})
    for seat in range(3):  # red, yellow, purple draw: no water
        state.apply(seat, "draw")
        assert state.slots[slot("1b")] != WATER
    state.apply(GREEN, "draw")  # green holds the water box
    assert state.slots[slot("1b")] == WATER
    assert state.drops == 49


def test_option_water_after_every_turn() -> None:
    state = new(**{"water": "every-turn"})
    state.apply(RED, "draw")
    assert state.slots[slot("1a")] == WATER


# -- bonus tiles ("Bonuskaartjes") ---------------------------------------------------------------
def test_extra_cards_tile_draws_that_many_cards_at_start_or_end_of_turn() -> None:
    state = new()
    give_tile(state, RED, "cards3")
    before = sum(state.hands[RED])
    state.apply(RED, "bonus cards3")
    assert sum(state.hands[RED]) == before + 3 and state.current == RED
    give_tile(state, RED, "cards2")
    state.apply(RED, "draw")
    assert state.phase == END_OF_TURN  # tiles may still be used at the end of the turn
    state.apply(RED, "bonus cards2")
    state.apply(RED, "end")
    assert sum(state.hands[RED]) == before + 9 == 13 and state.phase == DISCARD_PHASE
    state.apply(RED, "discard O")
    assert state.current == YELLOW
    assert state.used_tiles[TILE_INDEX["cards3"]] == 1


def test_double_turn_tile_gives_one_more_action_of_either_kind() -> None:
    state = new()
    give_tile(state, RED, "double")
    hand(state, RED, "O")
    state.apply(RED, "bonus double")
    state.apply(RED, "place 1a O")
    assert state.current == RED  # one more action
    state.apply(RED, "draw")
    assert state.current == YELLOW


def test_any_colour_tile_pays_with_any_cards() -> None:
    state = new()
    give_tile(state, RED, "any")
    hand(state, RED, "WBO")
    assert "place 3a WBO any" in texts(state, RED)  # 3a is blue
    state.apply(RED, "place 3a WBO any")
    assert state.slots[slot("3a")] == RED
    assert state.tiles[RED][TILE_INDEX["any"]] == 0
    with pytest.raises(IllegalActionError, match="any-colour"):
        new().apply(RED, "place 1a O any")


# -- interim scoring ("Tussentelling") --------------------------------------------------------------
def rulebook_example() -> object:
    """The rulebook's example ("Tussentelling 2 van 2"), 4 players, on board column 6 whose rock
    shows 8/5/2. The frame covers columns 6–10; column 6 is full but for slot 6g."""
    state = new(4)
    state.frame = 5
    state.current, state.water_holder = GREEN, RED
    put(
        state,
        **{"6a": YELLOW, "6b": RED, "6c": "water", "6d": "water", "6e": "water", "6f": GREEN},
        **{"9a": PURPLE},  # row 1: yellow, red, purple one each; purple furthest right
        **{"8c": YELLOW, "8d": YELLOW},  # row 3: yellow
        **{"7e": GREEN},  # row 4: green (6f, 7e)
        **{"7g": RED, "10f": RED, "10g": GREEN},  # row 5: green 2 (6g, 10g), red 2 (7g, 10f)
    )
    tiles = ["double", "cards2", "points2", "any", "cards3"]
    for row, code in enumerate(tiles):
        state.bonus[bonus_field(5, row)] = TILE_INDEX[code]
    hand(state, GREEN, "B")
    return state


def test_rulebook_scoring_example_rock_points_and_all_five_bonus_rows() -> None:
    state = rulebook_example()
    events = state.apply(GREEN, "place 6g B")  # green fills the first column: scoring at once
    assert state.points == [5, 2, 0, 8]  # green 8; red beats yellow (lower gem) 5 vs 2; purple 0
    rock = next(e for e in events if e.kind == "rock")
    assert rock.public["awards"] == [[GREEN, 8], [RED, 5], [YELLOW, 2]]
    handed = {e.public["row"]: e.public["seat"] for e in events if e.kind == "bonus-tile"}
    assert handed == {1: PURPLE, 2: None, 3: YELLOW, 4: GREEN, 5: GREEN}
    assert state.tiles[PURPLE][TILE_INDEX["double"]] == 1
    assert state.removed_tiles[TILE_INDEX["cards2"]] == 1  # row 2: no gem, the tile leaves the game
    assert state.tiles[YELLOW][TILE_INDEX["points2"]] == 1
    assert state.tiles[GREEN][TILE_INDEX["any"]] == 1 and state.tiles[GREEN][TILE_INDEX["cards3"]] == 1
    assert state.frame == 6  # the frame moved on and the next bonus column is face up
    assert state.view(None)["bonus_fields"][bonus_field(6, 0)] not in ("light", "dark", None)


def test_after_scoring_the_water_box_passes_counter_clockwise_and_the_gem_box_clockwise() -> None:
    state = rulebook_example()
    state.apply(GREEN, "place 6g B")
    assert state.water_holder == GREEN  # from red (seat 0) counter-clockwise to seat 3
    assert state.current == GREEN and state.phase == END_OF_TURN  # green just won usable tiles
    state.apply(GREEN, "end")
    assert state.current == RED


def test_at_least_one_player_scores_nothing_and_players_without_gems_score_nothing() -> None:
    state = new(2)
    state.water_holder = 0
    put(state, **{"1a": RED, "1b": RED, "1c": YELLOW, "1d": "water", "1e": "water", "1f": "water"})
    hand(state, RED, "W")
    state.apply(RED, "place 1g W")
    assert state.points == [3, 0]  # 2 players: one value per rock; yellow has a gem and gets nothing


def test_faq_all_tied_the_lowest_gem_ranks_first() -> None:
    state = new(4)
    state.water_holder = 1
    put(state, **{"1a": GREEN, "1b": YELLOW, "1c": PURPLE, "1d": "water", "1e": "water", "1f": "water"})
    hand(state, RED, "W")
    state.apply(RED, "place 1g W")  # one gem each: red lowest, then purple, yellow, green
    assert state.points == [3, 1, 2, 0]


def test_the_water_box_holder_who_fills_the_column_with_a_gem_drops_no_water() -> None:
    state = new(3)
    assert state.water_holder == 2
    state.current = 2
    put(state, **{"1a": "water", "1b": "water", "1c": "water", "1d": RED, "1e": RED, "1f": YELLOW})
    hand(state, 2, "W")
    drops = state.drops
    state.apply(2, "place 1g W")
    assert state.frame == 1 and state.drops == drops  # scored, no drop in the new first column
    assert column_free(state, 2) == list(range(7, 14))
    assert state.water_holder == 1 and state.current == RED


def test_a_water_drop_that_fills_the_column_scores_it_and_ends_the_turn() -> None:
    state = new(2)
    state.water_holder = RED
    put(state, **{"1b": RED, "1c": RED, "1d": YELLOW, "1e": YELLOW, "1f": YELLOW, "1g": RED})
    state.apply(RED, "draw")
    assert state.slots[slot("1a")] == WATER
    assert state.points == [3, 0] and state.frame == 1
    assert state.water_holder == YELLOW and state.current == YELLOW


def test_cascade_a_full_next_column_is_scored_at_once_and_the_boxes_pass_once() -> None:
    state = new(2)
    state.water_holder = RED
    column2 = {f"2{h}": (RED if h in "ab" else "water") for h in "abcdefg"}
    put(state, **{"1a": YELLOW, "1b": YELLOW, "1c": "water", "1d": "water", "1e": "water", "1f": "water"})
    put(state, **column2)
    hand(state, YELLOW, "W")
    state.current = YELLOW
    state.apply(YELLOW, "place 1g W")
    assert state.frame == 2  # columns 1 and 2 both scored
    assert state.points == [4, 3]
    assert state.water_holder == YELLOW  # passed once, counter-clockwise
    assert state.current == RED


def test_the_gem_box_holder_may_still_play_a_double_turn_after_the_scoring() -> None:
    state = new(2)
    state.water_holder = YELLOW
    put(state, **{"1a": "water", "1b": "water", "1c": "water", "1d": "water", "1e": "water", "1f": "water"})
    give_tile(state, RED, "double")
    hand(state, RED, "WW")
    state.apply(RED, "place 1g W")
    assert state.frame == 1 and state.current == RED and state.phase == END_OF_TURN
    state.apply(RED, "bonus double")
    state.apply(RED, "place 2b W")  # the new first column is board column 2
    assert state.slots[slot("2b")] == RED and state.current == YELLOW


def test_a_scoring_only_happens_when_the_first_column_is_full() -> None:
    state = new(2)
    put(state, **{f"2{h}": RED for h in "abcdef"})
    hand(state, YELLOW, "WW")
    state.current = YELLOW
    state.apply(YELLOW, "place 2g WW")  # column 2 full, column 1 not: no scoring yet
    assert state.frame == 0 and state.points == [0, 0]


# -- end of the game ("Einde van het spel") ---------------------------------------------------------
def test_scoring_of_the_third_to_last_rock_ends_the_game_then_the_last_two_rocks_and_the_tiles() -> None:
    state = new(3)
    state.frame = 8  # the frame's first column is board column 9, the third-to-last rock
    state.water_holder = 0
    for row in range(5):
        state.bonus[bonus_field(8, row)] = TILE_INDEX["cards4"]  # no points among the last tiles
    put(state, **{"9a": RED, "9b": RED, "9c": YELLOW, "9d": "water", "9e": "water", "9f": "water"})
    put(state, **{"10a": YELLOW, "11a": PURPLE, "11b": PURPLE, "11c": YELLOW})  # 10 and 11 not full
    give_tile(state, PURPLE, "points5")
    give_tile(state, YELLOW, "double")  # unused tiles are worth nothing
    hand(state, RED, "B")
    state.apply(RED, "place 9g B")
    assert state.phase == OVER and state.seats_to_act() == ()
    # rock 9 (11/5): red 11, yellow 5; rock 10 (12/6): yellow 12; rock 11 (13/6): purple 13, yellow 6;
    # then purple's points tile: 5
    assert state.points == [11, 5 + 12 + 6, 13 + 5]
    assert state.winners() == [YELLOW]
    assert state.bonus[bonus_field(8, 0)] == -1  # the last interim scoring still handed out its tiles


def test_most_points_wins_and_ties_share_the_win() -> None:
    state = new(3)
    state.phase = OVER
    state.points = [40, 52, 52]
    assert state.winners() == [1, 2]


def test_faq_scores_beyond_80_keep_counting() -> None:
    state = new(2)
    state.points = [79, 0]
    state.frame, state.water_holder = 8, 0
    for row in range(5):
        state.bonus[bonus_field(8, row)] = TILE_INDEX["cards4"]
    put(state, **{f"9{h}": RED for h in "abcdef"})
    hand(state, RED, "B")
    state.apply(RED, "place 9g B")
    assert state.points == [79 + 11, 0]


# -- FAQ: empty boxes ------------------------------------------------------------------------------
def test_faq_an_empty_gem_supply_is_refilled_from_scored_columns() -> None:
    state = new(2)
    state.frame = 1
    put(state, **{"1a": RED, "1b": RED})
    state.supply[RED] = 0
    hand(state, RED, "B")
    state.apply(RED, "place 2a B")
    assert state.supply[RED] == 1  # two gems came back from column 1, one was placed
    assert state.slots[slot("1a")] != RED and state.slots[slot("1b")] != RED
    assert state.slots[slot("2a")] == RED
    state.supply[YELLOW] = 0  # yellow has no gems anywhere under the water: no placement possible
    hand(state, YELLOW, "BBBBB")
    assert not any(t.startswith("place") for t in texts(state, YELLOW))


def test_faq_an_empty_water_box_is_refilled_from_scored_columns() -> None:
    state = new(2)
    state.frame = 1
    put(state, **{"1a": "water", "1b": "water"})
    state.drops = 0
    state.water_holder = RED
    state.apply(RED, "draw")
    assert state.slots[slot("2a")] == WATER
    assert state.drops == 1


# -- refusals ---------------------------------------------------------------------------------------
def test_refusals_name_the_rule_and_change_nothing() -> None:
    state = new()
    hand(state, RED, "WWWBBB")
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="outside the water frame"):
        state.apply(RED, "place 7a B")
    with pytest.raises(IllegalActionError, match="costs 2"):
        state.apply(RED, "place 2c B")
    with pytest.raises(IllegalActionError, match="no cards3"):
        state.apply(RED, "bonus cards3")
    with pytest.raises(IllegalActionError, match="action first"):
        state.apply(RED, "end")
    with pytest.raises(NotationError, match="slot"):
        state.apply(RED, "place 99z W")
    with pytest.raises(NotationError):
        state.apply(RED, "fly away")
    assert state.to_json() == before
