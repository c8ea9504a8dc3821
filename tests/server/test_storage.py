"""Storage on SQLite and on a real PostgreSQL server (a throwaway cluster): migrations,
games, seats (token hashes only), moves (one writer per move number), and an app that
resumes games, bots included, from what is stored."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from splendor.server.migrations import current_revision
from splendor.server.storage import SeatInfo, StaleMoveError, Storage, hash_token


@pytest.fixture
def storage(database_url: str) -> Any:
    s = Storage(database_url)
    s.migrate()
    yield s
    s.close()


def seats() -> list[SeatInfo]:
    return [
        SeatInfo(0, "human", "Ann", None, hash_token("tok-a")),
        SeatInfo(1, "bot", "greedy", "greedy", None),
    ]


def test_migrations_create_the_schema_once(storage: Storage) -> None:
    assert current_revision(storage.engine) == "0009"
    storage.migrate()  # idempotent
    assert current_revision(storage.engine) == "0009"
    assert {"games", "seats", "moves", "analyses", "alembic_version"} <= set(
        inspect(storage.engine).get_table_names()
    )


def test_the_migrations_build_exactly_the_models_schema(storage: Storage) -> None:
    """Alembic's autogenerate finds nothing to change between the migrated database and
    the SQLAlchemy models (a model changed without its migration, or the reverse, fails)."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from splendor.server.storage import Base

    with storage.engine.connect() as c:
        diff = compare_metadata(MigrationContext.configure(c), Base.metadata)
    assert diff == []


def test_migration_0007_fills_the_rating_value_from_the_stored_rating(tmp_path: Any) -> None:
    """Ratings stored before 0007 get their ``value`` column from their JSON (a newcomer's
    1500 where the JSON is unreadable), so the leaderboard ranks them at once."""
    from alembic import command
    from sqlalchemy import create_engine, text

    from splendor.server.migrations import alembic_config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0006")
    engine = create_engine(url)
    try:
        with engine.begin() as c:
            for pid, rating in (("p1", '{"value": 1712.5}'), ("p2", "not json"), ("p3", "{}")):
                c.execute(
                    text(
                        "INSERT INTO players (id, name, name_key, created_at, last_seen_at) "
                        "VALUES (:id, :id, :id, '2026-01-01', '2026-01-01')"
                    ),
                    {"id": pid},
                )
                c.execute(
                    text(
                        "INSERT INTO ratings (player_id, kind, rating, games, updated_at) "
                        "VALUES (:p, 'duel', :r, 1, '2026-01-01')"
                    ),
                    {"p": pid, "r": rating},
                )
        command.upgrade(alembic_config(url), "head")
        with engine.connect() as c:
            values = dict(c.execute(text("SELECT player_id, value FROM ratings")).all())
        assert values == {"p1": 1712.5, "p2": 1500.0, "p3": 1500.0}
    finally:
        engine.dispose()


def test_the_alembic_command_line_needs_a_database(tmp_path: Any) -> None:
    """The ``alembic`` command (a config without the server's connection) migrates the
    database of ``sqlalchemy.url``; without one it says what is missing."""
    from alembic import command
    from sqlalchemy import create_engine

    from splendor.server.migrations import alembic_config

    with pytest.raises(RuntimeError, match="no database to migrate"):
        command.upgrade(alembic_config(), "head")
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    command.upgrade(alembic_config(url), "head")
    engine = create_engine(url)
    try:
        assert current_revision(engine) == "0009"
    finally:
        engine.dispose()


def test_games_moves_and_tokens(storage: Storage) -> None:
    g = storage.create_game("g1", "splendor", 2, 2**62 + 5, {}, seats())
    assert g.status == "active"
    storage.create_game(
        "g2",
        "duel",
        2,
        7,
        {"turn_cap": 50},
        seats()[:1] + [SeatInfo(1, "human", "Bo", None, hash_token("tok-b"))],
    )
    storage.append_move("g1", 0, 0, "take W U G")
    storage.append_move("g1", 1, 1, "take R K U")
    with pytest.raises(StaleMoveError):
        storage.append_move("g1", 1, 1, "take R K U")
    with pytest.raises(StaleMoveError):
        storage.append_move("g1", 5, 0, "pass")
    loaded = storage.load_game("g1")
    assert loaded is not None and loaded.seed == 2**62 + 5
    assert loaded.moves == [(0, "take W U G"), (1, "take R K U")]
    assert loaded.seats == seats() and loaded.created_at.tzinfo is not None
    assert storage.load_game("nope") is None
    result = {"scores": [15, 3], "winners": [0], "end_reason": "points", "turns": 30}
    storage.append_move("g1", 2, 0, "buy 1.1", result)
    done = storage.load_game("g1")
    assert done.status == "finished" and done.result == result
    assert storage.load_game("g2").options == {"turn_cap": 50}
    assert storage.game_ids("active") == ["g2"] and storage.game_ids() == ["g1", "g2"]
    found = storage.games_for_token_hashes([hash_token("tok-a")])
    assert [(g.id, mine) for g, mine in found] == [("g2", [0]), ("g1", [0])]
    found = storage.games_for_token_hashes([hash_token("tok-b"), hash_token("nobody")])
    assert [(g.id, mine) for g, mine in found] == [("g2", [1])]
    assert storage.games_for_token_hashes([]) == []


def wait_for(predicate: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    """Poll ``predicate`` until it returns a truthy value; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


def test_app_resumes_games_and_schedules_bots(
    database_url: str, make_client: Callable[..., TestClient]
) -> None:
    """Games stored by an earlier server are replayed exactly, and a game whose next
    decision is a bot's gets its bot scheduled at start-up."""
    s = Storage(database_url)
    s.migrate()
    from splendor import classic

    st = classic.new_game(2, 99)
    s.create_game(
        "waiting",
        "splendor",
        2,
        99,
        {},
        [
            SeatInfo(0, "human", "Ann", None, hash_token("ann")),
            SeatInfo(1, "bot", "random", "random", None),
        ],
    )
    s.append_move("waiting", 0, 0, "take W U G")
    st.apply("take W U G")
    s.create_game(
        "botfirst",
        "duel",
        2,
        5,
        {},
        [
            SeatInfo(0, "bot", "greedy", "greedy", None),
            SeatInfo(1, "human", "Bo", None, hash_token("bo")),
        ],
    )
    s.close()
    client = make_client(database_url)
    first = wait_for(
        lambda: (
            (m := client.get("/api/games/waiting", headers={"Authorization": "Bearer ann"}).json())[
                "move"
            ]
            >= 2
            and m
        ),
        "the bot's move in the resumed game",
    )
    assert first["log"][0] == {
        "index": 0,
        "seat": 0,
        "notation": "take W U G",
        "text": "{seat0} takes 1 white, 1 blue and 1 green",  # said again after the restart
    }
    assert first["current_player"] == 0 and first["legal_actions"]
    st.apply(first["log"][1]["notation"])
    assert first["observation"] == st.observation(0).to_dict()
    duel = wait_for(
        lambda: (
            (m := client.get("/api/games/botfirst", headers={"Authorization": "Bearer bo"}).json())[
                "move"
            ]
            >= 1
            and m
        ),
        "the bot's first move",
    )
    assert duel["log"][0]["seat"] == 0 and duel["current_player"] == 1
    stored = client.app.state.storage.load_game("botfirst")
    assert [n for _, n in stored.moves] == [e["notation"] for e in duel["log"]]


def test_postgres_app_plays_a_game(
    postgres_url: str, make_client: Callable[..., TestClient]
) -> None:
    """The whole API on PostgreSQL: a person against a random bot to the end."""
    client = make_client(postgres_url)
    g = client.post(
        "/api/games",
        json={
            "game": "splendor",
            "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}],
        },
    ).json()
    gid, token = g["game_id"], g["seats"][0]["token"]
    rng = random.Random(5)  # always the first legal action may never end a game (about 1 in 6)
    for _ in range(1000):
        m = wait_for(
            lambda: (
                (
                    x := client.get(
                        f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}
                    ).json()
                )
                and (x["legal_actions"] or x["status"] == "finished")
                and x
            ),
            "my turn",
        )
        if m["status"] == "finished":
            break
        action = rng.choice(m["legal_actions"])["id"]
        r = client.post(
            f"/api/games/{gid}/actions", json={"token": token, "action": action, "move": m["move"]}
        )
        assert r.status_code == 200, r.text
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["result"] is not None and len(record["actions"]) == m["move"]
    assert client.app.state.storage.load_game(gid).status == "finished"


def test_default_database_is_a_sqlite_file_in_the_user_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import platformdirs

    from splendor.server.storage import default_database_url

    monkeypatch.setattr(
        platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "data" / "splendor")
    )
    url = default_database_url()
    assert url == f"sqlite:///{tmp_path / 'data' / 'splendor' / 'splendor.db'}"
    assert (tmp_path / "data" / "splendor").is_dir()
    s = Storage(None)
    assert s.url == url
    s.migrate()
    assert current_revision(s.engine) == "0009"
    s.close()


def test_urls_in_memory_and_missing_folders(tmp_path: Any) -> None:
    from splendor.server.storage import normalize_url

    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"
    deep = tmp_path / "a" / "b" / "games.db"
    s = Storage(f"sqlite:///{deep}")
    s.migrate()
    assert deep.exists()
    s.close()
    mem = Storage("sqlite://")
    mem.migrate()
    mem.create_game("m", "duel", 2, 1, {}, seats())
    import threading

    out: list[Any] = []
    t = threading.Thread(target=lambda: out.append(mem.load_game("m")))
    t.start()
    t.join()
    assert out[0] is not None and out[0].id == "m"
    mem.close()


def test_sqlite_runs_in_wal_mode_with_synchronous_normal(tmp_path: Any) -> None:
    """Every connection to a SQLite file: WAL journal (durable against a killed process),
    synchronous=NORMAL (1), foreign keys on, a busy timeout."""
    s = Storage(f"sqlite:///{tmp_path / 'wal.db'}")
    s.migrate()
    with s.engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert c.exec_driver_sql("PRAGMA synchronous").scalar() == 1
        assert c.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert c.exec_driver_sql("PRAGMA busy_timeout").scalar() == 10000
    s.close()


def test_group_commit_stores_each_fresh_move_and_skips_stale_ones(storage: Storage) -> None:
    """One transaction for the moves of several games: each move is checked against its
    own game's count (the moves before it in the batch included)."""
    from splendor.server.storage import MoveToStore

    for gid in ("a", "b", "c"):
        storage.create_game(gid, "splendor", 2, 1, {}, seats())
    storage.append_move("a", 0, 0, "take W U G")
    result = {"scores": [15, 3], "winners": [0], "end_reason": "points", "turns": 30}
    out = storage.append_moves(
        [
            MoveToStore("a", 1, 1, "take R K U"),
            MoveToStore("b", 0, 0, "take W U G"),
            MoveToStore("b", 1, 1, "take R K U", result),
            MoveToStore("a", 1, 1, "pass"),  # stale: move 1 of a is the first one above
            MoveToStore("c", 3, 0, "pass"),  # stale: c has no moves
        ]
    )
    assert [type(o).__name__ for o in out] == [
        "datetime",
        "datetime",
        "datetime",
        "StaleMoveError",
        "StaleMoveError",
    ]
    assert "1" in str(out[3]) and "0 moves" in str(out[4])
    assert storage.load_game("a").moves == [(0, "take W U G"), (1, "take R K U")]
    b = storage.load_game("b")
    assert (
        b.moves == [(0, "take W U G"), (1, "take R K U")]
        and b.status == "finished"
        and b.result == result
    )
    assert storage.load_game("c").moves == [] and storage.load_game("c").status == "active"
    assert storage.append_moves([]) == []
