"""ExternalBot against hostile programs (issue 14, items 9 and 10): floods, stray answers,
helpers that outlive the bot, oversized and pathological replies, and a seeded fuzzer of
replies. Every outcome is a legal action or a :class:`BotError` with a one-line reason,
within the host's own deadline."""

from __future__ import annotations

import json
import os
import random
import shlex
import signal
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from splendor import classic, duel
from splendor.bots.base import BotError
from splendor.bots.external import (
    MAX_PENDING_BYTES,
    ExternalBot,
    ReplyError,
    parse_reply,
)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX process groups")

# Works with protocol 1 hosts too (``request`` defaults to the bot's own count), so that
# these programs show the defects of the old host as well as the fixes.
PRELUDE = textwrap.dedent(
    """\
    import json, os, subprocess, sys, time

    def decisions():
        n = 0
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "decision":
                n += 1
                m.setdefault("request", n)
                yield m
            elif m["type"] == "end":
                return

    def answer(request, action):
        sys.stdout.write(json.dumps({"request": request, "action": action}) + "\\n")
        sys.stdout.flush()
    """
)


def script(tmp_path: Path, body: str, *args: str) -> str:
    path = tmp_path / "hostile_bot.py"
    path.write_text(PRELUDE + textwrap.dedent(body), encoding="utf-8")
    return " ".join(shlex.quote(str(x)) for x in (path, *args))


def within(seconds: float, bot: ExternalBot, call: Callable[[], Any]) -> Any:
    """Run ``call`` on a thread; return its result or raise its exception. A call still
    running after ``seconds`` fails the test (its program is killed first, so that the
    thread ends)."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = call()
        except BaseException as e:  # noqa: BLE001 - handed to the test thread
            out["error"] = e

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        pid = bot.pid
        if pid is not None:
            os.killpg(pid, signal.SIGKILL)
        worker.join(10)
        pytest.fail(f"the host was still waiting after {seconds} s")
    if "error" in out:
        raise out["error"]
    return out.get("value")


def first_decision(game: str = "splendor") -> tuple[Any, list[Any]]:
    st = classic.new_game(2, seed=5) if game == "splendor" else duel.new_game(seed=5)
    return st.observation(0), st.legal_actions()


def alive(pid: int) -> bool:
    """True while process ``pid`` runs (a zombie has stopped running)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return False
    return data[data.rindex(b")") + 2 :].split()[0] != b"Z"


SLACK = 12.0
"""Seconds a refused bot may take, past its deadline, to be killed and reaped on a loaded
machine; a host that waited on a never-ending flood would still fail (``within``: 20 s)."""

STDERR_TAIL = "; its stderr ended with: "
"""Where a reason quotes the bot's own stderr (its words, a traceback of its own included:
a flooding bot killed at its deadline may die of a broken pipe first)."""


def assert_one_clean_line(reason: str) -> None:
    """One line, short, and none of the host's own errors in the host's words."""
    assert "\n" not in reason and len(reason) < 1000, reason
    host = reason.split(STDERR_TAIL, 1)[0]
    for raw in ("Traceback", "RecursionError", "JSONDecodeError", "Exceeds the limit"):
        assert raw not in host, reason


# ------------------------------------------------------------------ the deadline


@pytest.mark.parametrize(
    "flood",
    [
        'sys.stdout.write("\\n" * 4096)',  # blank lines
        'sys.stdout.write(" \\r\\n" * 1000)',  # lines of white space
        'sys.stdout.write(json.dumps({"request": 0, "action": 0}) + "\\n")',  # stale answers
    ],
    ids=["blank-lines", "white-space", "stale-answers"],
)
def test_a_flood_does_not_stop_the_clock(tmp_path, flood):
    """The deadline is the host's: output that is not an answer never extends it."""
    cmd = script(
        tmp_path,
        f"""
        for m in decisions():
            while True:
                {flood}
                sys.stdout.flush()
        """,
    )
    bot = ExternalBot(cmd, timeout=1.0, startup=1.0)
    obs, legal = first_decision()
    t = time.monotonic()
    try:
        with pytest.raises(BotError) as info:
            within(20, bot, lambda: bot.choose(obs, legal))
    finally:
        bot.close()
    elapsed = time.monotonic() - t
    # the flood never ends: only the host's deadline stops it (the margin covers killing
    # and reaping a busy program on CI's two loaded cores: 8 s seen once)
    assert 2.0 <= elapsed < 2.0 + SLACK
    assert info.value.reason.startswith(f"external bot {cmd!r} timed out after 2 s")
    assert_one_clean_line(info.value.reason)


def test_a_flood_in_a_match_is_a_timely_forfeit(tmp_path):
    """What the arena does: play_game with forfeits. A blank-line flood loses on time."""
    from splendor.bots import RandomBot
    from splendor.match import play_game
    from splendor.record import GameRecord

    cmd = script(
        tmp_path,
        """
        for m in decisions():
            while True:
                sys.stdout.write("\\n" * 4096); sys.stdout.flush()
        """,
    )
    bot = ExternalBot(cmd, timeout=1.0, startup=1.0)
    t = time.monotonic()
    try:
        _, rec = within(
            20, bot, lambda: play_game([RandomBot(1), bot], seed=4, forfeit_on_error=True)
        )
    finally:
        bot.close()
    assert time.monotonic() - t < 2.0 + SLACK
    assert rec.result["end_reason"] == "forfeit" and rec.result["forfeit"]["seat"] == 1
    assert rec.result["forfeit"]["reason"] == (
        f"external bot {cmd!r} timed out after 2 s without an answer; it was stopped"
    )
    GameRecord.from_json(rec.to_json()).replay()  # a valid forfeit record


def test_a_line_that_never_ends_times_out(tmp_path):
    cmd = script(
        tmp_path,
        """
        for m in decisions():
            sys.stdout.write('{"request": 1, "act'); sys.stdout.flush()
            time.sleep(60)
        """,
    )
    bot = ExternalBot(cmd, timeout=0.5, startup=1.0)
    obs, legal = first_decision()
    try:
        with pytest.raises(BotError, match=r"timed out after 1\.5 s without an answer"):
            within(20, bot, lambda: bot.choose(obs, legal))
    finally:
        bot.close()


# ------------------------------------------------------------------ stray answers


def test_a_stray_answer_is_never_taken_for_the_next_decision(tmp_path):
    """A second answer to decision k (here a legal action of decision k + 1, and a flood of
    them) arrives while decision k + 1 is pending: it is dropped, never played."""
    cmd = script(
        tmp_path,
        """
        for m in decisions():
            k, legal = m["request"], m["legal_actions"]
            if k > 1:
                for _ in range(200):
                    answer(k - 1, legal[-1]["id"])  # stale, though legal now
            answer(k, legal[0]["id"])
        """,
    )
    st = classic.new_game(2, seed=3)
    with ExternalBot(cmd) as bot:
        for _ in range(8):
            legal = st.legal_actions()
            assert len(legal) > 1
            chosen = within(
                30, bot, lambda legal=legal: bot.choose(st.observation(st.current_player), legal)
            )
            assert chosen == legal[0]
            st.apply(chosen)


def test_stray_output_between_decisions_forfeits(tmp_path):
    cmd = script(
        tmp_path,
        """
        for m in decisions():
            answer(m["request"], m["legal_actions"][0]["id"])
            answer(m["request"], m["legal_actions"][0]["id"])  # stale: dropped
            sys.stdout.write("[1]\\n"); sys.stdout.flush()  # not an answer
        """,
    )
    obs, legal = first_decision()
    with ExternalBot(cmd) as bot:
        bot.choose(obs, legal)
        time.sleep(0.3)
        with pytest.raises(BotError, match=r"wrote '\[1\]' when no decision was pending"):
            bot.choose(obs, legal)


# ------------------------------------------------------------------ helper processes


@pytest.mark.parametrize("how", ["timeout", "crash", "clean-exit"])
def test_every_process_the_bot_started_dies_with_it(tmp_path, how):
    """Helpers in the bot's group, and one in a session of its own, are killed when the
    bot times out, crashes, or exits by itself (then at close), though the bot's exit
    left them orphans."""
    pids = tmp_path / "pids"
    cmd = script(
        tmp_path,
        """
        same = subprocess.Popen(["sleep", "1000"])
        own = subprocess.Popen(["sleep", "1001"], start_new_session=True)
        with open(sys.argv[1], "w") as f:
            f.write(f"{same.pid} {own.pid}")
        for m in decisions():
            if m["request"] == 2 and sys.argv[2] == "timeout":
                time.sleep(60)
            if m["request"] == 2 and sys.argv[2] == "crash":
                sys.exit(1)
            answer(m["request"], m["legal_actions"][0]["id"])
        """,
        str(pids),
        how,
    )
    bot = ExternalBot(cmd, timeout=1.0, startup=1.0, grace=1.0)
    obs, legal = first_decision()
    helpers: list[int] = []
    try:
        assert within(20, bot, lambda: bot.choose(obs, legal)) == legal[0]
        helpers = [int(x) for x in pids.read_text().split()]
        assert len(helpers) == 2 and all(alive(p) for p in helpers)
        if how == "clean-exit":
            assert within(20, bot, lambda: bot.choose(obs, legal)) == legal[0]
        else:
            expected = "timed out after 1 s" if how == "timeout" else "exited with code 1"
            with pytest.raises(BotError, match=expected):
                within(20, bot, lambda: bot.choose(obs, legal))
        bot.close()
        deadline = time.monotonic() + 3
        while any(alive(p) for p in helpers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [p for p in helpers if alive(p)] == []
    finally:
        bot.close()
        for p in helpers or ([int(x) for x in pids.read_text().split()] if pids.exists() else []):
            if alive(p):
                os.kill(p, signal.SIGKILL)  # only the test's own helpers, by id


# ------------------------------------------------------------------ bounded reading


def test_a_line_longer_than_the_limit_forfeits(tmp_path):
    cmd = script(
        tmp_path,
        """
        for m in decisions():
            sys.stdout.write("x" * (3 << 20)); sys.stdout.flush()
            time.sleep(60)
        """,
    )
    bot = ExternalBot(cmd, timeout=5.0)
    obs, legal = first_decision()
    try:
        with pytest.raises(BotError, match="wrote a line longer than 1 MiB") as info:
            within(20, bot, lambda: bot.choose(obs, legal))
    finally:
        bot.close()
    assert_one_clean_line(info.value.reason)


def test_a_flood_between_decisions_is_bounded(tmp_path):
    """Unasked output piles up to MAX_PENDING_BYTES at most, then the bot loses."""
    cmd = script(
        tmp_path,
        """
        for m in decisions():
            answer(m["request"], m["legal_actions"][0]["id"])
            line = json.dumps({"request": m["request"], "action": 0, "pad": "x" * 8000}) + "\\n"
            while True:
                sys.stdout.write(line * 10); sys.stdout.flush()
        """,
    )
    obs, legal = first_decision()
    bot = ExternalBot(cmd)
    try:
        within(30, bot, lambda: bot.choose(obs, legal))
        time.sleep(1.0)  # the opponent thinks; the program floods
        with pytest.raises(BotError) as info:
            within(30, bot, lambda: bot.choose(obs, legal))
    finally:
        bot.close()
    assert (
        f"wrote more than {MAX_PENDING_BYTES >> 20} MiB that nobody asked for" in info.value.reason
    )


def test_close_returns_while_the_program_floods(tmp_path):
    cmd = script(
        tmp_path,
        """
        import signal
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        for m in decisions():
            answer(m["request"], m["legal_actions"][0]["id"])
        while True:  # the game is over; flood, never exit
            try:
                sys.stdout.write("y" * 65536 + "\\n"); sys.stdout.flush()
            except OSError:
                pass
        """,
    )
    obs, legal = first_decision()
    bot = ExternalBot(cmd, grace=0.5)
    within(30, bot, lambda: bot.choose(obs, legal))
    pid = bot.pid
    t = time.monotonic()
    within(30, bot, bot.close)
    assert time.monotonic() - t < 0.5 + SLACK
    assert bot.pid is None and not alive(pid)


# ------------------------------------------------------------------ pathological replies

HUGE = "9" * 5001


@pytest.mark.parametrize(
    "reply, expected",
    [
        ("[" * 100_000, "answered JSON nested too deeply to read"),
        ('{"request": 1, "action": ' + "[" * 50_000, "answered JSON nested too deeply to read"),
        ('{"request": 1, "action": ' + HUGE + "}", "answered JSON with a number too long to read"),
        ('{"request": ' + HUGE + ', "action": 0}', "answered JSON with a number too long to read"),
        (
            '{"request": 1, "action": 1' + "0" * 4000 + "}",
            "answered action id 1000000000000000000000000",
        ),
        ('{"request": 1, "action": NaN}', "answered \"action\": 'NaN'; it must be an action id"),
        ('{"request": 1, "action": "' + "x" * 500_000 + '"}', "which is not an action notation"),
        ('{"request": 1, "action": {"id": 0}}', "it must be an action id"),
        (
            '{"request": 1.0, "action": 0}',
            "answered \"request\": '1.0'; it must be the decision's number, 1",
        ),
        ('{"request": true, "action": 0}', "answered \"request\": 'true'"),
        ('"\\ud800"', "which is not a JSON object"),
        ("\xff\xfe{}", "answered a line that is not JSON"),
    ],
    ids=[
        "deep-list",
        "deep-action",
        "huge-action",
        "huge-request",
        "long-id",
        "nan",
        "long-notation",
        "object-action",
        "float-request",
        "bool-request",
        "surrogate",
        "bad-utf8",
    ],
)
def test_pathological_replies_get_clear_reasons(tmp_path, reply, expected):
    data = tmp_path / "reply.bin"
    data.write_bytes(reply.encode("latin-1" if reply.startswith("\xff") else "utf-8") + b"\n")
    cmd = script(
        tmp_path,
        """
        for m in decisions():
            with open(sys.argv[1], "rb") as f:
                sys.stdout.buffer.write(f.read()); sys.stdout.flush()
            time.sleep(60)
        """,
        str(data),
    )
    bot = ExternalBot(cmd, timeout=10.0, grace=0.2)
    obs, legal = first_decision()
    try:
        with pytest.raises(BotError) as info:
            within(30, bot, lambda: bot.choose(obs, legal))
    finally:
        bot.close()
    reason = info.value.reason
    assert reason.startswith(f"external bot {cmd!r} "), reason
    assert expected in reason
    assert_one_clean_line(reason)


# ------------------------------------------------------------------ fuzzing replies


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        return rng.choice(
            [
                None,
                True,
                False,
                0,
                1,
                -1,
                rng.randrange(-(10**6), 10**6),
                1.5,
                "",
                "pass",
                "take W U G",
                "buy 1.1",
                "x" * rng.randrange(0, 50),
                float("inf"),
                10**30,
            ]
        )
    if roll < 0.7:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    keys = ["request", "action", "type", "id", "notation", ""]
    return {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randrange(0, 4))}


def _notation_noise(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randrange(1, 3)):
        op = rng.randrange(3)
        i = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, rng.choice("WUGRK*PJ .0123456789dr"))
        else:
            chars = [c.lower() if rng.random() < 0.5 else c for c in chars]
    return "".join(chars)


def _reply(rng: random.Random, request: int, legal: list[Any]) -> bytes:
    """One reply line: random bytes, random JSON, or a valid answer mutated."""
    kind = rng.randrange(8)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
    if kind == 1:
        return json.dumps(_random_json(rng)).encode()
    pick = rng.choice(legal)
    message: dict[str, Any] = {"request": request, "action": int(pick.id)}
    if kind == 2:
        message["action"] = str(pick)
    elif kind == 3:
        message["action"] = _notation_noise(rng, str(pick))
    elif kind == 4:
        message["request"] = rng.choice(
            [request - 1, request + 1, 0, -5, str(request), None, True, float(request), 10**40]
        )
    elif kind == 5:
        message["action"] = rng.choice(
            [rng.randrange(-3, 400), True, None, [pick.id], {"id": pick.id}, float(pick.id), 10**25]
        )
    elif kind == 6:
        message.pop(rng.choice(["request", "action"]))
        message[rng.choice(["extra", "notation", "id"])] = _random_json(rng)
    text = json.dumps(message, allow_nan=True)
    if rng.random() < 0.15:  # break the text itself
        cut = rng.randrange(len(text) + 1)
        text = (
            text[:cut] + rng.choice(["", "}", "[" * 3000, "9" * 5000, "\x00", "\\u00"]) + text[cut:]
        )
    return text.encode("utf-8", errors="surrogatepass")


def _expected(line: bytes, request: int, legal: list[Any]) -> tuple[str, Any]:
    """What an answer should give, judged without :func:`parse_reply`: ``("action", a)``,
    ``("stale", None)`` or ``("refused", None)``."""
    try:
        message = json.loads(line.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return "refused", None
    if not isinstance(message, dict):
        return "refused", None
    got = message.get("request")
    if type(got) is not int:
        return "refused", None
    if got < request:
        return "stale", None
    answer = message.get("action")
    if got != request or "action" not in message:
        return "refused", None
    for a in legal:
        if type(answer) is int and answer == a.id:
            return "action", a
        if isinstance(answer, str):
            try:
                if type(a).parse(answer) == a:
                    return "action", a
            except ValueError:
                pass
    return "refused", None


def test_fuzz_parse_reply():
    """Seeded fuzzing of reply lines: each is a legal action named by the reply, a stale
    answer, or a ReplyError with a clean line; never another exception, never a wrong
    action."""
    rng = random.Random(1414)
    counts = {"action": 0, "stale": 0, "refused": 0}
    positions = []
    for game, seed in (("splendor", 1), ("duel", 2)):
        st = classic.new_game(3, seed=seed) if game == "splendor" else duel.new_game(seed=seed)
        for _ in range(12):
            positions.append(list(st.legal_actions()))
            st.apply(rng.choice(st.legal_actions()))
    for i in range(3000):
        legal = positions[i % len(positions)]
        request = rng.randrange(1, 50)
        line = _reply(rng, request, legal)
        want, action = _expected(line, request, legal)
        try:
            got = parse_reply(line, request, legal)
        except ReplyError as e:
            assert want == "refused", (line[:200], want)
            assert_one_clean_line(str(e))
            counts["refused"] += 1
            continue
        if got is None:
            assert want == "stale", (line[:200], want)
            counts["stale"] += 1
        else:
            assert (want, got) == ("action", action), (line[:200], want)
            counts["action"] += 1
    print(f"parse_reply fuzz: 3000 lines, {counts}")  # shown with pytest -s
    assert min(counts.values()) >= 100, counts  # the generator reaches every outcome


def test_fuzz_replies_through_real_programs(tmp_path):
    """Seeded end-to-end fuzzing: a small shell program answers the first decision with
    a few generated lines and exits; the host returns the legal action the first
    non-stale line names, or fails with a BotError, within the deadline."""
    rng = random.Random(2024)
    obs, legal = first_decision()
    outcomes = {"action": 0, "refused": 0}
    for n in range(40):
        lines = [_reply(rng, 1, legal) for _ in range(rng.randrange(1, 4))]
        if rng.random() < 0.3:
            lines.insert(0, json.dumps({"request": 0, "action": 0}).encode())  # stale
        sep = rng.choice([b"\n", b"\r\n", b"\n\n  \n"])
        body = sep.join(lines) + (sep if rng.random() < 0.8 else b"")
        (tmp_path / f"r{n}").write_bytes(body)
        want: tuple[str, Any] = ("refused", None)
        for line in body.split(b"\n"):
            if line.strip():
                verdict = _expected(line + b"\n", 1, legal)
                if verdict[0] != "stale":
                    want = verdict
                    break
        cmd = f"sh -c 'head -n 2 >/dev/null; cat \"$0\"' {shlex.quote(str(tmp_path / f'r{n}'))}"
        bot = ExternalBot(cmd, timeout=5.0, grace=0.2)
        try:
            got = within(30, bot, lambda bot=bot: bot.choose(obs, legal))
            assert want == ("action", got), (body[:200], want)
            outcomes["action"] += 1
        except BotError as e:
            assert want[0] == "refused", (body[:200], want, e.reason)
            assert_one_clean_line(e.reason)
            outcomes["refused"] += 1
        finally:
            bot.close()
    print(f"end-to-end reply fuzz: 40 programs, {outcomes}")  # shown with pytest -s
    assert outcomes["action"] >= 5 and outcomes["refused"] >= 5, outcomes
