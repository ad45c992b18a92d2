"""Real ``spieltafel serve`` and ``spieltafel worker`` subprocesses on free ports of 127.0.0.1."""

from __future__ import annotations

import contextlib
import os
import queue
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
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1",  # stacks on SIGABRT
               "SPIELTAFEL_REDIS_PREFIX": redis_prefix, **environment}
        for name in ("SPIELTAFEL_DATABASE_URL", "SPIELTAFEL_REDIS_URL"):
            env.pop(name, None)
        if database_url:
            env["SPIELTAFEL_DATABASE_URL"] = database_url
        if redis_url:
            env["SPIELTAFEL_REDIS_URL"] = redis_url
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self.line = ""
        self.output: list[str] = []
        """What the process printed after its ready line."""
        self._startup: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()
        if wait:
            self.wait_until_ready()

    def wait_until_ready(self) -> str:
        """The ready line, waited for at most ``STARTUP_SECONDS`` (the process is stopped when it does
        not come, also when the process hangs without printing anything)."""
        if not self.line:
            self.line = self._ready_line()
        return self.line

    def _drain(self) -> None:
        """Keep reading what the process prints (so that the pipe never fills): the lines up to the
        ready line go to ``_ready_line``, the later ones to ``output``; ``None`` at the end."""
        assert self.process.stdout is not None
        started = False
        for line in self.process.stdout:
            if started:
                self.output.append(line)
            else:
                self._startup.put(line)
                started = line.startswith(self.ready)
        self._startup.put(None)

    def errors(self) -> list[str]:
        """Printed tracebacks and error log lines (uvicorn logs an unhandled exception as ``Exception in ASGI``)."""
        markers = ("Traceback", "Exception in ASGI", "ERROR", "Internal Server Error")
        return [line for line in self.output if any(marker in line for marker in markers)]

    def _ready_line(self) -> str:
        deadline = time.monotonic() + STARTUP_SECONDS
        lines = []
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._startup.get(timeout=left)
            except queue.Empty:
                break
            if line is None:  # the process ended
                break
            lines.append(line)
            if line.startswith(self.ready):
                return line
        if self.process.poll() is None:  # alive but not ready: ask for its threads' stacks before stopping it
            self.process.send_signal(signal.SIGABRT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
            with contextlib.suppress(queue.Empty):
                while (line := self._startup.get(timeout=5)) is not None:
                    lines.append(line)
        self.stop()
        raise AssertionError(f"{self.ready} did not start (exit code {self.process.returncode}):\n" + "".join(lines))

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
