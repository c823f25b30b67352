"""The measurements catalogue: each measurement's field names and tag keys, kept by the writes.

Document: `{_id: <measurement>, fields: [...], tagKeys: [...]}`. A write that brings a new
name adds it with one `findAndModify` whose pipeline takes the union and, when the union would
pass a limit, leaves the document as it was; the reply tells which, so the write is refused
before any of its data is stored. Reads answer what exists (like InfluxDB's SHOW
MEASUREMENTS / FIELD KEYS / TAG KEYS) without scanning the rollups.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from store.expressions import literal
from store.protocols import AsyncCollection

COLLECTION = "measurements"
MAX_LISTED = 100_000  # a batch size: the reply's 16 MiB bound it first
INDEXES: list[Any] = []


@dataclass(frozen=True, slots=True)
class MeasurementDoc:
    name: str
    fields: tuple[str, ...]
    tag_keys: tuple[str, ...]


def measurement_from_document(raw: Mapping[str, Any]) -> MeasurementDoc:
    return MeasurementDoc(
        name=str(raw["_id"]),
        fields=tuple(sorted(raw.get("fields") or ())),
        tag_keys=tuple(sorted(raw.get("tagKeys") or ())),
    )


def _register_pipeline(
    fields: Collection[str], tag_keys: Collection[str], max_fields: int, max_tag_keys: int
) -> list[dict[str, Any]]:
    union_fields = {"$setUnion": [{"$ifNull": ["$fields", []]}, literal(sorted(fields))]}
    union_keys = {"$setUnion": [{"$ifNull": ["$tagKeys", []]}, literal(sorted(tag_keys))]}
    fits = {
        "$and": [
            {"$lte": [{"$size": "$_fields"}, max_fields]},
            {"$lte": [{"$size": "$_tagKeys"}, max_tag_keys]},
        ]
    }
    return [
        {"$set": {"_fields": union_fields, "_tagKeys": union_keys}},
        {"$set": {"_fits": fits}},
        {
            "$set": {
                "fields": {"$cond": ["$_fits", "$_fields", {"$ifNull": ["$fields", []]}]},
                "tagKeys": {"$cond": ["$_fits", "$_tagKeys", {"$ifNull": ["$tagKeys", []]}]},
            }
        },
        {"$unset": ["_fields", "_tagKeys", "_fits"]},
    ]


async def register_names(
    coll: AsyncCollection,
    *,
    measurement: str,
    fields: Collection[str],
    tag_keys: Collection[str],
    max_fields: int,
    max_tag_keys: int,
) -> MeasurementDoc:
    """Add the names to the catalogue unless that would pass a limit: one command. The entry
    as it stands after; the caller checks that it holds every name it asked for."""
    pipeline = _register_pipeline(fields, tag_keys, max_fields, max_tag_keys)
    for attempt in range(2):
        try:
            raw = await coll.find_one_and_update(
                {"_id": measurement}, pipeline, upsert=True, return_document=ReturnDocument.AFTER
            )
            return measurement_from_document(raw)
        except DuplicateKeyError:
            if attempt:  # two first writes of one measurement: the retry finds the winner's
                raise
    raise AssertionError("unreachable")


async def find_measurements(coll: AsyncCollection, *, names: Sequence[str]) -> list[MeasurementDoc]:
    """The named measurements that exist, by name: one command."""
    where = {"_id": {"$in": list(names)}}
    # Every entry in the first batch (up to 16 MiB, about 2,000 entries at their largest).
    docs = await coll.find(where, sort=[("_id", 1)], batch_size=MAX_LISTED).to_list()
    return [measurement_from_document(doc) for doc in docs]


async def list_measurements(
    coll: AsyncCollection, *, prefix: str | None, first: int
) -> list[MeasurementDoc]:
    """The first `first` measurements by name, from `prefix` on: one command (none for 0)."""
    if first == 0:
        return []  # a server refuses a limit of 0 as "no limit"
    # Anchored and escaped: the `_id` index serves it as a range.
    where = {"_id": {"$regex": "^" + re.escape(prefix)}} if prefix else {}
    docs = await coll.find(where, sort=[("_id", 1)], limit=first, batch_size=first).to_list()
    return [measurement_from_document(doc) for doc in docs]
