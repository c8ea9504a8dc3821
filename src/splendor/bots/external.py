"""External bots: any program that speaks the JSON-lines bot protocol on stdin/stdout.

``ExternalBot("./my_bot.py")`` (the bot spec ``external:./my_bot.py``) runs the program and
asks it for every decision of its seat. Protocol version 1 (the README's "Bot protocol"
section and ``examples/external_bot.py`` show it whole): one JSON object per line, UTF-8,
``\\n``-terminated.

Host to bot::

    {"type": "start", "protocol": 1, "game": "splendor", "seat": 1, "num_players": 2,
     "seed": 8412..., "timeout": 10.0, "name": "external:./my_bot.py",
     "tables": {"cards": [...], "nobles": [...]}}
    {"type": "decision", "protocol": 1, "game": "splendor", "seat": 1, "num_players": 2,
     "timeout": 10.0, "observation": {...}, "legal_actions": [{"id": 0, "notation":
     "take W U G"}, ...]}
    {"type": "end", "protocol": 1, "game": "splendor", "seat": 1, "result": {...} | null}

``start`` is sent once, just before the first decision of the program; no answer is
expected. Its ``tables`` (:func:`game_tables`) give the static card data that the card ids
of an observation refer to. ``decision`` expects exactly one line back, ``{"action": 12}`` (an id from
``legal_actions``) or ``{"action": "take W U G"}`` (a notation). ``end`` comes when the
owner closes the bot (:meth:`ExternalBot.close`); then stdin is closed, and a program still
running after a grace period is killed.

A program that exits, answers a line that is not JSON or has no ``"action"``, answers an
action that is not legal, or does not answer within ``timeout`` seconds makes
:meth:`ExternalBot.choose` raise :class:`~splendor.bots.base.BotError` with the reason; a
program that does not answer in time is killed. Whatever it writes to stderr is kept (the
last :data:`STDERR_LINES` lines) and quoted when it exits.
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
from pathlib import Path
from typing import Any, Sequence

from ..game import games, get_game
from .base import BotError

PROTOCOL_VERSION = 1
"""The version of the bot protocol spoken by this host (``"protocol"`` in every message)."""

STDERR_LINES = 20
"""How many of the last stderr lines of a program are kept (and quoted in a crash reason)."""

MAX_LINE_BYTES = 1 << 20
"""Longest answer line accepted (1 MiB); a longer one is garbage."""

_SHOWN_CHARS = 200  # how much of a bad answer a reason quotes
_EOF = None  # what the stdout reader queues when the program closes its stdout


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
    for name, module in games().items():
        if isinstance(observation, module.Observation):
            return name
    raise TypeError(f"not an observation of a known game: {type(observation).__name__}")


@functools.lru_cache(maxsize=None)
def _tables_json(game: str) -> str:
    module = get_game(game)
    tables: dict[str, Any] = {"cards": [dataclasses.asdict(c) for c in module.CARDS]}
    for key in ("NOBLES", "ROYALS"):
        if hasattr(module, key):
            tables[key.lower()] = [dataclasses.asdict(x) for x in getattr(module, key)]
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
    return json.loads(_tables_json(game))


def _short(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…")


def _kill(proc: subprocess.Popen) -> None:
    """Kill ``proc`` and its process group (POSIX), then reap it."""
    if proc.poll() is None:
        try:
            if os.name == "posix":
                os.killpg(proc.pid, signal.SIGKILL)
            else:  # pragma: no cover - Windows
                proc.kill()
        except (ProcessLookupError, PermissionError):
            proc.kill()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - an unkillable process
        pass


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
        timeout: seconds the program has for each decision (wall clock), > 0.
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
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._threads: list[threading.Thread] = []
        self._finalizer: weakref.finalize | None = None
        self._context: dict[str, Any] | None = None  # game, seat, num_players once started
        self._decisions = 0

    # -------------------------------------------------------------- public

    @property
    def pid(self) -> int | None:
        """The running program's process id, or None when none runs."""
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

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
            BotError: the program could not start, exited, sent a line that is not JSON or
                has no valid ``"action"``, answered an action not in ``legal_actions``, or
                did not answer within ``timeout`` seconds (then it is killed).
            ValueError: ``legal_actions`` is empty.
            TypeError: ``observation`` is not an observation of a known game.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        context = {
            "game": game_of(observation),
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
                    "tables": game_tables(context["game"]),
                }
            )
        self._check_idle()
        self._send(
            {
                "type": "decision",
                "protocol": PROTOCOL_VERSION,
                **context,
                "timeout": self.timeout,
                "observation": observation.to_dict(),
                "legal_actions": [{"id": int(a.id), "notation": str(a)} for a in legal_actions],
            }
        )
        limit = self.timeout + (self.startup if first else 0.0)
        line = self._read_answer(limit)
        self._decisions += 1
        return self._parse_answer(line, legal_actions)

    def close(self, result: dict[str, Any] | None = None) -> None:
        """Tell the program the game is over and stop it: send ``{"type": "end", ...,
        "result": result}``, close its stdin, wait up to ``grace`` seconds for it to exit,
        then kill it. Does nothing when no program runs; safe to call twice.

        Args:
            result: the record's result (``GameRecord.result``), or None when unknown
                (a game stopped before its end).
        """
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            if self._context is not None:
                self._send(
                    {"type": "end", "protocol": PROTOCOL_VERSION, **self._context, "result": result}
                )
            self._outbox.put(None)  # the writer closes stdin after the queued lines
            try:
                proc.wait(timeout=self.grace)
            except subprocess.TimeoutExpired:
                pass
        self._stop()

    def __enter__(self) -> "ExternalBot":
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
        self._lines = queue.Queue()
        self._outbox = queue.Queue()
        self._stderr = deque(maxlen=STDERR_LINES)
        self._context = None
        self._decisions = 0
        self._finalizer = weakref.finalize(self, _kill, proc)
        self._threads = [
            threading.Thread(target=self._read_stdout, args=(proc, self._lines), daemon=True),
            threading.Thread(target=self._read_stderr, args=(proc, self._stderr), daemon=True),
            threading.Thread(target=self._write_stdin, args=(proc, self._outbox), daemon=True),
        ]
        for t in self._threads:
            t.start()

    def _stop(self) -> None:
        """Kill the program (if it still runs), reap it and release its pipes."""
        proc = self._proc
        if proc is None:
            return
        _kill(proc)
        self._outbox.put(None)
        for t in self._threads:
            t.join(timeout=1.0)
        for f in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        if self._finalizer is not None:
            self._finalizer.detach()
        self._proc = None
        self._threads = []
        self._context = None

    @staticmethod
    def _read_stdout(proc: subprocess.Popen, lines: "queue.Queue[bytes | None]") -> None:
        try:
            while True:
                line = proc.stdout.readline(MAX_LINE_BYTES)  # type: ignore[union-attr]
                if not line:
                    break
                lines.put(line)
        except (OSError, ValueError):
            pass
        lines.put(_EOF)

    @staticmethod
    def _read_stderr(proc: subprocess.Popen, tail: deque[str]) -> None:
        try:
            while True:
                raw = proc.stderr.readline(8192)  # type: ignore[union-attr]
                if not raw:
                    break
                text = raw.decode("utf-8", errors="replace").rstrip()
                if text:
                    tail.append(text[:500])
        except (OSError, ValueError):
            pass

    @staticmethod
    def _write_stdin(proc: subprocess.Popen, outbox: "queue.Queue[bytes | None]") -> None:
        try:
            while True:
                data = outbox.get()
                if data is None:
                    break
                proc.stdin.write(data)  # type: ignore[union-attr]
                proc.stdin.flush()  # type: ignore[union-attr]
        except (OSError, ValueError):
            pass  # the program is gone: its exit is reported by the stdout reader
        try:
            proc.stdin.close()  # type: ignore[union-attr]
        except (OSError, ValueError):
            pass

    def _send(self, message: dict[str, Any]) -> None:
        self._outbox.put((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))

    # -------------------------------------------------------------- answers

    def _fail(self, what: str) -> BotError:
        return BotError(f"external bot {self.command!r} {what}")

    def _exited(self) -> BotError:
        """The error for a program that closed its stdout (it exited, or is about to)."""
        proc = self._proc
        assert proc is not None
        try:
            code = proc.wait(timeout=max(self.grace, 1.0))
        except subprocess.TimeoutExpired:
            code = None
        self._stop()  # also waits for the stderr reader: the tail is complete
        when = "before answering" if self._decisions == 0 else (
            f"after {self._decisions} decision{'s' if self._decisions != 1 else ''}"
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

    def _check_idle(self) -> None:
        """Fail on lines the program wrote when no decision was pending."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is _EOF:
                raise self._exited()
            if line.strip():
                text = line.decode("utf-8", errors="replace")
                raise self._fail(
                    f"wrote {_short(text)} when no decision was pending "
                    "(stdout is for answers only, one line per decision; log to stderr)"
                )

    def _read_answer(self, limit: float) -> bytes:
        deadline = time.monotonic() + limit
        while True:
            remaining = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(remaining, 0.0)) if remaining > 0 else (
                    self._lines.get_nowait()
                )
            except queue.Empty:
                self._stop()
                raise self._fail(
                    f"did not answer within {limit:g} s; it was stopped{self._stderr_note()}"
                ) from None
            if line is _EOF:
                raise self._exited()
            if line.strip():
                return line

    def _parse_answer(self, line: bytes, legal: Sequence[Any]) -> Any:
        text = line.decode("utf-8", errors="replace")
        if not line.endswith(b"\n") and len(line) >= MAX_LINE_BYTES:
            raise self._fail(f"answered a line longer than {MAX_LINE_BYTES} bytes")
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            raise self._fail(f"answered a line that is not JSON: {_short(text)}") from None
        if not isinstance(message, dict) or "action" not in message:
            raise self._fail(
                f'answered {_short(text)}, which is not a JSON object with an "action"'
            )
        answer = message["action"]
        n = len(legal)
        if isinstance(answer, int) and not isinstance(answer, bool):
            for action in legal:
                if int(action.id) == answer:
                    return action
            raise self._fail(
                f"answered action id {answer}, which is not one of the {n} legal actions"
            )
        if isinstance(answer, str):
            for action in legal:
                if str(action) == answer:
                    return action
            try:
                parsed = type(legal[0]).parse(answer)
            except ValueError as e:
                first = str(e).splitlines()[0] if str(e) else "malformed"
                raise self._fail(
                    f"answered {_short(answer)}, which is not an action notation ({first})"
                ) from None
            for action in legal:
                if action == parsed:
                    return action
            raise self._fail(
                f"answered {_short(answer)}, which is not one of the {n} legal actions"
            )
        raise self._fail(
            f'answered "action": {_short(json.dumps(answer))}; it must be an action id '
            "(a whole number) or a notation (a string)"
        )


__all__ = [
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "STDERR_LINES",
    "ExternalBot",
    "command_argv",
    "game_of",
    "game_tables",
    "program_seed",
]
