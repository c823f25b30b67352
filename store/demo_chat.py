"""Demo chat: one session of 2,500 messages over a day, in pages of the configured cap, written
as the posts would have left them (a restart on a real server adds nothing)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bson import ObjectId

from store import chat_pages, chat_sessions
from store.database import Database
from store.times import stored_time

DEMO_SESSION_ID = ObjectId("00000000000000000000c4a7")
DEMO_MESSAGES = 2_500
AUTHORS = ("ada", "grace", "linus")


def _messages(now: datetime) -> list[dict[str, object]]:
    start = stored_time(now) - timedelta(days=1)
    step = timedelta(days=1) / DEMO_MESSAGES
    return [
        {
            "id": ObjectId.from_datetime(start + step * n),
            "seq": n + 1,
            "author": AUTHORS[n % len(AUTHORS)],
            "text": f"Message {n + 1} of the demo conversation.",
            "sentAt": stored_time(start + step * n),
        }
        for n in range(DEMO_MESSAGES)
    ]


async def seed_demo_chat(database: Database, *, now: datetime, cap: int) -> None:
    """The session first: when it exists already (a restart), its pages are there, under the
    cap of that time, and nothing is added."""
    messages = _messages(now)
    last = messages[-1]["sentAt"]
    session = {
        "title": "Demo: 2,500 messages",
        "createdAt": messages[0]["sentAt"],
        "lastMessageAt": last,
        "activeAt": last,
        "pageCount": -(-DEMO_MESSAGES // cap),
        "messageCount": DEMO_MESSAGES,
    }
    created = await database.collection(chat_sessions.COLLECTION).update_one(
        {"_id": DEMO_SESSION_ID}, {"$setOnInsert": session}, upsert=True
    )
    if created.upserted_id is None:
        return
    pages = [
        {
            "sessionId": DEMO_SESSION_ID,
            "page": number,
            "firstSeq": first + 1,
            "count": len(messages[first : first + cap]),
            "sealed": first + cap < DEMO_MESSAGES,
            "messages": messages[first : first + cap],
            "clientIds": [],
        }
        for number, first in enumerate(range(0, DEMO_MESSAGES, cap))
    ]
    await database.collection(chat_pages.COLLECTION).insert_many(pages)
