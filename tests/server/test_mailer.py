"""The mailer (:mod:`splendor.server.mailer`) against a real local SMTP server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from splendor.server.mailer import Mail, Mailer, clean_address, parse_smtp_url


def test_a_message_reaches_the_smtp_server_in_utf8(smtp_server: tuple[str, Any]) -> None:
    url, inbox = smtp_server
    mailer = Mailer(url, sender="Splendor <noreply@example.org>")
    asyncio.run(mailer.send(Mail("ann@example.org", "À toi de jouer", "Lien : http://x/g/1")))
    assert mailer.sent == 1
    (message,) = inbox.messages
    assert message["To"] == "ann@example.org"
    assert message["Subject"] == "À toi de jouer"
    assert "Lien : http://x/g/1" in message.get_content()


@pytest.mark.parametrize(
    "bad",
    [
        "ann@example.org\r\nBcc: eve@example.org",
        "ann",
        "a@b",
        "a b@example.org",
        7,
        "x" * 250 + "@e.org",
    ],
)
def test_header_injection_and_malformed_addresses_are_refused(bad: Any) -> None:
    with pytest.raises(ValueError):
        clean_address(bad)
    with pytest.raises(ValueError):
        Mailer(None).build(Mail(bad if isinstance(bad, str) else "x", "s", "t"))


def test_a_subject_with_a_line_break_cannot_add_a_header(smtp_server: tuple[str, Any]) -> None:
    url, inbox = smtp_server
    asyncio.run(Mailer(url).send(Mail("ann@example.org", "hi\r\nBcc: eve@example.org", "t")))
    (message,) = inbox.messages
    assert message["Bcc"] is None
    assert "Bcc" in message["Subject"]


def test_smtp_urls() -> None:
    s = parse_smtp_url("smtp+starttls://me%40x:p%2Fw@mail.example.org")
    assert (s.hostname, s.port, s.username, s.password, s.start_tls, s.use_tls) == (
        "mail.example.org",
        587,
        "me@x",
        "p/w",
        True,
        False,
    )
    assert parse_smtp_url("smtps://h").port == 465
    with pytest.raises(ValueError, match="SMTP URL"):
        parse_smtp_url("http://h")
