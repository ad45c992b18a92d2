"""Every board: well-formed SVG, one target per legal action and none for others, no scripts or
inline styles or handlers, nothing drawn that the seat's view does not contain."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from types import ModuleType

import pytest

from spieltafel.core import Rng, all_games, get_game, kit_of

from .cases import CASES, legal_of, positions

NS = "{http://www.w3.org/2000/svg}"


def svg_module(game: str) -> ModuleType:
    """The game's board module, asked of its kit."""
    kit = kit_of(get_game(game))
    module = kit.module(kit.board)
    assert module is not None, f"{game} declares no board"
    return module


def targets(root: ET.Element) -> dict[int, int]:
    """How many elements carry each action index."""
    found: dict[int, int] = {}
    for element in root.iter():
        indices = []
        if "data-action" in element.attrib:
            indices.append(int(element.attrib["data-action"]))
            assert "data-actions" not in element.attrib
        if "data-actions" in element.attrib:
            assert element.attrib.get("data-target")
            indices.extend(int(i) for i in element.attrib["data-actions"].split())
            assert len(indices) > 1
        for index in indices:
            found[index] = found.get(index, 0) + 1
        if indices:
            assert element.attrib.get("tabindex") == "0"
            assert element.attrib.get("role") == "button"
            assert element.attrib.get("aria-label")
    return found


def assert_clean(root: ET.Element) -> None:
    for element in root.iter():
        assert element.tag != f"{NS}script"
        assert element.tag != f"{NS}foreignObject"
        for name in element.attrib:
            assert not name.lower().startswith("on"), name
            assert name.lower() != "style", name
            assert "javascript:" not in element.attrib[name].lower()


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
def test_every_legal_action_has_exactly_one_target(game: str, players: int, variant: str) -> None:
    module = svg_module(game)
    seen = 0
    for state, _ in positions(game, players, variant):
        for seat in [*range(players), None]:
            view = state.view(seat)
            legal = legal_of(state, seat) if seat is not None else []
            root = ET.fromstring(module.render_board(view, seat, legal))
            assert root.tag == f"{NS}svg" and "viewBox" in root.attrib and "width" not in root.attrib
            assert_clean(root)
            assert targets(root) == {index: 1 for index, _ in legal}
            seen += 1
    assert seen > 100


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
def test_the_board_shows_only_the_view(game: str, players: int, variant: str) -> None:
    """Two determinisations of one position for a seat (hidden parts resampled) draw the same board."""
    module = svg_module(game)
    for n, (state, _) in enumerate(positions(game, players, variant, games=2, every=11)):
        for seat in range(players):
            twins = [state.determinise(seat, Rng(n * 10 + k)) for k in range(2)]
            boards = [module.render_board(t.view(seat), seat, legal_of(t, seat)) for t in twins]
            assert boards[0] == boards[1]
            assert boards[0] == module.render_board(state.view(seat), seat, legal_of(state, seat))


@pytest.mark.parametrize(("game", "players"), [(g.name, (g.min_players + g.max_players) // 2) for g in all_games()])
def test_highlight_marks_the_last_move(game: str, players: int) -> None:
    module = svg_module(game)
    for state, events in positions(game, players, games=1):
        marks = [t for e in events for t in module.event_targets(e)]
        board = module.render_board(state.view(None), None, [], highlight=marks)
        if marks:
            assert 'class="last' in board or ' last"' in board or " last " in board
