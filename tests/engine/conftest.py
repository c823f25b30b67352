"""The engine's own fixtures: a fresh engine per test; `front`, that engine as the run asks for it
(in process, or over the wire); for the wire front's tests, a front per test and PyMongo's own
client on it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from pymongo import AsyncMongoClient

from embedded import EmbeddedEngine
from embedded.wire import WireServer, start_wire_server
from tests.engine.fronts import Front, open_front
from tests.engine.wire_support import Client, SentCommands


@pytest.fixture
def engine() -> EmbeddedEngine:
    return EmbeddedEngine()


@pytest.fixture
async def front(engine: EmbeddedEngine) -> AsyncIterator[Front]:
    """The engine in process, or over its wire front when the run asks for the wire."""
    async with open_front(engine) as opened:
        yield opened


@pytest.fixture
def server() -> Iterator[WireServer]:
    front = start_wire_server()
    yield front
    front.stop()


@pytest.fixture
def sent() -> SentCommands:
    return SentCommands()


@pytest.fixture
async def client(server: WireServer, sent: SentCommands) -> AsyncIterator[Client]:
    connected: Client = AsyncMongoClient(
        server.uri, tz_aware=True, event_listeners=[sent], serverSelectionTimeoutMS=5_000
    )
    yield connected
    await connected.close()
