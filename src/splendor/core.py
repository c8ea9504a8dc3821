"""Pieces both game engines share: errors, the hidden-card marker, the compiled generator
and the position (de)serialisation of a state array.

Nothing here knows a rule of either game; :mod:`splendor.classic` and :mod:`splendor.duel`
build on it.
"""

from __future__ import annotations

import hashlib
import json
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
        return int(np.random.SeedSequence().entropy % (1 << 62))
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
        raise ValueError(f"seed must be an integer 0 <= seed < 2**63, got {seed!r}")
    return int(seed)


# --------------------------------------------------------------------------- compiled


if config.DISABLE_JIT:

    def state_record(arr: np.ndarray):
        """The game record of ``arr`` with attribute access (``s.tokens``): plain Python
        (``NUMBA_DISABLE_JIT=1``) needs an ``np.record``, since ``arr[0]`` is a
        ``numpy.void`` without attribute access."""
        return arr.view(np.recarray)[0]

else:

    @njit(cache=True, inline="always")
    def state_record(arr: np.ndarray):
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
    module, before any of its functions runs, with the files or folders (their .py, .csv and .md files) it depends on: when their
    content (and the module's own) differs from the last run, the module's cache files in
    ``__pycache__`` are deleted so numba recompiles them. Errors (read-only installs) are
    ignored; the cost is one hash of the listed files per import.
    """
    src = Path(module_file)
    cache_dir = src.parent / "__pycache__"
    digest = hashlib.sha256()
    try:
        for name in (module_file, *dependencies):
            path = Path(name)
            files = sorted(
                f for f in path.iterdir() if f.suffix in (".py", ".csv", ".md")
            ) if path.is_dir() else [path]
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
        return type(other) is type(self) and self._a.tobytes() == other._a.tobytes()  # type: ignore[attr-defined]

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
        for i in range(m - 1, 0, -1):
            j = rng_below(rng, i + 1)
            t = pool[i]
            pool[i] = pool[j]
            pool[j] = t
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
