"""Set-up ("Spielaufbau") and the three turn actions ("Der Spielzug")."""

from __future__ import annotations

import pytest
from haleakala_scenario import RED, YELLOW, act, at, disc, kind_of, new, put_card, seg, texts, turn

from spieltafel.core import IllegalActionError, OptionError, PlayerCountError, get_game
from spieltafel.games.haleakala.rules import BOX, SHAMAN, SUPPLY, TURN


# -- set-up -----------------------------------------------------------------------------------------
def test_setup_basic() -> None:
    s = new("basic", seed=7)
    assert s.shamans == [at("b2"), at("b5")]  # the two opposite hut beaches
    assert (s.shamans[1] - s.shamans[0]) // 5 == 3
    assert s.boat == seg(1)  # the jetty beach, a third segment
    assert s.seats_to_act() == (0,) and s.current == 0  # seat 0 is the start player
    assert s.discs == [[SUPPLY] * 5 + [BOX], [SUPPLY] * 5 + [BOX]]  # lava discs stay in the box
    assert s.statue_supply == [8, 8]
    assert all(s.bays[b] >= 0 and s.bays[b] < 15 for b in range(12))  # 12 one-palm cards, face up
    assert [len(d) for d in s.decks] == [3, 12, 15]
    assert s.scoring_owner == [-1] * 5 and s.priestess_up  # scoring cards and Priestess on the board
    assert s.craters == [0] * 6 and s.points == [0, 0]


def test_setup_tactical_removes_the_lava_cards() -> None:
    s = new("tactical", seed=7)
    assert [len(d) for d in s.decks] == [3, 9, 10]
    assert sorted(kind_of(c) for c in s.box) == ["lava"] * 8
    assert all(kind_of(c) != "lava" for d in s.decks for c in d)
    assert s.discs[RED][5] == SUPPLY and s.discs[YELLOW][5] == SUPPLY


def test_setup_depends_on_the_seed_only() -> None:
    assert new(seed=3).to_json() == new(seed=3).to_json()
    assert new(seed=3).bays != new(seed=4).bays or new(seed=3).decks != new(seed=4).decks


def test_players_and_options_are_checked() -> None:
    game = get_game("haleakala")
    with pytest.raises(PlayerCountError):
        game.new_state(3, 0)
    with pytest.raises(OptionError):
        game.new_state(2, 0, {"variant": "chaos"})
    assert game.new_state(2, 0).options == {"variant": "basic", "priestess": "compulsory"}  # issue 9


# -- action 1: place a disc -----------------------------------------------------------------------
def test_rule_example_sums_must_differ() -> None:
    """"Gelb darf auf das Strandfeld keine 3 einsetzen, weil die Summe der roten Scheiben 3 ist.
    Gelb setzt eine 2 ein." (red: 1+2 on the beach)."""
    s = new()
    disc(s, RED, 1, 3)
    disc(s, RED, 2, 3)
    turn(s, YELLOW)
    assert "place 3 b3" not in texts(s, YELLOW)
    with pytest.raises(IllegalActionError, match="sums on a beach must always differ"):
        s.apply(YELLOW, "place 3 b3")
    assert "place 2 b3" in texts(s, YELLOW)
    act(s, YELLOW, "place 2 b3")
    assert s.discs[YELLOW][1] == seg(3)


def test_several_discs_may_lie_on_a_beach() -> None:
    s = new()
    disc(s, RED, 4, 3)
    disc(s, YELLOW, 1, 3)
    disc(s, YELLOW, 5, 3)  # yellow 6 against red 4
    turn(s, RED)
    assert "place 2 b3" not in texts(s, RED)  # 6 against 6
    assert "place 1 b3" in texts(s, RED) and "place 3 b3" in texts(s, RED)


def test_placing_away_from_the_boat_lets_the_shaman_move() -> None:
    s = new()
    act(s, RED, "place 4 b3")
    assert s.phase == SHAMAN and s.seats_to_act() == (RED,) and s.boat == seg(1)
    act(s, RED, "move g2")
    assert s.shamans[RED] == at("g2")
    assert s.phase == TURN and s.seats_to_act() == (YELLOW,)


def test_rule_example_placing_at_the_boat_moves_it() -> None:
    """"Gelb setzt die 2 ein. Das Fischerboot fährt 2 Felder im Uhrzeigersinn weiter."."""
    s = new()
    turn(s, YELLOW)
    act(s, YELLOW, "place 2 b1")
    assert s.boat == seg(3)
    assert s.discs[YELLOW][1] == seg(1)  # the disc stays where the boat was
    assert s.phase == TURN and s.seats_to_act() == (RED,)  # no shaman move after action 1b


def test_boat_moves_clockwise_around_the_ring() -> None:
    s = new()
    s.boat = seg(5)
    act(s, RED, "place 4 b5")
    assert s.boat == seg(3)  # 5 → 6 → 1 → 2 → 3


# -- action 2: take a disc back -------------------------------------------------------------------
def test_take_back_then_move_the_shaman() -> None:
    s = new()
    disc(s, RED, 3, 4)
    act(s, RED, "take 3 b4")
    assert s.discs[RED][2] == SUPPLY and s.phase == SHAMAN
    act(s, RED, "stay")
    assert s.seats_to_act() == (YELLOW,)


def test_take_back_must_keep_the_sums_different() -> None:
    s = new()
    disc(s, RED, 2, 4)
    disc(s, RED, 3, 4)
    disc(s, YELLOW, 3, 4)
    assert "take 2 b4" not in texts(s, RED)  # would leave 3 against 3
    assert "take 3 b4" in texts(s, RED)  # 2 against 3
    with pytest.raises(IllegalActionError, match="must always differ"):
        s.apply(RED, "take 2 b4")


def test_take_back_the_last_disc_of_a_beach_is_fine() -> None:
    s = new()
    disc(s, RED, 2, 4)
    assert "take 2 b4" in texts(s, RED)


# -- action 3: move the boat ----------------------------------------------------------------------
def test_boat_action_only_when_all_discs_are_out() -> None:
    s = new()
    for value, beach in zip(range(1, 5), (2, 3, 4, 5), strict=True):
        disc(s, RED, value, beach)
    assert "boat" not in texts(s, RED)
    with pytest.raises(IllegalActionError, match="only when all your number discs are out"):
        s.apply(RED, "boat")
    disc(s, RED, 5, 6)
    assert texts(s, RED)[-1] == "boat" and not any(t.startswith("place") for t in texts(s, RED))
    act(s, RED, "boat")
    assert s.boat == seg(2)


def test_a_turn_action_is_always_available() -> None:
    s = new()
    put_card(s, "2a", "fish1")
    for value in range(1, 6):
        disc(s, YELLOW, value, value)  # yellow on five beaches
    assert any(t.startswith("place") for t in texts(s, RED))


def test_legal_action_counts_of_fixed_positions() -> None:
    """Perft-style pins: the number of legal actions in known positions."""
    assert len(new("basic").legal_actions(RED)) == 30  # 5 discs × 6 beaches
    assert len(new("tactical").legal_actions(RED)) == 35  # + 5 ways to add the lava disc at the boat
    s = new()
    act(s, RED, "place 5 b4")
    assert texts(s, RED) == ["move g1", "stay", "move g2", "move g3"]
    act(s, RED, "move g2")
    assert len(s.legal_actions(YELLOW)) == 29  # yellow may not put a 5 on beach 4
    assert new("basic").legal_actions(YELLOW) == []  # not yellow's turn
