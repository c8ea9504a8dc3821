"""``splendor admin``: the moderators of the web app (:mod:`splendor.server.moderation`),
from the server's machine; needs the ``web`` extra.

- ``splendor admin grant NAME``: the account NAME becomes an admin (it sees the moderation
  page, ``/moderation``); ``revoke NAME`` takes the role back; ``list`` shows the admins.
- ``splendor admin ban NAME --reason TEXT``, ``unban NAME``: as the moderation page does
  (a ban ends the player's sessions and bars the addresses they came from).

NAME is an account's name (case does not matter) or a player's id (a guest's). Every act
goes to the audit log with no actor (the command line). ``--database-url`` is the
server's database (default: the same as ``splendor serve``'s); its schema is brought up to
date first, as the server does at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from .common import app, failer, plain_console
from .extras import require

if TYPE_CHECKING:
    from ..server.moderation import Moderation

admin_app = typer.Typer(
    help="The web app's moderators: grant or revoke the admin role, ban or unban a player.",
    no_args_is_help=True,
)
app.add_typer(admin_app, name="admin")

_DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        help="The server's SQLAlchemy database URL (as splendor serve --database-url). "
        "Default: the SQLite file of your data directory, splendor serve's default.",
    ),
]
_Name = Annotated[str, typer.Argument(help="An account's name, or a player's id.")]
_Reason = Annotated[
    str, typer.Option("--reason", help="Why (kept with the ban and in the audit log).")
]


def _moderation(database_url: str | None, command: str) -> Moderation:
    """The acts over the migrated database of ``database_url`` (None: the default)."""
    with require("web", f"admin {command}"):
        from ..server.moderation import Moderation
        from ..server.storage import Storage

        storage = Storage(database_url)
        storage.migrate()
        return Moderation(storage)


def _run(database_url: str | None, command: str, name: str, act: str, *args: Any) -> None:
    """Find NAME, do ``act`` (a method of :class:`~splendor.server.moderation.Moderation`)
    on it, print the player's status; a refusal: ``error: ...`` on stderr, exit code 1."""
    mod = _moderation(database_url, command)
    with require("web", f"admin {command}"):
        from ..server.errors import ServiceError
    fail = failer(plain_console(stderr=True))
    try:
        row = mod.find(name)
        status = getattr(mod, act)(row.id, *args)
    except ServiceError as e:
        fail(e.message, 1)
    finally:
        mod.storage.close()
    typer.echo(_line(status))


def _line(p: dict[str, Any]) -> str:
    """One player's status on one line: name, id, kind, role, ban and mute."""
    kind = "account" if p["account"] else "guest"
    parts = [f"{p['name']} ({p['id']}, {kind}): {p['role']}"]
    if p.get("banned_at"):
        reason = f": {p['ban_reason']}" if p.get("ban_reason") else ""
        parts.append(f"banned since {p['banned_at']}{reason}")
    if p.get("muted_until"):
        parts.append(f"muted until {p['muted_until']}")
    return ", ".join(parts)


@admin_app.command()
def grant(name: _Name, database_url: _DatabaseUrl = None) -> None:
    """Make the account NAME an admin (a moderator: the /moderation page)."""
    _run(database_url, "grant", name, "set_role", "admin")


@admin_app.command()
def revoke(name: _Name, database_url: _DatabaseUrl = None) -> None:
    """Take the admin role back from NAME."""
    _run(database_url, "revoke", name, "set_role", "player")


@admin_app.command("list")
def list_admins(database_url: _DatabaseUrl = None) -> None:
    """List the admins, one a line (nothing when there is none)."""
    mod = _moderation(database_url, "list")
    try:
        for p in mod.admins():
            typer.echo(_line(p))
    finally:
        mod.storage.close()


@admin_app.command()
def ban(name: _Name, reason: _Reason = "", database_url: _DatabaseUrl = None) -> None:
    """Ban NAME: its sessions end, it cannot log in, its addresses make no new guests."""
    _run(database_url, "ban", name, "ban", reason)


@admin_app.command()
def unban(name: _Name, database_url: _DatabaseUrl = None) -> None:
    """Lift the ban of NAME (and of its addresses)."""
    _run(database_url, "unban", name, "unban")


__all__ = ["admin_app", "ban", "grant", "list_admins", "revoke", "unban"]
