"""What a sensor shows: the dense hourly window, value statistics, the last event."""

from __future__ import annotations

import pytest

from tests.sensors.queries import SENSOR, create_sensor, record
from tests.support import Api


async def test_hourly_is_the_24_hours_of_the_window_oldest_first(api: Api) -> None:
    api.clock.set("2022-09-12T13:20:00Z")
    sensor_id = await create_sensor(api, "Dense")
    await record(api, {"sensorId": sensor_id, "at": "2022-09-12T11:59:00Z", "count": 4})
    sensor = (await api.data(SENSOR, {"id": sensor_id}))["sensor"]
    hours = [h["hour"] for h in sensor["hourly"]]
    assert len(hours) == 24
    assert hours[0] == "2022-09-11T14:00:00.000Z"
    assert hours[-1] == "2022-09-12T13:00:00.000Z"
    assert [h["count"] for h in sensor["hourly"]].count(0) == 23
    assert sensor["hourly"][21]["count"] == 4


async def test_stats_cover_only_events_with_a_value(api: Api) -> None:
    api.clock.set("2022-09-12T13:20:00Z")
    sensor_id = await create_sensor(api, "Values")
    await record(
        api,
        {"sensorId": sensor_id, "at": "2022-09-12T12:00:00Z", "value": 2.0},
        {"sensorId": sensor_id, "at": "2022-09-12T12:10:00Z", "value": 6.0, "count": 3},
        {"sensorId": sensor_id, "at": "2022-09-12T13:00:00Z"},
    )
    await record(api, {"sensorId": sensor_id, "at": "2022-09-12T12:30:00Z", "value": -1.0})
    sensor = (await api.data(SENSOR, {"id": sensor_id}))["sensor"]
    assert sensor["count24h"] == 6
    stats = sensor["stats24h"]
    assert stats["count"] == 6
    assert stats["sum"] == pytest.approx(2.0 + 18.0 - 1.0)
    assert (stats["min"], stats["max"]) == (-1.0, 6.0)
    assert stats["mean"] == pytest.approx(19.0 / 5)
    last_hour = sensor["hourly"][-1]
    assert (last_hour["count"], last_hour["sum"], last_hour["mean"]) == (1, None, None)
    assert sensor["lastEventAt"] == "2022-09-12T13:00:00.000Z"


async def test_stats_are_null_without_any_value(api: Api) -> None:
    api.clock.set("2022-09-12T13:20:00Z")
    sensor_id = await create_sensor(api, "Counts only")
    await record(api, {"sensorId": sensor_id, "at": "2022-09-12T13:00:00Z", "count": 5})
    stats = (await api.data(SENSOR, {"id": sensor_id}))["sensor"]["stats24h"]
    assert stats == {"count": 5, "sum": None, "min": None, "max": None, "mean": None}


async def test_datetime_with_an_offset_is_stored_as_utc(api: Api) -> None:
    api.clock.set("2022-09-12T13:20:00Z")
    sensor_id = await create_sensor(api, "Offsets")
    await record(api, {"sensorId": sensor_id, "at": "2022-09-12T15:10:00+02:00"})
    sensor = (await api.data(SENSOR, {"id": sensor_id}))["sensor"]
    assert sensor["lastEventAt"] == "2022-09-12T13:10:00.000Z"
    assert sensor["hourly"][-1]["count"] == 1
