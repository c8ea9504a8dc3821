"""What the terminal needs to know about each game: one :class:`GameUI` per registered game.

The game loop (:mod:`.app`) and the person at the keyboard (:mod:`.human`) are written once;
everything that differs between classic Splendor and Splendor Duel comes from this table:
the engine module, the drawing module (:mod:`.render` or :mod:`.render_duel`, which offer
the same function names), the notation help, the "why is this illegal" explainer, the intro
line, what a later decision of the same turn shows, and the events worth a line in the log.

    ui = ui_for("duel")              # or ui_for("classic"), ui_for(observation)
    ui.render.render_board(obs, names)
    ui.why_illegal(obs, action)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from .. import classic, duel
from ..classic import explain
from ..duel import explain as explain_duel
from ..game import get_game
from . import render, render_duel


@dataclass(frozen=True)
class GameUI:
    """The terminal's view of one game.

    Attributes:
        name: the registered game name (``"splendor"`` or ``"duel"``).
        title: the game's name for people.
        module: the engine (:mod:`splendor.classic` or :mod:`splendor.duel`).
        render: the drawing module; both offer ``render_board``, ``render_actions``,
            ``render_action_list``, ``render_scores``, ``result_lines``, ``phase_hint``,
            ``tokens_text`` and ``colorize``.
        notation_help: the notation, for ``?``.
        legend: colours and card names, for ``?``.
        intro: the line shown to a person before the first move.
        example: an action to show as an example (``take W U G``).
        pass_note: said when passing is the only decision.
        why_illegal: ``why_illegal(observation, action) -> str``.
        notation_hint: ``notation_hint(entry, parser_error) -> str`` for an entry that is
            not an action.
        followup: ``followup(observation, names) -> [renderables]``, what a later decision
            of the same turn shows instead of the whole board.
        events: ``events(names, first_observation)`` builds a log-event tracker whose
            ``after(observation, seat)`` returns lines worth printing after a decision.
        log_number: ``log_number(turn, num_players)``, the number printed at the start of
            each log line (classic: the round; Duel: the turn).
    """

    name: str
    title: str
    module: ModuleType
    render: ModuleType
    notation_help: str
    legend: str
    intro: str
    example: str
    pass_note: str
    why_illegal: Callable[[Any, Any], str]
    notation_hint: Callable[[str, str], str]
    followup: Callable[[Any, Sequence[str] | None], list[RenderableType]]
    events: Callable[[Sequence[str], Any], Any]
    log_number: Callable[[int, int], int]

    def is_observation(self, obs: Any) -> bool:
        """Whether ``obs`` is an observation of this game."""
        return isinstance(obs, self.module.Observation)


# ----------------------------------------------------------------------------- classic


def _classic_followup(obs: Any, names: Sequence[str] | None) -> list[RenderableType]:
    parts: list[RenderableType] = []
    hint = render.phase_hint(obs, names)
    if hint is not None:
        parts.append(hint)
    me = obs.player(obs.seat)
    mine = Text("your tokens ", style="bold")
    mine.append_text(render.tokens_text(me.tokens))
    mine.append(f" = {me.num_tokens}", style="dim")
    parts.append(mine)
    return parts


class _ClassicEvents:
    """Noble visits (C12) and the start of the final round (C14), each told once."""

    def __init__(self, names: Sequence[str], first: Any) -> None:
        self.names = list(names)
        self.nobles_seen: set[int] = set()
        self.final_round_told = False

    def after(self, obs: Any, seat: int) -> list[Text]:
        lines: list[Text] = []
        for noble in obs.player(seat).nobles:
            if noble.id not in self.nobles_seen:
                self.nobles_seen.add(noble.id)
                visit = Text(f"        a noble visits {self.names[seat]}: ", style="bold yellow")
                lines.append(visit + render.noble_text(noble))
        if obs.final_round and not self.final_round_told:
            self.final_round_told = True
            pts = obs.player(seat).points
            lines.append(
                Text(
                    f"        final round: {self.names[seat]} has {pts} points (C14)",
                    style="bold red",
                )
            )
        return lines


CLASSIC = GameUI(
    name=classic.GAME_NAME,
    title="Splendor",
    module=classic,
    render=render,
    notation_help=classic.NOTATION_HELP,
    legend=(
        "Colours: W white, U blue, G green, R red, K black, * gold. Cards are "
        "level.slot (slots 1-4 from the left); r1-r3 are your reserved cards."
    ),
    intro=(
        "Type an action ('take W U G', 'buy 1.2', 'reserve d1') or its number; "
        "'?' for help, 'quit' to stop."
    ),
    example="take W U G",
    pass_note="no legal action but to pass (C17): type 'pass' or 1",
    why_illegal=explain.why_illegal,
    notation_hint=explain.notation_hint,
    followup=_classic_followup,
    events=_ClassicEvents,
    log_number=lambda turn, n: turn // n + 1,
)


# ----------------------------------------------------------------------------- duel


def _duel_followup(obs: Any, names: Sequence[str] | None) -> list[RenderableType]:
    """A later decision of a duel turn: what it is about, and what it needs to be seen
    (the board for a token, the opponent's tokens for a steal, the royal cards)."""
    parts: list[RenderableType] = []
    hint = render_duel.phase_hint(obs, names)
    if hint is not None:
        parts.append(hint)
    if obs.phase == "token":
        parts.append(render_duel.board_grid(obs))
    me = obs.player(obs.seat)
    mine = Text("your tokens ", style="bold")
    mine.append_text(render_duel.tokens_text(me.tokens))
    mine.append(f" = {me.num_tokens}", style="dim")
    if obs.phase in ("payment", "joker"):
        mine.append("  bonuses ", style="bold")
        mine.append_text(render_duel.tokens_text(me.bonuses))
    parts.append(mine)
    return parts


class _DuelEvents:
    """Royal cards taken (D19), privileges gained (D7, D8, D16, D18) and extra turns
    (D13): the engine makes single-option choices itself, so these are told here."""

    def __init__(self, names: Sequence[str], first: Any) -> None:
        self.names = list(names)
        self.royals_seen: set[int] = set()
        self.privileges = [p.privileges for p in first.players]
        self.turn = first.turn

    def after(self, obs: Any, seat: int) -> list[Text]:
        lines: list[Text] = []
        for p in obs.players:
            for royal in p.royals:
                if royal.id not in self.royals_seen:
                    self.royals_seen.add(royal.id)
                    line = Text(
                        f"        royal card {royal.id + 1} goes to {self.names[p.seat]}: ",
                        style="bold yellow",
                    )
                    lines.append(line + render_duel.royal_text(royal))
        now = [p.privileges for p in obs.players]
        # the same seats at every decision
        for p, (before, after) in enumerate(zip(self.privileges, now, strict=True)):
            if after > before:
                gained = after - before
                what = "a privilege" if gained == 1 else f"{gained} privileges"
                lines.append(
                    Text(
                        f"        {self.names[p]} takes {what} ({after} held)",
                        style="cyan",
                    )
                )
        self.privileges = now
        if obs.turn > self.turn:
            if not obs.is_terminal and obs.current_player == seat:
                lines.append(Text(f"        {self.names[seat]} plays again (D13)", style="bold"))
            self.turn = obs.turn
        return lines


DUEL = GameUI(
    name=duel.GAME_NAME,
    title="Splendor Duel",
    module=duel,
    render=render_duel,
    notation_help=duel.NOTATION_HELP,
    legend=(
        "Colours: W white, U blue, G green, R red, K black, P pearl, * gold. Cells: columns "
        "a-e from the left, rows 1-5 from the top (c3 is the centre). Pyramid cards are "
        "level.slot (level 1: slots 1-5, level 2: 1-4, level 3: 1-3); r1-r3 are your "
        "reserved cards; royal cards are 1-4."
    ),
    intro=(
        "Type an action ('take c3 c4 c5', 'buy 1.2', 'gold a1' then 'reserve 2.3') or its "
        "number; '?' for help, 'quit' to stop."
    ),
    example="take c3 c4 c5",
    pass_note="no decision is possible but to pass: type 'pass' or 1",
    why_illegal=explain_duel.why_illegal,
    notation_hint=explain_duel.notation_hint,
    followup=_duel_followup,
    events=_DuelEvents,
    log_number=lambda turn, n: turn + 1,
)


GAME_UIS: dict[str, GameUI] = {CLASSIC.name: CLASSIC, DUEL.name: DUEL}
"""The terminal's table of games, by registered name."""


def ui_for(game: str | ModuleType | Any) -> GameUI:
    """The :class:`GameUI` of a game name (aliases accepted, see
    :func:`splendor.game.get_game`), a game module, or an observation of a game.

    Raises:
        ValueError: an unknown game name (the message lists the known ones), or a game the
            terminal does not serve.
    """
    if isinstance(game, str):
        module = get_game(game)
    elif isinstance(game, ModuleType):
        module = game
    else:
        for candidate in GAME_UIS.values():
            if candidate.is_observation(game):
                return candidate
        raise ValueError(f"the terminal cannot draw a {type(game).__name__}")
    ui = GAME_UIS.get(module.GAME_NAME)
    if ui is None:
        raise ValueError(f"the terminal does not serve the game {module.GAME_NAME!r} yet")
    return ui


__all__ = ["CLASSIC", "DUEL", "GAME_UIS", "GameUI", "ui_for"]
