"""What the terminal needs to know about each game: one :class:`GameUI` per game.

The game loop (:mod:`.app`) and the person at the keyboard (:mod:`.human`) are written once;
everything that differs between classic Splendor and Splendor Duel comes from the game's
descriptor (:class:`splendor.descriptor.Game`: names, player range, options, notation,
explanations) and from its :class:`GameUI`, written beside its drawing module
(:mod:`.games_classic` with :mod:`.render`, :mod:`.games_duel` with :mod:`.render_duel`,
which offer the same function names) and named by the descriptor as its ``"tui"`` part:
the intro line, what a later decision of the same turn shows, and the events worth a line
in the log.

    ui = ui_for("duel", "fr")        # or ui_for("classic"), ui_for(observation)
    ui.render.render_board(obs, names, language=ui.language)
    ui.why_illegal(obs, action)      # in French
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from ..descriptor import Game
from ..effects import Effect
from ..game import get_game
from ..i18n import DEFAULT_LANGUAGE, Messages
from . import words
from .words import tui_messages

HELP_COLUMN = 18
"""Width of the notation column of the notation help."""


@dataclass(frozen=True)
class GameUI:
    """The terminal's view of one game, in one language.

    Attributes:
        game: the game's descriptor: its names, title, player range, options, action
            class, explanations (``why_illegal``, ``notation_hint``) and example action.
        render: the drawing module; both offer ``render_board``, ``render_actions``,
            ``render_action_list``, ``render_scores``, ``result_lines``, ``phase_hint``,
            ``describe``, ``tokens_text`` and ``colorize``, each taking ``language=``.
        texts: ``texts(messages)``: the game's own sentences (:class:`GameTexts`).
        followup_of: ``followup_of(observation, names, language) -> [renderables]``, what a
            later decision of the same turn shows instead of the whole board.
        events_of: ``events_of(names, first_observation, language, person)`` builds a
            log-event tracker whose ``after(observation, seat, action)`` returns lines
            worth printing after a decision (its effects, :mod:`splendor.effects`);
            ``person`` is the seat a person plays (their events read "you take ...") or
            None.
        log_number: ``log_number(turn, num_players)``, the number printed at the start of
            each log line (classic: the round; Duel: the turn).
        language: the language of every word this view prints: ``"en"``, ``"fr"`` or
            ``"nl"`` (:meth:`in_language`).
    """

    game: Game
    render: ModuleType
    texts: Callable[[Messages], GameTexts]
    followup_of: Callable[[Any, Sequence[str] | None, str], list[RenderableType]]
    events_of: Callable[[Sequence[str], Any, str, int | None], Any]
    log_number: Callable[[int, int], int]
    language: str = DEFAULT_LANGUAGE

    def in_language(self, language: str) -> GameUI:
        """This game's view in ``language`` (``"en"``, ``"fr"`` or ``"nl"``).

        Raises:
            ValueError: an unknown language (the message lists en, fr, nl).
        """
        tui_messages(language)  # checks it
        return self if language == self.language else dataclasses.replace(self, language=language)

    @property
    def name(self) -> str:
        """The game's canonical name (``"splendor"``, ``"duel"``)."""
        return self.game.name

    @property
    def title(self) -> str:
        """The game's name for people (the same in every language)."""
        return self.game.title

    @property
    def example(self) -> str:
        """An action to show as an example (``take W U G``)."""
        return self.game.example_action

    @property
    def t(self) -> Messages:
        """The terminal's messages in this view's language."""
        return tui_messages(self.language)

    @property
    def intro(self) -> str:
        """The line shown to a person before the first move."""
        return self.texts(self.t).intro

    @property
    def legend(self) -> str:
        """Colours and card names, for ``?``."""
        return self.texts(self.t).legend

    @property
    def pass_note(self) -> str:
        """Said when passing is the only decision."""
        return self.texts(self.t).pass_note

    @property
    def notation_help(self) -> str:
        """The notation, for ``?``: one line per form (the notation, then what it does),
        in the words of the engine's ``NOTATION_HELP`` (in English, the same text)."""
        lines = []
        for notation, meaning in self.texts(self.t).notation:
            if not notation:
                lines.append(meaning)
                continue
            wrapped = textwrap.wrap(meaning, 90 - HELP_COLUMN) or [""]
            lines.append(f"{notation:<{HELP_COLUMN}}{wrapped[0]}".rstrip())
            lines += [" " * HELP_COLUMN + more for more in wrapped[1:]]
        return "\n".join(lines)

    def why_illegal(self, obs: Any, action: Any) -> str:
        """Why ``action`` is not legal in ``obs``, from the engine, in this language."""
        return str(self.game.why_illegal(obs, action, self.language))

    def notation_hint(self, entry: str, error: str) -> str:
        """How to write the decision ``entry`` meant, from the engine, in this language.
        ``error``, the parser's reason, is in English only: it is passed on (and may be
        shown) in English, and left out in another language, where the engine's hint for
        the verb says how to write it."""
        reason = error if self.language == DEFAULT_LANGUAGE else ""
        return str(self.game.notation_hint(entry, reason, self.language))

    def describe(self, obs: Any, action: Any) -> str:
        """``action`` with the card it concerns (``buy 1.2: L1 K 0pt [3W 2U]``)."""
        return str(self.render.describe(obs, action, language=self.language))

    def followup(self, obs: Any, names: Sequence[str] | None) -> list[RenderableType]:
        """What a later decision of the same turn shows instead of the whole board."""
        return self.followup_of(obs, names, self.language)

    def events(self, names: Sequence[str], first: Any, person: int | None = None) -> Any:
        """A log-event tracker for a game that starts at ``first`` (see ``events_of``)."""
        return self.events_of(names, first, self.language, person)


@dataclass(frozen=True)
class GameTexts:
    """A game's own sentences in one language.

    Attributes:
        intro: the line shown to a person before the first move.
        legend: colours and card names, for ``?``.
        pass_note: said when passing is the only decision.
        notation: ``(notation, what it does)`` per line of the notation help; an empty
            notation is a line of its own.
    """

    intro: str
    legend: str
    pass_note: str
    notation: tuple[tuple[str, str], ...]


def your_tokens(obs: Any, render_module: ModuleType, t: Messages) -> Text:
    """``your tokens W2 U1 … = 5``: the observing seat's tokens, drawn by ``render_module``
    in the letters of ``t``'s language."""
    me = obs.player(obs.seat)
    mine = Text(t.gettext("your tokens") + " ", style="bold")
    mine.append_text(render_module.tokens_text(me.tokens, language=t.language))
    mine.append(f" = {me.num_tokens}", style="dim")
    return mine


class Teller:
    """What the log-event trackers share: seat names, which seat is the person's, and the
    observation before each decision, to find its effects (:mod:`splendor.effects`: what
    the rules did besides the decision's notation) and tell each with :meth:`tell`."""

    def __init__(
        self,
        names: Sequence[str],
        first: Any,
        language: str = DEFAULT_LANGUAGE,
        person: int | None = None,
    ) -> None:
        self.names = list(names)
        self.t = tui_messages(language)
        self.person = person
        self.before = first

    def is_person(self, seat: int) -> bool:
        return seat == self.person or words.is_you(self.names[seat], self.t)

    @staticmethod
    def effects_of(before: Any, action: Any, after: Any) -> tuple[Effect, ...]:
        """The game's :func:`effects_of` (``splendor.classic`` or ``splendor.duel``)."""
        raise NotImplementedError

    def tell(self, effect: Effect, obs: Any) -> Text:
        """One effect as a line of the log (without its indent)."""
        raise NotImplementedError

    def after(self, obs: Any, seat: int, action: Any) -> list[Text]:
        """The lines to print after ``seat`` played ``action``, which led to ``obs`` (an
        observation: only public facts are read, C16, D22)."""
        found = self.effects_of(self.before, action, obs)
        self.before = obs
        return [Text("        ") + self.tell(e, obs) for e in found]


def ui_for(game: str | Game | Any, language: str = DEFAULT_LANGUAGE) -> GameUI:
    """The :class:`GameUI` of a game (its name, with the aliases of
    :func:`splendor.game.get_game`, or its descriptor) or of an observation of a game,
    speaking ``language``: the descriptor's ``"tui"`` part.

    Raises:
        ValueError: an unknown game name (the message lists the known ones), something
            that is no observation, a game the terminal does not serve, or an unknown
            language.
    """
    if isinstance(game, (str, Game)):
        descriptor = get_game(game)
    else:
        found = getattr(game, "game", None)
        if not isinstance(found, Game) or not isinstance(game, found.observation_type):
            raise ValueError(f"the terminal cannot draw a {type(game).__name__}")
        descriptor = found
    try:
        ui: GameUI = descriptor.part("tui")
    except KeyError:
        raise ValueError(f"the terminal does not serve the game {descriptor.name!r} yet") from None
    return ui.in_language(language)


__all__ = ["GameTexts", "GameUI", "Teller", "ui_for", "your_tokens"]
