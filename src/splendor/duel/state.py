"""Game state of Splendor Duel: one numpy structured array, and its Python views.

The whole state of a game is one structured array of shape ``(1,)`` and dtype
:data:`STATE_DTYPE`; the compiled rules in :mod:`splendor.duel.rules` read and write it.
:class:`State` (a full game, for the host) and :class:`Observation` (what one seat may see,
D22) are thin read-only views over such an array; only :meth:`State.apply` changes a state.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..colors import DUEL_TOKEN_LETTERS
from ..errors import IllegalActionError
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
from .board import NUM_CELLS, cell_name
from .cards import (
    CARDS,
    MAX_DECK,
    MAX_RESERVED,
    NUM_CARDS,
    NUM_LEVELS,
    NUM_PYRAMID,
    NUM_ROYALS,
    PYRAMID_SIZES,
    PYRAMID_START,
    ROYALS,
    Card,
    Royal,
)
from .position import position_problems

NUM_PLAYERS = 2
POSITION_FORMAT = "splendor-duel-position"
POSITION_VERSION = 1

STATE_DTYPE = np.dtype(
    [
        ("current", np.int8),  # seat to decide, -1 once the game is over
        ("phase", np.int8),  # rules.PH_*
        ("observer", np.int8),  # -1 for a full state, else the seat of an observation
        ("end_reason", np.int8),  # rules.END_*
        ("winner", np.int8),  # winning seat, -1 none (yet)
        ("replenished", np.int8),  # 1 once the board was replenished this turn (D6, D7)
        ("again", np.int8),  # 1: the current player plays another turn (D13)
        ("pend", np.int8),  # rules.PEND_* effects of the bought card still to resolve
        ("pend_card", np.int8),  # the card whose effects are resolving, else -1
        ("turn", np.int32),  # completed turns (extra turns included)
        ("turn_cap", np.int32),  # D25: end after this many turns; 0 = no cap
        ("board", np.int8, (NUM_CELLS,)),  # token colour 0..6 per cell, -1 empty
        ("bag", np.int8, (7,)),  # tokens in the bag per colour (W U G R K P *)
        ("decks", np.int8, (NUM_LEVELS, MAX_DECK)),  # card ids, top at deck_len-1; -1 hidden
        ("deck_len", np.int8, (NUM_LEVELS,)),
        ("pyramid", np.int8, (NUM_PYRAMID,)),  # card id or -1 (empty): 5 + 4 + 3 slots
        ("tokens", np.int8, (NUM_PLAYERS, 7)),
        ("bonuses", np.int8, (NUM_PLAYERS, 5)),
        ("points", np.int16, (NUM_PLAYERS,)),  # prestige: cards and royal cards
        ("crowns", np.int8, (NUM_PLAYERS,)),
        ("color_points", np.int16, (NUM_PLAYERS, 5)),  # card points per bonus colour (D21)
        ("privileges", np.int8, (NUM_PLAYERS,)),  # the rest lie beside the board (D5, D18)
        ("reserved", np.int8, (NUM_PLAYERS, MAX_RESERVED)),  # card id, -1 empty or hidden
        ("reserved_level", np.int8, (NUM_PLAYERS, MAX_RESERVED)),  # 1-3, 0 empty
        ("reserved_blind", np.int8, (NUM_PLAYERS, MAX_RESERVED)),  # 1: taken from a deck
        ("num_reserved", np.int8, (NUM_PLAYERS,)),
        ("card_owner", np.int8, (NUM_CARDS,)),  # seat that bought each card, -1 none
        ("card_color", np.int8, (NUM_CARDS,)),  # bonus colour of a bought card (joker: the
        # colour it is attached to, -1 until then); -1 for none or not bought
        ("royal_owner", np.int8, (NUM_ROYALS,)),  # seat holding each royal card, -1 none
        ("crown_claims", np.int8, (NUM_PLAYERS,)),  # crown thresholds (3, 6) already used
        ("pay_card", np.int8),  # card being paid for in phase PAY, else -1
        ("pay_src", np.int8),  # its source: 0-11 pyramid, 12-14 own reserved slot
        ("pay_need", np.int8, (6,)),  # coloured tokens and pearls still owed
        ("pay_gold", np.int8),  # gold committed so far
        ("rng", np.uint64, (1,)),  # splitmix64 state (hidden information)
    ]
)
"""Record dtype of a Splendor Duel state (see the field comments)."""

PHASE_NAMES = {
    rules.PH_MAIN: "main",
    rules.PH_RESERVE: "reserve",
    rules.PH_PAY: "payment",
    rules.PH_JOKER: "joker",
    rules.PH_TOKEN: "token",
    rules.PH_STEAL: "steal",
    rules.PH_ROYAL: "royal",
    rules.PH_RETURN: "return tokens",
    rules.PH_OVER: "game over",
}

END_NAMES = {
    rules.END_POINTS: "points",
    rules.END_CROWNS: "crowns",
    rules.END_COLOR: "colour",
    rules.END_CAP: "turn cap",
}


@dataclass(frozen=True)
class PlayerView:
    """One seat's holdings as anybody may see them (D22).

    Attributes:
        seat: 0 or 1.
        tokens: tokens per colour, length 7 (W U G R K pearl gold).
        bonuses: bonuses per gem colour, length 5 (jokers counted in their colour).
        points: prestige points (cards and royal cards).
        crowns: crowns on bought cards (D19, D21).
        color_points: prestige points of bought cards per bonus colour, length 5 (D21).
        privileges: privilege scrolls held (D6, D18).
        reserved: reserved cards in slot order; :class:`HiddenCard` for the opponent's
            blind reserve in an observation.
        reserved_blind: per reserved slot, True when it was reserved from a deck (D9).
        purchased: bought cards, by id.
        purchased_colors: the bonus colour of each bought card (0..4; a joker's attached
            colour; -1 for none), parallel to ``purchased``.
        royals: royal cards taken (D19).
    """

    seat: int
    tokens: tuple[int, ...]
    bonuses: tuple[int, ...]
    points: int
    crowns: int
    color_points: tuple[int, ...]
    privileges: int
    reserved: tuple[Card | HiddenCard, ...]
    reserved_blind: tuple[bool, ...]
    purchased: tuple[Card, ...]
    purchased_colors: tuple[int, ...]
    royals: tuple[Royal, ...]

    @property
    def num_tokens(self) -> int:
        """Tokens held, gold included (the D20 limit is 10)."""
        return sum(self.tokens)


def _empty_array() -> np.ndarray:
    return np.zeros(1, dtype=STATE_DTYPE)


GAME_TABLES: GameTables[Action, Card] = GameTables(
    name="duel",
    state_dtype=STATE_DTYPE,
    position_format=POSITION_FORMAT,
    position_version=POSITION_VERSION,
    game_label="Splendor Duel",
    phase_names=PHASE_NAMES,
    end_names=END_NAMES,
    ph_pay=rules.PH_PAY,
    ph_over=rules.PH_OVER,
    cards=CARDS,
    action_type=Action,
    actions=ACTIONS,
    num_actions=NUM_ACTIONS,
    first_reserved_src=NUM_PYRAMID,  # pay_src: 0-11 pyramid, 12-14 reserved
    legal_mask=rules.legal_mask,
    apply=rules.apply,
    determinize_into=rules.determinize_into,
    gate=position_problems,  # check_invariants
    notation="splendor.duel.notation",
    seats_text="0 or 1",
    legal_shown=40,
    state_label="duel State",
)
"""What the views shared with classic Splendor (:class:`splendor.views.ArrayView`) need of
Splendor Duel."""


class _View(ArrayView[Action, Card]):
    """Read-only accessors shared by :class:`State` and :class:`Observation`, besides those
    both games share (:class:`splendor.views.ArrayView`)."""

    __slots__ = ()
    _game = GAME_TABLES

    @property
    def num_players(self) -> int:
        """Always 2."""
        return NUM_PLAYERS

    @property
    def turn_cap(self) -> int | None:
        """The host's turn cap (D25), or ``None`` when there is none."""
        cap = int(self._a[0]["turn_cap"])
        return cap or None

    @property
    def replenished(self) -> bool:
        """True once the board was replenished this turn (no more privileges, D6/D7)."""
        return bool(self._a[0]["replenished"])

    @property
    def extra_turn(self) -> bool:
        """True when the current player will play again after this turn (D13)."""
        return bool(self._a[0]["again"])

    @property
    def winners(self) -> list[int]:
        """``[seat]`` of the winner (D21); ``[]`` before the end or after a turn cap."""
        w = int(self._a[0]["winner"])
        return [w] if self.is_terminal and w >= 0 else []

    @property
    def board(self) -> tuple[int | None, ...]:
        """Token colour on each of the 25 cells (index ``row * 5 + col``), 0..6
        (W U G R K pearl gold), ``None`` for an empty cell."""
        return tuple(int(v) if v >= 0 else None for v in self._a[0]["board"])

    @property
    def bag(self) -> tuple[int, ...]:
        """Tokens in the bag per colour, length 7 (public as a multiset, D22)."""
        return tuple(int(x) for x in self._a[0]["bag"])

    @property
    def free_privileges(self) -> int:
        """Privilege scrolls beside the board (D5, D18)."""
        return 3 - int(self._a[0]["privileges"].sum())

    @property
    def pyramid(self) -> tuple[tuple[Card | None, ...], ...]:
        """The face-up pyramid, ``pyramid[level-1][slot-1]`` (5, 4 and 3 slots); ``None``
        for an empty slot (D3, D11)."""
        p = self._a[0]["pyramid"]
        return tuple(
            tuple(
                CARDS[int(p[PYRAMID_START[lvl] + k])] if p[PYRAMID_START[lvl] + k] >= 0 else None
                for k in range(PYRAMID_SIZES[lvl])
            )
            for lvl in range(NUM_LEVELS)
        )

    @property
    def royals(self) -> tuple[Royal | None, ...]:
        """The royal cards by number (1-4 in the notation); ``None`` once taken (D19)."""
        return tuple(
            ROYALS[k] if self._a[0]["royal_owner"][k] < 0 else None for k in range(NUM_ROYALS)
        )

    @property
    def pending_card(self) -> Card | None:
        """The card just bought whose joker, token or steal is being resolved, else None."""
        c = int(self._a[0]["pend_card"])
        return CARDS[c] if c >= 0 else None

    def player(self, seat: int) -> PlayerView:
        """Holdings of ``seat``.

        Raises:
            ValueError: ``seat`` is not 0 or 1.
        """
        self._check_seat(seat)
        s = self._a[0]
        reserved, blind = self._reserved(seat)
        mine = np.flatnonzero(s["card_owner"] == seat)
        return PlayerView(
            seat=seat,
            tokens=tuple(int(x) for x in s["tokens"][seat]),
            bonuses=tuple(int(x) for x in s["bonuses"][seat]),
            points=int(s["points"][seat]),
            crowns=int(s["crowns"][seat]),
            color_points=tuple(int(x) for x in s["color_points"][seat]),
            privileges=int(s["privileges"][seat]),
            reserved=reserved,
            reserved_blind=blind,
            purchased=tuple(CARDS[int(c)] for c in mine),
            purchased_colors=tuple(int(s["card_color"][c]) for c in mine),
            royals=tuple(ROYALS[int(k)] for k in np.flatnonzero(s["royal_owner"] == seat)),
        )

    @property
    def players(self) -> list[PlayerView]:
        """Both seats' :class:`PlayerView`."""
        return [self.player(0), self.player(1)]

    def describe(self, action: Action | int | str) -> str:
        """A plain-English description of ``action`` in this position (for UIs and logs)."""
        a = to_action(action)
        s = self._a[0]
        if a.kind in ("reserve_pyramid", "buy", "buy_choose") and not a.reserved:
            assert a.level is not None and a.slot is not None
            cid = int(s["pyramid"][PYRAMID_START[a.level - 1] + a.slot - 1])
            return f"{a}: {CARDS[cid] if cid >= 0 else 'empty slot'}"
        if a.reserved and a.slot:
            p = self.current_player
            if p is not None and a.slot <= int(s["num_reserved"][p]):
                cid = int(s["reserved"][p, a.slot - 1])
                return f"{a}: {CARDS[cid] if cid >= 0 else 'hidden card'}"
        if a.kind == "take":
            got = " ".join(
                DUEL_TOKEN_LETTERS[int(s["board"][c])] if s["board"][c] >= 0 else "-"
                for c in a.cells
            )
            return f"{a}: {got}"
        if a.kind == "royal" and a.slot:
            return f"{a}: {ROYALS[a.slot - 1]}"
        return str(a)


def to_action(action: Action | int | str) -> Action:
    """Coerce an :class:`Action`, an id or a notation string to an :class:`Action`.

    Raises:
        ParseError: a malformed string or an id out of range.
    """
    return coerce_action(action, Action)


class Observation(_View, ArrayObservation[Action, Card]):
    """What one seat may see of a duel (D22): a :class:`State`-shaped view without deck
    order, the generator and the opponent's blind-reserved cards.

    Bots receive observations, never states; :func:`determinize` turns one back into a
    full :class:`State` consistent with it. ``to_dict``, ``to_text``, ``from_text`` and
    the accessors both games share are :class:`splendor.views.ArrayObservation`'s.
    """

    __slots__ = ()


class State(_View, ArrayState[Action, Card, Observation]):
    """A full game of Splendor Duel, hidden information included (for the host).

    Create with :func:`new_game` or :meth:`from_dict`; change it only with :meth:`apply`.
    ``apply``, ``copy``, ``observation`` (D22), ``to_dict``/``from_dict`` (gated by
    :func:`check_invariants`), ``to_text``/``from_text`` and the accessors both games
    share are :class:`splendor.views.ArrayState`'s.
    """

    __slots__ = ()
    _observation_type = Observation


def new_game(
    num_players: int = 2, seed: int | None = None, *, turn_cap: int | None = None
) -> State:
    """Deal a new game of Splendor Duel (D1-D5).

    Args:
        num_players: must be 2 (kept for the common game protocol).
        seed: an integer ``0 <= seed < 2**63``; the same seed deals the same game (D24).
            ``None`` draws one.
        turn_cap: end the game with no winner after this many turns (D25; a host setting
            for bot and research games); ``None`` for no cap.

    Raises:
        ValueError: ``num_players`` is not 2, ``seed`` or ``turn_cap`` out of range.
    """
    if num_players != NUM_PLAYERS or isinstance(num_players, bool):
        raise ValueError(f"Splendor Duel is for 2 players, got {num_players!r}")
    seed = check_seed(seed)
    if turn_cap is not None and (
        isinstance(turn_cap, bool)
        or not isinstance(turn_cap, (int, np.integer))
        or not 1 <= turn_cap < 2**31
    ):
        raise ValueError(f"turn_cap must be a positive integer or None, got {turn_cap!r}")
    arr = _empty_array()
    rules.setup(arr, seed, int(turn_cap or 0))
    return State(arr)


def determinize(observation: Observation, rng: np.random.Generator | int | None = None) -> State:
    """A full :class:`State` consistent with ``observation``: the cards that seat cannot
    see (the opponent's blind reserves of known level, deck contents and order) are drawn
    at random from the unseen cards of each level, and a fresh generator is seeded (so bag
    draws are fresh too).

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
    warm_up_kernels(new_game(2, 0), rules.is_legal, rules.random_playout, [0])


# --------------------------------------------------------------------------- invariants


def check_invariants(a: np.ndarray) -> list[str]:
    """Every reason the full duel state ``a`` is not one the rules can reach; ``[]`` when
    it is sound. The same judge gates :meth:`State.from_dict` and runs after every
    decision in the property tests.

    Checks (see :mod:`splendor.duel.position`): every field in its range; the seat to
    play against the phase; the 25 tokens (D1), 3 privileges (D5), the token limit
    (D20); each of the 67 cards in exactly one place of its level (D3, D9, D11) and the
    colour of every bought card (D14); bonuses, points, crowns and colour points equal to
    the sum of their parts; royal cards against crown thresholds (D19); the decision in
    progress (the pending effects of the card being resolved, D13-D17, D19; a payment,
    D10; a reserve, D9; the token limit of the phase, D6, D20); the turn against its cap
    (D25); in progress or finished, with a reason and winner that hold (D21, D25); and a
    live game having a legal decision.

    Args:
        a: shape ``(1,)``, dtype :data:`STATE_DTYPE`.

    Returns:
        The broken invariants, each naming the field, what is allowed and the rule.
    """
    return position_problems(a)


def replay(
    seed: int, actions: Iterable[Action | int | str], *, turn_cap: int | None = None
) -> State:
    """Deal ``new_game(2, seed, turn_cap=turn_cap)`` and apply ``actions`` in order (D24).

    Raises:
        ParseError / IllegalActionError: from :meth:`State.apply`, for the first bad one.
    """
    st = new_game(2, seed, turn_cap=turn_cap)
    for a in actions:
        st.apply(a)
    return st


def board_rows(view: _View) -> list[list[int | None]]:
    """The board as 5 rows of 5 cells (row 1 at the top), for drawing."""
    b = view.board
    return [list(b[r * 5 : r * 5 + 5]) for r in range(5)]


__all__ = [
    "STATE_DTYPE",
    "HiddenCard",
    "IllegalActionError",
    "Observation",
    "PlayerView",
    "State",
    "board_rows",
    "cell_name",
    "check_invariants",
    "determinize",
    "new_game",
    "replay",
    "warm_up",
]
