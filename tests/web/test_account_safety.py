"""The browser suite, account safety (issue 28): confirming an e-mail address from the mailed link, and a
forgotten password reset from the sign-in page through the mailed link, against a real server whose mail
goes to a local SMTP sink (aiosmtpd); downloading one's data and deleting one's account from the account
page; the pages in German and Dutch."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mail_sink import Sink, body_of, smtp_sink

from .harness import Server, new_person, sign_up

LINK = re.compile(r"(/(?:password/reset|account/verify)\?link=\S+)")
NEW_PASSWORD = "a brand new secret 31"


@pytest.fixture(scope="module")
def mail_site(server: Server) -> Iterator[tuple[Server, Sink]]:
    """A server of its own whose mail goes to the sink (``server``: only to check for the browser first).
    No public_url: the links in the mails are paths on the site."""
    with smtp_sink() as (sink, port):
        site = Server(env={"SPIELTAFEL_SMTP_HOST": "127.0.0.1", "SPIELTAFEL_SMTP_PORT": str(port),
                           "SPIELTAFEL_SMTP_SECURITY": "none"})
        try:
            yield site, sink
        finally:
            site.stop()


def mailed_path(sink: Sink, count: int) -> str:
    deadline = time.monotonic() + 20
    while len(sink.messages) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(sink.messages) == count, [m["Subject"] for m in sink.messages]
    found = LINK.search(body_of(sink.messages[-1]))
    assert found, body_of(sink.messages[-1])
    return found.group(1)


def test_confirm_the_address_then_reset_a_forgotten_password(mail_site: tuple[Server, Sink], browser: Any) -> None:
    site, sink = mail_site
    rita = new_person(browser)
    sign_up(rita, site.url, "rita")
    rita.goto(f"{site.url}/account")
    rita.fill("#email", "rita@example.org")
    rita.click("form[action='/account/email'] button[type=submit]")
    rita.wait_for_selector("#email-unverified")
    rita.goto(site.url + mailed_path(sink, 1))
    rita.click("form[action='/account/verify'] button[type=submit]")
    assert "rita@example.org" in rita.locator("#verified").inner_text()
    rita.goto(f"{site.url}/account")
    rita.wait_for_selector("#email-verified")

    stranger = new_person(browser)  # rita on another computer, signed out, the password forgotten
    stranger.goto(f"{site.url}/signin")
    stranger.click("#forgot")
    stranger.fill("#who", "rita")
    stranger.click("form[action='/password/forgot'] button[type=submit]")
    stranger.wait_for_selector("#reset-asked")
    stranger.goto(site.url + mailed_path(sink, 2))
    stranger.fill("#new", NEW_PASSWORD)
    stranger.fill("#new2", "not the same one 31")
    stranger.click("form[action='/password/reset'] button[type=submit]")
    assert stranger.locator("#form-error").is_visible()  # the two differ: nothing changed, the link still works
    stranger.fill("#new", NEW_PASSWORD)
    stranger.fill("#new2", NEW_PASSWORD)
    stranger.click("form[action='/password/reset'] button[type=submit]")
    stranger.wait_for_url(re.compile(r".*/signin\?reset=1$"))
    stranger.wait_for_selector("#reset-done")
    stranger.fill("#name", "rita")
    stranger.fill("#password", NEW_PASSWORD)
    stranger.click("form[action='/signin'] button[type=submit]")
    stranger.wait_for_url(f"{site.url}/")
    assert stranger.locator(".account-name").inner_text() == "rita"

    rita.goto(f"{site.url}/account")  # the first computer's session ended with the reset
    assert rita.locator(".account-name").count() == 0
    stranger.goto(site.url + LINK.search(body_of(sink.messages[-1])).group(1))  # type: ignore[union-attr]
    assert stranger.locator("h1").inner_text() == "This link does not work"  # used once
    assert not rita.csp_errors and not stranger.csp_errors, rita.csp_errors + stranger.csp_errors
    rita.context.close()
    stranger.context.close()


@pytest.mark.parametrize(("lang", "forgot", "heading"), [
    ("de", "Passwort vergessen?", "Passwort vergessen?"),
    ("nl", "Wachtwoord vergeten?", "Wachtwoord vergeten?"),
])
def test_the_reset_pages_speak_german_and_dutch(
    mail_site: tuple[Server, Sink], browser: Any, lang: str, forgot: str, heading: str
) -> None:
    site, _sink = mail_site
    page = new_person(browser, lang)
    page.goto(f"{site.url}/signin")
    assert page.locator("#forgot").inner_text() == forgot
    page.click("#forgot")
    assert page.locator("h1").inner_text() == heading
    page.fill("#who", "nobody-here")
    page.click("form[action='/password/forgot'] button[type=submit]")
    text = page.locator("#reset-asked").inner_text()
    assert text and "If this name" not in text
    page.goto(f"{site.url}/account/verify?link=x.y")
    page.click("form[action='/account/verify'] button[type=submit]")
    assert "This link does not work" not in page.locator("#form-error").inner_text()
    page.context.close()


def test_download_my_data_then_delete_my_account(server: Server, browser: Any) -> None:
    vera = new_person(browser)
    sign_up(vera, server.url, "vera")
    vera.goto(f"{server.url}/account")
    with vera.expect_download() as download:
        vera.click("#export")
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert data["format"] == "spieltafel-account-export" and data["account"]["name"] == "vera"
    assert download.value.suggested_filename == "spieltafel-vera.json"
    vera.fill("#delete-password", "not the password")
    vera.check("#delete-confirm")
    vera.click("form[action='/account/delete'] button[type=submit]")
    assert vera.locator("#delete-error").is_visible()  # nothing deleted
    vera.fill("#delete-password", "correct-horse-7")
    vera.check("#delete-confirm")
    vera.click("form[action='/account/delete'] button[type=submit]")
    assert vera.locator("h1").inner_text() == "Your account was deleted"
    assert vera.locator(".account-name").count() == 0
    vera.goto(f"{server.url}/signin")
    vera.fill("#name", "vera")
    vera.fill("#password", "correct-horse-7")
    vera.click("form[action='/signin'] button[type=submit]")
    assert vera.locator("#form-error").is_visible()
    assert not vera.csp_errors, vera.csp_errors
    vera.context.close()


@pytest.mark.parametrize(("lang", "words"), [("de", ("Deine Daten", "Mein Konto löschen")),
                                             ("nl", ("Je gegevens", "Mijn account verwijderen"))])
def test_the_data_box_speaks_german_and_dutch(server: Server, browser: Any, lang: str, words: tuple[str, str]) -> None:
    page = new_person(browser, lang)
    sign_up(page, server.url, f"wim{lang}")
    page.goto(f"{server.url}/account")
    box = page.locator("#data-box").inner_text()
    assert all(word in box for word in words), box
    page.context.close()
