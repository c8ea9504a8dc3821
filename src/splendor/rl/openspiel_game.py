"""OpenSpiel games for classic Splendor and Splendor Duel, registered with ``pyspiel``.

Importing this module registers two Python games::

    import random

    import pyspiel
    import splendor.rl.openspiel_game  # registers the games

    game = pyspiel.load_game("python_splendor", {"players": 3})   # classic, 2-4 players
    duel = pyspiel.load_game("python_splendor_duel")              # Splendor Duel
    state = game.new_initial_state()      # the deal: a chance node
    state.apply_action(42)                # deal 42: the engine game of seed 42
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    state.returns()                       # e.g. [-0.5, 1.0, -0.5]

Both are thin adapters over the engine (:mod:`splendor.classic`, :mod:`splendor.duel`):
every decision of the engine is one OpenSpiel action with the engine's fixed action id
(``Action.id``, ``0 <= id < NUM_ACTIONS``), and ``action_to_string`` is the engine notation.

Game properties (see the OpenSpiel section of ``docs/rl.md`` for the reasoning):

- sequential, imperfect information (C16, D22);
- chance ``EXPLICIT_STOCHASTIC`` with one chance node, the first one: it picks the deal,
  uniformly among ``deals`` engine seeds (``seed``, ``seed + 1``, ...,
  ``seed + deals - 1``). Every later chance event (deck draws, Duel bag draws) comes from
  the generator stored inside the engine state (C18, D24), hidden from every player, so
  after the deal the dynamics are deterministic given the (hidden) state. OpenSpiel's
  ``SAMPLED_STOCHASTIC`` mode cannot be used: ``random_sim_test`` with serialization then
  needs ``Game::GetRNGState``, which Python games cannot override.
  ``resample_from_infostate`` uses the engine's ``determinize``: hidden cards redrawn
  uniformly from the unseen ones and a fresh generator, as every bot of the project does;
- utility ``ZERO_SUM``, terminal rewards only: with ``k`` winners among ``n`` players
  (C15 shared victories give ``k > 1``), each winner gets ``+1/k`` and each other player
  ``-1/(n-k)``; a game without a winner (Duel turn cap D25, or the adapter's decision cap)
  and a victory shared by everybody give 0 to all. Two players: win +1, loss -1;
- ``max_game_length`` is the adapter's decision cap (game parameter ``max_decisions``):
  classic Splendor has no turn limit in its rules (C17 only ends a game where nobody can
  act), so a game that reaches that many decisions ends at once with 0 for everybody.

Parameters: ``python_splendor``: ``players`` (2-4, default 2), ``seed`` (first engine seed
of the deals, default 0), ``deals`` (number of chance outcomes, default 65536),
``max_decisions`` (default 2000). ``python_splendor_duel``: ``seed``, ``deals``,
``turn_cap`` (D25, default 400, 0 for none), ``max_decisions`` (default 4000).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from ..colors import DUEL_TOKEN_LETTERS, TOKEN_LETTERS
from ..descriptor import Game
from ..duel.board import cell_name
from ..duel.game import BOT_TURN_CAP
from ..game import games, get_game
from ..views import HiddenCard

CLASSIC_GAME_NAME = "python_splendor"
"""OpenSpiel short name of classic Splendor (2-4 players)."""
DUEL_GAME_NAME = "python_splendor_duel"
"""OpenSpiel short name of Splendor Duel."""

DEFAULT_DUEL_TURN_CAP = BOT_TURN_CAP
"""Deprecated: the default turn cap of ``python_splendor_duel`` is the turn option's
``bot_default`` in the game's descriptor (``splendor.duel.game.BOT_TURN_CAP``, D25)."""
DEFAULT_DEALS = 1 << 16
"""Default number of outcomes of the deal chance node."""
MAX_DEALS = 1 << 20
"""Largest ``deals`` parameter (OpenSpiel enumerates the chance outcomes)."""

SERIAL_FORMAT = "splendor-openspiel-state"
SERIAL_VERSION = 1

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class SpielSide(NamedTuple):
    """What the OpenSpiel adapter needs of one game besides its descriptor: the game's
    ``"openspiel"`` part (:data:`CLASSIC_SIDE`, :data:`DUEL_SIDE`).

    Attributes:
        short_name: OpenSpiel's name of the game (``pyspiel.load_game``).
        long_name: its long name.
        max_decisions: the default decision cap (``max_game_length``).
        text: ``text(state_or_observation) -> str``: the compact text of strings.
        face_up: ``face_up(view) -> (rows, cells)``: the face-up card ids by level (-1 for
            an empty slot) and the board's cells (token colours, -1 for an empty cell;
            empty for a game without a board), which the public history annotates.
    """

    short_name: str
    long_name: str
    max_decisions: int
    text: Callable[[Any], str]
    face_up: Callable[[Any], tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]


def _side(game: Game) -> SpielSide:
    """The ``"openspiel"`` part of ``game``."""
    side: SpielSide = game.part("openspiel")
    return side


def _game_type(game: Game) -> pyspiel.GameType:
    """The :class:`pyspiel.GameType` of ``game``: its parameters are the player count (for a
    game with several), the deals, its turn cap (default: the cap of games between bots,
    D25) and the decision cap."""
    side = _side(game)
    params: dict[str, Any] = {}
    if game.min_players != game.max_players:
        params["players"] = game.default_players
    params.update(seed=0, deals=DEFAULT_DEALS)
    if game.turn_option is not None:
        params[game.turn_option] = game.options[game.turn_option].bot_default
    params["max_decisions"] = side.max_decisions
    return pyspiel.GameType(
        short_name=side.short_name,
        long_name=side.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


def _options(game: Game, turn_cap: int) -> dict[str, int]:
    """The deal's options: the turn cap (0: none) for a game that has one."""
    if game.turn_option is None:
        return {}
    return game.check_options({game.turn_option: turn_cap})


@lru_cache(maxsize=8)
def _deal_outcomes(deals: int) -> list[tuple[int, float]]:
    p = 1.0 / deals
    return [(d, p) for d in range(deals)]


def _int_param(params: dict[str, Any], name: str, lo: int, hi: int) -> int:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
        raise ValueError(f"parameter {name!r} must be an integer in {lo}..{hi}, got {value!r}")
    return int(value)


class _SplendorGameBase(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """What both OpenSpiel games share (use :class:`SplendorGame` or :class:`DuelGame`):
    everything per game comes from its descriptor and its ``"openspiel"`` part.

    Attributes:
        GAME: the name of the game (:func:`splendor.game.get_game`).
        descriptor: its :class:`~splendor.descriptor.Game`.
        kind: its package name (``"classic"``, ``"duel"``), as serialized states hold it.
        engine: its engine package (:mod:`splendor.classic`, :mod:`splendor.duel`).
    """

    GAME = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = get_game(self.GAME)
        gtype = _game_type(game)
        full = dict(gtype.parameter_specification)
        unknown = set(params or {}) - set(full)
        if unknown:
            raise ValueError(
                f"unknown parameter(s) {sorted(unknown)} for {gtype.short_name}; "
                f"known: {sorted(full)}"
            )
        full.update(params or {})
        num_players = (
            _int_param(full, "players", game.min_players, game.max_players)
            if "players" in full
            else game.min_players
        )
        turn_cap = 0
        if game.turn_option is not None:
            option = game.options[game.turn_option]
            turn_cap = _int_param(full, game.turn_option, 0, option.maximum)
        seed = _int_param(full, "seed", 0, 2**31 - 1)
        deals = _int_param(full, "deals", 1, MAX_DEALS)
        max_decisions = _int_param(full, "max_decisions", 1, 2**31 - 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=deals,
            num_players=num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_decisions,
        )
        super().__init__(gtype, info, full)
        self.descriptor: Game = game
        self.kind: str = game.package
        self.engine: ModuleType = game.module
        self.short_name: str = gtype.short_name
        self.max_decisions: int = max_decisions
        self.turn_cap: int = turn_cap
        self.first_seed: int = seed
        self.deals: int = deals
        self._outcomes = _deal_outcomes(deals)

    def new_initial_state(self) -> SplendorState:
        """The chance node before the deal: its outcome ``d`` deals the engine game of seed
        ``seed + d`` (C1-C5, D1-D5)."""
        return SplendorState(self)

    def max_chance_nodes_in_history(self) -> int:
        """1: the deal."""
        return 1

    def new_initial_state_for_seed(self, seed: int) -> SplendorState:
        """A new game dealt from engine seed ``seed`` (``0 <= seed < 2**63``): the same seed
        deals the same game as ``splendor.classic.new_game`` / ``splendor.duel.new_game``
        (C18, D24). When ``seed`` is one of the game's deals, the state is the chance node's
        child (its history holds the chance outcome); otherwise it is dealt outside the
        chance node (empty history).

        Raises:
            ValueError: ``seed`` out of range.
        """
        if isinstance(seed, (int, np.integer)) and 0 <= seed - self.first_seed < self.deals:
            st = self.new_initial_state()
            st.apply_action(int(seed - self.first_seed))
            return st
        game = self.descriptor
        engine = game.new_game(self.num_players(), seed, **_options(game, self.turn_cap))
        return self.state_from_engine(engine)

    def state_from_engine(self, engine_state: Any) -> SplendorState:
        """Wrap a copy of an engine state (a :class:`splendor.classic.State` or
        :class:`splendor.duel.State` of this game) as an OpenSpiel state. Its decision count
        and public history start empty, whatever the engine state's turn.

        Raises:
            TypeError: not an engine state of this game.
            ValueError: the player count differs from the game's.
        """
        if not isinstance(engine_state, self.descriptor.state_type):
            raise TypeError(
                f"{self.short_name} wraps a {self.descriptor.module.__name__}.State, "
                f"got {type(engine_state).__name__}"
            )
        if engine_state.num_players != self.num_players():
            raise ValueError(
                f"the game has {self.num_players()} players, the engine state "
                f"{engine_state.num_players}"
            )
        st = SplendorState(self)
        st._core.set_engine(engine_state.copy())
        return st

    def deserialize_state(self, text: str) -> SplendorState:
        """A state from ``state.serialize()`` text of this game (OpenSpiel's own format:
        history, move number, then the state's attributes as a pickle). The engine
        position inside goes through the game's ``State.from_dict`` gate, and the state
        must be of this very game (name, players, decision cap, turn cap, deals).

        The pickle makes this a loader for trusted text only, as for every OpenSpiel
        Python game: unpickling can run code before any check.

        Raises:
            pyspiel.SpielError: text that is not in OpenSpiel's layout (OpenSpiel's check).
            ValueError: anything else wrong: a damaged pickle, a state of another game, a
                corrupt engine position (the message names the field and the rule).
        """
        try:
            state: SplendorState = super().deserialize_state(text)
            return state
        except (pyspiel.SpielError, ValueError):
            raise
        except Exception as e:  # an unpickling error, or a pickle of something else
            raise ValueError(
                f"not a serialized {self.short_name} state: {type(e).__name__}: {e}"
            ) from None

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
    ) -> SplendorObserver:
        """The observer OpenSpiel uses for observation and information-state strings and
        tensors (see :class:`SplendorObserver`).

        Raises:
            ValueError: parameters were given, or an observation type other than a single
                player's (public plus own private information).
        """
        if isinstance(iig_obs_type, dict):  # called as make_py_observer(params)
            iig_obs_type, params = None, iig_obs_type
        return SplendorObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class SplendorGame(_SplendorGameBase):
    """``python_splendor``: classic Splendor for 2-4 players (C1-C18).

    Args:
        params: ``players`` (2-4, default 2), ``seed`` (``0..2**31-1``, default 0: chance
            outcome ``d`` deals the engine game of seed ``seed + d``), ``deals`` (number of
            chance outcomes, ``1..2**20``, default ``2**16``), ``max_decisions`` (the
            decision cap and ``max_game_length``, default 2000).

    Raises:
        ValueError: an unknown parameter or a value out of range.
    """

    GAME = "splendor"


class DuelGame(_SplendorGameBase):
    """``python_splendor_duel``: Splendor Duel (D1-D25).

    Args:
        params: ``seed`` and ``deals`` (as for :class:`SplendorGame`), ``turn_cap`` (D25:
            the game ends with no winner after this many turns; default 400, 0 for none),
            ``max_decisions`` (the decision cap and ``max_game_length``, default 4000).

    Raises:
        ValueError: an unknown parameter or a value out of range.
    """

    GAME = "duel"


# --------------------------------------------------------------------------- the state


class _Core:
    """Everything a :class:`SplendorState` holds, in the one attribute OpenSpiel copies
    (``clone`` deep-copies the Python attributes) and pickles (``serialize``).

    The public history (one annotated line per decision) is computed lazily: decisions
    applied since the last computation are kept as ids and replayed from ``anchor`` (an
    engine state that is never mutated) when an information-state string is asked for, so
    that rollouts pay only for the engine's own ``apply``.
    """

    __slots__ = (
        "kind",
        "num_players",
        "max_decisions",
        "turn_cap",
        "engine",
        "anchor",
        "log",
        "pending",
        "decisions",
        "cur",
    )

    def __init__(self, kind: str, num_players: int, max_decisions: int, turn_cap: int) -> None:
        self.kind = kind
        self.num_players = num_players
        self.max_decisions = max_decisions
        self.turn_cap = turn_cap
        self.engine: Any = None  # None before the deal (the chance node)
        self.anchor: Any = None
        self.log: tuple[str, ...] = ()
        self.pending: list[int] = []
        self.decisions = 0
        self.cur: int = _CHANCE  # OpenSpiel's current player, kept up to date

    def refresh(self) -> None:
        """Recompute :attr:`cur` after the engine state or the decision count changed."""
        e = self.engine
        if e is None:
            self.cur = _CHANCE
        else:
            p = e.current_player
            self.cur = _TERMINAL if p is None or self.decisions >= self.max_decisions else p

    @property
    def game(self) -> Game:
        """The game's descriptor (from :attr:`kind`, its package name)."""
        return get_game(self.kind)

    def deal(self, seed: int) -> None:
        game = self.game
        self.set_engine(game.new_game(self.num_players, seed, **_options(game, self.turn_cap)))

    def set_engine(self, engine: Any) -> None:
        self.engine = engine
        self.anchor = engine.copy()
        self.log = ()
        self.pending = []
        self.refresh()

    @property
    def capped(self) -> bool:
        return self.decisions >= self.max_decisions

    @property
    def is_terminal(self) -> bool:
        return self.cur == _TERMINAL

    def public_log(self) -> tuple[str, ...]:
        """One line per decision so far, with what every seat saw it do (see
        :func:`_annotate`)."""
        if self.pending:
            st = self.anchor.copy()
            entries = list(self.log)
            for aid in self.pending:
                entries.append(_annotate(self.game, st, aid))
            self.anchor, self.log, self.pending = st, tuple(entries), []
        return self.log

    def resampled(self, engine: Any) -> _Core:
        """A core over ``engine`` (a determinization) that keeps this one's public history
        and decision count."""
        log = self.public_log()
        c = self._shell()
        c.engine = engine
        c.anchor = engine.copy()
        c.log = log
        c.refresh()
        return c

    def _shell(self) -> _Core:
        c = _Core(self.kind, self.num_players, self.max_decisions, self.turn_cap)
        c.decisions = self.decisions
        c.cur = self.cur
        return c

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        c = self._shell()
        c.engine = None if self.engine is None else self.engine.copy()
        c.anchor = self.anchor  # never mutated: replays work on a copy
        c.log = self.log  # immutable tuple
        c.pending = list(self.pending)
        return c

    def to_json(self) -> str:
        """JSON text of the whole core: the engine position (``to_dict``, deck order and
        generator included), the public history and the decision count."""
        log = self.public_log()
        return json.dumps(
            {
                "format": SERIAL_FORMAT,
                "version": SERIAL_VERSION,
                "game": self.kind,
                "num_players": self.num_players,
                "max_decisions": self.max_decisions,
                "turn_cap": self.turn_cap,
                "decisions": self.decisions,
                "log": list(log),
                "state": None if self.engine is None else self.engine.to_dict(),
            },
            separators=(",", ":"),
        )

    def __reduce__(self) -> tuple[Callable[[str], _Core], tuple[str]]:
        return (_core_from_json, (self.to_json(),))


def _core_from_json(text: str) -> _Core:
    """Rebuild a :class:`_Core` from :meth:`_Core.to_json` (used by unpickling, hence by
    ``deserialize_state``). The engine position goes through the game's
    ``State.from_dict``, the gate that checks every field of it (C1-C18, D1-D25).

    Raises:
        ValueError: not such a text (bad JSON, a missing key, a value of the wrong type or
            out of range, a decision count that disagrees with the history), or a corrupt
            engine position (the message names the field and the rule).
    """
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as e:
        raise ValueError(f"not a serialized Splendor OpenSpiel state: {e}") from None
    if not isinstance(data, dict) or data.get("format") != SERIAL_FORMAT:
        raise ValueError(f"not a serialized Splendor OpenSpiel state (format {SERIAL_FORMAT!r})")
    if data.get("version") != SERIAL_VERSION:
        raise ValueError(f"unsupported version {data.get('version')!r}; expected {SERIAL_VERSION}")
    kind = data.get("game")
    known = {g.package: g for g in games()}
    if kind not in known:
        raise ValueError(f"unknown game {kind!r}; expected one of {sorted(known)}")
    game = known[kind]

    def whole(key: str, lo: int, hi: int) -> int:
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(
                f"serialized state field {key!r} must be an integer {lo}..{hi}, got {value!r}"
            )
        return value

    num_players = whole("num_players", 1, 64)
    max_decisions = whole("max_decisions", 1, 2**31 - 1)
    turn_cap = whole("turn_cap", 0, 2**31 - 1)
    decisions = whole("decisions", 0, max_decisions)
    log = data.get("log")
    if not isinstance(log, list) or not all(isinstance(x, str) for x in log):
        raise ValueError("serialized state field 'log' must be a list of strings")
    position = data.get("state", ...)
    if position is not None and not isinstance(position, dict):
        raise ValueError("serialized state field 'state' must be a position object or null")
    core = _Core(kind, num_players, max_decisions, turn_cap)
    if position is not None:
        engine = game.state_type.from_dict(position)
        if engine.num_players != num_players:
            raise ValueError(
                f"the serialized position has {engine.num_players} players, the state {num_players}"
            )
        engine_cap = getattr(engine, "turn_cap", None) or 0  # Duel only (D25)
        if game.turn_option is not None and engine_cap != turn_cap:
            raise ValueError(
                f"the serialized position has turn cap {engine_cap}, the state {turn_cap}"
            )
        core.set_engine(engine)
    elif decisions or log:
        raise ValueError("a serialized state before the deal has no decisions and no history")
    if len(log) != decisions:
        raise ValueError(f"the serialized history has {len(log)} lines for {decisions} decisions")
    core.log = tuple(log)
    core.decisions = decisions
    core.refresh()
    return core


class SplendorState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """One OpenSpiel state of either game, over an engine state.

    Create with ``game.new_initial_state()`` (the deal's chance node) or
    :meth:`SplendorGame.new_initial_state_for_seed`. Actions are the engine's decision ids
    (``0 <= id < NUM_ACTIONS``); at the chance node they are deal numbers. The current
    player is ``pyspiel.PlayerId.CHANCE`` before the deal, then the engine's seat, then
    ``pyspiel.PlayerId.TERMINAL`` once the game is over (C14/C17, D21/D25, or the decision
    cap).
    """

    def __init__(self, game: _SplendorGameBase) -> None:
        super().__init__(game)
        self._core = _Core(game.kind, game.num_players(), game.max_decisions, game.turn_cap)
        self._deal = (game.first_seed, game.deals)

    def __setattr__(self, name: str, value: Any) -> None:
        """Set an attribute; ``deserialize_state`` sets ``_core`` and ``_deal`` this way
        from the serialized text, so they are checked against this state's game first.

        Raises:
            ValueError: a core or deal of another game (another game name, player count,
                decision cap, turn cap or deal range), or not a core at all.
        """
        if name in ("_core", "_deal") and "_deal" in self.__dict__:
            game = self.get_game()
            if name == "_deal" and value != (game.first_seed, game.deals):
                raise ValueError(
                    f"the serialized deal range {value!r} is not this game's "
                    f"{(game.first_seed, game.deals)!r}: deserialize with the game that "
                    "serialized it"
                )
            if name == "_core":
                if not isinstance(value, _Core):
                    raise ValueError(f"a serialized state holds a core, not {type(value).__name__}")
                want = (game.kind, game.num_players(), game.max_decisions, game.turn_cap)
                got = (value.kind, value.num_players, value.max_decisions, value.turn_cap)
                if got != want:
                    raise ValueError(
                        "the serialized state (game, players, max_decisions, turn_cap) = "
                        f"{got!r} is not of this game {want!r}: deserialize with the game "
                        "that serialized it"
                    )
        super().__setattr__(name, value)

    # ----------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        """The seat to decide, ``pyspiel.PlayerId.CHANCE`` before the deal, or
        ``pyspiel.PlayerId.TERMINAL``."""
        return self._core.cur

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At the deal: ``[(d, 1/deals) for d in range(deals)]``; outcome ``d`` deals the
        engine game of seed ``seed + d``."""
        outcomes: list[tuple[int, float]] = self.get_game()._outcomes
        return outcomes

    def _legal_actions(self, player: int) -> list[int]:
        """Legal decision ids of the current player, ascending (OpenSpiel asks only for the
        current player)."""
        return np.flatnonzero(self._core.engine.legal_mask()).tolist()

    def _apply_action(self, action: int) -> None:
        """Apply the deal (chance node) or one decision of the current player (OpenSpiel's
        ``apply_action`` calls this, then records the action in the history).

        Raises:
            pyspiel.SpielError: the game is over or ``action`` is not a legal decision id
                (or deal number) now; the message names the action and lists the legal
                ones, and the state (OpenSpiel history included) is unchanged.
        """
        core = self._core
        a = int(action)
        if core.engine is None:
            first, deals = self._deal
            if not 0 <= a < deals:
                raise pyspiel.SpielError(f"illegal deal {a}: the deal is a number 0..{deals - 1}")
            core.deal(first + a)
            return
        if core.decisions >= core.max_decisions:
            raise pyspiel.SpielError(self._illegal_message(a))
        try:
            core.engine.apply(a)
        except ValueError:  # IllegalActionError (a ValueError) or an id out of range
            raise pyspiel.SpielError(self._illegal_message(a)) from None
        core.pending.append(a)
        core.decisions += 1
        core.refresh()

    def _illegal_message(self, a: int) -> str:
        core = self._core
        game = core.game
        act = game.action_type
        name = str(act.from_id(a)) if 0 <= a < game.num_actions else "no such decision id"
        if core.is_terminal:
            return f"illegal action {a} ({name}): the game is over"
        legal = ", ".join(
            f"{i} ({act.from_id(i)})" for i in np.flatnonzero(core.engine.legal_mask())
        )
        return (
            f"illegal action {a} ({name}) for player {core.engine.current_player} "
            f"(phase: {core.engine.phase}); legal now: {legal}"
        )

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine notation of decision ``action`` (``take W U G``, ``buy 2.3``), or
        ``deal d (seed s)`` for the chance outcome."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action} (seed {self._deal[0] + int(action)})"
        return str(self._core.game.action_type.from_id(int(action)))

    def is_terminal(self) -> bool:
        """True once the engine's game is over or the decision cap is reached."""
        return self._core.is_terminal

    def returns(self) -> list[float]:
        """Per player: 0 until the end; then ``+1/k`` for each of the ``k`` winners (C15,
        D21) and ``-1/(n-k)`` for each other player; 0 for everybody when nobody won (D25
        turn cap, decision cap) or everybody shares the victory. Sums to 0."""
        core = self._core
        n = core.num_players
        e = core.engine
        if e is None or not e.is_terminal:  # in play, or stopped by the decision cap
            return [0.0] * n
        winners = set(e.winners)
        k = len(winners)
        if k == 0 or k == n:
            return [0.0] * n
        return [1.0 / k if p in winners else -1.0 / (n - k) for p in range(n)]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any = None
    ) -> SplendorState:
        """A full state that ``player_id`` cannot tell from this one: the cards that seat
        cannot see (other seats' blind reserves, deck contents and order) are redrawn by the
        engine's ``determinize`` (C16, D22) and the generator is fresh, so future deck and
        bag draws are fresh too. Observation and information-state strings and tensors of
        ``player_id`` are unchanged; the OpenSpiel history and the public history are kept.
        Before the deal, a copy of this state.

        Args:
            player_id: the seat whose information is kept.
            probability_sampler: a callable returning uniform floats in [0, 1) (OpenSpiel's
                ``pyspiel.UniformProbabilitySampler``); two draws seed the resampling.
                ``None``: fresh entropy.

        Raises:
            ValueError: ``player_id`` is not a seat of this game.
        """
        core = self._core
        if not 0 <= int(player_id) < core.num_players:
            raise ValueError(f"player_id must be 0..{core.num_players - 1}, got {player_id!r}")
        if core.engine is None:
            cloned: SplendorState = self.clone()
            return cloned
        if probability_sampler is None:
            rng = np.random.default_rng()
        else:
            rng = np.random.default_rng(
                [int(float(probability_sampler()) * 2**32) for _ in range(2)]
            )
        engine = core.game.determinize(core.engine.observation(int(player_id)), rng)
        out: SplendorState = self.clone()
        out._core = core.resampled(engine)
        return out

    def __str__(self) -> str:
        """The whole state, hidden information included (every reserved card; a digest of
        deck order and generator): for debugging, never for a player."""
        core = self._core
        e = core.engine
        side = _side(core.game)
        head = f"{side.short_name} full state | decisions {core.decisions}/{core.max_decisions}"
        if e is None:
            return head + f"\nbefore the deal (chance node: one of {self._deal[1]} deals)"
        if core.capped and not e.is_terminal:
            head += " | ended by the decision cap"
        digest = hashlib.blake2b(e.array.tobytes(), digest_size=8).hexdigest()
        body = side.text(e)
        return f"{head}\n{body}\nhidden: deck order and generator digest {digest}"

    # ------------------------------------------------------------ beyond OpenSpiel

    @property
    def decisions(self) -> int:
        """Decisions applied through this adapter (the quantity the decision cap bounds;
        the deal is not counted)."""
        return self._core.decisions

    @property
    def capped(self) -> bool:
        """True when the game ended because the decision cap was reached."""
        core = self._core
        return core.capped and core.engine is not None and not core.engine.is_terminal

    def engine_state(self) -> Any:
        """A copy of the engine state (hidden information included: for hosts only).

        Raises:
            ValueError: before the deal.
        """
        return self._dealt().copy()

    def engine_observation(self, seat: int) -> Any:
        """The engine :class:`Observation` of ``seat`` (what the bots of
        :mod:`splendor.bots` take, C16/D22).

        Raises:
            ValueError: before the deal, or ``seat`` is not a seat of this game.
        """
        return self._dealt().observation(seat)

    def _dealt(self) -> Any:
        e = self._core.engine
        if e is None:
            raise ValueError("the cards are not dealt yet: apply a chance outcome first")
        return e

    def public_history(self) -> tuple[str, ...]:
        """One line per decision so far, as every seat saw it (see :func:`_annotate`)."""
        return self._core.public_log()

    def observation_text(self, player: int) -> str:
        """The observation string of ``player``: what it sees now (C16/D22).

        Raises:
            ValueError: ``player`` is not a seat of this game.
        """
        core = self._core
        if not 0 <= player < core.num_players:
            raise ValueError(f"player must be 0..{core.num_players - 1}, got {player!r}")
        side = _side(core.game)
        head = f"{side.short_name} seat {player} | decisions {core.decisions}/{core.max_decisions}"
        if core.engine is None:
            return head + "\nbefore the deal"
        if self.capped:
            head += " | ended by the decision cap"
        obs = core.engine.observation(player)
        body = side.text(obs)
        return f"{head}\n{body}"

    def information_state_text(self, player: int) -> str:
        """The information-state string of ``player``: its observation string, then the
        public history (every decision in notation, with the cards and tokens it showed).

        Raises:
            ValueError: ``player`` is not a seat of this game.
        """
        text = self.observation_text(player)
        log = self._core.public_log()
        return text + f"\nhistory ({len(log)}): " + "; ".join(log)


# --------------------------------------------------------------------------- observer


class SplendorObserver:
    """OpenSpiel's Python observer (``make_py_observer``) for both games.

    Attributes:
        tensor: float32 array of shape ``(encoding.observation_size(game, num_players),)``,
            filled by :meth:`set_from` with ``splendor.rl.encoding.observation_tensor`` of the
            player's engine observation (seat-relative, no hidden information; see
            ``encoding.layout``). The information-state tensor is the same vector: it is a
            function of the information state, not a perfect-recall record of it (the
            information-state *string* is).
        dict: ``{"observation": tensor}``.

    Raises:
        ValueError: observation parameters, or an observation type other than one player's
            public plus private information (``PrivateInfoType.SINGLE_PLAYER`` with public
            information).
    """

    def __init__(
        self,
        game: _SplendorGameBase,
        iig_obs_type: pyspiel.IIGObservationType,
        params: dict[str, Any] | None,
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "only the single-player observation (public information plus the player's "
                f"own private information) is supported; got {iig_obs_type}"
            )
        from . import encoding

        self._encoding = encoding
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = int(encoding.observation_size(game.descriptor, game.num_players()))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SplendorState, player: int) -> None:
        """Fill :attr:`tensor` from ``player``'s observation of ``state`` (zeros before the
        deal)."""
        engine = state._core.engine
        if engine is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self._encoding.observation_tensor(engine.observation(player))

    def string_from(self, state: SplendorState, player: int) -> str:
        """The observation string, or the information-state string for a perfect-recall
        observer."""
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.observation_text(player)


# --------------------------------------------------------------------------- text


def _tokens(values: Sequence[int], letters: str) -> str:
    return " ".join(f"{letters[i]}{v}" for i, v in enumerate(values))


def _card(c: Any) -> str:
    if c is None:
        return "-"
    if isinstance(c, HiddenCard):
        return f"L{c.level}?"
    return f"#{c.id}"


def _reserved(pv: Any) -> str:
    return " ".join(
        _card(c) + ("b" if blind else "")
        for c, blind in zip(pv.reserved, pv.reserved_blind, strict=True)
    )


def _cards_row(level: int, cards: Sequence[Any], deck: int) -> str:
    return f"L{level} " + " ".join(_card(c) for c in cards) + f" | deck {deck}"


def _token(color: int) -> str:
    return "." if color is None or color < 0 else DUEL_TOKEN_LETTERS[color]


def _status(v: Any) -> str:
    cp = v.current_player
    out = f"turn {v.turn} | to play: {'-' if cp is None else cp} ({v.phase})"
    if v.end_reason:
        out += f" | ended: {v.end_reason}, winners {v.winners}"
    return out


def _classic_text(v: Any) -> str:
    """Compact text of a classic state or observation (cards as ``#id``, a hidden blind
    reserve as ``L2?``, a blind reserve marked ``b``)."""
    lines = [_status(v) + (" | final round" if v.final_round else "")]
    lines.append("supply " + _tokens(v.supply, TOKEN_LETTERS))
    lines.append("nobles " + " ".join(f"n{n.id}" if n is not None else "-" for n in v.nobles))
    for lvl in (3, 2, 1):
        lines.append(_cards_row(lvl, v.faceup[lvl - 1], v.deck_sizes[lvl - 1]))
    pay = v.payment
    if pay is not None:
        lines.append(f"paying #{pay[0].id} owes {_tokens(pay[1], TOKEN_LETTERS[:5])} gold {pay[2]}")
    for pv in v.players:
        bought = " ".join(_card(c) for c in pv.purchased)
        nobles = " ".join(f"n{n.id}" for n in pv.nobles)
        lines.append(
            f"p{pv.seat}: {pv.points}pt | tokens {_tokens(pv.tokens, TOKEN_LETTERS)} | bonus "
            f"{_tokens(pv.bonuses, TOKEN_LETTERS[:5])} | reserved [{_reserved(pv)}] | bought "
            f"[{bought}] | nobles [{nobles}]"
        )
    return "\n".join(lines)


def _duel_text(v: Any) -> str:
    """Compact text of a Duel state or observation (board rows top to bottom, ``.`` for an
    empty cell; bought cards as ``#id:colour``)."""
    cap = f"/{v.turn_cap}" if v.turn_cap else ""
    head = _status(v).replace(f"turn {v.turn}", f"turn {v.turn}{cap}", 1)
    if v.extra_turn:
        head += " | extra turn"
    if v.replenished:
        head += " | replenished"
    lines = [head]
    board = "".join(_token(c) for c in v.board)
    lines.append("board " + "/".join(board[r * 5 : r * 5 + 5] for r in range(5)))
    lines.append(
        f"bag {_tokens(v.bag, DUEL_TOKEN_LETTERS)} | privileges beside the board "
        f"{v.free_privileges}"
    )
    lines.append(
        "royals " + " ".join(f"r{k + 1}" if r is not None else "-" for k, r in enumerate(v.royals))
    )
    for lvl in (3, 2, 1):
        lines.append(_cards_row(lvl, v.pyramid[lvl - 1], v.deck_sizes[lvl - 1]))
    if v.pending_card is not None:
        lines.append(f"resolving #{v.pending_card.id}")
    pay = v.payment
    if pay is not None:
        lines.append(
            f"paying #{pay[0].id} owes {_tokens(pay[1], DUEL_TOKEN_LETTERS[:6])} gold {pay[2]}"
        )
    for pv in v.players:
        bought = " ".join(
            f"#{c.id}:{_token(col) if col >= 0 else '-'}"
            for c, col in zip(pv.purchased, pv.purchased_colors, strict=True)
        )
        royals = " ".join(f"r{r.id + 1}" for r in pv.royals)
        gems = DUEL_TOKEN_LETTERS[:5]
        lines.append(
            f"p{pv.seat}: {pv.points}pt {pv.crowns}cr {pv.privileges}priv | tokens "
            f"{_tokens(pv.tokens, DUEL_TOKEN_LETTERS)} | bonus {_tokens(pv.bonuses, gems)} | "
            f"colour points {_tokens(pv.color_points, gems)} | reserved [{_reserved(pv)}] | "
            f"bought [{bought}] | royals [{royals}]"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- history


def _classic_face_up(v: Any) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Classic Splendor's face-up card ids by level (C4); no board."""
    return tuple(tuple(-1 if c is None else c.id for c in row) for row in v.faceup), ()


def _duel_face_up(v: Any) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Splendor Duel's pyramid ids by level (D3) and board cells (D2)."""
    rows = tuple(tuple(-1 if c is None else c.id for c in row) for row in v.pyramid)
    return rows, tuple(-1 if c is None else c for c in v.board)


def _public_snapshot(
    game: Game, st: Any
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], frozenset[tuple[int, int]]]:
    """What every seat sees of the places a decision can reveal something in: face-up
    cards, the board (a game with one), and who bought which card."""
    bought = frozenset((pv.seat, c.id) for pv in st.players for c in pv.purchased)
    rows, board = _side(game).face_up(st)
    return rows, board, bought


def _annotate(game: Game, st: Any, action_id: int) -> str:
    """Apply ``action_id`` to the full state ``st`` and return its public history line:
    ``seat:notation``, then what it showed every seat: face-up slots that changed
    (``1.2:#17>#40``, ``-`` for empty), Duel board cells that changed (``c3:G>.``; a
    replenish lists the cells it filled) and cards newly bought (``+#17``, which reveals
    a blind-reserved card as it is bought). A blind reserve shows nothing more than its
    notation (``reserve d2``)."""
    seat = st.current_player
    before = _public_snapshot(game, st)
    st.apply(action_id)
    after = _public_snapshot(game, st)
    parts = [f"{seat}:{game.action_type.from_id(action_id)}"]
    for level, (row_a, row_b) in enumerate(zip(before[0], after[0], strict=True)):
        for k, (a, b) in enumerate(zip(row_a, row_b, strict=True)):
            if a != b:
                was, now = "-" if a < 0 else f"#{a}", "-" if b < 0 else f"#{b}"
                parts.append(f"{level + 1}.{k + 1}:{was}>{now}")
    for i, (a, b) in enumerate(zip(before[1], after[1], strict=True)):
        if a != b:
            parts.append(f"{cell_name(i)}:{_token(a)}>{_token(b)}")
    for _seat, cid in sorted(after[2] - before[2]):
        parts.append(f"+#{cid}")
    return " ".join(parts)


# --------------------------------------------------------------------------- bots


class DeterminizingBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel has no type information
    """Plays a perfect-information OpenSpiel bot (such as
    ``open_spiel.python.algorithms.mcts.MCTSBot``) fairly in these imperfect-information
    games: each decision is searched on a determinization
    (:meth:`SplendorState.resample_from_infostate`) of the real state, so the bot never
    reads hidden cards or the generator (C16, D22).

    Args:
        bot: the wrapped bot (``step(state) -> action``).
        seed: seed of the determinizations.
    """

    def __init__(self, bot: Any, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self._bot = bot
        self._rng = np.random.default_rng(seed)

    def _sample(self, state: SplendorState) -> SplendorState:
        return state.resample_from_infostate(state.current_player(), self._rng.random)

    def step(self, state: SplendorState) -> int:
        """The wrapped bot's decision on a determinization of ``state``."""
        return int(self._bot.step(self._sample(state)))

    def step_with_policy(self, state: SplendorState) -> tuple[list[tuple[int, float]], int]:
        """The wrapped bot's policy and decision on a determinization of ``state``."""
        result: tuple[list[tuple[int, float]], int] = self._bot.step_with_policy(
            self._sample(state)
        )
        return result

    def restart_at(self, state: SplendorState) -> None:
        if hasattr(self._bot, "restart_at"):
            self._bot.restart_at(state)

    def inform_action(self, state: SplendorState, player_id: int, action: int) -> None:
        if hasattr(self._bot, "inform_action"):
            self._bot.inform_action(state, player_id, action)


# --------------------------------------------------------------------------- registry


CLASSIC_SIDE = SpielSide(
    CLASSIC_GAME_NAME, "Python Splendor", 2000, _classic_text, _classic_face_up
)
"""Classic Splendor's ``"openspiel"`` part."""
DUEL_SIDE = SpielSide(DUEL_GAME_NAME, "Python Splendor Duel", 4000, _duel_text, _duel_face_up)
"""Splendor Duel's ``"openspiel"`` part."""

DEFAULT_MAX_DECISIONS = {g.package: _side(g).max_decisions for g in games()}
"""Default decision cap per game, by package name (the adapter's ``max_game_length``).
Uniformly random games take about 100 (classic, 2 players) to 250 (classic, 4 players;
Duel) decisions."""
CLASSIC_GAME_TYPE = _game_type(get_game(SplendorGame.GAME))
"""The :class:`pyspiel.GameType` of ``python_splendor``."""
DUEL_GAME_TYPE = _game_type(get_game(DuelGame.GAME))
"""The :class:`pyspiel.GameType` of ``python_splendor_duel``."""


def _register() -> None:
    names = set(pyspiel.registered_names())
    if CLASSIC_GAME_NAME not in names:
        pyspiel.register_game(CLASSIC_GAME_TYPE, SplendorGame)
    if DUEL_GAME_NAME not in names:
        pyspiel.register_game(DUEL_GAME_TYPE, DuelGame)


_register()


__all__ = [
    "CLASSIC_GAME_NAME",
    "CLASSIC_GAME_TYPE",
    "DEFAULT_DUEL_TURN_CAP",
    "DEFAULT_MAX_DECISIONS",
    "DUEL_GAME_NAME",
    "DUEL_GAME_TYPE",
    "CLASSIC_SIDE",
    "DUEL_SIDE",
    "DeterminizingBot",
    "DuelGame",
    "SplendorGame",
    "SplendorObserver",
    "SplendorState",
    "SpielSide",
]
