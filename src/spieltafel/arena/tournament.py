"""Tournaments: many games between a fixed list of bot entries, seats rotated, moves timed.

A tournament has one *entry* per seat (``["hard", "random", "random"]`` has three entries; a bot
name may repeat). With seat rotation, game ``i`` puts entry ``e`` in seat ``(e + i) % players``, so
over every block of ``players`` consecutive games each entry sits in each seat exactly once; the
number of games must then be a multiple of the player count (anything else would leave the seats
unbalanced, so it is refused rather than silently rounded).

Seeds: with rotation the ``players`` games of one block share one deal (game seed ``seed + i //
players``), like duplicate bridge: every entry plays the same deal from every seat, which removes
most of the luck of the deal from the comparison. Without rotation game ``i`` uses ``seed + i``. Each
bot gets its own generator seed derived from (tournament seed, game, entry). Results depend only on
these seeds, never on ``jobs`` or the backend: games are collected and ordered by their index.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from spieltafel.bots import Bot, Observation, make_bot
from spieltafel.core import Rng, SpieltafelError, get_game
from spieltafel.extras import needs
from spieltafel.match import play_game

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after every finished game (in the calling process)."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One finished tournament game, small enough to send between processes."""

    index: int
    seed: int
    seating: list[int]
    """``seating[seat]`` is the entry that played ``seat``."""
    scores: list[int]
    """Final score per seat."""
    winners: list[int]
    """Winning seats (ties share the win)."""
    actions: int
    """Game length: every applied action, of all seats."""
    moves: list[int]
    """Decisions per entry (indexed by entry, not by seat)."""
    seconds: list[float]
    """Thinking time per entry, summed over its moves."""
    max_seconds: list[float]
    """The longest single move per entry."""

    def seat_of(self, entry: int) -> int:
        return self.seating.index(entry)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "seating": self.seating,
            "scores": self.scores,
            "winners": self.winners,
            "actions": self.actions,
            "moves": self.moves,
            "seconds": self.seconds,
            "max_seconds": self.max_seconds,
        }


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """Everything a tournament produced; statistics are computed from it by :mod:`spieltafel.arena.stats`."""

    game: str
    players: int
    bots: list[str]
    """The entries' bot names, in entry order (normalised: stripped, lower case)."""
    games: int
    seed: int
    rotate_seats: bool
    options: dict[str, str]
    backend: str
    """``serial``, ``processes`` or ``ray``."""
    jobs: int
    seconds: float
    """Wall-clock time of the whole tournament."""
    outcomes: list[GameOutcome] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        """A display name per entry: the bot name, numbered when it repeats (``random#1``, ``random#2``)."""
        return entry_labels(self.bots)


def entry_labels(bots: Sequence[str]) -> list[str]:
    labels: list[str] = []
    for i, name in enumerate(bots):
        if bots.count(name) > 1:
            labels.append(f"{name}#{bots[:i].count(name) + 1}")
        else:
            labels.append(name)
    return labels


class TimedBot:
    """Wraps a bot and measures how long each of its decisions takes (wall clock, ``perf_counter``)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.moves = 0
        self.seconds = 0.0
        self.max_seconds = 0.0

    def choose(self, observation: Observation) -> int:
        start = time.perf_counter()
        action = self.bot.choose(observation)
        spent = time.perf_counter() - start
        self.moves += 1
        self.seconds += spent
        self.max_seconds = max(self.max_seconds, spent)
        return action

    def __getattr__(self, attribute: str) -> Any:
        """Anything else a bot offers (later hooks of the bot protocol) is the wrapped bot's."""
        return getattr(self.bot, attribute)


def seating_for(index: int, players: int, rotate: bool) -> list[int]:
    """The entry in each seat for game ``index``: entry ``e`` sits in seat ``(e + index) % players``."""
    shift = index % players if rotate else 0
    return [(seat - shift) % players for seat in range(players)]


def game_seed(seed: int, index: int, players: int, rotate: bool) -> int:
    """The deal of game ``index``: shared by the ``players`` rotations of a block when rotating."""
    return seed + (index // players if rotate else index)


def bot_seed(seed: int, index: int, entry: int) -> int:
    """A bot's own generator seed, distinct per (tournament seed, game, entry)."""
    return Rng(((seed & 0xFFFFFFFF) << 32) ^ (index << 8) ^ entry).next64()


def play_one(
    game: str,
    players: int,
    bots: Sequence[str],
    index: int,
    seed: int,
    rotate: bool,
    options: Mapping[str, str],
) -> GameOutcome:
    """Play tournament game ``index`` (a pure function of its arguments, for processes and Ray tasks)."""
    seating = seating_for(index, players, rotate)
    deal = game_seed(seed, index, players, rotate)
    timed = [TimedBot(make_bot(name, bot_seed(seed, index, entry))) for entry, name in enumerate(bots)]
    state, record = play_game(get_game(game), players, deal, [timed[entry] for entry in seating], options)
    return GameOutcome(
        index=index,
        seed=deal,
        seating=seating,
        scores=state.scores(),
        winners=state.winners(),
        actions=len(record.actions),
        moves=[t.moves for t in timed],
        seconds=[t.seconds for t in timed],
        max_seconds=[t.max_seconds for t in timed],
    )


def check_tournament(game: str, players: int, bots: Sequence[str], games: int, jobs: int, rotate: bool) -> list[str]:
    """Validate the set-up (raises SpieltafelError with a one-line reason); return normalised bot names."""
    spec = get_game(game)
    spec.check_players(players)
    names = [name.strip().lower() for name in bots]
    if any(not name for name in names):
        raise SpieltafelError(f"empty bot name in {','.join(bots)!r}")
    if len(names) != players:
        raise SpieltafelError(f"{len(names)} bots given ({', '.join(names)}) for {players} players: give one per seat")
    for name in dict.fromkeys(names):
        make_bot(name, 0)
    if games < 1:
        raise SpieltafelError(f"the number of games must be at least 1, not {games}")
    if jobs < 1:
        raise SpieltafelError(f"jobs must be at least 1, not {jobs}")
    if rotate and games % players:
        lower, upper = games - games % players, games + players - games % players
        hint = f"{lower} or {upper}" if lower else str(upper)
        raise SpieltafelError(
            f"{games} games cannot rotate {players} seats evenly: use a multiple of {players} (e.g. {hint}) "
            "or turn seat rotation off"
        )
    return names


def run_tournament(
    game: str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    rotate_seats: bool = True,
    ray_address: str | None = None,
    options: Mapping[str, str] | None = None,
    progress: ProgressCallback | None = None,
) -> TournamentResult:
    """Play ``games`` games of ``game`` between ``bots`` (one per seat) and return every outcome.

    ``jobs > 1`` plays the games in that many worker processes; ``ray_address`` plays them as Ray
    tasks instead (``jobs`` is then ignored: the cluster's CPUs decide; ``"local"`` starts a local
    Ray, which takes a few seconds; on a real cluster every node needs spieltafel installed). The
    outcomes, ordered by game index, are the same whatever the backend; only the timings differ.
    """
    names = check_tournament(game, players, bots, games, jobs, rotate_seats)
    spec = get_game(game)
    resolved = spec.resolve_options(options or {})
    args = (spec.name, players, names)
    done: dict[int, GameOutcome] = {}

    def collect(outcome: GameOutcome) -> None:
        done[outcome.index] = outcome
        if progress is not None:
            progress(len(done), games)

    start = time.perf_counter()
    if ray_address is not None:
        backend = "ray"
        _run_ray(ray_address, args, games, seed, rotate_seats, resolved, collect)
    elif jobs == 1:
        backend = "serial"
        for index in range(games):
            collect(play_one(*args, index, seed, rotate_seats, resolved))
    else:
        backend = "processes"
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_one, *args, index, seed, rotate_seats, resolved) for index in range(games)]
            for future in as_completed(futures):
                collect(future.result())
    elapsed = time.perf_counter() - start
    return TournamentResult(
        game=spec.name,
        players=players,
        bots=names,
        games=games,
        seed=seed,
        rotate_seats=rotate_seats,
        options=resolved,
        backend=backend,
        jobs=jobs,
        seconds=elapsed,
        outcomes=[done[i] for i in range(games)],
    )


def _run_ray(
    address: str,
    args: tuple[str, int, list[str]],
    games: int,
    seed: int,
    rotate: bool,
    options: dict[str, str],
    collect: Callable[[GameOutcome], None],
) -> None:
    """Play the games as Ray tasks on the cluster at ``address`` (``"local"``: a local Ray)."""
    try:
        import ray
    except ImportError as error:
        raise SpieltafelError(needs("arena --ray", "arena")) from error
    started_here = not ray.is_initialized()
    if started_here:
        try:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise SpieltafelError(f"cannot connect to Ray at {address!r}: {error}") from error
    try:
        task = ray.remote(num_cpus=1)(play_one)
        pending = [task.remote(*args, index, seed, rotate, options) for index in range(games)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                collect(ray.get(ref))
    finally:
        if started_here:
            ray.shutdown()
