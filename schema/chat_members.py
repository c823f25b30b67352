"""A chat session's members: `ChatMember`, its connection, and the `members` field of
`ChatSession` (declared in schema/chat.py with `members_field()`)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import Enum
from typing import Any, Protocol

import strawberry

from resolvers.chat import members
from resolvers.context import Info
from resolvers.paging import check_page_arguments
from schema.facts import AS_ITS_OBJECT, facts, text_units
from schema.relay import Connection
from settings import Settings
from store.chat.chat_members import OWNER, MembershipDoc
from store.chat.chat_sessions import SessionDoc


@strawberry.enum(description="What a member may do in the session besides reading and posting.")
class ChatMemberRole(Enum):
    OWNER = strawberry.enum_value(
        "owner", description="Created it: adds and removes members, deletes it."
    )
    MEMBER = strawberry.enum_value("member", description="Added by the owner (or an admin).")


@strawberry.type(description="One member of a chat session.")
class ChatMember:
    member: str = strawberry.field(
        description="The member's user id (a token's user id claim).",
        metadata=facts(value_units=text_units(members.MAX_MEMBER_LENGTH), permission=AS_ITS_OBJECT),
    )
    role: ChatMemberRole = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    joined_at: datetime = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))

    @classmethod
    def from_doc(cls, doc: MembershipDoc) -> ChatMember:
        role = ChatMemberRole.OWNER if doc.role == OWNER else ChatMemberRole.MEMBER
        return cls(member=doc.member, role=role, joined_at=doc.joined_at)


@strawberry.type(description="A session's members, edges always in ascending member id.")
class ChatMemberConnection(Connection[ChatMember]):
    pass


class SessionRoot(Protocol):
    """What `members` needs of the `ChatSession` it is a field of."""

    doc: SessionDoc


async def _members(
    root: SessionRoot,
    info: Info,
    first: int | None = None,
    after: str | None = None,
    last: int | None = None,
    before: str | None = None,
) -> ChatMemberConnection:
    page = await members.session_members(
        info, session_id=root.doc.id, first=first, after=after, last=last, before=before
    )
    return ChatMemberConnection.from_page(page, ChatMember.from_doc)


def _check_page(arguments: Mapping[str, Any], settings: Settings) -> None:
    """`ChatSession.members`' page arguments, as its resolver checks them first."""
    check_page_arguments(arguments, members.MEMBER_CURSOR, maximum=settings.max_page_size)


def members_field() -> Any:
    """`ChatSession.members`: answers whoever was answered the session (a member, a role that
    reads every session, a mutation's caller)."""
    field: Any = strawberry.field(
        resolver=_members,
        description="Who is in the session, by member id; `last`/`before` read backwards "
        "from the greatest.",
        metadata=facts(
            cursors=(members.MEMBER_CURSOR,), payload_check=_check_page, permission=AS_ITS_OBJECT
        ),
    )
    return field
