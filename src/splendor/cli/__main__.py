"""``python -m splendor.cli``: the ``splendor`` command."""

from . import main

main()
