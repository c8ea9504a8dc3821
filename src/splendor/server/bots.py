"""Bot decisions off the event loop, in worker processes.

The engine and the bots are numba code that holds the GIL, so threads would let one slow
bot (``expert`` searches 1 s a decision) stall every other game: decisions run in a
:class:`concurrent.futures.ProcessPoolExecutor` with the ``spawn`` start method (safe with
threads in the server process). A worker receives only the bot seat's *observation*
(never the state, so no bot can read hidden information) and a bot seed drawn with
:mod:`secrets` for that decision (never derived from the deal seed).

A worker that dies (killed for memory, a crash) breaks its whole pool
(:class:`concurrent.futures.process.BrokenProcessPool` for every decision in it and every
later one): :func:`decide` then has :class:`BotPools` swap in a new pool made the same way
and raises :class:`PoolReplaced`, so that the caller asks again (the service does,
:meth:`splendor.server.service.GameService`).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import numpy as np

from ..bots import LEVELS, parse_bot_spec

SERVER_BOTS: tuple[str, ...] = ("random", "greedy", *LEVELS)
"""Bot specs a game may seat (``splendor.bots.make_bot``): random, greedy and the levels
for people (:data:`splendor.bots.LEVELS`)."""

SEARCH_BOTS: frozenset[str] = frozenset(
    level for level, spec in LEVELS.items() if parse_bot_spec(spec).kind in ("mcts", "net")
)
"""The levels that search (medium, hard, expert: 50 ms to 1 s a decision): they think in
their own pool, so that they never hold up the quick bots (random, greedy, easy:
milliseconds)."""


def make_executor(workers: int | None = None) -> ProcessPoolExecutor:
    """A spawn-context process pool for bot decisions; its workers exit by themselves
    when the server process dies (even by SIGKILL, see :func:`_watch_parent`).

    Args:
        workers: processes (default: CPU count, at most 4).
    """
    if workers is None:
        workers = max(1, min(4, multiprocessing.cpu_count()))
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_watch_parent,
        initargs=(os.getpid(),),
    )


def _watch_parent(parent: int, interval: float = 1.0) -> None:
    """Worker initializer: a daemon thread ends this worker once ``parent`` is gone (a
    worker holds both ends of its task queue, so it would never see the server die)."""

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()


def new_bot_seed() -> int:
    """A fresh bot seed, ``0 <= seed < 2**63``, from :mod:`secrets` (not from the deal)."""
    return secrets.randbits(63)


def choose(game: str, spec: str, seed: int, observation: np.ndarray) -> int:
    """Run in a worker: the action id the bot ``spec`` chooses for the seat of
    ``observation`` (an observation array of ``game``; its legal actions are computed
    from it). Raises whatever the bot raises."""
    from ..bots import make_bot
    from ..game import get_game

    module = get_game(game)
    obs = module.observation_type(observation)
    bot = make_bot(spec, seed)
    try:
        action = bot.choose(obs, obs.legal_actions())
    finally:
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    return int(action.id)


@functools.lru_cache(maxsize=4)
def _analyser(settings_json: str) -> Any:
    """A worker's analyser for these settings (JSON), made once, so that its networks
    load once per worker."""
    import json

    from ..analysis import Analyser, Settings

    return Analyser(Settings.from_dict(json.loads(settings_json)))


def analyse(
    game: str,
    observation: np.ndarray,
    action: int,
    index: int,
    seat: int,
    turn: int,
    played: str,
    settings: dict[str, Any],
) -> dict[str, Any]:
    """Run in a worker (the search pool): the analysis of one decision of a finished game
    (:meth:`splendor.analysis.Analyser.decision`), from the observation of the seat that
    made it (never the state) and the action id it played; ``settings`` is
    :meth:`splendor.analysis.Settings.to_dict`. Returns
    :meth:`splendor.analysis.MoveAnalysis.to_dict`. Raises whatever the analyser raises
    (ValueError: bad settings, no network for the game, an action not legal there)."""
    import json

    from ..analysis import Decision

    analyser = _analyser(json.dumps(settings, sort_keys=True))
    decision = Decision(
        index=index, seat=seat, turn=turn, observation=observation, action=action, played=played
    )
    result: dict[str, Any] = analyser.decision(game, decision).to_dict()
    return result


def warm(game: str) -> bool:
    """Run in a worker: load the engine (numba cache) so that the first decision is quick."""
    from ..game import get_game

    get_game(game).warm_up()
    return True


class PoolReplaced(RuntimeError):
    """A bot's worker process died (its pool was broken) and the pool was replaced by a
    new one: ask again."""


def _remake(executor: Executor) -> Executor | None:
    """A new pool like ``executor`` (a :func:`make_executor` pool of as many processes),
    or None when it is not a process pool (nothing to remake)."""
    if isinstance(executor, ProcessPoolExecutor):
        return make_executor(getattr(executor, "_max_workers", None))
    return None


class BotPools:
    """Where bots think: ``quick`` for random/greedy/easy, ``search`` for the MCTS levels
    (:data:`SEARCH_BOTS`); both may be the same executor.

    A broken pool (a worker died) is replaced by :meth:`replace` with one made by
    ``make_quick`` / ``make_search`` (default: a :func:`make_executor` pool of as many
    processes as the broken one). The pools made here are shut down by :meth:`close`;
    the ones given are the caller's to shut down.

    Attributes:
        replaced: how many pools were replaced so far.
    """

    def __init__(
        self,
        quick: Executor,
        search: Executor | None = None,
        *,
        make_quick: Callable[[], Executor] | None = None,
        make_search: Callable[[], Executor] | None = None,
    ) -> None:
        self.quick = quick
        self.search = search if search is not None else quick
        self._make_quick = make_quick
        self._make_search = (
            make_search if make_search is not None else (make_quick if search is None else None)
        )
        self._made: list[Executor] = []
        self.replaced = 0

    def for_bot(self, spec: str) -> Executor:
        """The executor in which ``spec`` thinks."""
        return self.search if spec in SEARCH_BOTS else self.quick

    def replace(self, broken: Executor) -> bool:
        """Put a new pool wherever ``broken`` is used (quick, search or both); the broken
        one is shut down if it was made here. Call it from one thread (the event loop).

        Returns:
            True if a new pool took its place, False if ``broken`` is not in use any more
            (already replaced) or cannot be remade (not a process pool and no factory).
        """
        if broken is not self.quick and broken is not self.search:
            return False
        factory = self._make_quick if broken is self.quick else self._make_search
        new = factory() if factory is not None else _remake(broken)
        if new is None:
            return False
        self._made.append(new)
        if self.quick is broken:
            self.quick = new
        if self.search is broken:
            self.search = new
        self.replaced += 1
        if broken in self._made:
            self._made.remove(broken)
            broken.shutdown(wait=False, cancel_futures=True)
        return True

    def close(self) -> None:
        """Shut down the pools made by :meth:`replace` (waits for their workers)."""
        made, self._made = self._made, []
        for pool in made:
            pool.shutdown(wait=True, cancel_futures=True)


async def run_in_pool(
    pools: BotPools, current: Callable[[], Executor], what: str, fn: Callable[..., Any], *args: Any
) -> Any:
    """``fn(*args)`` in a worker of the pool ``current()`` names (``pools.for_bot(spec)``,
    ``pools.search``...): the one place where a dead worker's pool is replaced.

    Raises:
        PoolReplaced: the worker died (the pool was broken) and the pool was replaced;
            nothing was done: ask again. ``what`` names the work in its message.
        BrokenProcessPool: the worker died and the pool cannot be remade.
        Exception: what ``fn`` raised.
    """
    import asyncio

    loop = asyncio.get_running_loop()
    executor = current()
    try:
        return await loop.run_in_executor(executor, fn, *args)
    except BrokenProcessPool as e:
        if pools.replace(executor) or current() is not executor:
            raise PoolReplaced(f"the worker of {what} died ({e}); its pool was replaced") from e
        raise


async def decide(pools: BotPools, game: str, spec: str, observation: Any) -> int:
    """Ask a worker for the bot's decision on ``observation`` (an Observation of the bot's
    seat, never the state); returns an action id.

    Raises:
        PoolReplaced: the worker died (the pool was broken) and the pool was replaced;
            nothing was decided: ask again.
        Exception: what the bot (or a broken pool that cannot be remade) raised.
    """
    action: int = await run_in_pool(
        pools,
        lambda: pools.for_bot(spec),
        f"bot {spec!r}",
        choose,
        game,
        spec,
        new_bot_seed(),
        observation.array,
    )
    return action
