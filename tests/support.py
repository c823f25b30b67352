"""Test helpers: a fake clock, a GraphQL client on the real app, a live uvicorn server."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx
import uvicorn
from starlette.applications import Starlette

from store.commands import CommandLog
from store.database import Database


@dataclass
class FakeClock:
    """An injected clock: tests move time explicitly."""

    now: datetime = field(default_factory=lambda: datetime(2022, 9, 12, 13, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def set(self, moment: str) -> None:
        self.now = datetime.fromisoformat(moment.replace("Z", "+00:00"))


@dataclass
class Api:
    """A GraphQL client on the app, with the engine's command log at hand."""

    client: httpx.AsyncClient
    database: Database
    clock: FakeClock

    @property
    def commands(self) -> CommandLog:
        return self.database.commands

    async def post(
        self,
        query: str,
        variables: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        response = await self.client.post(
            "/graphql", json={"query": query, "variables": variables or {}}, headers=headers
        )
        body: dict[str, Any] = response.json()
        return body

    async def data(self, query: str, variables: dict[str, Any] | None = None) -> Any:
        body = await self.post(query, variables)
        assert "errors" not in body, body
        return body["data"]

    async def round_trips(self, query: str, variables: dict[str, Any] | None = None) -> int:
        self.commands.reset()
        await self.data(query, variables)
        return self.commands.count


def error_codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body.get("errors", [])]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@asynccontextmanager
async def live_server(app: Starlette) -> AsyncIterator[str]:
    """The app on uvicorn over real HTTP on loopback, in this event loop."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
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
