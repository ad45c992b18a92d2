"""A program player for ``spieltafel connect``: any callable that takes an Observation (the seat, its legal
actions, its view, samples of what it cannot see) and returns one of the legal actions.

    spieltafel connect http://127.0.0.1:8000 --token stt_... --table 7 --player examples/program_player.py:choose

This one looks one move ahead: on a sample of the hidden information it tries each legal action and keeps
the one after which its own score minus the best other score is largest (ties: the first). Replace it with
your agent.
"""

from __future__ import annotations

from spieltafel.bots import Observation
from spieltafel.core import Rng

_rng = Rng(2026)


def choose(observation: Observation) -> int:
    """The legal action with the best score margin one move ahead, on one sampled position."""
    position = observation.sample(_rng)
    seat = observation.seat

    def margin(action: int) -> int:
        after = position.clone()
        after.apply(seat, action)
        scores = after.scores()
        return scores[seat] - max(s for n, s in enumerate(scores) if n != seat)

    return max(observation.legal, key=margin)
