"""The engine as a test reaches it: its own collections in process, or, when the run asks for
the wire (`ARRAYGRAPH_TEST_ENGINE=wire`), PyMongo's `AsyncMongoClient` over its wire front.

Both offer the collection API a test uses (find, aggregate, writes, create_indexes), and both run
the same engine, whose counters (`engine.examined`) the test reads either way.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from pymongo import AsyncMongoClient

from embedded import EmbeddedEngine
from embedded.protocols import DocumentsExamined
from embedded.wire import start_wire_server


@dataclass
class Front:
    engine: EmbeddedEngine
    db: Any  # an EmbeddedDatabase, or PyMongo's AsyncDatabase
    wire: bool

    def collection(self, name: str) -> Any:
        return self.db[name]

    @property
    def examined(self) -> DocumentsExamined:
        counts = self.engine.examined
        assert isinstance(counts, DocumentsExamined)
        return counts


def wire_requested() -> bool:
    return os.environ.get("ARRAYGRAPH_TEST_ENGINE", "memory") == "wire"


@asynccontextmanager
async def open_front(engine: EmbeddedEngine) -> AsyncIterator[Front]:
    if not wire_requested():
        yield Front(engine, engine["test"], wire=False)
        return
    server = start_wire_server(engine)
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(
        server.uri, tz_aware=True, serverSelectionTimeoutMS=5_000
    )
    try:
        yield Front(engine, client["test"], wire=True)
    finally:
        await client.close()
        server.stop()
