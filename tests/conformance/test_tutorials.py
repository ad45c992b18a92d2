"""Every game's interactive tutorial (``GameKit.tutorial``, ``spieltafel.core.tutorial``) replays with the
engine: each step's position is reached by its moves, each expected move is legal there, a wrong move gets a
hint, every text is translated in German and Dutch, and hostile requests are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from spieltafel.core import all_games, get_game, kit_of
from spieltafel.core.tutorial import Tutorial, TutorialError, check, load, parse

WITH_TUTORIAL = sorted(game.name for game in all_games() if kit_of(game).tutorial is not None)


def tutorial(name: str) -> Tutorial:
    found = load(get_game(name))
    assert found is not None
    return found


def test_the_builtin_games_offer_a_tutorial() -> None:
    assert {"haleakala", "iquazu", "niagara"} <= set(WITH_TUTORIAL)


@pytest.mark.parametrize("name", WITH_TUTORIAL)
def test_every_step_replays_and_its_moves_are_legal(name: str) -> None:
    lesson = tutorial(name)
    game = get_game(name)
    assert game.min_players <= lesson.players <= game.max_players
    assert 8 <= len(lesson.steps) <= 14, "8 to 14 steps, each about one rule"
    asking = [step for step in lesson.steps if step.expect]
    assert len(asking) > len(lesson.steps) / 2, "most steps ask for a move"
    for step in lesson.steps:
        for made, move in enumerate(step.expect):
            state = lesson.position(step.number, made)
            assert lesson.seat in state.seats_to_act(), f"step {step.number}: the learner is not to act"
            index = state.read_action(lesson.seat, move)
            assert index in state.legal_actions(lesson.seat), f"step {step.number}: {move!r} is not legal"
            for target in step.targets(made):
                assert state.read_action(lesson.seat, target) in state.legal_actions(lesson.seat)
            assert check(lesson, step.number, index, made).right
            wrong = next((a for a in state.legal_actions(lesson.seat) if a != index), None)
            if wrong is not None:
                answer = check(lesson, step.number, wrong, made)
                assert not answer.right and answer.legal and answer.hint
    last = lesson.position(len(lesson.steps) - 1)
    assert not lesson.steps[-1].expect, "the tutorial ends with a step that is read"
    assert last is not None


@pytest.mark.parametrize("name", WITH_TUTORIAL)
def test_a_wrong_move_gets_its_category_hint(name: str) -> None:
    lesson = tutorial(name)
    found = 0
    for step in lesson.steps:
        if not step.wrong or not step.expect:
            continue
        for prefix, text in step.wrong:
            hinted = 0
            for made, move in enumerate(step.expect):
                state = lesson.position(step.number, made)
                expected = state.read_action(lesson.seat, move)
                moves = [a for a in state.legal_actions(lesson.seat)
                         if a != expected and state.action_text(lesson.seat, a).startswith(prefix)]
                for wrong in moves[:1]:
                    assert check(lesson, step.number, wrong, made).hint == text
                    hinted += 1
            assert hinted, f"step {step.number}: no wrong move begins with {prefix!r}"
            found += 1
    assert found >= 1


@pytest.mark.parametrize("lang", ["de", "nl"])
@pytest.mark.parametrize("name", WITH_TUTORIAL)
def test_every_text_is_translated(name: str, lang: str) -> None:
    folder = kit_of(get_game(name)).locales_folder()
    assert folder is not None
    path = Path(folder) / lang / "LC_MESSAGES" / f"{name}.po"
    with path.open("rb") as handle:
        translated = {m.id: m.string for m in read_po(handle) if m.id and not m.fuzzy}
    for text in tutorial(name).messages():
        assert translated.get(text), f"{name} {lang}: no translation of {text[:60]!r}"


@pytest.mark.parametrize(
    ("number", "action", "made"),
    [(-1, 0, 0), (999, 0, 0), (True, 0, 0), ("1", 0, 0), (0, -5, 0), (0, 10**12, 0), (0, "draw", 0), (0, 1.5, 0),
     (0, 0, 7)],
)
def test_hostile_requests_are_refused(number: object, action: object, made: int) -> None:
    lesson = tutorial(WITH_TUTORIAL[0])
    with pytest.raises(TutorialError):
        check(lesson, number, action, made)  # type: ignore[arg-type]


def test_a_read_step_takes_no_move() -> None:
    lesson = tutorial(WITH_TUTORIAL[0])
    last = len(lesson.steps) - 1
    assert check(lesson, last, None).right
    with pytest.raises(TutorialError, match="asks for no move"):
        check(lesson, last, 0)


def test_a_broken_tutorial_fails_clearly() -> None:
    lesson = parse("iquazu", {"players": 2, "seed": 1, "steps": [{"text": "x", "before": ["fly"], "expect": None}]})
    with pytest.raises(TutorialError, match="step 0's move 'fly' cannot be played"):
        lesson.position(0)
    with pytest.raises(TutorialError, match="has a 'hint'"):
        parse("iquazu", {"players": 2, "steps": [{"text": "x", "expect": "draw"}]})
    with pytest.raises(TutorialError, match="'steps'"):
        parse("iquazu", {"players": 2, "steps": []})


def test_a_position_is_replayed_once_and_handed_out_as_a_copy() -> None:
    """Each request asks for a step's position: the engine replays it once; a learner's move on the copy
    handed out does not change the next one."""
    tutorial = load(get_game("iquazu"))
    assert tutorial is not None
    first = tutorial.position(1)
    seat = tutorial.seat
    before = first.view(seat)
    first.apply(seat, first.legal_actions(seat)[0])
    assert tutorial.position(1).view(seat) == before
    assert tutorial.position(1) is not tutorial.position(1)
    assert (1, 0) in tutorial.replayed
