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

from store import unions
from store.protocols import AsyncCollection

COLLECTION = "tag_values"
INDEXES = [
    IndexModel([("m", ASCENDING), ("k", ASCENDING), ("v", ASCENDING)], name="measurement_tag")
]
DUPLICATE_KEY = 11000


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


def _branch(request: TagValuesRequest) -> list[dict[str, Any]]:
    match: dict[str, Any] = {"m": request.measurement, "k": request.key}
    if request.prefix:
        match["v"] = {"$regex": "^" + re.escape(request.prefix)}  # anchored: the index serves it
    return [
        {"$match": match},
        {"$sort": {"v": 1}},
        {"$limit": request.first},
        {"$project": {"_id": 0, "v": 1}},
    ]


async def find_tag_values(
    coll: AsyncCollection, *, requests: Sequence[TagValuesRequest]
) -> list[list[str]]:
    """The first values of each request, in order: one command for up to 300 requests (each
    branch reads at most its `first` values from the index)."""
    # A server refuses `$limit: 0`: a request of none reads nothing.
    asked = [request for request in requests if request.first > 0]
    rows = iter(
        await unions.read_branches(
            coll,
            branches=[_branch(request) for request in asked],
            rows_at_most=sum(request.first for request in asked),
        )
    )
    return [
        [str(row["v"]) for row in next(rows)] if request.first > 0 else [] for request in requests
    ]
