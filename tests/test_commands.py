"""Moves typed in the player's language (splendor.commands, issue 33): every verb of both
games, in every language of splendor.i18n.LANGUAGES, written with the language's words,
letters, colour names and beginnings of names, reads back to its notation; the English
notation reads in every language; the letters of a language differ; refusals speak the
language; hostile text gets a CommandError and nothing else."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor.commands import (
    MAX_TEXT,
    CommandError,
    command_words,
    fold,
    letters,
    problems,
    to_command,
    to_notation,
    translate,
)
from splendor.game import games, get_game
from splendor.i18n import DOMAINS, LANGUAGES, messages

GAMES = [g.name for g in games()]


def _actions(game: str) -> list[str]:
    descriptor = get_game(game)
    return [str(descriptor.action_type.from_id(i)) for i in range(descriptor.num_actions)]


# ----------------------------------------------------------------------------- words


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_words_of_every_language_are_sound(language):
    """One-character letters, distinct within the language and never another colour's
    English letter; no word given to two verbs or two colours."""
    assert problems(language) == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_a_language_letters_are_distinct_single_characters(game, language):
    shown = letters(game, language)
    assert list(shown) == list(get_game(game).token_letters)  # gold last
    assert all(len(letter) == 1 and not letter.isspace() for letter in shown.values())
    assert len({fold(letter) for letter in shown.values()}) == len(shown)


@pytest.mark.parametrize("game", GAMES)
def test_command_words_list_every_verb_of_the_notation(game):
    words = command_words(game, "en")
    verbs = {a.split()[0] for a in _actions(game)} | {"choose"}
    assert set(words["verbs"]) == verbs
    assert words["game"] == game and words["language"] == "en"
    assert words["letters"] == {e: e for e in get_game(game).token_letters}
    shapes = {e["notation"] for e in words["examples"]}
    assert {"buy r1", "buy 1.1 choose", "reserve d1", "pass"} <= shapes
    assert all(e["notation"] == e["command"] for e in words["examples"])


def test_the_examples_cover_each_shape_of_take():
    assert [e["notation"] for e in command_words("splendor")["examples"][:4]] == [
        "take W U G",
        "take W U",
        "take W",
        "take W W",
    ]
    notations = [e["notation"] for e in command_words("duel")["examples"]]
    assert {"take a1", "take a1 b1", "take a1 b1 c1", "gold a1", "gold W"} <= set(notations)


def _gettext_literals(path: Path) -> list[str]:
    """The string literals passed to ``gettext``/``ngettext`` calls in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in (
            "gettext",
            "ngettext",
        ):
            found += [a.value for a in node.args if isinstance(a, ast.Constant)]
    return [f for f in found if isinstance(f, str)]


def test_the_word_lists_are_no_other_module_s_messages():
    """The messages of splendor.commands are translated as lists of words: a module of the
    same catalogue that showed one ("joker" on a card) would show the whole list."""
    package = Path(__import__("splendor").__file__).parent
    own = package / "commands.py"
    words = set(_gettext_literals(own))
    assert {"take", "joker attach", "W white", "* gold"} <= words
    domain = next(d for d in DOMAINS if d.name == "splendor")
    for path in package.rglob("*.py"):
        parts = path.relative_to(package).parts
        if path == own or parts[0] in domain.skip:
            continue
        shared = words & set(_gettext_literals(path))
        assert not shared, f"{path.relative_to(package)} shows {sorted(shared)}"


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_action_round_trips_through_the_language_words(game, language):
    """Each action id: its notation written with the language's words reads back."""
    for notation in _actions(game):
        command = to_command(game, notation, language)
        assert to_notation(game, command, language) == notation, (command, notation)
        assert to_notation(game, command.upper(), language) == notation


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_word_of_every_verb_and_colour_is_accepted(game, language):
    """Each verb word (conjugations too), each colour name and letter, in every form of
    every verb's examples."""
    words = command_words(game, language)
    for example in words["examples"]:
        verb, *args = example["notation"].split()
        for word in words["verbs"][verb]:
            typed = " ".join([word, *example["command"].split()[1:]])
            assert to_notation(game, typed, language) == example["notation"], typed
        if example["notation"].endswith(" choose"):
            for word in words["verbs"]["choose"]:
                typed = " ".join([*example["command"].split()[:-1], word])
                assert to_notation(game, typed, language) == example["notation"], typed
    colour_verb = "return"
    return_word = words["verbs"][colour_verb][0]
    for english, names in words["names"].items():
        for name in [*names, words["letters"][english]]:
            typed = f"{return_word} {name}"
            assert to_notation(game, typed, language) == f"return {english}", typed


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_english_notation_reads_in_every_language(game, language):
    for notation in _actions(game):
        assert to_notation(game, notation, language) == notation
        assert to_notation(game, "  " + notation.lower() + " ", language) == notation
    loose = "take G W U" if game == "splendor" else "take c5 c3 c4"
    assert to_notation(game, loose, language) in ("take W U G", "take c3 c4 c5")


def test_english_names_and_unambiguous_beginnings():
    assert to_notation("splendor", "take white blue green", "en") == "take W U G"
    assert to_notation("splendor", "take wh blu gr", "en") == "take W U G"
    assert to_notation("splendor", "Return Gold", "en") == "return *"
    assert to_notation("duel", "steal pe", "en") == "steal P"
    assert to_notation("splendor", "take r,r", "en") == "take R R"


# ----------------------------------------------------------------------------- the catalogue


def test_french_words_letters_and_names():
    """The French catalogue's words: verbs, letters B U V R N (O for gold), names with
    accents or without, beginnings of names."""
    assert to_notation("splendor", "prendre B U V", "fr") == "take W U G"
    assert to_notation("splendor", "prendre blanc bleu vert", "fr") == "take W U G"
    assert to_notation("splendor", "prends bla ble ve", "fr") == "take W U G"
    assert to_notation("splendor", "Réserver d2", "fr") == "reserve d2"
    assert to_notation("splendor", "reserver 2.3", "fr") == "reserve 2.3"
    assert to_notation("splendor", "acheter 2.3 choisir", "fr") == "buy 2.3 choose"
    assert to_notation("splendor", "rendre O", "fr") == "return *"
    assert to_notation("splendor", "or N", "fr") == "gold K"
    assert to_notation("splendor", "prendre W U G", "fr") == "take W U G"  # English letters
    assert to_command("splendor", "take W U G", "fr") == "prendre B U V"
    assert letters("duel", "fr") == {
        "W": "B",
        "U": "U",
        "G": "V",
        "R": "R",
        "K": "N",
        "P": "P",
        "*": "O",
    }


def test_dutch_words_letters_and_names():
    assert to_notation("duel", "neem c3", "nl") == "take c3"
    assert to_notation("duel", "pak c5 c3 c4", "nl") == "take c3 c4 c5"
    assert to_notation("duel", "goud c3", "nl") == "gold c3"
    assert to_notation("duel", "steel Z", "nl") == "steal K"
    assert to_notation("duel", "steel parel", "nl") == "steal P"
    assert to_notation("splendor", "neem W B G", "nl") == "take W U G"
    assert to_notation("splendor", "koop r1", "nl") == "buy r1"
    assert to_command("duel", "joker K", "nl") == "joker Z"


# ----------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("language", LANGUAGES)
def test_refusals_speak_the_language(language):
    t = messages(language)
    words = command_words("splendor", language)
    with pytest.raises(CommandError) as e:
        to_notation("splendor", "sauter W", language)
    verbs = ", ".join(w[0] for v, w in words["verbs"].items() if v != "choose")
    assert str(e.value) == t.gettext(
        "'{word}' is not a move of {game}; the moves are: {verbs}",
        word="sauter",
        game="Splendor",
        verbs=verbs,
    )
    take = words["verbs"]["take"][0]
    with pytest.raises(CommandError) as e:
        to_notation("splendor", f"{take} Q", language)
    assert words["letters"]["W"] in str(e.value) and words["names"]["W"][0] in str(e.value)
    with pytest.raises(CommandError) as e:
        to_notation("splendor", f"{take} 2.3", language)
    assert to_command("splendor", "take W U G", language) in str(e.value)
    with pytest.raises(CommandError) as e:
        to_notation("splendor", "   ", language)
    assert str(e.value) == t.gettext(
        "type a move, like '{example}'", example=to_command("splendor", "take W U G", language)
    )
    with pytest.raises(CommandError) as e:
        to_notation("splendor", "x" * (MAX_TEXT + 1), language)
    assert str(e.value) == t.gettext("a move is at most {n} characters long", n=MAX_TEXT)


def test_a_french_refusal_reads_french():
    with pytest.raises(CommandError) as e:
        to_notation("splendor", "sauter W", "fr")
    assert "prendre" in str(e.value) and "take" not in str(e.value)
    with pytest.raises(CommandError) as e:
        to_notation("splendor", "prendre bl", "fr")
    assert "blanc" in str(e.value) and "bleu" in str(e.value)


def test_a_beginning_of_several_colours_is_refused_naming_them():
    with pytest.raises(CommandError, match="blue, black"):
        to_notation("splendor", "take bl", "en")


def test_pearl_is_no_colour_of_classic_splendor():
    with pytest.raises(CommandError, match="not a colour of Splendor"):
        to_notation("splendor", "return P", "en")
    assert to_notation("duel", "return P", "en") == "return P"


def test_a_misshapen_move_is_refused_with_the_verb_forms():
    with pytest.raises(CommandError) as e:
        to_notation("splendor", "buy 2.3 now", "en")
    assert "buy 1.1, buy r1, buy 1.1 choose, buy r1 choose" in str(e.value)
    with pytest.raises(CommandError, match="take a1 b1 c1"):
        to_notation("duel", "take a1 c1", "en")  # a gap: not a line (D8)
    assert translate("duel", "take a1 c1", "en") == "take a1 c1"  # words only


def test_unknown_games_and_languages_are_value_errors():
    with pytest.raises(ValueError, match="unknown game"):
        to_notation("chess", "take W", "en")
    with pytest.raises(ValueError, match="unknown language"):
        to_notation("splendor", "take W U G", "xx")


@pytest.mark.parametrize("value", [None, 3, b"take W", ["take", "W"], 2.5])
def test_text_that_is_not_a_string_is_refused(value):
    with pytest.raises(CommandError, match="a move is text"):
        to_notation("splendor", value, "en")


_ALPHABET = list("WUGRKP*wugrkp.,;12345abcdexyzrdéü ") + ["prendre ", "neem ", "take ", "buy "]


@settings(max_examples=400, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    language=st.sampled_from(LANGUAGES),
    text=st.one_of(st.text(max_size=40), st.lists(st.sampled_from(_ALPHABET), max_size=10)),
)
def test_any_text_is_a_move_or_a_command_error(game, language, text):
    """Fuzz: either notation the engine reads back, or a CommandError; nothing else."""
    typed = text if isinstance(text, str) else "".join(text)
    try:
        notation = to_notation(game, typed, language)
    except CommandError as e:
        assert str(e)
        return
    assert str(get_game(game).action_type.parse(notation)) == notation


def test_random_words_of_every_language():
    """Seeded: each verb word followed by random colour words and notation."""
    rng = random.Random(33)
    for language in LANGUAGES:
        for game in GAMES:
            words = command_words(game, language)
            pool = [w for names in words["names"].values() for w in names]
            pool += list(words["letters"].values()) + ["2.3", "r1", "c3", "d2", "1"]
            for verb_words in words["verbs"].values():
                for _ in range(20):
                    typed = " ".join([rng.choice(verb_words)] + rng.sample(pool, rng.randint(0, 3)))
                    try:
                        notation = to_notation(game, typed, language)
                    except CommandError:
                        continue
                    assert str(get_game(game).action_type.parse(notation)) == notation
