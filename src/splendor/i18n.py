"""The message layer: every sentence a person reads, in English, French, Dutch, German,
Spanish, Italian, Portuguese or Polish.

Messages are written in English in the source, as ``t.gettext("slot {slot} is empty",
slot="2.3")`` with a :class:`Messages` for the reader's language, and translated by gettext
catalogues: ``locale/<lang>/LC_MESSAGES/<domain>.po`` beside this module (one per language
of :data:`LANGUAGES` but English, which needs none). The catalogues are plain ``.po``
files, read with Babel when a language is first asked for; ``make messages`` extracts the
messages of the source into ``locale/<domain>.pot`` and merges them into each catalogue
(``pybabel extract`` and ``pybabel update``).

There is one catalogue per part of the project (:data:`DOMAINS`): ``splendor``, the rules'
own sentences (explanations of illegal moves, effects of moves; the layers below the user
interfaces); ``tui``, the terminal; ``server``, the web server's refusals; ``web``, the
browser client (its JavaScript calls ``t("...")`` and ``tn("...", "...", n)``, and gets the
catalogue as JSON from :func:`catalogue_json`).

The terms are the rulebooks' own (``../shared/seeds``): jetons, cartes Développement,
nobles, réserver; edelsteenfiches, ontwikkelingskaarten, edellieden, reserveren. The
catalogues of the other languages name, in their header comments, the published edition
each of their game terms comes from.

Placeholders are ``str.format`` fields (``{slot}``); a translation keeps the same fields.
Plurals go through :meth:`Messages.ngettext` with each catalogue's ``Plural-Forms``
(:data:`PLURAL_RULES`: French and Portuguese count 0 and 1 as singular, Polish has three
forms, the others count only 1 as singular).

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
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "fr", "nl", "de", "es", "it", "pt", "pl")
"""The languages of the catalogues, English (the source's) first. Portuguese is Brazil's
(the Portuguese edition of the games is Galápagos's, in Brazil)."""

PLURAL_RULES = {"fr": "fr", "pt": "fr", "pl": "pl"}
"""The plural rule of each language whose rule is not English's (only 1 is singular:
English, Dutch, German, Spanish, Italian): ``"fr"``, 0 and 1 are singular (French,
Brazilian Portuguese); ``"pl"``, three forms (1; 2-4 but not 12-14; the rest). The
catalogues' ``Plural-Forms`` headers say the same for gettext."""

DEFAULT_LANGUAGE = "en"

DOMAIN = "splendor"
"""The default gettext domain, the rules': ``locale/<lang>/LC_MESSAGES/splendor.po``."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"


@dataclass(frozen=True)
class Domain:
    """One catalogue and the source files its messages are extracted from.

    Attributes:
        name: the gettext domain (``locale/<lang>/LC_MESSAGES/<name>.po``).
        directory: the folder of the source, relative to the package (``"."``: the package).
        method: Babel's extraction method, ``"python"`` or ``"javascript"``.
        keywords: the functions whose string arguments are messages, beside Babel's
            defaults (``gettext``, ``ngettext``, ``_``, ``N_``...), in ``pybabel -k`` form.
        skip: sub-folders of ``directory`` that belong to other domains.
    """

    name: str
    directory: str
    method: str
    keywords: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()


DOMAINS: tuple[Domain, ...] = (
    Domain("splendor", ".", "python", skip=("tui", "server", "web")),
    Domain("tui", "tui", "python"),
    Domain("server", "server", "python"),
    Domain("web", "web", "javascript", keywords=("t", "tn:1,2")),
)
"""The catalogues, by the part of the project that speaks them (``make messages`` and
``tests/test_i18n.py`` read this list)."""

_DOMAIN_NAMES = frozenset(d.name for d in DOMAINS)


@dataclass(frozen=True)
class Messages:
    """The messages of one language.

    Attributes:
        language: one of :data:`LANGUAGES`.
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


def _check(language: str, domain: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(
            f"unknown language {str(language)[:20]!r}: the languages are {', '.join(LANGUAGES)}"
        )
    if domain not in _DOMAIN_NAMES:
        raise ValueError(
            f"unknown message domain {str(domain)[:20]!r}: the domains are "
            + ", ".join(sorted(_DOMAIN_NAMES))
        )


def _read_catalogue(language: str, domain: str) -> Any:
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as f:
        return read_po(f, locale=language, domain=domain)


@functools.cache
def messages(language: str = DEFAULT_LANGUAGE, domain: str = DOMAIN) -> Messages:
    """The messages of ``language`` in the catalogue ``domain`` (one of :data:`DOMAINS`;
    read once per process; the result is immutable).

    Raises:
        ValueError: not one of :data:`LANGUAGES`, or an unknown domain.
        FileNotFoundError: the catalogue of a supported language is missing (a broken
            installation).
    """
    _check(language, domain)
    if language == DEFAULT_LANGUAGE:
        return Messages(language, gettext_module.NullTranslations())
    from babel.messages.mofile import write_mo

    catalog = _read_catalogue(language, domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Messages(language, gettext_module.GNUTranslations(buffer))


@functools.cache
def catalogue_json(language: str, domain: str = "web") -> str:
    """The catalogue ``domain`` of ``language`` for a browser, as JSON text (made once per
    process): ``{"language": "fr", "plural": "fr", "messages": {msgid: text, singular:
    [forms]}}``.

    ``messages`` maps each English message to its translation; a plural message is keyed by
    its English singular and maps to its forms (``[singular, plural]``; Polish: three forms).
    ``plural`` names the plural rule (:data:`PLURAL_RULES`): ``"fr"`` (0 and 1 are
    singular), ``"pl"`` (Polish's three forms) or ``"en"`` (only 1 is singular).
    English has no messages (the source's are shown as they are). Untranslated messages are
    left out (the English shows).

    Raises:
        ValueError: not one of :data:`LANGUAGES`, or an unknown domain.
    """
    _check(language, domain)
    plural = PLURAL_RULES.get(language, "en")
    out: dict[str, Any] = {"language": language, "plural": plural, "messages": {}}
    if language != DEFAULT_LANGUAGE:
        for m in _read_catalogue(language, domain):
            if not m.id or m.fuzzy:
                continue
            if isinstance(m.id, str):
                if m.string:
                    out["messages"][m.id] = m.string
            elif all(m.string):
                out["messages"][m.id[0]] = list(m.string)
    return json.dumps(out, ensure_ascii=False, sort_keys=True)


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
    "DOMAINS",
    "LANGUAGES",
    "LOCALE_DIR",
    "PLURAL_RULES",
    "Domain",
    "Messages",
    "catalogue_json",
    "messages",
    "negotiate",
]
