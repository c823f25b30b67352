"""Rollups examined per request (the engine's counters, as a server's explain counts
`totalDocsExamined`): a series reads the rollup documents its range's pieces name, found on
the (`_id.m`, `_id.k`) index, whatever the number of rollups; a write touches the hour, day and
month documents of each observation's tag set.

Two stations (`north`, `south`) record a temperature at five past every hour, for 2 hours
(8 rollups) or for 1,000 hours (2,088 rollups).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.series.support import RECORD, SERIES, TOTAL, observation, tags
from tests.support import Api

HOURS = [2, 1_000]
START = datetime(2026, 1, 1, tzinfo=UTC)
STATIONS = ("north", "south")
DAY = {"m": "weather", "from": "2026-01-01T00:00:00Z", "to": "2026-01-02T00:00:00Z"}


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


async def _weather(api: Api, hours: int) -> None:
    observations = [
        observation(
            _iso(START + timedelta(hours=hour, minutes=5)),
            "weather",
            {"station": station},
            temperature=float(hour),
        )
        for hour in range(hours)
        for station in STATIONS
    ]
    for start in range(0, len(observations), 1_000):
        await api.data(RECORD, {"o": observations[start : start + 1_000]})


@pytest.mark.parametrize("hours", HOURS)
@pytest.mark.parametrize("granularity", ["HOUR", "DAY"])
async def test_series_over_a_day_examines_each_stations_day_rollup(
    api: Api, hours: int, granularity: str
) -> None:
    # A whole UTC day is read from its day documents: one a station; and the catalogue.
    await _weather(api, hours)
    variables = {**DAY, "g": granularity, "fields": ["temperature"]}
    assert await api.examines(SERIES, variables) == {"series": 2, "measurements": 1}


@pytest.mark.parametrize("hours", HOURS)
async def test_series_of_one_station_examines_every_stations_rollups_of_the_range(
    api: Api, hours: int
) -> None:
    # The index holds the measurement and the period, not the tags: the other station's day
    # document is examined too (and left out by the filter), as on a server.
    await _weather(api, hours)
    variables = {**DAY, "g": "HOUR", "tags": tags(station="north")}
    assert await api.examines(SERIES, variables) == {"series": 2, "measurements": 1}


@pytest.mark.parametrize("hours", HOURS)
async def test_series_with_minutes_at_its_edges_examines_their_hour_rollups(
    api: Api, hours: int
) -> None:
    # 00:30 to 02:15: the minutes of hours 0 and 2 (hour documents), hour 1 whole (the day
    # document's entry): 3 documents a station where they exist.
    await _weather(api, hours)
    variables = {**DAY, "from": "2026-01-01T00:30:00Z", "to": "2026-01-01T02:15:00Z"}
    expected = 6 if hours > 2 else 4  # with 2 hours of data, hour 2 has no document
    assert await api.examines(SERIES, {**variables, "g": "HOUR"}) == {
        "series": expected,
        "measurements": 1,
    }


@pytest.mark.parametrize("hours", HOURS)
async def test_series_total_over_a_day_examines_each_stations_day_rollup(
    api: Api, hours: int
) -> None:
    await _weather(api, hours)
    variables = {**DAY, "fields": ["temperature"]}
    assert await api.examines(TOTAL, variables) == {"series": 2, "measurements": 1}


@pytest.mark.parametrize("hours", HOURS)
async def test_record_observations_of_one_examines_its_three_rollups(api: Api, hours: int) -> None:
    # The hour, day and month documents of the observation's tag set, each by its `_id`.
    await _weather(api, hours)
    one = observation(_iso(START), "weather", {"station": "north"}, temperature=1.0)
    assert await api.examines(RECORD, {"o": [one]}) == {"series": 3}


@pytest.mark.parametrize(("hours", "rollups"), [(2, 8), (1_000, 2_088)])
async def test_series_total_over_eleven_centuries_examines_each_rollup_once(
    api: Api, hours: int, rollups: int
) -> None:
    # 1900 to 2999 names some 13,000 month documents a station, more than the measurement has
    # rollups: the index is read for the measurement alone, and the keys checked by hashing.
    await _weather(api, hours)
    centuries = {"from": "1900-01-01T00:00:00Z", "to": "2999-12-31T00:00:00Z"}
    variables = {**DAY, **centuries, "fields": ["temperature"]}
    assert await api.examines(TOTAL, variables) == {"series": rollups, "measurements": 1}
    [total] = (await api.data(TOTAL, variables))["seriesTotal"]
    assert total["count"] == 2 * hours
