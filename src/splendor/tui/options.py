"""The options of ``splendor play``, checked: the game, the seats (people and bots), the
language, the turn cap (D25), a record to resume and where the record goes. Every refusal
is a :class:`PlayOptionError` whose message is meant for the person, in the language of
the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from ..bots import BOT_NAMES, parse_bot_spec
from ..game import game_names, get_game
from ..i18n import DEFAULT_LANGUAGE, Messages
from ..record import GameRecord
from .games import GameUI, ui_for
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

MAX_SEED = (1 << 63) - 1
"""Largest deal seed (the compiled engine takes a 64-bit integer)."""


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
    lo, hi = ui.game.min_players, ui.game.max_players
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
    """The turn cap (D25) a game is played with: the value of the game's turn option
    (:attr:`splendor.descriptor.Game.turn_option`), or None for no cap.

    ``turn_cap`` when given (its ``off`` value, ``0``, means none); otherwise the option's
    default when a person plays (none) and its ``bot_default`` for bots-only games
    (:data:`splendor.duel.game.BOT_TURN_CAP`), so that they always end. A game without a
    turn option (classic Splendor) has no turn cap.

    Raises:
        PlayOptionError: a turn cap for a game without one, or one out of range (the
            message in ``language``, default the language of ``ui``).
    """
    t = tui_messages(language or ui.language)
    if ui.game.turn_option is None:
        if turn_cap is not None:
            raise PlayOptionError(
                t.gettext(
                    "--turn-cap is a Splendor Duel setting (D25); {game} has no turn cap",
                    game=ui.title,
                )
            )
        return None
    option = ui.game.options[ui.game.turn_option]
    if turn_cap is None:
        return option.default if any_human else option.bot_default
    if isinstance(turn_cap, bool) or not isinstance(turn_cap, int):
        raise PlayOptionError(
            t.gettext("--turn-cap must be a whole number, got {value}", value=repr(turn_cap))
        )
    if turn_cap != option.off and not option.minimum <= turn_cap <= option.maximum:
        raise PlayOptionError(
            t.gettext(
                "--turn-cap must be between 1 and {most} turns (0 for none), got {value}",
                most=option.maximum,
                value=turn_cap,
            )
        )
    return None if turn_cap == option.off else turn_cap


__all__ = [
    "DEFAULT_FILL",
    "HUMAN",
    "MAX_SEED",
    "PlayOptionError",
    "SEAT_FORMS",
    "SEAT_KINDS",
    "default_record_path",
    "game_ui",
    "load_unfinished",
    "parse_seats",
    "play_language",
    "resolve_turn_cap",
    "seat_names",
]
