"""Concurrent upserts over real HTTP: no order lost or duplicated, the array stays sorted."""

from __future__ import annotations

import asyncio

from tests.orders.support import UPSERT, order
from tests.support import Api


async def test_50_concurrent_upserts_with_overlapping_ids_lose_nothing(live_api: Api) -> None:
    # Call k writes orders k..k+9 (overlapping its neighbours), each created at minute 1000 - id.
    calls = [
        [order(f"{i:03}", 1000 - i, f"from call {k}") for i in range(k, k + 10)] for k in range(50)
    ]
    await asyncio.gather(
        *(live_api.data(UPSERT, {"userId": "shared", "orders": orders}) for orders in calls)
    )
    users = live_api.collection("users")
    doc = await users.find_one({"userId": "shared"})
    assert doc is not None
    stored = doc["orderList"]
    ids = [o["_id"] for o in stored]
    assert sorted(ids) == [f"{i:03}" for i in range(59)]  # every id once
    keys = [(o["createTime"], o["_id"]) for o in stored]
    assert keys == sorted(keys, reverse=True)  # newest first
    assert await users.count_documents({"userId": "shared"}) == 1
