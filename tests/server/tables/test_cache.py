"""The table cache: a move committed by another process (carried by the hub) is applied to the cached game
only when the cache is just before it and nobody here holds the table; anything else drops or keeps the
cache so that the next reader loads from the log."""

from __future__ import annotations

from pathlib import Path

import pytest

from spieltafel.core import get_game
from spieltafel.server.db import Database
from spieltafel.server.tables.cache import TableCache, move_detail
from spieltafel.server.tables.clocks import SeatClock
from spieltafel.server.tables.live import Live, Seat

pytestmark = pytest.mark.anyio


def _cache_with_a_table(tmp_path: Path) -> tuple[TableCache, Live]:
    cache = TableCache(Database(f"sqlite+aiosqlite:///{tmp_path / 'unused.db'}"))
    state = get_game("haleakala").new_state(2, 7, {})
    live = Live(1, "haleakala", 2, {}, 7, "playing", [Seat(1, "a", None), Seat(2, "b", None)], state)
    cache.keep(live)
    return cache, live


def _next_move(live: Live) -> tuple[int, int]:
    seat = live.state.seats_to_act()[0]
    return seat, live.state.legal_actions(seat)[0]


async def test_a_remote_move_just_after_the_cache_is_applied_with_its_clocks(tmp_path: Path) -> None:
    cache, live = _cache_with_a_table(tmp_path)
    seat, action = _next_move(live)
    expected = live.state.clone()
    expected.apply(seat, action)
    cache.apply_remote(1, 1, move_detail(0, seat, action, {seat: SeatClock(5_000, None, None)}))
    assert cache.cached(1) is live and live.seq == 1
    assert live.state.to_json() == expected.to_json()
    assert live.seats[seat].clock == SeatClock(5_000, None, None)
    assert live.events and live.events[-1][0] == 1


async def test_a_remote_move_that_skips_a_seq_leaves_the_cache_for_the_log(tmp_path: Path) -> None:
    cache, live = _cache_with_a_table(tmp_path)
    seat, action = _next_move(live)
    before = live.state.to_json()
    cache.apply_remote(1, 2, move_detail(1, seat, action, {}))
    assert cache.cached(1) is live and live.seq == 0 and live.state.to_json() == before


async def test_a_remote_move_while_this_process_holds_the_table_is_not_applied(tmp_path: Path) -> None:
    cache, live = _cache_with_a_table(tmp_path)
    seat, action = _next_move(live)
    async with cache.lock(1):
        cache.apply_remote(1, 1, move_detail(0, seat, action, {}))
    assert live.seq == 0


async def test_a_remote_move_of_a_seat_not_to_act_drops_the_cache(tmp_path: Path) -> None:
    cache, live = _cache_with_a_table(tmp_path)
    seat, action = _next_move(live)
    cache.apply_remote(1, 1, move_detail(0, 1 - seat, action, {}))
    assert cache.cached(1) is None


async def test_a_change_without_a_move_drops_the_cache(tmp_path: Path) -> None:
    cache, _ = _cache_with_a_table(tmp_path)
    cache.apply_remote(1, 0, None)
    assert cache.cached(1) is None
