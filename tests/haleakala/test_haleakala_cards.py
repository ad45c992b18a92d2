"""Card distribution ("Karten vergeben"), refilling ("Palmen-Karten nachlegen") and the card effects."""

from __future__ import annotations

import pytest
from haleakala_scenario import (
    RED,
    YELLOW,
    act,
    at,
    bay_card,
    disc,
    empty_bay,
    kind_of,
    new,
    put_card,
    seg,
    shaman,
    stack_deck,
    statue,
    texts,
    turn,
)

from spieltafel.core import IllegalActionError
from spieltafel.games.haleakala.rules import CHOOSE, PRIESTESS, SHELL_BUY, SUPPLY, TURN
from spieltafel.games.haleakala.state import HaleakalaState


def landing_on_3(s: HaleakalaState, seat: int = RED) -> list[dict[str, object]]:
    """``seat`` places its 2 where the boat lies (segment 1): the boat sails to segment 3."""
    turn(s, seat)
    s.boat = seg(1)
    return act(s, seat, "place 2 b1")


# -- distribution ---------------------------------------------------------------------------------
def test_rule_example_higher_sum_chooses_first() -> None:
    """"Gelb nimmt sich zuerst eine Karte, weil seine Summe höher ist als die von Rot. Nachdem Rot
    sich die andere Karte genommen hat, nehmen beide ihre Zahlenscheiben zurück."."""
    s = new()
    fish = put_card(s, "3a", "fish2")
    pearl = put_card(s, "3b", "white-pearl")
    disc(s, YELLOW, 5, 3)
    disc(s, RED, 4, 3)
    landing_on_3(s, RED)
    assert s.phase == CHOOSE and s.seats_to_act() == (YELLOW,)
    assert texts(s, YELLOW) == ["card 3a fish2", "card 3b white-pearl"]
    act(s, YELLOW, "card 3b")
    assert s.collected[YELLOW] == [pearl] and s.collected[RED] == [fish]
    assert s.discs[YELLOW][4] == SUPPLY and s.discs[RED][3] == SUPPLY  # both discs go home
    assert s.discs[RED][1] == seg(1)  # the disc that moved the boat stays on beach 1
    assert bay_card(s, "3a") >= 0 and bay_card(s, "3b") >= 0  # refilled
    assert s.phase == TURN and s.seats_to_act() == (YELLOW,)


def test_identical_cards_go_only_to_the_higher_sum() -> None:
    """"Liegen zwei genau gleiche Karten vor dem Strandfeld bekommt nur der Spieler mit der höheren
    Summe eine Karte."."""
    s = new()
    put_card(s, "3a", "fish1")
    put_card(s, "3b", "fish1")
    disc(s, RED, 1, 3)
    disc(s, YELLOW, 3, 3)
    landing_on_3(s, RED)
    assert [kind_of(c) for c in s.collected[YELLOW]] == ["fish1"]
    assert s.collected[RED] == []
    assert kind_of(bay_card(s, "3b")) == "fish1"  # the other stays
    assert s.discs[RED][0] == SUPPLY and s.discs[YELLOW][2] == SUPPLY  # red's disc goes home too


def test_a_lone_player_takes_one_card() -> None:
    s = new()
    put_card(s, "3a", "statue")
    put_card(s, "3b", "shell")
    disc(s, YELLOW, 1, 3)
    landing_on_3(s, RED)
    assert s.phase == CHOOSE and s.seats_to_act() == (YELLOW,)
    act(s, YELLOW, "card 3a")
    assert kind_of(bay_card(s, "3b")) == "shell"  # the other card stays
    assert s.seats_to_act() == (YELLOW,) and s.phase == TURN


def test_no_discs_no_cards() -> None:
    s = new()
    before = [bay_card(s, "3a"), bay_card(s, "3b")]
    landing_on_3(s, RED)
    assert [bay_card(s, "3a"), bay_card(s, "3b")] == before
    assert s.collected == [[], []] and s.shells == [[], []] and s.discard == []


def test_cards_cannot_be_refused() -> None:
    s = new()
    put_card(s, "3a", "statue")
    put_card(s, "3b", "priestess")
    disc(s, YELLOW, 1, 3)
    landing_on_3(s, RED)
    assert texts(s, YELLOW) == ["card 3a statue", "card 3b priestess"]  # no "pass"
    with pytest.raises(IllegalActionError, match="choose one of the two cards"):
        s.apply(YELLOW, "pass")


def test_a_statue_card_is_taken_even_when_it_cannot_be_built() -> None:
    """"Auch wenn die Aktion auf einer Karte nicht ausgeführt werden kann, so muss sie dennoch
    genommen (und abgelegt) werden." — the shaman is still on its beach."""
    s = new()
    card = put_card(s, "3a", "statue")
    put_card(s, "3b", "statue")
    disc(s, YELLOW, 1, 3)
    events = landing_on_3(s, RED)
    assert s.discard == [card] and s.statue_supply[YELLOW] == 8
    assert {"kind": "statue-lost", "seat": YELLOW, "field": "b5"} in events


def test_action_cards_run_in_the_order_taken() -> None:
    """"Führen beide Spieler eine Karte aus, wird dies in der gleichen Reihenfolge getan, in der die
    Karten genommen wurden." — yellow's Priestess is decided before red's statue is built."""
    s = new()
    put_card(s, "3a", "statue")
    put_card(s, "3b", "priestess")
    s.craters[seg(4)] = 1
    shaman(s, RED, "g3")
    disc(s, YELLOW, 5, 3)
    disc(s, RED, 3, 3)
    landing_on_3(s, RED)
    act(s, YELLOW, "card 3b")
    assert s.phase == PRIESTESS and s.seats_to_act() == (YELLOW,)
    assert s.statues[at("g3")] == -1  # red's statue waits for yellow's Priestess
    act(s, YELLOW, "priestess c4 c5")
    assert s.statues[at("g3")] == RED and s.craters[seg(5)] == 1


# -- refilling ------------------------------------------------------------------------------------
def test_bays_refill_from_one_palm_then_two_palm() -> None:
    s = new()
    put_card(s, "3a", "fish2")
    put_card(s, "3b", "white-pearl")
    assert len(s.decks[0]) == 3
    s.decks[1].extend(s.decks[0][:2])  # leave one one-palm card (two-palm deck now holds 14)
    del s.decks[0][:2]
    one = s.decks[0][-1]
    two = s.decks[1][-1]
    disc(s, YELLOW, 5, 3)
    disc(s, RED, 4, 3)
    landing_on_3(s, RED)
    act(s, YELLOW, "card 3a")
    assert [bay_card(s, "3a"), bay_card(s, "3b")] == [one, two]


def test_lava_card_puts_a_chip_and_is_replaced_repeatedly() -> None:
    """Rule example "Eine Lava-Karte wird gezogen. Ein Lava-Chip wird auf das Kraterfeld dieses Segmentes
    gelegt." and "Dafür wird eine neue Palmenkarte gezogen. Dies kann auch mehrfach passieren ... Mehrere
    Lava-Chips auf einem Kraterfeld werden gestapelt."."""
    s = new()
    put_card(s, "3a", "fish1")
    put_card(s, "3b", "fish1")
    s.discard.extend(s.decks[0])
    s.decks[0].clear()
    stack_deck(s, 2, ["lava", "lava", "statue"])
    disc(s, YELLOW, 1, 3)
    events = landing_on_3(s, RED)
    assert s.craters == [0, 0, 2, 0, 0, 0]  # two chips stacked on segment 3's crater
    assert kind_of(bay_card(s, "3a")) == "statue"
    assert [kind_of(c) for c in s.discard[-2:]] == ["lava", "lava"]
    assert sum(1 for e in events if e["kind"] == "lava-chip") == 2


def test_no_fifth_chip_from_a_lava_card() -> None:
    s = new()
    s.craters = [1, 1, 1, 1, 0, 0]
    put_card(s, "3a", "fish1")
    put_card(s, "3b", "fish1")
    empty_one_palm(s)
    stack_deck(s, 2, ["lava", "shell"])
    disc(s, YELLOW, 1, 3)
    landing_on_3(s, RED)
    assert s.craters == [1, 1, 1, 1, 0, 0] and kind_of(bay_card(s, "3a")) == "shell"


def empty_one_palm(s: HaleakalaState) -> None:
    s.discard.extend(s.decks[0])
    s.decks[0].clear()


# -- card effects ---------------------------------------------------------------------------------
def test_rule_example_statue_built_where_the_shaman_stands() -> None:
    """"Gelb baut eine Statue. Er stellt sie zu seinem Schamanen und nimmt die Karte aus dem Spiel."."""
    s = new()
    card = put_card(s, "3a", "statue")
    put_card(s, "3b", "statue")
    shaman(s, YELLOW, "f4")
    disc(s, YELLOW, 1, 3)
    landing_on_3(s, RED)
    assert s.statues[at("f4")] == YELLOW and s.statue_supply[YELLOW] == 7
    assert s.shamans[YELLOW] == at("f4") and s.discard == [card]


def test_one_statue_per_field() -> None:
    s = new()
    put_card(s, "3a", "statue")
    put_card(s, "3b", "statue")
    statue(s, RED, "f4")
    shaman(s, YELLOW, "f4")
    disc(s, YELLOW, 1, 3)
    landing_on_3(s, RED)
    assert s.statues[at("f4")] == RED and s.statue_supply == [7, 8]


def test_rule_example_priestess_moves_a_chip_left_or_right() -> None:
    """"Der Lava-Chip darf nach rechts oder links versetzt werden." — not across the volcano."""
    s = new()
    put_card(s, "3a", "priestess")
    put_card(s, "3b", "fish1")
    s.craters[seg(1)] = 2
    disc(s, YELLOW, 1, 3)
    landing_on_3(s, RED)
    act(s, YELLOW, "card 3a")
    assert texts(s, YELLOW) == ["priestess c1 c2", "priestess c1 c6"]
    with pytest.raises(IllegalActionError, match="never across"):
        s.parse_action(YELLOW, "priestess c1 c4")
    act(s, YELLOW, "priestess c1 c6")
    assert s.craters == [1, 0, 0, 0, 0, 1]


def test_priestess_without_chips_is_lost() -> None:
    s = new()
    card = put_card(s, "3a", "priestess")
    put_card(s, "3b", "priestess")
    disc(s, YELLOW, 1, 3)
    landing_on_3(s, RED)
    assert s.discard == [card] and s.phase == TURN


def give_shell(s: HaleakalaState, saved: int = 0) -> None:
    """Yellow, holding ``saved`` shells, receives a shell at segment 3."""
    for _ in range(saved):
        s.shells[YELLOW].append(s.decks[2].pop(next(i for i, c in enumerate(s.decks[2]) if kind_of(c) == "shell")))
    put_card(s, "3a", "shell")
    put_card(s, "3b", "shell")
    disc(s, YELLOW, 1, 3)
    landing_on_3(s, RED)


def test_shell_buys_only_one_shell_cards_without_savings() -> None:
    s = new()
    give_shell(s)
    assert s.phase == SHELL_BUY and s.seats_to_act() == (YELLOW,)
    assert texts(s, YELLOW) == ["buy butterflies", "buy majority", "buy segment", "buy priestess", "pass"]
    act(s, YELLOW, "buy majority")
    assert s.scoring_owner == [-1, YELLOW, -1, -1, -1] and s.shells[YELLOW] == []
    assert kind_of(s.discard[-1]) == "shell"


def test_two_shell_cards_need_a_saved_shell() -> None:
    s = new()
    give_shell(s, saved=1)
    assert "buy mountain" in texts(s, YELLOW) and "buy forest" in texts(s, YELLOW)
    act(s, YELLOW, "buy mountain")
    assert s.scoring_owner[4] == YELLOW and s.shells[YELLOW] == []


def test_shells_can_be_saved() -> None:
    s = new()
    give_shell(s)
    act(s, YELLOW, "pass")
    assert len(s.shells[YELLOW]) == 1 and s.phase == TURN
    turn(s, YELLOW)
    assert not any(t.startswith("buy") for t in texts(s, YELLOW))  # buying only right after receiving


def test_board_priestess_is_used_at_once_and_turned_over() -> None:
    s = new()
    s.craters[seg(2)] = 1
    give_shell(s)
    act(s, YELLOW, "buy priestess")
    assert s.phase == PRIESTESS and not s.priestess_up
    act(s, YELLOW, "priestess c2 c3")
    assert s.craters[seg(3)] == 1
    s2 = new()
    s2.priestess_up = False
    give_shell(s2)
    assert "buy priestess" not in texts(s2, YELLOW)


def test_board_priestess_may_be_bought_without_chips() -> None:
    """"Man darf die Lava-Priesterin auch kaufen, wenn man die Aktion nicht ausführen kann"."""
    s = new()
    give_shell(s)
    act(s, YELLOW, "buy priestess")
    assert not s.priestess_up and s.phase == TURN


def test_beach_cards_are_collected() -> None:
    s = new()
    put_card(s, "3a", "nautilus")
    put_card(s, "3b", "black-pearl")
    disc(s, YELLOW, 2, 3)
    disc(s, RED, 1, 3)
    landing_on_3(s, RED)
    act(s, YELLOW, "card 3a")
    assert [kind_of(c) for c in s.collected[YELLOW]] == ["nautilus"]
    assert [kind_of(c) for c in s.collected[RED]] == ["black-pearl"]


def test_naming_the_wrong_card_is_refused() -> None:
    s = new()
    put_card(s, "3a", "statue")
    with pytest.raises(IllegalActionError, match="bay 3a holds statue"):
        s.parse_action(RED, "card 3a nautilus")


def test_only_one_card_in_the_segment_goes_to_the_higher_sum() -> None:
    """"Der andere Spieler nimmt sich dann die andere Karte falls er auch eine Zahlenscheibe in diesem
    Segment liegen hat." — with a single card left (decks used up) there is no other card."""
    s = new()
    put_card(s, "3a", "fish2")
    empty_bay(s, "3b")
    for palms in (1, 2, 3):
        s.discard.extend(s.decks[palms - 1])
        s.decks[palms - 1].clear()
    s.round = 2
    disc(s, YELLOW, 5, 3)
    disc(s, RED, 4, 3)
    landing_on_3(s, RED)
    assert [kind_of(c) for c in s.collected[YELLOW]] == ["fish2"] and s.collected[RED] == []
    assert s.discs[RED][3] == SUPPLY and s.phase == TURN  # red's disc goes home all the same


def test_a_statue_card_is_lost_without_a_statue_in_the_supply() -> None:
    """"Der Spieler nimmt eine seiner Statuen und stellt sie auf das Feld." — with all 8 on the island
    there is none to take: the card is discarded, nothing is built."""
    s = new()
    for name in ("g1", "f1", "m1", "g2", "f2", "m2", "g3", "m3"):
        statue(s, YELLOW, name)
    card = put_card(s, "3a", "statue")
    put_card(s, "3b", "statue")
    shaman(s, YELLOW, "f4")
    disc(s, YELLOW, 1, 3)
    events = landing_on_3(s, RED)
    assert s.statues[at("f4")] == -1 and s.statue_supply[YELLOW] == 0 and s.discard == [card]
    assert {"kind": "statue-lost", "seat": YELLOW, "field": "f4"} in events


PALM_CARD_RULE = (
    "Die Karten »Bau einer Statue« und »Lava-Priesterin« sind Aktionskarten, die sofort ausgeführt werden "
    "müssen. Falls das nicht möglich ist, verfällt die Aktion."
)
BOARD_PRIESTESS_RULE = "Man darf die Lava-Priesterin auch kaufen, wenn man die Aktion nicht ausführen kann oder will."


def priestess_card_received(priestess: str | None = None) -> HaleakalaState:
    """Yellow has just taken a Lava Priestess palm card at segment 3; a chip lies on crater 1."""
    s = new(priestess=priestess)
    put_card(s, "3a", "priestess")
    put_card(s, "3b", "fish1")
    s.craters[seg(1)] = 1
    disc(s, YELLOW, 1, 3)
    landing_on_3(s, RED)
    act(s, YELLOW, "card 3a")
    return s


def test_priestess_palm_card_is_compulsory_by_default() -> None:
    """Decision 13 (issue 9): "Die Karten »Bau einer Statue« und »Lava-Priesterin« sind Aktionskarten,
    die sofort ausgeführt werden müssen. Falls das nicht möglich ist, verfällt die Aktion." — by default
    the card's receiver must move a chip while one lies on a crater; there is no pass."""
    assert new().options["priestess"] == "compulsory"
    s = priestess_card_received()
    assert s.phase == PRIESTESS and texts(s, YELLOW) == ["priestess c1 c2", "priestess c1 c6"]
    assert s.view(None)["pending"]["priestess_may_pass"] is False
    with pytest.raises(IllegalActionError, match="must be carried out"):
        s.apply(YELLOW, "pass")
    act(s, YELLOW, "priestess c1 c2")
    assert s.craters == [0, 1, 0, 0, 0, 0] and s.phase == TURN


def test_priestess_palm_card_may_be_passed_under_the_option() -> None:
    """Option ``priestess=optional``: the card's own text "Der Spieler darf einen ausliegenden Lava-Chip
    ... versetzen" read as a permission — the receiver may pass and the chip stays."""
    s = priestess_card_received("optional")
    assert texts(s, YELLOW) == ["priestess c1 c2", "priestess c1 c6", "pass"]
    assert s.view(None)["pending"]["priestess_may_pass"] is True
    act(s, YELLOW, "pass")
    assert s.craters == [1, 0, 0, 0, 0, 0] and s.phase == TURN


@pytest.mark.parametrize("priestess", ["compulsory", "optional"])
def test_board_priestess_stays_optional_under_either_option(priestess: str) -> None:
    """The scoring board's exception: "Man darf die Lava-Priesterin auch kaufen, wenn man die Aktion
    nicht ausführen kann oder will." — bought from the board she may be passed, whatever the option."""
    s = new(priestess=priestess)
    s.craters[seg(2)] = 1
    give_shell(s)
    act(s, YELLOW, "buy priestess")
    assert s.phase == PRIESTESS and texts(s, YELLOW)[-1] == "pass"
    act(s, YELLOW, "pass")
    assert s.craters[seg(2)] == 1 and s.phase == TURN


def test_scenario_palm_card_must_board_priestess_may() -> None:
    """Issue 9's reading, both passages in one game: the palm card's rule (PALM_CARD_RULE) has no
    exception, the board's Priestess has one (BOARD_PRIESTESS_RULE) — which only makes sense if the
    palm card must be carried out. Yellow first gets the palm card (must move the chip), then buys the
    board's Priestess with a shell (may pass); without any chip the palm card is simply lost."""
    assert "müssen" in PALM_CARD_RULE and "oder will" in BOARD_PRIESTESS_RULE
    s = priestess_card_received()
    assert "pass" not in texts(s, YELLOW)
    act(s, YELLOW, "priestess c1 c6")
    assert s.craters == [0, 0, 0, 0, 0, 1]
    disc(s, RED, 2, None)  # red's 2 from the first landing back in the supply
    give_shell(s)
    act(s, YELLOW, "buy priestess")
    assert texts(s, YELLOW) == ["priestess c6 c1", "priestess c6 c5", "pass"]
    act(s, YELLOW, "pass")
    assert s.craters == [0, 0, 0, 0, 0, 1] and s.phase == TURN
    lost = new()
    card = put_card(lost, "3a", "priestess")
    put_card(lost, "3b", "fish1")
    disc(lost, YELLOW, 1, 3)
    landing_on_3(lost, RED)
    act(lost, YELLOW, "card 3a")
    assert lost.phase == TURN and card in lost.discard  # "Falls das nicht möglich ist, verfällt die Aktion."


def test_lava_card_draw_is_reported_before_its_chip() -> None:
    s = new()
    put_card(s, "3a", "fish1")
    put_card(s, "3b", "fish1")
    empty_one_palm(s)
    stack_deck(s, 2, ["lava", "statue"])
    disc(s, YELLOW, 1, 3)
    kinds = [e["kind"] for e in landing_on_3(s, RED)]
    assert kinds[kinds.index("draw") : kinds.index("draw") + 3] == ["draw", "lava-chip", "draw"]
