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

Exit codes of :func:`run_play`: 0 a finished game, or one the person stopped (``quit``,
end of input); 1 an error (a bot that failed and forfeited, a bot that cannot be set up, a
record that cannot be written); 2 bad options (game, player count, seats, turn cap,
language); 130 Ctrl-C.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from ..bots import BOT_NAMES, make_bot, parse_bot_spec, warm_up_spec
from ..bots.external import ExternalBot
from ..game import game_names, get_game, seats_summary
from ..i18n import DEFAULT_LANGUAGE, Messages
from ..match import AgentError, play_game
from ..record import GameRecord, RecordError
from . import words
from .games import GameUI, ui_for
from .human import HumanAgent, QuitGame, discard_typeahead
from .words import check_language, terminal_language, tui_messages

HUMAN = "human"
SEAT_KINDS: tuple[str, ...] = (HUMAN, *BOT_NAMES)
"""Seat kinds accepted by ``--seats`` (a bot kind may carry options: ``mcts:1s``)."""
SEAT_FORMS = (
    "human, random, greedy, mcts[:BUDGET[:PLAYOUT]], net[:BUDGET], easy, medium, hard, expert, "
    "external:CMD"
)
"""How ``--seats`` entries are written, for messages."""
DEFAULT_FILL = "greedy"
"""The bot that fills seats left out of ``--seats``."""

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
MAX_SEED = (1 << 63) - 1
"""Largest deal seed (the compiled engine takes a 64-bit integer)."""
BOT_TURN_CAP = 400
"""Splendor Duel's turn cap (D25) for bots-only games when ``--turn-cap`` is not given."""
MAX_TURN_CAP = (1 << 31) - 1


class PlayOptionError(ValueError):
    """Bad ``--game`` / ``--players`` / ``--seats`` / ``--turn-cap`` / ``--lang``; the
    message is meant for the person (in the language asked for)."""


def game_ui(game: str, language: str = DEFAULT_LANGUAGE) -> GameUI:
    """The terminal's view of ``game`` (``splendor``/``classic`` or ``duel``; the aliases of
    :func:`splendor.game.get_game` are accepted), speaking ``language``.

    Raises:
        PlayOptionError: an unknown game; the message lists the known ones.
    """
    try:
        module = get_game(str(game).strip().lower())
    except ValueError:
        t = tui_messages(language)
        raise PlayOptionError(
            t.gettext(
                "--game: unknown game {game}; known games: {known} (classic is another name "
                "of splendor)",
                game=repr(str(game).strip().lower()[:40]),
                known=", ".join(sorted(game_names())),
            )
        ) from None
    return ui_for(module, language)


def parse_seats(
    players: int,
    seats: str | Sequence[str],
    game: str = "splendor",
    *,
    language: str = DEFAULT_LANGUAGE,
) -> list[str]:
    """Seats in seat order: ``seats`` (comma-separated or a list) filled up to ``players``
    with :data:`DEFAULT_FILL` bots.

    Each entry is ``human`` or a bot spec (:func:`splendor.bots.parse_bot_spec`; see
    :data:`SEAT_FORMS`); the result holds ``"human"`` or the spec's normalised label
    (``"Random"`` -> ``"random"``, ``"mcts:1S"`` -> ``"mcts:1s"``; an external command keeps
    its case). Bots are not built here: an external program is not checked yet. An external
    command cannot contain a comma in a comma-separated string (pass a list instead).

    Raises:
        PlayOptionError: an unknown game, ``players`` outside what the game allows (2 to 4
            for classic, 2 for Duel), an unknown, malformed or empty seat, or more seats
            than players. The message says what is allowed, in ``language``.
    """
    t = tui_messages(language)
    ui = game_ui(game, language)
    lo, hi = ui.module.MIN_PLAYERS, ui.module.MAX_PLAYERS
    if not isinstance(players, int) or not lo <= players <= hi:
        if lo == hi:
            raise PlayOptionError(
                t.gettext(
                    "--players must be {n} for {game} (a {n}-player game), got {players}",
                    n=lo,
                    game=ui.title,
                    players=players,
                )
            )
        raise PlayOptionError(
            t.gettext(
                "--players must be {lo} to {hi}, got {players}", lo=lo, hi=hi, players=players
            )
        )
    items = [str(s).strip() for s in (seats.split(",") if isinstance(seats, str) else seats)]
    if items == [""]:
        items = []
    kinds = [_seat_spec(i, item, t) for i, item in enumerate(items)]
    n = len(kinds)
    if n > players:
        if n > hi:
            raise PlayOptionError(
                t.ngettext(
                    "--seats names {n} seats but {game} has at most {hi} player",
                    "--seats names {n} seats but {game} has at most {hi} players",
                    hi,
                    n=n,
                    game=ui.title,
                    hi=hi,
                )
            )
        raise PlayOptionError(
            t.gettext(
                "--seats names {n} seats but the game has {players} players; use --players {n} "
                "or fewer seats",
                n=n,
                players=players,
            )
        )
    return kinds + [DEFAULT_FILL] * (players - n)


def _seat_spec(i: int, item: str, t: Messages) -> str:
    """``"human"`` or the bot spec label of one ``--seats`` entry."""
    if item.lower() == HUMAN:
        return HUMAN
    kind = item.partition(":")[0].strip().lower()
    if kind not in SEAT_KINDS:
        if item:
            text = t.gettext(
                "--seats: seat {i} is {item}; each seat is one of {forms}",
                i=i,
                item=repr(item),
                forms=SEAT_FORMS,
            )
        else:
            text = t.gettext(
                "--seats: seat {i} is an empty entry; each seat is one of {forms}",
                i=i,
                forms=SEAT_FORMS,
            )
        raise PlayOptionError(text)
    if kind == HUMAN:
        raise PlayOptionError(
            t.gettext("--seats: seat {i} is {item}; 'human' takes no options", i=i, item=repr(item))
        )
    try:
        return parse_bot_spec(item).label
    except ValueError as e:
        raise PlayOptionError(
            t.gettext("--seats: seat {i} is {item}: {error}", i=i, item=repr(item), error=e)
        ) from None


def seat_names(kinds: Sequence[str], human_name: str = "you") -> list[str]:
    """A label per seat: the person's name for human seats, the bot spec's label otherwise
    (``hard``, ``mcts:1s``, ``external:./my_bot.py``); repeated labels get their seat
    number (``random-0``, ``random-1``)."""
    base = [(human_name.strip() or "you") if k == HUMAN else k for k in kinds]
    return [f"{b}-{i}" if base.count(b) > 1 else b for i, b in enumerate(base)]


def play_language(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language of a game: ``option`` (``--lang``: ``fr``, ``en`` or ``nl``) when
    given, else the terminal's locale (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``;
    English when none is set or it is not one of the three).

    Raises:
        PlayOptionError: an unknown ``option``; the message, in the locale's language,
            lists fr, en, nl.
    """
    local = terminal_language(environ)
    if option is None:
        return local
    try:
        return check_language(option, tui_messages(local))
    except ValueError as e:
        raise PlayOptionError(str(e)) from None


def default_record_path(now: datetime | None = None) -> Path:
    """``records/<YYYYmmdd-HHMMSS>.json`` (a suffix is added if that file exists)."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = Path("records") / f"{stamp}.json"
    k = 1
    while path.exists():
        k += 1
        path = Path("records") / f"{stamp}-{k}.json"
    return path


class _Narrated:
    """Wraps an agent and keeps, for the log, what its last decision meant
    (``ui.describe`` from the agent's own observation, in the game's language, taken
    before the decision changes the position: a bought card is described before it leaves
    the board)."""

    def __init__(self, agent: Any, ui: GameUI) -> None:
        self.agent = agent
        self.ui = ui
        self.name = getattr(agent, "name", "agent")
        self.last: str | None = None
        self.turn = 0

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.last = None
        self.turn = int(getattr(observation, "turn", 0))
        choice = self.agent.choose(observation, legal_actions)
        try:
            self.last = self.ui.describe(observation, choice)
        except (ValueError, TypeError, AttributeError, IndexError):
            self.last = str(choice)
        return choice


def load_unfinished(path: Path | str, *, language: str = DEFAULT_LANGUAGE) -> GameRecord:
    """The unfinished game saved in the record ``path`` (by ``splendor play`` on Ctrl-C, end
    of input or ``quit``), checked so that it can be played on: its actions replay, it has
    no result, and its ``metadata.seats`` says who plays each seat.

    Raises:
        RecordError: the file cannot be read, or is not a valid record (its message says
            which field is wrong).
        PlayOptionError: the game is over, or the record does not say who sits where (a
            record not saved by ``splendor play``), or its seats are not playable here
            (the message in ``language``).
    """
    t = tui_messages(language)
    rec = GameRecord.load(path)
    final = rec.replay()
    if rec.result is not None or final.is_terminal:
        raise PlayOptionError(
            t.gettext(
                "the game in {path} is over: there is nothing to resume "
                "(`splendor replay {path}` shows it)",
                path=path,
            )
        )
    seats = rec.metadata.get("seats")
    if not (
        isinstance(seats, list)
        and len(seats) == rec.num_players
        and all(isinstance(s, str) for s in seats)
    ):
        raise PlayOptionError(
            t.gettext(
                '{path} does not say who plays each seat (its metadata has no "seats" list of '
                "{n}): only records saved by `splendor play` can be resumed",
                path=path,
                n=rec.num_players,
            )
        )
    parse_seats(rec.num_players, seats, rec.game, language=language)  # still playable here
    return rec


def resolve_turn_cap(
    ui: GameUI, turn_cap: int | None, any_human: bool, *, language: str | None = None
) -> int | None:
    """The turn cap (D25) a game is played with.

    Splendor Duel: ``turn_cap`` when given (``0`` means none); otherwise none when a person
    plays and :data:`BOT_TURN_CAP` for bots-only games, so that they always end. Classic
    Splendor has no turn cap.

    Raises:
        PlayOptionError: a turn cap for classic Splendor, or one out of range (the message
            in ``language``, default the language of ``ui``).
    """
    t = tui_messages(language or ui.language)
    if ui.name != "duel":
        if turn_cap is not None:
            raise PlayOptionError(
                t.gettext(
                    "--turn-cap is a Splendor Duel setting (D25); {game} has no turn cap",
                    game=ui.title,
                )
            )
        return None
    if turn_cap is None:
        return None if any_human else BOT_TURN_CAP
    if isinstance(turn_cap, bool) or not isinstance(turn_cap, int):
        raise PlayOptionError(
            t.gettext("--turn-cap must be a whole number, got {value}", value=repr(turn_cap))
        )
    if not 0 <= turn_cap <= MAX_TURN_CAP:
        raise PlayOptionError(
            t.gettext(
                "--turn-cap must be between 1 and {most} turns (0 for none), got {value}",
                most=MAX_TURN_CAP,
                value=turn_cap,
            )
        )
    return turn_cap or None


def _error(err: Console, t: Messages, message: str, *, soft_wrap: bool = False) -> None:
    """``error: <message>`` on the error console."""
    err.print(
        Text(t.gettext("error:") + " ", style="bold red") + Text(message), soft_wrap=soft_wrap
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
        human_name: the label of the human seat(s) (default: "you" in ``language``:
            ``you``, ``vous``, ``jij``).
        delay: seconds to pause after each bot decision.
        quiet: with no human seat, print only the result.
        turn_cap: Duel only (D25): end the game with no winner after this many turns; 0
            for none. Default: none when a person plays, :data:`BOT_TURN_CAP` for
            bots-only games. The cap is stored in the record's ``options``.
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
    try:
        language = play_language(language)
    except PlayOptionError as e:
        _error(err, tui_messages(terminal_language()), str(e), soft_wrap=True)
        return EXIT_USAGE
    t = tui_messages(language)
    resumed: GameRecord | None = None
    try:
        if resume is not None:
            resumed = load_unfinished(resume, language=language)
            game, players, seats, seed = (
                resumed.game,
                resumed.num_players,
                resumed.metadata["seats"],
                resumed.seed,
            )
        ui = game_ui(game, language)
        kinds = parse_seats(players, seats, ui.name, language=language)
        if resumed is not None:
            cap = resumed.options.get("turn_cap")
        else:
            cap = resolve_turn_cap(ui, turn_cap, HUMAN in kinds)
    except RecordError as e:
        _error(err, t, t.gettext("invalid record: {error}", error=e), soft_wrap=True)
        return EXIT_ERROR
    except PlayOptionError as e:
        _error(err, t, str(e), soft_wrap=True)
        return EXIT_USAGE
    if delay < 0:
        _error(err, t, t.gettext("--delay must be 0 or more, got {value}", value=delay))
        return EXIT_USAGE
    if seed is not None and not 0 <= seed <= MAX_SEED:
        _error(
            err,
            t,
            t.gettext(
                "--seed must be between 0 and {most}, got {value}", most=MAX_SEED, value=seed
            ),
        )
        return EXIT_USAGE
    if seed is None:
        seed = random.randrange(1 << 31)
    module = ui.module
    render = ui.render
    options: dict[str, Any] = {"turn_cap": cap} if cap is not None else {}
    if human_name is None:
        human_name = words.you(t)
    names = list(resumed.players) if resumed is not None else seat_names(kinds, human_name)
    humans = [i for i, k in enumerate(kinds) if k == HUMAN]
    quiet = quiet and not humans
    if record_path is not None:
        path = Path(record_path)
    else:
        path = Path(resume) if resume is not None else default_record_path()
    stored_seeds = resumed.metadata.get("bot_seeds") if resumed is not None else None

    agents: list[_Narrated] = []
    bot_seeds: list[int | None] = []
    try:
        for i, kind in enumerate(kinds):
            if kind == HUMAN:
                agent: Any = HumanAgent(
                    names[i], names=names, console=out, input_fn=input_fn, game=ui
                )
                bot_seeds.append(None)
            else:
                given = stored_seeds[i] if isinstance(stored_seeds, list) else None
                if not isinstance(given, int) or isinstance(given, bool):
                    given = seed * 10 + i + 1  # same --seed, same bot choices
                bot_seeds.append(given)
                agent = make_bot(kind, seed=bot_seeds[-1])
            agents.append(_Narrated(agent, ui))
    except (ValueError, ImportError) as e:
        _close_bots(agents, None)
        _error(err, t, t.gettext("cannot set up the seats: {error}", error=e))
        return EXIT_ERROR

    def warm_up() -> None:
        module.warm_up()
        for k in sorted({k for k in kinds if k != HUMAN}):
            warm_up_spec(k)  # compiles a search once, not during the first move

    try:
        if quiet:
            warm_up()
        else:
            with out.status(t.gettext("preparing the engine…")):
                warm_up()
    except KeyboardInterrupt:
        _close_bots(agents, None)
        err.print(t.gettext("interrupted before the game started; nothing saved"))
        return EXIT_INTERRUPTED
    if humans and input_fn is None:
        discard_typeahead()  # keys pressed while preparing are not moves

    if resumed is not None:
        rec = resumed
        rec.metadata.setdefault("resumed_after", [])
        if isinstance(rec.metadata["resumed_after"], list):
            rec.metadata["resumed_after"].append(len(rec.actions))
    else:
        rec = GameRecord(
            game=module.GAME_NAME,
            num_players=len(kinds),
            players=names,
            seed=seed,
            options=options,
            metadata={"seats": kinds, "bot_seeds": bot_seeds, "interface": "terminal"},
        )
    viewer = humans[0] if humans else 0
    person = humans[0] if len(humans) == 1 else None  # whose events read "you take"
    first = (rec.replay() if rec.actions else rec.new_state()).observation(viewer)
    if not quiet:
        head = Text(f"{ui.title} · ", style="bold")
        if ui.name != "duel":
            head.append(
                t.ngettext("{n} player", "{n} players", len(kinds), n=len(kinds)) + " · ",
                style="bold",
            )
        head.append(t.gettext("seed {seed}", seed=seed) + " · ", style="bold")
        if cap is not None:
            head.append(t.gettext("turn cap {n}", n=cap) + " · ", style="bold")
        out.print(head + Text(seats_summary(names)))
        if resumed is not None:
            done = len(rec.actions)
            out.print(
                Text(
                    t.ngettext(
                        "resuming {path} after {n} decision",
                        "resuming {path} after {n} decisions",
                        done,
                        path=resume,
                        n=done,
                    ),
                    style="bold",
                ),
                soft_wrap=True,
            )
        if humans:
            out.print(Text(ui.intro, style="dim"))

    if delay and not humans and not quiet:
        out.print(render.render_board(first, names, you=False, language=language))

    events = ui.events(names, first, person)
    shown_round = [-1]

    def on_decision(state: Any, action: Any, seat: int) -> None:
        # Only public facts are read from the state, through an observation (C16, D22).
        if quiet:
            return
        obs = state.observation(viewer)
        desc = agents[seat].last or str(action)
        number = ui.log_number(agents[seat].turn, len(kinds))
        line = Text(f"  {number:>3} ", style="dim")
        line.append(f"{names[seat]}", style="bold green" if seat in humans else "bold")
        line.append(": ")
        line.append_text(render.colorize(desc))
        out.print(line)
        for event in events.after(obs, seat, action):
            out.print(event)
        if delay and seat not in humans:
            if not humans and not obs.is_terminal and obs.turn % len(kinds) == 0:
                if obs.turn != shown_round[0] and obs.phase == "main":
                    shown_round[0] = obs.turn  # watching bots: the board once a round
                    out.print(render.render_board(obs, names, you=False, language=language))
            time.sleep(delay)

    final = None
    bot_seats = {i for i, k in enumerate(kinds) if k != HUMAN}
    try:
        final, rec = play_game(
            agents,
            game=module.GAME_NAME,
            seed=seed,
            names=names,
            record=rec,
            on_decision=on_decision,
            options=options,
            forfeit_on_error=bot_seats,  # a person's quit / Ctrl-C still stops the game
        )
    except KeyboardInterrupt:
        out.print()
        return _save_unfinished(rec, path, out, err, "interrupted", EXIT_INTERRUPTED, t)
    except QuitGame as e:
        how = "input ended" if e.reason == "end of input" else "stopped"
        return _save_unfinished(rec, path, out, err, how, EXIT_OK, t)
    except AgentError as e:
        _error(err, t, str(e))
        return _save_unfinished(rec, path, out, err, "error", EXIT_ERROR, t)
    except Exception as e:  # a failing bot must not lose the game played so far
        _error(err, t, f"{type(e).__name__}: {e}")
        return _save_unfinished(rec, path, out, err, "error", EXIT_ERROR, t)
    finally:
        _close_bots(agents, rec)  # external programs are told the result and stopped

    result = rec.result or {}
    forfeit = result.get("forfeit")
    if forfeit is not None:
        loser = forfeit["seat"]
        _error(
            err,
            t,
            t.gettext(
                "{name} (seat {seat}) forfeits: {reason}",
                name=names[loser],
                seat=loser,
                reason=forfeit["reason"],
            ),
            soft_wrap=True,
        )
    saved = _save(rec, path, err, t)
    if saved is None:
        return EXIT_ERROR
    obs = final.observation(viewer)
    if not quiet:
        out.print(render.render_board(obs, names, you=bool(humans), language=language))
        if ui.name == "duel":
            scores = render.render_scores(obs, names, you=bool(humans), language=language)
        else:
            scores = render.render_scores(obs, names, language=language)
        out.print(scores)
    if forfeit:
        lines = forfeit_lines(result, names, language=language)
    else:
        lines = render.result_lines(obs, names, language=language)
    for text in lines:
        out.print(Text(text, style="bold"), soft_wrap=forfeit is not None)
    out.print(t.gettext("record saved to {path}", path=saved), soft_wrap=True)
    return EXIT_ERROR if forfeit else EXIT_OK


def forfeit_lines(
    result: dict[str, Any], names: Sequence[str], *, language: str = DEFAULT_LANGUAGE
) -> list[str]:
    """``scores: a 6, b 4`` and ``winner: a (forfeit by b, 21 turns)`` for a forfeit
    result (:func:`splendor.record.forfeit_result`), in the words of :func:`render.result_lines`."""
    t = tui_messages(language)
    winners = result["winners"]
    loser = names[result["forfeit"]["seat"]]
    turns = words.turns_text(result["turns"], t)
    return [
        words.scores_line(names, result["scores"], t),
        t.ngettext(
            "winner: {names} (forfeit by {loser}, {turns})",
            "winners: {names} (forfeit by {loser}, {turns})",
            len(winners),
            names=words.join_names([names[w] for w in winners], t),
            loser=loser,
            turns=turns,
        ),
    ]


def _close_bots(agents: Sequence[_Narrated], rec: GameRecord | None) -> None:
    """Close every bot that has a ``close()``; external programs are told the result
    (None for a game that did not end)."""
    result = rec.result if rec is not None else None
    for a in agents:
        bot = a.agent
        if isinstance(bot, ExternalBot):
            bot.close(result)
        elif callable(getattr(bot, "close", None)):
            bot.close()


def _stopped_line(why: str, n: int, path: Path, t: Messages) -> str:
    """Why a game stopped, after how many decisions, and where its record is."""
    if why == "interrupted":
        return t.ngettext(
            "game interrupted (Ctrl-C) after {n} decision; unfinished record saved to {path}",
            "game interrupted (Ctrl-C) after {n} decisions; unfinished record saved to {path}",
            n,
            n=n,
            path=path,
        )
    if why == "input ended":
        return t.ngettext(
            "input ended after {n} decision; unfinished record saved to {path}",
            "input ended after {n} decisions; unfinished record saved to {path}",
            n,
            n=n,
            path=path,
        )
    if why == "stopped":
        return t.ngettext(
            "game stopped after {n} decision; unfinished record saved to {path}",
            "game stopped after {n} decisions; unfinished record saved to {path}",
            n,
            n=n,
            path=path,
        )
    return t.ngettext(
        "game stopped by an error after {n} decision; unfinished record saved to {path}",
        "game stopped by an error after {n} decisions; unfinished record saved to {path}",
        n,
        n=n,
        path=path,
    )


def _save_unfinished(
    rec: GameRecord, path: Path, out: Console, err: Console, why: str, code: int, t: Messages
) -> int:
    rec.result = None
    saved = _save(rec, path, err, t)
    if saved is None:
        return EXIT_ERROR
    out.print(_stopped_line(why, len(rec.actions), saved, t), soft_wrap=True)
    return code


def _save(rec: GameRecord, path: Path, err: Console, t: Messages) -> Path | None:
    """Save ``rec`` to ``path``, with its effects (:meth:`GameRecord.with_effects`); on
    failure print why and return None."""
    try:
        return rec.with_effects().save(path)
    except OSError as e:
        _error(err, t, t.gettext("cannot save the record to {path}: {error}", path=path, error=e))
        return None


__all__ = [
    "BOT_TURN_CAP",
    "DEFAULT_FILL",
    "PlayOptionError",
    "SEAT_KINDS",
    "SEAT_FORMS",
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
