"""Plain renderings of a game for the research environments: text (``"ansi"``) and an RGB
image (``"rgb_array"``).

Both draw from a game's ``Observation`` (what one seat may see, C16 / D22), through the
engine's public view API only, so a rendering never shows a card the viewing seat could not
see. The environments render the view of the seat to act (seat 0 once the game is over).
Each game's drawing is its ``"rl_render"`` part (:data:`CLASSIC`, :data:`DUEL`:
:class:`Renderer`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from .. import classic, duel
from ..colors import DUEL_TOKEN_LETTERS, TOKEN_LETTERS
from ..descriptor import Game
from ..duel.cards import COLOR_JOKER, COLOR_NONE

__all__ = ["CLASSIC", "DUEL", "Renderer", "render_rgb", "render_text"]

_TOKEN_RGB = {
    "W": "#f4f4f4",
    "U": "#2f6fdf",
    "G": "#2e9e48",
    "R": "#d8342c",
    "K": "#3a3a3a",
    "P": "#e6a6d6",
    "*": "#e8c23a",
}
_JOKER_RGB = "#9b8cc9"
_NONE_RGB = "#c8c8c8"


def _agent(seat: int) -> str:
    return f"player_{seat}"


def _tokens(letters: str, counts: Sequence[int]) -> str:
    return " ".join(f"{letter}{n}" for letter, n in zip(letters, counts, strict=True))


def render_text(observation: Any) -> str:
    """A compact plain-text board (no colour codes) of ``observation``.

    Args:
        observation: a game's ``Observation``.

    Returns:
        A multi-line string.

    Raises:
        TypeError: not an Observation (a full State would show hidden cards).
    """
    return _renderer(observation, "render_text").text(observation)


def _renderer(observation: Any, caller: str) -> Renderer:
    """The ``"rl_render"`` part of ``observation``'s game.

    Raises:
        TypeError: ``observation`` is not a game's ``Observation``.
    """
    game = getattr(observation, "game", None)
    if not isinstance(game, Game) or not isinstance(observation, game.observation_type):
        raise TypeError(f"{caller} takes a game's Observation, got {type(observation).__name__}")
    part: Renderer = game.part("rl_render")
    return part


def _header(obs: Any, game: str) -> str:
    if obs.is_terminal:
        win = ", ".join(_agent(w) for w in obs.winners) or "nobody (draw)"
        return f"{game} - game over after {obs.turn} turns ({obs.end_reason}); winner: {win}"
    return (
        f"{game} - turn {obs.turn}, {_agent(obs.current_player)} to decide "
        f"(phase: {obs.phase}); view of {_agent(obs.seat)}"
    )


def _card_rows(rows: Any) -> list[str]:
    """One line per card level, level 3 first: ``L3  3.1 <card>  3.2 -  ...``."""
    return [
        f"L{lvl}  "
        + "  ".join(f"{lvl}.{k + 1} {c if c else '-'}" for k, c in enumerate(rows[lvl - 1]))
        for lvl in (3, 2, 1)
    ]


def _payment(pay: Any, letters: str) -> list[str]:
    """The line of a payment in progress (C9, D10), or none."""
    if pay is None:
        return []
    card, need, gold = pay
    return [f"paying for {card}: still owes {_tokens(letters, need)}, gold committed {gold}"]


def _text_classic(obs: classic.Observation) -> str:
    lines = [_header(obs, obs.game.title)]
    if obs.final_round and not obs.is_terminal:
        lines[0] += " [final round]"
    d = obs.deck_sizes
    lines.append(
        f"supply  {_tokens(TOKEN_LETTERS, obs.supply)}    decks L1 {d[0]}  L2 {d[1]}  L3 {d[2]}"
    )
    lines.append(
        "nobles  " + "  ".join(f"{k + 1}) {n}" for k, n in enumerate(obs.nobles) if n is not None)
    )
    lines += _card_rows(obs.faceup)
    lines += _payment(obs.payment, "WUGRK")
    for p in obs.players:
        mark = ">" if p.seat == obs.current_player else " "
        lines.append(
            f"{mark} {_agent(p.seat)}: {p.points} pts  tokens {_tokens(TOKEN_LETTERS, p.tokens)}"
            f"  bonuses {_tokens('WUGRK', p.bonuses)}  cards {len(p.purchased)}"
            f"  nobles {len(p.nobles)}"
        )
        if p.reserved:
            lines.append(
                "      reserved: " + ";  ".join(f"r{k + 1} {c}" for k, c in enumerate(p.reserved))
            )
    return "\n".join(lines)


def _text_duel(obs: duel.Observation) -> str:
    lines = [_header(obs, obs.game.title)]
    if obs.turn_cap:
        lines[0] += f" [turn cap {obs.turn_cap}]"
    board = obs.board
    d = obs.deck_sizes
    side = [
        f"bag {_tokens(DUEL_TOKEN_LETTERS, obs.bag)}",
        f"privileges beside the board: {obs.free_privileges}",
        f"decks L1 {d[0]}  L2 {d[1]}  L3 {d[2]}",
        "royals " + "  ".join(f"{k + 1}) {r}" for k, r in enumerate(obs.royals) if r is not None),
        ("extra turn pending" if obs.extra_turn else "")
        + (" board replenished" if obs.replenished else ""),
    ]
    lines.append("    a b c d e")
    for r in range(5):
        cells = " ".join(
            DUEL_TOKEN_LETTERS[v] if v is not None else "." for v in board[r * 5 : r * 5 + 5]
        )
        lines.append(f"  {r + 1} {cells}    {side[r]}")
    lines += _card_rows(obs.pyramid)
    pend = obs.pending_card
    if pend is not None:
        lines.append(f"resolving the effects of {pend}")
    lines += _payment(obs.payment, "WUGRKP")
    for p in obs.players:
        mark = ">" if p.seat == obs.current_player else " "
        lines.append(
            f"{mark} {_agent(p.seat)}: {p.points} pts  {p.crowns} crowns  privileges {p.privileges}"
            f"  tokens {_tokens(DUEL_TOKEN_LETTERS, p.tokens)}"
            f"  bonuses {_tokens('WUGRK', p.bonuses)}"
        )
        lines.append(
            f"      colour points {_tokens('WUGRK', p.color_points)}  cards {len(p.purchased)}"
            f"  royals {len(p.royals)}"
        )
        if p.reserved:
            lines.append(
                "      reserved: " + ";  ".join(f"r{k + 1} {c}" for k, c in enumerate(p.reserved))
            )
    return "\n".join(lines)


# ------------------------------------------------------------------------------ image


def render_rgb(observation: Any, width: int = 960, height: int = 640) -> np.ndarray:
    """An RGB picture of ``observation``: tokens as coloured discs, cards as rectangles in
    their bonus colour with points and cost, and the players' holdings as text.

    Args:
        observation: a game's ``Observation``.
        width, height: image size in pixels.

    Returns:
        ``uint8`` array of shape ``(height, width, 3)``.

    Raises:
        TypeError: not an Observation.
    """
    renderer = _renderer(observation, "render_rgb")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    dpi = 100
    fig = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, facecolor="#20352a")
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 96)
    ax.set_ylim(0, 64)
    ax.set_axis_off()
    renderer.draw(ax, observation)
    # matplotlib's Agg canvas (backend_agg) has no type annotations.
    canvas.draw()  # type: ignore[no-untyped-call]
    img = np.asarray(canvas.buffer_rgba())[:, :, :3].copy()  # type: ignore[no-untyped-call]
    return img


def _text(
    ax: Any, x: float, y: float, s: str, size: float = 8, color: str = "white", **kw: Any
) -> None:
    ax.text(x, y, s, fontsize=size, color=color, family="monospace", va="center", **kw)


def _disc(
    ax: Any, x: float, y: float, letter: str, count: int | None = None, r: float = 1.6
) -> None:
    from matplotlib.patches import Circle

    ax.add_patch(Circle((x, y), r, facecolor=_TOKEN_RGB[letter], edgecolor="black", lw=0.8))
    ink = "black" if letter in "W*P" else "white"
    label = letter if count is None else str(count)
    ax.text(x, y, label, ha="center", va="center", fontsize=7, color=ink, weight="bold")


def _card(
    ax: Any, x: float, y: float, w: float, h: float, fill: str, top: str, bottom: str
) -> None:
    from matplotlib.patches import FancyBboxPatch

    ax.add_patch(
        FancyBboxPatch(
            (x, y), w, h, boxstyle="round,pad=0.2", facecolor=fill, edgecolor="black", lw=0.8
        )
    )
    ink = (
        "black"
        if fill in (_TOKEN_RGB["W"], _TOKEN_RGB["*"], _NONE_RGB, _TOKEN_RGB["P"])
        else "white"
    )
    ax.text(x + 0.5, y + h - 1.3, top, fontsize=7, color=ink, weight="bold", va="center")
    ax.text(x + 0.5, y + 1.2, bottom, fontsize=5.5, color=ink, va="center", family="monospace")


def _cost(letters: str, cost: Sequence[int]) -> str:
    return " ".join(f"{n}{letters[c]}" for c, n in enumerate(cost) if n)


def _draw_classic(ax: Any, obs: classic.Observation) -> None:
    _text(ax, 1, 62, _header(obs, obs.game.title), size=9)
    for c, n in enumerate(obs.supply):
        _disc(ax, 3 + 4.2 * c, 57, TOKEN_LETTERS[c], n)
    for k, noble in enumerate(obs.nobles):
        if noble is not None:
            _card(
                ax,
                30 + 9 * k,
                54.5,
                7.5,
                5,
                "#b9a37a",
                f"{noble.points}",
                _cost("WUGRK", noble.requirement),
            )
    for row, lvl in enumerate((3, 2, 1)):
        y: float = 42 - 11 * row
        _text(ax, 1, y + 4, f"L{lvl}\n{obs.deck_sizes[lvl - 1]}", size=8)
        for k, card in enumerate(obs.faceup[lvl - 1]):
            if card is None:
                continue
            fill = _TOKEN_RGB["WUGRK"[card.bonus]]
            _card(
                ax,
                6 + 11 * k,
                y,
                9.5,
                9,
                fill,
                f"{card.points or ''} {'WUGRK'[card.bonus]}",
                _cost("WUGRK", card.cost),
            )
    y = 51
    for p in obs.players:
        mark = ">" if p.seat == obs.current_player else " "
        _text(
            ax,
            52,
            y,
            f"{mark}{_agent(p.seat)}  {p.points} pts  cards {len(p.purchased)}"
            f"  nobles {len(p.nobles)}",
            size=8,
        )
        _text(ax, 52, y - 2.4, f"  tokens  {_tokens(TOKEN_LETTERS, p.tokens)}", size=7)
        _text(ax, 52, y - 4.6, f"  bonuses {_tokens('WUGRK', p.bonuses)}", size=7)
        res = "; ".join(str(c) for c in p.reserved) or "-"
        _text(ax, 52, y - 6.8, f"  reserved {res}"[:100], size=5.5)
        y -= 10.5
    pay = obs.payment
    if pay is not None:
        _text(
            ax, 1, 2, f"paying for {pay[0]}: owes {_tokens('WUGRK', pay[1])}, gold {pay[2]}", size=8
        )


def _draw_duel(ax: Any, obs: duel.Observation) -> None:
    from matplotlib.patches import Rectangle

    _text(ax, 1, 62, _header(obs, obs.game.title), size=9)
    ax.add_patch(Rectangle((2, 31), 25, 25, facecolor="#6b4f2a", edgecolor="black"))
    for cell, v in enumerate(obs.board):
        r, c = divmod(cell, 5)
        x, y = 4.5 + 5 * c, 53.5 - 5 * r
        if v is None:
            ax.add_patch(Rectangle((x - 0.3, y - 0.3), 0.6, 0.6, facecolor="#3b2a14"))
        else:
            _disc(ax, x, y, DUEL_TOKEN_LETTERS[v], r=2.0)
    _text(ax, 2, 28.5, f"bag {_tokens(DUEL_TOKEN_LETTERS, obs.bag)}", size=7)
    _text(ax, 2, 26.3, f"privileges beside the board {obs.free_privileges}", size=7)
    for k, royal in enumerate(obs.royals):
        if royal is not None:
            _card(ax, 2 + 6.3 * k, 18, 5.5, 6, "#b9a37a", f"{royal.points}", royal.ability[:5])
    for row, lvl in enumerate((3, 2, 1)):
        y = 47 - 9.5 * row
        _text(ax, 30, y + 4, f"L{lvl}\n{obs.deck_sizes[lvl - 1]}", size=8)
        for k, card in enumerate(obs.pyramid[lvl - 1]):
            if card is None:
                continue
            if card.color == COLOR_JOKER:
                fill, bonus = _JOKER_RGB, "J"
            elif card.color == COLOR_NONE:
                fill, bonus = _NONE_RGB, "-"
            else:
                fill, bonus = (
                    _TOKEN_RGB["WUGRK"[card.color]],
                    "WUGRK"[card.color] * card.bonus_count,
                )
            top = f"{card.points or ''} {bonus}" + (f" {card.crowns}c" if card.crowns else "")
            _card(ax, 35 + 10.5 * k, y, 9, 8, fill, top, _cost("WUGRKP", card.cost))
    y = 16
    for p in obs.players:
        mark = ">" if p.seat == obs.current_player else " "
        _text(
            ax, 1, y,
            f"{mark}{_agent(p.seat)}  {p.points} pts  {p.crowns} crowns  privileges {p.privileges}"
            f"  tokens {_tokens(DUEL_TOKEN_LETTERS, p.tokens)}"
            f"  bonuses {_tokens('WUGRK', p.bonuses)}",
            size=7,
        )  # fmt: skip
        res = "; ".join(str(c) for c in p.reserved) or "-"
        _text(
            ax,
            1,
            y - 2.3,
            f"  colour pts {_tokens('WUGRK', p.color_points)}  reserved {res}"[:130],
            size=6.5,
        )
        y -= 6
    pay = obs.payment
    if pay is not None:
        _text(
            ax,
            1,
            2,
            f"paying for {pay[0]}: owes {_tokens('WUGRKP', pay[1])}, gold {pay[2]}",
            size=8,
        )


class Renderer(NamedTuple):
    """One game's drawing, its ``"rl_render"`` part.

    Attributes:
        text: ``text(observation) -> str``, the plain-text board.
        draw: ``draw(ax, observation)`` on matplotlib axes spanning 96 x 64 units.
    """

    text: Callable[[Any], str]
    draw: Callable[[Any, Any], None]


CLASSIC = Renderer(_text_classic, _draw_classic)
"""Classic Splendor's ``"rl_render"`` part."""
DUEL = Renderer(_text_duel, _draw_duel)
"""Splendor Duel's ``"rl_render"`` part."""
