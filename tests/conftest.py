"""Shared fixtures: the real ASGI app (lifespan included) on the backend the run asks for.

Backends (`tests/support/backends.py`): the embedded engine in process (default), the engine
behind its wire front and the real PyMongo driver (`ARRAYGRAPH_TEST_ENGINE=wire`), or a real
MongoDB (`MONGODB_URI=mongodb://...`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import httpx
import pytest

from app import create_app
from settings import Settings
from store.database import Database
from tests.support import Api, ApiFactory, FakeClock, live_server, running
from tests.support.backends import Backend, backend_from_env

_BACKEND: list[Backend] = []


def pytest_report_header() -> str:
    return f"arraygraph backend: {_session_backend().name}"


def _session_backend() -> Backend:
    if not _BACKEND:
        _BACKEND.append(backend_from_env())
    return _BACKEND[0]


@pytest.fixture(scope="session")
def backend() -> Iterator[Backend]:
    chosen = _session_backend()
    yield chosen
    chosen.stop()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings() -> Settings:
    return Settings()


@pytest.fixture
async def database(settings: Settings, backend: Backend) -> AsyncIterator[Database]:
    opened = backend.open(settings)
    yield opened
    await backend.release(opened)


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
def make_api(clock: FakeClock, backend: Backend) -> ApiFactory:
    """An app with other settings: `async with make_api(settings) as api: ...`."""

    @asynccontextmanager
    async def factory(
        settings: Settings, *, demo: bool = False, database: Database | None = None
    ) -> AsyncIterator[Api]:
        opened = database or backend.open(settings)
        app = create_app(settings, clock=clock, database=opened, demo=demo)
        try:
            async with running(app) as client:
                yield Api(client=client, database=opened, clock=clock)
        finally:
            if database is None:
                await backend.release(opened)

    return factory
