"""The labels check of the post-game analysis (issue 19) ships in ``results/analysis/``:
each folder's ``summary.json`` is rebuilt from its analyses, and each analysis is of the
arena record of the same name in ``results/strength/`` (its moves are that game's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from splendor.analysis import GameAnalysis
from splendor.analysis.batch import label_rates
from splendor.record import GameRecord

ROOT = Path(__file__).resolve().parents[2]
RUNS = sorted(p for p in (ROOT / "results" / "analysis").glob("*") if p.is_dir())


def test_there_are_runs() -> None:
    assert {p.name for p in RUNS} >= {"levels-classic-easy-medium", "levels-duel-easy-medium"}


@pytest.mark.parametrize("run", RUNS, ids=[p.name for p in RUNS])
def test_a_summary_is_that_of_its_analyses_of_the_arena_records(run: Path) -> None:
    files = sorted((run / "games").glob("*.json"))
    analyses = [GameAnalysis.from_dict(json.loads(f.read_text())) for f in files]
    assert len(analyses) == 100
    assert json.loads((run / "summary.json").read_text()) == label_rates(analyses)
    arena = ROOT / "results" / "strength" / run.name / "games"
    for f, a in zip(files[:10], analyses[:10], strict=True):
        record = GameRecord.load(arena / f.name)
        assert a.complete and a.players == record.players
        assert [m.played for m in a.moves] == record.actions


def test_the_page_quotes_the_summaries() -> None:
    """``docs/analysis.md``'s table of the labels check is that of ``summary.json``."""
    page = (ROOT / "docs" / "analysis.md").read_text()
    for run in RUNS:
        rates = json.loads((run / "summary.json").read_text())
        for bot, r in rates.items():
            g = r["per_game"]
            row = (
                f"| `{run.name}` | {bot} | {r['games']} | {r['accuracy']:.1f} | "
                f"{g['inaccuracy']:.2f} | {g['mistake']:.2f} | {g['blunder']:.2f} |"
            )
            assert row in page, row
    weaker, stronger = "greedy", "mcts:50ms"
    for run in RUNS:
        rates = json.loads((run / "summary.json").read_text())
        assert rates[weaker]["per_game"]["mistake"] > rates[stronger]["per_game"]["mistake"]
        assert rates[weaker]["accuracy"] < rates[stronger]["accuracy"]
