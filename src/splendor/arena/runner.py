"""Playing the arena's games: one game per task, on a backend.

:func:`play_task` plays one :class:`~splendor.arena.schedule.GameTask` and returns a small
JSON-able summary plus the game's record; it is what every backend runs:

- ``serial``: in this process, one game after another (tests, debugging);
- ``local``: a process pool on this machine (``workers`` processes, default all cores);
- ``ray``: tasks on a Ray cluster (``ray.init(address=...)``), or on a local Ray instance
  started for the run when no address is given and Ray is not running yet.

A game's outcome depends only on its task (the deal seed and the bots' seeds), never on the
backend or on the order in which games finish, as long as the bots are deterministic
(random, greedy, MCTS with an iteration budget; an MCTS bot with a *time* budget searches
as far as the machine lets it and is not).

A bot that raises, answers garbage or an illegal action, or fails to answer in time (an
external bot raises :class:`splendor.bots.base.BotError` then) forfeits: its seat loses,
every other seat wins, and the record's result says why (``end_reason == "forfeit"``,
``forfeit == {"seat", "reason"}``). A bot that cannot even be built forfeits before the
first decision. Errors of the engine itself are not forfeits: they stop the arena.

A task with a ``max_decisions`` cap (classic games, whose rules have no turn limit) stops
after that many decisions if no rule has ended it: nobody wins, and the record's result
says so (``end_reason == "decision_cap"``, ``decision_cap == N``;
:func:`splendor.record.decision_cap_result`).
"""

from __future__ import annotations

import inspect
import multiprocessing
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .schedule import GameTask
from .style import seat_style

BACKENDS: tuple[str, ...] = ("local", "serial", "ray")
"""Backends accepted by :func:`run_tasks`."""


class ArenaError(RuntimeError):
    """An arena that failed while running: a game that failed for a reason that is not a
    bot's fault (an engine error), a Ray cluster that cannot be reached. (Bad options are
    ValueErrors, raised before any game.)"""


def _play_game_forfeits() -> bool:
    """True when :func:`splendor.match.play_game` takes ``forfeit_on_error``."""
    from ..match import play_game

    return "forfeit_on_error" in inspect.signature(play_game).parameters


def _reason(exc: BaseException) -> str:
    """One line for people saying how a bot failed."""
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str) and reason:
        return reason
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


class _Clocked:
    """Wraps a bot: times its decisions and remembers whether it raised (so the arena can
    tell a bot's crash from an engine error when ``play_game`` has no forfeits)."""

    def __init__(self, bot: Any, seat: int, last: list[int]) -> None:
        self.bot = bot
        self.seat = seat
        self.name = getattr(bot, "name", "bot")
        self.seconds = 0.0
        self.decisions = 0
        self.raised: BaseException | None = None
        self._last = last

    def choose(self, observation: Any, legal_actions: Any) -> Any:
        self._last[0] = self.seat
        t0 = time.perf_counter()
        try:
            return self.bot.choose(observation, legal_actions)
        except Exception as e:
            self.raised = e
            raise
        finally:
            self.seconds += time.perf_counter() - t0
            self.decisions += 1


def _forfeit_result(state: Any, seat: int, reason: str) -> dict[str, Any]:
    """The result of a game that ``seat`` forfeited at ``state`` (same shape as
    ``play_game(..., forfeit_on_error=True)`` writes)."""
    n = state.num_players
    return {
        "scores": [int(x) for x in state.scores],
        "winners": [s for s in range(n) if s != seat],
        "end_reason": "forfeit",
        "turns": int(state.turn),
        "forfeit": {"seat": int(seat), "reason": reason},
    }


def _close(bots: Iterable[Any]) -> None:
    for bot in bots:
        close = getattr(bot, "close", None)
        if callable(close):
            try:
                close()
            except Exception:  # a bot that fails to close must not spoil the game's result
                pass


def play_task(task: GameTask | Mapping[str, Any]) -> dict[str, Any]:
    """Play one arena game.

    Args:
        task: a :class:`GameTask` or its :meth:`~GameTask.to_dict`.

    Returns:
        ``{"summary": {...}, "record": {...}}``: the summary has ``index``, ``cycle``,
        ``lineup``, ``seed``, ``bots`` (bot index per seat), ``names``, ``scores``
        (prestige points per seat), ``winners`` (seats; none for a game stopped by the
        task's ``max_decisions``), ``end_reason`` (``"decision_cap"`` for such a game),
        ``turns``,
        ``decisions`` (all seats), ``forfeit`` (``{"seat", "reason"}`` or None),
        ``think_s`` and ``seat_decisions`` (wall-clock seconds spent and decisions made
        per seat); the record is :meth:`splendor.record.GameRecord.to_dict`.

    Raises:
        ArenaError: the game failed for a reason that is not a bot's (an engine error).
    """
    from ..game import get_game
    from ..record import GameRecord

    t = task.to_dict() if isinstance(task, GameTask) else dict(task)
    n = len(t["specs"])
    record = GameRecord(
        game=get_game(t["game"]).name,
        num_players=n,
        players=list(t["names"]),
        seed=int(t["seed"]),
        options=dict(t.get("options") or {}),
    )
    cap = _cap(t)
    last = [-1]
    bots: list[Any] = []
    agents: list[_Clocked] = []
    try:
        if _start_bots(t, record, last, bots, agents):
            record = _play_record(t, record, agents, cap, last)
    finally:
        _close(bots)
    think = [round(a.seconds, 6) for a in agents] + [0.0] * (n - len(agents))
    made = [a.decisions for a in agents] + [0] * (n - len(agents))
    summary = _summary(t, record, think, made)
    record.metadata["arena"] = {
        "index": summary["index"],
        "cycle": summary["cycle"],
        "lineup": summary["lineup"],
        "specs": list(t["specs"]),
        "bot_seeds": [int(s) for s in t["bot_seeds"]],
        "think_s": think,
        "max_decisions": cap,
    }
    return {"summary": summary, "record": record.to_dict()}


def _start_bots(
    t: Mapping[str, Any],
    record: Any,
    last: list[int],
    bots: list[Any],
    agents: list[_Clocked],
) -> bool:
    """Start the bots of task ``t`` into ``bots`` (each clocked, into ``agents``); False
    when one cannot start: its seat then forfeits (``record.result``)."""
    from ..bots import make_bot

    for seat, (spec, bseed) in enumerate(zip(t["specs"], t["bot_seeds"], strict=True)):
        try:
            bot = make_bot(spec, seed=int(bseed))
        except Exception as e:
            record.result = _forfeit_result(
                record.new_state(), seat, f"could not start bot {spec!r}: {_reason(e)}"
            )
            return False
        bots.append(bot)
        agents.append(_Clocked(bot, seat, last))
    return True


def _play_record(
    t: Mapping[str, Any], record: Any, agents: list[_Clocked], cap: int | None, last: list[int]
) -> Any:
    """Play the game of task ``t`` into ``record`` (returned) between ``agents``: a bot
    that fails or answers an illegal action forfeits; a game still going after ``cap``
    decisions is stopped (:func:`splendor.record.decision_cap_result`).

    Raises:
        ArenaError: the game failed for a reason that is not a bot's.
    """
    from ..match import AgentError, play_game
    from ..record import decision_cap_result

    kwargs: dict[str, Any] = {}
    if _play_game_forfeits():
        kwargs["forfeit_on_error"] = True
    if cap is not None:
        kwargs["max_decisions"] = cap
    try:
        final, record = play_game(
            agents,
            game=record.game,
            seed=record.seed,
            names=record.players,
            record=record,
            **kwargs,
        )
        if (
            cap is not None
            and record.result is None
            and not final.is_terminal
            and len(record.actions) == cap
        ):
            record.result = decision_cap_result(final, cap)
    except Exception as e:
        seat = last[0]
        culprit = agents[seat] if 0 <= seat < len(t["specs"]) else None
        if culprit is None or not (isinstance(e, AgentError) or culprit.raised is e):
            raise ArenaError(
                f"game {t['index']} (seed {t['seed']}, seats {', '.join(t['names'])}) "
                f"failed after {len(record.actions)} decisions: {_reason(e)}"
            ) from e
        why = _reason(e) if culprit.raised is e else f"illegal answer: {_reason(e)}"
        record.result = _forfeit_result(record.replay(), seat, why)
    return record


def _cap(t: Mapping[str, Any]) -> int | None:
    """The decision cap of task ``t`` (None: none; 0 counts as none)."""
    cap = t.get("max_decisions")
    return int(cap) if cap else None


def summary_from_record(task: GameTask | Mapping[str, Any], record: Any) -> dict[str, Any] | None:
    """Rebuild the :func:`play_task` summary of ``task`` from the record an earlier run
    saved for it (to resume an interrupted arena).

    Args:
        task: the scheduled game.
        record: the :class:`splendor.record.GameRecord` found at the task's path.

    Returns:
        the summary (as :func:`play_task` returns it), or None when the record is of an
        unfinished game (no result), which is then played again.

    Raises:
        ValueError: the record belongs to another arena (its game, seed, seats, bot
            specs, bot seeds, game options or decision cap differ from the task's; a
            record without ``metadata.arena.max_decisions`` counts as uncapped).
        splendor.record.RecordError: its actions or result do not replay, or do not fit
            the arena's decision cap (a capped result with another cap, more actions than
            the cap).
    """
    t = task.to_dict() if isinstance(task, GameTask) else dict(task)
    meta = record.metadata.get("arena") if isinstance(record.metadata, dict) else None
    _check_same_arena(t, record, meta)
    if record.result is None:
        return None
    _check_cap(t, record)
    n = len(t["specs"])
    made = [0] * n

    def count(_i: int, _state: Any, _action: Any, seat: int) -> None:
        made[seat] += 1

    record.replay(count)  # checks the actions and the stored result, counts each seat's decisions
    think = meta.get("think_s") if isinstance(meta, dict) else None
    if not (
        isinstance(think, list)
        and len(think) == n
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in think)
    ):
        think = [0.0] * n  # missing or not seconds per seat: unknown
    return _summary(t, record, [float(x) for x in think], made)


def _check_same_arena(t: Mapping[str, Any], record: Any, meta: Any) -> None:
    """Raise ValueError unless ``record`` (its ``metadata["arena"]``: ``meta``) is the
    record of task ``t`` (:func:`summary_from_record`)."""
    from ..game import get_game

    mine = {
        "game": get_game(t["game"]).name,
        "seed": int(t["seed"]),
        "players": list(t["names"]),
        "specs": list(t["specs"]),
        "bot_seeds": [int(b) for b in t["bot_seeds"]],
        "index": int(t["index"]),
        "options": dict(t.get("options") or {}),
        "max_decisions": _cap(t),
    }
    arena = meta if isinstance(meta, dict) else None
    theirs = {
        "game": record.game,
        "seed": record.seed,
        "players": list(record.players),
        "specs": arena.get("specs", []) if arena is not None else None,
        "bot_seeds": arena.get("bot_seeds", []) if arena is not None else None,
        "index": arena.get("index") if arena is not None else None,
        "options": dict(record.options or {}),
        "max_decisions": arena.get("max_decisions") if arena is not None else None,
    }
    differ = [k for k in mine if mine[k] != theirs[k]]
    if differ:
        raise ValueError(
            f"the saved record of game {t['index']} belongs to another arena "
            f"({', '.join(f'{k}: {theirs[k]!r}, this arena: {mine[k]!r}' for k in differ)})"
        )


def _check_cap(t: Mapping[str, Any], record: Any) -> None:
    """Raise RecordError unless the finished ``record`` fits the decision cap of task
    ``t`` (:func:`summary_from_record`)."""
    from ..record import RecordError

    cap = _cap(t)
    capped = record.result.get("end_reason") == "decision_cap"
    if capped and record.result.get("decision_cap") != cap:
        raise RecordError(
            f"the saved record of game {t['index']} was stopped by a decision cap of "
            f"{record.result.get('decision_cap')!r}, but its arena's cap is {cap}"
        )
    if cap is not None and len(record.actions) > cap:
        raise RecordError(
            f"the saved record of game {t['index']} holds {len(record.actions)} decisions, "
            f"more than its arena's decision cap of {cap}"
        )


def _summary(
    t: Mapping[str, Any], record: Any, think: list[float], made: list[int]
) -> dict[str, Any]:
    """The summary of the game of task ``t`` (see :func:`play_task`) from its record,
    the seconds each seat spent thinking, the decisions each seat made and each seat's
    style (:func:`splendor.arena.style.seat_style`)."""
    n = len(t["specs"])
    result = record.result or {}
    forfeit = result.get("forfeit")
    return {
        "index": int(t["index"]),
        "cycle": int(t["cycle"]),
        "lineup": int(t["lineup"]),
        "seed": int(t["seed"]),
        "bots": [int(b) for b in t["bots"]],
        "names": list(t["names"]),
        "scores": [int(x) for x in result.get("scores", [0] * n)],
        "winners": [int(w) for w in result.get("winners", [])],
        "end_reason": result.get("end_reason"),
        "turns": int(result.get("turns", 0)),
        "decisions": len(record.actions),
        "forfeit": dict(forfeit) if forfeit else None,
        "think_s": think,
        "seat_decisions": [int(x) for x in made],
        "style": seat_style(record),
    }


# ------------------------------------------------------------------ backends


def _serial(tasks: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for task in tasks:
        yield play_task(task)


def _local(tasks: list[dict[str, Any]], workers: int) -> Iterator[dict[str, Any]]:
    # spawn, not fork: the parent may run threads (the progress bar), and a forked child of
    # a threaded process can deadlock; each worker imports the package once (numba caches).
    from ..bots import warm_up_spec

    ctx = multiprocessing.get_context("spawn")
    for spec in sorted({s for t in tasks for s in t["specs"]}):
        warm_up_spec(spec)  # one compile here, not one per worker at the same moment
    pool = ProcessPoolExecutor(max_workers=max(1, min(workers, len(tasks))), mp_context=ctx)
    try:
        pending = {pool.submit(play_task, task) for task in tasks}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                try:
                    out = fut.result()
                except BrokenProcessPool as e:
                    raise ArenaError(
                        f"a worker process died ({e}); when calling run_arena from a script, "
                        "guard the call with `if __name__ == '__main__':` (worker processes "
                        "are spawned and import the main module)"
                    ) from None
                yield out
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _ray(
    tasks: list[dict[str, Any]], workers: int, address: str | None
) -> Iterator[dict[str, Any]]:
    import ray  # checked by check_backend

    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"ignore_reinit_error": True, "log_to_driver": False}
        if address:
            kwargs["address"] = address
        else:
            kwargs.update(num_cpus=workers, include_dashboard=False)
        try:
            ray.init(**kwargs)
        except Exception as e:  # ConnectionError, a bad address…
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            raise ArenaError(f"cannot start {where}: {_reason(e)}") from None
        started = True
    pending: list[Any] = []
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(play_task)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    yield ray.get(ref)
                except Exception as e:
                    cause = getattr(e, "cause", None)
                    if isinstance(cause, ArenaError):
                        raise cause from None
                    raise ArenaError(f"a game failed on the Ray cluster: {_reason(e)}") from None
    finally:
        for ref in pending:  # an interrupted run: stop what has not finished
            try:
                ray.cancel(ref, force=True)
            except Exception:
                pass
        if started:
            ray.shutdown()


def check_backend(backend: str, address: str | None = None, workers: int | None = None) -> None:
    """Check the backend options before any game is played.

    Raises:
        ValueError: unknown backend, ``address`` without ``ray``, ``workers < 1``, or the
            ``ray`` package missing.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known backends: {', '.join(BACKENDS)}")
    if address and backend != "ray":
        raise ValueError("--address is for the ray backend (--backend ray)")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise ValueError(
                "the ray backend needs the 'ray' package: pip install 'splendor[ray]' "
                "(or use --backend local)"
            ) from None


def run_tasks(
    tasks: Iterable[GameTask | Mapping[str, Any]],
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Play every task on ``backend``; yield each :func:`play_task` output as it completes
    (in order of completion, which differs between runs: sort by ``summary["index"]``).

    Args:
        tasks: the games.
        backend: ``"serial"``, ``"local"`` or ``"ray"``.
        workers: processes (``local``) or CPUs of a local Ray instance; default
            ``os.cpu_count()``.
        address: the Ray cluster (``ray.init(address=...)``, e.g. ``"auto"`` or
            ``"ray://host:10001"``); ``ray`` only. The package must be installed on the
            cluster's nodes.

    Raises:
        ValueError: see :func:`check_backend` (raised before any game).
        ArenaError: the Ray cluster cannot be reached, an engine error in a game (raised
            while iterating).
    """
    check_backend(backend, address, workers)
    n_workers = workers if workers is not None else (os.cpu_count() or 1)
    items = [t.to_dict() if isinstance(t, GameTask) else dict(t) for t in tasks]
    if not items:
        return iter(())
    if backend == "serial":
        return _serial(items)
    if backend == "local":
        return _local(items, n_workers)
    return _ray(items, n_workers, address)
