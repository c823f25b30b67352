"""Shared fixtures: the real ASGI app (lifespan included) on the embedded engine."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest

from app import create_app
from settings import Settings
from store.database import Database, open_database
from tests.support import Api, ApiFactory, FakeClock, live_server, running


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings() -> Settings:
    return Settings()


@pytest.fixture
def database(settings: Settings) -> Database:
    return open_database(settings)


@pytest.fixture
async def api(settings: Settings, clock: FakeClock, database: Database) -> AsyncIterator[Api]:
    app = create_app(settings, clock=clock, database=database)
    async with running(app) as client:
        yield Api(client=client, database=database, clock=clock)


@pytest.fixture
async def live_api(settings: Settings, clock: FakeClock, database: Database) -> AsyncIterator[Api]:
    """The app on uvicorn over real HTTP, and a client of up to 64 connections to it."""
    app = create_app(settings, clock=clock, database=database)
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with (
        live_server(app) as url,
        httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client,
    ):
        yield Api(client=client, database=database, clock=clock)


@pytest.fixture
def make_api(clock: FakeClock) -> ApiFactory:
    """An app with other settings: `async with make_api(settings) as api: ...`."""

    @asynccontextmanager
    async def factory(
        settings: Settings, *, demo: bool = False, database: Database | None = None
    ) -> AsyncIterator[Api]:
        database = database or open_database(settings)
        app = create_app(settings, clock=clock, database=database, demo=demo)
        async with running(app) as client:
            yield Api(client=client, database=database, clock=clock)

    return factory
