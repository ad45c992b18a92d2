"""Stopping the searcher and the bot runner ends in bounded time, even when a loop's cancellation is lost.

A cancellation can be lost: redis-py sends every command of a client with a socket timeout (the searcher's
``SearchQueue``) through ``asyncio.wait_for``, and Python 3.11's ``wait_for`` returns the command's result
instead of raising when the cancellation comes just after the command was sent (CPython gh-86296). The loop
then goes on as if nothing happened. The fakes here lose the first cancellation that comes while a command
is in flight, so that the race is hit every time; no Redis, no database."""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

import pytest

from spieltafel.server import tasks as server_tasks
from spieltafel.server.analysis.remote import SearchQueue, Taken
from spieltafel.server.analysis.runner import SearchRunner
from spieltafel.server.bots import runners
from spieltafel.server.bots.jobs import BotJob, MemoryJobs
from spieltafel.server.bots.runners import BotRunner
from spieltafel.server.tasks import cancel_and_wait

pytestmark = pytest.mark.anyio

BOUND = 15.0
"""Longer than any stop may take (the site's is ``4 * CLOSE_SECONDS`` at most): past it, the stop hangs."""


_lost: weakref.WeakKeyDictionary[asyncio.Task[Any], int] = weakref.WeakKeyDictionary()
"""The cancellations each task has lost so far."""


async def in_flight(seconds: float = 0.2, losing: int = 1) -> None:
    """A command in flight that loses a cancellation coming meanwhile, as 3.11's ``wait_for`` may: each
    task loses its first ``losing`` ones (then they are raised, so that no test leaves a task behind that
    hangs the event loop's shutdown)."""
    task = asyncio.current_task()
    assert task is not None
    try:
        await asyncio.sleep(seconds)
    except asyncio.CancelledError:
        if _lost.get(task, 0) >= losing:
            raise
        _lost[task] = _lost.get(task, 0) + 1


class LosingQueue:
    """What the searcher uses of a ``SearchQueue``, each command losing the cancellations that come while it
    is in flight."""

    timeout = 15.0

    def __init__(self) -> None:
        self.closing = False
        self.announced = 0
        self.looks = 0
        self.withdrawn = False

    async def announce(self, slots: int) -> None:
        await in_flight()
        self.announced += 1

    async def poll(self, kind: str) -> Taken | None:
        if self.closing:
            raise asyncio.CancelledError
        self.looks += 1
        await in_flight()
        return None

    async def withdraw(self, slots: int) -> None:
        self.withdrawn = True


class Analyses:
    def __init__(self) -> None:
        self.slots = asyncio.Semaphore(1)


def searcher(queue: LosingQueue) -> SearchRunner:
    fake: Any = queue
    none: Any = None
    analyses: Any = Analyses()
    return SearchRunner(fake, none, none, analyses, 1)


async def stopped(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


@pytest.mark.parametrize("steps", [0, 3])
async def test_a_searcher_stopped_while_its_commands_lose_the_cancellation_stops(steps: int) -> None:
    """Stopped right after its start (its first announce and looks in flight), the searcher ends in bounded
    time, withdraws, and leaves no loop behind: none announces or looks any more."""
    before = asyncio.all_tasks()
    queue = LosingQueue()
    task = asyncio.create_task(searcher(queue).run())
    for _ in range(steps):
        await asyncio.sleep(0)
    await asyncio.sleep(0.05)  # the announce and both looks in flight
    try:
        await asyncio.wait_for(stopped(task), BOUND)
    except TimeoutError:
        raise AssertionError("the searcher's stop hangs") from None
    assert queue.withdrawn
    announced, looks = queue.announced, queue.looks
    await asyncio.sleep(0.5)
    assert (queue.announced, queue.looks) == (announced, looks), "a loop of the stopped searcher goes on"
    assert not asyncio.all_tasks() - before, asyncio.all_tasks() - before


async def test_a_searcher_stopped_while_idle_stops_at_once() -> None:
    queue = LosingQueue()
    task = asyncio.create_task(searcher(queue).run())
    await asyncio.sleep(0.5)  # the announce done, the loops between looks or in one
    started = asyncio.get_running_loop().time()
    await asyncio.wait_for(stopped(task), BOUND)
    assert queue.withdrawn and asyncio.get_running_loop().time() - started < 1.5


async def test_the_searchers_queue_is_a_search_queue() -> None:
    """The fake has what the stop path uses of the real queue, by those names."""
    real = SearchQueue("redis://127.0.0.1:1/0", "p", "c", 15.0)  # no connection made
    try:
        for name in ("closing", "announce", "poll", "withdraw", "timeout"):
            assert hasattr(real, name) and hasattr(LosingQueue(), name), name
    finally:
        await real.close()


# -- the helper ----------------------------------------------------------------------------------------------
async def test_a_task_that_lost_its_cancellation_is_cancelled_again() -> None:
    """Its cancellations lost while in flight (three times), it ends at a later one, within the bound."""
    async def loses_three() -> None:
        while True:
            await in_flight(0.2, losing=3)
            await asyncio.sleep(0.05)

    task = asyncio.create_task(loses_three(), name="loses-three")
    await asyncio.sleep(0.05)
    left = await asyncio.wait_for(cancel_and_wait([task], 1.0), BOUND)
    assert not left and task.cancelled()


async def test_a_task_that_never_stops_is_logged_and_left_in_bounded_time(caplog: pytest.LogCaptureFixture) -> None:
    ending = asyncio.Event()

    async def never_stops() -> None:  # loses every cancellation, until the test ends it
        while not ending.is_set():
            await in_flight(0.01, losing=1_000_000)

    task = asyncio.create_task(never_stops(), name="never-stops")
    started = asyncio.get_running_loop().time()
    try:
        with caplog.at_level(logging.WARNING, logger="spieltafel.server"):
            left = await asyncio.wait_for(cancel_and_wait([task], 0.3), BOUND)
        assert asyncio.get_running_loop().time() - started < 1.5
        assert left == {task} and not task.done()
        assert "never-stops" in caplog.text
    finally:
        ending.set()
        await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), BOUND)


async def test_the_callers_cancellation_passes_on_to_the_tasks_left() -> None:
    """A caller hurried (cancelled again) while it waits: the tasks left are cancelled once more at once."""
    async def loses_one() -> None:
        await in_flight(0.5)
        await asyncio.sleep(60)

    task = asyncio.create_task(loses_one())
    await asyncio.sleep(0.05)
    waiter = asyncio.create_task(cancel_and_wait([task], 30.0))
    await asyncio.sleep(0.6)  # its cancellation lost; now in the long sleep
    assert not task.done()
    waiter.cancel()
    await asyncio.gather(waiter, return_exceptions=True)
    await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 1.0)
    assert task.cancelled()


# -- the bot runner ------------------------------------------------------------------------------------------
class Tables:
    def __init__(self) -> None:
        self.sweeps = 0

    async def play_bot(self, job: BotJob) -> bool:
        await asyncio.sleep(60)
        return True

    async def wake_waiting_bots(self) -> None:
        self.sweeps += 1
        await in_flight(0.2)

    async def finish_due(self) -> int:
        return 0


async def test_a_bot_runner_whose_sweep_loses_the_cancellation_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runners, "SWEEP_SECONDS", 0.01)
    before = asyncio.all_tasks()
    tables, queue = Tables(), MemoryJobs()
    queue.put(BotJob(1, 1, 1))
    task = asyncio.create_task(BotRunner(tables, queue, 2).run())
    await asyncio.sleep(0.05)  # a move in flight, a sweep in flight
    await asyncio.wait_for(stopped(task), BOUND)
    sweeps = tables.sweeps
    await asyncio.sleep(0.3)
    assert tables.sweeps == sweeps, "the sweeper of the stopped runner goes on"
    assert not asyncio.all_tasks() - before, asyncio.all_tasks() - before


async def test_stop_ends_a_task_that_lost_its_cancellation() -> None:
    """``tasks.stop`` (the queue's sender): waits for the task to end by itself, then cancels it, again if
    the cancellation was lost."""
    async def sender() -> None:
        while True:
            await in_flight(0.2)
            await asyncio.sleep(0.01)

    task = asyncio.create_task(sender())
    await asyncio.wait_for(server_tasks.stop(task, 0.3), BOUND)
    assert task.done()
