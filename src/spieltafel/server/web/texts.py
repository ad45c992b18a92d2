"""Tables, seats, clocks and refusals in the reader's words, for every page that shows them (the lobby,
a table, the new-table form, profiles, replays)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spieltafel.core import get_game
from spieltafel.server.accounts.service import DELETED_NAME
from spieltafel.server.numbers import BadNumber
from spieltafel.server.web.templating import number_refused


def error_text(error: Exception, gettext: Callable[[str], str]) -> str:
    """A service refusal in the reader's language."""
    if isinstance(error, BadNumber):
        return number_refused(error, gettext)
    code = str(getattr(error, "code", "") or "")
    known = {
        "stale": gettext("The game moved on before your move arrived. Here is the current position."),
        "illegal": gettext("That move is not allowed now."),
        "not-your-turn": gettext("It is not your turn."),
        "not-seated": gettext("You do not have a seat at this table."),
        "unauthenticated": gettext("Please sign in first."),
        "forbidden": gettext("You may not do that."),
        "not-found": gettext("There is no such table."),
        "no-table": gettext("There is no such table."),
        "taken": gettext("That name is taken. Please choose another."),
        "name-taken": gettext("That name is taken. Please choose another."),
        "seat-taken": gettext("That seat is taken."),
        "full": gettext("This table has no free seat."),
        "started": gettext("This game has already started."),
        "over": gettext("This game is over."),
        "credentials": gettext("Wrong name or password."),
        "rate-limited": gettext("Too many tries in a short time. Please wait a while and try again."),
        "analysis-unavailable": gettext(
            "No analysis can be worked out now: no process that computes analyses is running. Please try "
            "again later."
        ),
    }
    if code in known:
        return known[code]
    name = type(error).__name__
    by_class = {
        "Unauthenticated": gettext("Please sign in first."),
        "Forbidden": gettext("You may not do that."),
        "NotFound": gettext("There is no such table."),
        "StaleSeq": known["stale"],
        "Conflict": gettext("That is not possible at this table now."),
        "Invalid": gettext("Some of what you entered is not valid."),
    }
    return by_class.get(name, gettext("Something went wrong. Please try again."))


def game_title(name: str) -> str:
    try:
        return get_game(name).title
    except Exception:
        return name


def seat_rows(table: Mapping[str, Any], gettext: Callable[[str], str], me: Any = None) -> list[dict[str, Any]]:
    """One row per seat: number, who sits there (a name, a bot level or open), and whether it is me."""
    rows: list[dict[str, Any]] = []
    to_act = set(table.get("to_act") or [])
    me_name = getattr(me, "name", None)
    out_rule = (table.get("leaver") or {}).get("rule") == "out"
    for index, seat in enumerate(table.get("seats") or []):
        seat = seat if isinstance(seat, Mapping) else {"name": seat}
        number = int(seat.get("seat", index))
        kind = str(seat.get("kind") or "")
        name = seat.get("name") or seat.get("account")
        bot = seat.get("bot")
        gone = seat.get("gone")
        if bot and (not name or gone):
            kind = "bot"
        elif name:
            kind = "program" if seat.get("program") or kind == "program" else "person"
        elif kind != "bot":
            kind = "open"
        shown = gettext("deleted player") if name == DELETED_NAME else name  # an account deleted since
        if kind == "person" and name == DELETED_NAME:
            kind = "deleted"  # no link to a profile
        if gone and name:
            label = gone_label(str(shown), str(bot or ""), out_rule, gettext)
        elif kind == "bot":
            label = gettext("Bot (%(level)s)") % {"level": bot_level_name(str(bot or ""), gettext)}
        elif kind == "open":
            label = gettext("open seat")
        elif kind == "program":
            label = gettext("%(name)s (program)") % {"name": name}
        else:
            label = str(shown)
        rows.append(
            {
                "seat": number,
                "kind": kind,
                "label": label,
                "name": name,
                "is_me": bool(me_name and name == me_name and not gone),
                "to_act": number in to_act,
                "gone": gone_reason(str(gone), gettext) if gone else None,
                "out": bool(gone and out_rule),
                "hints": int(seat.get("hints") or 0),
            }
        )
    return rows


def gone_label(name: str, bot: str, out_rule: bool, gettext: Callable[[str], str]) -> str:
    """A seat whose person left or ran out of time: who took it over, or that the person is out."""
    if out_rule:
        return gettext("%(name)s (out)") % {"name": name}
    return gettext("Bot (%(level)s) for %(name)s") % {"level": bot_level_name(bot, gettext), "name": name}


def gone_reason(gone: str, gettext: Callable[[str], str]) -> str:
    return gettext("ran out of time") if gone == "time" else gettext("left the game")


def clock_text(ms: int | None, gettext: Callable[[str], str]) -> str:
    """Time left, as a clock shows it: ``4:05`` (``1:02:03``), or days and hours when it is long."""
    if ms is None:
        return ""
    seconds = max(0, ms) // 1000
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return gettext("%(days)d d %(hours)d h") % {"days": days, "hours": hours}
    if hours >= 2:
        return gettext("%(hours)d h %(minutes)d min") % {"hours": hours, "minutes": minutes}
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def pace_text(clock: Mapping[str, Any] | None, gettext: Callable[[str], str]) -> str:
    """The table's time limit in words."""
    if not clock:
        return gettext("no time limit")
    if clock.get("pace") == "live":
        return gettext("live: %(minutes)d min + %(increment)d s per move") % {
            "minutes": int(clock.get("minutes") or 0), "increment": int(clock.get("increment") or 0)
        }
    names = per_move_names(gettext)
    return gettext("turn-based: %(limit)s per move") % {"limit": names.get(str(clock.get("per_move")), "")}


def per_move_names(gettext: Callable[[str], str]) -> dict[str, str]:
    return {"12h": gettext("12 hours"), "1d": gettext("1 day"), "3d": gettext("3 days"), "7d": gettext("7 days")}


def bot_level_name(level: str, gettext: Callable[[str], str]) -> str:
    names = {
        "easy": gettext("easy"),
        "medium": gettext("medium"),
        "hard": gettext("hard"),
        "expert": gettext("expert"),
        "greedy": gettext("greedy"),
        "random": gettext("random"),
    }
    return names.get(level, level)


def option_rows(game_name: str, options: Mapping[str, Any], gettext: Callable[[str], str]) -> list[dict[str, str]]:
    """The table's options in words: the option's name and the chosen value."""
    rows = []
    try:
        specs = {spec.name: spec for spec in get_game(game_name).options}
    except Exception:
        specs = {}
    for key, value in options.items():
        spec = specs.get(key)
        if spec is not None and str(value) == spec.default:
            continue
        if spec is None:
            rows.append({"name": gettext(key), "value": gettext(str(value))})
        else:
            rows.append({"name": gettext(spec.label_of()), "value": gettext(spec.label_of(str(value)))})
    return rows


def table_rows(tables: Sequence[Mapping[str, Any]], gettext: Callable[[str], str], me: Any) -> list[dict[str, Any]]:
    rows = []
    for table in tables:
        seats = seat_rows(table, gettext, me)
        to_act = [s for s in seats if s["to_act"]]
        rows.append(
            {
                "id": table.get("id"),
                "game": table.get("game"),
                "title": game_title(str(table.get("game"))),
                "players": table.get("players"),
                "status": table.get("status"),
                "seats": seats,
                "free": sum(1 for s in seats if s["kind"] == "open"),
                "options": option_rows(str(table.get("game")), table.get("options") or {}, gettext),
                "to_act": to_act,
                "my_turn": any(s["is_me"] for s in to_act),
                "mine": any(s["is_me"] for s in seats),
                "pace": pace_text(table.get("clock"), gettext),
                "timed": bool(table.get("clock")),
                "casual": table.get("rated") is False,
            }
        )
    return rows


def leaver_text(leaver: Mapping[str, Any], gettext: Callable[[str], str]) -> str:
    """What happens to the seat of a person who leaves or runs out of time."""
    if leaver.get("rule") == "out":
        return gettext("Who leaves or runs out of time is out and ranked last.")
    level = bot_level_name(str(leaver.get("bot") or "medium"), gettext)
    return gettext("Who leaves or runs out of time is replaced by a bot (%(level)s).") % {"level": level}
