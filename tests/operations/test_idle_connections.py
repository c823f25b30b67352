"""Idle connections cannot keep anyone out: open connections are bounded by
`ARRAYGRAPH_MAX_CONNECTIONS`, and a connection past the bound closes the longest-idle one
instead of being turned away. A connection with a request in flight is never closed for another.
(Issue: 520 sockets that sent nothing made `/healthz`, `/readyz` and every query answer 503 until
the read deadline closed them.)"""

from __future__ import annotations

import asyncio

import httpx

from store.database import Database
from tests.operations.served import (
    QUERY,
    close_all,
    closed_by_server,
    opened,
    query_head,
    served,
    status_of,
)

BOUND = 8
EXTRA = 4


async def test_idle_connections_past_the_bound_let_health_checks_and_queries_in(
    database: Database,
) -> None:
    async with served(database, max_connections=BOUND, max_concurrency=BOUND) as (host, port):
        idle = await opened(host, port, BOUND + EXTRA)
        async with httpx.AsyncClient(base_url=f"http://{host}:{port}") as client:
            health = await client.get("/healthz")
            ready = await client.get("/readyz")
            query = await client.post("/graphql", json={"query": "{ __typename }"})
        # Each connection past the bound (the extra idle ones, then the client's) closed the
        # one idle longest: the first opened.
        evicted = EXTRA + 1
        closed = [await closed_by_server(reader) for reader, _ in idle[:evicted]]
        still_open = [not reader.at_eof() for reader, _ in idle[evicted:]]
        close_all(idle)
    assert (health.status_code, ready.status_code) == (200, 200)
    assert query.json() == {"data": {"__typename": "Query"}}
    assert all(closed) and all(still_open)


async def test_idle_connections_are_closed_before_one_whose_request_is_in_flight(
    database: Database,
) -> None:
    async with served(database, max_connections=BOUND) as (host, port):
        busy = await asyncio.open_connection(host, port)
        busy[1].write(query_head() + QUERY[:5])  # the app waits for the rest of the body
        await asyncio.sleep(0.1)
        idle = await opened(host, port, BOUND + 2)
        closed = [await closed_by_server(reader) for reader, _ in idle[:3]]
        busy[1].write(QUERY[5:])
        answered = await status_of(busy)
        close_all([busy, *idle])
    assert all(closed)
    assert answered == b"HTTP/1.1 200 OK"


async def test_idle_connections_none_the_new_one_is_closed_and_those_in_flight_answered(
    database: Database,
) -> None:
    async with served(database, max_connections=2) as (host, port):
        busy = [await asyncio.open_connection(host, port) for _ in range(2)]
        for _, writer in busy:
            writer.write(query_head() + QUERY[:5])
        await asyncio.sleep(0.1)
        late = await asyncio.open_connection(host, port)
        refused = await closed_by_server(late[0])
        for _, writer in busy:
            writer.write(QUERY[5:])
        answers = [await status_of(connection) for connection in busy]
        close_all([*busy, late])
    assert refused
    assert answers == [b"HTTP/1.1 200 OK"] * 2
