"""The boards as Chromium draws them (issue 26, "overlapping drawing"): in English, German and Dutch, at the
start, in the middle and at the end of a game, no text of a board runs into another text or past the board's
edge. Before: German and Dutch price headers ran together ("2 Karten3 Karten"), Iquazú's orange-card count lay
under the gem, Haleakala's scoring cards spilled past the edge of the final board, and so on.

Pieces drawn on one another on purpose (a gem with its number on a slot's letter, a water drop on a slot) are
one- and two-character texts; an overlap counts when at least one of the two texts is longer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spieltafel.core import Rng, State, get_game, kit_of
from spieltafel.server.web import i18n

STATIC = Path(__file__).resolve().parents[2] / "src" / "spieltafel" / "server" / "web" / "static"
OVERLAPS = """() => {
  const found = [];
  const svg = document.querySelector('svg').getBoundingClientRect();
  const texts = [...document.querySelectorAll('svg text')].filter(t => t.textContent.trim());
  const boxes = texts.map(t => t.getBoundingClientRect());
  texts.forEach((text, i) => {
    const a = boxes[i];
    if (a.right > svg.right + 1 || a.left < svg.left - 1 || a.bottom > svg.bottom + 1 || a.top < svg.top - 1)
      found.push(`past the edge: ${text.textContent}`);
    for (let j = i + 1; j < texts.length; j++) {
      const b = boxes[j];
      const long = text.textContent.trim().length > 2 || texts[j].textContent.trim().length > 2;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (long && w > -1 && h > 3) found.push(`${text.textContent} | ${texts[j].textContent}`);
    }
  });
  return found;
}"""
CASES = [("iquazu", 2), ("iquazu", 4), ("haleakala", 2), ("niagara", 3), ("niagara", 5)]


def _positions(game: str, players: int, seed: int = 5) -> Iterator[State]:
    """The set-up, two positions of a random game and its end."""
    state = get_game(game).new_state(players, seed)
    rng = Rng(seed)
    yield state
    moves = 0
    while not state.is_over:
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        moves += 1
        if moves in (30, 120):
            yield state
    yield state


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
@pytest.mark.parametrize(("game", "players"), CASES)
def test_no_text_of_a_board_overlaps_another_or_the_edge(browser: Any, game: str, players: int, lang: str) -> None:
    board = kit_of(get_game(game)).board_module()
    gettext = i18n.gettext_for(lang)
    css = (STATIC / "boards.css").read_text(encoding="utf-8")
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    problems: set[str] = set()
    try:
        for state in _positions(game, players):
            svg = board.render_board(state.view(0), 0, [], gettext)
            page.set_content(f"<html><style>{css} body{{margin:0}} svg{{width:1000px;height:auto}}</style>"
                             f"<body>{svg}</body></html>")
            problems.update(page.evaluate(OVERLAPS))
    finally:
        page.close()
    assert not problems, sorted(problems)
