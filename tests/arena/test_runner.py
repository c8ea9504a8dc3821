"""Arena runs: backends agree, records replay, 3-4 player games, forfeits, engine errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import splendor.bots
import splendor.match
from splendor.arena import ArenaError, play_task, prepare_arena, run_arena, run_tasks
from splendor.record import GameRecord


def deterministic(results: dict) -> dict:
    """Everything but the run facts (backend, timings, folder)."""
    return {k: v for k, v in results.items() if k != "run"}


@pytest.fixture(scope="module")
def serial_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("serial")
    return {
        "classic": run_arena(
            "random,greedy",
            game="classic",
            games=4,
            seed=3,
            backend="serial",
            out=root / "classic",
            bootstrap=50,
        ),
        "duel": run_arena(
            "random,greedy",
            game="duel",
            games=4,
            seed=3,
            backend="serial",
            out=root / "duel",
            bootstrap=50,
        ),
    }


def _games(results: dict) -> list[dict]:
    return [{k: v for k, v in g.items() if k != "record"} for g in results["game_results"]]


def test_serial_and_local_backends_give_identical_results(serial_runs, tmp_path):
    # both games' tasks in one pool of 2 worker processes (one start-up), compared with
    # the serial runs game by game: the results are functions of the game summaries
    tasks = {
        game: prepare_arena("random,greedy", game=game, games=4, seed=3).schedule.tasks
        for game in serial_runs
    }
    mixed = [
        dict(t.to_dict(), index=100 * i + t.index)
        for i, game in enumerate(tasks)
        for t in tasks[game]
    ]
    done = sorted(
        (out["summary"] for out in run_tasks(mixed, backend="local", workers=2)),
        key=lambda s: s["index"],
    )
    assert [s["index"] for s in done] == [0, 1, 2, 3, 100, 101, 102, 103]
    for i, game in enumerate(tasks):
        local = [dict(s, index=s["index"] - 100 * i) for s in done[4 * i : 4 * i + 4]]
        # each seat's style (issue 17) is in the summaries, not in the public game list
        assert all(len(s["style"]) == len(s["bots"]) for s in local)
        local = [
            {k: v for k, v in s.items() if k not in ("think_s", "seat_decisions", "style")}
            for s in local
        ]
        assert local == _games(serial_runs[game]), game
        assert len(local) == 4


def test_results_add_up(serial_runs):
    for game, res in serial_runs.items():
        assert res["game"] == ("duel" if game == "duel" else "splendor")
        rows = {r["bot"]: r for r in res["results"]}
        assert set(rows) == {"random", "greedy"}
        for r in rows.values():
            assert r["games"] == 4 and r["wins"] + r["draws"] + r["losses"] == 4
            assert r["elo_low"] <= r["elo"] <= r["elo_high"]
        assert rows["greedy"]["elo"] > rows["random"]["elo"]  # greedy beats random
        assert sum(r["elo"] for r in rows.values()) == pytest.approx(3000)
        seeds = [g["seed"] for g in res["game_results"]]
        assert seeds[0] == seeds[1] and seeds[2] == seeds[3] and seeds[0] != seeds[2]
    assert serial_runs["duel"]["options"] == {"turn_cap": 400}
    assert serial_runs["classic"]["options"] == {}


def test_records_are_saved_and_replay_to_the_reported_result(serial_runs):
    for res in serial_runs.values():
        folder = res["run"]["out"]
        on_disk = json.loads((Path(folder) / "results.json").read_text())
        assert deterministic(on_disk) == deterministic(res)
        assert (Path(folder) / "ratings.png").stat().st_size > 1000
        for g in res["game_results"]:
            rec = GameRecord.load(f"{folder}/{g['record']}")
            assert rec.seed == g["seed"] and rec.players == g["names"]
            assert rec.result["scores"] == g["scores"] and rec.result["winners"] == g["winners"]
            final = rec.replay()
            assert final.is_terminal and list(final.scores) == g["scores"]
            assert rec.metadata["arena"]["index"] == g["index"]


@pytest.mark.parametrize("players", [3, 4])
def test_three_bots_fill_three_and_four_seats(players, tmp_path):
    res = run_arena(
        "random,greedy,random",
        game="classic",
        players=players,
        games=3,
        backend="serial",
        out=tmp_path,
        bootstrap=20,
    )
    assert res["games"] == 3 and res["cycles"] == 1
    assert {r["bot"] for r in res["results"]} == {"random-0", "greedy", "random-2"}
    assert all(r["games"] == players for r in res["results"])  # seat-games
    for g in res["game_results"]:
        assert len(g["scores"]) == players and len(set(g["names"])) == players
        assert GameRecord.load(tmp_path / g["record"]).replay().is_terminal
    assert len(list((tmp_path / "games").glob("*.json"))) == 3


class _Crasher:
    """Plays randomly, then fails at its ``after``-th decision (raises or answers junk)."""

    name = "crasher"
    closed_count = 0

    def __init__(self, seed, after, junk):
        self.inner = splendor.bots.RandomBot(seed)
        self.after = after
        self.junk = junk

    def choose(self, observation, legal):
        self.after -= 1
        if self.after < 0:
            if self.junk:
                return "this is not an action"
            raise RuntimeError("boom")
        return self.inner.choose(observation, legal)

    def close(self):
        _Crasher.closed_count += 1


@pytest.mark.parametrize("host", ["play_game", "arena"])
@pytest.mark.parametrize("junk", [False, True])
def test_a_failing_bot_forfeits_and_the_arena_goes_on(monkeypatch, tmp_path, junk, host):
    real = splendor.bots.make_bot
    if host == "arena":  # a play_game without forfeit_on_error: the arena forfeits itself
        real_play = splendor.match.play_game

        def play_game(agents, *, game, seed, names, record, max_decisions=None):
            return real_play(
                agents,
                game=game,
                seed=seed,
                names=names,
                record=record,
                max_decisions=max_decisions,
            )

        monkeypatch.setattr(splendor.match, "play_game", play_game)
    _Crasher.closed_count = 0

    def fake(spec, seed=None):
        return _Crasher(seed, 5, junk) if spec == "greedy" else real(spec, seed)

    monkeypatch.setattr(splendor.bots, "make_bot", fake)
    res = run_arena(
        "random,greedy", game="classic", games=4, backend="serial", out=tmp_path, bootstrap=20
    )
    rows = {r["bot"]: r for r in res["results"]}
    assert rows["greedy"]["forfeits"] == 4 and rows["greedy"]["losses"] == 4
    assert rows["random"]["wins"] == 4 and rows["random"]["forfeits"] == 0
    assert rows["random"]["elo"] > rows["greedy"]["elo"]
    assert res["end_reasons"] == {"forfeit": 4}
    assert _Crasher.closed_count == 4  # closed after every game
    for g in res["game_results"]:
        seat = g["names"].index("greedy")
        assert g["forfeit"]["seat"] == seat and g["winners"] == [1 - seat]
        want = "not an action" if junk else "RuntimeError: boom"
        assert want in g["forfeit"]["reason"]
        rec = GameRecord.load(tmp_path / g["record"])
        assert rec.result["end_reason"] == "forfeit" and rec.result["forfeit"]["seat"] == seat
        assert len(rec.actions) == g["decisions"] > 0
        assert not rec.replay().is_terminal


def test_a_bot_that_cannot_start_forfeits_before_the_first_decision(monkeypatch):
    real = splendor.bots.make_bot

    def fake(spec, seed=None):
        if spec == "greedy":
            raise OSError("no such program")
        return real(spec, seed)

    monkeypatch.setattr(splendor.bots, "make_bot", fake)
    task = prepare_arena("greedy,random", games=1).schedule.tasks[0]
    out = play_task(task)
    s = out["summary"]
    assert s["forfeit"]["seat"] == 0 and "could not start bot 'greedy'" in s["forfeit"]["reason"]
    assert "no such program" in s["forfeit"]["reason"]
    assert s["winners"] == [1] and s["decisions"] == 0
    assert GameRecord.from_dict(out["record"]).result["end_reason"] == "forfeit"


def test_an_engine_error_stops_the_arena(monkeypatch, tmp_path):
    def broken(*args, **kwargs):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(splendor.match, "play_game", broken)
    with pytest.raises(ArenaError, match="engine bug"):
        run_arena("random,greedy", games=2, backend="serial", out=tmp_path)


def test_bad_settings_are_refused_before_any_game(tmp_path):
    cases = [
        (dict(bots="random,nope"), "unknown bot"),
        (dict(bots="random"), "at least two bots"),
        (dict(bots="random,,greedy"), "empty bot"),
        (dict(bots="random,greedy", players=5), "2 to 4 players"),
        (dict(bots="random,greedy", game="chess"), "unknown game"),
        (dict(bots="random,greedy", games=0), "at least 1"),
        (dict(bots="random,greedy", backend="cloud"), "unknown backend"),
        (dict(bots="random,greedy", address="auto"), "ray backend"),
        (dict(bots="random,greedy", turn_cap=10), "Duel only"),
        (dict(bots="random,greedy", max_decisions=-1), "max-decisions must be >= 0"),
        (dict(bots="random,greedy", game="duel", max_decisions=100), "is for Splendor only"),
        (dict(bots="random,greedy", game="duel", max_decisions=0), "is for Splendor only"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            run_arena(out=tmp_path / "x", **kwargs)
        assert not (tmp_path / "x").exists()


def test_local_workers_start_after_the_search_is_compiled_once(monkeypatch, tmp_path):
    """The local backend compiles (or loads) every bot's kernels in the parent before its
    worker processes start, so they never compile the same numba cache at once."""
    seen: list[str] = []
    monkeypatch.setattr(splendor.bots, "warm_up_spec", seen.append)
    results = run_arena(
        "random,mcts:8",
        game="classic",
        games=2,
        seed=1,
        backend="local",
        workers=1,
        out=tmp_path / "a",
        bootstrap=10,
    )
    assert sorted(seen) == ["mcts:8", "random"]
    assert len(results["game_results"]) == 2


def test_warm_up_spec_refuses_what_is_not_a_bot() -> None:
    with pytest.raises(ValueError, match="known bots"):
        splendor.bots.warm_up_spec("")
