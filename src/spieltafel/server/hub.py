"""Fan-out of table changes to the connections watching a table.

The in-process hub passes only the new ``seq``: each connection then builds the state message for its
own seat, so nothing seat-specific travels through the hub (a Redis hub can do the same later)."""

from __future__ import annotations

import asyncio
from collections import defaultdict


class Hub:
    """In-memory publish/subscribe keyed by table id (one server process)."""

    kind = "memory"

    def __init__(self) -> None:
        self._subscribers: defaultdict[int, set[asyncio.Queue[int]]] = defaultdict(set)

    def subscribe(self, table_id: int) -> asyncio.Queue[int]:
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._subscribers[table_id].add(queue)
        return queue

    def unsubscribe(self, table_id: int, queue: asyncio.Queue[int]) -> None:
        queues = self._subscribers.get(table_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self._subscribers[table_id]

    def publish(self, table_id: int, seq: int) -> None:
        """Tell every watcher of ``table_id`` that the table changed (now at ``seq``)."""
        for queue in self._subscribers.get(table_id, ()):
            queue.put_nowait(seq)

    def watchers(self, table_id: int) -> int:
        return len(self._subscribers.get(table_id, ()))
