"""Views, refusals, events and the terminal rendering."""

from __future__ import annotations

import json

import pytest
from haleakala_scenario import RED, YELLOW, act, disc, new, put_card, shaman, statue, turn
from rich.console import Console

from spieltafel.core import IllegalActionError, NotationError, NotYourTurnError, Rng, SpieltafelError
from spieltafel.games.haleakala.notation import ACTION_SPACE, MOVE
from spieltafel.games.haleakala.state import HaleakalaState


def rendered(s: HaleakalaState, seat: int | None = None) -> str:
    console = Console(width=160, record=True, color_system=None)
    console.print(s.render(seat))
    return console.export_text()


def test_render_shows_the_island() -> None:
    s = new("tactical")
    statue(s, YELLOW, "m4")
    shaman(s, RED, "g3")
    s.craters[2] = 2
    disc(s, RED, 3, 4)
    disc(s, RED, 1, 4)
    text = rendered(s, RED)
    for piece in ("6 joins 1", "⛵ boat", "g3 ☻R", "☻Y", "m4 ▲Y", "c3 ●●", "R:1+3=4", "jetty", "hut", "f6"):
        assert piece in text, piece
    first_bay = s.view(None)["bays"]["1a"]
    assert isinstance(first_bay, str) and first_bay.replace("white-", "w-").replace("black-", "b-") in text
    assert "round 1" in text and "decks 1/2/3 palms: 3/9/10" in text
    assert "to act: red — place a disc" in text


def test_render_names_the_fields_and_shows_the_scorings() -> None:
    """Every land field shows the name ``move`` takes; scoring results stay visible in round 2."""
    s = new()
    text = rendered(s)
    for ring in "gfmc":
        for segment in range(1, 7):
            assert f"{ring}{segment}" in text
    s.round_points = [[4, 7]]
    s.round = 2
    assert "scoring 1: red 4, yellow 7" in rendered(s)


def test_events_show_the_notation_of_each_action() -> None:
    """The play loop prints an event's ``notation`` ('seat 0: place 3 b3'), as for the other games."""
    s = new()
    events = s.apply(RED, "place 3 b3")
    assert [e.view(RED) for e in events] == [{"kind": "action", "seat": RED, "notation": "place 3 b3"}]


def test_view_is_json_and_complete() -> None:
    s = new()
    seen = s.view(RED)
    json.dumps(seen)
    assert seen["boat"] == 1 and seen["deck_sizes"] == [3, 12, 15]
    assert seen["player_info"][RED]["shaman"] == "b2" and seen["player_info"][YELLOW]["shaman"] == "b5"
    assert seen["legal_actions"] == s.legal_actions(RED)
    assert "legal_actions" not in s.view(None)
    assert s.view(RED)["bays"] == s.view(YELLOW)["bays"]  # nothing differs between the seats


def test_refusals_name_the_rule_and_change_nothing() -> None:
    s = new()
    before = s.to_json()
    with pytest.raises(NotYourTurnError):
        s.apply(YELLOW, "place 1 b3")
    with pytest.raises(NotationError):
        s.apply(RED, "place 9 b3")
    with pytest.raises(NotationError):
        s.apply(RED, "move x9")
    with pytest.raises(IllegalActionError, match="choose a turn action first"):
        s.apply(RED, "move g2")
    with pytest.raises(IllegalActionError, match="no such action"):
        s.apply(RED, ACTION_SPACE + 3)
    with pytest.raises(IllegalActionError, match="not in your supply"):
        disc(s, RED, 2, 4)
        s.apply(RED, "place 2 b3")
    disc(s, RED, 2, None)
    act(s, RED, "place 2 b3")
    with pytest.raises(IllegalActionError, match="never go back to a beach"):
        s.apply(RED, MOVE + 10)  # b3
    with pytest.raises(IllegalActionError, match="at most one of them uphill"):
        s.apply(RED, "move m2")
    assert s.to_json() != before  # (only the legal action changed it)


def test_random_refusals_change_nothing_in_both_variants() -> None:
    rng = Rng(4)
    for variant in ("basic", "tactical"):
        s = new(variant, 8)
        while not s.is_over:
            seat = s.seats_to_act()[0]
            legal = set(s.legal_actions(seat))
            before = s.to_json()
            for action in range(ACTION_SPACE):
                if action not in legal:
                    with pytest.raises(SpieltafelError) as refused:
                        s.apply(seat, action)
                    assert refused.value.args[0]
            assert s.to_json() == before
            s.apply(seat, rng.choice(sorted(legal)))


def test_determinise_depends_only_on_the_view_in_both_variants() -> None:
    for variant in ("basic", "tactical"):
        s = new(variant, 3)
        rng = Rng(3)
        for number in range(150):
            if s.is_over:
                break
            seat = s.seats_to_act()[0]
            other = s.determinise(seat, Rng(number + 100))
            assert s.determinise(seat, Rng(number)).to_json() == other.determinise(seat, Rng(number)).to_json()
            s.apply(seat, rng.choice(s.legal_actions(seat)))


def test_events_are_public_and_describe_the_landing() -> None:
    s = new()
    put_card(s, "3a", "statue")
    put_card(s, "3b", "statue")
    shaman(s, YELLOW, "g4")
    disc(s, YELLOW, 1, 3)
    turn(s, RED)
    events = s.apply(RED, "place 2 b1")
    assert all(not e.private for e in events)
    kinds = [e.kind for e in events]
    assert kinds[:4] == ["action", "boat", "card", "statue"] and "draw" in kinds


def test_malformed_state_documents_are_refused() -> None:
    from spieltafel.core import StateFormatError, get_game

    game = get_game("haleakala")
    data = new(seed=1).to_json()
    assert game.state_from_json(data).to_json() == data
    lost_card = {**data, "bays": [-1, *data["bays"][1:]]}
    with pytest.raises(StateFormatError, match="42"):
        game.state_from_json(lost_card)
    with pytest.raises(StateFormatError):
        game.state_from_json({**data, "statues": [-1] * 3})
    with pytest.raises(StateFormatError):
        game.state_from_json({**data, "game": "iquazu"})


def test_render_names_the_winner_and_the_tie_break() -> None:
    """"Bei Gleichstand gewinnt derjenige, von dem mehr Statuen auf dem Plan stehen. Herrscht auch dabei
    Gleichstand, gewinnt derjenige, der in diesem Spiel nicht Startspieler war."."""
    from spieltafel.games.haleakala.rules import OVER

    s = new()
    s.phase, s.points, s.round_points = OVER, [20, 20], [[10, 10], [10, 10]]
    assert "game over: yellow wins with 20 points (tie: did not start)" in rendered(s)
    statue(s, RED, "g1")
    assert "game over: red wins with 20 points (tie: more statues on the island)" in rendered(s)
