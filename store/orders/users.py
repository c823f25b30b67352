"""Users and their embedded orders (../shared/seeds/001).

Document: `{_id, userId (unique), userType, name, orderList: [{_id: <string>, info,
createTime}]}`, with `orderList` sorted newest first (`createTime`, then `_id`, descending) by
every write, so reads never sort. There is deliberately no index on `orderList.createTime`: the
article measured it making updates ten times slower, and the page query never uses it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pymongo import ASCENDING, IndexModel, ReturnDocument
from pymongo.errors import DuplicateKeyError, OperationFailure

from store.errors import StoredLimitReached
from store.expressions import literal
from store.orders.order_pages import PageArgs, page_pipeline, page_variables
from store.protocols import AsyncCollection
from store.server_codes import DOCUMENT_TOO_LARGE_CODES
from store.times import as_utc

COLLECTION = "users"
INDEXES = [IndexModel([("userId", ASCENDING)], unique=True, name="userId_unique")]
ORDER_SORT = {"createTime": -1, "_id": -1}


@dataclass(frozen=True, slots=True)
class OrderDoc:
    id: str
    create_time: datetime
    info: str | None = None


@dataclass(frozen=True, slots=True)
class UserDoc:
    user_id: str
    user_type: str | None
    name: str | None
    order_count: int


@dataclass(frozen=True, slots=True)
class OrderPage:
    orders: tuple[OrderDoc, ...]
    total: int | None  # orders that pass the filter; None when it was not asked for
    has_next: bool
    has_previous: bool


@dataclass(frozen=True, slots=True)
class UserWithPage:
    user: UserDoc
    page: OrderPage | None


TOO_LARGE = "orders: the user document would exceed 16 MiB; nothing was written"


def _order(raw: Mapping[str, Any]) -> OrderDoc:
    # Positional (id, create_time, info): a page builds one per order, and a frozen
    # dataclass's __init__ matches keywords at a cost of its own.
    return OrderDoc(str(raw["_id"]), as_utc(raw["createTime"]), raw.get("info"))


def _user(raw: Mapping[str, Any]) -> UserDoc:
    return UserDoc(
        user_id=raw["userId"],
        user_type=raw.get("userType"),
        name=raw.get("name"),
        order_count=int(raw.get("orderCount", 0)),
    )


def _page(raw: Mapping[str, Any], args: PageArgs) -> OrderPage:
    orders = tuple(_order(o) for o in raw["page"])
    if args.forward:
        has_next, has_previous = len(orders) > args.size, bool(raw["hasPrevious"])
        orders = orders[: args.size]
    else:
        has_next, has_previous = bool(raw["hasNext"]), len(orders) > args.size
        orders = orders[-args.size :] if args.size else ()
    first = raw.get("first")
    # A server computes the search bounds with $divide/$floor, which give doubles.
    total = None if first is None else int(raw["orderCount"] - first)
    return OrderPage(orders=orders, total=total, has_next=has_next, has_previous=has_previous)


def _summary_projection(ids: Sequence[str]) -> dict[str, Any]:
    return {
        "_id": 0,
        "userId": 1,
        "userType": 1,
        "name": 1,
        "orderCount": {"$size": {"$ifNull": ["$orderList", []]}},
        # Ids of this call that are not stored: empty exactly when the write was applied.
        "absent": {"$setDifference": [literal(list(ids)), {"$ifNull": ["$orderList._id", []]}]},
    }


def upsert_pipeline(
    orders: Sequence[OrderDoc], *, user_type: str | None, name: str | None, max_orders: int
) -> list[dict[str, Any]]:
    """Replace orders with the same id, insert new ones in sorted place, all in one update.

    If the result would hold more than `max_orders`, every field is left as it was.
    """
    ids = [o.id for o in orders]
    incoming = [{"_id": o.id, "info": o.info, "createTime": o.create_time} for o in orders]
    kept = {
        "$filter": {
            "input": {"$ifNull": ["$orderList", []]},
            "cond": {"$not": [{"$in": ["$$this._id", literal(ids)]}]},
        }
    }
    merged = {
        "$sortArray": {"input": {"$concatArrays": [literal(incoming), kept]}, "sortBy": ORDER_SORT}
    }
    applied: dict[str, Any] = {"orderList": {"$cond": ["$_fits", "$_merged", "$orderList"]}}
    for field, value in (("userType", user_type), ("name", name)):
        if value is not None:
            applied[field] = {"$cond": ["$_fits", literal(value), f"${field}"]}
    return [
        {"$set": {"_merged": merged}},
        {"$set": {"_fits": {"$lte": [{"$size": "$_merged"}, max_orders]}}},
        {"$set": applied},
        {"$unset": ["_merged", "_fits"]},
    ]


async def _update_user(
    coll: AsyncCollection,
    user_id: str,
    pipeline: list[dict[str, Any]],
    ids: Sequence[str],
    *,
    upsert: bool,
) -> Mapping[str, Any] | None:
    for attempt in range(2):
        try:
            result: Mapping[str, Any] | None = await coll.find_one_and_update(
                {"userId": user_id},
                pipeline,
                projection=_summary_projection(ids),
                upsert=upsert,
                return_document=ReturnDocument.AFTER,
            )
            return result
        except DuplicateKeyError:
            # Two first writes for one new user: the loser finds the winner's document on the
            # retry (a server retries this shape by itself; this covers a standalone too).
            if attempt:
                raise
        except OperationFailure as exc:
            # A server reports a findAndModify past 16 MiB as a command error
            # (OperationFailure); the code says which limit.
            if exc.code in DOCUMENT_TOO_LARGE_CODES:
                raise StoredLimitReached(TOO_LARGE, argument="orders") from exc
            raise
    return None  # unreachable: the loop returns or raises


async def upsert_orders(
    coll: AsyncCollection,
    *,
    user_id: str,
    orders: Sequence[OrderDoc],
    user_type: str | None = None,
    name: str | None = None,
    max_orders: int,
) -> UserDoc:
    """Replace-or-insert orders atomically, creating the user when missing: one command."""
    pipeline = upsert_pipeline(orders, user_type=user_type, name=name, max_orders=max_orders)
    ids = [o.id for o in orders]
    raw = await _update_user(coll, user_id, pipeline, ids, upsert=True)
    assert raw is not None  # an upsert always returns the document
    if raw["absent"]:
        raise StoredLimitReached(
            f"orders: a user holds at most {max_orders} orders; nothing was written",
            argument="orders",
        )
    return _user(raw)


async def delete_orders(
    coll: AsyncCollection, *, user_id: str, order_ids: Sequence[str]
) -> UserDoc | None:
    """Remove the orders with these ids (unknown ids are ignored): one command."""
    pipeline = [
        {
            "$set": {
                "orderList": {
                    "$filter": {
                        "input": {"$ifNull": ["$orderList", []]},
                        "cond": {"$not": [{"$in": ["$$this._id", literal(list(order_ids))]}]},
                    }
                }
            }
        }
    ]
    raw = await _update_user(coll, user_id, pipeline, [], upsert=False)
    return None if raw is None else _user(raw)


async def load_users(
    coll: AsyncCollection, *, user_ids: Sequence[str], page: PageArgs | None
) -> dict[str, UserWithPage]:
    """Users by id, each with one page of orders cut in the database: one command."""
    ids = list(user_ids)
    pipeline = page_pipeline({"userId": ids[0] if len(ids) == 1 else {"$in": ids}}, page)
    variables = None if page is None else page_variables(page)
    cursor = await coll.aggregate(pipeline, let=variables)
    found = {}
    for raw in await cursor.to_list():
        found[raw["userId"]] = UserWithPage(
            user=_user(raw), page=None if page is None else _page(raw, page)
        )
    return found


async def find_orders(
    coll: AsyncCollection, *, keys: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], OrderDoc]:
    """Orders by (userId, order id), only those asked read from each user: one command."""
    wanted: dict[str, list[str]] = {}
    for user_id, order_id in keys:
        wanted.setdefault(user_id, []).append(order_id)
    where = [{"userId": user_id, "orderList._id": {"$in": ids}} for user_id, ids in wanted.items()]
    every_id = sorted({order_id for _, order_id in keys})
    keep = {"$in": ["$$this._id", literal(every_id)]}
    projection = {
        "_id": 0,
        "userId": 1,
        "orders": {"$filter": {"input": {"$ifNull": ["$orderList", []]}, "cond": keep}},
    }
    docs = await coll.find({"$or": where}, projection=projection).to_list()
    found = {(raw["userId"], str(o["_id"])): _order(o) for raw in docs for o in raw["orders"]}
    return {key: found[key] for key in keys if key in found}
