"""The gate of tables: the one way a route, page, form or socket gets a table id.

A table id is written one way only: ASCII digits, no sign, no leading zero, at most the database's
``INTEGER`` range (:func:`table_number`). Every route with a ``{table_id}`` in its path takes it through
:data:`TableNumber` (the socket through :func:`visible_table`), which parses it so and decides, in the
same step, whether the caller may see the table: for a private table the caller must sit at it or have
opened its invitation link (:meth:`TableService.may_see`, from the database). Anyone else, a removed
table, a table that never was and an id written any other way (``+1``, ``1.0``, `` 1``, ``01``) all get
the same refusal, 404 ``no-table`` (a page in the reader's language, the API's JSON, on the socket the
``no-table`` error and close 4404), so the gate does not even tell that a private table is there.
``tests/server/test_table_ids.py`` walks every route of the app that takes a table id.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends, Path
from starlette.requests import HTTPConnection

from spieltafel.server.accounts.auth import account_for
from spieltafel.server.errors import NotFound, no_table
from spieltafel.server.services import services_of

MAX_TABLE_ID = 2**31 - 1
"""The largest id the ``game_tables.id`` column holds (a 32-bit ``INTEGER`` on PostgreSQL)."""
CANONICAL_TABLE_ID = re.compile(r"[1-9][0-9]{0,9}")
CLOSE_NO_TABLE = 4404


def table_number(text: str) -> int | None:
    """The table id ``text`` names when it is written canonically (``17``), else None."""
    if CANONICAL_TABLE_ID.fullmatch(text) is None:
        return None
    number = int(text)
    return number if number <= MAX_TABLE_ID else None


def not_a_table_id(text: str) -> NotFound:
    """The refusal of an id written another way (it says nothing about any table)."""
    allowed = "ids are plain digits, no sign or leading zero (e.g. 17)"
    return NotFound("no-table", f"{text[:20]!r} is not a table id: {allowed}")


async def visible_table(connection: HTTPConnection, text: str) -> int:
    """The id of the table ``text`` names, when the caller of ``connection`` may see it. Refused alike: a
    private table not theirs, one removed and one that never was (:func:`no_table`); an id written
    another way gets :func:`not_a_table_id`."""
    number = table_number(text)
    if number is None:
        raise not_a_table_id(text)
    services = services_of(connection)
    account = connection.scope.get("state", {}).get("web_account") or await account_for(connection)
    if not await services.tables.may_see(number, account):
        raise no_table(number)
    return number


async def _table_of_path(
    connection: HTTPConnection,
    table_id: Annotated[str, Path(description="the table's id: plain digits, no sign or leading zero")],
) -> int:
    return await visible_table(connection, table_id)


TableNumber = Annotated[int, Depends(_table_of_path)]
"""A route's ``{table_id}``: the table's id, parsed canonically and visible to the caller (else 404)."""
