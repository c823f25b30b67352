"""Chat pages: a session's messages in capped page documents (../shared/seeds/004), written
with no state in the process, so that any number of server instances post into one session.

`{_id, sessionId, page, firstSeq, count, sealed, clientIds: [...], messages: [{id, seq,
author, text, sentAt, clientMessageId?, editedAt?, deleted?}]}`. Unique indexes on (sessionId,
page) and (sessionId, firstSeq); `seq` is the page's `firstSeq` plus the message's place in it,
so a later change of the cap never breaks the mapping from `seq` to page.

A post is one `findAndModify` on the session's newest page (found by the (sessionId, page)
index: no page number is kept anywhere). Its pipeline appends the message with `seq =
firstSeq + count` when the page is open, has room under the cap and does not hold the message's
`clientMessageId`; else it changes nothing but marks a full page `sealed`, so that its count
is final whatever cap other instances run with. Seeing the newest page sealed, the writer
inserts the next page (`firstSeq` = the sealed page's `firstSeq + count`) holding the message.
Two writers inserting the same page collide on the unique (sessionId, page) index; the loser
starts over and, the winner's page now being the newest, joins it. So pages never exceed the
cap, `seq` runs 1, 2, 3... with no gap or repeat, and no writer fails for losing a race.

`clientMessageId`: inside a page, the pipeline refuses a second copy; across pages, a unique
index on (sessionId, clientIds) (partial: pages holding at least one id) makes the write that
would copy an id into another page fail with E11000. Either way the writer reads the stored
message and returns it, storing nothing (a unique index only sees other documents, never a
repeat inside one: hence both).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from bson import ObjectId
from pymongo import ASCENDING, IndexModel, ReturnDocument
from pymongo.errors import DuplicateKeyError

from store.buckets import MAX_CONTENTION_SECONDS
from store.errors import WriteContention
from store.expressions import literal
from store.protocols import AsyncCollection, Document
from store.times import as_utc

COLLECTION = "chat_pages"
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


def _new_page(session_id: ObjectId, page: int, first_seq: int, message: NewMessage | None) -> Any:
    messages = [] if message is None else [{**_stored(message), "seq": first_seq}]
    client_id = None if message is None else message.client_message_id
    return {
        "sessionId": session_id,
        "page": page,
        "firstSeq": first_seq,
        "count": len(messages),
        "sealed": False,
        "messages": messages,
        "clientIds": [] if client_id is None else [client_id],
    }


def _append_pipeline(message: NewMessage, cap: int) -> list[dict[str, Any]]:
    """Append the message when the page is open, under the cap and without its client id;
    otherwise change nothing but seal a full page."""
    takes: list[Any] = [{"$not": ["$sealed"]}, {"$lt": ["$count", cap]}]
    added: dict[str, Any] = {}
    client_id = message.client_message_id
    if client_id is not None:
        takes.append({"$not": [{"$in": [literal(client_id), "$clientIds"]}]})
        added["clientIds"] = {
            "$cond": [
                "$_takes",
                {"$concatArrays": ["$clientIds", [literal(client_id)]]},
                "$clientIds",
            ]
        }
    appended = {
        "$mergeObjects": [literal(_stored(message)), {"seq": {"$add": ["$firstSeq", "$count"]}}]
    }
    return [
        {"$set": {"_takes": {"$and": takes}}},
        {
            "$set": {
                "messages": {
                    "$cond": ["$_takes", {"$concatArrays": ["$messages", [appended]]}, "$messages"]
                },
                "count": {"$cond": ["$_takes", {"$add": ["$count", 1]}, "$count"]},
                "sealed": {"$or": ["$sealed", {"$gte": ["$count", cap]}]},
                **added,
            }
        },
        {"$unset": "_takes"},
    ]


async def open_first_page(coll: AsyncCollection, *, session_id: ObjectId) -> None:
    """Page 0, empty (idempotent: another writer may have opened it)."""
    with contextlib.suppress(DuplicateKeyError):
        await coll.insert_one(_new_page(session_id, 0, 1, None))


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


def _on_client_ids(error: DuplicateKeyError) -> bool:
    """Whether an E11000 is the client-id index's (a server names the index's key pattern;
    without it, assume so: the lookup that follows then finds nothing and the post goes on)."""
    pattern = (error.details or {}).get("keyPattern")
    return not isinstance(pattern, dict) or "clientIds" in pattern


async def _try_append(
    coll: AsyncCollection, session_id: ObjectId, message: NewMessage, cap: int
) -> Appended | Literal[False] | None:
    """One try: what was stored, None if the session has no page, False if another writer
    won the race for the next page (try again)."""
    client_id = message.client_message_id
    try:
        page = await coll.find_one_and_update(
            {"sessionId": session_id},
            _append_pipeline(message, cap),
            sort=[("page", -1)],
            projection={
                "page": 1,
                "firstSeq": 1,
                "count": 1,
                "sealed": 1,
                "messages": {"$slice": -1},
            },
            return_document=ReturnDocument.AFTER,
        )
    except DuplicateKeyError:
        if client_id is None:
            raise
        return await _by_client_id(coll, session_id, client_id) or False  # stored on another page
    if page is None:
        return None
    last = page["messages"][-1] if page["messages"] else None
    if last is not None and last["id"] == message.id:
        return Appended(message_from_document(last), int(page["page"]), stored=True)
    if not page["sealed"]:  # open, with room, and not taken: it holds this client id already
        if client_id is None:
            raise RuntimeError(f"page {page['page']} of {session_id} refused a message")
        return await _by_client_id(coll, session_id, client_id) or False
    number, first_seq = int(page["page"]) + 1, int(page["firstSeq"]) + int(page["count"])
    document = _new_page(session_id, number, first_seq, message)
    try:
        await coll.insert_one(document)
    except DuplicateKeyError as exc:
        if client_id is not None and _on_client_ids(exc):
            return await _by_client_id(coll, session_id, client_id) or False
        return False  # another writer opened that page first: join it
    return Appended(message_from_document(document["messages"][0]), number, stored=True)


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

    One command into an open page; two to open the next page; one more for each race lost to
    another writer opening it, and one to read a message its client id names.
    """
    started = clock()
    while True:
        outcome = await _try_append(coll, session_id, message, cap)
        if outcome is not False:
            return outcome
        if clock() - started > MAX_CONTENTION_SECONDS:
            raise WriteContention(
                "text: other writers kept winning the race for the next page for "
                f"{MAX_CONTENTION_SECONDS:.0f} s; the message was not stored, retry"
            )


async def delete_pages(coll: AsyncCollection, *, session_id: ObjectId) -> int:
    result = await coll.delete_many({"sessionId": session_id})
    return int(result.deleted_count)
