"""Concurrent recordTrades over real HTTP for a new customer."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from app import create_app
from settings import Settings
from store.database import open_database
from tests.support import FakeClock, live_server
from tests.trades.support import RECORD, assert_invariants, trade


async def test_50_concurrent_record_trades_fill_5_pages_of_10(clock: FakeClock) -> None:
    settings = Settings()
    database = open_database(settings)
    app = create_app(settings, clock=clock, database=database)
    async with live_server(app) as url, httpx.AsyncClient(base_url=url, timeout=60) as client:

        async def record(qty: int) -> tuple[int, int]:
            body = {"query": RECORD, "variables": {"c": 4242, "t": [trade(qty)]}}
            reply: dict[str, Any] = (await client.post("/graphql", json=body)).json()
            assert "errors" not in reply, reply
            [page] = reply["data"]["recordTrades"]["pageNumbers"]
            return qty, page

        reported = dict(await asyncio.gather(*(record(q) for q in range(1, 51))))
        query = """{ customer(customerId: 4242) {
            tradeCount pageCount trades(first: 100) { edges { node { qty date } } } } }"""
        customer = (await client.post("/graphql", json={"query": query})).json()["data"]["customer"]
        assert (customer["tradeCount"], customer["pageCount"]) == (50, 5)
        read_back = [edge["node"] for edge in customer["trades"]["edges"]]

    stored = await assert_invariants(database.collection("trades"), 4242, 10)
    assert sorted(stored) == list(range(1, 51))  # every trade once
    # The connection reads the trades, and their dates, in the order they were inserted.
    assert [t["qty"] for t in read_back] == stored
    assert [t["date"] for t in read_back] == [
        trade(q)["date"].replace("Z", ".000Z") for q in stored
    ]
    for page, doc in enumerate(
        await database.collection("trades")
        .find({"customerId": 4242}, sort=[("page", 1)])
        .to_list(),
        1,
    ):
        assert all(reported[t["qty"]] == page for t in doc["history"])  # where it said it went
