"""Chat session and message types, and the chat fields of Query and Mutation; the conversions
from stored sessions and messages live here, once."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, ClassVar

import strawberry
from bson import ObjectId

from resolvers.access.permissions import Permission
from resolvers.chat import members as chat_members
from resolvers.chat import messages, sessions
from resolvers.chat.messages import SessionMessage
from resolvers.context import Info
from resolvers.global_ids import Key, NodeKind
from resolvers.paging import check_page_arguments
from schema.chat_members import ChatMemberConnection, members_field
from schema.facts import AS_ITS_OBJECT, NO_WORK, SHORT, facts, text_units
from schema.mutation import write_mutation
from schema.node import Node, node_id_field
from schema.relay import Connection
from settings import MAX_AUTHOR_LENGTH, MAX_MESSAGE_TEXT_LENGTH, MAX_TITLE_LENGTH
from store.chat.chat_pages import MessageDoc
from store.chat.chat_sessions import SessionDoc


@strawberry.type(description="One message; a deleted one keeps its `seq`, with its text emptied.")
class Message(Node):
    KIND: ClassVar[NodeKind] = messages.MESSAGE
    id: strawberry.ID = node_id_field(
        lambda message: (str(message.session_id), message.message_id), value_units=SHORT
    )
    message_id: strawberry.ID = strawberry.field(
        description="The message's own id.",
        metadata=facts(value_units=SHORT, permission=AS_ITS_OBJECT),
    )
    seq: int = strawberry.field(
        description="1, 2, 3... in the session, without gaps.",
        metadata=facts(permission=AS_ITS_OBJECT),
    )
    author: str = strawberry.field(
        metadata=facts(value_units=text_units(MAX_AUTHOR_LENGTH), permission=AS_ITS_OBJECT)
    )
    text: str = strawberry.field(
        metadata=facts(value_units=text_units(MAX_MESSAGE_TEXT_LENGTH), permission=AS_ITS_OBJECT)
    )
    sent_at: datetime = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    edited_at: datetime | None = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    deleted: bool = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    session_id: strawberry.Private[ObjectId]

    @classmethod
    async def resolve_node(cls, info: Info, key: Key) -> Message | None:
        found = await messages.message_by_key(info, key)
        return None if found is None else cls.from_record(found)

    @classmethod
    def from_record(cls, record: SessionMessage) -> Message:
        return cls.from_doc(record.message, session_id=record.session_id)

    @classmethod
    def from_doc(cls, doc: MessageDoc, *, session_id: ObjectId) -> Message:
        return cls(
            message_id=strawberry.ID(str(doc.id)),
            seq=doc.seq,
            author=doc.author,
            text=doc.text,
            sent_at=doc.sent_at,
            edited_at=doc.edited_at,
            deleted=doc.deleted,
            session_id=session_id,
        )


@strawberry.type(description="A session's messages, edges always in ascending `seq`.")
class MessageConnection(Connection[Message]):
    pass


async def _messages(
    root: ChatSession,
    info: Info,
    first: int | None = None,
    after: str | None = None,
    last: int | None = None,
    before: str | None = None,
) -> MessageConnection:
    page = await messages.messages(
        info, session=root.doc, first=first, after=after, last=last, before=before
    )
    session_id = root.doc.id
    return MessageConnection.from_page(page, lambda m: Message.from_doc(m, session_id=session_id))


@strawberry.type(description="A chat session: its messages live in capped page documents.")
class ChatSession(Node):
    KIND: ClassVar[NodeKind] = sessions.CHAT_SESSION
    id: strawberry.ID = node_id_field(lambda session: (session.session_id,), value_units=SHORT)
    session_id: strawberry.ID = strawberry.field(
        description="The session's own id.",
        metadata=facts(value_units=SHORT, permission=AS_ITS_OBJECT),
    )
    title: str = strawberry.field(
        metadata=facts(value_units=text_units(MAX_TITLE_LENGTH), permission=AS_ITS_OBJECT)
    )
    created_at: datetime = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    last_message_at: datetime | None = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    message_count: int = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    page_count: int = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    messages: MessageConnection = strawberry.field(
        resolver=_messages,
        description="`last`/`before` read backwards from the newest; `after: <endCursor>` "
        "polls for new messages.",
        metadata=facts(
            cursors=(messages.MESSAGE_CURSOR,),
            payload_check=lambda arguments, settings: check_page_arguments(
                arguments, messages.MESSAGE_CURSOR, maximum=settings.max_page_size
            ),
            permission=AS_ITS_OBJECT,
        ),
    )
    members: ChatMemberConnection = members_field()
    doc: strawberry.Private[SessionDoc]

    @classmethod
    async def resolve_node(cls, info: Info, key: Key) -> ChatSession | None:
        found = await sessions.session_by_key(info, key)
        return None if found is None else cls.from_doc(found)

    @classmethod
    def from_doc(cls, doc: SessionDoc) -> ChatSession:
        return cls(
            session_id=strawberry.ID(str(doc.id)),
            title=doc.title,
            created_at=doc.created_at,
            last_message_at=doc.last_message_at,
            message_count=doc.message_count,
            page_count=doc.page_count,
            doc=doc,
        )


@strawberry.type(description="Sessions, most recently active first (Relay connection).")
class ChatSessionConnection(Connection[ChatSession]):
    pass


async def _chat_session(info: Info, id: strawberry.ID) -> ChatSession | None:
    found = await sessions.chat_session(info, id=id)
    return None if found is None else ChatSession.from_doc(found)


async def _chat_sessions(
    info: Info, first: int | None = None, after: str | None = None
) -> ChatSessionConnection:
    page = await sessions.chat_sessions_page(info, first=first, after=after)
    return ChatSessionConnection.from_page(page, ChatSession.from_doc)


@strawberry.type
class ChatQueries:
    chat_session: ChatSession | None = strawberry.field(
        resolver=_chat_session, metadata=facts(work_units=NO_WORK, permission=Permission.CHAT_READ)
    )
    chat_sessions: ChatSessionConnection = strawberry.field(
        resolver=_chat_sessions,
        description="An end user's: the sessions they are a member of, newest first. A role's "
        "that reads every session (admin): every session, most recently active first; a "
        "session that gets a message moves to the front, so a walk through the pages may miss "
        "or repeat it.",
        metadata=facts(
            cursors=(sessions.SESSION_CURSOR,),
            work_units=NO_WORK,
            permission=Permission.CHAT_READ,
        ),
    )


async def _create_chat_session(
    info: Info,
    title: str,
    owner: Annotated[
        str | None,
        strawberry.argument(
            description="The owner and first member, named by a role that writes to every "
            "session (ingest, admin); FORBIDDEN to an end user, who owns the sessions they "
            "create. Without it, a service's session has no owner: only an admin reaches it."
        ),
    ] = None,
) -> ChatSession:
    return ChatSession.from_doc(await sessions.create_chat_session(info, title=title, owner=owner))


async def _add_chat_member(info: Info, session_id: strawberry.ID, member: str) -> ChatSession:
    return ChatSession.from_doc(
        await chat_members.add_chat_member(info, session_id=session_id, member=member)
    )


async def _remove_chat_member(info: Info, session_id: strawberry.ID, member: str) -> ChatSession:
    return ChatSession.from_doc(
        await chat_members.remove_chat_member(info, session_id=session_id, member=member)
    )


async def _post_message(
    info: Info,
    session_id: strawberry.ID,
    text: str,
    author: Annotated[
        str | None,
        strawberry.argument(
            description="For ingest and admin only (bridges); an end user's messages are by "
            "them, and sending it is FORBIDDEN."
        ),
    ] = None,
    client_message_id: str | None = None,
) -> Message:
    stored = await messages.post_message(
        info,
        session_id=session_id,
        author=author,
        text=text,
        client_message_id=client_message_id,
    )
    return Message.from_record(stored)


async def _edit_message(
    info: Info, session_id: strawberry.ID, message_id: strawberry.ID, text: str
) -> Message:
    edited = await messages.edit_message(
        info, session_id=session_id, message_id=message_id, text=text
    )
    return Message.from_record(edited)


async def _delete_message(
    info: Info, session_id: strawberry.ID, message_id: strawberry.ID
) -> Message:
    deleted = await messages.delete_message(info, session_id=session_id, message_id=message_id)
    return Message.from_record(deleted)


async def _delete_chat_session(info: Info, id: strawberry.ID) -> bool:
    return await sessions.delete_chat_session(info, id=id)


@strawberry.type
class ChatMutations:
    create_chat_session: ChatSession = write_mutation(
        _create_chat_session, permission=Permission.CHAT_WRITE, work_units=NO_WORK
    )
    post_message: Message = write_mutation(
        _post_message,
        permission=Permission.CHAT_WRITE,
        work_units=NO_WORK,
        description="Append a message. A retry (same author and text) with a `clientMessageId` "
        "already stored in the session returns the stored message and stores nothing; another "
        "post naming it is BAD_USER_INPUT.",
    )
    edit_message: Message = write_mutation(
        _edit_message, permission=Permission.CHAT_WRITE, work_units=NO_WORK
    )
    delete_message: Message = write_mutation(
        _delete_message,
        permission=Permission.CHAT_WRITE,
        work_units=NO_WORK,
        description="A tombstone: text emptied, `seq` kept.",
    )
    delete_chat_session: bool = write_mutation(
        _delete_chat_session,
        permission=Permission.CHAT_OWN,
        work_units=NO_WORK,
        description="The session and all its pages.",
    )
    add_chat_member: ChatSession = write_mutation(
        _add_chat_member,
        permission=Permission.CHAT_OWN,
        work_units=NO_WORK,
        description="The owner (or an admin) adds a member; adding one twice changes nothing.",
    )
    remove_chat_member: ChatSession = write_mutation(
        _remove_chat_member,
        permission=Permission.CHAT_OWN,
        work_units=NO_WORK,
        description="The owner (or an admin) removes a member, never the owner; removing "
        "someone who is no member changes nothing.",
    )
