"""The words of the e-mails, in the person's language (the ``web`` gettext domain)."""

from __future__ import annotations

from spieltafel.core import get_game
from spieltafel.server.web import i18n


def waiting_mail(language: str | None, name: str, game: str, table_id: int, public_url: str | None) -> tuple[str, str]:
    """(subject, body) of the mail that tells ``name`` that table ``table_id`` waits for their move."""
    gettext = i18n.gettext_for(i18n.normalise(language) or i18n.DEFAULT_LANGUAGE)
    try:
        title = get_game(game).title
    except Exception:
        title = game
    values = {"name": name, "game": title, "table": table_id}
    subject = gettext("Your turn in %(game)s (table %(table)d)") % values
    lines = [gettext("Hello %(name)s,") % values, "",
             gettext("%(game)s at table %(table)d waits for your move.") % values]
    if public_url:
        lines += ["", f"{public_url.rstrip('/')}/tables/{table_id}"]
    lines += ["", gettext("You get this e-mail once each time a turn-based game waits for you. "
                          "To stop it, remove your address on your account page.")]
    return subject, "\n".join(lines) + "\n"


def reset_mail(language: str | None, name: str, url: str) -> tuple[str, str]:
    """(subject, body) of the mail with a password reset link (``recovery``)."""
    gettext = i18n.gettext_for(i18n.normalise(language) or i18n.DEFAULT_LANGUAGE)
    subject = gettext("Reset your Spieltafel password")
    lines = [gettext("Hello %(name)s,") % {"name": name}, "",
             gettext("Somebody (we hope you) asked to reset the password of your account. To choose a new "
                     "one, open this link within an hour; it works once:"), "", url, "",
             gettext("If it was not you, ignore this e-mail: your password stays as it is.")]
    return subject, "\n".join(lines) + "\n"


def verify_mail(language: str | None, name: str, address: str, url: str) -> tuple[str, str]:
    """(subject, body) of the mail that asks to confirm an address (``recovery``)."""
    gettext = i18n.gettext_for(i18n.normalise(language) or i18n.DEFAULT_LANGUAGE)
    subject = gettext("Confirm your e-mail address for Spieltafel")
    lines = [gettext("Hello %(name)s,") % {"name": name}, "",
             gettext("To receive e-mails from Spieltafel at %(address)s (when a game waits for you, or to "
                     "reset your password), open this link within a week:") % {"address": address}, "", url, "",
             gettext("If you did not give this address, ignore this e-mail: nothing will be sent to it.")]
    return subject, "\n".join(lines) + "\n"
