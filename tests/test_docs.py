"""The README and the documentation site (issue 18): the published strength figures are
those of the shipped records, the README's links lead somewhere, and its examples run.

The site itself is checked by its strict build (``make docs``, part of ``make test``): a
broken link or anchor, a page missing from the nav or an unreadable docstring fails it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
STRENGTH = ROOT / "results" / "strength"
# The pages that quote the strength runs of results/strength/, in tables with a "folder" column.
STRENGTH_PAGES = [README, ROOT / "docs" / "strength.md"]


def _tables(text: str) -> list[list[list[str]]]:
    """Every Markdown table of ``text``: a list of rows (the header first), each a list of
    cells without the separator row."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def _plain(cell: str) -> str:
    return cell.replace("**", "").replace("`", "").strip()


def _share(cell: str) -> float:
    """The share a head-to-head cell states, in percent: ``(99.5%)``, ``82.0% of ...`` or
    ``199 of 200``."""
    cell = _plain(cell)
    m = re.search(r"\((\d+(?:\.\d+)?)%\)", cell) or re.search(r"(\d+(?:\.\d+)?)%", cell)
    if m:
        return float(m.group(1))
    m = re.search(r"(\d+) of (\d+)", cell)
    assert m, f"no share in {cell!r}"
    return 100 * int(m.group(1)) / int(m.group(2))


def _decimals(cell: str) -> int:
    m = re.search(r"\d+\.(\d+)%", _plain(cell))
    return len(m.group(1)) if m else 0


def _quoted_runs() -> list[tuple[str, list[str], list[str]]]:
    """(page, header, row) for every row of a table with a "folder" column."""
    found = []
    for page in STRENGTH_PAGES:
        for table in _tables(page.read_text(encoding="utf-8")):
            header = [_plain(c) for c in table[0]]
            if "folder" in header:
                found += [(page.name, header, row) for row in table[1:]]
    return found


QUOTED = _quoted_runs()


def test_the_strength_runs_are_quoted() -> None:
    folders = {(page, _plain(row[header.index("folder")])) for page, header, row in QUOTED}
    assert {("README.md", f) for f in ("classic-2p", "classic-4p", "duel-2p")} <= folders
    shipped = {p.parent.name for p in STRENGTH.glob("*/results.json")}
    assert {f for page, f in folders if page == "strength.md"} == shipped


@pytest.mark.parametrize(
    "page,header,row",
    QUOTED,
    ids=[f"{page}:{_plain(row[header.index('folder')])}" for page, header, row in QUOTED],
)
def test_quoted_figures_are_those_of_the_records(
    page: str, header: list[str], row: list[str]
) -> None:
    results = json.loads(
        (STRENGTH / _plain(row[header.index("folder")]) / "results.json").read_text()
    )
    checked = 0
    for name, cell in zip(header, row, strict=True):
        if name == "games":
            assert int(_plain(cell)) == results["games"], (page, name)
            checked += 1
        elif m := re.fullmatch(r"(\S+) against (\S+)", name):
            expected = 100 * results["head_to_head"][m.group(1)][m.group(2)]
            stated = _share(cell)
            assert stated == pytest.approx(round(expected, _decimals(cell)), abs=1e-9), (
                page,
                name,
                cell,
                expected,
            )
            checked += 1
        elif m := re.fullmatch(r"Elo \(95% interval\): (.*)", name):
            bots = m.group(1).split(" · ")
            figures = _plain(cell).split(" · ")
            assert len(figures) == len(bots), (page, cell)
            ratings = results["ratings"]
            for bot, figure in zip(bots, figures, strict=True):
                lo, hi = ratings["ci95"][bot]
                expected = f"{round(ratings['elo'][bot])} [{round(lo)}, {round(hi)}]"
                assert figure == expected, (page, bot)
            checked += 1
    assert checked >= 3, (page, header)


def _slug(heading: str) -> str:
    """GitHub's and MkDocs' anchor for a heading (enough for this README's headings)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_readme_links_lead_somewhere() -> None:
    text = README.read_text(encoding="utf-8")
    anchors = {_slug(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links
    for link in links:
        if re.match(r"[a-z]+://", link):
            continue
        path, _, anchor = link.partition("#")
        if path:
            assert (ROOT / path).exists(), link
        elif anchor:
            assert anchor in anchors, link


def test_readme_python_examples_run() -> None:
    """The README's Python examples run (in one namespace, in order)."""
    ns: dict[str, object] = {}
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, str(README), "exec"), ns)
