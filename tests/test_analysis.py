"""Post-game analysis (issue 27): honest (the analysed seat's information only), reproducible, marked,
and on the command line (``spieltafel analyse``)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltafel.analysis import BLUNDER, MISTAKE, analyse, analyse_decision, hint, person_seats
from spieltafel.bots import make_bot
from spieltafel.cli import app
from spieltafel.core import GameRecord, Rng, SpieltafelError, State, get_game
from spieltafel.match import play_game

GAMES = [("iquazu", 2), ("haleakala", 2), ("niagara", 3)]


@cache
def finished(game: str, players: int) -> GameRecord:
    """A finished game between easy bots, seat 0 named as a person."""
    names = ["alice"] + ["bot:easy"] * (players - 1)
    _, record = play_game(get_game(game), players, 11, [make_bot("easy", i) for i in range(players)], seat_names=names)
    return record


def decisions(record: GameRecord, seat: int, every: int) -> list[tuple[State, int, int]]:
    """Every ``every``-th position where ``seat`` chose among several moves: (state before, move, number)."""
    state = record.new_state()
    found: list[tuple[State, int, int]] = []
    for number, recorded in enumerate(record.actions, start=1):
        action = state.read_action(recorded.seat, recorded.action)
        if recorded.seat == seat and len(state.legal_actions(seat)) > 1:
            found.append((state.clone(), action, number))
        state.apply(recorded.seat, action)
    return found[::every]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_analysis_sees_only_the_seats_information(game: str, players: int) -> None:
    """The issue's honesty test: each analysed decision, rebuilt from other hidden cards consistent with
    the seat's view (the engine's determinise for that seat), gives the same figures (with fixed seeds the
    search's noise is the same, so they are equal); the hidden parts did differ."""
    record = finished(game, players)
    differed = 0
    for state, played, number in decisions(record, 0, every=6):
        other = state.determinise(0, Rng(number + 12345))
        assert other.view(0) == state.view(0)
        assert other.legal_actions(0) == state.legal_actions(0)
        differed += other.to_json() != state.to_json()
        real = analyse_decision(state, 0, played, number, iterations=150, seed=3)
        rebuilt = analyse_decision(other, 0, played, number, iterations=150, seed=3)
        assert rebuilt == real
    assert differed >= 3  # the rebuilt positions did hold other hidden cards


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_hint_sees_only_the_seats_information(game: str, players: int) -> None:
    """Hints (issue 27) are honest as the analysis is: a hint asked in a position rebuilt with other hidden
    cards consistent with the seat's view is the same (fixed seed, iteration budget), through the bot
    workers' path too (the table's full state as JSON, of which the search sees the seat's observation);
    and the hint's best move is one of the seat's legal moves, with its estimated chances."""
    from spieltafel.server.analysis.work import hint_for

    record = finished(game, players)
    differed = 0
    for state, _, number in decisions(record, 0, every=6):
        other = state.determinise(0, Rng(number + 777))
        assert other.view(0) == state.view(0)
        differed += other.to_json() != state.to_json()
        real = hint(state, 0, iterations=150, seed=number)
        assert real == hint(other, 0, iterations=150, seed=number)
        assert hint_for(game, state.to_json(), 0, 150, None, number) == real.model_dump(mode="json")
        assert hint_for(game, other.to_json(), 0, 150, None, number) == real.model_dump(mode="json")
        legal = state.legal_actions(0)
        assert real.moves[0].action in legal and real.iterations >= 150
        assert all(m.chance is not None and 0 <= m.chance <= 100 for m in real.moves)
    assert differed >= 3


def test_a_hint_is_only_for_a_seat_with_a_decision() -> None:
    record = finished("iquazu", 2)
    state = record.new_state()
    waiting = next(seat for seat in range(2) if not state.legal_actions(seat))
    with pytest.raises(SpieltafelError, match="no decision"):
        hint(state, waiting, iterations=10)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_finished_game_is_analysed_reproducibly_with_marks(game: str, players: int) -> None:
    record = finished(game, players)
    first = analyse(record, iterations=60, seed=1)
    again = analyse(record, iterations=60, seed=1)
    assert first.model_dump(exclude={"seconds"}) == again.model_dump(exclude={"seconds"})
    assert first.analysed_seats == [0] == person_seats(record)
    assert [d.number for d in first.decisions] == [n for n, a in enumerate(record.actions, 1) if a.seat == 0]
    searched = [d for d in first.decisions if not d.forced]
    assert searched
    for d in searched:
        assert d.played_chance is not None and d.best_chance is not None
        assert 0 <= d.played_chance <= 100 and 0 <= d.best_chance <= 100
        assert d.loss == round(max(0.0, d.best_chance - d.played_chance), 1)
        assert d.mark == ("??" if d.loss > BLUNDER else "?" if d.loss > MISTAKE else "")
        assert d.top and d.top[0].action == d.best
        if d.played == d.best:
            assert d.loss == 0
    for d in first.decisions:
        if d.forced:
            assert d.played_chance is None and d.mark == ""
    (summary,) = first.summary
    assert summary.decisions == len(searched)
    assert summary.mistakes == sum(d.mark == "?" for d in searched)
    assert summary.blunders == sum(d.mark == "??" for d in searched)


def test_the_move_played_and_the_best_move_are_judged_on_enough_iterations() -> None:
    """A move the search hardly tried is not judged on one random playout: the move played and the best
    move get at least FOCUS_VISITS iterations (capped by the budget) each."""
    record = finished("iquazu", 2)
    state, played, number = decisions(record, 0, every=1)[0]
    decision = analyse_decision(state, 0, played, number, iterations=60, seed=0)
    assert decision.top[0].visits >= 60


def test_bad_requests_are_refused_with_a_reason() -> None:
    record = finished("iquazu", 2)
    with pytest.raises(SpieltafelError, match="no seat 5"):
        analyse(record, seats=[5], iterations=10)
    unfinished = record.model_copy(update={"actions": record.actions[:10], "result": None})
    with pytest.raises(SpieltafelError, match="only a finished game"):
        analyse(unfinished, iterations=10)
    with pytest.raises(SpieltafelError, match="at least 1 iteration"):
        analyse(record, iterations=0)


def test_a_game_between_bots_analyses_every_seat() -> None:
    record = finished("iquazu", 2).model_copy(update={"seats": ["greedy", "bot:hard"]})
    assert person_seats(record) == [0, 1]


runner = CliRunner()


def test_spieltafel_analyse_a_record_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    finished("iquazu", 2).save(path)
    saved = tmp_path / "a.json"
    result = runner.invoke(app, ["analyse", str(path), "--iterations", "40", "--json", "--out", str(saved)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["format"] == "spieltafel-analysis/1" and data["analysed_seats"] == [0]
    assert json.loads(saved.read_text())["decisions"] == data["decisions"]
    table = runner.invoke(app, ["analyse", str(path), "--iterations", "40", "--all"])
    assert table.exit_code == 0 and "mean loss" in table.stdout
    bad = runner.invoke(app, ["analyse", str(path), "--iterations", "40", "--seat", "4"])
    assert bad.exit_code != 0 and "no seat 4" in bad.output


def test_record_hints_need_no_pydantic_beyond_the_declared_bound() -> None:
    """The base install declares pydantic >= 2.10: the record leaves out absent ``hints`` without 2.12's
    ``Field(exclude_if=...)`` (review of issue 27), in both dump modes, and reads its own output back."""
    root = Path(__file__).resolve().parents[1]
    bound = next(line for line in (root / "pyproject.toml").read_text().splitlines() if '"pydantic>=' in line)
    declared = tuple(int(n) for n in bound.split(">=")[1].split('"')[0].split("."))
    used = [p.name for p in (root / "src" / "spieltafel").rglob("*.py") if "exclude_if" in p.read_text()]
    assert declared >= (2, 12) or not used, (declared, used)
    plain = GameRecord(game="iquazu", players=2, seed=1)
    hinted = plain.model_copy(update={"hints": [2, 0]})
    assert "hints" not in plain.model_dump() and "hints" not in json.loads(plain.model_dump_json())
    assert hinted.model_dump()["hints"] == [2, 0] and json.loads(hinted.model_dump_json())["hints"] == [2, 0]
    assert GameRecord.model_validate_json(hinted.model_dump_json()).hints == [2, 0]
