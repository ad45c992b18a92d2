"""Request and response bodies of the JSON API (unknown fields are refused)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

from spieltafel.core import GameRecord
from spieltafel.core.gestures import MAX_STEPS, one_of

Name = Annotated[StrictStr, Field(max_length=100)]
Text = Annotated[StrictStr, Field(max_length=1000)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(Strict):
    name: Name = Field(description="3-20 characters: letters, digits, '_' and '-'")
    password: Text = Field(description="at least 8 characters")


class PasswordChange(Strict):
    current: Text = Field(description="the password now")
    new: Text = Field(description="at least 8 characters, not a common password, not containing the name")


class TokenListed(Strict):
    id: int = Field(description="revoke with DELETE /api/tokens/{id}")
    created_at: datetime


class NewAccount(Credentials):
    program: StrictBool = Field(default=False, description="the account is a program (a bot or an agent), not a person")


class AccountOut(Strict):
    name: str


class TokenOut(Strict):
    token: str = Field(description="shown once; send it as 'Authorization: Bearer <token>'")


class SessionOut(Strict):
    name: str


class Health(Strict):
    status: Literal["ok", "unavailable"]
    database: str
    pubsub: str
    unreachable: list[str]


class MeSeat(Strict):
    kind: Literal["me"]


class OpenSeat(Strict):
    kind: Literal["open"]


class BotSeat(Strict):
    kind: Literal["bot"]
    bot: Annotated[StrictStr, Field(max_length=20, description="random, greedy, easy, medium, hard, expert")]


SeatSpec = Annotated[MeSeat | OpenSeat | BotSeat, Field(discriminator="kind")]


class EmailIn(Strict):
    email: Annotated[StrictStr, Field(max_length=254)] | None = Field(description="null or empty: no e-mail")


class EmailOut(Strict):
    email: str | None
    enabled: bool = Field(description="whether this server sends e-mail at all (SMTP configured)")
    verified: bool = Field(description="its owner clicked the link sent to it: only then does it get mail")


class LiveClock(Strict):
    pace: Literal["live"]
    minutes: StrictInt = Field(ge=1, le=180, description="minutes per person for the whole game")
    increment: StrictInt = Field(default=0, ge=0, le=60, description="seconds added after each move")


class TurnClock(Strict):
    pace: Literal["turn"]
    per_move: Literal["12h", "1d", "3d", "7d"] = Field(description="time for each move")


ClockSpec = Annotated[LiveClock | TurnClock, Field(discriminator="pace")]


class BotTakesOver(Strict):
    rule: Literal["bot"]
    bot: Annotated[StrictStr, Field(max_length=20)] = Field(default="medium", description="the bot's level")


class PlayerIsOut(Strict):
    rule: Literal["out"]


LeaverSpec = Annotated[BotTakesOver | PlayerIsOut, Field(discriminator="rule")]


class NewTable(Strict):
    game: Name
    players: StrictInt = Field(ge=1, le=16)
    options: dict[Name, Name] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(max_length=16)
    private: bool = Field(default=False, description="seen and joined only through its invitation link")
    clock: ClockSpec | None = Field(default=None, description="none: no time limit")
    leaver: LeaverSpec | None = Field(default=None, description="when a person leaves or runs out of time")
    rated: StrictBool = Field(
        default=True, description="true (the default): the game changes ratings; false: a casual game, no rating"
    )


class TableId(Strict):
    id: int


class Join(Strict):
    seat: StrictInt | None = Field(default=None, ge=0, le=15)


class Leave(Strict):
    confirm: StrictBool = Field(
        default=False,
        description="true to leave a running game for good (its leaver rule takes the seat); an open table "
        "needs no confirmation",
    )


class SeatOut(Strict):
    seat: int


class SeatInfo(Strict):
    seat: int
    kind: Literal["player", "bot", "open"]
    name: str | None
    bot: str | None
    program: bool = Field(default=False, description="the account sitting here is a program")
    gone: Literal["left", "time"] | None = Field(description="why the person no longer plays this seat")
    hints: int = Field(default=0, description="hints the seat's person got (casual games and games against bots)")


class LeaverOut(Strict):
    rule: Literal["bot", "out"]
    bot: str | None


class TableOut(Strict):
    id: int
    game: str
    players: int
    options: dict[str, str]
    status: Literal["open", "playing", "over"]
    seats: list[SeatInfo]
    seq: int
    private: bool = False
    rematch: int | None = Field(default=None, description="the rematch's table, once somebody asked for it")
    clock: LiveClock | TurnClock | None
    leaver: LeaverOut
    rated: bool = Field(default=True, description="false: a casual game, which changes no rating")
    hints_allowed: bool = Field(
        default=False, description="its people may ask for hints: a casual game, or one person against bots"
    )


class TableListed(TableOut):
    to_act: list[int]


class TableWaiting(TableListed):
    deadline_ms: int | None = Field(description="when your time for this move runs out (epoch ms), if limited")


class LegalAction(Strict):
    action: int
    notation: str
    label: str


class Result(Strict):
    scores: list[int]
    winners: list[int] = Field(description="the winners among the seats that are not out")
    out: list[int] = Field(description="seats whose person left or timed out under the rule 'out'")
    places: list[int] = Field(description="each seat's place, 1 = best; seats that are out share the last")


class SeatTime(Strict):
    seat: int
    remaining_ms: int | None = Field(description="live: the seat's clock; turn-based: time left for this move")
    running: bool


class Clocks(Strict):
    now_ms: int = Field(description="the server's time (epoch ms) when the message was made")
    seats: list[SeatTime]


class StateOut(Strict):
    seq: int
    seat: int | None
    to_act: list[int]
    view: dict[str, Any] | None = Field(description="the engine's view(seat); null before the start")
    legal: list[LegalAction]
    events: list[dict[str, Any]]
    result: Result | None
    clocks: Clocks | None = Field(description="null without a time limit")
    seats: list[SeatInfo] = Field(description="who plays each seat now (a bot may have taken over)")
    undo: int = Field(0, description="how many of its latest moves this seat may take back now (action 'undo')")
    gestures: list[GestureOut] = Field(
        default_factory=list, description="board targets that stand for several actions in a row (post as actions)")


class GestureOut(Strict):
    target: str = Field(description="the id of the board element that stands for the gesture")
    notation: str = Field(description="the gesture in the game's own short words, e.g. 'a to 4; load diamond at 3'")
    actions: list[int] = Field(description="the steps in order, as action indices")
    notations: list[str] = Field(description="the steps in order, as notations")


class Move(Strict):
    seq: StrictInt = Field(ge=0, description="the seq of the state you saw")
    action: StrictInt | Annotated[StrictStr, Field(max_length=200)] | None = Field(
        default=None, description="index or notation (or send actions)")
    actions: list[StrictInt | Annotated[StrictStr, Field(max_length=200)]] | None = Field(
        default=None, min_length=1, max_length=MAX_STEPS,
        description="several actions in a row, all or none (a gesture, e.g. a state's gestures[].actions)")

    @model_validator(mode="after")
    def one_of(self) -> Move:
        one_of(self.action, self.actions)
        return self

    def played(self) -> int | str | list[int | str]:
        return self.actions if self.actions is not None else cast("int | str", self.action)


class Undo(Strict):
    seq: StrictInt = Field(ge=0, description="the seq of the state you saw")
    steps: StrictInt = Field(default=1, ge=1, le=MAX_STEPS,
                             description="how many of your latest moves to take back (a gesture's steps), all or none")


class SeqOut(Strict):
    seq: int


class ErrorDetail(Strict):
    code: str
    message: str


class ErrorOut(Strict):
    detail: ErrorDetail


RecordOut = GameRecord
