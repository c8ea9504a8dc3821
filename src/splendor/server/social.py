"""Friends and blocks: who follows whom (table ``follows``; two players who follow each
other are **friends**) and who blocks whom (table ``blocks``).

A **block** stands between two players whichever of them made it, and means:

- **never paired**: Play now never seats them at one table (:mod:`.tables`), and the
  tournaments never pair them (:func:`blocked_between`);
- **no seat at the same table**: joining a lobby table where a seated player (its host
  included) blocks the joiner, or whom the joiner blocks, is refused with 403
  (:func:`check_may_sit`) — so a blocked player never sits at the blocker's tables, and the
  blocker does not sit down with them either;
- **no chat from them**: the blocker does not receive the blocked player's chat messages,
  live or in the history (:mod:`.chat`); the blocked player still sees the blocker's (a
  block silences the other, not oneself).

Blocking also ends the follows between the two, both ways. A block is private: the blocked
player is never told, and no answer names who made a block.

Every function here is blocking database work: call it in a thread
(:func:`asyncio.to_thread`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, and_, delete, insert, or_, select
from sqlalchemy.exc import IntegrityError

from .community_rows import BlockRow, FollowRow
from .errors import N_, BadRequest, Forbidden, NotFound
from .storage import STATUS_ACTIVE, GameRow, PlayerRow, SeatRow, Storage, aware, storable, utcnow

MAX_FOLLOWS = 1000
"""How many players one player may follow."""

MAX_BLOCKS = 1000
"""How many players one player may block."""

GAMES_PER_FRIEND = 5
"""The current games listed per friend."""


def _check_id(player_id: Any) -> str:
    """``player_id`` if it can be a player id, else NotFound."""
    if not isinstance(player_id, str) or not storable(player_id) or not 0 < len(player_id) <= 32:
        raise NotFound(N_("no player {player}"), player=repr(player_id)[:40])
    return player_id


def check_other(storage: Storage, actor_id: str, target_id: Any) -> PlayerRow:
    """The player ``target_id``, who must exist and not be ``actor_id``.

    Raises:
        NotFound: no such player (or a malformed id). BadRequest: it is the actor.
    """
    target_id = _check_id(target_id)
    if target_id == actor_id:
        raise BadRequest(N_("you cannot follow or block yourself"))
    with storage.session() as s:
        row = s.get(PlayerRow, target_id)
        if row is None or row.deleted_at is not None:
            raise NotFound(N_("no player {player}"), player=repr(target_id))
        s.expunge(row)
    return row


def _count(storage: Storage, column: Any, player_id: str) -> int:
    with storage.session() as s:
        return len(s.scalars(select(column).where(column == player_id).limit(10_000)).all())


def block_between(a: Any, b: Any) -> ColumnElement[bool]:
    """The SQL condition on ``blocks`` that a block stands between ``a`` and ``b``, either
    way (each a player id or a column holding one)."""
    return or_(
        and_(BlockRow.blocker_id == a, BlockRow.blocked_id == b),
        and_(BlockRow.blocker_id == b, BlockRow.blocked_id == a),
    )


def _exists_block(c: Any, a: str, b: str) -> bool:
    """Whether a block stands between ``a`` and ``b`` (either way), in connection ``c``."""
    return c.execute(select(BlockRow.blocker_id).where(block_between(a, b))).first() is not None


def _insert_absent(c: Any, model: Any, key: dict[str, str]) -> None:
    """Insert the row ``key`` (its primary key) of ``model`` with ``created_at`` now,
    unless it is there already, in connection ``c``."""
    found = select(*(getattr(model, k) for k in key)).where(
        *(getattr(model, k) == v for k, v in key.items())
    )
    if c.execute(found).first() is None:
        c.execute(insert(model), {**key, "created_at": utcnow()})


# ---------------------------------------------------------------------- follows


def follow(storage: Storage, follower_id: str, followee_id: Any) -> None:
    """``follower_id`` follows ``followee_id`` (again: nothing changes).

    Raises:
        NotFound: no such player. BadRequest: oneself. Forbidden: a block stands between
            them. Conflict-free: following twice is not an error.
        BadRequest: the follower follows :data:`MAX_FOLLOWS` players already.
    """
    target = check_other(storage, follower_id, followee_id)
    if _count(storage, FollowRow.follower_id, follower_id) >= MAX_FOLLOWS:
        raise BadRequest(
            N_("you follow {max} players already: unfollow some first"), max=MAX_FOLLOWS
        )
    try:
        with storage.engine.begin() as c:
            if _exists_block(c, follower_id, target.id):
                raise Forbidden(N_("you cannot follow this player: a block stands between you"))
            _insert_absent(c, FollowRow, {"follower_id": follower_id, "followee_id": target.id})
    except IntegrityError:
        pass  # a racing request of theirs followed first


def unfollow(storage: Storage, follower_id: str, followee_id: Any) -> None:
    """``follower_id`` stops following ``followee_id`` (not following: nothing changes).

    Raises:
        NotFound: no such player. BadRequest: oneself.
    """
    target = check_other(storage, follower_id, followee_id)
    with storage.engine.begin() as c:
        c.execute(
            delete(FollowRow).where(
                FollowRow.follower_id == follower_id, FollowRow.followee_id == target.id
            )
        )


def are_friends(storage: Storage, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` follow each other."""
    with storage.session() as s:
        rows = s.execute(
            select(FollowRow.follower_id).where(
                or_(
                    and_(FollowRow.follower_id == a, FollowRow.followee_id == b),
                    and_(FollowRow.follower_id == b, FollowRow.followee_id == a),
                )
            )
        ).all()
    return len(rows) == 2


# ---------------------------------------------------------------------- blocks


def block(storage: Storage, blocker_id: str, blocked_id: Any) -> None:
    """``blocker_id`` blocks ``blocked_id`` (again: nothing changes); the follows between
    them end, both ways.

    Raises:
        NotFound: no such player. BadRequest: oneself, or :data:`MAX_BLOCKS` blocks already.
    """
    target = check_other(storage, blocker_id, blocked_id)
    if _count(storage, BlockRow.blocker_id, blocker_id) >= MAX_BLOCKS:
        raise BadRequest(N_("you block {max} players already: unblock some first"), max=MAX_BLOCKS)
    for _attempt in range(2):  # a racing request of theirs may insert the block first
        try:
            with storage.engine.begin() as c:
                c.execute(
                    delete(FollowRow).where(
                        or_(
                            and_(
                                FollowRow.follower_id == blocker_id,
                                FollowRow.followee_id == target.id,
                            ),
                            and_(
                                FollowRow.follower_id == target.id,
                                FollowRow.followee_id == blocker_id,
                            ),
                        )
                    )
                )
                _insert_absent(c, BlockRow, {"blocker_id": blocker_id, "blocked_id": target.id})
            return
        except IntegrityError:
            continue


def unblock(storage: Storage, blocker_id: str, blocked_id: Any) -> None:
    """``blocker_id`` lifts its block of ``blocked_id`` (none: nothing changes).

    Raises:
        NotFound: no such player. BadRequest: oneself.
    """
    target = check_other(storage, blocker_id, blocked_id)
    with storage.engine.begin() as c:
        c.execute(
            delete(BlockRow).where(
                BlockRow.blocker_id == blocker_id, BlockRow.blocked_id == target.id
            )
        )


def blocked_between(storage: Storage, player_ids: Iterable[str]) -> set[frozenset[str]]:
    """The pairs of ``player_ids`` with a block between them (either way), each as a
    ``frozenset`` of two ids, in one query (for pairings: never pair such a pair)."""
    ids = sorted({p for p in player_ids if p is not None})
    if len(ids) < 2:
        return set()
    with storage.session() as s:
        rows = s.execute(
            select(BlockRow.blocker_id, BlockRow.blocked_id).where(
                BlockRow.blocker_id.in_(ids), BlockRow.blocked_id.in_(ids)
            )
        ).all()
    return {frozenset((a, b)) for a, b in rows}


blocked_pairs = blocked_between
"""Another name of :func:`blocked_between`."""


def blocked_with(storage: Storage, player_id: str) -> set[str]:
    """Every player with a block between them and ``player_id`` (either way)."""
    with storage.session() as s:
        by_me = s.scalars(select(BlockRow.blocked_id).where(BlockRow.blocker_id == player_id))
        of_me = s.scalars(select(BlockRow.blocker_id).where(BlockRow.blocked_id == player_id))
        return {*by_me, *of_me}


def blocked_by(storage: Storage, player_id: str) -> set[str]:
    """The players ``player_id`` blocks (whose chat it does not receive)."""
    with storage.session() as s:
        return set(s.scalars(select(BlockRow.blocked_id).where(BlockRow.blocker_id == player_id)))


def blockers_of(storage: Storage, player_id: str) -> set[str]:
    """The players who block ``player_id`` (who do not receive its chat)."""
    with storage.session() as s:
        return set(s.scalars(select(BlockRow.blocker_id).where(BlockRow.blocked_id == player_id)))


def check_may_sit(storage: Storage, player_id: str, seated: Sequence[str | None]) -> None:
    """Refuse a seat to ``player_id`` at a table where ``seated`` players sit, when a block
    stands between it and one of them (either way; see the module docstring).

    Raises:
        Forbidden: such a block exists (the message does not say who made it).
    """
    others = [p for p in seated if p is not None and p != player_id]
    if others and blocked_between(storage, [player_id, *others]) & {
        frozenset((player_id, o)) for o in others
    }:
        raise Forbidden(
            N_("you cannot sit at this table: a block stands between you and a player seated there")
        )


# ---------------------------------------------------------------------- lists


def _player_json(row: PlayerRow) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "account": row.name_key is not None}


def relation(storage: Storage, me: str, other: Any) -> dict[str, bool]:
    """What stands between ``me`` and ``other``: ``{"following" (me follows other),
    "followed_by" (other follows me), "friend" (both), "blocked" (me blocks other)}``
    (whether ``other`` blocks ``me`` is private).

    Raises:
        NotFound: no such player (or a malformed id).
    """
    other = _check_id(other)
    with storage.session() as s:
        follows = {
            (a, b)
            for a, b in s.execute(
                select(FollowRow.follower_id, FollowRow.followee_id).where(
                    or_(
                        and_(FollowRow.follower_id == me, FollowRow.followee_id == other),
                        and_(FollowRow.follower_id == other, FollowRow.followee_id == me),
                    )
                )
            ).all()
        }
        blocked = s.get(BlockRow, (me, other)) is not None
    following, followed_by = (me, other) in follows, (other, me) in follows
    return {
        "following": following,
        "followed_by": followed_by,
        "friend": following and followed_by,
        "blocked": blocked,
    }


def _current_games(s: Any, player_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The unfinished games of each of ``player_ids`` (at most :data:`GAMES_PER_FRIEND`
    each, the most recently active first): ``{"id", "game", "num_players", "url"}``."""
    out: dict[str, list[dict[str, Any]]] = {p: [] for p in player_ids}
    if not player_ids:
        return out
    rows = s.execute(
        select(SeatRow.player_id, GameRow.id, GameRow.game, GameRow.num_players)
        .join(GameRow, GameRow.id == SeatRow.game_id)
        .where(SeatRow.player_id.in_(player_ids), GameRow.status == STATUS_ACTIVE)
        .order_by(GameRow.updated_at.desc(), GameRow.id)
    ).all()
    for pid, gid, game, n in rows:
        games = out[pid]
        if len(games) < GAMES_PER_FRIEND and all(g["id"] != gid for g in games):
            games.append({"id": gid, "game": game, "num_players": n, "url": f"/games/{gid}"})
    return out


def friends(storage: Storage, me: str) -> dict[str, Any]:
    """``{"friends": [P...], "following": [P...], "followers": [P...]}``: the players
    ``me`` and who follow each other, those ``me`` follows who do not follow back, and
    those who follow ``me`` without being followed back; each ``P`` is ``{"id", "name",
    "account", "since" (when the follow began, ISO 8601), "games": [{"id", "game",
    "num_players", "url"}]}`` (its unfinished games; ``"online"`` is added by the API).
    Sorted by name."""
    with storage.session() as s:
        out_rows = s.execute(
            select(PlayerRow, FollowRow.created_at)
            .join(FollowRow, FollowRow.followee_id == PlayerRow.id)
            .where(FollowRow.follower_id == me)
        ).all()
        in_rows = s.execute(
            select(PlayerRow, FollowRow.created_at)
            .join(FollowRow, FollowRow.follower_id == PlayerRow.id)
            .where(FollowRow.followee_id == me)
        ).all()
        followers = {p.id for p, _ in in_rows}
        followed = {p.id for p, _ in out_rows}
        games = _current_games(s, sorted(followed | followers))
        entries: dict[str, list[dict[str, Any]]] = {"friends": [], "following": [], "followers": []}
        for p, since in out_rows:
            group = "friends" if p.id in followers else "following"
            entries[group].append(
                {**_player_json(p), "since": aware(since).isoformat(), "games": games[p.id]}
            )
        for p, since in in_rows:
            if p.id not in followed:
                entries["followers"].append(
                    {**_player_json(p), "since": aware(since).isoformat(), "games": games[p.id]}
                )
    for listed in entries.values():
        listed.sort(key=lambda e: (e["name"].casefold(), e["id"]))
    return entries


def blocks(storage: Storage, me: str) -> list[dict[str, Any]]:
    """The players ``me`` blocks: ``[{"id", "name", "account", "since"}]``, by name."""
    with storage.session() as s:
        rows = s.execute(
            select(PlayerRow, BlockRow.created_at)
            .join(BlockRow, BlockRow.blocked_id == PlayerRow.id)
            .where(BlockRow.blocker_id == me)
        ).all()
    out = [{**_player_json(p), "since": aware(t).isoformat()} for p, t in rows]
    out.sort(key=lambda e: (e["name"].casefold(), e["id"]))
    return out


__all__ = [
    "block_between",
    "GAMES_PER_FRIEND",
    "MAX_BLOCKS",
    "MAX_FOLLOWS",
    "are_friends",
    "block",
    "blocked_between",
    "blocked_by",
    "blocked_pairs",
    "blocked_with",
    "blockers_of",
    "blocks",
    "check_may_sit",
    "check_other",
    "follow",
    "friends",
    "relation",
    "unblock",
    "unfollow",
]
