"""The record rules: a caller whose permission reaches only their own records acts on their own
`user` (and its orders) and on the chat sessions they are a member of; any other record is
answered as one that does not exist (null, absent, NOT_FOUND), so no answer tells it exists.

A Node type's key names its owner in its first part (a user id, a session id), which is what
`node(id:)` and `nodes(ids:)` check (`may_read_key`).

Within a session a member is not a stranger: what only its owner may do (`chat:own`: add and
remove members, delete it) refuses a member who is not the owner as FORBIDDEN, since the
session is no secret to them; anyone else gets NOT_FOUND (`require_owner`).
"""

from __future__ import annotations

from bson import ObjectId

from resolvers.access import members
from resolvers.access.grants import Access
from resolvers.access.permissions import Permission
from resolvers.context import Context, Info
from resolvers.errors import BadUserInput, Forbidden, NotFound
from resolvers.global_ids import Key
from resolvers.identity import USER
from store.chat.chat_members import OWNER

CHAT = frozenset({Permission.CHAT_READ, Permission.CHAT_WRITE, Permission.CHAT_OWN})


async def access(context: Context) -> Access:
    """The caller's access (its identity verified on first use)."""
    return Access.of(await context.identity())


async def may_use_user(info: Info, user_id: str, permission: Permission) -> bool:
    """Whether the caller may read (`orders:read`) or change (`orders:write`) the user `user_id`
    and its orders."""
    found = await access(info.context)
    return found.reaches_every(permission) or (found.holds(permission) and found.is_user(user_id))


async def may_use_session(info: Info, session_id: ObjectId, permission: Permission) -> bool:
    """Whether the caller may act on the chat session `session_id` with `permission`: every
    session when a role grants it, else the sessions the caller is a member of (`chat:own`:
    owns)."""
    found = await access(info.context)
    if found.reaches_every(permission):
        return True
    if not found.holds(permission):
        return False
    rule = members.is_owner if permission is Permission.CHAT_OWN else members.is_member
    return await rule(info.context, found.identity, session_id)


async def require_owner(info: Info, session_id: ObjectId, *, field: str, argument: str) -> None:
    """Raise unless the caller may act on the session as its owner: NOT_FOUND (naming
    `argument`) for a caller who is no member, as for a session that does not exist;
    FORBIDDEN (naming `field`) for a member who is not the owner."""
    found = await access(info.context)
    if found.reaches_every(Permission.CHAT_OWN):
        return
    membership = None
    if found.holds(Permission.CHAT_OWN):
        membership = await members.membership(info.context, found.identity, session_id)
    if membership is None:
        raise NotFound(f"{argument}: no chat session {session_id}", argument=argument)
    if membership.role != OWNER:
        raise Forbidden(f"{field}: not allowed: only the session's owner (or an admin) may")


async def acts_for_anyone(info: Info, permission: Permission) -> bool:
    """Whether the caller's role grants `permission` on every record, and so may act on
    behalf of anyone (a bridge posting as any author, a service naming an owner)."""
    return (await access(info.context)).reaches_every(permission)


async def message_author(info: Info, author: str | None) -> str:
    """Who a new message is by: the end user posting it; `author` only for a caller whose role
    writes to every session (ingest, admin: bridges), refused to anyone else as FORBIDDEN.
    A caller who is no end user names the author (BAD_USER_INPUT without one)."""
    found = await access(info.context)
    if author is not None:
        if not found.reaches_every(Permission.CHAT_WRITE):
            raise Forbidden(
                "author: not allowed: a message is by the end user who posts it; only a role "
                "that writes to every session (ingest, admin) names another author",
                argument="author",
            )
        return author
    identity = found.identity
    if identity.kind == USER and identity.user_id is not None:
        return identity.user_id
    raise BadUserInput(
        "author: required: only an end user's messages are by them", argument="author"
    )


async def editable_by(info: Info, session_id: ObjectId) -> str | None:
    """Whose messages of the session the caller may edit and delete: None for any (the owner,
    or a role that writes to every session), else the member's own (their id). NOT_FOUND for
    a caller who is no member, as for a session that does not exist."""
    found = await access(info.context)
    if found.reaches_every(Permission.CHAT_WRITE):
        return None
    membership = None
    if found.holds(Permission.CHAT_WRITE):
        membership = await members.membership(info.context, found.identity, session_id)
    if membership is None:
        raise NotFound(f"sessionId: no chat session {session_id}", argument="sessionId")
    return None if membership.role == OWNER else membership.member


async def reads_every_session(info: Info) -> bool:
    """Whether the caller lists every session (`chatSessions`), not only their own."""
    return (await access(info.context)).reaches_every(Permission.CHAT_READ)


async def may_read_key(info: Info, permission: Permission, key: Key) -> bool:
    """Whether the caller may read the object of a Node type declaring `permission`, by its
    key: what `node(id:)` answers null for when not."""
    found = await access(info.context)
    if found.reaches_every(permission):
        return True
    if not found.holds(permission):
        return False
    if permission is Permission.ORDERS_READ:
        return found.is_user(str(key[0]))
    if permission in CHAT:
        return await members.is_member(info.context, found.identity, ObjectId(str(key[0])))
    return False
