"""What the training commands' run folders share (issue 17): reading a saved config and
claiming a folder for a run (``splendor train``, ``splendor distill``)."""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from ..descriptor import Game
from ..game import games, get_game


def config_from_json(cls: Any, settings: dict[str, Any], what: str) -> Any:
    """The dataclass ``cls`` built from ``settings`` (a ``config.json``); settings added
    since it was written take their defaults, ``hidden`` becomes a tuple again.

    Raises:
        ValueError: an unknown setting (``what`` names the kind: "training").
    """
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise ValueError(f"unknown {what} settings: {', '.join(unknown)}")
    values = dict(settings)
    if "hidden" in values:
        values["hidden"] = tuple(values["hidden"])
    return cls(**values)


def check_game(game: str, players: int) -> Game:
    """The game of a run's config: ``game`` names it by its package (``"classic"``,
    ``"duel"``: the networks' names), ``players`` is one of its player counts.

    Raises:
        ValueError: another name, or a player count the game does not allow.
    """
    packages = [g.package for g in games()]
    if game not in packages:
        raise ValueError(f"game must be {' or '.join(packages)}, got {game!r}")
    found = get_game(game)
    try:
        found.check_players(players)
    except ValueError:
        raise ValueError(
            f"{found.title} has {found.players_text()} players, got {players!r}"
        ) from None
    return found


def claim_folder(folder: Path, config: Any, exempt: tuple[str, ...]) -> None:
    """Make ``folder`` and write ``config`` (a dataclass with ``from_json``) to its
    ``config.json``; a folder that already holds a run must hold the same settings, but for
    those in ``exempt`` (they do not change what the run computes).

    Raises:
        ValueError: the folder holds a run with other settings (named).
    """
    folder.mkdir(parents=True, exist_ok=True)
    settings = asdict(config)
    saved = folder / "config.json"
    if saved.exists():
        before = asdict(type(config).from_json(json.loads(saved.read_text())))
        changed = sorted(k for k in settings if k not in exempt and settings[k] != before[k])
        if changed:
            raise ValueError(
                f"{folder} holds a run with other settings ({', '.join(changed)}); "
                "use another folder or the same settings"
            )
    saved.write_text(json.dumps(settings, indent=2) + "\n")


__all__ = ["check_game", "claim_folder", "config_from_json"]
