"""A local SMTP sink (aiosmtpd) for the e-mail tests of both trees (``import mail_sink``: ``tests`` is on the
path of every test module): the server tests' ``sink`` fixture (``server/conftest.py``, the app with SMTP
settings: ``server/clocked.mailing_server``) and the browser tests' mail site (``web/test_account_safety.py``)
run it with :func:`smtp_sink`; :func:`body_of` reads a mail's text."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller


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


@contextmanager
def smtp_sink() -> Iterator[tuple[Sink, int]]:
    """A :class:`Sink` listening on a free port of 127.0.0.1, and that port, until the block ends."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    handler = Sink()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()
