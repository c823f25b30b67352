"""Shared fixtures: the real ASGI app (lifespan included) on the embedded engine."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

from app import create_app
from settings import Settings
from store.database import Database, open_database
from store.embedded import EmbeddedEngine
from tests.support import Api, FakeClock, running


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
def make_api(clock: FakeClock) -> Callable[..., Any]:
    """An app with other settings: `async with make_api(settings) as api: ...`."""

    @asynccontextmanager
    async def factory(settings: Settings, **kwargs: Any) -> AsyncIterator[Api]:
        database = kwargs.pop("database", None) or open_database(settings)
        app = create_app(settings, clock=clock, database=database, **kwargs)
        async with running(app) as client:
            yield Api(client=client, database=database, clock=clock)

    return factory


@pytest.fixture
def engine() -> EmbeddedEngine:
    return EmbeddedEngine()
