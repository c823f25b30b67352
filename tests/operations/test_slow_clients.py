"""Slow clients: a request whose head or body trickles in is cut at its read deadline, while
other clients are served; a slow answer is never cut. (The head's own, shorter deadline:
tests/operations/test_head_deadline.py.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from app import create_app
from settings import Settings
from store.database import Database
from tests.support import live_server
from web.server.slow_clients import request_deadline_protocol

DEADLINE_S = 1.0


@asynccontextmanager
async def server(database: Database, **options: object) -> AsyncIterator[tuple[str, int]]:
    app = create_app(Settings(), database=database)
    async with (
        app.router.lifespan_context(app),
        live_server(app, http=request_deadline_protocol(DEADLINE_S), **options) as url,
    ):
        host, port = url.removeprefix("http://").split(":")
        yield host, int(port)


async def closed_after(reader: asyncio.StreamReader, limit_s: float) -> float:
    """Seconds until the server closes the connection (reads what it sends meanwhile)."""
    started = time.monotonic()
    while await asyncio.wait_for(reader.read(1024), limit_s):
        pass
    return time.monotonic() - started


async def test_slow_clients_trickling_head_is_cut_at_the_deadline(database: Database) -> None:
    async with server(database) as (host, port):
        reader, writer = await asyncio.open_connection(host, port)
        started = time.monotonic()
        for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\n":  # one byte every 0.2 s
            writer.write(bytes([byte]))
            await writer.drain()
            if await _closed(reader, 0.2):
                break
        assert DEADLINE_S - 0.1 < time.monotonic() - started < DEADLINE_S + 2
        writer.close()


async def test_slow_clients_short_body_is_cut_at_the_deadline(database: Database) -> None:
    async with server(database) as (host, port):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(
            b"POST /graphql HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
            b'content-length: 100\r\n\r\n{"query'
        )
        await writer.drain()
        assert await closed_after(reader, DEADLINE_S + 3) < DEADLINE_S + 2
        writer.close()


async def test_slow_clients_do_not_keep_others_waiting(database: Database) -> None:
    async with server(database) as (host, port):
        idle = [await asyncio.open_connection(host, port) for _ in range(50)]
        async with httpx.AsyncClient(base_url=f"http://{host}:{port}") as client:
            started = time.monotonic()
            assert (await client.get("/healthz")).status_code == 200
            assert time.monotonic() - started < 0.5
        for _, writer in idle:
            writer.close()


async def test_slow_clients_deadline_spares_a_slow_answer() -> None:
    async def slow(request: Request) -> PlainTextResponse:
        await asyncio.sleep(DEADLINE_S + 0.5)  # the request is in: its answer takes its time
        return PlainTextResponse("done")

    app = Starlette(routes=[Route("/slow", slow)])
    async with (
        live_server(app, http=request_deadline_protocol(DEADLINE_S)) as url,
        httpx.AsyncClient(base_url=url) as client,
    ):
        assert (await client.get("/slow")).text == "done"


async def test_slow_clients_kept_alive_connection_gets_a_new_deadline(database: Database) -> None:
    async with (
        server(database) as (host, port),
        httpx.AsyncClient(base_url=f"http://{host}:{port}") as client,
    ):
        for _ in range(2):  # each request on the connection well past the first deadline
            await asyncio.sleep(DEADLINE_S + 0.5)
            response = await client.post("/graphql", json={"query": "{ __typename }"})
            assert response.json() == {"data": {"__typename": "Query"}}


async def _closed(reader: asyncio.StreamReader, wait_s: float) -> bool:
    try:
        return await asyncio.wait_for(reader.read(1024), wait_s) == b""
    except TimeoutError:
        return False
