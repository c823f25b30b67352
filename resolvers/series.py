"""Time series: recording observations, and series over any range, granularity and time zone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from resolvers import series_input, validation
from resolvers.context import Info
from resolvers.errors import BadUserInput, LimitExceeded, NotFound
from resolvers.idempotency import idempotency_key, once
from resolvers.measurements import MEASUREMENTS_BY_NAME, register
from resolvers.series_input import ObservationArgs, TagArgs
from resolvers.series_reads import (
    EDGE_PIECES,
    charged_points,
    most_rollups,
    too_many_values,
    total_read_units,
)
from resolvers.series_time import (
    Granularity,
    least_points,
    point_starts,
    time_zone,
    whole_minute,
    within_limit,
)
from settings import MAX_FIELDS_PER_MEASUREMENT, MAX_SERIES_POINTS, MAX_SERIES_VALUES
from store.protocols import Document
from store.series import series as store
from store.series.measurements import MeasurementDoc
from store.series.series_query import FieldTotals, SeriesAnswer, read_series, series_read

NO_DATA = FieldTotals(sum=0.0, count=0, min=None, max=None)


@dataclass(frozen=True, slots=True)
class FieldStatsRecord:
    name: str
    totals: FieldTotals


@dataclass(frozen=True, slots=True)
class PointRecord:
    start: datetime
    values: tuple[FieldStatsRecord, ...]


async def _replayed(answer: Document) -> int:
    return int(answer.get("applied") or 0)


async def record_observations(
    info: Info, *, observations: Sequence[ObservationArgs], key: str | None = None
) -> int:
    """Validate every observation, name new names in the catalogue (or refuse), then write
    every rollup in one bulk write; with a key, at most once (a retry gets the first try's
    answer). The number of observations stored."""
    ctx = info.context
    key = idempotency_key(key)
    validation.at_most(observations, ctx.settings.max_batch_size, argument="observations")
    validated = [series_input.observation(i, o) for i, o in enumerate(observations)]

    async def write() -> int:
        await register(ctx, validated)
        return await store.record_observations(
            ctx.collection(store.COLLECTION), observations=validated
        )

    return await once(
        info,
        scope="recordObservations",
        key=key,
        request=[[o.measurement, o.at, o.tags, sorted(o.fields)] for o in validated],
        write=write,
        answer=lambda applied: {"applied": applied},
        replay=_replayed,
    )


@dataclass(frozen=True, slots=True)
class _Question:
    measurement: str
    tags: tuple[tuple[str, str], ...]
    start: datetime
    end: datetime
    fields: tuple[str, ...] | None


def _question(
    measurement: str,
    tags: Sequence[TagArgs] | None,
    start: datetime,
    end: datetime,
    fields: Sequence[str] | None,
) -> _Question:
    question = _Question(
        measurement=series_input.measurement_name(measurement, argument="measurement"),
        tags=series_input.tags(tags or (), argument="tags"),
        start=whole_minute(series_input.moment(start, argument="from")),
        end=whole_minute(series_input.moment(end, argument="to", end=True)),
        fields=series_input.field_names(fields),
    )
    if question.end <= question.start:
        raise BadUserInput("to: must be at least a minute after from", argument="to")
    return question


async def _catalogue(info: Info, question: _Question) -> tuple[str, ...]:
    """The fields to answer: those named, each known to the measurement, or all of its own.
    Read before any point is computed, so that an unknown name costs one lookup."""
    loader = info.context.loader(MEASUREMENTS_BY_NAME)
    entry: MeasurementDoc | None = await loader.load(question.measurement)
    if entry is None:
        raise NotFound(
            f"measurement: no measurement {question.measurement!r}", argument="measurement"
        )
    for index, field in enumerate(question.fields or ()):
        if field not in entry.fields:
            raise NotFound(
                f"fields[{index}]: measurement {question.measurement!r} has no field {field!r}",
                argument=f"fields[{index}]",
            )
    return question.fields or entry.fields


async def _answer(
    info: Info, question: _Question, boundaries: list[datetime], charged: int
) -> SeriesAnswer:
    """The points' stats, from at most the rollups `charged` buys (`series_reads`)."""
    read = series_read(boundaries)
    answer = await read_series(
        info.context.collection(store.COLLECTION),
        measurement=question.measurement,
        tags=question.tags,
        read=read,
        points=len(boundaries) - 1,
        fields=question.fields,
        most_rollups=most_rollups(charged),
    )
    if answer.cut:
        raise LimitExceeded(
            f"from: the range reads more than {most_rollups(charged)} rollups (its periods "
            "over every tag set of the measurement); ask for a shorter range",
            argument="from",
        )
    return answer


def _values(answer: SeriesAnswer, point: int, names: Sequence[str]) -> tuple[FieldStatsRecord, ...]:
    found = answer.points.get(point, {})
    return tuple(FieldStatsRecord(name, found.get(name, NO_DATA)) for name in names)


def _within_values(points: int, width: int) -> None:
    if too_many_values(points, width):
        raise LimitExceeded(
            f"fields: {points} points of {width} fields is over {MAX_SERIES_VALUES} values "
            "(name fewer fields, or ask for fewer points)",
            argument="fields",
        )


async def series(
    info: Info,
    *,
    measurement: str,
    tags: Sequence[TagArgs] | None,
    start: datetime,
    end: datetime,
    granularity: Granularity,
    zone: str | None,
    fields: Sequence[str] | None,
) -> list[PointRecord]:
    """Dense points: every aligned start from `from` to `to`, zeros where nothing was
    recorded; the catalogue, then one command."""
    question = _question(measurement, tags, start, end, fields)
    place = time_zone(zone)
    width = len(question.fields) if question.fields is not None else MAX_FIELDS_PER_MEASUREMENT
    within_limit(question.start, question.end, granularity, limit=MAX_SERIES_POINTS)
    _within_values(least_points(question.start, question.end, granularity), width)
    names = await _catalogue(info, question)
    starts = point_starts(question.start, question.end, granularity, place, limit=MAX_SERIES_POINTS)
    _within_values(len(starts), width)
    boundaries = [question.start, *starts[1:], question.end]
    charged = charged_points(start, end, granularity, width) + EDGE_PIECES
    answer = await _answer(info, question, boundaries, charged)
    return [PointRecord(start, _values(answer, i, names)) for i, start in enumerate(starts)]


async def series_total(
    info: Info,
    *,
    measurement: str,
    tags: Sequence[TagArgs] | None,
    start: datetime,
    end: datetime,
    fields: Sequence[str] | None,
) -> tuple[FieldStatsRecord, ...]:
    """Every field's stats over [from, to): the catalogue, then one command."""
    question = _question(measurement, tags, start, end, fields)
    names = await _catalogue(info, question)
    charged = 1 + total_read_units(start, end)
    answer = await _answer(info, question, [question.start, question.end], charged)
    return _values(answer, 0, names)
