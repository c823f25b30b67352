"""Chat on the embedded engine: a post, and a read of the newest 50 messages, in an empty
session and in one of 100,000 messages. Neither may grow with the session: a post touches its
newest page and its session, a read the newest pages, whatever came before."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from bson import ObjectId

from bench.engine.orders import _seconds_per_call
from embedded import EmbeddedDatabase, EmbeddedEngine
from settings import MESSAGES_PER_PAGE
from store.chat import chat_pages, chat_sessions
from store.chat.chat_messages import MessageRange, read_messages
from store.chat.chat_pages import NewMessage
from store.registry import COLLECTIONS

BASE = datetime(2024, 1, 1, tzinfo=UTC)
SMALL = 500  # one full page: a read of the newest 50 that has them all
LARGE = 100_000


async def _session_of(db: EmbeddedDatabase, messages: int) -> ObjectId:
    """A session holding `messages` messages, as posts would have left it."""
    created = await chat_sessions.create_session(
        db[chat_sessions.COLLECTION], title=f"{messages} messages", owner=None, now=BASE
    )
    pages = db[chat_pages.COLLECTION]
    if not messages:
        await chat_pages.open_first_page(pages, session_id=created.id)
        return created.id
    stored = [
        {"id": ObjectId(), "seq": n + 1, "author": "ada", "text": f"message {n + 1}",
         "sentAt": BASE + timedelta(seconds=n)}
        for n in range(messages)
    ]  # fmt: skip
    documents = []
    for number, first in enumerate(range(0, messages, MESSAGES_PER_PAGE)):
        held = stored[first : first + MESSAGES_PER_PAGE]
        sealed = first + MESSAGES_PER_PAGE < messages
        documents.append(
            {"sessionId": created.id, "page": number, "firstSeq": first + 1, "count": len(held),
             "sealed": sealed, "messages": held, "clientIds": []}
        )  # fmt: skip
    await pages.insert_many(documents)
    return created.id


async def run() -> None:
    db = EmbeddedEngine()["bench"]
    for collection in COLLECTIONS:
        if collection.indexes:
            await db[collection.name].create_indexes(list(collection.indexes))
    sessions = {size: await _session_of(db, size) for size in (0, SMALL, LARGE)}
    pages, session_coll = db[chat_pages.COLLECTION], db[chat_sessions.COLLECTION]

    def post(size: int) -> Callable[[], Awaitable[None]]:
        async def once() -> None:
            message = NewMessage(ObjectId(), "ada", "a new message", BASE, None)
            appended = await chat_pages.append_message(
                pages, session_id=sessions[size], message=message, cap=MESSAGES_PER_PAGE
            )
            assert appended is not None
            await chat_sessions.record_post(
                session_coll, session_id=sessions[size], seq=appended.message.seq,
                page=appended.page, sent_at=appended.message.sent_at,
            )  # fmt: skip

        return once

    def newest(size: int) -> Callable[[], Awaitable[None]]:
        async def once() -> None:
            newest = max(size, 1)  # the session's messageCount; the resolver reads from it
            reads = [MessageRange(sessions[size], max(1, newest - 50), None)]
            await read_messages(pages, reads=reads)

        return once

    # Reads first, while the sessions hold what they were built with.
    reads = {size: await _seconds_per_call(newest(size)) for size in (SMALL, LARGE)}
    posts = {size: await _seconds_per_call(post(size)) for size in (0, LARGE)}
    print(f"chat (embedded engine; pages of {MESSAGES_PER_PAGE})")
    print(f"  postMessage, empty session           {posts[0] * 1e3:9.3f} ms")
    print(f"  postMessage, 100,000 messages        {posts[LARGE] * 1e3:9.3f} ms")
    print(f"  ratio 100,000 / empty                {posts[LARGE] / posts[0]:9.2f}   (target ~1)")
    print(f"  messages(last: 50), 500 messages     {reads[SMALL] * 1e3:9.3f} ms")
    print(f"  messages(last: 50), 100,000          {reads[LARGE] * 1e3:9.3f} ms")
    print(
        f"  ratio 100,000 / 500                  {reads[LARGE] / reads[SMALL]:9.2f}   (target ~1)"
    )
