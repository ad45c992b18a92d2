"""Issue 26: the game-over page breaks each player's final score down in the game's own terms, from the parts
the rules themselves record when they score (Iquazú: each rock's points per seat and the points tiles;
Haleakala: each scoring's categories; Niagara: the banked gems, their value, the goals met). Over random games
(hypothesis) the recorded parts add up to the score for every seat at every step; the breakdown shows exactly
those parts, and agrees with what the events report."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltafel.core import Rng, get_game, kit_of
from spieltafel.core.game import State
from spieltafel.games.haleakala.rules import NOT_COUNTED, SCORING_PARTS, counted_sum
from spieltafel.games.haleakala.state import HaleakalaState
from spieltafel.games.iquazu.board import ROCK_COLUMNS
from spieltafel.games.iquazu.state import IquazuState
from spieltafel.games.niagara.rules import GOALS, goals_met, has_won
from spieltafel.games.niagara.state import NiagaraState


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


def parts_add_up(state: State) -> None:
    """The score of every seat is the sum of the parts the rules recorded, and the view shows those parts."""
    view = state.view(None)
    if isinstance(state, IquazuState):
        for seat in range(state.players):
            rocks, tiles = state.rock_points[seat], state.tile_points[seat]
            assert len(rocks) == ROCK_COLUMNS and min(rocks) >= 0 and tiles >= 0
            assert sum(rocks) + tiles == state.points[seat] == state.scores()[seat]
            assert view["player_info"][seat]["rock_points"] == list(rocks)
            assert view["player_info"][seat]["tile_points"] == tiles
            assert state.is_over or tiles == 0  # the points tiles count only at the end
    elif isinstance(state, HaleakalaState):
        assert len(state.scoring_parts) == 2 * len(state.round_points)
        for row, parts in enumerate(state.scoring_parts):
            number, seat = divmod(row, 2)
            assert len(parts) == len(SCORING_PARTS) and min(parts) >= NOT_COUNTED
            assert counted_sum(parts) == state.round_points[number][seat]
            shown = view["scoring_parts"][number][seat]
            assert shown == {name: p for name, p in zip(SCORING_PARTS, parts, strict=True) if p != NOT_COUNTED}
            assert sum(shown.values()) == state.round_points[number][seat]
            assert ("nautilus" in shown) == ("shells" in shown) == (number == 1)  # both count at scoring 2 only
        for seat in (0, 1):
            assert sum(r[seat] for r in state.round_points) == state.points[seat] == state.scores()[seat]
    else:
        assert isinstance(state, NiagaraState)
        for seat in range(state.players):
            info = view["player_info"][seat]
            assert info["gems"] == sum(info["banked"].values()) == state.scores()[seat]
            assert set(info["goals"]) <= set(GOALS) and bool(info["goals"]) == has_won(state.banked[seat])


@settings(max_examples=12, deadline=None)
@given(
    game_players=st.sampled_from([("iquazu", 2), ("iquazu", 3), ("iquazu", 4), ("haleakala", 2), ("niagara", 3)]),
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
)
def test_the_recorded_parts_add_up_to_the_score_at_every_step(
    game_players: tuple[str, int], seed: int, choices: int
) -> None:
    game, players = game_players
    variant = {"variant": "tactical"} if game == "haleakala" and choices % 2 else {}
    state = get_game(game).new_state(players=players, seed=seed, options=variant)
    rng = Rng(choices)
    parts_add_up(state)
    for step in range(20000):
        if state.is_over:
            break
        seat = rng.choice(list(state.seats_to_act()))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        parts_add_up(state)
        if step % 25 == 0:  # the load checks accept every part the rules give, mid-game too
            assert type(state).from_json(state.to_json()).to_json() == state.to_json()
    assert state.is_over
    twin = type(state).from_json(state.to_json())  # the parts survive the state document and a copy
    assert twin.to_json() == state.to_json() == state.clone().to_json()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_iquazu_breakdown_lists_each_rock_as_the_rules_awarded_it(players: int) -> None:
    """Each rock line is what the "rock" event of that column awarded; rocks + points tiles (the
    "tile-points" event) = total = the engine's final score, for every seat of 15 random games."""
    for seed in range(15):
        state, events = finished("iquazu", players, seed)
        rows = words("iquazu").score_breakdown(state.view(None))
        assert len(rows) == players
        awarded: list[dict[int, int]] = [{} for _ in range(players)]
        tiles = [0] * players
        for event in events:
            if event["kind"] == "rock":
                for seat, points in event["awards"]:
                    awarded[seat][event["column"]] = points
            elif event["kind"] == "tile-points":
                tiles[event["seat"]] = event["points"]
        for seat, lines in enumerate(rows):
            columns = {
                int(m[1]): int(m[2]) for line in lines if (m := re.fullmatch(r"– column (\d+): (\d+)", line))
            }
            assert columns == {c: p for c, p in awarded[seat].items() if p}, (seed, seat, lines)
            assert number_after("rocks: ", lines) == sum(columns.values())
            tile_line = next(line for line in lines if line.startswith("points tiles: "))
            assert (0 if tile_line == "points tiles: none" else int(tile_line.rsplit("= ", 1)[1])) == tiles[seat]
            total = number_after("total: ", lines)
            assert total == state.scores()[seat] == sum(columns.values()) + tiles[seat]


@pytest.mark.parametrize("variant", ["basic", "tactical"])
def test_haleakala_breakdown_lists_both_scorings_by_category(variant: str) -> None:
    """Under each "scoring N" line its categories add up to it, and that is what the "scoring" event gave;
    scoring 1 + scoring 2 = total = the engine's final score (15 games each)."""
    module = words("haleakala")
    for seed in range(15):
        state, events = finished("haleakala", 2, seed, {"variant": variant})
        given_points = [e["points"] for e in events if e["kind"] == "scoring"]
        rows = module.score_breakdown(state.view(None))
        assert len(rows) == 2
        for seat, lines in enumerate(rows):
            starts = [i for i, line in enumerate(lines) if line.startswith("scoring ")]
            assert len(starts) == 2 and lines[-1].startswith("total: ")
            for number, (start, end) in enumerate(zip(starts, [*starts[1:], len(lines) - 1], strict=True)):
                heading = int(lines[start].rsplit(": ", 1)[1])
                shown = [int(re.findall(r"-?\d+", line)[-1]) for line in lines[start + 1 : end]]
                assert all(line.startswith("– ") for line in lines[start + 1 : end])
                for line in lines[start + 1 : end]:
                    if line.startswith("– statues on "):  # the statues counted, times each one's points
                        count, each, points = map(int, re.findall(r"\d+", line))
                        assert count * each == points and line.endswith(f": {count} × {each} = {points}"), line
                assert heading == sum(shown) == given_points[number][seat], (seed, seat, lines)
            assert number_after("total: ", lines) == state.scores()[seat] == sum(p[seat] for p in given_points)


def test_niagara_breakdown_opens_with_the_points_column() -> None:
    """The first line is the gems banked, the result's "Points"; gem value and goals are the rules' own."""
    module = words("niagara")
    for players in (3, 4, 5):
        state, _ = finished("niagara", players, 3)
        view = state.view(None)
        for seat, lines in enumerate(module.score_breakdown(view)):
            assert lines[0] == f"gems banked: {state.scores()[seat]}"
            assert number_after("gem value: ", lines) == view["player_info"][seat]["gem_value"]
            assert any(line.startswith("goal: ") for line in lines) == has_won(state.banked[seat])


def test_niagara_goals_met_are_the_goals_that_end_the_game() -> None:
    """goals_met lists exactly what has_won tests (every banked count up to 7 per colour)."""
    for code in range(8**5):
        banked = [(code >> (3 * k)) & 7 for k in range(5)]
        assert bool(goals_met(banked)) == has_won(banked), banked
    assert goals_met([1, 1, 1, 1, 1]) == ["each-colour"]
    assert goals_met([4, 3, 0, 0, 0]) == ["same-colour", "seven"]
    assert goals_met([2, 2, 2, 0, 0]) == []


def test_iquazu_breakdown_by_hand() -> None:
    """A hand-checked example: rocks 3 (column 1) + 5 (column 4) + 4 (column 10) = 12 and tiles 5, 3, 3 (11)
    make 23; a rock that gave nothing is left out; an unused double turn is named; a game that did not
    reach its end has no breakdown; German and Dutch words."""
    from spieltafel.server.web.i18n import gettext_for

    rocks = [3, 0, 0, 5, 0, 0, 0, 0, 0, 4, 0]
    view = {
        "phase": "over",
        "player_info": [
            {
                "score": 23,
                "tiles": {"points5": 1, "points3": 2, "double": 1},
                "rock_points": rocks,
                "tile_points": 11,
            },
            {"score": 9, "tiles": {}, "rock_points": [0, 9] + [0] * 9, "tile_points": 0},
        ],
    }
    rows = words("iquazu").score_breakdown(view)
    assert rows[0] == [
        "rocks: 12",
        "– column 1: 3",
        "– column 4: 5",
        "– column 10: 4",
        "points tiles: 1 × 5 + 2 × 3 = 11",
        "bonus tiles not used: 1 × one more action",
        "total: 23",
    ]
    assert rows[1] == ["rocks: 9", "– column 2: 9", "points tiles: none", "total: 9"]
    assert words("iquazu").score_breakdown({**view, "phase": "action"}) == []
    german = words("iquazu").score_breakdown(view, gettext_for("de"))
    assert german[0][:2] == ["Felsen: 12", "– Spalte 1: 3"] and german[0][-1] == "Gesamt: 23"
    dutch = words("iquazu").score_breakdown(view, gettext_for("nl"))
    assert dutch[0][:2] == ["rotsen: 12", "– kolom 1: 3"] and dutch[0][-1] == "totaal: 23"


def test_haleakala_breakdown_by_hand() -> None:
    """A hand-checked example. Red, scoring 1: grass 1, forest 2, the majority card 2 (= 5); scoring 2: grass 1,
    forest 4, mountain 3, fish 3, pearls 4, nautilus 3, shells 2, segment card 4, forest card 0 (= 24);
    29 in all. Categories worth nothing are left out, a scoring card worth nothing is not."""
    from spieltafel.server.web.i18n import gettext_for

    module = words("haleakala")
    first = {"grass-statues": 1, "forest-statues": 2, "mountain-statues": 0, "fish": 0, "pearls": 0, "majority": 2}
    second = {
        "grass-statues": 1,
        "forest-statues": 4,
        "mountain-statues": 3,
        "fish": 3,
        "pearls": 4,
        "nautilus": 3,
        "shells": 2,
        "segment": 4,
        "forest": 0,
    }
    yellow = {"grass-statues": 1, "forest-statues": 0, "mountain-statues": 0, "fish": 0, "pearls": 0}
    view = {
        "phase": "over",
        "round_points": [[5, 1], [24, 1]],
        "scoring_parts": [[first, yellow], [second, {**yellow, "nautilus": 0, "shells": 0}]],
        "player_info": [{"colour": "red", "score": 29}, {"colour": "yellow", "score": 2}],
    }
    rows = module.score_breakdown(view)
    assert rows[0] == [
        "scoring 1: 5",
        "– statues on grass fields: 1 × 1 = 1",
        "– statues on forest fields: 1 × 2 = 2",
        "– scoring card “majority”: 2",
        "scoring 2: 24",
        "– statues on grass fields: 1 × 1 = 1",
        "– statues on forest fields: 2 × 2 = 4",  # two statues, not four
        "– statues on mountain fields: 1 × 3 = 3",
        "– more fish baskets: 3",
        "– pearls: 4",
        "– nautilus: 3",
        "– shells: 2",
        "– scoring card “segment”: 4",
        "– scoring card “forest”: 0",
        "total: 29",
    ]
    assert rows[1] == [
        "scoring 1: 1",
        "– statues on grass fields: 1 × 1 = 1",
        "scoring 2: 1",
        "– statues on grass fields: 1 × 1 = 1",
        "total: 2",
    ]
    assert module.score_breakdown({**view, "phase": "turn"}) == []
    german = module.score_breakdown(view, gettext_for("de"))[0]
    assert german[:2] == ["Wertung 1: 5", "– Statuen auf Grasfeldern: 1 × 1 = 1"]
    assert german[6] == "– Statuen auf Waldfeldern: 2 × 2 = 4"
    assert module.score_breakdown(view, gettext_for("nl"))[0][4:7] == [
        "telling 2: 24",
        "– standbeelden op grasvelden: 1 × 1 = 1",
        "– standbeelden op bosvelden: 2 × 2 = 4",
    ]


def test_niagara_breakdown_by_hand() -> None:
    """Red banked 2 rubies and 2 amethysts (4 gems, value 12, no goal); Yellow one of each colour (5 gems,
    value 15, the each-colour goal); in German and Dutch too."""
    from spieltafel.server.web.i18n import gettext_for

    module = words("niagara")
    view = {
        "player_info": [
            {
                "banked": {"amethyst": 2, "diamond": 0, "amber": 0, "sapphire": 0, "ruby": 2},
                "gems": 4,
                "gem_value": 12,
                "goals": [],
            },
            {
                "banked": {"amethyst": 1, "diamond": 1, "amber": 1, "sapphire": 1, "ruby": 1},
                "gems": 5,
                "gem_value": 15,
                "goals": ["each-colour"],
            },
        ]
    }
    rows = module.score_breakdown(view)
    assert rows[0] == ["gems banked: 4", "2 × amethyst, 2 × ruby", "gem value: 12", "no goal reached"]
    assert rows[1][0] == "gems banked: 5" and rows[1][2:] == ["gem value: 15", "goal: one gem of each colour"]
    assert module.score_breakdown(view, gettext_for("de"))[1][0] == "gesicherte Edelsteine: 5"
    nothing = {"banked": dict.fromkeys(("amethyst", "diamond", "amber", "sapphire", "ruby"), 0), "gems": 0}
    none = module.score_breakdown({"player_info": [{**nothing, "gem_value": 0, "goals": []}]})
    assert none == [["gems banked: 0", "gem value: 0", "no goal reached"]]  # no empty list of gems
    assert module.score_breakdown(view, gettext_for("nl"))[1][2] == "edelsteenwaarde: 15"


def test_an_iquazu_document_whose_parts_do_not_add_up_is_refused() -> None:
    """Loading checks the record: the points are the sum of the parts, and no part comes before its scoring."""
    from spieltafel.core import StateFormatError

    state, _ = finished("iquazu", 3, 1)
    document = state.to_json()
    game = get_game("iquazu")
    assert game.state_from_json(document).to_json() == document
    changed = {**document, "rock_points": [list(r) for r in state.rock_points]}
    changed["rock_points"][0][0] += 1  # type: ignore[index]
    with pytest.raises(StateFormatError, match=r"seat 0 has \d+ points, but its rocks and points tiles give"):
        game.state_from_json(changed)
    early = get_game("iquazu").new_state(players=2, seed=4, options={}).to_json()
    early["rock_points"] = [[0] * 10 + [3], [0] * 11]
    early["points"] = [3, 0]
    with pytest.raises(StateFormatError, match="seat 0 has points from a rock not yet scored"):
        game.state_from_json(early)
    tiles = {**get_game("iquazu").new_state(players=2, seed=4, options={}).to_json(), "tile_points": [2, 0]}
    tiles["points"] = [2, 0]
    with pytest.raises(StateFormatError, match="points tiles counted before the end"):
        game.state_from_json(tiles)


def test_iquazu_parts_the_rules_cannot_give_are_refused() -> None:
    """Loading asks for what the rules can give, not only for sums that agree: the points tiles' points are
    those of the points tiles held; a scored rock gives its values in order (the most gems its first value,
    ties broken by the lower gem, never shared), each once, and nothing else."""
    from spieltafel.core import StateFormatError
    from spieltafel.games.iquazu.components import ROCK_POINTS, TILE_KINDS

    game = get_game("iquazu")
    state, _ = finished("iquazu", 3, 1)
    document = state.to_json()
    points_tiles = [t for t, kind in enumerate(TILE_KINDS) if kind[1] == "points"]

    def changed(seat: int, rocks: list[int] | None = None, tiles: int | None = None) -> dict[str, Any]:
        """The document with seat's parts replaced and its points made their sum again."""
        rock_points = [list(r) for r in state.rock_points]
        tile_points = list(state.tile_points)
        rock_points[seat] = rocks if rocks is not None else rock_points[seat]
        tile_points[seat] = tiles if tiles is not None else tile_points[seat]
        points = [sum(r) + t for r, t in zip(rock_points, tile_points, strict=True)]
        return {**document, "rock_points": rock_points, "tile_points": tile_points, "points": points}

    no_tiles = changed(0, tiles=40)
    no_tiles["tiles"] = [[0 if t in points_tiles else n for t, n in enumerate(held)] for held in state.tiles]
    no_tiles["removed_tiles"] = [  # the points tiles out of the game instead: every tile still there once
        n + (sum(held[t] for held in state.tiles) if t in points_tiles else 0)
        for t, n in enumerate(document["removed_tiles"])  # type: ignore[arg-type]
    ]
    for seat in range(3):  # the other seats hold no points tiles now either: their parts follow
        no_tiles["tile_points"][seat] = 40 if seat == 0 else 0
    no_tiles["points"] = [sum(r) + t for r, t in zip(no_tiles["rock_points"], no_tiles["tile_points"], strict=True)]
    with pytest.raises(StateFormatError, match="seat 0 has tile_points 40, but the points tiles it holds give 0"):
        game.state_from_json(no_tiles)
    with pytest.raises(StateFormatError, match=r"seat 0 has tile_points 13, but the points tiles it holds give 12"):
        game.state_from_json(changed(0, tiles=13))
    values = ROCK_POINTS[3]
    rocks = [list(r) for r in state.rock_points]
    column = next(c for c in range(ROCK_COLUMNS) if rocks[0][c] == values[c][0])  # seat 0 won this rock
    odd = rocks[0][:]
    odd[column] = values[column][0] + 1  # a value not on that rock
    with pytest.raises(StateFormatError, match=rf"column {column + 1}'s rock gave \[{odd[column]}"):
        game.state_from_json(changed(0, rocks=odd))
    twice = rocks[1][:]
    twice[column] = values[column][0]  # two seats given the first value: a share the rules never make
    with pytest.raises(StateFormatError, match=rf"column {column + 1}'s rock gave \[{values[column][0]}, "):
        game.state_from_json(changed(1, rocks=twice))
    gap = rocks[0][:]
    gap[column] = 0  # the second value given, the first to nobody
    others = [s for s in (1, 2) if rocks[s][column]]
    if not others:  # nobody else scored this rock: give seat 0 only the second value
        gap[column] = values[column][1]
    with pytest.raises(StateFormatError, match=rf"column {column + 1}'s rock gave .* go one each, best first"):
        game.state_from_json(changed(0, rocks=gap))
    assert game.state_from_json(document).to_json() == document  # the untouched document loads


def haleakala_final() -> tuple[HaleakalaState, dict[str, Any]]:
    """A finished Haleakala game in which some scoring card is not seat 0's at scoring 2."""
    for seed in range(50):
        state, _ = finished("haleakala", 2, seed)
        assert isinstance(state, HaleakalaState)
        if any(owner != 0 for owner in state.scoring_owner) and any(owner == 0 for owner in state.scoring_owner):
            return state, state.to_json()
    raise AssertionError("no such game in 50 seeds")


def with_part(document: dict[str, Any], row: int, category: str, points: int) -> dict[str, Any]:
    """``document`` with one recorded part replaced, that scoring's points and the total following it."""
    rows = [list(parts) for parts in document["scoring_parts"]]
    k = SCORING_PARTS.index(category)
    rows[row][k] = points
    number, seat = divmod(row, 2)
    rounds = [list(r) for r in document["round_points"]]
    rounds[number][seat] = counted_sum(rows[row])
    totals = [sum(r[s] for r in rounds) for s in (0, 1)]
    return {**document, "scoring_parts": rows, "round_points": rounds, "points": totals}


def test_haleakala_parts_the_rules_cannot_give_are_refused() -> None:
    """Loading asks for the NOT_COUNTED pattern of each scoring, scoring cards counted for their owner only
    and statues' points a multiple of their ring's: sums that agree are not enough."""
    from spieltafel.core import StateFormatError

    game = get_game("haleakala")
    state, document = haleakala_final()
    assert game.state_from_json(document).to_json() == document
    cases = [
        (0, "nautilus", 0, r"scoring_parts\[0\]: nautilus is 0, but it is not counted at scoring 1"),
        (1, "shells", 2, r"scoring_parts\[1\]: shells is 2, but it is not counted at scoring 1"),
        (2, "shells", NOT_COUNTED, r"scoring_parts\[2\]: shells is -1, but it is counted at scoring 2"),
        (3, "pearls", NOT_COUNTED, r"scoring_parts\[3\]: pearls is -1, but it is counted at scoring 2"),
        (2, "forest-statues", 3, r"scoring_parts\[2\]: forest-statues is 3, not a multiple of 2 points a statue"),
        (0, "mountain-statues", 4, r"scoring_parts\[0\]: mountain-statues is 4, not a multiple of 3 points"),
    ]
    not_owned = next(k for k, owner in enumerate(state.scoring_owner) if owner != 0)
    owned = next(k for k, owner in enumerate(state.scoring_owner) if owner == 0)
    card, mine = SCORING_PARTS[7 + not_owned], SCORING_PARTS[7 + owned]
    cases += [
        (2, card, 0, rf"scoring_parts\[2\]: {card} is 0 at scoring 2, but seat 0 does not own it"),
        (2, mine, NOT_COUNTED, rf"scoring_parts\[2\]: {mine} is -1 at scoring 2, but seat 0 owns it"),
    ]
    for row, category, points, message in cases:
        with pytest.raises(StateFormatError, match=message):
            game.state_from_json(with_part(document, row, category, points))
    both = with_part(with_part(document, 0, card, 0), 1, card, 0)  # one scoring card, two owners at scoring 1
    with pytest.raises(StateFormatError, match=rf"scoring_parts: {card} is counted for both seats at scoring 1"):
        game.state_from_json(both)


@pytest.mark.parametrize("game", ["iquazu", "haleakala"])
def test_a_format_1_document_is_refused_with_its_reason(game: str) -> None:
    """Documents written before the score's parts were recorded (format 1, no parts) are refused saying why
    and what to do; the engine writes format 2, and a format it does not know is refused too."""
    from spieltafel.core import StateFormatError

    document = get_game(game).new_state(players=2, seed=3, options={}).to_json()
    assert document["format"] == 2
    old = {key: value for key, value in document.items() if key not in ("rock_points", "tile_points", "scoring_parts")}
    message = rf"this {game} state document \(format 1\) was written before the score's parts were recorded: "
    message += "replay the game's actions to get a format 2 document"
    with pytest.raises(StateFormatError, match=message):
        get_game(game).state_from_json({**old, "format": 1})
    with pytest.raises(StateFormatError, match=r"malformed .* state: format: Input should be 2"):
        get_game(game).state_from_json({**document, "format": 3})
