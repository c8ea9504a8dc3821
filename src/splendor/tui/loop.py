"""The game loop of ``splendor play``: the engine prepared, the heading, each decision
told in the log as it is played (a person's turn is :class:`~.human.HumanAgent`'s, a bot's
is watched with ``--delay``), through :func:`splendor.match.play_game` with the record held
by the caller."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from ..bots import warm_up_spec
from ..game import seats_summary
from ..match import play_game
from ..move_text import MoveFacts, move_facts, say
from ..record import GameRecord
from . import words
from .games import GameUI
from .human import discard_typeahead
from .options import HUMAN
from .table import Table


class Narrated:
    """Wraps an agent and keeps, for the log, what its last decision meant: what its
    sentence needs (:func:`splendor.move_text.move_facts`, said in the game's language
    when the line is printed) and, should that fail, ``ui.describe``; both read from the
    agent's own observation before the decision changes the position (a bought card is
    described before it leaves the board)."""

    def __init__(self, agent: Any, ui: GameUI) -> None:
        self.agent = agent
        self.ui = ui
        self.name = getattr(agent, "name", "agent")
        self.last: str | None = None
        self.facts: MoveFacts | None = None
        self.turn = 0

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.last = None
        self.facts = None
        self.turn = int(getattr(observation, "turn", 0))
        choice = self.agent.choose(observation, legal_actions)
        try:
            self.facts = move_facts(observation, choice)
        except (ValueError, TypeError, AttributeError, IndexError):
            try:
                self.last = self.ui.describe(observation, choice)
            except (ValueError, TypeError, AttributeError, IndexError):
                self.last = str(choice)
        return choice


def warm_up(table: Table, out: Console, interactive: bool) -> None:
    """Compile (or load) the engine and each bot's search once, not during the first
    move (with a spinner unless the game is quiet); then forget the keys a person pressed
    meanwhile (``interactive``: they are not moves).

    Raises:
        KeyboardInterrupt: Ctrl-C while preparing.
    """

    def prepare() -> None:
        table.ui.game.warm_up()
        for kind in sorted({k for k in table.kinds if k != HUMAN}):
            warm_up_spec(kind)  # compiles a search once, not during the first move

    if table.quiet:
        prepare()
    else:
        with out.status(table.t.gettext("preparing the engine…")):
            prepare()
    if table.humans and interactive:
        discard_typeahead()  # keys pressed while preparing are not moves


def start_record(table: Table, bot_seeds: list[int | None]) -> GameRecord:
    """The record the game is played into: the resumed one (noting after how many
    decisions it was resumed) or a new one naming the seats' kinds and bot seeds."""
    rec = table.resumed
    if rec is not None:
        rec.metadata.setdefault("resumed_after", [])
        if isinstance(rec.metadata["resumed_after"], list):
            rec.metadata["resumed_after"].append(len(rec.actions))
        return rec
    return GameRecord(
        game=table.ui.name,
        num_players=len(table.kinds),
        players=table.record_names,
        seed=table.seed,
        options=table.options,
        metadata={"seats": table.kinds, "bot_seeds": bot_seeds, "interface": "terminal"},
    )


def print_heading(table: Table, rec: GameRecord, first: Any, out: Console) -> None:
    """The game, player count (when the game has several), seed, turn cap and seats; the
    record resumed; the intro for a person; the board when bots are watched."""
    if table.quiet:
        return
    ui, t, n = table.ui, table.t, len(table.kinds)
    head = Text(f"{ui.title} · ", style="bold")
    if ui.game.min_players != ui.game.max_players:
        head.append(t.ngettext("{n} player", "{n} players", n, n=n) + " · ", style="bold")
    head.append(t.gettext("seed {seed}", seed=table.seed) + " · ", style="bold")
    if table.cap is not None:
        head.append(t.gettext("turn cap {n}", n=table.cap) + " · ", style="bold")
    out.print(head + Text(seats_summary(table.names)))
    if table.resumed is not None:
        done = len(rec.actions)
        resuming = t.ngettext(
            "resuming {path} after {n} decision",
            "resuming {path} after {n} decisions",
            done,
            path=table.resume,
            n=done,
        )
        out.print(Text(resuming, style="bold"), soft_wrap=True)
    if table.humans:
        out.print(Text(ui.intro, style="dim"))
    if table.delay and not table.humans:
        out.print(ui.render.render_board(first, table.names, you=False, language=ui.language))


class GameLog:
    """``on_decision`` of :func:`splendor.match.play_game`: a line per decision (its
    number, who, what it meant), the events it caused (:meth:`GameUI.events`), and while
    bots are watched (``--delay``) the pause and the board once a round. Only public facts
    are read from the state, through the viewer's observation (C16, D22)."""

    def __init__(
        self, table: Table, agents: Sequence[Narrated], viewer: int, first: Any, out: Console
    ) -> None:
        self.table = table
        self.agents = agents
        self.viewer = viewer
        self.out = out
        person = table.humans[0] if len(table.humans) == 1 else None  # "you take"
        self.events = table.ui.events(table.names, first, person)
        self.shown_round = -1

    def __call__(self, state: Any, action: Any, seat: int) -> None:
        if self.table.quiet:
            return
        obs = state.observation(self.viewer)
        self.out.print(self._line(seat, action))
        for event in self.events.after(obs, seat, action):
            self.out.print(event)
        if self.table.delay and seat not in self.table.humans:
            self._bot_pause(obs)

    def _line(self, seat: int, action: Any) -> Text:
        """``  12 ann buys a level-1 card (black, 0 points) from slot 1.2``: the move as a
        sentence in the game's language ("you buy…" for the person's default seat); the
        notation (``  12 ann: buy 1.2: …``) when no sentence could be made."""
        table = self.table
        agent = self.agents[seat]
        number = table.ui.log_number(agent.turn, len(table.kinds))
        line = Text(f"  {number:>3} ", style="dim")
        style = "bold green" if seat in table.humans else "bold"
        if agent.facts is not None:
            you = words.is_you(table.names[seat], table.t)
            said = say(agent.facts, table.names, table.ui.language, you)
            text = Text(said)
            name = table.names[seat]
            if not you and said.startswith(name):
                text.stylize(style, 0, len(name))
            return line + text
        line.append(f"{table.names[seat]}", style=style)
        line.append(": ")
        language = table.ui.language  # ui.describe writes the language's letters
        line.append_text(table.ui.render.colorize(agent.last or str(action), language=language))
        return line

    def _bot_pause(self, obs: Any) -> None:
        """After a bot's decision, watching bots: the board once a round, then the pause."""
        table = self.table
        if not table.humans and not obs.is_terminal and obs.turn % len(table.kinds) == 0:
            if obs.turn != self.shown_round and obs.phase == "main":
                self.shown_round = obs.turn  # watching bots: the board once a round
                board = table.ui.render.render_board(
                    obs, table.names, you=False, language=table.ui.language
                )
                self.out.print(board)
        time.sleep(table.delay)


def play(
    table: Table, agents: Sequence[Narrated], rec: GameRecord, log: GameLog
) -> tuple[Any, GameRecord]:
    """Play the game to its end into ``rec``; a bot that fails forfeits (a person's quit
    or Ctrl-C stops the game instead). Returns the final state and the record.

    Raises:
        KeyboardInterrupt, QuitGame, AgentError: the game stopped (``rec`` holds it).
    """
    bot_seats = {i for i, k in enumerate(table.kinds) if k != HUMAN}
    return play_game(
        list(agents),
        game=table.ui.name,
        seed=table.seed,
        names=table.record_names,
        record=rec,
        on_decision=log,
        options=table.options,
        forfeit_on_error=bot_seats,  # a person's quit / Ctrl-C still stops the game
    )


__all__ = ["GameLog", "Narrated", "play", "print_heading", "start_record", "warm_up"]
