"""Classic Splendor in the terminal (:class:`~.games.GameUI`, the ``"tui"`` part of
:data:`splendor.classic.game.GAME`): drawn by :mod:`.render`; its sentences, what a later
decision of a turn shows, and the log's events (a noble's visit, C12; the final round,
C14)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from ..classic.game import GAME
from ..effects import Effect
from ..i18n import DEFAULT_LANGUAGE, Messages
from . import render, words
from .games import GameTexts, GameUI, Teller, your_tokens
from .words import tui_messages


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
    parts.append(your_tokens(obs, render, tui_messages(language)))
    return parts


class _ClassicEvents(Teller):
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

    effects_of = staticmethod(GAME.effects_of)

    def tell(self, effect: Effect, obs: Any) -> Text:
        t = self.t
        if effect.kind != "noble":
            raise ValueError(f"classic Splendor has no {effect.kind!r} effect")
        if self.is_person(effect.seat):
            text = t.gettext("a noble visits you: {noble}")
        else:
            text = t.gettext("a noble visits {name}: {noble}")
        noble = render.noble_text(GAME.tiles[effect.item], language=t.language)
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
    game=GAME,
    render=render,
    texts=_classic_texts,
    followup_of=_classic_followup,
    events_of=_ClassicEvents,
    log_number=lambda turn, n: turn // n + 1,
)
"""Classic Splendor in the terminal, in English (:meth:`GameUI.in_language`)."""

__all__ = ["CLASSIC"]
