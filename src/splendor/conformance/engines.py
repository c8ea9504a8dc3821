"""The engines a conformance case runs against: this package's, or another program through
the adapter protocol (JSON lines over stdin/stdout, ``docs/conformance.md``).

A case becomes one :class:`Query`: where to start (a position text or a new game), the
decisions to apply, and what to report there (``position``, ``legal``, ``result``,
``observation``). An engine answers it with an :class:`Answer`. :class:`LocalEngine`
answers from :mod:`splendor.classic` and :mod:`splendor.duel`; :class:`ExternalEngine`
sends the query to a program, one JSON object per line::

    host:    {"conformance": 1, "request": 3, "game": "splendor", "position": "splendor …",
              "actions": ["take W U G"], "want": ["legal", "position"]}
    program: {"request": 3, "legal": ["take W W", …], "position": "splendor …"}

A program that cannot do what a query asks answers ``{"request": 3, "error": "why",
"action": 0}`` (``action``: the index of the decision it refused, or ``null`` when it could
not read the position): the case fails with that reason. A program whose engine does not
model what a query asks (an observation in the middle of a payment, a rule it leaves to
its host) answers ``{"request": 3, "unsupported": "why"}``: the case is counted as
unsupported, neither passed nor failed. A program that breaks the
protocol (exits, writes a line that is not such an answer, or is silent past the timeout)
makes :meth:`ExternalEngine.query` raise :class:`AdapterError`, one line that says what
happened (and the last lines it wrote to stderr).
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

PROTOCOL_VERSION = 1
"""The version of the adapter protocol (``"conformance"`` in every query)."""

WANTS = ("position", "legal", "result", "observation")
"""What a query may ask for."""

MAX_LINE_BYTES = 1 << 20
"""The longest answer line read from an adapter (1 MiB); a longer one is an error."""

STDERR_LINES = 10
"""How many of an adapter's last stderr lines are quoted when it fails."""


class AdapterError(Exception):
    """The adapter program broke the protocol: it could not be started, exited, wrote a
    line that is not an answer to the query, or did not answer in time. The message is one
    line (then the adapter's last stderr lines, if any)."""


@dataclass(frozen=True)
class Query:
    """What a case asks of an engine.

    Attributes:
        game: ``"splendor"`` (classic) or ``"duel"``.
        position: the starting position text, or ``None`` for a new game.
        new_game: ``{"players": n, "seed": s}`` (``players`` may be left out for Duel).
        actions: decisions to apply in order, in action notation.
        want: what to report after them, a subset of :data:`WANTS`.
        observer: the seat whose observation is wanted (with ``"observation"``).
    """

    game: str
    position: str | None
    new_game: dict[str, int] | None
    actions: tuple[str, ...]
    want: tuple[str, ...]
    observer: int | None = None

    def to_json(self, request: int) -> dict[str, Any]:
        """The query as the adapter protocol sends it, numbered ``request``."""
        out: dict[str, Any] = {
            "conformance": PROTOCOL_VERSION,
            "request": request,
            "game": self.game,
        }
        if self.position is not None:
            out["position"] = self.position
        else:
            out["new_game"] = dict(self.new_game or {})
        out["actions"] = list(self.actions)
        out["want"] = list(self.want)
        if self.observer is not None:
            out["observer"] = self.observer
        return out


@dataclass
class Answer:
    """An engine's answer to a :class:`Query`.

    Attributes:
        position: the position text reached (when ``"position"`` was wanted).
        legal: the legal decisions there, in action notation (``"legal"``).
        result: ``{"over": bool, "winners": [seats], "scores": [points]}`` (``"result"``).
        observation: the observation text of the seat asked for (``"observation"``).
        error: why the engine could not answer (an illegal decision, a position it cannot
            read); ``None`` when it answered.
        refused: with ``error``: the index of the refused decision in the query's actions,
            or ``None`` when the starting position itself was refused.
        unsupported: why the engine does not model what the query asks (``None`` when it
            does): the case is then neither passed nor failed, but counted as unsupported.
    """

    position: str | None = None
    legal: list[str] | None = None
    result: dict[str, Any] | None = None
    observation: str | None = None
    error: str | None = None
    refused: int | None = None
    unsupported: str | None = None


class Engine(Protocol):
    """Anything that answers conformance queries."""

    name: str

    def query(self, q: Query) -> Answer:
        """Answer one query.

        Raises:
            AdapterError: the engine broke the protocol (external engines only).
        """
        ...

    def close(self) -> None:
        """Release what the engine holds (an adapter program)."""
        ...


class LocalEngine:
    """This package's engines (:mod:`splendor.classic`, :mod:`splendor.duel`)."""

    name = "this package's engine"

    def query(self, q: Query) -> Answer:
        """Answer ``q`` from this package's engine (rules C1-C18, D1-D25); it models
        every query, so it never answers ``unsupported``."""
        from ..game import get_game

        game = get_game(q.game)
        try:
            if q.position is not None:
                state = game.state_type.from_text(q.position)
            else:
                spec = dict(q.new_game or {})
                state = game.new_game(spec.get("players", game.default_players), spec.get("seed"))
        except ValueError as e:  # PositionError, or a bad player count or seed
            return Answer(error=str(e), refused=None)
        for i, text in enumerate(q.actions):
            try:
                state.apply(text)
            except ValueError as e:  # ParseError or IllegalActionError
                return Answer(error=str(e), refused=i)
        out = Answer()
        if "position" in q.want:
            out.position = state.to_text()
        if "legal" in q.want:
            out.legal = [str(a) for a in state.legal_actions()]
        if "result" in q.want:
            out.result = {
                "over": bool(state.is_terminal),
                "winners": list(state.winners),
                "scores": list(state.scores),
            }
        if "observation" in q.want:
            try:
                out.observation = state.observation(q.observer or 0).to_text()
            except ValueError as e:
                return Answer(error=str(e), refused=None)
        return out

    def close(self) -> None:
        """Nothing to release."""


def command_argv(command: str) -> list[str]:
    """The argument list that runs ``command``: shell-like words (:func:`shlex.split`); a
    first word ending in ``.py`` runs with this Python (``sys.executable``).

    Raises:
        AdapterError: an empty or unreadable command, or a ``.py`` script that does not exist.
    """
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise AdapterError(f"cannot read the adapter command {command!r}: {e}") from None
    if not words:
        raise AdapterError("the adapter command is empty")
    if words[0].lower().endswith(".py"):
        script = Path(words[0])
        if not script.is_file():
            raise AdapterError(f"adapter {command!r}: no script {words[0]!r} (from {os.getcwd()})")
        return [sys.executable, str(script.absolute()), *words[1:]]
    return words


class ExternalEngine:
    """Another engine, run as a program that speaks the adapter protocol
    (``docs/conformance.md``; ``examples/conformance_adapter.py`` is one).

    The program is started at the first query and answers every query of the run; it is
    stopped by :meth:`close` (stdin closed, then killed after a grace period).

    Args:
        command: the command line, split like a shell does; a first word ending in ``.py``
            runs with this Python.
        timeout: seconds allowed for each answer.
        start_timeout: seconds allowed for the first answer (the program starts up).
    """

    def __init__(self, command: str, timeout: float = 10.0, start_timeout: float = 60.0) -> None:
        self.name = f"the adapter {command!r}"
        self.command = command
        self.timeout = timeout
        self.start_timeout = max(start_timeout, timeout)
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._requests = 0
        self._stderr_reader: threading.Thread | None = None
        self._broken: str | None = None  # why the program was stopped, once it failed

    # ------------------------------------------------------------------ process

    def _start(self) -> subprocess.Popen[bytes]:
        argv = command_argv(self.command)
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=hasattr(os, "killpg"),
            )
        except OSError as e:
            raise AdapterError(f"cannot start the adapter {self.command!r}: {e}") from None
        assert proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=self._read_stdout, args=(proc.stdout,), daemon=True).start()
        self._stderr_reader = threading.Thread(
            target=self._read_stderr, args=(proc.stderr,), daemon=True
        )
        self._stderr_reader.start()
        return proc

    def _read_stdout(self, stream: Any) -> None:
        while True:
            line = stream.readline(MAX_LINE_BYTES + 1)
            if not line:
                break
            self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self, stream: Any) -> None:
        for raw in iter(stream.readline, b""):
            self._stderr.append(raw.decode("utf-8", "replace").rstrip())

    def _fail(self, reason: str) -> AdapterError:
        """Stop the program at once and describe the failure (with its last stderr lines)."""
        self.close(grace=0.2)
        if self._stderr_reader is not None:  # its last lines, up to the program's exit
            self._stderr_reader.join(timeout=1.0)
        tail = [line for line in self._stderr if line.strip()]
        if tail:
            reason += "; its last stderr lines:\n    " + "\n    ".join(tail)
        self._broken = f"adapter {self.command!r}: {reason}"
        return AdapterError(self._broken)

    def close(self, grace: float = 2.0) -> None:
        """Close the program's stdin, give it ``grace`` seconds to exit, then kill its
        process group. Safe to call more than once."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            assert proc.stdin is not None
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            try:
                if hasattr(os, "killpg"):
                    os.killpg(proc.pid, signal.SIGKILL)
                else:  # pragma: no cover - not POSIX
                    proc.kill()
            except OSError:
                pass
            proc.wait()

    def __enter__(self) -> ExternalEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ queries

    def query(self, q: Query) -> Answer:
        """Send ``q`` to the program and read its answer.

        Raises:
            AdapterError: the program could not be started, exited, answered a line that is
                not JSON or not an answer to this query, or was silent past the timeout (or
                it did so before: a failed program is not asked again).
        """
        if self._broken is not None:
            raise AdapterError(self._broken)
        first = self._proc is None
        if first:
            self._proc = self._start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        self._requests += 1
        n = self._requests
        line = json.dumps(q.to_json(n), ensure_ascii=False) + "\n"
        try:
            proc.stdin.write(line.encode("utf-8"))
            proc.stdin.flush()
        except OSError:
            raise self._fail(self._exit_reason(proc, n)) from None
        limit = self.start_timeout if first else self.timeout
        try:
            raw = self._lines.get(timeout=limit)
        except queue.Empty:
            raise self._fail(f"no answer to query {n} within {limit:g} s") from None
        if raw is None:
            raise self._fail(self._exit_reason(proc, n))
        if len(raw) > MAX_LINE_BYTES:
            raise self._fail(f"answer to query {n} is longer than {MAX_LINE_BYTES} bytes")
        return self._answer(raw, q, n)

    def _exit_reason(self, proc: subprocess.Popen[bytes], n: int) -> str:
        try:
            code = proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return f"closed its output before answering query {n}"
        return f"exited with code {code} before answering query {n}"

    def _answer(self, raw: bytes, q: Query, n: int) -> Answer:
        text = raw.decode("utf-8", "replace").strip()
        shown = text if len(text) <= 120 else text[:117] + "..."
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            raise self._fail(f"answer to query {n} is not JSON: {shown!r}") from None
        if not isinstance(data, dict):
            raise self._fail(f"answer to query {n} is not a JSON object: {shown!r}")
        if data.get("request") != n:
            raise self._fail(f"answer {shown!r} does not echo the query's number ('request': {n})")
        if "unsupported" in data:
            if not isinstance(data["unsupported"], str):
                raise self._fail(f"answer to query {n}: 'unsupported' must be a string")
            return Answer(unsupported=data["unsupported"])
        if "error" in data:
            refused = data.get("action")
            if not isinstance(data["error"], str) or not (
                refused is None or (isinstance(refused, int) and not isinstance(refused, bool))
            ):
                raise self._fail(
                    f"answer to query {n}: 'error' must be a string and 'action' an index or null"
                )
            return Answer(error=data["error"], refused=refused)
        out = Answer()
        for key in q.want:
            if key not in data:
                raise self._fail(f"answer to query {n} has no {key!r} (wanted: {list(q.want)})")
        if "position" in q.want:
            out.position = self._string(data["position"], "position", n)
        if "observation" in q.want:
            out.observation = self._string(data["observation"], "observation", n)
        if "legal" in q.want:
            legal = data["legal"]
            if not isinstance(legal, list) or not all(isinstance(x, str) for x in legal):
                raise self._fail(f"answer to query {n}: 'legal' must be a list of strings")
            out.legal = legal
        if "result" in q.want:
            out.result = self._result(data["result"], n)
        return out

    def _string(self, value: object, key: str, n: int) -> str:
        if not isinstance(value, str):
            raise self._fail(f"answer to query {n}: {key!r} must be a string")
        return value

    def _result(self, value: object, n: int) -> dict[str, Any]:
        def ints(x: object) -> bool:
            return isinstance(x, list) and all(
                isinstance(v, int) and not isinstance(v, bool) for v in x
            )

        if (
            not isinstance(value, dict)
            or not isinstance(value.get("over"), bool)
            or not ints(value.get("winners", []))
            or not ints(value.get("scores", []))
        ):
            raise self._fail(
                f"answer to query {n}: 'result' must be {{'over': bool, 'winners': [ints], "
                "'scores': [ints]}"
            )
        return dict(value)
