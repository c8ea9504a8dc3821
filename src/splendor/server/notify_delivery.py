"""Delivering one notice to one player on the channels they chose (:mod:`.notify_prefs`):
a browser notification to their open tabs (``/ws/me``, :func:`.player_feed.send_to_player`),
an e-mail to their verified address, and Web Push to their subscribed browsers.

E-mail and push are each **claimed** in the database before they are sent: a row of
``notifications`` (player, channel, kind, key) is inserted, and its unique key makes a
second claim of the same notice fail, so a player gets one mail per game and turn at most
whatever happens (two events, two processes, a retry). The claim also counts the rows of
the last hour: past :attr:`Delivery.email_per_hour` mails (or
:attr:`Delivery.push_per_hour` pushes) the notice is not sent on that channel. A failed
send is logged; it is not retried.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from ..i18n import DEFAULT_LANGUAGE, LANGUAGES
from .community_rows import NotificationRow, PushSubscriptionRow
from .hub import Hub
from .mailer import Mailer
from .notify_mail import Unsubscribe, notice_mail
from .notify_prefs import effective, wants
from .notify_texts import Notice
from .player_feed import send_to_player
from .push import Push
from .rows import PlayerRow, utcnow
from .storage import Storage

log = logging.getLogger("splendor.server.notifications")


@dataclass(frozen=True)
class Recipient:
    """What delivering to a player needs: their name, verified address (None: no
    verified address), language, settings (:func:`.notify_prefs.effective`) and whether
    they subscribed a browser to push."""

    id: str
    name: str
    email: str | None
    language: str
    prefs: dict[str, dict[str, bool]]
    subscribed: bool = False


@dataclass(frozen=True)
class Plan:
    """What to send a recipient: the browser message, the mail's address and unsubscribe
    token (None: no mail), whether to push."""

    recipient: Recipient
    browser: bool
    email: str | None
    token: str | None
    push: bool


class Delivery:
    """Sends notices (module docstring).

    Args:
        storage: the server's storage.
        hub: the app's hub (the players' open tabs).
        mailer: the app's mailer.
        push: the app's push subscriptions.
        unsubscribe: signs the unsubscribe links.

    Attributes:
        email_per_hour: the most notification mails a player gets in an hour.
        push_per_hour: the most pushes a player gets in an hour.
        delivered: counts per channel of what was handed over (``"email"``, ``"push"``,
            ``"browser"``), and of the failures (``"failed"``).
    """

    def __init__(
        self, storage: Storage, hub: Hub, mailer: Mailer, push: Push, unsubscribe: Unsubscribe
    ) -> None:
        self.storage = storage
        self.hub = hub
        self.mailer = mailer
        self.push = push
        self.unsubscribe = unsubscribe
        self.email_per_hour = 20
        self.push_per_hour = 60
        self.delivered = {"email": 0, "push": 0, "browser": 0, "failed": 0}

    # ------------------------------------------------------------------ reading (blocking)

    def recipient(self, player_id: str) -> Recipient | None:
        """The player as :class:`Recipient`, or None (unknown, deleted or banned)."""
        with self.storage.engine.begin() as c:
            row = c.execute(
                select(
                    PlayerRow.name,
                    PlayerRow.email,
                    PlayerRow.email_verified_at,
                    PlayerRow.language,
                    PlayerRow.notify,
                    PlayerRow.deleted_at,
                    PlayerRow.banned_at,
                    select(PushSubscriptionRow.id)
                    .where(PushSubscriptionRow.player_id == PlayerRow.id)
                    .exists()
                    .label("subscribed"),
                ).where(PlayerRow.id == player_id)
            ).first()
        if row is None or row.deleted_at is not None or row.banned_at is not None:
            return None
        verified = row.email if row.email and row.email_verified_at is not None else None
        language = row.language if row.language in LANGUAGES else DEFAULT_LANGUAGE
        prefs = effective(row.notify)
        return Recipient(player_id, row.name, verified, language, prefs, bool(row.subscribed))

    def names(self, player_ids: list[str]) -> dict[str, str]:
        """The names of these players (those that exist)."""
        if not player_ids:
            return {}
        with self.storage.engine.begin() as c:
            rows = c.execute(
                select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(set(player_ids)))
            ).all()
        return {r.id: r.name for r in rows}

    def _claim(self, player_id: str, channel: str, notice: Notice, per_hour: int) -> bool:
        """Insert the row of ``notice`` on ``channel``; False when it was sent already or
        the player had ``per_hour`` of that channel in the last hour."""
        now = utcnow()
        try:
            with self.storage.engine.begin() as c:
                recent = c.execute(
                    select(func.count())
                    .select_from(NotificationRow)
                    .where(
                        NotificationRow.player_id == player_id,
                        NotificationRow.channel == channel,
                        NotificationRow.created_at > now - timedelta(hours=1),
                    )
                ).scalar_one()
                if recent >= per_hour:
                    log.info(
                        "%s notifications of %s past the rate: %s", channel, player_id, notice.key
                    )
                    return False
                c.execute(
                    insert(NotificationRow),
                    {
                        "player_id": player_id,
                        "channel": channel,
                        "kind": notice.kind,
                        "key": notice.key,
                        "created_at": now,
                    },
                )
        except IntegrityError:  # sent already: one message per game and turn
            return False
        return True

    def plan(self, player_id: str, notice: Notice) -> Plan | None:
        """What to send ``player_id`` of ``notice``, the e-mail and push claimed (None:
        no such player)."""
        who = self.recipient(player_id)
        if who is None:
            return None
        email = token = None
        if (
            who.email is not None
            and wants(who.prefs, "email", notice.kind)
            and self._claim(player_id, "email", notice, self.email_per_hour)
        ):
            email, token = who.email, self.unsubscribe.token(player_id)
        push = (
            wants(who.prefs, "push", notice.kind)
            and who.subscribed
            and self._claim(player_id, "push", notice, self.push_per_hour)
        )
        return Plan(who, wants(who.prefs, "browser", notice.kind), email, token, push)

    # ------------------------------------------------------------------ sending

    def _built_plan(
        self, player_id: str, notice: Notice | Callable[[], Notice]
    ) -> tuple[Notice, Plan | None]:
        made = notice if isinstance(notice, Notice) else notice()
        return made, self.plan(player_id, made)

    async def deliver(
        self, player_id: str, notice: Notice | Callable[[], Notice], base: str
    ) -> dict[str, bool]:
        """Send ``notice`` to ``player_id`` on their channels; ``base`` is the site's
        address for the links. ``notice`` may be a function that makes it (called in the
        same thread as the database work: it may read the database too). Returns what
        was handed over per channel (``"browser"``: to at least one open tab). Never
        raises: failures are logged."""
        done = {"browser": False, "email": False, "push": False}
        try:
            made, plan = await asyncio.to_thread(self._built_plan, player_id, notice)
        except Exception:
            log.exception(
                "notification %s for %s not planned", getattr(notice, "key", "?"), player_id
            )
            self.delivered["failed"] += 1
            return done
        if plan is None:
            return done
        return await self._send_plan(plan, made, base, done)

    async def _send_plan(
        self, plan: Plan, notice: Notice, base: str, done: dict[str, bool]
    ) -> dict[str, bool]:
        language, player_id = plan.recipient.language, plan.recipient.id
        message = notice.message(language)
        if plan.browser:
            done["browser"] = send_to_player(self.hub, player_id, message) > 0
            self.delivered["browser"] += int(done["browser"])
        sends: list[Any] = []
        if plan.email is not None and plan.token is not None:
            mail = notice_mail(plan.email, language, notice, base, plan.token)
            sends.append(self._send("email", self.mailer.send(mail)))
        if plan.push:
            pushed = {**message, "url": _absolute(base, notice.url)}
            sends.append(
                self._send("push", asyncio.to_thread(self.push.send, player_id, pushed, notice.ttl))
            )
        for channel, ok in await asyncio.gather(*sends):
            done[channel] = ok
        return done

    async def _send(self, channel: str, sending: Any) -> tuple[str, bool]:
        try:
            result = await sending
        except Exception as e:
            log.warning("a %s notification failed: %s: %s", channel, type(e).__name__, e)
            self.delivered["failed"] += 1
            return channel, False
        ok = result is None or bool(result)
        self.delivered[channel] += int(ok)
        return channel, ok


def _absolute(base: str, url: str) -> str:
    if url.startswith(("http://", "https://")):
        return url
    return base.rstrip("/") + "/" + url.lstrip("/")


__all__ = ["Delivery", "Plan", "Recipient"]
