"""Tournament statistics: win shares with Wilson intervals, scores, openskill ratings, seats, speed.

Definitions (also written into every report):

* **Win share**: first place counts 1, a shared first place of ``k`` seats counts ``1/k`` to each;
  divided by the games played. The 95% confidence interval is the **Wilson score interval**
  (z = 1.96), computed with the (possibly fractional) number of wins.
* **Rating**: openskill's Plackett–Luce model, updated once per game in game order. A game's ranking
  orders the seats by (winner first, then score), so the game's own tie-breaks decide first place
  and seats equal on both share a rank. Shown as mu with the interval mu ± 2 sigma, and the
  conservative ordinal mu − 3 sigma.
* **Entries and names**: statistics are kept per entry (one per seat of the bot list, e.g.
  ``random#1``, ``random#2``) and also per bot name. A name "wins" a game when any of its seats
  does (its seats' shares add up), so the name win shares also sum to 1; its mean score and speed
  pool all its seats; its rating comes from a second Plackett–Luce model in which each name takes
  part once per game, placed at the rank of its best seat.
* **Per-seat win share**: the share of games won from each seat, whoever sat there (with rotation
  every entry sits in every seat equally often, so differences are seat advantage, e.g. the first
  player's), and per entry and seat.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from .tournament import GameOutcome, TournamentResult

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / trials`` (``(0, 1)`` without trials)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # Mathematically low <= p <= high; guard the end points against rounding (p = 0 or 1).
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def win_shares(winners: Sequence[int], players: int) -> list[float]:
    """Per seat: 1 for a sole winner, ``1/k`` for each of ``k`` tied winners, 0 otherwise."""
    shares = [0.0] * players
    for seat in winners:
        shares[seat] += 1 / len(winners)
    return shares


def ranks(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Competition ranks (1 = best) by (winner, score); equal keys share a rank."""
    keys = [(seat in winners, score) for seat, score in enumerate(scores)]
    return [1 + sum(other > key for other in keys) for key in keys]


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill rating: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def low(self) -> float:
        return self.mu - 2 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 2 * self.sigma

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate_games(rankings: Sequence[Sequence[tuple[int, int]]], players: int) -> list[Rating]:
    """Plackett–Luce ratings of ``players`` participants after games given as ``[(participant, rank), ...]``."""
    model = PlackettLuce()
    current: list[PlackettLuceRating] = [model.rating(name=str(i)) for i in range(players)]
    for ranking in rankings:
        if len(ranking) < 2:
            continue
        teams = [[current[who]] for who, _ in ranking]
        rated = model.rate(teams, ranks=[float(rank) for _, rank in ranking])
        for (who, _), team in zip(ranking, rated, strict=True):
            current[who] = team[0]
    return [Rating(r.mu, r.sigma) for r in current]


def initial_rating() -> Rating:
    """A newcomer's rating (openskill's Plackett–Luce default: mu 25, sigma 25/3)."""
    fresh = PlackettLuce().rating()
    return Rating(fresh.mu, fresh.sigma)


def rate_game(current: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """One game's Plackett–Luce update, as in :func:`rate_games`: each participant's rating before and
    rank (1 = best, equal ranks tie) in, the ratings after out (the server rates its games with it)."""
    model = PlackettLuce()
    teams = [[model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in current]
    rated = model.rate(teams, ranks=[float(place) for place in places])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]


@dataclass(frozen=True, slots=True)
class SeatShare:
    """Wins from one seat: games played there, wins (ties split), share and its Wilson interval."""

    seat: int
    games: int
    wins: float
    share: float
    low: float
    high: float


def seat_share(seat: int, games: int, wins: float) -> SeatShare:
    low, high = wilson_interval(wins, games)
    return SeatShare(seat, games, wins, wins / games if games else 0.0, low, high)


@dataclass(frozen=True, slots=True)
class BotStats:
    """The statistics of one entry, or of every entry of one bot name pooled."""

    label: str
    bot: str
    entries: list[int]
    games: int
    wins: float
    win_share: float
    win_low: float
    win_high: float
    mean_score: float
    score_stdev: float
    scores: list[int]
    rating: Rating
    by_seat: list[SeatShare]
    moves: int
    seconds_per_move: float
    max_seconds_per_move: float

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["rating"] = {
            "mu": self.rating.mu,
            "sigma": self.rating.sigma,
            "low": self.rating.low,
            "high": self.rating.high,
            "ordinal": self.rating.ordinal,
        }
        return data


@dataclass(frozen=True, slots=True)
class GameLength:
    """Game length in actions (all seats' decisions)."""

    mean: float
    stdev: float
    minimum: int
    maximum: int


@dataclass(frozen=True, slots=True)
class ArenaStats:
    """Every statistic of a tournament."""

    entries: list[BotStats]
    names: list[BotStats]
    seats: list[SeatShare]
    length: GameLength

    def to_json(self) -> dict[str, Any]:
        return {
            "entries": [e.to_json() for e in self.entries],
            "names": [n.to_json() for n in self.names],
            "seats": [asdict(s) for s in self.seats],
            "game_length": asdict(self.length),
        }


def _bot_stats(
    label: str, bot: str, entries: list[int], result: TournamentResult, wins_per_game: list[float], rating: Rating
) -> BotStats:
    """Pool ``entries`` (all of one name, or a single entry); ``wins_per_game`` is already pooled."""
    outcomes = result.outcomes
    games = len(outcomes)
    wins = sum(wins_per_game)
    low, high = wilson_interval(wins, games)
    scores = [o.scores[o.seat_of(e)] for o in outcomes for e in entries]
    by_seat: list[SeatShare] = []
    for seat in range(result.players):
        played = [(o, e) for o in outcomes for e in entries if o.seat_of(e) == seat]
        seat_wins = sum(win_shares(o.winners, result.players)[seat] for o, _ in played)
        by_seat.append(seat_share(seat, len(played), seat_wins))
    moves = sum(o.moves[e] for o in outcomes for e in entries)
    seconds = sum(o.seconds[e] for o in outcomes for e in entries)
    longest = max((o.max_seconds[e] for o in outcomes for e in entries), default=0.0)
    return BotStats(
        label=label,
        bot=bot,
        entries=entries,
        games=games,
        wins=wins,
        win_share=wins / games if games else 0.0,
        win_low=low,
        win_high=high,
        mean_score=statistics.fmean(scores) if scores else 0.0,
        score_stdev=statistics.stdev(scores) if len(scores) > 1 else 0.0,
        scores=scores,
        rating=rating,
        by_seat=by_seat,
        moves=moves,
        seconds_per_move=seconds / moves if moves else 0.0,
        max_seconds_per_move=longest,
    )


def entry_wins(outcome: GameOutcome, players: int) -> list[float]:
    """Win share of each entry (not seat) in one game."""
    shares = win_shares(outcome.winners, players)
    return [shares[outcome.seat_of(entry)] for entry in range(players)]


def compute_stats(result: TournamentResult) -> ArenaStats:
    """All statistics of ``result`` (see the module docstring for the definitions)."""
    players = result.players
    outcomes = result.outcomes
    per_game = [entry_wins(o, players) for o in outcomes]

    entry_rankings: list[list[tuple[int, int]]] = []
    for o in outcomes:
        seat_ranks = ranks(o.scores, o.winners)
        entry_rankings.append([(entry, seat_ranks[o.seat_of(entry)]) for entry in range(players)])
    entry_ratings = rate_games(entry_rankings, players)

    names = list(dict.fromkeys(result.bots))
    members = {name: [e for e, bot in enumerate(result.bots) if bot == name] for name in names}
    name_rankings = [
        [(n, min(rank for entry, rank in ranking if result.bots[entry] == name)) for n, name in enumerate(names)]
        for ranking in entry_rankings
    ]
    name_ratings = rate_games(name_rankings, len(names))

    labels = result.labels
    entries = [
        _bot_stats(labels[e], result.bots[e], [e], result, [g[e] for g in per_game], entry_ratings[e])
        for e in range(players)
    ]
    pooled = [
        _bot_stats(name, name, members[name], result, [sum(g[e] for e in members[name]) for g in per_game], rating)
        for name, rating in zip(names, name_ratings, strict=True)
    ]
    seats = [
        seat_share(seat, len(outcomes), sum(win_shares(o.winners, players)[seat] for o in outcomes))
        for seat in range(players)
    ]
    lengths = [o.actions for o in outcomes]
    length = GameLength(
        mean=statistics.fmean(lengths) if lengths else 0.0,
        stdev=statistics.stdev(lengths) if len(lengths) > 1 else 0.0,
        minimum=min(lengths, default=0),
        maximum=max(lengths, default=0),
    )
    return ArenaStats(entries=entries, names=pooled, seats=seats, length=length)
