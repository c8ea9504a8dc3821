"""Post-game analyses in the web server (issue 19): asked for by a player of a finished
game, searched in the bots' search pool one decision at a time, stored after every
decision and pushed live to the game's WebSockets.

**Asking.** ``POST /api/games/{id}/analysis`` (:meth:`Analyses.request`): a seated player
(seat token or session; 403 otherwise) of a finished game (409 while it is played) asks
for the analysis of every seat's decisions (:func:`splendor.analysis.decisions`, each
from its seat's observation: nothing hidden is read). One analysis per game: asking again
answers the stored one; a failed one (or one whose stored data cannot be read) starts
over. A player has at most :attr:`AnalysisConfig.per_player` analyses queued or running
(429), and at most :attr:`AnalysisConfig.max_queued` wait server-wide (429).
``GET /api/games/{id}/analysis`` answers ``{"status", "data", "error"}`` to anyone
(:func:`answer`).

**Running.** At most :attr:`AnalysisConfig.running` analyses run at once in a server
process; the others wait, ``queued``, in the order they were asked for. An analysis first
*claims* its row (``queued`` → ``running``, one conditional ``UPDATE``: with several
processes on one PostgreSQL database one of them runs it), then sends one decision at a
time to the search pool (:func:`splendor.server.bots.analyse`, plain picklable arguments),
so a bot's move waits for at most one analysed decision. After each decision the row's
``data`` (:meth:`splendor.analysis.GameAnalysis.to_dict`) is rewritten and the game's
WebSockets get ``{"type": "analysis", "game_id", "status", "done", "total"}``
(:func:`progress_message`; other processes forward it from the database's notification).

**Supervision**, as for the bot turns (:mod:`splendor.server.service`):

- a worker process that dies breaks the pool: the pool is replaced
  (:meth:`splendor.server.bots.BotPools.replace`) and the decision asked again, up to
  :attr:`AnalysisConfig.attempts` times in a row, after which the analysis fails with a
  message saying so;
- the database being down while progress is stored: retried with the service's back-off
  until it is back (the analysed moves are kept in memory meanwhile);
- an analysis left ``queued`` or ``running`` by a stopped server is resumed at start-up
  and by the maintenance sweep (:meth:`Analyses.maintain`), from its stored moves (the
  searches are seeded per decision, so the result is the same as without the stop). On
  PostgreSQL a ``running`` row is taken over only once it has made no progress for
  :attr:`AnalysisConfig.stale_after` seconds (another process may be running it); SQLite
  serves one process, so there any such row is an orphan;
- anything else that goes wrong (a record that does not replay, an analyser that refuses,
  a bug) marks the analysis ``failed`` with a message; never an error answer, and never a
  change to the game.

A failure's reason is stored in English (``error``, :data:`FAILURES`) and said in the
reader's language when answered (:func:`said`).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
from collections import deque
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..analysis import GameAnalysis, MoveAnalysis, Settings, decisions
from ..i18n import DEFAULT_LANGUAGE
from ..record import RecordError
from . import bots as server_bots
from .errors import (
    DB_DOWN,
    N_,
    Conflict,
    NotFound,
    ServiceError,
    Text,
    Unavailable,
    first_line,
)
from .live import LiveGame
from .notify import notify
from .service import GameService
from .storage import ANALYSES_TABLE, AnalysisRow, Storage, aware, utcnow

log = logging.getLogger("splendor.server")

QUEUED = "queued"
RUNNING = "running"
DONE = "done"
FAILED = "failed"
STATUSES = (QUEUED, RUNNING, DONE, FAILED)
"""An analysis's statuses: waiting for a worker, being searched, complete, stopped."""

DEFAULT_SETTINGS = Settings(iterations=2000, seed=0)
"""The server's search budget per decision: a fixed number of iterations (on one core,
about 0.1 s a Duel decision and 0.4 s a classic one) and seed, so the same game always
gets the same analysis."""


@dataclass(frozen=True)
class AnalysisConfig:
    """The server's analyses: how hard, how many at once, how they are supervised
    (``create_app(analysis=…)``, ``serve(analysis=…)``).

    Attributes:
        settings: the search budget of each decision (default :data:`DEFAULT_SETTINGS`:
            2,000 iterations, seed 0); a dict is read with
            :meth:`splendor.analysis.Settings.from_dict`.
        running: analyses searched at once by a server process (default 1); the others
            wait, queued. Each sends one decision at a time to the bots' search pool.
        per_player: analyses one player may have queued or running at once (default 1;
            429 beyond).
        max_queued: analyses that may wait server-wide (default 100; 429 beyond).
        attempts: a decision whose worker process died is asked again until it has died
            this many times in a row (default 3); then the analysis fails.
        stale_after: on PostgreSQL, seconds without progress after which an analysis
            ``running`` (in another process, maybe) is taken over (default 300).

    Raises:
        ValueError: a count below 1, a ``stale_after`` that is not a positive number, or
            bad ``settings``.
    """

    settings: Settings = DEFAULT_SETTINGS
    running: int = 1
    per_player: int = 1
    max_queued: int = 100
    attempts: int = 3
    stale_after: float = 300.0

    def __post_init__(self) -> None:
        if isinstance(self.settings, dict):
            object.__setattr__(self, "settings", Settings.from_dict(self.settings))
        if not isinstance(self.settings, Settings):
            raise ValueError(
                f"AnalysisConfig.settings must be analysis Settings, got {self.settings!r}"
            )
        for name in ("running", "per_player", "max_queued", "attempts"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(
                    f"AnalysisConfig.{name} must be a whole number >= 1, got {value!r}"
                )
        value = self.stale_after
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(
                f"AnalysisConfig.stale_after must be a number of seconds > 0, got {value!r}"
            )


class TooManyAnalyses(ServiceError):
    """Too many analyses asked for (429): the player's own, or the server's queue."""

    status = 429


FAILURES = (
    N_("the analysis worker process died {attempts} times at move {move}; ask again to retry"),
    N_("the analysis stopped at move {move}: {error}"),
    N_("the game's record cannot be analysed: {error}"),
    N_("the analysis failed unexpectedly ({error}); ask again to retry"),
)
"""The reasons a failed analysis stores (in English, :func:`said` translates them)."""

UNREADABLE = N_(
    "the stored analysis of this game cannot be read ({error}); ask for it again to start it over"
)


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    rx = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.*?)" for i, p in enumerate(parts))
    return re.compile(rx, re.DOTALL)


_FAILURE_PATTERNS = [(t, _pattern(t)) for t in FAILURES]


def said(error: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A stored failure reason (English) in ``language``: one of :data:`FAILURES` with its
    fields filled in, translated; any other text as it is."""
    for template, rx in _FAILURE_PATTERNS:
        m = rx.fullmatch(error)
        if m is not None:
            return Text(template, m.groupdict()).translated(language)
    return error


# ---------------------------------------------------------------------- storage


@dataclass(frozen=True)
class StoredAnalysis:
    """A row of ``analyses`` (see :mod:`splendor.server.storage`)."""

    game_id: str
    requested_by: str | None
    status: str
    data: Any
    error: str | None
    created_at: datetime
    updated_at: datetime


def _stored(row: Any) -> StoredAnalysis:
    return StoredAnalysis(
        game_id=row.game_id,
        requested_by=row.requested_by,
        status=row.status,
        data=row.data,
        error=row.error,
        created_at=aware(row.created_at),
        updated_at=aware(row.updated_at),
    )


def unreadable(data: Any) -> str | None:
    """Why stored analysis ``data`` cannot be read (the first problem), or None when it is
    a valid :class:`splendor.analysis.GameAnalysis`."""
    try:
        GameAnalysis.from_dict(data)
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        return first_line(e) if not isinstance(e, ValueError) else str(e).splitlines()[0][:200]
    return None


def progress_message(game_id: str, status: str, done: int, total: int) -> dict[str, Any]:
    """The WebSocket message of an analysis's progress: ``{"type": "analysis", "game_id",
    "status", "done", "total"}`` (``done`` decisions analysed of ``total``). The analysis
    itself (and a failure's reason, in the reader's language) is read with
    ``GET /api/games/{id}/analysis``."""
    return {"type": "analysis", "game_id": game_id, "status": status, "done": done, "total": total}


def _progress_of(game_id: str, status: str, data: Any) -> dict[str, Any]:
    moves = data.get("moves") if isinstance(data, dict) else None
    total = data.get("total") if isinstance(data, dict) else None
    return progress_message(
        game_id,
        status,
        len(moves) if isinstance(moves, list) else 0,
        total if isinstance(total, int) and not isinstance(total, bool) else 0,
    )


def load_analysis(storage: Storage, game_id: str) -> StoredAnalysis | None:
    """The stored analysis of ``game_id``, or None."""
    with storage.engine.connect() as c:
        row = c.execute(select(ANALYSES_TABLE).where(AnalysisRow.game_id == game_id)).first()
    return None if row is None else _stored(row)


def open_analysis(
    storage: Storage,
    game_id: str,
    requested_by: str | None,
    fresh: dict[str, Any],
    per_player: int,
    max_queued: int,
) -> tuple[StoredAnalysis, bool]:
    """The analysis of ``game_id``, queued now with ``fresh`` data if there was none or the
    stored one failed (or cannot be read), in one transaction. Returns it, and whether it
    was queued now.

    Raises:
        TooManyAnalyses: ``requested_by`` has ``per_player`` analyses of other games queued
            or running, or ``max_queued`` analyses wait already (nothing written).
    """
    now = utcnow()
    table = ANALYSES_TABLE
    try:
        with storage.engine.begin() as c:
            row = c.execute(
                select(table).where(AnalysisRow.game_id == game_id).with_for_update()
            ).first()
            if row is not None and row.status != FAILED and unreadable(row.data) is None:
                return _stored(row), False
            if requested_by is not None:
                mine = c.execute(
                    select(func.count())
                    .select_from(table)
                    .where(
                        AnalysisRow.requested_by == requested_by,
                        AnalysisRow.status.in_((QUEUED, RUNNING)),
                        AnalysisRow.game_id != game_id,
                    )
                ).scalar_one()
                if mine >= per_player:
                    raise TooManyAnalyses(
                        N_(
                            "at most {max} of your analyses may be under way at a time; ask "
                            "for this one once yours is done"
                        ),
                        max=per_player,
                    )
            waiting = c.execute(
                select(func.count()).select_from(table).where(AnalysisRow.status == QUEUED)
            ).scalar_one()
            if waiting >= max_queued:
                raise TooManyAnalyses(
                    N_("too many analyses are waiting on the server ({count}); try again later"),
                    count=waiting,
                )
            values = {
                "requested_by": requested_by,
                "status": QUEUED,
                "data": fresh,
                "error": None,
                "updated_at": now,
            }
            if row is None:
                c.execute(insert(table).values(game_id=game_id, created_at=now, **values))
                created = now
            else:
                c.execute(update(table).where(AnalysisRow.game_id == game_id).values(**values))
                created = row.created_at
            notify(c, "analysis", game_id, _progress_of(game_id, QUEUED, fresh))
    except IntegrityError:  # another process inserted it meanwhile
        found = load_analysis(storage, game_id)
        if found is None:
            raise
        return found, False
    return StoredAnalysis(game_id, requested_by, QUEUED, fresh, None, created, now), True


def claim_analysis(storage: Storage, game_id: str, stale_before: datetime) -> StoredAnalysis | None:
    """Take the analysis of ``game_id`` to run it: ``queued``, or ``running`` without
    progress since ``stale_before`` (its process stopped), becomes ``running``. Returns
    it, or None when it is not to be taken (done, failed, gone, or running elsewhere)."""
    table = ANALYSES_TABLE
    with storage.engine.begin() as c:
        taken = c.execute(
            update(table)
            .where(
                AnalysisRow.game_id == game_id,
                (AnalysisRow.status == QUEUED)
                | ((AnalysisRow.status == RUNNING) & (AnalysisRow.updated_at < stale_before)),
            )
            .values(status=RUNNING, updated_at=utcnow())
        ).rowcount
        if taken != 1:
            return None
        row = c.execute(select(table).where(AnalysisRow.game_id == game_id)).first()
        assert row is not None
        notify(c, "analysis", game_id, _progress_of(game_id, RUNNING, row.data))
        return _stored(row)


def save_analysis(
    storage: Storage,
    game_id: str,
    status: str,
    data: dict[str, Any] | None,
    error: str | None = None,
) -> bool:
    """Store the progress of a running analysis: its ``status`` (running, done or failed),
    its ``data`` (None: unchanged) and a failure's ``error``. Returns False when the
    analysis is not queued or running any more (it was deleted with its game, say)."""
    table = ANALYSES_TABLE
    values: dict[str, Any] = {"status": status, "error": error, "updated_at": utcnow()}
    if data is not None:
        values["data"] = data
    with storage.engine.begin() as c:
        done = c.execute(
            update(table)
            .where(AnalysisRow.game_id == game_id, AnalysisRow.status.in_((QUEUED, RUNNING)))
            .values(**values)
        ).rowcount
        if done == 1:
            if data is None:
                data = c.execute(
                    select(AnalysisRow.data).where(AnalysisRow.game_id == game_id)
                ).scalar()
            notify(c, "analysis", game_id, _progress_of(game_id, status, data))
    return done == 1


def pending_analyses(storage: Storage, stale_before: datetime, limit: int = 1000) -> list[str]:
    """The games whose analysis waits (``queued``) or was left ``running`` with no progress
    since ``stale_before``, oldest request first, at most ``limit``."""
    q = (
        select(AnalysisRow.game_id)
        .where(
            (AnalysisRow.status == QUEUED)
            | ((AnalysisRow.status == RUNNING) & (AnalysisRow.updated_at < stale_before))
        )
        .order_by(AnalysisRow.created_at, AnalysisRow.game_id)
        .limit(limit)
    )
    with storage.engine.connect() as c:
        return [str(g) for g in c.execute(q).scalars()]


def answer(stored: StoredAnalysis, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """What the API answers about a stored analysis: ``{"status", "data", "error"}``:
    ``data`` the analysis so far (:meth:`splendor.analysis.GameAnalysis.to_dict`),
    ``error`` the reason of a failure in ``language`` (else None). Stored data that cannot
    be read answers ``failed``, with the reason (asking again starts it over)."""
    problem = unreadable(stored.data)
    if problem is not None:
        return {
            "status": FAILED,
            "data": None,
            "error": Text(UNREADABLE, {"error": problem}).translated(language),
        }
    return {
        "status": stored.status,
        "data": stored.data,
        "error": None if stored.error is None else said(stored.error, language),
    }


# ---------------------------------------------------------------------- running


class Analyses:
    """Asks for, runs and supervises the analyses of one server process (see the module
    docstring); one per app.

    Args:
        service: the game service (its storage, hub, pools, writer and life cycle).
        config: the analyses' settings (default :class:`AnalysisConfig`).

    Attributes:
        counters: ``done``, ``failed``, ``picked_up`` (queued or orphaned analyses found
            in the database by :meth:`maintain`: after a restart, or asked for through
            another process), ``worker_deaths`` (decisions whose worker process died).
    """

    def __init__(self, service: GameService, config: AnalysisConfig | None = None) -> None:
        self.service = service
        self.config = config if config is not None else AnalysisConfig()
        self._queue: deque[str] = deque()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._closed = False
        self.counters = dict.fromkeys(("done", "failed", "picked_up", "worker_deaths"), 0)

    @property
    def storage(self) -> Storage:
        return self.service.storage

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Join the service's maintenance sweep, and resume in the background the analyses
        a stopped server left queued or running."""
        self.service.maintenance.append(self.maintain)
        task = asyncio.get_running_loop().create_task(self._resume(), name="analysis-resume")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resume(self) -> None:
        try:
            await self.maintain()
        except asyncio.CancelledError:
            raise
        except Exception:  # the database is down, say: the maintenance sweep tries again
            log.warning("the analyses under way were not resumed yet", exc_info=True)

    async def close(self) -> None:
        """Stop the analyses (those running resume at the next start)."""
        self._closed = True
        if self.maintain in self.service.maintenance:
            self.service.maintenance.remove(self.maintain)
        tasks = [t for t in (*self._tasks.values(), *self._background) if not t.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    @property
    def running(self) -> list[str]:
        """The games whose analysis runs in this process now."""
        return list(self._tasks)

    @property
    def queued(self) -> list[str]:
        """The games whose analysis waits in this process's queue."""
        return list(self._queue)

    def _stale_before(self) -> datetime:
        """Rows ``running`` since before this time have no process (see the module
        docstring): any on SQLite (one process), none updated for ``stale_after``
        seconds on PostgreSQL."""
        now = utcnow()
        if self.storage.engine.dialect.name == "sqlite":
            return now + timedelta(days=1)
        return now - timedelta(seconds=self.config.stale_after)

    async def maintain(self) -> int:
        """Queue the analyses that wait in the database or were left running by a stopped
        process, and start what may start. Returns how many were picked up.

        Raises:
            Unavailable: the database could not be read.
        """
        if self._closed:
            return 0
        try:
            ids = await asyncio.to_thread(pending_analyses, self.storage, self._stale_before())
        except DB_DOWN as e:
            raise Unavailable(
                N_("the database is unavailable ({error}); try again"), error=first_line(e)
            ) from e
        picked = 0
        for game_id in ids:
            if game_id not in self._tasks and game_id not in self._queue:
                self._queue.append(game_id)
                picked += 1
        if picked:
            self.counters["picked_up"] += picked
            log.info("picked up %d analysis(es) waiting in the database", picked)
        self._pump()
        return picked

    def _pump(self) -> None:
        """Start queued analyses while fewer than ``running`` run (one asked for again
        while its last run is ending waits for that run's end)."""
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        later: list[str] = []
        while self._queue and len(self._tasks) < self.config.running:
            game_id = self._queue.popleft()
            if game_id in self._tasks:
                later.append(game_id)
                continue
            task = loop.create_task(self._run(game_id), name=f"analysis:{game_id}")
            self._tasks[game_id] = task
            task.add_done_callback(functools.partial(self._ended, game_id))
        self._queue.extendleft(reversed(later))

    def _ended(self, game_id: str, task: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id) is task:
            del self._tasks[game_id]
        if not task.cancelled() and task.exception() is not None:
            log.error(
                "the analysis of game %s ended with an error",
                game_id,
                exc_info=task.exception(),
            )
        if not self._closed:
            self._pump()

    # ------------------------------------------------------------------ asking

    def fresh(self, live: LiveGame) -> GameAnalysis:
        """An empty analysis of every seat of the finished game ``live``."""
        return GameAnalysis(
            game=live.game,
            num_players=live.num_players,
            players=[s.name for s in live.seats],
            seats=list(range(live.num_players)),
            settings=self.config.settings,
            total=len(live.moves),
            result=live.result,
        )

    async def request(
        self, live: LiveGame, requested_by: str | None
    ) -> tuple[StoredAnalysis, bool]:
        """Ask for the analysis of ``live`` (the caller checked that the asker is seated
        there): the stored one, or one queued now (see :func:`open_analysis`). Returns it
        and whether it was queued now.

        Raises:
            Conflict: the game is not over.
            TooManyAnalyses: the player's or the server's limit (429).
            Unavailable: the database did not answer.
        """
        if not live.finished:
            raise Conflict(
                N_("game {game} is still being played; it can be analysed once it is over"),
                game=live.id,
            )
        fresh = self.fresh(live).to_dict()
        stored, new = await self.service.writer.run(
            open_analysis,
            self.storage,
            live.id,
            requested_by,
            fresh,
            self.config.per_player,
            self.config.max_queued,
        )
        if new:
            self._publish(progress_message(live.id, QUEUED, 0, len(live.moves)))
            if live.id not in self._queue:
                self._queue.append(live.id)
            self._pump()
        return stored, new

    async def view(self, game_id: str, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """``{"status", "data", "error"}`` of the analysis of ``game_id`` (:func:`answer`);
        ``{"status": "none", "data": None, "error": ""}`` while nobody asked for one (an
        ordinary answer, not an error: every finished game's page reads it, issue 33).
        """
        stored = await asyncio.to_thread(load_analysis, self.storage, game_id)
        if stored is None:
            return {"status": "none", "data": None, "error": ""}
        return answer(stored, language)

    # ------------------------------------------------------------------ running

    def _publish(self, message: dict[str, Any]) -> None:
        text = json.dumps(message)
        self.service.hub.publish(message["game_id"], lambda _seat: text)

    async def _run(self, game_id: str) -> None:
        try:
            await self._analyse(game_id)
        except asyncio.CancelledError:
            raise
        except Unavailable as e:  # the game could not be read: the sweep resumes it
            log.warning("the analysis of game %s waits: %s", game_id, e.message)
        except Exception as e:
            log.exception("the analysis of game %s failed", game_id)
            await self._finish(
                game_id, FAILED, None, str(Text(FAILURES[3], {"error": first_line(e)}))
            )

    async def _analyse(self, game_id: str) -> None:
        claimed = await self._write(claim_analysis, self.storage, game_id, self._stale_before())
        if claimed is None:  # done, failed, gone, or running in another process
            return
        try:
            live = await self.service.get(game_id)
        except NotFound:  # deleted with its game meanwhile
            return
        record = self.service.record(live)
        try:
            todo = await asyncio.to_thread(lambda: list(decisions(record)))
        except (RecordError, ValueError) as e:
            error = Text(FAILURES[2], {"error": first_line(e)})
            await self._finish(game_id, FAILED, None, str(error))
            return
        analysis = self._resumed(claimed.data, live, [d.index for d in todo])
        self._publish(progress_message(game_id, RUNNING, len(analysis.moves), analysis.total))
        settings = analysis.settings.to_dict()
        for d in todo[len(analysis.moves) :]:
            move = await self._decide(game_id, live.game, d, settings, live.num_players)
            if move is None:
                return
            analysis.moves.append(move)
            if not await self._finish(game_id, RUNNING, analysis):
                return
        if await self._finish(game_id, DONE, analysis):
            self.counters["done"] += 1

    def _resumed(self, data: Any, live: LiveGame, indices: list[int]) -> GameAnalysis:
        """The stored analysis to go on from (its moves and settings), or a fresh one when
        it does not fit the game (or cannot be read)."""
        try:
            stored = GameAnalysis.from_dict(data)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            log.warning("game %s: unreadable stored analysis (%s): starting over", live.id, e)
            stored = None
        if stored is not None:
            done = [m.index for m in stored.moves]
            if (
                stored.game == live.game
                and stored.num_players == live.num_players
                and stored.seats == list(range(live.num_players))
                and stored.total == len(indices)
                and done == indices[: len(done)]
            ):
                return stored
            log.warning("game %s: the stored analysis does not fit: starting over", live.id)
        fresh = self.fresh(live)
        fresh.total = len(indices)
        return fresh

    async def _decide(
        self, game_id: str, game: str, d: Any, settings: dict[str, Any], num_players: int
    ) -> MoveAnalysis | None:
        """Decision ``d`` analysed in the search pool, or None when the analysis failed
        (stored)."""
        deaths = 0
        pools = self.service.pools
        while True:
            try:
                result = await server_bots.run_in_pool(
                    pools,
                    lambda: pools.search,
                    "an analysis",
                    server_bots.analyse,
                    game,
                    d.observation,
                    d.action,
                    d.index,
                    d.seat,
                    d.turn,
                    d.played,
                    settings,
                )
            except (server_bots.PoolReplaced, BrokenProcessPool) as e:
                deaths += 1
                self.counters["worker_deaths"] += 1
                renewed = isinstance(e, server_bots.PoolReplaced)
                log.warning(
                    "game %s: the analysis worker died at move %d (%s)%s",
                    game_id,
                    d.index + 1,
                    e.__cause__ or e,
                    "; its pool was replaced" if renewed else "",
                )
                if renewed and deaths < self.config.attempts:
                    continue
                error = Text(FAILURES[0], {"attempts": deaths, "move": d.index + 1})
                await self._finish(game_id, FAILED, None, str(error))
                return None
            except ValueError as e:  # the analyser refused (no network for the game, ...)
                error = Text(FAILURES[1], {"move": d.index + 1, "error": first_line(e)})
                await self._finish(game_id, FAILED, None, str(error))
                return None
            try:
                move = MoveAnalysis.from_dict(result, num_players)
                if (move.index, move.seat) != (d.index, d.seat):
                    raise ValueError(
                        f"the worker analysed move {move.index + 1} of seat {move.seat}"
                    )
            except ValueError as e:
                error = Text(FAILURES[1], {"move": d.index + 1, "error": first_line(e)})
                await self._finish(game_id, FAILED, None, str(error))
                return None
            return move

    async def _write(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in the service's writer thread, retried with the service's
        back-off while the database is unavailable."""
        failures = 0
        while True:
            try:
                return await self.service.writer.run(fn, *args)
            except Unavailable as e:
                failures += 1
                delay = self.service.lifecycle.backoff(failures)
                log.warning("analysis: %s; retry %d in %.1f s", e.message, failures, delay)
                await asyncio.sleep(delay)

    async def _finish(
        self,
        game_id: str,
        status: str,
        analysis: GameAnalysis | None,
        error: str | None = None,
    ) -> bool:
        """Store the analysis's progress (or its end) and push it to the game's
        WebSockets; False when it is not ours to store any more."""
        data = None if analysis is None else analysis.to_dict()
        stored = await self._write(save_analysis, self.storage, game_id, status, data, error)
        if not stored:
            return False
        if status == FAILED:
            self.counters["failed"] += 1
            log.warning("the analysis of game %s failed: %s", game_id, error)
        if data is None:
            found = await asyncio.to_thread(load_analysis, self.storage, game_id)
            data = None if found is None else found.data
        self._publish(_progress_of(game_id, status, data))
        return True


__all__ = [
    "DEFAULT_SETTINGS",
    "DONE",
    "FAILED",
    "FAILURES",
    "QUEUED",
    "RUNNING",
    "STATUSES",
    "AnalysisConfig",
    "Analyses",
    "StoredAnalysis",
    "TooManyAnalyses",
    "answer",
    "claim_analysis",
    "load_analysis",
    "open_analysis",
    "pending_analyses",
    "progress_message",
    "said",
    "save_analysis",
    "unreadable",
]
