"""The bot interface: ``choose(observation, legal_actions) -> Action``.

A bot sees only an observation (no hidden information, C16/D22) and the legal decisions of
its seat; it must return one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Bot(Protocol):
    """Anything that picks a decision from an observation.

    Attributes:
        name: a short label for tables and records (``"greedy"``, ``"random"``).

    Bots that hold resources (an external program) also have ``close()``; whoever made the
    bot closes it (:func:`splendor.match.play_game` does not).
    """

    name: str

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Return one element of ``legal_actions`` (never empty) for ``observation``.

        Raises:
            BotError: the bot could not decide (see :class:`BotError`).
        """
        ...


class BotError(RuntimeError):
    """A bot failed to make a decision: it crashed, answered garbage or an action that is
    not legal, or did not answer in time.

    The match host (:func:`splendor.match.play_game` with ``forfeit_on_error``) turns it into
    a forfeit of the bot's seat, with :attr:`reason` stored in the record.

    Attributes:
        reason: one line (or a few) for people: what went wrong, e.g. ``"external bot
            './my_bot.py' exited with code 1 before answering (stderr: ...)"``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
