"""``splendor play``: a game of Splendor (classic, 2-4 players) or Splendor Duel (2 players)
in the terminal.

People (``human`` seats) play against bots, or bots play each other to the end. Each seat
is an agent with ``choose(observation, legal_actions)``; the game runs through
:func:`splendor.match.play_game` with a :class:`~splendor.record.GameRecord` held here, so
that the record is saved when the game ends and also when it is interrupted (Ctrl-C, end of
input, ``quit``): then it is unfinished and its ``result`` is null. Everything that differs
between the games (drawing, notation, explanations, log events) comes from
:mod:`splendor.tui.games`.

Seats are ``human`` or a bot spec (:func:`splendor.bots.parse_bot_spec`): ``random``,
``greedy``, ``mcts[:BUDGET[:PLAYOUT]]``, the levels ``easy``/``medium``/``hard``/``expert``, or
``external:CMD``, a program speaking the bot protocol. A bot that fails (it raises, crashes,
answers garbage or an illegal action, or runs out of time) loses the game by forfeit: the
reason is printed and the record is saved with that result.

Every sentence is printed in one language (``language``: ``"en"``, ``"fr"`` or ``"nl"``;
``splendor play --lang``, else the terminal's locale, :func:`~.words.terminal_language`),
from the catalogue ``tui`` of :mod:`splendor.i18n`; the language is not part of the record,
so a game may be resumed in another one.

The steps live in their own modules: the options (:mod:`.options`), the seats and the
checked :class:`~.table.Table` (:mod:`.table`), the game loop and its log (:mod:`.loop`),
the end and the record (:mod:`.ending`); this module runs them in order.

Exit codes of :func:`run_play`: 0 a finished game, or one the person stopped (``quit``,
end of input); 1 an error (a bot that failed and forfeited, a bot that cannot be set up, a
record that cannot be written); 2 bad options (game, player count, seats, turn cap,
language); 130 Ctrl-C.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from ..i18n import DEFAULT_LANGUAGE
from ..match import AgentError
from .ending import finish, forfeit_lines, save_unfinished
from .human import QuitGame
from .loop import GameLog, Narrated, play, print_heading, start_record, warm_up
from .options import (
    DEFAULT_FILL,
    SEAT_FORMS,
    SEAT_KINDS,
    PlayOptionError,
    default_record_path,
    game_ui,
    load_unfinished,
    parse_seats,
    play_language,
    resolve_turn_cap,
    seat_names,
)
from .table import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    PlayRequest,
    Table,
    close_bots,
    error,
    prepare_table,
    seat_agents,
)


def run_play(
    *,
    game: str = "splendor",
    players: int = 2,
    seats: str = "human,greedy",
    seed: int | None = None,
    record_path: Path | str | None = None,
    human_name: str | None = None,
    delay: float = 0.0,
    quiet: bool = False,
    turn_cap: int | None = None,
    resume: Path | str | None = None,
    language: str | None = DEFAULT_LANGUAGE,
    console: Console | None = None,
    input_fn: Callable[[str], str] | None = None,
) -> int:
    """Play one game in the terminal and save its record; return the exit code.

    Args:
        game: ``splendor`` (also ``classic``) or ``duel`` (also ``splendor-duel``).
        players: seats in the game: 2 to 4 for classic, 2 for Duel.
        seats: comma-separated seats in seat order: ``human`` or a bot spec (``random``,
            ``greedy``, ``mcts:1s``, ``net``, ``easy``, ``medium``, ``hard``, ``expert``,
            ``external:./my_bot.py``); missing seats are greedy bots. A bot that fails
            forfeits the game (the reason is printed, the record saved; exit code 1).
        seed: the deal (random when None); bots are seeded from it too.
        record_path: where to save the record (default ``records/<time>.json``).
        human_name: the label of the human seat(s) (default: ``you`` in the record, the
            same in every language; the screen says ``you``, ``vous``, ``jij``).
        delay: seconds to pause after each bot decision.
        quiet: with no human seat, print only the result.
        turn_cap: Duel only (D25): end the game with no winner after this many turns; 0
            for none. Default: none when a person plays, :data:`splendor.duel.game.BOT_TURN_CAP`
            for bots-only games. The cap is stored in the record's ``options``.
        resume: an unfinished record to play on (:func:`load_unfinished`): its game, seats,
            names, seed, options and decisions replace ``game``, ``players``, ``seats``,
            ``seed``, ``turn_cap`` and ``human_name``, and it is saved back to the same
            file unless ``record_path`` is given. An unreadable record is an error (1);
            a finished one, or one without seats, bad options (2). The language is not
            stored: a game may be resumed in another one.
        language: the language of everything printed: ``"en"``, ``"fr"`` or ``"nl"``;
            None: the terminal's locale (:func:`play_language`). Another value is refused
            (exit code 2; the message lists fr, en, nl).
        console: where to draw (default: stdout).
        input_fn: how human seats read a line (default: the console); for tests.

    Returns:
        0 finished (or stopped by the person), 1 error (a bot forfeited, or could not be
        set up, or the record could not be saved), 2 bad options, 130 Ctrl-C.
    """
    out = console or Console(highlight=False)
    err = Console(stderr=True, highlight=False) if console is None else out
    request = PlayRequest(
        game=game,
        players=players,
        seats=seats,
        seed=seed,
        record_path=record_path,
        human_name=human_name,
        delay=delay,
        quiet=quiet,
        turn_cap=turn_cap,
        resume=resume,
        language=language,
    )
    table = prepare_table(request, err)
    if isinstance(table, int):
        return table
    seated = _seat(table, out, err, input_fn)
    if isinstance(seated, int):
        return seated
    bots, bot_seeds = seated
    return _play_and_save(table, [Narrated(b, table.ui) for b in bots], bot_seeds, out, err)


def _seat(
    table: Table, out: Console, err: Console, input_fn: Callable[[str], str] | None
) -> tuple[list[Any], list[int | None]] | int:
    """The agent of each seat and the bots' seeds, the engine and the bots' searches
    prepared; or the exit code when a bot cannot be set up (1) or on Ctrl-C (130)."""
    t = table.t
    try:
        bots, bot_seeds = seat_agents(table, out, input_fn)
    except (ValueError, ImportError) as e:
        error(err, t, t.gettext("cannot set up the seats: {error}", error=e))
        return EXIT_ERROR
    try:
        warm_up(table, out, interactive=input_fn is None)
    except KeyboardInterrupt:
        close_bots(bots, None)
        err.print(t.gettext("interrupted before the game started; nothing saved"))
        return EXIT_INTERRUPTED
    return bots, bot_seeds


def _play_and_save(
    table: Table, agents: list[Narrated], bot_seeds: list[int | None], out: Console, err: Console
) -> int:
    """Play the game from its record (a new one, or the one resumed) and save it: finished,
    or unfinished when it stops early (Ctrl-C: 130, the person's quit or end of input: 0,
    an error: 1). Bots are closed in every case (external programs told the result)."""
    t = table.t
    rec = start_record(table, bot_seeds)
    viewer = table.humans[0] if table.humans else 0
    first = (rec.replay() if rec.actions else rec.new_state()).observation(viewer)
    print_heading(table, rec, first, out)
    log = GameLog(table, agents, viewer, first, out)
    try:
        final, rec = play(table, agents, rec, log)
    except KeyboardInterrupt:
        out.print()
        return save_unfinished(rec, table.path, out, err, "interrupted", EXIT_INTERRUPTED, t)
    except QuitGame as e:
        how = "input ended" if e.reason == "end of input" else "stopped"
        return save_unfinished(rec, table.path, out, err, how, EXIT_OK, t)
    except AgentError as e:
        error(err, t, str(e))
        return save_unfinished(rec, table.path, out, err, "error", EXIT_ERROR, t)
    except Exception as e:  # a failing bot must not lose the game played so far
        error(err, t, f"{type(e).__name__}: {e}")
        return save_unfinished(rec, table.path, out, err, "error", EXIT_ERROR, t)
    finally:
        close_bots([a.agent for a in agents], rec.result)  # external programs told the result
    return finish(table, final, rec, viewer, out, err)


__all__ = [
    "DEFAULT_FILL",
    "PlayOptionError",
    "SEAT_FORMS",
    "SEAT_KINDS",
    "default_record_path",
    "forfeit_lines",
    "game_ui",
    "load_unfinished",
    "parse_seats",
    "play_language",
    "resolve_turn_cap",
    "run_play",
    "seat_names",
]
