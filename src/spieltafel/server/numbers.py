"""Numbers taken by hand from a request (a query parameter, a form field, a header or a path segment).

``str.isdigit`` and ``int`` are both loose: ``"²".isdigit()`` holds but ``int("²")`` fails, ``int``
reads ``" 7"``, ``"+7"``, ``"1_000"`` and Arabic-Indic digits, and a long enough string of digits makes
``int`` raise. :func:`parse_int` reads ASCII digits only (an optional leading ``-`` only where the
range allows negatives; no ``+``, no blanks, no ``_``) within a bounded range, and refuses anything else
with :class:`BadNumber`: a 422 ``bad-number`` refusal naming the parameter and what it may be.
"""

from __future__ import annotations

import re
from typing import Final

from spieltafel.core.errors import quote
from spieltafel.server.errors import Invalid

_DIGITS: Final = re.compile(r"-?[0-9]+", re.ASCII)


class BadNumber(Invalid):
    """A number from a request that is not a whole number in its range (422, code ``bad-number``)."""

    def __init__(self, name: str, text: str, low: int, high: int, word: str = "") -> None:
        other = f" or {word!r}" if word else ""
        super().__init__(
            "bad-number", f"{name} must be a whole number from {low} to {high}{other}, not {quote(text)}"
        )
        self.name = name
        self.text = text
        self.low = low
        self.high = high
        self.word = word
        """The one word allowed instead of a number (``all`` for a replay's view), or empty."""


def parse_int(text: str, name: str, low: int, high: int, word: str = "") -> int:
    """``text`` as a whole number from ``low`` to ``high`` (both included), read strictly: ASCII digits,
    a leading ``-`` only when ``low`` is negative, nothing else. Raises :class:`BadNumber` naming ``name``
    (and ``word``, when the caller also takes that word instead of a number)."""
    longest = max(len(str(low)), len(str(high)))
    if len(text) > longest or not _DIGITS.fullmatch(text) or (text.startswith("-") and low >= 0):
        raise BadNumber(name, text, low, high, word)
    number = int(text)
    if not low <= number <= high:
        raise BadNumber(name, text, low, high, word)
    return number


def parse_optional_int(text: str | None, name: str, low: int, high: int, default: int) -> int:
    """:func:`parse_int`, or ``default`` when the parameter is absent (None)."""
    return default if text is None else parse_int(text, name, low, high)
