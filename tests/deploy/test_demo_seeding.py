"""`--demo` on every start (compose's ARRAYGRAPH_DEMO=1 with a persistent volume): a database
is seeded once, when none of the demo's collections holds data, and never written over."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from settings import Settings
from store.database import Database
from store.meta import COLLECTION as META
from store.registry import DEMO_NAMES, NAMES
from store.sensors.sensors import COLLECTION as SENSORS_COLLECTION
from tests.support import ApiFactory, FakeClock
from tests.support.demo import stored

SENSORS = "{ sensors { edges { node { id title } } } }"
U1_ORDERS = '{ user(userId: "u1") { orderCount } }'
SKIPPED = "demo data not loaded: the database already holds data"


async def non_empty(database: Database) -> set[str]:
    """The collections of every store module that hold a document."""
    return {
        name
        for name in NAMES
        if await database.collection(name).find_one({}, {"_id": 1}) is not None
    }


async def test_demo_seeding_fills_a_fresh_database(
    make_api: ApiFactory, database: Database
) -> None:
    # By the time the demo is seeded, the start has created every index and recorded the data
    # shape in `meta`: neither counts as data.
    async with make_api(Settings(), seed_demo=True, database=database) as api:
        sensors = await api.data(SENSORS)
        user = await api.data(U1_ORDERS)
    assert [e["node"]["title"] for e in sensors["sensors"]["edges"]] == ["Sensor 1", "Sensor 2"]
    assert user == {"user": {"orderCount": 200}}
    assert await non_empty(database) == {*DEMO_NAMES, META}  # every one it checks


async def test_demo_seeding_leaves_a_seeded_database_as_it_is(
    make_api: ApiFactory, database: Database, clock: FakeClock
) -> None:
    # Seeded before (its sensors: a seeding run again would add the demo's other collections).
    async with make_api(Settings(), demo=(SENSORS_COLLECTION,), database=database) as api:
        sensors = (await api.data(SENSORS))["sensors"]["edges"]
        first, second = (edge["node"]["id"] for edge in sensors)
        await api.data(f'mutation {{ renameSensor(id: "{first}", title: "Boiler") {{ id }} }}')
        await api.data(f'mutation {{ deleteSensor(id: "{second}") }}')
    before = await stored(database, DEMO_NAMES)
    clock.now += timedelta(days=3)  # a restart later: the demo's times would all move
    async with make_api(Settings(), seed_demo=True, database=database) as api:
        sensors = (await api.data(SENSORS))["sensors"]["edges"]
    assert [edge["node"]["title"] for edge in sensors] == ["Boiler"]  # not renamed back
    assert await stored(database, DEMO_NAMES) == before  # nothing rewritten or added


async def test_demo_seeding_skips_a_database_holding_other_data_and_says_so(
    make_api: ApiFactory, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    async with make_api(Settings(), database=database) as api:
        await api.data('mutation { createSensor(title: "Pump") { id } }')
    with caplog.at_level(logging.INFO, logger="arraygraph.store"):
        async with make_api(Settings(), seed_demo=True, database=database) as api:
            sensors = await api.data(SENSORS)
            user = await api.data(U1_ORDERS)
    assert [e["node"]["title"] for e in sensors["sensors"]["edges"]] == ["Pump"]
    assert user == {"user": None}
    assert await non_empty(database) - {META} == {"sensors"}
    skipped = [r.getMessage() for r in caplog.records if r.getMessage().startswith(SKIPPED)]
    assert skipped == [f"{SKIPPED} (sensors)"]
