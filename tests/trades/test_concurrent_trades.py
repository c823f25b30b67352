"""Concurrent recordTrades over real HTTP for a new customer."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from app import create_app
from settings import Settings
from store.database import open_database
from tests.support import FakeClock, live_server
from tests.trades.support import RECORD, assert_invariants, buckets, trade


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


async def test_300_calls_over_64_connections_all_succeed_and_store_each_trade_once(
    clock: FakeClock,
) -> None:
    settings = Settings()
    database = open_database(settings)
    app = create_app(settings, clock=clock, database=database)
    # Call k records 1 to 12 trades (many span two or three buckets); quantity k*100 + j + 1.
    calls = [[trade(k * 100 + j + 1, seconds=k + 1) for j in range(1 + k % 12)] for k in range(300)]
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with (
        live_server(app) as url,
        httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client,
    ):

        async def record(trades: list[dict[str, Any]]) -> dict[str, Any]:
            body = {"query": RECORD, "variables": {"c": 64, "t": trades}}
            reply: dict[str, Any] = (await client.post("/graphql", json=body)).json()
            return reply

        replies = await asyncio.gather(*(record(trades) for trades in calls))
    assert [r for r in replies if "errors" in r] == []
    stored = await assert_invariants(database.collection("trades"), 64, 10)
    assert sorted(stored) == sorted(t["qty"] for trades in calls for t in trades)
    page_of = {
        t["qty"]: page
        for page, doc in enumerate(await buckets(database.collection("trades"), 64), 1)
        for t in doc["history"]
    }
    for trades, reply in zip(calls, replies, strict=True):
        reported = reply["data"]["recordTrades"]["pageNumbers"]
        assert reported == [page_of[t["qty"]] for t in trades]  # where it said each went
