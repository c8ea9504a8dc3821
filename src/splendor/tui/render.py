"""Drawing classic Splendor in the terminal with rich.

Every function here draws from an :class:`~splendor.classic.Observation` (what one seat may
see, C16), never from a full :class:`~splendor.classic.State`: another seat's blind-reserved
card is a :class:`~splendor.classic.HiddenCard` in the observation and is drawn as its level
only. :func:`render_board` refuses a full state outright.

Colours: every token and bonus is drawn as a small chip with an explicit foreground and
background (so it reads on dark and light terminals alike) and always carries its letter
(``W U G R K *``), so the board still works without colour.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..classic import Card, HiddenCard, Noble, Observation
from ..classic.state import to_action
from ..colors import GEM_LETTERS, NUM_GEMS, TOKEN_LETTERS
from ..i18n import DEFAULT_LANGUAGE, Messages
from . import words
from .words import phase_name, points_short, rich_format, tui_messages

TOKEN_STYLES: tuple[str, ...] = (
    "bold black on bright_white",  # W white (diamond)
    "bold bright_white on blue",  # U blue (sapphire)
    "bold black on green",  # G green (emerald)
    "bold bright_white on red",  # R red (ruby)
    "bold bright_white on bright_black",  # K black (onyx): a grey chip, readable on dark terminals
    "bold black on yellow",  # * gold
)
"""Rich style of each token colour, in token order W U G R K *."""

TURN_MARK = "▶"
EMPTY_STYLE = "dim"
HIDDEN_STYLE = "italic magenta"
POINTS_STYLE = "bold yellow"
TOKEN_LIMIT = 10  # C11

_LETTER_STYLE = dict(zip(TOKEN_LETTERS, TOKEN_STYLES, strict=True))
# a token letter in notation or a card description: "take W U G", "[3W 2U]", "L1 K 0pt", "*"
_TOKEN_RE = re.compile(r"(?<![A-Za-z0-9])(\d*)([WUGRK*])(?![A-Za-z])")


# ----------------------------------------------------------------------------- pieces


def chip(color: int, count: int | None = None) -> Text:
    """A coloured chip for token colour ``color`` (0..5): ``W`` or, with a count, ``3W``."""
    label = TOKEN_LETTERS[color] if count is None else f"{count}{TOKEN_LETTERS[color]}"
    return Text(label, style=TOKEN_STYLES[color])


def colorize(text: str, style: str = "") -> Text:
    """``text`` with every token letter (``W U G R K *``, with an optional count as in
    ``3W``) drawn as a coloured chip; used for notation and card descriptions."""
    out = Text(style=style)
    pos = 0
    for m in _TOKEN_RE.finditer(text):
        out.append(text[pos : m.start()])
        out.append(m.group(0), style=_LETTER_STYLE[m.group(2)])
        pos = m.end()
    out.append(text[pos:])
    return out


def cost_text(cost: Sequence[int]) -> Text:
    """A card cost or noble requirement: ``3W 2U 1R`` with coloured chips."""
    out = Text()
    for c, n in enumerate(cost[:NUM_GEMS]):
        if n:
            if out:
                out.append(" ")
            out.append_text(chip(c, n))
    return out


def card_words(card: Card | HiddenCard | None, language: str = DEFAULT_LANGUAGE) -> str:
    """A development card in one line of text, as ``str(card)`` writes it
    (``L1 K 0pt [3W 2U]``) with its words in ``language``; a hidden card is its level only
    (C16); ``None`` an empty slot."""
    t = tui_messages(language)
    if card is None:
        return t.gettext("empty slot")
    if isinstance(card, HiddenCard):
        return t.gettext("L{level} (hidden)", level=card.level)
    cost = " ".join(f"{n}{GEM_LETTERS[c]}" for c, n in enumerate(card.cost) if n)
    return f"L{card.level} {GEM_LETTERS[card.bonus]} {points_short(card.points, t)} [{cost}]"


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
    out = Text()
    if label:
        out.append(label, style="bold cyan")
        out.append(" ")
    if card is None:
        out.append(t.gettext("(empty)"), style=EMPTY_STYLE)
        return out
    if isinstance(card, HiddenCard):
        out.append(f"L{card.level} ", style="bold")
        out.append(t.gettext("(hidden)"), style=HIDDEN_STYLE)
        return out
    if not two_lines:
        out.append(f"L{card.level} ", style="dim")
    out.append_text(chip(card.bonus))
    out.append(" ")
    out.append(points_short(card.points, t), style=POINTS_STYLE if card.points else "dim")
    out.append("\n" if two_lines else " ")
    out.append_text(cost_text(card.cost))
    return out


def noble_text(noble: Noble, slot: int | None = None, *, language: str = DEFAULT_LANGUAGE) -> Text:
    """A noble tile: ``[2] 3pt 4W 4U`` (slot number, points, required bonuses)."""
    out = Text()
    if slot is not None:
        out.append(f"[{slot}] ", style="bold cyan")
    out.append(points_short(noble.points, tui_messages(language)) + " ", style=POINTS_STYLE)
    out.append_text(cost_text(noble.requirement))
    return out


def tokens_text(tokens: Sequence[int], *, show_zero: bool = True) -> Text:
    """Token counts per colour (length 5 or 6), each as a chip: ``2W 0U 1G ...``."""
    out = Text()
    for c, n in enumerate(tokens):
        if out:
            out.append(" ")
        if n or show_zero:
            t = chip(c, n)
            if not n:
                t.stylize("dim")
            out.append_text(t)
    return out


# ----------------------------------------------------------------------------- board


def _require_observation(obs: Any) -> Observation:
    if not isinstance(obs, Observation):
        raise TypeError(
            "the terminal draws only what one seat may see: pass state.observation(seat), "
            f"not {type(obs).__name__}"
        )
    return obs


def seat_label(names: Sequence[str] | None, seat: int, *, language: str = DEFAULT_LANGUAGE) -> str:
    """``names[seat]`` or ``seat N`` when no names are known."""
    return words.seat_label(names, seat, tui_messages(language))


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
    cur = obs.current_player
    if cur is None:
        turns = obs.turn
        out.append(
            t.ngettext("game over after {n} turn", "game over after {n} turns", turns, n=turns),
            style="bold red",
        )
        return out
    out.append(t.gettext("round {n}", n=obs.turn // n + 1), style="bold")
    out.append(" · " + t.gettext("turn {n}", n=obs.turn + 1))
    mine = you and cur == obs.seat
    if mine:
        who = t.gettext("your move")
    else:
        who = t.gettext("{name} to play", name=words.seat_label(names, cur, t))
    out.append(" · ")
    out.append(f"{TURN_MARK} {who}", style="bold green" if mine else "bold")
    out.append(" " + t.gettext("(seat {seat})", seat=cur))
    if obs.phase != "main":
        out.append(f" · {phase_name(obs.phase, t)}", style="bold magenta")
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
        owed = cost_text(need)
        return rich_format(
            t.gettext(
                "paying for {card} · still owed {owed} · gold spent: {gold} · 'gold W' spends "
                "a gold for a W, 'pay' finishes (C9)"
            ),
            card=card_text(card, language=language),
            owed=owed if owed else Text(t.gettext("nothing")),
            gold=gold,
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
        return Text(t.gettext("several nobles would visit: choose one with 'noble N' (C12)"))
    return None


def faceup_table(obs: Observation, *, language: str = DEFAULT_LANGUAGE) -> Table:
    """The 12 face-up cards, level 3 on top, with the deck sizes; empty slots shown."""
    t = tui_messages(language)
    table = Table(
        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False, padding=(0, 1)
    )
    table.add_column(t.gettext("deck"), style="bold", no_wrap=True)
    for slot in range(1, 5):
        table.add_column(t.gettext("slot {n}", n=slot), no_wrap=True, min_width=12)
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
    out.append_text(tokens_text(obs.supply))
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
    cur = obs.current_player
    for p in obs.players:
        who = Text()
        who.append(f"{TURN_MARK} " if p.seat == cur else "  ", style="bold green")
        who.append(f"{p.seat} ", style="dim")
        mine = you and p.seat == obs.seat
        label = words.seat_label(names, p.seat, t)
        who.append(label, style="bold underline" if mine else "bold")
        if mine and not words.is_you(label, t):
            who.append(" " + t.gettext("(you)"), style="dim")
        cards = len(p.purchased)
        who.append("\n    " + t.ngettext("{n} card", "{n} cards", cards, n=cards))
        if p.nobles:
            nobles = len(p.nobles)
            who.append("\n    " + t.ngettext("{n} noble", "{n} nobles", nobles, n=nobles))
        tok = Text(tok_label.ljust(width) + " ", style="dim")
        tok.append_text(tokens_text(p.tokens))
        over = p.num_tokens > TOKEN_LIMIT
        tok.append(f" ={p.num_tokens:2d}/{TOKEN_LIMIT}", style="bold red" if over else "dim")
        tok.append("\n" + bon_label.ljust(width) + " ", style="dim")
        tok.append_text(tokens_text(p.bonuses))
        res = Text()
        if not p.reserved:
            res.append("-", style=EMPTY_STYLE)
        for k, card in enumerate(p.reserved, start=1):
            if k > 1:
                res.append("\n")
            res.append_text(card_text(card, f"r{k}", language=language))
            if p.reserved_blind[k - 1] and not isinstance(card, HiddenCard):
                res.append(" " + t.gettext("blind"), style="dim")
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
    hint = phase_hint(obs, names, language=language)
    if hint is not None:
        parts.append(hint)
    return Panel(
        Group(*parts),
        title=status_line(obs, names, you=you, language=language),
        title_align="left",
        border_style="cyan",
        box=box.ROUNDED,
        padding=(0, 1),
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
    """``action`` in notation, with the card or noble it concerns in this position
    (``buy 1.2: L1 K 0pt [3W 2U]``, ``noble 2: 3pt [4W 4U]``), as
    :meth:`~splendor.classic.Observation.describe` writes it, in ``language``. A card the
    observing seat may not see stays hidden (C16).

    Raises:
        ValueError: a malformed action.
    """
    obs = _require_observation(obs)
    a = to_action(action)
    if a.level is not None and a.slot is not None and a.kind != "reserve_deck":
        return f"{a}: {card_words(obs.faceup[a.level - 1][a.slot - 1], language)}"
    if a.kind in ("buy_reserved", "buy_choose") and a.slot:
        seat = obs.current_player if obs.current_player is not None else obs.seat
        reserved = obs.player(seat).reserved
        if a.slot <= len(reserved):
            return f"{a}: {card_words(reserved[a.slot - 1], language)}"
    if a.kind == "noble" and a.slot:
        noble = obs.nobles[a.slot - 1]
        if noble is not None:
            t = tui_messages(language)
            req = " ".join(f"{n}{GEM_LETTERS[c]}" for c, n in enumerate(noble.requirement) if n)
            return f"{a}: {points_short(noble.points, t)} [{req}]"
    return str(a)


def _short(obs: Observation, action: Any, language: str) -> Text:
    """Compact label of an action in the numbered list (the board shows the cards)."""
    kind = action.kind
    text = str(action)
    if kind.startswith("take"):
        return colorize(text[len("take ") :])
    if kind in ("reserve_faceup", "reserve_deck"):
        return Text(text[len("reserve ") :])
    if kind in ("buy_faceup", "buy_reserved", "buy_choose"):
        desc = describe(obs, action, language=language)
        label, _, what = desc.partition(": ")
        label = label[len("buy ") :].replace(" choose", "")
        if action.level is not None:  # a face-up slot already says its level
            what = re.sub(r"^L\d ", "", what)
        out = Text(label + " ", style="bold")
        out.append_text(colorize(what))
        return out
    if kind == "noble":
        slot = action.slot
        noble = obs.nobles[slot - 1] if slot else None
        return noble_text(noble, slot, language=language) if noble is not None else Text(text)
    if kind == "return":
        return colorize(text[len("return ") :])
    return colorize(text)


def action_groups(
    obs: Observation, legal: Sequence[Any], *, language: str = DEFAULT_LANGUAGE
) -> list[tuple[str, list[tuple[int, Any]]]]:
    """``legal`` as ``[(group label, [(number, action), ...]), ...]``; numbers are 1-based
    positions in ``legal`` (what the person types); labels in ``language``."""
    labels = _group_labels(tui_messages(language))
    return [(labels.get(key, key), items) for key, items in _groups(legal)]


def _groups(legal: Sequence[Any]) -> list[tuple[str, list[tuple[int, Any]]]]:
    groups: dict[str, list[tuple[int, Any]]] = {}
    for i, a in enumerate(legal, start=1):
        groups.setdefault(_GROUP_OF.get(a.kind, a.kind), []).append((i, a))
    return list(groups.items())


def render_actions(
    obs: Observation, legal: Sequence[Any], width: int = 100, *, language: str = DEFAULT_LANGUAGE
) -> Text:
    """The legal decisions as a compact numbered list, one group per line (wrapped to
    ``width``): ``take  1 W U G  2 W U R ...``, ``buy  31 1.2 W 0pt [1U 2G] ...``.

    The ``buy … choose`` variants (the same buys with a chosen payment, C9) are summed up
    in one line; their numbers are in :func:`render_action_list`.
    """
    obs = _require_observation(obs)
    t = tui_messages(language)
    labels = _group_labels(t)
    groups = _groups(legal)
    label_w = max((len(labels.get(key, key)) for key, _ in groups), default=4) + 1
    out = Text()
    for g, (key, items) in enumerate(groups):
        if g:
            out.append("\n")
        out.append(f"{labels.get(key, key):<{label_w}}", style="bold")
        if key == "buy+pay":
            first, last = items[0][0], items[-1][0]
            span = f"{first}" if first == last else f"{first}-{last}"
            out.append(f"{span:>2} ", style="cyan")
            out.append(
                t.gettext(
                    "the same buys, choosing the payment: add 'choose' (buy 1.2 choose); "
                    "'list' shows them"
                ),
                style="dim",
            )
            continue
        cells = []
        for num, a in items:
            cell = Text(f"{num:>2} ", style="cyan")
            cell.append_text(_short(obs, a, language))
            cells.append(cell)
        cell_w = max(c.cell_len for c in cells) + 2
        per_line = max(1, (width - label_w) // cell_w)
        for k, cell in enumerate(cells):
            if k and k % per_line == 0:
                out.append("\n" + " " * label_w)
            out.append_text(cell)
            if (k + 1) % per_line and k + 1 < len(cells):
                out.append(" " * (cell_w - cell.cell_len))
    return out


def render_action_list(
    obs: Observation, legal: Sequence[Any], *, language: str = DEFAULT_LANGUAGE
) -> Table:
    """Every legal decision on its own line: number, notation and what it means
    (:func:`describe`), for ``list`` and ``?``."""
    obs = _require_observation(obs)
    t = tui_messages(language)
    table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column("#", justify="right", style="cyan")
    table.add_column(t.gettext("type this"), no_wrap=True)
    table.add_column(t.gettext("meaning"))
    for i, a in enumerate(legal, start=1):
        _, _, what = describe(obs, a, language=language).partition(": ")
        table.add_row(str(i), colorize(str(a)), colorize(what) if what else Text(""))
    return table


# ----------------------------------------------------------------------------- results


def render_scores(
    obs: Observation, names: Sequence[str] | None = None, *, language: str = DEFAULT_LANGUAGE
) -> Table:
    """Final (or current) scores: points, cards bought, nobles, winners marked (C15)."""
    obs = _require_observation(obs)
    t = tui_messages(language)
    winners = set(obs.winners)
    title = t.gettext("final scores") if obs.is_terminal else t.gettext("scores")
    table = Table(title=title, box=box.ROUNDED)
    table.add_column(t.gettext("seat"), justify="right")
    table.add_column(t.gettext("player"))
    table.add_column(t.gettext("points"), justify="right", style=POINTS_STYLE)
    table.add_column(t.gettext("cards"), justify="right")
    table.add_column(t.gettext("nobles"), justify="right")
    table.add_column("")
    for p in obs.players:
        won = p.seat in winners
        mark = Text(t.gettext("winner"), style="bold green") if won else Text("")
        table.add_row(
            str(p.seat),
            words.seat_label(names, p.seat, t),
            str(p.points),
            str(len(p.purchased)),
            str(len(p.nobles)),
            mark,
        )
    return table


def result_lines(obs: Any, names: Sequence[str], *, language: str = DEFAULT_LANGUAGE) -> list[str]:
    """``scores: a 15, b 9`` and ``winner: a (points, 46 turns)``, in English the words of
    ``splendor replay``. Works on anything with ``scores``/``winners`` (an observation)."""
    t = tui_messages(language)
    lines = [words.scores_line(names, obs.scores, t)]
    if obs.is_terminal:
        lines.append(words.winner_line(names, obs.winners, obs.end_reason, obs.turn, t))
    return lines


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
