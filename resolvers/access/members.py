"""The chat member rule's seam: whether an identity is a member (or the owner) of a session.

NOT DONE: memberships and owners are stored (store/chat/chat_members.py), but these do not
read them yet: a member may post only once `author` is taken from their identity, which is the
member rules' work, with a member's own sessions in `chatSessions`. Until then no end user is
a member or the owner of any session: an end user reads no session, lists none, posts to none
and deletes none, each answered as a session that does not exist. A role that grants
`chat:read`/`chat:write`/`chat:own` (admin; ingest writes) reaches every session without
asking here.
"""

from __future__ import annotations

from bson import ObjectId

from resolvers.context import Context
from resolvers.identity import Identity


async def is_member(context: Context, identity: Identity, session_id: ObjectId) -> bool:
    """Whether `identity` is a member of the session `session_id`: False until the membership
    store lands."""
    return False


async def is_owner(context: Context, identity: Identity, session_id: ObjectId) -> bool:
    """Whether `identity` owns the session `session_id`: False until owners are stored."""
    return False
