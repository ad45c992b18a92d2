"""``spieltafel serve``: the server on an embedded SQLite database in a data folder."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated, Any

import typer

from .settings import MAX_MESSAGE_BYTES, Settings


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on (0: any free port)")] = 8000,
    data: Annotated[Path | None, typer.Option("--data", help="data folder [default: ./spieltafel-data]")] = None,
    database_url: Annotated[str | None, typer.Option(help="SQLAlchemy async URL instead of SQLite")] = None,
    bot_workers: Annotated[int | None, typer.Option(help="processes for the bots' thinking [default: 2]")] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "warning",
) -> None:
    """Start the online server: accounts, tables, live games and bots (API in docs/protocol.md)."""
    import uvicorn

    from .app import create_app

    given: dict[str, Any] = {}
    if data is not None:
        given["data_dir"] = data
    if database_url is not None:
        given["database_url"] = database_url
    if bot_workers is not None:
        given["bot_workers"] = bot_workers
    settings = Settings(**given).prepare()
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    bound = listener.getsockname()[1]
    where = f"[{host}]" if ":" in host else host
    config = uvicorn.Config(
        create_app(settings), log_level=log_level, ws_max_size=4 * MAX_MESSAGE_BYTES, lifespan="on",
        proxy_headers=True, forwarded_allow_ips=settings.forwarded_allow_ips,
    )
    server = _Announcing(config, f"http://{where}:{bound}", settings)
    server.run(sockets=[listener])


class _Announcing:
    """A uvicorn server that prints its URL once the database is migrated and it accepts connections."""

    def __init__(self, config: Any, url: str, settings: Settings) -> None:
        import uvicorn

        url_line = f"Spieltafel serves {url}  (database: {_where(settings)}; Ctrl+C stops)"

        class Server(uvicorn.Server):
            async def startup(self, sockets: list[socket.socket] | None = None) -> None:
                await super().startup(sockets=sockets)
                if not self.should_exit:
                    print(url_line, flush=True)

        self._server = Server(config)

    def run(self, sockets: list[socket.socket]) -> None:
        self._server.run(sockets=sockets)


def _where(settings: Settings) -> str:
    if settings.database_url:
        return settings.database_url.split("@")[-1]
    return str((settings.data_dir / "spieltafel.db").resolve())
