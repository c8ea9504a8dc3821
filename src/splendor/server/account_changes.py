"""Changing an account's password, and deleting an account (or a guest).

**Password change** (:meth:`AccountChanges.change_password`): the current password and a
new one; every other session of the player is logged out.

**Deletion** (:meth:`AccountChanges.delete`): an account confirms with its password (a
guest, which has none, deletes itself from its session). The player's games stay, as
every other player's history: its row stays too, under an anonymous name
(``deleted-`` and 8 random hex digits), also written over its seats' names and its chat
messages; its name key and skeleton (the name is free again), password, e-mail address,
language, notification settings, sessions, e-mail links, push subscriptions, follows and
blocks (both ways) and notification records are removed, and ``deleted_at`` is set. A
deleted player is not an account any more: it cannot log in, is not ranked, and its
pages say "deleted".

Every method is blocking (database and Argon2 work): call it through
:func:`asyncio.to_thread`.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import and_, delete, exists, or_, update
from sqlalchemy.engine import Connection

from .accounts import Accounts, Player, check_password
from .community_rows import (
    BlockRow,
    EmailTokenRow,
    FollowRow,
    NotificationRow,
    PushSubscriptionRow,
)
from .errors import N_, BadRequest, NotFound
from .storage import ChatRow, PlayerRow, SeatRow, SessionRow, hash_token, storable, utcnow

DELETED_PREFIX = "deleted-"
"""The start of a deleted player's anonymous name."""


def _keep_hash(session: str | None) -> str:
    return hash_token(session) if session and storable(session) else ""


class AccountChanges:
    """Password changes and deletions over the app's :class:`.accounts.Accounts`."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.storage = accounts.storage

    def change_password(
        self, player: Player, current: Any, new: Any, session: str | None = None
    ) -> Player:
        """Set ``player``'s password to ``new`` once ``current`` is checked; log out every
        session of the player but ``session``.

        Raises:
            BadRequest: a guest (no password: make an account), ``current`` missing, or a
                bad new password (:func:`.accounts.check_password`).
            BadCredentials: ``current`` is wrong (401; nothing changes).
        """
        if not player.account:
            raise BadRequest(N_("a guest has no password: make an account first"))
        check_password(new)
        self.accounts.verify_password(player.id, current)
        pw_hash = self.accounts.hasher.hash(new)
        with self.storage.engine.begin() as c:
            c.execute(
                update(PlayerRow).where(PlayerRow.id == player.id).values(password_hash=pw_hash)
            )
            c.execute(
                delete(SessionRow).where(
                    SessionRow.player_id == player.id, SessionRow.token_hash != _keep_hash(session)
                )
            )
        return self.accounts.get(player.id)

    def delete(self, player: Player, password: Any = None) -> str:
        """Delete ``player`` (module docstring); an account must give its ``password``.
        Returns the anonymous name it now has.

        Raises:
            NotFound: deleted already.
            BadRequest, BadCredentials: an account's password missing or wrong (nothing
                changes).
        """
        if player.deleted:
            raise NotFound(N_("no player {player}"), player=repr(player.id))
        if player.account:
            self.accounts.verify_password(player.id, password)
        anonymous = DELETED_PREFIX + secrets.token_hex(4)
        with self.storage.engine.begin() as c:
            self._anonymise(c, player.id, anonymous)
            self._forget(c, player.id)
        return anonymous

    @staticmethod
    def _anonymise(c: Connection, player_id: str, anonymous: str) -> None:
        """The player's row, seats and chat messages under ``anonymous``; its personal
        fields cleared."""
        c.execute(
            update(PlayerRow)
            .where(PlayerRow.id == player_id)
            .values(
                name=anonymous,
                name_key=None,
                name_skeleton=None,
                password_hash=None,
                email=None,
                email_key=None,
                email_verified_at=None,
                language=None,
                notify=None,
                deleted_at=utcnow(),
            )
        )
        c.execute(update(SeatRow).where(SeatRow.player_id == player_id).values(name=anonymous))
        mine = exists().where(
            and_(
                SeatRow.game_id == ChatRow.game_id,
                SeatRow.seat == ChatRow.seat,
                SeatRow.player_id == player_id,
            )
        )
        c.execute(update(ChatRow).where(mine).values(name=anonymous))

    @staticmethod
    def _forget(c: Connection, player_id: str) -> None:
        """Remove the player's sessions, links, subscriptions, follows, blocks and
        notification records."""
        c.execute(delete(SessionRow).where(SessionRow.player_id == player_id))
        c.execute(delete(EmailTokenRow).where(EmailTokenRow.player_id == player_id))
        c.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.player_id == player_id))
        c.execute(delete(NotificationRow).where(NotificationRow.player_id == player_id))
        c.execute(
            delete(FollowRow).where(
                or_(FollowRow.follower_id == player_id, FollowRow.followee_id == player_id)
            )
        )
        c.execute(
            delete(BlockRow).where(
                or_(BlockRow.blocker_id == player_id, BlockRow.blocked_id == player_id)
            )
        )


__all__ = ["DELETED_PREFIX", "AccountChanges"]
