"""HOUR points cost one zone conversion each: the minutes between two points are searched
only across a change of the zone's offset, never for a zone whose offset has seconds."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest

import resolvers.series_time as series_time
from resolvers.series_time import Granularity, point_starts, time_zone


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    found: list[datetime] = []
    original = series_time._next_local_hour

    def counted(moment: datetime, zone: object) -> datetime:
        found.append(moment)
        return original(moment, zone)  # type: ignore[arg-type]

    monkeypatch.setattr(series_time, "_next_local_hour", counted)
    return found


def test_ten_thousand_hours_of_local_mean_time_search_no_minute(searches: list[datetime]) -> None:
    start, end = datetime(1900, 1, 1, tzinfo=UTC), datetime(1901, 2, 21, tzinfo=UTC)
    starts = point_starts(start, end, Granularity.HOUR, time_zone("Africa/Monrovia"), limit=10_000)
    assert len(starts) == 9_985
    assert searches == []
    assert {later - earlier for earlier, later in itertools.pairwise(starts)} == {
        starts[1] - starts[0]
    }


def test_a_year_of_berlin_hours_searches_at_its_two_changes(searches: list[datetime]) -> None:
    start, end = datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC)
    starts = point_starts(start, end, Granularity.HOUR, time_zone("Europe/Berlin"), limit=10_000)
    assert len(starts) == 366 * 24
    assert len(searches) == 2
