"""Gestures (issue 25): a list of actions submitted at once is played step by step, all or none; each step is
a move of its own in the log, the events and the record; a hostile list changes nothing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from spieltafel.core.gestures import MAX_STEPS

from ..helpers import Person
from .test_undo import niagara_table, state_of, undo

pytestmark = pytest.mark.anyio


async def steps(client: httpx.AsyncClient, table_id: int, who: Person, seq: int, actions: Any) -> httpx.Response:
    return await client.post(f"/api/tables/{table_id}/moves", json={"seq": seq, "actions": actions},
                             headers=who.headers)


async def test_a_canoe_paddles_to_its_destination_in_one_submission_and_each_step_stays_a_move(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    table_id, people, mover = await niagara_table(client)
    other = next(p for p in people if p is not mover)
    mine = await state_of(client, table_id, mover)
    assert (await state_of(client, table_id, other))["gestures"] == []  # only the seat to act has gestures
    far = next(g for g in mine["gestures"] if g["target"] == "dest-a-6L" and g["notation"] == "a to 6L")
    assert far["notations"] == ["a down"] * 5 + ["a down left"] and len(far["actions"]) == 6
    answer = await steps(client, table_id, mover, 3, far["actions"])
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"seq": 9}  # six steps, six seqs
    seen = await state_of(client, table_id, other)
    paddles = [e for e in seen["events"] if e["kind"] == "paddle"]
    assert [e["seq"] for e in paddles] == [4, 5, 6, 7, 8, 9]
    assert [e["to"] for e in paddles] == ["1", "2", "3", "4", "5", "6L"]
    assert seen["events"][-1]["kind"] == "reveal"  # the last step passed the turn: the next card shows
    _live, log = await app.state.services.tables.log_so_far(table_id)  # the log: one row per step, seq after seq
    assert [(seq, notation) for seq, _seat, notation in log[3:]] == [
        (3, "a down"), (4, "a down"), (5, "a down"), (6, "a down"), (7, "a down"), (8, "a down left")]


async def test_a_list_may_stop_inside_a_canoe_move_and_each_step_is_taken_back_on_its_own(
    client: httpx.AsyncClient,
) -> None:
    table_id, people, mover = await niagara_table(client)
    other = next(p for p in people if p is not mover)
    mine = await state_of(client, table_id, mover)
    assert (await steps(client, table_id, mover, 3, ["a down"] * 5)).json() == {"seq": 8}
    assert (await state_of(client, table_id, mover))["undo"] == 5
    assert (await undo(client, table_id, mover, 8)).json() == {"seq": 9}
    back = await state_of(client, table_id, other)
    assert back["events"][-1]["kind"] == "undo"
    canoes = back["view"]["player_info"][mover_seat(mine)]["canoes"]
    assert next(c for c in canoes if c["canoe"] == "a")["space"] == "4"


def mover_seat(state: dict[str, Any]) -> int:
    return int(state["seat"])


@pytest.mark.parametrize(
    ("actions", "bad"),
    [
        (["a down", "a down", "a down", "b down"], 4),  # b may not start while a is moving
        (["a down", "a up"], 2),  # a canoe keeps one direction for its whole move
        (["a down", "a down", "steal 1a"], 3),  # no theft here
        (["a down", 99999], 2),  # outside the action space
        (["a down", "a down", "a down", "a down", "a down", "a down"], 6),  # at the fork: name the arm
        (["a down"] * 5 + ["a down left", "a down"], 7),  # the turn has passed after the 6th: nothing may follow
    ],
)
async def test_a_list_with_an_illegal_step_is_refused_whole_and_nothing_changes(
    client: httpx.AsyncClient, actions: list[Any], bad: int
) -> None:
    table_id, people, mover = await niagara_table(client)
    other = next(p for p in people if p is not mover)
    before = await state_of(client, table_id, other)
    answer = await steps(client, table_id, mover, 3, actions)
    assert answer.status_code == 422, answer.text
    detail = answer.json()["detail"]
    assert detail["code"] == "illegal-steps" and "nothing was played" in detail["message"]
    assert f"step {bad}" in detail["message"]
    after = await state_of(client, table_id, other)
    assert after["seq"] == 3 and after["view"] == before["view"] and after["events"] == before["events"]


@pytest.mark.parametrize(
    "body",
    [
        {"seq": 3, "actions": ["a down"] * (MAX_STEPS + 1)},  # too long
        {"seq": 3, "actions": []},  # empty
        {"seq": 3, "actions": "a down"},  # not a list
        {"seq": 3, "actions": [["a down"]]},  # nested
        {"seq": 3, "actions": [True]},  # not an index
        {"seq": 3, "action": "a down", "actions": ["a down"]},  # both
        {"seq": 3},  # neither
        {"seq": 3, "actions": ["x" * 500]},  # too long a notation
    ],
)
async def test_garbage_lists_are_refused_before_the_table_is_touched(
    client: httpx.AsyncClient, body: dict[str, Any]
) -> None:
    table_id, _people, mover = await niagara_table(client)
    before = await state_of(client, table_id, mover)
    answer = await client.post(f"/api/tables/{table_id}/moves", json=body, headers=mover.headers)
    assert answer.status_code == 422, answer.text
    after = await state_of(client, table_id, mover)
    assert after["seq"] == before["seq"] == 3 and after["view"] == before["view"]


async def test_undo_inside_a_list_and_another_seats_list_are_refused(client: httpx.AsyncClient) -> None:
    table_id, people, mover = await niagara_table(client)
    other = next(p for p in people if p is not mover)
    answer = await steps(client, table_id, mover, 3, ["a down", "undo"])
    assert answer.status_code == 422 and answer.json()["detail"]["code"] == "illegal-steps"
    answer = await steps(client, table_id, other, 3, ["a down"])
    assert answer.status_code == 403 and answer.json()["detail"]["code"] == "not-your-turn"
    assert (await state_of(client, table_id, mover))["seq"] == 3


async def test_one_undo_takes_back_a_whole_gesture_when_asked_with_its_steps(client: httpx.AsyncClient) -> None:
    table_id, people, mover = await niagara_table(client)
    other = next(p for p in people if p is not mover)
    before = await state_of(client, table_id, other)
    assert (await steps(client, table_id, mover, 3, ["a down"] * 4)).json() == {"seq": 7}
    too_many = await client.post(f"/api/tables/{table_id}/undo", json={"seq": 7, "steps": 5}, headers=mover.headers)
    assert too_many.status_code == 409 and too_many.json()["detail"]["code"] == "no-takeback"
    assert (await state_of(client, table_id, mover))["seq"] == 7  # nothing was taken back
    answer = await client.post(f"/api/tables/{table_id}/undo", json={"seq": 7, "steps": 4}, headers=mover.headers)
    assert answer.json() == {"seq": 11}  # four takebacks, a log row each
    back = await state_of(client, table_id, other)
    assert back["view"] == before["view"] and [e["kind"] for e in back["events"][-4:]] == ["undo"] * 4
    assert (await state_of(client, table_id, mover))["undo"] == 0
