"""docs/rl.md documents the tensor layouts field by field and its examples run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from splendor.rl.encoding import layout

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def rows(text: str, heading: str) -> dict[str, tuple[str, str]]:
    """``{field: (offset cell, shape cell)}`` of the table under ``heading``."""
    section = text.split(heading, 1)[1].split("\n#", 1)[0]
    out = {}
    for m in re.finditer(r"^\| ([\d/]+) \| `([\w.]+)` \| \(([^)]*)\) \|", section, re.M):
        out[m.group(2)] = (m.group(1), m.group(3))
    return out


def test_every_field_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    for game, n in (("classic", 2), ("classic", 3), ("classic", 4), ("duel", 2)):
        for f in layout(game, n):
            assert f"`{f.name}`" in text, f"{game}: field {f.name} missing from docs/rl.md"


@pytest.mark.parametrize(
    "game,heading", [("classic", "### Classic Splendor"), ("duel", "### Splendor Duel")]
)
def test_documented_offsets_and_shapes(game: str, heading: str) -> None:
    table = rows(DOC.read_text(encoding="utf-8"), heading)
    counts = (2, 3, 4) if game == "classic" else (2,)
    assert set(table) == {f.name for f in layout(game, counts[0])}
    for i, n in enumerate(counts):
        for f in layout(game, n):
            offsets, shape = table[f.name]
            parts = offsets.split("/")
            assert int(parts[i if len(parts) > 1 else 0]) == f.offset, f.name
            dims = [d.strip() for d in shape.split(",")]
            assert [n if d == "N" else int(d) for d in dims] == list(f.shape), f.name


def test_openspiel_heading_is_there() -> None:
    assert "\n## OpenSpiel" in DOC.read_text(encoding="utf-8")


def test_examples_run() -> None:
    """The Python examples of docs/rl.md run (in one namespace, in order)."""
    text = DOC.read_text(encoding="utf-8")
    ns: dict = {}
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        exec(compile(block, str(DOC), "exec"), ns)
