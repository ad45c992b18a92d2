"""The swaps of :meth:`Rng.permute`, in a module of their own so that setup.py compiles them with mypyc.

``Rng`` itself stays interpreted: SplitMix64 works on 64-bit numbers, beyond mypyc's fast small
integers. The digits of one draw below a product of bounds (below 2**60) fit those integers, so the
Fisher–Yates loop over them, most of a determinisation's time, runs as native code when compiled.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def swap_by_digits(items: list[T], number: int, top: int, bottom: int) -> None:
    """Fisher–Yates steps i = top, top − 1, …, bottom + 1: swap item i with item j, where j is the next
    mixed-radix digit of ``number`` in base i + 1 (lowest digit first)."""
    for i in range(top, bottom, -1):
        base = i + 1
        j = number % base  # % and // rather than divmod(): native integer operations when compiled
        number //= base
        items[i], items[j] = items[j], items[i]
