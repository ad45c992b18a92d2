"""The arena: tournaments between bots with seats rotated, statistics, ratings, reports and plots.

``run_tournament`` (in :mod:`.tournament`) plays the games; :func:`spieltafel.arena.stats.compute_stats`
turns them into statistics (openskill); :func:`spieltafel.arena.report.write_report` writes
``report.md``, ``results.json`` and PNG plots (matplotlib). Only the tournament runner is imported
here, so that importing the package needs neither openskill nor matplotlib.
"""

from .tournament import GameOutcome, TournamentResult, run_tournament

__all__ = ["GameOutcome", "TournamentResult", "run_tournament"]
