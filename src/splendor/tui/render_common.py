"""What the terminal drawings of both games share (:mod:`.render` for classic,
:mod:`.render_duel` for Duel): the chip styles, the pieces of a card, a seat and a board
panel, the numbered list of legal decisions and the score table.

Each game's module passes in what differs (its token letters and chips, its card drawing,
its words); nothing here knows a rule of either game. Like the games' modules, everything
draws from a seat's observation (C16, D22), never from a full state.

Gem letters: a person reads the letters of the language of the game
(:func:`shown_letters`, from :mod:`splendor.commands`: French ``B U V R N O`` for white,
blue, green, red, black, gold); the English notation's ``W U G R K P *`` stay for the
records, the engines and English. Every drawing function takes ``language=`` and writes
its tokens, costs, bonuses and the numbered list (:func:`command`) in that language's
letters and verbs, which the prompt reads back (:func:`splendor.commands.translate`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..commands import letters, to_command
from ..i18n import DEFAULT_LANGUAGE, Messages
from ..views import HiddenCard
from . import words
from .words import tui_messages

GEM_STYLES: tuple[str, ...] = (
    "bold black on bright_white",  # W white (diamond)
    "bold bright_white on blue",  # U blue (sapphire)
    "bold black on green",  # G green (emerald)
    "bold bright_white on red",  # R red (ruby)
    "bold bright_white on bright_black",  # K black (onyx): a grey chip, readable on dark terminals
)
"""Rich style of each gem colour's chip, in colour order W U G R K (both games)."""

GOLD_STYLE = "bold black on yellow"
"""Rich style of a gold chip (``*``)."""

PEARL_STYLE = "bold black on bright_magenta"
"""Rich style of a pearl chip (``P``, Duel only)."""

TURN_MARK = "▶"
EMPTY_STYLE = "dim"
HIDDEN_STYLE = "italic magenta"
POINTS_STYLE = "bold yellow"

Chip = Callable[[int, int], Text]
"""A game's chip for a colour and a count (``chip(color, count)``: ``3W``)."""

Grouped = list[tuple[str, list[tuple[int, Any]]]]
"""Legal decisions by group: ``[(group key or label, [(number, action), ...]), ...]``."""

_Obs = TypeVar("_Obs")


# ----------------------------------------------------------------------------- letters


@functools.cache
def shown_letters(game: str, language: str = DEFAULT_LANGUAGE) -> str:
    """The token letters of ``game`` (``"splendor"``, ``"duel"``) as a person reading
    ``language`` sees them, in the notation's colour order (:func:`splendor.commands.letters`):
    ``WUGRK*`` in English, ``BUVRNO`` in French (a language whose letters are not
    translated yet shows the English ones).

    Raises:
        ValueError: an unknown game or language.
    """
    return "".join(letters(game, language).values())


@functools.cache
def token_pattern(letters_shown: str, before: str = "A-Za-z0-9") -> re.Pattern[str]:
    """A token letter of ``letters_shown`` in text, with an optional count before it
    (group 1: the count, group 2: the letter): ``3B`` or ``B`` in ``[3B 2U]``, ``L1 N
    0pt``, ``prendre B U V``. Not inside a word (``before``: the characters that may not
    precede it; no letter of any alphabet, nor an apostrophe, may follow: French
    ``N'est`` is no black token)."""
    chars = "".join(re.escape(ch) for ch in letters_shown)
    return re.compile(rf"(?<![{before}])(\d*)([{chars}])(?![^\W\d_]|['’])")


def letter_styles(letters_shown: str, styles: Sequence[str]) -> dict[str, str]:
    """Each shown letter -> the style of its colour (``styles`` in colour order)."""
    return dict(zip(letters_shown, styles, strict=True))


def command(game: str, action: Any, language: str = DEFAULT_LANGUAGE) -> str:
    """``action`` (an action or its notation) as a person types it in ``language``: the
    language's verb and letters (:func:`splendor.commands.to_command`: ``take W U G`` ->
    French ``prendre B U V``); the notation itself in English."""
    return to_command(game, str(action), language)


def command_args(game: str, action: Any, language: str = DEFAULT_LANGUAGE) -> str:
    """What follows the verb in :func:`command` (``B U V`` for ``take W U G`` in French;
    ``2.3`` for ``buy 2.3 choose``: the numbered list's group says the rest)."""
    args = command(game, action, language).split()[1:]
    if str(action).endswith(" choose"):
        args = args[:-1]
    return " ".join(args)


# ----------------------------------------------------------------------------- pieces


def token_chip(
    color: int,
    count: int | None,
    letters: str,
    styles: Sequence[str],
    *,
    wide: bool = False,
) -> Text:
    """A coloured chip for token colour ``color`` (an index into ``letters`` and
    ``styles``): its letter, or with a count ``3W``; ``wide`` pads it to `` W ``."""
    label = letters[color] if count is None else f"{count}{letters[color]}"
    if wide:
        label = f" {label} "
    return Text(label, style=styles[color])


def colorize_tokens(
    text: str, style: str, pattern: re.Pattern[str], letter_styles: Mapping[str, str]
) -> Text:
    """``text`` in ``style`` with every match of ``pattern`` (an optional count, group 1,
    and a token letter, group 2) drawn in the style ``letter_styles`` gives that letter."""
    out = Text(style=style)
    pos = 0
    for m in pattern.finditer(text):
        out.append(text[pos : m.start()])
        out.append(m.group(0), style=letter_styles[m.group(2)])
        pos = m.end()
    out.append(text[pos:])
    return out


def counts_text(counts: Sequence[int], chip: Chip) -> Text:
    """The non-zero ``counts`` (one per colour, in colour order) as chips separated by
    spaces: ``3W 2U 1R``; empty when all are 0."""
    out = Text()
    for c, n in enumerate(counts):
        if n:
            if out:
                out.append(" ")
            out.append_text(chip(c, n))
    return out


def tokens_text(tokens: Sequence[int], chip: Chip, *, show_zero: bool = True) -> Text:
    """Token counts per colour, each as a chip (``2W 0U 1G ...``), a zero one dimmed, or
    left out when not ``show_zero``."""
    out = Text()
    for c, n in enumerate(tokens):
        if not n and not show_zero:
            continue
        if out:
            out.append(" ")
        t = chip(c, n)
        if not n:
            t.stylize("dim")
        out.append_text(t)
    return out


def unseen_card_words(card: HiddenCard | None, t: Messages) -> str:
    """The words of a card that shows nothing of itself: an empty slot (``None``) or a
    card hidden from this seat (its level only, C16, D22)."""
    if card is None:
        return t.gettext("empty slot")
    return t.gettext("L{level} (hidden)", level=card.level)


def card_start(card: Any, label: str, t: Messages) -> Text:
    """The start of a card's drawing: ``label`` (a slot, ``1.2``, ``r1``), then for an
    empty slot (``None``) or a hidden card (its level only, C16, D22) the whole rest; the
    game draws a visible card's bonus, points and cost after it."""
    out = Text()
    if label:
        out.append(label, style="bold cyan")
        out.append(" ")
    if card is None:
        out.append(t.gettext("(empty)"), style=EMPTY_STYLE)
    elif isinstance(card, HiddenCard):
        out.append(f"L{card.level} ", style="bold")
        out.append(t.gettext("(hidden)"), style=HIDDEN_STYLE)
    return out


def card_points(points: int, t: Messages) -> Text:
    """A card's prestige points, short (``2pt``): highlighted, or dim when 0."""
    return Text(words.points_short(points, t), style=POINTS_STYLE if points else "dim")


# ----------------------------------------------------------------------------- board


def require_observation(obs: Any, kind: type[_Obs]) -> _Obs:
    """``obs`` when it is an observation of the game (``kind``).

    Raises:
        TypeError: anything else, such as a full state (it would show hidden cards).
    """
    if not isinstance(obs, kind):
        raise TypeError(
            "the terminal draws only what one seat may see: pass state.observation(seat), "
            f"not {type(obs).__name__}"
        )
    return obs


def seat_label(names: Sequence[str] | None, seat: int, *, language: str = DEFAULT_LANGUAGE) -> str:
    """``names[seat]`` or ``seat N`` when no names are known."""
    return words.seat_label(names, seat, tui_messages(language))


def game_over(turns: int, t: Messages) -> str:
    """``game over after 46 turns``."""
    return t.ngettext("game over after {n} turn", "game over after {n} turns", turns, n=turns)


def append_turn_owner(
    out: Text, obs: Any, names: Sequence[str] | None, you: bool, t: Messages
) -> None:
    """Append `` · ▶ ann to play (seat 0)`` to a status line (``your move`` for the
    observing seat when ``you``), then the decision owed when it is not the main one."""
    cur = obs.current_player
    mine = you and cur == obs.seat
    if mine:
        who = t.gettext("your move")
    else:
        who = t.gettext("{name} to play", name=words.seat_label(names, cur, t))
    out.append(" · ")
    out.append(f"{TURN_MARK} {who}", style="bold green" if mine else "bold")
    out.append(" " + t.gettext("(seat {seat})", seat=cur))
    if obs.phase != "main":
        out.append(f" · {words.phase_name(obs.phase, t)}", style="bold magenta")


def seat_cell(obs: Any, p: Any, names: Sequence[str] | None, you: bool, t: Messages) -> Text:
    """The start of a seat's row in the players table: the turn mark, the seat number
    and its label, underlined and marked ``(you)`` for the observing seat when ``you``."""
    who = Text()
    who.append(f"{TURN_MARK} " if p.seat == obs.current_player else "  ", style="bold green")
    who.append(f"{p.seat} ", style="dim")
    mine = you and p.seat == obs.seat
    label = words.seat_label(names, p.seat, t)
    who.append(label, style="bold underline" if mine else "bold")
    if mine and not words.is_you(label, t):
        who.append(" " + t.gettext("(you)"), style="dim")
    return who


def token_rows(
    p: Any, tokens: Callable[[Sequence[int]], Text], tok_label: str, bon_label: str, limit: int
) -> Text:
    """A seat's tokens (with their count out of ``limit``, in red above it: C11, D20) and
    its card bonuses, on two lines after their (padded) labels; ``tokens`` draws a row."""
    tok = Text(tok_label, style="dim")
    tok.append_text(tokens(p.tokens))
    over = p.num_tokens > limit
    tok.append(f" ={p.num_tokens:2d}/{limit}", style="bold red" if over else "dim")
    tok.append("\n" + bon_label, style="dim")
    tok.append_text(tokens(p.bonuses))
    return tok


def reserved_text(
    p: Any, card_text: Callable[[Any, str], Text], t: Messages, prefix: str = ""
) -> Text:
    """A seat's reserved cards, one a line, labelled ``r1`` ... (another seat's blind ones
    as their level only, C16, D22; one this seat reserved blind marked ``blind``); ``-``
    for none. With a ``prefix`` (a row label) every card starts a new line after it."""
    res = Text()
    if not p.reserved and not prefix:
        res.append("-", style=EMPTY_STYLE)
    for k, card in enumerate(p.reserved, start=1):
        if k > 1 or prefix:
            res.append("\n")
        res.append(prefix, style="dim")
        res.append_text(card_text(card, f"r{k}"))
        if p.reserved_blind[k - 1] and not isinstance(card, HiddenCard):
            res.append(" " + t.gettext("blind"), style="dim")
    return res


def cards_table(
    t: Messages, slots: int, *, deck_width: int | None = None, slot_width: int | None = None
) -> Table:
    """An empty table for rows of cards: a ``deck`` column, then ``slots`` columns
    ``slot 1`` ...; ``slot_width`` also keeps a slot's lines from wrapping."""
    table = Table(
        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False, padding=(0, 1)
    )
    table.add_column(t.gettext("deck"), style="bold", no_wrap=True, min_width=deck_width)
    for slot in range(1, slots + 1):
        table.add_column(
            t.gettext("slot {n}", n=slot), no_wrap=slot_width is not None, min_width=slot_width
        )
    return table


def board_panel(parts: list[RenderableType], hint: Text | None, title: Text) -> Panel:
    """The board's frame: ``parts`` one under the other, then the ``hint`` of the
    decision owed (if any), under the status line ``title``."""
    if hint is not None:
        parts.append(hint)
    return Panel(
        Group(*parts),
        title=title,
        title_align="left",
        border_style="cyan",
        box=box.ROUNDED,
        padding=(0, 1),
    )


# ----------------------------------------------------------------------------- actions


def reserved_words(
    obs: Any, action: Any, card_words: Callable[[Any, str], str], language: str
) -> str | None:
    """``buy r1: <the card>`` for an action on reserved slot ``action.slot`` of the seat
    to decide (the observing seat once the game is over); None when there is no such
    card."""
    seat = obs.current_player if obs.current_player is not None else obs.seat
    reserved = obs.player(seat).reserved
    if action.slot <= len(reserved):
        return f"{action}: {card_words(reserved[action.slot - 1], language)}"
    return None


def group_actions(legal: Sequence[Any], group_of: Mapping[str, str]) -> Grouped:
    """``legal`` in groups by ``group_of[action.kind]`` (the kind itself when absent), in
    order of first appearance; each action with its 1-based number in ``legal``."""
    groups: dict[str, list[tuple[int, Any]]] = {}
    for i, a in enumerate(legal, start=1):
        groups.setdefault(group_of.get(a.kind, a.kind), []).append((i, a))
    return list(groups.items())


def labelled_groups(
    legal: Sequence[Any], group_of: Mapping[str, str], labels: Mapping[str, str]
) -> Grouped:
    """:func:`group_actions` with each group key replaced by its label in ``labels``."""
    return [(labels.get(key, key), items) for key, items in group_actions(legal, group_of)]


def span(items: Sequence[tuple[int, Any]]) -> str:
    """The numbers of a group of numbered actions: ``7`` or ``7-12``."""
    first, last = items[0][0], items[-1][0]
    return f"{first}" if first == last else f"{first}-{last}"


def choose_note(items: Sequence[tuple[int, Any]], t: Messages, game: str) -> Text:
    """The line under the ``buy … choose`` variants (C9, D10), each listed with its card
    before it: what they do, with the first of them as the example (so it is legal),
    written as a person types it in ``t``'s language (:func:`command`)."""
    return Text(
        t.gettext(
            "buy+pay: the same buy, then you choose how to pay (gold for which colour), "
            "e.g. '{example}'",
            example=command(game, items[0][1], t.language),
        ),
        style="dim",
    )


def legal_example(legal: Sequence[Any], kinds: Sequence[str] = ()) -> str | None:
    """An action to show as an example, taken from ``legal`` (so it can be typed now): the
    first one of ``kinds`` (in that order of preference) when there is one, else the
    first that is not ``pass``; None when nothing is legal."""
    for kind in kinds:
        for a in legal:
            if a.kind == kind:
                return str(a)
    for a in legal:
        if a.kind != "pass":
            return str(a)
    return str(legal[0]) if legal else None


def numbered_actions(
    legal: Sequence[Any],
    group_of: Mapping[str, str],
    labels: Mapping[str, str],
    width: int,
    short: Callable[[Any], Text],
    summary: Callable[[Text, str, list[tuple[int, Any]]], bool],
    note: Callable[[str, list[tuple[int, Any]]], Text | None] = lambda key, items: None,
) -> Text:
    """The legal decisions as a compact numbered list, one group (:func:`group_actions`)
    per line after its label, the cells (number and ``short(action)``: every number is
    shown with what it does) in columns wrapped to ``width``. ``summary(out, key, items)``
    may write a group as one line instead (returning True): that line shows no number.
    ``note(key, items)`` may add a line under a group's cells."""
    groups = group_actions(legal, group_of)
    label_w = max((len(labels.get(key, key)) for key, _ in groups), default=4) + 1
    out = Text()
    for g, (key, items) in enumerate(groups):
        if g:
            out.append("\n")
        out.append(f"{labels.get(key, key):<{label_w}}", style="bold")
        if summary(out, key, items):
            continue
        cells = []
        for num, a in items:
            cell = Text(f"{num:>2} ", style="cyan")
            cell.append_text(short(a))
            cells.append(cell)
        cell_w = max(c.cell_len for c in cells) + 2
        per_line = max(1, (width - label_w) // cell_w)
        for k, cell in enumerate(cells):
            if k and k % per_line == 0:
                out.append("\n" + " " * label_w)
            out.append_text(cell)
            if (k + 1) % per_line and k + 1 < len(cells):
                out.append(" " * (cell_w - cell.cell_len))
        extra = note(key, items)
        if extra is not None:
            out.append("\n" + " " * label_w)
            out.append_text(extra)
    return out


def action_table(
    legal: Sequence[Any],
    describe: Callable[[Any], str],
    colorize: Callable[[str], Text],
    typed: Callable[[Any], str],
    t: Messages,
) -> Table:
    """Every legal decision on its own line: number, what to type (``typed(action)``: the
    command in ``t``'s language, :func:`command`) and what it means (the part of
    ``describe(action)`` after ``": "``), drawn by ``colorize`` (the same language)."""
    table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column("#", justify="right", style="cyan")
    table.add_column(t.gettext("type this"), no_wrap=True)
    table.add_column(t.gettext("meaning"))
    for i, a in enumerate(legal, start=1):
        _, _, what = describe(a).partition(": ")
        table.add_row(str(i), colorize(typed(a)), colorize(what) if what else Text(""))
    return table


# ----------------------------------------------------------------------------- results


def scores_table(
    obs: Any,
    names: Sequence[str] | None,
    t: Messages,
    columns: Sequence[tuple[str, Mapping[str, Any]]],
    cells: Callable[[Any], list[RenderableType]],
) -> Table:
    """The score table: seat, player and points, then the game's ``columns`` (header and
    :meth:`rich.table.Table.add_column` options) filled by ``cells(player)``, then the
    winners marked."""
    winners = set(obs.winners)
    title = t.gettext("final scores") if obs.is_terminal else t.gettext("scores")
    table = Table(title=title, box=box.ROUNDED)
    table.add_column(t.gettext("seat"), justify="right")
    table.add_column(t.gettext("player"))
    table.add_column(t.gettext("points"), justify="right", style=POINTS_STYLE)
    for header, options in columns:
        table.add_column(header, **options)
    table.add_column("")
    for p in obs.players:
        won = p.seat in winners
        mark = Text(t.gettext("winner"), style="bold green") if won else Text("")
        seat = words.seat_label(names, p.seat, t)
        table.add_row(str(p.seat), seat, str(p.points), *cells(p), mark)
    return table


def result_lines(obs: Any, names: Sequence[str], *, language: str = DEFAULT_LANGUAGE) -> list[str]:
    """``scores: a 15, b 9`` and ``winner: a (points, 46 turns)`` (``no winner (turn cap,
    400 turns)`` after a Duel's turn cap), in English the words of ``splendor replay``.
    Works on anything with ``scores``/``winners`` (an observation)."""
    t = tui_messages(language)
    lines = [words.scores_line(names, obs.scores, t)]
    if obs.is_terminal:
        lines.append(words.winner_line(names, obs.winners, obs.end_reason, obs.turn, t))
    return lines
