"""Scorings ("Wertungen"), the eruption, points ("Punktevergabe") and the winner."""

from __future__ import annotations

from haleakala_scenario import (
    RED,
    YELLOW,
    act,
    at,
    bay_card,
    disc,
    empty_bay,
    empty_deck,
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

from spieltafel.games.haleakala import rules
from spieltafel.games.haleakala.rules import OVER, SCORING_BUY, TURN, points_of, winners
from spieltafel.games.haleakala.state import HaleakalaState


def take_card(s: HaleakalaState, seat: int, kind: str) -> None:
    """``seat`` has collected a card of ``kind`` (taken from a deck, the discard pile or a bay)."""
    target = s.shells[seat] if kind == "shell" else s.collected[seat]
    for pile in [*s.decks, s.discard]:
        for i, card in enumerate(pile):
            if kind_of(card) == kind:
                target.append(pile.pop(i))
                return
    b = next(b for b, card in enumerate(s.bays) if card >= 0 and kind_of(card) == kind)
    target.append(s.bays[b])
    s.bays[b] = -1


def last_two_palm_position(variant: str = "basic") -> HaleakalaState:
    """The one-palm deck is used up and one two-palm card (a statue) is left; the three-palm deck has
    the nautilus on top. Yellow (5) and red (4) wait on beach 3 for the boat, which red sails there."""
    s = new(variant)
    put_card(s, "3a", "fish2")
    put_card(s, "3b", "white-pearl")
    empty_deck(s, 1)
    stack_deck(s, 2, ["statue"])
    s.discard.extend(s.decks[1][:-1])
    del s.decks[1][:-1]
    stack_deck(s, 3, ["nautilus"])
    disc(s, YELLOW, 5, 3)
    disc(s, RED, 4, 3)
    turn(s, RED)
    return s


def test_scoring_1_when_the_last_two_palm_card_is_laid_out() -> None:
    """"Falls noch ein zweiter Platz frei ist, wird dieser erst aufgefüllt, nachdem die Wertung
    ausgeführt wurde." — the second bay gets a three-palm card after the scoring."""
    s = last_two_palm_position()
    act(s, RED, "place 2 b1")
    act(s, YELLOW, "card 3a")  # yellow fish2 (3 for more baskets), red the white pearl (1)
    assert s.round == 2 and s.round_points == [[1, 3]] and s.points == [1, 3]
    assert kind_of(bay_card(s, "3a")) == "statue"  # the last two-palm card
    assert kind_of(bay_card(s, "3b")) == "nautilus"  # filled after the scoring
    assert s.phase == TURN and s.seats_to_act() == (YELLOW,)


def test_buying_before_scoring_triggering_player_first() -> None:
    """"Der Spieler, der in seinem Zug die Wertung ausgelöst hat, darf zuerst kaufen."."""
    s = last_two_palm_position()
    take_card(s, RED, "shell")
    take_card(s, YELLOW, "shell")
    statue(s, RED, "g1")
    statue(s, YELLOW, "m4")
    act(s, RED, "place 2 b1")
    act(s, YELLOW, "card 3a")
    assert s.phase == SCORING_BUY and s.seats_to_act() == (RED,)
    act(s, RED, "buy butterflies")
    assert s.phase == SCORING_BUY and s.seats_to_act() == (YELLOW,)
    assert "buy butterflies" not in texts(s, YELLOW)
    act(s, YELLOW, "buy majority")
    # red: statue g1 1 + white pearl 1 + butterflies 1 (white pearl); yellow: m4 3 + fish 3 + majority 2 (mountain)
    assert s.round_points == [[3, 8]]
    assert s.scoring_owner == [-1] * 5 and s.priestess_up  # the scoring cards go back
    assert s.shells == [[], []]


def test_tactical_no_buying_before_scoring() -> None:
    s = last_two_palm_position("tactical")
    take_card(s, RED, "shell")
    act(s, RED, "place 2 b1")
    act(s, YELLOW, "card 3a")
    assert s.round == 2 and s.phase == TURN and len(s.shells[RED]) == 1


def test_beach_cards_stay_and_count_again() -> None:
    s = last_two_palm_position()
    act(s, RED, "place 2 b1")
    act(s, YELLOW, "card 3a")
    assert [kind_of(c) for c in s.collected[RED]] == ["white-pearl"]
    assert points_of(s, RED, 2) == 1 and points_of(s, YELLOW, 2) == 3


# -- eruption -------------------------------------------------------------------------------------
def test_rule_example_eruption() -> None:
    """"Die Lava-Chips werden verteilt. Gelb verliert eine Statue auf einem Bergfeld und eine auf
    einem Grasfeld." — shamans are unharmed, the chips are removed."""
    s = new()
    statue(s, YELLOW, "m2")
    statue(s, YELLOW, "g4")
    statue(s, YELLOW, "f5")
    statue(s, RED, "g2")
    s.craters = [0, 1, 0, 3, 0, 0]  # segment 2: one chip, segment 4: three chips
    shaman(s, RED, "f4")
    rules.erupt(s, None)
    assert s.statues[at("m2")] == -1 and s.statues[at("g4")] == -1
    assert s.statues[at("g2")] == RED and s.statues[at("f5")] == YELLOW
    assert s.statue_supply == [7, 7]  # destroyed statues go back to their owner
    assert s.shamans[RED] == at("f4") and s.craters == [0] * 6


def test_one_two_three_four_chips() -> None:
    for chips, hit in ((1, {"m1"}), (2, {"m1", "f1"}), (3, {"m1", "f1", "g1"}), (4, {"m1", "f1", "g1"})):
        s = new()
        for name in ("m1", "f1", "g1", "m2"):
            statue(s, RED, name)
        s.craters[seg(1)] = chips
        rules.erupt(s, None)
        standing = {name for name in ("m1", "f1", "g1", "m2") if s.statues[at(name)] == RED}
        assert standing == {"m1", "f1", "g1", "m2"} - hit


# -- points ---------------------------------------------------------------------------------------
def test_statue_points_by_terrain() -> None:
    s = new()
    statue(s, RED, "m1")
    statue(s, RED, "f2")
    statue(s, RED, "g3")
    assert points_of(s, RED, 1) == 3 + 2 + 1


def test_fish_baskets_majority() -> None:
    s = new()
    take_card(s, RED, "fish1")
    take_card(s, RED, "fish1")
    take_card(s, YELLOW, "fish2")
    assert points_of(s, RED, 1) == 0 and points_of(s, YELLOW, 1) == 0  # 2 baskets each: nobody
    take_card(s, YELLOW, "fish1")
    assert points_of(s, YELLOW, 1) == 3 and points_of(s, RED, 1) == 0


def test_pearls() -> None:
    s = new()
    take_card(s, RED, "white-pearl")
    assert points_of(s, RED, 1) == 1
    take_card(s, YELLOW, "black-pearl")
    assert points_of(s, YELLOW, 1) == 2
    s.collected[RED].append(s.collected[YELLOW].pop())
    assert points_of(s, RED, 1) == 4


def test_nautilus_counts_at_scoring_2_only() -> None:
    s = new()
    take_card(s, RED, "nautilus")
    assert points_of(s, RED, 1) == 0 and points_of(s, RED, 2) == 3


def test_shells_count_at_scoring_2() -> None:
    s = new()
    take_card(s, RED, "shell")
    take_card(s, RED, "shell")
    assert points_of(s, RED, 1) == 0 and points_of(s, RED, 2) == 2


def test_scoring_cards_as_printed() -> None:
    s = new()
    for name in ("g1", "f1", "m1", "m2", "f3"):
        statue(s, RED, name)
    for name in ("g2", "g3", "m4"):
        statue(s, YELLOW, name)
    take_card(s, RED, "fish1")
    take_card(s, RED, "fish4")  # two butterflies; red also wins the fish baskets (3)
    base = 1 + 2 + 3 + 3 + 2 + 3
    expected = {"butterflies": 2, "majority": 4, "segment": 4, "forest": 4, "mountain": 6}
    for card, (code, bonus) in enumerate(expected.items()):
        s.scoring_owner = [-1] * 5
        s.scoring_owner[card] = RED
        assert points_of(s, RED, 1) == base + bonus, code
    # "Eine Statue kann durch verschiedene Wertungskarten auch mehrfach gewertet werden (z.B. durch die
    # Karten »Vollständiges Segment« und »Bergstatuen«)."
    s.scoring_owner = [RED] * 5
    assert points_of(s, RED, 1) == base + sum(expected.values())


# -- scoring 2 and the end ------------------------------------------------------------------------
def test_scoring_2_when_the_boat_reaches_a_segment_without_cards() -> None:
    s = new()
    for palms in (1, 2, 3):
        empty_deck(s, palms)
    s.round = 2
    empty_bay(s, "3a")
    empty_bay(s, "3b")
    statue(s, YELLOW, "m6")
    take_card(s, RED, "shell")  # (taken from the discard pile below)
    turn(s, RED)
    act(s, RED, "place 2 b1")
    assert s.phase == SCORING_BUY and s.seats_to_act() == (RED,)
    act(s, RED, "pass")
    assert s.phase == OVER and s.seats_to_act() == ()
    assert s.points == [1, 3] and winners(s) == [YELLOW]  # red: 1 for the kept shell


def test_scoring_2_needs_the_three_palm_deck_empty() -> None:
    s = new()
    empty_bay(s, "3a")
    empty_bay(s, "3b")
    turn(s, RED)
    act(s, RED, "place 2 b1")
    assert s.phase != OVER and bay_card(s, "3a") >= 0  # refilled instead


def test_winner_tie_breaks() -> None:
    s = new()
    s.phase = OVER
    s.points = [20, 20]
    statue(s, RED, "g1")
    assert winners(s) == [RED]  # more statues on the board
    statue(s, YELLOW, "g2")
    assert winners(s) == [YELLOW]  # then the player who did not start
    s.points = [21, 20]
    assert winners(s) == [RED]
    assert winners(new()) == []


def test_last_two_palm_card_being_a_lava_card_triggers_scoring_1() -> None:
    """"Wird die letzte 2-Palmen-Karte von der Wertungstafel auf einen freien Platz neben den Spielplan
    gelegt, findet sofort eine Wertung statt." with "Erscheint bei Nachlegen der Palmen-Karten eine
    Lava-Karte, wird ... ein Lava-Chip auf das Kraterfeld des Vulkans gelegt" — the two-palm deck is used
    up by a lava card: its chip is laid, the scoring follows at once (the chip erupts on the mountain
    statue), and both free bays are filled from the three-palm deck after it."""
    s = last_two_palm_position()
    s.discard.append(s.decks[1].pop())
    lava = next(i for i, c in enumerate(s.discard) if kind_of(c) == "lava")
    s.decks[1].append(s.discard.pop(lava))
    stack_deck(s, 3, ["nautilus", "shell"])
    statue(s, RED, "m3")
    events = act(s, RED, "place 2 b1")
    events += act(s, YELLOW, "card 3a")
    assert s.round == 2 and s.statues[at("m3")] == -1 and s.craters == [0] * 6
    assert {"kind": "eruption", "chips": {"c3": 1}} in events
    assert {"kind": "statue-destroyed", "seat": RED, "field": "m3"} in events
    assert s.round_points == [[1, 3]]  # the statue scored nothing: the lava came first
    assert [kind_of(bay_card(s, "3a")), kind_of(bay_card(s, "3b"))] == ["nautilus", "shell"]
