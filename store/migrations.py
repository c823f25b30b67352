"""Data written by the articles' own code, brought to the shape arraygraph reads and writes.

Two shapes exist in the wild (`arraygraph migrate` runs both; each is idempotent, so a second
run changes nothing):
- trade buckets without `page` (the article's `{_id: "<customerId>_<seconds>", customerId,
  count, history}`): each customer's buckets are numbered 1, 2, ... in `_id` order, which is
  the article's page order. Two such buckets of one customer also stop the unique
  `(customerId, page)` index from being created at start-up.
- orders whose `createTime` is a number of milliseconds (the article's `NumberLong`): each
  becomes a date, and the user's `orderList` is sorted again (numbers sort before every date).

Each document is rewritten only if it still holds what was read (a compare-and-set on the old
value), so running it beside a live server never overwrites a newer write.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from store import trades, users
from store.database import Database
from store.protocols import AsyncCollection, Document

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Migrated:
    what: str
    documents: int


async def number_trade_buckets(coll: AsyncCollection) -> Migrated:
    """Give every bucket of a customer with an unnumbered bucket its page, in `_id` order."""
    unnumbered = await coll.find({"page": {"$exists": False}}, {"customerId": 1}).to_list()
    changed = 0
    for customer_id in sorted({doc["customerId"] for doc in unnumbered}):
        buckets = await coll.find(
            {"customerId": customer_id}, {"page": 1}, sort=[("_id", 1)]
        ).to_list()
        for page, bucket in enumerate(buckets, start=1):
            if bucket.get("page") == page:
                continue
            where = {"_id": bucket["_id"], "page": bucket.get("page")}
            if "page" not in bucket:
                where["page"] = {"$exists": False}
            result = await coll.update_one(where, {"$set": {"page": page}})
            changed += result.modified_count
    return Migrated("trade buckets numbered", changed)


def _order_time(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return EPOCH + timedelta(milliseconds=int(value))
    return value


def _sorted_orders(orders: list[Document]) -> list[Document]:
    converted = [{**order, "createTime": _order_time(order.get("createTime"))} for order in orders]
    # Newest first, then larger id first: the order every write keeps (store/users.py).
    converted.sort(key=lambda order: str(order.get("_id")), reverse=True)
    converted.sort(key=lambda order: order["createTime"], reverse=True)
    return converted


async def date_order_times(coll: AsyncCollection) -> Migrated:
    """Turn numeric order times into dates, and sort each such user's orders again."""
    legacy = await coll.find(
        {"orderList.createTime": {"$type": "number"}}, {"orderList": 1}
    ).to_list()
    changed = 0
    for user in legacy:
        orders = user.get("orderList") or []
        result = await coll.update_one(
            {"_id": user["_id"], "orderList": orders},
            {"$set": {"orderList": _sorted_orders(orders)}},
        )
        changed += result.modified_count
    return Migrated("users' order times dated", changed)


async def migrate(database: Database) -> list[Migrated]:
    """Every migration, then every index (which older shapes could stop from being created)."""
    done = [
        await number_trade_buckets(database.collection(trades.COLLECTION)),
        await date_order_times(database.collection(users.COLLECTION)),
    ]
    await database.create_indexes()
    return done
