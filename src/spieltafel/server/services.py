"""The one place that builds every service, and the typed FastAPI dependencies through which routes,
pages and sockets reach them.

:func:`open_site` builds what a server process and a ``spieltafel worker`` share: the database, the hub,
the bots' job queue, the bot pool and its runner, the table service over them and the ratings.
:func:`open_services` builds a server process's :class:`Services` on top: accounts, chat, rate limits
and the e-mails. Routes take them as parameters (``Tables``, ``Accounts``, ``Chat``, ``AllServices``)
or through :func:`services_of`.

Without ``redis_url`` everything lives in this one process. With it, changes fan out over Redis and
bot jobs go through the Redis queue: a process with ``bot_workers > 0`` takes jobs from it, one with
0 only queues them (for the ``spieltafel worker`` processes). So do hints and post-game analyses
(``analysis.remote``): a process with ``bot_workers > 0`` computes its own and takes the others' from
Redis (``analysis.runner``), one with 0 queues them for those."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from spieltafel.server.accounts.leaving import AccountData
from spieltafel.server.accounts.recovery import Recovery
from spieltafel.server.accounts.service import AccountService
from spieltafel.server.analysis.hints import HintService
from spieltafel.server.analysis.remote import SearchQueue
from spieltafel.server.analysis.runner import SearchRunner
from spieltafel.server.analysis.service import AnalysisService
from spieltafel.server.bots.jobs import JobQueue, MemoryJobs, RedisJobs
from spieltafel.server.bots.runners import BotPool, BotRunner, Chore
from spieltafel.server.db import Database
from spieltafel.server.ops import metrics
from spieltafel.server.ratelimit import RateLimits
from spieltafel.server.realtime.hub import Hub, RedisHub
from spieltafel.server.settings import Settings
from spieltafel.server.social.chat import ChatService
from spieltafel.server.social.moderation import ModerationService
from spieltafel.server.social.notify import Notifier
from spieltafel.server.social.ratings import RatingService
from spieltafel.server.tables.expiry import ExpiryTimes
from spieltafel.server.tables.quickplay import QuickPlay
from spieltafel.server.tables.service import TableService
from spieltafel.server.tasks import CLOSE_SECONDS, cancel_and_wait


@dataclass
class Site:
    settings: Settings
    db: Database
    hub: Hub
    jobs: JobQueue
    bots: BotPool | None
    tables: TableService
    ratings: RatingService
    analyses: AnalysisService | None = None
    """Post-game analyses (``analysis.service``): computed here with a bot pool, else queued in ``search``."""
    search: SearchQueue | None = None
    """Hint and analysis jobs through Redis (``analysis.remote``), when the site has Redis."""
    runner: BotRunner | None = None
    hint_free: asyncio.Semaphore | None = None
    """The hints this process computes at once (``hint_slots``): one semaphore for its own askers' hints and
    its searcher's remote ones, so that together they never take more of the bot pool."""
    searcher: SearchRunner | None = None
    """This process's searcher (with a bot pool and Redis): takes the other processes' hints and analyses."""
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def healthy(self) -> dict[str, bool]:
        """Whether the database and the pub/sub answer now."""
        database, pubsub = await asyncio.gather(self.db.healthy(), self.hub.healthy())
        return {"database": database, "pubsub": pubsub}

    async def close(self) -> None:
        await self.tables.close()
        self.jobs.stop_taking()
        if self.search is not None:
            self.search.stop_taking()
        # bounded: a task that does not end must not hold the shutdown forever (each stops its own loops
        # within CLOSE_SECONDS; one whose cancellation was lost is cancelled again, then left and logged)
        await cancel_and_wait(self.tasks, 2 * CLOSE_SECONDS)
        if self.analyses is not None:
            await self.analyses.close()
        if self.bots is not None:
            self.bots.close()
        if self.search is not None:
            await self.search.close()
        await self.jobs.close()
        await self.hub.close()
        await self.db.close()


def consumer_name() -> str:
    """This process's name among the takers of bot jobs."""
    return f"{socket.gethostname()}-{os.getpid()}"


async def open_site(
    settings: Settings, chores: list[Chore] | None = None, now_ms: Callable[[], int] | None = None
) -> Site:
    """Migrate the database, connect the hub and the queue, start the bot runner (when this process
    thinks for bots) and queue the jobs of bots that wait."""
    settings.prepare()
    db = Database(settings.resolved_database_url())
    await db.start()
    metrics.watch_pool(db.engine)
    hub: Hub = Hub()
    jobs: JobQueue = MemoryJobs()
    search: SearchQueue | None = None
    if settings.redis_url:
        hub = RedisHub(settings.redis_url, settings.redis_prefix)
        jobs = RedisJobs(settings.redis_url, settings.redis_prefix, consumer_name(), settings.bot_job_timeout)
        search = SearchQueue(settings.redis_url, settings.redis_prefix, consumer_name(), settings.bot_job_timeout)
    await hub.start()
    await jobs.start()
    bots = BotPool(settings.bot_workers) if settings.bot_workers else None
    expiry = ExpiryTimes(settings.open_table_expiry_minutes, settings.open_live_table_expiry_minutes)
    tables = TableService(db, hub, bots, settings.recent_events, jobs, now_ms=now_ms, expiry=expiry)
    hub.on_remote = tables.cache.apply_remote  # another process's move, applied to this process's cache
    ratings = RatingService(db)
    tables.finishers.append(ratings.rate_finished)  # a game a worker's bot ends is rated there
    analyses = AnalysisService(db, tables, bots, settings.analysis_iterations, tables.now_ms,
                               settings.analysis_at_once, search)
    site = Site(settings, db, hub, jobs, bots, tables, ratings, analyses, search)
    site.hint_free = asyncio.Semaphore(hint_slots(settings))
    if bots is not None:
        site.runner = BotRunner(tables, jobs, settings.bot_workers, chores)
        site.tasks.append(asyncio.create_task(site.runner.run(), name="bot-runner"))
        if search is not None:  # a searcher: takes the hints and analyses of the processes without workers
            site.searcher = SearchRunner(search, tables, bots, analyses, hint_slots(settings), site.hint_free)
            site.tasks.append(asyncio.create_task(site.searcher.run(), name="searcher"))
    await tables.resume()
    return site


@dataclass
class Services:
    """What the routes, pages and sockets of a server process use (``app.state.services``)."""

    settings: Settings
    site: Site
    accounts: AccountService
    chat: ChatService
    rate: RateLimits
    """The rate limits (``ratelimit``), counted in Redis when the site has it."""
    notifier: Notifier
    """Addresses and 'your turn' e-mails (``social.notify``)."""
    recovery: Recovery
    """Password reset and e-mail verification links (``accounts.recovery``)."""
    account_data: AccountData
    """Export my data, delete my account (``accounts.leaving``)."""
    quickplay: QuickPlay
    """The site's quick-play queue (``tables.quickplay``)."""
    analyses: AnalysisService
    """Post-game analyses of finished tables (``analysis.service``, issue 27)."""
    moderation: ModerationService
    """Reports, hidden chat lines, site-wide mutes, bans and the audit log (``social.moderation``)."""
    hints: HintService
    """Hints during casual games and games against bots (``analysis.hints``, issue 27)."""
    hubs: list[Hub] = field(default_factory=list)
    """The hubs of the chat and of the accounts' sign-outs (closed with the services)."""

    @property
    def db(self) -> Database:
        return self.site.db

    @property
    def hub(self) -> Hub:
        return self.site.hub

    @property
    def tables(self) -> TableService:
        return self.site.tables

    @property
    def ratings(self) -> RatingService:
        return self.site.ratings

    async def close(self) -> None:
        await self.recovery.settle()  # the mails still being sent
        for hub in self.hubs:
            await hub.close()
        await self.site.close()


def hint_slots(settings: Settings) -> int:
    """Hints a process with bot workers computes at once: ``hint_slots``, else half its workers, at least 1."""
    return settings.hint_slots or max(1, settings.bot_workers // 2)


def _hub(settings: Settings, channel: str) -> Hub:
    return RedisHub(settings.redis_url, settings.redis_prefix, channel) if settings.redis_url else Hub()


async def open_services(settings: Settings, now_ms: Callable[[], int] | None = None) -> Services:
    """Every service of a server process: the site (:func:`open_site`), then accounts (with a hub that tells
    every process of a sign-out), chat (with its own hub), the rate limits and the notifier."""
    site = await open_site(settings, now_ms=now_ms)
    chat_hub, sign_ins = _hub(settings, "chat"), _hub(settings, "accounts")
    await chat_hub.start()
    await sign_ins.start()
    rate = RateLimits(settings.rate_limits, settings.redis_url, settings.redis_prefix)
    chat = ChatService(site.db, site.tables, chat_hub, shared=rate if settings.redis_url else None)
    accounts = AccountService(site.db, sign_ins)
    notifier = Notifier(site.db, settings, site.tables.now_ms)
    recovery = Recovery(site.db, settings, accounts, notifier, site.tables.now_ms)
    account_data = AccountData(site.db, accounts, site.tables)
    quickplay = QuickPlay(site.db, site.tables.now_ms, site.tables.announce)
    analyses = site.analyses
    assert analyses is not None
    moderation = ModerationService(site.db, accounts, site.tables)
    hints = HintService(site.db, site.tables, site.bots, settings.hint_seconds, settings.hint_iterations,
                        hint_slots(settings), remote=site.search, site_slots=settings.hint_slots,
                        free=site.hint_free)
    return Services(
        settings, site, accounts, chat, rate, notifier, recovery, account_data, quickplay, analyses, moderation,
        hints,
        [chat_hub, sign_ins],
    )


def services_of(connection: HTTPConnection) -> Services:
    """The services of the application serving ``connection`` (a request or a WebSocket)."""
    services = connection.app.state.services
    if not isinstance(services, Services):
        raise RuntimeError("the application's services are not started (its lifespan did not run)")
    return services


def _tables(connection: HTTPConnection) -> TableService:
    return services_of(connection).tables


def _accounts(connection: HTTPConnection) -> AccountService:
    return services_of(connection).accounts


def _chat(connection: HTTPConnection) -> ChatService:
    return services_of(connection).chat


def _analyses(connection: HTTPConnection) -> AnalysisService:
    return services_of(connection).analyses


def _hints(connection: HTTPConnection) -> HintService:
    return services_of(connection).hints


AllServices = Annotated[Services, Depends(services_of)]
Analyses = Annotated[AnalysisService, Depends(_analyses)]
Hints = Annotated[HintService, Depends(_hints)]
Tables = Annotated[TableService, Depends(_tables)]
Accounts = Annotated[AccountService, Depends(_accounts)]
Chat = Annotated[ChatService, Depends(_chat)]
