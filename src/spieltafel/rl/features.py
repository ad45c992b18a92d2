"""A small writer for fixed-size observation vectors, shared by the games' ``encoding`` modules.

Every value written lies in [0, 1]: counts are divided by a stated scale and clipped, choices are
one-hot blocks (all zeros for "none"). The writer knows its final size up front and refuses to
finish at any other length, so an encoder that drifts from its declared size fails at once.
This module needs numpy only (no PettingZoo or Gymnasium).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from spieltafel.core import JSON, OptionSpec

Vector = NDArray[np.float32]
"""An encoded observation: a flat float32 vector with every entry in [0, 1]."""


class Features:
    """Fills a float32 vector of ``size`` entries from left to right."""

    __slots__ = ("at", "data")

    def __init__(self, size: int) -> None:
        self.data: Vector = np.zeros(size, dtype=np.float32)
        self.at = 0

    def scalar(self, value: float, scale: float) -> None:
        """``value / scale``, clipped to [0, 1]."""
        self.data[self.at] = min(max(value / scale, 0.0), 1.0)
        self.at += 1

    def scalars(self, values: Iterable[float], scale: float) -> None:
        for value in values:
            self.scalar(value, scale)

    def flag(self, value: bool) -> None:
        self.data[self.at] = 1.0 if value else 0.0
        self.at += 1

    def flags(self, values: Iterable[bool]) -> None:
        for value in values:
            self.flag(value)

    def one_hot(self, index: int | None, size: int) -> None:
        """A block of ``size`` entries with a 1 at ``index`` (none for None); out of range is an error."""
        if index is not None:
            if not 0 <= index < size:
                raise ValueError(f"one-hot index {index} outside 0..{size - 1}")
            self.data[self.at + index] = 1.0
        self.at += size

    def choice(self, value: object, choices: Sequence[object]) -> None:
        """One-hot block over ``choices``; None writes zeros, an unknown value is an error."""
        self.one_hot(None if value is None else list(choices).index(value), len(choices))

    def members(self, values: Iterable[object], choices: Sequence[object]) -> None:
        """One bit per entry of ``choices``: set when it occurs in ``values``."""
        present = set(values)
        unknown = present.difference(choices)
        if unknown:
            raise ValueError(f"unknown values {sorted(map(str, unknown))}; expected some of {list(choices)}")
        self.flags(choice in present for choice in choices)

    def options(self, values: Mapping[str, str], specs: Sequence[OptionSpec]) -> None:
        """Each game option's value, one-hot over its choices (see :func:`options_size`)."""
        for spec in specs:
            self.choice(values[spec.name], spec.choices)

    def finish(self) -> Vector:
        """The filled vector; its length must be exactly the declared size."""
        if self.at != len(self.data):
            raise ValueError(f"encoder wrote {self.at} features, declared {len(self.data)}")
        return self.data


def options_size(specs: Sequence[OptionSpec]) -> int:
    """Entries :meth:`Features.options` writes."""
    return sum(len(spec.choices) for spec in specs)


def relative(seat: int | None, viewer: int, players: int) -> int | None:
    """Seat number counted from the viewer clockwise (the viewer is 0), None stays None."""
    return None if seat is None else (seat - viewer) % players


def viewer_of(view: Mapping[str, JSON]) -> int:
    """The seat a view belongs to (a spectator's view is encoded as seen from seat 0)."""
    seat = view.get("seat")
    return seat if isinstance(seat, int) else 0
