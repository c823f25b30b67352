"""Concurrent writers over real HTTP: every event counts exactly once."""

from __future__ import annotations

import asyncio

import httpx

from app import create_app
from settings import Settings
from store.database import open_database
from tests.sensors.queries import CREATE, RECORD_COUNTS_ONLY, SENSOR
from tests.support import FakeClock, live_server


async def test_200_concurrent_record_calls_on_one_sensor_add_exactly_200(clock: FakeClock) -> None:
    settings = Settings()
    app = create_app(settings, clock=clock, database=open_database(settings))
    async with live_server(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:

        async def post(query: str, variables: dict[str, object]) -> dict[str, object]:
            response = await client.post("/graphql", json={"query": query, "variables": variables})
            assert response.status_code == 200
            body: dict[str, object] = response.json()
            assert "errors" not in body, body
            return body

        created = await post(CREATE, {"t": "Busy"})
        sensor_id = created["data"]["createSensor"]["id"]  # type: ignore[index]
        event = {"sensorId": sensor_id, "at": "2022-09-12T12:59:59Z"}
        await post(RECORD_COUNTS_ONLY, {"events": [event]})
        before = (await post(SENSOR, {"id": sensor_id}))["data"]["sensor"]["count24h"]  # type: ignore[index]

        await asyncio.gather(*(post(RECORD_COUNTS_ONLY, {"events": [event]}) for _ in range(200)))

        after = (await post(SENSOR, {"id": sensor_id}))["data"]["sensor"]["count24h"]  # type: ignore[index]
        assert after - before == 200
