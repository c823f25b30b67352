"""`arraygraph migrate` for chat: every session stored before sessions had members gets an
owner and members, and every owner its membership.

How they are picked, for a session stored without an `owner` field (one a service creates
since has it null: no owner, for good, so no later run hands it to whoever wrote in it first):
- its owner is the author of its first message (the lowest `seq`, deleted or not); a session
  without a message gets `default_owner` (`arraygraph migrate --chat-owner USER`), or, when
  none is given, stays without owner (only an admin reaches it) and is counted as such;
- its members are every distinct author of its messages, each joined at their first message;
  the owner is an `owner`, joined when the session was created.
Authors were whatever the posting clients wrote: a migration trusts them as user ids.

Memberships are written before the session's `owner`, which marks the session done: a run that
stops half-way leaves the session without `owner`, and the next run picks it again and writes
the same memberships (upserts: nothing doubles). A session with an `owner` gets its owner's
membership if it lacks it (a create that stopped between its writes), one bulk write per batch.
So a second run changes nothing, and a session deleted while it runs keeps no membership: where
a write finds the session gone, what it wrote is removed. Memory stays bounded: sessions are
read `BATCH` at a time, and a session's authors are grouped on the server, `BATCH` at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bson import ObjectId

from store.chat import chat_lifecycle, chat_members
from store.chat.chat_members import MEMBER, OWNER, MembershipDoc
from store.chat.chat_sessions import SessionDoc, session_from_document
from store.protocols import AsyncCollection
from store.times import as_utc

BATCH = 1_000
WITHOUT_OWNER = {"owner": {"$exists": False}}


@dataclass(frozen=True, slots=True)
class MembershipMigration:
    owned: int  # sessions given an owner
    memberships: int  # memberships written (owners' included)
    unowned: int  # sessions left without owner: no message, and no default owner given


async def migrate_memberships(
    sessions: AsyncCollection,
    *,
    pages: AsyncCollection,
    members: AsyncCollection,
    default_owner: str | None,
) -> MembershipMigration:
    """Owners and members for every session, a batch of sessions at a time (see above)."""
    owned = written = unowned = 0
    last: ObjectId | None = None
    while True:
        where = {} if last is None else {"_id": {"$gt": last}}
        raw = await sessions.find(where, sort=[("_id", 1)], limit=BATCH).to_list()
        batch = [session_from_document(d) for d in raw]
        repaired = await chat_lifecycle.write_owner_memberships(members, found=batch)
        if repaired:
            owned_ids = [session.id for session in batch if session.owner is not None]
            await _forget_deleted(sessions, members, owned_ids)
        written += repaired
        # Stored before members: no `owner` at all (a service's session has it null, for good).
        before_members = {d["_id"] for d in raw if "owner" not in d}
        for session in batch:
            if session.id not in before_members:
                continue
            owner = await _first_author(pages, session.id) or default_owner
            if owner is None:
                unowned += 1
                continue
            written += await _write_members(pages, members, session, owner)
            result = await sessions.update_one(
                {"_id": session.id, **WITHOUT_OWNER}, {"$set": {"owner": owner}}
            )
            owned += result.modified_count
            if not result.matched_count:  # deleted meanwhile, or owned by a concurrent run
                await _forget_deleted(sessions, members, [session.id])
        if len(raw) < BATCH:
            return MembershipMigration(owned, written, unowned)
        last = raw[-1]["_id"]


async def _forget_deleted(
    sessions: AsyncCollection, members: AsyncCollection, ids: list[ObjectId]
) -> None:
    """Remove what was just written for sessions a delete removed meanwhile (a delete that
    ran before those writes could not): one read, and one delete per such session."""
    found = await sessions.find({"_id": {"$in": ids}}, {"_id": 1}).to_list()
    for deleted in set(ids) - {doc["_id"] for doc in found}:
        await chat_members.delete_session_memberships(members, session_id=deleted)


async def _first_author(pages: AsyncCollection, session_id: ObjectId) -> str | None:
    """The author of the session's first message: one read on (sessionId, firstSeq)."""
    first = await pages.find_one(
        {"sessionId": session_id, "count": {"$gt": 0}},
        {"_id": 0, "messages": {"$slice": 1}},
        sort=[("firstSeq", 1)],
    )
    if first is None or not first.get("messages"):
        return None
    return str(first["messages"][0]["author"])


def _authors(session_id: ObjectId, after: str | None) -> list[dict[str, Any]]:
    """The session's distinct authors after `after`, by name, each with their first message's
    time: grouped on the server, `BATCH` at a time."""
    pipeline: list[dict[str, Any]] = [
        {"$match": {"sessionId": session_id}},
        {"$unwind": "$messages"},
        {"$group": {"_id": "$messages.author", "joinedAt": {"$min": "$messages.sentAt"}}},
    ]
    if after is not None:
        pipeline.append({"$match": {"_id": {"$gt": after}}})
    return [*pipeline, {"$sort": {"_id": 1}}, {"$limit": BATCH}]


async def _write_members(
    pages: AsyncCollection, members: AsyncCollection, session: SessionDoc, owner: str
) -> int:
    """The owner's membership and one for each other author: one bulk write per `BATCH`
    authors (the owner's goes with the first)."""
    batch = [MembershipDoc(owner, session.id, OWNER, session.created_at)]
    written = 0
    after: str | None = None
    while True:
        cursor = await pages.aggregate(_authors(session.id, after))
        authors = await cursor.to_list()
        batch += [
            MembershipDoc(str(a["_id"]), session.id, MEMBER, as_utc(a["joinedAt"]))
            for a in authors
            if a["_id"] != owner
        ]
        written += await chat_members.write_memberships(members, memberships=batch)
        if len(authors) < BATCH:
            return written
        after, batch = str(authors[-1]["_id"]), []
