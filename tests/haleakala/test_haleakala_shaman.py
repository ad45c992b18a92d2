"""Moving the shaman ("Schamane bewegen")."""

from __future__ import annotations

import pytest
from haleakala_scenario import RED, YELLOW, act, at, new, shaman, statue, texts

from spieltafel.core import IllegalActionError
from spieltafel.games.haleakala.board import REACH, field_name, ring_of
from spieltafel.games.haleakala.rules import SHAMAN


def move_targets(s_shaman: str, other: str = "b5") -> set[str]:
    """End fields offered to red's shaman on ``s_shaman`` after a disc action."""
    s = new()
    shaman(s, RED, s_shaman)
    shaman(s, YELLOW, other)
    act(s, RED, "place 1 b4")
    assert s.phase == SHAMAN
    return set(texts(s, RED))


def test_first_move_reaches_grass_height_only() -> None:
    """"(Im ersten Zug also nur auf Höhe der Grasfelder.)" — and never back onto a beach."""
    assert move_targets("b2") == {"stay", "move g2", "move g1", "move g3"}


def test_rule_example_up_to_two_fields() -> None:
    """"Rot darf seinen Schamanen um bis zu 2 Felder bewegen" (from a forest field: two down, one up,
    sideways; the targets as this board's neighbourhood gives them)."""
    assert move_targets("f2") == {
        "stay", "move g1", "move f1", "move m1", "move g2", "move m2", "move g3", "move f3", "move m3",
        "move f4", "move f6",
    }


def test_at_most_one_step_uphill() -> None:
    targets = move_targets("g3")
    assert "move f3" in targets and "move f2" in targets  # up, then sideways
    assert "move m3" not in targets  # two steps uphill


def test_two_steps_downhill() -> None:
    assert "move g3" in move_targets("m3")


def test_never_onto_or_over_a_crater() -> None:
    targets = move_targets("m1")
    assert not any(t.endswith(("c1", "c2", "c6")) for t in targets)
    assert "move m4" not in targets  # across the crater would be 2 fields but is forbidden
    assert all(1 <= ring_of(f) <= 3 for start in range(30) for f in REACH[start] if f != start)


def test_never_back_to_a_beach() -> None:
    assert not any(t.startswith("move b") for t in move_targets("g3"))


def test_may_pass_but_not_end_on_the_other_shaman() -> None:
    targets = move_targets("g2", other="g3")
    assert "move g3" not in targets
    assert "move g4" in targets  # passing the other shaman on g3
    s = new()
    shaman(s, YELLOW, "g3")
    shaman(s, RED, "g2")
    act(s, RED, "place 1 b4")
    with pytest.raises(IllegalActionError, match="not end its move there"):
        s.apply(RED, "move g3")


def test_may_pass_and_end_on_statues() -> None:
    s = new()
    statue(s, YELLOW, "g3")
    statue(s, YELLOW, "g4")
    shaman(s, RED, "g2")
    act(s, RED, "place 1 b4")
    assert {"move g3", "move g4"} <= set(texts(s, RED))
    act(s, RED, "move g4")
    assert s.shamans[RED] == at("g4")


def test_reach_is_symmetric_for_level_moves() -> None:
    for start in range(30):
        for end in REACH[start]:
            if ring_of(start) == ring_of(end) and 1 <= ring_of(start) <= 3:
                assert start in REACH[end], (field_name(start), field_name(end))


def test_neighbourhood_is_component_data() -> None:
    """The board picture is lost; which fields touch is provisional data in ``components.py``
    (ring neighbours in both neighbouring segments, next field in and out, no diagonals)."""
    from spieltafel.games.haleakala.board import neighbours
    from spieltafel.games.haleakala.components import NEIGHBOURHOOD

    assert sorted(NEIGHBOURHOOD) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    assert {field_name(f) for f in neighbours(at("f1"))} == {"f2", "f6", "g1", "m1"}
    assert {field_name(f) for f in neighbours(at("b1"))} == {"b2", "b6", "g1"}


def test_a_beach_is_refused_as_a_beach_even_with_the_other_shaman_on_it() -> None:
    """"Der Schamane startet zwar auf einem Strandfeld, er zieht aber während des Spieles nur auf Gras-,
    Wald- und Bergfelder." — the refusal names that rule first."""
    s = new()
    act(s, RED, "place 1 b4")
    with pytest.raises(IllegalActionError, match="never go back to a beach"):
        s.apply(RED, "move b5")  # yellow's shaman stands there too
