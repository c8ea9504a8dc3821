"""The layers point one way (``../shared/DESIGN.md``): data -> engines -> game protocol ->
bots/records -> match/arena/rl -> tui/server -> cli, and nothing reaches up; no interface
imports another (the server never imports the terminal, nor the reverse). Read from the
source with :mod:`ast`: every ``import`` of a ``splendor`` module, at any depth (imports
inside functions count too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "splendor"

LAYER = {
    "data": 0,
    "colors": 0,
    "errors": 0,
    "seeds": 0,
    "jit": 0,
    "rng": 0,
    "positions": 0,
    "views": 0,
    "rule_pieces": 0,
    "descriptor": 0,
    "notation": 0,
    "i18n": 0,
    "explain": 0,
    "effects": 0,
    "move_text": 0,
    "move_words": 0,
    "classic": 1,
    "duel": 1,
    "game": 2,
    "commands": 2,
    "encoding": 2,
    "conformance": 2,
    "bots": 3,
    "record": 3,
    "bench": 3,
    "match": 4,
    "arena": 4,
    "rl": 4,
    "analysis": 4,
    "train": 4,
    "tui": 5,
    "server": 5,
    "cli": 6,
}
"""The layer of each top-level part of the package (``splendor/__init__.py`` re-exports
and is not checked)."""

APART = [{"tui", "server"}, {"classic", "duel"}]
"""Parts of one layer that never import each other."""


def _part(module: str) -> str | None:
    """The top-level part of a ``splendor.x.y`` module name (None: not ``splendor``'s)."""
    words = module.split(".")
    if words[0] != "splendor":
        return None
    return words[1] if len(words) > 1 else ""


def _imports(path: Path) -> list[tuple[int, str]]:
    """``(line, absolute module)`` of every import in ``path``."""
    rel = path.relative_to(SRC.parent).with_suffix("")
    package = list(rel.parts if path.name == "__init__.py" else rel.parts[:-1])
    if path.name == "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
                if node.module is None:  # from . import x: x is a module of that package
                    found += [(node.lineno, f"{module}.{a.name}") for a in node.names]
                    continue
            else:
                module = node.module or ""
            found.append((node.lineno, module))
    return found


def _sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if p != SRC / "__init__.py")


def test_the_layers_point_one_way() -> None:
    wrong = []
    for path in _sources():
        mine = path.relative_to(SRC).parts[0].removesuffix(".py")
        assert mine in LAYER, f"{path}: add {mine!r} to LAYER"
        for line, module in _imports(path):
            theirs = _part(module)
            if theirs is None or theirs == mine or theirs == "":
                continue
            assert theirs in LAYER, f"{path}:{line}: unknown part {theirs!r}"
            if LAYER[theirs] > LAYER[mine] or {mine, theirs} in APART:
                wrong.append(f"{path.relative_to(SRC)}:{line} ({mine}) imports {module}")
    assert wrong == [], "imports that reach up or across:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    "source, importer, expected",
    [
        ("from ..tui.explain import why_illegal", "server/protocol.py", "splendor.tui.explain"),
        ("from . import render", "tui/games.py", "splendor.tui.render"),
        ("from .actions import Action", "classic/__init__.py", "splendor.classic.actions"),
        ("import splendor.cli", "server/app.py", "splendor.cli"),
    ],
)
def test_imports_are_resolved_to_absolute_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, importer: str, expected: str
) -> None:
    """The reader of imports itself: relative imports resolve against the importing
    module's package (so that a wrong import above cannot hide)."""
    root = tmp_path / "splendor"
    path = root / importer
    path.parent.mkdir(parents=True)
    path.write_text(source + "\n", encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.SRC", root)
    assert _imports(path) == [(1, expected)]
