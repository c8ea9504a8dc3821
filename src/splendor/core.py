"""Pieces both game engines share: errors, the hidden-card marker, the compiled generator,
the position (de)serialisation of a state array, the Python views over a state array
(:class:`ArrayState`, :class:`ArrayObservation`, over a per-game :class:`GameTables`), and
the compiled pieces of the rules that both games play alike (decks, reserved slots, chosen
payments, random playouts, determinization).

Nothing here is particular to one game; :mod:`splendor.classic` and :mod:`splendor.duel`
build on it (each game's ``rules.py`` calls the compiled pieces with its own tables).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, Self, TypeVar

import numpy as np
from numba import config, njit


class IllegalActionError(ValueError):
    """An action that is well formed but not legal in this state; the state is unchanged."""


@dataclass(frozen=True)
class HiddenCard:
    """A blind-reserved card seen from another seat: only its level is known (C16, D22)."""

    level: int

    def __str__(self) -> str:
        return f"L{self.level} (hidden)"


MAX_SEED = 1 << 63
"""Seeds are integers ``0 <= seed < MAX_SEED``."""


def check_seed(seed: Any) -> int:
    """Return ``seed`` as an int, drawing one when it is None.

    Raises:
        ValueError: not an integer ``0 <= seed < 2**63``.
    """
    if seed is None:
        return secrets.randbelow(1 << 62)
    if (
        not isinstance(seed, (int, np.integer))
        or isinstance(seed, bool)
        or not 0 <= seed < MAX_SEED
    ):
        raise ValueError(f"seed must be an integer 0 <= seed < 2**63, got {seed!r}")
    return int(seed)


# --------------------------------------------------------------------------- compiled


if config.DISABLE_JIT:  # type: ignore[attr-defined]  # numba.config sets its options at import

    def state_record(arr: np.ndarray) -> np.record:
        """The game record of ``arr`` with attribute access (``s.tokens``): plain Python
        (``NUMBA_DISABLE_JIT=1``) needs an ``np.record``, since ``arr[0]`` is a
        ``numpy.void`` without attribute access."""
        return arr.view(np.recarray)[0]

else:

    @njit(cache=True, inline="always")
    def state_record(arr: np.ndarray) -> np.record:
        """The game record of ``arr`` (a reference: writes go to ``arr``)."""
        return arr[0]


_PACKAGE = Path(__file__).parent
ENGINE_SOURCES: tuple[str, ...] = tuple(
    str(_PACKAGE / name) for name in ("core.py", "colors.py", "classic", "duel", "data")
)
"""The files and folders whose content the compiled engine depends on (rules, tables,
card data); see :func:`refresh_numba_cache`."""


def refresh_numba_cache(module_file: str, *dependencies: str) -> None:
    """Drop a module's numba cache when compiled code it calls has changed.

    numba's on-disk cache (``cache=True``) keys each function on its own source file only,
    so a compiled function that calls compiled functions of *other* files would keep a
    stale machine-code copy after those files change. Call this at the top of such a
    module, before any of its functions runs, with the files or folders (their .py, .csv and
    .md files) it depends on: when their content (and the module's own) differs from the
    last run, the module's cache files in
    ``__pycache__`` are deleted so numba recompiles them. Errors (read-only installs) are
    ignored; the cost is one hash of the listed files per import.
    """
    src = Path(module_file)
    cache_dir = src.parent / "__pycache__"
    digest = hashlib.sha256()
    try:
        for name in (module_file, *dependencies):
            path = Path(name)
            files = (
                sorted(f for f in path.iterdir() if f.suffix in (".py", ".csv", ".md"))
                if path.is_dir()
                else [path]
            )
            for f in files:
                digest.update(f.read_bytes())
        stamp = cache_dir / f"{src.stem}.deps-{digest.hexdigest()[:16]}"
        if stamp.exists():
            return
        cache_dir.mkdir(exist_ok=True)
        for old in cache_dir.glob(f"{src.stem}.*.nb[ic]"):
            old.unlink(missing_ok=True)
        for old in cache_dir.glob(f"{src.stem}.deps-*"):
            old.unlink(missing_ok=True)
        stamp.touch()
    except OSError:
        pass


@njit(cache=True)
def rng_next(rng: np.ndarray) -> np.uint64:
    """splitmix64: advance ``rng`` (uint64, shape (1,)) and return the next 64-bit value."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def rng_below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` from ``rng`` (Lemire's multiply-shift, n < 2**32)."""
    x = rng_next(rng) >> np.uint64(32)
    return int((x * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def seed_rng(rng: np.ndarray, seed: int) -> None:
    """Set ``rng`` from an integer seed (any int64), mixing it once."""
    rng[0] = np.uint64(seed & 0x7FFFFFFFFFFFFFFF) ^ np.uint64(0x5851F42D4C957F2D)
    rng_next(rng)


# Inlined (numba IR) where it is called: the callers run as fast as with the loop written
# out in them.
@njit(cache=True, inline="always")
def shuffle(a: np.ndarray, n: int, rng: np.ndarray) -> None:
    """Shuffle ``a[:n]`` in place, uniformly (Fisher-Yates, from the last element down,
    one :func:`rng_below` draw per element after the first); ``a[n:]`` is untouched."""
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


# --------------------------------------------------------------------------- positions


def array_to_dict(a: np.ndarray, fmt: str, version: int) -> dict[str, Any]:
    """Serialize a state array (shape (1,), a record dtype) to a JSON-able dict: one key
    per field (nested lists of ints), ``rng`` as decimal strings, plus ``format`` and
    ``version``."""
    s = a[0]
    out: dict[str, Any] = {"format": fmt, "version": version}
    for name in a.dtype.names or ():
        v = s[name]
        out[name] = v.tolist() if isinstance(v, np.ndarray) else int(v)
    out["rng"] = [str(int(x)) for x in s["rng"]]  # uint64 as decimal strings (JSON-safe)
    return out


def array_from_dict(
    data: Any, dtype: np.dtype, fmt: str, version: int, game_label: str
) -> np.ndarray:
    """Parse :func:`array_to_dict` output back into a state array of ``dtype``.

    Raises:
        ValueError: not a dict, wrong format/version, missing or malformed field (the
            message names the field).
    """
    if not isinstance(data, dict):
        raise ValueError("a position must be a JSON object")
    if data.get("format") != fmt:
        raise ValueError(f"not a {game_label} position: format must be {fmt!r}")
    if data.get("version") != version:
        raise ValueError(
            f"unsupported position version {data.get('version')!r}; this build reads {version}"
        )
    a = np.zeros(1, dtype=dtype)
    s = a[0]
    for name in dtype.names or ():
        if name not in data:
            raise ValueError(f"position is missing field {name!r}")
        shape = dtype[name].shape
        try:
            if name == "rng":
                value = np.array([int(x) for x in data[name]], dtype=np.uint64)
            else:
                value = np.array(data[name], dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"position field {name!r} must hold integers") from None
        if value.shape != shape:
            raise ValueError(f"position field {name!r} must have shape {shape}, got {value.shape}")
        info = np.iinfo(dtype[name].base)
        if value.size and (value.min() < info.min or value.max() > info.max):
            raise ValueError(f"position field {name!r} is out of range")
        s[name] = value
    return a


def _integer_problem(value: Any, decimal_text: bool) -> str | None:
    """What is wrong with one parsed JSON value that must be an integer or a nested list
    of integers, or None when it is sound."""
    if isinstance(value, list):
        for item in value:
            bad = _integer_problem(item, decimal_text)
            if bad is not None:
                return bad
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str) if decimal_text else int):
        return f"{value!r} is not an integer"
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
        return f"{value!r} is not a decimal number"
    return None


def check_integer_fields(
    data: dict[str, Any], dtype: np.dtype, text_fields: tuple[str, ...] = ("rng",)
) -> None:
    """Refuse a position dict whose fields hold anything but integers written as integers.

    :func:`array_from_dict` converts with numpy, which would quietly read ``1.5`` as 1,
    ``true`` as 1 and ``"7"`` as 7; a position gate calls this as well so that such values
    are refused instead. Each field of ``dtype`` present in ``data`` must be an ``int``
    (never a ``bool``) or nested lists of them; the fields named in ``text_fields`` may also
    hold decimal digit strings (how :func:`array_to_dict` writes the uint64 generator).

    Raises:
        ValueError: names the first field holding something else, and the value.
    """
    for name in dtype.names or ():
        if name in data:
            bad = _integer_problem(data[name], name in text_fields)
            if bad is not None:
                raise ValueError(f"position field {name!r} must hold integers: {bad}")


def range_problems(
    name: str,
    values: Any,
    lo: Any,
    hi: Any,
    what: str,
    rule: str,
    *,
    also: tuple[int, ...] = (),
    start: int = 0,
    limit: int = 3,
) -> list[str]:
    """Messages for the elements of a position field outside their allowed range.

    Each message names the element, its value, what is allowed and the rule, as in
    ``"nobles[2]=12: a noble id is 0..9 or -1 (C3)"`` (for ``what="a noble id is"``,
    ``lo=0, hi=9, also=(-1,), rule="C3"``).

    Args:
        name: the field's name in the position dict.
        values: an integer scalar or array (any shape) holding the field or a part of it.
        lo, hi: the inclusive allowed range: ints, or integer arrays that broadcast to the
            shape of ``values`` (one range per element); where ``lo > hi`` only ``also``
            is allowed.
        what: the words before the allowed values, e.g. ``"a noble id is"``.
        rule: the rule id(s) that fix the range, e.g. ``"C3"``.
        also: single values allowed besides the range (sentinels such as -1).
        start: index of ``values``'s first element along its first axis within the field
            (when a slice is checked, so that messages give the field's own index).
        limit: at most this many elements are named; further ones are counted in one
            last message.

    Returns:
        The messages, empty when every element is allowed (the common case is fast).
    """
    if np.ndim(values) == 0 and np.ndim(lo) == 0 and np.ndim(hi) == 0:
        v = int(values)
        if int(lo) <= v <= int(hi) or v in also:
            return []
        bad: list[tuple[int, ...]] = [()]
        arr = np.asarray(v, dtype=np.int64)
    else:
        arr = np.asarray(values, dtype=np.int64)
        ok = (arr >= lo) & (arr <= hi)
        for v in also:
            ok |= arr == v
        if ok.all():
            return []
        bad = [tuple(int(i) for i in idx) for idx in np.argwhere(~ok)]
    los = np.broadcast_to(np.asarray(lo, dtype=np.int64), arr.shape)
    his = np.broadcast_to(np.asarray(hi, dtype=np.int64), arr.shape)
    extra = " or ".join(str(v) for v in also)
    out = []
    for idx in bad[:limit]:
        value, low, high = int(arr[idx]), int(los[idx]), int(his[idx])
        allowed = str(low) if low == high else (f"{low}..{high}" if low < high else "")
        allowed = f"{allowed} or {extra}" if allowed and extra else (allowed or extra)
        where = "".join(f"[{i}]" for i in ((idx[0] + start,) + idx[1:] if idx else ()))
        out.append(f"{name}{where}={value}: {what} {allowed} ({rule})")
    if len(bad) > limit:
        out.append(f"{name}: {len(bad) - limit} more values out of range ({rule})")
    return out


class ArrayPosition:
    """Mixin for a game ``State`` held in one structured array ``self._a``.

    Gives both engines the same JSON form, equality and hashing; the subclass supplies
    ``to_dict`` and ``from_dict`` (which validate the position and raise ``ValueError``).
    Two positions are equal when they are the same class and their arrays are byte-equal.
    """

    _a: np.ndarray

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - supplied by the subclass
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Any:  # pragma: no cover - supplied by the subclass
        raise NotImplementedError

    def to_json(self) -> str:
        """:meth:`to_dict` as a compact JSON string."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Any:
        """Load :meth:`to_json` output. Raises ValueError on bad JSON or a bad position."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"position is not valid JSON: {e}") from None
        return cls.from_dict(data)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._a.tobytes() == other._a.tobytes()

    def __hash__(self) -> int:
        return hash(self._a.tobytes())


# --------------------------------------------------------------------------- views
# The Python layer over a state array that both games share: one table per game
# (:class:`GameTables`, in each game's ``state.py``) parameterises it.


class GameAction(Protocol):
    """What the shared views need of a game's ``Action`` class: a fixed integer id, and
    the two ways to build one."""

    @property
    def id(self) -> int:
        """The fixed integer id, ``0 <= id < NUM_ACTIONS``."""
        ...

    @classmethod
    def from_id(cls, i: int) -> Self:
        """The action with id ``i`` (ValueError when out of range)."""
        ...

    @classmethod
    def parse(cls, text: str) -> Self:
        """The action written ``text`` in notation (ValueError when malformed)."""
        ...


ActionT = TypeVar("ActionT", bound=GameAction)
CardT = TypeVar("CardT")
ObservationT = TypeVar("ObservationT", bound="ArrayObservation[Any, Any]")


def coerce_action(action: Any, action_type: type[ActionT]) -> ActionT:
    """Coerce an ``action_type`` instance, an id or a notation string to an
    ``action_type`` instance (each game's ``to_action``).

    Raises:
        ValueError: a malformed string, an id out of range or anything else.
    """
    if isinstance(action, action_type):
        return action
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return action_type.from_id(int(action))
    if isinstance(action, str):
        return action_type.parse(action)
    raise ValueError(f"an action must be an Action, an id or a string, got {action!r}")


@dataclass(frozen=True, slots=True)
class GameTables(Generic[ActionT, CardT]):
    """One game's facts that the shared views (:class:`ArrayView`, :class:`ArrayState`,
    :class:`ArrayObservation`) read; each game's ``state.py`` declares one.

    Attributes:
        name: the game's package, ``"classic"`` or ``"duel"`` (in reprs).
        state_dtype: the record dtype of a state array (``STATE_DTYPE``).
        position_format, position_version: the position format of :meth:`ArrayState.to_dict`.
        game_label: the game's name in messages (``"classic Splendor"``).
        phase_names: the name of each decision phase (``rules.PH_*``).
        end_names: the name of each reason a game ends (``rules.END_*``).
        ph_pay, ph_over: the phases of a chosen payment and of a finished game.
        cards: the development cards by id.
        action_type: the game's ``Action`` class.
        actions: every action, by id (``ACTIONS``).
        num_actions: how many there are (``NUM_ACTIONS``).
        first_reserved_src: the first source id of a reserved slot (``pay_src``).
        legal_mask, apply, determinize_into: the compiled kernels of ``rules.py``.
        gate: the position gate: every problem of a state array, ``[]`` when it is sound.
        notation: the module of the game's position notation (imported when first used,
            since it imports the game's state).
        seats_text: how an error words the seats, ``"0..{n-1}"`` when None.
        legal_shown: at most this many legal decisions listed after an illegal one (all
            when None).
        repr_players: whether a state's repr gives the number of players.
        state_label: how the State class is named in an error.
    """

    name: str
    state_dtype: np.dtype
    position_format: str
    position_version: int
    game_label: str
    phase_names: Mapping[int, str]
    end_names: Mapping[int, str]
    ph_pay: int
    ph_over: int
    cards: tuple[CardT, ...]
    action_type: type[ActionT]
    actions: tuple[ActionT, ...]
    num_actions: int
    first_reserved_src: int
    legal_mask: Callable[[np.ndarray, np.ndarray], int]
    apply: Callable[[np.ndarray, int], int]
    determinize_into: Callable[[np.ndarray, np.ndarray, np.ndarray], int]
    gate: Callable[[np.ndarray], list[str]]
    notation: str
    seats_text: str | None = None
    legal_shown: int | None = None
    repr_players: bool = False
    state_label: str = "State"


class ArrayView(Generic[ActionT, CardT]):
    """Read-only accessors over a game's state array ``self._a`` (shape (1,), the game's
    ``STATE_DTYPE``) that each game's ``State`` and ``Observation`` share; each game's
    view class sets ``_game`` (its :class:`GameTables`) and adds its own accessors and
    ``num_players``."""

    __slots__ = ("_a",)
    _a: np.ndarray
    _game: GameTables[ActionT, CardT]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give the view class that sets ``_game`` (each game's) its own
        :meth:`legal_mask` and :meth:`legal_actions` (:func:`hot_methods`)."""
        super().__init_subclass__(**kwargs)
        game = cls.__dict__.get("_game")
        if game is not None:
            readonly = issubclass(cls, ArrayObservation)  # an observation's array is read-only
            _install(cls, hot_methods(game, readonly), ("legal_mask", "legal_actions"))

    @property
    def array(self) -> np.ndarray:
        """A copy of the underlying structured array (shape (1,), the game's
        ``STATE_DTYPE``)."""
        return self._a.copy()

    @property
    def num_players(self) -> int:  # pragma: no cover - supplied by the game
        """Seats in the game."""
        raise NotImplementedError

    @property
    def winners(self) -> list[int]:  # pragma: no cover - supplied by the game
        """Winning seats (C15, D21); ``[]`` before the end."""
        raise NotImplementedError

    @property
    def current_player(self) -> int | None:
        """Seat that owes the next decision, or ``None`` once the game is over."""
        c = int(self._a[0]["current"])
        return None if c < 0 else c

    @property
    def phase(self) -> str:
        """The decision owed, by name (the game's ``PHASE_NAMES``): ``main``,
        ``payment``, ``return tokens`` or ``game over``, and classic's ``choose noble``,
        Duel's ``reserve``, ``joker``, ``token``, ``steal`` and ``royal``."""
        return self._game.phase_names[int(self._a[0]["phase"])]

    @property
    def is_terminal(self) -> bool:
        """True once the game is over."""
        return int(self._a[0]["phase"]) == self._game.ph_over

    @property
    def turn(self) -> int:
        """Number of completed turns (all seats together; in Duel, the extra turns of
        D13 included)."""
        return int(self._a[0]["turn"])

    @property
    def end_reason(self) -> str | None:
        """Why the game ended, or ``None`` while it goes on: ``"points"`` (C14, D21),
        classic's ``"stall"`` (C17), Duel's ``"crowns"``, ``"colour"`` (D21) and
        ``"turn cap"`` (D25)."""
        return self._game.end_names.get(int(self._a[0]["end_reason"]))

    @property
    def scores(self) -> list[int]:
        """Prestige points per seat (cards, and nobles or royal cards)."""
        return [int(x) for x in self._a[0]["points"][: self.num_players]]

    @property
    def deck_sizes(self) -> tuple[int, int, int]:
        """Cards left in the level 1, 2, 3 decks."""
        d = self._a[0]["deck_len"]
        return (int(d[0]), int(d[1]), int(d[2]))

    @property
    def payment(self) -> tuple[CardT, tuple[int, ...], int] | None:
        """During a chosen payment (C9, D10): the card, the tokens still owed (classic:
        5, W U G R K; Duel: 6, pearls too) and the gold committed; else ``None``."""
        s = self._a[0]
        if int(s["phase"]) != self._game.ph_pay:
            return None
        card = self._game.cards[int(s["pay_card"])]
        return card, tuple(int(x) for x in s["pay_need"]), int(s["pay_gold"])

    def legal_mask(self) -> np.ndarray:  # pragma: no cover - each game's: hot_methods
        """Legal decisions of the current player: bool array of shape ``(NUM_ACTIONS,)``."""
        raise NotImplementedError

    def legal_actions(self) -> list[ActionT]:  # pragma: no cover - each game's: hot_methods
        """Legal decisions of the current player, in id order (``[]`` once over)."""
        raise NotImplementedError

    def _check_seat(self, seat: int) -> int:
        """Raise ValueError unless ``seat`` is a seat of this game; return the number of
        seats."""
        n = self.num_players
        if seat not in range(n):
            raise ValueError(f"seat must be {self._game.seats_text or f'0..{n - 1}'}, got {seat}")
        return n

    def _reserved(self, seat: int) -> tuple[tuple[CardT | HiddenCard, ...], tuple[bool, ...]]:
        """``seat``'s reserved cards in slot order (a :class:`HiddenCard` for a blind
        reserve the observer cannot see) and, per slot, whether it was reserved blind."""
        s = self._a[0]
        cards = self._game.cards
        reserved: list[CardT | HiddenCard] = []
        blind: list[bool] = []
        for k in range(int(s["num_reserved"][seat])):
            cid = int(s["reserved"][seat, k])
            reserved.append(
                cards[cid] if cid >= 0 else HiddenCard(int(s["reserved_level"][seat, k]))
            )
            blind.append(bool(s["reserved_blind"][seat, k]))
        return tuple(reserved), tuple(blind)

    @classmethod
    def _notation(cls) -> Any:
        """The game's position notation module (imported on first use)."""
        return importlib.import_module(cls._game.notation)


class ArrayObservation(ArrayView[ActionT, CardT]):
    """What one seat may see of a game (C16, D22): a read-only view over a state array
    in which deck order, the generator and other seats' blind-reserved cards are removed;
    each game's ``Observation``."""

    __slots__ = ()

    def __init__(self, array: np.ndarray) -> None:
        """Wrap ``array`` (made read-only) without copying."""
        self._a = array
        self._a.setflags(write=False)

    @property
    def seat(self) -> int:
        """The seat this observation belongs to."""
        return int(self._a[0]["observer"])

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict of the observation (same layout as the state's ``to_dict``;
        hidden fields hold -1, the generator 0)."""
        g = self._game
        return array_to_dict(self._a, g.position_format, g.position_version)

    def to_text(self) -> str:
        """The observation as one line of text (``docs/notation.md``): like the state's
        ``to_text`` with ``observer=``, deck sizes instead of deck order, no generator,
        and other seats' blind reserves as ``?level`` (C16, D22)."""
        return self._notation().to_text(self._a)

    @classmethod
    def from_text(cls, text: str) -> Self:
        """Read an observation written by :meth:`to_text`.

        Raises:
            splendor.notation.NotationError: text that cannot be read, or that shows what
                its seat cannot see (C16, D22).
            ValueError: no sound position has this view (``corrupt position: …``).
        """
        return cls._notation().observation_from_text(text)

    def __repr__(self) -> str:
        return (
            f"<{self._game.name}.Observation seat={self.seat} turn={self.turn} "
            f"current={self.current_player} phase={self.phase!r}>"
        )


class ArrayState(ArrayView[ActionT, CardT], ArrayPosition, Generic[ActionT, CardT, ObservationT]):
    """A full game, hidden information included (for the host): a view over a state
    array that only :meth:`apply` changes; each game's ``State``, which sets
    ``_observation_type`` (its ``Observation``)."""

    __slots__ = ()
    _observation_type: type[ObservationT]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give each game's ``State`` its own :meth:`apply` (:func:`hot_methods`)."""
        super().__init_subclass__(**kwargs)
        game = getattr(cls, "_game", None)
        if game is not None:
            _install(cls, hot_methods(game), ("apply",))

    def __init__(self, array: np.ndarray) -> None:
        """Wrap ``array`` (shape (1,), the game's ``STATE_DTYPE``) without copying.

        Raises:
            ValueError: wrong shape or dtype, or a read-only array (a state changes).
        """
        if (
            not isinstance(array, np.ndarray)
            or array.dtype != self._game.state_dtype
            or array.shape != (1,)
        ):
            raise ValueError(
                f"a {self._game.state_label} wraps a numpy array of shape (1,) and dtype "
                "STATE_DTYPE"
            )
        if not array.flags.writeable:
            raise ValueError(
                f"a {self._game.state_label} wraps a writable array; this one is read-only "
                "(pass a copy)"
            )
        self._a = array

    def apply(self, action: ActionT | int | str) -> None:
        """Play one decision for the current player (mutates the state).

        Raises:
            ValueError: ``action`` is malformed (bad notation or id).
            IllegalActionError: ``action`` is not legal now; the state is unchanged and the
                message lists the legal decisions.
        """
        raise NotImplementedError  # pragma: no cover - each game's: hot_methods

    def _illegal_message(self, a: ActionT) -> str:
        if self.is_terminal:
            return f"illegal action {str(a)!r}: the game is over"
        legal = [str(x) for x in self.legal_actions()]
        limit = self._game.legal_shown or len(legal)
        shown = ", ".join(legal[:limit]) + (
            f", … ({len(legal)} in all)" if len(legal) > limit else ""
        )
        return (
            f"illegal action {str(a)!r} for seat {self.current_player} "
            f"(phase: {self.phase}). Legal now: {shown}"
        )

    def copy(self) -> Self:
        """An independent copy that replays identically."""
        out = object.__new__(type(self))  # the array is sound: no need to check it again
        out._a = self._a.copy()
        return out

    def observation(self, seat: int) -> ObservationT:
        """What ``seat`` may see (C16, D22): deck order, the generator (so Duel's bag
        draw order) and the other seats' blind reserves removed (their level stays).

        Raises:
            ValueError: ``seat`` is not a seat of this game.
        """
        n = self._check_seat(seat)
        a = self._a.copy()
        s = a[0]
        s["decks"][:] = -1
        s["rng"][:] = 0
        s["observer"] = seat
        paying = -1  # a blind reserve being paid for is public (it is being bought)
        first = self._game.first_reserved_src
        if int(s["phase"]) == self._game.ph_pay and int(s["pay_src"]) >= first:
            paying = int(s["pay_src"]) - first
        blind = s["reserved_blind"]
        reserved = s["reserved"]
        for p in range(n):
            if p != seat:
                for k in range(blind.shape[1]):
                    if blind[p, k] and not (k == paying and p == int(s["current"])):
                        reserved[p, k] = -1
        return self._observation_type(a)

    def to_dict(self) -> dict[str, Any]:
        """The position as a JSON-able dict holding everything, deck order included: one
        key per field of the game's ``STATE_DTYPE`` (nested lists of ints; ``rng`` as
        decimal strings), plus ``format`` (``splendor-classic-position``,
        ``splendor-duel-position``) and ``version`` (1)."""
        g = self._game
        return array_to_dict(self._a, g.position_format, g.position_version)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Load a position written by :meth:`to_dict`: the one gate every position from
        outside (JSON, OpenSpiel's ``deserialize_state``, hosts) passes before the
        compiled rules, which have no bounds checks, see it.

        Every field is range-checked and the position must be sound as the game's gate
        (``check_position``) judges it: each decision phase agrees with the rest, cards
        and tokens are conserved, and a finished game looks finished; so the compiled
        rules never read outside their tables and keep every invariant from there on.

        Raises:
            ValueError: wrong format or version; a missing or malformed field (not an
                integer, or nested lists of them, of its shape and type range: a float,
                a boolean or text is refused); or a position that breaks an invariant:
                ``corrupt position: `` and each problem, naming the field and the rule
                (``"corrupt position: nobles[2]=12: a noble id is 0..9 or -1 (C3)"``).
        """
        g = cls._game
        arr = array_from_dict(
            data, g.state_dtype, g.position_format, g.position_version, g.game_label
        )
        check_integer_fields(data, g.state_dtype)  # no 1.5, true or "7" read as integers
        problems = g.gate(arr)
        if problems:
            raise ValueError("corrupt position: " + "; ".join(problems))
        return cls(arr)

    def to_text(self) -> str:
        """The position as one line of text (a FEN for Splendor, ``docs/notation.md``):
        what is where, deck order and generator included; derived fields left out.
        ``State.from_text(s.to_text())`` equals ``s``."""
        return self._notation().to_text(self._a)

    @classmethod
    def from_text(cls, text: str) -> Self:
        """Read a position written by :meth:`to_text`; every derived field is computed and
        the position passes the same gate as :meth:`from_dict`.

        Raises:
            splendor.notation.NotationError: (a ``ValueError``) text that cannot be read;
                the message names the field and says what is allowed.
            ValueError: an impossible position (``corrupt position: …``, naming the field
                and the rule).
        """
        return cls._notation().state_from_text(text)

    def __repr__(self) -> str:
        players = f"players={self.num_players} " if self._game.repr_players else ""
        return (
            f"<{self._game.name}.State {players}turn={self.turn} "
            f"current={self.current_player} phase={self.phase!r} scores={self.scores}>"
        )


def compiled_entry(kernel: Callable[..., Any], *examples: Any) -> Callable[..., Any]:
    """The machine code of the compiled ``kernel`` for the argument types of ``examples``,
    callable from Python without numba's per-call dispatch on the argument types.

    numba's dispatcher works out the types of every argument at every call (about 0.2 µs
    for a state array, more than the legal-action kernel itself); a caller that always
    passes the same types (a game's state array, a bool mask, an int) can call this entry
    point instead, with exactly those types. The kernel is compiled, or loaded from numba's
    on-disk cache, by one call with ``examples``, which must therefore be safe to run.

    Returns:
        The compiled entry point; ``kernel`` itself when there is none (``NUMBA_DISABLE_JIT``
        set, or a plain Python function).
    """
    overloads = getattr(kernel, "overloads", None)
    if overloads is None:
        return kernel
    kernel(*examples)
    from numba import typeof  # noqa: PLC0415 - only with the JIT

    signature = tuple(typeof(x) for x in examples)  # type: ignore[no-untyped-call]
    compiled = overloads.get(signature)
    return kernel if compiled is None else compiled.entry_point


def hot_methods(
    game: GameTables[Any, Any], readonly: bool = False
) -> dict[str, Callable[..., Any]]:
    """The methods of a game's views that run at every decision (``legal_mask``,
    ``legal_actions``, and a state's ``apply``), made for ``game`` as closures over its
    kernels and tables.

    They read no attribute on the way, and call the kernels through
    :func:`compiled_entry` (fetched at their first call: importing a game compiles
    nothing), so that numba does not dispatch on the argument types at every call; a
    view's array is always the game's ``STATE_DTYPE``, shape ``(1,)``, writable in a state
    and read-only (``readonly``) in an observation. ``legal_actions``
    picks the :class:`Action` objects from an object array with the mask. Measured on CPU
    time, this halves the time of ``legal_actions()`` (``benchmarks/bench_legal.py``).
    :class:`ArrayView` and :class:`ArrayState` install them in each game's classes, whose
    documented signatures are the ones declared there.
    """
    num_actions = game.num_actions
    action_type = game.action_type
    from_id = action_type.from_id
    by_id = np.empty(num_actions, dtype=object)
    by_id[:] = game.actions
    # (legal_mask, apply) entry points, set once by entry_points(). One assignment of a
    # whole tuple: threads that fetch them at the same time each set the same pair.
    kernels: tuple[Callable[..., Any], ...] = ()

    def entry_points() -> tuple[Callable[..., Any], ...]:
        nonlocal kernels
        probe = np.zeros(1, dtype=game.state_dtype)
        probe[0]["phase"] = game.ph_over  # a finished game: no decision, nothing moves
        probe[0]["current"] = -1
        probe.setflags(write=not readonly)
        mask = np.zeros(num_actions, dtype=np.bool_)
        found = compiled_entry(game.legal_mask, probe, mask)
        # an observation has no apply
        kernels = (found,) if readonly else (found, compiled_entry(game.apply, probe, 0))
        return kernels

    def legal_mask(self: ArrayView[Any, Any]) -> np.ndarray:
        mask = np.zeros(num_actions, dtype=np.bool_)
        (kernels or entry_points())[0](self._a, mask)
        return mask

    def legal_actions(self: ArrayView[Any, Any]) -> list[Any]:
        mask = np.zeros(num_actions, dtype=np.bool_)
        (kernels or entry_points())[0](self._a, mask)
        return by_id[mask].tolist()

    def apply(self: ArrayState[Any, Any, Any], action: Any) -> None:
        kind = type(action)
        if kind is action_type:
            a = action
        elif kind is int:
            a = from_id(action)
        else:
            a = coerce_action(action, action_type)
        if (kernels or entry_points())[1](self._a, a.id) != 0:
            raise IllegalActionError(self._illegal_message(a))

    return {"legal_mask": legal_mask, "legal_actions": legal_actions, "apply": apply}


def _install(cls: type, methods: dict[str, Callable[..., Any]], names: tuple[str, ...]) -> None:
    """Set ``methods[name]`` on ``cls`` for each of ``names``, wrapping the declaration it
    stands for (its docstring, and its signature for :func:`inspect.signature`)."""
    for name in names:
        method = functools.update_wrapper(methods[name], getattr(cls, name))
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        method.__module__ = cls.__module__
        setattr(cls, name, method)


def warm_up_kernels(
    state: ArrayState[Any, Any, Any],
    is_legal: Callable[[np.ndarray, int], bool],
    random_playout: Callable[[np.ndarray, np.ndarray, int], int],
    probes: Iterable[int],
) -> None:
    """Run a game's compiled kernels once, so that numba compiles them or loads them from
    its on-disk cache (each game's ``warm_up``): from ``state`` (a new game) its legal
    actions, ``is_legal`` on each action id of ``probes``, then on a copy a random
    playout to the end (``apply`` and what it calls) and the winners."""
    state.legal_actions()
    for a in probes:
        is_legal(state._a, a)
    done = state.copy()
    random_playout(done._a, np.ones(1, dtype=np.uint64), 1 << 20)
    _ = done.winners


def determinize_array(
    observation: np.ndarray,
    rng: np.random.Generator | int | None,
    determinize_into: Callable[[np.ndarray, np.ndarray, np.ndarray], int],
) -> np.ndarray:
    """A full state array consistent with the observation array ``observation`` (each
    game's ``determinize``): a fresh generator is seeded from ``rng`` (a numpy Generator,
    or a seed for one) and the game's ``determinize_into`` kernel deals the unseen cards.

    Raises:
        ValueError: the observation is inconsistent (its unseen card counts do not match).
    """
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    r = np.zeros(1, dtype=np.uint64)
    seed_rng(r, int(gen.integers(0, 2**63)))
    out = np.zeros(1, dtype=observation.dtype)
    code = determinize_into(observation, out, r)
    if code < 0:
        raise ValueError(
            f"inconsistent observation: the unseen level-{-code} cards do not match its "
            "hidden reserves plus deck size"
        )
    return out


# --------------------------------------------------------------------------- information sets


@njit(cache=True)
def redeal_hidden(
    seen: np.ndarray,
    card_level: np.ndarray,
    decks: np.ndarray,
    deck_len: np.ndarray,
    reserved: np.ndarray,
    reserved_level: np.ndarray,
    num_reserved: np.ndarray,
    num_players: int,
    pay_card: int,
    pay_src: int,
    current: int,
    first_reserved_src: int,
    rng: np.ndarray,
) -> int:
    """Deal the cards an observer cannot see into the hidden places, uniformly at random.

    ``seen`` (bool, one per card id) comes marked with the game's public cards (face-up,
    bought); the visible reserved cards and the card being paid for (``pay_card``, -1 for
    none) are marked here, and a blind reserve being paid for (``pay_src`` at least
    ``first_reserved_src``, the source ids of ``current``'s reserved slots) is put back in
    its slot, since its owner's payment shows it (C9, D10). Then for each level the cards
    not marked in ``seen`` with that
    ``card_level`` (0-based) are shuffled with ``rng`` and dealt first to the hidden
    reserved slots of that level (``reserved[p, k] < 0`` with ``reserved_level[p, k] ==
    level + 1``, for ``k < num_reserved[p]``), then to the deck (``decks[level, :deck_len]``;
    the rest of the row is set to -1). Used by both games' determinization (C16, D22).

    Returns:
        0, or ``-(level + 1)`` when a level's unseen cards do not match its hidden places
        (an inconsistent observation; the arrays are then partly written).
    """
    for p in range(reserved.shape[0]):
        for k in range(reserved.shape[1]):
            if reserved[p, k] >= 0:
                seen[reserved[p, k]] = True
    if pay_card >= 0:
        seen[pay_card] = True
        k = pay_src - first_reserved_src
        if k >= 0 and reserved[current, k] < 0:
            reserved[current, k] = pay_card
    n_cards = seen.shape[0]
    pool = np.empty(n_cards, dtype=np.int16)
    for lvl in range(decks.shape[0]):
        m = 0
        for c in range(n_cards):
            if not seen[c] and card_level[c] == lvl:
                pool[m] = c
                m += 1
        shuffle(pool, m, rng)
        hidden = 0
        for p in range(num_players):
            for k in range(num_reserved[p]):
                if reserved[p, k] < 0 and reserved_level[p, k] == lvl + 1:
                    hidden += 1
        if m != hidden + deck_len[lvl]:
            return -(lvl + 1)
        i = 0
        for p in range(num_players):
            for k in range(num_reserved[p]):
                if reserved[p, k] < 0 and reserved_level[p, k] == lvl + 1:
                    reserved[p, k] = pool[i]
                    i += 1
        for d in range(decks.shape[1]):
            decks[lvl, d] = pool[i + d] if d < deck_len[lvl] else -1
    return 0


# --------------------------------------------------------------------------- rule pieces
# What the two rule engines do alike, compiled once here. ``s`` is a game's state record
# (``state_record(arr)``, either game's ``STATE_DTYPE``: numba compiles one version per
# dtype); every field named below exists in both dtypes with the same meaning.


@njit(cache=True)
def tokens_held(s: np.record, p: int) -> int:
    """How many tokens seat ``p`` holds, gold (and Duel's pearls) included: what the token
    limit counts (C11, D20)."""
    t = 0
    for c in range(s.tokens.shape[1]):
        t += s.tokens[p, c]
    return t


# Inlined (numba IR) into each game's ``setup``, like the loop it replaces there.
@njit(cache=True, inline="always")
def deal_decks(s: np.record, level_start: np.ndarray, level_size: np.ndarray) -> None:
    """Fill each level's deck with its card ids (level ``lvl``: ``level_start[lvl]`` to
    ``level_start[lvl] + level_size[lvl] - 1``) and shuffle it with the state's generator,
    level 1 first (C4, D3). Writes ``s.decks`` (the rest of each row -1), ``s.deck_len``
    and ``s.rng``."""
    s.decks[:, :] = -1
    for lvl in range(s.decks.shape[0]):
        n = level_size[lvl]
        for i in range(n):
            s.decks[lvl, i] = level_start[lvl] + i
        shuffle(s.decks[lvl], n, s.rng)
        s.deck_len[lvl] = n


@njit(cache=True)
def draw_card(s: np.record, lvl: int) -> int:
    """Take the top card of level ``lvl``'s deck (0-based; the top is
    ``s.decks[lvl, s.deck_len[lvl] - 1]``, which becomes -1), or -1 when the deck is empty
    (C10, D11)."""
    n = s.deck_len[lvl]
    if n == 0:
        return -1
    card = s.decks[lvl, n - 1]
    s.decks[lvl, n - 1] = -1
    s.deck_len[lvl] = n - 1
    return card


@njit(cache=True)
def hold_reserved(s: np.record, p: int, card: int, level: int, blind: bool) -> None:
    """Put ``card`` (of ``level``, 1-3) in seat ``p``'s next free reserved slot, marked
    ``blind`` when it was taken from a deck (C8, D9). The caller has checked that a slot
    is free."""
    k = s.num_reserved[p]
    s.reserved[p, k] = card
    s.reserved_level[p, k] = level
    s.reserved_blind[p, k] = 1 if blind else 0
    s.num_reserved[p] = k + 1


@njit(cache=True)
def drop_reserved(s: np.record, p: int, k: int) -> None:
    """Empty seat ``p``'s reserved slot ``k`` (0-based; its card was bought, C9, D10): the
    later slots move up one, and the last one becomes empty (card -1, level 0)."""
    nr = s.num_reserved[p]
    for i in range(k, nr - 1):
        s.reserved[p, i] = s.reserved[p, i + 1]
        s.reserved_level[p, i] = s.reserved_level[p, i + 1]
        s.reserved_blind[p, i] = s.reserved_blind[p, i + 1]
    s.reserved[p, nr - 1] = -1
    s.reserved_level[p, nr - 1] = 0
    s.reserved_blind[p, nr - 1] = 0
    s.num_reserved[p] = nr - 1


@njit(cache=True)
def start_payment(s: np.record, card: int, src: int) -> None:
    """Open a chosen payment for ``card`` bought from source ``src`` (C9, D10), no gold
    committed yet; the caller fills ``s.pay_need`` (what the card costs after bonuses)."""
    s.pay_card = card
    s.pay_src = src
    s.pay_gold = 0


@njit(cache=True)
def pay_shortfall(s: np.record, p: int) -> int:
    """During a chosen payment: how many of the tokens still owed (``s.pay_need``, one
    entry per colour a card can cost, gold excluded) seat ``p`` lacks (C9, D10)."""
    short = 0
    for c in range(s.pay_need.shape[0]):
        if s.pay_need[c] > s.tokens[p, c]:
            short += s.pay_need[c] - s.tokens[p, c]
    return short


@njit(cache=True)
def payment_legal(s: np.record, p: int, a: int, pay_gold: int, pay_done: int, gold: int) -> bool:
    """Whether decision ``a`` is legal while seat ``p`` chooses a payment (C9, D10).

    ``pay_gold + c`` (a gold in place of a token of colour ``c``) is legal while ``c`` is
    still owed and a gold is left, and only when the rest stays payable (a payment is never
    stranded); ``pay_done`` once nothing owed is lacking. ``gold`` is the gold token's
    colour index in ``s.tokens``.
    """
    if a == pay_done:
        return pay_shortfall(s, p) == 0
    if pay_gold <= a < pay_done:
        c = a - pay_gold
        gold_left = s.tokens[p, gold] - s.pay_gold
        if s.pay_need[c] <= 0 or gold_left <= 0:
            return False
        short = pay_shortfall(s, p)
        if s.pay_need[c] > s.tokens[p, c]:
            short -= 1
        return short <= gold_left - 1
    return False


@njit(cache=True)
def pay_with_gold(s: np.record, c: int) -> None:
    """Commit one gold in place of one token of colour ``c`` still owed (C9, D10)."""
    s.pay_need[c] -= 1
    s.pay_gold += 1


@njit(cache=True)
def settle_payment(s: np.record, p: int, pool: np.ndarray, gold: int) -> tuple[int, int]:
    """Finish seat ``p``'s chosen payment (C9, D10): the tokens still owed and the gold
    committed go from ``p`` to ``pool`` (the supply; in Duel the bag), and the payment
    fields are cleared. ``gold`` is the gold token's colour index.

    Returns:
        ``(card, src)``: the card paid for and its source, for the game to hand over.
    """
    for c in range(s.pay_need.shape[0]):
        s.tokens[p, c] -= s.pay_need[c]
        pool[c] += s.pay_need[c]
        s.pay_need[c] = 0
    s.tokens[p, gold] -= s.pay_gold
    pool[gold] += s.pay_gold
    card = s.pay_card
    src = s.pay_src
    s.pay_card = -1
    s.pay_src = 0
    s.pay_gold = 0
    return card, src


# Inlined (numba IR) into the playout loop, which draws with it at every decision.
@njit(cache=True, inline="always")
def random_legal_id(mask: np.ndarray, n_legal: int, rng: np.ndarray) -> int:
    """A uniformly random decision id among the ``n_legal`` set in ``mask`` (bool, one per
    decision id), drawn with ``rng``; -1 (drawing nothing) when ``n_legal`` is 0."""
    if n_legal == 0:
        return -1
    k = rng_below(rng, n_legal)
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


# Takes a game's kernels as arguments (numba dispatchers). Inlined into each game's cached
# ``random_playout`` (numba IR), where they become plain calls: no cache of its own that
# could outlive a change of the rules, and no dispatcher passed as a value (a runtime
# address, which would make the caller uncacheable).
@njit(inline="always")
def random_playout_of(
    arr: np.ndarray,
    mask: np.ndarray,
    rng: np.ndarray,
    max_decisions: int,
    legal_mask: Callable[[np.ndarray, np.ndarray], int],
    apply: Callable[[np.ndarray, int], int],
    over: int,
) -> int:
    """Play uniformly random legal decisions (:func:`random_legal_id`, drawn with ``rng``)
    on the state ``arr`` with a game's ``legal_mask`` and ``apply`` kernels until its phase
    is ``over`` or ``max_decisions`` were made; ``mask`` (bool, the game's ``NUM_ACTIONS``)
    is scratch space. Returns the number of decisions made."""
    n = 0
    while n < max_decisions and state_record(arr).phase != over:
        apply(arr, random_legal_id(mask, legal_mask(arr, mask), rng))
        n += 1
    return n


# Inlined (numba IR) into each game's ``determinize_into``, which then runs as fast as
# when it marked the cards seen itself.
@njit(cache=True, inline="always")
def deal_unseen(
    s: np.record,
    owner: np.ndarray,
    shown: np.ndarray,
    card_level: np.ndarray,
    num_players: int,
    first_reserved_src: int,
    rng: np.ndarray,
) -> int:
    """Turn ``s``, a copy of an observation's record, into a full state consistent with
    it (C16, D22): the cards with an owner (``owner``, one seat or -1 per card id) and
    those on display (``shown``, card ids of any shape, -1 for an empty place) are seen;
    :func:`redeal_hidden` deals the others at random with ``rng`` into the hidden places
    (blind reserves, decks), ``s.observer`` is cleared and the state's own generator is
    reseeded from ``rng`` (fresh future chance, so no bot can foresee a draw).

    Returns:
        0, or a negative number when the observation is inconsistent (``s`` is then
        garbage).
    """
    seen = np.zeros(card_level.shape[0], dtype=np.bool_)
    for c in range(owner.shape[0]):
        if owner[c] >= 0:
            seen[c] = True
    for c in shown.flat:
        if c >= 0:
            seen[c] = True
    r = redeal_hidden(
        seen,
        card_level,
        s.decks,
        s.deck_len,
        s.reserved,
        s.reserved_level,
        s.num_reserved,
        num_players,
        s.pay_card,
        s.pay_src,
        s.current,
        first_reserved_src,
        rng,
    )
    s.observer = -1
    s.rng[0] = rng_next(rng)
    return r
