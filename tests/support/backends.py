"""Where the tests' data lives: the embedded engine in process, the same engine behind its
wire front and the real PyMongo driver, or a real MongoDB.

`ARRAYGRAPH_TEST_ENGINE=wire` runs every test through `pymongo.AsyncMongoClient` against the
engine's wire front (one per test session, on a free loopback port); `MONGODB_URI=mongodb://...`
runs every test against that server. Either way each test gets a database of its own, dropped
afterwards, and round trips are counted by PyMongo's command monitoring, as in production.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Protocol
from uuid import uuid4

from embedded import EmbeddedEngine
from settings import EMBEDDED_URI, Settings
from store.commands import CommandLog
from store.database import Database, open_database

# The engine behind the wire front of this session, by the name of each test's database on it
# (`tests/support/examined.py` reads its counters); a real MongoDB's databases are not here.
WIRE_ENGINES: dict[str, EmbeddedEngine] = {}


class Backend(Protocol):
    name: str

    def open(self, settings: Settings) -> Database:
        """A database for one test, with `settings` otherwise as given."""
        ...

    async def release(self, database: Database) -> None: ...

    def open_twin(self, database: Database, settings: Settings) -> Database:
        """A second handle (another client, as a second server instance has) on the same data."""
        ...

    async def release_twin(self, twin: Database) -> None: ...

    def stop(self) -> None: ...


class Memory:
    """The embedded engine in process: a new engine, so new data, for every database."""

    name = "memory"

    def open(self, settings: Settings) -> Database:
        return open_database(dataclasses.replace(settings, mongodb_uri=EMBEDDED_URI))

    async def release(self, database: Database) -> None:
        await database.close()

    def open_twin(self, database: Database, settings: Settings) -> Database:
        async def keep_open() -> None:
            return None  # the engine is the first handle's

        return Database(db=database.db, commands=CommandLog(), embedded=True, close=keep_open)

    async def release_twin(self, twin: Database) -> None:
        await twin.close()

    def stop(self) -> None:
        return None


class Server:
    """A MongoDB server (the engine's wire front, or a real one) behind AsyncMongoClient."""

    def __init__(
        self, name: str, uri: str, stop: object = None, engine: EmbeddedEngine | None = None
    ) -> None:
        self.name = name
        self.uri = uri
        self._stop = stop
        self._engine = engine  # the wire front's, in this process; None for a real server

    def open(self, settings: Settings) -> Database:
        database = f"arraygraph_test_{uuid4().hex[:12]}"
        if self._engine is not None:
            WIRE_ENGINES[database] = self._engine
        return open_database(dataclasses.replace(settings, mongodb_uri=self.uri, database=database))

    async def release(self, database: Database) -> None:
        try:
            await database.db.command("dropDatabase")
        finally:
            WIRE_ENGINES.pop(getattr(database.db, "name"), None)  # noqa: B009 (PyMongo's name)
            await database.close()

    def open_twin(self, database: Database, settings: Settings) -> Database:
        name = getattr(database.db, "name")  # noqa: B009 (PyMongo's database: its name)
        return open_database(dataclasses.replace(settings, mongodb_uri=self.uri, database=name))

    async def release_twin(self, twin: Database) -> None:
        await twin.close()

    def stop(self) -> None:
        if callable(self._stop):
            self._stop()


def backend_from_env() -> Backend:
    uri = os.environ.get("MONGODB_URI", "").strip()
    if uri.startswith(("mongodb://", "mongodb+srv://")):
        return Server("mongodb", uri)
    if os.environ.get("ARRAYGRAPH_TEST_ENGINE", "memory") == "wire":
        from embedded.wire import start_wire_server

        front = start_wire_server()
        return Server("wire", front.uri, front.stop, front.engine)
    return Memory()
