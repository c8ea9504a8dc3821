"""What the terminal needs to know about each game: one :class:`GameUI` per registered game.

The game loop (:mod:`.app`) and the person at the keyboard (:mod:`.human`) are written once;
everything that differs between classic Splendor and Splendor Duel comes from this table:
the engine module, the drawing module (:mod:`.render` or :mod:`.render_duel`, which offer
the same function names), the notation help, the "why is this illegal" explainer, the intro
line, what a later decision of the same turn shows, and the events worth a line in the log.

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

from .. import classic, duel
from ..classic import explain
from ..descriptor import Game
from ..duel import explain as explain_duel
from ..effects import Effect
from ..game import get_game
from ..i18n import DEFAULT_LANGUAGE, Messages
from . import render, render_duel, words
from .words import tui_messages

HELP_COLUMN = 18
"""Width of the notation column of the notation help."""


@dataclass(frozen=True)
class GameUI:
    """The terminal's view of one game, in one language.

    Attributes:
        name: the registered game name (``"splendor"`` or ``"duel"``).
        title: the game's name for people (the same in every language).
        module: the engine (:mod:`splendor.classic` or :mod:`splendor.duel`).
        render: the drawing module; both offer ``render_board``, ``render_actions``,
            ``render_action_list``, ``render_scores``, ``result_lines``, ``phase_hint``,
            ``describe``, ``tokens_text`` and ``colorize``, each taking ``language=``.
        explain: the engine's explanations (``why_illegal``, ``notation_hint``, each taking
            a language).
        example: an action to show as an example (``take W U G``).
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

    name: str
    title: str
    module: ModuleType
    render: ModuleType
    explain: ModuleType
    example: str
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
        return str(self.explain.why_illegal(obs, action, self.language))

    def notation_hint(self, entry: str, error: str) -> str:
        """How to write the decision ``entry`` meant, from the engine, in this language.
        ``error``, the parser's reason, is in English only: it is passed on (and may be
        shown) in English, and left out in another language, where the engine's hint for
        the verb says how to write it."""
        reason = error if self.language == DEFAULT_LANGUAGE else ""
        return str(self.explain.notation_hint(entry, reason, self.language))

    def describe(self, obs: Any, action: Any) -> str:
        """``action`` with the card it concerns (``buy 1.2: L1 K 0pt [3W 2U]``)."""
        return str(self.render.describe(obs, action, language=self.language))

    def followup(self, obs: Any, names: Sequence[str] | None) -> list[RenderableType]:
        """What a later decision of the same turn shows instead of the whole board."""
        return self.followup_of(obs, names, self.language)

    def events(self, names: Sequence[str], first: Any, person: int | None = None) -> Any:
        """A log-event tracker for a game that starts at ``first`` (see ``events_of``)."""
        return self.events_of(names, first, self.language, person)

    def is_observation(self, obs: Any) -> bool:
        """Whether ``obs`` is an observation of this game."""
        return isinstance(obs, self.module.Observation)


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


def _your_tokens(obs: Any, render_module: ModuleType, t: Messages) -> Text:
    me = obs.player(obs.seat)
    mine = Text(t.gettext("your tokens") + " ", style="bold")
    mine.append_text(render_module.tokens_text(me.tokens))
    mine.append(f" = {me.num_tokens}", style="dim")
    return mine


class _Teller:
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


# ----------------------------------------------------------------------------- classic


def _classic_texts(t: Messages) -> GameTexts:
    return GameTexts(
        intro=t.gettext(
            "Type an action ('take W U G', 'buy 1.2', 'reserve d1') or its number; "
            "'?' for help, 'quit' to stop."
        ),
        legend=t.gettext(
            "Colours: W white, U blue, G green, R red, K black, * gold. Cards are "
            "level.slot (slots 1-4 from the left); r1-r3 are your reserved cards."
        ),
        pass_note=t.gettext("no legal action but to pass (C17): type 'pass' or 1"),
        notation=(
            (
                "take W U G",
                t.gettext("take 3 gem tokens of different colours (letters W U G R K)"),
            ),
            (
                "take W U / take W",
                t.gettext("only when fewer than 3 gem colours are left in the supply"),
            ),
            ("take R R", t.gettext("take 2 tokens of one colour (its pile must hold 4 or more)")),
            (
                "reserve 2.3",
                t.gettext("reserve face-up card: level 2, slot 3 (levels 1-3, slots 1-4)"),
            ),
            (
                "reserve d2",
                t.gettext("reserve the top card of the level-2 deck without looking (blind)"),
            ),
            (
                "buy 2.3",
                t.gettext("buy a face-up card (default payment: coloured tokens first, then gold)"),
            ),
            ("buy r1", t.gettext("buy your reserved card 1 (1-3)")),
            (
                "buy 2.3 choose",
                t.gettext(
                    "buy, then choose the payment: 'gold W' spends a gold for a W, 'pay' ends "
                    "(offered only when you hold spare gold, so a payment choice exists)"
                ),
            ),
            ("return W", t.gettext("return one token when above 10 (return * for gold)")),
            (
                "noble 2",
                t.gettext("choose the noble in slot 2 of the noble row (when several visit you)"),
            ),
            ("pass", t.gettext("only when no other action is legal")),
        ),
    )


def _classic_followup(
    obs: Any, names: Sequence[str] | None, language: str = DEFAULT_LANGUAGE
) -> list[RenderableType]:
    parts: list[RenderableType] = []
    hint = render.phase_hint(obs, names, language=language)
    if hint is not None:
        parts.append(hint)
    parts.append(_your_tokens(obs, render, tui_messages(language)))
    return parts


class _ClassicEvents(_Teller):
    """The effects of each decision (a noble's visit, C12: :mod:`splendor.effects`) and the
    start of the final round (C14), told once."""

    def __init__(
        self,
        names: Sequence[str],
        first: Any,
        language: str = DEFAULT_LANGUAGE,
        person: int | None = None,
    ) -> None:
        super().__init__(names, first, language, person)
        self.final_round_told = False

    effects_of = staticmethod(classic.effects_of)

    def tell(self, effect: Effect, obs: Any) -> Text:
        t = self.t
        if effect.kind != "noble":
            raise ValueError(f"classic Splendor has no {effect.kind!r} effect")
        if self.is_person(effect.seat):
            text = t.gettext("a noble visits you: {noble}")
        else:
            text = t.gettext("a noble visits {name}: {noble}")
        noble = render.noble_text(classic.NOBLES[effect.item], language=t.language)
        return words.rich_format(text, "bold yellow", name=self.names[effect.seat], noble=noble)

    def after(self, obs: Any, seat: int, action: Any) -> list[Text]:
        t = self.t
        lines = super().after(obs, seat, action)
        if obs.final_round and not self.final_round_told:
            self.final_round_told = True
            pts = obs.player(seat).points
            if self.is_person(seat):
                text = t.ngettext(
                    "final round: you have {n} point (C14)",
                    "final round: you have {n} points (C14)",
                    pts,
                    n=pts,
                )
            else:
                text = t.ngettext(
                    "final round: {name} has {n} point (C14)",
                    "final round: {name} has {n} points (C14)",
                    pts,
                    name=self.names[seat],
                    n=pts,
                )
            lines.append(Text("        " + text, style="bold red"))
        return lines


CLASSIC = GameUI(
    name=classic.GAME_NAME,
    title="Splendor",
    module=classic,
    render=render,
    explain=explain,
    example="take W U G",
    texts=_classic_texts,
    followup_of=_classic_followup,
    events_of=_ClassicEvents,
    log_number=lambda turn, n: turn // n + 1,
)


# ----------------------------------------------------------------------------- duel


def _duel_texts(t: Messages) -> GameTexts:
    return GameTexts(
        intro=t.gettext(
            "Type an action ('take c3 c4 c5', 'buy 1.2', 'gold a1' then 'reserve 2.3') or its "
            "number; '?' for help, 'quit' to stop."
        ),
        legend=t.gettext(
            "Colours: W white, U blue, G green, R red, K black, P pearl, * gold. Cells: columns "
            "a-e from the left, rows 1-5 from the top (c3 is the centre). Pyramid cards are "
            "level.slot (level 1: slots 1-5, level 2: 1-4, level 3: 1-3); r1-r3 are your "
            "reserved cards; royal cards are 1-4."
        ),
        pass_note=t.gettext("no decision is possible but to pass: type 'pass' or 1"),
        notation=(
            (
                "privilege c3",
                t.gettext(
                    "before your action: spend a privilege to take the token on c3 (any gem or "
                    "pearl, never gold); repeat for each privilege you spend"
                ),
            ),
            (
                "replenish",
                t.gettext(
                    "before your action: refill the board from the bag (your opponent gets a "
                    "privilege); forced when you could do nothing else"
                ),
            ),
            (
                "take c3 c4 c5",
                t.gettext(
                    "take 1-3 tokens on adjacent cells in one row, column or diagonal (no gap, "
                    "no gold); 3 of one colour or both pearls give your opponent a privilege"
                ),
            ),
            ("gold c3", t.gettext("take the gold on c3 to reserve a card, then:")),
            (
                "  reserve 2.3",
                t.gettext(
                    "reserve the pyramid card of level 2, slot 3 (level 1: slots 1-5, level 2: "
                    "1-4, level 3: 1-3), or"
                ),
            ),
            (
                "  reserve d2",
                t.gettext("reserve the top card of the level-2 deck without looking (blind)"),
            ),
            (
                "buy 2.3",
                t.gettext(
                    "buy a pyramid card (default payment: coloured tokens and pearls first, "
                    "then gold)"
                ),
            ),
            ("buy r1", t.gettext("buy your reserved card 1 (1-3)")),
            (
                "buy 2.3 choose",
                t.gettext(
                    "buy, then choose the payment: 'gold W' spends a gold for a W ('gold P' "
                    "for a pearl), 'pay' ends (offered only when you hold spare gold)"
                ),
            ),
            ("joker W", t.gettext("attach the joker you bought to your white cards (W U G R K)")),
            ("token c3", t.gettext("a 'token' card: take the token of its colour on c3")),
            (
                "steal W",
                t.gettext("a 'steal' card: take a W token from your opponent (W U G R K P)"),
            ),
            ("royal 2", t.gettext("take royal card 2 (at 3 and at 6 crowns)")),
            ("return W", t.gettext("return one token when above 10 (W U G R K P, * for gold)")),
            ("pass", t.gettext("only when nothing else is possible")),
            (
                "",
                t.gettext(
                    "Cells: columns a-e from the left, rows 1-5 from the top (c3 is the centre)."
                ),
            ),
        ),
    )


def _duel_followup(
    obs: Any, names: Sequence[str] | None, language: str = DEFAULT_LANGUAGE
) -> list[RenderableType]:
    """A later decision of a duel turn: what it is about, and what it needs to be seen
    (the board for a token, the opponent's tokens for a steal, the royal cards)."""
    t = tui_messages(language)
    parts: list[RenderableType] = []
    hint = render_duel.phase_hint(obs, names, language=language)
    if hint is not None:
        parts.append(hint)
    if obs.phase == "token":
        parts.append(render_duel.board_grid(obs))
    mine = _your_tokens(obs, render_duel, t)
    if obs.phase in ("payment", "joker"):
        mine.append("  " + t.gettext("bonuses") + " ", style="bold")
        mine.append_text(render_duel.tokens_text(obs.player(obs.seat).bonuses))
    parts.append(mine)
    return parts


class _DuelEvents(_Teller):
    """The effects of each decision (:func:`splendor.duel.effects_of`): the engine makes
    single-option choices itself (D14 joker, D15 token, D17 steal, D19 royal card), and
    privileges (D7, D8, D16, D18) and extra turns (D13) are in no notation, so all of
    them are told here."""

    effects_of = staticmethod(duel.effects_of)

    def tell(self, effect: Effect, obs: Any) -> Text:
        t = self.t
        you = self.is_person(effect.seat)
        name = self.names[effect.seat]
        other = self.names[effect.source] if effect.source >= 0 else ""
        chip = render_duel.chip(effect.color) if effect.color >= 0 else Text("")
        if effect.kind == "royal":
            if you:
                text = t.gettext("royal card {number} goes to you: {royal}")
            else:
                text = t.gettext("royal card {number} goes to {name}: {royal}")
            shown = render_duel.royal_text(duel.ROYALS[effect.item], language=t.language)
            return words.rich_format(
                text, "bold yellow", number=effect.item + 1, name=name, royal=shown
            )
        if effect.kind == "privilege":
            held = obs.player(effect.seat).privileges
            n = effect.count
            if effect.source >= 0 and you:
                text = t.ngettext(
                    "you take a privilege from {other} ({held} held)",
                    "you take {n} privileges from {other} ({held} held)",
                    n,
                    n=n,
                    other=other,
                    held=held,
                )
            elif effect.source >= 0 and self.is_person(effect.source):
                text = t.ngettext(
                    "{name} takes a privilege from you ({held} held)",
                    "{name} takes {n} privileges from you ({held} held)",
                    n,
                    n=n,
                    name=name,
                    held=held,
                )
            elif effect.source >= 0:
                text = t.ngettext(
                    "{name} takes a privilege from {other} ({held} held)",
                    "{name} takes {n} privileges from {other} ({held} held)",
                    n,
                    n=n,
                    name=name,
                    other=other,
                    held=held,
                )
            elif you:
                text = t.ngettext(
                    "you take a privilege ({held} held)",
                    "you take {n} privileges ({held} held)",
                    n,
                    n=n,
                    held=held,
                )
            else:
                text = t.ngettext(
                    "{name} takes a privilege ({held} held)",
                    "{name} takes {n} privileges ({held} held)",
                    n,
                    name=name,
                    n=n,
                    held=held,
                )
            return Text(text, style="cyan")
        if effect.kind == "token":
            if you:
                text = t.gettext("you take the {token} token on {cell} (card ability, D15)")
            else:
                text = t.gettext("{name} takes the {token} token on {cell} (card ability, D15)")
            return words.rich_format(text, "cyan", name=name, token=chip, cell=effect.cell)
        if effect.kind == "steal":
            if you:
                text = t.gettext("you steal one {token} token from {other} (D17)")
            elif self.is_person(effect.source):
                text = t.gettext("{name} steals one {token} token from you (D17)")
            else:
                text = t.gettext("{name} steals one {token} token from {other} (D17)")
            return words.rich_format(text, "cyan", name=name, other=other, token=chip)
        if effect.kind == "joker":
            if you:
                text = t.gettext("your joker card takes the colour {token} (D14)")
            else:
                text = t.gettext("the joker card of {name} takes the colour {token} (D14)")
            return words.rich_format(text, "cyan", name=name, token=chip)
        if effect.kind == "again":
            if you:
                return Text(t.gettext("you play again (D13)"), style="bold")
            return Text(t.gettext("{name} plays again (D13)", name=name), style="bold")
        raise ValueError(f"Splendor Duel has no {effect.kind!r} effect")


DUEL = GameUI(
    name=duel.GAME_NAME,
    title="Splendor Duel",
    module=duel,
    render=render_duel,
    explain=explain_duel,
    example="take c3 c4 c5",
    texts=_duel_texts,
    followup_of=_duel_followup,
    events_of=_DuelEvents,
    log_number=lambda turn, n: turn + 1,
)


GAME_UIS: dict[str, GameUI] = {CLASSIC.name: CLASSIC, DUEL.name: DUEL}
"""The terminal's table of games, by registered name (in English; see
:meth:`GameUI.in_language`)."""


def ui_for(game: str | Game | Any, language: str = DEFAULT_LANGUAGE) -> GameUI:
    """The :class:`GameUI` of a game name (aliases accepted, see
    :func:`splendor.game.get_game`), a game module, or an observation of a game, speaking
    ``language``.

    Raises:
        ValueError: an unknown game name (the message lists the known ones), a game the
            terminal does not serve, or an unknown language.
    """
    if isinstance(game, str):
        module = get_game(game)
    elif isinstance(game, Game):
        module = game
    else:
        for candidate in GAME_UIS.values():
            if candidate.is_observation(game):
                return candidate.in_language(language)
        raise ValueError(f"the terminal cannot draw a {type(game).__name__}")
    ui = GAME_UIS.get(module.GAME_NAME)
    if ui is None:
        raise ValueError(f"the terminal does not serve the game {module.GAME_NAME!r} yet")
    return ui.in_language(language)


__all__ = ["CLASSIC", "DUEL", "GAME_UIS", "GameTexts", "GameUI", "ui_for"]
