"""GraphQL documents the sensor tests send."""

from __future__ import annotations

from typing import Any

from tests.support import Api

CREATE = "mutation($t: String!) { createSensor(title: $t) { id sensorId title count24h } }"
RECORD = """
mutation($events: [SensorEventInput!]!) {
  recordSensorEvents(events: $events) {
    accepted
    rejected { index sensorId code message }
    sensors { sensorId title count24h }
  }
}
"""
RECORD_COUNTS_ONLY = """
mutation($events: [SensorEventInput!]!) {
  recordSensorEvents(events: $events) { accepted rejected { index code } }
}
"""
SENSOR = """
query($id: ID!) {
  sensor(id: $id) {
    id title count24h lastEventAt
    stats24h { count sum min max mean }
    hourly { hour count sum min max mean }
  }
}
"""


async def create_sensor(api: Api, title: str) -> str:
    data = await api.data(CREATE, {"t": title})
    sensor_id: str = data["createSensor"]["sensorId"]
    return sensor_id


async def record(api: Api, *events: dict[str, Any]) -> dict[str, Any]:
    data = await api.data(RECORD, {"events": list(events)})
    payload: dict[str, Any] = data["recordSensorEvents"]
    return payload


async def count24h(api: Api, sensor_id: str) -> int:
    data = await api.data(SENSOR, {"id": sensor_id})
    count: int = data["sensor"]["count24h"]
    return count
