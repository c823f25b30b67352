"""`ARRAYGRAPH_MAX_CONCURRENCY` caps requests in flight, not connections: idle connections do
not count, past the cap a request is answered 503 `SERVICE_UNAVAILABLE` as GraphQL, and
`/healthz` and `/readyz` answer whatever the number in flight (a health check must not fail,
and restart the container, because the service is busy)."""

from __future__ import annotations

import asyncio
import json

import httpx

from store.database import Database
from tests.operations.served import QUERY, close_all, opened, query_head, served, status_of


async def test_requests_in_flight_idle_connections_do_not_count(database: Database) -> None:
    async with served(database, max_concurrency=2) as (host, port):
        idle = await opened(host, port, 6)
        async with httpx.AsyncClient(base_url=f"http://{host}:{port}") as client:
            response = await client.post("/graphql", json={"query": "{ __typename }"})
        close_all(idle)
    assert response.json() == {"data": {"__typename": "Query"}}


async def test_requests_in_flight_past_the_cap_are_503_but_health_checks_answer(
    database: Database,
) -> None:
    async with served(database, max_concurrency=1) as (host, port):
        busy = await asyncio.open_connection(host, port)
        busy[1].write(query_head() + QUERY[:5])  # in flight: the app waits for the rest
        await asyncio.sleep(0.1)
        async with httpx.AsyncClient(base_url=f"http://{host}:{port}") as client:
            refused = await client.post("/graphql", json={"query": "{ __typename }"})
            health = await client.get("/healthz")
            ready = await client.get("/readyz")
        busy[1].write(QUERY[5:])
        answered = await status_of(busy)
        close_all([busy])
    assert refused.status_code == 503
    assert refused.headers["retry-after"] == "1"
    assert json.loads(refused.content)["errors"][0]["extensions"] == {"code": "SERVICE_UNAVAILABLE"}
    assert (health.status_code, ready.status_code) == (200, 200)
    assert answered == b"HTTP/1.1 200 OK"
