"""Words the terminal shares between both games, in the reader's language.

Every sentence the terminal prints comes from the catalogue ``tui`` of
:mod:`splendor.i18n` (``messages(language, "tui")``); the language is passed down from
``splendor play --lang`` (or the terminal's locale, :func:`terminal_language`) as a
parameter, never held in a global. The notation (``take W U G``, ``buy 2.3``, cells ``c3``)
is the engines' and is never translated.

    t = tui_messages("fr")
    phase_name("return tokens", t)        # 'rendre des jetons'
    join_names(["ann", "bob", "cy"], t)   # 'ann, bob et cy'
"""

from __future__ import annotations

import os
import string
from collections.abc import Mapping, Sequence

from rich.text import Text

from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, Messages, messages, negotiate

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables that name the terminal's language, strongest first (POSIX:
the first one set decides)."""


def tui_messages(language: str = DEFAULT_LANGUAGE) -> Messages:
    """The terminal's messages (catalogue ``tui``) in ``language``.

    Raises:
        ValueError: ``language`` is not one of :data:`splendor.i18n.LANGUAGES`.
    """
    return messages(language, "tui")


def terminal_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the terminal's locale: the first of ``LC_ALL``, ``LC_MESSAGES``
    and ``LANG`` that is set and not empty (POSIX order), negotiated with
    :func:`splendor.i18n.negotiate` (``fr_FR.UTF-8`` -> ``fr``); English when none is set
    or the one set is not French, English or Dutch (``C``, ``de_DE``)."""
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name)
        if value:
            return negotiate(value)
    return DEFAULT_LANGUAGE


def check_language(value: str, t: Messages | None = None) -> str:
    """``value`` as a language of the terminal (one of :data:`splendor.i18n.LANGUAGES`: en,
    fr, nl, de, es, it, pt, pl; case and spaces do not matter).

    Raises:
        ValueError: another value; the message (in ``t``'s language, default English)
            lists the languages.
    """
    language = str(value).strip().lower()
    if language in LANGUAGES:
        return language
    t = t or tui_messages()
    raise ValueError(
        t.gettext(
            "--lang must be one of {languages}, got {value}",
            languages=", ".join(LANGUAGES),
            value=repr(str(value)[:20]),
        )
    )


def rich_format(message: str, style: str = "", /, **fields: object) -> Text:
    """A translated ``message`` (its ``{fields}`` not filled yet: ``t.gettext(message)``
    with no values) as rich text in ``style``, each field filled with its value: a
    :class:`Text` keeps its own colours (a card, a token chip), anything else is formatted
    as ``str.format`` would. So a sentence stays one message even when a coloured piece
    sits in its middle.

    Raises:
        KeyError: a field of the message has no value.
    """
    out = Text(style=style)
    for literal, name, spec, conversion in string.Formatter().parse(message):
        out.append(literal)
        if name is None:
            continue
        value = fields[name]
        if isinstance(value, Text):
            out.append_text(value)
        else:
            field = "{0" + (f"!{conversion}" if conversion else "") + f":{spec or ''}}}"
            out.append(field.format(value))
    return out


def you(t: Messages) -> str:
    """The default label of a person's seat: ``you``, ``vous``, ``jij``."""
    return t.gettext("you")


def is_you(label: str, t: Messages) -> bool:
    """Whether a seat label is the default person's label (in English or in ``t``'s
    language), so that it reads "you take", not "you takes"."""
    return label.strip().lower() in {"you", you(t).lower()}


def seat_label(names: Sequence[str] | None, seat: int, t: Messages) -> str:
    """``names[seat]``, or ``seat N`` when no names are known."""
    if names and 0 <= seat < len(names):
        return names[seat]
    return t.gettext("seat {seat}", seat=seat)


def join_names(names: Sequence[str], t: Messages) -> str:
    """``a``, ``a and b``, ``a, b and c`` (``et``, ``en``)."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return t.gettext("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def points_short(n: int, t: Messages) -> str:
    """Prestige points on a card or tile, short: ``3pt``."""
    return t.gettext("{n}pt", n=n)


def phase_name(phase: str, t: Messages) -> str:
    """The name of a decision phase of either game (``payment``, ``return tokens``,
    ``choose noble``; Duel: ``reserve``, ``joker``, ``token``, ``steal``, ``royal``); an
    unknown one is shown as it is."""
    names = {
        "main": t.gettext("main action"),
        "payment": t.gettext("payment"),
        "return tokens": t.gettext("return tokens"),
        "choose noble": t.gettext("choose a noble"),
        "reserve": t.gettext("reserve a card"),
        "joker": t.gettext("attach the joker"),
        "token": t.gettext("take a token"),
        "steal": t.gettext("steal a token"),
        "royal": t.gettext("take a royal card"),
        "game over": t.gettext("game over"),
    }
    return names.get(phase, phase)


def end_reason_name(reason: str | None, t: Messages) -> str:
    """How a game ended, in a word or two: ``points`` (C14, D21), ``stall`` (C17),
    ``crowns``, ``colour`` (D21), ``turn cap`` (D25), ``forfeit``."""
    names = {
        "points": t.gettext("points"),
        "stall": t.gettext("stall"),
        "crowns": t.gettext("crowns"),
        "colour": t.gettext("colour"),
        "turn cap": t.gettext("turn cap"),
        "forfeit": t.gettext("forfeit"),
    }
    return names.get(reason or "", str(reason))


def turns_text(n: int, t: Messages) -> str:
    """``1 turn``, ``46 turns``."""
    return t.ngettext("{n} turn", "{n} turns", n, n=n)


def scores_line(names: Sequence[str], scores: Sequence[int], t: Messages) -> str:
    """``scores: a 15, b 9``."""
    listed = ", ".join(f"{names[p]} {s}" for p, s in enumerate(scores))
    return t.gettext("scores: {scores}", scores=listed)


def winner_line(
    names: Sequence[str], winners: Sequence[int], reason: str | None, turns: int, t: Messages
) -> str:
    """``winner: a (points, 46 turns)`` (in English, the words of ``splendor replay``);
    ``winners: a and b (...)`` for a tie (C15); ``no winner (turn cap, 400 turns)`` when
    nobody won (D25)."""
    how = end_reason_name(reason, t)
    if not winners:
        return t.gettext("no winner ({reason}, {turns})", reason=how, turns=turns_text(turns, t))
    return t.ngettext(
        "winner: {names} ({reason}, {turns})",
        "winners: {names} ({reason}, {turns})",
        len(winners),
        names=join_names([names[w] for w in winners], t),
        reason=how,
        turns=turns_text(turns, t),
    )


__all__ = [
    "LOCALE_VARIABLES",
    "check_language",
    "end_reason_name",
    "is_you",
    "join_names",
    "phase_name",
    "points_short",
    "rich_format",
    "scores_line",
    "seat_label",
    "terminal_language",
    "tui_messages",
    "turns_text",
    "winner_line",
    "you",
]
