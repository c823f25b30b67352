"""A session's members are read by the session, a bounded page at a time (by member id), one
command each, whatever the number of members."""

from __future__ import annotations

from datetime import UTC, datetime

from bson import ObjectId

from store.chat import chat_members
from store.chat.chat_members import MEMBER, OWNER
from store.database import Database
from tests.chat.support import members_collection

AT = datetime(2024, 5, 1, 12, tzinfo=UTC)


async def test_a_sessions_members_come_a_bounded_page_at_a_time(database: Database) -> None:
    members, session = await members_collection(database), ObjectId()
    names = [f"user{n:02}" for n in range(7)]
    for name in names:
        role = OWNER if name == "user03" else MEMBER
        await chat_members.add_member(members, member=name, session_id=session, role=role, now=AT)
    await chat_members.add_member(
        members, member="other", session_id=ObjectId(), role=OWNER, now=AT
    )
    database.commands.reset()
    first = await chat_members.session_members(members, session_id=session, first=5)
    rest = await chat_members.session_members(
        members, session_id=session, first=5, after=first.memberships[-1].member
    )
    assert [m.member for m in first.memberships] == names[:5] and first.has_next
    assert [m.member for m in rest.memberships] == names[5:] and not rest.has_next
    assert [m.role for m in first.memberships].count("owner") == 1
    assert dict(database.commands.by_name) == {"find": 2}
