"""Bots: players that choose from an observation and its legal decisions.

``make_bot("greedy", seed=1)`` builds a bot from its name; see :data:`BOT_NAMES`. Every bot
plays both games: it is handed a classic or a duel observation and answers with one of the
legal decisions it was given.
"""

from __future__ import annotations

from .base import Bot
from .random_bot import RandomBot

BOT_NAMES: tuple[str, ...] = ("random", "greedy")
"""Names accepted by :func:`make_bot`."""


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Build the bot called ``name`` (one of :data:`BOT_NAMES`), seeded with ``seed``.

    Raises:
        ValueError: unknown bot name; the message lists the known ones.
    """
    key = name.strip().lower()
    if key == "random":
        return RandomBot(seed)
    if key == "greedy":
        from .greedy import GreedyBot

        return GreedyBot(seed)
    raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "Bot", "RandomBot", "make_bot"]
