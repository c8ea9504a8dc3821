"""Drawing classic Splendor in the terminal with rich.

Every function here draws from an :class:`~splendor.classic.Observation` (what one seat may
see, C16), never from a full :class:`~splendor.classic.State`: another seat's blind-reserved
card is a :class:`~splendor.classic.HiddenCard` in the observation and is drawn as its level
only. :func:`render_board` refuses a full state outright.

Colours: every token and bonus is drawn as a small chip with an explicit foreground and
background (so it reads on dark and light terminals alike) and always carries its letter,
so the board still works without colour. The letters are the language's
(``language=``, :func:`.render_common.shown_letters`: ``W U G R K *`` in English, ``B U V R
N O`` in French), and so are the verbs and letters of the numbered list; the notation
stays English in the records. What this drawing shares with Duel's (:mod:`.render_duel`)
is written once in :mod:`.render_common`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..classic import Card, HiddenCard, Noble, Observation
from ..classic.rules import TOKEN_LIMIT
from ..classic.state import to_action
from ..colors import NUM_GEMS
from ..i18n import DEFAULT_LANGUAGE, Messages
from . import render_common as common
from . import words
from .render_common import (
    EMPTY_STYLE,
    GEM_STYLES,
    GOLD_STYLE,
    POINTS_STYLE,
    result_lines,
    seat_label,
)
from .words import points_short, rich_format, tui_messages

TOKEN_STYLES: tuple[str, ...] = (*GEM_STYLES, GOLD_STYLE)
"""Rich style of each token colour, in token order W U G R K *."""

GAME = "splendor"
"""The game's name in :mod:`splendor.commands` (its letters and verbs)."""


def letters(language: str = DEFAULT_LANGUAGE) -> str:
    """The token letters a person reads in ``language``, in colour order W U G R K *
    (:func:`.render_common.shown_letters`)."""
    return common.shown_letters(GAME, language)


def chip(color: int, count: int | None = None, *, language: str = DEFAULT_LANGUAGE) -> Text:
    """A coloured chip for token colour ``color`` (0..5): ``W`` or, with a count, ``3W``,
    in the letters of ``language`` (French ``B``, ``3B``)."""
    return common.token_chip(color, count, letters(language), TOKEN_STYLES)


def _chips(language: str) -> common.Chip:
    return functools.partial(chip, language=language)


def colorize(text: str, style: str = "", *, language: str = DEFAULT_LANGUAGE) -> Text:
    """``text`` with every token letter of ``language`` (English ``W U G R K *``, French
    ``B U V R N O``; with an optional count as in ``3W``) drawn as a coloured chip; used
    for moves and card descriptions written in that language (the English notation with
    the default)."""
    shown = letters(language)
    pattern = common.token_pattern(shown)
    return common.colorize_tokens(text, style, pattern, common.letter_styles(shown, TOKEN_STYLES))


def cost_text(cost: Sequence[int], *, language: str = DEFAULT_LANGUAGE) -> Text:
    """A card cost or noble requirement: ``3W 2U 1R`` with coloured chips (the letters of
    ``language``)."""
    return common.counts_text(cost[:NUM_GEMS], _chips(language))


def card_words(card: Card | HiddenCard | None, language: str = DEFAULT_LANGUAGE) -> str:
    """A development card in one line of text, as ``str(card)`` writes it
    (``L1 K 0pt [3W 2U]``) with its words and letters in ``language`` (French ``L1 N 0 pt
    [3B 2U]``); a hidden card is its level only (C16); ``None`` an empty slot."""
    t = tui_messages(language)
    if card is None or isinstance(card, HiddenCard):
        return common.unseen_card_words(card, t)
    shown = letters(language)
    cost = " ".join(f"{n}{shown[c]}" for c, n in enumerate(card.cost) if n)
    return f"L{card.level} {shown[card.bonus]} {points_short(card.points, t)} [{cost}]"


def card_text(
    card: Card | HiddenCard | None,
    label: str = "",
    *,
    two_lines: bool = False,
    language: str = DEFAULT_LANGUAGE,
) -> Text:
    """One development card: ``label``, bonus chip, points and cost; a hidden card shows
    its level only; ``None`` is an empty slot.

    With ``two_lines`` the cost goes on a second line (for the face-up grid).
    """
    t = tui_messages(language)
    out = common.card_start(card, label, t)
    if card is None or isinstance(card, HiddenCard):
        return out
    if not two_lines:
        out.append(f"L{card.level} ", style="dim")
    out.append_text(chip(card.bonus, language=language))
    out.append(" ")
    out.append_text(common.card_points(card.points, t))
    out.append("\n" if two_lines else " ")
    out.append_text(cost_text(card.cost, language=language))
    return out


def noble_text(noble: Noble, slot: int | None = None, *, language: str = DEFAULT_LANGUAGE) -> Text:
    """A noble tile: ``[2] 3pt 4W 4U`` (slot number, points, required bonuses)."""
    out = Text()
    if slot is not None:
        out.append(f"[{slot}] ", style="bold cyan")
    out.append(points_short(noble.points, tui_messages(language)) + " ", style=POINTS_STYLE)
    out.append_text(cost_text(noble.requirement, language=language))
    return out


def tokens_text(
    tokens: Sequence[int], *, show_zero: bool = True, language: str = DEFAULT_LANGUAGE
) -> Text:
    """Token counts per colour (length 5 or 6), each as a chip: ``2W 0U 1G ...`` (the
    letters of ``language``); a zero count dimmed, or left out when not ``show_zero``."""
    return common.tokens_text(tokens, _chips(language), show_zero=show_zero)


# ----------------------------------------------------------------------------- board


def _require_observation(obs: Any) -> Observation:
    return common.require_observation(obs, Observation)


def status_line(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    you: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Text:
    """Round, whose turn it is and the decision they owe (or the result once over).
    ``you``: the observing seat is the person looking (else a spectator of bots)."""
    t = tui_messages(language)
    n = obs.num_players
    out = Text()
    if obs.current_player is None:
        out.append(common.game_over(obs.turn, t), style="bold red")
        return out
    out.append(t.gettext("round {n}", n=obs.turn // n + 1), style="bold")
    out.append(" · " + t.gettext("turn {n}", n=obs.turn + 1))
    common.append_turn_owner(out, obs, names, you, t)
    if obs.final_round:
        out.append(" · " + t.gettext("final round"), style="bold red")
    return out


def phase_hint(
    obs: Observation, names: Sequence[str] | None = None, *, language: str = DEFAULT_LANGUAGE
) -> Text | None:
    """What the current decision is about when it is not a main action (C9, C11, C12)."""
    t = tui_messages(language)
    cur = obs.current_player
    if cur is None or obs.phase == "main":
        return None
    if obs.phase == "payment" and obs.payment is not None:
        card, need, gold = obs.payment
        owed = cost_text(need, language=language)
        return rich_format(
            t.gettext(
                "paying for {card} · still owed {owed} · gold spent: {gold} · '{spend}' "
                "spends a gold for a {letter}, '{finish}' finishes (C9)"
            ),
            card=card_text(card, language=language),
            owed=owed if owed else Text(t.gettext("nothing")),
            gold=gold,
            spend=common.command(GAME, "gold W", language),
            letter=letters(language)[0],
            finish=common.command(GAME, "pay", language),
        )
    if obs.phase == "return tokens":
        held = obs.player(cur).num_tokens
        back = held - TOKEN_LIMIT
        if cur == obs.seat:
            text = t.ngettext(
                "you hold {held} tokens: return {n} token (limit 10, C11)",
                "you hold {held} tokens: return {n} tokens (limit 10, C11)",
                back,
                held=held,
                n=back,
            )
        else:
            text = t.ngettext(
                "{name} holds {held} tokens and returns {n} token (limit 10, C11)",
                "{name} holds {held} tokens and returns {n} tokens (limit 10, C11)",
                back,
                name=words.seat_label(names, cur, t),
                held=held,
                n=back,
            )
        return Text(text)
    if obs.phase == "choose noble":
        verb = common.command(GAME, "noble 1", language).split()[0]
        return Text(
            t.gettext(
                "several nobles would visit: choose one with '{command}' (C12)",
                command=f"{verb} N",
            )
        )
    return None


def faceup_table(obs: Observation, *, language: str = DEFAULT_LANGUAGE) -> Table:
    """The 12 face-up cards, level 3 on top, with the deck sizes; empty slots shown."""
    t = tui_messages(language)
    table = common.cards_table(t, 4, slot_width=12)
    sizes = obs.deck_sizes
    for lvl in (3, 2, 1):
        left = t.ngettext("{n} left", "{n} left", sizes[lvl - 1], n=f"{sizes[lvl - 1]:2d}")
        row: list[RenderableType] = [Text(f"L{lvl}\n{left}", style="bold")]
        for slot, card in enumerate(obs.faceup[lvl - 1], start=1):
            row.append(card_text(card, f"{lvl}.{slot}", two_lines=True, language=language))
        table.add_row(*row)
    return table


def supply_line(obs: Observation, *, language: str = DEFAULT_LANGUAGE) -> Text:
    """The token supply, then the noble row on a line of its own."""
    t = tui_messages(language)
    supply, nobles = t.gettext("supply"), t.gettext("nobles")
    width = max(len(supply), len(nobles))
    out = Text(supply.ljust(width) + " ", style="bold")
    out.append_text(tokens_text(obs.supply, language=language))
    out.append("\n" + nobles.ljust(width) + " ", style="bold")
    shown = [(slot, n) for slot, n in enumerate(obs.nobles, start=1) if n is not None]
    if not shown:
        out.append(t.gettext("none left"), style=EMPTY_STYLE)
    for i, (slot, noble) in enumerate(shown):
        if i:
            out.append("  ")
        out.append_text(noble_text(noble, slot, language=language))
    return out


def players_table(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    you: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Table:
    """Every seat: points, tokens, bonuses, nobles, reserved cards (others' blind ones as
    their level only), with the seat to play marked."""
    t = tui_messages(language)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column(t.gettext("player"), no_wrap=True)
    table.add_column(t.gettext("pts"), justify="right", style=POINTS_STYLE)
    table.add_column(t.gettext("tokens / card bonuses"), no_wrap=True)
    table.add_column(t.gettext("reserved"), no_wrap=True)
    tok_label, bon_label = t.gettext("tok"), t.gettext("bon")
    width = max(len(tok_label), len(bon_label))
    tok_label, bon_label = tok_label.ljust(width) + " ", bon_label.ljust(width) + " "

    def reserved_card(card: Card | HiddenCard, label: str) -> Text:
        return card_text(card, label, language=language)

    def row(tokens: Sequence[int]) -> Text:
        return tokens_text(tokens, language=language)

    for p in obs.players:
        who = common.seat_cell(obs, p, names, you, t)
        cards = len(p.purchased)
        who.append("\n    " + t.ngettext("{n} card", "{n} cards", cards, n=cards))
        if p.nobles:
            nobles = len(p.nobles)
            who.append("\n    " + t.ngettext("{n} noble", "{n} nobles", nobles, n=nobles))
        tok = common.token_rows(p, row, tok_label, bon_label, TOKEN_LIMIT)
        res = common.reserved_text(p, reserved_card, t)
        table.add_row(who, Text(str(p.points)), tok, res, end_section=True)
    return table


def render_board(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    you: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Panel:
    """The whole board as seat ``obs.seat`` sees it: status, supply and nobles, face-up
    cards and decks, every player. ``you=False`` drops "your move" and "(you)" (for a
    spectator of a bots-only game, who still sees only that seat's observation).
    ``language``: ``"en"``, ``"fr"`` or ``"nl"``.

    Raises:
        TypeError: ``obs`` is not an :class:`~splendor.classic.Observation` (a full state
            would show hidden cards).
        ValueError: an unknown ``language``.
    """
    obs = _require_observation(obs)
    parts: list[RenderableType] = [
        supply_line(obs, language=language),
        faceup_table(obs, language=language),
        players_table(obs, names, you=you, language=language),
    ]
    return common.board_panel(
        parts,
        phase_hint(obs, names, language=language),
        status_line(obs, names, you=you, language=language),
    )


# ----------------------------------------------------------------------------- actions

_GROUP_OF = {
    "take3": "take",
    "take2_different": "take",
    "take1": "take",
    "take2_same": "take 2",
    "reserve_faceup": "reserve",
    "reserve_deck": "reserve",
    "buy_faceup": "buy",
    "buy_reserved": "buy",
    "buy_choose": "buy+pay",
    "pay_gold": "payment",
    "pay": "payment",
    "return": "return",
    "noble": "noble",
    "pass": "pass",
}


def _group_labels(t: Messages) -> dict[str, str]:
    return {
        "take": t.gettext("take"),
        "take 2": t.gettext("take 2"),
        "reserve": t.gettext("reserve"),
        "buy": t.gettext("buy"),
        "buy+pay": t.gettext("buy+pay"),
        "payment": t.gettext("payment"),
        "return": t.gettext("return"),
        "noble": t.gettext("noble"),
        "pass": t.gettext("pass"),
    }


def describe(obs: Observation, action: Any, *, language: str = DEFAULT_LANGUAGE) -> str:
    """``action`` as a person types it in ``language`` (the notation in English), with
    the card or noble it concerns in this position (``buy 1.2: L1 K 0pt [3W 2U]``,
    ``noble 2: 3pt [4W 4U]``; French ``acheter 1.2: L1 N 0 pt [3B 2U]``), as
    :meth:`~splendor.classic.Observation.describe` writes it. A card the observing seat
    may not see stays hidden (C16).

    Raises:
        ValueError: a malformed action.
    """
    obs = _require_observation(obs)
    a = to_action(action)
    typed = common.command(GAME, a, language)
    if a.level is not None and a.slot is not None and a.kind != "reserve_deck":
        return f"{typed}: {card_words(obs.faceup[a.level - 1][a.slot - 1], language)}"
    if a.kind in ("buy_reserved", "buy_choose") and a.slot:
        reserved = common.reserved_words(obs, a, card_words, language)
        if reserved is not None:
            return f"{typed}: {reserved.partition(': ')[2]}"
    if a.kind == "noble" and a.slot:
        noble = obs.nobles[a.slot - 1]
        if noble is not None:
            t = tui_messages(language)
            shown = letters(language)
            req = " ".join(f"{n}{shown[c]}" for c, n in enumerate(noble.requirement) if n)
            return f"{typed}: {points_short(noble.points, t)} [{req}]"
    return typed


def _short(obs: Observation, action: Any, language: str) -> Text:
    """Compact label of an action in the numbered list (the board shows the cards): what
    follows the group's verb, in the letters of ``language`` (``B U V`` for ``take W U
    G`` in French; a card's slot, then the card)."""
    kind = action.kind
    args = common.command_args(GAME, action, language)
    if kind in ("reserve_faceup", "reserve_deck"):
        return Text(args)
    if kind in ("buy_faceup", "buy_reserved", "buy_choose"):
        _, _, what = describe(obs, action, language=language).partition(": ")
        if action.level is not None:  # a face-up slot already says its level
            what = re.sub(r"^L\d ", "", what)
        out = Text(args + " ", style="bold")
        out.append_text(colorize(what, language=language))
        return out
    if kind == "noble":
        slot = action.slot
        noble = obs.nobles[slot - 1] if slot else None
        if noble is not None:
            return noble_text(noble, slot, language=language)
    if kind.startswith("take") or kind == "return":
        return colorize(args, language=language)
    return colorize(common.command(GAME, action, language), language=language)  # payment, pass


def action_groups(
    obs: Observation, legal: Sequence[Any], *, language: str = DEFAULT_LANGUAGE
) -> list[tuple[str, list[tuple[int, Any]]]]:
    """``legal`` as ``[(group label, [(number, action), ...]), ...]`` (take, take 2,
    reserve, buy, buy+pay, payment, return, noble, pass); numbers are 1-based positions in
    ``legal`` (what the person types); labels in ``language``."""
    return common.labelled_groups(legal, _GROUP_OF, _group_labels(tui_messages(language)))


def render_actions(
    obs: Observation,
    legal: Sequence[Any],
    width: int = 100,
    *,
    language: str = DEFAULT_LANGUAGE,
    full: bool = False,
) -> Text:
    """The legal decisions as a compact numbered list, one group per line (wrapped to
    ``width``): ``take  1 W U G  2 W U R ...``, ``buy  31 1.2 W 0pt [1U 2G] ...``. Every
    number is shown with the card or tokens it concerns; the ``buy … choose`` variants (the
    same buys with a chosen payment, C9) are listed with their cards under ``buy+pay``,
    then a line that says what they do, with one of them as the example. Nothing is summed
    up, so ``full`` (every decision numbered: the ``list`` command) changes nothing here:
    it is taken for the same call as :func:`splendor.tui.render_duel.render_actions`.
    """
    del full
    obs = _require_observation(obs)
    t = tui_messages(language)

    def note(key: str, items: list[tuple[int, Any]]) -> Text | None:
        return common.choose_note(items, t, GAME) if key == "buy+pay" else None

    labels = _group_labels(t)
    return common.numbered_actions(
        legal,
        _GROUP_OF,
        labels,
        width,
        lambda a: _short(obs, a, language),
        lambda out, key, items: False,
        note,
    )


def render_action_list(
    obs: Observation, legal: Sequence[Any], *, language: str = DEFAULT_LANGUAGE
) -> Table:
    """Every legal decision on its own line: number, notation and what it means (the card
    or noble it concerns, :func:`describe`), for ``list`` and ``?``."""
    obs = _require_observation(obs)
    t = tui_messages(language)
    return common.action_table(
        legal,
        lambda a: describe(obs, a, language=language),
        lambda text: colorize(text, language=language),
        lambda a: common.command(GAME, a, language),
        t,
    )


# ----------------------------------------------------------------------------- results


def render_scores(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    you: bool = False,
    language: str = DEFAULT_LANGUAGE,
) -> Table:
    """Final (or current) scores: points, cards bought, nobles, winners marked (C15).
    ``you`` (a person watches from the observing seat) changes nothing here: it is taken
    for the same call as :func:`splendor.tui.render_duel.render_scores`."""
    obs = _require_observation(obs)
    t = tui_messages(language)
    right = {"justify": "right"}
    columns = [(t.gettext("cards"), right), (t.gettext("nobles"), right)]

    def cells(p: Any) -> list[RenderableType]:
        return [str(len(p.purchased)), str(len(p.nobles))]

    return common.scores_table(obs, names, t, columns, cells)


__all__ = [
    "TOKEN_LIMIT",
    "TOKEN_STYLES",
    "action_groups",
    "card_text",
    "card_words",
    "chip",
    "colorize",
    "cost_text",
    "describe",
    "faceup_table",
    "noble_text",
    "phase_hint",
    "players_table",
    "render_action_list",
    "render_actions",
    "render_board",
    "render_scores",
    "result_lines",
    "seat_label",
    "status_line",
    "supply_line",
    "tokens_text",
]
