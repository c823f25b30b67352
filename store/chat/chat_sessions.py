"""Chat sessions (../shared/seeds/004): one small document per session, its counters kept by
`$max`, so that they converge whatever order posts report in.

`{_id, title, owner, createdAt, lastMessageAt, activeAt, pageCount, messageCount}`,
`lastMessageAt` absent until the first message. `owner` names the member who owns the session
(its membership is in `store/chat/chat_members.py`; the field lets a membership that failed to
be written be written again, `store/chat/chat_lifecycle.py`); null when nobody does (a session
a service created without one, for good); absent in a session stored before sessions had
members, the only kind `arraygraph migrate` gives an owner (so a later run never hands a
service's session to whoever wrote in it first). `activeAt` is the later of `createdAt` and
`lastMessageAt` (a new session is active from its creation): the list of sessions pages on the
(activeAt, _id) index, most recently active first. The counters are
`$max` of what each post stored (its `seq`, its page + 1, its time): `seq` numbers messages
without gaps, so the largest is the count, and an update that arrives late changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from bson import ObjectId
from pymongo import DESCENDING, IndexModel

from store.protocols import AsyncCollection
from store.times import as_utc, stored_time

COLLECTION = "chat_sessions"
INDEXES = [IndexModel([("activeAt", DESCENDING), ("_id", DESCENDING)], name="active_id")]


@dataclass(frozen=True, slots=True)
class SessionDoc:
    id: ObjectId
    title: str
    owner: str | None
    created_at: datetime
    last_message_at: datetime | None
    active_at: datetime
    page_count: int
    message_count: int


class SessionPosition(NamedTuple):
    """Where a page of the session list ends: the last session's `activeAt` and id."""

    active_at: datetime
    id: ObjectId


def session_from_document(raw: Mapping[str, Any]) -> SessionDoc:
    last = raw.get("lastMessageAt")
    owner = raw.get("owner")
    return SessionDoc(
        id=raw["_id"],
        title=str(raw["title"]),
        owner=None if owner is None else str(owner),
        created_at=as_utc(raw["createdAt"]),
        last_message_at=None if last is None else as_utc(last),
        active_at=as_utc(raw["activeAt"]),
        page_count=int(raw.get("pageCount", 0)),
        message_count=int(raw.get("messageCount", 0)),
    )


async def create_session(
    coll: AsyncCollection, *, title: str, owner: str | None, now: datetime
) -> SessionDoc:
    """A new session, `owner` recorded in it (its membership is the caller's to write)."""
    now = stored_time(now)
    document: dict[str, Any] = {
        "_id": ObjectId(),
        "title": title,
        "owner": owner,  # null, not absent: no owner, and none for a migration to give
        "createdAt": now,
        "activeAt": now,
        "pageCount": 0,
        "messageCount": 0,
    }
    await coll.insert_one(document)
    return session_from_document(document)


async def find_sessions(coll: AsyncCollection, *, ids: Sequence[ObjectId]) -> list[SessionDoc]:
    docs = await coll.find({"_id": {"$in": list(ids)}}).to_list()
    return [session_from_document(d) for d in docs]


async def find_session(coll: AsyncCollection, *, session_id: ObjectId) -> SessionDoc | None:
    found = await coll.find_one({"_id": session_id})
    return None if found is None else session_from_document(found)


async def session_exists(coll: AsyncCollection, *, session_id: ObjectId) -> bool:
    return await coll.find_one({"_id": session_id}, projection={"_id": 1}) is not None


async def list_sessions(
    coll: AsyncCollection, *, first: int, after: SessionPosition | None
) -> tuple[list[SessionDoc], bool]:
    """Up to `first` sessions, most recently active first, after `after`; and whether more
    exist: one command on the (activeAt, _id) index."""
    where: dict[str, Any] = {}
    if after is not None:
        where = {
            "$or": [
                {"activeAt": {"$lt": after.active_at}},
                {"activeAt": after.active_at, "_id": {"$lt": after.id}},
            ]
        }
    docs = await coll.find(
        where, sort=[("activeAt", DESCENDING), ("_id", DESCENDING)], limit=first + 1
    ).to_list()
    return [session_from_document(d) for d in docs[:first]], len(docs) > first


async def count_sessions(coll: AsyncCollection) -> int:
    return await coll.count_documents({})


async def record_post(
    coll: AsyncCollection, *, session_id: ObjectId, seq: int, page: int, sent_at: datetime
) -> bool:
    """Raise the session's counters to include a stored message; False if there is no such
    session (it was deleted). Idempotent, and any order of such updates ends the same."""
    result = await coll.update_one(
        {"_id": session_id},
        {
            "$max": {
                "messageCount": seq,
                "pageCount": page + 1,
                "lastMessageAt": sent_at,
                "activeAt": sent_at,
            }
        },
    )
    return bool(result.matched_count)


async def delete_session(coll: AsyncCollection, *, session_id: ObjectId) -> bool:
    result = await coll.delete_one({"_id": session_id})
    return bool(result.deleted_count)
