"""Reports of players to the moderators: filing one, the moderators' queue, closing one.

A logged-in **account** reports another player (a guest or an account) for a reason of
:data:`REASONS` (abuse in the chat, a bot playing for a person, an offensive name,
anything else), with a text of at most :data:`MAX_REPORT_TEXT` characters (cleaned like a
chat message; required for ``"other"``) and, optionally, the game it happened in (the
reported player must have sat in it). Guests cannot report: a flood of new guests would get
around every limit. The limits, checked before anything is stored:

- one **open** report per reporter and reported player (409: a moderator has not looked at
  the first one yet);
- at most :data:`REPORTS_PER_DAY` reports per reporter in 24 hours, open or closed (429
  with the seconds until the oldest of them is a day old).

The queue lists the open reports first (oldest first: the longest waiting), then the
closed ones (newest first), each with the reporter, the reported player (and its role,
mute and ban), the game's link and the reported player's last chat lines
(:data:`CHAT_LINES`, the reported game's first). A moderator closes a report as
``"resolved"`` (acted on) or ``"dismissed"``; a ban closes the banned player's open reports
as ``"banned"`` (:meth:`.moderation.Moderation.ban`). Closing writes the audit log.

Every method is blocking (database work): the app calls them through
:func:`asyncio.to_thread`.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import case, func, insert, select, update

from .accounts import Player
from .community_rows import ReportRow
from .errors import N_, BadRequest, Conflict, Forbidden, NotFound
from .moderation import audit, aware, clean_reason, player_json, status_json
from .rates import RateLimited
from .storage import ChatRow, GameRow, PlayerRow, SeatRow, Storage, storable, utcnow

REASONS = ("chat", "bot", "name", "other")
"""Why a player is reported: abuse in the chat, a bot playing for a person, an offensive
name, anything else."""

MAX_REPORT_TEXT = 1000
"""Characters in a report's text."""

REPORTS_PER_DAY = 5
"""Reports one reporter may file in 24 hours."""

DAY = timedelta(days=1)

CHAT_LINES = 10
"""The reported player's chat lines a queue entry shows."""

QUEUE_SIZE = 100
"""The most reports one queue call returns."""

RESOLUTIONS = ("resolved", "dismissed")
"""How a moderator closes a report."""


class Reports:
    """Reports over the server's database (see the module's docstring).

    Args:
        storage: the server's :class:`~splendor.server.storage.Storage` (schema migrated).
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def file(self, reporter: Player, reported_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """File a report by ``reporter`` about ``reported_id``; ``body`` is ``{"reason",
        "text", "game_id"}`` (``text`` and ``game_id`` optional). Returns the report as
        :meth:`entry` shows it (without the chat lines).

        Raises:
            Forbidden: the reporter is a guest.
            NotFound: no such player (or game).
            BadRequest: a bad reason, text or game; reporting yourself; the reported player
                did not play that game.
            Conflict: an open report by the reporter about that player exists (409).
            RateLimited: :data:`REPORTS_PER_DAY` reports in the last 24 hours (429).
        """
        if not reporter.account:
            raise Forbidden(N_("make an account to report a player"))
        reason, text, game_id = _checked(body)
        reported = self._player(reported_id)
        if reported.id == reporter.id:
            raise BadRequest(N_("you cannot report yourself"))
        if game_id is not None:
            self._check_game(game_id, reported.id)
        now = utcnow()
        with self.storage.engine.begin() as c:
            dup = c.scalar(
                select(ReportRow.id).where(
                    ReportRow.reporter_id == reporter.id,
                    ReportRow.reported_id == reported.id,
                    ReportRow.status == "open",
                )
            )
            if dup is not None:
                raise Conflict(
                    N_("you reported {name} already; a moderator will look at it"),
                    name=reported.name,
                )
            recent = c.execute(
                select(ReportRow.created_at)
                .where(ReportRow.reporter_id == reporter.id, ReportRow.created_at > now - DAY)
                .order_by(ReportRow.created_at)
            ).all()
            if len(recent) >= REPORTS_PER_DAY:
                oldest = aware(recent[0][0]) or now
                wait = max(1, int((oldest + DAY - now).total_seconds()) + 1)
                raise RateLimited(
                    N_("at most {amount} reports a day; try again in {hours} h"),
                    wait,
                    amount=REPORTS_PER_DAY,
                    hours=max(1, round(wait / 3600)),
                )
            new_id = c.execute(
                insert(ReportRow).values(
                    reporter_id=reporter.id,
                    reported_id=reported.id,
                    reason=reason,
                    text=text,
                    game_id=game_id,
                    status="open",
                    created_at=now,
                )
            ).inserted_primary_key
        return self.get(int(new_id[0]) if new_id else 0, chat=False)

    def file_for_seat(
        self, reporter: Player, game_id: str, seat: int, body: dict[str, Any]
    ) -> dict[str, Any]:
        """:meth:`file` about the player of ``seat`` in game ``game_id`` (from a name in
        the game's chat).

        Raises:
            NotFound: no such game or seat, or the seat is a bot's or no known player's.
            the errors of :meth:`file`.
        """
        with self.storage.session() as s:
            player_id = s.scalar(
                select(SeatRow.player_id).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
            )
        if player_id is None:
            raise NotFound(
                N_("no player to report at seat {seat} of game {game}"), seat=seat, game=game_id
            )
        return self.file(reporter, player_id, {**body, "game_id": game_id})

    def _player(self, player_id: str) -> PlayerRow:
        if not isinstance(player_id, str) or not storable(player_id) or len(player_id) > 32:
            raise NotFound(N_("no player {player}"), player=repr(player_id))
        with self.storage.session() as s:
            row = s.get(PlayerRow, player_id)
        if row is None:
            raise NotFound(N_("no player {player}"), player=repr(player_id))
        return row

    def _check_game(self, game_id: str, player_id: str) -> None:
        with self.storage.session() as s:
            game = s.get(GameRow, game_id)
            seated = s.scalar(
                select(SeatRow.seat).where(
                    SeatRow.game_id == game_id, SeatRow.player_id == player_id
                )
            )
        if game is None:
            raise NotFound(N_("no game {game}"), game=repr(game_id))
        if seated is None:
            raise BadRequest(N_("that player did not play game {game}"), game=game_id)

    # ------------------------------------------------------------------ the queue

    def queue(self, which: Any = "open", limit: int = QUEUE_SIZE) -> list[dict[str, Any]]:
        """The reports (``which``: ``"open"``, or ``"all"``: the open ones first, oldest
        first, then the closed ones, newest first), at most ``limit``, each as
        :meth:`entry`.

        Raises:
            BadRequest: ``which`` is neither.
        """
        if which not in ("open", "all"):
            raise BadRequest('"status" must be "open" or "all"')
        open_first = case((ReportRow.status == "open", 0), else_=1)
        newest_closed = case((ReportRow.status == "open", ReportRow.id), else_=-ReportRow.id)
        query = select(ReportRow).order_by(open_first, newest_closed).limit(limit)
        if which == "open":
            query = query.where(ReportRow.status == "open")
        with self.storage.session() as s:
            rows = s.scalars(query).all()
        return [self._entry(r, chat=True) for r in rows]

    def get(self, report_id: int, chat: bool = True) -> dict[str, Any]:
        """One report as :meth:`entry` shows it.

        Raises:
            NotFound: no such report.
        """
        with self.storage.session() as s:
            row = s.get(ReportRow, report_id)
        if row is None:
            raise NotFound(N_("no report {report}"), report=report_id)
        return self._entry(row, chat)

    def _entry(self, r: ReportRow, chat: bool) -> dict[str, Any]:
        """``{"id", "reason", "text", "game_id", "game_url", "status", "resolution",
        "created_at", "resolved_at", "reporter", "reported", "resolved_by", "chat"}``:
        the players as :func:`.moderation.player_json` (``reported``: its moderation
        status, :func:`.moderation.status_json`), ``chat`` the reported player's last chat
        lines ``[{"game_id", "name", "text", "at"}]``, newest first."""
        with self.storage.session() as s:
            reporter = s.get(PlayerRow, r.reporter_id) if r.reporter_id else None
            reported = s.get(PlayerRow, r.reported_id)
            closer = s.get(PlayerRow, r.resolved_by) if r.resolved_by else None
        created, resolved = aware(r.created_at), aware(r.resolved_at)
        return {
            "id": r.id,
            "reason": r.reason,
            "text": r.text,
            "game_id": r.game_id,
            "game_url": f"/games/{r.game_id}" if r.game_id else None,
            "status": r.status,
            "resolution": r.resolution,
            "created_at": created.isoformat() if created else None,
            "resolved_at": resolved.isoformat() if resolved else None,
            "reporter": player_json(reporter),
            "reported": status_json(reported) if reported is not None else None,
            "resolved_by": player_json(closer),
            "chat": self.chat_lines(r.reported_id, r.game_id) if chat else [],
        }

    def chat_lines(self, player_id: str, game_id: str | None = None) -> list[dict[str, Any]]:
        """The last :data:`CHAT_LINES` chat lines written from ``player_id``'s seats, those
        of ``game_id`` first, newest first: ``[{"game_id", "name", "text", "at"}]``."""
        this_game = case((ChatRow.game_id == (game_id or ""), 0), else_=1)
        with self.storage.session() as s:
            rows = s.execute(
                select(ChatRow)
                .join(
                    SeatRow,
                    (SeatRow.game_id == ChatRow.game_id) & (SeatRow.seat == ChatRow.seat),
                )
                .where(SeatRow.player_id == player_id)
                .order_by(this_game, ChatRow.id.desc())
                .limit(CHAT_LINES)
            ).scalars()
            return [
                {
                    "game_id": m.game_id,
                    "name": m.name,
                    "text": m.text,
                    "at": (aware(m.created_at) or m.created_at).isoformat(),
                }
                for m in rows
            ]

    def open_count(self) -> int:
        """How many reports are open."""
        with self.storage.session() as s:
            return int(
                s.scalar(
                    select(func.count()).select_from(ReportRow).where(ReportRow.status == "open")
                )
                or 0
            )

    def close(self, report_id: int, resolution: Any, actor_id: str | None) -> dict[str, Any]:
        """Close an open report as ``resolution`` (``"resolved"`` or ``"dismissed"``);
        returns it (:meth:`get`).

        Raises:
            BadRequest: an unknown resolution.
            NotFound: no such report.
            Conflict: the report is closed already.
        """
        if resolution not in RESOLUTIONS:
            raise BadRequest(f'"resolution" must be one of {", ".join(RESOLUTIONS)}')
        now = utcnow()
        with self.storage.engine.begin() as c:
            row = c.execute(
                select(ReportRow.status, ReportRow.reported_id).where(ReportRow.id == report_id)
            ).first()
            if row is None:
                raise NotFound(N_("no report {report}"), report=report_id)
            if row[0] != "open":
                raise Conflict(N_("report {report} is closed already"), report=report_id)
            c.execute(
                update(ReportRow)
                .where(ReportRow.id == report_id)
                .values(
                    status="closed", resolution=resolution, resolved_by=actor_id, resolved_at=now
                )
            )
            audit(c, actor_id, resolution, row[1], {"report": report_id})
        return self.get(report_id)


def _checked(body: dict[str, Any]) -> tuple[str, str, str | None]:
    """The reason, text and game id of a report's body.

    Raises:
        BadRequest: an unknown reason, a bad text (or none for ``"other"``), a game id
            that is not a string.
    """
    reason = body.get("reason")
    if reason not in REASONS:
        raise BadRequest(N_("a report's reason is one of {reasons}"), reasons=", ".join(REASONS))
    text = clean_reason(body.get("text"), MAX_REPORT_TEXT)
    if reason == "other" and not text:
        raise BadRequest(N_("say what happened: a report for another reason needs a text"))
    game_id = body.get("game_id")
    if game_id is not None and (
        not isinstance(game_id, str) or not storable(game_id) or not 0 < len(game_id) <= 32
    ):
        raise BadRequest('"game_id" must be a game id (a string) or null')
    return reason, text, game_id


__all__ = [
    "CHAT_LINES",
    "MAX_REPORT_TEXT",
    "QUEUE_SIZE",
    "REASONS",
    "REPORTS_PER_DAY",
    "RESOLUTIONS",
    "Reports",
]
