"""What a classic decision did besides its notation (:mod:`splendor.effects`): a noble's
visit when exactly one qualified (C12), which nobody chose."""

from __future__ import annotations

from typing import Any

from ..effects import Effect
from .actions import Action


def effects_of(before: Any, action: Action, after: Any) -> tuple[Effect, ...]:
    """The effects of ``action``, played by ``before.current_player``, that its notation
    does not say. ``before`` and ``after`` are the :class:`~splendor.classic.State` (or any
    seat's :class:`~splendor.classic.Observation`) just before and just after it; only
    their public parts are read.

    Returns:
        ``()`` or the noble that visited without a choice (C12); a ``noble`` decision is the
        player's own choice and has no effect to tell.

    Raises:
        ValueError: ``before`` is a finished game.
    """
    seat = before.current_player
    if seat is None:
        raise ValueError("the game was over before this decision: no player made it")
    if action.kind == "noble":
        return ()
    had = {n.id for n in before.player(seat).nobles}
    return tuple(
        Effect("noble", seat, item=n.id) for n in after.player(seat).nobles if n.id not in had
    )


__all__ = ["effects_of"]
