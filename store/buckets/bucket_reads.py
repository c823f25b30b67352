"""Reading the bucket pattern (`store/buckets/buckets.py`): pages by number, walks, owners' counts.

Every read finds buckets by owner and page on the unique (owner, page) index. Pages and counts
of many owners are read in one command (`store/unions.py`: one `$unionWith` branch each, on its
own index range), so that a request's aliased fields cost one round trip together.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from store.buckets.bucket_layout import BEFORE, BucketLayout
from store.protocols import AsyncCollection, Document
from store.unions import read_branches


async def find_pages(
    coll: AsyncCollection, *, layout: BucketLayout, wanted: Sequence[tuple[Any, int]]
) -> list[tuple[Document | None, bool]]:
    """For each (owner, page): that bucket (None if there is none) and whether a later one
    exists. One command for all of them (up to `unions.BRANCHES_PER_COMMAND`)."""
    branches: list[list[dict[str, Any]]] = [
        [
            {"$match": {layout.owner_field: owner, "page": {"$gte": page}}},
            {"$sort": {"page": 1}},
            {"$limit": 2},
        ]
        for owner, page in wanted
    ]
    found = await read_branches(coll, branches=branches, rows_at_most=2 * len(branches))
    answers: list[tuple[Document | None, bool]] = []
    for (_, page), docs in zip(wanted, found, strict=True):
        # By page, not by position: a server does not promise the order of a branch's rows.
        bucket = next((doc for doc in docs if int(doc["page"]) == page), None)
        later = any(int(doc["page"]) > page for doc in docs)
        answers.append((bucket, later) if bucket is not None else (None, False))
    return answers


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
    """Items and buckets of each owner (owners without buckets are absent), summed over every
    bucket: one command."""
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


async def counts(
    coll: AsyncCollection, *, layout: BucketLayout, owners: Sequence[Any]
) -> Mapping[Any, tuple[int, int]]:
    """Items and buckets of each owner (owners without buckets are absent): each from its
    newest bucket's `before` and `count`, one command for all of them; owners whose newest
    bucket holds no `before` (see `store/buckets/buckets.py`) are summed over every bucket, with one
    command more."""
    branches: list[list[dict[str, Any]]] = [
        [
            {"$match": {layout.owner_field: owner}},
            {"$sort": {"page": -1}},
            {"$limit": 1},
            {"$project": {"_id": 0, "page": 1, "count": 1, BEFORE: 1}},
        ]
        for owner in owners
    ]
    newest = await read_branches(coll, branches=branches, rows_at_most=len(branches))
    found: dict[Any, tuple[int, int]] = {}
    unknown = []
    for owner, docs in zip(owners, newest, strict=True):
        if not docs:
            continue
        before = docs[0].get(BEFORE)
        if type(before) is not int:
            unknown.append(owner)
            continue
        pages = int(docs[0]["page"]) - layout.first_page + 1
        found[owner] = (before + int(docs[0]["count"]), pages)
    if unknown:
        found.update(await count_items(coll, layout=layout, owners=unknown))
    return found
