"""Post-game analyses in the web server (issue 19, :mod:`splendor.server.analysis_jobs`):
who may ask (a seated player of a finished game), one analysis per game, the limits, the
analysis stored and its progress pushed live, a dead worker's pool replaced, an analysis
resumed from its stored moves after a restart, and stored data that cannot be read
answered as a failure that asking again starts over. Searches of 64 iterations a decision
(the server's default is 2,000)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from splendor.analysis import GameAnalysis, MoveAnalysis, Settings
from splendor.server import bots as server_bots
from splendor.server.analysis_jobs import (
    AnalysisConfig,
    claim_analysis,
    open_analysis,
    said,
    save_analysis,
)
from splendor.server.app import Limits, create_app
from splendor.server.bots import BotPools
from splendor.server.storage import ANALYSES_TABLE, AnalysisRow, Storage, utcnow

FAST = AnalysisConfig(settings=Settings(iterations=64, seed=0))
"""The tests' analyses: 64 iterations a decision."""


@pytest.fixture
def make(make_client: Callable[..., TestClient]) -> Callable[..., TestClient]:
    """``make_client`` with the tests' quick analyses unless ``analysis`` is given."""

    def build(database_url: str | None = None, **options: Any) -> TestClient:
        options.setdefault("analysis", FAST)
        return make_client(database_url, **options)

    return build


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def duel(client: TestClient) -> tuple[str, str, str]:
    """A new Splendor Duel game between two people: its id and the two seat tokens."""
    r = client.post(
        "/api/games",
        json={
            "game": "duel",
            "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
        },
    )
    assert r.status_code == 201, r.text
    made = r.json()
    return made["game_id"], made["seats"][0]["token"], made["seats"][1]["token"]


def play(client: TestClient, gid: str, tokens: list[str], decisions: int) -> None:
    """Play ``decisions`` decisions, each the first legal action of the seat to move."""
    for _ in range(decisions):
        state = client.get(f"/api/games/{gid}").json()
        token = tokens[state["current_player"]]
        mine = client.get(f"/api/games/{gid}", headers=auth(token)).json()
        action = mine["legal_actions"][0]["id"]
        r = client.post(
            f"/api/games/{gid}/actions",
            json={"action": action, "move": mine["move"]},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text


def finished(client: TestClient, decisions: int = 4) -> tuple[str, str, str]:
    """A Duel game of ``decisions`` decisions that Bob resigned: its id and tokens."""
    gid, ann, bob = duel(client)
    play(client, gid, [ann, bob], decisions)
    r = client.post(f"/api/games/{gid}/resign", headers=auth(bob))
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    return gid, ann, bob


def wait_done(client: TestClient, gid: str, timeout: float = 60.0, **kw: Any) -> dict[str, Any]:
    """Poll ``GET …/analysis`` until it is done or failed; its answer."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = client.get(f"/api/games/{gid}/analysis", **kw).json()
        if answer["status"] in ("done", "failed"):
            return answer
        time.sleep(0.05)
    pytest.fail(f"the analysis of {gid} did not end: {answer}")


def check_complete(data: dict[str, Any], total: int) -> None:
    analysis = GameAnalysis.from_dict(data)
    assert analysis.complete and analysis.total == total == len(analysis.moves)
    assert [m.index for m in analysis.moves] == list(range(total))
    assert analysis.seats == [0, 1] and analysis.players == ["Ann", "Bob"]
    assert analysis.settings.to_dict() == FAST.settings.to_dict()
    assert [s["player"] for s in data["summaries"]] == ["Ann", "Bob"]


def test_only_a_seated_player_of_a_finished_game_may_ask_and_once(
    make: Callable[..., TestClient],
) -> None:
    client = make()
    assert client.post("/api/games/nope/analysis").status_code == 404
    assert client.get("/api/games/nope/analysis").status_code == 404
    gid, ann, bob = duel(client)
    play(client, gid, [ann, bob], 4)
    r = client.post(f"/api/games/{gid}/analysis", headers=auth(ann))
    assert r.status_code == 409 and "still being played" in r.json()["detail"]
    client.post(f"/api/games/{gid}/resign", headers=auth(bob))
    r = client.get(f"/api/games/{gid}/analysis")
    # nobody asked: an ordinary answer (a game page reads it), not a 404 (issue 33)
    assert r.status_code == 200 and r.json() == {"status": "none", "data": None, "error": ""}
    r = client.post(f"/api/games/{gid}/analysis")  # a spectator
    assert r.status_code == 403 and "seated player" in r.json()["detail"]
    assert client.post(f"/api/games/{gid}/analysis", headers=auth("x" * 43)).status_code == 403
    first = client.post(f"/api/games/{gid}/analysis", headers=auth(ann))
    assert first.status_code == 202, first.text
    assert first.json()["status"] == "queued" and first.json()["error"] is None
    assert first.json()["data"]["total"] == 4 and first.json()["data"]["moves"] == []
    again = client.post(f"/api/games/{gid}/analysis", headers=auth(bob))
    assert again.status_code == 200 and again.json()["status"] in ("queued", "running", "done")
    done = wait_done(client, gid)  # anyone may read it
    assert done["status"] == "done" and done["error"] is None
    check_complete(done["data"], 4)
    assert client.post(f"/api/games/{gid}/analysis", headers=auth(bob)).json() == done
    storage = client.app.state.storage
    with storage.engine.connect() as c:
        rows = c.execute(ANALYSES_TABLE.select()).all()
    assert len(rows) == 1 and rows[0].status == "done" and rows[0].requested_by is None


def test_the_progress_reaches_the_games_websockets(make: Callable[..., TestClient]) -> None:
    client = make()
    gid, ann, _ = finished(client, decisions=5)
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["type"] == "state"
        r = client.post(f"/api/games/{gid}/analysis", headers=auth(ann))
        assert r.status_code == 202
        seen = []
        while not seen or seen[-1]["status"] != "done":
            message = ws.receive_json()
            if message["type"] == "analysis":
                seen.append(message)
    assert seen[0] == {
        "type": "analysis",
        "game_id": gid,
        "status": "queued",
        "done": 0,
        "total": 5,
    }
    assert {m["status"] for m in seen[1:-1]} == {"running"}
    assert [m["done"] for m in seen] == sorted(m["done"] for m in seen)
    assert seen[-1]["done"] == seen[-1]["total"] == 5
    assert len([m for m in seen if m["status"] == "running" and m["done"] > 0]) == 5


class Gate(ThreadPoolExecutor):
    """A search pool whose analyses wait until :attr:`open` is set (other work runs)."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.open = threading.Event()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        if fn is server_bots.analyse:

            def gated() -> Any:
                self.open.wait(60)
                return fn(*args, **kwargs)

            return super().submit(gated)
        return super().submit(fn, *args, **kwargs)


def test_one_analysis_at_a_time_per_player_and_a_bounded_queue(
    make: Callable[..., TestClient], bot_pool: Any
) -> None:
    gate = Gate()
    try:
        client = make(
            search_executor=gate, analysis=AnalysisConfig(settings=FAST.settings, max_queued=1)
        )
        assert client.post("/api/players/guest", json={"name": "Ann"}).status_code == 201
        games = [finished(client, decisions=2) for _ in range(4)]
        # Ann is logged in: her seat tokens claim her seats, and her session asks
        first = client.post(f"/api/games/{games[0][0]}/analysis", headers=auth(games[0][1]))
        assert first.status_code == 202
        for _ in range(50):
            if client.app.state.analyses.running:
                break
            time.sleep(0.02)
        assert client.app.state.analyses.running == [games[0][0]]
        r = client.post(f"/api/games/{games[1][0]}/analysis", headers=auth(games[1][1]))
        assert r.status_code == 429 and "at most 1 of your analyses" in r.json()["detail"]
        # Bob is no known player: he waits in the queue (one place), a third is refused
        bob_asks = client.post(
            f"/api/games/{games[2][0]}/analysis",
            headers={**auth(games[2][2]), "Cookie": "splendor_session=none"},
        )
        assert bob_asks.status_code == 202 and bob_asks.json()["status"] == "queued"
        r = client.post(
            f"/api/games/{games[3][0]}/analysis",
            headers={**auth(games[3][2]), "Cookie": "splendor_session=none"},
        )
        assert r.status_code == 429 and "too many analyses are waiting" in r.json()["detail"]
        gate.open.set()
        for gid, *_ in games[:1] + games[2:3]:
            assert wait_done(client, gid)["status"] == "done"
        r = client.post(f"/api/games/{games[1][0]}/analysis", headers=auth(games[1][1]))
        assert r.status_code == 202  # Ann's first is done: her next one is taken
        storage = client.app.state.storage
        with storage.engine.connect() as c:
            by = dict(
                c.execute(
                    ANALYSES_TABLE.select().with_only_columns(
                        AnalysisRow.game_id, AnalysisRow.requested_by
                    )
                ).all()
            )
        me = client.get("/api/players/me").json()["player"]["id"]
        assert by[games[0][0]] == me and by[games[2][0]] is None
        assert wait_done(client, games[1][0])["status"] == "done"
    finally:
        gate.open.set()
        gate.shutdown(wait=True)


class Breaking(Executor):
    """A search pool that breaks (as when its worker process is killed) at the analyses of
    its first ``breaks`` decisions; other work runs in a thread."""

    def __init__(self, breaks: int) -> None:
        self.breaks = breaks
        self.thread = ThreadPoolExecutor(max_workers=1)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        if fn is server_bots.analyse and self.breaks > 0:
            self.breaks -= 1
            f: Future[Any] = Future()
            f.set_exception(BrokenProcessPool("A process in the process pool was terminated"))
            return f
        return self.thread.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.thread.shutdown(wait=wait, cancel_futures=cancel_futures)


def test_a_dead_worker_gets_a_new_pool_and_too_many_deaths_fail_the_analysis(
    make: Callable[..., TestClient], bot_pool: Any
) -> None:
    made: list[Breaking] = []

    def pool(breaks: int) -> Callable[[], Breaking]:
        def new() -> Breaking:
            made.append(Breaking(breaks))
            return made[-1]

        return new

    client = make()
    service = client.app.state.service
    try:
        # the pool breaks at the first decision: a new pool takes its place
        service.pools = BotPools(bot_pool, pool(1)(), make_search=pool(0))
        gid, ann, _ = finished(client, decisions=3)
        assert client.post(f"/api/games/{gid}/analysis", headers=auth(ann)).status_code == 202
        done = wait_done(client, gid)
        assert done["status"] == "done", done
        check_complete(done["data"], 3)
        assert service.pools.replaced == 1 and service.pools.search is made[-1]
        assert client.app.state.analyses.counters["worker_deaths"] == 1
        # every new pool breaks too: after 3 deaths in a row the analysis fails, said so
        service.pools = BotPools(bot_pool, pool(9)(), make_search=pool(9))
        gid, ann, _ = finished(client, decisions=3)
        assert client.post(f"/api/games/{gid}/analysis", headers=auth(ann)).status_code == 202
        failed = wait_done(client, gid)
        assert failed["status"] == "failed" and failed["data"]["moves"] == []
        assert failed["error"] == (
            "the analysis worker process died 3 times at move 1; ask again to retry"
        )
        french = client.get(f"/api/games/{gid}/analysis", headers={"Accept-Language": "fr"}).json()
        assert french["error"].startswith("le processus") and "3" in french["error"]
        # asking again starts it over (the pool works again)
        service.pools = BotPools(bot_pool, pool(0)(), make_search=pool(0))
        again = client.post(f"/api/games/{gid}/analysis", headers=auth(ann))
        assert again.status_code == 202 and again.json()["error"] is None
        assert wait_done(client, gid)["status"] == "done"
    finally:
        for p in made:
            p.shutdown()


def test_an_analysis_left_running_resumes_from_its_stored_moves_after_a_restart(
    tmp_path: Path, bot_pool: Any, web_dir: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'restart.db'}"

    def app() -> TestClient:
        return TestClient(
            create_app(
                url,
                web_dir=web_dir,
                executor=bot_pool,
                limits=Limits.unlimited_rates(),
                analysis=FAST,
            )
        )

    with app() as first:
        gid, _, _ = finished(first, decisions=4)
        live = first.portal.call(first.app.state.service.get, gid)
        fresh = first.app.state.analyses.fresh(live)
        seat = live.moves[0][0]
    # as if the server had stopped after the first decision was analysed
    storage = Storage(url)
    try:
        assert open_analysis(storage, gid, None, fresh.to_dict(), 1, 100)[1]
        assert claim_analysis(storage, gid, utcnow()) is not None
        fresh.moves.append(
            MoveAnalysis(0, 1, seat, live.moves[0][1], "forced", legal=1, iterations=4242)
        )
        assert save_analysis(storage, gid, "running", fresh.to_dict())
    finally:
        storage.close()
    with app() as second:
        done = wait_done(second, gid)
        assert done["status"] == "done"
        check_complete(done["data"], 4)
        assert done["data"]["moves"][0]["iterations"] == 4242  # kept, not searched again
        assert all(m["iterations"] != 4242 for m in done["data"]["moves"][1:])
        assert second.app.state.analyses.counters["picked_up"] == 1


def test_stored_data_that_cannot_be_read_is_a_failure_that_asking_again_starts_over(
    make: Callable[..., TestClient],
) -> None:
    client = make()
    gid, ann, _ = finished(client, decisions=2)
    client.post(f"/api/games/{gid}/analysis", headers=auth(ann))
    assert wait_done(client, gid)["status"] == "done"
    storage = client.app.state.storage
    for corrupt in ({"format": "splendor-analysis", "version": 1, "game": "chess"}, None):
        with storage.engine.begin() as c:
            c.execute(
                update(ANALYSES_TABLE)
                .where(AnalysisRow.game_id == gid)
                .values(data=corrupt, status="done")
            )
        r = client.get(f"/api/games/{gid}/analysis")
        assert r.status_code == 200
        assert r.json()["status"] == "failed" and r.json()["data"] is None
        assert "cannot be read" in r.json()["error"] and "ask for it again" in r.json()["error"]
        nl = client.get(f"/api/games/{gid}/analysis", headers={"Accept-Language": "nl"})
        assert "cannot be read" not in nl.json()["error"]
        again = client.post(f"/api/games/{gid}/analysis", headers=auth(ann))
        assert again.status_code == 202 and again.json()["status"] == "queued"
        check_complete(wait_done(client, gid)["data"], 2)


def test_a_stored_reason_is_said_in_the_readers_language() -> None:
    stored = "the analysis stopped at move 7: no network ships for duel with 3 players"
    assert said(stored) == stored
    assert said(stored, "fr").startswith("l'analyse s'est arrêtée au coup 7")
    assert said("something else", "nl") == "something else"


def test_analysis_settings_are_checked() -> None:
    assert AnalysisConfig().settings == Settings(iterations=2000, seed=0)
    assert AnalysisConfig(settings={"iterations": 8, "seed": 1}).settings.iterations == 8
    for bad in ({"running": 0}, {"per_player": True}, {"stale_after": -1}, {"settings": 3}):
        with pytest.raises(ValueError):
            AnalysisConfig(**bad)


def test_a_game_is_analysed_on_postgresql(
    postgres_url: str, make: Callable[..., TestClient]
) -> None:
    client = make(postgres_url)
    gid, _, bob = finished(client, decisions=3)
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.receive_json()
        assert client.post(f"/api/games/{gid}/analysis", headers=auth(bob)).status_code == 202
        while (m := ws.receive_json())["type"] != "analysis" or m["status"] != "done":
            pass
    check_complete(client.get(f"/api/games/{gid}/analysis").json()["data"], 3)
