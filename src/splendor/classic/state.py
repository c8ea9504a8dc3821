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

from ..errors import IllegalActionError
from ..positions import array_from_dict as _array_from_dict
from ..positions import array_to_dict as _array_to_dict
from ..positions import check_integer_fields
from ..seeds import check_seed
from ..views import (
    ArrayObservation,
    ArrayState,
    ArrayView,
    GameTables,
    HiddenCard,
    coerce_action,
    determinize_array,
    warm_up_kernels,
)
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

END_NAMES = {rules.END_POINTS: "points", rules.END_STALL: "stall"}
"""Name of each reason a game ends (``rules.END_*``; C14, C17)."""


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


GAME_TABLES: GameTables[Action, Card] = GameTables(
    name="classic",
    state_dtype=STATE_DTYPE,
    position_format=POSITION_FORMAT,
    position_version=POSITION_VERSION,
    game_label="classic Splendor",
    phase_names=PHASE_NAMES,
    end_names=END_NAMES,
    ph_pay=rules.PH_PAY,
    ph_over=rules.PH_OVER,
    cards=CARDS,
    action_type=Action,
    actions=ACTIONS,
    num_actions=NUM_ACTIONS,
    first_reserved_src=NUM_LEVELS * FACEUP_PER_LEVEL,  # pay_src: 0-11 face-up, 12-14 reserved
    legal_mask=rules.legal_mask,
    apply=rules.apply,
    determinize_into=rules.determinize_into,
    gate=check_position,
    notation="splendor.classic.notation",
    repr_players=True,
)
"""What the views shared with Splendor Duel (:class:`splendor.views.ArrayView`) need of
classic Splendor."""


class _View(ArrayView[Action, Card]):
    """Read-only accessors shared by :class:`State` and :class:`Observation`, besides those
    both games share (:class:`splendor.views.ArrayView`)."""

    __slots__ = ()
    _game = GAME_TABLES

    @property
    def num_players(self) -> int:
        """Seats in this game: 2, 3 or 4."""
        return int(self._a[0]["num_players"])

    @property
    def final_round(self) -> bool:
        """True once a player reached 15 points: the round is being completed (C14)."""
        return bool(self._a[0]["final_round"])

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

    def player(self, seat: int) -> PlayerView:
        """Holdings of ``seat``.

        Raises:
            ValueError: ``seat`` is not 0 <= seat < num_players.
        """
        self._check_seat(seat)
        s = self._a[0]
        reserved, blind = self._reserved(seat)
        return PlayerView(
            seat=seat,
            tokens=tuple(int(x) for x in s["tokens"][seat]),
            bonuses=tuple(int(x) for x in s["bonuses"][seat]),
            points=int(s["points"][seat]),
            reserved=reserved,
            reserved_blind=blind,
            purchased=tuple(CARDS[int(c)] for c in np.flatnonzero(s["purchased_by"] == seat)),
            nobles=tuple(NOBLES[int(n)] for n in np.flatnonzero(s["noble_owner"] == seat)),
        )

    @property
    def players(self) -> list[PlayerView]:
        """Every seat's :class:`PlayerView`."""
        return [self.player(p) for p in range(self.num_players)]

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
        ParseError: a malformed string or an id out of range.
    """
    return coerce_action(action, Action)


class Observation(_View, ArrayObservation[Action, Card]):
    """What one seat may see of a game (C16): a :class:`State`-shaped view in which deck
    order, the generator and other seats' blind-reserved cards are removed.

    Bots receive observations, never states. :func:`determinize` turns one back into a
    full :class:`State` consistent with it. ``to_dict``, ``to_text``, ``from_text`` and
    the accessors both games share are :class:`splendor.views.ArrayObservation`'s.
    """

    __slots__ = ()


class State(_View, ArrayState[Action, Card, Observation]):
    """A full game of classic Splendor, hidden information included (for the host).

    Create with :func:`new_game` or :meth:`from_dict`. Read it through the properties of
    the view; change it only with :meth:`apply`. ``apply``, ``copy``, ``observation``
    (C16), ``to_dict``/``from_dict`` (gated by :func:`check_position`),
    ``to_text``/``from_text`` and the accessors both games share are
    :class:`splendor.views.ArrayState`'s.
    """

    __slots__ = ()
    _observation_type = Observation


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
        PositionError: the observation is inconsistent (its unseen card counts do not
            match).
    """
    return State(determinize_array(observation._a, rng, rules.determinize_into))


def warm_up() -> None:
    """Compile every rules kernel, or load it from numba's on-disk cache (``cache=True``).

    The first run after installation compiles for some seconds; interfaces call this under
    a "preparing the engine…" message so that they never look frozen.
    """
    probes = [Action.parse(a).id for a in ("take W U G", "reserve 1.1")]
    warm_up_kernels(new_game(2, 0), rules.is_legal, rules.random_playout, probes)


# --------------------------------------------------------------------------- positions


def array_to_dict(a: np.ndarray) -> dict[str, Any]:
    """Serialize a state array to a JSON-able dict (see :meth:`State.to_dict`)."""
    return _array_to_dict(a, POSITION_FORMAT, POSITION_VERSION)


def array_from_dict(data: dict[str, Any]) -> np.ndarray:
    """Parse :func:`array_to_dict` output back into a state array.

    Only the format is checked here (every field present, integers of the right shape);
    :func:`splendor.classic.position.check_position` judges the position.

    Raises:
        PositionError: not a dict, wrong format/version, missing or malformed field (a
            float, a boolean or text where an integer belongs included).
    """
    arr = _array_from_dict(data, STATE_DTYPE, POSITION_FORMAT, POSITION_VERSION, "classic Splendor")
    check_integer_fields(data, STATE_DTYPE)
    return arr


def replay(num_players: int, seed: int, actions: Iterable[Action | int | str]) -> State:
    """Deal ``new_game(num_players, seed)`` and apply ``actions`` in order (C18).

    Raises:
        ParseError / IllegalActionError: from :meth:`State.apply`, for the first bad one.
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
