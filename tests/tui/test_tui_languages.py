"""The terminal game in French, English and Dutch (issue 16): every sentence from the
catalogue ``tui``, plurals and "you take" / "ann takes" from the message layer, ``--lang`` and
the terminal's locale."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from splendor import classic, duel
from splendor.bots import RandomBot
from splendor.commands import to_command
from splendor.i18n import LANGUAGES, LOCALE_DIR
from splendor.record import GameRecord
from splendor.tui import games, render, render_duel
from splendor.tui.app import PlayOptionError, play_language, run_play
from splendor.tui.words import terminal_language, tui_messages

# The French and Dutch of these tests are the catalogue's: a change of wording in
# locale/{fr,nl}/LC_MESSAGES/tui.po may need a change here.
from .helpers import console, duel_play_until, feeder, play_until, text_of

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def _draw(*renderables: Any, width: int = 100) -> str:
    con = console(width)
    for r in renderables:
        con.print(r)
    return text_of(con)


def _flat(text: str) -> str:
    """Captured text with the panel borders gone and every run of spaces one space (rich
    wraps long sentences)."""
    return " ".join(text.replace("│", " ").split())


# ----------------------------------------------------------------------------- leaks


def _catalogue_entries(language: str) -> list[tuple[list[str], list[str]]]:
    """``(English forms, translated forms)`` of every message of the catalogue ``tui``."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / "tui.po"
    with path.open("rb") as f:
        catalogue = read_po(f, locale=language)
    entries = []
    for m in catalogue:
        if not m.id:
            continue
        english = [m.id] if isinstance(m.id, str) else list(m.id)
        forms = [m.string] if isinstance(m.string, str) else list(m.string)
        entries.append((english, forms))
    return entries


def _pieces(message: str) -> list[str]:
    """The text of ``message`` between its ``{fields}``, each piece with whitespace and
    punctuation at its ends trimmed."""
    parts = [literal for literal, *_ in string.Formatter().parse(message)]
    return [p.strip(" \t\n:;,.()'") for p in parts]


def _meaningful(piece: str) -> bool:
    """Long enough to mean something in English: at least two words of letters (single
    words such as "take" or "replenish" are also notation, which is never translated)."""
    return len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2


def english_leaks(text: str, language: str) -> set[str]:
    """Pieces of English messages of the catalogue ``tui`` (fields removed, two words or
    more) that appear in ``text`` although their translation into ``language`` differs."""
    flat = _flat(text)
    leaks = set()
    for english, forms in _catalogue_entries(language):
        translated = _flat(" ".join(forms))
        for message in english:
            for piece in _pieces(message):
                piece = _flat(piece)
                if _meaningful(piece) and piece not in translated and piece in flat:
                    leaks.add(piece)
    return leaks


# ----------------------------------------------------------------------------- whole games

CLASSIC_ENTRIES = ["?", "list", "buy 3.1", "take Q Z", "999", "take W U G", "1", "1", "quit"]
DUEL_ENTRIES = ["?", "list", "buy 3.1", "take a1 c1", "noble 1", "999", "1", "1", "1", "quit"]


def _scripted_game(game: str, language: str, path: Path) -> str:
    """A person plays a few decisions against a bot after '?', 'list', an illegal and a
    malformed entry, then quits; the output."""
    con = console(100)
    entries = CLASSIC_ENTRIES if game == "splendor" else DUEL_ENTRIES
    code = run_play(
        game=game,
        seats="human,random",
        seed=3,
        record_path=path,
        console=con,
        input_fn=feeder(list(entries)),
        language=language,
    )
    assert code == 0
    rec = GameRecord.load(path)
    assert rec.result is None and len(rec.actions) >= 4  # some moves were played
    rec.replay()
    return text_of(con)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[tuple[str, str], str]:
    """The output of the scripted game of each game in each language."""
    out = {}
    for game in ("splendor", "duel"):
        for language in ("en", *TRANSLATED):
            path = tmp_path_factory.mktemp("lang") / f"{game}-{language}.json"
            out[game, language] = _scripted_game(game, language, path)
    return out


@pytest.mark.parametrize("game", ["splendor", "duel"])
@pytest.mark.parametrize("language", TRANSLATED)
def test_a_whole_terminal_game_speaks_the_language(played, game, language):
    out = played[game, language]
    t = tui_messages(language)
    flat = _flat(out)
    ui = games.ui_for(game, language)
    # sentences from the catalogue, in translation
    assert _flat(ui.intro) in flat
    assert t.gettext("your move") in flat
    assert t.gettext("How to write a decision ({game})", game=ui.title) in flat
    assert t.gettext("pick that decision from the numbered list") in flat  # '?'
    assert t.gettext("every legal decision, numbered, grouped by kind (none summed up)") in flat
    typed = to_command(game, "buy 3.1", language)  # the refusal quotes it in the language
    illegal = t.gettext("'{action}' is not legal now: {why}", action=typed, why="")
    assert illegal.strip() in flat
    malformed = "take Q Z" if game == "splendor" else "take a1 c1"
    assert t.gettext("'{entry}' is not an action: {hint}", entry=malformed, hint="").strip() in flat
    number = t.ngettext(
        "there is no decision number {number}: there is only {n}",
        "there is no decision number {number}: pick 1 to {n}",
        2,
        number=99,
        n=2,
    )
    assert number.split(":")[0].strip() in flat
    stopped = t.ngettext(
        "game stopped after {n} decision; unfinished record saved to {path}",
        "game stopped after {n} decisions; unfinished record saved to {path}",
        2,
        n=2,
        path="",
    )
    assert stopped.split(";")[1].strip() in flat
    # the explanations of the engine come in the language too
    assert "you cannot afford it" not in out and "is not legal now" not in out
    # and no English message of the catalogue leaks
    assert english_leaks(out, language) == set()


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_the_leak_check_finds_english(played, game):
    """The same check on the English game finds the English sentences (so it can fail)."""
    for language in TRANSLATED:
        assert len(english_leaks(played[game, "en"], language)) >= 10


@pytest.mark.parametrize("language", TRANSLATED)
def test_bots_to_the_end_speak_the_language(tmp_path, language):
    """Results, scores, winners, the log's events (nobles, royal cards, privileges) and the
    saved record, for a whole game of each kind."""
    t = tui_messages(language)
    for game, seats, players in (
        ("splendor", "random,random,random", 3),
        ("duel", "random,random", 2),
    ):
        con = console(100)
        path = tmp_path / f"{game}.json"
        assert (
            run_play(
                game=game,
                players=players,
                seats=seats,
                seed=2,
                record_path=path,
                console=con,
                language=language,
            )
            == 0
        )
        out = text_of(con)
        final = GameRecord.load(path).replay()
        names = GameRecord.load(path).players
        ui = games.ui_for(game, language)
        for line in ui.render.result_lines(final.observation(0), names, language=language):
            assert line in out
        assert t.gettext("record saved to {path}", path=path) in out
        assert t.gettext("final scores") in out
        assert english_leaks(out, language) == set(), game


# ----------------------------------------------------------------------------- plurals


@pytest.mark.parametrize(
    "language, one, many, crown, crowns",
    [
        ("en", "1 prestige point", "2 prestige points", "1 crown ", "2 crowns"),
        ("fr", "1 point de prestige", "2 points de prestige", "1 couronne ", "2 couronnes"),
        ("nl", "1 prestigepunt", "2 prestigepunten", "1 kroon ", "2 kronen"),
    ],
)
def test_one_point_two_points_in_each_language(language, one, many, crown, crowns):
    """A Duel player with 1 point reads "1 point", never "1 points" or "1 pts"; the same
    for crowns."""

    def seat_0(pred: Any) -> str:
        st = duel_play_until(lambda s: s.phase == "main" and pred(s.player(0)))
        players = render_duel.players_table(st.observation(0), ["ann", "bob"], language=language)
        return _flat(_draw(players)) + " "

    text = seat_0(lambda p: p.points == 1)
    assert one in text and many.replace("2", "1", 1) not in text and "1 pts" not in text
    assert many in seat_0(lambda p: p.points == 2)
    text = seat_0(lambda p: p.crowns == 1)
    assert crown in text and crowns.replace("2", "1", 1) not in text
    assert crowns in seat_0(lambda p: p.crowns == 2)


@pytest.mark.parametrize(
    "language, right, wrong",
    [
        ("en", ["0 cards", "1 card ", "2 cards"], ["0 card ", "1 cards"]),
        ("fr", ["0 carte ", "1 carte ", "2 cartes"], ["0 cartes", "1 cartes"]),
        ("nl", ["0 kaarten", "1 kaart ", "2 kaarten"], ["0 kaart ", "1 kaarten"]),
    ],
)
def test_cards_are_counted_in_each_language(language, right, wrong):
    """0, 1 and 2 cards bought (French counts 0 as singular, English and Dutch do not)."""

    def seats(st: classic.State) -> str:
        players = render.players_table(st.observation(0), ["ann", "bob"], language=language)
        return _flat(_draw(players)) + " "

    text = seats(classic.new_game(2, 1)) + seats(
        play_until(lambda s: s.num_players == 2 and [len(p.purchased) for p in s.players] == [1, 2])
    )
    assert all(w in text for w in right)
    assert not any(w in text for w in wrong)


@pytest.mark.parametrize(
    "language, one, two",
    [
        ("en", "1 noble ", "2 nobles"),
        ("fr", "1 tuile Noble ", "2 tuiles Noble"),
        ("nl", "1 edelman ", "2 edellieden"),
    ],
)
def test_nobles_are_counted_in_each_language(language, one, two):
    for count, want in ((1, one), (2, two)):
        st = play_until(lambda s, c=count: len(s.player(0).nobles) == c, range(400))
        players = render.players_table(st.observation(0), language=language)
        assert want in _flat(_draw(players)) + " "


def _return_position(back: int, game: str) -> Any:
    """A position where the seat to play must give back ``back`` tokens."""
    finder = play_until if game == "splendor" else duel_play_until
    return finder(
        lambda s: s.phase == "return tokens" and s.player(s.current_player).num_tokens - 10 == back,
        range(600),
    )


@pytest.mark.parametrize("game", ["splendor", "duel"])
@pytest.mark.parametrize(
    "language, one, two",
    [
        ("en", "return 1 token", "return 2 tokens"),
        ("fr", "rendez 1 jeton", "rendez 2 jetons"),
        ("nl", "geef 1 fiche terug", "geef 2 fiches terug"),
    ],
)
def test_tokens_to_return_are_counted(game, language, one, two):
    module = render if game == "splendor" else render_duel
    for back, want, wrong in ((1, one, two.replace("2", "1")), (2, two, None)):
        st = _return_position(back, game)
        me = st.current_player
        hint = module.phase_hint(st.observation(me), ["ann", "bob"], language=language)
        assert hint is not None and want in hint.plain
        if wrong:
            assert wrong not in hint.plain
        other_seat = (me + 1) % st.num_players
        other = module.phase_hint(st.observation(other_seat), language=language)
        assert other is not None and want not in other.plain  # "ann gives back", not "give"


def _privilege_turn() -> tuple[Any, Any, int, int, Any]:
    """``(observation before, observation after, seat that decided, seat that gained
    exactly one privilege, the decision)`` from a random Duel game."""
    for seed in range(200):
        st = duel.new_game(seed=seed)
        bots = [RandomBot(seed), RandomBot(seed + 1)]
        while not st.is_terminal:
            seat = st.current_player
            before = st.observation(0)
            action = bots[seat].choose(st.observation(seat), st.legal_actions())
            st.apply(action)
            after = st.observation(0)
            gained = [
                a.privileges - b.privileges
                for a, b in zip(after.players, before.players, strict=True)
            ]
            if sorted(gained) == [0, 1]:
                return before, after, seat, gained.index(1), action
    raise AssertionError("no privilege taken")


@pytest.mark.parametrize(
    "language, you, other",
    [
        ("en", "you take a privilege", "ann takes a privilege"),
        ("fr", "vous prenez un Privilège", "ann prend un Privilège"),
        ("nl", "je neemt een privilege", "ann neemt een privilege"),
    ],
)
def test_you_take_and_ann_takes(language, you, other):
    """Issue 16: "you take a privilege", never "you takes": the person's own events are
    told to them; another player's in the third person."""
    before, after, seat, gainer, action = _privilege_turn()
    names = ["ann", "bob"] if gainer == 0 else ["bob", "ann"]
    ui = games.ui_for("duel", language)
    mine = ui.events(names, before, gainer).after(after, seat, action)
    theirs = ui.events(names, before, 1 - gainer).after(after, seat, action)
    mine_text = " ".join(line.plain for line in mine)
    theirs_text = " ".join(line.plain for line in theirs)
    assert you in mine_text and other not in mine_text
    assert other in theirs_text and you not in theirs_text
    # a person named "you" (the default label) reads the same
    names = ["you", "bob"] if gainer == 0 else ["bob", "you"]
    default = ui.events(names, before, None).after(after, seat, action)
    if language == "en":
        assert you in " ".join(line.plain for line in default)
    assert "you takes" not in " ".join(line.plain for line in default)


@pytest.mark.parametrize(
    "language, you, other",
    [
        ("en", "you win with", "ann wins with"),
        ("fr", "vous gagnez avec", "ann gagne avec"),
        ("nl", "je wint met", "ann wint met"),
    ],
)
def test_you_win_and_ann_wins(language, you, other):
    st = duel_play_until(lambda s: s.is_terminal and bool(s.winners))
    w = st.winners[0]
    names = ["ann", "bob"] if w == 0 else ["bob", "ann"]
    obs = st.observation(w)
    assert render_duel.victory_text(obs, names, you=True, language=language).startswith(you)
    assert render_duel.victory_text(obs, names, language=language).startswith(other)


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_the_board_fits_100_columns_with_four_players(language):
    st = play_until(lambda s: s.num_players == 4 and s.turn > 30 and s.phase == "main")
    text = _draw(
        render.render_board(
            st.observation(0), ["you", "greedy-1", "random", "greedy-3"], language=language
        )
    )
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "…" not in text  # nothing cut off


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_the_duel_board_fits_100_and_80_columns(language):
    st = duel_play_until(lambda s: s.turn > 40 and any(p.royals for p in s.players))
    for width in (100, 80):
        text = _draw(
            render_duel.render_board(st.observation(0), ["ann", "bob"], language=language),
            width=width,
        )
        assert max(len(line) for line in text.splitlines()) <= width
        assert "…" not in text


# ----------------------------------------------------------------------------- the language


@pytest.mark.parametrize(
    "environ, language",
    [
        ({}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "nl_BE.UTF-8"}, "nl"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "sv_SE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_MESSAGES": "nl_NL.UTF-8", "LANG": "fr_FR.UTF-8"}, "nl"),
        ({"LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "nl_NL", "LANG": "nl_NL"}, "fr"),
        ({"LC_ALL": "", "LANG": "nl_NL.UTF-8"}, "nl"),  # empty is unset
        ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),  # LC_ALL decides (POSIX)
    ],
)
def test_the_language_of_the_terminal(environ, language):
    assert terminal_language(environ) == language
    assert play_language(None, environ) == language
    assert play_language("NL ", environ) == "nl"  # --lang wins


def test_the_terminal_locale_is_read_from_the_environment(monkeypatch, tmp_path):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    con = console()
    path = tmp_path / "g.json"
    assert (
        run_play(
            seats="random,random", seed=1, record_path=path, quiet=True, console=con, language=None
        )
        == 0
    )
    assert "gagnant" in text_of(con) and "winner" not in text_of(con)
    monkeypatch.setenv("LC_ALL", "nl_NL.UTF-8")
    con = console()
    assert (
        run_play(
            seats="random,random", seed=1, record_path=path, quiet=True, console=con, language=None
        )
        == 0
    )
    assert "winnaar" in text_of(con)


@pytest.mark.parametrize("bad", ["sv", "", "french", "fr_FR", "xx" * 40])
def test_an_unknown_language_is_refused(bad, tmp_path, monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(PlayOptionError, match="one of en, fr, nl, de, es, it, pt, pl"):
        play_language(bad, {})
    con = console(200)
    path = tmp_path / "g.json"
    assert run_play(seats="random,random", record_path=path, console=con, language=bad) == 2
    assert "--lang must be one of en, fr, nl, de, es, it, pt, pl" in text_of(con)
    assert not path.exists()
    # the refusal speaks the terminal's language
    with pytest.raises(PlayOptionError, match="--lang doit être"):
        play_language(bad, {"LANG": "fr_FR.UTF-8"})


def _cli(*args: str, env: dict[str, str] | None = None, stdin: str | None = None):
    from typer.testing import CliRunner

    from splendor.cli import app

    return CliRunner().invoke(app, list(args), input=stdin, env={"COLUMNS": "100", **(env or {})})


def test_lang_option_of_the_command(tmp_path):
    path = tmp_path / "g.json"
    done = _cli(
        "play",
        "--lang",
        "sv",
        "--seats",
        "random,random",
        "--record",
        str(path),
        env={"LC_ALL": "C.UTF-8"},
    )
    assert done.exit_code == 2
    assert "en, fr, nl, de, es, it, pt, pl, got 'sv'" in " ".join(done.output.split())
    assert not path.exists()
    done = _cli(
        "play",
        "--lang",
        "nl",
        "--seats",
        "random,random",
        "--seed",
        "2",
        "--quiet",
        "--record",
        str(path),
        env={"LC_ALL": "fr_FR.UTF-8"},
    )
    assert done.exit_code == 0, done.output
    assert "winnaar" in done.output and "gagnant" not in done.output  # --lang wins
    done = _cli(
        "play",
        "--seats",
        "random,random",
        "--seed",
        "2",
        "--quiet",
        "--record",
        str(path),
        env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_FR.UTF-8"},
    )
    assert done.exit_code == 0, done.output
    assert "gagnant" in done.output  # the locale's language without --lang


def test_a_game_stopped_in_french_is_resumed_in_dutch(tmp_path):
    """The language is not part of the record: a game goes on in another one."""
    path = tmp_path / "g.json"
    con = console()
    code = run_play(
        seats="human,random",
        seed=4,
        record_path=path,
        console=con,
        input_fn=feeder(["take W U G"]),
        language="fr",
    )
    assert code == 0
    assert "fin de la saisie après 2 décisions" in _flat(text_of(con))
    before = GameRecord.load(path)
    assert before.players == ["you", "random"]  # the default name, in no language
    assert "language" not in before.metadata and "lang" not in before.options
    con = console()
    assert run_play(resume=path, console=con, input_fn=feeder(["1"]), language="nl") == 0
    out = _flat(text_of(con))
    assert f"{path} wordt hervat na 2 beslissingen" in out
    assert "jij bent aan zet" in out and english_leaks(text_of(con), "nl") == set()
    after = GameRecord.load(path)
    assert after.actions[:2] == before.actions and len(after.actions) == 4
    assert after.players == before.players
