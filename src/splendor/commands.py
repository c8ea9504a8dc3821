"""Moves typed in the player's language: ``prendre B U V``, ``neem c3``, ``acheter 2.3``.

The notation (``take W U G``, ``buy 2.3 choose``, ``take c3 c4 c5``) is English and is what
the engines, records and bots read. A person may also type a move with the verbs, gem
letters and colour names of their language; :func:`to_notation` turns that into the
notation (checking its shape only: whether the move is legal is the engine's business) and
:func:`to_command` writes a notation with the language's words. The English notation is
read first and always works, in every language.

    to_notation("splendor", "prendre blanc bleu vert", "fr")   # 'take W U G'
    to_notation("splendor", "prendre B U V", "fr")             # 'take W U G'
    to_notation("duel", "neem c3", "nl")                       # 'take c3'
    to_command("splendor", "buy 2.3 choose", "fr")             # 'acheter 2.3 choisir'
    command_words("duel", "nl")                                # the words, for help texts

**For translators** (catalogue ``splendor``, messages defined in this module). Each of
these messages is translated as a *list of words separated by spaces*, not as a sentence:

- a verb of the notation (``take``, ``reserve``, ``buy``, ``choose``, ``pay``, ``return``,
  ``noble``, ``pass``; Duel's ``privilege``, ``replenish``, ``joker attach``, ``token``,
  ``steal``, ``royal``; the English message is the verb, then any English alias): the
  words a player may type for it, the one shown in help texts first, e.g. ``take`` ->
  French ``prendre prends``, Dutch ``neem nemen``. Conjugated forms may follow. Use words
  without spaces; two verbs of the language must not share a word. These messages are
  word lists only: no other module of the catalogue may use them as display words (a test
  checks it), so a translator may add words freely.
- a token colour (``W white``, ``U blue``, ``G green``, ``R red``, ``K black``,
  ``P pearl``, ``* gold``): **first the one-character letter** shown to people for that
  colour in the language, then the colour's names, e.g. ``W white`` -> French
  ``B blanc blancs``, ``U blue`` -> ``U bleu bleus``, ``G green`` -> ``V vert verts``.
  The seven letters must differ within the language and must not be an English letter of
  another colour (``W U G R K P *``: the English notation is read first, so a French ``G``
  for gold would be read as green). Letters are compared without case; names also without
  accents, and any unambiguous beginning of a name is accepted (``ro`` for ``rouge``).
  The names of gold are also the verb ``gold`` (spend a gold while paying; Duel: take the
  gold on a cell), e.g. French ``or W``, Dutch ``goud c3``.

:func:`problems` lists what is wrong with a language's words (tests run it on every
language of :data:`splendor.i18n.LANGUAGES`: English, French, Dutch, German, Spanish,
Italian, Portuguese, Polish). A language whose words are not (yet) translated falls back
to English words, and a language whose letters clash falls back to the English letters.

Arguments that are notation already stay as they are: slots ``2.3``, decks ``d2``, reserved
cards ``r1``, cells ``c3``, noble and royal numbers.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .colors import DUEL_TOKEN_LETTERS, DUEL_TOKEN_NAMES
from .descriptor import Game
from .errors import ParseError
from .game import get_game
from .i18n import DEFAULT_LANGUAGE, Messages, messages

MAX_TEXT = 200
"""The longest text :func:`to_notation` reads (characters); a move is far shorter."""

ENGLISH_LETTERS = DUEL_TOKEN_LETTERS
"""The notation's token letters, ``W U G R K P *`` (pearl only in Duel)."""


class CommandError(ParseError):
    """A typed move that cannot be read: the message, in the player's language, quotes
    what was wrong and says what is allowed (a :class:`ValueError`)."""


def _verb_messages(t: Messages) -> dict[str, str]:
    """Each notation verb's words in ``t``'s language (module docstring: a list of words
    separated by spaces, the one shown first). ``gold`` is not here: its words are the
    names of gold (:func:`_colour_messages`)."""
    return {
        "take": t.gettext("take"),
        "reserve": t.gettext("reserve"),
        "buy": t.gettext("buy"),
        "choose": t.gettext("choose"),
        "pay": t.gettext("pay"),
        "return": t.gettext("return"),
        "noble": t.gettext("noble"),
        "pass": t.gettext("pass"),
        "privilege": t.gettext("privilege"),
        "replenish": t.gettext("replenish"),
        "joker": t.gettext("joker attach"),
        "token": t.gettext("token"),
        "steal": t.gettext("steal"),
        "royal": t.gettext("royal"),
    }


def _colour_messages(t: Messages) -> tuple[str, ...]:
    """Each token's letter then names, in the order of :data:`ENGLISH_LETTERS` (module
    docstring)."""
    return (
        t.gettext("W white"),
        t.gettext("U blue"),
        t.gettext("G green"),
        t.gettext("R red"),
        t.gettext("K black"),
        t.gettext("P pearl"),
        t.gettext("* gold"),
    )


def fold(word: str) -> str:
    """``word`` as words are compared: without case and accents (``Réserver`` ->
    ``reserver``; letters such as Polish ``ł`` that are not an accent stay)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Words:
    """One language's command words (every game's; :func:`words_of` filters by game).

    Attributes:
        language: the language.
        verbs: each English verb -> the language's words for it, the one shown first
            (``gold`` included: the names of gold).
        letters: each English token letter -> the language's letter.
        names: each English token letter -> the language's names of that colour.
    """

    language: str
    verbs: Mapping[str, tuple[str, ...]]
    letters: Mapping[str, str]
    names: Mapping[str, tuple[str, ...]]


def _split(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(w for w in text.split() if w))


def _read_words(language: str) -> tuple[Words, list[str]]:
    """The language's words as its catalogue gives them, and what is wrong with them."""
    t = messages(language)
    issues: list[str] = []
    verbs: dict[str, tuple[str, ...]] = {}
    for verb, text in _verb_messages(t).items():
        verbs[verb] = _split(text) or (verb,)
    letters: dict[str, str] = {}
    names: dict[str, tuple[str, ...]] = {}
    for english, text in zip(ENGLISH_LETTERS, _colour_messages(t), strict=True):
        words = _split(text)
        letter = words[0] if words else ""
        if len(letter) != 1 or letter.isdigit() or letter in ".,":
            issues.append(f"{english}: the first word {letter!r} is not a one-character letter")
            letter = english
        letters[english] = letter
        names[english] = words[1:] or (DUEL_TOKEN_NAMES[ENGLISH_LETTERS.index(english)],)
    verbs["gold"] = names["*"]
    return Words(language, verbs, letters, names), issues


def _clashes(words: Words) -> list[str]:
    """Letters used twice or used by English for another colour; names and verb words
    used twice."""
    issues = []
    seen: dict[str, str] = {}
    for english, letter in words.letters.items():
        key = fold(letter)
        if key in seen:
            issues.append(f"letter {letter!r} is both {seen[key]} and {english}")
        seen[key] = english
        other = ENGLISH_LETTERS.find(letter.upper())
        if other >= 0 and ENGLISH_LETTERS[other] != english:
            issues.append(f"letter {letter!r} of {english} is the English letter of another")
    for table, what in ((words.names, "colour name"), (words.verbs, "verb word")):
        owner: dict[str, str] = {}
        for key, listed in table.items():
            for w in listed:
                if owner.get(fold(w), key) != key:
                    issues.append(f"{what} {w!r} is both {owner[fold(w)]} and {key}")
                owner[fold(w)] = key
    return issues


@functools.cache
def words_for(language: str) -> Words:
    """The command words of ``language`` (every game's), read once. When its letters
    clash (:func:`problems`), English letters are used instead.

    Raises:
        ValueError: an unknown language.
    """
    words, issues = _read_words(language)
    if issues or _clashes(words):
        words = Words(language, words.verbs, {e: e for e in ENGLISH_LETTERS}, words.names)
    return words


def problems(language: str) -> list[str]:
    """What is wrong with the command words of ``language``'s catalogue (empty: nothing):
    a letter that is not one character, letters used twice or clashing with English, a
    word given to two verbs or two colours.

    Raises:
        ValueError: an unknown language.
    """
    words, issues = _read_words(language)
    return issues + _clashes(words)


# --------------------------------------------------------------------------- per game


@dataclass(frozen=True)
class GameWords:
    """What one game accepts in one language.

    Attributes:
        game: the game's descriptor.
        words: the language's words (:class:`Words`).
        verbs: the game's notation verbs, in the order of their first action id.
        tokens: the game's token letters (notation), gold last.
        examples: one notation per shape of each verb (``take W U G``, ``buy r1``...).
    """

    game: Game
    words: Words
    verbs: tuple[str, ...]
    tokens: str
    examples: tuple[str, ...]

    @property
    def t(self) -> Messages:
        return messages(self.words.language)


def _shape(word: str, tokens: str) -> str:
    """What kind of argument ``word`` is: ``colour``, ``choose``, ``r9`` (a reserved
    card), ``9.9`` (a slot), or ``x9`` (a cell, a deck, a number)."""
    if len(word) == 1 and word in tokens:
        return "colour"
    if word == "choose" or word.startswith("r") or "." in word:
        return "".join("9" if ch.isdigit() else ch for ch in word)
    return "x9"


@functools.cache
def _game_shapes(game: Game) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The game's verbs and one example notation per kind of action and argument shape
    (``take W U G``, ``take W U``, ``take W``, ``take W W``...), in id order."""
    verbs: dict[str, None] = {}
    examples: dict[tuple[str, ...], str] = {}
    for i in range(game.num_actions):
        action = game.action_type.from_id(i)
        parts = str(action).split()
        verbs.setdefault(parts[0])
        key = (action.kind, *(_shape(w, game.token_letters) for w in parts[1:]))
        examples.setdefault(key, str(action))
    return tuple(verbs), tuple(examples.values())


def words_of(game: str | Game, language: str = DEFAULT_LANGUAGE) -> GameWords:
    """What ``game`` accepts in ``language``.

    Raises:
        ValueError: an unknown game or language.
    """
    descriptor = get_game(game)
    verbs, examples = _game_shapes(descriptor)
    return GameWords(descriptor, words_for(language), verbs, descriptor.token_letters, examples)


def letters(game: str | Game, language: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The letter shown to a person for each token letter of ``game``'s notation
    (``{"W": "B", "U": "U", "G": "V", ...}`` in French), gold last.

    Raises:
        ValueError: an unknown game or language.
    """
    gw = words_of(game, language)
    return {e: gw.words.letters[e] for e in gw.tokens}


def to_command(game: str | Game, notation: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A notation written with ``language``'s words (the first of each): ``buy 2.3
    choose`` -> ``acheter 2.3 choisir``, ``gold W`` -> ``or B``. :func:`to_notation`
    reads it back.

    Raises:
        ValueError: an unknown game or language; ``notation`` that is not the game's.
    """
    gw = words_of(game, language)
    text = str(gw.game.action_type.parse(notation))
    verb, *args = text.split()
    out = [gw.words.verbs[verb][0]]
    for arg in args:
        if arg == "choose":
            out.append(gw.words.verbs["choose"][0])
        elif len(arg) == 1 and arg in gw.tokens:
            out.append(gw.words.letters[arg])
        else:
            out.append(arg)
    return " ".join(out)


# --------------------------------------------------------------------------- reading


def _too_long(t: Messages) -> CommandError:
    return CommandError(t.gettext("a move is at most {n} characters long", n=MAX_TEXT))


def _verb(gw: GameWords, word: str) -> str:
    """The English verb a typed word stands for: one of the game's (the language's words
    first, then English), else another game's (``noble`` in Duel: the shape check, or the
    engine's hint, then says what the game has instead).

    Raises:
        CommandError: no verb of either game, in the language or in English.
    """
    key = fold(word)
    others = [v for v in gw.words.verbs if v not in gw.verbs and v != "choose"]
    for verbs in (gw.verbs, others):
        for source in (gw.words.verbs, {v: (v,) for v in verbs}):
            for verb in verbs:
                if key in (fold(w) for w in source.get(verb, ())):
                    return verb
    raise _unknown_verb(gw, word)


def _unknown_verb(gw: GameWords, word: str) -> CommandError:
    """``word`` is no move of the game: the error listing the game's verbs."""
    shown = ", ".join(gw.words.verbs[v][0] for v in gw.verbs)
    return CommandError(
        gw.t.gettext(
            "'{word}' is not a move of {game}; the moves are: {verbs}",
            word=word[:30],
            game=gw.game.title,
            verbs=shown,
        )
    )


def _colour_error(gw: GameWords, word: str, found: list[str] | None = None) -> CommandError:
    """``word`` is no colour of the game (or, given ``found``, could be any of them)."""
    t = gw.t
    if found:
        choices = ", ".join(gw.words.names[e][0] for e in found)
        return CommandError(
            t.gettext(
                "'{word}' could be several colours ({choices}): type more of the word",
                word=word[:30],
                choices=choices,
            )
        )
    colours = ", ".join(f"{gw.words.letters[e]} {gw.words.names[e][0]}" for e in gw.tokens)
    return CommandError(
        t.gettext(
            "'{word}' is not a colour of {game}; the colours are: {colours}",
            word=word[:30],
            game=gw.game.title,
            colours=colours,
        )
    )


def _colour(gw: GameWords, word: str) -> str:
    """The English letter of a typed colour: the language's letter, an English letter,
    a name in the language or in English, or the unambiguous beginning of one.

    Raises:
        CommandError: no colour of the game, or the beginning of several.
    """
    key = fold(word)
    english = {e: (DUEL_TOKEN_NAMES[ENGLISH_LETTERS.index(e)],) for e in gw.tokens}
    if len(word) == 1:
        for letters_of in (gw.words.letters, {e: e for e in gw.tokens}):
            for e in gw.tokens:
                if fold(letters_of[e]) == key:
                    return e
        raise _colour_error(gw, word)
    tables: tuple[Mapping[str, tuple[str, ...]], ...] = (gw.words.names, english)
    for table in tables:
        for e in gw.tokens:
            if key in (fold(n) for n in table[e]):
                return e
    for table in tables:  # the language's beginnings first: French 'bla' is blanc
        found = [e for e in gw.tokens if any(fold(n).startswith(key) for n in table[e])]
        if len(found) == 1:
            return found[0]
        if found:
            raise _colour_error(gw, word, found)
    raise _colour_error(gw, word)


def _argument(gw: GameWords, verb: str, word: str) -> str:
    """One word after ``verb`` in notation: ``choose``, a colour's letter, or the word
    itself when it is notation already (``2.3``, ``d2``, ``r1``, ``c3``, ``2``) or the verb
    takes no colour (the shape check then says how the verb is written).

    Raises:
        CommandError: a verb that takes colours, and a word that is no colour of the game
            (or the beginning of several).
    """
    key = fold(word)
    if key == "choose" or key in (fold(w) for w in gw.words.verbs["choose"]):
        return "choose"
    if any(ch.isdigit() or ch == "." for ch in word):
        return word.lower()
    takes_colours = any(
        _shape(w, gw.tokens) == "colour"
        for e in gw.examples
        if e.split()[0] == verb
        for w in e.split()[1:]
    )
    return _colour(gw, word) if takes_colours else word.lower()


def translate(game: str | Game, text: Any, language: str = DEFAULT_LANGUAGE) -> str:
    """``text`` with the language's words replaced by the notation's, its shape not
    checked: ``prendre B U V`` -> ``take W U G``. Text that reads as English notation
    comes back as the notation (:func:`to_notation` also checks the shape; the terminal
    uses this to keep the engines' own hints for a misshapen move).

    Raises:
        CommandError: not text, longer than :data:`MAX_TEXT`, empty, an unknown verb or
            colour, or the beginning of several colours; in ``language``.
        ValueError: an unknown game or language.
    """
    gw = words_of(game, language)
    if not isinstance(text, str):
        raise CommandError(gw.t.gettext("a move is text, like '{example}'", example=_example(gw)))
    if len(text) > MAX_TEXT:
        raise _too_long(gw.t)
    parts = text.replace(",", " ").split()
    if not parts:
        raise CommandError(gw.t.gettext("type a move, like '{example}'", example=_example(gw)))
    try:
        return str(gw.game.action_type.parse(" ".join(parts)))
    except ValueError:
        pass
    verb = _verb(gw, parts[0])
    return " ".join([verb, *(_argument(gw, verb, w) for w in parts[1:])])


def _example(gw: GameWords) -> str:
    return to_command(gw.game, gw.game.example_action, gw.words.language)


def to_notation(game: str | Game, text: Any, language: str = DEFAULT_LANGUAGE) -> str:
    """The notation of a move typed in ``language`` or in notation: ``prendre blanc bleu
    vert``, ``prendre B U V`` and ``take W U G`` -> ``take W U G``; ``neem c3`` -> ``take
    c3``. Only the shape is checked; legality is the engine's (``state.apply``).

    Returns:
        The canonical notation (``str(Action.parse(...))``: letters in colour order,
        cells of a take in line order).

    Raises:
        CommandError: what :func:`translate` refuses, or a verb with arguments of the wrong
            shape (the message gives the verb's forms in the language).
        ValueError: an unknown game or language.
    """
    gw = words_of(game, language)
    english = translate(gw.game, text, language)
    try:
        return str(gw.game.action_type.parse(english))
    except ValueError:
        pass
    verb = english.split()[0]
    if verb not in gw.verbs:
        raise _unknown_verb(gw, str(text).split()[0])
    forms = [to_command(gw.game, e, language) for e in gw.examples if e.split()[0] == verb]
    raise CommandError(
        gw.t.gettext(
            "'{text}' is not a move; write it like: {forms}",
            text=" ".join(str(text).split())[:60],
            forms=", ".join(forms),
        )
    )


def command_words(game: str | Game, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The words ``game`` accepts in ``language``, for help texts and the web client.

    Returns:
        ``{"game": "splendor", "language": "fr", "verbs": {"take": ["prendre", "prends"],
        ...}, "letters": {"W": "B", ...}, "names": {"W": ["blanc", "blancs"], ...},
        "examples": [{"notation": "take W U G", "command": "prendre B U V"}, ...]}``:
        ``verbs`` maps each notation verb of the game (with ``choose``, the word after
        ``buy 2.3``) to the language's words, the one to show first; ``letters`` and
        ``names`` map each token letter of the notation (gold last) to the language's
        letter and colour names; ``examples`` gives one move per verb and shape.

    Raises:
        ValueError: an unknown game or language.
    """
    gw = words_of(game, language)
    verbs = list(gw.verbs)
    if any(e.endswith(" choose") for e in gw.examples):
        verbs.insert(verbs.index("buy") + 1, "choose")
    return {
        "game": gw.game.name,
        "language": gw.words.language,
        "verbs": {v: list(gw.words.verbs[v]) for v in verbs},
        "letters": {e: gw.words.letters[e] for e in gw.tokens},
        "names": {e: list(gw.words.names[e]) for e in gw.tokens},
        "examples": [
            {"notation": e, "command": to_command(gw.game, e, language)} for e in gw.examples
        ],
    }


__all__ = [
    "CommandError",
    "ENGLISH_LETTERS",
    "GameWords",
    "MAX_TEXT",
    "Words",
    "command_words",
    "fold",
    "letters",
    "problems",
    "to_command",
    "to_notation",
    "translate",
    "words_for",
    "words_of",
]
