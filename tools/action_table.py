"""Write ``docs/action-ids.md``: every action id of both games with its notation and kind,
from the engines' own tables (``Action.from_id``), so that the published table is the one
the engines use.

    .venv/bin/python tools/action_table.py           # write the page
    .venv/bin/python tools/action_table.py --check   # exit 1 when the page is out of date

``tests/test_action_table.py`` checks that the committed page is what this writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from splendor.descriptor import Game
from splendor.game import games

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "action-ids.md"

INTRO = """\
# Action ids

Every decision of either game has a fixed integer id, `0 ≤ id < num_actions`, the index of
the legal-action masks (`State.legal_mask()`), of the research environments' action spaces
and of the [bot protocol](protocol.md)'s `legal_actions`. This page lists every id with its
[notation](actions.md) (`str(Action.from_id(id))`) and its kind (`Action.kind`).

This page is generated from the engines' tables by `tools/action_table.py`; a test checks
that it is up to date.
"""


def game_table(game: Game) -> str:
    """One game's section: its heading, the id count, then one row per id."""
    action = game.action_type
    lines = [
        f"## {game.title}",
        "",
        f"{game.num_actions} ids, 0–{game.num_actions - 1} (`splendor.{game.package}.Action`).",
        "",
        "| id | notation | kind |",
        "|---:|---|---|",
    ]
    for i in range(game.num_actions):
        a = action.from_id(i)
        lines.append(f"| {i} | `{a}` | {a.kind} |")
    return "\n".join(lines)


def render() -> str:
    """The whole page, as it should be committed."""
    return "\n\n".join([INTRO.rstrip("\n"), *(game_table(g) for g in games())]) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the page (or with ``--check`` compare it); the exit code says whether it was
    up to date (0) or not (1, with ``--check``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    text = render()
    current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else None
    if args.check:
        if current != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run tools/action_table.py")
            return 1
        return 0
    if current != text:
        PAGE.write_text(text, encoding="utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
