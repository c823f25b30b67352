"""The app on uvicorn as `arraygraph serve` sets it up (`web.server.protocol.server_options`),
with some settings changed, and raw sockets to talk to it."""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx

from app import create_app
from settings import Settings
from store.database import Database
from tests.support import live_server
from web.server.protocol import server_options

Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]
QUERY = b'{"query": "{ __typename }"}'


@asynccontextmanager
async def served(database: Database, **changed: Any) -> AsyncIterator[tuple[str, int]]:
    """Host and port of the app served with `Settings()` changed by `changed`."""
    settings = dataclasses.replace(Settings(), **changed)
    app = create_app(settings, database=database)
    async with (
        app.router.lifespan_context(app),
        live_server(app, **server_options(settings)) as url,
    ):
        host, port = url.removeprefix("http://").split(":")
        yield host, int(port)


async def opened(host: str, port: int, count: int) -> list[Connection]:
    """`count` connections that send nothing, once the server has accepted each."""
    connections = [await asyncio.open_connection(host, port) for _ in range(count)]
    await asyncio.sleep(0.1)  # the server accepts on this event loop
    return connections


async def closed_by_server(reader: asyncio.StreamReader, wait_s: float = 5.0) -> bool:
    """Whether the server closes the connection within `wait_s` (what it sends is read)."""
    try:
        while await asyncio.wait_for(reader.read(65536), wait_s):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def query_head(body_length: int = len(QUERY)) -> bytes:
    return (
        b"POST /graphql HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n" % body_length
    )


async def status_of(connection: Connection) -> bytes:
    """The status line of the next answer on `connection`, its body read whole."""
    reader, _ = connection
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )
    await asyncio.wait_for(reader.readexactly(length), 10)
    return head.split(b"\r\n")[0]


def close_all(connections: list[Connection]) -> None:
    for _, writer in connections:
        writer.close()


def wait_until_serving(url: str, process: subprocess.Popen[str]) -> None:
    """Until `arraygraph serve` in `process` answers `/healthz`."""
    for _ in range(300):
        assert process.poll() is None, process.communicate()
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise AssertionError("the server did not start")
