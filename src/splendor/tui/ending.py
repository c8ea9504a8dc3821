"""The end of a game in the terminal: the forfeit, the record saved (finished, or
unfinished after Ctrl-C, the end of input, ``quit`` or an error), the final board, scores
and result lines."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from ..i18n import DEFAULT_LANGUAGE, Messages
from ..record import GameRecord
from . import words
from .table import EXIT_ERROR, EXIT_OK, Table, error
from .words import tui_messages


def finish(
    table: Table, final: Any, rec: GameRecord, viewer: int, out: Console, err: Console
) -> int:
    """A finished (or forfeited) game: the forfeit said, the record saved, the final board
    and scores from ``viewer``'s seat, and who won. Returns 0, or 1 for a forfeit or a
    record that cannot be saved."""
    t, ui, names = table.t, table.ui, table.names
    result = rec.result or {}
    forfeit = result.get("forfeit")
    if forfeit is not None:
        loser = forfeit["seat"]
        forfeits = t.gettext(
            "{name} (seat {seat}) forfeits: {reason}",
            name=names[loser],
            seat=loser,
            reason=forfeit["reason"],
        )
        error(err, t, forfeits, soft_wrap=True)
    saved = save(rec, table.path, err, t)
    if saved is None:
        return EXIT_ERROR
    obs = final.observation(viewer)
    you = bool(table.humans)
    if not table.quiet:
        out.print(ui.render.render_board(obs, names, you=you, language=ui.language))
        out.print(ui.render.render_scores(obs, names, you=you, language=ui.language))
    if forfeit:
        lines = forfeit_lines(result, names, language=ui.language)
    else:
        lines = ui.render.result_lines(obs, names, language=ui.language)
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


def stopped_line(why: str, n: int, path: Path, t: Messages) -> str:
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


def save_unfinished(
    rec: GameRecord, path: Path, out: Console, err: Console, why: str, code: int, t: Messages
) -> int:
    """Save ``rec`` as an unfinished game (no result) and say why it stopped (``why``:
    ``"interrupted"``, ``"input ended"``, ``"stopped"``, ``"error"``); ``code``, or 1
    when the record cannot be saved."""
    rec.result = None
    saved = save(rec, path, err, t)
    if saved is None:
        return EXIT_ERROR
    out.print(stopped_line(why, len(rec.actions), saved, t), soft_wrap=True)
    return code


def save(rec: GameRecord, path: Path, err: Console, t: Messages) -> Path | None:
    """Save ``rec`` to ``path``, with its effects (:meth:`GameRecord.with_effects`); on
    failure print why and return None."""
    try:
        return rec.with_effects().save(path)
    except OSError as e:
        error(err, t, t.gettext("cannot save the record to {path}: {error}", path=path, error=e))
        return None


__all__ = ["finish", "forfeit_lines", "save", "save_unfinished", "stopped_line"]
