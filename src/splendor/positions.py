"""Positions as JSON, for both games: a state array to a dict of plain integers and
back, the checks of such a dict's fields (integers written as integers, values in range,
with the rule that fixes the range), and the mixin that gives a ``State`` its JSON form,
equality and hashing."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from .errors import PositionError


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
        PositionError: not a dict, wrong format/version, missing or malformed field (the
            message names the field).
    """
    if not isinstance(data, dict):
        raise PositionError(f"a position must be a JSON object, got {type(data).__name__}")
    if data.get("format") != fmt:
        raise PositionError(
            f"not a {game_label} position: format must be {fmt!r}, got {data.get('format')!r}"
        )
    if data.get("version") != version:
        raise PositionError(
            f"unsupported position version {data.get('version')!r}; this build reads {version}"
        )
    a = np.zeros(1, dtype=dtype)
    s = a[0]
    for name in dtype.names or ():
        if name not in data:
            raise PositionError(f"position is missing field {name!r}")
        shape = dtype[name].shape
        try:
            if name == "rng":
                value = np.array([int(x) for x in data[name]], dtype=np.uint64)
            else:
                value = np.array(data[name], dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            raise PositionError(f"position field {name!r} must hold integers") from None
        if value.shape != shape:
            raise PositionError(
                f"position field {name!r} must have shape {shape}, got {value.shape}"
            )
        info = np.iinfo(dtype[name].base)
        if value.size and (value.min() < info.min or value.max() > info.max):
            raise PositionError(f"position field {name!r} is out of range")
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
        PositionError: names the first field holding something else, and the value.
    """
    for name in dtype.names or ():
        if name in data:
            bad = _integer_problem(data[name], name in text_fields)
            if bad is not None:
                raise PositionError(f"position field {name!r} must hold integers: {bad}")


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
    ``to_dict`` and ``from_dict`` (which validate the position and raise
    :class:`~splendor.errors.PositionError`).
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
        """Load :meth:`to_json` output.

        Raises:
            PositionError: bad JSON (the message quotes the start of the text) or a bad
                position (:meth:`from_dict`).
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            shown = text[:40] + ("…" if len(text) > 40 else "") if isinstance(text, str) else text
            raise PositionError(f"position is not valid JSON ({e}): {shown!r}") from None
        return cls.from_dict(data)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._a.tobytes() == other._a.tobytes()

    def __hash__(self) -> int:
        return hash(self._a.tobytes())
