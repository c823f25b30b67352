"""Concurrent writers over real HTTP: every event counts exactly once."""

from __future__ import annotations

import asyncio

from tests.sensors.queries import RECORD_COUNTS_ONLY, count24h, create_sensor
from tests.support import Api


async def test_200_concurrent_record_calls_on_one_sensor_add_exactly_200(live_api: Api) -> None:
    sensor_id = await create_sensor(live_api, "Busy")
    event = {"sensorId": sensor_id, "at": "2022-09-12T12:59:59Z"}
    await live_api.data(RECORD_COUNTS_ONLY, {"events": [event]})
    before = await count24h(live_api, sensor_id)
    await asyncio.gather(
        *(live_api.data(RECORD_COUNTS_ONLY, {"events": [event]}) for _ in range(200))
    )
    assert await count24h(live_api, sensor_id) - before == 200
