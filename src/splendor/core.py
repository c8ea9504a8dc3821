"""Pieces both game engines share: errors, the hidden-card marker, the compiled generator,
the position (de)serialisation of a state array, and the compiled pieces of the rules that
both games play alike (decks, reserved slots, chosen payments, random playouts,
determinization).

Nothing here is particular to one game; :mod:`splendor.classic` and :mod:`splendor.duel`
build on it (each game's ``rules.py`` calls the compiled pieces with its own tables).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
