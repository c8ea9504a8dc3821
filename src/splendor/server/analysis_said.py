"""The moves of a post-game analysis said as sentences in the reader's language (issue
33): the move played, the engine's best move and its alternatives, each with ``{seatN}``
for the players, as a state message's log (:func:`.protocol.move_texts`). The analysis
itself is stored with notation (:mod:`.analysis_jobs`); the sentences are added when it
is answered, for the language asked."""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass
from typing import Any

from ..game import get_game
from ..move_text import move_sentence, seat_placeholders
from .live import LiveGame


async def with_sentences(answer: dict[str, Any], live: LiveGame, language: str) -> dict[str, Any]:
    """``answer`` (``{"status", "data", "error"}``, :func:`.analysis_jobs.answer`) with, in
    each analysed move of ``data["moves"]``, ``"played_text"`` (the move played),
    ``"best_text"`` (the engine's move, None for none) and a ``"text"`` in each of its
    ``"alternatives"``, said in ``language`` in the position before the move (the game
    replayed from its deal, in a thread). A copy; ``answer`` is unchanged. Data that does
    not fit the game (an index past its moves, a move that is not an action) is left
    without text.

    Raises:
        ValueError: an unknown language.
    """
    data = answer.get("data")
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
        return answer
    texts = live.said(language)[0]  # cached per language, on the event loop
    game = Deal(live.game, live.num_players, live.seed, dict(live.options), list(live.moves))
    return await asyncio.to_thread(said_analysis, answer, game, texts, language)


@dataclass(frozen=True)
class Deal:
    """What replaying a game needs: its name, players, seed, options and moves."""

    game: str
    num_players: int
    seed: int
    options: dict[str, Any]
    moves: list[tuple[int, str]]


def said_analysis(
    answer: dict[str, Any], deal: Deal, texts: list[str], language: str
) -> dict[str, Any]:
    """:func:`with_sentences`'s work, off the event loop: ``texts`` are the moves'
    sentences (:meth:`.live.LiveGame.said`)."""
    out = copy.deepcopy(answer)
    wanted = {m.get("index"): m for m in out["data"]["moves"] if isinstance(m, dict)}
    names = seat_placeholders(deal.num_players)
    module = get_game(deal.game)
    state = module.new_game(deal.num_players, deal.seed, **deal.options)
    last = max((i for i in wanted if isinstance(i, int)), default=-1)
    for i, (_seat, played) in enumerate(deal.moves[: last + 1]):
        move = wanted.get(i)
        if move is not None:
            move["played_text"] = texts[i] if i < len(texts) else None
            _say_choices(move, state, module.action_type, names, language)
        state.apply(module.action_type.parse(played))
    return out


def _say_choices(
    move: dict[str, Any], before: Any, action_type: Any, names: list[str], language: str
) -> None:
    """Add ``best_text`` and each alternative's ``text`` to ``move`` (in place)."""

    def said(notation: Any) -> str | None:
        if not isinstance(notation, str):
            return None
        try:
            return move_sentence(before, action_type.parse(notation), names, language)
        except ValueError:
            return None

    move["best_text"] = said(move.get("best"))
    for alternative in move.get("alternatives") or []:
        if isinstance(alternative, dict):
            alternative["text"] = said(alternative.get("move"))


__all__ = ["Deal", "said_analysis", "with_sentences"]
