"""The message layer: every sentence a person reads, in English, French or Dutch.

Messages are written in English in the source, as ``t.gettext("slot {slot} is empty",
slot="2.3")`` with a :class:`Messages` for the reader's language, and translated by gettext
catalogues: ``locale/<lang>/LC_MESSAGES/splendor.po`` beside this module (French and Dutch;
English needs none). The catalogues are plain ``.po`` files, read with Babel when a
language is first asked for; ``make messages`` extracts the messages of the source into
``locale/splendor.pot`` and merges them into each catalogue (``pybabel extract`` and
``pybabel update``). The terms are the rulebooks' own (``../shared/seeds``): jetons, cartes
Développement, nobles, réserver; edelsteenfiches, ontwikkelingskaarten, edelen,
reserveren.

Placeholders are ``str.format`` fields (``{slot}``); a translation keeps the same fields.
Plurals go through :meth:`Messages.ngettext` (French counts 0 and 1 as singular, English and
Dutch only 1).

Example::

    from splendor.i18n import messages

    t = messages("fr")
    t.gettext("the game is over")                     # 'la partie est terminée'
    t.ngettext("{n} point", "{n} points", 1, n=1)      # '1 point'
"""

from __future__ import annotations

import functools
import gettext as gettext_module
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "fr", "nl")
"""The languages of the catalogues, English (the source's) first."""

DEFAULT_LANGUAGE = "en"

DOMAIN = "splendor"
"""The gettext domain: ``locale/<lang>/LC_MESSAGES/splendor.po``."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"


@dataclass(frozen=True)
class Messages:
    """The messages of one language.

    Attributes:
        language: ``"en"``, ``"fr"`` or ``"nl"``.
        translations: the gettext catalogue (``NullTranslations`` for English).
    """

    language: str
    translations: gettext_module.NullTranslations

    def gettext(self, message: str, **values: Any) -> str:
        """``message`` in this language, its ``{fields}`` filled from ``values``.

        Raises:
            KeyError: a field of the message has no value.
        """
        text = self.translations.gettext(message)
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, count: int, /, **values: Any) -> str:
        """The form of ``singular``/``plural`` for ``count`` in this language, its
        ``{fields}`` filled from ``values`` (the count is not filled in by itself: pass it,
        as ``n=count`` say)."""
        text = self.translations.ngettext(singular, plural, count)
        return text.format(**values) if values else text


@functools.cache
def messages(language: str = DEFAULT_LANGUAGE) -> Messages:
    """The messages of ``language`` (read once per process; the result is immutable).

    Raises:
        ValueError: not one of :data:`LANGUAGES`.
        FileNotFoundError: the catalogue of a supported language is missing (a broken
            installation).
    """
    if language not in LANGUAGES:
        raise ValueError(
            f"unknown language {str(language)[:20]!r}: the languages are {', '.join(LANGUAGES)}"
        )
    if language == DEFAULT_LANGUAGE:
        return Messages(language, gettext_module.NullTranslations())
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Messages(language, gettext_module.GNUTranslations(buffer))


def negotiate(preferences: str | None) -> str:
    """The supported language a reader prefers: ``preferences`` is an HTTP
    ``Accept-Language`` value (``"nl-BE,nl;q=0.9,en;q=0.5"``) or a POSIX locale
    (``LANG``: ``"fr_FR.UTF-8"``); the first supported one by weight, else English.
    Malformed parts are skipped."""
    if not preferences:
        return DEFAULT_LANGUAGE
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate(str(preferences)[:1000].split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:])
            except ValueError:
                continue
        language = tag.strip().split(".")[0].replace("_", "-").split("-")[0].lower()
        if language in LANGUAGES and weight > 0:
            weighted.append((-weight, i, language))
    return min(weighted)[2] if weighted else DEFAULT_LANGUAGE


__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "Messages",
    "messages",
    "negotiate",
]
