"""Time-series types, and the series fields of Query and Mutation; `FieldStats.from_record` and
`Measurement.from_doc` are the conversions from resolver records and the catalogue."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, ClassVar

import strawberry

from resolvers import measurements as resolve_catalogue
from resolvers import series as resolve
from resolvers.access.permissions import Permission
from resolvers.context import Info
from resolvers.global_ids import Key, NodeKind
from resolvers.idempotency import DESCRIPTION as KEY_DESCRIPTION
from resolvers.series import FieldStatsRecord, PointRecord
from resolvers.series_input import MEASUREMENT
from resolvers.series_reads import (
    charged_points_of,
    charged_width,
    observation_write_units,
    series_work_units,
    total_read_units,
)
from resolvers.series_time import Granularity
from runtime.execution.input_builders import build_directly
from schema.facts import AS_ITS_OBJECT, NO_WORK, SHORT, clamp, facts, fixed, text_units
from schema.mutation import write_mutation
from schema.node import Node, node_id_field
from schema.sensor_stats import graphql_float
from settings import (
    MAX_FIELDS_PER_MEASUREMENT,
    MAX_MEASUREMENTS_PAGE,
    MAX_TAG_KEYS_PER_MEASUREMENT,
    MAX_TAG_VALUE_LENGTH,
    MAX_TAG_VALUES_PAGE,
)
from store.series.measurements import MeasurementDoc

GRAPHQL_INT_MAX = 2**31 - 1

strawberry.enum(Granularity, name="Granularity", description="WEEK starts on Monday (ISO).")

From = Annotated[datetime, strawberry.argument(name="from", description="Included.")]
To = Annotated[datetime, strawberry.argument(name="to", description="Excluded.")]


@strawberry.input
class TagInput:
    key: str
    value: str


@strawberry.input
class FieldValueInput:
    name: str
    value: float


@strawberry.input(description="Values of one measurement's fields, at one time, for one tag set.")
class ObservationInput:
    measurement: str
    at: datetime
    tags: list[TagInput]
    fields: list[FieldValueInput]


# A batch holds thousands of these (a tag and a field value or more per observation): each
# built from graphql-core's coercion, not through Strawberry's generic conversion.
for _input in (TagInput, FieldValueInput, ObservationInput):
    build_directly(_input)


@strawberry.type(description="A field's values added up; min, max and mean null where count is 0.")
class FieldStats:
    name: str = strawberry.field(metadata=facts(value_units=SHORT, permission=AS_ITS_OBJECT))
    sum: float = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    count: int = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    min: float | None = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    max: float | None = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    mean: float | None = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))

    @classmethod
    def from_record(cls, record: FieldStatsRecord) -> FieldStats:
        totals = record.totals
        # Stored sums are finite (values are bounded); older data or direct writes may hold
        # Infinity or NaN: saturated, or null (a NaN sum, which cannot be null, reads as 0).
        return cls(
            name=record.name,
            sum=graphql_float(totals.sum) or 0.0,
            count=min(totals.count, GRAPHQL_INT_MAX),
            min=graphql_float(totals.min),
            max=graphql_float(totals.max),
            mean=graphql_float(totals.sum / totals.count) if totals.count else None,
        )


@strawberry.type(description="A point of a series: its aligned start, and each field's stats.")
class SeriesPoint:
    start: datetime = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    values: list[FieldStats] = strawberry.field(
        metadata=facts(list_size=lambda s: charged_width(s.parent), permission=AS_ITS_OBJECT)
    )

    @classmethod
    def from_record(cls, record: PointRecord) -> SeriesPoint:
        return cls(start=record.start, values=[FieldStats.from_record(v) for v in record.values])


async def _tag_values(
    root: Measurement, info: Info, key: str, prefix: str | None = None, first: int = 100
) -> list[str]:
    return await resolve_catalogue.measurement_tag_values(
        info, measurement=root.name, key=key, prefix=prefix, first=first
    )


@strawberry.type(
    description="A measurement: its field names and tag keys (as InfluxDB shows them)."
)
class Measurement(Node):
    KIND: ClassVar[NodeKind] = MEASUREMENT
    id: strawberry.ID = node_id_field(lambda measurement: (measurement.name,), value_units=SHORT)
    name: str = strawberry.field(metadata=facts(value_units=SHORT, permission=AS_ITS_OBJECT))
    fields: list[str] = strawberry.field(
        metadata=facts(
            list_size=fixed(MAX_FIELDS_PER_MEASUREMENT),
            value_units=SHORT,
            permission=AS_ITS_OBJECT,
        )
    )
    tag_keys: list[str] = strawberry.field(
        metadata=facts(
            list_size=fixed(MAX_TAG_KEYS_PER_MEASUREMENT),
            value_units=SHORT,
            permission=AS_ITS_OBJECT,
        )
    )
    tag_values: list[str] = strawberry.field(
        resolver=_tag_values,
        description="The tag's values in order, from `prefix` on; at most `first` (up to 1,000).",
        metadata=facts(
            list_size=lambda s: clamp(s.arguments.get("first"), MAX_TAG_VALUES_PAGE),
            value_units=text_units(MAX_TAG_VALUE_LENGTH),  # each value of the list
            permission=AS_ITS_OBJECT,
        ),
    )

    @classmethod
    async def resolve_node(cls, info: Info, key: Key) -> Measurement | None:
        found = await resolve_catalogue.measurement_by_key(info, key)
        return None if found is None else cls.from_doc(found)

    @classmethod
    def from_doc(cls, doc: MeasurementDoc) -> Measurement:
        return cls(
            name=doc.name,
            fields=list(doc.fields),
            tag_keys=list(doc.tag_keys),
        )


@strawberry.type
class RecordObservationsPayload:
    applied: int = strawberry.field(
        description="Observations stored.", metadata=facts(permission=AS_ITS_OBJECT)
    )


async def _series(
    info: Info,
    measurement: str,
    from_: From,
    to: To,
    granularity: Granularity,
    tags: list[TagInput] | None = None,
    time_zone: str | None = None,
    fields: list[str] | None = None,
) -> list[SeriesPoint]:
    points = await resolve.series(
        info,
        measurement=measurement,
        tags=tags,
        start=from_,
        end=to,
        granularity=granularity,
        zone=time_zone,
        fields=fields,
    )
    return [SeriesPoint.from_record(point) for point in points]


async def _series_total(
    info: Info,
    measurement: str,
    from_: From,
    to: To,
    tags: list[TagInput] | None = None,
    fields: list[str] | None = None,
) -> list[FieldStats]:
    totals = await resolve.series_total(
        info, measurement=measurement, tags=tags, start=from_, end=to, fields=fields
    )
    return [FieldStats.from_record(record) for record in totals]


async def _measurements(
    info: Info, prefix: str | None = None, first: int = 100
) -> list[Measurement]:
    found = await resolve_catalogue.measurements(info, prefix=prefix, first=first)
    return [Measurement.from_doc(doc) for doc in found]


async def _measurement(info: Info, name: str) -> Measurement | None:
    doc = await resolve_catalogue.measurement(info, name=name)
    return None if doc is None else Measurement.from_doc(doc)


def _series_total_reads(arguments: Mapping[str, Any]) -> int:
    """A total reads its range cut into pieces, once per tag set."""
    start, end = arguments.get("from"), arguments.get("to")
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        return 0  # refused by the resolver: nothing is read
    return total_read_units(start, end)


@strawberry.type
class SeriesQueries:
    series: list[SeriesPoint] = strawberry.field(
        resolver=_series,
        description="Dense points aligned to `granularity` in `timeZone` (IANA, default UTC), "
        "over [from, to) at minute resolution; `tags` match every tag set that has them.",
        metadata=facts(
            list_size=lambda s: charged_points_of(s.arguments),
            work_units=series_work_units,
            permission=Permission.SERIES_READ,
        ),
    )
    series_total: list[FieldStats] = strawberry.field(
        resolver=_series_total,
        description="Each field's stats over [from, to).",
        metadata=facts(
            list_size=lambda s: charged_width(s.arguments),
            work_units=_series_total_reads,
            permission=Permission.SERIES_READ,
        ),
    )
    measurements: list[Measurement] = strawberry.field(
        resolver=_measurements,
        description="Measurements by name, from `prefix` on; at most `first` (up to 1,000).",
        metadata=facts(
            list_size=lambda s: clamp(s.arguments.get("first"), MAX_MEASUREMENTS_PAGE),
            work_units=NO_WORK,
            permission=Permission.SERIES_READ,
        ),
    )
    measurement: Measurement | None = strawberry.field(
        resolver=_measurement,
        metadata=facts(work_units=NO_WORK, permission=Permission.SERIES_READ),
    )


async def _record_observations(
    info: Info,
    observations: list[ObservationInput],
    idempotency_key: Annotated[str | None, strawberry.argument(description=KEY_DESCRIPTION)] = None,
) -> RecordObservationsPayload:
    applied = await resolve.record_observations(
        info, observations=observations, key=idempotency_key
    )
    return RecordObservationsPayload(applied=applied)


def _field_values(observation: Any) -> int:
    # As coercion built it: an input object, or a mapping by the schema's names.
    found = observation.get("fields") if isinstance(observation, Mapping) else None
    found = found or getattr(observation, "fields", None) or ()
    return len(found) if isinstance(found, list | tuple) else 0


def _observation_writes(arguments: Mapping[str, Any]) -> int:
    """Each observed value is converted, checked and written into three rollups."""
    observations = arguments.get("observations") or ()
    return observation_write_units(_field_values(o) for o in observations)


@strawberry.type
class SeriesMutations:
    record_observations: RecordObservationsPayload = write_mutation(
        _record_observations,
        permission=Permission.SERIES_WRITE,
        work_units=_observation_writes,
        description="Add observations to their rollups: every one, or none.",
    )
