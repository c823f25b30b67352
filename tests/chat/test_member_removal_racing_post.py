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


async def _removed_during_the_next_post(
    api: Api, monkeypatch: pytest.MonkeyPatch, session: str
) -> None:
    """The owner's removal of bo is acknowledged after bo's next post checks the membership,
    before it appends."""
    original = chat_posts.post_message

    async def removed_first(*args: Any, **kwargs: Any) -> Any:
        removed = await api.post(REMOVE, {"s": session, "m": "bo"}, headers=user("ada"))
        assert "errors" not in removed, removed
        return await original(*args, **kwargs)

    monkeypatch.setattr(chat_posts, "post_message", removed_first)


async def test_a_removal_between_check_and_append_leaves_no_message(
    make_api: ApiFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        await _removed_during_the_next_post(api, monkeypatch, session)
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


POST_AGAIN = """mutation($s: ID!, $x: String!, $c: String) {
  postMessage(sessionId: $s, text: $x, clientMessageId: $c) { messageId text deleted } }"""


@pytest.mark.parametrize(
    ("author", "text", "client_id", "code"),
    [
        # bo's own earlier message, posted while a member: his retry is refused, it stays.
        ("bo", "earlier", "bo-1", "NOT_FOUND"),
        # ada's message, named by her clientMessageId: bo, no member now, never changes it and
        # is answered as a stranger.
        ("ada", "hers", "ada-1", "NOT_FOUND"),
    ],
)
async def test_a_racing_post_tombstones_only_a_message_it_stored(
    make_api: ApiFactory,
    monkeypatch: pytest.MonkeyPatch,
    author: str,
    text: str,
    client_id: str,
    code: str,
) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        stored = await ok(api, POST_AGAIN, {"s": session, "x": text, "c": client_id}, user(author))
        await _removed_during_the_next_post(api, monkeypatch, session)
        body = await call(api, POST_AGAIN, {"s": session, "x": text, "c": client_id}, user("bo"))
        assert body["data"] is None, body
        assert [e["extensions"]["code"] for e in body["errors"]] == [code]
        kept = await _messages_by(api, session, author)
        assert [(m["id"], m["text"], m.get("deleted", False)) for m in kept] == [
            (ObjectId(stored["postMessage"]["messageId"]), text, False)
        ]
