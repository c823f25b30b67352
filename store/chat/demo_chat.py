"""Demo chat: one session of 2,500 messages over a day, in pages of the configured cap, written
as the posts would have left them; its authors its members, the first of them its owner (as
`arraygraph migrate` would pick them)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import cast

from bson import ObjectId

from store.chat import chat_members, chat_pages, chat_sessions
from store.chat.chat_members import MEMBER, OWNER, MembershipDoc
from store.database import Database
from store.times import stored_time

DEMO_SESSION_ID = ObjectId("00000000000000000000c4a7")
DEMO_MESSAGES = 2_500
AUTHORS = ("ada", "grace", "linus")
OWNER_ID = AUTHORS[0]  # the author of message 1


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
    """Pages and memberships first, then the session that makes them reachable: when the
    session exists (a restart), nothing is added; what a stopped seeding left is kept, not
    doubled."""
    sessions = database.collection(chat_sessions.COLLECTION)
    if await chat_sessions.session_exists(sessions, session_id=DEMO_SESSION_ID):
        return
    messages = _messages(now)
    pages = database.collection(chat_pages.COLLECTION)
    for number, first in enumerate(range(0, DEMO_MESSAGES, cap)):
        held = messages[first : first + cap]
        page = {
            "firstSeq": first + 1,
            "count": len(held),
            "sealed": first + cap < DEMO_MESSAGES,
            "messages": held,
            "clientIds": [],
        }
        await pages.update_one(
            {"sessionId": DEMO_SESSION_ID, "page": number}, {"$setOnInsert": page}, upsert=True
        )
    await chat_members.write_memberships(
        database.collection(chat_members.COLLECTION), memberships=_memberships(messages)
    )
    last = messages[-1]["sentAt"]
    session = {
        "title": "Demo: 2,500 messages",
        "owner": OWNER_ID,
        "createdAt": messages[0]["sentAt"],
        "lastMessageAt": last,
        "activeAt": last,
        "pageCount": -(-DEMO_MESSAGES // cap),
        "messageCount": DEMO_MESSAGES,
    }
    await sessions.update_one({"_id": DEMO_SESSION_ID}, {"$setOnInsert": session}, upsert=True)


def _memberships(messages: list[dict[str, object]]) -> list[MembershipDoc]:
    """Each author joined at their first message; the owner when the session was created."""
    joined: dict[str, datetime] = {}
    for message in messages:
        joined.setdefault(str(message["author"]), cast(datetime, message["sentAt"]))
    return [
        MembershipDoc(author, DEMO_SESSION_ID, OWNER if author == OWNER_ID else MEMBER, at)
        for author, at in joined.items()
    ]
