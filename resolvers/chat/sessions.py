"""Chat sessions: lookups, the list by activity, creation and deletion, validated at the edge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from bson import ObjectId

from resolvers import validation
from resolvers.access.permissions import Permission
from resolvers.access.records import (
    access,
    acts_for_anyone,
    may_use_session,
    reads_every_session,
    require_owner,
)
from resolvers.context import Info
from resolvers.cursors import CursorCodec, Id, Millis
from resolvers.errors import Forbidden, NotFound
from resolvers.global_ids import Key, NodeKind, domain_id, object_id_part
from resolvers.identity import USER
from resolvers.loaders import LoaderSpec, keyed
from resolvers.paging import Page, PageRequest
from resolvers.users import user_id_argument
from runtime.selection.fields import selects
from store.chat import chat_lifecycle, chat_members, chat_pages, chat_sessions
from store.chat.chat_sessions import SessionDoc, SessionPosition
from store.database import Database

SESSION_CURSOR = CursorCodec("chat-session", (Millis(), Id()), SessionPosition)


class MemberPosition(NamedTuple):
    id: ObjectId


# A member's own sessions are paged by session id (the membership index's order).
MEMBER_SESSION_CURSOR = CursorCodec("member-session", (Id(),), MemberPosition)


async def _sessions_by_id(
    database: Database, ids: Sequence[ObjectId], parameter: Any
) -> list[SessionDoc | None]:
    coll = database.collection(chat_sessions.COLLECTION)
    found = await chat_sessions.find_sessions(coll, ids=ids)
    return keyed({doc.id: doc for doc in found}, ids)


SESSIONS_BY_ID: LoaderSpec[ObjectId, SessionDoc | None] = LoaderSpec(
    "chat_sessions_by_id", _sessions_by_id
)


CHAT_SESSION = NodeKind("ChatSession", (object_id_part,), Permission.CHAT_READ)


def session_id_argument(value: str, *, argument: str = "sessionId") -> ObjectId:
    """A session named by its global id or its own (`sessionId`)."""
    own = domain_id(value, CHAT_SESSION, argument=argument)
    return validation.object_id(own, argument=argument)


async def session_by_key(info: Info, key: Key) -> SessionDoc | None:
    """The session of a `CHAT_SESSION` key."""
    found: SessionDoc | None = await info.context.loader(SESSIONS_BY_ID).load(ObjectId(str(key[0])))
    return found


async def chat_session(info: Info, *, id: str) -> SessionDoc | None:
    session_id = session_id_argument(id, argument="id")
    if not await may_use_session(info, session_id, Permission.CHAT_READ):
        return None  # as a session that does not exist
    found: SessionDoc | None = await info.context.loader(SESSIONS_BY_ID).load(session_id)
    return found


async def chat_sessions_page(
    info: Info, *, first: int | None, after: str | None
) -> Page[SessionDoc]:
    """Most recently active first (a session moves to the front when a message arrives)."""
    ctx = info.context
    request = PageRequest.from_arguments(
        first=first, after=after, maximum=ctx.settings.max_page_size
    )
    if not await reads_every_session(info):
        return await _member_sessions_page(info, request)
    coll = ctx.collection(chat_sessions.COLLECTION)
    found, more = await chat_sessions.list_sessions(
        coll, first=request.size, after=request.position(SESSION_CURSOR)
    )
    total = await chat_sessions.count_sessions(coll) if selects(info, "totalCount") else None
    return Page.of(
        found,
        lambda doc: SESSION_CURSOR.encode_pair(doc.active_at, doc.id),
        has_next=more,
        has_previous=False,  # read forward only (see `resolvers/sensors.py`)
        total=total,
    )


async def _member_sessions_page(info: Info, request: PageRequest) -> Page[SessionDoc]:
    """An end user's own sessions, newest first: one read of their memberships, paged in the
    database, then one of those sessions (a session being deleted is left out)."""
    ctx = info.context
    identity = (await access(ctx)).identity
    if identity.kind != USER or identity.user_id is None:
        return Page.of([], str, has_next=False, has_previous=False, total=0)
    coll = ctx.collection(chat_members.COLLECTION)
    position = request.position(MEMBER_SESSION_CURSOR)
    page = await chat_members.member_sessions(
        coll,
        member=identity.user_id,
        first=request.size,
        after=None if position is None else position.id,
    )
    loaded = await ctx.loader(SESSIONS_BY_ID).load_many([m.session_id for m in page.memberships])
    found = [doc for doc in loaded if doc is not None]
    total = None
    if selects(info, "totalCount"):
        total = await chat_members.count_member_sessions(coll, member=identity.user_id)
    return Page.of(
        found,
        lambda doc: MEMBER_SESSION_CURSOR.encode(MemberPosition(doc.id)),
        has_next=page.has_next,
        has_previous=False,
        total=total,
    )


async def _owner(info: Info, owner: str | None) -> str | None:
    """Who owns a new session: whom `owner` names, for a caller whose role writes to every
    session (ingest, admin); else the end user creating it (`owner` refused to them as
    FORBIDDEN, even naming themselves), or nobody (a service without `owner`)."""
    identity = await info.context.identity()
    if owner is None:
        return identity.user_id if identity.kind == USER else None
    if not await acts_for_anyone(info, Permission.CHAT_WRITE):
        raise Forbidden(
            "owner: not allowed: only a role that writes to every session (ingest, admin) "
            "names a session's owner; an end user owns the sessions they create",
            argument="owner",
        )
    return user_id_argument(owner, argument="owner")


async def create_chat_session(info: Info, *, title: str, owner: str | None) -> SessionDoc:
    """The session, its owner (`_owner`) its first member: three commands (the session, the
    membership, its first page); two without an owner, which only an admin reaches."""
    ctx = info.context
    title = validation.title(title)
    return await chat_lifecycle.create_session(
        ctx.collection(chat_sessions.COLLECTION),
        pages=ctx.collection(chat_pages.COLLECTION),
        members=ctx.collection(chat_members.COLLECTION),
        title=title,
        owner=await _owner(info, owner),
        now=ctx.now,
    )


async def delete_chat_session(info: Info, *, id: str) -> bool:
    """The session, its pages and its memberships (`store/chat/chat_lifecycle.py`): three
    commands. NOT_FOUND when there was no session."""
    ctx = info.context
    session_id = session_id_argument(id, argument="id")
    await require_owner(info, session_id, field="deleteChatSession", argument="id")
    existed = await chat_lifecycle.delete_session(
        ctx.collection(chat_sessions.COLLECTION),
        pages=ctx.collection(chat_pages.COLLECTION),
        members=ctx.collection(chat_members.COLLECTION),
        session_id=session_id,
    )
    if not existed:
        raise NotFound(f"id: no chat session {session_id}", argument="id")
    return True
