"""Sensor queries and mutations."""

from __future__ import annotations

from datetime import timedelta

import strawberry
from bson import ObjectId

from resolvers import validation
from resolvers.context import Context
from resolvers.cursors import decode_cursor, encode_cursor
from resolvers.errors import BadUserInput, NotFound
from schema.relay import PageInfo
from schema.sensors import (
    RecordSensorEventsPayload,
    RejectedEvent,
    Sensor,
    SensorConnection,
    SensorEdge,
    SensorEventInput,
    SensorFilter,
)
from settings import DEFAULT_PAGE_SIZE, MAX_EVENT_FUTURE_SECONDS, MAX_TITLE_LENGTH
from store import sensors as store
from store.sensor_pages import SensorOrder, list_sensors
from store.sensors import SensorDoc, SensorEvent

Info = strawberry.Info[Context, None]


async def sensor(info: Info, id: strawberry.ID) -> Sensor | None:
    ctx = info.context
    doc = await ctx.loaders.sensor_by_id.load(validation.object_id(id, argument="id"))
    return None if doc is None else Sensor.from_doc(doc, now=ctx.now)


def _sensor_cursor(order: SensorOrder, doc: SensorDoc, count24h: int) -> str:
    # The key is the database's exact sort key, so the next page starts exactly after it.
    key = doc.title if order is SensorOrder.TITLE else count24h
    return encode_cursor(f"sensor:{order.value}", key, str(doc.id))


async def sensors(
    info: Info,
    first: int | None = DEFAULT_PAGE_SIZE,
    after: str | None = None,
    order_by: SensorOrder | None = SensorOrder.TITLE,
    filter: SensorFilter | None = None,
) -> SensorConnection:
    ctx = info.context
    order_by = order_by or SensorOrder.TITLE
    size = validation.page_size(
        first, default=DEFAULT_PAGE_SIZE, maximum=ctx.settings.max_page_size, argument="first"
    )
    position = None
    if after is not None:
        key, last_id = decode_cursor(
            after, kind=f"sensor:{order_by.value}", size=2, argument="after"
        )
        position = (key, validation.object_id(last_id, argument="after"))
    prefix = filter.title_prefix if filter else None
    min_count = filter.min_count24h if filter else None
    if prefix is not None and len(prefix) > MAX_TITLE_LENGTH:
        raise BadUserInput(
            f"filter.titlePrefix: at most {MAX_TITLE_LENGTH} characters",
            argument="filter.titlePrefix",
        )
    page = await list_sensors(
        ctx.database.sensors,
        now=ctx.now,
        first=size,
        order=order_by,
        after=position,
        title_prefix=prefix,
        min_count24h=min_count,
    )
    edges = [
        SensorEdge(
            cursor=_sensor_cursor(order_by, doc, count),
            node=Sensor.from_doc(doc, now=ctx.now),
        )
        for doc, count in zip(page.sensors, page.count24h, strict=True)
    ]
    return SensorConnection(
        edges=edges,
        page_info=PageInfo.of(
            [e.cursor for e in edges], has_next=page.has_more, has_previous=after is not None
        ),
        total_count=page.total,
    )


async def create_sensor(info: Info, title: str) -> Sensor:
    ctx = info.context
    doc = await store.create_sensor(ctx.database.sensors, title=validation.title(title))
    return Sensor.from_doc(doc, now=ctx.now)


async def rename_sensor(info: Info, id: strawberry.ID, title: str) -> Sensor:
    ctx = info.context
    sensor_id = validation.object_id(id, argument="id")
    doc = await store.rename_sensor(
        ctx.database.sensors, sensor_id=sensor_id, title=validation.title(title)
    )
    if doc is None:
        raise NotFound(f"id: no sensor {id}", argument="id")
    return Sensor.from_doc(doc, now=ctx.now)


async def delete_sensor(info: Info, id: strawberry.ID) -> bool:
    sensor_id = validation.object_id(id, argument="id")
    return await store.delete_sensor(info.context.database.sensors, sensor_id=sensor_id)


def _validated_events(ctx: Context, events: list[SensorEventInput]) -> list[SensorEvent]:
    limit = ctx.settings.max_batch_size
    if len(events) > limit:
        raise BadUserInput(
            f"events: at most {limit} events per call, got {len(events)} "
            f"(events[{limit}] is the first over the limit)",
            argument="events",
        )
    oldest = store.window_start(ctx.now)
    latest = ctx.now + timedelta(seconds=MAX_EVENT_FUTURE_SECONDS)
    validated = []
    for index, event in enumerate(events):
        where = f"events[{index}]"
        sensor_id = validation.object_id(event.sensor_id, argument=f"{where}.sensorId")
        if event.count < 1:
            raise BadUserInput(
                f"{where}.count: must be at least 1, got {event.count}", argument=f"{where}.count"
            )
        if event.value is not None:
            validation.finite(event.value, argument=f"{where}.value")
            validation.finite(event.value * event.count, argument=f"{where}.value")
        if event.at < oldest:
            raise BadUserInput(
                f"{where}.at: {event.at.isoformat()} is before the 24-hour window, which "
                f"starts at {oldest.isoformat()}",
                argument=f"{where}.at",
            )
        if event.at > latest:
            raise BadUserInput(
                f"{where}.at: {event.at.isoformat()} is more than "
                f"{MAX_EVENT_FUTURE_SECONDS // 60} minutes in the future",
                argument=f"{where}.at",
            )
        validated.append(SensorEvent(sensor_id, event.at, event.count, event.value))
    return validated


def _selects(info: Info, name: str) -> bool:
    return any(
        getattr(selection, "name", None) == name
        for field in info.selected_fields
        for selection in field.selections
    )


async def record_sensor_events(
    info: Info, events: list[SensorEventInput]
) -> RecordSensorEventsPayload:
    ctx = info.context
    validated = _validated_events(ctx, events)
    outcome = await store.record_sensor_events(ctx.database.sensors, events=validated, now=ctx.now)
    rejected = [
        RejectedEvent(
            index=index,
            sensor_id=strawberry.ID(str(event.sensor_id)),
            code=NotFound.code,
            message=f"events[{index}].sensorId: no sensor {event.sensor_id}",
        )
        for index, event in enumerate(validated)
        if event.sensor_id in outcome.missing
    ]
    touched: list[ObjectId] = list(dict.fromkeys(e.sensor_id for e in validated))
    touched = [sensor_id for sensor_id in touched if sensor_id not in outcome.missing]
    sensors_after: list[Sensor] = []
    if _selects(info, "sensors") and touched:
        if outcome.found is not None:
            docs = [doc for doc in outcome.found if doc.id not in outcome.missing]
        else:
            loaded = await ctx.loaders.sensor_by_id.load_many(touched)
            docs = [doc for doc in loaded if doc is not None]
        sensors_after = [Sensor.from_doc(doc, now=ctx.now) for doc in docs]
    return RecordSensorEventsPayload(
        accepted=len(validated) - len(rejected), rejected=rejected, sensors=sensors_after
    )
