"""deleteChatSession removes the session, then its pages and its memberships (three commands);
a post racing it fails with NOT_FOUND or leaves pages no reader reaches, which the next delete
removes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from bson import ObjectId

from store.chat import chat_members, chat_sessions
from store.chat.chat_members import MEMBER, OWNER
from tests.chat.support import DELETE_SESSION, MESSAGES, POST, create_session, post
from tests.support import Api, assert_rejected

AT = datetime(2024, 5, 1, tzinfo=UTC)


async def test_delete_chat_session_removes_the_session_and_every_page(api: Api) -> None:
    session_id = await create_session(api)
    for n in range(7):
        await post(api, session_id, f"m{n}")
    keep = await create_session(api, "kept")
    await post(api, keep, "stays")
    assert (await api.data(DELETE_SESSION, {"s": session_id}))["deleteChatSession"] is True
    assert (await api.data(MESSAGES, {"s": session_id, "last": 5}))["chatSession"] is None
    assert (
        await api.collection("chat_pages").count_documents({"sessionId": ObjectId(session_id)}) == 0
    )
    assert await api.collection("chat_pages").count_documents({"sessionId": ObjectId(keep)}) == 1


async def test_delete_chat_session_leaves_none_of_its_memberships_in_three_commands(
    api: Api,
) -> None:
    gone, kept = ObjectId(await create_session(api)), ObjectId(await create_session(api, "kept"))
    members = api.collection(chat_members.COLLECTION)
    for session, name, role in [
        (gone, "ada", OWNER),
        (gone, "grace", MEMBER),
        (kept, "ada", OWNER),
    ]:
        await chat_members.add_member(members, member=name, session_id=session, role=role, now=AT)
    assert await api.round_trips(DELETE_SESSION, {"s": str(gone)}) == 3
    assert dict(api.commands.by_name) == {"delete": 3}
    assert await members.count_documents({"session": gone}) == 0
    assert await members.count_documents({"session": kept}) == 1


async def test_delete_chat_session_unknown_is_not_found(api: Api) -> None:
    await assert_rejected(
        api, DELETE_SESSION, {"s": "65f000000000000000000000"}, code="NOT_FOUND", argument="id"
    )


async def test_a_post_racing_a_delete_fails_and_leaves_no_page(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_id = await create_session(api)
    for n in range(3):
        await post(api, session_id, f"m{n}")  # page 0 full: the next post opens page 1
    # The delete lands between the post's page write and its counters: forced by deleting
    # the session and its pages just before the post's update of the session.
    original = chat_sessions.record_post

    async def deleted_first(coll: Any, **kwargs: Any) -> bool:
        await api.collection("chat_sessions").delete_one({"_id": kwargs["session_id"]})
        await api.collection("chat_pages").delete_many({"sessionId": kwargs["session_id"]})
        return await original(coll, **kwargs)

    monkeypatch.setattr(chat_sessions, "record_post", deleted_first)
    body = await api.post(POST, {"s": session_id, "a": "ada", "x": "late", "c": None})
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    pages = api.collection("chat_pages")
    assert await pages.count_documents({"sessionId": ObjectId(session_id)}) == 0


async def test_an_unreachable_page_is_removed_by_the_next_delete_or_post(api: Api) -> None:
    # A post that stopped after opening a page of a deleted session left it behind.
    orphan = ObjectId()
    page = {"sessionId": orphan, "page": 4, "firstSeq": 13, "count": 0, "sealed": False,
            "messages": [], "clientIds": []}  # fmt: skip
    pages = api.collection("chat_pages")
    await pages.insert_one(dict(page))
    body = await api.post(POST, {"s": str(orphan), "a": "ada", "x": "lost", "c": None})
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    assert await pages.count_documents({"sessionId": orphan}) == 0  # the post removed it
    await pages.insert_one(dict(page))
    body = await api.post(DELETE_SESSION, {"s": str(orphan)})
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    assert await pages.count_documents({"sessionId": orphan}) == 0


async def test_a_post_after_the_delete_is_not_found_and_stores_nothing(api: Api) -> None:
    session_id = await create_session(api)
    await post(api, session_id, "m")
    await api.data(DELETE_SESSION, {"s": session_id})
    variables = {"s": session_id, "a": "ada", "x": "late", "c": None}
    await assert_rejected(api, POST, variables, code="NOT_FOUND", argument="sessionId")
