"""Pages examined per request (the engine's counters, as a server's explain counts
`totalDocsExamined`): a range of messages reads the pages it lies in, found on the
(sessionId, firstSeq) index, whatever the number of pages of the session or of others; a post
touches the newest page and the session. Pages hold 3 messages here (`conftest.py`).

Sessions are created through the API and their pages written straight into the collection, as
posts would have left them: 60 messages (20 pages) or 6,000 (2,000 pages), next to another
session as large.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from bson import ObjectId

from tests.chat.conftest import CAP
from tests.chat.support import MESSAGES, POST, create_session
from tests.support import Api

SIZES = [60, 6_000]  # messages; multiples of the cap, so the newest page is full
SENT_AT = datetime(2022, 9, 12, 12, 0, tzinfo=UTC)


def _page(session: ObjectId, number: int, first_seq: int, size: int) -> dict[str, Any]:
    seqs = range(first_seq, min(first_seq + CAP, size + 1))
    messages = [
        {"id": ObjectId(), "seq": seq, "author": "ada", "text": f"m{seq}", "sentAt": SENT_AT}
        for seq in seqs
    ]
    return {
        "sessionId": session,
        "page": number,
        "firstSeq": first_seq,
        "count": len(messages),
        "sealed": first_seq + CAP <= size,
        "messages": messages,
        "clientIds": [],
    }


async def _session(api: Api, size: int) -> str:
    """A session of `size` messages in pages of the cap."""
    session_id = await create_session(api)
    session = ObjectId(session_id)
    pages = [_page(session, n, first, size) for n, first in enumerate(range(1, size + 1, CAP))]
    await api.collection("chat_pages").delete_many({"sessionId": session})  # its empty page 0
    await api.collection("chat_pages").insert_many(pages)
    counters = {"messageCount": size, "pageCount": len(pages)}
    await api.collection("chat_sessions").update_one({"_id": session}, {"$set": counters})
    return session_id


async def _sessions(api: Api, size: int) -> str:
    await _session(api, size)  # another session, as large
    return await _session(api, size)


@pytest.mark.parametrize("size", SIZES)
async def test_messages_last_20_examine_the_pages_they_lie_in(api: Api, size: int) -> None:
    # 20 messages and one more (hasPreviousPage): seq n-20..n, 7 pages of 3.
    session_id = await _sessions(api, size)
    examined = await api.examines(MESSAGES, {"s": session_id, "last": 20})
    assert examined == {"chat_sessions": 1, "chat_pages": 7}


@pytest.mark.parametrize("size", SIZES)
async def test_messages_before_a_cursor_examine_the_pages_they_lie_in(api: Api, size: int) -> None:
    # Before the first page's start (seq n-19): seq n-40..n-20, across 8 pages of 3.
    session_id = await _sessions(api, size)
    data = await api.data(MESSAGES, {"s": session_id, "last": 20})
    before = data["chatSession"]["messages"]["pageInfo"]["startCursor"]
    examined = await api.examines(MESSAGES, {"s": session_id, "last": 20, "before": before})
    assert examined == {"chat_sessions": 1, "chat_pages": 8}


@pytest.mark.parametrize("size", SIZES)
async def test_messages_first_20_examine_the_pages_they_lie_in(api: Api, size: int) -> None:
    session_id = await _sessions(api, size)
    examined = await api.examines(MESSAGES, {"s": session_id, "first": 20})
    assert examined == {"chat_sessions": 1, "chat_pages": 7}


@pytest.mark.parametrize("size", SIZES)
async def test_post_message_examines_the_newest_page_and_the_session(api: Api, size: int) -> None:
    # The newest page is full: the post finds it sealed (1), inserts the next page (a unique key
    # looked up, nothing examined), then updates the session by id (1).
    session_id = await _sessions(api, size)
    variables = {"s": session_id, "a": "ada", "x": "hello", "c": None}
    assert await api.examines(POST, variables) == {"chat_pages": 1, "chat_sessions": 1}
