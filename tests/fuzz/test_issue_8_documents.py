"""Every document of issue 8's adversarial run: each is refused with one line naming what is wrong,
through the engine and through the command line (exit 2, no traceback)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from spieltafel.cli import app
from spieltafel.core import StateFormatError, get_game

from .fuzzing import ACTION_TEXTS, COUNTS, EXAMPLES, FUZZ, mutated, positions

Change = Callable[[dict[str, Any]], None]


def put(key: str, value: Any) -> Change:
    def change(d: dict[str, Any]) -> None:
        d[key] = value

    return change


def more_cards(d: dict[str, Any]) -> None:
    d["hands"][0][0] += 1


def deck_swap(d: dict[str, Any]) -> None:
    d["decks"][2].append(d["decks"][1].pop())


def chosen_card_in_hand(d: dict[str, Any]) -> None:
    seat = next(s for s, c in enumerate(d["choice"]) if c >= 0)
    d["hands"][seat] |= 1 << d["choice"][seat]


def crater(d: dict[str, Any]) -> None:
    d["craters"][0] = -3


def niagara_chosen(d: dict[str, Any]) -> None:
    """A Niagara position where seat 0 has chosen its card face down."""
    state = get_game("niagara").new_state(3, 1)
    state.apply(0, "play 3")
    d.clear()
    d.update(state.to_json())
    chosen_card_in_hand(d)


FINDINGS: list[tuple[str, Change, str]] = [
    ("iquazu", more_cards, "cards per colour"),
    ("iquazu", put("options", {"water": "bogus"}), "'water' cannot be 'bogus'"),
    ("iquazu", put("options", {}), "options lack 'water'"),
    ("iquazu", put("options", []), "options"),
    ("iquazu", put("seed", 1e999), "seed"),
    ("iquazu", put("seed", "3"), "seed"),
    ("iquazu", put("seed", 3.7), "seed"),
    ("iquazu", put("seed", -1), "seed"),
    ("iquazu", put("seed", True), "seed"),
    ("iquazu", put("frame", 2.5), "frame"),
    ("iquazu", put("phase", 1.0), "phase"),
    ("iquazu", put("format", 3), "format"),  # Iquazú documents are format 2 (the score's parts recorded)
    ("iquazu", put("format", 1), "written before the score's parts were recorded"),
    ("haleakala", put("format", 1), "replay the game's actions"),
    ("haleakala", put("boat", 99), "boat"),
    ("haleakala", crater, "craters"),
    ("haleakala", deck_swap, "deck"),
    ("niagara", niagara_chosen, "still in the hand"),
    ("niagara", put("won", [99]), "won"),
    ("niagara", put("next_arm", 5), "next_arm"),
    ("niagara", put("points", 5000), "points"),
    ("niagara", put("active", 2**70), "active"),
]


@pytest.mark.parametrize(("game", "change", "named"), FINDINGS, ids=[f"{g}-{n}" for g, _, n in FINDINGS])
def test_each_finding_is_refused_naming_what_is_wrong(game: str, change: Change, named: str, tmp_path: Path) -> None:
    spec = get_game(game)
    document = spec.new_state(spec.min_players, 4).to_json()
    change(document)
    with pytest.raises(StateFormatError) as refused:
        spec.state_from_json(document)
    assert named in str(refused.value) and "\n" not in str(refused.value)
    file = tmp_path / "s.json"
    file.write_text(json.dumps(document))
    result = CliRunner().invoke(app, ["state", "actions", str(file)])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert named in result.stderr or "not a number a state document may hold" in result.stderr  # 1e999 → Infinity


@pytest.mark.parametrize("game", ["iquazu", "haleakala", "niagara"])
def test_the_cli_refuses_mutated_documents_and_actions_in_one_line(game: str, tmp_path: Path) -> None:
    """A smaller fuzz through the command line: exit 0, or exit 2 with one line and no traceback."""
    spec = get_game(game)
    documents = [s.to_json() for s in positions(spec, spec.min_players, limit=6)]
    runner = CliRunner()
    file = tmp_path / "s.json"

    @settings(FUZZ, max_examples=max(EXAMPLES // 3, 1))  # a CLI run costs as much as 30 engine cases
    @given(st.sampled_from(documents).flatmap(mutated), ACTION_TEXTS)
    def check(data: dict[str, Any], text: str) -> None:
        COUNTS["CLI runs"] += 1
        file.write_text(json.dumps(data))
        result = runner.invoke(app, ["state", "apply", str(file), text[:2000], "--seat", "0"])
        assert result.exit_code in (0, 2), result.output
        assert "Traceback" not in result.stderr
        if result.exit_code == 2:
            assert len(result.stderr.strip().splitlines()) == 1

    check()
