"""The bucket pattern: an owner's items appended to capped "bucket" documents, in order, with
any number of concurrent writers on any number of server instances.

A bucket is `{_id, <owner field>, page, count, <items field>: [...]}`, with a unique index on
(owner, page). Invariants, and why they hold by construction:
- items go only into the newest bucket: a push targets the owner's highest page (found on the
  index, by its sort) and takes what room it has (none when full or sealed), and a bucket is
  opened only after the newest one was seen full. A size raised over stored buckets therefore
  fills the newest up to the new size and never reopens an older one (they may hold fewer);
- two writers never open two buckets for one page: the page is the newest's plus one and
  (owner, page) is unique, so the second insert fails with E11000;
- the loser of that race joins the winner's bucket (pushes into that page) instead of starting
  over, and when it is full already, learns so from the same command and opens the next one;
  every race lost means another writer stored a full bucket, so a writer that keeps losing
  still finishes once the others have;
- no bucket holds more than `size`: a push takes at most `size - count` items (none when the
  bucket is full), in one atomic update;
- an owner's buckets are walked by page, on the unique (owner, page) index, never by a pattern
  (`_id`s keep the article's format, but older data's `_id`s need not sort in page order);
- a bucket may hold fewer than `size` items and not be the newest (the articles' own buckets,
  sealed by `arraygraph migrate`): nothing is pushed into a sealed bucket, and walks read on
  until they have enough items.

A call spanning several buckets is several writes (no transaction): if it stored part of
itself, it keeps going until all is stored. Only a call that stored nothing gives up, after
losing races for `MAX_CONTENTION_SECONDS`, with `WriteContention` (nothing stored, retry).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from store.errors import WriteContention
from store.expressions import literal
from store.protocols import AsyncCollection, Document

# Set on a bucket that must never take another item though it is not full (see module doc).
SEALED = "sealed"
# How long a call that has stored nothing keeps losing races before it gives up. A count would
# be wrong: every race lost means another writer stored a full bucket, so under N concurrent
# writers a call waits in line behind up to N - 1 of them (hundreds of races at 64 writers).
# Waits are not fair: under 64 writers on one owner the unluckiest call waits for most of the
# run (measured: 8 s of 9 s in process, 34 s of 35 s through the wire front), so the limit
# only stops a call that can never win, and is not a latency target.
MAX_CONTENTION_SECONDS = 120.0


@dataclass(frozen=True, slots=True)
class BucketLayout:
    owner_field: str  # "customerId"
    items_field: str  # "history"
    first_page: int
    # The `_id` of a new bucket: (owner, its first item, the previous bucket's `_id` or None).
    bucket_id: Callable[[Any, Document, Any], Any]


@dataclass(frozen=True, slots=True)
class BucketState:
    id: Any
    page: int
    count: int
    sealed: bool = False  # takes nothing more, though it may hold fewer than `size`


@dataclass(frozen=True, slots=True)
class Placement:
    """Where some items of a call went: `count` items into `bucket.page`, from index `start`."""

    bucket: BucketState  # as this write left it
    start: int
    count: int


def _append_pipeline(layout: BucketLayout, items: Sequence[Document], size: int) -> list[Any]:
    """Append as many of `items` as fit (`size - count`, none when full or sealed), and count
    them."""
    field = layout.items_field
    free = {"$max": [0, {"$subtract": [size, "$count"]}]}
    room = {"$cond": [{"$eq": [{"$ifNull": [f"${SEALED}", False]}, True]}, 0, free]}
    return [
        {
            "$set": {
                field: {
                    "$concatArrays": [
                        {"$ifNull": [f"${field}", []]},
                        {"$slice": [literal(list(items)), room]},
                    ]
                },
                "count": {"$add": ["$count", {"$min": [room, len(items)]}]},
            }
        }
    ]


async def _push(
    coll: AsyncCollection,
    layout: BucketLayout,
    owner: Any,
    items: Sequence[Document],
    size: int,
    page: int | None = None,
) -> tuple[Placement | None, BucketState | None]:
    """Push as many items as fit into the newest bucket, or into bucket `page` if given: where
    they went (None if none did), and the bucket's state after (None if there is no such
    bucket: the owner has none, or no page `page`)."""
    where: dict[str, Any] = {layout.owner_field: owner}
    if page is not None:
        where["page"] = page
    before = await coll.find_one_and_update(
        where,
        _append_pipeline(layout, items, size),
        sort=[("page", -1)],
        projection={"_id": 1, "page": 1, "count": 1, SEALED: 1},
        return_document=ReturnDocument.BEFORE,
    )
    if before is None:
        return None, None
    start = int(before["count"])
    taken = min(len(items), max(0, size - start))
    state = BucketState(
        before["_id"], int(before["page"]), start + taken, before.get(SEALED) is True
    )
    return (Placement(state, start, taken) if taken else None), state


def _next_page(layout: BucketLayout, newest: BucketState | None) -> int:
    return layout.first_page if newest is None else newest.page + 1


async def _open(
    coll: AsyncCollection,
    layout: BucketLayout,
    owner: Any,
    newest: BucketState | None,
    items: Sequence[Document],
    size: int,
) -> Placement | None:
    """Open the bucket after `newest` with up to `size` items; None if another writer opened
    that page (or took that `_id`) first."""
    taken = list(items[:size])
    bucket = BucketState(
        layout.bucket_id(owner, taken[0], None if newest is None else newest.id),
        _next_page(layout, newest),
        len(taken),
    )
    document = {
        "_id": bucket.id,
        layout.owner_field: owner,
        "page": bucket.page,
        "count": bucket.count,
        layout.items_field: taken,
    }
    try:
        await coll.insert_one(document)
    except DuplicateKeyError:
        return None
    return Placement(bucket, 0, len(taken))


async def append(
    coll: AsyncCollection,
    *,
    layout: BucketLayout,
    owner: Any,
    items: Sequence[Document],
    size: int,
    clock: Callable[[], float] = time.monotonic,
) -> list[Placement]:
    """Append `items` in order; where each run of them went, in order.

    One command when they fit the newest bucket; one more for each further bucket (the push
    that finds the newest full tells its page), plus one for each race lost to another writer
    (joining the winner's bucket).
    """
    placements: list[Placement] = []
    remaining = list(items)
    full: BucketState | None = None  # the newest bucket, when this writer knows it is full
    target, started = layout.first_page - 1, clock()
    while remaining:
        placed, newest = None, full
        if full is None:  # the push tells the newest bucket's state when it takes nothing
            placed, newest = await _push(coll, layout, owner, remaining, size)
        if placed is None:
            full = None
            if newest is None or newest.count >= size or newest.sealed:
                placed = await _open(coll, layout, owner, newest, remaining, size)
                if placed is None:  # lost the race for the next page: join the winner's bucket
                    page = _next_page(layout, newest)
                    if page <= target:
                        raise RuntimeError(f"bucket {page} of {owner!r} cannot be opened or found")
                    target = page
                    placed, full = await _push(coll, layout, owner, remaining, size, page)
        if placed is None:
            if not placements and clock() - started > MAX_CONTENTION_SECONDS:
                raise WriteContention(
                    f"{layout.items_field}: other writers kept winning the race for a new "
                    f"bucket for {MAX_CONTENTION_SECONDS:.0f} s; nothing of this call was "
                    "stored, retry"
                )
            continue
        placements.append(placed)
        remaining = remaining[placed.count :]
        full = placed.bucket if placed.bucket.count >= size else None
    return placements


async def find_page(
    coll: AsyncCollection, *, layout: BucketLayout, owner: Any, page: int
) -> tuple[Document | None, bool]:
    """Bucket `page` and whether a later one exists: one command."""
    docs = await coll.find(
        {layout.owner_field: owner, "page": {"$gte": page}}, sort=[("page", 1)], limit=2
    ).to_list()
    if not docs or int(docs[0]["page"]) != page:
        return None, False
    return docs[0], len(docs) > 1


def _usable(doc: Document, offset: int | None, forward: bool) -> int:
    """Items of a bucket past the reader's place: all of them, or, in the bucket the reader
    stands in (`offset`), those after it (forward) or before it (backward)."""
    count = int(doc.get("count", 0))
    if offset is None:
        return count
    return max(count - offset - 1, 0) if forward else min(offset, count)


async def walk(
    coll: AsyncCollection,
    *,
    layout: BucketLayout,
    owner: Any,
    start: int | None,
    start_offset: int | None = None,
    forward: bool,
    items_wanted: int,
    size: int,
) -> list[Document]:
    """Buckets from page `start` (included; the reader stands at `start_offset` in it)
    onwards, enough for `items_wanted` items past the reader and one more: one command when
    the buckets hold `size` items, one more for each further batch when they hold fewer.
    What counts is what each bucket holds, so buckets written with another size read right."""
    found: list[Document] = []
    usable = 0
    bound: dict[str, int] = {}
    if start is not None:
        bound = {"$gte": start} if forward else {"$lte": start}
    limit = math.ceil((items_wanted + 1) / size) + 1
    while True:
        where: dict[str, Any] = {layout.owner_field: owner}
        if bound:
            where["page"] = bound
        batch = await coll.find(where, sort=[("page", 1 if forward else -1)], limit=limit).to_list()
        for doc in batch:
            first = not found and start is not None and int(doc["page"]) == start
            usable += _usable(doc, start_offset if first else None, forward)
            found.append(doc)
        if len(batch) < limit or usable > items_wanted:
            return found
        last = int(batch[-1]["page"])
        bound = {"$gt": last} if forward else {"$lt": last}


async def count_items(
    coll: AsyncCollection, *, layout: BucketLayout, owners: Sequence[Any]
) -> Mapping[Any, tuple[int, int]]:
    """Items and buckets of each owner (owners without buckets are absent): one command."""
    cursor = await coll.aggregate(
        [
            {"$match": {layout.owner_field: {"$in": list(owners)}}},
            {
                "$group": {
                    "_id": f"${layout.owner_field}",
                    "items": {"$sum": "$count"},
                    "buckets": {"$sum": 1},
                }
            },
        ]
    )
    return {row["_id"]: (int(row["items"]), int(row["buckets"])) for row in await cursor.to_list()}
