"""An app with a cost budget, its buckets' clock in the test's hands, and clients that call it
from the addresses they choose."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from app import create_app
from resolvers.access import cost_budget
from settings import Settings
from store.database import Database
from tests.support.backends import Backend
from tests.support.clock import FakeClock

GRAPHQL_RESPONSE = "application/graphql-response+json"
# Twenty fields, each counted once: a cost of 20, a third of a budget of 60 a minute.
TWENTY = "{ " + " ".join(f"a{n}: __typename" for n in range(20)) + " }"


class Ticks:
    """The buckets' monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def fake_ticks(monkeypatch: pytest.MonkeyPatch) -> Ticks:
    """The buckets of apps made from now on read `Ticks`."""
    found = Ticks()
    monkeypatch.setattr(cost_budget, "time", found)
    return found


@dataclass
class Budgeted:
    app: Starlette
    database: Database

    def client(self, address: str = "127.0.0.1") -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=self.app, client=(address, 40000))
        return httpx.AsyncClient(transport=transport, base_url="http://testserver")


@asynccontextmanager
async def budgeted(
    backend: Backend, clock: FakeClock, per_minute: int, **more: Any
) -> AsyncIterator[Budgeted]:
    settings = Settings(cost_budget_per_minute=per_minute, **more)
    database = backend.open(settings)
    try:
        app = create_app(settings, clock=clock, database=database)
        async with app.router.lifespan_context(app):
            yield Budgeted(app, database)
    finally:
        await backend.release(database)


async def post(
    client: httpx.AsyncClient, query: str, *, headers: dict[str, str] | None = None
) -> httpx.Response:
    return await client.post("/graphql", json={"query": query}, headers=headers or {})
