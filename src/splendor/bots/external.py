"""External bots: any program that speaks the JSON-lines bot protocol on stdin/stdout.

``ExternalBot("./my_bot.py")`` (the bot spec ``external:./my_bot.py``) runs the program and
asks it for every decision of its seat. Protocol version 2 (docs/protocol.md
and ``examples/external_bot.py`` show it whole): one JSON object per line, UTF-8,
``\\n``-terminated.

Host to bot::

    {"type": "start", "protocol": 2, "game": "splendor", "seat": 1, "num_players": 2,
     "seed": 8412..., "timeout": 10.0, "name": "external:./my_bot.py",
     "tables": {"cards": [...], "nobles": [...]}}
    {"type": "decision", "protocol": 2, "request": 1, "game": "splendor", "seat": 1,
     "num_players": 2, "timeout": 10.0, "observation": {...},
     "legal_actions": [{"id": 0, "notation": "take W U G"}, ...]}
    {"type": "end", "protocol": 2, "game": "splendor", "seat": 1, "result": {...} | null}

``start`` is sent once, just before the first decision of the program; no answer is
expected. Its ``tables`` (:func:`game_tables`) give the static card data that the card ids
of an observation refer to. ``decision`` carries a ``request`` number (1, 2, 3, ... for one
program) and expects exactly one line back that echoes it: ``{"request": 1, "action": 12}``
(an id from ``legal_actions``) or ``{"request": 1, "action": "take W U G"}`` (a notation).
An answer that echoes an *earlier* request (a stray second answer to a decision already
answered) is discarded, whenever it arrives: it never counts as the answer to a later
decision (:func:`parse_reply`). ``end`` comes when the owner closes the bot
(:meth:`ExternalBot.close`); then stdin is closed, and a program still running after a
grace period is killed.

Version history: 1, answers without ``request`` (a stray line could be taken as the answer
to the next decision); 2, ``request`` in every decision and answer.

The host's own clock rules: each decision has ``timeout`` seconds from when it is sent
(monotonic clock), whatever the program writes meanwhile (blank lines, stale answers, a
line without its ``\\n``). What is read is bounded: a line longer than
:data:`MAX_LINE_BYTES` or more than :data:`MAX_PENDING_BYTES` of unread lines ends the
game; blank lines are dropped as they arrive, and after :meth:`ExternalBot.close` the output
is read and dropped. The program runs in its own session (process group); stopping it kills
the whole group, every process still in its session, and (Linux) every process it started
that is still alive, found through ``/proc``, even one that started a session of its own.

A program that exits, answers a line that is not JSON or not an answer, answers an action
that is not legal, writes too much, or does not answer within ``timeout`` seconds makes
:meth:`ExternalBot.choose` raise :class:`~splendor.bots.base.BotError` with a one-line
reason; a program that writes too much or runs out of time is stopped at once, one that
answered badly is stopped by :meth:`ExternalBot.close` (after hearing the result). Whatever
it writes to stderr is kept (the last
:data:`STDERR_LINES` lines) and quoted when it exits.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..game import games, get_game
from .base import BotError

PROTOCOL_VERSION = 2
"""The version of the bot protocol spoken by this host (``"protocol"`` in every message;
module docstring for the history)."""

STDERR_LINES = 20
"""How many of the last stderr lines of a program are kept (and quoted in a crash reason)."""

MAX_LINE_BYTES = 1 << 20
"""Longest line accepted on a program's stdout (1 MiB, ``\\n`` included); a longer one
ends the game."""

MAX_PENDING_BYTES = 4 << 20
"""Most bytes of lines read from a program's stdout and not yet taken (4 MiB): a program
that writes more than that unasked (a flood between decisions) loses the game."""

_SHOWN_CHARS = 200  # how much of a bad answer a reason quotes
_CHUNK = 1 << 16  # bytes read from a program's stdout at a time
_LOOK_EVERY = 2.0  # seconds between two looks for the processes a program started
_POLL = 0.1  # seconds between two checks that a program whose answer is awaited still runs
_AFTER_EXIT = 0.2  # seconds its last output has to arrive after a program exited


def command_argv(command: str) -> list[str]:
    """The argument list that runs ``command``: shell-like words (``shlex.split``); a first
    word ending in ``.py`` is run with this Python (``sys.executable``). Relative paths are
    relative to the current directory and are made absolute here.

    Raises:
        ValueError: an empty or unreadable command (unbalanced quotes), a script or program
            that does not exist, or a program file that is not executable; the message
            names the command.
    """
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise ValueError(f"cannot read the external bot command {command!r}: {e}") from None
    if not words:
        raise ValueError("external bot needs a command: external:./my_bot.py")
    first = words[0]
    if first.lower().endswith(".py"):
        script = Path(first)
        if not script.is_file():
            raise ValueError(
                f"external bot {command!r}: no script {first!r} "
                f"(relative paths are from the current directory, {os.getcwd()})"
            )
        return [sys.executable, str(script.absolute()), *words[1:]]
    if os.sep in first or (os.altsep is not None and os.altsep in first):
        program = Path(first)
        if not program.is_file():
            raise ValueError(
                f"external bot {command!r}: no program {first!r} "
                f"(relative paths are from the current directory, {os.getcwd()})"
            )
        if not os.access(program, os.X_OK):
            raise ValueError(
                f"external bot {command!r}: {first!r} is not executable "
                f"(chmod +x it, or name its interpreter: external:python3 {first})"
            )
        return [str(program.absolute()), *words[1:]]
    if shutil.which(first) is None:
        raise ValueError(f"external bot {command!r}: program {first!r} is not on the PATH")
    return words


def program_seed(seed: int | None) -> int | None:
    """The ``seed`` sent to a program in its ``start`` message: a 63-bit number derived
    from the bot's seed with SHA-256 (the same bot seed gives the same number), or None."""
    if seed is None:
        return None
    digest = hashlib.sha256(f"splendor-external-bot:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_of(observation: Any) -> str:
    """The registered game name (``"splendor"`` or ``"duel"``) of an observation.

    Raises:
        TypeError: not an observation of a registered game.
    """
    for game in games():
        if isinstance(observation, game.observation_type):
            return game.name
    raise TypeError(f"not an observation of a known game: {type(observation).__name__}")


@functools.cache
def _tables_json(game: str) -> str:
    found = get_game(game)
    tables: dict[str, Any] = {
        "cards": [dataclasses.asdict(c) for c in found.cards],
        found.tiles_name: [dataclasses.asdict(x) for x in found.tiles],
    }
    return json.dumps(tables)


def game_tables(game: str) -> dict[str, Any]:
    """The static data of ``game`` sent in the ``start`` message, indexed by the ids used
    in observations: ``{"cards": [...], "nobles": [...]}`` for classic Splendor (a card is
    ``{"id", "level", "bonus", "points", "cost": [W, U, G, R, K]}``, a noble ``{"id",
    "points", "requirement": [W, U, G, R, K]}``), ``{"cards": [...], "royals": [...]}`` for
    Splendor Duel (a card is ``{"id", "level", "color", "bonus_count", "points", "crowns",
    "ability", "cost": [W, U, G, R, K, P]}``, a royal ``{"id", "points", "ability"}``).
    Colours are indices 0..4 in the order W U G R K (:mod:`splendor.colors`).

    Raises:
        ValueError: unknown game.
    """
    tables: dict[str, Any] = json.loads(_tables_json(game))
    return tables


def _short(text: str) -> str:
    """``repr`` of ``text`` stripped and cut to a few hundred characters, for a reason."""
    text = text.strip()
    return repr(text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…")


def _json_short(value: Any) -> str:
    """:func:`_short` of ``value`` written as JSON (its type's name if it cannot be)."""
    try:
        return _short(json.dumps(value))
    except (ValueError, RecursionError):
        return f"a JSON {type(value).__name__} too large to show"


def _printable(text: str) -> str:
    """``text`` with control characters (terminal escapes included) made spaces."""
    return "".join(c if c.isprintable() else " " for c in text)


class ReplyError(ValueError):
    """A program's answer to a decision that cannot be taken (:func:`parse_reply`); the
    message says what was wrong, in words for people, on one line."""


def parse_reply(line: bytes, request: int, legal_actions: Sequence[Any]) -> Any | None:
    """Read one line a program wrote while decision ``request`` was pending (protocol 2).

    Args:
        line: the line as read (bytes, ``\\n`` included or not), at most
            :data:`MAX_LINE_BYTES` long; not blank.
        request: the pending decision's ``request`` number (>= 1).
        legal_actions: that decision's legal actions; empty when no decision is pending
            (``request`` is then the next one): only a stale answer passes.

    Returns:
        The element of ``legal_actions`` that the answer names, or None for a stale
        answer (a JSON object whose ``request`` is a whole number below ``request``: an
        answer to an earlier decision, which is discarded).

    Raises:
        ReplyError: anything else: a line that is not JSON (nested too deeply, numbers too
            long, invalid UTF-8 is read as U+FFFD), not an object, without a whole-number
            ``request``, with a later ``request``, without an ``"action"``, or whose action
            is not an id (whole number) or a notation (string) of a legal action.
    """
    text = line.decode("utf-8", errors="replace")
    message = _reply_object(text)
    got = message.get("request")
    if "request" not in message or isinstance(got, bool) or not isinstance(got, int):
        shown = _short(text) if "request" not in message else _json_short(got)
        raise ReplyError(
            f'answered {_short(text)} without the decision\'s "request" number (it must echo '
            f'"request": {request})'
            if "request" not in message
            else f'answered "request": {shown}; it must be the decision\'s number, {request}'
        )
    if got < request:
        return None  # stale: an answer to a decision already answered
    if got > request:
        raise ReplyError(
            f'answered "request": {_short(str(got))}, a decision not yet sent (the pending '
            f"one is {request})"
        )
    if not legal_actions:
        raise ReplyError(f"answered {_short(text)} when no decision was pending")
    if "action" not in message:
        raise ReplyError(f'answered {_short(text)}, which is not a JSON object with an "action"')
    return _named_action(message["action"], legal_actions)


def _reply_object(text: str) -> dict[str, Any]:
    """The JSON object of a reply line (:func:`parse_reply`).

    Raises:
        ReplyError: not JSON (nested too deeply, numbers too long), or not an object.
    """
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        raise ReplyError(f"answered a line that is not JSON: {_short(text)}") from None
    except RecursionError:
        raise ReplyError(f"answered JSON nested too deeply to read: {_short(text)}") from None
    except ValueError:  # a number longer than Python reads (sys.get_int_max_str_digits)
        raise ReplyError(f"answered JSON with a number too long to read: {_short(text)}") from None
    if not isinstance(message, dict):
        raise ReplyError(
            f'answered {_short(text)}, which is not a JSON object {{"request": N, "action": ...}}'
        )
    return message


def _named_action(answer: Any, legal_actions: Sequence[Any]) -> Any:
    """The element of ``legal_actions`` that a reply's ``"action"`` names: an id (whole
    number) or a notation (string) (:func:`parse_reply`).

    Raises:
        ReplyError: neither, or not a legal action.
    """
    n = len(legal_actions)
    if isinstance(answer, int) and not isinstance(answer, bool):
        for action in legal_actions:
            if int(action.id) == answer:
                return action
        raise ReplyError(
            f"answered action id {_short(str(answer))[1:-1]}, which is not one of the {n} "
            "legal actions"
        )
    if not isinstance(answer, str):
        raise ReplyError(
            f'answered "action": {_json_short(answer)}; it must be an action id '
            "(a whole number) or a notation (a string)"
        )
    for action in legal_actions:
        if str(action) == answer:
            return action
    try:
        parsed = type(legal_actions[0]).parse(answer)
    except ValueError as e:
        lines = str(e).splitlines()
        first = lines[0] if lines else "malformed"
        if len(first) > _SHOWN_CHARS:
            first = first[:_SHOWN_CHARS] + "…"
        raise ReplyError(
            f"answered {_short(answer)}, which is not an action notation ({first})"
        ) from None
    for action in legal_actions:
        if action == parsed:
            return action
    raise ReplyError(f"answered {_short(answer)}, which is not one of the {n} legal actions")


# ------------------------------------------------------------------ processes


def _proc_table() -> dict[int, tuple[int, int, int]]:
    """Every process of this machine (Linux ``/proc``): pid -> (parent pid, session id,
    start time in clock ticks); empty where ``/proc`` is missing."""
    table: dict[int, tuple[int, int, int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                data = f.read()
            fields = data[data.rindex(b")") + 2 :].split()
            # fields[0] state, [1] ppid, [2] pgrp, [3] session, ... [19] starttime
            table[int(name)] = (int(fields[1]), int(fields[3]), int(fields[19]))
        except (OSError, ValueError, IndexError):
            continue
    return table


def _members(
    roots: dict[int, int | None], table: dict[int, tuple[int, int, int]]
) -> dict[int, int]:
    """The processes of a program's tree: each root (pid -> its start time, None: trusted)
    that still runs as that same process, every process of a root's session, and all of
    their descendants; pid -> start time. Never this process."""
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    live = {p for p, t in roots.items() if p in table and (t is None or table[p][2] == t)}
    todo = list(live) + [pid for pid, (_, sid, _) in table.items() if sid in live]
    found: dict[int, int] = {}
    while todo:
        pid = todo.pop()
        if pid in found or pid not in table or pid == os.getpid():
            continue
        found[pid] = table[pid][2]
        todo.extend(children.get(pid, ()))
    return found


def _exited(proc: subprocess.Popen[bytes]) -> bool:
    """True when ``proc`` has exited; a zombie is *not* reaped (its pid stays reserved, so
    that its process group and session can still be found safely)."""
    if proc.returncode is not None:
        return True
    waitid = getattr(os, "waitid", None)
    if waitid is None:  # pragma: no cover - not Linux/macOS
        return proc.poll() is not None
    try:
        info = waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return proc.poll() is not None
    return info is not None and info.si_pid != 0


def _wait_exit(proc: subprocess.Popen[bytes], seconds: float) -> bool:
    """Wait up to ``seconds`` for ``proc`` to exit, without reaping it; True if it did."""
    deadline = time.monotonic() + seconds
    pause = 0.002
    while not _exited(proc):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(pause, left))
        pause = min(pause * 2, 0.05)
    return True


def _kill(proc: subprocess.Popen[bytes], known: dict[int, int] | None = None) -> None:
    """Kill ``proc`` with everything it started, then reap it.

    POSIX: ``proc`` leads its own session and process group (``start_new_session``).
    While ``proc`` is not reaped its pid cannot be reused, so its group and session are
    found safely: the group is stopped (SIGSTOP, so that nobody forks meanwhile), then
    (Linux, ``/proc``) every process of its session, every process of ``known`` (pid ->
    start time: helpers seen earlier, still the same process) and of their sessions, and
    every descendant of all these is stopped too, again until no new one turns up; then
    all of them are killed (SIGKILL). Only a process that left the session after the last
    look and whose parent had already exited (a double-forking daemon) escapes. Once
    ``proc`` was reaped, only its group and ``known`` are killed.
    """
    if os.name != "posix":  # pragma: no cover - Windows
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        return
    pid = proc.pid
    roots: dict[int, int | None] = dict(known or {})
    if proc.returncode is None:  # not reaped: the pid, group and session are still ours
        roots[pid] = None
    stopped: dict[int, int] = {}
    try:
        os.killpg(pid, signal.SIGSTOP)
    except OSError:
        pass
    for _ in range(16):  # stop what was found, then look for what it had started
        found = {p: t for p, t in _members(roots, _proc_table()).items() if p not in stopped}
        if not found:
            break
        for p, t in found.items():
            try:
                os.kill(p, signal.SIGSTOP)
            except OSError:
                continue
            stopped[p] = t
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    if stopped:
        now = _proc_table()
        for p, t in stopped.items():
            if p != pid and p in now and now[p][2] == t:  # the same process, stopped
                try:
                    os.kill(p, signal.SIGKILL)
                except OSError:
                    pass
    if proc.returncode is None:
        try:
            proc.kill()
        except OSError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - an unkillable process
        pass


# ------------------------------------------------------------------ the stdout reader

_LINE, _EOF, _LONG, _FLOOD = "line", "eof", "long", "flood"


class _Reader:
    """Reads a program's stdout on a thread, in chunks, into a queue of events
    ``(kind, line, arrival time)``: each non-blank line (blank ones are dropped), then
    ``_EOF``; or ``_LONG`` (a line over :data:`MAX_LINE_BYTES`) or ``_FLOOD`` (more than
    :data:`MAX_PENDING_BYTES` of lines not yet taken), after which it stops reading. After
    :meth:`drop` it reads and drops everything. It closes the stream when done."""

    def __init__(self, stream: Any) -> None:
        self.events: queue.Queue[tuple[str, bytes, float]] = queue.Queue()
        self._stream = stream
        self._pending = 0
        self._lock = threading.Lock()
        self._drop = threading.Event()

    def drop(self) -> None:
        """From now on, read and drop everything (the game is over)."""
        self._drop.set()

    def take(self, timeout: float | None) -> tuple[str, bytes, float]:
        """The next event; ``timeout`` seconds at most (None: do not wait).

        Raises:
            queue.Empty: none came in time.
        """
        event = (
            self.events.get(timeout=timeout) if timeout is not None else self.events.get_nowait()
        )
        if event[0] == _LINE:
            with self._lock:
                self._pending -= len(event[1])
        return event

    def _put_line(self, line: bytes, now: float) -> bool:
        if not line.strip():
            return True
        with self._lock:
            if self._pending + len(line) > MAX_PENDING_BYTES:
                self.events.put((_FLOOD, b"", now))
                return False
            self._pending += len(line)
        self.events.put((_LINE, line, now))
        return True

    def run(self) -> None:
        try:
            self._run()
        finally:
            try:
                self._stream.close()
            except OSError:
                pass

    def _run(self) -> None:
        fd = self._stream.fileno()
        partial = bytearray()
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                break
            if self._drop.is_set():
                partial.clear()
                continue
            now = time.monotonic()
            pieces = chunk.split(b"\n")
            for piece in pieces[:-1]:
                if partial:
                    partial += piece
                    line = bytes(partial) + b"\n"
                    partial.clear()
                elif piece:
                    line = piece + b"\n"
                else:
                    continue  # an empty line
                if len(line) > MAX_LINE_BYTES:
                    self.events.put((_LONG, b"", now))
                    return
                if not self._put_line(line, now):
                    return
            partial += pieces[-1]
            if len(partial) > MAX_LINE_BYTES:
                self.events.put((_LONG, b"", now))
                return
        if partial and not self._drop.is_set():
            self._put_line(bytes(partial), time.monotonic())  # a last line without its \n
        self.events.put((_EOF, b"", time.monotonic()))


class ExternalBot:
    """A bot played by another program over the JSON-lines bot protocol (module docstring).

    The program is started at the first decision (:meth:`choose`) and runs until
    :meth:`close`; one program plays one game. After :meth:`close`, the next :meth:`choose`
    starts a fresh program. Use it as a context manager, or call :meth:`close`, so that the
    program is told the result and stopped (it is killed when the bot is garbage-collected
    or Python exits in any case).

    Args:
        command: the command line, split like a shell does (``"./my_bot.py --depth 2"``,
            ``"python3 bot.py"``, ``"node bot.js"``). A first word ending in ``.py`` runs
            with this Python; relative paths are relative to the current directory.
        seed: the bot's seed; a number derived from it (:func:`program_seed`) is sent in the
            ``start`` message so that a program can seed its own generator. None: null.
        timeout: seconds the program has for each decision (wall clock, the host's
            monotonic clock, from when the decision is sent), > 0.
        name: the label in tables and records (default ``"external:" + command``).
        startup: extra seconds for the first decision of a program (interpreter start,
            imports), >= 0.
        grace: seconds a program has to exit after :meth:`close` before it is killed, >= 0.

    Raises:
        ValueError: a command that cannot run (see :func:`command_argv`), or a timeout,
            startup or grace out of range.
        TypeError: ``command`` is not a string.
    """

    def __init__(
        self,
        command: str,
        seed: int | None = None,
        *,
        timeout: float = 10.0,
        name: str | None = None,
        startup: float = 5.0,
        grace: float = 2.0,
    ) -> None:
        if not isinstance(command, str):
            raise TypeError(f"the external bot command must be a string, got {command!r}")
        if not timeout > 0:
            raise ValueError(f"external bot timeout must be more than 0 seconds, got {timeout}")
        if not startup >= 0 or not grace >= 0:
            raise ValueError("external bot startup and grace must be 0 seconds or more")
        self.command = command.strip()
        self.argv = command_argv(self.command)
        self.seed = seed
        self.timeout = float(timeout)
        self.startup = float(startup)
        self.grace = float(grace)
        self.name = name if name is not None else f"external:{self.command}"
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: _Reader | None = None
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._threads: list[threading.Thread] = []
        self._finalizer: weakref.finalize[..., ExternalBot] | None = None
        self._context: dict[str, Any] | None = None  # game, seat, num_players once started
        self._decisions = 0  # decisions answered by this program
        self._request = 0  # the last request number sent to this program
        self._helpers: dict[int, int] = {}  # processes the program started: pid -> start time
        self._next_look = 0.0  # monotonic time of the next look for them

    # -------------------------------------------------------------- public

    @property
    def pid(self) -> int | None:
        """The running program's process id, or None when none runs."""
        proc = self._proc
        return proc.pid if proc is not None and not _exited(proc) else None

    def stderr_tail(self) -> list[str]:
        """The last lines the program wrote to stderr (at most :data:`STDERR_LINES`)."""
        return list(self._stderr)

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Send one decision to the program and return the legal action it answers.

        Args:
            observation: a classic or duel ``Observation`` (its ``to_dict()`` is sent).
            legal_actions: the seat's legal actions (sent as ids and notations), not empty.

        Returns:
            The element of ``legal_actions`` the program chose.

        Raises:
            BotError: the program could not start, exited, wrote something other than an
                answer (:func:`parse_reply`; stale answers excepted) or too much
                (:data:`MAX_LINE_BYTES`, :data:`MAX_PENDING_BYTES`), answered an action not
                in ``legal_actions``, or did not answer within ``timeout`` seconds (plus
                ``startup`` for its first decision). A program that wrote too much or ran
                out of time is stopped at once; one that answered badly still runs, so that
                :meth:`close` can tell it the result.
            ValueError: ``legal_actions`` is empty.
            TypeError: ``observation`` is not an observation of a known game.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        game = game_of(observation)
        context = {
            "game": game,
            "seat": int(observation.seat),
            "num_players": int(observation.num_players),
        }
        first = self._proc is None
        if first:
            self._start()
        if self._context is None:
            self._context = context
            self._send(
                {
                    "type": "start",
                    "protocol": PROTOCOL_VERSION,
                    **context,
                    "seed": program_seed(self.seed),
                    "timeout": self.timeout,
                    "name": self.name,
                    "tables": game_tables(game),
                }
            )
        self._check_idle()
        self._request += 1
        limit = self.timeout + (self.startup if first else 0.0)
        deadline = time.monotonic() + limit
        self._send(
            {
                "type": "decision",
                "protocol": PROTOCOL_VERSION,
                "request": self._request,
                **context,
                "timeout": self.timeout,
                "observation": observation.to_dict(),
                "legal_actions": [{"id": int(a.id), "notation": str(a)} for a in legal_actions],
            }
        )
        action = self._await_answer(legal_actions, deadline, limit)
        self._decisions += 1
        self._look_for_helpers(force=self._decisions == 1)
        return action

    def close(self, result: dict[str, Any] | None = None) -> None:
        """Tell the program the game is over and stop it: send ``{"type": "end", ...,
        "result": result}``, close its stdin, wait up to ``grace`` seconds for it to exit
        (its output is read and dropped meanwhile), then kill it and every process it
        started (:func:`_kill`). Does nothing when no program runs; safe to call twice.

        Args:
            result: the record's result (``GameRecord.result``), or None when unknown
                (a game stopped before its end).
        """
        proc = self._proc
        if proc is None:
            return
        if self._reader is not None:
            self._reader.drop()
        if not _exited(proc):
            if self._context is not None:
                self._send(
                    {"type": "end", "protocol": PROTOCOL_VERSION, **self._context, "result": result}
                )
            self._outbox.put(None)  # the writer closes stdin after the queued lines
            _wait_exit(proc, self.grace)
        self._stop()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = f"pid {self.pid}" if self.pid is not None else "not running"
        return f"<ExternalBot {self.command!r} {state}>"

    # -------------------------------------------------------------- process

    def _start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8")
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                start_new_session=(os.name == "posix"),
            )
        except OSError as e:
            raise BotError(f"cannot start external bot {self.command!r}: {e}") from None
        self._proc = proc
        self._reader = _Reader(proc.stdout)
        self._outbox = queue.Queue()
        self._stderr = deque(maxlen=STDERR_LINES)
        self._context = None
        self._decisions = 0
        self._request = 0
        self._helpers = {}
        self._next_look = 0.0
        self._finalizer = weakref.finalize(self, _kill, proc, self._helpers)
        self._threads = [
            threading.Thread(target=self._reader.run, daemon=True),
            threading.Thread(target=self._read_stderr, args=(proc, self._stderr), daemon=True),
            threading.Thread(target=self._write_stdin, args=(proc, self._outbox), daemon=True),
        ]
        for t in self._threads:
            t.start()

    def _stop(self) -> None:
        """Kill the program and what it started (if it still runs), reap it, end the
        threads. The readers close their own pipes once the program's end of them is
        closed (a pipe still held by an escaped process is left to its reader)."""
        proc = self._proc
        if proc is None:
            return
        if self._reader is not None:
            self._reader.drop()
        _kill(proc, self._helpers)
        self._outbox.put(None)
        for t in self._threads:
            t.join(timeout=1.0)
        if self._finalizer is not None:
            self._finalizer.detach()
        self._proc = None
        self._threads = []
        self._context = None

    @staticmethod
    def _read_stderr(proc: subprocess.Popen[bytes], tail: deque[str]) -> None:
        stream = proc.stderr
        assert stream is not None  # started with stderr=PIPE
        try:
            while True:
                raw = stream.readline(8192)
                if not raw:
                    break
                text = _printable(raw.decode("utf-8", errors="replace")).rstrip()
                if text.strip():
                    tail.append(text[:500])
        except (OSError, ValueError):
            pass
        finally:
            try:
                stream.close()
            except OSError:
                pass

    @staticmethod
    def _write_stdin(proc: subprocess.Popen[bytes], outbox: queue.Queue[bytes | None]) -> None:
        stdin = proc.stdin
        assert stdin is not None  # started with stdin=PIPE
        try:
            while True:
                data = outbox.get()
                if data is None:
                    break
                stdin.write(data)
                stdin.flush()
        except (OSError, ValueError):
            pass  # the program is gone: its exit is reported by the stdout reader
        try:
            stdin.close()
        except (OSError, ValueError):
            pass

    def _look_for_helpers(self, force: bool = False) -> None:
        """Remember the processes the running program started (Linux ``/proc``), so that
        they are killed with it even if it exits first and they are orphaned: after its
        first answer (``force``), and at most every :data:`_LOOK_EVERY` seconds after an
        answer or while one is awaited."""
        proc = self._proc
        now = time.monotonic()
        if proc is None or (now < self._next_look and not force) or proc.returncode is not None:
            return
        self._next_look = now + _LOOK_EVERY
        if _exited(proc):
            return
        found = _members({proc.pid: None}, _proc_table())
        found.pop(proc.pid, None)
        self._helpers.update(found)

    def _send(self, message: dict[str, Any]) -> None:
        self._outbox.put((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))

    # -------------------------------------------------------------- answers

    def _fail(self, what: str) -> BotError:
        return BotError(f"external bot {self.command!r} {what}")

    def _exited_error(self) -> BotError:
        """The error for a program that closed its stdout (it exited, or is about to)."""
        proc = self._proc
        assert proc is not None
        _wait_exit(proc, max(self.grace, 1.0))
        running = not _exited(proc)
        self._stop()  # also waits for the stderr reader: the tail is complete
        code = None if running else proc.returncode
        when = (
            "before answering"
            if self._decisions == 0
            else (f"after {self._decisions} decision{'s' if self._decisions != 1 else ''}")
        )
        if code is None:
            how = f"closed its output {when}; it was stopped"
        elif code < 0:
            try:
                sig = signal.Signals(-code).name
            except ValueError:
                sig = str(-code)
            how = f"was killed by signal {sig} {when}"
        else:
            how = f"exited with code {code} {when}"
        return self._fail(how + self._stderr_note())

    def _stderr_note(self) -> str:
        tail = list(self._stderr)[-5:]
        return f"; its stderr ended with: {' | '.join(tail)}" if tail else ""

    def _trouble(self, kind: str) -> BotError:
        """The error for a reader event that ends the game (``_EOF``, ``_LONG``, ``_FLOOD``)."""
        if kind == _EOF:
            return self._exited_error()
        self._stop()  # it may block on a full pipe: stop it now
        if kind == _LONG:
            return self._fail(
                f"wrote a line longer than {MAX_LINE_BYTES >> 20} MiB (an answer is one short "
                "line); it was stopped"
            )
        return self._fail(
            f"wrote more than {MAX_PENDING_BYTES >> 20} MiB that nobody asked for (stdout is "
            "for answers only, one line per decision; log to stderr); it was stopped"
        )

    def _check_idle(self) -> None:
        """Fail on what the program wrote when no decision was pending (stale answers to
        earlier decisions are dropped)."""
        reader = self._reader
        assert reader is not None
        while True:
            try:
                kind, line, _ = reader.take(None)
            except queue.Empty:
                return
            if kind != _LINE:
                raise self._trouble(kind)
            try:
                if parse_reply(line, self._request + 1, ()) is None:
                    continue  # stale
            except ReplyError:
                pass
            text = line.decode("utf-8", errors="replace")
            raise self._fail(
                f"wrote {_short(text)} when no decision was pending "
                "(stdout is for answers only, one line per decision; log to stderr)"
            )

    def _await_answer(self, legal: Sequence[Any], deadline: float, limit: float) -> Any:
        """The legal action of the answer to the pending request, read until ``deadline``
        (monotonic), whatever else arrives meanwhile.

        Raises:
            BotError: no answer in time, a bad answer, an exit, too much output.
        """
        reader, proc = self._reader, self._proc
        assert reader is not None and proc is not None
        exited_at: float | None = None
        while True:
            now = time.monotonic()
            remaining = deadline - now
            if remaining <= 0:
                self._stop()
                raise self._fail(
                    f"timed out after {limit:g} s without an answer; it was stopped"
                    f"{self._stderr_note()}"
                )
            try:
                kind, line, arrived = reader.take(min(remaining, _POLL))
            except queue.Empty:
                self._look_for_helpers()
                # a program that exited while a helper holds its stdout open sends no EOF
                if exited_at is None:
                    exited_at = now if _exited(proc) else None
                elif now - exited_at > _AFTER_EXIT:  # what it wrote before has been read
                    raise self._exited_error() from None
                continue
            if kind != _LINE:
                raise self._trouble(kind)
            if arrived > deadline:  # it came too late, by our clock
                self._stop()
                raise self._fail(
                    f"timed out after {limit:g} s without an answer; it was stopped"
                    f"{self._stderr_note()}"
                )
            try:
                action = parse_reply(line, self._request, legal)
            except ReplyError as e:
                raise self._fail(str(e)) from None
            if action is not None:
                return action


__all__ = [
    "MAX_LINE_BYTES",
    "MAX_PENDING_BYTES",
    "PROTOCOL_VERSION",
    "STDERR_LINES",
    "ExternalBot",
    "ReplyError",
    "command_argv",
    "game_of",
    "game_tables",
    "parse_reply",
    "program_seed",
]
