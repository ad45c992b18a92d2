"""``spieltafel serve``: the server (one process on SQLite by default, or several sharing a port with
PostgreSQL and Redis), and ``spieltafel worker``: a process that plays the bots' turns from Redis."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import ValidationError
from uvicorn.supervisors.multiprocess import Multiprocess

from spieltafel.server.bots.runners import Chore
from spieltafel.server.errors import ServiceError
from spieltafel.server.ops.logs import configure, log_config
from spieltafel.server.settings import MAX_MESSAGE_BYTES, Settings

if TYPE_CHECKING:
    from spieltafel.server.services import Site

STARTUP_SECONDS = 60.0
WS_DEFLATE = False
"""No permessage-deflate on the WebSockets: a state message is about 1 KB, and compressing every one
cost more CPU (server and client) than the bytes it saved on a saturated server (docs/performance.md)."""


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on (0: any free port)")] = 8000,
    data: Annotated[Path | None, typer.Option("--data", help="data folder [default: ./spieltafel-data]")] = None,
    database_url: Annotated[str | None, typer.Option(help="SQLAlchemy async URL instead of SQLite")] = None,
    redis_url: Annotated[str | None, typer.Option(help="Redis for fan-out and bot jobs (needed by --workers)")] = None,
    bot_workers: Annotated[
        int | None, typer.Option(help="processes for the bots' thinking per server process [default: 2]")
    ] = None,
    workers: Annotated[int, typer.Option(min=1, max=64, help="server processes on the one port")] = 1,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "warning",
    open_table_expiry: Annotated[int | None, typer.Option(
        help="minutes an open turn-based table waits without activity before it closes, 0: never [default: 1440]"
    )] = None,
    open_live_table_expiry: Annotated[int | None, typer.Option(
        help="the same for open live tables [default: 30]"
    )] = None,
) -> None:
    """Start the online server: accounts, tables, live games and bots (API in docs/protocol.md)."""
    expiry = {"open_table_expiry_minutes": open_table_expiry, "open_live_table_expiry_minutes": open_live_table_expiry}
    settings = _settings(data, database_url, redis_url, bot_workers, expiry).model_copy(update={"tune_collector": True})
    if workers > 1 and not settings.redis_url:
        raise typer.BadParameter("several server processes need Redis: give --redis-url", param_hint="--workers")
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    bound = listener.getsockname()[1]
    where = f"[{host}]" if ":" in host else host
    url_line = f"Spieltafel serves http://{where}:{bound}  (database: {_where(settings)}; Ctrl+C stops)"
    if workers > 1:
        _serve_processes(settings, listener, workers, log_level, url_line)
        return
    import uvicorn

    from spieltafel.server.app import create_app

    config = uvicorn.Config(
        create_app(settings), log_level=log_level, log_config=log_config(settings.log_format, log_level),
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        ws_per_message_deflate=WS_DEFLATE, lifespan="on",
        proxy_headers=True, forwarded_allow_ips=settings.forwarded_allow_ips,
    )
    server = _Announcing(config, url_line)
    server.run(sockets=[listener])


def worker(
    data: Annotated[Path | None, typer.Option("--data", help="data folder [default: ./spieltafel-data]")] = None,
    database_url: Annotated[str | None, typer.Option(help="SQLAlchemy async URL instead of SQLite")] = None,
    redis_url: Annotated[str | None, typer.Option(help="Redis of the site [default: SPIELTAFEL_REDIS_URL]")] = None,
    bot_workers: Annotated[int | None, typer.Option(help="processes for the bots' thinking [default: 2]")] = None,
) -> None:
    """Play the bots' turns from the site's Redis job queue, sweep missed deadlines and send due 'your turn'
    e-mails (docs/deploy.md)."""
    settings = _settings(data, database_url, redis_url, bot_workers)
    configure(settings.log_format)
    if not settings.redis_url:
        raise typer.BadParameter("a worker takes its jobs from Redis: give --redis-url", param_hint="--redis-url")
    if not settings.bot_workers:
        raise typer.BadParameter("a worker needs at least one process to think in", param_hint="--bot-workers")
    asyncio.run(_work(settings))


async def _work(settings: Settings) -> None:
    from spieltafel.server.services import open_site

    site = await open_site(settings)
    assert site.runner is not None  # a worker thinks (bot_workers >= 1)
    site.runner.chores += worker_chores(site)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    print(f"Spieltafel worker ready (database: {_where(settings)}; pid {os.getpid()})", flush=True)
    try:
        await stop.wait()
    finally:
        await site.close()


def worker_chores(site: Site) -> list[Chore]:
    """What a worker runs every few seconds besides queueing jobs for waiting bots: the deadline sweep,
    the expiry of abandoned open tables and the 'your turn' e-mails, as every server process does (unless
    ``sweep_seconds`` is 0). Each claims every deadline, table or e-mail with a compare-and-set in the
    database, so any number of workers and server processes may run them at once; a site whose server
    processes are down or restarting still handles its deadlines, open tables and e-mails."""
    from spieltafel.server.social.notify import Notifier

    if not site.settings.sweep_seconds:
        return []
    notifier = Notifier(site.db, site.settings, site.tables.now_ms)
    return [site.tables.sweep, site.tables.expire_open, notifier.notify]


def _settings(
    data: Path | None, database_url: str | None, redis_url: str | None, bot_workers: int | None,
    more: dict[str, Any] | None = None,
) -> Settings:
    given: dict[str, Any] = {}
    for name, value in (("data_dir", data), ("database_url", database_url), ("redis_url", redis_url),
                        ("bot_workers", bot_workers), *(more or {}).items()):
        if value is not None:
            given[name] = value
    try:
        return Settings(**given).prepare()
    except ValidationError as error:
        raise typer.BadParameter(str(error.errors()[0]["msg"])) from error


def _serve_processes(settings: Settings, listener: socket.socket, workers: int, log_level: str, url_line: str) -> None:
    """``workers`` uvicorn processes sharing ``listener``; the settings reach them as environment."""
    import uvicorn

    from spieltafel.server.db import Database

    async def migrate() -> None:
        database = Database(settings.resolved_database_url())
        await database.start()
        await database.close()

    asyncio.run(migrate())  # once, before the processes start
    if settings.metrics:
        shared_metrics_folder()
    for name, value in settings.model_dump(exclude_none=True).items():  # dicts and lists as JSON, as they are read
        os.environ[f"SPIELTAFEL_{name.upper()}"] = json.dumps(value) if isinstance(value, dict | list) else str(value)
    config = uvicorn.Config(
        "spieltafel.server.app:create_app", factory=True, workers=workers, log_level=log_level,
        log_config=log_config(settings.log_format, log_level),
        ws_max_size=4 * MAX_MESSAGE_BYTES, ws_per_message_deflate=WS_DEFLATE, lifespan="on",
    )
    _AnnouncingProcesses(config, [listener], url_line).run()


class _AnnouncingProcesses(Multiprocess):
    """uvicorn's process supervisor (restarts a process that dies), printing the URL once all serve."""

    def __init__(self, config: Any, sockets: list[socket.socket], url_line: str) -> None:
        super().__init__(config, sockets)
        self.url_line = url_line

    def init_processes(self) -> None:
        super().init_processes()
        if all(process.wait_until_ready(STARTUP_SECONDS, self.should_exit) for process in self.processes):
            print(self.url_line, flush=True)
        else:
            self.should_exit.set()


class _Announcing:
    """A uvicorn server that prints its URL once the database is migrated and it accepts connections."""

    def __init__(self, config: Any, url_line: str) -> None:
        import uvicorn

        class Server(uvicorn.Server):
            async def startup(self, sockets: list[socket.socket] | None = None) -> None:
                await super().startup(sockets=sockets)
                if not self.should_exit:
                    print(url_line, flush=True)

        self._server = Server(config)

    def run(self, sockets: list[socket.socket]) -> None:
        self._server.run(sockets=sockets)


def shared_metrics_folder() -> str:
    """The folder where the processes of ``serve --workers N`` keep their metrics (prometheus-client's
    multiprocess mode): ``PROMETHEUS_MULTIPROC_DIR`` when set (shared with the workers; empty it before the
    site starts), else a new temporary one for these processes alone."""
    import tempfile

    from spieltafel.server.ops.metrics import MULTIPROCESS_DIR

    folder = os.environ.get(MULTIPROCESS_DIR) or tempfile.mkdtemp(prefix="spieltafel-metrics-")
    os.environ[MULTIPROCESS_DIR] = folder
    return folder


def _where(settings: Settings) -> str:
    if settings.database_url:
        return settings.database_url.split("@")[-1]
    return str((settings.data_dir / "spieltafel.db").resolve())


# --- spieltafel admin: site roles (issue 30) ------------------------------------------------------------

admin_app = typer.Typer(no_args_is_help=True, help="Site roles: who moderates (docs/deploy.md, Moderation).")


async def grant_role(settings: Settings, name: str, role: str) -> None:
    """Give ``name`` the role ``role`` on the site of ``settings`` (written to the audit log, no actor)."""
    from spieltafel.server.accounts.service import AccountService
    from spieltafel.server.db import Database
    from spieltafel.server.social.moderation import ModerationService

    db = Database(settings.prepare().resolved_database_url())
    await db.start()
    try:
        await ModerationService(db, AccountService(db), None).grant(name, role)
    finally:
        await db.close()


@admin_app.command("grant")
def grant(
    name: Annotated[str, typer.Argument(help="the account's name")],
    role: Annotated[str, typer.Argument(help="moderator, admin, or player (takes a role back)")],
    data: Annotated[Path | None, typer.Option("--data", help="data folder [default: ./spieltafel-data]")] = None,
    database_url: Annotated[str | None, typer.Option(help="SQLAlchemy async URL instead of SQLite")] = None,
) -> None:
    """Give an account a site role: moderators and admins moderate chat and players, admins read the audit log."""
    given: dict[str, object] = {}
    if data is not None:
        given["data_dir"] = data
    if database_url is not None:
        given["database_url"] = database_url
    try:
        asyncio.run(grant_role(Settings(**given), name, role))  # type: ignore[arg-type]
    except ServiceError as error:
        typer.echo(f"spieltafel admin grant: {error.message}", err=True)
        raise typer.Exit(1) from error
    typer.echo(f"{name}: site role {role}")
