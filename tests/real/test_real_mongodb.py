"""The same store code against a real MongoDB, where MONGODB_URI points at one.

Skipped, visibly, everywhere else: no mongod can be installed on our machines.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest
from pymongo.errors import WriteError

from settings import Settings
from store import trades
from store.database import Database, open_database
from store.orders import users
from store.orders.order_pages import PageArgs
from store.sensors import sensor_pages, sensors

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
    doc = await sensors.create_sensor(real.collection(sensors.COLLECTION), title="real")
    events = [sensors.SensorEvent(doc.id, now, 1, float(i)) for i in range(100)]
    real.commands.reset()
    outcome = await sensors.record_sensor_events(
        real.collection(sensors.COLLECTION), events=events, now=now
    )
    assert outcome.missing == frozenset()
    assert real.commands.count == 1
    page = await sensor_pages.list_sensors(real.collection(sensors.COLLECTION), now=now, first=10)
    assert page.count24h == (100,)


async def test_real_server_rejects_conflicting_operators(real: Database) -> None:
    with pytest.raises(WriteError) as raised:
        await real.collection(sensors.COLLECTION).update_one(
            {"_id": "x"}, {"$pull": {"a": 1}, "$push": {"a": 2}}, upsert=True
        )
    assert raised.value.code == 40


async def test_real_upsert_orders_and_page(real: Database) -> None:
    base = datetime(2024, 1, 1, tzinfo=UTC)
    orders = [users.OrderDoc(f"o{i:03}", base + timedelta(minutes=i), "$$ROOT") for i in range(50)]
    doc = await users.upsert_orders(
        real.collection(users.COLLECTION), user_id="u", orders=orders, max_orders=100
    )
    assert doc.order_count == 50
    args = PageArgs(forward=True, size=5, max_create_time=base + timedelta(minutes=20))
    page = (await users.load_users(real.collection(users.COLLECTION), user_ids=["u"], page=args))[
        "u"
    ].page
    assert page is not None
    assert [o.id for o in page.orders] == ["o020", "o019", "o018", "o017", "o016"]
    assert page.total == 21
    assert page.orders[0].info == "$$ROOT"


async def test_real_record_trades_fills_buckets_in_order(real: Database) -> None:
    base = datetime(2024, 1, 1, tzinfo=UTC)
    batch = [trades.TradeDoc("buy", "MDB", q, base + timedelta(seconds=q)) for q in range(1, 26)]
    pages = await trades.record_trades(
        real.collection(trades.COLLECTION), customer_id=7, trades=batch, size=10
    )
    assert pages == [1] * 10 + [2] * 10 + [3] * 5
    counts = await trades.customer_counts(real.collection(trades.COLLECTION), customer_ids=[7])
    assert (counts[7].trade_count, counts[7].page_count) == (25, 3)
