"""A payload's list longer than a page completes a chunk at a time
(runtime/execution/list_chunks.py), the event loop free between chunks: a `recordSensorEvents` over
250 sensors answers every sensor and its 24 hours exactly as a short one does, in three chunks of at
most 100, none of its fields left to graphql-core."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId

from runtime.execution import list_chunks
from store.sensors import sensors as store
from tests.support import Api
from tests.support.executed import count_calls, executed_fields

SENSORS = 250
RECORD = """mutation($e: [SensorEventInput!]!) { recordSensorEvents(events: $e) {
  sensors { sensorId title count24h stats24h { count sum } hourly { hour count sum mean } } } }"""


async def test_a_long_payload_completes_in_chunks_as_a_short_one(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = [ObjectId() for _ in range(SENSORS)]
    await api.collection(store.COLLECTION).insert_many(
        [{"_id": i, "title": f"s{n}", "totals": []} for n, i in enumerate(ids)]
    )
    events = [{"sensorId": str(i), "at": "2022-09-12T12:30:00Z", "value": 2.0} for i in ids]
    turns: list[str] = []
    count_calls(monkeypatch, list_chunks, "_next_chunk", turns)
    executed = executed_fields(monkeypatch)
    data = await api.data(RECORD, {"e": events})
    sensors: list[dict[str, Any]] = data["recordSensorEvents"]["sensors"]
    assert [s["sensorId"] for s in sensors] == [str(i) for i in ids]
    assert len(turns) == 2  # between three chunks: 100, 100, 50
    assert "hourly" not in executed and "sensorId" not in executed
    short = (await api.data(RECORD, {"e": events[:1]}))["recordSensorEvents"]["sensors"][0]
    first = sensors[0]
    assert first["stats24h"] == {"count": 1, "sum": 2.0}
    assert first["hourly"][-2] == {**short["hourly"][-2], "count": 1, "sum": 2.0, "mean": 2.0}
    assert len(first["hourly"]) == 24
