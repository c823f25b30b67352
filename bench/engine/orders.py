"""Order pages on the embedded engine: our page against the article's two approaches."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from embedded import EmbeddedCollection, EmbeddedEngine
from store.orders import users
from store.orders.order_pages import PageArgs

BASE = datetime(2024, 1, 1, tzinfo=UTC)


async def _user_with_orders(coll: EmbeddedCollection, user_id: str, count: int) -> None:
    orders = [
        {"_id": f"o{i:06}", "info": f"Info:order{i}", "createTime": BASE + timedelta(minutes=i)}
        for i in reversed(range(count))
    ]
    await coll.insert_one({"userId": user_id, "userType": "TYPE", "orderList": orders})


async def _seconds_per_call(call: Callable[[], Awaitable[Any]], *, budget: float = 1.0) -> float:
    await call()
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget or calls < 3:
        await call()
        calls += 1
    return (time.perf_counter() - start) / calls


def _middle(count: int) -> datetime:
    return BASE + timedelta(minutes=count // 2)


async def run() -> None:
    coll = EmbeddedEngine()["bench"]["users"]
    for count in (1_000, 10_000, 50_000):
        await _user_with_orders(coll, f"u{count}", count)

    async def page(count: int) -> None:
        args = PageArgs(forward=True, size=20, max_create_time=_middle(count), count=True)
        await users.load_users(coll, user_ids=[f"u{count}"], page=args)

    async def slice_find(count: int) -> None:
        await coll.find_one({"userId": f"u{count}"}, {"orderList": {"$slice": [0, 20]}})

    async def filter_slice(count: int) -> None:
        cond = {"$lte": ["$$this.createTime", _middle(count)]}
        filtered = {"$filter": {"input": "$orderList", "cond": cond}}
        pipeline = [
            {"$match": {"userId": f"u{count}"}},
            {"$project": {"orderList": {"$slice": [filtered, 20]}}},
        ]
        await (await coll.aggregate(pipeline)).to_list()

    async def article(count: int) -> None:
        pipeline = [
            {"$match": {"userId": f"u{count}", "userType": "TYPE"}},
            {"$unwind": "$orderList"},
            {"$match": {"orderList.createTime": {"$lte": _middle(count)}}},
            {"$sort": {"orderList.createTime": -1}},
            {"$limit": 20},
            {"$group": {"_id": "$_id", "orderList": {"$push": "$orderList"}}},
        ]
        await (await coll.aggregate(pipeline)).to_list()

    def page_of(count: int) -> Callable[[], Awaitable[None]]:
        return lambda: page(count)

    cost = {n: await _seconds_per_call(page_of(n)) for n in (1_000, 10_000, 50_000)}
    base = await _seconds_per_call(lambda: slice_find(10_000))
    filtered = await _seconds_per_call(lambda: filter_slice(10_000))
    unwind = await _seconds_per_call(lambda: article(1_000), budget=2.0)
    print("orders (embedded engine; 20 orders, maxCreateTime in the middle)")
    print(f"  filtered page, 10,000 orders         {cost[10_000] * 1e3:9.3f} ms")
    print(f"  plain $slice find of 20, 10,000      {base * 1e3:9.3f} ms")
    print(f"  ratio page / $slice find             {cost[10_000] / base:9.1f}   (target <= 4)")
    print(f"  $filter + $slice aggregation, 10,000 {filtered * 1e3:9.3f} ms")
    print(f"  ratio $filter+$slice / page          {filtered / cost[10_000]:9.1f}")
    print(f"  article $unwind/$sort/$group, 1,000  {unwind * 1e3:9.3f} ms")
    print(f"  ratio article / page at 1,000        {unwind / cost[1_000]:9.1f}")
    print(f"  page at 1,000 / 10,000 / 50,000      {cost[1_000] * 1e3:.3f} / "
          f"{cost[10_000] * 1e3:.3f} / {cost[50_000] * 1e3:.3f} ms")  # fmt: skip
