"""Replays: step through a finished game, look back at a running one, replay an uploaded record.

Routes (all pages work without JavaScript; ``static/replay.js`` only makes the slider jump at once):

- ``GET /tables/{id}/replay?step=N&as=<seat|all>`` — a finished game, step ``N`` (0 = the set-up) from
  the view of one seat or of everything (the full state: the game is over, nothing is secret any more).
- ``GET /tables/{id}/record.json`` — the finished game's record as a download.
- ``GET /tables/{id}/history?step=N`` — a running game as the caller saw it: ``view(seat)`` of the
  caller's own seat after step ``N`` (spectators: ``view(None)``), the events of that step as that seat
  saw them. Nothing else: no seed, no other seat's view, no notation of another seat's move.
- ``GET /replay/upload`` and ``POST /replay/upload`` — upload a record file (at most
  :data:`MAX_RECORD_BYTES`); it is checked with :class:`GameRecord` and :func:`replay` and then
  shown at ``GET /replay/uploaded/{key}`` (kept under the data folder, named by its content).

The replay itself is the engine's: a :class:`Timeline` applies the record's actions from the recorded
seed, keeping a copy of the state every :data:`CHECKPOINT_EVERY` steps so that stepping is cheap.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup
from pydantic import ValidationError

from spieltafel.core import Event, GameRecord, SpieltafelError, State, get_game, kit_of, replay
from spieltafel.core.kit import Board, Words
from spieltafel.server.errors import ServiceError
from spieltafel.server.numbers import BadNumber, parse_int, parse_optional_int
from spieltafel.server.privacy import TableNumber
from spieltafel.server.services import services_of
from spieltafel.server.web.seat_labels import raw_seat_name, seat_labels
from spieltafel.server.web.security import files_of
from spieltafel.server.web.templating import gettext_of, number_refused, redirect, render

router = APIRouter(include_in_schema=False)  # pages, not the JSON API
log = logging.getLogger("spieltafel.server.web.replay")

MAX_RECORD_BYTES = 1_000_000
"""The largest record file accepted for upload (a long random Niagara game is about 300 KB)."""

CHECKPOINT_EVERY = 64
"""A :class:`Timeline` keeps a copy of the state every this many steps."""

KEPT_UPLOADS = 200
"""At most this many uploaded records are kept in the data folder (the oldest go first)."""

MAX_STEP = 1_000_000
"""The largest ``step`` a replay or history address may ask for (a game this long is shown at its end)."""

_KEY = re.compile(r"[0-9a-f]{32}")


BoardModule = Board
WordsModule = Words


def board_module(game: str) -> Board:
    """The game's board (its kit's ``board``); a plain stand-in for a game without one."""
    return kit_of(get_game(game)).board_module()


def words_module(game: str) -> Words:
    """The game's words (its kit's ``words``), never failing a page; plain ones for a game without."""
    return kit_of(get_game(game)).words_module()


# -- the engine side ------------------------------------------------------------------------------


@dataclass
class Snapshot:
    """The position after ``step`` actions and the events of that step (none for step 0)."""

    step: int
    state: State
    events: list[Event]


@dataclass
class Timeline:
    """A game's actions replayed from its seed; any step can be looked at.

    ``actions`` are (seat, notation) pairs as recorded. Building a timeline replays every action once
    (so a bad record fails here, with the engine's reason); :meth:`at` then replays at most
    :data:`CHECKPOINT_EVERY` actions from the nearest kept copy.
    """

    game: str
    players: int
    seed: int
    options: dict[str, str]
    actions: list[tuple[int, str]]
    _checkpoints: list[State] = field(default_factory=list, repr=False)
    _events: list[list[Event]] = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def of_record(cls, record: GameRecord) -> Timeline:
        """The timeline of a complete record (one with its seed)."""
        if record.seed is None:
            raise ValueError("a record without its seed cannot be replayed")
        return cls(
            game=record.game,
            players=record.players,
            seed=record.seed,
            options=dict(record.options),
            actions=[(a.seat, a.action) for a in record.actions],
        )

    @property
    def steps(self) -> int:
        return len(self.actions)

    def _start(self) -> State:
        return get_game(self.game).new_state(self.players, self.seed, self.options)

    def build(self) -> None:
        """Replay every action once, keeping checkpoints and each step's events; raises
        SpieltafelError (or another engine error) on an action the rules refuse."""
        with self._lock:
            if self._checkpoints:
                return
            state = self._start()
            checkpoints = [state.clone()]
            events: list[list[Event]] = []
            for number, (seat, notation) in enumerate(self.actions, start=1):
                events.append(state.apply(seat, notation))
                if number % CHECKPOINT_EVERY == 0:
                    checkpoints.append(state.clone())
            self._events = events
            self._checkpoints = checkpoints

    def events(self, step: int) -> list[Event]:
        """The events of action ``step`` (1 … steps); none for step 0."""
        self.build()
        return self._events[step - 1] if 1 <= step <= self.steps else []

    def at(self, step: int) -> Snapshot:
        """The state after ``step`` actions (clamped to 0 … steps) and the events of the last one."""
        self.build()
        step = max(0, min(step, self.steps))
        base = step // CHECKPOINT_EVERY
        state = self._checkpoints[base].clone()
        for seat, notation in self.actions[base * CHECKPOINT_EVERY : step]:
            state.apply(seat, notation)
        return Snapshot(step, state, self.events(step))


class _TimelineCache:
    """A few timelines of one application, by key (a table id or an upload's digest)."""

    def __init__(self, size: int = 16) -> None:
        self._size = size
        self._items: OrderedDict[str, Timeline] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, make: Callable[[], Timeline]) -> Timeline:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        timeline = make()
        with self._lock:
            self._items[key] = timeline
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return timeline


def _timelines(request: Request) -> _TimelineCache:
    """The timelines of this application (a table id names another game in another app's database)."""
    cache = getattr(request.app.state, "timelines", None)
    if not isinstance(cache, _TimelineCache):
        cache = request.app.state.timelines = _TimelineCache()
    return cache


def check_record(data: bytes) -> GameRecord:
    """Read an uploaded record and replay it; raises :class:`RecordRefused` with the reason."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordRefused("too-large", "")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordRefused("not-json", "not UTF-8 text") from None
    try:
        parsed = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise RecordRefused("not-json", str(error)[:200]) from None
    try:
        record = GameRecord.model_validate(parsed)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "document"
        raise RecordRefused("not-record", f"{where}: {first['msg']}"[:300]) from None
    if record.seed is None:
        raise RecordRefused("no-seed", "")
    try:
        replay(record, verify=True)
    except SpieltafelError as error:
        raise RecordRefused("mismatch", str(error)[:300]) from None
    except (ValueError, TypeError, KeyError, IndexError, RecursionError) as error:
        raise RecordRefused("mismatch", type(error).__name__) from None
    return record


class RecordRefused(Exception):
    """An uploaded file that is no replayable record. ``reason`` is a code the page explains."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail


# -- page helpers ---------------------------------------------------------------------------------


def _gettext(request: Request) -> Callable[[str], str]:
    return gettext_of(request)


def _render(request: Request, template: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    return render(request, template, context, status=status)


def _error_page(request: Request, error: ServiceError, table_id: int | None = None) -> HTMLResponse:
    message = number_refused(error, _gettext(request)) if isinstance(error, BadNumber) else error.message
    return _render(
        request,
        "replay/error.html",
        {"code": error.code, "message": message, "table_id": table_id},
        status=error.status,
    )


def _parse_step(raw: str | None, default: int) -> int:
    """``step`` = a step number (``default`` when absent); past the last step shows the last one."""
    return parse_optional_int(raw, "step", 0, MAX_STEP, default)


def _parse_as(raw: str | None, players: int) -> int | None:
    """``as`` = a seat number (0-based) or ``all`` (None, also when absent)."""
    if raw is None or raw == "all":
        return None
    return parse_int(raw, "as", 0, players - 1, word="all")


def _seat_names(info: Mapping[str, Any] | None, players: int, recorded: Sequence[str] = ()) -> list[str]:
    """A name per seat: the account's name or the bot level, as the table service reports them."""
    names: list[str] = []
    seats = info.get("seats") if info else None
    for seat in range(players):
        name = ""
        if isinstance(seats, list) and seat < len(seats):
            entry = seats[seat]
            if isinstance(entry, Mapping):
                name = raw_seat_name(entry)
            elif isinstance(entry, str):
                name = entry
        if not name and seat < len(recorded):
            name = recorded[seat]
        names.append(name)
    return names


def _event_lines(
    words: WordsModule, events: Sequence[Event], seat: int | None, everything: bool, gettext: Callable[[str], str]
) -> list[dict[str, Any]]:
    """The events as words; ``everything`` adds every seat's private part (finished games only)."""
    lines: list[dict[str, Any]] = []
    for event in events:
        if everything and event.private:
            for owner in sorted(event.private):
                lines.append({"text": words.event_text(event.view(owner), gettext), "seat": owner})
        else:
            lines.append({"text": words.event_text(event.view(seat), gettext), "seat": None})
    return [line for line in lines if line["text"]]


def _query(step: int, as_: int | None) -> str:
    return f"?step={step}&as={'all' if as_ is None else as_}"


@dataclass
class ReplaySource:
    """What a replay page needs besides the timeline: where it lives and how to name things."""

    base_url: str
    title: str
    seat_names: list[str]
    download_url: str | None
    table_id: int | None
    result: dict[str, Any] | None


def _replay_context(
    request: Request, timeline: Timeline, source: ReplaySource, step: int, as_: int | None
) -> dict[str, Any]:
    gettext = _gettext(request)
    game = get_game(timeline.game)
    snapshot = timeline.at(step)
    step = snapshot.step
    words = words_module(timeline.game)
    board = board_module(timeline.game).render_board(snapshot.state.view(as_), as_, [], gettext)
    moves = [
        {
            "number": number,
            "seat": seat,
            "label": words.action_label(notation, gettext),
            "url": source.base_url + _query(number, as_),
            "current": number == step,
        }
        for number, (seat, notation) in enumerate(timeline.actions, start=1)
    ]
    views: list[dict[str, Any]] = [
        {"value": "all", "seat": None, "url": source.base_url + _query(step, None), "current": as_ is None}
    ]
    views += [
        {"value": str(s), "seat": s, "url": source.base_url + _query(step, s), "current": as_ == s}
        for s in range(timeline.players)
    ]
    full_state = None
    if as_ is None:
        full_state = json.dumps(snapshot.state.to_json(), indent=1, ensure_ascii=False)
    return {
        "kind": "replay",
        "game": game,
        "game_name": timeline.game,
        "title": source.title,
        "table_id": source.table_id,
        "players": timeline.players,
        "seat_names": seat_labels(timeline.game, source.seat_names, gettext),
        "step": step,
        "steps": timeline.steps,
        "as_value": "all" if as_ is None else str(as_),
        "as_seat": as_,
        "base_url": source.base_url,
        "nav": _nav(source.base_url, step, timeline.steps, as_),
        "views": views,
        "board": Markup(board),
        "events": _event_lines(words, snapshot.events, as_, as_ is None, gettext),
        "acting_seat": timeline.actions[step - 1][0] if step else None,
        "moves": moves,
        "download_url": source.download_url,
        "result": source.result if step == timeline.steps else None,
        "full_state": full_state,
    }


def _nav(base_url: str, step: int, steps: int, as_: int | None) -> dict[str, str | None]:
    return {
        "first": base_url + _query(0, as_) if step > 0 else None,
        "back": base_url + _query(step - 1, as_) if step > 0 else None,
        "forward": base_url + _query(step + 1, as_) if step < steps else None,
        "last": base_url + _query(steps, as_) if step < steps else None,
    }


async def _in_thread(function: Callable[[], Any]) -> Any:
    return await anyio.to_thread.run_sync(function)


@dataclass(frozen=True)
class Position:
    """A finished table's position at one step as one seat saw it (the analysis page shows it beside its chart)."""

    step: int
    steps: int
    board: Markup
    acting_seat: int | None
    """Who made the move that ends at ``step`` (None at the set-up)."""
    moves: list[str]
    """Every move of the game in words (``moves[n - 1]`` is move ``n``)."""


async def table_position(request: Request, table_id: int, record: GameRecord, step: int, seat: int | None) -> Position:
    """The position of finished table ``table_id`` after ``step`` actions (clamped) as ``seat`` saw it
    (None: a spectator's board), from this application's timelines (the replay page's)."""
    gettext = _gettext(request)
    timeline = _timelines(request).get(f"table:{table_id}", lambda: Timeline.of_record(record))

    def build() -> Position:
        snapshot = timeline.at(step)
        words = words_module(timeline.game)
        board = board_module(timeline.game).render_board(snapshot.state.view(seat), seat, [], gettext)
        return Position(
            step=snapshot.step,
            steps=timeline.steps,
            board=Markup(board),
            acting_seat=timeline.actions[snapshot.step - 1][0] if snapshot.step else None,
            moves=[words.action_label(notation, gettext) for _, notation in timeline.actions],
        )

    position: Position = await _in_thread(build)
    return position


# -- finished games -------------------------------------------------------------------------------


def _tables(request: Request) -> Any:
    return services_of(request).tables


@router.get("/tables/{table_id}/replay", response_class=HTMLResponse)
async def table_replay(request: Request, table_id: TableNumber) -> Response:
    tables = _tables(request)
    try:
        info = await tables.get(table_id)
        record: GameRecord = await tables.record(table_id)
    except ServiceError as error:
        return _error_page(request, error, table_id)
    try:
        step = _parse_step(request.query_params.get("step"), 0)
        as_ = _parse_as(request.query_params.get("as"), record.players)
    except BadNumber as error:
        return _error_page(request, error, table_id)
    timeline = _timelines(request).get(f"table:{table_id}", lambda: Timeline.of_record(record))
    result = record.result.model_dump() if record.result else None
    source = ReplaySource(
        base_url=f"/tables/{table_id}/replay",
        title=get_game(record.game).title,
        seat_names=_seat_names(info, record.players, record.seats),
        download_url=f"/tables/{table_id}/record.json",
        table_id=table_id,
        result=result,
    )
    context = await _in_thread(lambda: _replay_context(request, timeline, source, step, as_))
    return _render(request, "replay/replay.html", context)


@router.get("/tables/{table_id}/record.json")
async def table_record(request: Request, table_id: TableNumber) -> Response:
    try:
        record: GameRecord = await _tables(request).record(table_id)
    except ServiceError as error:
        return _error_page(request, error, table_id)
    return Response(
        record.model_dump_json(indent=1) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="spieltafel-{record.game}-table{table_id}.json"'},
    )


# -- uploaded records -----------------------------------------------------------------------------


def _upload_dir(request: Request) -> Path:
    data_dir = Path(services_of(request).settings.data_dir)
    folder = data_dir / "uploaded-records"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _store_upload(folder: Path, record: GameRecord) -> str:
    text = record.model_dump_json(indent=1) + "\n"
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
    path = folder / f"{key}.json"
    if not path.exists():
        partial = folder / f"{key}.part"
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
        kept = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for old in kept[: max(0, len(kept) - KEPT_UPLOADS)]:
            old.unlink(missing_ok=True)
    return key


def _upload_form(request: Request, error: str | None = None, detail: str = "", status: int = 200) -> HTMLResponse:
    return _render(
        request,
        "replay/upload.html",
        {"error": error, "detail": detail, "max_kb": MAX_RECORD_BYTES // 1000},
        status=status,
    )


@router.get("/replay/upload", response_class=HTMLResponse)
async def upload_form(request: Request) -> Response:
    return _upload_form(request)


@router.post("/replay/upload", response_class=HTMLResponse)
async def upload_record(request: Request) -> Response:
    """Check an uploaded record (the page middleware has read the form and checked its CSRF token)."""
    upload = files_of(request).get("record")
    if upload is None:
        return _upload_form(request, "no-file", status=400)
    data = upload[1]
    if len(data) > MAX_RECORD_BYTES:
        return _upload_form(request, "too-large", status=413)
    try:
        record = await _in_thread(lambda: check_record(data))
    except RecordRefused as refused:
        status = 413 if refused.reason == "too-large" else 422
        return _upload_form(request, refused.reason, refused.detail, status=status)
    key = _store_upload(_upload_dir(request), record)
    return redirect(f"/replay/uploaded/{key}")


def _load_upload(request: Request, key: str) -> GameRecord | None:
    if not _KEY.fullmatch(key):
        return None
    path = _upload_dir(request) / f"{key}.json"
    try:
        return GameRecord.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError):
        return None


@router.get("/replay/uploaded/{key}", response_class=HTMLResponse)
async def uploaded_replay(request: Request, key: str) -> Response:
    record = _load_upload(request, key)
    if record is None:
        return _render(request, "replay/error.html", {"code": "no-upload", "message": "", "table_id": None}, 404)
    try:
        step = _parse_step(request.query_params.get("step"), 0)
        as_ = _parse_as(request.query_params.get("as"), record.players)
    except BadNumber as error:
        return _error_page(request, error)
    timeline = _timelines(request).get(f"upload:{key}", lambda: Timeline.of_record(record))
    source = ReplaySource(
        base_url=f"/replay/uploaded/{key}",
        title=get_game(record.game).title,
        seat_names=_seat_names(None, record.players, record.seats),
        download_url=f"/replay/uploaded/{key}/record.json",
        table_id=None,
        result=record.result.model_dump() if record.result else None,
    )
    context = await _in_thread(lambda: _replay_context(request, timeline, source, step, as_))
    return _render(request, "replay/replay.html", context)


@router.get("/replay/uploaded/{key}/record.json")
async def uploaded_record(request: Request, key: str) -> Response:
    record = _load_upload(request, key)
    if record is None:
        return Response(status_code=404)
    return Response(
        record.model_dump_json(indent=1) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="spieltafel-{record.game}-{key[:8]}.json"'},
    )


# -- looking back during a running game -----------------------------------------------------------


@dataclass
class RunningGame:
    """A running table's log as the server keeps it: never shown, only replayed on the server."""

    table_id: int
    status: str
    seq: int
    seat: int | None
    seat_names: list[str]
    timeline: Timeline


async def _running_game(request: Request, table_id: int) -> RunningGame:
    """The table's log and the caller's seat, from the table service (``log_so_far``: the running game's
    seed and moves stay on the server; only the caller's seat's view of them is drawn)."""
    from spieltafel.server.web.templating import account_of

    live, moves = await _tables(request).log_so_far(table_id)
    seat = live.seat_of(account_of(request))
    info = live.summary()
    key = f"history:{table_id}:{live.seq}"  # a takeback and a new move may give the same number of moves
    actions = [(mover, notation) for _, mover, notation in moves]
    timeline = _timelines(request).get(
        key,
        lambda: Timeline(game=live.game, players=live.players, seed=live.seed, options=dict(live.options),
                         actions=actions),
    )
    return RunningGame(table_id, live.status, len(moves), seat, _seat_names(info, live.players), timeline)


def _history_context(request: Request, game: RunningGame, step: int) -> dict[str, Any]:
    """Only what ``game.seat`` saw (a spectator: what everyone saw): its view and its events."""
    gettext = _gettext(request)
    timeline = game.timeline
    seat = game.seat
    words = words_module(timeline.game)
    snapshot = timeline.at(step)
    step = snapshot.step
    board = board_module(timeline.game).render_board(snapshot.state.view(seat), seat, [], gettext)
    base_url = f"/tables/{game.table_id}/history"
    moves = []
    for number, (mover, notation) in enumerate(timeline.actions, start=1):
        if seat is not None and mover == seat:
            texts = [words.action_label(notation, gettext)]
        else:
            texts = [line["text"] for line in _event_lines(words, timeline.events(number), seat, False, gettext)][:3]
        moves.append(
            {
                "number": number,
                "seat": mover,
                "label": "; ".join(texts),
                "url": f"{base_url}?step={number}",
                "current": number == step,
            }
        )
    return {
        "kind": "history",
        "game": get_game(timeline.game),
        "game_name": timeline.game,
        "table_id": game.table_id,
        "players": timeline.players,
        "seat_names": seat_labels(timeline.game, game.seat_names, gettext),
        "seat": seat,
        "step": step,
        "steps": timeline.steps,
        "base_url": base_url,
        "nav": _history_nav(base_url, step, timeline.steps),
        "board": Markup(board),
        "events": _event_lines(words, snapshot.events, seat, False, gettext),
        "acting_seat": timeline.actions[step - 1][0] if step else None,
        "moves": moves,
    }


@router.get("/tables/{table_id}/history", response_class=HTMLResponse)
async def table_history(request: Request, table_id: TableNumber) -> Response:
    try:
        game = await _running_game(request, table_id)
        step = _parse_step(request.query_params.get("step"), game.seq)
    except ServiceError as error:
        return _error_page(request, error, table_id)
    if game.status == "over":
        view = "all" if game.seat is None else str(game.seat)
        return redirect(f"/tables/{table_id}/replay?step={step}&as={view}")
    if game.status != "playing":
        return _render(request, "replay/error.html", {"code": "not-started", "message": "", "table_id": table_id}, 409)
    context = await _in_thread(lambda: _history_context(request, game, step))
    return _render(request, "replay/history.html", context)


def _history_nav(base_url: str, step: int, steps: int) -> dict[str, str | None]:
    return {
        "first": f"{base_url}?step=0" if step > 0 else None,
        "back": f"{base_url}?step={step - 1}" if step > 0 else None,
        "forward": f"{base_url}?step={step + 1}" if step < steps else None,
        "last": f"{base_url}?step={steps}" if step < steps else None,
    }
