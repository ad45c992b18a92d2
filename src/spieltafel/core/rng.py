"""Seeded chance that is the same on every machine and every Python version.

The generator is SplitMix64: its whole state is one 64-bit integer, so cloning and serialising a
state's generator is free, and the sequence never depends on the platform or on ``random``'s
implementation details.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from .kiss import Kiss99

T = TypeVar("T")

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_LIMITS = tuple(_SPAN - _SPAN % n if n else 0 for n in range(1024))
"""_LIMITS[n]: the rejection limit of below(n) for small n (the largest multiple of n up to 2**64)."""


class Rng:
    """A small deterministic random generator (SplitMix64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``range(n)`` (unbiased: rejection sampling)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        self.state, value = _below(self.state, n)
        return value

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        """Return one of ``items``, uniformly (below(len(items)) inlined: the hot path of random play)."""
        n = len(items)
        if not 0 < n < 1024:
            return items[self.below(n)]
        limit = _LIMITS[n]
        state = self.state
        while True:
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            z ^= z >> 31
            if z < limit:
                self.state = state
                return items[z % n]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates: for i from the end, swap with below(i + 1))."""
        if len(items) > 1024:
            state = self.state
            for i in range(len(items) - 1, 0, -1):
                state, j = _below(state, i + 1)
                items[i], items[j] = items[j], items[i]
            self.state = state
            return
        state = self.state
        limits = _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n]
            while True:  # below(n), inlined
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * _MIX1) & _MASK
                z = ((z ^ (z >> 27)) * _MIX2) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def kiss(self) -> Kiss99:
        """A :class:`~spieltafel.core.kiss.Kiss99` seeded with one draw of this generator: cheap
        shuffles and seeds, as native code when compiled. Its draws differ from this generator's, so
        it is for search (determinisations), never for a game's own chance, whose draws the golden
        records fix."""
        return Kiss99.from_seed(self.next64())

    def fork(self) -> Rng:
        """Return an independent generator seeded from this one."""
        return Rng(self.next64())


def sample_seed(rng: Rng) -> int:
    """The seed of a state sampled with ``rng`` (``determinise``): drawn from ``rng``, so that a sample
    carries no trace of the true seed, from which a new game would rebuild every hidden card."""
    return rng.next64()


def _below(state: int, n: int) -> tuple[int, int]:
    """From generator state ``state``: the state after drawing a uniform integer in ``range(n)``
    (``n`` > 0), and that integer. next64() inlined: this is the hot path of random playouts and
    determinisations, and it draws exactly the values next64() would, in the same order."""
    limit = _SPAN - _SPAN % n
    while True:
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n
