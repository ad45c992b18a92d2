"""A local SMTP sink (aiosmtpd) for the e-mail tests (the ``sink`` fixture is in conftest.py) and a mail's text
(the app with SMTP settings: ``clocked.mailing_server``)."""

from __future__ import annotations

from email import message_from_bytes
from email.message import Message
from typing import Any


class Sink:
    """An SMTP server that keeps every message it receives."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


def body_of(mail: Message) -> str:
    """The text of a mail, decoded (long lines come quoted-printable)."""
    payload = mail.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()
