"""Removing a member is one command; the owner is never removed (the answer says so, after one
read more), and removing someone who is no member removes nothing."""

from __future__ import annotations

from datetime import UTC, datetime

from bson import ObjectId

from store.chat import chat_members
from store.chat.chat_members import MEMBER, OWNER, Removal
from store.database import Database
from tests.chat.support import members_collection

AT = datetime(2024, 5, 1, 12, tzinfo=UTC)


async def test_removing_a_member_is_one_delete(database: Database) -> None:
    members, session = await members_collection(database), ObjectId()
    await chat_members.add_member(members, member="grace", session_id=session, role=MEMBER, now=AT)
    database.commands.reset()
    removal = await chat_members.remove_member(members, member="grace", session_id=session)
    assert removal == Removal(removed=True, owner=False)
    assert dict(database.commands.by_name) == {"delete": 1}
    assert await members.count_documents({}) == 0


async def test_the_owner_is_not_removed_and_the_answer_says_why(database: Database) -> None:
    members, session = await members_collection(database), ObjectId()
    await chat_members.add_member(members, member="ada", session_id=session, role=OWNER, now=AT)
    database.commands.reset()
    removal = await chat_members.remove_member(members, member="ada", session_id=session)
    assert removal == Removal(removed=False, owner=True)
    assert dict(database.commands.by_name) == {"delete": 1, "find": 1}
    assert await members.count_documents({"member": "ada", "role": "owner"}) == 1


async def test_removing_someone_who_is_no_member_removes_nothing(database: Database) -> None:
    members, session = await members_collection(database), ObjectId()
    await chat_members.add_member(members, member="ada", session_id=session, role=OWNER, now=AT)
    await chat_members.add_member(
        members, member="linus", session_id=ObjectId(), role=MEMBER, now=AT
    )
    removal = await chat_members.remove_member(members, member="linus", session_id=session)
    assert removal == Removal(removed=False, owner=False)
    assert await members.count_documents({}) == 2
