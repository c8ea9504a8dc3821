"""The server's own secrets, made once and kept in the database (``server_keys``): the
VAPID key pair of Web Push (:mod:`.push`) and the key that signs unsubscribe links
(:mod:`.notify_mail`). Every process of a server on one database reads the same keys; the
first to need one makes it (two racing processes: the first insert wins and both use it).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from .community_rows import ServerKeyRow
from .rows import utcnow
from .storage import Storage


def server_key(storage: Storage, name: str, make: Callable[[], str]) -> str:
    """The key ``name``, made by ``make()`` and stored if the database has none yet
    (blocking: call it from a thread in async code).

    Args:
        storage: the server's storage (schema migrated).
        name: the key's name (at most 64 characters).
        make: makes a new key as text (called only when none is stored).
    """
    with storage.engine.begin() as c:
        found = c.execute(select(ServerKeyRow.value).where(ServerKeyRow.name == name)).scalar()
    if found is not None:
        return str(found)
    value = make()
    try:
        with storage.engine.begin() as c:
            c.execute(insert(ServerKeyRow), {"name": name, "value": value, "created_at": utcnow()})
    except IntegrityError:  # another process made it first: use theirs
        with storage.engine.begin() as c:
            return str(
                c.execute(select(ServerKeyRow.value).where(ServerKeyRow.name == name)).scalar_one()
            )
    return value


__all__ = ["server_key"]
