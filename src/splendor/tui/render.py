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
from ..colors import NUM_GEMS, TOKEN_LETTERS

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


def card_text(card: Card | HiddenCard | None, label: str = "", *, two_lines: bool = False) -> Text:
    """One development card: ``label``, bonus chip, points and cost; a hidden card shows
    its level only; ``None`` is an empty slot.

    With ``two_lines`` the cost goes on a second line (for the face-up grid).
    """
    out = Text()
    if label:
        out.append(label, style="bold cyan")
        out.append(" ")
    if card is None:
        out.append("(empty)", style=EMPTY_STYLE)
        return out
    if isinstance(card, HiddenCard):
        out.append(f"L{card.level} ", style="bold")
        out.append("(hidden)", style=HIDDEN_STYLE)
        return out
    if not two_lines:
        out.append(f"L{card.level} ", style="dim")
    out.append_text(chip(card.bonus))
    out.append(" ")
    if card.points:
        out.append(f"{card.points}pt", style=POINTS_STYLE)
    else:
        out.append("0pt", style="dim")
    out.append("\n" if two_lines else " ")
    out.append_text(cost_text(card.cost))
    return out


def noble_text(noble: Noble, slot: int | None = None) -> Text:
    """A noble tile: ``[2] 3pt 4W 4U`` (slot number, points, required bonuses)."""
    out = Text()
    if slot is not None:
        out.append(f"[{slot}] ", style="bold cyan")
    out.append(f"{noble.points}pt ", style=POINTS_STYLE)
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


def seat_label(names: Sequence[str] | None, seat: int) -> str:
    """``names[seat]`` or ``seat N`` when no names are known."""
    if names and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def status_line(obs: Observation, names: Sequence[str] | None = None, *, you: bool = True) -> Text:
    """Round, whose turn it is and the decision they owe (or the result once over).
    ``you``: the observing seat is the person looking (else a spectator of bots)."""
    n = obs.num_players
    out = Text()
    cur = obs.current_player
    if cur is None:
        out.append(f"game over after {obs.turn} turns", style="bold red")
        return out
    out.append(f"round {obs.turn // n + 1}", style="bold")
    out.append(f" · turn {obs.turn + 1}")
    mine = you and cur == obs.seat
    who = "your move" if mine else f"{seat_label(names, cur)} to play"
    out.append(" · ")
    out.append(f"{TURN_MARK} {who}", style="bold green" if mine else "bold")
    out.append(f" (seat {cur})")
    if obs.phase != "main":
        out.append(f" · {obs.phase}", style="bold magenta")
    if obs.final_round:
        out.append(" · final round", style="bold red")
    return out


def phase_hint(obs: Observation, names: Sequence[str] | None = None) -> Text | None:
    """What the current decision is about when it is not a main action (C9, C11, C12)."""
    cur = obs.current_player
    if cur is None or obs.phase == "main":
        return None
    if obs.phase == "payment" and obs.payment is not None:
        card, need, gold = obs.payment
        out = Text("paying for ")
        out.append_text(card_text(card))
        out.append(" · still owed ")
        owed = cost_text(need)
        out.append_text(owed if owed else Text("nothing"))
        out.append(f" · gold spent {gold} · 'gold W' spends a gold for a W, 'pay' finishes")
        return out
    if obs.phase == "return tokens":
        held = obs.player(cur).num_tokens
        who = "you hold" if cur == obs.seat else f"{seat_label(names, cur)} holds"
        return Text(f"{who} {held} tokens: return {held - 10} (limit 10, C11)")
    if obs.phase == "choose noble":
        return Text("several nobles would visit: choose one with 'noble N' (C12)")
    return None


def faceup_table(obs: Observation) -> Table:
    """The 12 face-up cards, level 3 on top, with the deck sizes; empty slots shown."""
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False, padding=(0, 1))
    t.add_column("deck", style="bold", no_wrap=True)
    for slot in range(1, 5):
        t.add_column(f"slot {slot}", no_wrap=True, min_width=12)
    sizes = obs.deck_sizes
    for lvl in (3, 2, 1):
        row: list[RenderableType] = [Text(f"L{lvl}\n{sizes[lvl - 1]:2d} left", style="bold")]
        for slot, card in enumerate(obs.faceup[lvl - 1], start=1):
            row.append(card_text(card, f"{lvl}.{slot}", two_lines=True))
        t.add_row(*row)
    return t


def supply_line(obs: Observation) -> Text:
    """The token supply, then the noble row on a line of its own."""
    out = Text("supply ", style="bold")
    out.append_text(tokens_text(obs.supply))
    out.append("\nnobles ", style="bold")
    shown = [(slot, n) for slot, n in enumerate(obs.nobles, start=1) if n is not None]
    if not shown:
        out.append("none left", style=EMPTY_STYLE)
    for i, (slot, noble) in enumerate(shown):
        if i:
            out.append("  ")
        out.append_text(noble_text(noble, slot))
    return out


def players_table(
    obs: Observation, names: Sequence[str] | None = None, *, you: bool = True
) -> Table:
    """Every seat: points, tokens, bonuses, nobles, reserved cards (others' blind ones as
    their level only), with the seat to play marked."""
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    t.add_column("player", no_wrap=True)
    t.add_column("pts", justify="right", style=POINTS_STYLE)
    t.add_column("tokens / card bonuses", no_wrap=True)
    t.add_column("reserved", no_wrap=True)
    cur = obs.current_player
    for p in obs.players:
        who = Text()
        who.append(f"{TURN_MARK} " if p.seat == cur else "  ", style="bold green")
        who.append(f"{p.seat} ", style="dim")
        mine = you and p.seat == obs.seat
        who.append(seat_label(names, p.seat), style="bold underline" if mine else "bold")
        if mine and seat_label(names, p.seat).lower() != "you":
            who.append(" (you)", style="dim")
        who.append(f"\n    {len(p.purchased)} cards")
        if p.nobles:
            who.append(f", {len(p.nobles)} noble" + ("s" if len(p.nobles) > 1 else ""))
        tok = Text("tok ", style="dim")
        tok.append_text(tokens_text(p.tokens))
        over = p.num_tokens > 10
        tok.append(f" ={p.num_tokens:2d}/10", style="bold red" if over else "dim")
        tok.append("\nbon ", style="dim")
        tok.append_text(tokens_text(p.bonuses))
        res = Text()
        if not p.reserved:
            res.append("-", style=EMPTY_STYLE)
        for k, card in enumerate(p.reserved, start=1):
            if k > 1:
                res.append("\n")
            res.append_text(card_text(card, f"r{k}"))
            if p.reserved_blind[k - 1] and not isinstance(card, HiddenCard):
                res.append(" blind", style="dim")
        t.add_row(who, Text(str(p.points)), tok, res, end_section=True)
    return t


def render_board(
    obs: Observation, names: Sequence[str] | None = None, *, you: bool = True
) -> Panel:
    """The whole board as seat ``obs.seat`` sees it: status, supply and nobles, face-up
    cards and decks, every player. ``you=False`` drops "your move" and "(you)" (for a
    spectator of a bots-only game, who still sees only that seat's observation).

    Raises:
        TypeError: ``obs`` is not an :class:`~splendor.classic.Observation` (a full state
            would show hidden cards).
    """
    obs = _require_observation(obs)
    parts: list[RenderableType] = [
        supply_line(obs),
        faceup_table(obs),
        players_table(obs, names, you=you),
    ]
    hint = phase_hint(obs, names)
    if hint is not None:
        parts.append(hint)
    return Panel(
        Group(*parts),
        title=status_line(obs, names, you=you),
        title_align="left",
        border_style="cyan",
        box=box.ROUNDED,
        padding=(0, 1),
    )


# ----------------------------------------------------------------------------- actions

_GROUPS = (
    ("take3", "take"),
    ("take2_different", "take"),
    ("take1", "take"),
    ("take2_same", "take 2"),
    ("reserve_faceup", "reserve"),
    ("reserve_deck", "reserve"),
    ("buy_faceup", "buy"),
    ("buy_reserved", "buy"),
    ("buy_choose", "buy+pay"),
    ("pay_gold", "payment"),
    ("pay", "payment"),
    ("return", "return"),
    ("noble", "noble"),
    ("pass", "pass"),
)
_GROUP_OF = dict(_GROUPS)


def _short(obs: Observation, action: Any) -> Text:
    """Compact label of an action in the numbered list (the board shows the cards)."""
    kind = action.kind
    text = str(action)
    if kind.startswith("take"):
        return colorize(text[len("take ") :])
    if kind in ("reserve_faceup", "reserve_deck"):
        return Text(text[len("reserve ") :])
    if kind in ("buy_faceup", "buy_reserved", "buy_choose"):
        desc = obs.describe(action)
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
        return noble_text(noble, slot) if noble is not None else Text(text)
    if kind == "return":
        return colorize(text[len("return ") :])
    return colorize(text)


def action_groups(
    obs: Observation, legal: Sequence[Any]
) -> list[tuple[str, list[tuple[int, Any]]]]:
    """``legal`` as ``[(group label, [(number, action), ...]), ...]``; numbers are 1-based
    positions in ``legal`` (what the person types)."""
    groups: dict[str, list[tuple[int, Any]]] = {}
    for i, a in enumerate(legal, start=1):
        groups.setdefault(_GROUP_OF.get(a.kind, a.kind), []).append((i, a))
    return list(groups.items())


def render_actions(obs: Observation, legal: Sequence[Any], width: int = 100) -> Text:
    """The legal decisions as a compact numbered list, one group per line (wrapped to
    ``width``): ``take  1 W U G  2 W U R ...``, ``buy  31 1.2 W 0pt [1U 2G] ...``.

    The ``buy … choose`` variants (the same buys with a chosen payment, C9) are summed up
    in one line; their numbers are in :func:`render_action_list`.
    """
    obs = _require_observation(obs)
    groups = action_groups(obs, legal)
    label_w = max((len(lbl) for lbl, _ in groups), default=4) + 1
    out = Text()
    for g, (label, items) in enumerate(groups):
        if g:
            out.append("\n")
        out.append(f"{label:<{label_w}}", style="bold")
        if label == "buy+pay":
            first, last = items[0][0], items[-1][0]
            span = f"{first}" if first == last else f"{first}-{last}"
            out.append(f"{span:>2} ", style="cyan")
            out.append(
                "the same buys, choosing the payment: add 'choose' (buy 1.2 choose); "
                "'list' shows them",
                style="dim",
            )
            continue
        cells = []
        for num, a in items:
            cell = Text(f"{num:>2} ", style="cyan")
            cell.append_text(_short(obs, a))
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


def render_action_list(obs: Observation, legal: Sequence[Any]) -> Table:
    """Every legal decision on its own line: number, notation and what it means
    (``obs.describe``), for ``list`` and ``?``."""
    obs = _require_observation(obs)
    t = Table(box=box.SIMPLE, show_edge=False, pad_edge=False, padding=(0, 1))
    t.add_column("#", justify="right", style="cyan")
    t.add_column("type this", no_wrap=True)
    t.add_column("meaning")
    for i, a in enumerate(legal, start=1):
        desc = obs.describe(a)
        _, _, what = desc.partition(": ")
        t.add_row(str(i), colorize(str(a)), colorize(what) if what else Text(""))
    return t


# ----------------------------------------------------------------------------- results


def render_scores(obs: Observation, names: Sequence[str] | None = None) -> Table:
    """Final (or current) scores: points, cards bought, nobles, winners marked (C15)."""
    obs = _require_observation(obs)
    winners = set(obs.winners)
    t = Table(title="final scores" if obs.is_terminal else "scores", box=box.ROUNDED)
    t.add_column("seat", justify="right")
    t.add_column("player")
    t.add_column("points", justify="right", style=POINTS_STYLE)
    t.add_column("cards", justify="right")
    t.add_column("nobles", justify="right")
    t.add_column("")
    for p in obs.players:
        mark = Text("winner", style="bold green") if p.seat in winners else Text("")
        t.add_row(
            str(p.seat),
            seat_label(names, p.seat),
            str(p.points),
            str(len(p.purchased)),
            str(len(p.nobles)),
            mark,
        )
    return t


def result_lines(obs: Any, names: Sequence[str]) -> list[str]:
    """``scores: a 15, b 9`` and ``winner: a (points, 46 turns)`` in the words of
    ``splendor replay``. Works on anything with ``scores``/``winners`` (an observation)."""
    scores = ", ".join(f"{names[p]} {s}" for p, s in enumerate(obs.scores))
    lines = [f"scores: {scores}"]
    if obs.is_terminal:
        winners = " and ".join(names[w] for w in obs.winners)
        lines.append(f"winner: {winners} ({obs.end_reason}, {obs.turn} turns)")
    return lines


__all__ = [
    "TOKEN_STYLES",
    "action_groups",
    "card_text",
    "chip",
    "colorize",
    "cost_text",
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
