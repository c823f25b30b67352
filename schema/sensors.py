"""Sensor types, and the sensor fields of Query and Mutation; `Sensor.from_doc` is the one
conversion from a stored sensor."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, ClassVar

import strawberry
from bson.tz_util import utc as BSON_UTC

from resolvers import sensors as resolve
from resolvers.access.permissions import Permission
from resolvers.context import Info
from resolvers.global_ids import Key, NodeKind
from resolvers.idempotency import DESCRIPTION as KEY_DESCRIPTION
from runtime.execution.input_builders import build_directly
from schema.errors import code_of
from schema.facts import (
    AS_ITS_OBJECT,
    NO_WORK,
    SHORT,
    Sizing,
    clamp,
    facts,
    fixed,
    per_item,
    text_units,
)
from schema.mutation import write_mutation
from schema.node import Node, node_id_field
from schema.relay import Connection
from schema.sensor_stats import HourlyTotal, SensorStats, saturate
from settings import MAX_TITLE_LENGTH, SENSOR_WINDOW_HOURS
from store.sensors.sensor_pages import SensorOrder as StoredSensorOrder
from store.sensors.sensor_window import Window
from store.sensors.sensors import HourTotal, SensorDoc

# What an event counts in the cost for its write, the update it may be: a batch writes at most
# one sensor per event (tests/sensors/test_event_writes_within_charge.py).
UNITS_PER_EVENT = 25


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
    id: strawberry.ID = node_id_field(lambda sensor: (sensor.sensor_id,), value_units=SHORT)
    sensor_id: strawberry.ID = strawberry.field(
        description="The sensor's own id.",
        metadata=facts(value_units=SHORT, permission=AS_ITS_OBJECT),
    )
    title: str = strawberry.field(
        metadata=facts(value_units=text_units(MAX_TITLE_LENGTH), permission=AS_ITS_OBJECT)
    )
    count24h: int = strawberry.field(
        description="Events in the current UTC hour and the 23 before it, computed at read time.",
        metadata=facts(permission=AS_ITS_OBJECT),
    )
    # Computed when selected, from the window's hours that have events.
    stats24h: SensorStats = strawberry.field(
        resolver=_stats24h, metadata=facts(permission=AS_ITS_OBJECT)
    )
    hourly: list[HourlyTotal] = strawberry.field(
        resolver=_hourly,
        description="The 24 hours of the window, oldest first, zeros included.",
        metadata=facts(list_size=fixed(SENSOR_WINDOW_HOURS), permission=AS_ITS_OBJECT),
    )
    last_event_at: datetime | None = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
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
            count24h=saturate(sum(t.count for t in by_hour.values())),
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
    index: int = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    sensor_id: strawberry.ID = strawberry.field(
        metadata=facts(value_units=SHORT, permission=AS_ITS_OBJECT)
    )
    code: str = strawberry.field(metadata=facts(value_units=SHORT, permission=AS_ITS_OBJECT))
    message: str = strawberry.field(metadata=facts(value_units=SHORT, permission=AS_ITS_OBJECT))

    @classmethod
    def from_record(cls, record: resolve.RejectedEvent) -> RejectedEvent:
        return cls(
            index=record.index,
            sensor_id=strawberry.ID(str(record.sensor_id)),
            code=code_of(record.error),
            message=str(record.error),
        )


def _each_event(s: Sizing) -> int:
    """One entry per event of the batch, at most."""
    return clamp(len(s.parent.get("events") or ()), s.settings.max_batch_size)


def _touched_sensors(s: Sizing) -> int:
    """The sensors a batch touches: each once, however many of its events name it."""
    events = s.parent.get("events") or ()
    ids = {getattr(event, "sensor_id", None) for event in events}  # as coercion built them
    return clamp(len(ids), s.settings.max_batch_size)


@strawberry.type
class RecordSensorEventsPayload:
    accepted: int = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    rejected: list[RejectedEvent] = strawberry.field(
        metadata=facts(list_size=_each_event, permission=AS_ITS_OBJECT)
    )
    sensors: list[Sensor] = strawberry.field(
        description="The touched sensors after the write.",
        metadata=facts(list_size=_touched_sensors, permission=AS_ITS_OBJECT),
    )


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
    sensor: Sensor | None = strawberry.field(
        resolver=_sensor, metadata=facts(work_units=NO_WORK, permission=Permission.SENSORS_READ)
    )
    sensors: SensorConnection = strawberry.field(
        resolver=_sensors,
        metadata=facts(
            cursors=tuple(resolve.CURSORS.values()),
            work_units=NO_WORK,
            permission=Permission.SENSORS_READ,
        ),
    )


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
    create_sensor: Sensor = write_mutation(
        _create_sensor, permission=Permission.SENSORS_WRITE, work_units=NO_WORK
    )
    rename_sensor: Sensor = write_mutation(
        _rename_sensor, permission=Permission.SENSORS_WRITE, work_units=NO_WORK
    )
    delete_sensor: bool = write_mutation(
        _delete_sensor,
        permission=Permission.SENSORS_WRITE,
        work_units=NO_WORK,
        description="True when a sensor was deleted, false when there was none with this id.",
    )
    record_sensor_events: RecordSensorEventsPayload = write_mutation(
        _record_sensor_events,
        permission=Permission.SENSORS_WRITE,
        work_units=per_item("events", UNITS_PER_EVENT),
    )
