"""Game clocks, counted by the server only (a client's clock is a display).

Two kinds (validated by :func:`.tables.check_clock`):

- **Real time** ``{"kind": "realtime", "base": B, "increment": I}``: each player has a
  time bank of ``B`` seconds; the time a player takes over their decisions is taken from
  their bank, and ``I`` seconds are added when their turn ends (the decision passes to
  another seat; a turn of several decisions, a payment say, is one turn).
- **Turn-based** ``{"kind": "turn", "per_move": D}``: each turn must be played within
  ``D`` seconds of its start.

A player whose time runs out **times out**: in a 2-player game they lose (a forfeit); with
3-4 players a bot plays their seat on and they rank last in the ratings
(:meth:`.service.GameService.time_out`).

The clock is part of the stored game: every move is stored with the clock after it
(:meth:`ClockState.stored`: each seat's time left and the seat whose time runs). A server
that restarts resumes each clock from the last move, counting from the moment the game
is loaded again: the time the server was down is charged to nobody. All times are in
seconds; ``now`` is wall-clock time (:func:`time.time`), shared by every server process.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

GRACE = 0.5
"""Seconds a decision may arrive after its deadline and still count (network delay)."""


@dataclass
class ClockState:
    """A running clock.

    Attributes:
        spec: the clock (:func:`.tables.check_clock`).
        remaining: seconds left per seat at ``since`` (turn-based: for the turn of the seat
            whose time runs; the others' entries are ``per_move``).
        running: the seat whose time runs, or None (the game is over).
        since: when ``running``'s time started running (wall-clock seconds).
    """

    spec: dict[str, Any]
    remaining: list[float]
    running: int | None
    since: float

    @classmethod
    def start(cls, spec: dict[str, Any], num_players: int, first: int, now: float) -> ClockState:
        """A fresh clock: full banks (or a full turn), ``first``'s time running."""
        full = float(spec["base"] if spec["kind"] == "realtime" else spec["per_move"])
        return cls(dict(spec), [full] * num_players, first, now)

    @classmethod
    def resume(
        cls,
        spec: dict[str, Any],
        stored: dict[str, Any] | None,
        num_players: int,
        first: int,
        now: float,
    ) -> ClockState:
        """The clock of a game loaded again: as stored with its last move (a fresh one if
        it has none or it is unreadable), running from ``now``."""
        try:
            assert stored is not None
            remaining = [float(x) for x in stored["remaining"]]
            running = stored["running"]
            if len(remaining) != num_players or not (
                running is None or (isinstance(running, int) and 0 <= running < num_players)
            ):
                raise ValueError(stored)
        except (AssertionError, KeyError, TypeError, ValueError):
            return cls.start(spec, num_players, first, now)
        return cls(dict(spec), remaining, running, now)

    def left(self, seat: int, now: float) -> float:
        """Seconds left to ``seat`` at ``now`` (negative once its time is out)."""
        spent = now - self.since if seat == self.running else 0.0
        return self.remaining[seat] - spent

    def deadline(self) -> float | None:
        """When the running seat's time runs out (wall-clock seconds), or None."""
        if self.running is None:
            return None
        return self.since + self.remaining[self.running]

    def decided(self, seat: int, next_seat: int | None, now: float) -> ClockState:
        """The clock after ``seat`` decided at ``now`` and ``next_seat`` decides next (None:
        the game is over). Does not check the deadline (see :func:`late`)."""
        remaining = list(self.remaining)
        if self.spec["kind"] == "realtime":
            remaining[seat] = max(0.0, self.left(seat, now))
            if next_seat != seat:
                remaining[seat] += float(self.spec["increment"])
        elif next_seat is not None and next_seat != seat:
            remaining[next_seat] = float(self.spec["per_move"])
        elif next_seat == seat:
            remaining[seat] = max(0.0, self.left(seat, now))
        return ClockState(self.spec, remaining, next_seat, now)

    def stopped(self, now: float) -> ClockState:
        """The clock of a game that ended at ``now`` without a move (a forfeit): nobody's
        time runs any more."""
        if self.running is None:
            return self
        remaining = list(self.remaining)
        remaining[self.running] = max(0.0, self.left(self.running, now))
        return ClockState(self.spec, remaining, None, now)

    def late(self, seat: int, now: float) -> bool:
        """Whether ``seat``'s time ran out before ``now`` (beyond :data:`GRACE`)."""
        return self.running == seat and self.left(seat, now) < -GRACE

    def stored(self) -> dict[str, Any]:
        """What is stored with a move: ``{"remaining": [s, ...], "running": seat}``."""
        return {"remaining": [round(x, 3) for x in self.remaining], "running": self.running}

    def to_json(self, now: float) -> dict[str, Any]:
        """For clients: ``{"kind", "spec", "remaining": [s, ...] (at now), "running",
        "deadline": ISO 8601 or null}``."""
        deadline = self.deadline()
        return {
            "kind": self.spec["kind"],
            "spec": dict(self.spec),
            "remaining": [
                round(max(0.0, self.left(s, now)), 1) for s in range(len(self.remaining))
            ],
            "running": self.running,
            "deadline": None
            if deadline is None
            else datetime.fromtimestamp(deadline, UTC).isoformat(),
        }
