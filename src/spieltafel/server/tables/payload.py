"""The per-seat state message: what one seat (or a spectator) may see of a table now, with the labels of
its legal moves and the clocks. Nothing here reads the database; nothing else builds this message."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from spieltafel.core import State, get_game, kit_of
from spieltafel.server.tables import clocks
from spieltafel.server.tables.live import Live


def labeller(game: str) -> Callable[[str], str]:
    """The game's action labels in plain English (its kit's words; the notation where it has none)."""
    words = kit_of(get_game(game)).words_module()
    return lambda notation: words.action_label(notation, lambda text: text)


def notations(state: State, seat: int, actions: Sequence[int]) -> list[str]:
    """The notations of ``actions`` played in a row from ``state`` (each read in the position it meets)."""
    position = state.clone()
    found = []
    for action in actions:
        found.append(position.action_text(seat, action))
        position.step(seat, action)
    return found


def gestures_of(game: str, state: State, seat: int) -> list[dict[str, Any]]:
    """The gestures of ``seat`` (to act) in ``state`` as the state message carries them."""
    module = kit_of(get_game(game)).gestures_module()
    if module is None:
        return []
    return [
        {"target": g.target, "notation": g.notation, "actions": list(g.actions),
         "notations": notations(state, seat, g.actions)}
        for g in module.gestures(state, seat)
    ]


class Payloads:
    """Builds the state message of a seat; keeps each game's labeller."""

    def __init__(self, now_ms: Callable[[], int]) -> None:
        self.now_ms = now_ms
        self._labels: dict[str, Callable[[str], str]] = {}
        self._gestures: dict[tuple[int, int, int], list[dict[str, Any]]] = {}

    def for_seat(self, live: Live, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) sees: its view, its legal moves with labels, the events of the
        latest moves as that seat may see them, the result, the clocks and the seats."""
        started = live.status != "open"
        over = live.status == "over"
        result = clocks.table_result(live.state.scores(), live.state.winners(), live.out()) if over else None
        return {
            "seq": live.seq,
            "seat": seat,
            "to_act": live.to_act(),
            "view": live.state.view(seat) if started else None,
            "legal": self.legal(live, seat),
            "events": [{"seq": seq, **event.view(seat)} for seq, event in live.events],
            "result": result,
            "clocks": self.clocks(live) if started else None,
            "seats": [s.public(n) for n, s in enumerate(live.seats)],
            "undo": self.takebacks(live, seat),
            "gestures": self.gestures(live, seat),
        }

    @staticmethod
    def takebacks(live: Live, seat: int | None) -> int:
        """How many of its latest moves ``seat`` may take back now (0 for a spectator, a bot, another's turn)."""
        if seat is None or seat not in live.to_act() or live.seats[seat].bot:
            return 0
        return live.takebacks.allowed(seat)

    def legal(self, live: Live, seat: int | None) -> list[dict[str, Any]]:
        """The seat's legal moves now (none when it is not to act): index, notation and label."""
        if seat is None or seat not in live.to_act():
            return []
        label = self._labels.get(live.game)
        if label is None:  # once per game (setdefault would look the module up for every message)
            label = self._labels[live.game] = labeller(live.game)
        legal = []
        for action in live.state.legal_actions(seat):
            notation = live.state.action_text(seat, action)
            legal.append({"action": action, "notation": notation, "label": label(notation)})
        return legal

    def gestures(self, live: Live, seat: int | None) -> list[dict[str, Any]]:
        """The seat's gestures now (its game's kit, :mod:`spieltafel.core.gestures`): a target that stands for
        several of its actions in a row; found on copies of the state from the seat's own legal actions.
        Kept per table, ``seq`` and seat (every watcher's message of a move asks again)."""
        if seat is None or seat not in live.to_act() or live.status != "playing":
            return []
        key = (live.id, live.seq, seat)
        found = self._gestures.get(key)
        if found is None:
            found = gestures_of(live.game, live.state, seat)
            if len(self._gestures) > 512:
                self._gestures.clear()
            self._gestures[key] = found
        return [{**g, "actions": list(g["actions"]), "notations": list(g["notations"])} for g in found]

    def clocks(self, live: Live) -> dict[str, Any] | None:
        """The time left per seat now (null for seats without a clock) and whose clock runs."""
        if live.timing.pace is None:
            return None
        now = self.now_ms()
        timed = set(live.timed())
        return {
            "now_ms": now,
            "seats": [
                {
                    "seat": n,
                    "remaining_ms": clocks.remaining(live.timing, s.clock, now) if n in timed else None,
                    "running": n in timed and s.clock.deadline_ms is not None and live.status == "playing",
                }
                for n, s in enumerate(live.seats)
            ],
        }
