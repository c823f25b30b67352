"""The tag values each measurement has seen, one small document per (measurement, key, value).

Kept apart from the catalogue so that a tag of high cardinality (a device id) never grows one
document: `{_id: {m, k, v}, m, k, v}`, written with `$setOnInsert` upserts (idempotent) and
read in key order, a bounded page at a time, by prefix on the (m, k, v) index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pymongo import ASCENDING, IndexModel, UpdateOne
from pymongo.errors import BulkWriteError

from store.expressions import literal
from store.protocols import AsyncCollection

COLLECTION = "tag_values"
INDEXES = [
    IndexModel([("m", ASCENDING), ("k", ASCENDING), ("v", ASCENDING)], name="measurement_tag")
]
DUPLICATE_KEY = 11000
BRANCHES_PER_COMMAND = 300  # `$unionWith` stages a command: a pipeline holds at most 1,000


@dataclass(frozen=True, slots=True)
class TagValuesRequest:
    measurement: str
    key: str
    prefix: str | None
    first: int


async def record_tag_values(
    coll: AsyncCollection, *, values: Iterable[tuple[str, str, str]]
) -> None:
    """Remember (measurement, key, value) triples: one bulk write of idempotent upserts."""
    statements = [
        UpdateOne(
            {"_id": {"m": m, "k": k, "v": v}},
            {"$setOnInsert": {"m": m, "k": k, "v": v}},
            upsert=True,
        )
        for m, k, v in sorted(set(values))
    ]
    if not statements:
        return
    try:
        await coll.bulk_write(statements, ordered=False)
    except BulkWriteError as exc:
        # Another writer remembered the same value first: what this write wanted is stored.
        if any(error.get("code") != DUPLICATE_KEY for error in exc.details.get("writeErrors", [])):
            raise


def _branch(request: TagValuesRequest, index: int) -> list[dict[str, Any]]:
    match: dict[str, Any] = {"m": request.measurement, "k": request.key}
    if request.prefix:
        match["v"] = {"$regex": "^" + re.escape(request.prefix)}  # anchored: the index serves it
    return [
        {"$match": match},
        {"$sort": {"v": 1}},
        {"$limit": request.first},
        {"$project": {"_id": 0, "r": literal(index), "v": 1}},
    ]


async def find_tag_values(
    coll: AsyncCollection, *, requests: Sequence[TagValuesRequest]
) -> list[list[str]]:
    """The first values of each request, in order: one command for up to 300 requests (each
    branch reads at most its `first` values from the index)."""
    found: list[list[str]] = [[] for _ in requests]
    # A server refuses `$limit: 0`, and more than 1,000 stages in a pipeline.
    asked = [(index, request) for index, request in enumerate(requests) if request.first > 0]
    for start in range(0, len(asked), BRANCHES_PER_COMMAND):
        chunk = asked[start : start + BRANCHES_PER_COMMAND]
        pipeline = _branch(chunk[0][1], chunk[0][0])
        for index, request in chunk[1:]:
            branch = _branch(request, index)
            pipeline.append({"$unionWith": {"coll": COLLECTION, "pipeline": branch}})
        limit = sum(request.first for _, request in chunk) + 1
        for row in await (await coll.aggregate(pipeline, batchSize=limit)).to_list():
            found[int(row["r"])].append(str(row["v"]))
    return found
