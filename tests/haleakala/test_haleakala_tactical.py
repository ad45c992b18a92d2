"""The tactical variant ("Taktische Variante"): lava discs summon the lava."""

from __future__ import annotations

import pytest
from haleakala_scenario import RED, YELLOW, act, disc, new, put_card, seg, texts, turn

from spieltafel.core import IllegalActionError
from spieltafel.games.haleakala.components import LAVA_DISC
from spieltafel.games.haleakala.rules import BOX, PRIESTESS, SHELL_BUY, SUPPLY, TURN


def test_rule_example_lava_disc_summons_a_chip() -> None:
    """"Gelb setzt die 2 und seine Lavascheibe ein. Das Fischerboot fährt 2 Felder weiter, auf den
    Vulkan wird ein Lava-Chip gelegt."."""
    s = new("tactical")
    turn(s, YELLOW)
    assert "place 2 b1 lava" in texts(s, YELLOW)
    act(s, YELLOW, "place 2 b1 lava")
    assert s.boat == seg(3) and s.craters == [0, 0, 1, 0, 0, 0]
    assert s.discs[YELLOW][1] == seg(1) and s.discs[YELLOW][LAVA_DISC] == seg(1)


def test_lava_disc_only_with_a_number_disc_at_the_boat() -> None:
    s = new("tactical")
    lava = [t for t in texts(s, RED) if t.endswith("lava")]
    assert lava == [f"place {v} b1 lava" for v in range(1, 6)]
    with pytest.raises(IllegalActionError, match="only with a number disc onto the beach where the boat lies"):
        s.apply(RED, "place 2 b3 lava")
    basic = new("basic")
    with pytest.raises(IllegalActionError, match="only in the tactical variant"):
        basic.apply(RED, "place 2 b1 lava")
    assert basic.discs[RED][LAVA_DISC] == BOX


def test_chip_lies_before_the_cards_are_handed_out() -> None:
    """"... wird ein Lava-Chip auf das Kraterfeld gelegt und zwar noch bevor die Karten dieses Segmentes
    vergeben werden." — so the Priestess won there can already move it."""
    s = new("tactical")
    put_card(s, "3a", "priestess")
    put_card(s, "3b", "fish1")
    disc(s, YELLOW, 1, 3)
    act(s, RED, "place 2 b1 lava")
    act(s, YELLOW, "card 3a")
    assert s.phase == PRIESTESS and texts(s, YELLOW) == ["priestess c3 c4", "priestess c3 c2"]


def test_at_most_four_chips() -> None:
    """"Sind alle 4 Lava-Chips auf dem Spielplan, kann in dieser Spielrunde kein weiterer Lava-Chip mehr
    platziert werden."."""
    s = new("tactical")
    s.craters = [1, 1, 1, 1, 0, 0]
    act(s, RED, "place 4 b1 lava")
    assert s.craters == [1, 1, 1, 1, 0, 0]


def test_lava_disc_returns_when_the_boat_lands_on_its_segment() -> None:
    s = new("tactical")
    act(s, RED, "place 2 b1 lava")  # boat to 3, lava disc on beach 1
    turn(s, RED)
    act(s, RED, "place 4 b3")  # boat to 1
    assert s.boat == seg(1) and s.discs[RED][LAVA_DISC] == SUPPLY


def test_lava_disc_returns_with_a_priestess_card() -> None:
    """"Der Spieler führt die Aktion der Lava-Priesterin aus und nimmt zusätzlich noch seine Lavascheibe
    zurück."."""
    s = new("tactical")
    act(s, RED, "place 1 b1 lava")  # boat to 2, a chip on crater 2
    put_card(s, "4a", "priestess")
    put_card(s, "4b", "statue")
    disc(s, RED, 3, 4)
    turn(s, RED)
    act(s, RED, "place 2 b2")  # boat to 4
    act(s, RED, "card 4a")
    assert s.discs[RED][LAVA_DISC] == SUPPLY and s.phase == PRIESTESS
    act(s, RED, "priestess c2 c1")
    assert s.craters == [1, 0, 0, 0, 0, 0] and s.phase == TURN


def test_lava_disc_returns_with_the_board_priestess() -> None:
    s = new("tactical")
    act(s, RED, "place 1 b1 lava")
    put_card(s, "4a", "shell")
    put_card(s, "4b", "shell")
    disc(s, RED, 3, 4)
    turn(s, RED)
    act(s, RED, "place 2 b2")
    assert s.phase == SHELL_BUY
    act(s, RED, "buy priestess")
    assert s.discs[RED][LAVA_DISC] == SUPPLY and s.phase == PRIESTESS


def test_lava_disc_is_not_taken_back_like_a_number_disc() -> None:
    s = new("tactical")
    act(s, RED, "place 1 b1 lava")
    turn(s, RED)
    assert not any("lava" in t for t in texts(s, RED))  # it lies out: neither placed nor taken
    assert [t for t in texts(s, RED) if t.startswith("take")] == ["take 1 b1"]
    act(s, RED, "take 1 b1")
    assert s.discs[RED][LAVA_DISC] == seg(1)


def test_boat_action_ignores_the_lava_disc() -> None:
    """Action 3 needs all number discs out; the lava disc in the supply does not count."""
    s = new("tactical")
    for value in range(1, 6):
        disc(s, RED, value, value + 1 if value < 5 else 6)
    assert texts(s, RED)[-1] == "boat" and s.discs[RED][LAVA_DISC] == SUPPLY
    assert s.phase == TURN
