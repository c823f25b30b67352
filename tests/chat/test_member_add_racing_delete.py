"""Adding a member to a session (`chat_lifecycle.add_member`): the membership, then a read of the
session, two commands. A session that does not exist, or that a delete removes while the add
runs, keeps no membership: the add removes what it wrote and answers None."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from bson import ObjectId

from store.chat import chat_lifecycle, chat_members, chat_pages, chat_sessions
from store.chat.chat_members import MEMBER, OWNER
from store.database import Database

AT = datetime(2024, 5, 1, 12, tzinfo=UTC)


async def _session(database: Database) -> tuple[ObjectId, dict[str, Any]]:
    await database.create_indexes()
    collections = {
        "sessions": database.collection(chat_sessions.COLLECTION),
        "pages": database.collection(chat_pages.COLLECTION),
        "members": database.collection(chat_members.COLLECTION),
    }
    created = await chat_lifecycle.create_session(
        collections["sessions"],
        pages=collections["pages"],
        members=collections["members"],
        title="support",
        owner="ada",
        now=AT,
    )
    database.commands.reset()
    return created.id, collections


async def _add(collections: dict[str, Any], session: ObjectId) -> Any:
    return await chat_lifecycle.add_member(
        collections["members"],
        sessions=collections["sessions"],
        member="grace",
        session_id=session,
        role=MEMBER,
        now=AT,
    )


async def test_adding_to_a_session_is_two_commands(database: Database) -> None:
    session, collections = await _session(database)
    added = await _add(collections, session)
    assert added is not None and added.added.added and added.session.id == session
    assert dict(database.commands.by_name) == {"findAndModify": 1, "find": 1}
    roles = {m["member"]: m["role"] for m in await collections["members"].find({}).to_list()}
    assert roles == {"ada": OWNER, "grace": MEMBER}


async def test_adding_to_an_unknown_session_keeps_nothing(database: Database) -> None:
    _, collections = await _session(database)
    assert await _add(collections, ObjectId()) is None
    assert dict(database.commands.by_name) == {"findAndModify": 1, "find": 1, "delete": 1}
    assert await collections["members"].count_documents({"member": "grace"}) == 0


async def test_an_add_racing_a_delete_keeps_no_membership(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    session, collections = await _session(database)
    original = chat_sessions.find_session

    # The delete lands between the add's membership write and its read of the session.
    async def deleted_first(coll: Any, *, session_id: ObjectId) -> Any:
        await chat_lifecycle.delete_session(
            coll, pages=collections["pages"], members=collections["members"], session_id=session_id
        )
        return await original(coll, session_id=session_id)

    monkeypatch.setattr(chat_sessions, "find_session", deleted_first)
    assert await _add(collections, session) is None
    assert await collections["members"].count_documents({}) == 0
