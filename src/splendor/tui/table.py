"""The set-up of a game in the terminal (``splendor play``): its options checked into a
:class:`Table` (the game, seats, names, seed, options, record path; or those of a record to
resume), and an agent at each seat (a person, :class:`~.human.HumanAgent`, or a bot)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from ..bots import make_bot
from ..bots.external import ExternalBot
from ..i18n import Messages
from ..record import GameRecord, RecordError
from . import words
from .games import GameUI
from .human import HumanAgent
from .options import (
    HUMAN,
    MAX_SEED,
    PlayOptionError,
    default_record_path,
    game_ui,
    load_unfinished,
    parse_seats,
    play_language,
    resolve_turn_cap,
    seat_names,
)
from .words import terminal_language, tui_messages

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
"""The exit codes of :func:`splendor.tui.app.run_play`."""


@dataclass(frozen=True)
class PlayRequest:
    """The options of ``splendor play`` as given (:func:`splendor.tui.app.run_play`)."""

    game: str
    players: int
    seats: str | Sequence[str]
    seed: int | None
    record_path: Path | str | None
    human_name: str | None
    delay: float
    quiet: bool
    turn_cap: int | None
    resume: Path | str | None
    language: str | None


@dataclass(frozen=True)
class Table:
    """One game about to be played, every option checked.

    Attributes:
        ui: the game, in the language of the game (``ui.language``).
        kinds: each seat's kind: ``"human"`` or a bot spec's label.
        names: each seat's label on the screen: a person who gave no ``--name`` is
            "you" in the game's language.
        record_names: each seat's label in the record, the same in every language: the
            name given, or ``you`` (:data:`DEFAULT_HUMAN_NAME`) for a person without one.
        seed: the deal.
        options: the game's options (:attr:`splendor.descriptor.Game.options`): the turn
            cap (D25) when there is one.
        cap: the turn cap, or None.
        path: where the record is saved.
        quiet: print only the result (bots-only games).
        delay: seconds to pause after each bot decision.
        resumed: the unfinished record played on, or None.
        resume: the path it was read from, or None.
    """

    ui: GameUI
    kinds: list[str]
    names: list[str]
    record_names: list[str]
    seed: int
    options: dict[str, Any]
    cap: int | None
    path: Path
    quiet: bool
    delay: float
    resumed: GameRecord | None
    resume: Path | str | None

    @property
    def t(self) -> Messages:
        """The terminal's messages in the game's language."""
        return self.ui.t

    @property
    def humans(self) -> list[int]:
        """The seats people play."""
        return [i for i, k in enumerate(self.kinds) if k == HUMAN]


def error(err: Console, t: Messages, message: str, *, soft_wrap: bool = False) -> None:
    """``error: <message>`` on the error console."""
    err.print(
        Text(t.gettext("error:") + " ", style="bold red") + Text(message), soft_wrap=soft_wrap
    )


def prepare_table(request: PlayRequest, err: Console) -> Table | int:
    """The :class:`Table` of ``request``, or the exit code after printing why it cannot
    be played: 2 a bad option (the game, players, seats, turn cap, language, delay, seed;
    a finished record to resume), 1 a record that cannot be read."""
    try:
        language = play_language(request.language)
    except PlayOptionError as e:
        error(err, tui_messages(terminal_language()), str(e), soft_wrap=True)
        return EXIT_USAGE
    t = tui_messages(language)
    try:
        return _table(request, language)
    except RecordError as e:
        error(err, t, t.gettext("invalid record: {error}", error=e), soft_wrap=True)
        return EXIT_ERROR
    except PlayOptionError as e:
        error(err, t, str(e), soft_wrap=not isinstance(e, _NumberError))
        return EXIT_USAGE


def _table(request: PlayRequest, language: str) -> Table:
    """The :class:`Table` of ``request`` in ``language`` (the game, seats, seed and
    options of the record to resume, when there is one).

    Raises:
        RecordError: the record to resume cannot be read.
        PlayOptionError: a bad option.
    """
    t = tui_messages(language)
    game, players, seats, seed = request.game, request.players, request.seats, request.seed
    resumed = None
    if request.resume is not None:
        resumed = load_unfinished(request.resume, language=language)
        game, players, seats, seed = (
            resumed.game,
            resumed.num_players,
            resumed.metadata["seats"],
            resumed.seed,
        )
    ui = game_ui(game, language)
    kinds = parse_seats(players, seats, ui.name, language=language)
    turn_option = ui.game.turn_option
    if resumed is not None:
        cap = resumed.options.get(turn_option) if turn_option is not None else None
    else:
        cap = resolve_turn_cap(ui, request.turn_cap, HUMAN in kinds)
    _check_numbers(request.delay, seed, t)
    record_names = (
        list(resumed.players)
        if resumed is not None
        else seat_names(
            kinds, DEFAULT_HUMAN_NAME if request.human_name is None else request.human_name
        )
    )
    if request.record_path is not None:
        path = Path(request.record_path)
    else:
        path = Path(request.resume) if request.resume is not None else default_record_path()
    return Table(
        ui=ui,
        kinds=kinds,
        names=screen_names(record_names, kinds, t),
        record_names=record_names,
        seed=random.randrange(1 << 31) if seed is None else seed,
        options={turn_option: cap} if cap is not None and turn_option is not None else {},
        cap=cap,
        path=path,
        quiet=request.quiet and HUMAN not in kinds,
        delay=request.delay,
        resumed=resumed,
        resume=request.resume,
    )


DEFAULT_HUMAN_NAME = "you"
"""The record's label of a person who gave no ``--name``: the same in every language (a
record read in another language, or resumed in one, keeps it); the screen shows it in the
game's language (:func:`screen_names`)."""


def screen_names(record_names: Sequence[str], kinds: Sequence[str], t: Messages) -> list[str]:
    """The seats' labels on the screen: those of the record, with the default person's
    label (``you``, ``you-0`` when several people play) in ``t``'s language (``vous``,
    ``jij-0``)."""
    you = words.you(t)
    out = []
    for i, (name, kind) in enumerate(zip(record_names, kinds, strict=False)):
        if kind == HUMAN and name == DEFAULT_HUMAN_NAME:
            name = you
        elif kind == HUMAN and name == f"{DEFAULT_HUMAN_NAME}-{i}":
            name = f"{you}-{i}"
        out.append(name)
    return out + list(record_names[len(out) :])


class _NumberError(PlayOptionError):
    """A bad ``--delay`` or ``--seed`` (its line is not soft-wrapped)."""


def _check_numbers(delay: float, seed: int | None, t: Messages) -> None:
    """Refuse a negative ``--delay`` and a ``--seed`` out of ``0..MAX_SEED``.

    Raises:
        PlayOptionError: which one, and what is allowed.
    """
    if delay < 0:
        raise _NumberError(t.gettext("--delay must be 0 or more, got {value}", value=delay))
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise _NumberError(
            t.gettext("--seed must be between 0 and {most}, got {value}", most=MAX_SEED, value=seed)
        )


def seat_agents(
    table: Table, out: Console, input_fn: Callable[[str], str] | None
) -> tuple[list[Any], list[int | None]]:
    """An agent per seat (a person at the keyboard, or a bot seeded from the deal: the
    same ``--seed``, the same bot choices; a resumed game keeps its bots' seeds) and the
    bots' seeds (None for a person).

    Raises:
        ValueError, ImportError: a bot cannot be set up (the agents made so far are
            closed).
    """
    stored = table.resumed.metadata.get("bot_seeds") if table.resumed is not None else None
    agents: list[Any] = []
    bot_seeds: list[int | None] = []
    try:
        for i, kind in enumerate(table.kinds):
            if kind == HUMAN:
                agents.append(
                    HumanAgent(
                        table.names[i],
                        names=table.names,
                        console=out,
                        input_fn=input_fn,
                        game=table.ui,
                    )
                )
                bot_seeds.append(None)
                continue
            given = stored[i] if isinstance(stored, list) else None
            if not isinstance(given, int) or isinstance(given, bool):
                given = table.seed * 10 + i + 1  # same --seed, same bot choices
            bot_seeds.append(given)
            agents.append(make_bot(kind, seed=given))
    except (ValueError, ImportError):
        close_bots(agents, None)
        raise
    return agents, bot_seeds


def close_bots(agents: Sequence[Any], result: dict[str, Any] | None) -> None:
    """Close every bot that has a ``close()``; external programs are told the result
    (None for a game that did not end)."""
    for bot in agents:
        if isinstance(bot, ExternalBot):
            bot.close(result)
        elif callable(getattr(bot, "close", None)):
            bot.close()


__all__ = [
    "DEFAULT_HUMAN_NAME",
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "PlayRequest",
    "Table",
    "close_bots",
    "error",
    "prepare_table",
    "screen_names",
    "seat_agents",
]
