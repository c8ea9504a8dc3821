"""Verified game data shipped with the package (copied from ``../shared/data``).

The CSV files are the single source of card, noble and royal data; nothing is typed by hand.
"""

from __future__ import annotations

import csv
from importlib import resources


def read_csv(name: str) -> list[dict[str, str]]:
    """Return the rows of the packaged data file ``name`` as dicts keyed by the header.

    Raises:
        FileNotFoundError: no such data file in ``splendor/data``.
    """
    with resources.files(__package__).joinpath(name).open("r", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))
