"""The Redis hub's message: the changes of a moment in one pub/sub message, read back in order by every other
process (no Redis needed: the message is built and read without a connection)."""

from __future__ import annotations

from typing import Any

import pytest

from spieltafel.server.realtime.hub import RedisHub


def hubs() -> tuple[RedisHub, RedisHub, list[tuple[str, int, int, Any]]]:
    """Two processes' hubs; what the second delivers and applies is recorded."""
    sender = RedisHub("redis://127.0.0.1:1/0", "test")
    receiver = RedisHub("redis://127.0.0.1:1/0", "test")
    seen: list[tuple[str, int, int, Any]] = []
    receiver.on_remote = lambda table, seq, detail: seen.append(("applied", table, seq, detail))
    receiver.deliver = lambda table, seq: seen.append(("delivered", table, seq, None))  # type: ignore[method-assign]
    return sender, receiver, seen


def test_several_changes_in_one_message_arrive_in_order_with_their_details() -> None:
    sender, receiver, seen = hubs()
    detail = {"seat": 1, "action": 7, "note": "a line\nbreak and spaces"}
    message = sender._message([(4, 10, None), (9, 3, detail), (4, 11, None)])
    receiver._received(message.encode())
    assert seen == [
        ("applied", 4, 10, None), ("delivered", 4, 10, None),
        ("applied", 9, 3, detail), ("delivered", 9, 3, None),
        ("applied", 4, 11, None), ("delivered", 4, 11, None),
    ]


def test_a_process_skips_its_own_message() -> None:
    sender, _, _ = hubs()
    own: list[Any] = []
    sender.on_remote = lambda *change: own.append(change)
    sender.deliver = lambda *change: own.append(change)  # type: ignore[method-assign]
    sender._received(sender._message([(1, 2, None)]).encode())
    assert own == []


@pytest.mark.parametrize("bad", ["x 3", "5", "5 y {}", ""])
def test_a_line_not_understood_is_skipped_and_the_others_still_arrive(bad: str) -> None:
    sender, receiver, seen = hubs()
    good = sender._message([(2, 5, None)]).split("\n")[1]
    receiver._received("\n".join([sender.origin, bad, good]).encode())
    assert seen == [("applied", 2, 5, None), ("delivered", 2, 5, None)]
