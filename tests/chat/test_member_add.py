"""Adding a member is one command, and idempotent: adding a member again changes nothing (not
even the role) and says so, answering the stored membership; racing adds store one."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bson import ObjectId

from store.chat import chat_members
from store.chat.chat_members import MEMBER, OWNER, MembershipDoc
from store.database import Database
from tests.chat.support import members_collection

AT = datetime(2024, 5, 1, 12, tzinfo=UTC)


async def test_adding_a_member_is_one_command_and_stores_role_and_time(
    database: Database,
) -> None:
    members, session = await members_collection(database), ObjectId()
    added = await chat_members.add_member(
        members, member="ada", session_id=session, role=OWNER, now=AT
    )
    assert added == chat_members.Added(MembershipDoc("ada", session, OWNER, AT), added=True)
    assert dict(database.commands.by_name) == {"findAndModify": 1}
    stored = await members.find_one({}, {"_id": 0})
    assert stored == {"member": "ada", "session": session, "role": "owner", "joinedAt": AT}


async def test_adding_a_member_again_changes_nothing_and_says_so(database: Database) -> None:
    members, session = await members_collection(database), ObjectId()
    await chat_members.add_member(members, member="ada", session_id=session, role=OWNER, now=AT)
    before = await members.find({}).to_list()
    database.commands.reset()
    again = await chat_members.add_member(
        members, member="ada", session_id=session, role=MEMBER, now=AT + timedelta(hours=1)
    )
    assert again == chat_members.Added(MembershipDoc("ada", session, OWNER, AT), added=False)
    assert dict(database.commands.by_name) == {"findAndModify": 1}
    assert await members.find({}).to_list() == before


async def test_racing_adds_of_one_member_store_one_membership(database: Database) -> None:
    members, session = await members_collection(database), ObjectId()
    results = await asyncio.gather(
        *(
            chat_members.add_member(members, member="ada", session_id=session, role=MEMBER, now=AT)
            for _ in range(8)
        )
    )
    assert [r.added for r in results].count(True) == 1
    assert await members.count_documents({"member": "ada", "session": session}) == 1
