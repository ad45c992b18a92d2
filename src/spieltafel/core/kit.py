"""The game kit: what a game offers the platform beyond its rules (docs/games.md).

A game's rules are its :class:`~spieltafel.core.game.Game` and :class:`~spieltafel.core.game.State`. Everything
else the platform shows or uses of it is declared once, in its package, as a :class:`GameKit` on the game's
class (``kit = GameKit(package=__name__, ...)``):

- ``words``: actions and events in words, in every language the site offers (:class:`Words`);
- ``board``: the board as SVG from a seat's view, a target for every legal action (:class:`Board`);
- ``heuristics``: a position's value per seat for the bots (:class:`Heuristics`);
- ``encoding``: the RL observation vector of a seat's view (:class:`Encoding`);
- ``gestures``: board targets that stand for a sequence of actions (:mod:`spieltafel.core.gestures`);
- ``rules``: its rules page (the template with the rule texts, the decisions on unclear points, the board
  pictures) (:class:`RulesPage`);
- ``locales``: its own gettext catalogs, for a game that brings its words' translations along;
- ``goldens``: its golden game records (replayed by the project's tests);
- ``tutorial``: its interactive tutorial (``/learn/GAME``), a JSON file of steps replayed by the engine
  (:mod:`spieltafel.core.tutorial`);
- ``compiled``: the modules ``setup.py`` compiles with mypyc; ``blurb``: one line for the lobby and the
  rules index.

The parts are modules of the game's own package, imported when first asked for. Every consumer (pages,
replays, bots, RL, the rules pages, the catalogs' tests) asks :func:`kit_of` for them and never imports a
game's module by name; a part a game does not declare has a plain stand-in where one makes sense (the
notation for a label, the event's fields for its text).
"""

from __future__ import annotations

import importlib
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, cast

from .errors import SpieltafelError

if TYPE_CHECKING:
    from .game import Game, State
    from .gestures import Gestures

log = logging.getLogger(__name__)

Gettext = Callable[[str], str]
"""Translates a message (``gettext``); the words' default is the English source unchanged."""
Ngettext = Callable[[str, str, int], str]
"""Translates a message with a count: ``ngettext(singular, plural, n)`` picks the language's form for ``n``."""


def N_(text: str) -> str:
    """Marks ``text`` for the catalogs where it is defined (a blurb); it is translated where it is shown."""
    return text


def plural(gettext: Gettext) -> Ngettext:
    """The ``ngettext`` that goes with ``gettext``, for a text with a count ("1 disc", "2 discs").

    Words take one translating callable, ``gettext``; a text with a count asks it for its plural forms:

        ngettext = plural(gettext)
        ngettext("{count} card", "{count} cards", count).format(count=count)

    (call it by the name ``ngettext`` with literal texts, so that the catalogs' extraction finds both forms).
    When ``gettext`` is a translations object's bound ``gettext`` (the site's, ``i18n.gettext_for``) or a
    callable with an ``ngettext`` of its own, that one picks the catalog's form for ``n`` (its
    ``Plural-Forms``); any other ``gettext`` (the English default, a test's pseudo-translation) gets the
    English rule, each form translated through it: ``gettext(singular)`` for 1, ``gettext(plural)`` otherwise.
    """
    for owner in (gettext, getattr(gettext, "__self__", None)):
        found = getattr(owner, "ngettext", None)
        if callable(found):
            return cast(Ngettext, found)

    def english(singular: str, plural_text: str, n: int) -> str:
        return gettext(singular) if n == 1 else gettext(plural_text)

    return english


class Words(Protocol):
    """A game's words: ``action_label`` (a legal action's notation in words), ``event_text`` (an event in
    words), ``seat_name`` (a seat as the game calls it, e.g. its colour)."""

    def action_label(self, notation: str, gettext: Gettext, /) -> str: ...

    def event_text(self, event: Mapping[str, Any], gettext: Gettext, /) -> str: ...

    def seat_name(self, seat: object, gettext: Gettext, /) -> str: ...


class Board(Protocol):
    """A game's SVG board: ``render_board(view, seat, legal, gettext)`` from the seat's view only; every legal
    action ``(index, notation)`` gets a target (``spieltafel.games.svgkit``)."""

    def render_board(
        self, view: Mapping[str, Any], seat: int | None, legal: Sequence[tuple[int, str]], gettext: Gettext, /
    ) -> str: ...


class Heuristics(Protocol):
    """A game's heuristic for the bots: ``evaluate(state, seat)``; optionally ``values(state)`` (every seat's
    value) and ``TEMPERATURE`` (the noise of those values, in their own unit)."""

    def evaluate(self, state: State, seat: int, /) -> float: ...


class Encoding(Protocol):
    """A game's RL encoding: ``observation_size(players)`` and ``encode(view, players)`` (floats in [0, 1])."""

    def observation_size(self, players: int, /) -> int: ...

    def encode(self, view: Mapping[str, Any], players: int, /) -> Any: ...


@dataclass(frozen=True, slots=True)
class RulesPage:
    """A game's rules page: ``template`` (Jinja2, in the game's package; it extends ``rules/layout.html``,
    its texts in ``{% trans %}`` blocks), ``decisions`` (Markdown: our decisions on unclear points, with the
    passages they rest on), and the board pictures: after ``picture_moves`` random moves of a
    ``picture_players`` game (None: the game's smallest count)."""

    template: str = "rules.html"
    decisions: str = "decisions.md"
    picture_players: int | None = None
    picture_moves: int = 40


@dataclass(frozen=True)
class GameKit:
    """What a game offers beyond its rules, as modules and files of its package ``package`` (see the module's
    docs). A part set to None is not offered."""

    package: str
    words: str | None = "words"
    board: str | None = "svg"
    heuristics: str | None = "heuristics"
    encoding: str | None = "encoding"
    gestures: str | None = None
    """A module with ``gestures(state, seat)`` (:class:`~spieltafel.core.gestures.Gestures`): targets that
    stand for several actions in a row; None: every target stands for one action."""
    rules: RulesPage | None = field(default_factory=RulesPage)
    locales: str | None = None
    """A folder of the package with ``<lang>/LC_MESSAGES/<domain>.po`` catalogs of the game's own words."""
    goldens: str | None = None
    """A folder of the package with the game's golden records (``scripts/make_golden.py`` writes them; the
    built-in games keep theirs in the project's ``tests/golden``)."""
    tutorial: str | None = None
    """A JSON file of the package with the game's interactive tutorial (``spieltafel.core.tutorial``); None:
    the game has no /learn page."""
    compiled: tuple[str, ...] = ()
    blurb: str = ""
    """One line about the game in English (translated through the catalogs like every page text)."""

    def module(self, part: str | None) -> ModuleType | None:
        """The module ``part`` of the game's package, or None (not declared)."""
        return None if part is None else importlib.import_module(f"{self.package}.{part}")

    def words_module(self) -> Words:
        """The game's words that never fail a page: what cannot be said shows plainly."""
        module = self.module(self.words)
        return PlainWords() if module is None else SafeWords(self.package, cast(Words, module))

    def board_module(self) -> Board:
        """The game's SVG board; for a game without one, its view as text in an SVG box."""
        module = self.module(self.board)
        return PlainBoard() if module is None else cast(Board, module)

    def heuristics_module(self) -> Heuristics | None:
        return cast(Heuristics | None, self.module(self.heuristics))

    def encoding_module(self) -> Encoding | None:
        return cast(Encoding | None, self.module(self.encoding))

    def gestures_module(self) -> Gestures | None:
        return cast("Gestures | None", self.module(self.gestures))

    def folder(self) -> Path:
        """The game package's folder (its templates, decisions and catalogs live there)."""
        module = importlib.import_module(self.package)
        return Path(str(module.__file__)).parent

    def locales_folder(self) -> Path | None:
        return None if self.locales is None else self.folder() / self.locales

    def goldens_folder(self) -> Path | None:
        return None if self.goldens is None else self.folder() / self.goldens


class PlainBoard:
    """Stands in for a game without a board: the view's text in an SVG box (never fails)."""

    @staticmethod
    def render_board(
        view: Mapping[str, Any], seat: int | None, legal: Sequence[tuple[int, str]], gettext: Gettext = str
    ) -> str:
        from html import escape

        lines = json.dumps(view, ensure_ascii=False, sort_keys=True)[:2000]
        rows = [lines[i : i + 100] for i in range(0, len(lines), 100)]
        texts = "".join(f'<text x="4" y="{14 * (n + 1)}">{escape(row)}</text>' for n, row in enumerate(rows))
        height = 14 * len(rows) + 8
        return f'<svg xmlns="http://www.w3.org/2000/svg" class="board-plain" viewBox="0 0 720 {height}">{texts}</svg>'


class PlainWords:
    """Stands in for a game without words: the notation and the event's fields."""

    @staticmethod
    def action_label(notation: str, gettext: Gettext) -> str:
        return notation

    @staticmethod
    def event_text(event: Mapping[str, Any], gettext: Gettext) -> str:
        fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "kind")
        return f"{event.get('kind', '?')}: {fields}" if fields else str(event.get("kind", "?"))

    @staticmethod
    def seat_name(seat: object, gettext: Gettext) -> str:
        return gettext("Seat {seat}").replace("{seat}", str(seat))


class SafeWords:
    """A game's words that never fail a page: a text that cannot be made shows the plain one (logged)."""

    def __init__(self, package: str, module: Words) -> None:
        self._package = package
        self._module = module

    def action_label(self, notation: str, gettext: Gettext) -> str:
        try:
            return self._module.action_label(notation, gettext)
        except Exception:  # words are a courtesy: never let them fail a page or a state message
            log.exception("no words for %s action %r", self._package, notation)
            return PlainWords.action_label(notation, gettext)

    def event_text(self, event: Mapping[str, Any], gettext: Gettext) -> str:
        try:
            return self._module.event_text(event, gettext)
        except Exception:  # words are a courtesy: never let them fail a page or a state message
            log.exception("no words for %s event %r", self._package, event.get("kind"))
            return PlainWords.event_text(event, gettext)

    def seat_name(self, seat: object, gettext: Gettext) -> str:
        try:
            return self._module.seat_name(seat, gettext)
        except Exception:
            return PlainWords.seat_name(seat, gettext)


def kit_of(game: Game) -> GameKit:
    """The kit ``game`` declares (its class's ``kit``); a game that declares none offers only its rules."""
    kit = getattr(type(game), "kit", None)
    return kit if isinstance(kit, GameKit) else _bare(type(game).__module__)


@cache
def _bare(module: str) -> GameKit:
    return GameKit(package=module, words=None, board=None, heuristics=None, encoding=None, rules=None)


def require(part: object, game: Game, what: str) -> None:
    """Refuse clearly when ``game`` does not offer ``what`` (``part`` is None)."""
    if part is None:
        raise SpieltafelError(f"{game.name} offers no {what} (see its GameKit, docs/games.md)")
