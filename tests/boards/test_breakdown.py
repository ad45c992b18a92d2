"""Issue 26: the game-over page breaks each player's final score down in the game's own terms. The parts
come from the final public view only; over many seeded random games they must add up to the engine's own
final score (and, where the engine reports a part in its events, to that part)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from spieltafel.core import Rng, get_game, kit_of
from spieltafel.core.game import State


def finished(game: str, players: int, seed: int, options: dict[str, str] | None = None) -> tuple[State, list[Any]]:
    """A random game played to its end, and all its events as a spectator sees them."""
    state = get_game(game).new_state(players=players, seed=seed, options=options or {})
    rng = Rng(7919 * seed + players)
    events: list[Any] = []
    for _ in range(20000):
        if state.is_over:
            return state, events
        seat = rng.choice(list(state.seats_to_act()))
        events += [e.view(None) for e in state.apply(seat, rng.choice(state.legal_actions(seat)))]
    raise AssertionError(f"{game} seed {seed} did not end")


def words(game: str) -> Any:
    return kit_of(get_game(game)).module("words")


def number_after(prefix: str, lines: list[str]) -> int:
    found = [line for line in lines if line.startswith(prefix)]
    assert len(found) == 1, (prefix, lines)
    return int(re.findall(r"-?\d+", found[0])[-1])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_iquazu_breakdown_adds_up_to_the_final_score(players: int) -> None:
    """Rocks (checked against every "rock" event's awards) + points tiles (against the "tile-points"
    event) = total = the engine's final score, for every seat of 25 random games per player count."""
    for seed in range(25):
        state, events = finished("iquazu", players, seed)
        rows = words("iquazu").score_breakdown(state.view(None))
        assert len(rows) == players
        rocks = [0] * players
        tiles = [0] * players
        for event in events:
            if event["kind"] == "rock":
                for seat, points in event["awards"]:
                    rocks[seat] += points
            elif event["kind"] == "tile-points":
                tiles[event["seat"]] = event["points"]
        for seat, lines in enumerate(rows):
            assert number_after("rocks: ", lines) == rocks[seat], (seed, seat, lines)
            tile_line = next(line for line in lines if line.startswith("points tiles: "))
            assert (0 if tile_line == "points tiles: none" else int(tile_line.rsplit("= ", 1)[1])) == tiles[seat]
            assert number_after("total: ", lines) == state.scores()[seat] == rocks[seat] + tiles[seat]


@pytest.mark.parametrize("variant", ["basic", "tactical"])
def test_haleakala_breakdown_adds_up_to_the_final_score(variant: str) -> None:
    """The second scoring's categories, recomputed from the final public view, add up to the points the
    engine gave at that scoring; scoring 1 + scoring 2 = total = the engine's final score (30 games each)."""
    module = words("haleakala")
    for seed in range(30):
        state, events = finished("haleakala", 2, seed, {"variant": variant})
        view = state.view(None)
        second = next(e for e in events if e["kind"] == "scoring" and e["number"] == 2)["points"]
        rows = module.score_breakdown(view)
        for seat, lines in enumerate(rows):
            parts = module.final_scoring(view, seat)
            assert sum(points for _, points in parts) == second[seat], (seed, seat, parts)
            shown = [int(re.findall(r"\d+", line)[-1]) for line in lines if line.startswith("– ")]
            assert sum(shown) == second[seat]
            assert number_after("scoring 2: ", lines) == second[seat]
            assert number_after("scoring 1: ", lines) + second[seat] == number_after("total: ", lines)
            assert number_after("total: ", lines) == state.scores()[seat]


def test_iquazu_breakdown_by_hand() -> None:
    """A hand-checked example: 23 points with tiles 5, 3, 3 (11) leave 12 for the rocks; an unused double
    turn is named; a game that did not reach its end has no breakdown; German words."""
    from spieltafel.server.web.i18n import gettext_for

    view = {
        "phase": "over",
        "player_info": [
            {"score": 23, "tiles": {"points5": 1, "points3": 2, "double": 1}},
            {"score": 9, "tiles": {}},
        ],
    }
    rows = words("iquazu").score_breakdown(view)
    assert rows[0] == [
        "rocks: 12",
        "points tiles: 1 × 5 + 2 × 3 = 11",
        "bonus tiles not used: 1 × one more action",
        "total: 23",
    ]
    assert rows[1] == ["rocks: 9", "points tiles: none", "total: 9"]
    assert words("iquazu").score_breakdown({**view, "phase": "action"}) == []
    german = words("iquazu").score_breakdown(view, gettext_for("de"))
    assert german[0][0] == "Felsen: 12" and german[0][-1] == "Gesamt: 23"


def test_haleakala_breakdown_by_hand() -> None:
    """A hand-checked example. Red: statues g1 f1 m1 (1 + 2 + 3 = 6) and f2 (2) = 8; fish baskets 4 + 1 against
    Yellow's 2: majority 3; both pearls 4; one nautilus 3; 2 shells; scoring card "segment" (segment 1 full:
    4) and "forest" (2 forest statues × 2 = 4): 8 + 3 + 4 + 3 + 2 + 4 + 4 = 28 in scoring 2, + 10 = 38."""
    module = words("haleakala")
    view = {
        "phase": "over",
        "round_points": [[10, 7], [28, 1]],
        "statues": {"g1": "red", "f1": "red", "m1": "red", "f2": "red", "g2": "yellow"},
        "player_info": [
            {
                "colour": "red",
                "score": 38,
                "shells": 2,
                "scoring_cards": ["segment", "forest"],
                "cards": ["fish4", "fish1", "white-pearl", "black-pearl", "nautilus", "statue"],
            },
            {"colour": "yellow", "score": 8, "shells": 0, "scoring_cards": [], "cards": ["fish2"]},
        ],
    }
    assert module.final_scoring(view, 0) == [
        ("statues", 8),
        ("fish", 3),
        ("pearls", 4),
        ("nautilus", 3),
        ("shells", 2),
        ("segment", 4),
        ("forest", 4),
    ]
    rows = module.score_breakdown(view)
    assert rows[0][:3] == ["scoring 1: 10", "scoring 2: 28", "– statues (1 × grass, 2 × forest, 1 × mountain): 8"]
    assert rows[0][-1] == "total: 38"
    assert rows[1] == ["scoring 1: 7", "scoring 2: 1", "– statues (1 × grass): 1", "total: 8"]
