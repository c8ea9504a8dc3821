"""Helpers of the server tests: a random policy that seeks blind reserves, the
hidden-information checks every message must pass, and a real ``splendor serve`` process."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from splendor.game import get_game

PREFERRED = ("buy r", "reserve d", "gold ")
"""Notation prefixes the test policy prefers, so that games reach blind reserves (C8, D9)
and their payment (C9, D10) often."""


def pick(rng: random.Random, notations: list[str]) -> str:
    """A random notation, preferring blind reserves and buying reserved cards."""
    for prefix in PREFERRED:
        hits = [n for n in notations if n.startswith(prefix)]
        if hits and rng.random() < 0.7:
            return rng.choice(hits)
    return rng.choice(notations)


def engine_states(
    game: str, seed: int, policy_seed: int, num_players: int = 2, limit: int = 600
) -> Iterator[Any]:
    """Every state of one biased random game played on the engine (a copy each)."""
    module = get_game(game)
    options = module.check_options({}, bots_only=True)  # Duel's turn cap between bots (D25)
    state = module.new_game(num_players, seed, **options)
    rng = random.Random(policy_seed)
    yield state.copy()
    for _ in range(limit):
        if state.is_terminal:
            return
        state.apply(pick(rng, [str(a) for a in state.legal_actions()]))
        yield state.copy()


def paying_slot(true: dict[str, Any]) -> int:
    """The reserved slot whose card is being paid for (public while paid), else -1."""
    if int(true["pay_card"]) >= 0 and int(true["pay_src"]) >= 12:
        return int(true["pay_src"]) - 12
    return -1


def hidden_cards(true: dict[str, Any], seat: int | None) -> set[int]:
    """Card ids ``seat`` (None: a spectator) may not see in the full position ``true``:
    the decks, and every blind reserve of another player (all players for a spectator)
    except a card being paid for."""
    hidden = {c for deck in true["decks"] for c in deck if c >= 0}
    paying = paying_slot(true)
    for p, row in enumerate(true["reserved"]):
        if p == seat:
            continue
        for k, card in enumerate(row):
            if (
                card >= 0
                and true["reserved_blind"][p][k]
                and not (p == true["current"] and k == paying)
            ):
                hidden.add(card)
    return hidden


def walk(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (path, leaf or dict key) of a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield f"{path}.{k}", k
            yield from walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, f"{path}[{i}]")
    else:
        yield path, value


def check_observation(
    obs: dict[str, Any], true: dict[str, Any], seat: int | None
) -> dict[str, int]:
    """Assert that ``obs`` (an observation sent to ``seat``; None: spectator) is exactly
    the true position ``true`` (``State.to_dict()``) minus what ``seat`` may not see.

    Returns counts of what it checked: ``{"hidden_reserves", "paying_blind"}``.
    """
    assert set(obs) == set(true), "observation fields differ from the position's"
    assert all(c == -1 for deck in obs["decks"] for c in deck), "deck order leaked"
    assert obs["deck_len"] == true["deck_len"]
    assert all(int(x) == 0 for x in obs["rng"]), "the generator leaked"
    assert obs["observer"] == (-1 if seat is None else seat)
    hidden = hidden_cards(true, seat)
    paying = paying_slot(true)
    counts = {"hidden_reserves": 0, "paying_blind": 0}
    for p, row in enumerate(true["reserved"]):
        for k, card in enumerate(row):
            if card in hidden:
                assert obs["reserved"][p][k] == -1, (
                    f"blind reserve {card} of seat {p} leaked to {seat}"
                )
                counts["hidden_reserves"] += 1
            else:
                assert obs["reserved"][p][k] == card
                if (
                    card >= 0
                    and true["reserved_blind"][p][k]
                    and p != seat
                    and k == paying
                    and p == true["current"]
                ):
                    counts["paying_blind"] += 1
    for key in ("pay_card", "pend_card"):
        if key in obs:
            assert obs[key] not in hidden or obs[key] < 0, f"{key} leaked a hidden card"
    for key in true:
        if key not in ("decks", "rng", "observer", "reserved"):
            assert obs[key] == true[key], f"field {key} differs from the true position"
    return counts


def check_message(
    message: dict[str, Any], true: dict[str, Any], seat: int | None
) -> dict[str, int]:
    """Check a state message for ``seat``: no seed anywhere, and its observation as
    :func:`check_observation`; legal actions only for the seat to move."""
    assert message["type"] == "state"
    assert message["seat"] == seat
    for path, leaf in walk(message):
        assert leaf != "seed", f"a seed field at {path}"
    if seat is None or message["current_player"] != seat:
        assert message["legal_actions"] == []
    return check_observation(message["observation"], true, seat)


def free_port() -> int:
    """A TCP port free on the loopback address now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    db: Path | str, port: int, log: Path, *, rates: bool = False
) -> subprocess.Popen[bytes]:
    """``splendor serve`` on ``port`` over ``db`` (a SQLite file, or a database URL), its
    output appended to ``log``; returns once it answers (fails after 120 s). Without
    ``rates`` the rate limits are off (functional tests play at machine speed; the rate
    limits have their own tests)."""
    out = open(log, "ab")
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    command = [
        sys.executable,
        "-m",
        "splendor.cli",
        "serve",
        "--port",
        str(port),
        "--database-url",
        url,
        "--bot-workers",
        "1",
    ]
    if not rates:
        command += ["--create-rate", "off", "--action-rate", "off"]
    proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the server exited with code {proc.returncode}: {log.read_text()[-3000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    pytest.fail(f"the server did not start: {log.read_text()[-3000:]}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server (SIGTERM; SIGKILL when it has not exited 30 s later)."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
