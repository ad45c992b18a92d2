"""The bots' process pool: its workers do not outlive a server killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SERVER_STAND_IN = """
import os, sys, time
from spieltafel.server.bots.runners import BotPool
pool = BotPool(2)
for _ in range(4):
    pool._pool.submit(os.getpid).result()
print(" ".join(map(str, pool._pool._processes)), flush=True)
time.sleep(600)
"""


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting for its parent to reap it does not count)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return fields[0] != "Z"


def test_the_pool_s_workers_end_when_their_process_is_killed() -> None:
    stand_in = subprocess.Popen([sys.executable, "-c", SERVER_STAND_IN], stdout=subprocess.PIPE, text=True)
    try:
        assert stand_in.stdout is not None
        workers = [int(pid) for pid in stand_in.stdout.readline().split()]
        assert workers and all(running(pid) for pid in workers)
    finally:
        os.kill(stand_in.pid, signal.SIGKILL)
        stand_in.wait()
    deadline = time.monotonic() + 15
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if running(pid)], "the pool's workers outlived their process"
