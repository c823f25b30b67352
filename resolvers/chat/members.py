"""Adding and removing a session's members: the owner's (or an admin's) to do
(`require_owner`). Each answers the session; a member added twice, or removed when they were
none, changes nothing and answers the same."""

from __future__ import annotations

from resolvers.access.records import require_owner
from resolvers.chat.sessions import SESSIONS_BY_ID, session_id_argument
from resolvers.context import Info
from resolvers.errors import BadUserInput, NotFound
from resolvers.users import user_id_argument
from store.chat import chat_lifecycle, chat_members, chat_sessions
from store.chat.chat_members import MEMBER
from store.chat.chat_sessions import SessionDoc


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
