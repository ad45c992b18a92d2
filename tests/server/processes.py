"""Real ``spieltafel serve`` and ``spieltafel worker`` subprocesses on free ports of 127.0.0.1."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

STARTUP_SECONDS = 60


class Process:
    """A ``spieltafel`` subprocess that prints a line starting with ``ready`` once it works."""

    ready = ""

    def __init__(self, arguments: list[str], data: Path, database_url: str | None, redis_url: str | None,
                 redis_prefix: str | None = None, wait: bool = True, **environment: str) -> None:
        redis_prefix = redis_prefix or f"sttest-{uuid.uuid4().hex[:10]}"
        command = [sys.executable, "-m", "spieltafel.cli", *arguments, "--data", str(data)]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "SPIELTAFEL_REDIS_PREFIX": redis_prefix, **environment}
        for name in ("SPIELTAFEL_DATABASE_URL", "SPIELTAFEL_REDIS_URL"):
            env.pop(name, None)
        if database_url:
            env["SPIELTAFEL_DATABASE_URL"] = database_url
        if redis_url:
            env["SPIELTAFEL_REDIS_URL"] = redis_url
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self.line = ""
        self.output: list[str] = []
        if wait:
            self.wait_until_ready()

    def wait_until_ready(self) -> str:
        """Read the output up to the ready line (the process is stopped when it does not come)."""
        if not self.line:
            self.line = self._ready_line()
            threading.Thread(target=self._drain, daemon=True).start()
        return self.line

    def _drain(self) -> None:
        """Keep reading what the process prints (so that the pipe never fills): ``output``."""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)

    def errors(self) -> list[str]:
        """Printed tracebacks and error log lines (uvicorn logs an unhandled exception as ``Exception in ASGI``)."""
        markers = ("Traceback", "Exception in ASGI", "ERROR", "Internal Server Error")
        return [line for line in self.output if any(marker in line for marker in markers)]

    def _ready_line(self) -> str:
        assert self.process.stdout is not None
        deadline = time.monotonic() + STARTUP_SECONDS
        lines = []
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith(self.ready):
                return line
        self.stop()
        raise AssertionError(f"{self.ready} did not start:\n" + "".join(lines))

    @property
    def pid(self) -> int:
        return self.process.pid

    def kill(self) -> None:
        """``kill -9``."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Server(Process):
    """``spieltafel serve`` on a free port (``workers`` processes sharing it)."""

    ready = "Spieltafel serves "

    def __init__(self, data: Path, database_url: str | None = None, redis_url: str | None = None,
                 redis_prefix: str | None = None, bot_workers: int = 1, workers: int = 1, wait: bool = True,
                 **environment: str) -> None:
        arguments = ["serve", "--port", "0", "--bot-workers", str(bot_workers), "--workers", str(workers)]
        super().__init__(arguments, data, database_url, redis_url, redis_prefix, wait, **environment)

    @property
    def url(self) -> str:
        url = self.wait_until_ready().split()[2]
        assert url.startswith("http://127.0.0.1:")
        return url


class Worker(Process):
    """``spieltafel worker``."""

    ready = "Spieltafel worker ready"

    def __init__(self, data: Path, database_url: str | None, redis_url: str, redis_prefix: str,
                 bot_workers: int = 1, wait: bool = True, **environment: str) -> None:
        super().__init__(["worker", "--bot-workers", str(bot_workers)], data, database_url, redis_url, redis_prefix,
                         wait, **environment)
