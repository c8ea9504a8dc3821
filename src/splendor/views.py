"""The Python layer over a state array that both games share: read-only accessors
(:class:`ArrayView`), a seat's observation (:class:`ArrayObservation`) and the full state
(:class:`ArrayState`), parameterised by one table of facts per game (:class:`GameTables`,
in each game's ``state.py``), with their per-decision methods built as closures over the
game's compiled kernels (:func:`hot_methods`)."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, Self, TypeVar

import numpy as np

from .errors import IllegalActionError, ParseError, PositionError
from .jit import compiled_entry
from .positions import ArrayPosition, array_from_dict, array_to_dict, check_integer_fields
from .rng import seed_rng


@dataclass(frozen=True)
class HiddenCard:
    """A blind-reserved card seen from another seat: only its level is known (C16, D22)."""

    level: int

    def __str__(self) -> str:
        return f"L{self.level} (hidden)"


@functools.cache
def _descriptor(package: str) -> Any:
    """The :class:`~splendor.descriptor.Game` of the engine package ``package`` (looked up
    once: it is declared in ``splendor.<package>.game``, which imports this module)."""
    return importlib.import_module(f"splendor.{package}.game").GAME


class GameAction(Protocol):
    """What the shared views need of a game's ``Action`` class: a fixed integer id, and
    the two ways to build one."""

    @property
    def id(self) -> int:
        """The fixed integer id, ``0 <= id < NUM_ACTIONS``."""
        ...

    @classmethod
    def from_id(cls, i: int) -> Self:
        """The action with id ``i`` (:class:`~splendor.errors.ParseError` when out of
        range)."""
        ...

    @classmethod
    def parse(cls, text: str) -> Self:
        """The action written ``text`` in notation (:class:`~splendor.errors.ParseError`
        when malformed)."""
        ...


ActionT = TypeVar("ActionT", bound=GameAction)
CardT = TypeVar("CardT")
ObservationT = TypeVar("ObservationT", bound="ArrayObservation[Any, Any]")


def coerce_action(action: Any, action_type: type[ActionT]) -> ActionT:
    """Coerce an ``action_type`` instance, an id or a notation string to an
    ``action_type`` instance (each game's ``to_action``).

    Raises:
        ParseError: a malformed string, an id out of range or anything else (the message
            quotes it).
    """
    if isinstance(action, action_type):
        return action
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return action_type.from_id(int(action))
    if isinstance(action, str):
        return action_type.parse(action)
    raise ParseError(f"an action must be an Action, an id or a string, got {action!r}")


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
        D13 included): 0 in a new game. The terminal's board shows the turn being
        played, ``turn + 1`` ("turn 20" on the board is ``turn == 19``); the position
        formats store this count (``docs/notation.md``, "Turn numbers")."""
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

    @property
    def game(self) -> Any:
        """The game's descriptor (:class:`splendor.descriptor.Game`): ``state.game.name``,
        ``state.game.num_actions``, … (pgx's ``State.env_id``)."""
        return _descriptor(self._game.name)

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
            splendor.notation.NotationError: (a :class:`~splendor.errors.PositionError`)
                text that cannot be read, or that shows what its seat cannot see (C16, D22).
            PositionError: no sound position has this view (``corrupt position: …``).
        """
        return cls._notation().observation_from_text(text)

    def __eq__(self, other: object) -> bool:
        """Equal when ``other`` is an observation of the same class whose array is
        byte-equal (the same seat's view of the same position), as a ``State``."""
        return type(other) is type(self) and self._a.tobytes() == other._a.tobytes()

    def __hash__(self) -> int:
        return hash(self._a.tobytes())

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
            ParseError: ``action`` is malformed (bad notation or id).
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
            PositionError: wrong format or version; a missing or malformed field (not an
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
            raise PositionError("corrupt position: " + "; ".join(problems))
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
            splendor.notation.NotationError: (a :class:`~splendor.errors.PositionError`)
                text that cannot be read; the message names the field and says what is
                allowed.
            PositionError: an impossible position (``corrupt position: …``, naming the
                field and the rule).
        """
        return cls._notation().state_from_text(text)

    def __repr__(self) -> str:
        players = f"players={self.num_players} " if self._game.repr_players else ""
        return (
            f"<{self._game.name}.State {players}turn={self.turn} "
            f"current={self.current_player} phase={self.phase!r} scores={self.scores}>"
        )


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
        PositionError: the observation is inconsistent (its unseen card counts do not match).
    """
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    r = np.zeros(1, dtype=np.uint64)
    seed_rng(r, int(gen.integers(0, 2**63)))
    out = np.zeros(1, dtype=observation.dtype)
    code = determinize_into(observation, out, r)
    if code < 0:
        raise PositionError(
            f"inconsistent observation: the unseen level-{-code} cards do not match its "
            "hidden reserves plus deck size"
        )
    return out
