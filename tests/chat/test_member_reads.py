"""The reads keyed by the member are one command each, on the (member, session) index: a page
of the member's sessions (newest session first, the next page after the last session id, as a
Relay cursor would carry it), whether they belong to one session, or to each of many."""

from __future__ import annotations

from datetime import UTC, datetime

from bson import ObjectId

from store.chat import chat_members
from store.chat.chat_members import MEMBER, OWNER, MembershipDoc
from store.database import Database
from store.protocols import AsyncCollection
from tests.chat.support import members_collection

AT = datetime(2024, 5, 1, 12, tzinfo=UTC)


async def _ada_in_five_sessions(members: AsyncCollection) -> list[ObjectId]:
    """Sessions 0..4 (ids in creation order) that ada belongs to, and one she does not."""
    sessions = [ObjectId(f"65f00000000000000000000{n}") for n in range(6)]
    for session in sessions[:5]:
        await chat_members.add_member(
            members, member="ada", session_id=session, role=MEMBER, now=AT
        )
        await chat_members.add_member(members, member="bob", session_id=session, role=OWNER, now=AT)
    await chat_members.add_member(members, member="bob", session_id=sessions[5], role=OWNER, now=AT)
    return sessions


async def test_a_members_sessions_are_walked_newest_first_one_command_a_page(
    database: Database,
) -> None:
    members = await members_collection(database)
    sessions = await _ada_in_five_sessions(members)
    walked: list[ObjectId] = []
    after: ObjectId | None = None
    database.commands.reset()
    while True:
        page = await chat_members.member_sessions(members, member="ada", first=2, after=after)
        walked += [m.session_id for m in page.memberships]
        if not page.has_next:
            break
        after = page.memberships[-1].session_id
    assert walked == sessions[4::-1]
    assert dict(database.commands.by_name) == {"find": 3}


async def test_a_membership_check_is_one_read(database: Database) -> None:
    members = await members_collection(database)
    sessions = await _ada_in_five_sessions(members)
    database.commands.reset()
    found = await chat_members.find_membership(members, member="ada", session_id=sessions[1])
    missing = await chat_members.find_membership(members, member="ada", session_id=sessions[5])
    assert (found, missing) == (MembershipDoc("ada", sessions[1], MEMBER, AT), None)
    assert dict(database.commands.by_name) == {"find": 2}


async def test_membership_of_many_sessions_is_one_read(database: Database) -> None:
    members = await members_collection(database)
    sessions = await _ada_in_five_sessions(members)
    database.commands.reset()
    found = await chat_members.find_memberships(
        members, member="ada", session_ids=[sessions[0], sessions[3], sessions[5]]
    )
    assert sorted(m.session_id for m in found) == [sessions[0], sessions[3]]
    assert dict(database.commands.by_name) == {"find": 1}


async def test_a_members_session_count_is_one_command(database: Database) -> None:
    members = await members_collection(database)
    await _ada_in_five_sessions(members)
    database.commands.reset()
    assert await chat_members.count_member_sessions(members, member="bob") == 6
    assert database.commands.count == 1
