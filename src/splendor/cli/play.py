"""``splendor play`` (a game in the terminal, :mod:`splendor.tui`) and ``splendor replay``
(a record re-played and checked, :mod:`splendor.record`): no extra needed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .common import app, plain_console

_Game = Annotated[
    str,
    typer.Option(
        "--game",
        "-g",
        help="Which game: classic (Splendor, 2-4 players; also 'splendor') or duel "
        "(Splendor Duel, 2 players; also 'splendor-duel').",
    ),
]
_Players = Annotated[
    int, typer.Option("--players", "-p", help="Number of seats: 2 to 4 for classic, 2 for duel.")
]
_Seats = Annotated[
    str,
    typer.Option(
        "--seats",
        "-s",
        help="Comma-separated seats in seat order: human, random, greedy, "
        "mcts[:BUDGET[:PLAYOUT]] (e.g. mcts:1s, mcts:250ms, mcts:5000:random), net[:BUDGET], "
        "the levels easy, medium, hard, expert, or external:CMD (a program speaking the "
        "JSON-lines bot protocol, e.g. external:./examples/external_bot.py; see "
        "docs/protocol.md). Missing seats "
        "are filled with greedy bots. A bot that fails forfeits the game.",
    ),
]
_Seed = Annotated[int | None, typer.Option("--seed", help="Deal seed (random if omitted).")]
_Record = Annotated[
    Path | None,
    typer.Option(
        "--record", "-r", help="Where to save the game record (default: records/<time>.json)."
    ),
]
_Name = Annotated[
    str | None,
    typer.Option(
        "--name",
        help="Your name in the record (human seats); default: 'you' (on the screen, in the "
        "game's language).",
    ),
]
_Delay = Annotated[
    float,
    typer.Option("--delay", help="Seconds to pause after each bot decision (to watch bot games)."),
]
_Quiet = Annotated[
    bool, typer.Option("--quiet", "-q", help="Bots-only games: print only the result.")
]
_TurnCap = Annotated[
    int | None,
    typer.Option(
        "--turn-cap",
        help="Duel only (rule D25): end the game with no winner after N turns; 0 for none. "
        "Default: none when a person plays, 400 for bots-only games. Stored in the record.",
    ),
]
_Resume = Annotated[
    Path | None,
    typer.Option(
        "--resume",
        help="Play on an unfinished game saved by `splendor play` (on Ctrl-C, end of input or "
        "quit): its game, seats, names, seed and decisions come from the record, which is "
        "saved back to the same file unless --record is given.",
    ),
]
_Lang = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="Language of the game: en, fr, nl, de, es, it, pt or pl. Default: the "
        "terminal's locale (LC_ALL, LC_MESSAGES, then LANG), else English.",
    ),
]


@app.command()
def play(
    game: _Game = "classic",
    players: _Players = 2,
    seats: _Seats = "human,greedy",
    seed: _Seed = None,
    record: _Record = None,
    name: _Name = None,
    delay: _Delay = 0.0,
    quiet: _Quiet = False,
    turn_cap: _TurnCap = None,
    resume: _Resume = None,
    lang: _Lang = None,
) -> None:
    """Play a game in the terminal: people against bots, or bots against each other.

    Classic Splendor (2-4 players) by default; `--game duel` plays Splendor Duel (2
    players) on a 5x5 token board whose cells are named a1-e5 (columns a-e from the left,
    rows 1-5 from the top): `take c3 c4 c5`, `gold a1` then `reserve 2.3`, `buy 1.2`.
    On your turn type an action or its number from the list; `?` shows the notation.
    The record is saved at the end, and also on Ctrl-C or end of input (unfinished);
    `--resume RECORD` plays such a game on (in any language). `--lang fr` or `--lang nl`
    plays in French or Dutch (the notation stays the same).
    """
    from ..tui.app import run_play

    code = run_play(
        game=game,
        players=players,
        seats=seats,
        seed=seed,
        record_path=record,
        human_name=name,
        delay=delay,
        quiet=quiet,
        turn_cap=turn_cap,
        resume=resume,
        language=lang,
    )
    raise typer.Exit(code)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON) written by `splendor play`.")],
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only the final scores.")
    ] = False,
    lang: _Lang = None,
) -> None:
    """Re-play a game record, checking every action, and print the moves and final scores.

    A record that cannot be read or replayed: one line on stderr, exit code 1. `--lang fr`
    or `--lang nl` prints in French or Dutch (the moves' notation stays the same).
    """
    from rich.text import Text

    from ..record import GameRecord, RecordError
    from ..tui.options import PlayOptionError, play_language
    from ..tui.words import tui_messages

    # the record's text (names, actions, reasons) is printed as it is, never as rich markup
    console = plain_console()
    err = plain_console(stderr=True)
    try:
        t = tui_messages(play_language(lang))
    except PlayOptionError as e:
        err.print(Text("error: ", style="bold red") + Text(str(e)), soft_wrap=True)
        raise typer.Exit(2) from None
    try:
        rec = GameRecord.load(file)
        game = rec.game_module()
        with err.status(t.gettext("preparing the engine…")):
            game.warm_up()
        if not quiet:
            options = "".join(f" · {k.replace('_', ' ')} {v}" for k, v in rec.options.items())
            seats = " ".join(f"{i}:{n}" for i, n in enumerate(rec.players))
            seed = t.gettext("seed {seed}", seed=rec.seed)
            console.print(f"{game.name} · {seed}{options} · {seats}")

        def show(i: int, state: object, action: object, seat: int) -> None:
            if not quiet:
                where = t.gettext("seat {seat}", seat=seat)
                console.print(f"{i + 1:4d}  {where} {rec.players[seat]:>10}  {action}")

        final = rec.replay(show)
    except RecordError as e:
        one_line = " ".join(str(e).splitlines())
        err.print(
            Text(t.gettext("invalid record"), style="bold red") + Text(f": {one_line}"),
            soft_wrap=True,
        )
        raise typer.Exit(1) from None
    for line in replay_ending(rec, final, language=t.language):
        console.print(line)


def replay_ending(rec: Any, final: Any, *, language: str = "en") -> list[str]:
    """The lines after a replayed game's moves: the scores and who won (or why nobody
    did: a decision cap, a turn cap, D25), the forfeit and its reason, or how far an
    unfinished game went, in ``language``."""
    from ..tui import words

    t = words.tui_messages(language)
    result = rec.result or {}
    if result.get("end_reason") == "forfeit":
        from ..tui.app import forfeit_lines

        reason = result["forfeit"]["reason"]
        return [
            t.gettext("forfeit: {reason}", reason=reason),
            *forfeit_lines(result, rec.players, language=language),
        ]
    lines = [words.scores_line(rec.players, final.scores, t)]
    if result.get("end_reason") == "decision_cap":
        lines.append(
            t.gettext(
                "no winner (stopped by the decision cap after {n} decisions, {turns})",
                n=result["decision_cap"],
                turns=words.turns_text(final.turn, t),
            )
        )
    elif final.is_terminal:  # no winner: a Duel game stopped by its turn cap (D25)
        lines.append(words.winner_line(rec.players, final.winners, final.end_reason, final.turn, t))
    else:
        lines.append(
            t.ngettext(
                "unfinished game after {n} decision ({turns})",
                "unfinished game after {n} decisions ({turns})",
                len(rec.actions),
                n=len(rec.actions),
                turns=words.turns_text(final.turn, t),
            )
        )
    return lines


__all__ = ["play", "replay", "replay_ending"]
