"""The same store code against a real MongoDB, where MONGODB_URI points at one.

Skipped, visibly, everywhere else: no mongod can be installed on our machines.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from uuid import uuid4

import pytest
from pymongo.errors import WriteError

from settings import Settings
from store import sensor_pages, sensors
from store.database import Database, open_database

pytestmark = [
    pytest.mark.real_mongodb,
    pytest.mark.skipif(
        not os.environ.get("MONGODB_URI", "").startswith("mongodb"),
        reason="needs MONGODB_URI=mongodb://... pointing at a real MongoDB 8.0",
    ),
]


@pytest.fixture
async def real() -> AsyncIterator[Database]:
    settings = Settings.from_env()
    settings = Settings(mongodb_uri=settings.mongodb_uri, database=f"arraygraph_test_{uuid4().hex}")
    database = open_database(settings)
    await database.create_indexes()
    try:
        yield database
    finally:
        client = database.db.client  # type: ignore[attr-defined]
        await client.drop_database(settings.database)
        await database.close()


async def test_real_record_sensor_events_counts_in_one_command(real: Database) -> None:
    now = datetime(2022, 9, 12, 13, 0, tzinfo=UTC)
    doc = await sensors.create_sensor(real.sensors, title="real")
    events = [sensors.SensorEvent(doc.id, now, 1, float(i)) for i in range(100)]
    real.commands.reset()
    outcome = await sensors.record_sensor_events(real.sensors, events=events, now=now)
    assert outcome.missing == frozenset()
    assert real.commands.by_name["update"] == 1
    page = await sensor_pages.list_sensors(real.sensors, now=now, first=10)
    assert page.count24h == (100,)


async def test_real_server_rejects_conflicting_operators(real: Database) -> None:
    with pytest.raises(WriteError) as raised:
        await real.sensors.update_one(
            {"_id": "x"}, {"$pull": {"a": 1}, "$push": {"a": 2}}, upsert=True
        )
    assert raised.value.code == 40
