"""Sensors: hourly event totals in an array on the sensor document.

Document (as in ../shared/seeds/000): `{_id: ObjectId, title, lastEventAt,
totals: [{timestamp: <hour start>, count, sum, min, max, valueCount}]}`. Writes keep only the
buckets of the 24-hour window; reads filter again, so a bucket that aged out counts for nothing
even when no write has happened since.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Any

from bson import ObjectId
from pymongo import ASCENDING, DESCENDING, IndexModel, ReturnDocument, UpdateOne

from settings import SENSOR_WINDOW_HOURS
from store.expressions import literal
from store.protocols import AsyncCollection, Document

COLLECTION = "sensors"
INDEXES = [IndexModel([("title", ASCENDING), ("_id", ASCENDING)], name="title_id")]


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


class SensorOrder(Enum):
    TITLE = "title"
    COUNT_24H_DESC = "count24h"


@dataclass(frozen=True, slots=True)
class SensorPage:
    sensors: tuple[SensorDoc, ...]
    count24h: tuple[int, ...]
    total: int
    has_more: bool


def hour_start(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def window_start(now: datetime) -> datetime:
    """The first hour of the window: the current UTC hour and the 23 before it."""
    return hour_start(now) - timedelta(hours=SENSOR_WINDOW_HOURS - 1)


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def sensor_from_document(doc: Mapping[str, Any]) -> SensorDoc:
    totals = []
    for bucket in doc.get("totals") or ():
        hour = _utc(bucket.get("timestamp"))
        if hour is None:
            continue
        totals.append(
            HourTotal(
                hour=hour,
                count=int(bucket.get("count") or 0),
                sum=_number(bucket.get("sum")),
                min=_number(bucket.get("min")),
                max=_number(bucket.get("max")),
                value_count=int(bucket.get("valueCount") or 0),
            )
        )
    return SensorDoc(
        id=doc["_id"],
        title=str(doc.get("title", "")),
        totals=tuple(totals),
        last_event_at=_utc(doc.get("lastEventAt")),
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
    oldest_kept = window_start(now)
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


def _title_prefix_filter(prefix: str | None) -> dict[str, Any]:
    # Anchored and escaped: a prefix is never a pattern, and the title index serves it.
    return {"title": {"$regex": "^" + re.escape(prefix)}} if prefix else {}


def _after_filter(order: SensorOrder, after: tuple[Any, ObjectId] | None) -> dict[str, Any]:
    if after is None:
        return {}
    key, last_id = after
    if order is SensorOrder.TITLE:
        return {"$or": [{"title": {"$gt": key}}, {"title": key, "_id": {"$gt": last_id}}]}
    return {"$or": [{"count24h": {"$lt": key}}, {"count24h": key, "_id": {"$gt": last_id}}]}


async def list_sensors(
    coll: AsyncCollection,
    *,
    now: datetime,
    first: int,
    order: SensorOrder = SensorOrder.TITLE,
    after: tuple[Any, ObjectId] | None = None,
    title_prefix: str | None = None,
    min_count24h: int | None = None,
) -> SensorPage:
    """One page of sensors, sorted and filtered on the window's count inside the database."""
    in_window = {
        "$and": [
            {"$gte": ["$$this.timestamp", literal(window_start(now))]},
            {"$lte": ["$$this.timestamp", literal(hour_start(now))]},
        ]
    }
    pipeline: list[dict[str, Any]] = [
        {"$match": _title_prefix_filter(title_prefix)},
        {
            "$project": {
                "title": 1,
                "lastEventAt": 1,
                "totals": {"$filter": {"input": {"$ifNull": ["$totals", []]}, "cond": in_window}},
            }
        },
        {"$set": {"count24h": {"$sum": "$totals.count"}}},
    ]
    if min_count24h is not None:
        pipeline.append({"$match": {"count24h": {"$gte": min_count24h}}})
    sort = (
        {"title": ASCENDING, "_id": ASCENDING}
        if order is SensorOrder.TITLE
        else {"count24h": DESCENDING, "_id": ASCENDING}
    )
    page = [{"$match": _after_filter(order, after)}, {"$sort": sort}, {"$limit": first + 1}]
    pipeline.append({"$facet": {"total": [{"$count": "n"}], "page": page}})
    cursor = await coll.aggregate(pipeline)
    [facets] = await cursor.to_list()
    docs = facets["page"]
    total = facets["total"][0]["n"] if facets["total"] else 0
    return SensorPage(
        sensors=tuple(sensor_from_document(d) for d in docs[:first]),
        count24h=tuple(int(d["count24h"]) for d in docs[:first]),
        total=total,
        has_more=len(docs) > first,
    )


async def seed_demo_sensors(coll: AsyncCollection, *, now: datetime) -> None:
    """The seed article's "Sensor 1" and "Sensor 2", with totals placed relative to now."""
    hour = hour_start(now)
    demo: dict[ObjectId, tuple[str, list[tuple[int, int, float | None]]]] = {
        ObjectId("5a934e000102030405000000"): (
            "Sensor 1",
            [(7, 1, None), (6, 2, 21.5), (3, 123, 19.0), (0, 12, 22.25)],
        ),
        ObjectId("5a934e000102030405000001"): ("Sensor 2", [(3, 123, None)]),
    }
    for sensor_id, (title, buckets) in demo.items():
        totals = []
        for hours_ago, count, value in buckets:
            bucket: Document = {"timestamp": hour - timedelta(hours=hours_ago), "count": count}
            if value is not None:
                bucket |= {"sum": value * count, "min": value, "max": value, "valueCount": count}
            totals.append(bucket)
        await coll.update_one(
            {"_id": sensor_id},
            {"$setOnInsert": {"title": title, "totals": totals, "lastEventAt": hour}},
            upsert=True,
        )
