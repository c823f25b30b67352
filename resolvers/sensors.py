"""Sensors: lookups, the sorted and filtered list, and the writes, validated at the edge."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from bson import ObjectId

from resolvers import validation
from resolvers.access.permissions import Permission
from resolvers.context import Info
from resolvers.cursors import CursorCodec, Id, Integer, Text
from resolvers.errors import BadUserInput, NotFound
from resolvers.global_ids import HEX_OBJECT_ID, Key, NodeKind, domain_id, object_id_part
from resolvers.idempotency import idempotency_key, once
from resolvers.loaders import LoaderSpec, keyed
from resolvers.paging import Page, PageRequest
from runtime.selection.fields import selects
from settings import MAX_ABS_SENSOR_VALUE, MAX_EVENT_FUTURE_SECONDS, MAX_TITLE_LENGTH
from store.database import Database
from store.protocols import Document
from store.sensors import sensors as store
from store.sensors.sensor_pages import SensorOrder, SensorPosition, list_sensors
from store.sensors.sensor_window import Window
from store.sensors.sensors import RecordOutcome, SensorDoc, SensorEvent


async def _sensors_by_id(
    database: Database, ids: Sequence[ObjectId], parameter: Any
) -> list[SensorDoc | None]:
    found = await store.find_sensors(database.collection(store.COLLECTION), ids=ids)
    return keyed({doc.id: doc for doc in found}, ids)


SENSORS_BY_ID: LoaderSpec[ObjectId, SensorDoc | None] = LoaderSpec("sensors_by_id", _sensors_by_id)

# The cursor holds the database's exact sort key, so the next page starts exactly after it.
CURSORS = {
    SensorOrder.TITLE: CursorCodec("sensor:title", (Text(MAX_TITLE_LENGTH), Id()), SensorPosition),
    SensorOrder.COUNT_24H_DESC: CursorCodec("sensor:count24h", (Integer(), Id()), SensorPosition),
}


SENSOR = NodeKind("Sensor", (object_id_part,), Permission.SENSORS_READ)


def sensor_id_argument(value: str, *, argument: str) -> ObjectId:
    """A sensor named by its global id or its own (`sensorId`)."""
    own = domain_id(value, SENSOR, argument=argument)
    return validation.object_id(own, argument=argument)


async def sensor_by_key(info: Info, key: Key) -> SensorDoc | None:
    """The sensor of a `SENSOR` key."""
    found: SensorDoc | None = await info.context.loader(SENSORS_BY_ID).load(ObjectId(str(key[0])))
    return found


async def sensor(info: Info, *, id: str) -> SensorDoc | None:
    doc: SensorDoc | None = await info.context.loader(SENSORS_BY_ID).load(
        sensor_id_argument(id, argument="id")
    )
    return doc


async def sensors(
    info: Info,
    *,
    first: int | None,
    after: str | None,
    order: SensorOrder,
    min_count24h: int | None,
    title_prefix: str | None,
) -> Page[SensorDoc]:
    ctx = info.context
    request = PageRequest.from_arguments(
        first=first, after=after, maximum=ctx.settings.max_page_size
    )
    codec = CURSORS[order]
    if title_prefix:
        validation.text(title_prefix, argument="filter.titlePrefix", maximum=MAX_TITLE_LENGTH)
    found = await list_sensors(
        info.context.collection(store.COLLECTION),
        now=ctx.now,
        first=request.size,
        order=order,
        after=request.position(codec),
        title_prefix=title_prefix or None,
        min_count24h=min_count24h,
        count_total=selects(info, "totalCount"),
    )
    keys = {
        doc.id: SensorPosition(doc.title if order is SensorOrder.TITLE else count, doc.id)
        for doc, count in zip(found.sensors, found.count24h, strict=True)
    }
    return Page.of(
        found.sensors,
        lambda doc: codec.encode(keys[doc.id]),
        has_next=found.has_more,
        # A list read forward only: the spec lets `hasPreviousPage` be false, and "a cursor
        # was given" is not exact (a forged or stale cursor may come before every sensor).
        has_previous=False,
        total=found.total,
    )


async def create_sensor(info: Info, *, title: str) -> SensorDoc:
    return await store.create_sensor(
        info.context.collection(store.COLLECTION), title=validation.title(title)
    )


async def rename_sensor(info: Info, *, id: str, title: str) -> SensorDoc:
    sensor_id = sensor_id_argument(id, argument="id")
    doc = await store.rename_sensor(
        info.context.collection(store.COLLECTION),
        sensor_id=sensor_id,
        title=validation.title(title),
    )
    if doc is None:
        raise NotFound(f"id: no sensor {id}", argument="id")
    return doc


async def delete_sensor(info: Info, *, id: str) -> bool:
    sensor_id = sensor_id_argument(id, argument="id")
    return await store.delete_sensor(info.context.collection(store.COLLECTION), sensor_id=sensor_id)


class SensorEventArgs(Protocol):
    """An event as the schema passes it (a `SensorEventInput`)."""

    @property
    def sensor_id(self) -> str: ...
    @property
    def at(self) -> datetime: ...
    @property
    def count(self) -> int: ...
    @property
    def value(self) -> float | None: ...


@dataclass(frozen=True, slots=True)
class RejectedEvent:
    index: int
    sensor_id: ObjectId
    error: NotFound


@dataclass(frozen=True, slots=True)
class RecordedEvents:
    accepted: int
    rejected: tuple[RejectedEvent, ...]
    sensors: tuple[SensorDoc, ...]  # the touched sensors after the write, when selected


def _validated_event(index: int, event: SensorEventArgs, ids: dict[str, ObjectId]) -> SensorEvent:
    """An event's shape: what does not change with the time of the call. The common event (a
    plain hex id, a count of 1 or more, a finite value) builds no argument name. `ids` holds
    the plain ids a batch has read so far (a batch names each of its sensors many times)."""
    raw_id, count, value = event.sensor_id, event.count, event.value
    sensor_id = ids.get(raw_id)
    if sensor_id is None:
        sensor_id = _plain_object_id(raw_id)
        if sensor_id is None:
            sensor_id = sensor_id_argument(raw_id, argument=f"events[{index}].sensorId")
        else:
            ids[raw_id] = sensor_id
    if count < 1:
        validation.positive(count, argument=f"events[{index}].count")
    if value is None:
        return SensorEvent(sensor_id, event.at, count, None)
    value = float(value)
    if not (math.isfinite(value) and abs(value) <= MAX_ABS_SENSOR_VALUE):
        where = f"events[{index}]"
        raise BadUserInput(
            f"{where}.value: must be a finite number of at most {MAX_ABS_SENSOR_VALUE:g} in "
            "size (so that every sum stays finite)",
            argument=f"{where}.value",
        )
    return SensorEvent(sensor_id, event.at, count, value)


def _plain_object_id(value: str) -> ObjectId | None:
    """`value` as an ObjectId when it is 24 lowercase hex digits (no global id is: those begin
    with "W"); None for anything else, which `sensor_id_argument` reads or refuses."""
    if len(value) == 24 and HEX_OBJECT_ID.fullmatch(value) is not None:
        return ObjectId(value)
    return None


def _check_times(events: Sequence[SensorEvent], now: datetime) -> None:
    """Every event within the window of `now` (so checked again by each try of a call)."""
    window, latest = Window.at(now), now + timedelta(seconds=MAX_EVENT_FUTURE_SECONDS)
    for index, event in enumerate(events):
        if window.start <= event.at <= latest:
            continue
        where = f"events[{index}].at"
        if event.at < window.start:
            raise BadUserInput(
                f"{where}: {event.at.isoformat()} is before the 24-hour window, which "
                f"starts at {window.start.isoformat()}",
                argument=where,
            )
        if event.at > latest:
            raise BadUserInput(
                f"{where}: {event.at.isoformat()} is more than "
                f"{MAX_EVENT_FUTURE_SECONDS // 60} minutes in the future",
                argument=where,
            )


async def _recorded(
    info: Info, validated: Sequence[SensorEvent], outcome: RecordOutcome
) -> RecordedEvents:
    """The payload: what was accepted and rejected, and the touched sensors when selected."""
    missing = outcome.missing
    rejected = tuple(
        RejectedEvent(
            index,
            event.sensor_id,
            NotFound(f"events[{index}].sensorId: no sensor {event.sensor_id}"),
        )
        for index, event in enumerate(validated if missing else ())
        if event.sensor_id in missing
    )
    after: tuple[SensorDoc, ...] = ()
    if len(rejected) < len(validated) and selects(info, "sensors"):
        # In the order the events first name them, however they were read (a retry reads them
        # by the loader, a first try with unknown sensors by one find).
        touched = [i for i in dict.fromkeys(e.sensor_id for e in validated) if i not in missing]
        if outcome.found is not None:
            by_id = {doc.id: doc for doc in outcome.found}
            after = tuple(by_id[i] for i in touched if i in by_id)
        else:
            loaded = await info.context.loader(SENSORS_BY_ID).load_many(touched)
            after = tuple(doc for doc in loaded if doc is not None)
    return RecordedEvents(len(validated) - len(rejected), rejected, after)


async def _replayed(answer: Document) -> RecordOutcome:
    return RecordOutcome(missing=frozenset(answer.get("missing") or ()), found=None)


async def record_sensor_events(
    info: Info, *, events: Sequence[SensorEventArgs], key: str | None = None
) -> RecordedEvents:
    """Validate every event first (one bad event rejects the call), then write once; with a
    key, at most once: a retry gets the first try's answer (its `sensors` read afresh)."""
    ctx = info.context
    key = idempotency_key(key)
    validation.at_most(events, ctx.settings.max_batch_size, argument="events")
    ids: dict[str, ObjectId] = {}
    validated = [_validated_event(i, event, ids) for i, event in enumerate(events)]

    async def write() -> RecordOutcome:
        _check_times(validated, ctx.now)
        return await store.record_sensor_events(
            ctx.collection(store.COLLECTION), events=validated, now=ctx.now
        )

    outcome = await once(
        info,
        scope="recordSensorEvents",
        key=key,
        # What a retry must repeat: built only when there is a key to check it against.
        request=key and [[e.sensor_id, e.at, e.count, e.value] for e in validated],
        write=write,
        answer=lambda done: {"missing": sorted(done.missing)},
        replay=_replayed,
    )
    return await _recorded(info, validated, outcome)
