"""The engine installs alone (issue 31): the package requires only what the engine, the
records, the bots and the command line need, and importing those parts loads none of the
extras' libraries (the web app's, the research interfaces', training's, plots', Ray's)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

CORE = {"numpy", "numba", "typer", "rich", "babel"}
"""What ``pip install splendor`` brings in (lower-case names)."""

EXTRAS = {
    "web": {"fastapi", "uvicorn", "websockets", "sqlalchemy", "alembic", "psycopg"},
    "rl": {"gymnasium", "pettingzoo", "open-spiel"},
    "train": {"torch"},
    "analysis": {"matplotlib"},
    "ray": {"ray"},
}
"""Some of what each extra brings in."""

HEAVY = (
    "fastapi",
    "uvicorn",
    "starlette",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "argon2",
    "glicko2",
    "openskill",
    "limits",
    "platformdirs",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "torch",
    "matplotlib",
    "ray",
)
"""Top-level modules of the extras' libraries, none of which the engine may load."""

ENGINE_PARTS = [
    "splendor",
    "splendor.classic",
    "splendor.duel",
    "splendor.game",
    "splendor.record",
    "splendor.match",
    "splendor.bots",
    "splendor.encoding",
    "splendor.conformance",
    "splendor.arena",
    "splendor.analysis",
    "splendor.tui",
    "splendor.cli",
]
"""What a researcher or a terminal player imports (``splendor play``, ``arena``,
``analyse``, ``replay``, ``position``, ``conformance``, ``bench``)."""


def _requirements() -> list[Requirement]:
    return [Requirement(r) for r in metadata.requires("splendor") or []]


def test_the_required_dependencies_are_the_engines() -> None:
    required = {
        canonicalize_name(r.name)
        for r in _requirements()
        if r.marker is None or "extra" not in str(r.marker)
    }
    assert required == CORE


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_each_extra_brings_its_libraries(extra: str) -> None:
    brought = {
        canonicalize_name(r.name)
        for r in _requirements()
        if r.marker is not None and r.marker.evaluate({"extra": extra})
    }
    assert EXTRAS[extra] <= brought, f"[{extra}] lacks {EXTRAS[extra] - brought}"


def test_all_brings_every_extra() -> None:
    (everything,) = [
        r for r in _requirements() if r.marker is not None and r.marker.evaluate({"extra": "all"})
    ]
    assert everything.name == "splendor" and everything.extras == set(EXTRAS)


@pytest.mark.parametrize("module", ENGINE_PARTS)
def test_the_engine_loads_no_extra(module: str) -> None:
    """In a fresh interpreter, importing ``module`` imports no library of an extra."""
    code = (
        "import importlib, json, sys\n"
        f"importlib.import_module({module!r})\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
