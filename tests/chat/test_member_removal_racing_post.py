"""A `removeChatMember` acknowledged between a member's membership check and their message's
append (forced here) leaves no message of theirs: the post reads the membership again once
its message is stored, tombstones it, and answers NOT_FOUND as for a session they are no
member of."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId

from store.chat import chat_posts
from tests.chat.members import ADD, POST, REMOVE, call, created, member_settings, ok, user
from tests.support import Api, ApiFactory


async def _messages_by(api: Api, session: str, author: str) -> list[dict[str, Any]]:
    pages = await api.collection("chat_pages").find({"sessionId": ObjectId(session)}).to_list()
    return [m for page in pages for m in page["messages"] if m["author"] == author]


async def test_a_removal_between_check_and_append_leaves_no_message(
    make_api: ApiFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        original = chat_posts.post_message

        # The owner's removal is acknowledged after bo's membership check, before the append.
        async def removed_first(*args: Any, **kwargs: Any) -> Any:
            removed = await api.post(REMOVE, {"s": session, "m": "bo"}, headers=user("ada"))
            assert "errors" not in removed, removed
            return await original(*args, **kwargs)

        monkeypatch.setattr(chat_posts, "post_message", removed_first)
        body = await call(api, POST, {"s": session, "x": "after removal"}, user("bo"))
        assert body["data"] is None
        assert [e["extensions"]["code"] for e in body["errors"]] == ["NOT_FOUND"]
        assert [(m["text"], m["deleted"]) for m in await _messages_by(api, session, "bo")] == [
            ("", True)
        ]


async def test_a_post_after_the_removal_writes_nothing(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        await ok(api, REMOVE, {"s": session, "m": "bo"}, user("ada"))
        before = await api.snapshot()
        body = await call(api, POST, {"s": session, "x": "too late"}, user("bo"))
        assert body["data"] is None
        assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
        assert dict(api.commands.by_name) == {"find": 1}
        assert await api.snapshot() == before
