"""A sensor's statistics: over its 24-hour window (`SensorStats`) and by hour (`HourlyTotal`),
from its stored hour totals, as GraphQL can carry them."""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from datetime import datetime

import strawberry

from schema.facts import AS_ITS_OBJECT, facts
from store.sensors.sensors import HourTotal

GRAPHQL_INT_MAX = 2**31 - 1
FLOAT_MAX = sys.float_info.max


def saturate(count: int) -> int:
    """GraphQL Int is 32-bit: a larger total is reported as the largest Int, never an error."""
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


@strawberry.type
class Stats:
    """The statistics a window and an hour both answer (a GraphQL type only by its subclasses)."""

    count: int = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    sum: float | None = strawberry.field(
        description="Null when no event had a value.", metadata=facts(permission=AS_ITS_OBJECT)
    )
    min: float | None = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    max: float | None = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    mean: float | None = strawberry.field(
        description=MEAN, metadata=facts(permission=AS_ITS_OBJECT)
    )
    avg: float | None = strawberry.field(
        deprecation_reason=AVG_DEPRECATED, metadata=facts(permission=AS_ITS_OBJECT)
    )


@strawberry.type(description="Event statistics over the 24-hour window.")
class SensorStats(Stats):
    @classmethod
    def of(cls, totals: Sequence[HourTotal]) -> SensorStats:
        valued = [t for t in totals if t.value_count > 0 and t.sum is not None]
        total = sum(t.sum or 0.0 for t in valued)
        mean = graphql_float(_mean(valued, total))
        return cls(
            count=saturate(sum(t.count for t in totals)),
            sum=graphql_float(total) if valued else None,
            min=graphql_float(min((t.min for t in valued if t.min is not None), default=None)),
            max=graphql_float(max((t.max for t in valued if t.max is not None), default=None)),
            mean=mean,
            avg=mean,
        )


@strawberry.type(description="One hour of the window; the hour starts at `hour` (UTC).")
class HourlyTotal(Stats):
    hour: datetime = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))

    @classmethod
    def of(cls, hour: datetime, total: HourTotal | None) -> HourlyTotal:
        """`SensorStats.of([total])`, written out for one hour: a payload of a thousand
        sensors builds 24 each."""
        if total is None or total.value_count <= 0 or total.sum is None:
            count = 0 if total is None else saturate(total.count)
            return cls(hour=hour, count=count, sum=None, min=None, max=None, mean=None, avg=None)
        valued_sum = 0 + (total.sum or 0.0)  # as `sum()` adds it up (a -0.0 answers 0.0)
        mean = graphql_float(_mean((total,), valued_sum))
        return cls(
            hour=hour,
            count=saturate(total.count),
            sum=graphql_float(valued_sum),
            min=graphql_float(total.min),
            max=graphql_float(total.max),
            mean=mean,
            avg=mean,
        )
