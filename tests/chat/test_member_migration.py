"""`arraygraph migrate` gives the sessions created before sessions had members (here: by an
anonymous caller, who owns none, without the `owner` field such sessions lack) an owner and
members: the author of the first message owns a session (deleted or not), every distinct
author is a member from their first message, and a session without messages gets the
configured owner or stays without one. A second run changes nothing; a session deleted while
it runs keeps no membership; sessions and authors are read a batch at a time."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId

from store.chat import (
    chat_lifecycle,
    chat_member_migration,
    chat_members,
    chat_pages,
    chat_sessions,
)
from store.migrations import migrate
from tests.chat.support import DELETE, create_session, post
from tests.support import Api

COUNTS = (
    "chat sessions given an owner",
    "chat memberships written",
    "chat sessions left without an owner (no message)",
)


async def _sessions_without_owners(api: Api) -> tuple[ObjectId, ObjectId, ObjectId]:
    """A conversation over two pages, a session without messages, and one whose only
    message was deleted."""
    talk, empty, tombstone = [ObjectId(await create_session(api, t)) for t in ("a", "b", "c")]
    for author in ("bob", "ada", "bob", "carol", "ada"):
        await post(api, str(talk), f"from {author}", author=author)
    message = await post(api, str(tombstone), "oops", author="dave")
    await api.data(DELETE, {"s": str(tombstone), "m": message["id"]})
    # Stored before members: no `owner` at all (a session made since names none as null).
    for session in (talk, empty, tombstone):
        await api.collection("chat_sessions").update_one(
            {"_id": session}, {"$unset": {"owner": ""}}
        )
    return talk, empty, tombstone


async def _counts(api: Api, chat_owner: str | None = None) -> tuple[int, ...]:
    done = {d.what: d.documents for d in await migrate(api.database, chat_owner=chat_owner)}
    return tuple(done[what] for what in COUNTS)


async def _members(api: Api, session: ObjectId) -> dict[str, tuple[str, Any]]:
    found = await api.collection(chat_members.COLLECTION).find({"session": session}).to_list()
    return {m["member"]: (m["role"], m["joinedAt"]) for m in found}


async def test_first_author_owns_and_every_author_is_a_member(api: Api) -> None:
    talk, empty, tombstone = await _sessions_without_owners(api)
    assert await _counts(api) == (2, 4, 1)
    sessions = {s["_id"]: s for s in await api.collection("chat_sessions").find({}).to_list()}
    assert [sessions[s].get("owner") for s in (talk, empty, tombstone)] == ["bob", None, "dave"]
    pages = (
        await api.collection("chat_pages").find({"sessionId": talk}, sort=[("page", 1)]).to_list()
    )
    sent: dict[str, Any] = {}
    for message in (m for page in pages for m in page["messages"]):
        sent.setdefault(message["author"], message["sentAt"])  # each author's first
    assert await _members(api, talk) == {
        "bob": ("owner", sessions[talk]["createdAt"]),
        "ada": ("member", sent["ada"]),
        "carol": ("member", sent["carol"]),
    }
    assert await _members(api, tombstone) == {"dave": ("owner", sessions[tombstone]["createdAt"])}
    assert await _members(api, empty) == {}


async def test_a_second_run_changes_nothing(api: Api) -> None:
    await _sessions_without_owners(api)
    await migrate(api.database)
    before = await api.snapshot()
    assert await _counts(api) == (0, 0, 1)
    assert await api.snapshot() == before


async def test_the_configured_owner_owns_sessions_without_messages(api: Api) -> None:
    _, empty, _ = await _sessions_without_owners(api)
    await migrate(api.database)
    assert await _counts(api, chat_owner="ops") == (1, 1, 0)
    assert list(await _members(api, empty)) == ["ops"]
    assert await _counts(api, chat_owner="ops") == (0, 0, 0)


async def test_sessions_and_authors_are_read_a_batch_at_a_time(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _sessions_without_owners(api)
    monkeypatch.setattr(chat_member_migration, "BATCH", 2)
    api.commands.reset()
    done = await chat_member_migration.migrate_memberships(
        api.collection(chat_sessions.COLLECTION),
        pages=api.collection(chat_pages.COLLECTION),
        members=api.collection(chat_members.COLLECTION),
        default_owner=None,
    )
    assert done == chat_member_migration.MembershipMigration(owned=2, memberships=4, unowned=1)
    # Sessions: two batches (2 + 1), each session's first author read once; the
    # conversation's three authors in two aggregations and two bulk writes, the deleted
    # message's one in one of each; each owned session's `owner` set once.
    assert dict(api.commands.by_name) == {"find": 5, "aggregate": 3, "update": 5}


async def test_a_session_deleted_while_it_is_migrated_keeps_no_membership(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    talk, _, _ = await _sessions_without_owners(api)
    original = chat_member_migration._write_members

    # The delete lands after the session's memberships are written, before its `owner` is.
    async def then_deleted(pages: Any, members: Any, session: Any, owner: str) -> int:
        written = await original(pages, members, session, owner)
        if session.id == talk:
            await chat_lifecycle.delete_session(
                api.collection(chat_sessions.COLLECTION),
                pages=pages,
                members=members,
                session_id=talk,
            )
            await original(pages, members, session, owner)  # a write the delete missed
        return written

    monkeypatch.setattr(chat_member_migration, "_write_members", then_deleted)
    await migrate(api.database)
    assert await api.collection(chat_members.COLLECTION).count_documents({"session": talk}) == 0
    assert await api.collection(chat_members.COLLECTION).count_documents({}) == 1  # dave's
