"""What a decision did besides what its notation says, for logs, tables and records.

A decision's notation says what the player chose (``buy 2.3``, ``take c1 c2 c3``); the rules
then do more on their own, and a player must be able to see it:

- a noble visits (classic C12: when exactly one qualifies, nobody chooses);
- a privilege changes hands (Duel D6, D7, D16, D18: taking 3 of a colour or 2 pearls,
  replenishing the board, a card's or a royal card's privilege ability);
- a Duel ability with a single possible choice is resolved by the engine (D14 joker, D15
  token, D17 steal, D19 royal card) and so never appears as a decision;
- an extra turn begins (D13).

Each game finds them by comparing the public view before and after the decision
(:func:`splendor.classic.effects.effects_of`, :func:`splendor.duel.effects.effects_of`);
this module holds what both games share: the :class:`Effect` record, its JSON form and its
sentence in each language (:func:`describe`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .i18n import LANGUAGES, messages
from .move_words import colour_word

_LETTER_KEYS = {"W": "white", "U": "blue", "G": "green", "R": "red", "K": "black"}
_LETTER_KEYS.update({"P": "pearl", "*": "gold"})

KINDS = ("noble", "privilege", "token", "steal", "joker", "royal", "again")
"""The kinds of :class:`Effect`, in the order a turn resolves them."""


@dataclass(frozen=True)
class Effect:
    """One thing the rules did during a decision.

    Attributes:
        kind: one of :data:`KINDS`.
        seat: the seat it happened to (who gains the noble, privilege, token...).
        source: the seat something was taken from (``steal``; ``privilege`` taken from the
            opponent, D18), else -1 (the supply, the board, the table).
        color: the token colour, as an index of the game's token letters (classic
            ``W U G R K *``, Duel ``W U G R K P *``): the token taken or stolen, the colour a
            joker joined; else -1.
        cell: the Duel board cell a token came from (``"c3"``), else ``""``.
        item: the noble's or royal card's id (index into the game's tables), else -1.
        count: how many (privileges gained at once), 1 otherwise.
    """

    kind: str
    seat: int
    source: int = -1
    color: int = -1
    cell: str = ""
    item: int = -1
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, every field included: ``{"kind": "steal", "seat": 0, ...}``."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Effect:
        """Read :meth:`to_dict`'s form back.

        Raises:
            ValueError: not an object with exactly the fields of an effect, of their types.
        """
        if not isinstance(data, dict):
            raise ValueError(f"an effect must be an object, got {type(data).__name__}")
        fields = cls.__dataclass_fields__
        if set(data) != set(fields):
            raise ValueError(f"an effect has the fields {', '.join(fields)}; got {sorted(data)}")
        for name in fields:
            want = str if name in ("kind", "cell") else int
            value = data[name]
            if type(value) is not want:
                raise ValueError(f"effect field {name!r} must be {want.__name__}, got {value!r}")
        if data["kind"] not in KINDS:
            raise ValueError(f"effect kind must be one of {', '.join(KINDS)}, got {data['kind']!r}")
        return cls(**data)


def describe(effect: Effect, names: Sequence[str], letters: str, language: str = "en") -> str:
    """The sentence for ``effect`` in ``language`` (players called by ``names``, by seat;
    token colours given by ``letters``, the game's token letters, and written as the
    language's colour words, never the letters).

    Raises:
        ValueError: an unknown language.
        IndexError: a seat without a name.
    """
    t = messages(language)
    name = names[effect.seat]
    other = names[effect.source] if effect.source >= 0 else ""
    token = colour_word(t, _LETTER_KEYS[letters[effect.color]]) if effect.color >= 0 else ""
    if effect.kind == "noble":
        return t.gettext("a noble visits {name} (3 points)", name=name)
    if effect.kind == "privilege":
        if effect.source >= 0:
            return t.ngettext(
                "{name} takes a privilege from {other}",
                "{name} takes {n} privileges from {other}",
                effect.count,
                name=name,
                other=other,
                n=effect.count,
            )
        return t.ngettext(
            "{name} takes a privilege",
            "{name} takes {n} privileges",
            effect.count,
            name=name,
            n=effect.count,
        )
    if effect.kind == "token":
        return t.gettext(
            "{name} takes the {token} token on {cell} (card ability)",
            name=name,
            token=token,
            cell=effect.cell,
        )
    if effect.kind == "steal":
        return t.gettext(
            "{name} steals one {token} token from {other}", name=name, token=token, other=other
        )
    if effect.kind == "joker":
        return t.gettext("{name}'s joker card takes the colour {token}", name=name, token=token)
    if effect.kind == "royal":
        return t.gettext("{name} takes a royal card", name=name)
    if effect.kind == "again":
        return t.gettext("{name} plays again", name=name)
    raise ValueError(f"effect kind must be one of {', '.join(KINDS)}, got {effect.kind!r}")


def described(effects: Sequence[Effect], num_players: int, letters: str) -> list[dict[str, Any]]:
    """``effects`` in JSON form, each with its sentence in every language under ``"text"``
    (``{"en": ..., "fr": ..., "nl": ...}``): what a log entry sent to browsers carries.
    The players are left as ``{seat0}``, ``{seat1}``... for the reader to fill with the
    names it shows (a bot's name in the reader's language, say)."""
    names = [f"{{seat{k}}}" for k in range(num_players)]
    return [
        {**e.to_dict(), "text": {lang: describe(e, names, letters, lang) for lang in LANGUAGES}}
        for e in effects
    ]


__all__ = ["KINDS", "Effect", "describe", "described"]
