"""The record rules: a caller whose permission reaches only their own records acts on their own
`user` (and its orders) and on the chat sessions they are a member of; any other record is
answered as one that does not exist (null, absent, NOT_FOUND), so no answer tells it exists.

A Node type's key names its owner in its first part (a user id, a session id), which is what
`node(id:)` and `nodes(ids:)` check (`may_read_key`).
"""

from __future__ import annotations

from bson import ObjectId

from resolvers.access import members
from resolvers.access.grants import Access
from resolvers.access.permissions import Permission
from resolvers.context import Context, Info
from resolvers.global_ids import Key

CHAT = frozenset({Permission.CHAT_READ, Permission.CHAT_WRITE, Permission.CHAT_OWN})


async def access(context: Context) -> Access:
    """The caller's access (its identity verified on first use)."""
    return Access.of(await context.identity())


async def may_use_user(info: Info, user_id: str) -> bool:
    """Whether the caller may read and change the user `user_id` and its orders."""
    found = await access(info.context)
    return found.reaches_every(Permission.ORDERS_OWN) or (
        found.holds(Permission.ORDERS_OWN) and found.is_user(user_id)
    )


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
    if permission is Permission.ORDERS_OWN:
        return found.is_user(str(key[0]))
    if permission in CHAT:
        return await members.is_member(info.context, found.identity, ObjectId(str(key[0])))
    return False
