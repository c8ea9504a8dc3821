"""numba plumbing both engines share: the record accessor of a state array, the cache
control for compiled code that calls other files' compiled code, and fast entry points
that skip numba's per-call type dispatch."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numba import config, njit

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
    str(_PACKAGE / name)
    for name in (
        "jit.py",
        "rng.py",
        "rule_pieces.py",
        "colors.py",
        "classic",
        "duel",
        "data",
    )
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
