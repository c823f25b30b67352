"""The chat member rule: whether an identity is a member (or the owner) of a session, read from
the membership store (store/chat/chat_members.py).

One read per request and member, whatever the number of sessions asked: a loader keyed by the
session, its parameter the member, so that `nodes(ids:)` over many sessions, or each session of
a page asking in turn, share one `find` on the (member, session) index. A mutation starts with
fresh loaders (schema/mutation.py), so a membership read before a change is not served after it.
A role that grants `chat:read`/`chat:write`/`chat:own` (admin; ingest writes) reaches every
session without asking here.
"""

from __future__ import annotations

from collections.abc import Sequence

from bson import ObjectId

from resolvers.context import Context
from resolvers.identity import USER, Identity
from resolvers.loaders import LoaderSpec, keyed
from store.chat import chat_members
from store.chat.chat_members import OWNER, MembershipDoc
from store.database import Database


async def _memberships(
    database: Database, session_ids: Sequence[ObjectId], member: object
) -> list[MembershipDoc | None]:
    found = await chat_members.find_memberships(
        database.collection(chat_members.COLLECTION), member=str(member), session_ids=session_ids
    )
    return keyed({doc.session_id: doc for doc in found}, session_ids)


MEMBERSHIPS: LoaderSpec[ObjectId, MembershipDoc | None] = LoaderSpec(
    "chat_memberships", _memberships
)


async def membership(
    context: Context, identity: Identity, session_id: ObjectId
) -> MembershipDoc | None:
    """The end user's membership of the session, or None (a service or anonymous caller is a
    member of none)."""
    if identity.kind != USER or identity.user_id is None:
        return None
    found: MembershipDoc | None = await context.loader(MEMBERSHIPS, identity.user_id).load(
        session_id
    )
    return found


async def is_member(context: Context, identity: Identity, session_id: ObjectId) -> bool:
    """Whether `identity` is a member of the session `session_id` (the owner is one)."""
    return await membership(context, identity, session_id) is not None


async def is_owner(context: Context, identity: Identity, session_id: ObjectId) -> bool:
    """Whether `identity` owns the session `session_id`."""
    found = await membership(context, identity, session_id)
    return found is not None and found.role == OWNER


async def still_member(context: Context, identity: Identity, session_id: ObjectId) -> bool:
    """Whether `identity` is a member now: one read past the request's loader, for a check
    that must see a removal made since the request's first read (a post's, after its
    append: resolvers/chat/messages.py)."""
    if identity.kind != USER or identity.user_id is None:
        return False
    coll = context.collection(chat_members.COLLECTION)
    found = await chat_members.find_membership(coll, member=identity.user_id, session_id=session_id)
    return found is not None
