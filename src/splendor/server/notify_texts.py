"""What a notification says: :class:`Notice` (its kind, what it is about, its title and
text as sentences of the ``server`` catalogue, the page it opens) and the notices of the
platform's events (:func:`turn_notice`, :func:`deadline_notice`, :func:`start_notice`,
:func:`table_notice`, :func:`round_notice`). Every sentence is an English template marked
with :func:`.errors.N_`, said in each recipient's language when sent."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game import get_game
from .errors import N_, Localized, Text

MAX_KEY = 128
"""The longest ``key`` of a notice (``notifications.key``)."""


@dataclass(frozen=True)
class Notice:
    """One notification to one player.

    Attributes:
        kind: one of :data:`.notify_prefs.KINDS`.
        key: what it is about, unique per kind for one message at most (``"{game}:{move}"``
            for a turn, ``"{table}"`` for a start...), at most :data:`MAX_KEY` characters.
        title: the headline (a mail's subject, a notification's title).
        body: one or two sentences.
        url: the page it opens: a path of the site (``/games/{id}``) or a full URL.
        ttl: seconds a push service may keep it for an offline browser.
    """

    kind: str
    key: str
    title: Localized
    body: Localized
    url: str
    ttl: int = 3600

    def message(self, language: str) -> dict[str, Any]:
        """The notice as the browser gets it (push and ``/ws/me``), in ``language``:
        ``{"type": "notify", "kind", "key", "title", "body", "url", "tag"}`` (``tag``: one
        notification per kind and key on a device)."""
        return {
            "type": "notify",
            "kind": self.kind,
            "key": self.key,
            "title": self.title.translated(language),
            "body": self.body.translated(language),
            "url": self.url,
            "tag": f"{self.kind}:{self.key}",
        }


@dataclass(frozen=True)
class Plain:
    """Text already in its reader's language (what another part passes to
    :meth:`.notifications.Notifier.notify` as it is): the same in every language."""

    text: str

    def translated(self, language: str) -> str:
        """The text as it is."""
        return self.text


@dataclass(frozen=True)
class Duration:
    """A length of time said in a reader's language (``"3 h 20 min"``, ``"45 min"``,
    ``"30 s"``), rounded down to the minute past an hour."""

    seconds: float

    def translated(self, language: str) -> str:
        """The duration in ``language``."""
        s = max(0, int(self.seconds))
        hours, minutes = divmod(s // 60, 60)
        if hours >= 24:
            days, hours = divmod(hours, 24)
            return Text(N_("{days} d {hours} h"), {"days": days, "hours": hours}).translated(
                language
            )
        if hours:
            return Text(
                N_("{hours} h {minutes} min"), {"hours": hours, "minutes": minutes}
            ).translated(language)
        if minutes:
            return Text(N_("{minutes} min"), {"minutes": minutes}).translated(language)
        return Text(N_("{seconds} s"), {"seconds": s}).translated(language)


def game_title(game: str, num_players: int) -> str:
    """The game's title for a notice (``"Splendor Duel"``; names are not translated)."""
    try:
        return get_game(game).title
    except ValueError:
        return game


def opponents_text(names: list[str]) -> str:
    """The opponents' names, comma-separated (names are the same in every language)."""
    return ", ".join(names) if names else "?"


def game_path(game_id: str) -> str:
    """The page of a game."""
    return f"/games/{game_id}"


def turn_notice(game_id: str, move: int, game: str, opponents: list[str], ttl: int) -> Notice:
    """Your turn in a turn-based game (``key``: the game and the move number its turn
    starts at)."""
    fields = {"game": game, "opponents": opponents_text(opponents)}
    return Notice(
        kind="turn",
        key=f"{game_id}:{move}"[:MAX_KEY],
        title=Text(N_("Your turn in {game}"), fields),
        body=Text(N_("It is your turn in your game of {game} against {opponents}."), fields),
        url=game_path(game_id),
        ttl=ttl,
    )


def deadline_notice(
    game_id: str, move: int, game: str, opponents: list[str], left: float
) -> Notice:
    """The time of your turn is running out: ``left`` seconds remain."""
    fields = {"game": game, "opponents": opponents_text(opponents), "left": Duration(left)}
    return Notice(
        kind="deadline",
        key=f"{game_id}:{move}"[:MAX_KEY],
        title=Text(N_("{left} left to play in {game}"), fields),
        body=Text(
            N_(
                "Your move in your game of {game} against {opponents} is due in {left}; "
                "after that the game is lost on time."
            ),
            fields,
        ),
        url=game_path(game_id),
        ttl=max(1, int(left)),
    )


def start_notice(table_id: str, game_id: str | None, game: str, players: list[str]) -> Notice:
    """The game of a table you sit at has started."""
    fields = {"game": game, "opponents": opponents_text(players)}
    return Notice(
        kind="start",
        key=table_id[:MAX_KEY],
        title=Text(N_("Your game of {game} has started"), fields),
        body=Text(N_("Your game of {game} against {opponents} has started."), fields),
        url=game_path(game_id) if game_id else f"/tables/{table_id}",
    )


def table_notice(table_id: str, joiner: str, game: str, free: int, seated: int) -> Notice:
    """A player sat at a table you sit at (the host's, or one you joined)."""
    fields = {"game": game, "name": joiner, "free": free}
    body = (
        Text(N_("{name} sat at your table of {game}: one seat is still free."), fields)
        if free == 1
        else Text(N_("{name} sat at your table of {game}: {free} seats are still free."), fields)
    )
    return Notice(
        kind="table",
        key=f"{table_id}:{seated}"[:MAX_KEY],
        title=Text(N_("{name} joined your table"), fields),
        body=body,
        url=f"/tables/{table_id}",
    )


def round_notice(tournament_id: str, name: str, round_: int, game_id: str) -> Notice:
    """A tournament's round paired you: your game is ready."""
    fields = {"tournament": name, "round": round_}
    return Notice(
        kind="tournament",
        key=f"{tournament_id}:{round_}"[:MAX_KEY],
        title=Text(N_("{tournament}: round {round} is ready"), fields),
        body=Text(N_("Your game of round {round} of {tournament} has started."), fields),
        url=game_path(game_id),
    )


__all__ = [
    "MAX_KEY",
    "Duration",
    "Notice",
    "Plain",
    "deadline_notice",
    "game_path",
    "game_title",
    "opponents_text",
    "round_notice",
    "start_notice",
    "table_notice",
    "turn_notice",
]
