"""A series is charged for every point it builds and every field's stats in each, whatever
its selection asks of them: `POINT_UNITS` a point, `STATS_UNITS` a field's stats.

`series { start }` over a measurement of 32 fields was charged two units a point, while it
built 32 fields' stats for each: four aliases of 3,125 such points took 1.7 s of one loop
slice. Here the work counted, at the limits' edges, stays within what the query is charged,
and the query is allowed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import resolvers.series
from resolvers.series import PointRecord
from resolvers.series_reads import POINT_UNITS, STATS_UNITS
from settings import (
    MAX_COST,
    MAX_FIELDS_PER_MEASUREMENT,
    MAX_SERIES_POINTS,
    MAX_SERIES_VALUES,
    Settings,
)
from tests.limits.support import cost_of
from tests.series.support import observation, record
from tests.support import Api, ApiFactory

STARTS = """query($m: String!, $from: DateTime!, $to: DateTime!, $g: Granularity!, $tz: String,
               $fields: [String!]) {
  series(measurement: $m, from: $from, to: $to, granularity: $g, timeZone: $tz,
         fields: $fields) { start }
}"""
WIDE = {f"f{i}": 1.0 for i in range(MAX_FIELDS_PER_MEASUREMENT)}


class Built:
    """The points and fields' stats the resolver built."""

    def __init__(self) -> None:
        self.points = 0
        self.values = 0

    @property
    def work(self) -> int:
        return POINT_UNITS * self.points + STATS_UNITS * self.values


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> Iterator[Built]:
    counted = Built()
    original = resolvers.series.series

    async def counting(*args: Any, **kwargs: Any) -> list[PointRecord]:
        points = await original(*args, **kwargs)
        counted.points += len(points)
        counted.values += sum(len(point.values) for point in points)
        return points

    monkeypatch.setattr(resolvers.series, "series", counting)
    yield counted


async def _charged_and_built(
    api: Api, make_api: ApiFactory, settings: Settings, variables: dict[str, Any]
) -> int:
    charged = await cost_of(make_api, settings, STARTS, variables)
    assert charged <= MAX_COST  # allowed: it runs
    assert "errors" not in await api.post(STARTS, variables)
    return charged


async def test_the_most_minutes_of_one_field_are_charged_their_work(
    api: Api, make_api: ApiFactory, settings: Settings, built: Built
) -> None:
    await record(api, observation("2024-01-01T00:00:00Z", v=1))
    variables = {
        "m": "m", "g": "MINUTE", "fields": ["v"],
        "from": "2024-01-01T00:00:00Z", "to": "2024-01-02T17:40:00Z",
    }  # fmt: skip
    charged = await _charged_and_built(api, make_api, settings, variables)
    assert (built.points, built.values) == (MAX_SERIES_POINTS, MAX_SERIES_POINTS)
    assert built.work <= charged


async def test_every_field_of_a_wide_measurement_is_charged_when_only_starts_are_asked(
    api: Api, make_api: ApiFactory, settings: Settings, built: Built
) -> None:
    await record(api, observation("1900-01-01T00:00:00Z", "wide", None, **WIDE))
    # 499 hours in local mean time: 500 points with the partial hour it starts with.
    hours = MAX_SERIES_VALUES // MAX_FIELDS_PER_MEASUREMENT - 1
    variables = {
        "m": "wide", "g": "HOUR", "tz": "Africa/Monrovia",
        "from": "1900-01-01T00:00:00Z",
        "to": (datetime(1900, 1, 1, tzinfo=UTC) + timedelta(hours=hours)).isoformat(),
    }  # fmt: skip
    charged = await _charged_and_built(api, make_api, settings, variables)
    assert built.points == hours + 1  # the partial hour the offset of seconds starts with
    assert built.values == built.points * MAX_FIELDS_PER_MEASUREMENT
    assert built.work <= charged
