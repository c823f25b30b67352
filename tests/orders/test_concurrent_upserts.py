"""Concurrent upserts over real HTTP: no order lost or duplicated, the array stays sorted."""

from __future__ import annotations

import asyncio

import httpx

from app import create_app
from settings import Settings
from store.database import open_database
from tests.orders.support import UPSERT, order
from tests.support import FakeClock, live_server


async def test_50_concurrent_upserts_with_overlapping_ids_lose_nothing(clock: FakeClock) -> None:
    settings = Settings()
    database = open_database(settings)
    app = create_app(settings, clock=clock, database=database)
    # Call k writes orders k..k+9 (overlapping its neighbours), each created at minute 1000 - id.
    calls = [
        [order(f"{i:03}", 1000 - i, f"from call {k}") for i in range(k, k + 10)] for k in range(50)
    ]
    async with live_server(app) as url, httpx.AsyncClient(base_url=url, timeout=60) as client:

        async def upsert(orders: list[dict[str, object]]) -> None:
            body = {"query": UPSERT, "variables": {"userId": "shared", "orders": orders}}
            response = await client.post("/graphql", json=body)
            assert "errors" not in response.json(), response.json()

        await asyncio.gather(*(upsert(orders) for orders in calls))

    doc = await database.collection("users").find_one({"userId": "shared"})
    assert doc is not None
    stored = doc["orderList"]
    ids = [o["_id"] for o in stored]
    assert sorted(ids) == [f"{i:03}" for i in range(59)]  # every id once
    keys = [(o["createTime"], o["_id"]) for o in stored]
    assert keys == sorted(keys, reverse=True)  # newest first
    assert await database.collection("users").count_documents({"userId": "shared"}) == 1
