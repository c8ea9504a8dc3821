"""Supervision of bot turns (issue 14, items 3 and 4), on the game service itself: a bot
move that does not commit is retried until the database is back, a commit that was stored
although it reported an error is reconciled, a dead bot worker's pool is replaced and the
bot asked again, and a random move is never played for a bot without a note in the game
log (stored with the move)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from splendor.game import get_game
from splendor.record import GameRecord
from splendor.server import bots as server_bots
from splendor.server.bots import BotPools, make_executor
from splendor.server.hub import Hub
from splendor.server.service import GameService, Lifecycle, Unavailable
from splendor.server.storage import MoveToStore, SeatInfo, Storage, hash_token

FAST = {"retry_first": 0.02, "retry_max": 0.2}
"""Back-off of these tests: quick retries."""


class FlakyStorage(Storage):
    """A storage whose move commits fail while ``down`` (as when the database server is
    stopped), or, ``lie`` times, are stored and then reported as failed (the connection
    dropped after the commit)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.down = False
        self.lie = 0
        self.failures = 0

    def append_moves(self, moves: Sequence[MoveToStore]) -> list[Any]:
        if self.down:
            self.failures += 1
            raise OperationalError(
                "INSERT INTO moves ...", {}, ConnectionError("the server closed the connection")
            )
        out = super().append_moves(moves)
        if self.lie > 0:
            self.lie -= 1
            self.failures += 1
            raise OperationalError(
                "COMMIT", {}, ConnectionError("the connection dropped after the commit")
            )
        return out


class ScriptedExecutor(Executor):
    """Runs ``warm`` and ``choose`` in this thread; ``answer(call_number, args)`` may
    replace a decision: return an action id, or raise."""

    def __init__(self, answer: Callable[[int, tuple[Any, ...]], int | None]) -> None:
        self.answer = answer
        self.decisions = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        f: Future[Any] = Future()
        try:
            if fn is server_bots.choose:
                self.decisions += 1
                scripted = self.answer(self.decisions, args)
                f.set_result(fn(*args) if scripted is None else scripted)
            else:
                f.set_result(fn(*args, **kwargs))
        except Exception as e:
            f.set_exception(e)
        return f


def store_game(storage: Storage, game_id: str, seats: list[str], seed: int = 1) -> None:
    """A new Splendor game in the database: ``seats`` are bot specs or ``"human"``
    (token ``"tok-<game_id>-<seat>"``)."""
    infos = [
        SeatInfo(i, "human", f"P{i}", None, hash_token(f"tok-{game_id}-{i}"))
        if s == "human"
        else SeatInfo(i, "bot", s, s, None)
        for i, s in enumerate(seats)
    ]
    first = get_game("splendor").new_game(len(seats), seed).current_player
    storage.create_game(game_id, "splendor", len(seats), seed, {}, infos, first)


async def wait_for(predicate: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.01)
    pytest.fail(f"timed out waiting for {what}")


def service_for(storage: Storage, executor: Executor, **lifecycle: Any) -> GameService:
    return GameService(storage, Hub(), BotPools(executor), Lifecycle(**{**FAST, **lifecycle}))


def test_bot_moves_that_fail_to_commit_are_retried_until_the_database_is_back(
    tmp_path: Path,
) -> None:
    """Issue 14 item 3: six games whose bot is to move while every commit fails; none is
    stuck once the database is back, and memory holds exactly what is stored. A person's
    move during the outage gets 503 and changes nothing."""
    storage = FlakyStorage(f"sqlite:///{tmp_path / 'flaky.db'}")
    storage.migrate()
    for k in range(6):
        store_game(storage, f"b{k}", ["random", "human"], seed=k)
    store_game(storage, "people", ["human", "human"])

    async def main() -> None:
        service = service_for(storage, ThreadPoolExecutor(2))
        await service.start()
        try:
            storage.down = True
            games = [await service.get(f"b{k}") for k in range(6)]
            await wait_for(lambda: storage.failures >= 18, "every bot's commit to fail a few times")
            assert all(g.moves == [] and g.current_player == 0 for g in games)
            people = await service.get("people")
            action = str(people.state.legal_actions()[0])
            with pytest.raises(Unavailable) as err:
                await service.act_as(people, 0, action, 0)
            assert err.value.status == 503 and "try again" in err.value.message
            assert people.moves == []
            storage.down = False
            await wait_for(
                lambda: all(len(g.moves) == 1 for g in games),
                "every bot to move once the database is back",
            )
            await service.act_as(people, 0, action, 0)  # the same request now succeeds
            for g in [*games, people]:
                assert storage.load_game(g.id).moves == g.moves  # memory is what is stored
            assert service.counters["bot_retries"] >= 6 and service.counters["random_moves"] == 0
        finally:
            await service.close()

    asyncio.run(main())
    storage.close()


def test_a_commit_stored_despite_an_error_is_reconciled(tmp_path: Path) -> None:
    """The bot's commit is stored but reported as failed: the retry finds the move stored
    (a stale move number), the game is reloaded from the database, and play goes on with
    no move lost or doubled."""
    storage = FlakyStorage(f"sqlite:///{tmp_path / 'lie.db'}")
    storage.migrate()
    store_game(storage, "g", ["random", "human"])

    async def main() -> None:
        service = service_for(storage, ThreadPoolExecutor(1))
        await service.start()
        try:
            storage.lie = 1
            live = await service.get("g")
            await wait_for(lambda: len(live.moves) == 1, "the bot's move to be reconciled")
            assert storage.failures == 1
            assert storage.load_game("g").moves == live.moves and live.moves[0][0] == 0
            assert live.current_player == 1 and service.is_loaded("g")
            await service.act_as(live, 1, str(live.state.legal_actions()[0]), 1)
            await wait_for(lambda: len(live.moves) == 3, "the bot's next move")
            assert storage.load_game("g").moves == live.moves
        finally:
            await service.close()

    asyncio.run(main())
    storage.close()


def test_the_sweeper_restarts_a_bot_turn_that_has_no_task(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'sweep.db'}")
    storage.migrate()
    store_game(storage, "g", ["random", "human"])

    def hold(n: int, args: tuple[Any, ...]) -> int | None:
        if n == 1:
            raise asyncio.CancelledError()  # the bot task dies without a move
        return None

    async def main() -> None:
        service = service_for(storage, ScriptedExecutor(hold), sweep_every=3600)
        await service.start()
        try:
            live = await service.get("g")
            await wait_for(
                lambda: live.bot_task is not None and live.bot_task.done(), "the bot task to die"
            )
            assert live.moves == []
            assert (await service.maintain())["resumed"] == 1
            await wait_for(lambda: len(live.moves) == 1, "the resumed bot turn")
        finally:
            await service.close()

    asyncio.run(main())
    storage.close()


def test_a_killed_bot_worker_is_replaced_and_the_bot_still_decides(tmp_path: Path) -> None:
    """Issue 14 item 4: the bots' worker process is killed (SIGKILL, as by the OOM
    killer); the next decision breaks the pool, a new pool takes its place and the bot
    decides there: no random move, no note."""
    storage = Storage(f"sqlite:///{tmp_path / 'kill.db'}")
    storage.migrate()
    for k in range(3):
        store_game(storage, f"g{k}", ["greedy", "human"], seed=k)
    pool = make_executor(1)
    old_pid = pool.submit(os.getpid).result(timeout=120)

    async def main() -> None:
        pools = BotPools(pool)
        service = GameService(storage, Hub(), pools, Lifecycle(**FAST))
        await service.start()
        try:
            await asyncio.to_thread(
                lambda: pool.submit(server_bots.warm, "splendor").result(timeout=120)
            )
            os.kill(old_pid, signal.SIGKILL)
            games = [await service.get(f"g{k}") for k in range(3)]
            await wait_for(
                lambda: all(len(g.moves) == 1 for g in games), "the bots' moves in a new pool", 120
            )
            assert pools.quick is not pool and pools.search is pools.quick and pools.replaced == 1
            new_pid = await asyncio.wrap_future(pools.quick.submit(os.getpid))
            assert new_pid != old_pid
            assert all(g.notes == {} for g in games) and service.counters["random_moves"] == 0
            assert all(storage.load_game(g.id).notes == {} for g in games)
        finally:
            await service.close()  # shuts the replacement pool down

    try:
        asyncio.run(main())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        storage.close()


def test_a_bot_that_keeps_failing_gets_a_random_move_noted_in_the_log(tmp_path: Path) -> None:
    """After ``bot_attempts`` failures a random legal action is played for the bot, and
    the game log says so: in the state messages (dict and JSON), in the database (so
    after a restart too) and in the record's metadata."""
    url = f"sqlite:///{tmp_path / 'fail.db'}"
    storage = Storage(url)
    storage.migrate()
    store_game(storage, "g", ["greedy", "human"])

    def crash(n: int, args: tuple[Any, ...]) -> int:
        raise RuntimeError(f"bot crashed ({n})")

    async def main() -> str:
        executor = ScriptedExecutor(crash)
        service = service_for(storage, executor, bot_attempts=3)
        await service.start()
        try:
            live = await service.get("g")
            await wait_for(lambda: len(live.moves) == 1, "the random move for the failing bot")
            assert executor.decisions == 3 and service.counters["random_moves"] == 1
            note = live.notes[0]
            assert "greedy" in note and "random legal action" in note and "RuntimeError" in note
            assert (
                "bot crashed" not in note
            )  # a bot's message may quote its blind reserves: kept out
            assert live.moves[0][1] in note
            assert service.message(live, None)["log"][0]["note"] == note
            assert json.loads(service.message_json(live, 1))["log"][0]["note"] == note
            return note
        finally:
            await service.close()

    note = asyncio.run(main())
    assert storage.load_game("g").notes == {0: note}

    async def again() -> None:  # a restarted service shows the same log
        service = service_for(storage, ThreadPoolExecutor(1))
        await service.start()
        try:
            live = await service.get("g")
            (entry,) = json.loads(service.message_json(live, None))["log"]
            assert entry.pop("text").startswith("{seat0} ")  # the move's sentence
            assert entry == {"index": 0, "seat": 0, "notation": live.moves[0][1], "note": note}
            rng = random.Random(0)
            while not live.finished:  # play it out: the record keeps the note
                if live.current_player == 1:
                    await service.act_as(
                        live, 1, str(rng.choice(live.state.legal_actions())), len(live.moves)
                    )
                await asyncio.sleep(0.001)
            record = service.record(live)
            assert record.metadata["notes"] == {"0": note}
            GameRecord.from_dict(record.to_dict()).replay()
        finally:
            await service.close()

    asyncio.run(again())
    storage.close()


def test_an_illegal_answer_is_retried_before_any_random_move(tmp_path: Path) -> None:
    """A bot that answers illegal actions is asked again; its first legal answer is played
    (no note). Before the fix the first illegal answer was replaced by a random move."""
    storage = Storage(f"sqlite:///{tmp_path / 'illegal.db'}")
    storage.migrate()
    store_game(storage, "g", ["greedy", "human"])
    module = get_game("splendor")
    legal = {a.id for a in module.new_game(2, 1).legal_actions()}
    illegal = next(i for i in range(module.num_actions) if i not in legal)

    async def main() -> None:
        executor = ScriptedExecutor(lambda n, args: illegal if n < 3 else None)
        service = service_for(storage, executor, bot_attempts=3)
        await service.start()
        try:
            live = await service.get("g")
            await wait_for(lambda: len(live.moves) == 1, "the bot's move")
            assert executor.decisions == 3
            assert live.notes == {} and service.counters["random_moves"] == 0
        finally:
            await service.close()

    asyncio.run(main())
    storage.close()


def test_lifecycle_rejects_bad_settings() -> None:
    with pytest.raises(ValueError, match="evict_idle must be a number of seconds > 0"):
        Lifecycle(evict_idle=0)
    with pytest.raises(ValueError, match="expire_unstarted .* or None"):
        Lifecycle(expire_unstarted=-1)
    with pytest.raises(ValueError, match="retry_max"):
        Lifecycle(retry_first=2, retry_max=1)
    with pytest.raises(ValueError, match="bot_attempts must be a whole number >= 1"):
        Lifecycle(bot_attempts=0)
    assert Lifecycle(expire_unstarted=None, expire_abandoned=None).expire_unstarted is None
    lc = Lifecycle(retry_first=0.1, retry_max=1)
    assert [lc.backoff(n) for n in (1, 2, 3, 4, 5, 50)] == [0.1, 0.2, 0.4, 0.8, 1, 1]
