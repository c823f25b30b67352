"""A session's members are read by the session, a bounded page at a time (by member id), one
command each, whatever the number of members: the page and one more, forwards or backwards."""

from __future__ import annotations

from datetime import UTC, datetime

from bson import ObjectId

from store.chat import chat_members
from store.chat.chat_members import MEMBER, OWNER, MembersRead
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
    [first] = await chat_members.session_member_pages(
        members, session_ids=[session], read=MembersRead(size=5, count=True)
    )
    after = first.memberships[4].member
    [rest] = await chat_members.session_member_pages(
        members, session_ids=[session], read=MembersRead(size=5, cursor=after)
    )
    # The page and one more (which tells that more follow), then the rest, nothing behind it.
    assert [m.member for m in first.memberships] == names[:6] and first.total == 7
    assert [m.member for m in rest.memberships] == names[5:] and rest.behind
    assert rest.total is None and not first.behind
    assert [m.role for m in first.memberships].count("owner") == 1
    assert dict(database.commands.by_name) == {"aggregate": 2}


async def test_backwards_a_page_reads_down_from_the_cursor(database: Database) -> None:
    members, session = await members_collection(database), ObjectId()
    for name in ["a", "b", "c", "d"]:
        await chat_members.add_member(members, member=name, session_id=session, role=MEMBER, now=AT)
    database.commands.reset()
    read = MembersRead(size=2, forward=False, cursor="d")
    [page] = await chat_members.session_member_pages(members, session_ids=[session], read=read)
    assert [m.member for m in page.memberships] == ["c", "b", "a"] and page.behind
    assert dict(database.commands.by_name) == {"aggregate": 1}
