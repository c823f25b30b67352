"""The engine: mongomock-ng behind the slice of PyMongo's async API that arraygraph's store uses.

`EmbeddedEngine()[db][collection]` is an `EmbeddedCollection` (`embedded.collection`), whose
commands run one at a time under the engine's lock and are reported to the engine's observer.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from embedded import mongomock_internals as mongomock
from embedded import operators, unique_indexes, writes
from embedded.collection import EmbeddedCollection
from embedded.protocols import CommandCounts, CommandObserver
from embedded.writes import UpdateApplier


class EmbeddedDatabase:
    def __init__(self, engine: EmbeddedEngine, db: Any) -> None:
        self._engine = engine
        self._db = db
        self._collections: dict[str, EmbeddedCollection] = {}

    @property
    def mongomock_database(self) -> Any:
        """The synchronous internals, for a caller that holds `engine.lock` (the wire front)."""
        return self._db

    def __getitem__(self, name: str) -> EmbeddedCollection:
        if name not in self._collections:
            self._collections[name] = EmbeddedCollection(self._engine, self._db[name])
        return self._collections[name]

    async def command(self, command: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        name = command if isinstance(command, str) else next(iter(command))
        if name not in ("ping", "dropDatabase"):
            raise NotImplementedError(f"the embedded engine does not run {name!r}")
        await asyncio.sleep(0)
        self._engine.observer.started(name)
        if name == "ping":
            return {"ok": 1.0}
        with self._engine.lock:
            writes.drop_database(self._db)
        return {"ok": 1.0, "dropped": self._db.name}


class EmbeddedEngine:
    """An in-process MongoDB stand-in; data lives in memory only.

    `observer` is told of each command (`CommandCounts` when none is given). Creating the first
    engine teaches mongomock-ng's parser the operators of `embedded.operators`, and its
    collections the unique-index rules of `embedded.unique_indexes`, once per process.
    """

    def __init__(self, observer: CommandObserver | None = None) -> None:
        operators.install()
        unique_indexes.install()
        self.observer: CommandObserver = observer if observer is not None else CommandCounts()
        self.lock = threading.RLock()
        self._client: Any = mongomock.new_client()
        self.updates = UpdateApplier()
        self._databases: dict[str, EmbeddedDatabase] = {}

    def __getitem__(self, name: str) -> EmbeddedDatabase:
        if name not in self._databases:
            self._databases[name] = EmbeddedDatabase(self, self._client[name])
        return self._databases[name]

    async def close(self) -> None:
        self._databases.clear()
