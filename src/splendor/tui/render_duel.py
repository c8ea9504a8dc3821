"""Drawing Splendor Duel in the terminal with rich.

Every function here draws from a :class:`~splendor.duel.Observation` (what one seat may
see, D22), never from a full :class:`~splendor.duel.State`: the opponent's blind-reserved
card is a :class:`~splendor.duel.HiddenCard` in the observation and is drawn as its level
only. :func:`render_board` refuses a full state outright.

The token board is drawn as a 5×5 grid with its coordinates on every edge (columns ``a``-``e``
along the top and bottom, rows ``1``-``5`` down both sides, row 1 at the top), so that a line
reads straight off the drawing: ``take c3 c4 c5``. Every token is a coloured chip that always
carries its letter (``W U G R K``, ``P`` pearl, ``*`` gold; an empty cell is a dot), so the
board still works without colour. The letters are the language's (``language=``,
:func:`.render_common.shown_letters`: French ``B U V R N P O``), and so are the verbs and
letters of the numbered list and of the hints' examples; the notation stays English in the
records. What this drawing shares with classic's (:mod:`.render`) is written once in
:mod:`.render_common`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..colors import DUEL_TOKEN_LETTERS, NUM_GEMS
from ..duel import ROYALS, Card, HiddenCard, Observation, Royal
from ..duel.board import SIZE, cell_name
from ..duel.cards import COLOR_JOKER, COLOR_NONE
from ..duel.rules import TOKEN_LIMIT, WIN_COLOR_POINTS, WIN_CROWNS, WIN_POINTS
from ..duel.state import to_action
from ..i18n import DEFAULT_LANGUAGE, Messages
from . import render_common as common
from . import words
from .render_common import (
    EMPTY_STYLE,
    GEM_STYLES,
    GOLD_STYLE,
    PEARL_STYLE,
    POINTS_STYLE,
    result_lines,
    seat_label,
)
from .words import points_short, rich_format, tui_messages

TOKEN_STYLES: tuple[str, ...] = (*GEM_STYLES, PEARL_STYLE, GOLD_STYLE)
"""Rich style of each Duel token colour, in token order W U G R K P *."""

CROWN_STYLE = "bold bright_yellow"
ABILITY_STYLE = "italic cyan"
JOKER_STYLE = "bold black on bright_cyan"
PRIVILEGE_STYLE = "bold bright_cyan"
EMPTY_CELL = "·"

GAME = "duel"
"""The game's name in :mod:`splendor.commands` (its letters and verbs)."""


def letters(language: str = DEFAULT_LANGUAGE) -> str:
    """The token letters a person reads in ``language``, in colour order W U G R K P *
    (:func:`.render_common.shown_letters`)."""
    return common.shown_letters(GAME, language)


def chip(
    color: int, count: int | None = None, *, wide: bool = False, language: str = DEFAULT_LANGUAGE
) -> Text:
    """A coloured chip for Duel token colour ``color`` (0..6, W U G R K P *): ``W`` or,
    with a count, ``3W``, in the letters of ``language`` (French ``B``, ``3B``); ``wide``
    pads it to `` W `` (a board cell)."""
    return common.token_chip(color, count, letters(language), TOKEN_STYLES, wide=wide)


def _chips(language: str) -> common.Chip:
    return functools.partial(chip, language=language)


def colorize(text: str, style: str = "", *, language: str = DEFAULT_LANGUAGE) -> Text:
    """``text`` with every Duel token letter of ``language`` (English ``W U G R K P *``,
    French ``B U V R N P O``; with an optional count as in ``3W``) drawn as a coloured
    chip; used for moves and card descriptions written in that language (the English
    notation with the default)."""
    shown = letters(language)
    pattern = common.token_pattern(shown, "A-Za-z0-9.")
    return common.colorize_tokens(text, style, pattern, common.letter_styles(shown, TOKEN_STYLES))


def cost_text(cost: Sequence[int], *, language: str = DEFAULT_LANGUAGE) -> Text:
    """A card cost (W U G R K pearl): ``4W 2K 1P`` with coloured chips (the letters of
    ``language``); ``free`` when 0."""
    out = common.counts_text(cost[:6], _chips(language))
    if not out:
        out.append(tui_messages(language).gettext("free"), style="dim")
    return out


def tokens_text(
    tokens: Sequence[int], *, show_zero: bool = True, language: str = DEFAULT_LANGUAGE
) -> Text:
    """Token counts per colour (length 5, 6 or 7), each as a chip: ``2W 0U 1G ...`` (the
    letters of ``language``); a zero count dimmed, or left out when not ``show_zero``."""
    return common.tokens_text(tokens, _chips(language), show_zero=show_zero)


def _bonus_word(card: Card, t: Messages) -> str:
    if card.color == COLOR_JOKER:
        return t.gettext("joker")
    if card.color == COLOR_NONE or card.bonus_count == 0:
        return "-"
    return letters(t.language)[card.color] * card.bonus_count


def bonus_text(card: Card, *, language: str = DEFAULT_LANGUAGE) -> Text:
    """A card's bonus: its colour chip repeated per bonus (``W``, ``KK``), ``joker``, or
    ``-`` for none."""
    word = _bonus_word(card, tui_messages(language))
    if card.color == COLOR_JOKER:
        return Text(word, style=JOKER_STYLE)
    if word == "-":
        return Text(word, style="dim")
    return Text(word, style=TOKEN_STYLES[card.color])


def ability_name(card: Card | Royal, *, language: str = DEFAULT_LANGUAGE) -> str:
    """The ability as shown on a card (D13-D17): ``again``, ``token``, ``privilege``,
    ``steal`` (in ``language``); empty for none and for a joker's own (its bonus already
    says ``joker``)."""
    ab = card.ability
    if ab in ("none", "joker"):
        return ""
    if ab == "joker+again":
        ab = "again"
    # "ability" tells these apart from the same words elsewhere (a privilege spent, a
    # token taken): they name what a card does
    tr = tui_messages(language).translations
    names = {
        "again": tr.pgettext("ability", "again"),
        "token": tr.pgettext("ability", "token"),
        "privilege": tr.pgettext("ability", "privilege"),
        "steal": tr.pgettext("ability", "steal"),
    }
    return names.get(ab, ab)


def crowns_short(n: int, t: Messages) -> str:
    """Crowns on a card, short: ``2cr``."""
    return t.gettext("{n}cr", n=n)


def card_words(card: Card | HiddenCard | None, language: str = DEFAULT_LANGUAGE) -> str:
    """A jewel card in one line of text, as ``str(card)`` writes it
    (``L1 W 0pt again [2U 2G 1P]``) with its words in ``language``; a hidden card is its
    level only (D22); ``None`` an empty slot."""
    t = tui_messages(language)
    if card is None or isinstance(card, HiddenCard):
        return common.unseen_card_words(card, t)
    shown = letters(language)
    cost = " ".join(f"{n}{shown[c]}" for c, n in enumerate(card.cost) if n)
    text = f"L{card.level} {_bonus_word(card, t)} {points_short(card.points, t)}"
    if card.crowns:
        text += " " + crowns_short(card.crowns, t)
    ability = ability_name(card, language=language)
    if ability:
        text += " " + ability
    return f"{text} [{cost or t.gettext('free')}]"


def royal_words(royal: Royal, language: str = DEFAULT_LANGUAGE) -> str:
    """A royal card in one line of text: ``royal card 2pt again``."""
    t = tui_messages(language)
    ability = ability_name(royal, language=language)
    text = t.gettext("royal card {points}", points=points_short(royal.points, t))
    return f"{text} {ability}" if ability else text


def card_text(
    card: Card | HiddenCard | None,
    label: str = "",
    *,
    lines: bool = False,
    level: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Text:
    """One jewel card: ``label``, level, bonus, points, crowns, ability and cost; a hidden
    card shows its level only; ``None`` is an empty slot.

    With ``lines`` the card takes up to three lines (label, bonus, points and crowns; then
    the cost; then the ability), for the pyramid. ``level=False`` leaves the level out (a
    pyramid slot already says it).
    """
    t = tui_messages(language)
    out = common.card_start(card, label, t)
    if card is None or isinstance(card, HiddenCard):
        return out
    if level and not lines:
        out.append(f"L{card.level} ", style="dim")
    out.append_text(bonus_text(card, language=language))
    out.append(" ")
    out.append_text(common.card_points(card.points, t))
    if card.crowns:
        out.append(" " + crowns_short(card.crowns, t), style=CROWN_STYLE)
    ability = ability_name(card, language=language)
    if not lines and ability:
        out.append(f" {ability}", style=ABILITY_STYLE)
    out.append("\n" if lines else " ")
    out.append_text(cost_text(card.cost, language=language))
    if lines and ability:
        out.append("\n")
        out.append(ability, style=ABILITY_STYLE)
    return out


def royal_text(
    royal: Royal, number: int | None = None, *, language: str = DEFAULT_LANGUAGE
) -> Text:
    """A royal card: ``[2] 2pt again`` (its number in the notation, points, ability)."""
    out = Text()
    if number is not None:
        out.append(f"[{number}] ", style="bold cyan")
    out.append(points_short(royal.points, tui_messages(language)), style=POINTS_STYLE)
    ability = ability_name(royal, language=language)
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
    return common.require_observation(obs, Observation)


def board_grid(obs: Observation, *, language: str = DEFAULT_LANGUAGE) -> Text:
    """The 5×5 token board with its coordinates on all four edges::

              a   b   c   d   e
          1   W   U   G   ·   K   1
          ...
          5   R   P   *   ·   ·   5
              a   b   c   d   e

    Columns ``a``-``e`` from the left, rows ``1``-``5`` from the top; ``·`` is an empty cell;
    the tokens in the letters of ``language``.
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
                out.append_text(chip(v, wide=True, language=language))
            out.append(" ")
        out.append(f" {r + 1}", style="bold cyan")
    out.append("\n")
    out.append_text(edge)
    return out


def _royal_owner(obs: Observation) -> dict[int, int]:
    """Royal card id → seat holding it."""
    return {r.id: p.seat for p in obs.players for r in p.royals}


def side_panel(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    you: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Table:
    """What lies beside the board: the bag, the privileges (beside the board and held),
    the decks, the royal cards (numbered 1-4, taken ones marked) and what wins (D21)."""
    obs = _require_observation(obs)
    t = tui_messages(language)
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    bag = obs.bag
    line = tokens_text(bag, language=language)
    line.append(f"  ({sum(bag)})", style="dim")
    table.add_row(t.gettext("bag"), line)
    priv = privileges_text(obs.free_privileges)
    priv.append(" " + t.gettext("beside the board"), style="dim")
    for p in obs.players:
        priv.append(f"\n{words.seat_label(names, p.seat, t)} ", style="dim")
        priv.append_text(privileges_text(p.privileges))
    table.add_row(t.gettext("privileges"), priv)
    sizes = obs.deck_sizes
    table.add_row(
        t.gettext("decks"), Text(" · ".join(f"L{lvl} {sizes[lvl - 1]}" for lvl in (3, 2, 1)))
    )
    owners = _royal_owner(obs)
    by_id = {r.id: r for p in obs.players for r in p.royals}
    royals = Text()
    for k, royal in enumerate(obs.royals):
        if k:
            royals.append("\n" if k % 2 == 0 else "  ")
        if royal is not None:
            royals.append_text(royal_text(royal, k + 1, language=language))
            continue
        who = owners.get(k)
        royals.append(f"[{k + 1}] ", style="dim")
        if k in by_id:
            royals.append(points_short(by_id[k].points, t), style="dim strike")
            royals.append(" ")
        if you and who == obs.seat:
            taken = t.gettext("taken by you")
        else:
            holder = words.seat_label(names, who, t) if who is not None else "?"
            taken = t.gettext("taken by {name}", name=holder)
        royals.append(taken, style="dim")
    table.add_row(t.gettext("royals"), royals)
    win = Text(
        t.gettext(
            "{points} points · {crowns} crowns · {colour} points in one colour",
            points=WIN_POINTS,
            crowns=WIN_CROWNS,
            colour=WIN_COLOR_POINTS,
        ),
        style="dim",
    )
    table.add_row(t.gettext("to win"), win)
    cap = obs.turn_cap
    if cap is not None:
        table.add_row(
            t.gettext("turn cap"),
            Text(
                t.ngettext(
                    "{n} turn, then no winner (D25)", "{n} turns, then no winner (D25)", cap, n=cap
                ),
                style="dim",
            ),
        )
    return table


def board_and_side(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    you: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Table:
    """The token grid with :func:`side_panel` to its right."""
    table = Table.grid(padding=(0, 3))
    table.add_column(no_wrap=True)
    table.add_column()
    table.add_row(
        board_grid(obs, language=language), side_panel(obs, names, you=you, language=language)
    )
    return table


def pyramid_table(obs: Observation, *, language: str = DEFAULT_LANGUAGE) -> Table:
    """The pyramid: level 3 on top (3 cards), level 2 (4) and level 1 (5), each card with
    its slot label ``level.slot``; under each level, how many cards its deck holds."""
    obs = _require_observation(obs)
    t = tui_messages(language)
    table = common.cards_table(t, 5, deck_width=4)
    sizes = obs.deck_sizes
    for lvl in (3, 2, 1):
        row: list[RenderableType] = [Text(f"L{lvl}\n{sizes[lvl - 1]:2d}", style="bold")]
        cards = obs.pyramid[lvl - 1]
        for slot, card in enumerate(cards, start=1):
            row.append(card_text(card, f"{lvl}.{slot}", lines=True, language=language))
        row.extend(Text("") for _ in range(5 - len(cards)))
        table.add_row(*row)
    return table


def _best_color(color_points: Sequence[int]) -> tuple[int, int]:
    """(colour, points) of the colour with the most card points (D21)."""
    best = max(range(len(color_points)), key=lambda c: color_points[c])
    return best, color_points[best]


class _ByWidth:
    """Draws ``wide`` when at least ``min_width`` columns are available, else ``narrow``."""

    def __init__(self, wide: RenderableType, narrow: RenderableType, min_width: int) -> None:
        self.wide, self.narrow, self.min_width = wide, narrow, min_width

    def __rich_console__(self, console: Any, options: Any) -> Any:
        fits = options.max_width >= self.min_width
        if fits:  # and wide enough for the words of this language
            unbounded = options.update_width(10 * options.max_width)
            need = Measurement.get(console, unbounded, self.wide).maximum
            fits = options.max_width >= need
        yield self.wide if fits else self.narrow


def _player_cell(
    obs: Observation, p: Any, names: Sequence[str] | None, you: bool, t: Messages
) -> Text:
    who = common.seat_cell(obs, p, names, you, t)
    who.append("\n    ")
    points = t.ngettext("{n} prestige point", "{n} prestige points", p.points, n=p.points)
    who.append(points, style=POINTS_STYLE)
    who.append("\n    ")
    crowns = t.ngettext("{n} crown", "{n} crowns", p.crowns, n=p.crowns)
    who.append(crowns, style=CROWN_STYLE if p.crowns else "dim")
    cards = len(p.purchased)
    who.append(" · " + t.ngettext("{n} card", "{n} cards", cards, n=cards))
    who.append("\n    " + t.gettext("priv") + " ")
    who.append_text(privileges_text(p.privileges))
    if p.royals:
        label = t.gettext("royal") + " "
        for k, royal in enumerate(p.royals):
            who.append("\n    " + (label if k == 0 else " " * len(label)))
            who.append_text(royal_text(royal, royal.id + 1, language=t.language))
    return who


def _labels(t: Messages) -> dict[str, str]:
    """The row labels of a player's holdings, padded to one width."""
    found = {
        "tok": t.gettext("tok"),
        "bon": t.gettext("bon"),
        "pts": t.gettext("pts"),
        "res": t.gettext("res"),
    }
    width = max(len(v) for v in found.values())
    return {k: v.ljust(width) + " " for k, v in found.items()}


def _holdings_cell(p: Any, t: Messages) -> Text:
    labels = _labels(t)

    def row(tokens: Sequence[int]) -> Text:
        return tokens_text(tokens, language=t.language)

    tok = common.token_rows(p, row, labels["tok"], labels["bon"], TOKEN_LIMIT)
    tok.append("\n" + labels["pts"], style="dim")
    tok.append_text(row(p.color_points))
    best, pts = _best_color(p.color_points)
    if pts:
        colour = letters(t.language)[best]
        best_text = t.gettext(
            "best {colour} {n}/{need}", colour=colour, n=pts, need=WIN_COLOR_POINTS
        )
        tok.append("  " + best_text, style="dim")
    return tok


def _reserved_cell(p: Any, t: Messages, prefix: str = "") -> Text:
    def reserved_card(card: Card | HiddenCard, label: str) -> Text:
        return card_text(card, label, language=t.language)

    return common.reserved_text(p, reserved_card, t, prefix)


def players_table(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    you: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> RenderableType:
    """Both seats: points, crowns, cards, privileges, royal cards, tokens, bonuses, points
    per colour and reserved cards (the opponent's blind ones as their level only), with
    the seat to play marked. Below 96 columns, or when the words of the language make the
    table wider than the console, the reserved cards go under the tokens."""
    obs = _require_observation(obs)
    t = tui_messages(language)

    def table(narrow: bool) -> Table:
        out = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        out.add_column(t.gettext("player"), no_wrap=True)
        if narrow:
            heading = t.gettext("holdings")
        else:
            heading = t.gettext("tokens / bonuses / points per colour")
        out.add_column(heading, no_wrap=not narrow)
        if not narrow:
            out.add_column(t.gettext("reserved"))
        for p in obs.players:
            who = _player_cell(obs, p, names, you, t)
            tok = _holdings_cell(p, t)
            if narrow:
                tok.append_text(_reserved_cell(p, t, _labels(t)["res"]))
                out.add_row(who, tok, end_section=True)
            else:
                out.add_row(who, tok, _reserved_cell(p, t), end_section=True)
        return out

    return _ByWidth(table(False), table(True), 96)


def status_line(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    you: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Text:
    """Turn, whose turn it is and the decision they owe (or the result once over).
    ``you``: the observing seat is the person looking (else a spectator of bots)."""
    obs = _require_observation(obs)
    t = tui_messages(language)
    out = Text("Splendor Duel · ", style="bold")
    if obs.current_player is None:
        out.append(common.game_over(obs.turn, t), style="bold red")
        return out
    out.append(t.gettext("turn {n}", n=obs.turn + 1), style="bold")
    if obs.turn_cap is not None:
        out.append(f"/{obs.turn_cap}", style="dim")
    common.append_turn_owner(out, obs, names, you, t)
    if obs.phase == "main" and obs.replenished:
        out.append(" · " + t.gettext("board replenished"), style="magenta")
    if obs.extra_turn:
        out.append(" · " + t.gettext("plays again next"), style="bold yellow")
    return out


def phase_hint(
    obs: Observation, names: Sequence[str] | None = None, *, language: str = DEFAULT_LANGUAGE
) -> Text | None:
    """What the current decision is about when it is not the main action: the card to
    reserve (D9), the payment (D10), the joker's colour (D14), a token to take (D15), a
    token to steal (D17), a royal card (D19) or tokens to return (D20)."""
    obs = _require_observation(obs)
    if obs.current_player is None:
        return None
    hint = _PHASE_HINTS.get(obs.phase)
    if hint is None:
        return None
    return hint(_Hint(obs, obs.player(obs.current_player), names, tui_messages(language)))


@dataclass(frozen=True)
class _Hint:
    """What a phase's hint is written from: the observation, the seat to play, the seat
    names and the messages (their language is ``t.language``)."""

    obs: Observation
    me: Any
    names: Sequence[str] | None
    t: Messages

    def command(self, notation: str) -> str:
        """``notation`` as typed in the hint's language (``gold W`` -> French ``or B``)."""
        return common.command(GAME, notation, self.t.language)

    def numbered(self, notation: str) -> str:
        """The verb of ``notation`` in the hint's language, then ``N`` (``royal N``)."""
        return self.command(notation).split()[0] + " N"


def _main_hint(h: _Hint) -> Text | None:
    """After a replenishment (D6, D7): privileges can no longer be used this turn."""
    if not (h.obs.replenished and h.me.privileges):
        return None
    return Text(
        h.t.gettext(
            "the board was replenished this turn: privileges can no longer be used "
            "(D6, D7); now take tokens, take a gold to reserve, or buy"
        ),
        style="dim",
    )


def _reserve_hint(h: _Hint) -> Text:
    """After taking a gold: reserve a card (D9)."""
    return Text(
        h.t.gettext(
            "you took a gold: reserve a pyramid card ('{faceup}') or the top card of "
            "a deck, blind ('{deck}') (D9)",
            faceup=h.command("reserve 2.3"),
            deck=h.command("reserve d1"),
        )
    )


def _payment_hint(h: _Hint) -> Text | None:
    """A payment under way (D10): the card, what is still owed, the gold spent."""
    if h.obs.payment is None:
        return None
    t = h.t
    card, need, gold = h.obs.payment
    owed = common.counts_text(need, _chips(t.language))
    return rich_format(
        t.gettext(
            "paying for {card} · still owed {owed} · gold spent: {gold} · '{spend}' spends "
            "a gold for a {letter} ('{pearl}' for a pearl), '{finish}' finishes (D10)"
        ),
        card=card_text(card, language=t.language),
        owed=owed if owed else Text(t.gettext("nothing")),
        gold=gold,
        spend=h.command("gold W"),
        letter=letters(t.language)[0],
        pearl=h.command("gold P"),
        finish=h.command("pay"),
    )


def _joker_hint(h: _Hint) -> Text:
    """A joker card to attach to a colour the player has (D14)."""
    t, pending = h.t, h.obs.pending_card
    shown = letters(t.language)
    colours = [c for c in range(NUM_GEMS) if h.me.bonuses[c] > 0]
    return rich_format(
        t.gettext(
            "attach the joker {card} to the colour of one of your cards: '{example}' "
            "(you have bonuses in {colours}) (D14)"
        ),
        card=card_text(pending, language=t.language) if pending is not None else Text(""),
        example=h.command(f"joker {DUEL_TOKEN_LETTERS[colours[0] if colours else 0]}"),
        colours=colorize(" ".join(shown[c] for c in colours), language=t.language)
        if colours
        else Text(t.gettext("no colour")),
    )


def _token_hint(h: _Hint) -> Text | None:
    """A card's ability: a token of its colour to take from the board (D15)."""
    pending = h.obs.pending_card
    if pending is None:
        return None
    color = pending.color
    cells = [cell_name(i) for i, v in enumerate(h.obs.board) if v == color]
    if not cells:  # the engine skips the ability then (D15): shown for completeness
        return rich_format(
            h.t.gettext("the card's ability: take a {token} token from the board; none is left"),
            token=chip(color, language=h.t.language),
        )
    return rich_format(
        h.t.gettext(
            "the card's ability: take a {token} token from the board: '{command}' "
            "(on {cells}) (D15)"
        ),
        token=chip(color, language=h.t.language),
        command=h.command(f"token {cells[0]}"),
        cells=" ".join(cells),
    )


def _steal_hint(h: _Hint) -> Text:
    """A card's ability: a token to steal from the opponent (D17)."""
    t = h.t
    other = h.obs.player(1 - h.me.seat)
    held = [c for c in range(6) if other.tokens[c] > 0]
    tokens = tokens_text(other.tokens[:6], show_zero=False, language=t.language)
    return rich_format(
        t.gettext(
            "steal one gem or pearl token from {name}: '{example}'; they hold {tokens} (D17)"
        ),
        name=words.seat_label(h.names, other.seat, t),
        example=h.command(f"steal {DUEL_TOKEN_LETTERS[held[0] if held else 0]}"),
        tokens=tokens or Text(t.gettext("no token")),
    )


def _royal_hint(h: _Hint) -> Text:
    """Crowns reached: a royal card to take (D19), with the ones left."""
    royals = Text()
    for k, royal in enumerate(h.obs.royals, start=1):
        if royal is not None:
            if royals:
                royals.append("  ")
            royals.append_text(royal_text(royal, k, language=h.t.language))
    return rich_format(
        h.t.ngettext(
            "{n} crown: take a royal card with '{command}' (D19): {royals}",
            "{n} crowns: take a royal card with '{command}' (D19): {royals}",
            h.me.crowns,
        ),
        n=h.me.crowns,
        command=h.numbered("royal 1"),
        royals=royals,
    )


def _return_hint(h: _Hint) -> Text:
    """Tokens above the limit to return, one at a time (D20)."""
    t, held_n = h.t, h.me.num_tokens
    back = held_n - TOKEN_LIMIT
    if h.me.seat == h.obs.seat:
        text = t.ngettext(
            "you hold {held} tokens: return {n} token ('{one}', '{gold}') (limit 10, D20)",
            "you hold {held} tokens: return {n} tokens, one at a time ('{one}', "
            "'{gold}') (limit 10, D20)",
            back,
            held=held_n,
            n=back,
            one=h.command("return W"),
            gold=h.command("return *"),
        )
    else:
        text = t.ngettext(
            "{name} holds {held} tokens and returns {n} token (limit 10, D20)",
            "{name} holds {held} tokens and returns {n} tokens, one at a time (limit 10, D20)",
            back,
            name=words.seat_label(h.names, h.me.seat, t),
            held=held_n,
            n=back,
        )
    return Text(text)


_PHASE_HINTS: dict[str, Callable[[_Hint], Text | None]] = {
    "main": _main_hint,
    "reserve": _reserve_hint,
    "payment": _payment_hint,
    "joker": _joker_hint,
    "token": _token_hint,
    "steal": _steal_hint,
    "royal": _royal_hint,
    "return tokens": _return_hint,
}
"""The hint of each decision phase of a turn (:func:`phase_hint`)."""


def render_board(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    you: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Panel:
    """The whole duel as seat ``obs.seat`` sees it: status, the token board with its
    coordinates, bag, privileges, decks and royal cards, the pyramid, both players.
    ``you=False`` drops "your move" and "(you)" (for a spectator of a bots-only game, who
    still sees only that seat's observation). ``language``: ``"en"``, ``"fr"`` or ``"nl"``.

    Raises:
        TypeError: ``obs`` is not a :class:`~splendor.duel.Observation` (a full state would
            show the opponent's blind reserves).
        ValueError: an unknown ``language``.
    """
    obs = _require_observation(obs)
    parts: list[RenderableType] = [
        board_and_side(obs, names, you=you, language=language),
        pyramid_table(obs, language=language),
        players_table(obs, names, you=you, language=language),
    ]
    return common.board_panel(
        parts,
        phase_hint(obs, names, language=language),
        status_line(obs, names, you=you, language=language),
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


def _group_labels(t: Messages) -> dict[str, str]:
    return {
        "privilege": t.gettext("privilege"),
        "replenish": t.gettext("replenish"),
        "take": t.gettext("take"),
        "gold": t.gettext("take gold"),
        "reserve": t.gettext("reserve"),
        "buy": t.gettext("buy"),
        "buy+pay": t.gettext("buy+pay"),
        "payment": t.gettext("payment"),
        "joker": t.gettext("joker"),
        "token": t.gettext("token"),
        "steal": t.gettext("steal"),
        "royal": t.gettext("royal"),
        "return": t.gettext("return"),
        "pass": t.gettext("pass"),
    }


def describe(obs: Observation, action: Any, *, language: str = DEFAULT_LANGUAGE) -> str:
    """``action`` as a person types it in ``language`` (the notation in English), with
    the card, tokens or royal card it concerns in this position (``buy 1.2: L1 W 0pt
    again [2U 2G 1P]``, ``take a1 b1: U G``; French ``prendre a1 b1: U V``), as
    :meth:`~splendor.duel.Observation.describe` writes it. A card the observing seat may
    not see stays hidden (D22).

    Raises:
        ValueError: a malformed action.
    """
    obs = _require_observation(obs)
    a = to_action(action)
    typed = common.command(GAME, a, language)
    if a.kind in ("reserve_pyramid", "buy", "buy_choose") and not a.reserved:
        assert a.level is not None and a.slot is not None
        card = obs.pyramid[a.level - 1][a.slot - 1]
        return f"{typed}: {card_words(card, language)}"
    if a.reserved and a.slot:
        reserved = common.reserved_words(obs, a, card_words, language)
        if reserved is not None:
            return f"{typed}: {reserved.partition(': ')[2]}"
    if a.kind == "take":
        board, shown = obs.board, letters(language)
        got = " ".join(shown[v] if (v := board[c]) is not None else "-" for c in a.cells)
        return f"{typed}: {got}"
    if a.kind == "royal" and a.slot:
        return f"{typed}: {royal_words(ROYALS[a.slot - 1], language)}"
    return typed


def _cell_chip(obs: Observation, cell: int, language: str) -> Text:
    """``c3 W``: a cell name and the chip of the token on it (the letters of
    ``language``)."""
    out = Text(cell_name(cell) + " ")
    v = obs.board[cell]
    empty = Text(EMPTY_CELL, style=EMPTY_STYLE)
    out.append_text(chip(v, language=language) if v is not None else empty)
    return out


def _short(obs: Observation, action: Any, t: Messages) -> Text:
    """Compact label of an action in the numbered list (the board shows the cards): what
    follows the group's verb, in the letters of ``t``'s language."""
    kind = action.kind
    text = str(action)
    if kind in ("privilege", "token", "take_gold"):
        return _cell_chip(obs, action.cells[0], t.language)
    if kind == "take":
        out = Text(" ".join(cell_name(c) for c in action.cells) + " ")
        for c in action.cells:
            v = obs.board[c]
            out.append_text(chip(v, language=t.language) if v is not None else Text(EMPTY_CELL))
        return out
    if kind == "replenish":
        return Text(t.gettext("replenish (your opponent takes a privilege)"))
    if kind == "reserve_deck":
        assert action.level is not None
        left = obs.deck_sizes[action.level - 1]
        return Text(
            t.ngettext(
                "d{level} (blind, {n} left)",
                "d{level} (blind, {n} left)",
                left,
                level=action.level,
                n=left,
            )
        )
    if kind in ("reserve_pyramid", "buy", "buy_choose"):
        label = text.split()[1]
        card: Any = None
        if action.reserved:
            me = obs.player(obs.seat)
            if action.slot is not None and action.slot <= len(me.reserved):
                card = me.reserved[action.slot - 1]
        elif action.level is not None and action.slot is not None:
            card = obs.pyramid[action.level - 1][action.slot - 1]
        return card_text(card, label, level=action.reserved, language=t.language)
    if kind == "royal":
        assert action.slot is not None
        royal = obs.royals[action.slot - 1]
        if royal is None:
            return Text(text)
        return royal_text(royal, action.slot, language=t.language)
    if kind in ("joker", "steal", "return"):
        return colorize(common.command_args(GAME, action, t.language), language=t.language)
    return colorize(common.command(GAME, action, t.language), language=t.language)  # payment


def action_groups(
    obs: Observation, legal: Sequence[Any], *, language: str = DEFAULT_LANGUAGE
) -> list[tuple[str, list[tuple[int, Any]]]]:
    """``legal`` as ``[(group label, [(number, action), ...]), ...]`` (privilege,
    replenish, take, take gold, reserve, buy, buy+pay, payment, joker, token, steal, royal,
    return, pass); numbers are 1-based positions in ``legal`` (what the person types);
    labels in ``language``."""
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
    ``width``): ``privilege  1 a1 W  2 b1 U ...``, ``buy  31 1.2 W 0pt 2U 2G ...``. Every
    number is shown with what it does.

    When more than :data:`MAX_LISTED_TAKES` takes are legal (and not ``full``: the
    ``list`` command numbers them all) they are summed up in one line without numbers
    (type the cells, read off the board; the example is one of them). The ``buy … choose``
    variants are listed with their cards under ``buy+pay``, then a line that says what
    they do.
    """
    obs = _require_observation(obs)
    t = tui_messages(language)

    def summary(out: Text, key: str, items: list[tuple[int, Any]]) -> bool:
        if full or key != "take" or len(items) <= MAX_LISTED_TAKES:
            return False
        example = max((a for _, a in items), key=lambda a: len(a.cells))  # 3 cells if any
        out.append(
            t.ngettext(
                "{n} line: type its cells, like '{example}' (1-3 adjacent cells in a "
                "row, column or diagonal; no gap, no gold); 'list' numbers them",
                "{n} lines: type their cells, like '{example}' (1-3 adjacent cells in "
                "a row, column or diagonal; no gap, no gold); 'list' numbers them",
                len(items),
                n=len(items),
                example=common.command(GAME, example, language),
            ),
            style="dim",
        )
        return True

    def note(key: str, items: list[tuple[int, Any]]) -> Text | None:
        return common.choose_note(items, t, GAME) if key == "buy+pay" else None

    labels = _group_labels(t)
    return common.numbered_actions(
        legal, _GROUP_OF, labels, width, lambda a: _short(obs, a, t), summary, note
    )


def render_action_list(
    obs: Observation, legal: Sequence[Any], *, language: str = DEFAULT_LANGUAGE
) -> Table:
    """Every legal decision on its own line: number, notation and what it means (the card,
    tokens or royal card it concerns, :func:`describe`), for ``list`` and ``?``."""
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


def victory_text(
    obs: Any,
    names: Sequence[str] | None = None,
    *,
    you: bool = False,
    language: str = DEFAULT_LANGUAGE,
) -> str | None:
    """How the game ended, in words (D21, D25); None while it goes on.

    ``"ann wins with 22 prestige points (20 points win, D21)"``, ``"... with 10 crowns"``,
    ``"... with 10 points on G cards"``, or ``"no winner: the turn cap of 400 turns was
    reached (D25)"``. The observing seat reads "you win" when ``you`` (a person watches
    from that seat) or when its label is "you".
    """
    if not obs.is_terminal:
        return None
    t = tui_messages(language)
    reason = obs.end_reason
    if reason == "turn cap" or not obs.winners:
        cap = getattr(obs, "turn_cap", None) or obs.turn
        return t.ngettext(
            "no winner: the turn cap of {n} turn was reached (D25)",
            "no winner: the turn cap of {n} turns was reached (D25)",
            cap,
            n=cap,
        )
    w = obs.winners[0]
    who = words.seat_label(names, w, t)
    mine = (you and w == getattr(obs, "seat", None)) or words.is_you(who, t)
    if reason == "crowns":
        return _crowns_victory(t, obs.player(w).crowns, who, mine)
    if reason == "colour":
        return _colour_victory(t, obs.player(w).color_points, who, mine)
    return _points_victory(t, obs.player(w).points, who, mine)


def _crowns_victory(t: Messages, n: int, who: str, mine: bool) -> str:
    """A win by crowns (D21), read by the winner (``mine``) or by anyone."""
    if mine:
        return t.ngettext(
            "you win with {n} crown ({need} crowns win, D21)",
            "you win with {n} crowns ({need} crowns win, D21)",
            n,
            n=n,
            need=WIN_CROWNS,
        )
    return t.ngettext(
        "{name} wins with {n} crown ({need} crowns win, D21)",
        "{name} wins with {n} crowns ({need} crowns win, D21)",
        n,
        name=who,
        n=n,
        need=WIN_CROWNS,
    )


def _colour_victory(t: Messages, color_points: Sequence[int], who: str, mine: bool) -> str:
    """A win by the points on one colour's cards (D21)."""
    best, n = _best_color(color_points)
    if mine:
        return t.ngettext(
            "you win with {n} point on {colour} cards ({need} points in one colour win, D21)",
            "you win with {n} points on {colour} cards ({need} points in one colour win, D21)",
            n,
            n=n,
            colour=letters(t.language)[best],
            need=WIN_COLOR_POINTS,
        )
    return t.ngettext(
        "{name} wins with {n} point on {colour} cards ({need} points in one colour win, D21)",
        "{name} wins with {n} points on {colour} cards ({need} points in one colour win, D21)",
        n,
        name=who,
        n=n,
        colour=letters(t.language)[best],
        need=WIN_COLOR_POINTS,
    )


def _points_victory(t: Messages, n: int, who: str, mine: bool) -> str:
    """A win by prestige points (D21)."""
    if mine:
        return t.ngettext(
            "you win with {n} prestige point ({need} points win, D21)",
            "you win with {n} prestige points ({need} points win, D21)",
            n,
            n=n,
            need=WIN_POINTS,
        )
    return t.ngettext(
        "{name} wins with {n} prestige point ({need} points win, D21)",
        "{name} wins with {n} prestige points ({need} points win, D21)",
        n,
        name=who,
        n=n,
        need=WIN_POINTS,
    )


def render_scores(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    you: bool = False,
    language: str = DEFAULT_LANGUAGE,
) -> Table:
    """Final (or current) scores: points, crowns, best colour, cards, royal cards, the
    winner marked, and how the game was won (D21) or capped (D25)."""
    obs = _require_observation(obs)
    t = tui_messages(language)
    right = {"justify": "right"}
    columns = [
        (t.gettext("crowns"), {"justify": "right", "style": CROWN_STYLE}),
        (t.gettext("best colour"), right),
        (t.gettext("cards"), right),
        (t.gettext("royals"), right),
    ]

    def cells(p: Any) -> list[RenderableType]:
        best, pts = _best_color(p.color_points)
        shown = f"{pts} {letters(language)[best]}"
        colour = colorize(shown, language=language) if pts else Text("0", style="dim")
        return [str(p.crowns), colour, str(len(p.purchased)), str(len(p.royals))]

    table = common.scores_table(obs, names, t, columns, cells)
    caption = victory_text(obs, names, you=you, language=language)
    if caption:
        table.caption = caption
        table.caption_style = "bold"
    return table


__all__ = [
    "TOKEN_STYLES",
    "ability_name",
    "action_groups",
    "board_and_side",
    "board_grid",
    "bonus_text",
    "card_text",
    "card_words",
    "chip",
    "colorize",
    "cost_text",
    "crowns_short",
    "describe",
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
    "royal_words",
    "seat_label",
    "side_panel",
    "status_line",
    "tokens_text",
    "victory_text",
]
