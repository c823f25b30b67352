"""Sums never become non-finite through a write, and reads never fail on stored numbers that
are (written before values were bounded, or directly): GraphQL Float cannot carry Infinity or
NaN, so they saturate or read as null."""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime

import pytest
from bson import ObjectId

from settings import MAX_ABS_SENSOR_VALUE
from tests.ingestion.support import AT, RECORD_OBSERVATIONS, observations_call
from tests.sensors.queries import RECORD, SENSOR, create_sensor
from tests.series.support import SERIES, TOTAL
from tests.support import Api, assert_rejected

FLOAT_MAX = sys.float_info.max
HOUR = datetime(2022, 9, 12, 12, tzinfo=UTC)  # inside the window at the fake clock's start
PAGE = "{ sensors(first: 10) { edges { node { sensorId stats24h { sum min max mean } } } } }"
DAY = {"m": "m", "from": "2024-01-01T00:00:00Z", "to": "2024-01-02T00:00:00Z"}


async def _stored_sensor(api: Api, *hours: dict[str, float]) -> str:
    """A sensor whose hours hold these stats as stored, whatever a write would allow."""
    sensor_id = ObjectId()
    totals = [
        {"timestamp": HOUR.replace(hour=HOUR.hour - i), "count": 1, "valueCount": 1, **stats}
        for i, stats in enumerate(hours)
    ]
    await api.collection("sensors").insert_one({"_id": sensor_id, "title": "Old", "totals": totals})
    return str(sensor_id)


async def _stats(api: Api, sensor_id: str) -> dict[str, float | None]:
    data = await api.data(SENSOR, {"id": sensor_id})
    stats: dict[str, float | None] = data["sensor"]["stats24h"]
    return stats


async def test_record_sensor_events_refuses_values_whose_sum_would_overflow(api: Api) -> None:
    sensor_id = await create_sensor(api, "Boiler")
    events = [{"sensorId": sensor_id, "at": AT, "value": 1.7e308}] * 2
    body = await assert_rejected(
        api, RECORD, {"events": events}, code="BAD_USER_INPUT", argument="events[0].value"
    )
    assert "1e+100" in body["errors"][0]["message"]


async def test_record_sensor_events_takes_values_up_to_the_bound(api: Api) -> None:
    sensor_id = await create_sensor(api, "Boiler")
    event = {"sensorId": sensor_id, "at": AT, "count": 2**31 - 1, "value": -MAX_ABS_SENSOR_VALUE}
    await api.data(RECORD, {"events": [event] * 1_000})
    stats = await _stats(api, sensor_id)
    assert stats["sum"] == pytest.approx(-MAX_ABS_SENSOR_VALUE * (2**31 - 1) * 1_000)
    assert stats["mean"] == pytest.approx(-MAX_ABS_SENSOR_VALUE)


async def test_record_sensor_events_at_the_bound_from_concurrent_writers_stay_finite(
    api: Api,
) -> None:
    sensor_id = await create_sensor(api, "Boiler")
    event = {"sensorId": sensor_id, "at": AT, "count": 2**31 - 1, "value": MAX_ABS_SENSOR_VALUE}
    await asyncio.gather(*(api.data(RECORD, {"events": [event] * 1_000}) for _ in range(20)))
    [doc] = await api.collection("sensors").find({}).to_list()
    assert doc["totals"][0]["sum"] == pytest.approx(MAX_ABS_SENSOR_VALUE * (2**31 - 1) * 20_000)


async def test_sensor_with_a_stored_infinite_sum_reads_saturated(api: Api) -> None:
    sensor_id = await _stored_sensor(api, {"sum": float("inf"), "min": 1.0, "max": 2.0})
    stats = await _stats(api, sensor_id)
    assert stats == {"count": 1, "sum": FLOAT_MAX, "min": 1.0, "max": 2.0, "mean": FLOAT_MAX}


async def test_sensor_with_stored_nan_stats_reads_null(api: Api) -> None:
    nan = float("nan")
    sensor_id = await _stored_sensor(api, {"sum": nan, "min": nan, "max": -float("inf")})
    stats = await _stats(api, sensor_id)
    assert stats == {"count": 1, "sum": None, "min": None, "max": -FLOAT_MAX, "mean": None}


async def test_sensor_with_two_hours_near_the_largest_double_reads_their_mean(api: Api) -> None:
    sensor_id = await _stored_sensor(api, {"sum": 1.7e308}, {"sum": 1.7e308})
    stats = await _stats(api, sensor_id)
    assert (stats["sum"], stats["mean"]) == (FLOAT_MAX, 1.7e308)


async def test_sensor_hourly_with_a_stored_infinite_sum_reads_saturated(api: Api) -> None:
    sensor_id = await _stored_sensor(api, {"sum": -float("inf")})
    data = await api.data(SENSOR, {"id": sensor_id})
    [hour] = [h for h in data["sensor"]["hourly"] if h["count"]]
    assert (hour["sum"], hour["mean"]) == (-FLOAT_MAX, -FLOAT_MAX)


async def test_sensors_page_holding_a_stored_infinite_sum_reads_without_error(api: Api) -> None:
    await create_sensor(api, "Fine")
    sensor_id = await _stored_sensor(api, {"sum": float("inf")})
    data = await api.data(PAGE)
    by_id = {edge["node"]["sensorId"]: edge["node"] for edge in data["sensors"]["edges"]}
    assert by_id[sensor_id]["stats24h"]["sum"] == FLOAT_MAX
    assert len(by_id) == 2


async def test_sensor_with_a_stored_infinite_count_reads_without_error(api: Api) -> None:
    sensor_id = await _stored_sensor(api, {"sum": 1.0})
    await api.collection("sensors").update_one(
        {"_id": ObjectId(sensor_id)}, {"$set": {"totals.0.count": float("inf")}}
    )
    data = await api.data(SENSOR, {"id": sensor_id})
    assert data["sensor"]["count24h"] == 2**31 - 1


async def test_record_observations_refuses_values_whose_sum_would_overflow(api: Api) -> None:
    await api.data(RECORD_OBSERVATIONS, observations_call(None))
    call = observations_call(None, value=1.7e308)
    call["o"] = call["o"] * 2
    argument = "observations[0].fields[0].value"
    await assert_rejected(api, RECORD_OBSERVATIONS, call, code="BAD_USER_INPUT", argument=argument)


async def _series_with_stored(api: Api, value: float) -> None:
    """One recorded observation whose stored sums are then set to `value` directly."""
    await api.data(RECORD_OBSERVATIONS, observations_call(None))
    coll = api.collection("series")
    for doc in await coll.find({}).to_list():  # the hour's, the day's and the month's rollups
        paths = ["tot.v.s", *(f"e.{entry}.v.s" for entry in doc["e"])]
        await coll.update_one({"_id": doc["_id"]}, {"$set": dict.fromkeys(paths, value)})


async def test_series_total_with_a_stored_infinite_sum_reads_saturated(api: Api) -> None:
    await _series_with_stored(api, float("inf"))
    data = await api.data(TOTAL, DAY)
    [stats] = data["seriesTotal"]
    assert (stats["sum"], stats["count"], stats["mean"]) == (FLOAT_MAX, 1, FLOAT_MAX)


async def test_series_with_a_stored_infinite_sum_reads_saturated(api: Api) -> None:
    await _series_with_stored(api, -float("inf"))
    data = await api.data(SERIES, {**DAY, "g": "HOUR"})
    [point] = [p for p in data["series"] if p["values"][0]["count"]]
    assert (point["values"][0]["sum"], point["values"][0]["mean"]) == (-FLOAT_MAX, -FLOAT_MAX)


async def test_series_total_with_a_stored_nan_sum_reads_zero_and_a_null_mean(api: Api) -> None:
    await _series_with_stored(api, float("nan"))
    data = await api.data(TOTAL, DAY)
    [stats] = data["seriesTotal"]
    assert (stats["sum"], stats["mean"]) == (0.0, None)


async def test_engine_addition_past_the_largest_double_is_infinity(api: Api) -> None:
    # MongoDB 8.0: doubles overflow to Infinity, without an error; the engine does the same.
    coll = api.collection("sensors")
    await coll.insert_one({"_id": 1, "s": 1.7e308})
    await coll.update_one({"_id": 1}, [{"$set": {"s": {"$add": ["$s", 1.7e308]}}}])
    await coll.update_one({"_id": 1}, {"$inc": {"t": 1.7e308}})
    await coll.update_one({"_id": 1}, {"$inc": {"t": 1.7e308}})
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "s": float("inf"), "t": float("inf")}
