"""Bots think in a process pool, off the event loop, seeing only their seat's view.

A worker gets the table's full state (it never leaves the server) and hands the bot nothing but an
:class:`~spieltafel.bots.Observation` of its seat, exactly as :func:`spieltafel.match.choose` does.
Workers run at a lower scheduling priority so that the event loop answers people first."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from spieltafel.bots import make_bot
from spieltafel.core import get_game
from spieltafel.match import choose

WORKER_NICENESS = 10


def _lower_priority() -> None:
    with contextlib.suppress(OSError):  # not permitted: run at normal priority
        os.nice(WORKER_NICENESS)
    get_game("iquazu")  # import the games once per worker, not on the first move


def think(game: str, state: dict[str, Any], seat: int, level: str, seed: int) -> int:
    """The action the bot ``level`` chooses for ``seat`` (runs in a worker process)."""
    position = get_game(game).state_from_json(state)
    return choose(make_bot(level, seed), position, seat)


class BotPool:
    """A process pool for bot turns."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_lower_priority)

    async def choose(self, game: str, state: dict[str, Any], seat: int, level: str, seed: int) -> int:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, think, game, state, seat, level, seed)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
