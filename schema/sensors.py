"""Sensor types and inputs; `Sensor.from_doc` is the one conversion from a stored sensor."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

import strawberry

from schema.relay import PageInfo
from settings import SENSOR_WINDOW_HOURS
from store import sensor_pages
from store.sensors import HourTotal, SensorDoc, hour_start, window_start

GRAPHQL_INT_MAX = 2**31 - 1


@strawberry.type(description="Event statistics over the 24-hour window.")
class SensorStats:
    count: int
    sum: float | None = strawberry.field(description="Null when no event had a value.")
    min: float | None
    max: float | None
    avg: float | None


@strawberry.type(description="One hour of the window; the hour starts at `hour` (UTC).")
class HourlyTotal:
    hour: datetime
    count: int
    sum: float | None
    min: float | None
    max: float | None
    avg: float | None


def _saturate(count: int) -> int:
    # GraphQL Int is 32-bit: a larger total is reported as the largest Int, never an error.
    return min(count, GRAPHQL_INT_MAX)


def _hourly(totals: tuple[HourTotal, ...], now: datetime) -> list[HourlyTotal]:
    by_hour = {t.hour: t for t in totals}
    start = window_start(now)
    hours = []
    for offset in range(SENSOR_WINDOW_HOURS):
        hour = start + timedelta(hours=offset)
        bucket = by_hour.get(hour)
        if bucket is None:
            hours.append(HourlyTotal(hour=hour, count=0, sum=None, min=None, max=None, avg=None))
            continue
        valued = bucket.value_count > 0 and bucket.sum is not None
        hours.append(
            HourlyTotal(
                hour=hour,
                count=_saturate(bucket.count),
                sum=bucket.sum if valued else None,
                min=bucket.min if valued else None,
                max=bucket.max if valued else None,
                avg=(bucket.sum or 0.0) / bucket.value_count if valued else None,
            )
        )
    return hours


def _stats(totals: tuple[HourTotal, ...], now: datetime) -> tuple[int, SensorStats]:
    start, end = window_start(now), hour_start(now)
    in_window = [t for t in totals if start <= t.hour <= end]
    count = sum(t.count for t in in_window)
    valued = [t for t in in_window if t.value_count > 0 and t.sum is not None]
    value_count = sum(t.value_count for t in valued)
    total = sum(t.sum or 0.0 for t in valued)
    stats = SensorStats(
        count=_saturate(count),
        sum=total if valued else None,
        min=min(t.min for t in valued if t.min is not None) if valued else None,
        max=max(t.max for t in valued if t.max is not None) if valued else None,
        avg=total / value_count if valued else None,
    )
    return count, stats


@strawberry.type(description="A sensor and its event counts over the last 24 hours.")
class Sensor:
    id: strawberry.ID
    title: str
    count24h: int = strawberry.field(
        description="Events in the current UTC hour and the 23 before it, computed at read time."
    )
    stats24h: SensorStats
    hourly: list[HourlyTotal] = strawberry.field(
        description="The 24 hours of the window, oldest first, zeros included."
    )
    last_event_at: datetime | None

    @classmethod
    def from_doc(cls, doc: SensorDoc, *, now: datetime) -> Sensor:
        count, stats = _stats(doc.totals, now)
        return cls(
            id=strawberry.ID(str(doc.id)),
            title=doc.title,
            count24h=_saturate(count),
            stats24h=stats,
            hourly=_hourly(doc.totals, now),
            last_event_at=doc.last_event_at,
        )


@strawberry.type
class SensorEdge:
    cursor: str
    node: Sensor


@strawberry.type(description="A page of sensors (Relay connection).")
class SensorConnection:
    edges: list[SensorEdge]
    page_info: PageInfo
    total_count: int


SensorOrder = strawberry.enum(sensor_pages.SensorOrder, name="SensorOrder")


@strawberry.input
class SensorFilter:
    min_count24h: int | None = None
    title_prefix: str | None = None


@strawberry.input(description="Events for one sensor at one time; `value` is optional.")
class SensorEventInput:
    sensor_id: strawberry.ID
    at: datetime
    count: int = 1
    value: float | None = None


@strawberry.type(description="An event that was well-formed but could not be applied.")
class RejectedEvent:
    index: int
    sensor_id: strawberry.ID
    code: str
    message: str


@strawberry.type
class RecordSensorEventsPayload:
    accepted: int
    rejected: list[RejectedEvent]
    sensors: list[Sensor] = strawberry.field(description="The touched sensors after the write.")


def _event_from_input(cls: type, value: Mapping[str, Any], context: object) -> SensorEventInput:
    # graphql-core has already coerced every field (scalars parsed, defaults filled in), so the
    # generic per-field conversion, the largest cost of a 1,000-event batch, is skipped.
    return SensorEventInput(
        sensor_id=value["sensorId"], at=value["at"], count=value["count"], value=value.get("value")
    )


SensorEventInput.__strawberry_definition__.from_input = _event_from_input  # type: ignore[attr-defined]
