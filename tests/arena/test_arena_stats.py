"""Arena statistics on hand-made inputs: Wilson intervals, tie splitting, ranks, ratings, pooling."""

from __future__ import annotations

import pytest

from spieltafel.arena.stats import compute_stats, ranks, rate_games, wilson_interval, win_shares
from spieltafel.arena.tournament import GameOutcome, TournamentResult, entry_labels, seating_for


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (1, 4, 0.0456, 0.6994),
    ],
)
def test_wilson_interval_known_values(wins: float, games: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(wins, games)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


@pytest.mark.parametrize("games", [1, 2, 3, 7, 20, 101])
def test_wilson_interval_contains_the_share_also_for_fractional_wins(games: int) -> None:
    for half_wins in range(2 * games + 1):
        wins = half_wins / 2
        low, high = wilson_interval(wins, games)
        assert 0.0 <= low <= wins / games <= high <= 1.0


def test_wilson_interval_without_games_is_uninformative() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_win_shares_split_ties() -> None:
    assert win_shares([1], 3) == [0.0, 1.0, 0.0]
    assert win_shares([0, 2], 3) == [0.5, 0.0, 0.5]
    assert sum(win_shares([0, 1, 2], 3)) == pytest.approx(1.0)


def test_ranks_put_the_winner_first_and_share_equal_places() -> None:
    assert ranks([10, 12, 8], [1]) == [2, 1, 3]
    assert ranks([5, 5], [0, 1]) == [1, 1]
    # A tie on points broken by the game's own rule: the winner ranks first, the other second.
    assert ranks([10, 12, 12], [2]) == [3, 2, 1]
    assert ranks([7, 3, 7, 3], [0, 2]) == [1, 3, 1, 3]


def test_ratings_favour_the_player_who_keeps_winning() -> None:
    ratings = rate_games([[(0, 1), (1, 2)]] * 10, 2)
    assert ratings[0].mu > 25 > ratings[1].mu
    assert ratings[0].sigma < 25 / 3 and ratings[0].low < ratings[0].mu < ratings[0].high
    even = rate_games([[(0, 1), (1, 1)]] * 5, 2)
    assert even[0].mu == pytest.approx(even[1].mu)


def test_seating_rotates_every_entry_through_every_seat() -> None:
    assert [seating_for(i, 3, True) for i in range(3)] == [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    assert seating_for(5, 3, False) == [0, 1, 2]
    assert entry_labels(["hard", "random", "random"]) == ["hard", "random#1", "random#2"]


def _outcome(index: int, seating: list[int], scores: list[int], winners: list[int]) -> GameOutcome:
    return GameOutcome(
        index=index,
        seed=index,
        seating=seating,
        scores=scores,
        winners=winners,
        actions=10 + index,
        moves=[5, 5, 5],
        seconds=[0.5, 0.05, 0.05],
        max_seconds=[0.2, 0.02, 0.02],
    )


def _hand_made() -> TournamentResult:
    # Entries: 0 = greedy, 1 = random, 2 = random; scores and winners are per seat.
    outcomes = [
        _outcome(0, [0, 1, 2], [10, 5, 3], [0]),  # greedy wins from seat 0
        _outcome(1, [2, 0, 1], [4, 9, 9], [1, 2]),  # greedy (seat 1) ties with random#1 (seat 2)
        _outcome(2, [1, 2, 0], [8, 2, 6], [0]),  # random#1 wins from seat 0
    ]
    return TournamentResult(
        game="iquazu",
        players=3,
        bots=["greedy", "random", "random"],
        games=3,
        seed=0,
        rotate_seats=True,
        options={},
        backend="serial",
        jobs=1,
        seconds=1.0,
        outcomes=outcomes,
    )


def test_compute_stats_on_a_hand_made_tournament() -> None:
    stats = compute_stats(_hand_made())
    greedy, random1, random2 = stats.entries
    assert [e.label for e in stats.entries] == ["greedy", "random#1", "random#2"]
    assert greedy.wins == pytest.approx(1.5) and random1.wins == pytest.approx(1.5) and random2.wins == 0
    assert greedy.win_share == pytest.approx(0.5)
    assert greedy.scores == [10, 9, 6] and greedy.mean_score == pytest.approx(25 / 3)
    assert random1.scores == [5, 9, 8]
    assert [s.games for s in greedy.by_seat] == [1, 1, 1]
    assert [s.wins for s in greedy.by_seat] == [1.0, 0.5, 0.0]
    assert greedy.seconds_per_move == pytest.approx(0.1) and greedy.max_seconds_per_move == pytest.approx(0.2)
    assert greedy.moves == 15
    # Seats, whoever sat there: seat 0 won twice, seats 1 and 2 shared one game.
    assert [s.wins for s in stats.seats] == [2.0, 0.5, 0.5]
    # Pooled by name: random wins a game when either random seat does.
    assert [n.label for n in stats.names] == ["greedy", "random"]
    pooled = stats.names[1]
    assert pooled.entries == [1, 2] and pooled.wins == pytest.approx(1.5) and pooled.games == 3
    assert sorted(pooled.scores) == sorted(random1.scores + random2.scores)
    assert [s.games for s in pooled.by_seat] == [2, 2, 2]
    assert sum(n.win_share for n in stats.names) == pytest.approx(1.0)
    assert stats.length.mean == pytest.approx(11) and (stats.length.minimum, stats.length.maximum) == (10, 12)
    # random#2 never won and always ranked last or shared: the lowest rating.
    assert random2.rating.mu < min(greedy.rating.mu, random1.rating.mu)
    for bot in stats.entries + stats.names:
        assert bot.win_low <= bot.win_share <= bot.win_high
