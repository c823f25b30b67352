"""The two ways the runner reaches the engine: its in-process API, as the store opens it (a new
engine for every test), and PyMongo's `AsyncMongoClient` over the wire front (one front and one
client for the run, each test's databases dropped before it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pymongo import AsyncMongoClient

from embedded import EmbeddedEngine

MODES = ("memory", "wire")


class Front(Protocol):
    name: str

    async def fresh(self, databases: Sequence[str]) -> None:
        """Empty `databases`, before a test."""
        ...

    def client(self, uri_options: Mapping[str, Any]) -> Any:
        """A client entity: what `[database][collection]` reaches the engine through."""
        ...

    async def read_all(self, database: str, collection: str) -> list[Any]:
        """Every document of the collection, by `_id`."""
        ...

    async def close(self) -> None: ...


class Memory:
    name = "memory"

    def __init__(self) -> None:
        self._engine = EmbeddedEngine()

    async def fresh(self, databases: Sequence[str]) -> None:
        await self._engine.close()
        self._engine = EmbeddedEngine()

    def client(self, uri_options: Mapping[str, Any]) -> Any:
        return self._engine  # the in-process API has no client options

    async def read_all(self, database: str, collection: str) -> list[Any]:
        cursor = self._engine[database][collection].find({}, sort=[("_id", 1)])
        return list(await cursor.to_list())

    async def close(self) -> None:
        await self._engine.close()


class Wire:
    name = "wire"

    def __init__(self) -> None:
        from embedded.wire import start_wire_server

        self._server = start_wire_server()
        self._clients: list[AsyncMongoClient[dict[str, Any]]] = []
        self._default = self.client({})

    async def fresh(self, databases: Sequence[str]) -> None:
        for database in databases:
            await self._default.drop_database(database)

    def client(self, uri_options: Mapping[str, Any]) -> Any:
        if uri_options or not self._clients:
            opened: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(
                self._server.uri,
                tz_aware=True,
                uuidRepresentation="standard",
                serverSelectionTimeoutMS=5_000,
                **uri_options,
            )
            self._clients.append(opened)
            return opened
        return self._default

    async def read_all(self, database: str, collection: str) -> list[Any]:
        cursor = self._default[database][collection].find({}, sort=[("_id", 1)])
        return list(await cursor.to_list())

    async def close(self) -> None:
        for opened in self._clients:
            await opened.close()
        self._server.stop()


def open_front(mode: str) -> Front:
    return Wire() if mode == "wire" else Memory()
