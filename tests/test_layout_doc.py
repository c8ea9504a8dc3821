"""docs/layout.md is drawn from the tree (issue 31): its generated part equals what
``tools/layout.py`` writes now, so every module appears in it with its docstring's first
sentence, and a module added, moved or removed fails here until the page is redrawn."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("layout_tool", ROOT / "tools" / "layout.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_is_drawn_from_the_tree() -> None:
    tool = _tool()
    page = tool.PAGE.read_text(encoding="utf-8")
    assert tool.render(page) == page, "docs/layout.md is stale: run python tools/layout.py"


def test_every_module_appears_on_the_page() -> None:
    tool = _tool()
    page = tool.PAGE.read_text(encoding="utf-8")
    tree = page.split(tool.BEGIN, 1)[1].split(tool.END, 1)[0]
    names = {name.rstrip("/").rsplit("/", 1)[-1] for name, _ in tool.entries()}
    modules = {p.stem for p in tool.PACKAGE.rglob("*.py") if "migrations" not in p.parts}
    modules -= {"__init__"}
    missing = sorted(m for m in modules if f" {m}.py " not in tree and f" {m}.py\n" not in tree)
    assert missing == [], f"modules missing from docs/layout.md: {missing}"
    assert names


def test_a_new_module_makes_the_page_stale(tmp_path: Path) -> None:
    """The check can fail: a package with one more module draws another tree."""
    tool = _tool()
    package = tmp_path / "splendor"
    package.mkdir()
    (package / "__init__.py").write_text('"""The package."""\n')
    (package / "alpha.py").write_text('"""Alpha does one thing. More."""\n')
    before = tool.tree(package)
    (package / "beta.py").write_text('"""Beta does another."""\n')
    after = tool.tree(package)
    assert "alpha.py" in before and "Alpha does one thing." in before and "More" not in before
    assert "beta.py" not in before and "beta.py" in after and "Beta does another." in after
