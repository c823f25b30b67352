"""Sensors: hourly event totals in an array on the sensor document.

Document (as in ../shared/seeds/000): `{_id: ObjectId, title, lastEventAt,
totals: [{timestamp: <hour start>, count, sum, min, max, valueCount}]}`. Writes keep only the
buckets of the 24-hour window; reads filter again, so a bucket that aged out counts for nothing
even when no write has happened since.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bson import ObjectId
from pymongo import ASCENDING, IndexModel, ReturnDocument, UpdateOne

from store.expressions import literal
from store.protocols import AsyncCollection, Document
from store.sensor_window import Window
from store.times import as_utc, hour_start

COLLECTION = "sensors"
INDEXES = [
    IndexModel([("title", ASCENDING), ("_id", ASCENDING)], name="title_id"),
    # The active sensors (an event in the window) of a list sorted or filtered by count.
    IndexModel([("lastEventAt", ASCENDING)], name="last_event_at"),
]
MAX_STORED_COUNT = 2**63 - 1


@dataclass(frozen=True, slots=True)
class HourTotal:
    hour: datetime
    count: int
    sum: float | None = None
    min: float | None = None
    max: float | None = None
    value_count: int = 0


@dataclass(frozen=True, slots=True)
class SensorDoc:
    id: ObjectId
    title: str
    totals: tuple[HourTotal, ...]
    last_event_at: datetime | None


@dataclass(frozen=True, slots=True)
class SensorEvent:
    sensor_id: ObjectId
    at: datetime
    count: int = 1
    value: float | None = None


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    missing: frozenset[ObjectId]  # sensors of the call that do not exist: nothing was written
    found: tuple[SensorDoc, ...] | None  # touched sensors after the write, when already read


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def _whole(value: Any) -> int:
    """A stored count; one that is not a finite number (no write of ours stores it, a direct
    write may) reads as 0 for NaN and saturates for Infinity, never failing the read."""
    if isinstance(value, float) and not math.isfinite(value):
        if math.isnan(value):
            return 0
        return MAX_STORED_COUNT if value > 0 else -MAX_STORED_COUNT
    return int(value or 0)


def sensor_from_document(doc: Mapping[str, Any]) -> SensorDoc:
    totals = []
    for bucket in doc.get("totals") or ():
        hour = bucket.get("timestamp")
        if not isinstance(hour, datetime):
            continue
        totals.append(
            HourTotal(
                hour=as_utc(hour),
                count=_whole(bucket.get("count")),
                sum=_number(bucket.get("sum")),
                min=_number(bucket.get("min")),
                max=_number(bucket.get("max")),
                value_count=_whole(bucket.get("valueCount")),
            )
        )
    last_event_at = doc.get("lastEventAt")
    return SensorDoc(
        id=doc["_id"],
        title=str(doc.get("title", "")),
        totals=tuple(totals),
        last_event_at=None if last_event_at is None else as_utc(last_event_at),
    )


async def create_sensor(coll: AsyncCollection, *, title: str) -> SensorDoc:
    doc: Document = {"_id": ObjectId(), "title": title, "totals": []}
    await coll.insert_one(doc)
    return sensor_from_document(doc)


async def rename_sensor(
    coll: AsyncCollection, *, sensor_id: ObjectId, title: str
) -> SensorDoc | None:
    doc = await coll.find_one_and_update(
        {"_id": sensor_id}, {"$set": {"title": title}}, return_document=ReturnDocument.AFTER
    )
    return None if doc is None else sensor_from_document(doc)


async def delete_sensor(coll: AsyncCollection, *, sensor_id: ObjectId) -> bool:
    result = await coll.delete_one({"_id": sensor_id})
    return bool(result.deleted_count)


async def find_sensors(coll: AsyncCollection, *, ids: Sequence[ObjectId]) -> list[SensorDoc]:
    docs = await coll.find({"_id": {"$in": list(ids)}}).to_list()
    return [sensor_from_document(doc) for doc in docs]


@dataclass(slots=True)
class _HourDelta:
    count: int = 0
    sum: float = 0.0
    min: float | None = None
    max: float | None = None
    value_count: int = 0

    def add(self, event: SensorEvent) -> None:
        self.count += event.count
        if event.value is not None:
            # An event of count n and value v stands for n events of value v.
            self.sum += event.value * event.count
            self.value_count += event.count
            self.min = event.value if self.min is None else min(self.min, event.value)
            self.max = event.value if self.max is None else max(self.max, event.value)


def _bucket_upsert(hour: datetime, delta: _HourDelta) -> dict[str, Any]:
    """The seed's third stage: add to the hour's bucket, or append a new one."""
    merged: dict[str, Any] = {
        "count": {"$add": [{"$ifNull": ["$$this.count", 0]}, literal(delta.count)]}
    }
    new_bucket: dict[str, Any] = {"timestamp": hour, "count": delta.count}
    if delta.value_count:
        merged |= {
            "sum": {"$add": [{"$ifNull": ["$$this.sum", 0]}, literal(delta.sum)]},
            "min": {"$min": [{"$ifNull": ["$$this.min", literal(delta.min)]}, literal(delta.min)]},
            "max": {"$max": [{"$ifNull": ["$$this.max", literal(delta.max)]}, literal(delta.max)]},
            "valueCount": {
                "$add": [{"$ifNull": ["$$this.valueCount", 0]}, literal(delta.value_count)]
            },
        }
        new_bucket |= {
            "sum": delta.sum,
            "min": delta.min,
            "max": delta.max,
            "valueCount": delta.value_count,
        }
    return {
        "$cond": {
            "if": {"$in": [literal(hour), "$totals.timestamp"]},
            "then": {
                "$map": {
                    "input": "$totals",
                    "in": {
                        "$cond": {
                            "if": {"$eq": ["$$this.timestamp", literal(hour)]},
                            "then": {"$mergeObjects": ["$$this", merged]},
                            "else": "$$this",
                        }
                    },
                }
            },
            "else": {"$concatArrays": ["$totals", [literal(new_bucket)]]},
        }
    }


def record_pipeline(
    deltas: Mapping[datetime, _HourDelta], *, oldest_kept: datetime, last_event_at: datetime
) -> list[dict[str, Any]]:
    """One update-with-pipeline for one sensor: initialise, drop aged buckets, add each hour."""
    stages: list[dict[str, Any]] = [
        {"$set": {"totals": {"$ifNull": ["$totals", []]}}},
        {
            "$set": {
                "totals": {
                    "$filter": {
                        "input": "$totals",
                        "cond": {"$gte": ["$$this.timestamp", literal(oldest_kept)]},
                    }
                }
            }
        },
    ]
    stages += [{"$set": {"totals": _bucket_upsert(h, d)}} for h, d in sorted(deltas.items())]
    latest = literal(last_event_at)
    stages.append(
        {"$set": {"lastEventAt": {"$max": [{"$ifNull": ["$lastEventAt", latest]}, latest]}}}
    )
    return stages


async def record_sensor_events(
    coll: AsyncCollection, *, events: Iterable[SensorEvent], now: datetime
) -> RecordOutcome:
    """Apply validated events: one pipeline update per touched sensor, all in one bulk write.

    Events of one sensor are folded into per-hour deltas first, so each sensor document is
    changed by exactly one atomic command however many events it receives.
    """
    per_sensor: dict[ObjectId, dict[datetime, _HourDelta]] = defaultdict(dict)
    latest: dict[ObjectId, datetime] = {}
    for event in events:
        hour = hour_start(event.at)
        per_sensor[event.sensor_id].setdefault(hour, _HourDelta()).add(event)
        latest[event.sensor_id] = max(event.at, latest.get(event.sensor_id, event.at))
    if not per_sensor:
        return RecordOutcome(missing=frozenset(), found=())
    oldest_kept = Window.at(now).start
    ops = [
        UpdateOne(
            {"_id": sensor_id},
            record_pipeline(deltas, oldest_kept=oldest_kept, last_event_at=latest[sensor_id]),
        )
        for sensor_id, deltas in per_sensor.items()
    ]
    result = await coll.bulk_write(ops, ordered=False)
    if result.matched_count == len(ops):
        return RecordOutcome(missing=frozenset(), found=None)
    # Some sensors do not exist: one more read tells which, and serves the payload as well.
    found = await find_sensors(coll, ids=list(per_sensor))
    missing = frozenset(per_sensor) - {doc.id for doc in found}
    return RecordOutcome(missing=missing, found=tuple(found))
