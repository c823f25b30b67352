"""Data the benchmark servers start with, in the shape the server writes: sensors with hourly
totals and `lastEventAt` (the first 24 through `record_sensor_events`, the rest inserted as it
leaves them, checked against the first), users with embedded orders (`upsert_orders`), and
customers with trade buckets (`record_trades`, 100 trades a call, as the API allows).

A server started with `SEED_VARIABLE` set (bench/apps.py: `seeded`) seeds itself at start-up;
the benchmark derives what it asks for (ids, titles, customers) from the same `Seed`."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta

import bson
from bson import ObjectId

from settings import MAX_ORDERS_PER_USER, MAX_TRADES_PER_CALL, TRADES_PER_BUCKET, Settings
from store import trades
from store.database import Database
from store.orders import users
from store.protocols import Document
from store.sensors import sensors
from store.sensors.sensors import SensorEvent
from store.times import hour_start
from store.trades import TradeDoc

SEED_VARIABLE = "ARRAYGRAPH_BENCH_SEED"
CUSTOMER = 1_000  # the customer whose trades page is read
NEIGHBOUR = CUSTOMER + 1  # next to it on the (customerId, page) index
CUSTOMER_TRADES = 100
RECORDED = 24  # sensors seeded through record_sensor_events: one of each number of hours
TRADES_START = datetime(2024, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Seed:
    sensors: int = 0
    orders: int = 0  # in users of MAX_ORDERS_PER_USER orders (the last may hold fewer)
    neighbour_trades: int = 0  # trades of NEIGHBOUR; CUSTOMER always has CUSTOMER_TRADES

    def encode(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def decode(cls, text: str) -> Seed:
        return cls(**json.loads(text))

    def sensor_id(self, number: int) -> ObjectId:
        """The id of sensor `number`: fixed, so the benchmark can name it."""
        return ObjectId(f"be{number:022x}")

    def busy_sensor(self) -> int:
        """A sensor near the middle with events in every hour of the window (the same number
        of buckets in every seed, so that reads and writes of it compare across seeds)."""
        return (self.sensors // 2) // 24 * 24 + 23

    def user_ids(self) -> list[str]:
        users_needed = -(-self.orders // MAX_ORDERS_PER_USER)
        return [f"bench{n}" for n in range(users_needed)]


def _sensor_events(seed: Seed, number: int, now: datetime) -> list[SensorEvent]:
    """Sensor n has events in its newest n % 24 + 1 hours (at most the whole window): two an
    hour, with a value."""
    hour, sensor_id = hour_start(now), seed.sensor_id(number)
    return [
        SensorEvent(
            sensor_id,
            min(hour - timedelta(hours=back) + timedelta(minutes=number % 60), now),
            count=2,
            value=float(number % 97),
        )
        for back in reversed(range(number % 24 + 1))
    ]


def _sensor_document(seed: Seed, number: int, now: datetime) -> Document:
    """What `record_sensor_events` leaves after `_sensor_events(seed, number, now)` on a new
    sensor (checked against it for the first sensors of every seed)."""
    events = _sensor_events(seed, number, now)
    totals = [
        {"timestamp": hour_start(e.at), "count": e.count, "sum": e.value * e.count,
         "min": e.value, "max": e.value, "valueCount": e.count}
        for e in events
        if e.value is not None
    ]  # fmt: skip
    last = max(e.at for e in events)
    return {"_id": seed.sensor_id(number), "title": f"sensor {number:06}", "totals": totals,
            "lastEventAt": last}  # fmt: skip


async def seed_sensors(database: Database, seed: Seed, now: datetime) -> None:
    """The first RECORDED sensors through `record_sensor_events`, the rest inserted as it
    would have left them (recording 125,000 events sensor by sensor through the embedded
    engine's pipeline updates takes over a minute); the two are checked to agree."""
    coll = database.collection(sensors.COLLECTION)
    recorded = min(RECORDED, seed.sensors)
    if recorded:
        await coll.insert_many(
            [{"_id": seed.sensor_id(n), "title": f"sensor {n:06}", "totals": []}
             for n in range(recorded)]
        )  # fmt: skip
        events = [e for n in range(recorded) for e in _sensor_events(seed, n, now)]
        await sensors.record_sensor_events(coll, events=events, now=now)
        for n in range(recorded):
            stored = await coll.find_one({"_id": seed.sensor_id(n)})
            assert stored == _sensor_document(seed, n, now), "the seed's shape drifted"
    rest = [_sensor_document(seed, n, now) for n in range(recorded, seed.sensors)]
    for first in range(0, len(rest), 1_000):
        await coll.insert_many(rest[first : first + 1_000])


async def seed_orders(database: Database, seed: Seed, now: datetime, settings: Settings) -> None:
    coll = database.collection(users.COLLECTION)
    remaining = seed.orders
    for user_id in seed.user_ids():
        count = min(remaining, MAX_ORDERS_PER_USER)
        remaining -= count
        orders = [
            users.OrderDoc(
                id=f"o{i:06}", create_time=now - timedelta(minutes=count - i), info=f"Info:{i}"
            )
            for i in range(count)
        ]
        await users.upsert_orders(
            coll, user_id=user_id, orders=orders, user_type="TYPE", name=user_id,
            max_orders=settings.max_orders_per_user,
        )  # fmt: skip


async def _trades(database: Database, customer: int, count: int, settings: Settings) -> None:
    coll = database.collection(trades.COLLECTION)
    for first in range(0, count, MAX_TRADES_PER_CALL):
        batch = [
            TradeDoc("buy" if n % 2 else "sell", "MDB", n + 1, TRADES_START + timedelta(minutes=n))
            for n in range(first, min(first + MAX_TRADES_PER_CALL, count))
        ]
        await trades.record_trades(
            coll, customer_id=customer, trades=batch, size=settings.trades_per_bucket
        )


async def seed_all(database: Database, seed: Seed, now: datetime, settings: Settings) -> None:
    now = now.replace(microsecond=now.microsecond // 1000 * 1000)  # as BSON stores it
    await seed_sensors(database, seed, now)
    await seed_orders(database, seed, now, settings)
    await _trades(database, CUSTOMER, CUSTOMER_TRADES, settings)
    await _trades(database, NEIGHBOUR, seed.neighbour_trades, settings)


def data_bytes(seed: Seed) -> int:
    """The BSON size of the documents `seed_all` writes (the engine's own fields aside)."""
    now = datetime(2025, 1, 1, 12, 30, tzinfo=UTC)
    size = sum(len(bson.encode(_sensor_document(seed, n, now))) for n in range(seed.sensors))
    remaining = seed.orders
    for user_id in seed.user_ids():
        count = min(remaining, MAX_ORDERS_PER_USER)
        remaining -= count
        orders = [{"_id": f"o{i:06}", "info": f"Info:{i}", "createTime": now} for i in range(count)]
        user = {"_id": ObjectId(), "userId": user_id, "userType": "TYPE", "name": user_id}
        size += len(bson.encode({**user, "orderList": orders}))
    for customer, count in ((CUSTOMER, CUSTOMER_TRADES), (NEIGHBOUR, seed.neighbour_trades)):
        for page, first in enumerate(range(0, count, TRADES_PER_BUCKET), start=1):
            held = min(TRADES_PER_BUCKET, count - first)
            history = [{"type": "buy", "ticker": "MDB", "qty": 1, "date": now}] * held
            bucket = {"_id": f"{customer}_{0:010}", "customerId": customer, "page": page}
            bucket |= {"count": held, "history": history, "sealed": True, "before": first}
            size += len(bson.encode(bucket))
    return size
