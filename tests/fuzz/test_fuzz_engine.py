"""Fuzzing the engine's doors (issue 8): mutated state documents and action strings of every
registered game and player count are refused with StateFormatError / NotationError /
IllegalActionError, or accepted only when still consistent; never another exception."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltafel.core import Game, Rng, SpieltafelError, StateFormatError, load_state

from .fuzzing import ACTION_TEXTS, CASES, COUNTS, FUZZ, IDS, dump, mutated, positions


def accepted_is_consistent(game: Game, data: dict[str, Any]) -> None:
    """A document is refused with StateFormatError, or its state re-serialises to it exactly, loads
    again (the game's own checks) and plays on without error."""
    try:
        state = game.state_from_json(data)
    except StateFormatError as error:
        assert "\n" not in str(error)
        return
    COUNTS["of which accepted (consistent)"] += 1
    assert json.loads(dump(state)) == json.loads(json.dumps(data, sort_keys=True))
    game.state_from_json(state.to_json())
    rng = Rng(1)
    for _ in range(30):
        if state.is_over:
            break
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        assert legal, "a seat to act without a legal action"
        state.apply(seat, rng.choice(legal))
        game.state_from_json(state.to_json())


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_mutated_documents_are_refused_or_consistent(game: Game, players: int) -> None:
    documents = [state.to_json() for state in positions(game, players)]

    @FUZZ
    @given(st.sampled_from(documents).flatmap(mutated))
    def check(data: dict[str, Any]) -> None:
        COUNTS["state documents"] += 1
        accepted_is_consistent(game, data)

    check()


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_action_strings_are_refused_or_legal(game: Game, players: int) -> None:
    states = positions(game, players)

    @FUZZ
    @given(st.sampled_from(range(len(states))), ACTION_TEXTS)
    def check(index: int, text: str) -> None:
        COUNTS["action strings"] += 1
        state = states[index].clone()
        acting = state.seats_to_act()
        if not acting:
            return
        before = dump(state)
        try:
            state.apply(acting[0], text)
        except SpieltafelError as error:
            assert dump(state) == before and "\n" not in str(error) and len(str(error)) < 1000
        else:
            game.state_from_json(state.to_json())

    check()


@FUZZ
@given(st.text(alphabet='[]{}",:0123456789-.eE aNIinfty', max_size=300))
def test_json_text_is_refused_or_read(text: str) -> None:
    COUNTS["JSON texts"] += 1
    try:
        load_state(text)
    except SpieltafelError as error:
        assert "\n" not in str(error)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        "{" * 50_000,
        '{"game": "iquazu", "seed": 1e999}',
        '{"game": "iquazu", "seed": NaN}',
        '{"game": "iquazu", "seed": ' + "9" * 5000 + "}",
        '{"game": "niagara", "points": -Infinity}',
        "x" * 2_000_000,
    ],
    ids=["brackets", "braces", "1e999", "NaN", "5000-digits", "Infinity", "2MB"],
)
def test_hostile_json_text_gets_one_line(text: str) -> None:
    with pytest.raises(StateFormatError) as refused:
        load_state(text)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 300


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_documents_changed_within_the_rules_are_accepted(game: Game, players: int) -> None:
    """The other side: a document still consistent (any 64-bit seed and generator state, a position
    from a real game) is accepted, re-serialises identically and plays on."""
    documents = [state.to_json() for state in positions(game, players)]

    @FUZZ
    @given(st.sampled_from(documents), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
    def check(data: dict[str, Any], seed: int, rng: int) -> None:
        COUNTS["consistent documents"] += 1
        changed = {**data, "seed": seed, "rng": rng}
        accepted_is_consistent(game, changed)
        assert dump(game.state_from_json(changed)) == dump(game.state_from_json(json.loads(json.dumps(changed))))

    check()
