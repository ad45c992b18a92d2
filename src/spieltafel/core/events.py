"""Events: what happened when an action was applied, with a public part and per-seat secrets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

JSON = Any
"""A JSON-ready value (dict, list, str, int, float, bool or None)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in the game.

    ``public`` is what every seat and every spectator learns. ``private`` maps a seat to the extra
    fields only that seat learns (the cards it drew, say). Nothing secret may go into ``public``.
    """

    kind: str
    public: Mapping[str, JSON] = field(default_factory=dict)
    private: Mapping[int, Mapping[str, JSON]] = field(default_factory=dict)

    def view(self, seat: int | None = None) -> dict[str, JSON]:
        """The event as ``seat`` sees it (a spectator when ``seat`` is None)."""
        seen: dict[str, JSON] = {"kind": self.kind, **self.public}
        if seat is not None and seat in self.private:
            seen.update(self.private[seat])
        return seen
