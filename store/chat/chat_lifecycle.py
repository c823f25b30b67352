"""A session's life across its three collections, which no single command spans: its document
(`chat_sessions`), its pages (`chat_pages`) and its memberships (`chat_members`).

Creating: the session first, its `owner` named in it, then the owner's membership, then page 0.
Should the membership's write fail, the call fails and the session stays stored with its
`owner` and without a membership (nor page 0, which a post opens): no member reaches it, an
admin does, and the owner's membership is written again from the session's `owner` by
`arraygraph migrate` (`write_owner_memberships`), which changes nothing where it exists.

Deleting: the session first, so that no reader finds it, then its pages and its memberships
(also any a racing post or add left behind). Adding a member: the membership, then a read of
the session; a session deleted meanwhile has its membership removed, so that an add racing a
delete never leaves one behind (the delete removes those written before it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bson import ObjectId

from store.chat import chat_members, chat_pages, chat_sessions
from store.chat.chat_members import OWNER, Added, MembershipDoc, Role
from store.chat.chat_sessions import SessionDoc
from store.protocols import AsyncCollection


async def create_session(
    sessions: AsyncCollection,
    *,
    pages: AsyncCollection,
    members: AsyncCollection,
    title: str,
    owner: str | None,
    now: datetime,
) -> SessionDoc:
    """A new session, `owner` (if any) its owner and first member: three commands (the
    session, the owner's membership, page 0); two without an owner."""
    created = await chat_sessions.create_session(sessions, title=title, owner=owner, now=now)
    if owner is not None:
        await chat_members.add_member(
            members, member=owner, session_id=created.id, role=OWNER, now=created.created_at
        )
    await chat_pages.open_first_page(pages, session_id=created.id)
    return created


async def delete_session(
    sessions: AsyncCollection,
    *,
    pages: AsyncCollection,
    members: AsyncCollection,
    session_id: ObjectId,
) -> bool:
    """Whether there was such a session; three commands (the session, its pages, its
    memberships) whether there was or not, which removes what a racing write left."""
    existed = await chat_sessions.delete_session(sessions, session_id=session_id)
    await chat_pages.delete_pages(pages, session_id=session_id)
    await chat_members.delete_session_memberships(members, session_id=session_id)
    return existed


@dataclass(frozen=True, slots=True)
class SessionMember:
    """A membership added (or found) and its session, as read after it."""

    added: Added
    session: SessionDoc


async def add_member(
    members: AsyncCollection,
    *,
    sessions: AsyncCollection,
    member: str,
    session_id: ObjectId,
    role: Role,
    now: datetime,
) -> SessionMember | None:
    """The member added (or found: nothing changes), with the session; None when there is no
    such session, nothing stored. Two commands: the membership, then the session."""
    added = await chat_members.add_member(
        members, member=member, session_id=session_id, role=role, now=now
    )
    session = await chat_sessions.find_session(sessions, session_id=session_id)
    if session is None:
        if added.added:  # ours only: an earlier one is the delete's to remove
            await chat_members.remove_member(members, member=member, session_id=session_id)
        return None
    return SessionMember(added, session)


def owner_memberships(found: Sequence[SessionDoc]) -> list[MembershipDoc]:
    """The owner's membership of each session that names one, joined when it was created."""
    return [
        MembershipDoc(session.owner, session.id, OWNER, session.created_at)
        for session in found
        if session.owner is not None
    ]


async def write_owner_memberships(members: AsyncCollection, *, found: Sequence[SessionDoc]) -> int:
    """Write the owner's membership of each session that names one and lacks it (a create
    that stopped between its writes): one bulk write; how many were written."""
    return await chat_members.write_memberships(members, memberships=owner_memberships(found))
