"""Ending a server process's asyncio tasks: cancel them and wait for them, also when a cancellation is
lost (the bots' runner and queue, the searches, the sockets and the services all end their tasks so)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("spieltafel.server")
CLOSE_SECONDS = 2.0
"""How long a part of the server gets to end its tasks when it closes (a socket, the queue's sender)."""

AGAIN_STEPS = 10
"""How many times :func:`cancel_and_wait` cancels again, in its second ``seconds``, the tasks left."""


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any]], seconds: float) -> set[asyncio.Task[Any]]:
    """Cancel ``tasks`` and wait for them to end, never more than ``2 * seconds``; the tasks still running
    then are logged (by name, with where they are) and returned, left running.

    A cancellation can be lost: redis-py sends a command of a client with a socket timeout through
    ``asyncio.wait_for``, and Python 3.11's ``wait_for`` returns the command's result instead of raising
    when the cancellation comes just after the command was sent (CPython gh-86296); the task goes on as if
    it had never been cancelled. So the tasks get ``seconds`` to end (their cleanup: a job acknowledged),
    then the ones left are cancelled again every ``seconds / AGAIN_STEPS`` for ``seconds`` more. If the
    caller is cancelled meanwhile (hurried), the tasks left are cancelled once more and the caller's
    cancellation goes on."""
    left = {task for task in tasks if not task.done()}
    for task in left:
        task.cancel()
    try:
        if left:
            _, left = await asyncio.wait(left, timeout=seconds)
        for _ in range(AGAIN_STEPS):
            if not left:
                break
            for task in left:
                task.cancel()
            _, left = await asyncio.wait(left, timeout=seconds / AGAIN_STEPS)
    except asyncio.CancelledError:
        for task in left:
            task.cancel()
        raise
    for task in left:
        frames = task.get_stack(limit=1)
        where = f"{frames[0].f_code.co_qualname}:{frames[0].f_lineno}" if frames else "?"
        log.warning("task %s did not stop within %.1f s of its cancellation (at %s); left running",
                    task.get_name(), 2 * seconds, where)
    return left


async def stop(task: asyncio.Task[Any], seconds: float) -> None:
    """Wait up to ``seconds`` for ``task`` to end by itself, then cancel it and wait as long again (and
    cancel it again if its cancellation was lost: :func:`cancel_and_wait`)."""
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        await cancel_and_wait({task}, seconds / 2)
