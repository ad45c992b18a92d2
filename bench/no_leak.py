"""The no-leak audit at scale (issue 12): 300 games of every title and player count through a real
``spieltafel serve``, every seat and two spectators connected, everything a running game shows checked
against the engine (see tests/server/leakcheck.py). Prints the figures as JSON.

    python bench/no_leak.py [--plan game:players=count,...] [--concurrency 8] [--seed 0]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.leakcheck import main

if __name__ == "__main__":
    main()
