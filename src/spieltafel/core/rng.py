"""Seeded chance that is the same on every machine and every Python version.

The generator is SplitMix64: its whole state is one 64-bit integer, so cloning and serialising a
state's generator is free, and the sequence never depends on the platform or on ``random``'s
implementation details.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """A small deterministic random generator (SplitMix64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``range(n)`` (unbiased: rejection sampling)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        """Return one of ``items``, uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> Rng:
        """Return an independent generator seeded from this one."""
        return Rng(self.next64())


def sample_seed(rng: Rng) -> int:
    """The seed of a state sampled with ``rng`` (``determinise``): drawn from ``rng``, so that a sample
    carries no trace of the true seed, from which a new game would rebuild every hidden card."""
    return rng.next64()
