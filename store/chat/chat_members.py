"""Chat memberships: who belongs to which session, one small document per (member, session).

`{_id, member, session, role: "owner" | "member", joinedAt}`. Kept apart from the session so
that the reads the rules make are keyed by the member: a member's sessions are one range of
the unique (member, session) index, and whether a caller is a member of a session is one point
read of it, never a scan of every session. A sharded cluster routes both by the member (shard
key `{member: 1}`, which that unique index starts with). The (session, member) index serves
the reads keyed by the session: its members, and removing them all when it is deleted.

A session's owner is the member its own `owner` field names, written with the role `owner` when
the session is created (`store/chat/chat_lifecycle.py`); members added later are `member`s. No
index can hold a session to one owner (a unique index of a collection sharded on the member
must start with the member), so only that create and `arraygraph migrate` write the role
`owner`. The owner is never removed but with the session.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from bson import ObjectId
from pymongo import ASCENDING, DESCENDING, IndexModel, ReturnDocument, UpdateOne
from pymongo.errors import BulkWriteError, DuplicateKeyError

from store import unions
from store.protocols import AsyncCollection
from store.times import as_utc, stored_time

COLLECTION = "chat_members"
INDEXES = [
    IndexModel([("member", ASCENDING), ("session", ASCENDING)], unique=True, name="member_session"),
    IndexModel([("session", ASCENDING), ("member", ASCENDING)], name="session_member"),
]
DUPLICATE_KEY = 11000
SHARD_KEY = {"member": 1}  # what a sharded deployment shards this collection on

Role = Literal["owner", "member"]
OWNER: Role = "owner"
MEMBER: Role = "member"


@dataclass(frozen=True, slots=True)
class MembershipDoc:
    member: str
    session_id: ObjectId
    role: Role
    joined_at: datetime


@dataclass(frozen=True, slots=True)
class Added:
    membership: MembershipDoc  # the stored one: this call's, or the one it found
    added: bool  # False: the member was there already, and nothing changed


@dataclass(frozen=True, slots=True)
class Removal:
    removed: bool
    owner: bool  # True: not removed, as the member is the session's owner


@dataclass(frozen=True, slots=True)
class MembershipPage:
    """Memberships in the page's order, and whether more follow the last."""

    memberships: list[MembershipDoc]
    has_next: bool


def membership_from_document(raw: Mapping[str, Any]) -> MembershipDoc:
    role: Role = OWNER if raw["role"] == OWNER else MEMBER
    return MembershipDoc(str(raw["member"]), raw["session"], role, as_utc(raw["joinedAt"]))


def _key(member: str, session_id: ObjectId) -> dict[str, Any]:
    return {"member": member, "session": session_id}


async def add_member(
    coll: AsyncCollection, *, member: str, session_id: ObjectId, role: Role, now: datetime
) -> Added:
    """The member added to the session with `role`, or, when already a member, nothing
    changed (not even the role) and the stored membership returned: one `findAndModify`."""
    joined = {"role": role, "joinedAt": stored_time(now)}
    for _ in range(2):
        try:
            before = await coll.find_one_and_update(
                _key(member, session_id),
                {"$setOnInsert": joined},
                upsert=True,
                return_document=ReturnDocument.BEFORE,
                projection={"_id": 0},
            )
        except DuplicateKeyError:
            # Two first adds raced (a server retries such an upsert itself; not every engine
            # does): the second try finds the winner's document.
            continue
        if before is None:
            return Added(membership_from_document({**_key(member, session_id), **joined}), True)
        return Added(membership_from_document(before), False)
    raise RuntimeError(f"membership of {member!r} in {session_id} neither stored nor found")


async def remove_member(coll: AsyncCollection, *, member: str, session_id: ObjectId) -> Removal:
    """Remove a member who is not the owner: one `delete`; when it removes nothing, one read
    more tells an owner from someone who was no member."""
    result = await coll.delete_one({**_key(member, session_id), "role": {"$ne": OWNER}})
    if result.deleted_count:
        return Removal(removed=True, owner=False)
    found = await coll.find_one({**_key(member, session_id), "role": OWNER}, {"_id": 1})
    return Removal(removed=False, owner=found is not None)


async def find_membership(
    coll: AsyncCollection, *, member: str, session_id: ObjectId
) -> MembershipDoc | None:
    """Whether `member` belongs to the session (and as what): one read on (member, session)."""
    found = await coll.find_one(_key(member, session_id), {"_id": 0})
    return None if found is None else membership_from_document(found)


async def find_memberships(
    coll: AsyncCollection, *, member: str, session_ids: Sequence[ObjectId]
) -> list[MembershipDoc]:
    """The member's memberships among these sessions (any order): one read on (member,
    session), as a page of `nodes(ids:)` asks."""
    where = {"member": member, "session": {"$in": list(session_ids)}}
    return [membership_from_document(d) for d in await coll.find(where, {"_id": 0}).to_list()]


async def member_sessions(
    coll: AsyncCollection, *, member: str, first: int, after: ObjectId | None
) -> MembershipPage:
    """Up to `first` of the member's sessions, newest session first (a session id is its
    creation time), after the session `after` (a Relay cursor is that id): one read on
    (member, session), whatever the number of sessions or members. A page may name a session
    being deleted (its delete removes the session first, its memberships last): a reader
    loads the sessions and leaves out those it does not find."""
    where: dict[str, Any] = {"member": member}
    if after is not None:
        where["session"] = {"$lt": after}
    docs = await coll.find(
        where, {"_id": 0}, sort=[("session", DESCENDING)], limit=first + 1
    ).to_list()
    return MembershipPage([membership_from_document(d) for d in docs[:first]], len(docs) > first)


async def count_member_sessions(coll: AsyncCollection, *, member: str) -> int:
    """How many sessions the member belongs to (a count on (member, session))."""
    return await coll.count_documents({"member": member})


@dataclass(frozen=True, slots=True)
class MembersRead:
    """A page of each session's members by member id: `size` of them and one more (which
    tells that more follow), after the member `cursor` forwards, before it backwards; with
    `count`, how many members each session has."""

    size: int
    forward: bool = True
    cursor: str | None = None
    count: bool = False


@dataclass(frozen=True, slots=True)
class MembersPage:
    """A session's members as read, nearest the cursor first (up to `size` + 1); whether one
    lies at the cursor or beyond it on the side not read (`behind`, False without a cursor);
    their number when counted."""

    memberships: list[MembershipDoc]
    behind: bool
    total: int | None


def _members_branches(session_id: ObjectId, read: MembersRead) -> list[list[dict[str, Any]]]:
    """The page, then (with a cursor) one member behind it, then (with `count`) the count:
    each a range of (session, member), the first two cut by `$limit`."""
    ahead, behind = ("$gt", "$lte") if read.forward else ("$lt", "$gte")
    where: dict[str, Any] = {"session": session_id}
    if read.cursor is not None:
        where["member"] = {ahead: read.cursor}
    branches: list[list[dict[str, Any]]] = [
        [
            {"$match": where},
            {"$sort": {"member": ASCENDING if read.forward else DESCENDING}},
            {"$limit": read.size + 1},
            {"$project": {"_id": 0}},
        ]
    ]
    if read.cursor is not None:
        back = {"session": session_id, "member": {behind: read.cursor}}
        branches.append([{"$match": back}, {"$limit": 1}, {"$project": {"_id": 0, "member": 1}}])
    if read.count:
        branches.append([{"$match": {"session": session_id}}, {"$count": "members"}])
    return branches


async def session_member_pages(
    coll: AsyncCollection, *, session_ids: Sequence[ObjectId], read: MembersRead
) -> list[MembersPage]:
    """The page `read` asks of each session's members, in the order of `session_ids`: one
    command (an aggregate of `$unionWith` branches on (session, member), up to three a
    session: `unions.BRANCHES_PER_COMMAND` / 3 sessions a command at least), never more than
    `size` + 3 documents of each, whatever its number of members."""
    width = 1 + (read.cursor is not None) + read.count  # branches a session
    rows = await unions.read_branches(
        coll,
        branches=[b for sid in session_ids for b in _members_branches(sid, read)],
        rows_at_most=len(session_ids) * (read.size + 3),
    )
    pages = []
    for index in range(len(session_ids)):
        found = iter(rows[width * index : width * (index + 1)])
        # A server does not promise `$unionWith`'s output order: the page is put back in its.
        page = sorted(
            (membership_from_document(d) for d in next(found)),
            key=lambda membership: membership.member,
            reverse=not read.forward,
        )
        behind = bool(next(found)) if read.cursor is not None else False
        total = sum(row["members"] for row in next(found)) if read.count else None
        pages.append(MembersPage(page, behind, total))
    return pages


async def delete_session_memberships(coll: AsyncCollection, *, session_id: ObjectId) -> int:
    """Every membership of the session, the owner's too (the session is being deleted): one
    `delete` on (session, member)."""
    result = await coll.delete_many({"session": session_id})
    return int(result.deleted_count)


async def write_memberships(coll: AsyncCollection, *, memberships: Sequence[MembershipDoc]) -> int:
    """Upsert each membership (a migration's, or a repair's), in one bulk write: a missing one
    is added; an owner's sets the role `owner` on one stored as `member`; any other stored one
    is left as it is. How many were added or changed."""
    statements = [_upsert(m) for m in memberships]
    if not statements:
        return 0
    try:
        result = await coll.bulk_write(statements, ordered=False)
    except BulkWriteError as exc:
        # A server adding one of them raced this write: the retry finds its document.
        errors = exc.details.get("writeErrors", [])
        if not errors or any(error.get("code") != DUPLICATE_KEY for error in errors):
            raise
        done = exc.details.get("nUpserted", 0) + exc.details.get("nModified", 0)
        again = await coll.bulk_write([statements[e["index"]] for e in errors], ordered=False)
        return int(done + again.upserted_count + again.modified_count)
    return int(result.upserted_count + result.modified_count)


def _upsert(membership: MembershipDoc) -> UpdateOne:
    joined = {"joinedAt": stored_time(membership.joined_at)}
    update: dict[str, Any]
    if membership.role == OWNER:
        update = {"$set": {"role": OWNER}, "$setOnInsert": joined}
    else:
        update = {"$setOnInsert": {"role": MEMBER, **joined}}
    return UpdateOne(_key(membership.member, membership.session_id), update, upsert=True)
