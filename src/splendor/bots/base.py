"""The bot interface: ``choose(observation, legal_actions) -> Action``.

A bot sees only an observation (no hidden information, C16/D22) and the legal decisions of
its seat; it must return one of them.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable


@runtime_checkable
class Bot(Protocol):
    """Anything that picks a decision from an observation.

    Attributes:
        name: a short label for tables and records (``"greedy"``, ``"random"``).
    """

    name: str

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Return one element of ``legal_actions`` (never empty) for ``observation``."""
        ...
