"""A database that stops answering, or goes away, while the app runs: requests answer
SERVICE_UNAVAILABLE within the operation timeout (never INTERNAL_SERVER_ERROR, never a hang),
and /readyz turns 503 with the reason."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import httpx
import pytest

from app import create_app
from embedded.wire import WireServer, start_wire_server
from settings import Settings
from tests.operations.faults import StallingProxy
from tests.support import running
from tests.support.api import error_codes

QUERY = "{ sensors(first: 1) { totalCount } }"
CREATE = 'mutation { createSensor(title: "during the outage") { id } }'
TIMEOUT_MS = 1_000


@pytest.fixture(scope="module")
def wire_front() -> Iterator[WireServer]:
    front = start_wire_server()
    yield front
    front.stop()


@asynccontextmanager
async def app_behind(proxy: StallingProxy) -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings(mongodb_uri=proxy.uri, database="outage", mongodb_timeout_ms=TIMEOUT_MS)
    async with running(create_app(settings)) as client:
        yield client


async def post(client: httpx.AsyncClient, query: str) -> dict[str, object]:
    response = await client.post("/graphql", json={"query": query})
    assert response.status_code == 200
    body: dict[str, object] = response.json()
    return body


@asynccontextmanager
async def proxy_to(front: WireServer) -> AsyncIterator[StallingProxy]:
    proxy = StallingProxy(front.port)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.close()


@pytest.mark.parametrize("query", [QUERY, CREATE], ids=["query", "mutation"])
async def test_outage_stalled_database_answers_service_unavailable(
    wire_front: WireServer, query: str
) -> None:
    async with proxy_to(wire_front) as proxy, app_behind(proxy) as client:
        assert "errors" not in await post(client, QUERY)
        proxy.stall()
        started = time.monotonic()
        body = await post(client, query)
        assert time.monotonic() - started < 10 * TIMEOUT_MS / 1000
        assert error_codes(body) == ["SERVICE_UNAVAILABLE"]
        message = body["errors"][0]["message"]  # type: ignore[index]
        assert "retry" in message and "127.0.0.1" not in message


async def test_outage_stalled_database_makes_readyz_say_why(wire_front: WireServer) -> None:
    async with proxy_to(wire_front) as proxy, app_behind(proxy) as client:
        assert (await client.get("/readyz")).status_code == 200
        proxy.stall()
        response = await client.get("/readyz")
        assert response.status_code == 503
        assert response.json()["reason"].strip()
        assert (await client.get("/healthz")).status_code == 200  # alive: not restarted


async def test_outage_database_gone_answers_service_unavailable(wire_front: WireServer) -> None:
    async with proxy_to(wire_front) as proxy, app_behind(proxy) as client:
        assert "errors" not in await post(client, QUERY)
        await proxy.close()  # the port closes and every connection drops
        body = await post(client, QUERY)
        assert error_codes(body) == ["SERVICE_UNAVAILABLE"]
        assert (await client.get("/readyz")).status_code == 503
