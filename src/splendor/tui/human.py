"""A person at the terminal as an agent: ``choose(observation, legal_actions) -> Action``.

The person sees the board drawn from their own observation (C16, D22) and a numbered list
of their legal decisions, then types either the notation (classic: ``take W U G``,
``buy 2.3``, ``reserve d1``, see :data:`splendor.classic.NOTATION_HELP`; Duel:
``take c3 c4 c5``, ``gold a1``, ``reserve 2.3``, see :data:`splendor.duel.NOTATION_HELP`),
the same move in the verbs and gem letters of the game's language (``prendre B U V``,
``neem c3``: :mod:`splendor.commands`, listed by ``?``), or a number from the list. A
malformed or illegal entry gets a message saying why and a new prompt, never a crash. The
game comes from the observation (or ``game=``), and what differs per game (drawing,
notation, explanations) from :mod:`.games`.

Commands at the prompt: ``?`` (or ``help``) shows the notation and these commands,
``??`` (or ``list``) every legal decision numbered, grouped by kind, several to a line
(none summed up), ``board`` redraws the board,
``quit`` stops the game (the record is saved, unfinished). End of input (Ctrl-D, or the
end of a piped file) stops the game the same way: :class:`QuitGame` is raised. These
command words are the same in every language; what they print speaks the language of the
game (``language=``, or the one of the :class:`~.games.GameUI` given).
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import IO, Any

from rich.console import Console
from rich.text import Text

from ..commands import CommandError, command_words, to_command, translate
from ..game import games
from ..i18n import DEFAULT_LANGUAGE, Messages
from .games import GameUI, ui_for
from .render_common import command, legal_example
from .words import phase_name, tui_messages


def help_commands(t: Messages) -> str:
    """What can be typed at the prompt besides a decision, in ``t``'s language (the
    command words themselves, like the notation, are the same in every language)."""
    rows = (
        (t.gettext("<number>"), t.gettext("pick that decision from the numbered list")),
        (t.gettext("?  or  help"), t.gettext("this help: the notation and the commands")),
        (
            t.gettext("??  or  list"),
            t.gettext("every legal decision, numbered, grouped by kind (none summed up)"),
        ),
        ("board", t.gettext("draw the board again")),
        ("quit", t.gettext("stop here; the game record is saved (unfinished)")),
    )
    return "\n".join(f"{word:<18}{meaning}" for word, meaning in rows)


def language_words(ui: GameUI) -> str | None:
    """The verbs and gem letters of ``ui``'s language that the prompt accepts beside the
    notation (:mod:`splendor.commands`), for ``?``: a few lines such as ``prendre = take,
    réserver = reserve, …``, ``letters: B blanc, U bleu, …`` and an example; None when
    they are the notation's own (English, or a language not translated yet)."""
    words = command_words(ui.game, ui.language)
    english = command_words(ui.game, DEFAULT_LANGUAGE)
    if words["verbs"] == english["verbs"] and words["names"] == english["names"]:
        return None
    t = ui.t
    verbs = ", ".join(f"{' / '.join(w)} = {verb}" for verb, w in words["verbs"].items())
    colours = ", ".join(
        f"{words['letters'][e]} {' / '.join(words['names'][e])}" for e in words["letters"]
    )
    example = to_command(ui.game, ui.example, ui.language)
    lines = [
        t.gettext("Your language's words work too, beside the notation above:"),
        *textwrap.wrap(verbs, 90, initial_indent="  ", subsequent_indent="  "),
        *textwrap.wrap(
            t.gettext("letters: {letters}", letters=colours),
            90,
            initial_indent="  ",
            subsequent_indent="  ",
        ),
        "  " + t.gettext("'{command}' is '{notation}'", command=example, notation=ui.example),
    ]
    return "\n".join(lines)


HELP_COMMANDS = help_commands(tui_messages(DEFAULT_LANGUAGE))
"""The commands at the prompt, in English (:func:`help_commands` for another language)."""

_HELP_WORDS = {"?", "h", "help"}
_LIST_WORDS = {"??", "l", "ls", "list", "moves", "actions"}
_BOARD_WORDS = {"b", "board"}
_QUIT_WORDS = {"q", "quit", "exit"}


class QuitGame(Exception):
    """The person stopped the game (``quit`` or end of input); ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InputProblem(ValueError):
    """An entry that is not a usable decision; the message says why, for the person."""


def _ui_of(observation: Any, ui: GameUI | None = None, language: str = DEFAULT_LANGUAGE) -> GameUI:
    if ui is not None:
        return ui
    try:
        return ui_for(observation, language)
    except ValueError:  # not an observation: the first game's words (classic Splendor)
        return ui_for(games()[0], language)


def parse_entry(
    text: str, observation: Any, legal: Sequence[Any], *, ui: GameUI | None = None
) -> Any:
    """Turn what the person typed into one of ``legal``: a 1-based number from the list
    or an action in notation (case and spacing do not matter: ``take G W U`` and
    ``TAKE c5 c3 c4`` are fine) or in the words of the language of ``ui``
    (:mod:`splendor.commands`: ``prendre B U V``, ``neem c3``).

    Args:
        ui: the game and the language of the messages (default: the game of
            ``observation``, in English).

    Raises:
        InputProblem: empty, out-of-range number, malformed notation or an illegal action;
            the message explains and suggests what to do, in the language of ``ui``.
    """
    ui = _ui_of(observation, ui)
    t = ui.t
    entry = " ".join(text.split())
    if not entry:
        example = command(ui.name, legal_example(legal) or ui.example, ui.language)  # legal now
        raise InputProblem(
            t.gettext(
                "type an action (e.g. '{example}') or its number; '?' for help", example=example
            )
        )
    if entry.lstrip("#").isdigit():
        n = int(entry.lstrip("#"))
        if 1 <= n <= len(legal):
            return legal[n - 1]
        raise InputProblem(
            t.ngettext(
                "there is no decision number {number}: there is only {n}",
                "there is no decision number {number}: pick 1 to {n}",
                len(legal),
                number=n,
                n=len(legal),
            )
        )
    try:  # the language's words (prendre B U V, neem c3) or the notation
        notation = translate(ui.game, entry, ui.language)
    except CommandError as e:
        raise InputProblem(
            t.gettext("'{entry}' is not an action: {hint}", entry=entry, hint=str(e))
        ) from None
    try:
        action = ui.game.action_type.parse(notation)
    except ValueError as e:
        hint = ui.notation_hint(notation, str(e))
        raise InputProblem(
            t.gettext("'{entry}' is not an action: {hint}", entry=entry, hint=hint)
        ) from None
    if action in legal:
        return action
    why = ui.why_illegal(observation, action)
    typed = command(ui.name, action, ui.language)
    raise InputProblem(t.gettext("'{action}' is not legal now: {why}", action=typed, why=why))


def _default_echo() -> bool:
    try:
        return not sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


class HumanAgent:
    """A person typing decisions at the terminal.

    Args:
        name: the person's name (labels and the record).
        names: every seat's label, for the board.
        console: where to draw (default: a new rich Console on stdout).
        input_fn: reads one line given a prompt; raises EOFError at the end of input
            (default: ``console.input``). Inject one in tests.
        echo: print each line read after the prompt (default: when stdin is not a
            terminal, so that a piped session reads like a transcript).
        game: the game played (a name such as ``"duel"``, or a :class:`~.games.GameUI`);
            default: taken from each observation.
        language: the language of everything this seat prints (``"en"``, ``"fr"`` or
            ``"nl"``); a :class:`~.games.GameUI` given as ``game`` keeps its own.

    Raises:
        ValueError: an unknown game or language.
    """

    def __init__(
        self,
        name: str = "you",
        *,
        names: Sequence[str] | None = None,
        console: Console | None = None,
        input_fn: Callable[[str], str] | None = None,
        echo: bool | None = None,
        game: str | GameUI | None = None,
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.name = name
        self.names = list(names) if names is not None else None
        self.console = console or Console(highlight=False)
        self._input = input_fn
        self.echo = _default_echo() if echo is None and input_fn is None else bool(echo)
        self._drawn_turn: int | None = None
        self._ui: GameUI | None = ui_for(game, language) if isinstance(game, str) else game
        self.language = self._ui.language if self._ui is not None else language
        tui_messages(self.language)  # an unknown language fails here, not mid-game

    def ui(self, observation: Any) -> GameUI:
        """The game of ``observation`` (or the one given at construction)."""
        return _ui_of(observation, self._ui, self.language)

    # ------------------------------------------------------------------ drawing

    def show_board(self, observation: Any, legal: Sequence[Any]) -> None:
        """The board as this seat sees it, then the numbered legal decisions."""
        render = self.ui(observation).render
        self.console.print(render.render_board(observation, self.names, language=self.language))
        self.show_actions(observation, legal)

    def show_followup(self, observation: Any, legal: Sequence[Any]) -> None:
        """A later decision of the same turn (classic C9, C11, C12; Duel D9, D10, D14,
        D15, D17, D19, D20): what it is about, this seat's tokens, and the choices, without
        drawing the whole board again."""
        for part in self.ui(observation).followup(observation, self.names):
            self.console.print(part)
        self.show_actions(observation, legal)

    def show_actions(self, observation: Any, legal: Sequence[Any]) -> None:
        """The legal decisions, numbered, compact."""
        width = max(40, min(self.console.width, 120))
        render = self.ui(observation).render
        self.console.print(
            render.render_actions(observation, legal, width=width, language=self.language)
        )

    def show_help(self, observation: Any, legal: Sequence[Any]) -> None:
        """The notation, the commands and the legend (``?``), short enough to keep the
        board on screen; ``??`` or ``list`` shows the decisions (:meth:`show_list`)."""
        ui = self.ui(observation)
        t = ui.t
        title = t.gettext("How to write a decision ({game})", game=ui.title)
        self.console.print(Text(title, style="bold underline"))
        self.console.print(ui.render.colorize(ui.notation_help))
        own = language_words(ui)
        if own is not None:
            self.console.print(Text(own))
        self.console.print(Text(help_commands(t)))
        self.console.print(Text(ui.legend, style="dim"))

    def show_list(self, observation: Any, legal: Sequence[Any]) -> None:
        """Every legal decision numbered, with the card or tokens it concerns, grouped by
        kind, several to a line, none summed up (``??``, ``list``)."""
        width = max(40, min(self.console.width, 120))
        render = self.ui(observation).render
        self.console.print(
            render.render_actions(
                observation, legal, width=width, language=self.language, full=True
            )
        )

    # ------------------------------------------------------------------ input

    def _read(self, prompt: Text) -> str:
        if self._input is not None:
            line = self._input(prompt.plain)
        else:
            line = self.console.input(prompt)
        if self.echo:
            self.console.print(line, markup=False, highlight=False)
        return line

    def prompt(self, observation: Any) -> Text:
        """``ann › ``, or ``ann [payment] › `` in a later decision of a turn."""
        p = Text()
        p.append(f"{self.name}", style="bold green")
        if observation.phase != "main":
            p.append(f" [{phase_name(observation.phase, self.ui(observation).t)}]", style="magenta")
        p.append(" › ", style="bold")
        return p

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Draw the board, then read entries until one is a legal decision.

        Raises:
            QuitGame: the person typed ``quit`` or the input ended (EOF).
            KeyboardInterrupt: Ctrl-C (left to the caller, which saves the record).
        """
        ui = self.ui(observation)
        legal = list(legal_actions)
        if len(legal) == 1 and legal[0].kind == "pass":
            self.console.print(ui.render.colorize(ui.pass_note))
        if observation.phase != "main" and self._drawn_turn == observation.turn:
            self.show_followup(observation, legal)  # same turn: payment, returns, ...
        else:
            self.show_board(observation, legal)
        self._drawn_turn = observation.turn
        while True:
            try:
                line = self._read(self.prompt(observation))
            except EOFError:
                self.console.print()
                raise QuitGame("end of input") from None
            word = line.strip().lower()
            if word in _HELP_WORDS:
                self.show_help(observation, legal)
                continue
            if word in _LIST_WORDS:
                self.show_list(observation, legal)
                continue
            if word in _BOARD_WORDS:
                self.show_board(observation, legal)
                continue
            if word in _QUIT_WORDS:
                raise QuitGame("quit")
            try:
                return parse_entry(line, observation, legal, ui=ui)
            except InputProblem as e:
                problem = ui.render.colorize(str(e), language=ui.language)
                self.console.print(Text("✗ ", style="bold red") + problem)


def discard_typeahead(stream: IO[Any] | None = None) -> bool:
    """Drop the keys typed on the terminal ``stream`` (default: standard input) that were
    not read yet, so that keys pressed while the engine was preparing are not read as a
    move. Does nothing for a stream that is not a terminal (a pipe, a file: their lines are
    meant to be read). Returns whether a terminal's input was flushed."""
    stream = sys.stdin if stream is None else stream
    try:
        fd = stream.fileno()
    except (AttributeError, ValueError, OSError):  # no file descriptor (a test's StringIO)
        return False
    if not os.isatty(fd):
        return False
    try:
        import termios
    except ImportError:  # not a POSIX system
        return False
    try:
        termios.tcflush(fd, termios.TCIFLUSH)
    except (termios.error, OSError):
        return False
    return True


__all__ = [
    "HELP_COMMANDS",
    "help_commands",
    "language_words",
    "HumanAgent",
    "InputProblem",
    "QuitGame",
    "discard_typeahead",
    "parse_entry",
]
