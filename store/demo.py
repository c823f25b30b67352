"""Demo data: the seed articles' examples, placed relative to now.

Loaded into an empty database only, never over data: a database holding a document in any
collection the demo writes is left as it is, and one log line says so. A server started with
`--demo` every time on a database that persists (a compose volume) seeds it once, and never
brings back what was deleted since nor rewrites what was changed. A seeding stopped half-way is
not finished by a later start (what it wrote is data): drop the database to load the demo again.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from bson import ObjectId

from settings import Settings
from store import trades
from store.chat.demo_chat import seed_demo_chat
from store.database import Database
from store.orders import users
from store.protocols import AsyncCollection, Document
from store.registry import DEMO_NAMES
from store.sensors import sensors
from store.series.demo_series import seed_demo_series
from store.times import hour_start

logger = logging.getLogger("arraygraph.store")


async def collections_holding_data(database: Database) -> list[str]:
    """The demo's collections that hold at least one document (one `_id` read each)."""
    held = []
    for name in DEMO_NAMES:
        if await database.collection(name).find_one({}, {"_id": 1}) is not None:
            held.append(name)
    return held


async def seed_demo_data(database: Database, *, now: datetime, settings: Settings) -> bool:
    """Load the demo into a database none of whose demo collections holds data; whether it did."""
    held = await collections_holding_data(database)
    if held:
        logger.info("demo data not loaded: the database already holds data (%s)", ", ".join(held))
        return False
    await seed_demo_sensors(database.collection(sensors.COLLECTION), now=now)
    await seed_demo_users(
        database.collection(users.COLLECTION), now=now, max_orders=settings.max_orders_per_user
    )
    await seed_demo_trades(database.collection(trades.COLLECTION))
    await seed_demo_series(database, now=now)
    await seed_demo_chat(database, now=now, cap=settings.messages_per_page)
    return True


async def seed_demo_sensors(coll: AsyncCollection, *, now: datetime) -> None:
    """The seed article's "Sensor 1" and "Sensor 2", with totals placed relative to now."""
    hour = hour_start(now)
    demo: dict[ObjectId, tuple[str, list[tuple[int, int, float | None]]]] = {
        ObjectId("5a934e000102030405000000"): (
            "Sensor 1",
            [(7, 1, None), (6, 2, 21.5), (3, 123, 19.0), (0, 12, 22.25)],
        ),
        ObjectId("5a934e000102030405000001"): ("Sensor 2", [(3, 123, None)]),
    }
    for sensor_id, (title, buckets) in demo.items():
        totals = []
        for hours_ago, count, value in buckets:
            bucket: Document = {"timestamp": hour - timedelta(hours=hours_ago), "count": count}
            if value is not None:
                bucket |= {"sum": value * count, "min": value, "max": value, "valueCount": count}
            totals.append(bucket)
        await coll.update_one(
            {"_id": sensor_id},
            {"$setOnInsert": {"title": title, "totals": totals, "lastEventAt": hour}},
            upsert=True,
        )


async def seed_demo_users(coll: AsyncCollection, *, now: datetime, max_orders: int) -> None:
    """User `u1` with 200 orders, one a minute back from now."""
    orders = [
        users.OrderDoc(
            id=f"order{i:03}", create_time=now - timedelta(minutes=200 - i), info=f"Info:order{i}"
        )
        for i in range(200)
    ]
    await users.upsert_orders(
        coll, user_id="u1", orders=orders, user_type="TYPE", name="user1", max_orders=max_orders
    )


async def seed_demo_trades(coll: AsyncCollection) -> None:
    """The article's buckets, as in its sample data (legacy `quantity` included)."""
    buckets = [
        {
            "_id": "123_1698349623",
            "customerId": 123,
            "page": 1,
            "count": 2,
            "history": [
                {"type": "buy", "ticker": "MDB", "qty": 419,
                 "date": datetime(2023, 10, 26, 15, 47, 3, 434000, tzinfo=UTC)},
                {"type": "sell", "ticker": "MDB", "qty": 29,
                 "date": datetime(2023, 10, 30, 9, 32, 57, 765000, tzinfo=UTC)},
            ],
        },
        {
            "_id": "456_1698765362",
            "customerId": 456,
            "page": 1,
            "count": 1,
            "history": [
                {"type": "buy", "ticker": "GOOG", "quantity": 50,
                 "date": datetime(2023, 10, 31, 11, 16, 2, 120000, tzinfo=UTC)},
            ],
        },
    ]  # fmt: skip
    for bucket in buckets:
        fields = {k: v for k, v in bucket.items() if k != "_id"}
        await coll.update_one({"_id": bucket["_id"]}, {"$setOnInsert": fields}, upsert=True)
