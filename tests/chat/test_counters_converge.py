"""The session's counters follow the pages: a reader may see a message before the counters
count it, never after the post returns; a post that stopped between the two is made good by
its retry, or by the next post."""

from __future__ import annotations

from typing import Any

import pytest

from store.chat import chat_sessions
from tests.chat.support import MESSAGES, POST, SESSION, create_session, post
from tests.support import Api


async def _counters(api: Api, session_id: str) -> tuple[int, int]:
    session = (await api.data(SESSION, {"s": session_id}))["chatSession"]
    return session["messageCount"], session["pageCount"]


async def test_counters_are_current_when_a_post_returns(api: Api) -> None:
    session_id = await create_session(api)
    for n in range(1, 8):
        await post(api, session_id, f"m{n}")
        assert await _counters(api, session_id) == (n, (n + 2) // 3)


def _stop_before_counters(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next post stops between its page write and its counters (a lost connection)."""
    original = chat_sessions.record_post

    async def lost(coll: Any, **kwargs: Any) -> bool:
        monkeypatch.setattr(chat_sessions, "record_post", original)
        raise ConnectionResetError("connection lost")

    monkeypatch.setattr(chat_sessions, "record_post", lost)


async def test_a_retry_after_a_lost_post_returns_it_and_counts_it(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_id = await create_session(api)
    await post(api, session_id, "m1")
    _stop_before_counters(monkeypatch)
    variables = {"s": session_id, "a": "ada", "x": "m2", "c": "try-1"}
    body = await api.post(POST, variables)
    assert body["errors"][0]["extensions"]["code"] == "INTERNAL_SERVER_ERROR"
    # Between the two writes, a reader sees the message before the counters count it.
    data = await api.data(MESSAGES, {"s": session_id, "last": 5})
    assert [e["node"]["text"] for e in data["chatSession"]["messages"]["edges"]] == ["m1", "m2"]
    assert data["chatSession"]["messageCount"] == 1
    retried = (await api.data(POST, variables))["postMessage"]
    assert (retried["seq"], retried["text"]) == (2, "m2")
    assert await _counters(api, session_id) == (2, 1)


async def test_the_next_post_makes_lost_counters_good(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_id = await create_session(api)
    for n in range(3):
        await post(api, session_id, f"m{n}")
    _stop_before_counters(monkeypatch)
    await api.post(POST, {"s": session_id, "a": "ada", "x": "opens page 1", "c": None})
    assert await _counters(api, session_id) == (3, 1)
    await post(api, session_id, "next")
    assert await _counters(api, session_id) == (5, 2)


async def test_polling_after_the_end_cursor_returns_only_new_messages(api: Api) -> None:
    session_id = await create_session(api)
    await post(api, session_id, "old")
    page = (await api.data(MESSAGES, {"s": session_id, "last": 10}))["chatSession"]["messages"]
    end = page["pageInfo"]["endCursor"]
    empty = await api.data(MESSAGES, {"s": session_id, "first": 10, "after": end})
    assert empty["chatSession"]["messages"]["edges"] == []
    assert empty["chatSession"]["messages"]["pageInfo"]["endCursor"] is None
    for n in range(4):
        await post(api, session_id, f"new {n}")
    polled = await api.data(MESSAGES, {"s": session_id, "first": 10, "after": end})
    texts = [e["node"]["text"] for e in polled["chatSession"]["messages"]["edges"]]
    assert texts == ["new 0", "new 1", "new 2", "new 3"]
