"""KISS99, the generator of determinisations (:meth:`Rng.kiss`): native integers, so setup.py compiles it.

``Rng`` itself (SplitMix64) stays interpreted: its arithmetic is on 64-bit numbers, beyond the native
integers of compiled code, and its draws are fixed by every game's golden records. Search needs many
cheap shuffles (a determinisation shuffles every card a seat cannot see), and their draws are fixed by
nothing but this module's tests, so they come from G. Marsaglia's KISS99 (sci.stat.math, 20 January
1999; it passes TestU01's BigCrush): a multiply-with-carry pair, a 3-shift register and a congruential
generator on 32-bit words. Every intermediate value stays below 2**49, so the same code gives the same
draws as native 64-bit integers (compiled) and as Python integers (pure Python, the reference).
"""

from __future__ import annotations

from typing import Final, TypeVar, final

from mypy_extensions import i64

T = TypeVar("T")

WORD: Final = 0xFFFFFFFF
"""The low 32 bits (KISS99 works on unsigned 32-bit words)."""
SPAN: Final = 0x100000000
STUCK_Z: Final = 36969 * 65536 - 1
STUCK_W: Final = 18000 * 65536 - 1
"""The multiply-with-carry words' non-zero fixed points (0 is the other one of each)."""


@final
class Kiss99:
    """Marsaglia's KISS99: ``((MWC ^ CONG) + SHR3) mod 2**32``, with the macros of the 1999 post
    (``znew``, ``wnew``, ``MWC = (znew << 16) + wnew``, ``SHR3`` with shifts 17, 13, 5, ``CONG =
    69069 * jcong + 1234567``)."""

    def __init__(self, z: i64, w: i64, jsr: i64, jcong: i64) -> None:
        self.z: i64 = z
        self.w: i64 = w
        self.jsr: i64 = jsr
        self.jcong: i64 = jcong

    @staticmethod
    def from_seed(seed: int) -> Kiss99:
        """A generator whose state comes from a 64-bit ``seed`` (an Rng draw). The multiply-with-carry
        words are made odd (never 0) and kept off their other fixed point, the shift register non-zero."""
        high: i64 = (seed >> 32) & WORD
        low: i64 = seed & WORD
        z, w, jsr = high | 1, low | 1, high ^ low
        return Kiss99(z if z != STUCK_Z else 1, w if w != STUCK_W else 1, jsr if jsr else 123456789, low)

    def next32(self) -> i64:
        """The next 32-bit word (the KISS macro)."""
        z = self.z = 36969 * (self.z & 65535) + (self.z >> 16)
        w = self.w = 18000 * (self.w & 65535) + (self.w >> 16)
        jcong = self.jcong = (69069 * self.jcong + 1234567) & WORD
        jsr = self.jsr
        jsr ^= (jsr << 17) & WORD
        jsr ^= jsr >> 13
        jsr ^= (jsr << 5) & WORD
        self.jsr = jsr
        return (((((z << 16) + w) & WORD) ^ jcong) + jsr) & WORD

    def seed64(self) -> int:
        """A 64-bit seed (for an :class:`~spieltafel.core.rng.Rng`) from two words, the first the high half."""
        high: int = self.next32()  # Python integers: shifted, a native one would overflow
        low: int = self.next32()
        return high << 32 | low

    def permute(self, items: list[T]) -> None:
        """Shuffle ``items`` in place, uniformly: Fisher–Yates, for i from the end, swap item i with item
        j, a uniform draw in range(i + 1) (a word rejected above the largest multiple of i + 1, so no
        bias). next32() inlined: this loop is most of a determinisation."""
        z, w, jsr, jcong = self.z, self.w, self.jsr, self.jcong
        i: i64 = len(items) - 1
        while i > 0:
            n = i + 1
            limit = SPAN - SPAN % n
            word: i64 = limit
            while word >= limit:
                z = 36969 * (z & 65535) + (z >> 16)
                w = 18000 * (w & 65535) + (w >> 16)
                jcong = (69069 * jcong + 1234567) & WORD
                jsr ^= (jsr << 17) & WORD
                jsr ^= jsr >> 13
                jsr ^= (jsr << 5) & WORD
                word = (((((z << 16) + w) & WORD) ^ jcong) + jsr) & WORD
            j = word % n
            items[i], items[j] = items[j], items[i]
            i -= 1
        self.z, self.w, self.jsr, self.jcong = z, w, jsr, jcong
