"""Issue 23, chat text: a message with a bidirectional control (U+202E makes ``evil`` read ``live`` and
can make a line look like someone else's) or another invisible formatting character is refused with
``bad-text`` naming the character, over the API and from the page; the joiners that scripts and emoji
need are kept."""

from __future__ import annotations

import re

import httpx
import pytest

from spieltafel.server.errors import Invalid
from spieltafel.server.social.chat import check_text, hidden_character

from ..helpers import PASSWORD, person

pytestmark = pytest.mark.anyio

BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
        "\u200e", "\u200f", "\u061c"]
INVISIBLE = ["\u200b", "\u2060", "\ufeff", "\u00ad", "\U000e0041", "\u2028", "\u2029", "\u0000", "\u001b"]
KEPT = ["plain text", "two\nlines\tand a tab", "\U0001f468\u200d\U0001f469\u200d\U0001f467 family", "می\u200cخواهم",
        "שלום and مرحبا"]


@pytest.mark.parametrize("character", BIDI + INVISIBLE, ids=[f"U+{ord(c):04X}" for c in BIDI + INVISIBLE])
def test_hidden_characters_are_refused_naming_them(character: str) -> None:
    assert hidden_character(f"a{character}b") == character
    with pytest.raises(Invalid) as refused:
        check_text(f"gg {character}evil")
    assert refused.value.code == "bad-text" and f"(U+{ord(character):04X})" in refused.value.message


async def test_the_api_and_the_page_refuse_a_bidi_control_and_keep_any_script(client: httpx.AsyncClient) -> None:
    who = await person(client)
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    table_id = (await client.post("/api/tables", json=body, headers=who.headers)).json()["id"]
    chat = f"/api/tables/{table_id}/chat"
    for character in BIDI:
        answer = await client.post(chat, json={"text": f"I resign{character} (not)"}, headers=who.headers)
        assert answer.status_code == 422, answer.text
        assert answer.json()["detail"]["code"] == "bad-text"
    for text in KEPT:  # plain text in any script, emoji sequences with their joiners
        assert hidden_character(text) is None and check_text(text) == text
        kept = await client.post(chat, json={"text": text}, headers=who.headers)
        assert kept.status_code == 201, kept.text
    signed_in = await client.post("/api/session", json={"name": who.name, "password": PASSWORD})
    assert signed_in.status_code == 200
    page = (await client.get(f"/tables/{table_id}")).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token
    form = {"csrf_token": token.group(1), "text": "gg\u202eevil"}
    refused = await client.post(f"/tables/{table_id}/chat", data=form)
    assert refused.status_code == 422 and "Plain text only, please." in refused.text
    assert [m["text"] for m in (await client.get(chat, headers=who.headers)).json()] == KEPT
