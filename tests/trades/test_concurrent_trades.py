"""Concurrent recordTrades over real HTTP: every trade stored once, where its call said."""

from __future__ import annotations

import asyncio
from typing import Any

from app import create_app
from settings import Settings
from store.database import Database
from tests.support import Api, FakeClock, live_client, live_server
from tests.support.backends import Backend
from tests.trades.support import RECORD, assert_invariants, buckets, trade

READ_BACK = """query($c: Int!) { customer(customerId: $c) {
    tradeCount pageCount trades(first: 100) { edges { node { qty date } } } } }"""


async def _pages_of_stored_trades(api: Api, customer_id: int) -> dict[int, int]:
    docs = await buckets(api.collection("trades"), customer_id)
    return {t["qty"]: page for page, doc in enumerate(docs, 1) for t in doc["history"]}


async def test_50_concurrent_record_trades_fill_5_pages_of_10(live_api: Api) -> None:
    replies = await asyncio.gather(
        *(live_api.data(RECORD, {"c": 4242, "t": [trade(q)]}) for q in range(1, 51))
    )
    customer = (await live_api.data(READ_BACK, {"c": 4242}))["customer"]
    assert (customer["tradeCount"], customer["pageCount"]) == (50, 5)
    stored = await assert_invariants(live_api.collection("trades"), 4242, 10)
    assert sorted(stored) == list(range(1, 51))  # every trade once
    # The connection reads the trades, and their dates, in the order they were inserted.
    read_back = [edge["node"] for edge in customer["trades"]["edges"]]
    assert [t["qty"] for t in read_back] == stored
    assert [t["date"] for t in read_back] == [
        trade(q)["date"].replace("Z", ".000Z") for q in stored
    ]
    page_of = await _pages_of_stored_trades(live_api, 4242)
    reported = [reply["recordTrades"]["pageNumbers"] for reply in replies]
    assert reported == [[page_of[q]] for q in range(1, 51)]  # where each call said it went


async def test_300_calls_over_64_connections_all_succeed_and_store_each_trade_once(
    live_api: Api,
) -> None:
    # Call k records 1 to 12 trades (many span two or three buckets); quantity k*100 + j + 1.
    calls = [[trade(k * 100 + j + 1, seconds=k + 1) for j in range(1 + k % 12)] for k in range(300)]
    replies = await asyncio.gather(*(live_api.post(RECORD, {"c": 64, "t": t}) for t in calls))
    assert [r for r in replies if "errors" in r] == []  # no CONFLICT, no error at all
    stored = await assert_invariants(live_api.collection("trades"), 64, 10)
    assert sorted(stored) == sorted(t["qty"] for trades in calls for t in trades)
    page_of = await _pages_of_stored_trades(live_api, 64)
    for trades, reply in zip(calls, replies, strict=True):
        reported = reply["data"]["recordTrades"]["pageNumbers"]
        assert reported == [page_of[t["qty"]] for t in trades]  # where it said each went


async def test_two_server_instances_writing_one_customer_store_each_trade_once(
    database: Database, backend: Backend, clock: FakeClock
) -> None:
    # Each instance has its own client and its own loaders; only the database is shared.
    twin = backend.open_twin(database, Settings())
    apps = [create_app(Settings(), clock=clock, database=db) for db in (database, twin)]
    calls = [[trade(k * 100 + j + 1, seconds=k + 1) for j in range(1 + k % 12)] for k in range(200)]
    try:
        async with (
            live_server(apps[0]) as first,
            live_server(apps[1]) as second,
            live_client(first, connections=32, timeout=300) as a,
            live_client(second, connections=32, timeout=300) as b,
        ):

            async def record(k: int, trades: list[dict[str, Any]]) -> dict[str, Any]:
                client = (a, b)[k % 2]
                body = {"query": RECORD, "variables": {"c": 65, "t": trades}}
                reply: dict[str, Any] = (await client.post("/graphql", json=body)).json()
                return reply

            replies = await asyncio.gather(*(record(k, t) for k, t in enumerate(calls)))
    finally:
        await backend.release_twin(twin)
    assert [r for r in replies if "errors" in r] == []
    stored = await assert_invariants(database.collection("trades"), 65, 10)
    assert sorted(stored) == sorted(t["qty"] for trades in calls for t in trades)
