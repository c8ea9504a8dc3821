"""``splendor serve``: its options are checked before anything starts (the server itself
is started by test_restart.py)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from splendor.cli import app


@pytest.mark.parametrize("args, words", [(["--port", "0"], "--port"), (["--bot-workers", "0"], "--bot-workers")])
def test_serve_rejects_bad_options(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2
    assert words in result.output


def test_serve_help() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--database-url" in result.output and "--host" in result.output
