"""Sensors: hourly event totals in an array on the sensor document.

Document (as in ../shared/seeds/000): `{_id: ObjectId, title, lastEventAt, totals: [{timestamp:
<hour start>, count, sum, min, max, valueCount}]}`. Writes keep only the buckets of the 24-hour
window; reads filter again: a bucket that aged out counts for nothing, even with no write since.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bson import ObjectId
from pymongo import ASCENDING, IndexModel, ReturnDocument, UpdateOne

from store.expressions import literal
from store.protocols import AsyncCollection, Document
from store.running_stats import RunningStats
from store.sensors.sensor_window import Window
from store.times import as_utc, hour_start

COLLECTION = "sensors"
INDEXES = [
    IndexModel([("title", ASCENDING), ("_id", ASCENDING)], name="title_id"),
    # The active sensors (an event in the window) of a list sorted or filtered by count.
    IndexModel([("lastEventAt", ASCENDING)], name="last_event_at"),
]
MAX_STORED_COUNT = 2**63 - 1
ONE_HOUR = timedelta(hours=1)


@dataclass(slots=True)  # not frozen (as SensorEvent): a page builds hundreds; frozen costs more
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


@dataclass(slots=True)
class SensorEvent:
    """One event to record. Not frozen: a batch builds a thousand, and a frozen dataclass sets
    each field through `object.__setattr__` (three times the cost)."""

    sensor_id: ObjectId
    at: datetime
    count: int = 1
    value: float | None = None


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    missing: frozenset[ObjectId]  # sensors of the call that do not exist: nothing was written
    found: tuple[SensorDoc, ...] | None  # touched sensors after the write, when already read


def _number(value: Any) -> float | None:
    if type(value) is float or value is None:  # the common cases, without a call
        return value
    return float(value)


def _whole(value: Any) -> int:
    """A stored count; one that is not a finite number (no write of ours stores it, a direct
    write may) reads as 0 for NaN and saturates for Infinity, never failing the read."""
    if type(value) is int:  # the common case, without a call
        return value
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
        # Positional, one per hour: keywords cost a dataclass's __init__ more.
        totals.append(
            HourTotal(
                as_utc(hour),
                _whole(bucket.get("count")),
                _number(bucket.get("sum")),
                _number(bucket.get("min")),
                _number(bucket.get("max")),
                _whole(bucket.get("valueCount")),
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
    """What a call adds to one hour of a sensor: its events, and the values they carry."""

    count: int = 0
    values: RunningStats = field(default_factory=RunningStats)

    def add(self, event: SensorEvent) -> None:
        self.count += event.count
        if event.value is not None:
            self.values.add(event.value, event.count)

    def bucket(self, hour: datetime) -> dict[str, Any]:
        """The hour as a new bucket holds it (value fields only when a value was recorded)."""
        bucket: dict[str, Any] = {"timestamp": hour, "count": self.count}
        values = self.values
        if values.count:
            bucket |= {"sum": values.total, "min": values.minimum, "max": values.maximum}
            bucket["valueCount"] = values.count
        return bucket


# One constant update pipeline for every call (MongoDB 7.2+ reads a computed `$getField`
# name); a call's values travel in the update's `let`, as literals: `events` maps each
# sensor's id (hex) to `{hours: [new-bucket shape], latest}`, `oldestKept` starts the window.
_MINE = {"$getField": {"field": {"$toString": "$_id"}, "input": "$$events"}}
_HAS_VALUES = {"$gt": ["$$this.valueCount", 0]}


def _when_values(expression: dict[str, Any]) -> dict[str, Any]:
    return {"$cond": [_HAS_VALUES, expression, "$$REMOVE"]}


# `$$bucket` (a stored hour) plus `$$this` (the call's delta for that hour).
_MERGED_HOUR = {
    "count": {"$add": [{"$ifNull": ["$$bucket.count", 0]}, "$$this.count"]},
    "sum": _when_values({"$add": [{"$ifNull": ["$$bucket.sum", 0]}, "$$this.sum"]}),
    "min": _when_values({"$min": [{"$ifNull": ["$$bucket.min", "$$this.min"]}, "$$this.min"]}),
    "max": _when_values({"$max": [{"$ifNull": ["$$bucket.max", "$$this.max"]}, "$$this.max"]}),
    "valueCount": _when_values(
        {"$add": [{"$ifNull": ["$$bucket.valueCount", 0]}, "$$this.valueCount"]}
    ),
}
# The seed's third stage, per hour of the call: add to the hour's bucket, or append a new one.
_ADD_HOUR = {
    "$cond": {
        "if": {"$in": ["$$this.timestamp", "$$value.timestamp"]},
        "then": {
            "$map": {
                "input": "$$value",
                "as": "bucket",
                "in": {
                    "$cond": {
                        "if": {"$eq": ["$$bucket.timestamp", "$$this.timestamp"]},
                        "then": {"$mergeObjects": ["$$bucket", _MERGED_HOUR]},
                        "else": "$$bucket",
                    }
                },
            }
        },
        "else": {"$concatArrays": ["$$value", ["$$this"]]},
    }
}
_KEPT_TOTALS = {
    "$filter": {
        "input": {"$ifNull": ["$totals", []]},
        "cond": {"$gte": ["$$this.timestamp", "$$oldestKept"]},
    }
}
_LATEST = {"$getField": {"field": "latest", "input": _MINE}}
RECORD_PIPELINE: list[dict[str, Any]] = [
    {
        "$set": {
            "totals": {
                "$let": {
                    "vars": {"hours": {"$getField": {"field": "hours", "input": _MINE}}},
                    "in": {
                        "$reduce": {
                            "input": "$$hours",
                            "initialValue": _KEPT_TOTALS,
                            "in": _ADD_HOUR,
                        }
                    },
                }
            },
            "lastEventAt": {"$max": ["$lastEventAt", _LATEST]},  # $max leaves out a null
        }
    }
]


def record_variables(
    per_sensor: Mapping[ObjectId, Mapping[datetime, _HourDelta]],
    latest: Mapping[ObjectId, datetime],
    *,
    oldest_kept: datetime,
) -> dict[str, Any]:
    """The `let` of one call's RECORD_PIPELINE updates."""
    events = {
        str(sensor_id): {
            "hours": [delta.bucket(hour) for hour, delta in sorted(deltas.items())],
            "latest": latest[sensor_id],
        }
        for sensor_id, deltas in per_sensor.items()
    }
    return {"events": literal(events), "oldestKept": literal(oldest_kept)}


def _folded(
    events: Iterable[SensorEvent],
) -> tuple[dict[ObjectId, dict[datetime, _HourDelta]], dict[ObjectId, datetime]]:
    """Each sensor's hour deltas, and its latest event time."""
    # Per sensor, its deltas and latest time: one lookup of its ObjectId (hashed in Python).
    folding: dict[ObjectId, tuple[dict[datetime, _HourDelta], list[datetime]]] = {}
    # The hour of the previous event: a batch's events mostly share their hour.
    hour = after = None
    for event in events:
        sensor_id, at = event.sensor_id, as_utc(event.at)
        entry = folding.get(sensor_id)
        if entry is None:
            entry = folding[sensor_id] = ({}, [at])
        elif at > entry[1][0]:
            entry[1][0] = at
        if hour is None or after is None or not hour <= at < after:
            hour = hour_start(at)
            after = hour + ONE_HOUR
        delta = entry[0].get(hour)
        if delta is None:
            delta = entry[0][hour] = _HourDelta()
        delta.add(event)
    per_sensor = {sensor_id: entry[0] for sensor_id, entry in folding.items()}
    return per_sensor, {sensor_id: entry[1][0] for sensor_id, entry in folding.items()}


async def record_sensor_events(
    coll: AsyncCollection, *, events: Iterable[SensorEvent], now: datetime
) -> RecordOutcome:
    """Apply validated events: one pipeline update per touched sensor, all in one bulk write.

    Events of one sensor are folded into per-hour deltas first, so each sensor document is
    changed by exactly one atomic command however many events it receives. Every update is
    the same RECORD_PIPELINE; the deltas go in the bulk write's `let`.
    """
    per_sensor, latest = _folded(events)
    if not per_sensor:
        return RecordOutcome(missing=frozenset(), found=())
    variables = record_variables(per_sensor, latest, oldest_kept=Window.at(now).start)
    ops = [UpdateOne({"_id": sensor_id}, RECORD_PIPELINE) for sensor_id in per_sensor]
    result = await coll.bulk_write(ops, ordered=False, let=variables)
    if result.matched_count == len(ops):
        return RecordOutcome(missing=frozenset(), found=None)
    # Some sensors do not exist: one more read tells which, and serves the payload as well.
    found = await find_sensors(coll, ids=list(per_sensor))
    missing = frozenset(per_sensor) - {doc.id for doc in found}
    return RecordOutcome(missing=missing, found=tuple(found))
