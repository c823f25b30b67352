"""Sensor types, and the sensor fields of Query and Mutation; `Sensor.from_doc` is the one
conversion from a stored sensor."""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Annotated, ClassVar

import strawberry
from bson.tz_util import utc as BSON_UTC

from resolvers import sensors as resolve
from resolvers.context import Info
from resolvers.global_ids import Key, NodeKind
from resolvers.idempotency import DESCRIPTION as KEY_DESCRIPTION
from runtime.execution.input_builders import build_directly
from schema.errors import code_of
from schema.mutation import write_mutation
from schema.node import Node, node_id_field
from schema.relay import Connection
from store.sensors.sensor_pages import SensorOrder as StoredSensorOrder
from store.sensors.sensor_window import Window
from store.sensors.sensors import HourTotal, SensorDoc

GRAPHQL_INT_MAX = 2**31 - 1
FLOAT_MAX = sys.float_info.max


def _saturate(count: int) -> int:
    # GraphQL Int is 32-bit: a larger total is reported as the largest Int, never an error.
    return min(count, GRAPHQL_INT_MAX)


def graphql_float(value: float | None) -> float | None:
    """A stored number as GraphQL Float can carry it, so reads never fail on stored data:
    +-Infinity as the largest double of its sign (as counts saturate), NaN as null. Writes
    never store either (values are bounded); older data or direct writes may."""
    if value is None or math.isnan(value):
        return None
    return max(-FLOAT_MAX, min(FLOAT_MAX, value))


def _mean(valued: Sequence[HourTotal], total: float) -> float | None:
    """The mean of the valued events; where the sum is past the largest double (values stored
    before they were bounded), each hour's share added up, finite whenever the mean is."""
    value_count = sum(t.value_count for t in valued)
    if not value_count:
        return None
    if math.isfinite(total):
        return total / value_count
    return sum((t.sum or 0.0) / value_count for t in valued)


# `mean`, as series name the same number (FieldStats.mean); `avg` kept for clients that select it.
MEAN = "The mean of the events' values; null when no event had a value."
AVG_DEPRECATED = "Use `mean`: the same number, under the name series use."


@strawberry.type(description="Event statistics over the 24-hour window.")
class SensorStats:
    count: int
    sum: float | None = strawberry.field(description="Null when no event had a value.")
    min: float | None
    max: float | None
    mean: float | None = strawberry.field(description=MEAN)
    avg: float | None = strawberry.field(deprecation_reason=AVG_DEPRECATED)

    @classmethod
    def of(cls, totals: Sequence[HourTotal]) -> SensorStats:
        valued = [t for t in totals if t.value_count > 0 and t.sum is not None]
        total = sum(t.sum or 0.0 for t in valued)
        mean = graphql_float(_mean(valued, total))
        return cls(
            count=_saturate(sum(t.count for t in totals)),
            sum=graphql_float(total) if valued else None,
            min=graphql_float(min((t.min for t in valued if t.min is not None), default=None)),
            max=graphql_float(max((t.max for t in valued if t.max is not None), default=None)),
            mean=mean,
            avg=mean,
        )


@strawberry.type(description="One hour of the window; the hour starts at `hour` (UTC).")
class HourlyTotal:
    hour: datetime
    count: int
    sum: float | None
    min: float | None
    max: float | None
    mean: float | None = strawberry.field(description=MEAN)
    avg: float | None = strawberry.field(deprecation_reason=AVG_DEPRECATED)

    @classmethod
    def of(cls, hour: datetime, total: HourTotal | None) -> HourlyTotal:
        """`SensorStats.of([total])`, written out for one hour: a payload of a thousand
        sensors builds 24 each."""
        if total is None or total.value_count <= 0 or total.sum is None:
            count = 0 if total is None else _saturate(total.count)
            return cls(hour=hour, count=count, sum=None, min=None, max=None, mean=None, avg=None)
        valued_sum = 0 + (total.sum or 0.0)  # as `sum()` adds it up (a -0.0 answers 0.0)
        mean = graphql_float(_mean((total,), valued_sum))
        return cls(
            hour=hour,
            count=_saturate(total.count),
            sum=graphql_float(valued_sum),
            min=graphql_float(total.min),
            max=graphql_float(total.max),
            mean=mean,
            avg=mean,
        )


# Methods of the object alone (`self`), so that a list of sensors completes in one plan
# (runtime/execution/object_fields.py), its hours included, not field by field through graphql-core.
def _stats24h(self: Sensor) -> SensorStats:
    return SensorStats.of(list(self.by_hour.values()))


def _hourly(self: Sensor) -> list[HourlyTotal]:
    by_hour = self.by_hour
    return [HourlyTotal.of(hour, by_hour.get(hour)) for hour in _hours(self.window)]


@functools.lru_cache(maxsize=8)  # a request's sensors share its window
def _hours(window: Window) -> tuple[datetime, ...]:
    return tuple(window.hours())


@functools.lru_cache(maxsize=8)  # a request's sensors share its `now`
def _window_at(now: datetime) -> tuple[Window, datetime, datetime]:
    """The window at `now`, and its bounds in the zone a driver gives stored times: aware
    datetimes of one tzinfo object compare without asking it their offsets (a Python call each
    for PyMongo's UTC)."""
    window = Window.at(now)
    return window, window.start.astimezone(BSON_UTC), window.end.astimezone(BSON_UTC)


@strawberry.type(description="A sensor and its event counts over the last 24 hours.")
class Sensor(Node):
    KIND: ClassVar[NodeKind] = resolve.SENSOR
    id: strawberry.ID = node_id_field(lambda sensor: (sensor.sensor_id,))
    sensor_id: strawberry.ID = strawberry.field(description="The sensor's own id.")
    title: str
    count24h: int = strawberry.field(
        description="Events in the current UTC hour and the 23 before it, computed at read time."
    )
    # Computed when selected, from the window's hours that have events.
    stats24h: SensorStats = strawberry.field(resolver=_stats24h)
    hourly: list[HourlyTotal] = strawberry.field(
        resolver=_hourly, description="The 24 hours of the window, oldest first, zeros included."
    )
    last_event_at: datetime | None
    window: strawberry.Private[Window]
    by_hour: strawberry.Private[dict[datetime, HourTotal]]

    @classmethod
    async def resolve_node(cls, info: Info, key: Key) -> Sensor | None:
        found = await resolve.sensor_by_key(info, key)
        return None if found is None else cls.from_doc(found, now=info.context.now)

    @classmethod
    def from_doc(cls, doc: SensorDoc, *, now: datetime) -> Sensor:
        window, start, end = _window_at(now)
        by_hour = {t.hour: t for t in doc.totals if start <= t.hour <= end}
        return cls(
            sensor_id=strawberry.ID(str(doc.id)),
            title=doc.title,
            count24h=_saturate(sum(t.count for t in by_hour.values())),
            window=window,
            by_hour=by_hour,
            last_event_at=doc.last_event_at,
        )


@strawberry.type(description="A page of sensors (Relay connection).")
class SensorConnection(Connection[Sensor]):
    pass


strawberry.enum(StoredSensorOrder, name="SensorOrder")


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


build_directly(SensorEventInput)


@strawberry.type(description="An event that was well-formed but could not be applied.")
class RejectedEvent:
    index: int
    sensor_id: strawberry.ID
    code: str
    message: str

    @classmethod
    def from_record(cls, record: resolve.RejectedEvent) -> RejectedEvent:
        return cls(
            index=record.index,
            sensor_id=strawberry.ID(str(record.sensor_id)),
            code=code_of(record.error),
            message=str(record.error),
        )


@strawberry.type
class RecordSensorEventsPayload:
    accepted: int
    rejected: list[RejectedEvent]
    sensors: list[Sensor] = strawberry.field(description="The touched sensors after the write.")


def _sensor_node(info: Info) -> Callable[[SensorDoc], Sensor]:
    now = info.context.now
    return lambda doc: Sensor.from_doc(doc, now=now)


async def _sensor(info: Info, id: strawberry.ID) -> Sensor | None:
    doc = await resolve.sensor(info, id=id)
    return None if doc is None else _sensor_node(info)(doc)


async def _sensors(
    info: Info,
    first: int | None = 20,
    after: str | None = None,
    order_by: StoredSensorOrder | None = StoredSensorOrder.TITLE,
    filter: SensorFilter | None = None,
) -> SensorConnection:
    page = await resolve.sensors(
        info,
        first=first,
        after=after,
        order=order_by or StoredSensorOrder.TITLE,
        min_count24h=filter.min_count24h if filter else None,
        title_prefix=filter.title_prefix if filter else None,
    )
    return SensorConnection.from_page(page, _sensor_node(info))


@strawberry.type
class SensorQueries:
    sensor: Sensor | None = strawberry.field(resolver=_sensor)
    sensors: SensorConnection = strawberry.field(resolver=_sensors)


async def _create_sensor(info: Info, title: str) -> Sensor:
    return _sensor_node(info)(await resolve.create_sensor(info, title=title))


async def _rename_sensor(info: Info, id: strawberry.ID, title: str) -> Sensor:
    return _sensor_node(info)(await resolve.rename_sensor(info, id=id, title=title))


async def _delete_sensor(info: Info, id: strawberry.ID) -> bool:
    return await resolve.delete_sensor(info, id=id)


async def _record_sensor_events(
    info: Info,
    events: list[SensorEventInput],
    idempotency_key: Annotated[str | None, strawberry.argument(description=KEY_DESCRIPTION)] = None,
) -> RecordSensorEventsPayload:
    recorded = await resolve.record_sensor_events(info, events=events, key=idempotency_key)
    return RecordSensorEventsPayload(
        accepted=recorded.accepted,
        rejected=[RejectedEvent.from_record(r) for r in recorded.rejected],
        sensors=[_sensor_node(info)(doc) for doc in recorded.sensors],
    )


@strawberry.type
class SensorMutations:
    create_sensor: Sensor = write_mutation(_create_sensor)
    rename_sensor: Sensor = write_mutation(_rename_sensor)
    delete_sensor: bool = write_mutation(
        _delete_sensor,
        description="True when a sensor was deleted, false when there was none with this id.",
    )
    record_sensor_events: RecordSensorEventsPayload = write_mutation(_record_sensor_events)
