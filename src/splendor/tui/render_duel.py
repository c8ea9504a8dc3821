"""Drawing Splendor Duel in the terminal with rich.

Every function here draws from a :class:`~splendor.duel.Observation` (what one seat may
see, D22), never from a full :class:`~splendor.duel.State`: the opponent's blind-reserved
card is a :class:`~splendor.duel.HiddenCard` in the observation and is drawn as its level
only. :func:`render_board` refuses a full state outright.

The token board is drawn as a 5×5 grid with its coordinates on every edge (columns ``a``-``e``
along the top and bottom, rows ``1``-``5`` down both sides, row 1 at the top), so that a line
reads straight off the drawing: ``take c3 c4 c5``. Every token is a coloured chip that always
carries its letter (``W U G R K``, ``P`` pearl, ``*`` gold; an empty cell is a dot), so the
board still works without colour.
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

from ..colors import DUEL_TOKEN_LETTERS, GEM_LETTERS, NUM_GEMS
from ..duel import Card, HiddenCard, Observation, Royal
from ..duel.board import SIZE, cell_name
from ..duel.cards import COLOR_JOKER, COLOR_NONE
from .render import TOKEN_STYLES as _CLASSIC_STYLES

PEARL_STYLE = "bold black on bright_magenta"
TOKEN_STYLES: tuple[str, ...] = (*_CLASSIC_STYLES[:NUM_GEMS], PEARL_STYLE, _CLASSIC_STYLES[5])
"""Rich style of each Duel token colour, in token order W U G R K P *."""

TURN_MARK = "▶"
EMPTY_STYLE = "dim"
HIDDEN_STYLE = "italic magenta"
POINTS_STYLE = "bold yellow"
CROWN_STYLE = "bold bright_yellow"
ABILITY_STYLE = "italic cyan"
JOKER_STYLE = "bold black on bright_cyan"
PRIVILEGE_STYLE = "bold bright_cyan"
EMPTY_CELL = "·"

WIN_POINTS, WIN_CROWNS, WIN_COLOR_POINTS = 20, 10, 10  # D21
TOKEN_LIMIT = 10  # D20

_LETTER_STYLE = dict(zip(DUEL_TOKEN_LETTERS, TOKEN_STYLES, strict=True))
# a token letter in notation or a card description: "steal P", "[4W 1P]", "L1 K 0pt", "*"
_TOKEN_RE = re.compile(r"(?<![A-Za-z0-9.])(\d*)([WUGRKP*])(?![A-Za-z])")


# ----------------------------------------------------------------------------- pieces


def chip(color: int, count: int | None = None, *, wide: bool = False) -> Text:
    """A coloured chip for Duel token colour ``color`` (0..6, W U G R K P *): ``W`` or,
    with a count, ``3W``; ``wide`` pads it to `` W `` (a board cell)."""
    label = DUEL_TOKEN_LETTERS[color] if count is None else f"{count}{DUEL_TOKEN_LETTERS[color]}"
    if wide:
        label = f" {label} "
    return Text(label, style=TOKEN_STYLES[color])


def colorize(text: str, style: str = "") -> Text:
    """``text`` with every Duel token letter (``W U G R K P *``, with an optional count as
    in ``3W``) drawn as a coloured chip; used for notation and card descriptions."""
    out = Text(style=style)
    pos = 0
    for m in _TOKEN_RE.finditer(text):
        out.append(text[pos : m.start()])
        out.append(m.group(0), style=_LETTER_STYLE[m.group(2)])
        pos = m.end()
    out.append(text[pos:])
    return out


def cost_text(cost: Sequence[int]) -> Text:
    """A card cost (W U G R K pearl): ``4W 2K 1P`` with coloured chips; ``free`` when 0."""
    out = Text()
    for c, n in enumerate(cost[:6]):
        if n:
            if out:
                out.append(" ")
            out.append_text(chip(c, n))
    if not out:
        out.append("free", style="dim")
    return out


def tokens_text(tokens: Sequence[int], *, show_zero: bool = True) -> Text:
    """Token counts per colour (length 5, 6 or 7), each as a chip: ``2W 0U 1G ...``."""
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


def bonus_text(card: Card) -> Text:
    """A card's bonus: its colour chip repeated per bonus (``W``, ``KK``), ``joker``, or
    ``-`` for none."""
    if card.color == COLOR_JOKER:
        return Text("joker", style=JOKER_STYLE)
    if card.color == COLOR_NONE or card.bonus_count == 0:
        return Text("-", style="dim")
    return Text(GEM_LETTERS[card.color] * card.bonus_count, style=TOKEN_STYLES[card.color])


def ability_name(card: Card | Royal) -> str:
    """The ability as shown on a card: ``again``, ``token``, ``privilege``, ``steal``;
    empty for none and for a joker's own (its bonus already says ``joker``)."""
    ab = card.ability
    if ab in ("none", "joker"):
        return ""
    if ab == "joker+again":
        return "again"
    return ab


def card_text(
    card: Card | HiddenCard | None,
    label: str = "",
    *,
    lines: bool = False,
    level: bool = True,
) -> Text:
    """One jewel card: ``label``, level, bonus, points, crowns, ability and cost; a hidden
    card shows its level only; ``None`` is an empty slot.

    With ``lines`` the card takes up to three lines (label, bonus, points and crowns; then
    the cost; then the ability), for the pyramid. ``level=False`` leaves the level out (a
    pyramid slot already says it).
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
    if level and not lines:
        out.append(f"L{card.level} ", style="dim")
    out.append_text(bonus_text(card))
    out.append(" ")
    out.append(f"{card.points}pt", style=POINTS_STYLE if card.points else "dim")
    if card.crowns:
        out.append(f" {card.crowns}cr", style=CROWN_STYLE)
    ability = ability_name(card)
    if not lines and ability:
        out.append(f" {ability}", style=ABILITY_STYLE)
    out.append("\n" if lines else " ")
    out.append_text(cost_text(card.cost))
    if lines and ability:
        out.append("\n")
        out.append(ability, style=ABILITY_STYLE)
    return out


def royal_text(royal: Royal, number: int | None = None) -> Text:
    """A royal card: ``[2] 2pt again`` (its number in the notation, points, ability)."""
    out = Text()
    if number is not None:
        out.append(f"[{number}] ", style="bold cyan")
    out.append(f"{royal.points}pt", style=POINTS_STYLE)
    ability = ability_name(royal)
    if ability:
        out.append(f" {ability}", style=ABILITY_STYLE)
    return out


def privileges_text(n: int) -> Text:
    """``n`` privilege scrolls: ``◆◆ 2`` (``none`` for 0)."""
    if n <= 0:
        return Text("0", style="dim")
    return Text("◆" * n + f" {n}", style=PRIVILEGE_STYLE)


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


def board_grid(obs: Observation) -> Text:
    """The 5×5 token board with its coordinates on all four edges::

              a   b   c   d   e
          1   W   U   G   ·   K   1
          ...
          5   R   P   *   ·   ·   5
              a   b   c   d   e

    Columns ``a``-``e`` from the left, rows ``1``-``5`` from the top; ``·`` is an empty cell.
    """
    obs = _require_observation(obs)
    cells = obs.board
    letters = "abcde"[:SIZE]
    edge = Text("    " + "".join(f" {col}  " for col in letters), style="bold cyan")
    out = Text()
    out.append_text(edge)
    for r in range(SIZE):
        out.append("\n")
        out.append(f" {r + 1}  ", style="bold cyan")
        for c in range(SIZE):
            v = cells[r * SIZE + c]
            if v is None:
                out.append(f" {EMPTY_CELL} ", style=EMPTY_STYLE)
            else:
                out.append_text(chip(v, wide=True))
            out.append(" ")
        out.append(f" {r + 1}", style="bold cyan")
    out.append("\n")
    out.append_text(edge)
    return out


def _royal_owner(obs: Observation) -> dict[int, int]:
    """Royal card id → seat holding it."""
    return {r.id: p.seat for p in obs.players for r in p.royals}


def side_panel(obs: Observation, names: Sequence[str] | None = None, *, you: bool = True) -> Table:
    """What lies beside the board: the bag, the privileges (beside the board and held),
    the decks, the royal cards (numbered 1-4, taken ones marked) and what wins (D21)."""
    obs = _require_observation(obs)
    t = Table.grid(padding=(0, 1))
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    bag = obs.bag
    line = tokens_text(bag)
    line.append(f"  ({sum(bag)})", style="dim")
    t.add_row("bag", line)
    priv = privileges_text(obs.free_privileges)
    priv.append(" beside the board", style="dim")
    for p in obs.players:
        priv.append(f"\n{seat_label(names, p.seat)} ", style="dim")
        priv.append_text(privileges_text(p.privileges))
    t.add_row("privileges", priv)
    sizes = obs.deck_sizes
    t.add_row("decks", Text(" · ".join(f"L{lvl} {sizes[lvl - 1]}" for lvl in (3, 2, 1))))
    owners = _royal_owner(obs)
    by_id = {r.id: r for p in obs.players for r in p.royals}
    royals = Text()
    for k, royal in enumerate(obs.royals):
        if k:
            royals.append("\n" if k % 2 == 0 else "  ")
        if royal is not None:
            royals.append_text(royal_text(royal, k + 1))
            continue
        who = owners.get(k)
        holder = (
            "you"
            if you and who == obs.seat
            else (seat_label(names, who) if who is not None else "?")
        )
        royals.append(f"[{k + 1}] ", style="dim")
        if k in by_id:
            royals.append(f"{by_id[k].points}pt", style="dim strike")
            royals.append(" ")
        royals.append(f"taken by {holder}", style="dim")
    t.add_row("royals", royals)
    win = Text(
        f"{WIN_POINTS} points · {WIN_CROWNS} crowns · {WIN_COLOR_POINTS} points in one colour",
        style="dim",
    )
    t.add_row("to win", win)
    cap = obs.turn_cap
    if cap is not None:
        t.add_row("turn cap", Text(f"{cap} turns, then no winner (D25)", style="dim"))
    return t


def board_and_side(
    obs: Observation, names: Sequence[str] | None = None, *, you: bool = True
) -> Table:
    """The token grid with :func:`side_panel` to its right."""
    t = Table.grid(padding=(0, 3))
    t.add_column(no_wrap=True)
    t.add_column()
    t.add_row(board_grid(obs), side_panel(obs, names, you=you))
    return t


def pyramid_table(obs: Observation) -> Table:
    """The pyramid: level 3 on top (3 cards), level 2 (4) and level 1 (5), each card with
    its slot label ``level.slot``; under each level, how many cards its deck holds."""
    obs = _require_observation(obs)
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False, padding=(0, 1))
    t.add_column("deck", style="bold", no_wrap=True, min_width=4)
    for slot in range(1, 6):
        t.add_column(f"slot {slot}")
    sizes = obs.deck_sizes
    for lvl in (3, 2, 1):
        row: list[RenderableType] = [Text(f"L{lvl}\n{sizes[lvl - 1]:2d}", style="bold")]
        cards = obs.pyramid[lvl - 1]
        for slot, card in enumerate(cards, start=1):
            row.append(card_text(card, f"{lvl}.{slot}", lines=True))
        row.extend(Text("") for _ in range(5 - len(cards)))
        t.add_row(*row)
    return t


def _best_color(color_points: Sequence[int]) -> tuple[int, int]:
    """(colour, points) of the colour with the most card points (D21)."""
    best = max(range(len(color_points)), key=lambda c: color_points[c])
    return best, color_points[best]


class _ByWidth:
    """Draws ``wide`` when at least ``min_width`` columns are available, else ``narrow``."""

    def __init__(self, wide: RenderableType, narrow: RenderableType, min_width: int) -> None:
        self.wide, self.narrow, self.min_width = wide, narrow, min_width

    def __rich_console__(self, console: Any, options: Any) -> Any:
        yield self.wide if options.max_width >= self.min_width else self.narrow


def _player_cell(obs: Observation, p: Any, names: Sequence[str] | None, you: bool) -> Text:
    who = Text()
    who.append(f"{TURN_MARK} " if p.seat == obs.current_player else "  ", style="bold green")
    who.append(f"{p.seat} ", style="dim")
    mine = you and p.seat == obs.seat
    label = seat_label(names, p.seat)
    who.append(label, style="bold underline" if mine else "bold")
    if mine and label.lower() != "you":
        who.append(" (you)", style="dim")
    who.append("\n    ")
    who.append(f"{p.points} pt" + ("" if p.points == 1 else "s"), style=POINTS_STYLE)
    who.append(" · ")
    who.append(f"{p.crowns} cr", style=CROWN_STYLE if p.crowns else "dim")
    who.append(f" · {len(p.purchased)} cards")
    who.append("\n    priv ")
    who.append_text(privileges_text(p.privileges))
    if p.royals:
        who.append("\n    royal ")
        for k, royal in enumerate(p.royals):
            if k:
                who.append(", ")
            who.append_text(royal_text(royal, royal.id + 1))
    return who


def _holdings_cell(p: Any) -> Text:
    tok = Text("tok ", style="dim")
    tok.append_text(tokens_text(p.tokens))
    over = p.num_tokens > TOKEN_LIMIT
    tok.append(f" ={p.num_tokens:2d}/{TOKEN_LIMIT}", style="bold red" if over else "dim")
    tok.append("\nbon ", style="dim")
    tok.append_text(tokens_text(p.bonuses))
    tok.append("\npts ", style="dim")
    tok.append_text(tokens_text(p.color_points))
    best, pts = _best_color(p.color_points)
    if pts:
        tok.append(f"  best {GEM_LETTERS[best]} {pts}/{WIN_COLOR_POINTS}", style="dim")
    return tok


def _reserved_cell(p: Any, prefix: str = "") -> Text:
    res = Text()
    if not p.reserved and not prefix:
        res.append("-", style=EMPTY_STYLE)
    for k, card in enumerate(p.reserved, start=1):
        if k > 1 or prefix:
            res.append("\n")
        res.append(prefix, style="dim")
        res.append_text(card_text(card, f"r{k}"))
        if p.reserved_blind[k - 1] and not isinstance(card, HiddenCard):
            res.append(" blind", style="dim")
    return res


def players_table(
    obs: Observation, names: Sequence[str] | None = None, *, you: bool = True
) -> RenderableType:
    """Both seats: points, crowns, cards, privileges, royal cards, tokens, bonuses, points
    per colour and reserved cards (the opponent's blind ones as their level only), with
    the seat to play marked. Below 96 columns the reserved cards go under the tokens."""
    obs = _require_observation(obs)

    def table(narrow: bool) -> Table:
        t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        t.add_column("player", no_wrap=True)
        heading = "holdings" if narrow else "tokens / bonuses / points per colour"
        t.add_column(heading, no_wrap=not narrow)
        if not narrow:
            t.add_column("reserved")
        for p in obs.players:
            who = _player_cell(obs, p, names, you)
            tok = _holdings_cell(p)
            if narrow:
                tok.append_text(_reserved_cell(p, "res "))
                t.add_row(who, tok, end_section=True)
            else:
                t.add_row(who, tok, _reserved_cell(p), end_section=True)
        return t

    return _ByWidth(table(False), table(True), 96)


def status_line(obs: Observation, names: Sequence[str] | None = None, *, you: bool = True) -> Text:
    """Turn, whose turn it is and the decision they owe (or the result once over).
    ``you``: the observing seat is the person looking (else a spectator of bots)."""
    obs = _require_observation(obs)
    out = Text("Splendor Duel · ", style="bold")
    cur = obs.current_player
    if cur is None:
        out.append(f"game over after {obs.turn} turns", style="bold red")
        return out
    out.append(f"turn {obs.turn + 1}", style="bold")
    if obs.turn_cap is not None:
        out.append(f"/{obs.turn_cap}", style="dim")
    mine = you and cur == obs.seat
    who = "your move" if mine else f"{seat_label(names, cur)} to play"
    out.append(" · ")
    out.append(f"{TURN_MARK} {who}", style="bold green" if mine else "bold")
    out.append(f" (seat {cur})")
    if obs.phase != "main":
        out.append(f" · {obs.phase}", style="bold magenta")
    elif obs.replenished:
        out.append(" · board replenished", style="magenta")
    if obs.extra_turn:
        out.append(" · plays again next", style="bold yellow")
    return out


def phase_hint(obs: Observation, names: Sequence[str] | None = None) -> Text | None:
    """What the current decision is about when it is not the main action: the card to
    reserve (D9), the payment (D10), the joker's colour (D14), a token to take (D15), a
    token to steal (D17), a royal card (D19) or tokens to return (D20)."""
    obs = _require_observation(obs)
    cur = obs.current_player
    if cur is None:
        return None
    me = obs.player(cur)
    phase = obs.phase
    if phase == "main":
        if obs.replenished and me.privileges:
            return Text(
                "the board was replenished this turn: privileges can no longer be used "
                "(D6, D7); now take tokens, take a gold to reserve, or buy",
                style="dim",
            )
        return None
    if phase == "reserve":
        return Text(
            "you took a gold: reserve a pyramid card ('reserve 2.3') or the top card of a "
            "deck, blind ('reserve d1') (D9)"
        )
    if phase == "payment" and obs.payment is not None:
        card, need, gold = obs.payment
        out = Text("paying for ")
        out.append_text(card_text(card))
        out.append(" · still owed ")
        owed = Text()
        for c, n in enumerate(need):
            if n:
                if owed:
                    owed.append(" ")
                owed.append_text(chip(c, n))
        out.append_text(owed if owed else Text("nothing"))
        out.append(
            f" · gold spent {gold} · 'gold W' spends a gold for a W ('gold P' for a pearl), "
            "'pay' finishes (D10)"
        )
        return out
    pending = obs.pending_card
    if phase == "joker":
        out = Text("attach the joker ")
        if pending is not None:
            out.append_text(card_text(pending))
        colours = [GEM_LETTERS[c] for c in range(NUM_GEMS) if me.bonuses[c] > 0]
        example = colours[0] if colours else "W"
        out.append(f" to the colour of one of your cards: 'joker {example}' (you have bonuses in ")
        out.append_text(colorize(" ".join(colours) or "none"))
        out.append(") (D14)")
        return out
    if phase == "token" and pending is not None:
        color = pending.color
        cells = [cell_name(i) for i, v in enumerate(obs.board) if v == color]
        out = Text("the card's ability: take a ")
        out.append_text(chip(color))
        out.append(f" token from the board: 'token {cells[0] if cells else 'c3'}' (on ")
        out.append(" ".join(cells) or "no cell")
        out.append(") (D15)")
        return out
    if phase == "steal":
        other = obs.player(1 - cur)
        held = [DUEL_TOKEN_LETTERS[c] for c in range(6) if other.tokens[c] > 0]
        out = Text(f"steal one gem or pearl token from {seat_label(names, other.seat)}: ")
        out.append(f"'steal {held[0] if held else 'W'}'; they hold ")
        out.append_text(tokens_text(other.tokens[:6], show_zero=False) or Text("none"))
        out.append(" (D17)")
        return out
    if phase == "royal":
        out = Text(f"{me.crowns} crowns: take a royal card with 'royal N' (D19): ")
        for k, royal in enumerate(obs.royals, start=1):
            if royal is not None:
                out.append_text(royal_text(royal, k))
                out.append("  ")
        out.rstrip()
        return out
    if phase == "return tokens":
        num_held = me.num_tokens
        who = "you hold" if cur == obs.seat else f"{seat_label(names, cur)} holds"
        return Text(
            f"{who} {num_held} tokens: return {num_held - TOKEN_LIMIT}, one at a time "
            f"('return W', 'return *') (limit {TOKEN_LIMIT}, D20)"
        )
    return None


def render_board(
    obs: Observation, names: Sequence[str] | None = None, *, you: bool = True
) -> Panel:
    """The whole duel as seat ``obs.seat`` sees it: status, the token board with its
    coordinates, bag, privileges, decks and royal cards, the pyramid, both players.
    ``you=False`` drops "your move" and "(you)" (for a spectator of a bots-only game, who
    still sees only that seat's observation).

    Raises:
        TypeError: ``obs`` is not a :class:`~splendor.duel.Observation` (a full state would
            show the opponent's blind reserves).
    """
    obs = _require_observation(obs)
    parts: list[RenderableType] = [
        board_and_side(obs, names, you=you),
        pyramid_table(obs),
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

_GROUP_OF = {
    "privilege": "privilege",
    "replenish": "replenish",
    "take": "take",
    "take_gold": "gold",
    "reserve_pyramid": "reserve",
    "reserve_deck": "reserve",
    "buy": "buy",
    "buy_choose": "buy+pay",
    "pay_gold": "payment",
    "pay": "payment",
    "joker": "joker",
    "token": "token",
    "steal": "steal",
    "royal": "royal",
    "return": "return",
    "pass": "pass",
}
MAX_LISTED_TAKES = 12
"""Above this many legal takes, the compact list sums them up in one line."""


def _cell_chip(obs: Observation, cell: int) -> Text:
    """``c3 W``: a cell name and the chip of the token on it."""
    out = Text(cell_name(cell) + " ")
    v = obs.board[cell]
    out.append_text(chip(v) if v is not None else Text(EMPTY_CELL, style=EMPTY_STYLE))
    return out


def _short(obs: Observation, action: Any) -> Text:
    """Compact label of an action in the numbered list (the board shows the cards)."""
    kind = action.kind
    text = str(action)
    if kind in ("privilege", "token", "take_gold"):
        return _cell_chip(obs, action.cells[0])
    if kind == "take":
        out = Text(" ".join(cell_name(c) for c in action.cells) + " ")
        for c in action.cells:
            v = obs.board[c]
            out.append_text(chip(v) if v is not None else Text(EMPTY_CELL))
        return out
    if kind == "replenish":
        return Text("replenish (opponent +1 privilege)")
    if kind == "reserve_deck":
        assert action.level is not None
        return Text(f"d{action.level} (blind, {obs.deck_sizes[action.level - 1]} left)")
    if kind in ("reserve_pyramid", "buy", "buy_choose"):
        label = text.split()[1]
        card: Any = None
        if action.reserved:
            me = obs.player(obs.seat)
            if action.slot is not None and action.slot <= len(me.reserved):
                card = me.reserved[action.slot - 1]
        elif action.level is not None and action.slot is not None:
            card = obs.pyramid[action.level - 1][action.slot - 1]
        return card_text(card, label, level=action.reserved)
    if kind == "royal":
        assert action.slot is not None
        royal = obs.royals[action.slot - 1]
        return royal_text(royal, action.slot) if royal is not None else Text(text)
    if kind in ("pay_gold", "joker", "steal", "return"):
        return colorize(text.split()[1])
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


def _span(items: Sequence[tuple[int, Any]]) -> str:
    first, last = items[0][0], items[-1][0]
    return f"{first}" if first == last else f"{first}-{last}"


def render_actions(obs: Observation, legal: Sequence[Any], width: int = 100) -> Text:
    """The legal decisions as a compact numbered list, one group per line (wrapped to
    ``width``): ``privilege  1 a1 W  2 b1 U ...``, ``buy  31 1.2 W 0pt 2U 2G ...``.

    When more than :data:`MAX_LISTED_TAKES` takes are legal they are summed up in one line
    (type the cells, read off the board); so are the ``buy … choose`` variants. Their
    numbers are in :func:`render_action_list`.
    """
    obs = _require_observation(obs)
    groups = action_groups(obs, legal)
    label_w = max((len(lbl) for lbl, _ in groups), default=4) + 1
    out = Text()
    for g, (label, items) in enumerate(groups):
        if g:
            out.append("\n")
        out.append(f"{label:<{label_w}}", style="bold")
        if label == "take" and len(items) > MAX_LISTED_TAKES:
            out.append(f"{_span(items)} ", style="cyan")
            out.append(
                f"{len(items)} lines: type their cells, like 'take c3 c4 c5' (1-3 adjacent "
                "cells in a row, column or diagonal; no gap, no gold); 'list' numbers them",
                style="dim",
            )
            continue
        if label == "buy+pay":
            out.append(f"{_span(items)} ", style="cyan")
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


def victory_text(obs: Any, names: Sequence[str] | None = None) -> str | None:
    """How the game ended, in words (D21, D25); None while it goes on.

    ``"you win with 22 prestige points (20 needed, D21)"``, ``"... with 10 crowns"``,
    ``"... with 10 points on G cards"``, or ``"no winner: the turn cap of 400 turns was
    reached (D25)"``.
    """
    if not obs.is_terminal:
        return None
    reason = obs.end_reason
    if reason == "turn cap" or not obs.winners:
        cap = getattr(obs, "turn_cap", None) or obs.turn
        return f"no winner: the turn cap of {cap} turns was reached (D25)"
    w = obs.winners[0]
    p = obs.player(w)
    who = seat_label(names, w)
    if reason == "crowns":
        how, need = f"{p.crowns} crowns", f"{WIN_CROWNS} crowns win"
    elif reason == "colour":
        best, pts = _best_color(p.color_points)
        how = f"{pts} points on {GEM_LETTERS[best]} cards"
        need = f"{WIN_COLOR_POINTS} points in one colour win"
    else:
        how, need = f"{p.points} prestige points", f"{WIN_POINTS} points win"
    verb = "win" if who.lower() == "you" else "wins"
    return f"{who} {verb} with {how} ({need}, D21)"


def render_scores(obs: Observation, names: Sequence[str] | None = None) -> Table:
    """Final (or current) scores: points, crowns, best colour, cards, royal cards, the
    winner marked, and how the game was won (D21) or capped (D25)."""
    obs = _require_observation(obs)
    winners = set(obs.winners)
    t = Table(title="final scores" if obs.is_terminal else "scores", box=box.ROUNDED)
    t.add_column("seat", justify="right")
    t.add_column("player")
    t.add_column("points", justify="right", style=POINTS_STYLE)
    t.add_column("crowns", justify="right", style=CROWN_STYLE)
    t.add_column("best colour", justify="right")
    t.add_column("cards", justify="right")
    t.add_column("royals", justify="right")
    t.add_column("")
    for p in obs.players:
        mark = Text("winner", style="bold green") if p.seat in winners else Text("")
        best, pts = _best_color(p.color_points)
        t.add_row(
            str(p.seat),
            seat_label(names, p.seat),
            str(p.points),
            str(p.crowns),
            colorize(f"{pts} {GEM_LETTERS[best]}") if pts else Text("0", style="dim"),
            str(len(p.purchased)),
            str(len(p.royals)),
            mark,
        )
    caption = victory_text(obs, names)
    if caption:
        t.caption = caption
        t.caption_style = "bold"
    return t


def result_lines(obs: Any, names: Sequence[str]) -> list[str]:
    """``scores: a 21, b 9`` and ``winner: a (points, 46 turns)`` in the words of
    ``splendor replay`` (``no winner (turn cap, 400 turns)`` after a turn cap)."""
    scores = ", ".join(f"{names[p]} {s}" for p, s in enumerate(obs.scores))
    lines = [f"scores: {scores}"]
    if obs.is_terminal:
        if obs.winners:
            winners = " and ".join(names[w] for w in obs.winners)
            lines.append(f"winner: {winners} ({obs.end_reason}, {obs.turn} turns)")
        else:
            lines.append(f"no winner ({obs.end_reason}, {obs.turn} turns)")
    return lines


__all__ = [
    "TOKEN_STYLES",
    "action_groups",
    "board_and_side",
    "board_grid",
    "bonus_text",
    "card_text",
    "chip",
    "colorize",
    "cost_text",
    "phase_hint",
    "players_table",
    "privileges_text",
    "pyramid_table",
    "render_action_list",
    "render_actions",
    "render_board",
    "render_scores",
    "result_lines",
    "royal_text",
    "seat_label",
    "side_panel",
    "status_line",
    "tokens_text",
    "victory_text",
]
