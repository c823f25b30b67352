"""Shared fixtures: the real ASGI app (lifespan included) on the backend the run asks for.

Backends (`tests/support/backends.py`): the embedded engine in process (default), the engine
behind its wire front and the real PyMongo driver (`ARRAYGRAPH_TEST_ENGINE=wire`), or a real
MongoDB (`MONGODB_URI=mongodb://...`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import pytest

from app import create_app
from settings import Settings
from store.database import Database
from store.registry import DEMO_NAMES
from tests.support import Api, ApiFactory, FakeClock, live_client, live_server, running
from tests.support.backends import Backend, backend_from_env
from tests.support.demo import DemoTemplates

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


@pytest.fixture(scope="session")
def demo_templates(backend: Backend) -> DemoTemplates:
    """The demo, seeded once a session (for each clock and setting it depends on)."""
    return DemoTemplates(backend)


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
async def demo_database(
    settings: Settings, clock: FakeClock, backend: Backend, demo_templates: DemoTemplates
) -> AsyncIterator[Database]:
    """A database of this test's own holding the demo as `serve --demo` leaves it at `clock`'s
    now: a copy of the session's seeding."""
    opened = backend.open(settings)
    try:
        await demo_templates.copy_into(opened, settings, clock())
        yield opened
    finally:
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
    async with live_server(app) as url, live_client(url, connections=64) as client:
        yield Api(client=client, database=database, clock=clock)


@pytest.fixture
def make_api(clock: FakeClock, backend: Backend, demo_templates: DemoTemplates) -> ApiFactory:
    """An app with other settings: `async with make_api(settings) as api: ...`. `demo=True`
    gives it a copy of the session's demo data (`demo=(names...)`: of those of its collections
    only); `seed_demo=True` starts it as `serve --demo` does, seeding a database that holds
    none of the demo's collections."""

    @asynccontextmanager
    async def factory(
        settings: Settings,
        *,
        demo: bool | tuple[str, ...] = False,
        seed_demo: bool = False,
        database: Database | None = None,
    ) -> AsyncIterator[Api]:
        opened = database or backend.open(settings)
        try:
            if demo is not False:
                only = DEMO_NAMES if demo is True else demo
                await demo_templates.copy_into(opened, settings, clock(), only)
            app = create_app(settings, clock=clock, database=opened, demo=seed_demo)
            async with running(app) as client:
                yield Api(client=client, database=opened, clock=clock)
        finally:
            if database is None:
                await backend.release(opened)

    return factory
