"""The app in process (ASGI transport, lifespan included), or on uvicorn over real HTTP."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import uvicorn
from starlette.applications import Starlette


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@asynccontextmanager
async def live_server(app: Starlette, **options: Any) -> AsyncIterator[str]:
    """The app on uvicorn over real HTTP on loopback, in this event loop; `options` are
    uvicorn's (`http=`, `limit_concurrency=`...)."""
    port = free_port()
    # A long keep-alive: under a heavy test, a connection can sit idle in the client's pool past
    # uvicorn's 5 s default, and a request sent as the server closes it fails with ReadError.
    settings: dict[str, Any] = {"log_level": "warning", "timeout_keep_alive": 300, **options}
    config = uvicorn.Config(app, host="127.0.0.1", port=port, **settings)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


@asynccontextmanager
async def running(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client
