"""A player's notification settings (``players.notify``): for each channel, on or off, and
for each kind of notification, on or off on that channel.

Channels (:data:`CHANNELS`): ``"email"`` (to the player's verified address), ``"push"``
(Web Push to the browsers the player subscribed), ``"browser"`` (a notification in a tab
that is open). Kinds (:data:`KINDS`): ``"turn"`` (your turn in a turn-based game),
``"deadline"`` (the time of your turn is running out), ``"start"`` (a game you sit in has
started), ``"table"`` (a player sat at your table), ``"tournament"`` (a tournament round
paired you), ``"invite"`` (a player invites you to a table).

The stored JSON (None: :data:`DEFAULTS`) and the API's shape are the same::

    {"email": {"on": true, "turn": true, "deadline": true, "start": false, ...},
     "push": {"on": true, ...}, "browser": {"on": true, ...}}

A channel's ``on`` is the switch of the whole channel (the unsubscribe link of a mail sets
``email.on`` to false); the kinds say which notifications it carries. What is not stored
takes its default, so a kind added later has its default for every player.
"""

from __future__ import annotations

import copy
from typing import Any

from .errors import BadRequest

CHANNELS = ("email", "push", "browser")
"""The channels, in the settings' order."""

KINDS = ("turn", "deadline", "start", "table", "tournament", "invite")
"""The kinds of notifications, in the settings' order."""

DEFAULTS: dict[str, dict[str, bool]] = {
    "email": {
        "on": True,
        "turn": True,
        "deadline": True,
        "start": False,
        "table": False,
        "tournament": True,
        "invite": True,
    },
    "push": {"on": True, **dict.fromkeys(KINDS, True)},
    "browser": {"on": True, **dict.fromkeys(KINDS, True)},
}
"""The settings of a player who never changed them: e-mail for what needs an answer (your
turn, a deadline, a tournament round, an invitation), push and browser for everything.
E-mail still needs a verified address and push a subscribed browser."""


def effective(stored: Any) -> dict[str, dict[str, bool]]:
    """The whole settings of a player from their stored JSON (None or partial: the
    defaults fill what is missing; anything malformed in it is ignored)."""
    prefs = copy.deepcopy(DEFAULTS)
    if isinstance(stored, dict):
        for channel, flags in stored.items():
            if channel in prefs and isinstance(flags, dict):
                for name, value in flags.items():
                    if name in prefs[channel] and isinstance(value, bool):
                        prefs[channel][name] = value
    return prefs


def wants(prefs: dict[str, dict[str, bool]], channel: str, kind: str) -> bool:
    """Whether ``prefs`` (:func:`effective`) send ``kind`` on ``channel``."""
    flags = prefs.get(channel, {})
    return bool(flags.get("on", False) and flags.get(kind, False))


def merged(stored: Any, change: Any) -> dict[str, dict[str, bool]]:
    """The settings after ``change`` (a JSON object of the shape above, possibly partial:
    ``{"email": {"on": false}}``) on the stored ones.

    Raises:
        BadRequest: ``change`` is not an object, names an unknown channel or kind, or
            gives a value that is not true or false (nothing is changed).
    """
    if not isinstance(change, dict) or not change:
        raise BadRequest(
            "the body is an object of channels ("
            + ", ".join(CHANNELS)
            + '), each an object of true/false switches, as {"email": {"on": false}}'
        )
    prefs = effective(stored)
    for channel, flags in change.items():
        if channel not in prefs:
            raise BadRequest(f"unknown channel {str(channel)[:20]!r}; one of {', '.join(CHANNELS)}")
        if not isinstance(flags, dict):
            raise BadRequest(f"{channel} is an object of true/false switches")
        for name, value in flags.items():
            if name not in prefs[channel]:
                raise BadRequest(
                    f"unknown switch {str(name)[:20]!r} of {channel}; one of on, {', '.join(KINDS)}"
                )
            if not isinstance(value, bool):
                raise BadRequest(f"{channel}.{name} is true or false")
            prefs[channel][name] = value
    return prefs


__all__ = ["CHANNELS", "DEFAULTS", "KINDS", "effective", "merged", "wants"]
