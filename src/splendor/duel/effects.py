"""What a Duel decision did besides its notation (:mod:`splendor.effects`): privileges that
changed hands (D6, D7, D16, D18), abilities the engine resolved because they had a single
possible choice (D14 joker, D15 token, D17 steal, D19 royal card), and an extra turn (D13).
"""

from __future__ import annotations

from typing import Any

from ..effects import Effect
from .actions import Action
from .board import cell_name

# decisions that take tokens from the board themselves (their cells are in the notation)
_TAKES_CELLS = frozenset({"take", "take_gold", "privilege", "token", "replenish"})


def effects_of(before: Any, action: Action, after: Any) -> tuple[Effect, ...]:
    """The effects of ``action``, played by ``before.current_player``, that its notation
    does not say, in the order the rules resolve them. ``before`` and ``after`` are the
    :class:`~splendor.duel.State` (or either seat's :class:`~splendor.duel.Observation`)
    just before and just after it; only their public parts are read.

    Returns:
        Zero or more of: ``joker`` (the colour a bought joker card joined, D14, when only
        one was possible), ``token`` (a token of the card's colour taken from ``cell``,
        D15), ``steal`` (D17), ``royal`` (D19), ``privilege`` gains of either seat (D6,
        D7, D16, D18; ``source`` is the seat it was taken from, else -1), ``again`` (D13).
        A decision that is itself the choice (``joker``, ``token``, ``steal``, ``royal``)
        has no such effect of its own.

    Raises:
        ValueError: ``before`` is a finished game.
    """
    seat = before.current_player
    if seat is None:
        raise ValueError("the game was over before this decision: no player made it")
    other = 1 - seat
    me0, me1 = before.player(seat), after.player(seat)
    them0, them1 = before.player(other), after.player(other)
    out: list[Effect] = []
    if action.kind != "joker":
        old = set(zip((c.id for c in me0.purchased), me0.purchased_colors, strict=True))
        for card, color in zip(me1.purchased, me1.purchased_colors, strict=True):
            if "joker" in card.ability.split("+") and (card.id, color) not in old and color >= 0:
                out.append(Effect("joker", seat, color=color))
    if action.kind not in _TAKES_CELLS:
        for cell, (was, now) in enumerate(zip(before.board, after.board, strict=True)):
            if was is not None and now is None:
                out.append(Effect("token", seat, color=was, cell=cell_name(cell)))
    if action.kind != "steal":
        for color, (was, now) in enumerate(zip(them0.tokens, them1.tokens, strict=True)):
            if now < was:
                out.append(Effect("steal", seat, source=other, color=color))
    if action.kind != "royal":
        had = {r.id for r in me0.royals}
        out.extend(Effect("royal", seat, item=r.id) for r in me1.royals if r.id not in had)
    for gainer, g0, g1, o0, o1 in ((seat, me0, me1, them0, them1), (other, them0, them1, me0, me1)):
        gained = g1.privileges - g0.privileges
        if gained > 0:
            taken = min(gained, max(0, o0.privileges - o1.privileges))
            if gained - taken:
                out.append(Effect("privilege", gainer, count=gained - taken))
            if taken:
                out.append(Effect("privilege", gainer, source=1 - gainer, count=taken))
    if not after.is_terminal and after.turn > before.turn and after.current_player == seat:
        out.append(Effect("again", seat))
    return tuple(out)


__all__ = ["effects_of"]
