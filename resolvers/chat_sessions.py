"""Chat sessions: lookups, the list by activity, creation and deletion, validated at the edge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bson import ObjectId

from resolvers import validation
from resolvers.access.permissions import Permission
from resolvers.access.records import may_use_session, reads_every_session
from resolvers.context import Info
from resolvers.cursors import CursorCodec, Id, Millis
from resolvers.errors import NotFound
from resolvers.global_ids import Key, NodeKind, domain_id, object_id_part
from resolvers.identity import USER
from resolvers.loaders import LoaderSpec, keyed
from resolvers.paging import Page, PageRequest
from runtime.selection.fields import selects
from store.chat import chat_lifecycle, chat_members, chat_pages, chat_sessions
from store.chat.chat_sessions import SessionDoc, SessionPosition
from store.database import Database

SESSION_CURSOR = CursorCodec("chat-session", (Millis(), Id()), SessionPosition)


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
        # NOT DONE: a member's own sessions (store/chat/chat_members.py) come with the member
        # rules (resolvers/access/members.py); none until then.
        return Page.of([], str, has_next=False, has_previous=False, total=0)
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


async def create_chat_session(info: Info, *, title: str) -> SessionDoc:
    """An end user's session is theirs: they are its owner and first member (three commands:
    the session, the membership, its first page). A service's or an anonymous caller's has no
    owner until a service can name one (two commands)."""
    ctx = info.context
    title = validation.title(title)
    identity = await ctx.identity()
    return await chat_lifecycle.create_session(
        ctx.collection(chat_sessions.COLLECTION),
        pages=ctx.collection(chat_pages.COLLECTION),
        members=ctx.collection(chat_members.COLLECTION),
        title=title,
        owner=identity.user_id if identity.kind == USER else None,
        now=ctx.now,
    )


async def delete_chat_session(info: Info, *, id: str) -> bool:
    """The session, its pages and its memberships (`store/chat/chat_lifecycle.py`): three
    commands. NOT_FOUND when there was no session."""
    ctx = info.context
    session_id = session_id_argument(id, argument="id")
    if not await may_use_session(info, session_id, Permission.CHAT_OWN):
        raise NotFound(f"id: no chat session {session_id}", argument="id")
    existed = await chat_lifecycle.delete_session(
        ctx.collection(chat_sessions.COLLECTION),
        pages=ctx.collection(chat_pages.COLLECTION),
        members=ctx.collection(chat_members.COLLECTION),
        session_id=session_id,
    )
    if not existed:
        raise NotFound(f"id: no chat session {session_id}", argument="id")
    return True
