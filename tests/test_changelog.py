"""CHANGELOG.md keeps the Keep a Changelog shape and agrees with pyproject.toml's version."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
VERSION_HEADING = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$")


def _sections() -> list[tuple[str, list[str]]]:
    """The ``## `` sections of the changelog: (heading, lines below it)."""
    sections: list[tuple[str, list[str]]] = []
    for line in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            sections.append((line, []))
        elif sections:
            sections[-1][1].append(line)
    return sections


def test_unreleased_comes_first_then_versions_newest_first():
    headings = [h for h, _ in _sections()]
    assert headings[0] == "## [Unreleased]"
    released = [VERSION_HEADING.match(h) for h in headings[1:]]
    assert all(released), [h for h, m in zip(headings[1:], released, strict=True) if not m]
    dates = [m.group(2) for m in released if m]
    assert dates == sorted(dates, reverse=True)


def test_the_package_version_has_its_section():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
    assert f"## [{version}] - " in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_categories_are_keep_a_changelog_ones_and_unreleased_entries_name_their_issue():
    for heading, lines in _sections():
        for line in lines:
            if line.startswith("### "):
                assert line[4:] in CATEGORIES, (heading, line)
        if heading == "## [Unreleased]":
            entries = "\n".join(lines).split("\n- ")[1:]
            assert entries, "Unreleased lists nothing"
            for entry in entries:
                assert re.search(r"issue \d+", entry), entry
