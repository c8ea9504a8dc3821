"""How a bot plays, counted from game records: the habits that cost games against strong
players (issue 17): reserving cards it never buys, token jams that force returns or a
pass, few nobles or royal cards.

Per seat of one game (:func:`seat_style`), and per bot as means over its seat-games
(:func:`mean_style`):

- ``reserves``: cards reserved (face up or blind; C8, D9);
- ``reserves_bought``: reserved cards it bought later (C9, D10);
- ``reserves_never_bought``: cards still reserved when the game stopped;
- ``returns``: tokens returned over the limit of 10 (C11, D20);
- ``passes``: forced passes, no other decision being legal (C17, D12);
- ``nobles``: nobles that visited (classic, C12) or royal cards taken (Duel, D19);
- ``cards``: development or jewel cards bought; ``cards_l1``, ``cards_l2``, ``cards_l3``:
  of each level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..record import GameRecord

STYLE_KEYS = (
    "reserves",
    "reserves_bought",
    "reserves_never_bought",
    "returns",
    "passes",
    "nobles",
    "cards",
    "cards_l1",
    "cards_l2",
    "cards_l3",
)
"""The counts of a seat's style, in the order tables show them."""


def _reserves(kind: str) -> bool:
    return kind in ("reserve_faceup", "reserve_deck", "reserve_pyramid")


def _buys_reserved(action: Any) -> bool:
    """Whether ``action`` buys one of the player's reserved cards: classic ``buy r1`` and
    ``buy r1 choose`` (no level), Duel ``buy r1`` and ``buy r1 choose`` (``reserved``)."""
    if action.kind == "buy_reserved":
        return True
    if action.kind not in ("buy", "buy_choose"):
        return False
    if hasattr(action, "reserved"):  # Duel
        return bool(action.reserved)
    return action.level is None


def seat_style(record: GameRecord) -> list[dict[str, int]]:
    """Each seat's counts (module docstring) in the game of ``record``, replayed.

    Raises:
        RecordError: the record does not replay.
    """
    counts = [dict.fromkeys(STYLE_KEYS, 0) for _ in range(record.num_players)]
    final = None
    for _i, action, seat, state in record.iter_replay():
        c = counts[seat]
        c["reserves"] += _reserves(action.kind)
        c["reserves_bought"] += _buys_reserved(action)
        c["returns"] += action.kind == "return"
        c["passes"] += action.kind == "pass"
        final = state
    if final is None:
        final = record.new_state()
    for seat, c in enumerate(counts):
        me = final.player(seat)
        c["reserves_never_bought"] = len(me.reserved)
        c["nobles"] = len(me.nobles) if hasattr(me, "nobles") else len(me.royals)
        c["cards"] = len(me.purchased)
        for level in (1, 2, 3):
            c[f"cards_l{level}"] = sum(1 for card in me.purchased if card.level == level)
    return counts


def mean_style(games: Sequence[Mapping[str, Any]], bot: int) -> dict[str, float] | None:
    """The mean of each count over the seat-games of bot ``bot`` in ``games`` (arena game
    summaries with ``bots`` and ``style``), or None when it played none with a style."""
    rows = [
        g["style"][seat]
        for g in games
        if g.get("style")
        for seat, b in enumerate(g["bots"])
        if b == bot
    ]
    if not rows:
        return None
    return {k: round(sum(r[k] for r in rows) / len(rows), 3) for k in STYLE_KEYS}


__all__ = ["STYLE_KEYS", "mean_style", "seat_style"]
