"""Chat pages: a session's messages in capped page documents (../shared/seeds/004), written
with no state in the process, so that any number of server instances post into one session.

`{_id, sessionId, page, firstSeq, count, sealed?, clientIds: [...], messages: [{id, seq,
author, text, sentAt, clientMessageId?, editedAt?, deleted?}]}`. Unique indexes on (sessionId,
page) and (sessionId, firstSeq); `seq` is the page's `firstSeq` plus the message's place in it,
so a later change of the cap never breaks the mapping from `seq` to page.

Pages are buckets (`store/buckets/buckets.py`, layout `CHAT_PAGES`): a post is one
`findAndModify` on the session's newest page that appends the message, numbered
`firstSeq + count` by the database, when the page has room and does not hold its
`clientMessageId`, and seals the page it leaves full; seeing it sealed, the writer inserts the
next page holding the message. So pages never exceed the cap, `seq` runs 1, 2, 3... with no
gap or repeat, and no writer fails for losing a race.

`clientMessageId`: inside a page, the push refuses a second copy; across pages, a unique index
on (sessionId, clientIds) (partial: pages holding at least one id) makes the write that would
copy an id into another page fail with E11000. Either way the writer reads the stored message
and returns it, storing nothing (a unique index only sees other documents, never a repeat
inside one: hence both).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bson import ObjectId
from pymongo import ASCENDING, IndexModel
from pymongo.errors import DuplicateKeyError

from store.buckets import buckets
from store.buckets.bucket_layout import MAX_CONTENTION_SECONDS, BucketLayout, KeyHeld
from store.errors import WriteContention
from store.expressions import literal
from store.protocols import AsyncCollection, Document
from store.times import as_utc

COLLECTION = "chat_pages"
CHAT_PAGES = BucketLayout(
    owner_field="sessionId",
    items_field="messages",
    first_page=0,
    position_field="firstSeq",
    position_offset=1,
    item_number="seq",
    keys_field="clientIds",
    item_key="clientMessageId",
)
INDEXES = [
    IndexModel([("sessionId", ASCENDING), ("page", ASCENDING)], unique=True, name="session_page"),
    IndexModel(
        [("sessionId", ASCENDING), ("firstSeq", ASCENDING)], unique=True, name="session_seq"
    ),
    IndexModel(
        [("sessionId", ASCENDING), ("clientIds", ASCENDING)],
        unique=True,
        name="session_client_id",
        partialFilterExpression={"clientIds": {"$type": "string"}},
    ),
    IndexModel([("sessionId", ASCENDING), ("messages.id", ASCENDING)], name="session_message"),
]


@dataclass(frozen=True, slots=True)
class NewMessage:
    id: ObjectId
    author: str
    text: str
    sent_at: datetime
    client_message_id: str | None


@dataclass(frozen=True, slots=True)
class MessageDoc:
    id: ObjectId
    seq: int
    author: str
    text: str
    sent_at: datetime
    edited_at: datetime | None
    deleted: bool


@dataclass(frozen=True, slots=True)
class Appended:
    message: MessageDoc
    page: int
    stored: bool  # False: the message of this clientMessageId was stored before; it is that


def message_from_document(raw: Mapping[str, Any]) -> MessageDoc:
    edited = raw.get("editedAt")
    return MessageDoc(
        id=raw["id"],
        seq=int(raw["seq"]),
        author=str(raw["author"]),
        text=str(raw["text"]),
        sent_at=as_utc(raw["sentAt"]),
        edited_at=None if edited is None else as_utc(edited),
        deleted=bool(raw.get("deleted", False)),
    )


def _stored(message: NewMessage) -> Document:
    stored: Document = {
        "id": message.id,
        "author": message.author,
        "text": message.text,
        "sentAt": message.sent_at,
    }
    if message.client_message_id is not None:
        stored["clientMessageId"] = message.client_message_id
    return stored


async def open_first_page(coll: AsyncCollection, *, session_id: ObjectId) -> None:
    """Page 0, empty (idempotent: another writer may have opened it)."""
    first: Document = {"sessionId": session_id, "page": 0, "firstSeq": 1, "count": 0}
    with contextlib.suppress(DuplicateKeyError):
        await coll.insert_one({**first, "messages": [], "clientIds": []})


async def _by_client_id(
    coll: AsyncCollection, session_id: ObjectId, client_id: str
) -> Appended | None:
    # The `$type` restates the partial index's filter, so that a server's planner uses it.
    found = await coll.find_one(
        {"sessionId": session_id, "clientIds": {"$eq": client_id, "$type": "string"}},
        projection={"_id": 0, "page": 1, "found": pick("clientMessageId", client_id)},
    )
    if found is None or not found["found"]:
        return None
    return Appended(message_from_document(found["found"][0]), int(found["page"]), stored=False)


def pick(field: str, value: Any) -> dict[str, Any]:
    """A projection of the page's messages whose `field` is `value`."""
    return {"$filter": {"input": "$messages", "cond": {"$eq": [f"$$this.{field}", literal(value)]}}}


async def append_message(
    coll: AsyncCollection,
    *,
    session_id: ObjectId,
    message: NewMessage,
    cap: int,
    clock: Callable[[], float] = time.monotonic,
) -> Appended | None:
    """Store the message at the end of the session (or find it stored, by its client id);
    None when the session has no page (open page 0 and retry, if the session exists).

    One command into an open page; two to open the next page; two more for each race lost to
    another writer opening it, and one to read a message its client id names.
    """
    stored = _stored(message)
    started = clock()
    while True:
        try:
            placed = await buckets.append(
                coll,
                layout=CHAT_PAGES,
                owner=session_id,
                items=[stored],
                size=cap,
                open_first=False,
                clock=clock,
            )
        except KeyHeld:
            client_id = str(message.client_message_id)
            found = await _by_client_id(coll, session_id, client_id)
            if found is not None:
                return found
            # The page that held it went away (its session was deleted): try again.
            if clock() - started > MAX_CONTENTION_SECONDS:
                raise WriteContention(
                    f"clientMessageId: {client_id} is held and cannot be read back; the "
                    "message was not stored, retry"
                ) from None
            continue
        if not placed:
            return None
        [where] = placed
        if where.bucket.before is None:  # every chat page holds its firstSeq
            raise RuntimeError(f"page {where.bucket.page} of {session_id} has no firstSeq")
        seq = where.bucket.before + CHAT_PAGES.position_offset + where.start
        return Appended(message_from_document({**stored, "seq": seq}), where.bucket.page, True)


async def delete_pages(coll: AsyncCollection, *, session_id: ObjectId) -> int:
    result = await coll.delete_many({"sessionId": session_id})
    return int(result.deleted_count)
