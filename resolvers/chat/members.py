"""A session's members: the connection by member id (`session_members`), read for every
session of a request's page in one command; adding and removing them, the owner's (or an
admin's) to do (`require_owner`). Each change answers the session; a member added twice, or
removed when they were none, changes nothing and answers the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bson import ObjectId

from resolvers.access.records import require_owner
from resolvers.chat.sessions import SESSIONS_BY_ID, session_id_argument
from resolvers.context import Info
from resolvers.cursors import CursorCodec, Text
from resolvers.errors import BadUserInput, NotFound
from resolvers.loaders import LoaderSpec
from resolvers.paging import Page, PageRequest
from resolvers.users import user_id_argument
from runtime.selection.fields import selects
from settings import MAX_AUTHOR_LENGTH, MAX_USER_ID_LENGTH
from settings.identity import MAX_USER_ID_CLAIM_LENGTH
from store.chat import chat_lifecycle, chat_members, chat_sessions
from store.chat.chat_members import MEMBER, MembershipDoc, MembersPage, MembersRead
from store.chat.chat_sessions import SessionDoc
from store.database import Database

# A member is a user id: one named to `addChatMember`, a token's (the owner who created the
# session), or a message's author (sessions stored before members, `arraygraph migrate`).
MAX_MEMBER_LENGTH = max(MAX_USER_ID_LENGTH, MAX_USER_ID_CLAIM_LENGTH, MAX_AUTHOR_LENGTH)


class MemberPosition(NamedTuple):
    member: str


MEMBER_CURSOR = CursorCodec("chat-member", (Text(MAX_MEMBER_LENGTH),), MemberPosition)


async def _member_pages(
    database: Database, session_ids: Sequence[ObjectId], read: MembersRead
) -> list[MembersPage]:
    coll = database.collection(chat_members.COLLECTION)
    return await chat_members.session_member_pages(coll, session_ids=session_ids, read=read)


# Parameterised by the page asked: a page of sessions asking the same is one command.
MEMBER_PAGES: LoaderSpec[ObjectId, MembersPage] = LoaderSpec("chat_member_pages", _member_pages)


async def session_members(
    info: Info,
    *,
    session_id: ObjectId,
    first: int | None,
    after: str | None,
    last: int | None,
    before: str | None,
) -> Page[MembershipDoc]:
    """A page of the session's members, edges in ascending member id either way; the caller
    was answered the session, so may see who is in it."""
    request = PageRequest.from_arguments(
        first=first,
        after=after,
        last=last,
        before=before,
        maximum=info.context.settings.max_page_size,
    )
    position = request.position(MEMBER_CURSOR)
    read = MembersRead(
        size=request.size,
        forward=request.forward,
        cursor=None if position is None else position.member,
        count=selects(info, "totalCount"),
    )
    found: MembersPage = await info.context.loader(MEMBER_PAGES, read).load(session_id)
    return Page.cut(
        found.memberships,
        request,
        lambda membership: MEMBER_CURSOR.encode(MemberPosition(membership.member)),
        behind=found.behind,
        total=found.total,
    )


def _no_session(session_id: object) -> NotFound:
    return NotFound(f"sessionId: no chat session {session_id}", argument="sessionId")


async def add_chat_member(info: Info, *, session_id: str, member: str) -> SessionDoc:
    """`member` joins the session: two commands (the membership, then the session, which
    removes a membership a racing delete would leave), after the owner's membership read."""
    ctx = info.context
    sid = session_id_argument(session_id)
    member = user_id_argument(member, argument="member")
    await require_owner(info, sid, field="addChatMember", argument="sessionId")
    added = await chat_lifecycle.add_member(
        ctx.collection(chat_members.COLLECTION),
        sessions=ctx.collection(chat_sessions.COLLECTION),
        member=member,
        session_id=sid,
        role=MEMBER,
        now=ctx.now,
    )
    if added is None:
        raise _no_session(sid)
    return added.session


async def remove_chat_member(info: Info, *, session_id: str, member: str) -> SessionDoc:
    """`member` leaves the session: one `delete` (and a read when it removed nothing, which
    tells the owner, who cannot be removed but with the session), then the session."""
    ctx = info.context
    sid = session_id_argument(session_id)
    member = user_id_argument(member, argument="member")
    await require_owner(info, sid, field="removeChatMember", argument="sessionId")
    removal = await chat_members.remove_member(
        ctx.collection(chat_members.COLLECTION), member=member, session_id=sid
    )
    if removal.owner:
        raise BadUserInput(
            "member: the session's owner cannot be removed (deleting the session removes all)",
            argument="member",
        )
    found: SessionDoc | None = await ctx.loader(SESSIONS_BY_ID).load(sid)
    if found is None:
        raise _no_session(sid)
    return found
