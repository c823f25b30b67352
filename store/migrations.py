"""Data written by the articles' own code, brought to the shape arraygraph reads and writes.

Three shapes exist in the wild. `arraygraph migrate` converts them (idempotently: a second
run changes nothing), and the server refuses to start while any is present:
- trade buckets without `page` (the article's `{_id: "<customerId>_<seconds>", customerId,
  count, history}`): a customer's buckets are numbered 1, 2, ... in the order of the seconds
  in their `_id` (as numbers: the article does not pad them), and every bucket but the newest
  is sealed, as the article's own writes can leave an older bucket not full (and `before` is
  removed from any of that customer's buckets: its pages may have moved);
- orders whose `createTime` is a number of milliseconds (the article's `NumberLong`): each user's
  times become dates and its `orderList` is sorted again, on the server, by one update per user;
- sensors with hourly totals but no `lastEventAt` (the sensor article writes none): pages by
  count window only sensors whose `lastEventAt` lies in the window
  (`store/sensors/sensor_pages.py`), so each gets the start of its latest hour, a lower bound of
  its latest event that falls in the same windows (they start on the hour), by one update per
  sensor, on the server.

Then every chat session gets an owner and members (`store/chat/chat_member_migration.py`):
not a shape the server refuses, as a session a service creates has no owner either.

Whether a database holds neither is remembered in `meta.DATA_SHAPE` (`store/meta.py`), so the
check (a scan when no such document exists) runs once per database, not at every start.

`arraygraph migrate --check` only reads: it lists those shapes, and the free-text ids (user
ids, order ids, measurement names) stored before the API refused ids shaped like global ids
(`ambiguous_ids`): sent back, such an id reads as another object's, or is refused.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from store import meta, trades
from store.buckets.bucket_layout import BEFORE, SEALED
from store.chat import chat_members, chat_pages, chat_sessions
from store.chat.chat_member_migration import migrate_memberships
from store.database import Database
from store.expressions import literal
from store.orders import users
from store.protocols import AsyncCollection
from store.sensors import sensors
from store.series import measurements

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
BATCH = 1_000  # documents read at a time: a migration never holds a collection in memory

UNNUMBERED_BUCKETS = {"page": {"$exists": False}}
NUMERIC_ORDER_TIMES = {"orderList.createTime": {"$type": "number"}}
UNDATED_SENSORS = {"lastEventAt": {"$exists": False}, "totals.0": {"$exists": True}}
GLOBAL_ID_START = {"$regex": "^W"}  # the base64 of "[": every global id begins with it


class LegacyData(RuntimeError):
    """The database holds data in an article's shape: `arraygraph migrate` converts it."""


@dataclass(frozen=True, slots=True)
class Migrated:
    what: str
    documents: int


@dataclass(frozen=True, slots=True)
class AmbiguousId:
    """A stored free-text id that, sent back, would not name its own object."""

    kind: str  # "user", "order" or "measurement"
    id: str
    reads_as: str  # what the id names instead, as `reads_as` put it
    user_id: str | None = None  # an order's user


async def _documents(
    coll: AsyncCollection, where: dict[str, Any], projection: dict[str, Any]
) -> AsyncIterator[Any]:
    """The matching documents (`_id` and `projection`), a batch at a time, in `_id` order."""
    last: Any = None
    while True:
        page = where if last is None else {"$and": [where, {"_id": {"$gt": last}}]}
        batch = await coll.find(page, projection, sort=[("_id", 1)], limit=BATCH).to_list()
        for doc in batch:
            yield doc
        if len(batch) < BATCH:
            return
        last = batch[-1]["_id"]


async def _ids(coll: AsyncCollection, where: dict[str, Any]) -> AsyncIterator[Any]:
    """The `_id`s of the matching documents, a batch at a time, in `_id` order."""
    async for doc in _documents(coll, where, {"_id": 1}):
        yield doc["_id"]


def _seconds(bucket_id: Any) -> int:
    try:
        return int(str(bucket_id).rsplit("_", 1)[1])
    except (IndexError, ValueError):
        return 0


async def _number_customer(coll: AsyncCollection, customer_id: Any) -> int:
    """Pages by the seconds of the `_id`s; `before` (items in earlier pages, see
    `store/buckets/buckets.py`) removed, as pages may move: the customer is counted by a sum."""
    buckets = await coll.find(
        {"customerId": customer_id}, {"page": 1, SEALED: 1, BEFORE: 1}
    ).to_list()
    buckets.sort(key=lambda b: (_seconds(b["_id"]), str(b["_id"])))
    changed = 0
    for page, bucket in enumerate(buckets, start=1):
        wanted: dict[str, Any] = {"page": page}
        if page < len(buckets):
            wanted[SEALED] = True
        if BEFORE not in bucket and all(bucket.get(k) == v for k, v in wanted.items()):
            continue
        update: dict[str, Any] = {"$set": wanted}
        if BEFORE in bucket:
            update["$unset"] = {BEFORE: ""}
        result = await coll.update_one({"_id": bucket["_id"]}, update)
        changed += result.modified_count
    return changed


async def number_trade_buckets(coll: AsyncCollection) -> Migrated:
    """Number every customer's buckets that has an unnumbered one; seal all but its newest."""
    done: set[Any] = set()
    changed = 0
    async for bucket_id in _ids(coll, UNNUMBERED_BUCKETS):
        bucket = await coll.find_one({"_id": bucket_id}, {"customerId": 1})
        customer_id = None if bucket is None else bucket.get("customerId")
        if customer_id is None or repr(customer_id) in done:
            continue
        done.add(repr(customer_id))
        changed += await _number_customer(coll, customer_id)
    return Migrated("trade buckets numbered", changed)


def _dated_orders() -> list[dict[str, Any]]:
    """Numbers of milliseconds become dates (a date plus a number is a date), then the list is
    sorted as every write keeps it: newest first, then larger id first."""
    as_date = {
        "$cond": [
            {"$isNumber": "$$this.createTime"},
            {"$add": [literal(EPOCH), "$$this.createTime"]},
            "$$this.createTime",
        ]
    }
    dated = {
        "$map": {
            "input": "$orderList",
            "in": {"$mergeObjects": ["$$this", {"createTime": as_date}]},
        }
    }
    return [{"$set": {"orderList": {"$sortArray": {"input": dated, "sortBy": users.ORDER_SORT}}}}]


async def date_order_times(coll: AsyncCollection) -> Migrated:
    """Turn numeric order times into dates, on the server: nothing of a user is sent back."""
    changed = 0
    async for user_id in _ids(coll, NUMERIC_ORDER_TIMES):
        where = {"$and": [{"_id": user_id}, NUMERIC_ORDER_TIMES]}
        result = await coll.update_one(where, _dated_orders())
        changed += result.modified_count
    return Migrated("users' order times dated", changed)


async def date_sensor_events(coll: AsyncCollection) -> Migrated:
    """Give every sensor with totals and no `lastEventAt` its latest hour, on the server."""
    latest = [{"$set": {"lastEventAt": {"$max": "$totals.timestamp"}}}]
    changed = 0
    async for sensor_id in _ids(coll, UNDATED_SENSORS):
        where = {"$and": [{"_id": sensor_id}, UNDATED_SENSORS]}
        changed += (await coll.update_one(where, latest)).modified_count
    return Migrated("sensors' latest events dated", changed)


async def legacy_shapes(database: Database) -> list[str]:
    """What the database holds in an article's shape (one query per shape; a scan each)."""
    found = []
    if await database.collection(trades.COLLECTION).find_one(UNNUMBERED_BUCKETS, {"_id": 1}):
        found.append("trade buckets without a page number")
    if await database.collection(users.COLLECTION).find_one(NUMERIC_ORDER_TIMES, {"_id": 1}):
        found.append("orders whose createTime is a number")
    if await database.collection(sensors.COLLECTION).find_one(UNDATED_SENSORS, {"_id": 1}):
        found.append("sensors without lastEventAt")
    return found


async def _ambiguous_user_ids(
    coll: AsyncCollection, reads_as: Callable[[str], str | None]
) -> list[AmbiguousId]:
    where = {"$or": [{"userId": GLOBAL_ID_START}, {"orderList._id": GLOBAL_ID_START}]}
    found = []
    async for user in _documents(coll, where, {"userId": 1, "orderList._id": 1}):
        user_id = str(user.get("userId"))
        if (reading := reads_as(user_id)) is not None:
            found.append(AmbiguousId("user", user_id, reading))
        for order in user.get("orderList") or ():
            order_id = str(order.get("_id"))
            if (reading := reads_as(order_id)) is not None:
                found.append(AmbiguousId("order", order_id, reading, user_id=user_id))
    return found


async def ambiguous_ids(
    database: Database, *, reads_as: Callable[[str], str | None]
) -> list[AmbiguousId]:
    """Every stored user id, order id and measurement name for which `reads_as` tells what else
    it names (None: only its own object), in `_id` order; reads only the ids that begin as a
    global id does, a batch at a time."""
    found = await _ambiguous_user_ids(database.collection(users.COLLECTION), reads_as)
    async for name in _ids(database.collection(measurements.COLLECTION), {"_id": GLOBAL_ID_START}):
        if (reading := reads_as(str(name))) is not None:
            found.append(AmbiguousId("measurement", str(name), reading))
    return found


async def check_data_shape(database: Database) -> None:
    """Refuse to serve data in an article's shape; once a database is known clean, remember."""
    known = database.collection(meta.COLLECTION)
    if await meta.data_shape_known(known):
        return
    found = await legacy_shapes(database)
    if found:
        raise LegacyData(
            f"the database holds {' and '.join(found)} (an article's shape): "
            "run `arraygraph migrate` first"
        )
    await meta.record_data_shape(known)


async def migrate(database: Database, *, chat_owner: str | None = None) -> list[Migrated]:
    """Every migration, then every index (which older shapes could stop from being created),
    then chat's owners and members (on the unique index: a server adding members meanwhile
    never gets a second copy); `chat_owner` owns the sessions that have no message."""
    done = [
        await number_trade_buckets(database.collection(trades.COLLECTION)),
        await date_order_times(database.collection(users.COLLECTION)),
        await date_sensor_events(database.collection(sensors.COLLECTION)),
    ]
    await database.create_indexes()
    chat = await migrate_memberships(
        database.collection(chat_sessions.COLLECTION),
        pages=database.collection(chat_pages.COLLECTION),
        members=database.collection(chat_members.COLLECTION),
        default_owner=chat_owner,
    )
    done += [
        Migrated("chat sessions given an owner", chat.owned),
        Migrated("chat memberships written", chat.memberships),
        Migrated("chat sessions left without an owner (no message)", chat.unowned),
    ]
    await check_data_shape(database)
    return done
