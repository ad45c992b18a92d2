"""Moves: the one path by which a game changes (a person through HTTP or the socket, a bot through a job).

A move is checked (who asks, their seat, the turn, the ``seq`` they saw, the engine's legality), appended
to the log and committed before anybody is told; the table's clocks change with it."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError

from spieltafel.core import SpieltafelError, State
from spieltafel.core.gestures import StepsError, play_steps
from spieltafel.core.undo import TakebackError
from spieltafel.server.db import Database
from spieltafel.server.db.group_commit import GroupCommit, PlainMove
from spieltafel.server.db.models import utcnow
from spieltafel.server.errors import Conflict, Forbidden, Invalid, StaleSeq
from spieltafel.server.ops import metrics
from spieltafel.server.tables import clocks, rows, undo
from spieltafel.server.tables.cache import TableCache, move_detail
from spieltafel.server.tables.clocks import SeatClock
from spieltafel.server.tables.live import Live
from spieltafel.server.tables.results import Results


class MoveWriter:
    """Checks and commits moves; the only writer of the move log."""

    def __init__(
        self, db: Database, cache: TableCache, results: Results, now_ms: Callable[[], int],
        changed: Callable[[Live, dict[str, Any] | None], None],
    ) -> None:
        self.db = db
        self.cache = cache
        self.results = results
        self.now_ms = now_ms
        self.changed = changed
        self._group_commit = GroupCommit(db, utcnow)
        """Plain moves on PostgreSQL: one statement for the moves of many tables."""

    async def submit(self, live: Live, seat: int, seq: int, action: int | str) -> int:
        """Check and apply one move for ``seat`` (the caller holds the table's lock); the new ``seq``."""
        check_turn(live, seat, seq)
        if undo.asks_undo(action):
            return await self.take_back(live, seat, seq)
        started = time.perf_counter()
        after = live.state.clone()
        try:
            events = after.apply(seat, action)
        except SpieltafelError as error:
            raise Invalid("illegal", str(error)) from error
        index = action if isinstance(action, int) else live.state.parse_action(seat, action)
        changes = clocks.retime(
            live.timing, [s.clock for s in live.seats], live.timed(), seat,
            set() if after.is_over else set(after.seats_to_act()), self.now_ms(),
        )
        await self._append(live, seat, index, live.state.action_text(seat, index), after, changes)
        metrics.moved(live.game, live.seats[seat].bot is not None, time.perf_counter() - started)
        live.set_clocks(changes)
        live.state, live.seq = after, seq + 1
        live.takebacks.moved(after, seat, index, events)
        live.status = "over" if after.is_over else "playing"
        self.cache.note_events(live, live.seq, events)
        self.changed(live, move_detail(seq, seat, index, changes))
        if after.is_over:  # the players have the final state; the mover's answer waits for the ratings
            await self.results.finish(live)
        return live.seq

    async def submit_steps(self, live: Live, seat: int, seq: int, actions: Sequence[int | str]) -> int:
        """Check and apply a list of ``seat``'s actions as one submission (a gesture, :mod:`spieltafel.core.gestures`):
        all steps or none. Each step is checked against the position it meets and stays a move of its own in
        the log (one row, its events and ``seq`` each); the rows are committed in one transaction. The new
        ``seq``; Invalid ``illegal-steps`` (nothing changed) when a step is refused."""
        check_turn(live, seat, seq)
        if actions and all(undo.asks_undo(action) for action in actions):
            return await self.take_back_steps(live, seat, seq, len(actions))
        if any(undo.asks_undo(action) for action in actions):
            raise Invalid("illegal-steps", "a list of actions cannot mix moves and takebacks: send undo on its own")
        started = time.perf_counter()
        after = live.state.clone()
        before = live.state.clone()  # each step's notation is read in the position it was played from
        try:
            steps = play_steps(after, seat, actions)
        except StepsError as error:
            raise Invalid("illegal-steps", f"nothing was played: {error}") from error
        changes = clocks.retime(
            live.timing, [s.clock for s in live.seats], live.timed(), seat,
            set() if after.is_over else set(after.seats_to_act()), self.now_ms(),
        )
        rows_in: list[dict[str, Any]] = []
        for number, (index, _events) in enumerate(steps):
            rows_in.append({"table_id": live.id, "seq": live.seq + number, "seat": seat, "action": index,
                            "notation": before.action_text(seat, index)})
            before.step(seat, index)
        await self._append_rows(live, seat, rows_in, after, changes)
        metrics.moved(live.game, live.seats[seat].bot is not None, time.perf_counter() - started)
        live.set_clocks(changes)
        replayed = live.state.clone()
        for number, (index, events) in enumerate(steps, 1):
            replayed.step(seat, index)
            live.takebacks.moved(replayed, seat, index, events)
            self.cache.note_events(live, seq + number, events)
        live.state, live.seq = after, seq + len(steps)
        live.status = "over" if after.is_over else "playing"
        self.changed(live, None)  # several moves: the other processes load the table afresh
        if after.is_over:
            await self.results.finish(live)
        return live.seq

    async def take_back(self, live: Live, seat: int, seq: int) -> int:
        """Take back ``seat``'s latest move (a person's request; the engine says which moves may be taken back:
        :mod:`.undo`): a row of its own in the log with the next ``seq``; the clocks run on. Other processes
        reload the table (the hub carries no move)."""
        undo.check_person(live.seats[seat].bot)
        try:
            after, events = live.takebacks.take_back(live.first_state(), seat)
        except TakebackError as error:
            raise undo.refused(error) from error
        await self._append(live, seat, undo.UNDO, undo.UNDO_NOTATION, after, {})
        live.takebacks.commit()
        live.state, live.seq = after, seq + 1
        self.cache.note_events(live, live.seq, events)
        self.changed(live, None)
        return live.seq

    async def take_back_steps(self, live: Live, seat: int, seq: int, count: int) -> int:
        """Take back ``seat``'s latest ``count`` moves (a gesture's steps: one ``U`` at the table page), when
        the window allows all of them (else nothing: 409 ``no-takeback``); a log row each."""
        undo.check_person(live.seats[seat].bot)
        allowed = live.takebacks.allowed(seat)
        if count > allowed:
            raise undo.refused(TakebackError(f"{count} moves asked to take back, {allowed} may be now"))
        for _ in range(count):
            seq = await self.take_back(live, seat, seq)
        return seq

    async def _append(
        self, live: Live, seat: int, action: int, notation: str, after: State,
        changes: Mapping[int, SeatClock],
    ) -> None:
        alone = not changes and live.seats[seat].playing and self.db.kind == "postgresql"
        try:
            if alone:  # committed with the other processes' plain moves of the moment, one statement
                await self._append_plain(PlainMove(live.id, live.seq, seat, action, notation, ends=after.is_over))
                return
            row = {"table_id": live.id, "seq": live.seq, "seat": seat, "action": action, "notation": notation}
            async with self.db.write() as session:
                if live.seats[seat].playing and self.db.kind == "postgresql":
                    await rows.hold_person_and_append(session, row)
                else:
                    if live.seats[seat].playing:
                        await rows.hold_person(session, live.id, seat)
                    await rows.append_move(session, row)
                await rows.write_clocks(session, live.id, changes, live.seats)
                if after.is_over:  # the ratings come after the commit (finish): no last move waits for another
                    await rows.end_game(session, live.id)  # game's ratings (the same players' games at once)
        except (IntegrityError, rows.Stale) as error:  # another writer committed this seq first
            fresh = await self.cache.load(live.id, refresh=True)
            raise StaleSeq(live.seq, fresh.seq) from error
        except rows.SeatGone as error:  # another process applied the leaver rule a moment ago
            await self.cache.load(live.id, refresh=True)
            raise Forbidden("left", f"your seat at table {live.id} was taken over: you cannot play on") from error

    async def _append_rows(
        self, live: Live, seat: int, steps: Sequence[Mapping[str, Any]], after: State,
        changes: Mapping[int, SeatClock],
    ) -> None:
        """The rows of one submission of several steps in one transaction: all are committed or none."""
        try:
            async with self.db.write() as session:
                if live.seats[seat].playing:
                    await rows.hold_person(session, live.id, seat)
                for row in steps:
                    await rows.append_move(session, row)
                await rows.write_clocks(session, live.id, changes, live.seats)
                if after.is_over:
                    await rows.end_game(session, live.id)
        except (IntegrityError, rows.Stale) as error:
            fresh = await self.cache.load(live.id, refresh=True)
            raise StaleSeq(live.seq, fresh.seq) from error
        except rows.SeatGone as error:
            await self.cache.load(live.id, refresh=True)
            raise Forbidden("left", f"your seat at table {live.id} was taken over: you cannot play on") from error

    async def _append_plain(self, move: PlainMove) -> None:
        outcome = await self._group_commit.append(move)
        if outcome == "gone":
            raise rows.SeatGone
        if outcome == "stale":
            raise rows.Stale


def check_turn(live: Live, seat: int, seq: int) -> None:
    """Refuse a move (or a list of steps) of ``seat`` made at ``seq`` unless the table plays, is at ``seq``
    and waits for ``seat``."""
    if seq < live.seq:  # the mover saw an older state (also when the game has ended since, e.g. by the
        raise StaleSeq(seq, live.seq)  # other process's move just carried here by the hub)
    if live.status != "playing":
        raise Conflict("not-playing", f"table {live.id} is {live.status}: moves are taken only while it plays")
    if seq != live.seq:
        raise StaleSeq(seq, live.seq)
    if seat not in live.state.seats_to_act():
        acting = ", ".join(map(str, live.state.seats_to_act()))
        raise Forbidden("not-your-turn", f"it is not seat {seat}'s turn; seats to act: {acting}")
