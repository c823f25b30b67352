"""Chat messages: the connection read by `seq`, and posting, editing and deleting them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bson import ObjectId

from resolvers import validation
from resolvers.access import members
from resolvers.access.permissions import Permission
from resolvers.access.records import (
    access,
    editable_by,
    may_use_session,
    message_author,
)
from resolvers.chat.retries import answer_to_retry
from resolvers.chat.sessions import session_id_argument
from resolvers.context import Info
from resolvers.cursors import CursorCodec, Integer
from resolvers.errors import ApiError, BadUserInput, Forbidden, NotFound
from resolvers.global_ids import Key, NodeKind, object_id_part, owned_key
from resolvers.loaders import LoaderSpec, keyed
from resolvers.paging import Page, PageRequest
from settings import (
    CLIENT_MESSAGE_ID_PATTERN,
    MAX_AUTHOR_LENGTH,
    MAX_MESSAGE_TEXT_LENGTH,
)
from store.chat import chat_edits, chat_pages, chat_posts, chat_sessions
from store.chat.chat_messages import MessageRange, read_messages
from store.chat.chat_pages import MessageDoc, NewMessage
from store.chat.chat_sessions import SessionDoc
from store.database import Database
from store.times import stored_time

CLIENT_MESSAGE_ID = re.compile(CLIENT_MESSAGE_ID_PATTERN)
MAX_SEQ = 2**31 - 1  # `seq` is a GraphQL Int


class MessagePosition(NamedTuple):
    seq: int


MESSAGE_CURSOR = CursorCodec("message", (Integer(1, MAX_SEQ),), MessagePosition)


async def _messages(
    database: Database, reads: Sequence[MessageRange], parameter: object
) -> list[list[MessageDoc]]:
    return await read_messages(database.collection(chat_pages.COLLECTION), reads=reads)


MESSAGES: LoaderSpec[MessageRange, list[MessageDoc]] = LoaderSpec("chat_messages", _messages)


def _read(session: SessionDoc, request: PageRequest, start: int | None) -> MessageRange | None:
    """The range a page needs: its size and one more (to tell whether more exist). Backwards,
    it reaches from the counted newest (`messageCount`) down; a session whose counters lag
    a post that stopped halfway, or a cursor past the newest, reads on to the real newest."""
    wanted = request.size + 1
    if request.forward:
        after = start or 0
        return MessageRange(session.id, after + 1, after + wanted)
    before = MAX_SEQ + 1 if start is None else start
    if before <= 1:
        return None  # nothing comes before the first message
    if before <= session.message_count:
        return MessageRange(session.id, max(1, before - wanted), before - 1)
    # The cursor's own message too, if any: whether it exists tells whether one follows.
    last = None if start is None else before
    return MessageRange(session.id, max(1, session.message_count + 1 - wanted), last)


async def messages(
    info: Info,
    *,
    session: SessionDoc,
    first: int | None,
    after: str | None,
    last: int | None,
    before: str | None,
) -> Page[MessageDoc]:
    """A page of the session's messages, edges in ascending `seq` either way."""
    ctx = info.context
    request = PageRequest.from_arguments(
        first=first, after=after, last=last, before=before, maximum=ctx.settings.max_page_size
    )
    position = request.position(MESSAGE_CURSOR)
    read = _read(session, request, None if position is None else position.seq)
    found: list[MessageDoc] = []
    if read is not None:
        found = await ctx.loader(MESSAGES).load(read)
    # Messages are numbered from 1 without gaps (a deleted one stays, as a tombstone), so one
    # lies at or before a cursor when there is any, and at or after it when its number does.
    behind = False
    if position is not None and request.forward:
        behind = session.message_count > 0 or bool(found)
    elif position is not None:
        behind = position.seq <= session.message_count or any(
            message.seq >= position.seq for message in found
        )
        found = [message for message in found if message.seq < position.seq]
    # Nearest the cursor first: the oldest forwards, the newest backwards (a range reaching to
    # the newest may hold more than the page needs).
    nearest_first = found if request.forward else found[::-1]
    return Page.cut(
        nearest_first,
        request,
        lambda message: MESSAGE_CURSOR.encode(MessagePosition(message.seq)),
        behind=behind,
        total=session.message_count,
    )


def _message_text(text: str) -> str:
    """1 to 4,000 characters, not only spaces; tabs and line breaks kept, no other control
    character."""
    validation.visible(text, argument="text")
    return validation.multiline_text(text, argument="text", maximum=MAX_MESSAGE_TEXT_LENGTH)


async def _new_message(
    info: Info, author: str | None, text: str, client_message_id: str | None
) -> NewMessage:
    author = validation.text(
        validation.visible(await message_author(info, author), argument="author"),
        argument="author",
        maximum=MAX_AUTHOR_LENGTH,
    )
    text = _message_text(text)
    if client_message_id is not None and not CLIENT_MESSAGE_ID.fullmatch(client_message_id):
        raise BadUserInput(
            "clientMessageId: 1 to 64 of A-Z, a-z, 0-9, '_' and '-'", argument="clientMessageId"
        )
    return NewMessage(ObjectId(), author, text, stored_time(info.context.now), client_message_id)


@dataclass(frozen=True, slots=True)
class SessionMessage:
    """A message and its session: together, its global key."""

    session_id: ObjectId
    message: MessageDoc


MESSAGE = NodeKind(
    "Message", (object_id_part, object_id_part), Permission.CHAT_READ
)  # session, message


async def _messages_by_key(
    database: Database, keys: Sequence[tuple[ObjectId, ObjectId]], parameter: object
) -> list[MessageDoc | None]:
    found = await chat_edits.find_messages(database.collection(chat_pages.COLLECTION), keys=keys)
    return keyed(found, keys)


MESSAGES_BY_KEY: LoaderSpec[tuple[ObjectId, ObjectId], MessageDoc | None] = LoaderSpec(
    "messages", _messages_by_key
)


async def message_by_key(info: Info, key: Key) -> SessionMessage | None:
    """The message of a `MESSAGE` key, with its session."""
    session_id, message_id = ObjectId(str(key[0])), ObjectId(str(key[1]))
    found = await info.context.loader(MESSAGES_BY_KEY).load((session_id, message_id))
    return None if found is None else SessionMessage(session_id, found)


def message_id_argument(value: str, *, session_id: ObjectId) -> ObjectId:
    """A message named by its global id (of this session) or its own (`messageId`)."""
    own = owned_key(value, MESSAGE, str(session_id), argument="messageId")
    return validation.object_id(value if own is None else own, argument="messageId")


def _no_session(session_id: ObjectId) -> NotFound:
    return NotFound(f"sessionId: no chat session {session_id}", argument="sessionId")


async def post_message(
    info: Info, *, session_id: str, author: str | None, text: str, client_message_id: str | None
) -> SessionMessage:
    ctx = info.context
    sid = session_id_argument(session_id)
    message = await _new_message(info, author, text, client_message_id)
    if not await may_use_session(info, sid, Permission.CHAT_WRITE):
        raise _no_session(sid)
    pages = ctx.collection(chat_pages.COLLECTION)
    appended = await chat_posts.post_message(
        pages,
        sessions=ctx.collection(chat_sessions.COLLECTION),
        session_id=sid,
        message=message,
        cap=ctx.settings.messages_per_page,
    )
    if appended is None:
        raise _no_session(sid)
    await _still_a_member(info, sid, appended.message, stored=appended.stored)
    if not appended.stored:  # a member still (or a service): may the held message answer?
        answer_to_retry(appended.message, message, await ctx.identity())
    return SessionMessage(sid, appended.message)


async def _still_a_member(
    info: Info, session_id: ObjectId, posted: MessageDoc, *, stored: bool
) -> None:
    """A member's post checks membership, then appends: two commands, between which a
    `removeChatMember` may be acknowledged. No command appends on condition of another
    collection's document, so the post reads the membership again once its message is stored
    and, when it is gone, tombstones that message (as `deleteMessage` does) and answers as for
    a session the caller is no member of: no message of a removed member outlives the post
    that raced the removal. A role that writes to every session is no member and is not
    asked."""
    found = await access(info.context)
    if found.reaches_every(Permission.CHAT_WRITE):
        return
    if await members.still_member(info.context, found.identity, session_id):
        return
    if not stored:  # a retry's message was stored before, by a member then: it stays
        raise _no_session(session_id)
    await chat_edits.delete_message(
        info.context.collection(chat_pages.COLLECTION), session_id=session_id, message_id=posted.id
    )
    raise _no_session(session_id)


async def _missing(
    info: Info, session_id: ObjectId, message_id: ObjectId, author: str | None
) -> ApiError:
    """Why a message could not be changed: no session, no message, another's message (for a
    member who may change only their own), or a deleted message."""
    ctx = info.context
    found = await chat_edits.find_message(
        ctx.collection(chat_pages.COLLECTION), session_id=session_id, message_id=message_id
    )
    if found is not None and author is not None and found.author != author:
        return Forbidden(
            "messageId: not allowed: a member edits and deletes their own messages; the "
            "session's owner (or an admin) any",
            argument="messageId",
        )
    if found is not None and found.deleted:
        return BadUserInput(
            "messageId: the message is deleted, and a deleted message cannot be edited",
            argument="messageId",
        )
    sessions = ctx.collection(chat_sessions.COLLECTION)
    if found is None and not await chat_sessions.session_exists(sessions, session_id=session_id):
        return _no_session(session_id)
    return NotFound(f"messageId: no message {message_id} in this session", argument="messageId")


async def edit_message(
    info: Info, *, session_id: str, message_id: str, text: str
) -> SessionMessage:
    ctx = info.context
    sid = session_id_argument(session_id)
    mid = message_id_argument(message_id, session_id=sid)
    text = _message_text(text)
    author = await editable_by(info, sid)
    edited = await chat_edits.edit_message(
        ctx.collection(chat_pages.COLLECTION),
        session_id=sid,
        message_id=mid,
        text=text,
        now=stored_time(ctx.now),
        author=author,
    )
    if edited is None:
        raise await _missing(info, sid, mid, author)
    return SessionMessage(sid, edited)


async def delete_message(info: Info, *, session_id: str, message_id: str) -> SessionMessage:
    ctx = info.context
    sid = session_id_argument(session_id)
    mid = message_id_argument(message_id, session_id=sid)
    author = await editable_by(info, sid)
    deleted = await chat_edits.delete_message(
        ctx.collection(chat_pages.COLLECTION), session_id=sid, message_id=mid, author=author
    )
    if deleted is None:
        raise await _missing(info, sid, mid, author)
    return SessionMessage(sid, deleted)
