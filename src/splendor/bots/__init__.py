"""Bots: players that choose from an observation and its legal decisions.

``make_bot("greedy", seed=1)`` builds a bot from a *bot spec*, the string used by
``splendor play --seats`` and ``splendor arena --bots``. Every bot plays both games: it is
handed a classic or a duel observation and answers with one of the legal decisions it was
given. Specs:

=========================  ===============================================================
``random``                 uniform over the legal decisions
``greedy``                 one-ply heuristic (:mod:`splendor.bots.greedy`)
``mcts``                   information-set MCTS, default budget (1 s per decision)
``mcts:1s``, ``mcts:250ms`` MCTS with a time budget per decision
``mcts:5000``              MCTS with a budget of 5,000 iterations (deterministic per seed)
``mcts:1s:random``         the playout policy: ``greedy``, ``heuristic`` or ``random``
                           (default per game: greedy for classic, heuristic for Duel)
``net``, ``net:1s``         search guided by the policy + value network that ships for the
                           game (:mod:`splendor.bots.nets`; ``mcts`` where none ships),
                           1 s or the budget given (:mod:`splendor.bots.net_bot`)
``net:FILE.npz``           the same with a network file (1 s per decision)
``net:800:FILE.npz``       the same with a budget (``800`` iterations, ``1s``, ``250ms``)
``easy|medium|hard|expert`` the difficulty levels for people (:data:`LEVELS`)
``external:CMD``           a program speaking the JSON-lines bot protocol (docs/protocol.md)
=========================  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Bot
from .random_bot import RandomBot

BOT_NAMES: tuple[str, ...] = (
    "random",
    "greedy",
    "mcts",
    "net",
    "easy",
    "medium",
    "hard",
    "expert",
    "external",
)
"""The kinds of bot spec accepted by :func:`make_bot`."""

LEVELS: dict[str, str] = {
    "easy": "greedy",
    "medium": "mcts:50ms",
    "hard": "net:50ms",
    "expert": "net:1s",
}
"""Difficulty levels for people (issue 17), each a named bot spec and a fixed time per
decision: ``easy`` is the one-ply greedy bot (instant), ``medium`` MCTS with 50 ms a
decision, ``hard`` the search guided by the shipped network with 50 ms, ``expert`` the same
search with 1 s. Each is measured against the one below in ``results/strength/levels-*``
(docs/strength.md)."""

PLAYOUTS: tuple[str, ...] = ("greedy", "heuristic", "random")
"""Playout policies of the MCTS bot."""


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec.

    Attributes:
        kind: ``random``, ``greedy``, ``mcts`` or ``external`` (levels are resolved).
        label: the name shown in tables and records (the spec as written, normalised).
        seconds: MCTS time budget per decision, or None.
        iterations: MCTS iteration budget per decision, or None.
        playout: MCTS playout policy (one of :data:`PLAYOUTS`), or None for the game's
            default.
        command: the external program's command line (``external`` only), or the
            network file (``net`` only; ``""``: the shipped network).
    """

    kind: str
    label: str
    seconds: float | None = None
    iterations: int | None = None
    playout: str | None = None
    command: str = ""


def _budget(text: str, spec: str) -> tuple[float | None, int | None]:
    t = text.strip().lower()
    try:
        if t.endswith("ms"):
            value = float(t[:-2]) / 1000.0
        elif t.endswith("s"):
            value = float(t[:-1])
        else:
            n = int(t)
            if n < 1:
                raise ValueError
            return None, n
        if not value > 0 or value > 3600:
            raise ValueError
        return value, None
    except ValueError:
        raise ValueError(
            f"bad search budget {text!r} in {spec!r}: use seconds ('1s', '0.5s'), "
            "milliseconds ('250ms') or a positive number of iterations ('5000')"
        ) from None


def parse_bot_spec(spec: str) -> BotSpec:
    """Parse a bot spec (see the module docstring) without building the bot.

    Raises:
        ValueError: unknown kind, bad budget or playout, or an empty external command; the
            message says what is allowed.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"empty bot spec; known bots: {', '.join(BOT_NAMES)}")
    raw = spec.strip()
    head, _, rest = raw.partition(":")
    kind = head.strip().lower()
    if kind == "external":
        command = rest.strip()
        if not command:
            raise ValueError("external bot needs a command: external:./my_bot.py")
        return BotSpec("external", f"external:{command}", command=command)
    if kind in LEVELS:
        if rest:
            raise ValueError(f"level {kind!r} takes no options, got {raw!r}")
        inner = parse_bot_spec(LEVELS[kind])
        return BotSpec(
            inner.kind, kind, inner.seconds, inner.iterations, inner.playout, inner.command
        )
    if kind in ("random", "greedy"):
        if rest:
            raise ValueError(f"bot {kind!r} takes no options, got {raw!r}")
        return BotSpec(kind, kind)
    if kind == "mcts":
        parts = [p.strip().lower() for p in rest.split(":")] if rest else []
        if len(parts) > 2:
            raise ValueError(f"too many options in {raw!r}: use mcts[:BUDGET[:PLAYOUT]]")
        seconds, iterations = (1.0, None) if not parts or not parts[0] else _budget(parts[0], raw)
        playout = parts[1] if len(parts) > 1 else None
        if playout is not None and playout not in PLAYOUTS:
            raise ValueError(
                f"unknown playout {playout!r} in {raw!r}; known: {', '.join(PLAYOUTS)}"
            )
        return BotSpec(
            "mcts", "mcts" + (":" + ":".join(parts) if parts else ""), seconds, iterations, playout
        )
    if kind == "net":
        first, sep, path = rest.partition(":")
        seconds, iterations = 1.0, None
        if sep:
            seconds, iterations = _budget(first, raw)
            if not path.strip():
                raise ValueError(f"no network file after the budget in {raw!r}: net:1s:FILE.npz")
        elif first.strip() and not first.strip().lower().endswith(".npz"):
            seconds, iterations = _budget(first, raw)  # net:1s, the shipped network
        else:
            path = first
        return BotSpec("net", raw, seconds, iterations, command=path.strip())
    raise ValueError(f"unknown bot {head.strip()!r}; known bots: {', '.join(BOT_NAMES)}")


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build the bot described by ``spec`` (see the module docstring), seeded with ``seed``.

    The bot's ``name`` is the spec's label (``"mcts:1s"``, ``"hard"``). Bots that hold
    resources (external programs) have a ``close()`` method.

    Raises:
        ValueError: a bad spec (see :func:`parse_bot_spec`), or a network file that cannot
            be read.
        OSError: a network file that cannot be opened.
    """
    p = parse_bot_spec(spec)
    if p.kind == "random":
        return RandomBot(seed)
    if p.kind == "greedy":
        from .greedy import GreedyBot

        return GreedyBot(seed)
    if p.kind == "mcts":
        from .mcts import MCTSBot

        return MCTSBot(
            seconds=p.seconds, iterations=p.iterations, playout=p.playout, seed=seed, name=p.label
        )
    if p.kind == "net":
        from .net_bot import NetBot

        return NetBot(
            p.command or None, seconds=p.seconds, iterations=p.iterations, seed=seed, name=p.label
        )
    from .external import ExternalBot

    return ExternalBot(p.command, seed=seed)


def warm_up_spec(spec: str) -> None:
    """Compile in this process (or load from numba's cache) the search kernels the bot of
    ``spec`` runs, for both games. Call it before starting processes that play such bots:
    they then load one complete cache instead of compiling it at the same moment, a race
    numba's cache does not always survive (``ReferenceError: underlying object has
    vanished``). Other kinds need nothing.

    Raises:
        ValueError: ``spec`` is not a bot spec (:func:`parse_bot_spec`).
    """
    kind = parse_bot_spec(spec).kind
    if kind == "mcts":
        from .mcts import warm_up

        warm_up()
    elif kind == "net":
        from .net_bot import warm_up as warm_up_net

        warm_up_net()


__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "PLAYOUTS",
    "Bot",
    "BotSpec",
    "RandomBot",
    "make_bot",
    "parse_bot_spec",
    "warm_up_spec",
]
