"""The seed article's example (../shared/seeds/000), replayed with an injected clock."""

from __future__ import annotations

from bson import ObjectId

from tests.sensors.queries import count24h, create_sensor, record
from tests.support import Api


async def test_count24h_follows_the_seed_example(api: Api) -> None:
    api.clock.set("2022-09-12T06:00:10Z")
    sensor_1 = await create_sensor(api, "Sensor 1")
    await record(api, {"sensorId": sensor_1, "at": "2022-09-12T06:00:00Z"})
    api.clock.set("2022-09-12T07:00:10Z")
    await record(api, {"sensorId": sensor_1, "at": "2022-09-12T07:00:00Z", "count": 2})
    api.clock.set("2022-09-12T10:00:10Z")
    await record(api, {"sensorId": sensor_1, "at": "2022-09-12T10:00:00Z", "count": 123})

    api.clock.set("2022-09-12T13:00:00Z")
    assert await count24h(api, sensor_1) == 126

    api.clock.set("2022-09-13T07:00:00Z")
    assert await count24h(api, sensor_1) == 123  # only the 10:00 bucket is left


async def test_count24h_of_a_sensor_stored_without_totals(api: Api) -> None:
    sensor_2 = ObjectId("5a934e000102030405000001")
    await api.collection("sensors").insert_one({"_id": sensor_2, "title": "Sensor 2"})
    api.clock.set("2022-09-12T10:00:10Z")
    payload = await record(
        api, {"sensorId": str(sensor_2), "at": "2022-09-12T10:00:00Z", "count": 123}
    )
    assert payload["accepted"] == 1
    api.clock.set("2022-09-12T13:00:00Z")
    assert await count24h(api, str(sensor_2)) == 123


async def test_write_drops_buckets_that_left_the_window(api: Api) -> None:
    api.clock.set("2022-09-12T06:00:10Z")
    sensor_id = await create_sensor(api, "Aging")
    await record(api, {"sensorId": sensor_id, "at": "2022-09-12T06:00:00Z"})
    api.clock.set("2022-09-13T08:30:00Z")
    await record(api, {"sensorId": sensor_id, "at": "2022-09-13T08:00:00Z"})
    stored = await api.collection("sensors").find_one({"_id": ObjectId(sensor_id)})
    assert [bucket["count"] for bucket in stored["totals"]] == [1]
    assert stored["totals"][0]["timestamp"].hour == 8
