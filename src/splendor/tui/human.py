"""A person at the terminal as an agent: ``choose(observation, legal_actions) -> Action``.

The person sees the board drawn from their own observation (C16) and a numbered list of
their legal decisions, then types either the notation (``take W U G``, ``buy 2.3``,
``reserve d1``; see :data:`splendor.classic.NOTATION_HELP`) or a number from the list.
A malformed or illegal entry gets a message saying why and a new prompt, never a crash.

Commands at the prompt: ``?`` (or ``help``) shows the notation and the full list,
``list`` the full list with what each card action means, ``board`` redraws the board,
``quit`` stops the game (the record is saved, unfinished). End of input (Ctrl-D, or the
end of a piped file) stops the game the same way: :class:`QuitGame` is raised.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Sequence

from rich.console import Console
from rich.text import Text

from ..classic import NOTATION_HELP, Action, HiddenCard, Observation
from ..colors import GEM_LETTERS, NUM_GEMS
from . import render

HELP_COMMANDS = """\
<number>          pick that decision from the numbered list
?  or  help       this help and the full list of legal decisions
list              the full list, with what each card action means
board             draw the board again
quit              stop here; the game record is saved (unfinished)"""

_HELP_WORDS = {"?", "h", "help"}
_LIST_WORDS = {"l", "ls", "list", "moves", "actions"}
_BOARD_WORDS = {"b", "board"}
_QUIT_WORDS = {"q", "quit", "exit"}


class QuitGame(Exception):
    """The person stopped the game (``quit`` or end of input); ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InputProblem(ValueError):
    """An entry that is not a usable decision; the message says why, for the person."""


def parse_entry(text: str, observation: Observation, legal: Sequence[Action]) -> Action:
    """Turn what the person typed into one of ``legal``: a 1-based number from the list
    or an action in notation (case and spacing do not matter, ``take G W U`` is fine).

    Raises:
        InputProblem: empty, out-of-range number, malformed notation or an illegal action;
            the message explains and suggests what to do.
    """
    entry = " ".join(text.split())
    if not entry:
        raise InputProblem("type an action (e.g. 'take W U G') or its number; '?' for help")
    if entry.lstrip("#").isdigit():
        n = int(entry.lstrip("#"))
        if 1 <= n <= len(legal):
            return legal[n - 1]
        raise InputProblem(f"there is no decision number {n}: pick 1 to {len(legal)}")
    try:
        action = Action.parse(entry)
    except ValueError:
        raise InputProblem(f"'{entry}' is not an action: {_notation_hint(entry)}") from None
    if action in legal:
        return action
    raise InputProblem(f"'{action}' is not legal now: {why_illegal(observation, action)}")


def _notation_hint(entry: str) -> str:
    verb = entry.split()[0].lower()
    hints = {
        "take": "take 3 different colours ('take W U G') or 2 of one colour ('take R R'); "
        "colours are W U G R K",
        "reserve": "reserve a face-up card by level.slot ('reserve 2.3') or a deck's top "
        "card ('reserve d1')",
        "buy": "buy a face-up card by level.slot ('buy 2.3') or your reserved card ('buy r1')",
        "return": "return one token: 'return W' ('return *' for gold)",
        "gold": "spend a gold for a colour: 'gold W'",
        "noble": "choose a noble by its slot: 'noble 1'",
    }
    return hints.get(verb, "type ? for the notation, or the number of a decision in the list")


def why_illegal(obs: Observation, action: Action) -> str:
    """A short reason why ``action`` is not legal for the seat to play in ``obs`` (best
    effort: the rules engine is the authority)."""
    seat = obs.current_player
    if seat is None:
        return "the game is over"
    phase = obs.phase
    main_kinds = {
        "take3",
        "take2_different",
        "take1",
        "take2_same",
        "reserve_faceup",
        "reserve_deck",
        "buy_faceup",
        "buy_reserved",
        "buy_choose",
        "pass",
    }
    if phase != "main":
        wanted = {
            "payment": "finish the payment first ('gold W' or 'pay')",
            "return tokens": "return tokens first, one at a time ('return W', 'return *')",
            "choose noble": "choose a noble first ('noble 1', ...)",
        }.get(phase, f"the decision now is: {phase}")
        return wanted
    if action.kind not in main_kinds:
        return "that is only asked after a main action (paying, returning tokens, nobles)"
    me = obs.player(seat)
    supply = obs.supply
    if action.kind in ("take3", "take2_different", "take1"):
        empty = [GEM_LETTERS[c] for c in action.colors if supply[c] == 0]
        if empty:
            return f"no {' '.join(empty)} token left in the supply"
        available = sum(1 for c in range(NUM_GEMS) if supply[c] > 0)
        if len(action.colors) < 3 and available >= 3:
            return (
                f"{available} gem colours are available, so take 3 different ones "
                "(or 2 of one colour from a pile of 4 or more)"
            )
        return "not a legal take now"
    if action.kind == "take2_same":
        c = action.colors[0]
        return (
            f"taking 2 {GEM_LETTERS[c]} needs 4 or more in the pile; "
            f"there {'is' if supply[c] == 1 else 'are'} {supply[c]}"
        )
    if action.kind in ("reserve_faceup", "reserve_deck"):
        if len(me.reserved) >= 3:
            return "you already hold 3 reserved cards (buy one to free a slot)"
        if action.kind == "reserve_deck":
            assert action.level is not None
            return f"the level-{action.level} deck is empty"
        return f"slot {action.level}.{action.slot} is empty"
    if action.kind in ("buy_faceup", "buy_choose") and action.level is not None:
        assert action.slot is not None
        card = obs.faceup[action.level - 1][action.slot - 1]
        if card is None:
            return f"slot {action.level}.{action.slot} is empty"
        return _buy_reason(action, card.cost, me.bonuses, me.tokens)
    if action.kind in ("buy_reserved", "buy_choose"):
        assert action.slot is not None
        if action.slot > len(me.reserved):
            held = len(me.reserved)
            return f"you have no reserved card {action.slot} (you hold {held})"
        card = me.reserved[action.slot - 1]
        if isinstance(card, HiddenCard):  # never for one's own seat (C16)
            return "not legal now"
        return _buy_reason(action, card.cost, me.bonuses, me.tokens)
    if action.kind == "pass":
        return "passing is allowed only when no other action is legal (C17)"
    return "not legal now"


def _cannot_afford(
    cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]
) -> str | None:
    """Why ``cost`` is out of reach (C9), or None when the tokens and gold cover it."""
    short = []
    for c in range(NUM_GEMS):
        owed = max(0, cost[c] - bonuses[c])
        if owed > tokens[c]:
            short.append((c, owed - tokens[c]))
    missing = sum(n for _, n in short)
    gold = tokens[5]
    if missing <= gold:
        return None
    detail = " ".join(f"{n}{GEM_LETTERS[c]}" for c, n in short)
    return f"you cannot afford it: {missing} short ({detail}) and you hold {gold} gold"


def _buy_reason(
    action: Action, cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]
) -> str:
    why = _cannot_afford(cost, bonuses, tokens)
    if why is not None:
        return why
    if action.kind == "buy_choose":
        plain = str(action).removesuffix(" choose")
        return f"there is only one way to pay for it, nothing to choose: type '{plain}'"
    return "not legal now"


def _default_echo() -> bool:
    try:
        return not sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


class HumanAgent:
    """A person typing decisions at the terminal.

    Args:
        name: the person's name (labels and the record).
        names: every seat's label, for the board.
        console: where to draw (default: a new rich Console on stdout).
        input_fn: reads one line given a prompt; raises EOFError at the end of input
            (default: ``console.input``). Inject one in tests.
        echo: print each line read after the prompt (default: when stdin is not a
            terminal, so that a piped session reads like a transcript).
    """

    def __init__(
        self,
        name: str = "you",
        *,
        names: Sequence[str] | None = None,
        console: Console | None = None,
        input_fn: Callable[[str], str] | None = None,
        echo: bool | None = None,
    ) -> None:
        self.name = name
        self.names = list(names) if names is not None else None
        self.console = console or Console(highlight=False)
        self._input = input_fn
        self.echo = _default_echo() if echo is None and input_fn is None else bool(echo)
        self._drawn_turn: int | None = None

    # ------------------------------------------------------------------ drawing

    def show_board(self, observation: Observation, legal: Sequence[Action]) -> None:
        """The board as this seat sees it, then the numbered legal decisions."""
        self.console.print(render.render_board(observation, self.names))
        self.show_actions(observation, legal)

    def show_followup(self, observation: Observation, legal: Sequence[Action]) -> None:
        """A later decision of the same turn (C9, C11, C12): what it is about, this seat's
        tokens, and the choices, without drawing the whole board again."""
        hint = render.phase_hint(observation, self.names)
        if hint is not None:
            self.console.print(hint)
        me = observation.player(observation.seat)
        mine = Text("your tokens ", style="bold")
        mine.append_text(render.tokens_text(me.tokens))
        mine.append(f" = {me.num_tokens}", style="dim")
        self.console.print(mine)
        self.show_actions(observation, legal)

    def show_actions(self, observation: Observation, legal: Sequence[Action]) -> None:
        width = max(40, min(self.console.width, 120))
        self.console.print(render.render_actions(observation, legal, width=width))

    def show_help(self, observation: Observation, legal: Sequence[Action]) -> None:
        self.console.print(Text("How to play a decision", style="bold underline"))
        self.console.print(render.colorize(NOTATION_HELP))
        self.console.print(Text(HELP_COMMANDS))
        self.console.print(
            Text(
                "Colours: W white, U blue, G green, R red, K black, * gold. Cards are "
                "level.slot (slots 1-4 from the left); r1-r3 are your reserved cards.",
                style="dim",
            )
        )
        self.show_list(observation, legal)

    def show_list(self, observation: Observation, legal: Sequence[Action]) -> None:
        self.console.print(render.render_action_list(observation, legal))

    # ------------------------------------------------------------------ input

    def _read(self, prompt: Text) -> str:
        if self._input is not None:
            line = self._input(prompt.plain)
        else:
            line = self.console.input(prompt)
        if self.echo:
            self.console.print(line, markup=False, highlight=False)
        return line

    def prompt(self, observation: Observation) -> Text:
        p = Text()
        p.append(f"{self.name}", style="bold green")
        if observation.phase != "main":
            p.append(f" [{observation.phase}]", style="magenta")
        p.append(" › ", style="bold")
        return p

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Action:
        """Draw the board, then read entries until one is a legal decision.

        Raises:
            QuitGame: the person typed ``quit`` or the input ended (EOF).
            KeyboardInterrupt: Ctrl-C (left to the caller, which saves the record).
        """
        legal = list(legal_actions)
        if len(legal) == 1 and legal[0].kind == "pass":
            self.console.print(
                render.colorize("no legal action but to pass (C17): type 'pass' or 1")
            )
        if observation.phase != "main" and self._drawn_turn == observation.turn:
            self.show_followup(observation, legal)  # same turn: payment, returns, noble
        else:
            self.show_board(observation, legal)
        self._drawn_turn = observation.turn
        while True:
            try:
                line = self._read(self.prompt(observation))
            except EOFError:
                self.console.print()
                raise QuitGame("end of input") from None
            word = line.strip().lower()
            if word in _HELP_WORDS:
                self.show_help(observation, legal)
                continue
            if word in _LIST_WORDS:
                self.show_list(observation, legal)
                continue
            if word in _BOARD_WORDS:
                self.show_board(observation, legal)
                continue
            if word in _QUIT_WORDS:
                raise QuitGame("quit")
            try:
                return parse_entry(line, observation, legal)
            except InputProblem as e:
                self.console.print(Text("✗ ", style="bold red") + render.colorize(str(e)))


__all__ = ["HELP_COMMANDS", "HumanAgent", "InputProblem", "QuitGame", "parse_entry", "why_illegal"]
