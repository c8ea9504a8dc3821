"""Seeded fuzzing of game records (issue 14, item 2): mutated valid records, mutated JSON
text and random JSON. Reading accepts only a RecordError (one line) or a record that
writes back exactly as it was read and then replays or fails with a RecordError."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from splendor.bots import RandomBot
from splendor.match import play_game
from splendor.record import GameRecord, RecordError, decision_cap_result


@pytest.fixture(scope="module")
def seeds() -> list[dict[str, Any]]:
    """Valid records of every kind: classic finished (2 and 3 players), Duel finished,
    unfinished, forfeit, decision cap."""
    out = []
    out.append(play_game([RandomBot(1), RandomBot(2)], seed=3)[1].to_dict())
    out.append(play_game([RandomBot(1), RandomBot(2), RandomBot(3)], seed=4)[1].to_dict())
    out.append(play_game([RandomBot(1), RandomBot(2)], game="duel", seed=5)[1].to_dict())
    out.append(play_game([RandomBot(1), RandomBot(2)], seed=6, max_decisions=9)[1].to_dict())

    class Quitter:
        name = "quitter"

        def choose(self, observation, legal):
            raise RuntimeError("gone")

    out.append(play_game([RandomBot(1), Quitter()], seed=7, forfeit_on_error=True)[1].to_dict())
    final, capped = play_game([RandomBot(1), RandomBot(2)], seed=8, max_decisions=12)
    capped.result = decision_cap_result(final, 12)
    out.append(capped.to_dict())
    for d in out:
        d["metadata"] = {"note": "fuzz", "numbers": [1, 2.5, -3]}
        GameRecord.from_dict(d).replay()  # every seed is valid
    return out


SCALARS: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    7,
    2**63,
    10**30,
    1.5,
    -0.0,
    "",
    "splendor",
    "duel",
    "forfeit",
    "decision_cap",
    "take W U G",
    "pass",
    "buy 1.1",
    "x" * 300,
]


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.55:
        return rng.choice(SCALARS)
    if roll < 0.8:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    keys = ["seat", "reason", "scores", "winners", "turns", "end_reason", "x", ""]
    return {rng.choice(keys): _value(rng, depth + 1) for _ in range(rng.randrange(0, 4))}


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON document (as key/index paths), the root excepted."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append(path + (k,))
            out.extend(_paths(v, path + (k,)))
    elif isinstance(node, list):
        for i, v in enumerate(node[:5]):  # a few actions are enough
            out.append(path + (i,))
            out.extend(_paths(v, path + (i,)))
    return out


def _mutate(rng: random.Random, data: dict[str, Any]) -> Any:
    """A copy of ``data`` with one to three random changes."""
    data = json.loads(json.dumps(data))
    for _ in range(rng.randrange(1, 4)):
        paths = _paths(data)
        path = rng.choice(paths)
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        op = rng.randrange(6)
        if op == 0 and isinstance(parent, dict):
            del parent[key]
        elif op == 1 and isinstance(parent, list):
            parent.insert(key, _value(rng))
        elif op == 2:
            parent[key] = [parent[key]] if rng.random() < 0.5 else {"v": parent[key]}
        elif op == 3 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] = parent[key] + rng.choice([-1, 1, 2**62, -(2**62)])
        elif op == 4 and isinstance(parent[key], str) and parent[key]:
            s = parent[key]
            i = rng.randrange(len(s))
            parent[key] = s[:i] + rng.choice(["", "X", " ", "9", "\x00", "é"]) + s[i + 1 :]
        else:
            parent[key] = _value(rng)
    return data


def _text_noise(rng: random.Random, text: str) -> str:
    """``text`` with a few characters changed, cut, or a pathological piece inserted."""
    for _ in range(rng.randrange(1, 3)):
        i = rng.randrange(len(text) + 1)
        piece = rng.choice(
            [
                "",
                "]",
                "}",
                ",",
                '"',
                "[" * 100_000,
                "9" * 5001,
                "NaN",
                "1e999",
                "\\ud800",
                "\x00",
                "{" * 50,
            ]
        )
        text = text[:i] + piece + text[i + rng.randrange(0, 3) :]
    return text


def _check(source: Any, counts: dict[str, int]) -> None:
    """Read ``source`` (a dict: from_dict; text: from_json); only a clean RecordError or a
    record that writes back as read and replays (or fails with RecordError) passes."""
    try:
        rec = (
            GameRecord.from_json(source)
            if isinstance(source, str)
            else GameRecord.from_dict(source)
        )
    except RecordError as e:
        assert "\n" not in str(e) and len(str(e)) < 2000, str(e)[:300]
        counts["refused"] += 1
        return
    counts["accepted"] += 1
    written = rec.to_dict()
    data = json.loads(source) if isinstance(source, str) else source
    for key in ("game", "num_players", "players", "seed", "actions", "result"):
        assert written[key] == data.get(key), key  # nothing converted on reading
    again = GameRecord.from_json(rec.to_json())
    if again.to_dict() != written:
        counts["corrupted"] += 1
    assert again.to_dict() == written  # a stable round trip
    try:
        rec.replay()
        counts["replayed"] += 1
    except RecordError as e:
        assert "\n" not in str(e), str(e)[:300]
        counts["replay_refused"] += 1


def test_fuzz_records(seeds):
    rng = random.Random(20261122)
    counts = {"refused": 0, "accepted": 0, "replayed": 0, "replay_refused": 0, "corrupted": 0}
    for i in range(1500):
        seed = seeds[i % len(seeds)]
        kind = i % 3
        if kind == 0:
            _check(_mutate(rng, seed), counts)
        elif kind == 1:
            _check(_text_noise(rng, json.dumps(seed)), counts)
        else:
            _check(json.dumps(_value(rng) if rng.random() < 0.5 else _mutate(rng, seed)), counts)
    print(f"record fuzz: 1500 inputs, {counts}")  # shown with pytest -s
    assert counts["corrupted"] == 0
    # the fuzzer reaches every outcome (not a result pinned in advance)
    assert (
        min(counts["refused"], counts["accepted"], counts["replayed"], counts["replay_refused"])
        >= 20
    ), counts
