"""Hints during a game (issue 27): the seat to act asks the search what it would play now.

Who may ask (:meth:`~spieltafel.server.tables.live.Live.hints_allowed`): the person of the seat whose
decision it is (its turn, or a simultaneous choice it has still to make), at a casual table, or at a
rated table "against bots" (that person is the only account at the table, every other seat a bot
level). Refused with words: a rated game between people (403 ``no-hints``), a spectator or a person
who left (403 ``not-seated``), another seat's turn (409 ``not-your-turn``), a game not running (409
``not-playing``), a position that moved on (409 ``stale``: before the search, or after it when the seat's
own legal actions or view changed meanwhile; then nothing is counted), a second hint while one runs for
the same seat in this process, or with Redis in any (409 ``hint-running``, held until the worker's job
ends), more hints at once than the site's ``hint_slots`` (503 ``busy``, counting the hints this process's
searcher computes for others too; by default half the bot workers, at least 1, so the
bots' moves always have workers), a process without bot workers on a site with none (503
``hint-unavailable``: the search never runs on the web process) and a worker that died (503
``hint-failed``, logged).

A server process without bot workers (``bot_workers`` 0, the scaled-out site) hands the search through
Redis to the processes that have them (``analysis.remote``: the job holds the table, ``seq`` and seat,
nothing secret; the searcher reads the table itself) and waits for the answer. Then ``hint-running`` holds
for the seat across every server process, and ``busy`` counts the hints in flight on the whole site: at
most ``hint_slots`` when it is set, else as many as the searchers there now compute at once (each
``spieltafel worker`` half its bot workers, at least 1); no searcher at all: 503 ``hint-unavailable``; no
answer within the wait (``SearchQueue.hint_wait``): 503 ``hint-failed``.

The hint is computed in the bot workers (never on the event loop nor in the web process) by
:func:`spieltafel.analysis.hint` on the seat's observation only, as a bot's move is: its legal actions
and samples of its information set; the search's seed comes from the table's id, the position's
``seq`` and the seat (never from the table's secret seed). The site sets its budget (the ``expert``
search: ``hint_seconds``, optionally an iteration cap ``hint_iterations``). Each hint given counts for
the seat (``seats.hints``): shown on the table and game-over pages and in the game's record.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from pydantic import ValidationError
from redis.exceptions import RedisError
from sqlalchemy import update

from spieltafel.analysis import Hint
from spieltafel.core import SpieltafelError
from spieltafel.server.accounts.service import Account
from spieltafel.server.analysis.remote import HintJob, SearchQueue, now_ms
from spieltafel.server.analysis.work import hint_for
from spieltafel.server.bots.runners import BotPool
from spieltafel.server.db import Database, SeatRow
from spieltafel.server.errors import Conflict, Forbidden, StaleSeq, Unavailable
from spieltafel.server.tables.live import Live
from spieltafel.server.tables.service import TableService

log = logging.getLogger("spieltafel.server.analysis")


def hint_seed(table_id: int, seq: int, seat: int) -> int:
    """The search's seed of a hint: public facts only (the same position asked again gives the same hint
    under an iteration budget); never the table's seed, which fixes every hidden card."""
    return (table_id * 1_000_003 + seq * 7_919 + seat * 101) % (2**31)


def unavailable() -> Unavailable:
    return Unavailable(
        "hint-unavailable", "hints are not offered by this server now: it has no bot workers to compute them"
    )


def failed() -> Unavailable:
    return Unavailable("hint-failed", "the hint could not be worked out (a worker stopped): ask again")


def busy() -> Unavailable:
    return Unavailable("busy", "the site is working out as many hints as it can: ask again in a few seconds")


class HintService:
    """Checks who may ask, runs the search in the bot pool and counts the hints given."""

    def __init__(
        self, db: Database, tables: TableService, pool: BotPool | None, seconds: float, iterations: int | None,
        slots: int = 1, remote: SearchQueue | None = None, site_slots: int | None = None,
        free: asyncio.Semaphore | None = None,
    ) -> None:
        """``remote`` (a process without ``pool`` on a site with Redis): the searchers' queue; ``site_slots``:
        the site-wide limit of hints in flight then (None: the searchers' announced capacity). With ``pool``
        and ``remote`` both, the seat's place is taken in Redis too (one hint per seat on the whole site).
        ``free``: the process's semaphore of ``slots`` hints at once, shared with its searcher
        (``analysis.runner``) so that both paths together stay within ``slots``."""
        self.db = db
        self.remote = remote
        self.site_slots = site_slots
        self.tables = tables
        self.pool = pool
        self.seconds = seconds
        self.iterations = iterations
        self.slots = slots
        """Hints computed at once in this process (the other bot workers stay free for the bots' moves)."""
        self.free = free if free is not None else asyncio.Semaphore(slots)
        """Its slots, held from the search's start to its end (shared with the searcher's remote hints)."""
        self._releasing: set[asyncio.Task[None]] = set()
        self.running: set[tuple[int, int]] = set()
        """(table, seat) of the hints being computed in this process: one at a time per seat, released only
        when the worker's job ends (a client that hangs up does not free it)."""

    def check(self, live: Live, account: Account, seq: int | None, unrated_ok: bool = False) -> int:
        """The asking seat, or the refusal that says why there is no hint."""
        seat = live.seat_of(account)
        if seat is None:
            raise Forbidden("not-seated", f"you do not play at table {live.id}: hints are for the seat to act")
        if live.status != "playing":
            raise Conflict("not-playing", f"table {live.id} is {live.status}: hints are given while the game runs")
        if not live.hints_allowed():
            raise Forbidden(
                "no-hints",
                f"table {live.id} is a rated game between people: hints are only for casual games and games "
                "against bots",
            )
        if live.rated and account.program:
            raise Forbidden("no-hints-program", f"table {live.id} is rated: program accounts get no hints in rated "
                            "games (the search would play for you); casual games allow them")
        if live.rated and not unrated_ok and not any(s.hints for s in live.seats):
            raise Conflict("hint-unrates", f"a hint makes the rated game at table {live.id} unrated (no rating "
                           'changes for anyone): ask again with {"unrated_ok": true} to accept that')
        if seq is not None and seq != live.seq:
            raise StaleSeq(seq, live.seq)
        if seat not in live.to_act() or not live.state.legal_actions(seat):
            raise Conflict("not-your-turn", f"it is not your decision at table {live.id}: ask for a hint on your turn")
        return seat

    async def ask(
        self, account: Account, table_id: int, seq: int | None = None, unrated_ok: bool = False
    ) -> dict[str, Any]:
        """A hint for ``account``'s seat at the table now (the caller passed the table gate)."""
        live = await self.tables.read(table_id)
        seat = self.check(live, account, seq, unrated_ok)
        if self.pool is None and self.remote is None:  # the search never runs on the web process's interpreter
            raise unavailable()
        key = (table_id, seat)
        if key in self.running:
            raise Conflict("hint-running", "a hint for your seat is being worked out: wait for it")
        if self.pool is not None and self.free.locked():  # remote: the site's count (ask_remote)
            raise busy()
        at = live.seq
        legal = live.state.legal_actions(seat)
        view = live.state.view(seat)
        if self.pool is None:
            found = await self.ask_remote(table_id, at, seat)
        else:
            found = await self.ask_local(live.game, live.state.to_json(), table_id, at, seat)
        advice = Hint.model_validate(found)
        now = await self.tables.read(table_id)
        if (now.status != "playing" or now.seat_of(account) != seat or seat not in now.to_act()
                or now.state.legal_actions(seat) != legal or now.state.view(seat) != view):
            raise Conflict("stale", f"your position at table {table_id} changed while the hint was worked out: "
                           "ask again")
        used = await self.count(table_id, seat, account)
        return {"table_id": table_id, "seq": now.seq, "seat": seat, "moves": [m.model_dump() for m in advice.moves],
                "iterations": advice.iterations, "hints": used}

    async def ask_local(self, game: str, state: dict[str, Any], table_id: int, seq: int, seat: int) -> dict[str, Any]:
        """The search in this process's pool, holding one of its slots (and with Redis, the seat's place on
        the site) until the worker's job ends, whether the asker is still there or not."""
        key = (table_id, seat)
        if self.free.locked():
            raise busy()
        await self.free.acquire()  # not locked: taken at once, no other asker in between
        self.running.add(key)
        request: str | None = None
        try:
            if self.remote is not None:
                request = self.remote.new_request()
                deadline = now_ms() + int(self.remote.hint_wait(self.seconds) * 1000)
                try:
                    placed = await self.remote.reserve_seat(table_id, seat, request, deadline)
                except (RedisError, OSError) as error:
                    log.warning("hint place not taken: %s", error)
                    raise failed() from error
                if not placed:
                    request = None
                    raise Conflict("hint-running", "a hint for your seat is being worked out: wait for it")
            started: list[bool] = []
            job = asyncio.ensure_future(self._search(key, request, started, game, state, seat,
                                                     hint_seed(table_id, seq, seat)))
        except BaseException:
            self._ended(key, request, [])
            raise
        # held until the worker ends, asker gone or not
        job.add_done_callback(lambda _: self._ended(key, request, started))
        return await asyncio.shield(job)

    async def _search(self, key: tuple[int, int], request: str | None, started: list[bool], game: str,
                      state: dict[str, Any], seat: int, seed: int) -> dict[str, Any]:
        """The search, then the seat's place on the site given back (before the answer: the seat may ask
        again at once)."""
        started.append(True)
        try:
            return await self.run(game, state, seat, seed)
        finally:
            if request is not None:
                await self._release(key, request)

    def _ended(self, key: tuple[int, int], request: str | None, started: list[bool]) -> None:
        """A local hint's job ended (or never started): its slot and its key go back, and its place on the
        site if the job did not give it back itself."""
        self.running.discard(key)
        self.free.release()
        if request is not None and not started:
            task = asyncio.ensure_future(self._release(key, request))
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    async def _release(self, key: tuple[int, int], request: str) -> None:
        remote = self.remote
        assert remote is not None
        try:
            await remote.release(key[0], key[1], request)
        except (RedisError, OSError) as error:  # it lapses by itself at its deadline
            log.warning("hint place not released: %s", error)

    async def run(self, game: str, state: dict[str, Any], seat: int, seed: int) -> dict[str, Any]:
        """The search in a bot worker process."""
        assert self.pool is not None
        args = (game, state, seat, self.iterations, self.seconds, seed)
        try:
            return await self.pool.run(hint_for, *args)
        except SpieltafelError as error:
            raise Conflict("no-hint", f"no hint for this position: {error}") from error
        except BrokenProcessPool as error:
            log.exception("a bot worker died while working out a hint for %s", game)
            raise failed() from error

    async def ask_remote(self, table_id: int, seq: int, seat: int) -> dict[str, Any]:
        """The hint from a searcher through Redis (the checks of :meth:`ask` passed): the seat's place and
        the site's limit are taken, the job queued and its answer awaited; the place is held until the
        answer comes or the wait ends, whether the asker is still there or not."""
        remote = self.remote
        assert remote is not None
        try:
            capacity, redis_now = await remote.searchers()
            if not capacity:
                raise unavailable()
            request = remote.new_request()
            deadline = redis_now + int(remote.hint_wait(self.seconds) * 1000)  # on Redis's clock: read elsewhere
            placed = await remote.reserve(table_id, seat, self.site_slots or capacity, request, deadline)
        except (RedisError, OSError) as error:
            log.warning("hint not queued: %s", error)
            raise failed() from error
        if placed < 0:
            raise Conflict("hint-running", "a hint for your seat is being worked out: wait for it")
        if placed == 0:
            raise busy()
        key = (table_id, seat)
        self.running.add(key)
        job = HintJob(request, table_id, seq, seat, self.iterations, self.seconds, deadline)
        waiting = asyncio.ensure_future(self._wait_remote(job))
        waiting.add_done_callback(lambda _: self.running.discard(key))
        answer = await asyncio.shield(waiting)
        if answer is None:
            log.error("no searcher answered the hint for table %s seat %s in time", table_id, seat)
            raise failed()
        if "hint" in answer and isinstance(answer["hint"], dict):
            found: dict[str, Any] = answer["hint"]
            try:
                Hint.model_validate(found)
            except ValidationError as error:
                log.error("a searcher answered a hint that is none: %s", error)
                raise failed() from error
            return found
        code, message = str(answer.get("error")), str(answer.get("message", ""))
        if code == "stale":
            raise Conflict("stale", f"your position at table {table_id} changed while the hint was worked out: "
                           "ask again")
        if code == "no-hint":
            raise Conflict("no-hint", f"no hint for this position: {message}")
        log.error("a searcher failed the hint for table %s: %s %s", table_id, code, message)
        raise failed()

    async def _wait_remote(self, job: HintJob) -> dict[str, Any] | None:
        remote = self.remote
        assert remote is not None
        try:
            return await remote.ask_hint(job)
        except (RedisError, OSError, ValueError) as error:
            log.warning("hint for table %s lost: %s", job.table_id, error)
            return None
        finally:
            try:
                await remote.release(job.table_id, job.seat, job.request)
            except (RedisError, OSError) as error:  # the places lapse by themselves at the deadline
                log.warning("hint place not released: %s", error)

    async def count(self, table_id: int, seat: int, account: Account) -> int:
        """Count the hint for the seat (still the person's) and return the seat's hints so far."""
        async with self.db.write() as session:
            await session.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                                      SeatRow.account_id == account.id)
                .values(hints=SeatRow.hints + 1)
            )
        live = await self.tables.read(table_id, refresh=True)  # the seats' counts as stored, for this process
        return live.seats[seat].hints
