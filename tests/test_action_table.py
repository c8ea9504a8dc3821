"""The published action-id table (``docs/action-ids.md``) is what ``tools/action_table.py``
writes from the engines' own tables now, and it lists every id of both games once."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from splendor.game import games

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location(
        "action_table", ROOT / "tools" / "action_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_page_is_what_the_generator_writes():
    tool = _tool()
    committed = (ROOT / "docs" / "action-ids.md").read_text(encoding="utf-8")
    assert committed == tool.render(), "run: .venv/bin/python tools/action_table.py"
    assert tool.main(["--check"]) == 0


def test_every_id_of_both_games_is_listed_once_with_its_notation():
    text = (ROOT / "docs" / "action-ids.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    assert [s.splitlines()[0] for s in sections] == [g.title for g in games()]
    for game, section in zip(games(), sections, strict=True):
        rows = re.findall(r"^\| (\d+) \| `([^`]+)` \| (\w+) \|$", section, re.M)
        assert [int(i) for i, _, _ in rows] == list(range(game.num_actions))
        for i, notation, kind in rows:
            action = game.action_type.parse(notation)
            assert action.id == int(i) and action.kind == kind


def test_the_page_is_in_the_site_and_linked_from_the_notation_page():
    assert "action-ids.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "(action-ids.md)" in (ROOT / "docs" / "actions.md").read_text(encoding="utf-8")
