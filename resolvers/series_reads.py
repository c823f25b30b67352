"""What a series or a total is charged for what it reads, and the rollups that charge buys;
what recording observations is charged for what it writes.

A `series` or `seriesTotal` reads its range cut into pieces (`store/series/series_query.py`): a
rollup document's total for each whole month, and the days, hours and minutes at its edges,
each piece once per tag set. Its charge is known before anything runs, from its arguments
alone (no point is computed to price it):
- its points (one for a total), each also a list item of the answer;
- for a series, `POINT_UNITS` per point and `STATS_UNITS` per field of each point: the work
  of cutting, reading, building and completing every point, whatever the selection asks of it
  (a point built for `start` alone still builds every field's stats);
- `EDGE_PIECES` read units, the most pieces a range's two edges are cut into, which also pay
  for the tag sets a small range may hold;
- for a total, one read unit per month of its range (each a month document's key).

It then reads at most `ROLLUPS_PER_UNIT` rollup documents per unit of that charge, counted
by the database (`$limit`, before the tags are tested): past it, the field is LIMIT_EXCEEDED
and answers nothing, so a range over many tag sets cannot hold the database for more than
its charge.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from resolvers.series_time import Granularity, least_points, most_points
from settings import (
    MAX_FIELDS_PER_MEASUREMENT,
    MAX_SERIES_POINTS,
    MAX_SERIES_VALUES,
    MAX_SERIES_YEAR,
    MIN_SERIES_YEAR,
)

# The most days, hours and minutes a range's two ends are cut into besides its whole months.
EDGE_PIECES = 2 * (31 + 24 + 60)
ROLLUPS_PER_UNIT = 16
# A point's own work (its range cut, its record built, its start completed), in values
# answered; each field's stats it builds, three. Sixteen keeps a series' points, built and
# completed in one stretch of the event loop, to one alias (bench/costliest/ measures).
POINT_UNITS = 16
STATS_UNITS = 3
# A recorded field value is converted from its input object, checked, and added into the
# stats of three rollups (its hour, day and month): the costliest value a client can send.
UNITS_PER_OBSERVED_VALUE = 20
# What a range may span; beyond it the resolver refuses the range, and nothing is read.
_FIRST = datetime(MIN_SERIES_YEAR, 1, 1, tzinfo=UTC)
_LAST = datetime(MAX_SERIES_YEAR + 1, 1, 1, tzinfo=UTC)


def too_many_values(points: int, width: int) -> bool:
    return points * width > MAX_SERIES_VALUES


def charged_points(start: datetime, end: datetime, granularity: Granularity, width: int) -> int:
    """The most points a series can answer, never more than the resolver allows (points, and
    points x fields); none where the range alone shows it refuses them, before computing any,
    and where it refuses them once computed, it has computed at most that many."""
    least = least_points(start, end, granularity)
    if least > MAX_SERIES_POINTS or too_many_values(least, width):
        return 0
    most = min(MAX_SERIES_POINTS, MAX_SERIES_VALUES // max(1, width))
    return min(most_points(start, end, granularity), most)


def charged_width(arguments: Mapping[str, Any]) -> int:
    """The fields a series answers: those named (each once), or every one of a measurement."""
    named = arguments.get("fields")
    if named is None:
        return MAX_FIELDS_PER_MEASUREMENT
    return min(len(set(named)), MAX_FIELDS_PER_MEASUREMENT) if isinstance(named, list) else 0


def charged_points_of(arguments: Mapping[str, Any]) -> int:
    """`charged_points` of a series' arguments as coercion built them; none where the
    resolver refuses them."""
    start, end, granularity = (arguments.get(k) for k in ("from", "to", "granularity"))
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        return 0
    try:
        granularity = Granularity(getattr(granularity, "value", granularity))
    except ValueError:
        return 0
    return charged_points(start, end, granularity, charged_width(arguments))


def series_work_units(arguments: Mapping[str, Any]) -> int:
    """What a series counts for its work besides the values it answers."""
    points = charged_points_of(arguments)
    return EDGE_PIECES + points * (POINT_UNITS + charged_width(arguments) * STATS_UNITS)


def months(start: datetime, end: datetime) -> int:
    """The months a range can name, within the years a series may span."""
    start, end = max(start.astimezone(UTC), _FIRST), min(end.astimezone(UTC), _LAST)
    if end <= start:
        return 0
    return (end.year - start.year) * 12 + end.month - start.month + 1


def total_read_units(start: datetime, end: datetime) -> int:
    return months(start, end) + EDGE_PIECES


def most_rollups(charged: int) -> int:
    return ROLLUPS_PER_UNIT * charged


def observation_write_units(field_counts: Iterable[int]) -> int:
    """What recording observations of these many fields each counts."""
    return UNITS_PER_OBSERVED_VALUE * sum(field_counts)
