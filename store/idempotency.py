"""Idempotency keys: a retried ingestion call names its first try by a key, and the retry
writes nothing and gets the first try's answer (docs/errors-and-limits.md: Idempotency keys).

Document: `{_id: "<owner>:<mutation>:<key>", owner, state, request, token, at, createdAt,
answer?}`. `owner` is the caller's identity (`Identity.key`): a key is its owner's alone, so
another caller's try with the same key is another record, and never sees this one's answer. It
leads the `_id` so that a cluster sharded on `_id` finds a key on one shard by it. The owner ""
(service tokens of the `admin` role) keeps the form without one, `"<mutation>:<key>"`: every
record stored before identities were (when every token was `admin`'s) is admin's. `request`
is a digest of the call's normalised arguments, `token` the try's own random id (only that try
finishes or releases its claim), `at` the request's clock reading (the app's, which tests
drive), `createdAt` the wall clock's (what a TTL index compares with the database's own
clock), `answer` what the resolver needs to rebuild the payload.
States: `pending` (a try holds the key and is writing), `done` (its answer is stored),
`unknown` (it stopped on an error after it may have written: what it stored is not known).

The `_id` index makes a key unique per mutation: of two tries that race, the second insert
fails with E11000 and that try reads the first's record. A TTL index removes a record 24 hours
after `createdAt` (a server's TTL monitor runs about once a minute; the embedded engine removes
expired records as it reads), and reads treat a record whose `at` is older as absent, so a key
lives exactly 24 hours whenever the monitor runs.

A try costs two commands more than the write: the claim (an insert) and the answer (an
update). A retry costs the failed insert and one read, plus one read per poll while the first
try is still pending.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum

from pymongo import ASCENDING, IndexModel
from pymongo.errors import DuplicateKeyError

from settings import IDEMPOTENCY_TTL_SECONDS
from store.errors import WriteContention
from store.protocols import AsyncCollection, Document
from store.times import as_utc

COLLECTION = "idempotency_keys"
INDEXES = [
    IndexModel(
        [("createdAt", ASCENDING)], expireAfterSeconds=IDEMPOTENCY_TTL_SECONDS, name="created_ttl"
    )
]
TTL = timedelta(seconds=IDEMPOTENCY_TTL_SECONDS)
# Longer than any try runs (each command ends within ARRAYGRAPH_MONGODB_TIMEOUT_MS, and
# recordTrades gives up after 120 s of lost races): a record still pending after it belongs to a
# try that stopped (a crash, or the database failing on its write and on its outcome).
PENDING_LEASE = timedelta(minutes=5)
# How long a retry waits for a pending first try to finish, poll by poll (0.75 s in all).
POLL_SECONDS = (0.05, 0.1, 0.2, 0.4)
PENDING, DONE, UNKNOWN = "pending", "done", "unknown"


class KeyInUse(WriteContention):
    """Another try holds the key: still running, or stopped without telling what it stored;
    nothing of this try was written."""


@dataclass(frozen=True, slots=True)
class Claim:
    """This try holds the key: it writes, then `finish`es (or `release`s, or `abandon`s)."""

    id: str
    token: str


@dataclass(frozen=True, slots=True)
class Replay:
    """A try with this key and these arguments is done: its answer, as `finish` stored it."""

    answer: Document


class Refusal(Enum):
    OTHER_REQUEST = "other request"  # the key was used for other arguments
    RUNNING = "running"  # the first try is still writing
    UNKNOWN = "unknown"  # the first try stopped; what it stored is not known


@dataclass(frozen=True, slots=True)
class Refused:
    reason: Refusal
    created_at: datetime


def record_id(scope: str, key: str, owner: str = "") -> str:
    # Neither a mutation's name nor a key holds ":", so no two (owner, scope, key) meet.
    return f"{owner}:{scope}:{key}" if owner else f"{scope}:{key}"


async def _insert_or_find(coll: AsyncCollection, fresh: Document) -> Document | None:
    """None when `fresh` was inserted, else the record that holds its `_id` ({} if gone)."""
    try:
        await coll.insert_one(dict(fresh))
    except DuplicateKeyError:
        found: Document | None = await coll.find_one({"_id": fresh["_id"]})
        return found or {}
    return None


async def _take_over(coll: AsyncCollection, stale: Document, fresh: Document) -> bool:
    """Replace an expired record (the TTL monitor has not removed it yet), unless another try
    replaced it first."""
    result = await coll.update_one(
        {"_id": stale["_id"], "token": stale.get("token")},
        {"$set": {k: v for k, v in fresh.items() if k != "_id"}, "$unset": {"answer": ""}},
    )
    return bool(result.matched_count)


def _judged(found: Document, request: str, now: datetime) -> Replay | Refused | None:
    """What a found, unexpired record means for a try of `request`; None: wait for it."""
    created = as_utc(found["at"])
    if found.get("request") != request:
        return Refused(Refusal.OTHER_REQUEST, created)
    if found.get("state") == DONE:
        return Replay(dict(found.get("answer") or {}))
    if found.get("state") == UNKNOWN or created + PENDING_LEASE <= now:
        return Refused(Refusal.UNKNOWN, created)
    return None


async def claim(
    coll: AsyncCollection,
    *,
    scope: str,
    key: str,
    request: str,
    now: datetime,
    owner: str = "",
    polls: Sequence[float] = POLL_SECONDS,
    wall_clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> Claim | Replay | Refused:
    """Claim `owner`'s `key` for a try of `request` (a digest of the arguments), or say why
    not."""
    token = secrets.token_hex(12)
    fresh: Document = {
        "_id": record_id(scope, key, owner),
        "owner": owner,
        "state": PENDING,
        "request": request,
        "token": token,
        "at": now,
        "createdAt": wall_clock(),
    }
    waits, created = list(polls), now
    found = await _insert_or_find(coll, fresh)
    for _ in range(len(waits) + 4):  # bounded: each turn waits, or the record changed hands
        if found is None:
            return Claim(fresh["_id"], token)
        if not found or as_utc(found["at"]) + TTL <= now:
            taken = await _take_over(coll, found, fresh) if found else False
            found = None if taken else await _insert_or_find(coll, fresh)
            continue
        judged = _judged(found, request, now)
        if judged is not None:
            return judged
        created = as_utc(found["at"])
        if not waits:
            break
        await asyncio.sleep(waits.pop(0))
        found = await coll.find_one({"_id": fresh["_id"]}) or {}
    if found is None:  # claimed on the last turn
        return Claim(fresh["_id"], token)
    return Refused(Refusal.RUNNING, created)


async def finish(coll: AsyncCollection, *, held: Claim, answer: Document) -> bool:
    """Store the answer of the try that holds the key; False if it no longer does."""
    result = await coll.update_one(
        {"_id": held.id, "token": held.token}, {"$set": {"state": DONE, "answer": answer}}
    )
    return bool(result.matched_count)


async def release(coll: AsyncCollection, *, held: Claim) -> None:
    """Give the key up: the try stored nothing (it was refused), so a retry may run afresh."""
    await coll.delete_one({"_id": held.id, "token": held.token, "state": PENDING})


async def abandon(coll: AsyncCollection, *, held: Claim) -> None:
    """The try stopped after it may have written: retries learn that what it stored is not
    known, at once rather than after the lease."""
    await coll.update_one(
        {"_id": held.id, "token": held.token, "state": PENDING}, {"$set": {"state": UNKNOWN}}
    )
