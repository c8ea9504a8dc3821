"""Splendor Duel in the terminal (:class:`~.games.GameUI`, the ``"tui"`` part of
:data:`splendor.duel.game.GAME`): drawn by :mod:`.render_duel`; its sentences, what a later
decision of a turn shows (the board for a token, the opponent's tokens for a steal), and the
log's events (royal cards, privileges, abilities, extra turns)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from ..duel.game import GAME
from ..effects import Effect
from ..i18n import DEFAULT_LANGUAGE, Messages
from . import render_duel, words
from .games import GameTexts, GameUI, Teller, your_tokens
from .words import tui_messages


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
        parts.append(render_duel.board_grid(obs, language=language))
    mine = your_tokens(obs, render_duel, t)
    if obs.phase in ("payment", "joker"):
        mine.append("  " + t.gettext("bonuses") + " ", style="bold")
        mine.append_text(render_duel.tokens_text(obs.player(obs.seat).bonuses, language=language))
    parts.append(mine)
    return parts


class _DuelEvents(Teller):
    """The effects of each decision (:func:`splendor.duel.effects_of`): the engine makes
    single-option choices itself (D14 joker, D15 token, D17 steal, D19 royal card), and
    privileges (D7, D8, D16, D18) and extra turns (D13) are in no notation, so all of
    them are told here."""

    effects_of = staticmethod(GAME.effects_of)

    def tell(self, effect: Effect, obs: Any) -> Text:
        """One effect as a line of the log: a royal card, privileges, a card's token or
        steal ability, a joker's colour, or an extra turn."""
        teller = getattr(self, f"_tell_{effect.kind}", None)
        if teller is None:
            raise ValueError(f"Splendor Duel has no {effect.kind!r} effect")
        line: Text = teller(effect, obs, self.is_person(effect.seat))
        return line

    def _other(self, effect: Effect) -> str:
        """The name of the seat an effect took from (none: ``""``)."""
        return self.names[effect.source] if effect.source >= 0 else ""

    def _chip(self, effect: Effect) -> Text:
        if effect.color < 0:
            return Text("")
        return render_duel.chip(effect.color, language=self.t.language)

    def _tell_royal(self, effect: Effect, obs: Any, you: bool) -> Text:
        t = self.t
        if you:
            text = t.gettext("royal card {number} goes to you: {royal}")
        else:
            text = t.gettext("royal card {number} goes to {name}: {royal}")
        shown = render_duel.royal_text(GAME.tiles[effect.item], language=t.language)
        return words.rich_format(
            text, "bold yellow", number=effect.item + 1, name=self.names[effect.seat], royal=shown
        )

    def _tell_privilege(self, effect: Effect, obs: Any, you: bool) -> Text:
        t, n, name, other = self.t, effect.count, self.names[effect.seat], self._other(effect)
        held = obs.player(effect.seat).privileges
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

    def _tell_token(self, effect: Effect, obs: Any, you: bool) -> Text:
        t = self.t
        if you:
            text = t.gettext("you take the {token} token on {cell} (card ability, D15)")
        else:
            text = t.gettext("{name} takes the {token} token on {cell} (card ability, D15)")
        return words.rich_format(
            text, "cyan", name=self.names[effect.seat], token=self._chip(effect), cell=effect.cell
        )

    def _tell_steal(self, effect: Effect, obs: Any, you: bool) -> Text:
        t = self.t
        if you:
            text = t.gettext("you steal one {token} token from {other} (D17)")
        elif self.is_person(effect.source):
            text = t.gettext("{name} steals one {token} token from you (D17)")
        else:
            text = t.gettext("{name} steals one {token} token from {other} (D17)")
        return words.rich_format(
            text,
            "cyan",
            name=self.names[effect.seat],
            other=self._other(effect),
            token=self._chip(effect),
        )

    def _tell_joker(self, effect: Effect, obs: Any, you: bool) -> Text:
        t = self.t
        if you:
            text = t.gettext("your joker card takes the colour {token} (D14)")
        else:
            text = t.gettext("the joker card of {name} takes the colour {token} (D14)")
        return words.rich_format(
            text, "cyan", name=self.names[effect.seat], token=self._chip(effect)
        )

    def _tell_again(self, effect: Effect, obs: Any, you: bool) -> Text:
        t = self.t
        if you:
            return Text(t.gettext("you play again (D13)"), style="bold")
        name = self.names[effect.seat]
        return Text(t.gettext("{name} plays again (D13)", name=name), style="bold")


DUEL = GameUI(
    game=GAME,
    render=render_duel,
    texts=_duel_texts,
    followup_of=_duel_followup,
    events_of=_DuelEvents,
    log_number=lambda turn, n: turn + 1,
)
"""Splendor Duel in the terminal, in English (:meth:`GameUI.in_language`)."""

__all__ = ["DUEL"]
