"""Game state of classic Splendor: one numpy structured array, and its Python views.

The whole state of a game is one structured array of shape ``(1,)`` and dtype
:data:`STATE_DTYPE`; the compiled rules in :mod:`splendor.classic.rules` read and write it.
:class:`State` (a full game, for the host) and :class:`Observation` (what one seat may see,
C16) are thin read-only views over such an array; only :meth:`State.apply` changes a state.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import (
    ArrayPosition,
    HiddenCard,
    IllegalActionError,
    check_integer_fields,
    check_seed,
    seed_rng,
)
from ..core import array_from_dict as _array_from_dict
from ..core import array_to_dict as _array_to_dict
from . import rules
from .actions import ACTIONS, NUM_ACTIONS, Action
from .cards import (
    CARDS,
    FACEUP_PER_LEVEL,
    MAX_DECK,
    MAX_NOBLES_SHOWN,
    MAX_RESERVED,
    NOBLES,
    NUM_CARDS,
    NUM_LEVELS,
    NUM_NOBLES,
    Card,
    Noble,
)
from .position import MAX_PLAYERS, MIN_PLAYERS, PHASES, check_invariants, check_position

POSITION_FORMAT = "splendor-classic-position"
POSITION_VERSION = 1

STATE_DTYPE = np.dtype(
    [
        ("num_players", np.int8),
        ("current", np.int8),  # seat to decide, -1 once the game is over
        ("phase", np.int8),  # rules.PH_*
        ("observer", np.int8),  # -1 for a full state, else the seat of an observation
        ("final_round", np.int8),  # 1 once a player reached 15 points (C14)
        ("pass_streak", np.int8),  # consecutive passes (C17)
        ("end_reason", np.int8),  # rules.END_*
        ("turn", np.int32),  # completed turns
        ("supply", np.int8, (6,)),  # W U G R K gold
        ("decks", np.int8, (NUM_LEVELS, MAX_DECK)),  # card ids, top at deck_len-1; -1 hidden
        ("deck_len", np.int8, (NUM_LEVELS,)),
        ("faceup", np.int8, (NUM_LEVELS, FACEUP_PER_LEVEL)),  # card id or -1 (empty)
        ("nobles", np.int8, (MAX_NOBLES_SHOWN,)),  # noble id or -1 (taken / not in play)
        ("tokens", np.int8, (MAX_PLAYERS, 6)),
        ("bonuses", np.int8, (MAX_PLAYERS, 5)),
        ("points", np.int16, (MAX_PLAYERS,)),
        ("reserved", np.int8, (MAX_PLAYERS, MAX_RESERVED)),  # card id, -1 empty or hidden
        ("reserved_level", np.int8, (MAX_PLAYERS, MAX_RESERVED)),  # 1-3, 0 empty
        ("reserved_blind", np.int8, (MAX_PLAYERS, MAX_RESERVED)),  # 1: taken from a deck
        ("num_reserved", np.int8, (MAX_PLAYERS,)),
        ("purchased_by", np.int8, (NUM_CARDS,)),  # seat that bought each card, -1 none
        ("noble_owner", np.int8, (NUM_NOBLES,)),  # seat visited by each noble, -1 none
        ("pay_card", np.int8),  # card being paid for in phase PAY, else -1
        ("pay_src", np.int8),  # its source: 0-11 face-up, 12-14 own reserved slot
        ("pay_need", np.int8, (5,)),  # coloured tokens still owed
        ("pay_gold", np.int8),  # gold committed so far
        ("rng", np.uint64, (1,)),  # splitmix64 state (hidden information)
    ]
)
"""Record dtype of a classic game state (see the field comments)."""

PHASE_NAMES = PHASES
"""Name of each decision phase (``rules.PH_*``)."""


@dataclass(frozen=True)
class PlayerView:
    """One seat's holdings as anybody may see them (C16).

    Attributes:
        seat: 0-based seat.
        tokens: tokens per colour, length 6 (W U G R K gold).
        bonuses: bonuses per gem colour, length 5.
        points: prestige points (cards and nobles).
        reserved: reserved cards in slot order; :class:`HiddenCard` for another seat's
            blind reserve in an observation.
        reserved_blind: per reserved slot, True when that card was reserved face down from a
            deck (C8); only its level is public until it is bought.
        purchased: bought development cards, by id.
        nobles: nobles that visited this seat.
    """

    seat: int
    tokens: tuple[int, ...]
    bonuses: tuple[int, ...]
    points: int
    reserved: tuple[Card | HiddenCard, ...]
    reserved_blind: tuple[bool, ...]
    purchased: tuple[Card, ...]
    nobles: tuple[Noble, ...]

    @property
    def num_tokens(self) -> int:
        """Tokens held, gold included (the C11 limit is 10)."""
        return sum(self.tokens)


def _empty_array() -> np.ndarray:
    return np.zeros(1, dtype=STATE_DTYPE)


class _View:
    """Read-only accessors shared by :class:`State` and :class:`Observation`."""

    __slots__ = ("_a",)
    _a: np.ndarray

    @property
    def array(self) -> np.ndarray:
        """A copy of the underlying structured array (shape (1,), :data:`STATE_DTYPE`)."""
        return self._a.copy()

    @property
    def num_players(self) -> int:
        return int(self._a[0]["num_players"])

    @property
    def current_player(self) -> int | None:
        """Seat that owes the next decision, or ``None`` once the game is over."""
        c = int(self._a[0]["current"])
        return None if c < 0 else c

    @property
    def phase(self) -> str:
        """The decision owed: ``main``, ``payment``, ``return tokens``, ``choose noble`` or
        ``game over``."""
        return PHASE_NAMES[int(self._a[0]["phase"])]

    @property
    def is_terminal(self) -> bool:
        return int(self._a[0]["phase"]) == rules.PH_OVER

    @property
    def turn(self) -> int:
        """Number of completed turns (all seats together)."""
        return int(self._a[0]["turn"])

    @property
    def final_round(self) -> bool:
        """True once a player reached 15 points: the round is being completed (C14)."""
        return bool(self._a[0]["final_round"])

    @property
    def end_reason(self) -> str | None:
        """``"points"`` (C14), ``"stall"`` (C17) or ``None`` while the game goes on."""
        return {rules.END_POINTS: "points", rules.END_STALL: "stall"}.get(
            int(self._a[0]["end_reason"])
        )

    @property
    def scores(self) -> list[int]:
        """Prestige points per seat (cards and nobles)."""
        return [int(x) for x in self._a[0]["points"][: self.num_players]]

    @property
    def winners(self) -> list[int]:
        """Winning seats by C15 (several on a shared victory); ``[]`` before the end."""
        if not self.is_terminal:
            return []
        out = np.zeros(MAX_PLAYERS, dtype=np.bool_)
        rules.winners_mask(self._a, out)
        return [int(p) for p in np.flatnonzero(out)]

    @property
    def supply(self) -> tuple[int, ...]:
        """Tokens in the supply, length 6 (W U G R K gold)."""
        return tuple(int(x) for x in self._a[0]["supply"])

    @property
    def deck_sizes(self) -> tuple[int, int, int]:
        """Cards left in the level 1, 2, 3 decks."""
        d = self._a[0]["deck_len"]
        return (int(d[0]), int(d[1]), int(d[2]))

    @property
    def faceup(self) -> tuple[tuple[Card | None, ...], ...]:
        """The face-up cards, ``faceup[level-1][slot-1]``; ``None`` for an empty slot."""
        f = self._a[0]["faceup"]
        return tuple(
            tuple(CARDS[int(c)] if c >= 0 else None for c in f[lvl]) for lvl in range(NUM_LEVELS)
        )

    @property
    def nobles(self) -> tuple[Noble | None, ...]:
        """The noble row, slot by slot (``None`` where a noble has left or none was dealt)."""
        return tuple(NOBLES[int(n)] if n >= 0 else None for n in self._a[0]["nobles"])

    @property
    def payment(self) -> tuple[Card, tuple[int, ...], int] | None:
        """During a chosen payment (C9): the card, the coloured tokens still owed (5) and
        the gold committed; else ``None``."""
        s = self._a[0]
        if int(s["phase"]) != rules.PH_PAY:
            return None
        return CARDS[int(s["pay_card"])], tuple(int(x) for x in s["pay_need"]), int(s["pay_gold"])

    def player(self, seat: int) -> PlayerView:
        """Holdings of ``seat``.

        Raises:
            ValueError: ``seat`` is not 0 <= seat < num_players.
        """
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0..{self.num_players - 1}, got {seat}")
        s = self._a[0]
        reserved: list[Card | HiddenCard] = []
        for k in range(int(s["num_reserved"][seat])):
            cid = int(s["reserved"][seat, k])
            reserved.append(
                CARDS[cid] if cid >= 0 else HiddenCard(int(s["reserved_level"][seat, k]))
            )
        return PlayerView(
            seat=seat,
            tokens=tuple(int(x) for x in s["tokens"][seat]),
            bonuses=tuple(int(x) for x in s["bonuses"][seat]),
            points=int(s["points"][seat]),
            reserved=tuple(reserved),
            reserved_blind=tuple(
                bool(s["reserved_blind"][seat, k]) for k in range(int(s["num_reserved"][seat]))
            ),
            purchased=tuple(CARDS[int(c)] for c in np.flatnonzero(s["purchased_by"] == seat)),
            nobles=tuple(NOBLES[int(n)] for n in np.flatnonzero(s["noble_owner"] == seat)),
        )

    @property
    def players(self) -> list[PlayerView]:
        """Every seat's :class:`PlayerView`."""
        return [self.player(p) for p in range(self.num_players)]

    def legal_mask(self) -> np.ndarray:
        """Legal decisions of the current player: bool array of shape ``(NUM_ACTIONS,)``."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        rules.legal_mask(self._a, mask)
        return mask

    def legal_actions(self) -> list[Action]:
        """Legal decisions of the current player, in id order (``[]`` once over)."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        rules.legal_mask(self._a, mask)
        return [ACTIONS[i] for i in np.flatnonzero(mask)]

    def describe(self, action: Action | int | str) -> str:
        """A plain-English description of ``action`` in this position (for UIs and logs)."""
        a = to_action(action)
        s = self._a[0]
        if a.kind in ("reserve_faceup", "buy_faceup") or (a.kind == "buy_choose" and a.level):
            assert a.level is not None and a.slot is not None
            cid = int(s["faceup"][a.level - 1, a.slot - 1])
            return f"{a}: {CARDS[cid] if cid >= 0 else 'empty slot'}"
        if a.kind in ("buy_reserved", "buy_choose") and a.slot:
            p = self.current_player
            if p is not None and a.slot <= int(s["num_reserved"][p]):
                cid = int(s["reserved"][p, a.slot - 1])
                return f"{a}: {CARDS[cid] if cid >= 0 else 'hidden card'}"
        if a.kind == "noble" and a.slot:
            nid = int(s["nobles"][a.slot - 1])
            return f"{a}: {NOBLES[nid] if nid >= 0 else 'empty'}"
        return str(a)


def to_action(action: Action | int | str) -> Action:
    """Coerce an :class:`Action`, an id or a notation string to an :class:`Action`.

    Raises:
        ValueError: a malformed string or an id out of range.
    """
    if isinstance(action, Action):
        return action
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return Action.from_id(int(action))
    if isinstance(action, str):
        return Action.parse(action)
    raise ValueError(f"an action must be an Action, an id or a string, got {action!r}")


class State(_View, ArrayPosition):
    """A full game of classic Splendor, hidden information included (for the host).

    Create with :func:`new_game` or :meth:`from_dict`. Read it through the properties of
    the view; change it only with :meth:`apply`.
    """

    __slots__ = ()

    def __init__(self, array: np.ndarray) -> None:
        """Wrap ``array`` (shape (1,), :data:`STATE_DTYPE`) without copying.

        Raises:
            ValueError: wrong shape or dtype.
        """
        if not isinstance(array, np.ndarray) or array.dtype != STATE_DTYPE or array.shape != (1,):
            raise ValueError("a State wraps a numpy array of shape (1,) and dtype STATE_DTYPE")
        self._a = array

    def apply(self, action: Action | int | str) -> None:
        """Play one decision for the current player (mutates the state).

        Raises:
            ValueError: ``action`` is malformed (bad notation or id).
            IllegalActionError: ``action`` is not legal now; the state is unchanged and the
                message lists the legal decisions.
        """
        a = to_action(action)
        if rules.apply(self._a, a.id) != 0:
            raise IllegalActionError(self._illegal_message(a))

    def _illegal_message(self, a: Action) -> str:
        if self.is_terminal:
            return f"illegal action {str(a)!r}: the game is over"
        legal = ", ".join(str(x) for x in self.legal_actions())
        return (
            f"illegal action {str(a)!r} for seat {self.current_player} "
            f"(phase: {self.phase}). Legal now: {legal}"
        )

    def copy(self) -> State:
        """An independent copy that replays identically."""
        return State(self._a.copy())

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see (C16): deck order, the generator and other seats' blind
        reserves removed (their level stays).

        Raises:
            ValueError: ``seat`` is not a seat of this game.
        """
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0..{self.num_players - 1}, got {seat}")
        a = self._a.copy()
        s = a[0]
        s["decks"][:] = -1
        s["rng"][:] = 0
        s["observer"] = seat
        paying = -1  # a blind-reserved card being paid for is public (it is being bought)
        if int(s["phase"]) == rules.PH_PAY and int(s["pay_src"]) >= 12:
            paying = int(s["pay_src"]) - 12
        for p in range(self.num_players):
            if p != seat:
                for k in range(MAX_RESERVED):
                    if s["reserved_blind"][p, k] and not (p == self.current_player and k == paying):
                        s["reserved"][p, k] = -1
        return Observation(a)

    def to_dict(self) -> dict[str, Any]:
        """The position as a JSON-able dict holding everything, deck order included.

        Format ``splendor-classic-position`` version 1: one key per field of
        :data:`STATE_DTYPE` (nested lists of ints), plus ``format`` and ``version``.
        """
        return array_to_dict(self._a)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        """Load a position written by :meth:`to_dict`: the one gate every position from
        outside passes before the compiled rules (which have no bounds checks) see it.

        Every field is range-checked, each decision phase must agree with the rest, and a
        finished game must look finished (:func:`splendor.classic.position.check_position`).

        Raises:
            ValueError: wrong format or version, a missing field, a field that is not made
                of integers or has the wrong shape, or a position that breaks an invariant;
                the message names the field and the rule (``"corrupt position:
                nobles[2]=12: a noble id is 0..9 or -1 (C3)"``).
        """
        arr = array_from_dict(data)
        problems = check_position(arr)
        if problems:
            raise ValueError("corrupt position: " + "; ".join(problems))
        return cls(arr)

    def to_text(self) -> str:
        """The position as one line of text (a FEN for Splendor, ``docs/notation.md``):
        what is where, deck order and generator included; derived fields left out.
        ``State.from_text(s.to_text())`` equals ``s``."""
        from .notation import to_text

        return to_text(self._a)

    @classmethod
    def from_text(cls, text: str) -> State:
        """Read a position written by :meth:`to_text`; every derived field is computed and
        the position passes the same gate as :meth:`from_dict`.

        Raises:
            splendor.notation.NotationError: (a ``ValueError``) text that cannot be read;
                the message names the field and says what is allowed.
            ValueError: an impossible position (``corrupt position: …``, naming the field
                and the rule).
        """
        from .notation import state_from_text

        return state_from_text(text)

    def __repr__(self) -> str:
        return (
            f"<classic.State players={self.num_players} turn={self.turn} "
            f"current={self.current_player} phase={self.phase!r} scores={self.scores}>"
        )


class Observation(_View):
    """What one seat may see of a game (C16): a :class:`State`-shaped view in which deck
    order, the generator and other seats' blind-reserved cards are removed.

    Bots receive observations, never states. :func:`determinize` turns one back into a
    full :class:`State` consistent with it.
    """

    __slots__ = ()

    def __init__(self, array: np.ndarray) -> None:
        self._a = array
        self._a.setflags(write=False)

    @property
    def seat(self) -> int:
        """The seat this observation belongs to."""
        return int(self._a[0]["observer"])

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict of the observation (same layout as :meth:`State.to_dict`; hidden
        fields hold -1, the generator 0)."""
        return array_to_dict(self._a)

    def to_text(self) -> str:
        """The observation as one line of text (``docs/notation.md``): like
        :meth:`State.to_text` with ``observer=``, deck sizes instead of deck order, no
        generator, and other seats' blind reserves as ``?level`` (C16)."""
        from .notation import to_text

        return to_text(self._a)

    @classmethod
    def from_text(cls, text: str) -> Observation:
        """Read an observation written by :meth:`to_text`.

        Raises:
            splendor.notation.NotationError: text that cannot be read, or that shows what
                its seat cannot see (C16).
            ValueError: no sound position has this view (``corrupt position: …``).
        """
        from .notation import observation_from_text

        return observation_from_text(text)

    def __repr__(self) -> str:
        return (
            f"<classic.Observation seat={self.seat} turn={self.turn} "
            f"current={self.current_player} phase={self.phase!r}>"
        )


def new_game(num_players: int = 2, seed: int | None = None) -> State:
    """Deal a new game (C1-C5).

    Args:
        num_players: 2, 3 or 4.
        seed: an integer ``0 <= seed < 2**63``; the same seed deals the same game (C18).
            ``None`` draws one.

    Raises:
        ValueError: ``num_players`` is not 2, 3 or 4, or ``seed`` is out of range.
    """
    if (
        not isinstance(num_players, (int, np.integer))
        or not MIN_PLAYERS <= num_players <= MAX_PLAYERS
    ):
        raise ValueError(f"Splendor is for 2 to 4 players, got {num_players!r}")
    seed = check_seed(seed)
    arr = _empty_array()
    rules.setup(arr, int(num_players), int(seed))
    return State(arr)


def determinize(observation: Observation, rng: np.random.Generator | int | None = None) -> State:
    """A full :class:`State` consistent with ``observation``: the cards that seat cannot
    see (other seats' blind reserves of known level, deck contents and order) are drawn
    at random from the unseen cards of each level, and a fresh generator is seeded.

    Args:
        observation: from :meth:`State.observation`.
        rng: numpy Generator or seed for the draw.

    Raises:
        ValueError: the observation is inconsistent (its unseen card counts do not match).
    """
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    r = np.zeros(1, dtype=np.uint64)
    seed_rng(r, int(gen.integers(0, 2**63)))
    out = np.zeros(1, dtype=STATE_DTYPE)
    code = rules.determinize_into(observation._a, out, r)
    if code < 0:
        raise ValueError(
            f"inconsistent observation: the unseen level-{-code} cards do not match its "
            "hidden reserves plus deck size"
        )
    return State(out)


def warm_up() -> None:
    """Compile every rules kernel, or load it from numba's on-disk cache (``cache=True``).

    The first run after installation compiles for some seconds; interfaces call this under
    a "preparing the engine…" message so that they never look frozen.
    """
    st = new_game(2, 0)
    st.legal_actions()
    for a in ("take W U G", "reserve 1.1"):
        rules.is_legal(st._a, Action.parse(a).id)
    done = st.copy()
    rules.random_playout(done._a, np.ones(1, dtype=np.uint64), 1 << 20)
    _ = done.winners


# --------------------------------------------------------------------------- positions


def array_to_dict(a: np.ndarray) -> dict[str, Any]:
    """Serialize a state array to a JSON-able dict (see :meth:`State.to_dict`)."""
    return _array_to_dict(a, POSITION_FORMAT, POSITION_VERSION)


def array_from_dict(data: dict[str, Any]) -> np.ndarray:
    """Parse :func:`array_to_dict` output back into a state array.

    Only the format is checked here (every field present, integers of the right shape);
    :func:`splendor.classic.position.check_position` judges the position.

    Raises:
        ValueError: not a dict, wrong format/version, missing or malformed field (a float,
            a boolean or text where an integer belongs included).
    """
    arr = _array_from_dict(data, STATE_DTYPE, POSITION_FORMAT, POSITION_VERSION, "classic Splendor")
    check_integer_fields(data, STATE_DTYPE)
    return arr


def replay(num_players: int, seed: int, actions: Iterable[Action | int | str]) -> State:
    """Deal ``new_game(num_players, seed)`` and apply ``actions`` in order (C18).

    Raises:
        ValueError / IllegalActionError: from :meth:`State.apply`, for the first bad one.
    """
    st = new_game(num_players, seed)
    for a in actions:
        st.apply(a)
    return st


__all__ = [
    "STATE_DTYPE",
    "HiddenCard",
    "IllegalActionError",
    "Observation",
    "PlayerView",
    "State",
    "check_invariants",
    "check_position",
    "determinize",
    "new_game",
    "replay",
    "warm_up",
]
